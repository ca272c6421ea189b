//! `data.tma`: hand-built vectors for every section and branch, written byte
//! by byte here (not by the crate's writer), then parsed, checked field by
//! field and written back byte-identical.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::error::Problem;
use iron3d_formats::tma::{self, *};
use proptest::prelude::*;
use support::expect_error;

/// A little-endian byte builder independent of the crate's writer.
#[derive(Default)]
struct B(Vec<u8>, Vec<(usize, u32)>);

impl B {
    /// A version word, its offset remembered.
    fn version(&mut self, v: u32) -> &mut Self {
        self.1.push((self.0.len(), v));
        self.u32(v)
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.u32(v as u32)
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.u32(v.to_bits())
    }
    fn f3(&mut self, v: [f32; 3]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.f32(x);
        });
        self
    }
    fn lp(&mut self, s: &[u8]) -> &mut Self {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s);
        self
    }
}

/// Every section populated: two paths (stored ids 7 and 3), a nature clan
/// with two zones and a player clan without zones, a building with float,
/// int and unknown-typed properties (one name repeated), a unit DAT
/// reference, a description with junk after its NUL, two mineral lodes.
fn full_vector() -> Vec<u8> {
    full_vector_and_versions().0
}

/// [`full_vector`] and the offsets of its version words.
fn full_vector_and_versions() -> (Vec<u8>, Vec<(usize, u32)>) {
    let mut b = B::default();
    b.version(1); // format version
    b.u32(2); // paths
    b.i32(7).u32(2).f3([1.0, 2.0, 3.0]).f3([4.0, 5.0, 6.0]);
    b.i32(3).u32(0);
    b.version(6).u32(2); // clan section version, clans
    // Nature clan with zones.
    b.lp(b"Nature")
        .i32(-1)
        .f32(10.0)
        .f32(20.0)
        .u32(0)
        .lp(b"SCRIPTS\\nature.fml");
    b.u32(2);
    b.u32(1).f3([100.0, 0.0, 200.0]).f32(5.0).f32(50.0);
    b.u32(1).f3([-1.0, -2.0, -3.0]).f32(0.5).f32(1.5);
    b.lp(b"").u32(0).u32(1).lp(b"Player").u32(0);
    // Player clan, no zones, two relations.
    b.lp(b"Player")
        .i32(-1)
        .f32(-5.5)
        .f32(7.25)
        .u32(1)
        .lp(b"SCRIPTS\\player.scr");
    b.u32(0);
    b.lp(b"SCRIPTS\\player.trf")
        .u32(12)
        .u32(2)
        .lp(b"Nature")
        .u32(0)
        .lp(b"Enemy")
        .u32(1);
    b.version(10).u32(2); // object section version, objects
    // A building with every property type.
    b.u32(0).u32(0x8000_0002).lp(b"b_gen01").u32(0).u32(2);
    b.f3([1.0, 2.0, 3.0])
        .f3([0.0, 1.5707964, 0.0])
        .f3([1.0, 1.0, 1.0]);
    b.lp(b"gen01").u32(0).i32(-1).i32(4).version(1).u32(4);
    b.u32(0).f32(0.75).f32(0.0).f32(1.0).lp(b"Life state");
    b.u32(1).i32(1).i32(0).i32(1).lp(b"Invulnerability");
    b.u32(9).u32(0xdead_beef).u32(0).u32(7).lp(b"NOT USED");
    b.u32(1).i32(-3).i32(-10).i32(10).lp(b"Invulnerability");
    // A unit placed through its DAT, no properties.
    b.u32(1)
        .u32(0x8000_0002)
        .lp(b"UNITS\\ROBOTS\\r1.DAT")
        .u32(5)
        .u32(1);
    b.f3([0.0; 3]).f3([0.1, 0.2, 0.3]).f3([2.0, 2.0, 2.0]);
    b.lp(b"").u32(0).i32(-1).i32(-1).version(1).u32(0);
    // Epilogue.
    b.lp(b"MISSIONS\\Tut_1\\Land").u32(3);
    b.lp(b"\xcf\xf0\xe8\xe2\xe5\xf2\0OLD\\PATH\0\0");
    b.version(1).u32(2);
    b.f3([1.0, 0.0, 1.0]).u32(0).u32(2).f32(5000.0).u32(0);
    b.f3([9.0, 8.0, 7.0])
        .u32(1)
        .u32(1)
        .f32(250.5)
        .u32(0xffff_ffff);
    (b.0, b.1)
}

