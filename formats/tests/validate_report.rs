//! `iron3d validate` logic over hand-built installs: per-family counts, zero
//! errors on a clean install, reader errors with entry and offset, mission
//! failures as errors, unreachable entries as warnings, an identical report
//! on a second run, and the exit codes.

mod graph_support;

use graph_support::{CLEAN, Knobs, install};
use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::graph::TEXM_TYPE_ID;
use iron3d_formats::validate::{Severity, run_mission_graph, run_validate, validate};

fn quiet(_: iron3d_formats::validate::Progress) {}

#[test]
fn clean_install_counts_every_family_with_zero_errors() {
    let dir = install(Knobs::default());
    let report = validate(dir.path(), &mut quiet).unwrap();
    assert_eq!(report.errors, 0, "{}", report.text());
    assert_eq!(report.warnings, 0, "{}", report.text());
    assert_eq!(report.files, 8);
    let f = |name: &str| report.families.get(name).cloned().unwrap_or_default();
    assert_eq!(f("archive").files, 6);
    assert_eq!(f("archive").variants.get("NRes"), Some(&6));
    assert_eq!(f("MSH").entries, 3);
    assert_eq!(f("WEAR").entries, 3);
    assert_eq!(f("MAT0").entries, 4);
    assert_eq!(f("Texm").entries, 5);
    assert_eq!(f("Texm").variants.get("Argb8888"), Some(&5));
    assert_eq!(f("FXID").entries, 1);
    assert_eq!(f("FXID").variants.get("opcode 1"), Some(&1));
    assert_eq!(f("TMA").entries, 5);
    assert_eq!(f("unit DAT").entries, 2);
    assert_eq!(f("objects.rlb").entries, 6);
    assert_eq!(report.missions.len(), 1);
    assert_eq!(report.missions[0].totals, CLEAN);
    assert_eq!(report.reachability, CLEAN);
}

#[test]
fn report_is_identical_across_runs() {
    let dir = install(Knobs {
        missing_texture: true,
        broken_unreachable: true,
        ..Knobs::default()
    });
    let a = run_validate(dir.path(), true, &mut quiet);
    let b = run_validate(dir.path(), true, &mut quiet);
    assert_eq!(a, b);
    let t1 = run_validate(dir.path(), false, &mut quiet);
    let t2 = run_validate(dir.path(), false, &mut quiet);
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
    let out = run_validate(dir.path(), false, &mut quiet);
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
    let out = run_validate(dir.path(), false, &mut quiet);
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
    let out = run_validate(dir.path(), true, &mut quiet);
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
fn progress_reaches_the_total() {
    let dir = install(Knobs::default());
    let mut last = (0, 0);
    validate(dir.path(), &mut |p| last = (p.done, p.total)).unwrap();
    assert_eq!(last.0, last.1);
    assert_eq!(last.1, 8 + 1 + 1);
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
