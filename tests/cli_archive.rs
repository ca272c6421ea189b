//! `iron3d archive list|cat|extract|pack|verify` as a user runs them, on
//! archives written by the canonical writers.

use iron3d_formats::archive::nres::{self, NewEntry};
use iron3d_formats::archive::rsli::{self, Method, NewRsliEntry};
use std::path::Path;
use std::process::{Command, Output};

#[path = "../formats/tests/support/sample_archives.rs"]
mod sample_archives;

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .expect("run iron3d")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn archives(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let n = dir.join("objects.rlb");
    std::fs::write(&n, sample_archives::sample_nres()).expect("write");
    let r = dir.join("gamefont.rlb");
    let text = b"glyphs glyphs glyphs".repeat(10);
    let bytes = rsli::build(&[
        NewRsliEntry {
            name: b"FONT.TEX".to_vec(),
            method: Method::Lzss,
            payload: &text,
        },
        NewRsliEntry {
            name: b"INTERF.TEX".to_vec(),
            method: Method::Deflate,
            payload: &text,
        },
    ])
    .expect("rsli");
    std::fs::write(&r, bytes).expect("write");
    (n, r)
}

#[test]
fn list_prints_one_row_per_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (n, r) = archives(dir.path());
    let out = iron3d(&["archive", "list", s(&n)]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains("model.msh"));
    let out = iron3d(&["archive", "list", s(&r), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["method"], "Deflate");
    assert_eq!(rows[0]["unpacked_size"], 200);
}

#[test]
fn cat_prints_the_payload_or_fails_with_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (n, r) = archives(dir.path());
    let out = iron3d(&["archive", "cat", s(&n), "TREE01"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"texture");
    let out = iron3d(&["archive", "cat", s(&r), "interf.tex"]);
    assert_eq!(out.stdout, b"glyphs glyphs glyphs".repeat(10));
    let out = iron3d(&["archive", "cat", s(&n), "absent"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("absent"));
}

#[test]
fn extract_then_pack_reproduces_both_kinds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (n, r) = archives(dir.path());
    for file in [n, r] {
        let x = dir.path().join("x");
        let _ = std::fs::remove_dir_all(&x);
        let packed = dir.path().join("packed");
        assert_eq!(
            iron3d(&["archive", "extract", s(&file), s(&x)])
                .status
                .code(),
            Some(0)
        );
        assert!(x.join("manifest.json").exists());
        assert_eq!(
            iron3d(&["archive", "pack", s(&x), s(&packed)])
                .status
                .code(),
            Some(0)
        );
        assert_eq!(
            std::fs::read(&packed).expect("read"),
            std::fs::read(&file).expect("read")
        );
    }
}

#[test]
fn verify_exit_codes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (n, _) = archives(dir.path());
    assert_eq!(
        iron3d(&["archive", "verify", s(&n), "--strict"])
            .status
            .code(),
        Some(0)
    );
    let bad = dir.path().join("bad.lib");
    let mut bytes = std::fs::read(&n).expect("read");
    bytes.push(0); // total_size no longer matches
    std::fs::write(&bad, bytes).expect("write");
    let out = iron3d(&["archive", "verify", s(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.lib") && err.contains("total_size"),
        "{err}"
    );
    assert_eq!(iron3d(&["archive", "verify"]).status.code(), Some(2));
    assert_eq!(
        iron3d(&["archive", "frobnicate", s(&n)]).status.code(),
        Some(2)
    );
}

/// The stdout of `iron3d <args>`, which must exit 0.
fn run_ok(args: &[&str]) -> Vec<u8> {
    let out = iron3d(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn list_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.lib");
    std::fs::write(&p, sample_archives::sample_nres()).unwrap();
    let out = String::from_utf8(run_ok(&["archive", "list", s(&p)])).unwrap();
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().next().unwrap().contains("Tree01"), "{out}");
    assert!(out.contains("Texm"));
    let out = String::from_utf8(run_ok(&["archive", "list", s(&p), "--json"])).unwrap();
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[1]["name"], "model.msh");
    assert_eq!(rows[1]["type_id"], 0x4853454D);
    assert_eq!(rows[1]["data_offset"], 24);
    let q = dir.path().join("b.lib");
    std::fs::write(&q, sample_archives::sample_rsli()).unwrap();
    let out = String::from_utf8(run_ok(&["archive", "list", s(&q), "--json"])).unwrap();
    let row: serde_json::Value = serde_json::from_str(out.lines().nth(3).unwrap()).unwrap();
    assert_eq!(row["method"], "XorLzhuf");
    assert_eq!(row["unpacked_size"], 145);
}

#[test]
fn cat_finds_case_insensitively_and_misses_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.lib");
    std::fs::write(&p, sample_archives::sample_nres()).unwrap();
    assert_eq!(run_ok(&["archive", "cat", s(&p), "MODEL.MSH"]), b"mesh!");
    let out = iron3d(&["archive", "cat", s(&p), "nope"]);
    assert_eq!(out.status.code(), Some(1));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("a.lib") && e.contains("nope"), "{e}");
    let q = dir.path().join("b.lib");
    std::fs::write(&q, sample_archives::sample_rsli()).unwrap();
    assert_eq!(
        run_ok(&["archive", "cat", s(&q), "h.huf"]),
        b"font data font data font data".repeat(5)
    );
}
