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
    // An empty directory is not an install.
    let empty = tempfile::tempdir().unwrap();
    let out = iron3d(&["validate".as_ref(), empty.path().as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the directory holds no file"), "{err}");
}

/// A library that is not an archive (random bytes where `effects.rlb`
/// was) is an error of the library, not a file of another kind.
#[test]
fn validate_counts_a_library_that_does_not_read_as_an_error() {
    let dir = install(Knobs::default());
    let mut noise = 0x2545_f491_4f6c_dd1d_u64;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            noise as u8
        })
        .collect();
    std::fs::write(dir.path().join("effects.rlb"), bytes).unwrap();
    let args = [
        "validate".as_ref(),
        dir.path().as_os_str(),
        "--json".as_ref(),
    ];
    let out = iron3d(&args);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let named = json["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["severity"] == "error" && d["family"] == "archive" && d["file"] == "effects.rlb"
    });
    assert!(named, "{}", json["diagnostics"]);
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

/// The demo's texts (Russian, as the retail game's) all draw in its
/// `GAME_FONT`; a message a modder writes with a character the font lacks
/// is a `font` warning naming the message and the character.
#[test]
fn validate_warns_of_text_its_font_does_not_draw() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    iron3d_demo::build(&game, iron3d_demo::DEFAULT_SEED, iron3d_demo::Scale::Demo).unwrap();
    let font_warnings = |game: &std::path::Path| -> Vec<serde_json::Value> {
        let out = iron3d(&["validate".as_ref(), game.as_os_str(), "--json".as_ref()]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["family"] == "font")
            .cloned()
            .collect()
    };
    assert_eq!(font_warnings(&game), Vec::<serde_json::Value>::new());
    let messages = game.join("MISSIONS/Campaign.00/Mission.01/messages.cfg");
    let text = std::fs::read_to_string(&messages).unwrap();
    let modded = text.replace("\"M_ENEMY_AT_BASE\"", "\"Enemy @ the base {now}\"");
    assert_ne!(modded, text);
    std::fs::write(&messages, modded).unwrap();
    let warnings = font_warnings(&game);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!(warnings[0]["severity"], "warning");
    assert_eq!(warnings[0]["file"], "MISSIONS/Campaign.00/Mission.01");
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("message 1 shows \"@{}\", which GAME_FONT"),
        "{message}"
    );
}