#[test]
fn full_vector_parses_field_by_field() {
    let data = full_vector();
    let t = tma::parse(&data, Mode::Strict).unwrap();
    assert_eq!(t.format_version, 1);
    assert_eq!(t.paths.len(), 2);
    assert_eq!(t.path(3).unwrap().points.len(), 0);
    assert_eq!(t.path(7).unwrap().points[1], [4.0, 5.0, 6.0]);
    assert!(t.path(0).is_none());

    let nature = t.clan(b"nature").unwrap();
    assert_eq!(nature.clan_type(), Some(ClanType::Nature));
    assert_eq!(nature.raw_id, -1);
    assert_eq!(nature.base, [10.0, 20.0]);
    assert_eq!(nature.zones.len(), 2);
    assert_eq!(
        nature.zones[0],
        ClanZone {
            kind: 1,
            centre: [100.0, 0.0, 200.0],
            inner_radius: 5.0,
            outer_radius: 50.0
        }
    );
    assert_eq!(nature.trf, b"");
    let player = &t.clans[1];
    assert_eq!(player.clan_type(), Some(ClanType::Player));
    assert!(player.zones.is_empty());
    assert_eq!(player.trf, b"SCRIPTS\\player.trf");
    assert_eq!(player.bot_cap, 12);
    assert_eq!(player.relations[1].clan, b"Enemy");
    assert_eq!(player.relations[1].value, 1);

    let generator = &t.objects[0];
    assert_eq!(generator.kind(), Some(ObjectKind::Building));
    assert_eq!(generator.class_or_flags, PLACED_OBJECT_CLASS);
    assert_eq!(generator.resource(), ResourceRef::Prototype(b"b_gen01"));
    assert_eq!(generator.identity, 2);
    assert_eq!(generator.orientation[1], 1.5707964);
    assert_eq!((generator.link0, generator.link1), (-1, 4));
    let names: Vec<_> = generator
        .properties
        .iter()
        .map(|p| p.name.as_slice())
        .collect();
    assert_eq!(
        names,
        [
            &b"Life state"[..],
            b"Invulnerability",
            b"NOT USED",
            b"Invulnerability"
        ]
    );
    assert_eq!(
        generator.properties[0].value(),
        PropertyValue::Float {
            value: 0.75,
            min: 0.0,
            max: 1.0
        }
    );
    assert_eq!(
        generator.properties[3].value(),
        PropertyValue::Int {
            value: -3,
            min: -10,
            max: 10
        }
    );
    assert_eq!(
        generator.properties[2].value(),
        PropertyValue::Other {
            type_word: 9,
            words: [0xdead_beef, 0, 7]
        }
    );
    // The first of a repeated name.
    assert_eq!(
        generator.property(b"invulnerability").unwrap().value(),
        PropertyValue::Int {
            value: 1,
            min: 0,
            max: 1
        }
    );

    let unit = &t.objects[1];
    assert_eq!(unit.kind(), Some(ObjectKind::Unit));
    assert_eq!(
        unit.resource(),
        ResourceRef::UnitDat(b"UNITS\\ROBOTS\\r1.DAT")
    );
    assert_eq!(unit.raw_after_resource, 5);
    assert_eq!(unit.scale, [2.0; 3]);
    assert!(unit.properties.is_empty());

    assert_eq!(t.land_path, b"MISSIONS\\Tut_1\\Land");
    assert_eq!(t.mission_flag, 3);
    assert_eq!(t.description.raw.len(), 17);
    assert_eq!(t.description.text(), "Привет");
    assert_eq!(t.description.junk(), b"OLD\\PATH\0\0");
    assert_eq!(t.lodes.len(), 2);
    assert_eq!(
        t.lodes[1],
        MineralLode {
            position: [9.0, 8.0, 7.0],
            found: 1,
            lode_type: 1,
            amount: 250.5,
            raw: 0xffff_ffff
        }
    );
    assert!(t.quirks().is_empty());
}

#[test]
fn full_vector_round_trips_byte_identical() {
    let data = full_vector();
    let t = tma::parse(&data, Mode::Strict).unwrap();
    assert_eq!(t.to_bytes().unwrap(), data);
}

#[test]
fn empty_mission_is_the_smallest_file() {
    let mut b = B::default();
    b.u32(1)
        .u32(0)
        .u32(6)
        .u32(0)
        .u32(10)
        .u32(0)
        .lp(b"")
        .u32(0)
        .lp(b"")
        .u32(1)
        .u32(0);
    let t = tma::parse(&b.0, Mode::Strict).unwrap();
    assert_eq!(t, Tma::new(""));
    assert_eq!(Tma::new("").to_bytes().unwrap(), b.0);
}

