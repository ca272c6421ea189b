//! Mutation tests of the mission-side readers: TMA, unit DAT, the
//! `objects.rlb` registry, `BuildDat.lst`, the input tables and the
//! text-config reader. Each gets thousands of corrupted variants of a valid
//! file (truncation at every offset, flipped bytes, words pushed out of
//! range): never a panic, peak heap linear in the input.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::archive::Mode;
use iron3d_formats::config::blocks::ObjectConfig;
use iron3d_formats::config::builddat::{BuildCategory, BuildDat};
use iron3d_formats::config::ini::{self, Settings};
use iron3d_formats::config::input_table::InputTable;
use iron3d_formats::config::key_map::KeyMap;
use iron3d_formats::config::sprites::SpriteSheet;
use iron3d_formats::config::text::TextConfig;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::registry::Registry;
use iron3d_formats::tma::{self, *};
use iron3d_formats::unitdat::{CLASS_ROBOT, PartClass, PartSpec, UnitDat};
use support::leaf_part;

/// Binary readers: at most 16 bytes of heap per input byte plus 64 KiB.
fn binary_budget(len: usize) -> usize {
    16 * len + 64 * 1024
}

/// Line readers keep a small struct per line: 512 bytes per input byte.
fn text_budget(len: usize) -> usize {
    512 * len + 64 * 1024
}

fn mission() -> Vec<u8> {
    let mut t = Tma::new("MISSIONS\\M\\Land");
    t.paths.push(MissionPath {
        id: 5,
        points: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    });
    let mut nature = Clan::new("Nature", ClanType::Nature);
    nature.zones.push(ClanZone {
        kind: 1,
        centre: [0.0; 3],
        inner_radius: 1.0,
        outer_radius: 2.0,
    });
    t.clans.push(nature);
    let mut player = Clan::new("Player", ClanType::Player);
    player.relations.push(ClanRelation {
        clan: b"Nature".to_vec(),
        value: 1,
    });
    t.clans.push(player);
    for i in 0..3 {
        let mut o = PlacedObject::new(ObjectKind::Building, format!("b_{i}"), [i as f32; 3]);
        o.properties.push(Property::int("Invulnerability", 0, 0, 1));
        o.properties
            .push(Property::float("Life state", 1.0, 0.0, 1.0));
        t.objects.push(o);
    }
    t.description = Description::from_text("text");
    t.lodes.push(MineralLode {
        position: [0.0; 3],
        found: 0,
        lode_type: 1,
        amount: 10.0,
        raw: 0,
    });
    t.to_bytes().unwrap()
}

#[test]
fn tma_survives_mutation() {
    let valid = mission();
    for mode in [Mode::Strict, Mode::Compatible] {
        let rejected = support::assert_robust(&valid, None, binary_budget, |d| tma::parse(d, mode));
        assert!(rejected > valid.len(), "{mode:?}: only {rejected} rejected");
    }
}

#[test]
fn unit_dat_survives_mutation() {
    let root = PartSpec {
        children: vec![
            leaf_part("t", PartClass::Turret),
            leaf_part("g", PartClass::Gun),
        ],
        ..leaf_part("c", PartClass::Chassis)
    };
    let valid = UnitDat::build(CLASS_ROBOT, &[root]).unwrap().to_bytes();
    let cuts: Vec<usize> = (0..valid.len()).collect();
    for mode in [Mode::Strict, Mode::Compatible] {
        support::assert_robust(&valid, Some(&cuts), binary_budget, |d| {
            UnitDat::parse(d, mode)
        });
    }
}

