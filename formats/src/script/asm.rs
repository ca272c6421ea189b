//! The script writer's source form: the text [`super::dis`] prints, read
//! back into a [`Script`] and its [`FormulaSet`]. The demo install writes
//! its scripts from this form; a modder can edit a disassembly and write
//! it back.
//!
//! ```text
//! handler Init
//!   dTemp = fn19(ClanBaseX, ClanBaseY, ClanID)   // a call (result optional)
//!   if dTemp == ERROR                             // < == > <= >= !=
//!     return
//!   end
//!   dCount = 3                                    // a constant (decimal or 0x hex)
//!   dOther = dCount                               // a copy
//!   fTemp = fTemp + 0.5                           // a formula of the .fml
//!   label done                                    // goto done / goto <node>
//!   switch Easy                                   // by handler name
//! ```
//!
//! Indentation is free; a leading node index (as the disassembly prints)
//! is skipped; `//` starts a comment; `function table: N` sets the table
//! length (default 73; another is kept and reported by [`Script::check`]). Variables are names of the [`Varset`]. Formulas
//! are numbered in order of first use, a repeated text sharing its first
//! index, as the original compiler shared them (docs/15).

use super::fml::{Expr, FormulaSet};
use super::scr::{Handler, Node, NodeKind, Relation, Script};
use super::varset::Varset;
use crate::error::{FormatError, Result};
use std::collections::HashMap;

/// The format name errors carry (offsets are 1-based line numbers).
pub const FORMAT: &str = "script source";

/// A jump whose target is resolved once every node exists.
enum Jump {
    Label(String),
    Handler(String),
}

/// Reads `source` against `vars`: the script and its formula set.
pub fn assemble(source: &str, vars: &Varset) -> Result<(Script, FormulaSet)> {
    let mut script = Script::new();
    let mut formulas: Vec<String> = Vec::new();
    // (handler, node, line, jump) and per handler its labels.
    let mut jumps: Vec<(usize, usize, usize, Jump)> = Vec::new();
    let mut labels: Vec<HashMap<String, usize>> = Vec::new();
    for (i, raw) in source.lines().enumerate() {
        let line = i + 1;
        let err = |expected: String, found: &str| {
            FormatError::invalid(FORMAT, line as u64, expected, found)
        };
        let text = raw.split("//").next().unwrap_or("").trim();
        if text.is_empty() || text.starts_with("handlers:") {
            continue;
        }
        if let Some(n) = text.strip_prefix("function table:") {
            let n = n.split_whitespace().next().unwrap_or("");
            script.table_len = n
                .parse()
                .map_err(|_| err("a function-table length".into(), n))?;
            continue;
        }
        if let Some(rest) = text.strip_prefix("handler ") {
            let mut words = rest.split_whitespace();
            let mut name = words.next().unwrap_or("");
            if name.parse::<usize>().is_ok() {
                name = words.next().unwrap_or("");
            }
            if name.is_empty() {
                return Err(err("a handler name".into(), text));
            }
            let index = script.handlers.len() as i32;
            script.handlers.push(Handler::new(name, index));
            labels.push(HashMap::new());
            continue;
        }
        let Some(h) = script.handlers.len().checked_sub(1) else {
            return Err(err("`handler NAME` before the first node".into(), text));
        };
        let body = skip_index(text);
        let at = script.handlers[h].nodes.len();
        let (node, jump) = node(body, vars, &mut formulas).map_err(|e| err(e, body))?;
        if let Some(l) = body.strip_prefix("label ") {
            labels[h].insert(l.trim().to_string(), at);
        }
        if let Some(j) = jump {
            jumps.push((h, at, line, j));
        }
        script.handlers[h].nodes.push(node);
    }
    for (h, n, line, jump) in jumps {
        let target = match &jump {
            Jump::Label(l) => labels[h].get(l).copied(),
            Jump::Handler(name) => script.handler(name).map(|(i, _)| i),
        };
        let (what, name) = match &jump {
            Jump::Label(l) => ("a label of the handler", l),
            Jump::Handler(name) => ("a handler of the script", name),
        };
        let target = target.ok_or_else(|| FormatError::invalid(FORMAT, line as u64, what, name))?;
        script.handlers[h].nodes[n].operands = vec![target as i32];
    }
    Ok((script, FormulaSet::build(&formulas)?))
}

