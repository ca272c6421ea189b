//! The mission scripts of `MISSIONS\SCRIPTS\` (tome VI "SuperAI и миссионные
//! сценарии"; openparkan `docs/15-behaviour.md`): a clan's compiled
//! [`scr::Script`], its [`fml::FormulaSet`] beside it, and the
//! [`varset::Varset`] every script of the directory indexes.
//!
//! Each reader checks its own file; [`check_against`] checks a script
//! against the variables and formulas it names (what `iron3d validate` runs
//! strictly), and [`dis`] prints it.

pub mod asm;
pub mod dis;
pub mod fml;
pub mod scr;
pub mod varset;

use crate::error::FormatError;
use fml::FormulaSet;
use scr::{Op, Script};
use varset::Varset;

/// Reads one item from a line's trimmed text, its 1-based number and its
/// offset; or says what it expected, at which column of the text.
type LineItem<'a, T> = dyn FnMut(&str, usize, usize) -> Result<T, (String, usize)> + 'a;

/// Reads a text file of one item a line (`varset.var`, `.fml`): every
/// line kept as stored, terminator included; each line that is neither
/// blank nor a `//` comment goes to `item`, and a refusal is an error of
/// `format` at that byte.
fn read_lines<T>(
    data: &[u8],
    format: &'static str,
    item: &mut LineItem<T>,
) -> crate::error::Result<(Vec<Vec<u8>>, Vec<T>)> {
    let mut lines = Vec::new();
    let mut items = Vec::new();
    let mut offset = 0usize;
    for (i, raw) in data.split_inclusive(|&b| b == b'\n').enumerate() {
        let text = crate::config::decode_cp1251(raw);
        let body = text.trim();
        let lead = text.len() - text.trim_start().len();
        if !body.is_empty() && !body.starts_with("//") {
            let v = item(body, i + 1, offset).map_err(|(expected, col)| {
                let at = offset + (lead + col).min(raw.len());
                FormatError::invalid(format, at as u64, expected, body)
            })?;
            items.push(v);
        }
        lines.push(raw.to_vec());
        offset += raw.len();
    }
    Ok((lines, items))
}

/// The handlers the engine looks up in every script and refuses to run
/// without ("Script error - details in ai.log"; docs/15).
pub const REQUIRED_HANDLERS: [&str; 2] = ["Mech_GeneratorFound", "Fort_Task_Complete"];

/// Variables no node may write: the literal pool (`f0`–`f9`, `d0`–`d9`)
/// and the three the engine writes (docs/15: no destination in the corpus
/// names one).
pub fn read_only(name: &str) -> bool {
    let literal = name.len() == 2
        && matches!(name.as_bytes()[0], b'f' | b'd')
        && name.as_bytes()[1].is_ascii_digit();
    literal || matches!(name, "dCurrentProblem" | "dCurrentSender" | "fDifficulty")
}

/// Checks every node of `script` against `vars` and `formulas`: operands,
/// copied variables and destinations inside the variable set, no write to
/// a read-only variable, each call's slot inside the function table, each
/// trailer inside the formula set; then every formula's variables declared,
/// and the engine's required handlers present. Findings are in file order,
/// with the offset of the node (or of the formula's line in the `.fml`,
/// reported with format `FML`).
pub fn check_against(
    script: &Script,
    vars: &Varset,
    formulas: Option<&FormulaSet>,
) -> Vec<FormatError> {
    let mut out = Vec::new();
    for place in script.places() {
        let Some(n) = place.node else { continue };
        let handler = &script.handlers[place.handler];
        let Ok(op) = handler.nodes[n].op() else {
            continue; // reported by Script::check
        };
        // (what was expected, what was found) for this node.
        let mut found: Vec<(String, String)> = Vec::new();
        let var = |found: &mut Vec<(String, String)>, i: u32, what: &str, write: bool| match vars
            .get(i)
        {
            None => found.push((
                format!("{what}: one of the {} variables", vars.len()),
                i.to_string(),
            )),
            Some(v) if write && read_only(&v.name) => {
                found.push((format!("{what}: a writable variable"), v.name.clone()))
            }
            Some(_) => {}
        };
        match op {
            Op::Call {
                function,
                dest,
                args,
            } => {
                if function >= script.table_len.max(0) as u32 {
                    found.push((
                        format!("a slot of the {}-slot function table", script.table_len),
                        function.to_string(),
                    ));
                }
                for &a in args {
                    var(&mut found, a as u32, "argument", false);
                }
                if let Some(d) = dest {
                    var(&mut found, d, "destination", true);
                }
            }
            Op::Copy { dest, source } => {
                var(&mut found, source, "copied variable", false);
                var(&mut found, dest, "destination", true);
            }
            Op::Formula { dest, formula } => {
                var(&mut found, dest, "destination", true);
                let have = formulas.map_or(0, |f| f.formulas().len());
                if formula as usize >= have {
                    found.push((
                        format!("a formula of the {have} in the script's .fml"),
                        formula.to_string(),
                    ));
                }
            }
            Op::If { a, b, .. } => {
                var(&mut found, a, "first operand", false);
                var(&mut found, b, "second operand", false);
            }
            Op::Constant { dest, .. } => var(&mut found, dest, "destination", true),
            Op::End | Op::Label | Op::Goto { .. } | Op::Switch { .. } | Op::Return => {}
        }
        for (expected, what) in found {
            out.push(
                FormatError::invalid(
                    scr::FORMAT,
                    place.offset,
                    format!("node {n}: {expected}"),
                    what,
                )
                .in_entry(place.handler, handler.name()),
            );
        }
    }
    for f in formulas.map(FormulaSet::formulas).unwrap_or_default() {
        for v in f.expr.variables() {
            if vars.index_of(v).is_none() {
                out.push(FormatError::invalid(
                    fml::FORMAT,
                    f.offset as u64,
                    format!("line {}: a variable of varset.var", f.line),
                    v,
                ));
            }
        }
    }
    for name in REQUIRED_HANDLERS {
        if script.handler(name).is_none() {
            out.push(FormatError::missing(
                scr::FORMAT,
                format!("handler `{name}`"),
            ));
        }
    }
    out
}

