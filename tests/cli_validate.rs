//! `iron3d validate` and `iron3d mission graph` through the binary: exit
//! codes, JSON on stdout, no progress output when stderr is not a terminal,
//! the same report twice.

#[path = "../formats/tests/graph_support/mod.rs"]
mod graph_support;

use graph_support::{Knobs, install};
use std::process::{Command, Output};

fn iron3d(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn validate_clean_install_exits_zero_and_repeats() {
    let dir = install(Knobs::default());
    let args = [
        "validate".as_ref(),
        dir.path().as_os_str(),
        "--json".as_ref(),
    ];
    let a = iron3d(&args);
    assert_eq!(
        a.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    assert!(a.stderr.is_empty(), "no progress when piped");
    let json: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(json["errors"], 0);
    assert_eq!(json["missions"][0]["totals"]["prototypes"], 7);
    let b = iron3d(&args);
    assert_eq!(a.stdout, b.stdout);
    let text = iron3d(&["validate".as_ref(), dir.path().as_os_str()]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("errors 0, warnings 0"));
}

#[test]
fn validate_broken_install_exits_one() {
    let dir = install(Knobs {
        missing_texture: true,
        ..Knobs::default()
    });
    let out = iron3d(&["validate".as_ref(), dir.path().as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("→ Textures.lib::NOTEX → "), "{stdout}");
    let missing = iron3d(&["validate".as_ref(), "/nonexistent/dir".as_ref()]);
    assert_eq!(missing.status.code(), Some(1));
    let usage = iron3d(&["validate".as_ref()]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn mission_graph_prints_the_tree() {
    let dir = install(Knobs::default());
    let out = iron3d(&[
        "mission".as_ref(),
        "graph".as_ref(),
        dir.path().as_os_str(),
        "M1".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("prototype 'tank_body'"), "{stdout}");
    let broken = install(Knobs {
        no_unit_dat: true,
        ..Knobs::default()
    });
    let out = iron3d(&[
        "mission".as_ref(),
        "graph".as_ref(),
        broken.path().as_os_str(),
        "M1".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["failures"][0]["edge"], "unit_dat");
}