/// The text after a leading node index (`  12  if ...` -> `if ...`).
fn skip_index(text: &str) -> &str {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && text[digits..].starts_with(char::is_whitespace) {
        text[digits..].trim_start()
    } else {
        text
    }
}

/// One node from its text; on failure what was expected.
fn node(
    text: &str,
    vars: &Varset,
    formulas: &mut Vec<String>,
) -> Result<(Node, Option<Jump>), String> {
    let var = |name: &str| -> Result<i32, String> {
        vars.index_of(name)
            .map(|i| i as i32)
            .ok_or_else(|| format!("a variable of varset.var, not `{name}`"))
    };
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    let rest = text[first.len()..].trim();
    let with_operands = |kind: NodeKind, ops: Vec<i32>| Node {
        operands: ops,
        ..Node::new(kind)
    };
    let bare = |kind: NodeKind| -> Result<(Node, Option<Jump>), String> {
        if rest.is_empty() {
            Ok((Node::new(kind), None))
        } else {
            Err(format!("nothing after `{first}`"))
        }
    };
    match first {
        "end" => return bare(NodeKind::End),
        "return" => return bare(NodeKind::Return),
        "label" => return Ok((Node::new(NodeKind::Label), None)),
        "goto" => {
            return Ok(match rest.parse::<i32>() {
                Ok(n) => (with_operands(NodeKind::Goto, vec![n]), None),
                Err(_) => (
                    with_operands(NodeKind::Goto, vec![0]),
                    Some(Jump::Label(rest.to_string())),
                ),
            });
        }
        "switch" => {
            return Ok((
                with_operands(NodeKind::Switch, vec![0]),
                Some(Jump::Handler(rest.to_string())),
            ));
        }
        "if" => {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let [a, rel, b] = parts[..] else {
                return Err("`if A <relation> B`".into());
            };
            let relation =
                Relation::from_symbol(rel).ok_or_else(|| format!("a relation, not `{rel}`"))?;
            let mut n = with_operands(NodeKind::If, vec![var(a)?, var(b)?]);
            n.relation = relation as i32;
            return Ok((n, None));
        }
        _ => {}
    }
    let (dest, value) = match text.split_once('=') {
        Some((d, v)) if !d.trim().is_empty() && !v.starts_with('=') => {
            (Some(var(d.trim())?), v.trim())
        }
        _ => (None, text),
    };
    if let Some(call) = value.strip_prefix("fn") {
        let (slot, args) = call
            .split_once('(')
            .ok_or_else(|| "`fnN(args)`".to_string())?;
        let args = args
            .strip_suffix(')')
            .ok_or_else(|| "`)` closing the call".to_string())?;
        let mut n = Node::new(NodeKind::Statement);
        n.function = slot
            .trim()
            .parse()
            .map_err(|_| format!("a function slot, not `{slot}`"))?;
        n.dest = dest.unwrap_or(-1);
        n.operands = args
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(var)
            .collect::<Result<_, _>>()?;
        return Ok((n, None));
    }
    let dest = dest.ok_or_else(|| {
        "a node: a call, `DEST = ...`, if, end, label, goto, switch or return".to_string()
    })?;
    if let Some(number) = constant(value) {
        let mut n = Node::new(NodeKind::Constant);
        n.dest = dest;
        n.source = number as i32;
        return Ok((n, None));
    }
    let mut n = Node::new(NodeKind::Statement);
    n.dest = dest;
    match Expr::parse(value).map_err(|(e, _)| e)? {
        Expr::Var(name) => n.source = var(&name)?,
        expr => {
            for v in expr.variables() {
                var(v)?;
            }
            let index = formulas.iter().position(|f| f == value).unwrap_or_else(|| {
                formulas.push(value.to_string());
                formulas.len() - 1
            });
            n.trailer = index as i32;
        }
    }
    Ok((n, None))
}

