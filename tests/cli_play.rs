//! `iron3d play` as a user runs it.

use std::process::{Command, Output};

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run iron3d")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn headless_play_prints_ticks_and_the_same_hash_every_run() {
    let a = iron3d(&["play", "--headless", "--ticks", "300"]);
    let b = iron3d(&["play", "--headless", "--ticks", "300"]);
    assert!(a.status.success(), "{a:?}");
    let out = stdout(&a);
    assert!(out.contains("ticks: 300"), "{out}");
    let hash = out
        .lines()
        .find(|l| l.starts_with("state hash: "))
        .expect("hash line");
    assert_eq!(hash.len(), "state hash: ".len() + 16);
    assert_eq!(out, stdout(&b), "deterministic");

    let c = iron3d(&["play", "--headless", "--ticks", "301"]);
    assert_ne!(
        out.lines().last(),
        stdout(&c).lines().last(),
        "hash follows the state"
    );
}

#[test]
fn play_without_a_display_names_headless_and_exits_2() {
    let o = iron3d(&["play"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("--headless"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        iron3d(&["play", "--headless"]).status.code(),
        Some(2),
        "--ticks required"
    );
    assert_eq!(iron3d(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(iron3d(&["play", "--rate", "0"]).status.code(), Some(2));
}
