//! MAT0: hand-written vectors for versions 1..6 (prefix by version, FACTS.md),
//! directory flags, exact framing, phase selection for the four modes, the
//! WEAR -> DEFAULT -> entry 0 resolve and the lightmap slot.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::mat0::{
    AnimBlock, AnimKey, AnimMode, Mat0, Phase, Resolution, lightmap_slot, resolve_material,
};
use iron3d_formats::wear::{Wear, WearRow};
use support::{expect_cut_error, expect_error};

/// Two phases ("TEX_A", untextured) and one loop block with keys (0@0), (1@10).
fn body() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend((1..=18u8).collect::<Vec<_>>());
    b.extend(b"TEX_A\0\0\0\0\0\0\0\0\0\0\0");
    b.extend([0xAA; 18]);
    b.extend([0u8; 16]);
    b.extend(0x0000_0018u32.to_le_bytes()); // mode 0, mask 3
    b.extend(2u16.to_le_bytes());
    b.extend([0, 0, 0, 0, 9, 0]); // k0 0, k1 0, k2 9
    b.extend([1, 0, 10, 0, 0xFF, 0xFF]);
    b
}

fn payload(version: u32) -> Vec<u8> {
    let mut p = vec![2, 0, 1, 0]; // 2 phases, 1 animation block
    if version >= 2 {
        p.extend([5, 6]);
    }
    if version >= 3 {
        p.extend(0.5f32.to_le_bytes());
    }
    if version >= 4 {
        p.extend(2.0f32.to_le_bytes());
    }
    p.extend(body());
    p
}

#[test]
fn versions_1_to_6_read_their_prefix_and_default_the_rest() {
    for version in 1..=6 {
        let data = payload(version);
        let m = Mat0::parse(&data, 0, version).unwrap();
        let (src, dst) = if version >= 2 { (5, 6) } else { (255, 255) };
        assert_eq!((m.src_blend, m.dst_blend), (src, dst), "v{version}");
        assert_eq!(
            m.alpha(),
            if version >= 3 { 0.5 } else { 1.0 },
            "v{version}"
        );
        assert_eq!(
            m.emissive(),
            if version >= 4 { 2.0 } else { 0.0 },
            "v{version}"
        );
        assert_eq!(m.phases.len(), 2);
        assert_eq!(m.phases[0].texture(), b"TEX_A");
        assert_eq!(m.phases[0].parameters[17], 18);
        assert_eq!(
            m.phases[1].texture(),
            b"",
            "an empty name is an untextured surface"
        );
        assert_eq!(m.animations.len(), 1);
        assert_eq!(m.animations[0].mode(), Some(AnimMode::Loop));
        assert_eq!(m.animations[0].mask(), 3);
        assert_eq!(
            m.animations[0].keys[1],
            AnimKey {
                k0: 1,
                k1: 10,
                k2: 0xFFFF
            }
        );
        assert_eq!(m.to_bytes().unwrap(), data, "v{version} round trip");
    }
}

#[test]
fn a_version_does_not_read_the_fields_of_a_later_one() {
    // A v4 payload read as v1 leaves 10 prefix bytes that break the framing.
    expect_error(
        Mat0::parse(&payload(4), 0, 1),
        78,
        "MAT0: expected end of data, 22 bytes remain",
    );
    expect_error(
        Mat0::parse(&payload(1), 0, 4),
        88,
        "MAT0: expected animation keys: 10 x 6 bytes within the 2 remaining, found 60 bytes needed",
    );
}

#[test]
fn directory_flags_carry_render_type_and_bump() {
    let m = Mat0::parse(&payload(1), 0b10_1110, 1).unwrap();
    assert_eq!(m.render_type(), 0b1011);
    assert!(m.bump());
    let m = Mat0::parse(&payload(1), 0b100, 1).unwrap();
    assert_eq!((m.render_type(), m.bump()), (1, false));
    assert_eq!(m.directory_attrs(), (0b100, 1));
}

#[test]
fn framing_errors() {
    let mut twenty = payload(1);
    twenty[2] = 20;
    let err = Mat0::parse(&twenty, 0, 1).unwrap_err();
    assert_eq!(err.offset, 2);
    let mut trailing = payload(6);
    trailing.push(0);
    expect_error(
        Mat0::parse(&trailing, 0, 6),
        100,
        "MAT0: expected end of data, 1 bytes remain",
    );
    let data = payload(3);
    for cut in 0..data.len() {
        expect_cut_error(Mat0::parse(&data[..cut], 0, 3), cut);
    }
    expect_error(
        Mat0::parse(&data[..10], 0, 3),
        10,
        "MAT0: expected phases: 2 x 34 bytes within the 0 remaining, found 68 bytes needed",
    );
    let mut huge = payload(1);
    huge[0] = 0xFF;
    huge[1] = 0xFF;
    expect_error(
        Mat0::parse(&huge, 0, 1),
        4,
        "MAT0: expected phases: 65535 x 34 bytes within the 86 remaining, \
         found 2228190 bytes needed",
    );
}

