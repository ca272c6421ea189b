//! The mission-script readers against hand-laid bytes and texts: the
//! unaligned `.scr` layout word by word, every node kind and relation,
//! the function-table length as its own error, and the checks against
//! `varset.var` and `.fml`.

use iron3d_formats::error::Problem;
use iron3d_formats::script::fml::FormulaSet;
use iron3d_formats::script::scr::{Op, Relation, Script};
use iron3d_formats::script::varset::{VarType, Varset};
use iron3d_formats::script::{check_against, dis};

/// Little-endian words.
fn words(w: &[i32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// One handler record: name, terminator, index, then its node words.
fn handler(name: &str, index: i32, nodes: &[&[i32]]) -> Vec<u8> {
    let mut out = words(&[name.len() as i32]);
    out.extend(name.as_bytes());
    out.push(0);
    out.extend(words(&[index, nodes.len() as i32]));
    for n in nodes {
        out.extend(words(n));
    }
    out
}

/// A node: head words, relation, operands, trailer.
fn node(head: [i32; 4], relation: i32, operands: &[i32], trailer: i32) -> Vec<i32> {
    let mut w = head.to_vec();
    w.push(relation);
    w.push(operands.len() as i32);
    w.extend(operands);
    w.push(trailer);
    w
}

/// Every node kind once, and an `if` per relation, in a handler named with
/// an odd length so everything after it is unaligned.
fn vector() -> Vec<u8> {
    let mut nodes = vec![
        node([15, 30, -1, -1], 6, &[3, 4], -1), // dTemp = fn15(d.., d..)
        node([-1, 30, 31, -1], 6, &[], -1),     // copy
        node([-1, 30, -1, -1], 6, &[], 0),      // formula 0
        node([-1, 30, 0x8000_0003u32 as i32, 6], 6, &[], -1), // constant
        node([-1, -1, -1, 2], 6, &[], -1),      // label
        node([-1, -1, -1, 3], 6, &[4], -1),     // goto the label
        node([-1, -1, -1, 4], 6, &[1], -1),     // switch to handler 1
        node([-1, -1, -1, 5], 6, &[], -1),      // return
    ];
    for r in 0..6 {
        nodes.push(node([-1, -1, -1, 0], r, &[30, 31], -1));
        nodes.push(node([-1, -1, -1, 1], 6, &[], -1));
    }
    let refs: Vec<&[i32]> = nodes.iter().map(Vec::as_slice).collect();
    let mut out = words(&[73, 2]);
    out.extend(handler("Mech_Task_Complete", 0, &refs));
    out.extend(handler(
        "Fort_Task_Complete",
        1,
        &[&node([-1, -1, -1, 5], 6, &[], -1)],
    ));
    out
}

#[test]
fn the_unaligned_layout_reads_word_by_word_and_writes_back_byte_identical() {
    let bytes = vector();
    let s = Script::parse(&bytes).unwrap();
    assert_eq!(s.table_len, 73);
    assert_eq!(s.handlers.len(), 2);
    let h = &s.handlers[0];
    assert_eq!(
        (h.name.as_slice(), h.terminator, h.index),
        (&b"Mech_Task_Complete"[..], 0, 0)
    );
    assert_eq!(h.nodes.len(), 20);
    // The second handler's name starts at an odd offset.
    let places = s.places();
    let second = places
        .iter()
        .find(|p| p.handler == 1 && p.node.is_none())
        .unwrap();
    assert_eq!(second.offset % 2, 1, "{second:?}");
    assert_eq!(s.to_bytes().unwrap(), bytes);
    assert!(s.check().is_empty(), "{:?}", s.check());
}

#[test]
fn every_node_kind_and_relation_decodes() {
    let s = Script::parse(&vector()).unwrap();
    let ops: Vec<Op> = s.handlers[0]
        .nodes
        .iter()
        .map(|n| n.op().unwrap())
        .collect();
    assert_eq!(
        ops[0],
        Op::Call {
            function: 15,
            dest: Some(30),
            args: &[3, 4]
        }
    );
    assert_eq!(
        ops[1],
        Op::Copy {
            dest: 30,
            source: 31
        }
    );
    assert_eq!(
        ops[2],
        Op::Formula {
            dest: 30,
            formula: 0
        }
    );
    assert_eq!(
        ops[3],
        Op::Constant {
            dest: 30,
            value: 0x8000_0003
        }
    );
    assert_eq!(ops[4], Op::Label);
    assert_eq!(ops[5], Op::Goto { node: 4 });
    assert_eq!(ops[6], Op::Switch { handler: 1 });
    assert_eq!(ops[7], Op::Return);
    for (r, relation) in Relation::ALL.into_iter().enumerate() {
        assert_eq!(
            ops[8 + 2 * r],
            Op::If {
                relation,
                a: 30,
                b: 31
            }
        );
        assert_eq!(ops[9 + 2 * r], Op::End);
    }
}

#[test]
fn another_function_table_length_is_a_version_mismatch_not_a_malformed_file() {
    let mut bytes = vector();
    bytes[..4].copy_from_slice(&72i32.to_le_bytes());
    // It still reads: the engine reports it and runs the script.
    let s = Script::parse(&bytes).unwrap();
    let findings = s.check();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].offset, 0);
    assert_eq!(
        findings[0].problem,
        Problem::VersionMismatch {
            expected: "a function table of 73".into(),
            found: "72".into()
        }
    );
    let listing = dis::listing(&s, None, None);
    assert!(!listing.table_ok);
    assert!(
        listing
            .text()
            .starts_with("function table: 72 (this engine's is 73)")
    );
}