/// A constant's number: decimal, or `0x` hex.
fn constant(text: &str) -> Option<u32> {
    match text.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::dis::listing;
    use crate::script::scr::Op;
    use crate::script::varset::VarType;

    fn vars() -> Varset {
        Varset::build(&[
            (VarType::Float, "f0", "0"),
            (VarType::Dword, "d1", "1"),
            (VarType::Dword, "ERROR", "0xffffffff"),
            (VarType::Dword, "dTemp", "0"),
            (VarType::Float, "fTemp", "0"),
        ])
        .unwrap()
    }

    const SOURCE: &str = "handler Init
  dTemp = fn19(d1, ERROR)   // a call
  if dTemp == ERROR
    goto done
  end
  dTemp = 0x80000003
  dTemp = d1
  fTemp = fTemp + 0.5
  fTemp = fTemp * 2
  fTemp = fTemp + 0.5
  label done
  switch Other
  fn9()
  return
handler Other
  return
";

    #[test]
    fn every_node_form_assembles_and_the_disassembly_reads_back_the_same() {
        let v = vars();
        let (script, fml) = assemble(SOURCE, &v).unwrap();
        let init = &script.handlers[0];
        let ops: Vec<Op> = init.nodes.iter().map(|n| n.op().unwrap()).collect();
        assert_eq!(
            ops[0],
            Op::Call {
                function: 19,
                dest: Some(3),
                args: &[1, 2]
            }
        );
        assert!(matches!(
            ops[1],
            Op::If {
                relation: Relation::Equal,
                a: 3,
                b: 2
            }
        ));
        assert_eq!(ops[2], Op::Goto { node: 9 });
        assert_eq!(
            ops[4],
            Op::Constant {
                dest: 3,
                value: 0x8000_0003
            }
        );
        assert_eq!(ops[5], Op::Copy { dest: 3, source: 1 });
        assert_eq!(
            ops[6],
            Op::Formula {
                dest: 4,
                formula: 0
            }
        );
        assert_eq!(
            ops[7],
            Op::Formula {
                dest: 4,
                formula: 1
            }
        );
        // The repeated text shares the first formula.
        assert_eq!(
            ops[8],
            Op::Formula {
                dest: 4,
                formula: 0
            }
        );
        assert_eq!(ops[10], Op::Switch { handler: 1 });
        assert_eq!(
            ops[11],
            Op::Call {
                function: 9,
                dest: None,
                args: &[]
            }
        );
        assert_eq!(fml.formulas().len(), 2);
        assert!(script.check().is_empty());

        let text = listing(&script, Some(&v), Some(&fml)).text();
        let (again, fml_again) = assemble(&text, &v).unwrap();
        assert_eq!(again.to_bytes().unwrap(), script.to_bytes().unwrap());
        assert_eq!(fml_again.to_bytes(), fml.to_bytes());
    }

    #[test]
    fn a_bad_line_names_its_line_and_what_it_expected() {
        let v = vars();
        let e = assemble("handler A\n  if dTemp === d1\n", &v).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.to_string().contains("a relation, not `===`"), "{e}");
        let e = assemble("handler A\n  dNope = 1\n", &v).unwrap_err();
        assert!(e.to_string().contains("not `dNope`"), "{e}");
        let e = assemble("handler A\n  goto nowhere\n", &v).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.to_string().contains("a label of the handler"), "{e}");
        let e = assemble("  return\n", &v).unwrap_err();
        assert!(e.to_string().contains("before the first node"), "{e}");
    }
}
