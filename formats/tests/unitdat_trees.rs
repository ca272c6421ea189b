//! Unit DAT: hand-built part trees, full 32-byte fields, the strict tree
//! check and its compatible-mode quirk, the builder.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::error::Problem;
use iron3d_formats::unitdat::*;
use proptest::prelude::*;
use support::{expect_error, leaf_part};

fn field(bytes: &[u8]) -> [u8; 32] {
    let mut f = [0u8; 32];
    f[..bytes.len()].copy_from_slice(bytes);
    f
}

/// One record written by hand: archive, name, flags, attachment,
/// description, class, child count.
fn record(
    out: &mut Vec<u8>,
    name: [u8; 32],
    attachment: i32,
    description: [u8; 32],
    class: u32,
    children: i32,
) {
    out.extend_from_slice(&field(b"objects.rlb"));
    out.extend_from_slice(&name);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&attachment.to_le_bytes());
    out.extend_from_slice(&description);
    out.extend_from_slice(&class.to_le_bytes());
    out.extend_from_slice(&children.to_le_bytes());
}

/// A robot: chassis(turret(gun(ammo)), armour), internal as a second root.
/// The chassis name has bytes after its NUL; the gun description fills all
/// 32 bytes without a NUL.
fn robot() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC.to_le_bytes());
    out.extend_from_slice(&CLASS_ROBOT.to_le_bytes());
    let mut chassis = field(b"r_chassis");
    chassis[20..24].copy_from_slice(b"TAIL");
    record(&mut out, chassis, -1, field(b"\xd8\xe0\xf1\xf1\xe8"), 0, 2);
    record(&mut out, field(b"r_turret"), 0, field(b"turret"), 1, 1);
    record(&mut out, field(b"r_gun"), 1, [b'G'; 32], 4, 1);
    record(&mut out, field(b"r_ammo"), 0, field(b"ammo"), 5, 0);
    record(&mut out, field(b"r_armour"), 2, field(b"armour"), 2, 0);
    record(&mut out, field(b"r_core"), -1, field(b"core"), 3, 0);
    out
}

#[test]
fn robot_parses_into_a_depth_first_tree() {
    let data = robot();
    assert_eq!(data.len(), 8 + 6 * RECORD_SIZE);
    let dat = UnitDat::parse(&data, Mode::Strict).unwrap();
    assert_eq!((dat.magic, dat.class_word), (MAGIC, CLASS_ROBOT));
    let classes: Vec<_> = dat.parts.iter().map(|p| p.class().unwrap()).collect();
    assert_eq!(
        classes,
        [
            PartClass::Chassis,
            PartClass::Turret,
            PartClass::Gun,
            PartClass::Ammo,
            PartClass::Armour,
            PartClass::Internal
        ]
    );
    let links = dat.tree().unwrap();
    let parents: Vec<_> = links.iter().map(|l| l.parent).collect();
    assert_eq!(parents, [None, Some(0), Some(1), Some(2), Some(0), None]);
    let depths: Vec<_> = links.iter().map(|l| l.depth).collect();
    assert_eq!(depths, [0, 1, 2, 3, 1, 0]);
    assert_eq!(UnitDat::children(&links, 0), [1, 4]);
    assert_eq!(dat.parts[0].key(), b"r_chassis");
    assert_eq!(&dat.parts[0].name[20..24], b"TAIL");
    assert_eq!(dat.parts[0].description_text(), "Шасси");
    assert_eq!(dat.parts[2].description_bytes(), &[b'G'; 32]);
    assert_eq!(dat.parts[0].archive_name(), b"objects.rlb");
    assert_eq!(dat.component_keys().len(), 6);
}

#[test]
fn robot_round_trips_byte_identical() {
    let data = robot();
    assert_eq!(
        UnitDat::parse(&data, Mode::Strict).unwrap().to_bytes(),
        data
    );
}

#[test]
fn building_with_a_single_root_and_no_parts() {
    let mut data = Vec::new();
    data.extend_from_slice(&MAGIC.to_le_bytes());
    data.extend_from_slice(&CLASS_BUILDING.to_le_bytes());
    let dat = UnitDat::parse(&data, Mode::Strict).unwrap();
    assert!(dat.parts.is_empty() && dat.tree().unwrap().is_empty());
    record(&mut data, field(b"b_gen"), -1, field(b"gen"), 0, 0);
    let dat = UnitDat::parse(&data, Mode::Strict).unwrap();
    assert_eq!(dat.class_word, CLASS_BUILDING);
    assert_eq!(dat.tree().unwrap()[0].parent, None);
}

