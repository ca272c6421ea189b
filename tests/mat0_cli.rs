//! `iron3d material|effect info` and `iron3d sound export` over synthetic
//! archives: text and JSON output, exit codes, the error chain.

mod common;
#[path = "../formats/tests/support/mod.rs"]
mod support;

use common::{Out, iron3d, run};
use iron3d_formats::archive::nres::build;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command, FXID_TYPE_ID, FxHeader, Fxid};
use iron3d_formats::mat0::{AnimBlock, AnimKey, MAT0_TYPE_ID, Mat0, Phase};
use iron3d_formats::sound::{Wave, encode_ms_adpcm};
use std::path::Path;
use support::entry;

/// `iron3d material info <GAME_DIR> <MATERIAL> [--json]`.
fn run_material_info(game_dir: &Path, name: &str, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["material", "info"]).arg(game_dir).arg(name);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// `iron3d effect info <ARCHIVE> <ENTRY> [--json]`.
fn run_effect_info(archive: &Path, entry: &str, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["effect", "info"]).arg(archive).arg(entry);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// `iron3d sound export <ARCHIVE> <ENTRY> <OUT.wav>`.
fn run_sound_export(archive: &Path, entry: &str, out: &Path) -> Out {
    run(iron3d()
        .args(["sound", "export"])
        .arg(archive)
        .arg(entry)
        .arg(out))
}

fn material() -> Mat0 {
    let mut m = Mat0::new(3, 0b0000_1010);
    m.src_blend = 2;
    m.phases.push(Phase::new([1; 18], b"ROCK01").unwrap());
    m.phases.push(Phase::new([2; 18], b"").unwrap());
    m.animations.push(AnimBlock {
        header: 1 | 0x18,
        keys: vec![
            AnimKey {
                k0: 0,
                k1: 0,
                k2: 0,
            },
            AnimKey {
                k0: 1,
                k1: 50,
                k2: 0,
            },
        ],
    });
    m
}

#[test]
fn material_info_text_json_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let m = material();
    let payload = m.to_bytes().unwrap();
    let lib = build(&[
        entry("DEFAULT", MAT0_TYPE_ID, 0, 1, &[0, 0, 0, 0]),
        entry("Rock_Mat", MAT0_TYPE_ID, m.flags, m.version, &payload),
        entry("NOT_A_MAT", 0x1234, 0, 0, b"x"),
        entry("BROKEN", MAT0_TYPE_ID, 0, 1, &[1, 0, 0, 0]),
    ])
    .unwrap();
    // The file name is matched case-insensitively.
    std::fs::write(dir.path().join("MATERIAL.LIB"), lib).unwrap();

    let out = run_material_info(dir.path(), "rock_mat", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("version 3"), "{}", out.stdout);
    assert!(
        out.stdout.contains("render type 2, bump true"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("texture ROCK01"));
    assert!(out.stdout.contains("(untextured)"));
    assert!(out.stdout.contains("PingPong"));

    let out = run_material_info(dir.path(), "ROCK_MAT", true);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["version"], 3);
    assert_eq!(v["src_blend"], 2);
    assert_eq!(v["dst_blend"], 255);
    assert_eq!(v["alpha"], 1.0);
    assert_eq!(v["phases"].as_array().unwrap().len(), 2);
    assert_eq!(v["animations"][0]["mode_name"], "PingPong");
    assert_eq!(v["animations"][0]["keys"][1]["k1"], 50);
    assert_eq!(v["textures"], serde_json::json!(["ROCK01"]));

    for (name, needle) in [
        ("nothing", "missing"),
        ("not_a_mat", "entry type"),
        ("broken", "entry #3 'BROKEN'"),
    ] {
        let out = run_material_info(dir.path(), name, false);
        assert_eq!(out.code, 1, "{name}");
        assert!(out.stdout.is_empty());
        assert!(out.stderr.contains(needle), "{name}: {}", out.stderr);
    }
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(run_material_info(empty.path(), "x", false).code, 1);
}

#[test]
fn effect_info_lists_commands_and_references() {
    let dir = tempfile::tempdir().unwrap();
    let mut sound = Command::new(2, true).unwrap();
    sound
        .set_resource(&ResourceRef::new(b"sounds.lib", b"Exp_anl_06.wav").unwrap())
        .unwrap();
    let mut sprite = Command::new(7, false).unwrap();
    sprite
        .set_resource(&ResourceRef::new(b"material.lib", b"fire_smoke").unwrap())
        .unwrap();
    let fx = Fxid {
        header: FxHeader {
            time_mode: 1,
            flags: 0x16,
            ..FxHeader::default()
        },
        commands: vec![sprite, sound, Command::new(1, false).unwrap()],
    };
    let payload = fx.to_bytes().unwrap();
    let archive = dir.path().join("effects.rlb");
    std::fs::write(
        &archive,
        build(&[
            entry("aim_exp_L", FXID_TYPE_ID, 0, 0, &payload),
            entry("junk", FXID_TYPE_ID, 0, 0, b"1234"),
        ])
        .unwrap(),
    )
    .unwrap();
    let out = run_effect_info(&archive, "AIM_EXP_L", false);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("commands 3"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("[0] @0x3c opcode 7 size 208  material.lib/fire_smoke"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("[1] @0x10c opcode 2 size 148 enabled  sounds.lib/Exp_anl_06.wav"),
        "{}",
        out.stdout
    );
    let v: serde_json::Value =
        serde_json::from_str(&run_effect_info(&archive, "aim_exp_l", true).stdout).unwrap();
    assert_eq!(v["header"]["flags"], 0x16);
    assert_eq!(v["commands"][1]["resource"]["name"], "Exp_anl_06.wav");
    assert_eq!(v["commands"][2]["resource"], serde_json::Value::Null);
    assert_eq!(v["size"], payload.len());
    let out = run_effect_info(&archive, "junk", false);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("FXID"), "{}", out.stderr);
}

#[test]
fn sound_export_writes_pcm16_and_names_each_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let pcm: Vec<i16> = (0..2205)
        .map(|i| ((i % 100) * 300 - 15000) as i16)
        .collect();
    let adpcm = encode_ms_adpcm(22050, 1, &pcm, 512).unwrap();
    let archive = dir.path().join("sounds.lib");
    std::fs::write(
        &archive,
        build(&[
            entry("Exp_01.wav", 0, 0, 0, &adpcm),
            entry("ALIEN_ME.WAV", 0, 0, 0, &[]),
            entry("bad.wav", 0, 0, 0, b"RIFF"),
        ])
        .unwrap(),
    )
    .unwrap();
    let wav = dir.path().join("out.wav");
    let out = run_sound_export(&archive, "exp_01.WAV", &wav);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("22050 Hz, 1 channel(s), 2205 frames (0.100 s)"),
        "{}",
        out.stdout
    );
    let written = Wave::parse(&std::fs::read(&wav).unwrap()).unwrap();
    assert_eq!(written.format().unwrap().format_tag, 1);
    let decoded = written.decode().unwrap();
    assert_eq!(decoded.samples.len(), pcm.len());
    let expect = Wave::parse(&adpcm).unwrap().decode().unwrap();
    assert_eq!(decoded, expect);
    for (name, needle) in [
        ("nope.wav", "entry_missing"),
        ("alien_me.wav", "entry_empty"),
        ("bad.wav", "entry #2 'bad.wav'"),
    ] {
        let out = run_sound_export(&archive, name, &dir.path().join("x.wav"));
        assert_eq!(out.code, 1, "{name}");
        assert!(out.stderr.contains(needle), "{name}: {}", out.stderr);
    }
    assert!(!dir.path().join("x.wav").exists());
}