#[test]
fn builder_writes_only_what_the_version_stores() {
    let mut m = Mat0::new(1, 0);
    m.phases
        .push(Phase::new([0; 18], b"SIXTEEN_BYTES_OK").unwrap());
    expect_error(
        Phase::new([0; 18], b"SEVENTEEN_BYTES__"),
        0,
        "name: expected a name of at most 16 bytes without NUL, found \"SEVENTEEN_BYTES__\"",
    );
    assert_eq!(m.to_bytes().unwrap().len(), 4 + 34);
    m.src_blend = 1;
    expect_error(
        m.to_bytes(),
        0,
        "MAT0: expected blend modes at its default for version 1 (stored from version 2), \
         found a changed value",
    );
    m.version = 2;
    let bytes = m.to_bytes().unwrap();
    assert_eq!(&bytes[4..6], &[1, 255]);
    assert_eq!(Mat0::parse(&bytes, 0, 2).unwrap(), m);
}

fn animated(mode: u32, keys: &[(u16, u16)]) -> Mat0 {
    let mut m = Mat0::new(4, 0);
    for i in 0..3 {
        m.phases.push(Phase::new([i; 18], b"T").unwrap());
    }
    m.animations.push(AnimBlock {
        header: mode | 0xF8,
        keys: keys
            .iter()
            .map(|&(k0, k1)| AnimKey { k0, k1, k2: 0 })
            .collect(),
    });
    m
}

const KEYS: &[(u16, u16)] = &[(0, 0), (1, 10), (2, 20)];

fn pick(m: &Mat0, t: u32) -> (usize, usize, u32, u32) {
    let s = m.select_phase(0, t, 7).unwrap();
    (s.from, s.to, s.num, s.den)
}

#[test]
fn loop_wraps_at_the_last_key_time() {
    let m = animated(0, KEYS);
    assert_eq!(pick(&m, 0), (0, 1, 0, 10));
    assert_eq!(pick(&m, 5), (0, 1, 5, 10));
    assert_eq!(pick(&m, 10), (1, 2, 0, 10));
    assert_eq!(pick(&m, 19), (1, 2, 9, 10));
    assert_eq!(pick(&m, 20), (0, 1, 0, 10));
    assert_eq!(pick(&m, 25), (0, 1, 5, 10));
    assert_eq!(m.select_phase(0, 5, 0).unwrap().weight(), 0.5);
}

#[test]
fn ping_pong_runs_back_after_the_last_key() {
    let m = animated(1, KEYS);
    assert_eq!(pick(&m, 20), (2, 2, 0, 1));
    assert_eq!(pick(&m, 25), (1, 2, 5, 10)); // local 15
    assert_eq!(pick(&m, 35), (0, 1, 5, 10)); // local 5
    assert_eq!(pick(&m, 40), (0, 1, 0, 10)); // local 0
}

#[test]
fn clamp_holds_the_last_key() {
    let m = animated(2, KEYS);
    assert_eq!(pick(&m, 15), (1, 2, 5, 10));
    assert_eq!(pick(&m, 20), (2, 2, 0, 1));
    assert_eq!(pick(&m, u32::MAX), (2, 2, 0, 1));
}

#[test]
fn random_offset_is_a_seeded_shift_of_the_loop() {
    let m = animated(3, KEYS);
    let a = m.select_phase(0, 0, 1).unwrap();
    let b = m.select_phase(0, 0, 1).unwrap();
    assert_eq!(a, b, "same seed, same phase");
    let shifted = m.select_phase(0, 3, 1).unwrap();
    assert_eq!(shifted.local_time, (a.local_time + 3) % 20);
    let offsets: std::collections::BTreeSet<u32> = (0..64)
        .map(|seed| m.select_phase(0, 0, seed).unwrap().local_time)
        .collect();
    assert!(offsets.len() > 5, "seeds spread the offset: {offsets:?}");
}

#[test]
fn selection_without_blocks_and_bad_keys() {
    let mut m = animated(0, KEYS);
    m.animations.clear();
    assert_eq!(pick(&m, 1234), (0, 0, 0, 1));
    let bad_phase = animated(0, &[(0, 0), (9, 10)]);
    expect_error(
        bad_phase.select_phase(0, 5, 0),
        0,
        "MAT0: expected key phase index < 3, found 9",
    );
    let unsorted = animated(0, &[(0, 10), (1, 5)]);
    expect_error(
        unsorted.select_phase(0, 5, 0),
        0,
        "MAT0: expected non-decreasing key times, found 5 after 10",
    );
    let mode5 = animated(5, KEYS);
    expect_error(
        mode5.select_phase(0, 5, 0),
        0,
        "MAT0: unsupported: animation mode 5",
    );
    expect_error(
        animated(0, KEYS).select_phase(1, 5, 0),
        0,
        "MAT0: missing: animation block 1",
    );
    let single = animated(0, &[(2, 0)]);
    assert_eq!(pick(&single, 99), (2, 2, 0, 1));
}