#[test]
fn registry_survives_mutation() {
    let r = |a: &str, b: &str| ResourceRef::new(a.as_bytes(), b.as_bytes()).unwrap();
    let valid = Registry::build(&[
        (
            b"base".to_vec(),
            vec![r("s.rlb", "m.msh"), r("s.rlb", "m.wea")],
        ),
        (
            b"child".to_vec(),
            vec![r("objects.rlb", "base"), r("s.rlb", "c.bas")],
        ),
    ])
    .unwrap();
    for mode in [Mode::Strict, Mode::Compatible] {
        support::assert_robust(&valid, None, binary_budget, |d| {
            let reg = Registry::parse(d, mode)?;
            // Resolution over corrupted references must stay bounded too.
            for p in &reg.prototypes {
                let _ = reg.resolve(&p.key);
            }
            Ok::<_, iron3d_formats::error::FormatError>(())
        });
    }
}

#[test]
fn builddat_survives_mutation() {
    let sections: Vec<_> = BuildCategory::ALL
        .iter()
        .map(|&c| (c, vec![format!("UNITS\\BUILDS\\{}.dat", c.name())]))
        .collect();
    let valid = BuildDat::build(&sections);
    for mode in [Mode::Strict, Mode::Compatible] {
        support::assert_robust(&valid, None, text_budget, |d| BuildDat::parse(d, mode));
    }
}

#[test]
fn input_tables_survive_mutation() {
    let table = b"// hero\r\nKEY SCAN_NULL SCAN_W 1 CICLS_UNKNOWN MCMD_WALK_F 1.0 0 0 0.0 0 // OBJ_MOVE_FORWARD\r\nKEY SCAN_NULL SCAN_W 0 CICLS_UNKNOWN MCMD_WALK_F 0.0 0 0 0.0 0\r\nMOUSE SCAN_NULL SCAN_MOUSE_X 1 CICLS_TURRET MCMD_ANGLE_X 0.1 1 MAN_WRAP 0.05 1000\r\n";
    support::assert_robust(table, None, text_budget, InputTable::parse);
}

#[test]
fn key_maps_survive_mutation() {
    let map = b"CMD_JAMES_MISSION_OBJ SCAN_NULL SCAN_F12\r\nCMD_GAME_MENU SCAN_NULL SCAN_F3\r\n\r\nCMD_CAMERA_CENTER SCAN_LSHIFT SCAN_RMOUSE\r\n";
    support::assert_robust(map, None, text_budget, |d| {
        let read = KeyMap::parse(d)?;
        assert_eq!(read.to_bytes(), d, "read but not written back");
        Ok::<_, iron3d_formats::error::FormatError>(read)
    });
}

#[test]
fn sprite_sheets_survive_mutation() {
    let sheet = b"object ccres_frame_edge_v\r\n texture = ui_menu\r\n offset_x = 8\r\n offset_y = 40\r\n width = 47\r\n height = 5\r\n rotate = 90\r\nend\r\nobject TARGETER_LIFE\r\n TEXTURE = \"ui_menu\"\r\n OFFSET_X = 49\r\n OFFSET_Y = 94\r\n WIDTH = 15\r\n HEIGHT = 15\r\nend\r\n";
    support::assert_robust(sheet, None, text_budget, |d| {
        let read = SpriteSheet::parse(d)?;
        assert_eq!(read.to_bytes(), d, "read but not written back");
        for object in &read.config.objects {
            let _ = read.sprite(&object.name);
        }
        Ok::<_, iron3d_formats::error::FormatError>(read)
    });
}

#[test]
fn text_configs_survive_mutation() {
    let ini_file = b"// settings\r\n[CS]\r\nDISPLAY_WIDTH=640\r\nFORCE_CD_SOUND=\"D:\\x\"\r\n[TEMP]\r\nN=0.5 // c\r\n";
    support::assert_robust(ini_file, None, text_budget, |d| {
        TextConfig::parse(d, "ini").map(|c| Settings::resolve(&c, ini::IRON_3D_INI))
    });
    let cfg =
        b"object a\r\n desc \"x y\"\r\n type 1\r\nend\r\nobject b\r\n library l.lib\r\nend\r\n";
    support::assert_robust(cfg, None, text_budget, |d| {
        ObjectConfig::parse(d, "mission.cfg")
    });
}