#[test]
fn builder_output_parses_back_to_the_same_mission() {
    let mut t = Tma::new("MISSIONS\\Demo\\Land");
    t.paths.push(MissionPath {
        id: 42,
        points: vec![[0.0, 1.0, 2.0]],
    });
    let mut nature = Clan::new("Nature", ClanType::Nature);
    nature.zones.push(ClanZone {
        kind: 1,
        centre: [1.0, 2.0, 3.0],
        inner_radius: 1.0,
        outer_radius: 9.0,
    });
    t.clans.push(nature);
    let mut player = Clan::new("Player", ClanType::Player);
    player.relations.push(ClanRelation {
        clan: b"Nature".to_vec(),
        value: 0,
    });
    t.clans.push(player);
    let mut o = PlacedObject::new(ObjectKind::Rock, "rock01", [5.0, 6.0, 7.0]);
    o.properties.push(Property::int("Invulnerability", 0, 0, 1));
    o.properties
        .push(Property::float("Life state", 1.0, 0.0, 1.0));
    t.objects.push(o);
    t.description = Description::from_text("Миссия");
    t.lodes.push(MineralLode {
        position: [1.0; 3],
        found: 0,
        lode_type: 1,
        amount: 100.0,
        raw: 0,
    });
    let bytes = t.to_bytes().unwrap();
    let back = tma::parse(&bytes, Mode::Strict).unwrap();
    assert_eq!(back, t);
    assert_eq!(back.description.text(), "Миссия");
    assert_eq!(back.objects[0].scale, [1.0; 3]);
    assert_eq!(back.objects[0].class_or_flags, PLACED_OBJECT_CLASS);
}

#[test]
fn strict_refuses_unknown_versions_compatible_keeps_them_raw() {
    let (data, versions) = full_vector_and_versions();
    assert_eq!(versions.len(), 6);
    for (at, known) in versions {
        assert_eq!(
            u32::from_le_bytes(data[at..at + 4].try_into().unwrap()),
            known
        );
        let mut bad = data.clone();
        bad[at..at + 4].copy_from_slice(&(known + 1).to_le_bytes());
        let err = tma::parse(&bad, Mode::Strict).unwrap_err();
        assert_eq!(err.offset, at as u64);
        assert!(matches!(
            err.problem,
            Problem::Quirk {
                name: QUIRK_UNKNOWN_VERSION,
                ..
            }
        ));
        let t = tma::parse(&bad, Mode::Compatible).unwrap();
        assert_eq!(t.quirks().len(), 1, "{:?}", t.quirks());
        assert_eq!(t.to_bytes().unwrap(), bad);
    }
}

#[test]
fn property_schema_and_extra_versions_are_checked_too() {
    let mut t = tma::parse(&full_vector(), Mode::Strict).unwrap();
    t.objects[1].property_schema_version = 2;
    t.extra_section_version = 5;
    let bytes = t.to_bytes().unwrap();
    let e = expect_error(
        tma::parse(&bytes, Mode::Strict),
        610,
        "TMA: quirk `tma_unknown_section_version` (accepted only in compatible mode): \
         property schema version 2, the known one is 1",
    );
    assert!(matches!(
        e.problem,
        Problem::Quirk {
            name: QUIRK_UNKNOWN_VERSION,
            ..
        }
    ));
    let back = tma::parse(&bytes, Mode::Compatible).unwrap();
    assert_eq!(back.quirks().len(), 2);
}

#[test]
fn truncation_trailing_bytes_and_huge_counts_are_errors() {
    let data = full_vector();
    for (cut, offset, needle) in [
        (0, 0, "TMA: truncated: expected 4 more bytes, 0 available"),
        (3, 0, "TMA: truncated: expected 4 more bytes, 3 available"),
        (4, 4, "TMA: truncated: expected 4 more bytes, 0 available"),
        (
            8,
            8,
            "TMA: expected paths: 2 x 8 bytes within the 0 remaining, found 16 bytes needed",
        ),
        (
            20,
            8,
            "TMA: expected paths: 2 x 8 bytes within the 12 remaining, found 16 bytes needed",
        ),
        (
            data.len() / 2,
            299,
            "TMA: expected placed objects: 2 x 84 bytes within the 66 remaining, \
             found 168 bytes needed",
        ),
        (
            data.len() - 1,
            674,
            "TMA: expected extra records: 2 x 28 bytes within the 55 remaining, \
             found 56 bytes needed",
        ),
    ] {
        expect_error(tma::parse(&data[..cut], Mode::Strict), offset, needle);
    }
    let mut long = data.clone();
    long.push(0);
    let err = tma::parse(&long, Mode::Strict).unwrap_err();
    assert_eq!(err.problem, Problem::TrailingBytes { count: 1 });
    assert_eq!(err.offset, data.len() as u64);
    // path_count = u32::MAX must not allocate or overflow.
    let mut huge = data.clone();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = tma::parse(&huge, Mode::Strict).unwrap_err();
    assert_eq!(err.offset, 8);
}

