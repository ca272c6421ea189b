//! `mission info` over a generated install: the summary of every section,
//! what `iron3d mission info` prints as text and JSON, exit codes of data
//! errors.

mod common;

use common::{Out, iron3d, run};
use iron3d_formats::archive::Mode;
use iron3d_formats::tma::info::mission_info;
use iron3d_formats::tma::*;
use std::fs;
use std::path::Path;

/// `iron3d mission info <GAME_DIR> <MISSION> [--json]`, with `--compatible`
/// for [`Mode::Compatible`].
fn run_info(game_dir: &Path, mission: &str, json: bool, mode: Mode) -> Out {
    let mut cmd = iron3d();
    cmd.args(["mission", "info"]).arg(game_dir).arg(mission);
    if json {
        cmd.arg("--json");
    }
    if mode == Mode::Compatible {
        cmd.arg("--compatible");
    }
    run(&mut cmd)
}

fn mission() -> Tma {
    let mut t = Tma::new("MISSIONS\\Tut_1\\LAND");
    t.paths.push(MissionPath {
        id: 9,
        points: vec![[0.0; 3]; 3],
    });
    let mut nature = Clan::new("Nature", ClanType::Nature);
    nature.zones.push(ClanZone {
        kind: 1,
        centre: [1.0, 2.0, 3.0],
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
    let mut b = PlacedObject::new(ObjectKind::Building, "b_gen", [0.0; 3]);
    b.properties.push(Property::int("Invulnerability", 0, 0, 1));
    b.properties
        .push(Property::float("Life state", 1.0, 0.0, 1.0));
    t.objects.push(b);
    let mut u = PlacedObject::new(ObjectKind::Unit, "UNITS\\ROBOTS\\r.dat", [1.0; 3]);
    u.properties.push(Property::int("Invulnerability", 1, 0, 1));
    u.properties.push(Property::int("ClanID", 2, 0, 8));
    t.objects.push(u);
    t.objects
        .push(PlacedObject::new(ObjectKind::Rock, "rock", [2.0; 3]));
    t.objects
        .push(PlacedObject::new(ObjectKind::Vegetation, "tree", [3.0; 3]));
    let mut description = Description::from_text("Первая миссия").raw;
    description.extend_from_slice(b"junk");
    t.description = Description { raw: description };
    t.lodes.push(MineralLode {
        position: [5.0, 0.0, 5.0],
        found: 0,
        lode_type: 2,
        amount: 300.0,
        raw: 0,
    });
    t
}

fn install(tma: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("Missions/Tut_1");
    fs::create_dir_all(m.join("Land")).unwrap();
    fs::write(m.join("DATA.TMA"), tma).unwrap();
    dir
}

#[test]
fn info_summarises_every_section() {
    let dir = install(&mission().to_bytes().unwrap());
    let info = mission_info(dir.path(), "tut_1", Mode::Strict).unwrap();
    assert_eq!(info.mission, "Tut_1");
    assert_eq!(
        (info.paths.len(), info.paths[0].id, info.paths[0].points),
        (1, 9, 3)
    );
    assert_eq!(info.clans[0].zones, 1);
    assert_eq!(info.clans[1].relations[0].clan, "Nature");
    let o = &info.objects;
    assert_eq!(
        (
            o.total,
            o.building,
            o.unit,
            o.rock,
            o.vegetation,
            o.other_kind
        ),
        (4, 1, 1, 1, 1, 0)
    );
    assert_eq!((o.unit_dat_refs, o.prototype_refs), (1, 3));
    let props: Vec<_> = info
        .properties
        .iter()
        .map(|p| (p.name.as_str(), p.count, p.float, p.int))
        .collect();
    assert_eq!(
        props,
        [
            ("Invulnerability", 2, 0, 2),
            ("Life state", 1, 1, 0),
            ("ClanID", 1, 0, 1)
        ]
    );
    assert_eq!(info.description.text, "Первая миссия");
    assert_eq!(info.description.junk_bytes, 4);
    assert_eq!(info.lodes[0].amount, 300.0);
    let land = info.land_resolved.as_deref().unwrap();
    assert!(Path::new(land).ends_with("Missions/Tut_1/Land"), "{land}");
}

#[test]
fn text_and_json_outputs() {
    let dir = install(&mission().to_bytes().unwrap());
    let text = run_info(dir.path(), "Tut_1", false, Mode::Strict);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout
            .contains("objects: 4 (building 1, unit 1, vegetation 1, rock 1"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("\"Player\" player"), "{}", text.stdout);
    let json = run_info(dir.path(), "Tut_1", true, Mode::Strict);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["objects"]["unit"], 1);
    assert_eq!(v["clans"][0]["type"], "nature");
    assert_eq!(v["properties"][0]["name"], "Invulnerability");
    assert_eq!(v["lodes"][0]["type"], 2);
}

#[test]
fn data_errors_exit_1_with_the_file_and_offset() {
    let mut bytes = mission().to_bytes().unwrap();
    bytes.push(0);
    let dir = install(&bytes);
    let out = run_info(dir.path(), "Tut_1", false, Mode::Strict);
    assert_eq!(out.code, 1);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("DATA.TMA") && out.stderr.contains("offset 0x"),
        "{}",
        out.stderr
    );
    let missing = run_info(dir.path(), "Tut_9", true, Mode::Strict);
    assert_eq!(missing.code, 1);
    assert!(missing.stderr.contains("Tut_9"), "{}", missing.stderr);
}

#[test]
fn compatible_mode_lists_unknown_versions() {
    let mut t = mission();
    t.clan_section_version = 7;
    let dir = install(&t.to_bytes().unwrap());
    assert_eq!(run_info(dir.path(), "Tut_1", false, Mode::Strict).code, 1);
    let out = run_info(dir.path(), "Tut_1", false, Mode::Compatible);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .contains("quirk: clan section version 7 (known 6)"),
        "{}",
        out.stdout
    );
}
