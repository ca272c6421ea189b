//! `iron3d demo build`: deterministic, atomic, and every archive strict-valid.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn iron3d(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .expect("run iron3d")
}

fn build(dir: &Path, seed: u64) {
    let out = iron3d(&[
        "demo",
        "build",
        dir.to_str().unwrap(),
        "--seed",
        &seed.to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Relative path -> bytes of every file below `root`.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    build(&a, 7);
    build(&b, 7);
    build(&c, 8);
    let (ta, tb, tc) = (tree(&a), tree(&b), tree(&c));
    assert!(ta.len() > 20, "a complete install: {} files", ta.len());
    assert_eq!(ta, tb, "deterministic");
    assert_ne!(ta, tc, "the seed matters");
    // Atomic build: nothing but the install is left beside it.
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn every_archive_of_the_demo_verifies_strictly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");
    build(&dir, 1);
    let archives: Vec<PathBuf> = tree(&dir)
        .into_keys()
        .filter(|p| {
            let ext = p
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            ext == "lib" || ext == "rlb"
        })
        .collect();
    assert!(archives.len() >= 12, "{archives:?}");
    for rel in archives {
        let path = dir.join(&rel);
        let out = iron3d(&["archive", "verify", "--strict", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}: {}",
            rel.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