#[test]
fn malformed_structure_and_nodes_are_named_with_their_offsets() {
    let bytes = vector();
    // A handler count larger than the file can hold.
    let mut count = bytes.clone();
    count[4..8].copy_from_slice(&1_000_000i32.to_le_bytes());
    let e = Script::parse(&count).unwrap_err();
    assert_eq!(e.offset, 8);
    assert!(
        matches!(&e.problem, Problem::Invalid { expected, .. } if expected.starts_with("handler count")),
        "{e}"
    );
    // A negative name length.
    let mut name = bytes.clone();
    name[8..12].copy_from_slice(&(-1i32).to_le_bytes());
    let e = Script::parse(&name).unwrap_err();
    assert_eq!(e.offset, 8);
    assert!(
        matches!(&e.problem, Problem::Invalid { found, .. } if found == "-1"),
        "{e}"
    );
    // A byte after the last handler.
    let mut long = bytes.clone();
    long.push(0);
    let e = Script::parse(&long).unwrap_err();
    assert_eq!(e.problem, Problem::TrailingBytes { count: 1 });
    // A node of kind 9: its offset and handler in the finding.
    let mut s = Script::parse(&bytes).unwrap();
    s.handlers[0].nodes[4].kind = 9;
    s.handlers[0].nodes[5].operands[0] = 99;
    s.handlers[0].index = 5;
    let findings = s.check();
    let offsets: Vec<u64> = findings.iter().map(|e| e.offset).collect();
    let places = s.places();
    let at = |n| {
        places
            .iter()
            .find(|p| p.handler == 0 && p.node == Some(n))
            .unwrap()
            .offset
    };
    assert_eq!(offsets, [8, at(4), at(5)]);
    assert!(
        findings[1]
            .to_string()
            .contains("node 4: a node kind -1..6"),
        "{}",
        findings[1]
    );
    assert!(
        findings[2]
            .to_string()
            .contains("a goto within the 20 nodes"),
        "{}",
        findings[2]
    );
    assert_eq!(
        findings[2].entry.as_ref().unwrap().name,
        "Mech_Task_Complete"
    );
}

fn vars() -> Varset {
    let mut decls: Vec<(VarType, String, String)> = (0..30)
        .map(|i| (VarType::Dword, format!("v{i}"), "0".into()))
        .collect();
    decls[3].1 = "f3".into();
    decls.push((VarType::Dword, "dTemp".into(), "0".into()));
    decls.push((VarType::Float, "fTemp".into(), "0".into()));
    let refs: Vec<(VarType, &str, &str)> = decls
        .iter()
        .map(|(t, n, v)| (*t, n.as_str(), v.as_str()))
        .collect();
    Varset::build(&refs).unwrap()
}

#[test]
fn operands_destinations_trailers_and_formula_variables_are_checked_against_their_files() {
    let s = Script::parse(&vector()).unwrap();
    let fml = FormulaSet::build(&["fTemp + 1"]).unwrap();
    let v = vars();
    // Missing `Mech_GeneratorFound` is the only finding.
    let findings = check_against(&s, &v, Some(&fml));
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        findings[0].problem,
        Problem::Missing {
            what: "handler `Mech_GeneratorFound`".into()
        }
    );

    let mut bad = s.clone();
    bad.handlers[0].nodes[0].operands[1] = 500; // past the variables
    bad.handlers[0].nodes[1].dest = 3; // writes `f3`, a literal
    bad.handlers[0].nodes[2].trailer = 1; // past the one formula
    bad.handlers[0].nodes[0].function = 73; // past the table
    let fml = FormulaSet::build(&["fTemp + fNowhere"]).unwrap();
    let texts: Vec<String> = check_against(&bad, &v, Some(&fml))
        .iter()
        .map(|e| e.to_string())
        .collect();
    let want = [
        "node 0: a slot of the 73-slot function table, found 73",
        "node 0: argument: one of the 32 variables, found 500",
        "node 1: destination: a writable variable, found f3",
        "node 2: a formula of the 1 in the script's .fml, found 1",
        "line 3: a variable of varset.var, found fNowhere",
        "missing: handler `Mech_GeneratorFound`",
    ];
    assert_eq!(texts.len(), want.len(), "{texts:#?}");
    for (t, w) in texts.iter().zip(want) {
        assert!(t.contains(w), "{t} lacks {w}");
    }
}

#[test]
fn the_disassembly_names_variables_formulas_and_handlers_and_indents_blocks() {
    let s = Script::parse(&vector()).unwrap();
    let fml = FormulaSet::build(&["fTemp + 1"]).unwrap();
    let v = vars();
    let listing = dis::listing(&s, Some(&v), Some(&fml));
    let lines: Vec<&str> = listing.handlers[0]
        .nodes
        .iter()
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(
        &lines[..10],
        [
            "dTemp = fn15(f3, v4)",
            "dTemp = fTemp",
            "dTemp = fTemp + 1",
            "dTemp = 0x80000003",
            "label",
            "goto 4",
            "switch Fort_Task_Complete",
            "return",
            "if dTemp < fTemp",
            "end",
        ]
    );
    assert_eq!(listing.handlers[0].nodes[9].depth, 0);
    let text = listing.text();
    assert!(
        text.contains("\n   8  if dTemp < fTemp\n   9  end\n"),
        "{text}"
    );
    // Without the varset and formulas: indices.
    let bare = dis::listing(&s, None, None);
    assert_eq!(bare.handlers[0].nodes[2].text, "v30 = formula 0");
    let json = serde_json::to_value(&listing).unwrap();
    assert_eq!(json["handlers"][0]["nodes"][3]["kind"], "constant");
    assert_eq!(
        json["handlers"][0]["nodes"][0]["operands"],
        serde_json::json!([3, 4])
    );
}