/// A clan's script with its formula set and the variables of its
/// directory, as a TMA clan's script path names them.
/// (The default: an empty one, a placeholder until a loaded save's brain
/// takes its clan's.)
#[derive(Debug, Clone, Default)]
pub struct Bundle {
    pub script: Script,
    pub formulas: FormulaSet,
    pub vars: Varset,
    /// The files read, as their reader names them: `<path>.scr`,
    /// `<path>.fml` and the directory's `varset.var`.
    pub files: [String; 3],
}

/// Reads a legacy path: its bytes and the name errors give the file.
pub type ReadFile<'a> = dyn FnMut(&[u8]) -> crate::error::Result<(Vec<u8>, String)> + 'a;

/// The name of the variable file in a script directory.
pub const VARSET_FILE: &str = "varset.var";

impl Bundle {
    /// The three legacy paths a clan's script path (`MISSIONS\SCRIPTS\scr_pl_1`,
    /// no extension) names: its `.scr`, its `.fml`, and the `varset.var`
    /// of its directory.
    pub fn paths(legacy: &[u8]) -> [Vec<u8>; 3] {
        let parent = legacy
            .iter()
            .rposition(|&b| b == b'\\' || b == b'/')
            .map_or(&[][..], |i| &legacy[..=i]);
        [
            [legacy, b".scr"].concat(),
            [legacy, b".fml"].concat(),
            [parent, VARSET_FILE.as_bytes()].concat(),
        ]
    }

    /// Reads the three files of `legacy` through `read` (a legacy path to
    /// its bytes and the name errors give the file). Each reader's error
    /// carries its file.
    pub fn read(legacy: &[u8], read: &mut ReadFile) -> crate::error::Result<Self> {
        let [scr, fml, var] = Self::paths(legacy).map(|p| read(&p));
        let (scr, fml, var) = (scr?, fml?, var?);
        let named = |file: &String| {
            let file = file.clone();
            move |e: FormatError| e.in_file(file)
        };
        Ok(Self {
            script: Script::parse(&scr.0).map_err(named(&scr.1))?,
            formulas: FormulaSet::parse(&fml.0).map_err(named(&fml.1))?,
            vars: Varset::parse(&var.0).map_err(named(&var.1))?,
            files: [scr.1, fml.1, var.1],
        })
    }

    /// Reads `legacy`'s files from an install directory (file names below
    /// its root, `/`-separated).
    pub fn load(dir: &crate::gamedir::GameDir, legacy: &[u8]) -> crate::error::Result<Self> {
        Self::read(legacy, &mut |p| {
            let path = dir.resolve(p)?;
            let data = crate::fsutil::read_file(&path)?;
            let shown = path.strip_prefix(dir.root()).unwrap_or(&path);
            Ok((data, shown.to_string_lossy().replace('\\', "/")))
        })
    }

    /// Every strict finding: the script's own ([`Script::check`]) then
    /// against its formulas and variables ([`check_against`]).
    pub fn check(&self) -> Vec<FormatError> {
        let mut out = self.script.check();
        out.extend(check_against(
            &self.script,
            &self.vars,
            Some(&self.formulas),
        ));
        out
    }
}
