//! `iron3d sound export`, `iron3d material info` and `iron3d effect info`
//! end to end over synthetic archives: output, exit codes 0 / 1 / 2.

use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command as FxCommand, FXID_TYPE_ID, FxHeader, Fxid};
use iron3d_formats::mat0::{MAT0_TYPE_ID, Mat0, Phase};
use iron3d_formats::sound::{Wave, encode_ms_adpcm};
use std::path::Path;
use std::process::{Command, Output};

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .expect("run iron3d")
}

fn entry<'p>(name: &str, type_id: u32, attr2: u32, payload: &'p [u8]) -> NewEntry<'p> {
    NewEntry {
        name: name.as_bytes().to_vec(),
        type_id,
        attr1: 0b110,
        attr2,
        attr3: 0,
        payload,
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

#[test]
fn sound_export_decodes_ms_adpcm_to_pcm16() {
    let dir = tempfile::tempdir().unwrap();
    let pcm: Vec<i16> = (0..4410).map(|i| ((i * 37) % 2000 - 1000) as i16).collect();
    let adpcm = encode_ms_adpcm(22050, 2, &pcm, 1024).unwrap();
    let lib = dir.path().join("sounds.lib");
    std::fs::write(
        &lib,
        build(&[
            entry("Exp_01.wav", 0, 0, &adpcm),
            entry("ALIEN_ME.WAV", 0, 0, &[]),
        ])
        .unwrap(),
    )
    .unwrap();
    let out_wav = dir.path().join("out.wav");
    let out = iron3d(&["sound", "export", path(&lib), "EXP_01.WAV", path(&out_wav)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wave = Wave::parse(&std::fs::read(&out_wav).unwrap()).unwrap();
    assert_eq!(wave.format().unwrap().format_tag, 1);
    assert_eq!(wave.decode().unwrap().samples.len(), pcm.len());

    let empty = iron3d(&[
        "sound",
        "export",
        path(&lib),
        "alien_me.wav",
        path(&out_wav),
    ]);
    assert_eq!(empty.status.code(), Some(1));
    assert!(text(&empty.stderr).contains("entry_empty"));
    let missing = iron3d(&["sound", "export", path(&lib), "none.wav", path(&out_wav)]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("entry_missing"));
    assert_eq!(
        iron3d(&["sound", "export", path(&lib)]).status.code(),
        Some(2)
    );
}

#[test]
fn material_info_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = Mat0::new(4, 0b110);
    m.phases.push(Phase::new([7; 18], b"WALL_03").unwrap());
    let payload = m.to_bytes().unwrap();
    std::fs::write(
        dir.path().join("Material.lib"),
        build(&[entry("wall_mat", MAT0_TYPE_ID, 4, &payload)]).unwrap(),
    )
    .unwrap();
    let out = iron3d(&["material", "info", path(dir.path()), "WALL_MAT"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("version 4"), "{stdout}");
    assert!(stdout.contains("render type 1, bump true"), "{stdout}");
    assert!(stdout.contains("texture WALL_03"), "{stdout}");
    let json = iron3d(&["material", "info", path(dir.path()), "wall_mat", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["textures"], serde_json::json!(["WALL_03"]));
    let missing = iron3d(&["material", "info", path(dir.path()), "nothing"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(!text(&missing.stderr).is_empty());
}

#[test]
fn effect_info_shows_opcodes_and_references() {
    let dir = tempfile::tempdir().unwrap();
    let mut sound = FxCommand::new(2, true).unwrap();
    sound
        .set_resource(&ResourceRef::new(b"sounds.lib", b"boom.wav").unwrap())
        .unwrap();
    let fx = Fxid {
        header: FxHeader::default(),
        commands: vec![sound, FxCommand::new(6, false).unwrap()],
    };
    let payload = fx.to_bytes().unwrap();
    let lib = dir.path().join("effects.rlb");
    std::fs::write(
        &lib,
        build(&[entry("boom", FXID_TYPE_ID, 0, &payload)]).unwrap(),
    )
    .unwrap();
    let out = iron3d(&["effect", "info", path(&lib), "BOOM"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("opcode 2 size 148 enabled  sounds.lib/boom.wav"),
        "{stdout}"
    );
    assert!(stdout.contains("opcode 6 size 4"), "{stdout}");
    let json = iron3d(&["effect", "info", path(&lib), "boom", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["commands"][0]["opcode"], 2);
    assert_eq!(
        iron3d(&["effect", "info", path(&lib), "gone"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(iron3d(&["effect", "bogus"]).status.code(), Some(2));
}
