//! `iron3d script dis|asm` through the binary, on the demo install's
//! scripts: the disassembly names variables and formulas, its JSON lists
//! every node, and the text written back by `asm` is the same script.

mod common;

use common::{iron3d, run};
use iron3d_demo::{DEFAULT_SEED, Scale, build};

#[test]
fn a_demo_script_disassembles_and_assembles_back_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let scripts = root.join("MISSIONS/SCRIPTS");
    let (scr, fml, varset) = (
        scripts.join("scr_pl_1.scr"),
        scripts.join("scr_pl_1.fml"),
        scripts.join("varset.var"),
    );
    let text = run(iron3d()
        .args(["script", "dis"])
        .arg(&scr)
        .arg("--varset")
        .arg(&varset)
        .arg("--fml")
        .arg(&fml));
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.starts_with("function table: 73\n"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("handler 1 Mission ("),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("  if dTemp == DESTROYED_OWNER\n"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .contains("    fn30(SYSTEM_MESSAGE, MISSION_FAILED)\n"),
        "{}",
        text.stdout
    );

    let json = run(iron3d().args(["script", "dis"]).arg(&scr).arg("--json"));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let listing: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(listing["table_len"], 73);
    let mission = &listing["handlers"][1];
    assert_eq!(mission["name"], "Mission");
    assert_eq!(mission["nodes"][1]["kind"], "if");

    let source = dir.path().join("scr_pl_1.txt");
    std::fs::write(&source, &text.stdout).unwrap();
    let out = dir.path().join("again");
    let asm = run(iron3d()
        .args(["script", "asm"])
        .arg(&source)
        .arg("--varset")
        .arg(&varset)
        .arg("--out")
        .arg(&out));
    assert_eq!(asm.code, 0, "{}", asm.stderr);
    assert_eq!(
        std::fs::read(out.with_extension("scr")).unwrap(),
        std::fs::read(&scr).unwrap()
    );
    assert_eq!(
        std::fs::read(out.with_extension("fml")).unwrap(),
        std::fs::read(&fml).unwrap()
    );
}

#[test]
fn a_bad_script_is_an_error_naming_the_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.scr");
    std::fs::write(&bad, [73, 0, 0, 0, 1, 0, 0]).unwrap();
    let out = run(iron3d().args(["script", "dis"]).arg(&bad));
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("bad.scr"), "{}", out.stderr);
    assert!(out.stderr.contains("offset 0x4"), "{}", out.stderr);
}