fn library<'a>(names: &'a [&'a str]) -> impl Fn(&[u8]) -> Option<usize> + 'a {
    move |n: &[u8]| {
        names
            .iter()
            .position(|x| x.as_bytes().eq_ignore_ascii_case(n))
    }
}

#[test]
fn resolve_falls_back_wear_name_default_entry_zero() {
    let wear = Wear::new(
        vec![WearRow::new("0", "hull"), WearRow::new("1", "GONE")],
        None,
    );
    let lib = ["FIRST", "DEFAULT", "HULL"];
    let r = resolve_material(&wear, 0, 3, library(&lib)).unwrap();
    assert_eq!((r.entry, r.via), (2, Resolution::Named));
    let r = resolve_material(&wear, 1, 3, library(&lib)).unwrap();
    assert_eq!((r.entry, r.via), (1, Resolution::Default));
    let r = resolve_material(&wear, 9, 3, library(&lib)).unwrap();
    assert_eq!(
        (r.entry, r.via),
        (1, Resolution::Default),
        "a row past the table"
    );
    let no_default = ["FIRST", "OTHER"];
    let r = resolve_material(&wear, 1, 2, library(&no_default)).unwrap();
    assert_eq!((r.entry, r.via), (0, Resolution::FirstEntry));
    expect_error(
        resolve_material(&wear, 1, 0, library(&[])),
        0,
        "MAT0: missing: any material: the library is empty",
    );
}

#[test]
fn a_missing_lightmap_is_slot_minus_one() {
    let wear = Wear::parse(
        b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n2\r\n0 LM_A\r\n1 LM_GONE\r\n",
        Mode::Strict,
    )
    .unwrap();
    let lightmaps = ["X", "lm_a"];
    assert_eq!(lightmap_slot(&wear, 0, library(&lightmaps)), 1);
    assert_eq!(
        lightmap_slot(&wear, 1, library(&lightmaps)),
        -1,
        "missing texture"
    );
    assert_eq!(
        lightmap_slot(&wear, 2, library(&lightmaps)),
        -1,
        "past the block"
    );
    assert_eq!(
        lightmap_slot(&wear, 0xFF, library(&lightmaps)),
        -1,
        "no lightmap"
    );
    let no_block = Wear::new(vec![WearRow::new("0", "A")], None);
    assert_eq!(lightmap_slot(&no_block, 0, library(&lightmaps)), -1);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn material() -> impl Strategy<Value = Mat0> {
        let phase =
            (any::<[u8; 18]>(), any::<[u8; 16]>()).prop_map(|(parameters, texture_field)| Phase {
                parameters,
                texture_field,
            });
        let key = any::<(u16, u16, u16)>().prop_map(|(k0, k1, k2)| AnimKey { k0, k1, k2 });
        let block = (any::<u32>(), proptest::collection::vec(key, 0..6))
            .prop_map(|(header, keys)| AnimBlock { header, keys });
        (
            1u32..=6,
            any::<u32>(),
            any::<(u8, u8, u32, u32)>(),
            proptest::collection::vec(phase, 0..5),
            proptest::collection::vec(block, 0..20),
        )
            .prop_map(
                |(version, flags, (src, dst, alpha, emissive), phases, animations)| {
                    let mut m = Mat0::new(version, flags);
                    if version >= 2 {
                        (m.src_blend, m.dst_blend) = (src, dst);
                    }
                    if version >= 3 {
                        m.alpha_raw = alpha;
                    }
                    if version >= 4 {
                        m.emissive_raw = emissive;
                    }
                    m.phases = phases;
                    m.animations = animations;
                    m
                },
            )
    }

    proptest! {
        #[test]
        fn written_materials_read_back(m in material(), time in any::<u32>(), seed in any::<u64>()) {
            let bytes = m.to_bytes().unwrap();
            let back = Mat0::parse(&bytes, m.flags, m.version).unwrap();
            prop_assert_eq!(&back, &m);
            for block in 0..m.animations.len() {
                if let Ok(s) = m.select_phase(block, time, seed) {
                    prop_assert!(s.from < m.phases.len() && s.to < m.phases.len());
                    prop_assert!(s.num < s.den.max(1));
                }
            }
        }
    }
}
