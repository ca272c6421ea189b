//! `iron3d script`: disassemble a mission script, or write one from its
//! source form.

use super::output::{json_text, output};
use iron3d_formats::error::Result;
use iron3d_formats::fsutil::{read_file, write_atomic};
use iron3d_formats::script::fml::FormulaSet;
use iron3d_formats::script::scr::Script;
use iron3d_formats::script::varset::Varset;
use iron3d_formats::script::{asm, dis};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ScriptArgs {
    #[command(subcommand)]
    command: ScriptCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ScriptCommand {
    /// Handlers and nodes of a `.scr`: kinds, relations, variable names and
    /// formula text, blocks indented.
    Dis {
        /// The `.scr` file.
        scr: PathBuf,
        /// The `varset.var` whose names the operands index.
        #[arg(long)]
        varset: Option<PathBuf>,
        /// The script's `.fml` formula set.
        #[arg(long)]
        fml: Option<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Writes `<OUT>.scr` and `<OUT>.fml` from a script's source form (the
    /// text `dis` prints), with names from a `varset.var`.
    Asm {
        /// The source text.
        source: PathBuf,
        #[arg(long)]
        varset: PathBuf,
        /// The output path without extension.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(args: ScriptArgs) -> ExitCode {
    match args.command {
        ScriptCommand::Dis {
            scr,
            varset,
            fml,
            json,
        } => output(disassemble(&scr, varset.as_deref(), fml.as_deref(), json)),
        ScriptCommand::Asm {
            source,
            varset,
            out,
        } => output(assemble(&source, &varset, &out)),
    }
    .print()
}

/// Reads and parses `path`, errors naming the file.
fn read<T>(path: &Path, parse: impl FnOnce(&[u8]) -> Result<T>) -> Result<T> {
    parse(&read_file(path)?).map_err(|e| e.in_file(path.display().to_string()))
}

/// `iron3d script dis`.
fn disassemble(
    scr: &Path,
    varset: Option<&Path>,
    fml: Option<&Path>,
    json: bool,
) -> Result<String> {
    let script = read(scr, Script::parse)?;
    let vars = varset.map(|p| read(p, Varset::parse)).transpose()?;
    let formulas = fml.map(|p| read(p, FormulaSet::parse)).transpose()?;
    let listing = dis::listing(&script, vars.as_ref(), formulas.as_ref());
    Ok(if json {
        json_text(&listing)
    } else {
        listing.text()
    })
}

/// `iron3d script asm`: both files written atomically.
fn assemble(source: &Path, varset: &Path, out: &Path) -> Result<String> {
    let vars = read(varset, Varset::parse)?;
    let text = read(source, |d| Ok(String::from_utf8_lossy(d).into_owned()))?;
    let (script, formulas) =
        asm::assemble(&text, &vars).map_err(|e| e.in_file(source.display().to_string()))?;
    let [scr, fml] = ["scr", "fml"].map(|ext| out.with_extension(ext));
    write_atomic(&scr, &script.to_bytes()?)?;
    write_atomic(&fml, &formulas.to_bytes())?;
    Ok(format!(
        "wrote {} ({} handlers) and {} ({} formulas)\n",
        scr.display(),
        script.handlers.len(),
        fml.display(),
        formulas.formulas().len()
    ))
}