#[test]
fn broken_trees_are_a_strict_error_and_a_compatible_quirk() {
    // A child count larger than the records that follow.
    let mut data = robot();
    let at = 8 + RECORD_SIZE - 4;
    data[at..at + 4].copy_from_slice(&9i32.to_le_bytes());
    let err = UnitDat::parse(&data, Mode::Strict).unwrap_err();
    assert!(matches!(
        err.problem,
        Problem::Quirk {
            name: QUIRK_BROKEN_TREE,
            ..
        }
    ));
    assert_eq!(err.offset, 8);
    let dat = UnitDat::parse(&data, Mode::Compatible).unwrap();
    assert_eq!(dat.to_bytes(), data);
    assert_eq!(dat.quirks(), [err]);
    // A negative child count.
    let mut data = robot();
    let at = 8 + 2 * RECORD_SIZE - 4;
    data[at..at + 4].copy_from_slice(&(-1i32).to_le_bytes());
    let err = UnitDat::parse(&data, Mode::Strict).unwrap_err();
    assert_eq!(err.offset, (8 + RECORD_SIZE) as u64);
}

#[test]
fn bad_magic_and_partial_records_are_errors() {
    let mut data = robot();
    data[0] = 0xF2;
    assert!(matches!(
        UnitDat::parse(&data, Mode::Compatible).unwrap_err().problem,
        Problem::BadMagic { .. }
    ));
    let data = robot();
    for (cut, offset, needle) in [
        (
            0,
            0,
            "unit DAT: truncated: expected 4 more bytes, 0 available",
        ),
        (
            3,
            0,
            "unit DAT: truncated: expected 4 more bytes, 3 available",
        ),
        (
            7,
            4,
            "unit DAT: truncated: expected 4 more bytes, 3 available",
        ),
    ] {
        expect_error(UnitDat::parse(&data[..cut], Mode::Strict), offset, needle);
    }
    // records start after the 8-byte header
    for cut in [9, 8 + RECORD_SIZE + 1, data.len() - 1] {
        expect_error(
            UnitDat::parse(&data[..cut], Mode::Strict),
            8,
            &format!(
                "unit DAT: expected a whole number of 112-byte records, found {} bytes",
                cut - 8
            ),
        );
    }
}

#[test]
fn builder_writes_the_tree_depth_first() {
    let root = PartSpec {
        key: "c".into(),
        description: "Корпус".into(),
        class: PartClass::Chassis,
        attachment: -1,
        children: vec![
            PartSpec {
                children: vec![leaf_part("g", PartClass::Gun)],
                ..leaf_part("t", PartClass::Turret)
            },
            leaf_part("a", PartClass::Armour),
        ],
    };
    let dat = UnitDat::build(CLASS_ROBOT, &[root]).unwrap();
    let keys: Vec<_> = dat.component_keys();
    assert_eq!(keys, [&b"c"[..], b"t", b"g", b"a"]);
    let bytes = dat.to_bytes();
    let back = UnitDat::parse(&bytes, Mode::Strict).unwrap();
    assert_eq!(back, dat);
    assert_eq!(back.parts[0].description_text(), "Корпус");
    assert_eq!(back.parts[0].child_count, 2);
    let too_long = PartSpec {
        key: "x".repeat(32),
        ..leaf_part("x", PartClass::Ammo)
    };
    expect_error(
        UnitDat::build(CLASS_ROBOT, &[too_long]),
        0,
        &format!(
            "unit DAT: expected a name of at most 31 bytes without NUL, found \"{}\"",
            "x".repeat(32)
        ),
    );
    let full_description = PartSpec {
        description: "d".repeat(32),
        ..leaf_part("x", PartClass::Ammo)
    };
    let dat = UnitDat::build(CLASS_ROBOT, &[full_description]).unwrap();
    assert_eq!(dat.parts[0].description_bytes().len(), 32);
}

proptest! {
    #[test]
    fn any_records_round_trip_in_compatible_mode(
        class in any::<u32>(),
        records in proptest::collection::vec(proptest::collection::vec(any::<u8>(), RECORD_SIZE), 0..6),
    ) {
        let mut data = MAGIC.to_le_bytes().to_vec();
        data.extend_from_slice(&class.to_le_bytes());
        records.iter().for_each(|r| data.extend_from_slice(r));
        let dat = UnitDat::parse(&data, Mode::Compatible).unwrap();
        prop_assert_eq!(dat.to_bytes(), data);
    }
}
