//! `iron3d model info|export` and `iron3d texture info|export` over files in
//! a temporary install: what each prints and its exit code.

mod common;
#[path = "../formats/tests/msh_support/mod.rs"]
mod msh_support;
#[path = "../formats/tests/support/mod.rs"]
mod support;

use common::{Out, iron3d, run};
use iron3d_formats::archive::nres::build;
use iron3d_formats::mat0::{MAT0_TYPE_ID, Mat0, Phase};
use iron3d_formats::msh::Msh;
use iron3d_formats::texm::{Mips, PageRect, PixelFormat, Rgba8Image, Texm};
use iron3d_formats::wear::{WEAR_TYPE_ID, Wear, WearRow};
use msh_support::*;
use std::path::Path;
use support::entry;

/// `iron3d model info <ARCHIVE> <ENTRY> [--json]`.
fn run_model_info(archive: &Path, entry: &str, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["model", "info"]).arg(archive).arg(entry);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// `iron3d model export <ARCHIVE> <ENTRY> <OUT.glb> [--game-dir DIR]`.
fn run_model_export(archive: &Path, entry: &str, out: &Path, game_dir: Option<&Path>) -> Out {
    let mut cmd = iron3d();
    cmd.args(["model", "export"])
        .arg(archive)
        .arg(entry)
        .arg(out);
    if let Some(dir) = game_dir {
        cmd.arg("--game-dir").arg(dir);
    }
    run(&mut cmd)
}

/// `iron3d texture info <ARCHIVE> <ENTRY> [--json]`.
fn run_texture_info(archive: &Path, entry: &str, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["texture", "info"]).arg(archive).arg(entry);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// `iron3d texture export <ARCHIVE> <ENTRY> <OUT.png> --mip N`.
fn run_texture_export(archive: &Path, entry: &str, out: &Path, mip: u32) -> Out {
    let mut cmd = iron3d();
    cmd.args(["texture", "export"])
        .arg(archive)
        .arg(entry)
        .arg(out);
    cmd.arg("--mip").arg(mip.to_string());
    run(&mut cmd)
}

const MESH: u32 = u32::from_le_bytes(*b"MESH");
const TEXM: u32 = u32::from_le_bytes(*b"Texm");

/// An install: `objects.rlb` (TANK.msh + TANK.wea), `Material.lib` (two
/// materials, one textured), `Textures.lib` (one 4444 texture).
fn install(dir: &Path) {
    let model = Msh::build(two_node_parts()).unwrap().to_bytes().unwrap();
    let wear = Wear::new(
        vec![WearRow::new("0", "PLAIN"), WearRow::new("1", "METAL")],
        None,
    )
    .to_bytes()
    .unwrap();
    std::fs::write(
        dir.join("objects.rlb"),
        build(&[
            entry("TANK.msh", MESH, 0, 0, &model),
            entry("TANK.wea", WEAR_TYPE_ID, 0, 0, &wear),
        ])
        .unwrap(),
    )
    .unwrap();
    let mut metal = Mat0::new(6, 0);
    metal.phases.push(Phase::new([0; 18], b"METAL01").unwrap());
    let mut plain = Mat0::new(6, 0);
    plain.phases.push(Phase::new([0; 18], b"").unwrap());
    let (m, p) = (metal.to_bytes().unwrap(), plain.to_bytes().unwrap());
    std::fs::write(
        dir.join("Material.lib"),
        build(&[
            entry("METAL", MAT0_TYPE_ID, 0, 6, &m),
            entry("PLAIN", MAT0_TYPE_ID, 0, 6, &p),
        ])
        .unwrap(),
    )
    .unwrap();
    let img = Rgba8Image {
        width: 4,
        height: 4,
        pixels: vec![0x88; 64],
    };
    let tex = Texm::from_rgba(&img, PixelFormat::Argb4444, Mips::Full, None)
        .unwrap()
        .to_bytes()
        .unwrap();
    std::fs::write(
        dir.join("Textures.lib"),
        build(&[entry("METAL01", TEXM, 0, 0, &tex)]).unwrap(),
    )
    .unwrap();
}

#[test]
fn model_info_prints_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let rlb = dir.path().join("objects.rlb");
    let out = run_model_info(&rlb, "tank.MSH", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("turret") && out.stdout.contains("validation: ok"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("frame map"), "{}", out.stdout);
    let out = run_model_info(&rlb, "TANK.msh", true);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["nodes"][1]["parent"], 0);
    let out = run_model_info(&rlb, "NOPE.msh", false);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("NOPE.msh") && out.stderr.contains("objects.rlb"),
        "{}",
        out.stderr
    );
}

#[test]
fn model_export_embeds_textures_through_wear_and_mat0() {
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let rlb = dir.path().join("objects.rlb");
    let glb = dir.path().join("tank.glb");
    let out = run_model_export(&rlb, "TANK.msh", &glb, Some(dir.path()));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("1 textures"), "{}", out.stdout);
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    assert_eq!(doc["materials"][1]["name"], "METAL");
    assert_eq!(doc["images"].as_array().unwrap().len(), 1);
    // Without an install: geometry only.
    let out = run_model_export(&rlb, "TANK.msh", &glb, None);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("0 textures"));
}

#[test]
fn texture_info_and_export() {
    let dir = tempfile::tempdir().unwrap();
    install(dir.path());
    let lib = dir.path().join("Textures.lib");
    let out = run_texture_info(&lib, "metal01", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("format: 4444") && out.stdout.contains("mips: 3"),
        "{}",
        out.stdout
    );
    let v: serde_json::Value =
        serde_json::from_str(&run_texture_info(&lib, "METAL01", true).stdout).unwrap();
    assert_eq!(v["mip_sizes"][2], serde_json::json!([1, 1]));
    let png = dir.path().join("m.png");
    let out = run_texture_export(&lib, "METAL01", &png, 1);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("2x2"));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let out = run_texture_export(&lib, "METAL01", &png, 3);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("mip level"), "{}", out.stderr);
}

#[test]
fn texture_info_lists_page_rectangles() {
    let dir = tempfile::tempdir().unwrap();
    let img = Rgba8Image {
        width: 4,
        height: 2,
        pixels: vec![0x40; 32],
    };
    let mut tex = Texm::from_rgba(&img, PixelFormat::Argb8888, Mips::Full, None).unwrap();
    let rect = |x| PageRect {
        x,
        width: 2,
        y: 0,
        height: 2,
    };
    tex.page = Some(vec![rect(0), rect(2)]);
    let lib = dir.path().join("Textures.lib");
    std::fs::write(
        &lib,
        build(&[entry("PAGED", TEXM, 0, 0, &tex.to_bytes().unwrap())]).unwrap(),
    )
    .unwrap();
    let out = run_texture_info(&lib, "paged", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("page: 2 rectangles"), "{}", out.stdout);
}
