//! `iron3d validate` and `iron3d mission graph` over hand-built installs:
//! reader errors with entry and offset, mission failures as errors,
//! unreachable entries as warnings, an identical report on a second run, the
//! printed tree and the exit codes.

mod common;
#[path = "../formats/tests/graph_support/mod.rs"]
mod graph_support;

use common::{Out, iron3d, run};
use graph_support::{CLEAN, Knobs, install};
use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::graph::TEXM_TYPE_ID;
use iron3d_formats::validate::{Severity, validate};
use std::path::Path;

fn quiet(_: iron3d_formats::validate::Progress) {}

/// `iron3d validate <GAME_DIR> [--json]`.
fn run_validate(root: &Path, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.arg("validate").arg(root);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// `iron3d mission graph <GAME_DIR> <MISSION> [--json]`.
fn run_mission_graph(root: &Path, mission: &str, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["mission", "graph"]).arg(root).arg(mission);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

#[test]
fn report_is_identical_across_runs() {
    let dir = install(Knobs {
        missing_texture: true,
        broken_unreachable: true,
        ..Knobs::default()
    });
    let a = run_validate(dir.path(), true);
    let b = run_validate(dir.path(), true);
    assert_eq!(a, b);
    let t1 = run_validate(dir.path(), false);
    let t2 = run_validate(dir.path(), false);
    assert_eq!(t1, t2);
}

#[test]
fn reader_error_carries_file_entry_and_offset() {
    let dir = install(Knobs::default());
    let mut bad = b"Texm".to_vec();
    bad.extend_from_slice(&[0; 8]); // width 0, then the header is cut
    let entries = [NewEntry {
        name: b"BROKEN".to_vec(),
        type_id: TEXM_TYPE_ID,
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload: &bad,
    }];
    std::fs::write(dir.path().join("extra.lib"), build(&entries).unwrap()).unwrap();
    let report = validate(dir.path(), &mut quiet).unwrap();
    assert_eq!(report.errors, 1);
    let d = &report.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.family, "Texm");
    assert_eq!(d.file, "extra.lib");
    assert_eq!(d.entry.as_deref(), Some("#0 'BROKEN'"));
    assert!(d.offset > 0, "{d:?}");
    let out = run_validate(dir.path(), false);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout
            .contains("error: extra.lib entry #0 'BROKEN': offset 0x"),
        "{}",
        out.stdout
    );
}

#[test]
fn mission_failure_is_an_error_unreachable_is_a_warning() {
    let dir = install(Knobs {
        unknown_material: true,
        ..Knobs::default()
    });
    let out = run_validate(dir.path(), false);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("error: mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #0 'Hull' → prototype 'tank_body' → static.rlb::tank.wea → Material.lib::NoSuchMat → "),
        "{}",
        out.stdout
    );

    let dir = install(Knobs {
        broken_unreachable: true,
        ..Knobs::default()
    });
    let out = run_validate(dir.path(), true);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["errors"], 0);
    assert_eq!(json["warnings"], 1);
    assert_eq!(
        json["unreachable"]["failures"][0]["edge"], "mesh",
        "{}",
        out.stdout
    );
}

#[test]
fn mission_graph_tree_and_exit_codes() {
    let dir = install(Knobs::default());
    let out = run_mission_graph(dir.path(), "m1", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("#0 'tank1' -> UNITS\\TANK.DAT (unit UNITS/TANK.DAT)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("part #1 'Gun' prototype 'tank_gun'"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("totals: 5 objects, 2 unit refs -> 4 components"),
        "{}",
        out.stdout
    );
    let json = run_mission_graph(dir.path(), "M1", true);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["totals"]["material_slots"], CLEAN.material_slots);

    let dir = install(Knobs {
        no_tank_mesh: true,
        ..Knobs::default()
    });
    let out = run_mission_graph(dir.path(), "M1", false);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .starts_with("error: mission M1 → object #0 'tank1'"),
        "{}",
        out.stderr
    );
    let missing = run_mission_graph(dir.path(), "nope", false);
    assert_eq!(missing.code, 1);
}