#[test]
fn a_nature_clan_read_with_the_tome_mode_split_is_the_same_bytes() {
    // Tome IV mode 0: first_resource, group count, {record_count=1,
    // float[5]}, second_resource, tag, relations. FACTS reads record_count
    // as the zone kind: the bytes are the same.
    let data = full_vector();
    let t = tma::parse(&data, Mode::Strict).unwrap();
    let z = &t.clans[0].zones[1];
    assert_eq!(z.kind, 1);
    assert_eq!(
        [
            z.centre[0],
            z.centre[1],
            z.centre[2],
            z.inner_radius,
            z.outer_radius
        ],
        [-1.0, -2.0, -3.0, 0.5, 1.5]
    );
}

fn arb_f32() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(f32::from_bits)
}

fn arb_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..max)
}

fn arb_object() -> impl Strategy<Value = PlacedObject> {
    (
        (
            any::<u32>(),
            any::<u32>(),
            arb_bytes(24),
            any::<u32>(),
            any::<u32>(),
        ),
        proptest::array::uniform9(arb_f32()),
        (arb_bytes(12), any::<u32>(), any::<i32>(), any::<i32>()),
        proptest::collection::vec((any::<[u8; 16]>(), arb_bytes(12)), 0..4),
    )
        .prop_map(
            |((kind, flags, res, after, id), f, (name, after_name, l0, l1), props)| {
                let mut o = PlacedObject::new(ObjectKind::Unit, res, [f[0], f[1], f[2]]);
                o.raw_kind = kind;
                o.class_or_flags = flags;
                o.raw_after_resource = after;
                o.identity = id;
                o.orientation = [f[3], f[4], f[5]];
                o.scale = [f[6], f[7], f[8]];
                o.instance_name = name;
                o.raw_after_name = after_name;
                o.link0 = l0;
                o.link1 = l1;
                o.properties = props
                    .into_iter()
                    .map(|(raw, name)| Property { raw, name })
                    .collect();
                o
            },
        )
}

proptest! {
    #[test]
    fn any_mission_round_trips(
        objects in proptest::collection::vec(arb_object(), 0..5),
        land in arb_bytes(20),
        desc in arb_bytes(20),
        flag in any::<u32>(),
        relations in proptest::collection::vec((arb_bytes(8), any::<u32>()), 0..3),
    ) {
        let mut t = Tma::new(land);
        t.objects = objects;
        t.mission_flag = flag;
        t.description = Description { raw: desc };
        let mut c = Clan::new("c", ClanType::Enemy);
        c.relations = relations.into_iter().map(|(clan, value)| ClanRelation { clan, value }).collect();
        t.clans.push(c);
        let bytes = t.to_bytes().unwrap();
        let back = tma::parse(&bytes, Mode::Strict).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}

#[test]
fn original_ids_keep_explicit_logical_ids_and_fill_the_rest_from_one() {
    let ids_of = |explicit: &[i32]| {
        let mut t = Tma::new("MISSIONS\\M\\Land");
        for &id in explicit {
            let mut o = PlacedObject::new(ObjectKind::Unit, "u", [0.0; 3]);
            if id != 0 {
                o.properties.push(Property::int("logicalid", id, 0, 65535));
            }
            t.objects.push(o);
        }
        t.original_ids()
    };
    // A repeated explicit id is taken by its first record only.
    assert_eq!(ids_of(&[0, 2, 0, 2, 5, 0]), [1, 2, 3, 4, 5, 6]);
    assert_eq!(ids_of(&[7, 0, 1]), [7, 2, 1]);
}

#[test]
fn the_hero_is_the_lowest_id_unit_of_the_first_player_clan_with_the_hero_bit() {
    let mut t = Tma::new("MISSIONS\\M\\Land");
    t.clans.push(Clan::new("Nature", ClanType::Nature));
    t.clans.push(Clan::new("Enemy", ClanType::Enemy));
    t.clans.push(Clan::new("Player", ClanType::Player));
    let placed = |kind, clan: u32, type_word: u32, id: i32| {
        let mut o = PlacedObject::new(kind, "u", [0.0; 3]);
        o.identity = clan;
        o.properties
            .push(Property::int("Type", type_word as i32, i32::MIN, i32::MAX));
        o.properties.push(Property::int("LogicalID", id, 0, 65535));
        o
    };
    let hero = 0x0102_0000;
    t.objects = vec![
        placed(ObjectKind::Unit, 1, hero, 10),     // an enemy's "hero"
        placed(ObjectKind::Building, 2, hero, 11), // not a unit
        placed(ObjectKind::Unit, 2, 0x0100_8000, 3), // a warbot
        placed(ObjectKind::Unit, 2, hero, 9),
        placed(ObjectKind::Unit, 2, hero, 8),
    ];
    assert_eq!(HERO_TYPE, 0x0002_0000);
    assert_eq!(t.hero(), Some(4), "the player clan's hero unit with id 8");
    t.objects.truncate(3);
    assert_eq!(t.hero(), None, "no player unit carries the bit");
}
