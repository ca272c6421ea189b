//! `iron3d mission info` as a user runs it, on a generated install.

use iron3d_formats::tma::*;
use std::process::{Command, Output};

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .expect("run iron3d")
}

fn install() -> tempfile::TempDir {
    let mut t = Tma::new("MISSIONS\\DEMO\\Land");
    t.clans.push(Clan::new("Player", ClanType::Player));
    let mut o = PlacedObject::new(ObjectKind::Building, "b_gen01", [1.0, 2.0, 3.0]);
    o.properties.push(Property::int("Invulnerability", 0, 0, 1));
    t.objects.push(o);
    t.description = Description::from_text("Demo");
    let dir = tempfile::tempdir().expect("tempdir");
    let m = dir.path().join("MISSIONS").join("Demo");
    std::fs::create_dir_all(&m).expect("mkdir");
    std::fs::write(m.join("data.tma"), t.to_bytes().expect("tma")).expect("write");
    dir
}

#[test]
fn info_prints_text_and_json() {
    let dir = install();
    let root = dir.path().to_str().expect("utf-8 path");
    let text = iron3d(&["mission", "info", root, "demo"]);
    assert!(text.status.success(), "{text:?}");
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("mission Demo"), "{out}");
    assert!(out.contains("objects: 1 (building 1"), "{out}");
    let json = iron3d(&["mission", "info", root, "Demo", "--json"]);
    assert!(json.status.success(), "{json:?}");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["objects"]["total"], 1);
    assert_eq!(v["description"]["text"], "Demo");
}

#[test]
fn data_and_usage_errors_have_their_exit_codes() {
    let dir = install();
    let root = dir.path().to_str().expect("utf-8 path");
    let missing = iron3d(&["mission", "info", root, "nope"]);
    assert_eq!(missing.status.code(), Some(1));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("nope") && !err.contains("panicked"), "{err}");
    let usage = iron3d(&["mission", "info", root]);
    assert_eq!(usage.status.code(), Some(2));
}
