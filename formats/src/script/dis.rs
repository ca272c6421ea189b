//! The disassembly of a script (`iron3d script dis`): each handler's nodes
//! as the executor reads them, blocks indented, variables by their
//! `varset.var` names and formulas by their `.fml` text when those are
//! given (else `v<index>` and `formula <index>`).

use super::fml::FormulaSet;
use super::scr::{FUNCTION_TABLE_LEN, Op, Script};
use super::varset::Varset;

/// One node, disassembled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Line {
    pub index: usize,
    /// Open blocks before the node (an `end` counts as inside its block).
    pub depth: usize,
    /// `call`, `copy`, `formula`, `if`, `end`, `label`, `goto`, `switch`,
    /// `return`, `constant`, or `invalid`.
    pub kind: &'static str,
    /// The four head words, the relation and the trailer as stored.
    pub head: [i32; 4],
    pub relation: i32,
    pub operands: Vec<i32>,
    pub trailer: i32,
    /// The node as text (`dT = fn14(UNIT_ANY, dX)`, `if dT == ERROR`, ...).
    pub text: String,
}

/// One handler, disassembled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HandlerListing {
    pub index: usize,
    pub name: String,
    pub nodes: Vec<Line>,
}

/// A whole script, disassembled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Listing {
    pub table_len: i32,
    /// Whether the function table is this engine's ([`FUNCTION_TABLE_LEN`]).
    pub table_ok: bool,
    pub handlers: Vec<HandlerListing>,
}

/// Names of variables, formulas and handlers for the text.
struct Names<'a> {
    script: &'a Script,
    vars: Option<&'a Varset>,
    formulas: Option<&'a FormulaSet>,
}

impl Names<'_> {
    fn var(&self, i: u32) -> String {
        self.vars
            .and_then(|v| v.get(i))
            .map_or_else(|| format!("v{i}"), |v| v.name.clone())
    }

    fn operand(&self, word: i32) -> String {
        u32::try_from(word).map_or_else(|_| word.to_string(), |i| self.var(i))
    }

    fn formula(&self, i: u32) -> String {
        self.formulas
            .and_then(|f| f.formulas().get(i as usize))
            .map_or_else(|| format!("formula {i}"), |f| f.text.clone())
    }

    fn handler(&self, i: u32) -> String {
        self.script
            .handlers
            .get(i as usize)
            .map_or_else(|| format!("handler {i}"), |h| h.name())
    }
}

/// A constant as written: decimal below 65536, else hex.
fn number(value: u32) -> String {
    if value < 0x1_0000 {
        value.to_string()
    } else {
        format!("{value:#010x}")
    }
}

/// Disassembles `script`, naming what `vars` and `formulas` name.
pub fn listing(script: &Script, vars: Option<&Varset>, formulas: Option<&FormulaSet>) -> Listing {
    let names = Names {
        script,
        vars,
        formulas,
    };
    let handlers = script
        .handlers
        .iter()
        .enumerate()
        .map(|(hi, h)| {
            let mut depth = 0usize;
            let nodes = h
                .nodes
                .iter()
                .enumerate()
                .map(|(index, n)| {
                    let (kind, text, opens) = match n.op() {
                        Ok(op) => describe(&names, op),
                        Err(f) => (
                            "invalid",
                            format!("invalid: expected {}, found {}", f.expected, f.found),
                            false,
                        ),
                    };
                    if kind == "end" {
                        depth = depth.saturating_sub(1);
                    }
                    let line = Line {
                        index,
                        depth,
                        kind,
                        head: [n.function, n.dest, n.source, n.kind],
                        relation: n.relation,
                        operands: n.operands.clone(),
                        trailer: n.trailer,
                        text,
                    };
                    if opens {
                        depth += 1;
                    }
                    line
                })
                .collect();
            HandlerListing {
                index: hi,
                name: h.name(),
                nodes,
            }
        })
        .collect();
    Listing {
        table_len: script.table_len,
        table_ok: script.table_len == FUNCTION_TABLE_LEN,
        handlers,
    }
}

/// The kind word, the text, and whether the node opens a block.
fn describe(names: &Names, op: Op) -> (&'static str, String, bool) {
    let v = |i: u32| names.var(i);
    match op {
        Op::Call {
            function,
            dest,
            args,
        } => {
            let args: Vec<String> = args.iter().map(|&a| names.operand(a)).collect();
            let call = format!("fn{function}({})", args.join(", "));
            let text = match dest {
                Some(d) => format!("{} = {call}", v(d)),
                None => call,
            };
            ("call", text, false)
        }
        Op::Copy { dest, source } => ("copy", format!("{} = {}", v(dest), v(source)), false),
        Op::Formula { dest, formula } => (
            "formula",
            format!("{} = {}", v(dest), names.formula(formula)),
            false,
        ),
        Op::If { relation, a, b } => (
            "if",
            format!("if {} {} {}", v(a), relation.symbol(), v(b)),
            true,
        ),
        Op::End => ("end", "end".into(), false),
        Op::Label => ("label", "label".into(), false),
        Op::Goto { node } => ("goto", format!("goto {node}"), false),
        Op::Switch { handler } => (
            "switch",
            format!("switch {}", names.handler(handler)),
            false,
        ),
        Op::Return => ("return", "return".into(), false),
        Op::Constant { dest, value } => (
            "constant",
            format!("{} = {}", v(dest), number(value)),
            false,
        ),
    }
}

impl Listing {
    /// The listing as text: a header line, then per handler its name and
    /// one line per node (index, indent of two spaces per open block, text).
    pub fn text(&self) -> String {
        let mut out = format!(
            "function table: {}{}\nhandlers: {}\n",
            self.table_len,
            if self.table_ok {
                String::new()
            } else {
                format!(" (this engine's is {FUNCTION_TABLE_LEN})")
            },
            self.handlers.len()
        );
        for h in &self.handlers {
            out.push_str(&format!(
                "\nhandler {} {} ({} nodes)\n",
                h.index,
                h.name,
                h.nodes.len()
            ));
            for n in &h.nodes {
                out.push_str(&format!(
                    "{:4}  {}{}\n",
                    n.index,
                    "  ".repeat(n.depth),
                    n.text
                ));
            }
        }
        out
    }
}
