//! `iron3d validate`: every file of an install through its reader, then the
//! reachability of every mission (`iron3d_formats::validate`). This module
//! draws the progress line (only on a terminal, never with `--json`) and
//! prints the report as text or JSON.

use super::output::{CliOutput, json_text};
use iron3d_formats::graph::Totals;
use iron3d_formats::validate::{Progress, Report, Severity, validate};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// The install directory.
    game_dir: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Width of the progress bar in cells.
const BAR: u64 = 30;

/// Redraws one progress line on stderr.
fn draw(p: Progress) {
    let filled = (p.done * BAR).checked_div(p.total).unwrap_or(BAR);
    let bar: String = (0..BAR)
        .map(|i| if i < filled { '#' } else { '-' })
        .collect();
    let item: String = p.item.chars().take(50).collect();
    let mut err = std::io::stderr();
    let _ = write!(err, "\r\x1b[2K[{bar}] {}/{} {item}", p.done, p.total);
    if p.done >= p.total {
        let _ = write!(err, "\r\x1b[2K");
    }
    let _ = err.flush();
}

pub fn run(args: ValidateArgs) -> ExitCode {
    let show = !args.json && std::io::stderr().is_terminal();
    let mut progress = |p: Progress| {
        if show {
            draw(p);
        }
    };
    run_validate(&args.game_dir, args.json, &mut progress).print()
}

/// `iron3d validate <GAME_DIR> [--json]`: what to print and the exit status
/// (0 without errors, 1 otherwise).
fn run_validate(root: &Path, json: bool, progress: &mut dyn FnMut(Progress)) -> CliOutput {
    match validate(root, progress) {
        Err(e) => CliOutput::failure(e),
        Ok(report) => {
            let stdout = if json {
                json_text(&report)
            } else {
                report_text(&report)
            };
            let code = u8::from(report.errors > 0);
            let stderr = if code == 0 {
                String::new()
            } else {
                format!("error: {} errors\n", report.errors)
            };
            CliOutput {
                stdout,
                stderr,
                code,
            }
        }
    }
}

/// The text of `validate`.
fn report_text(report: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "files {}, bytes {}", report.files, report.bytes);
    let _ = writeln!(
        s,
        "{:<12} {:>7} {:>9} {:>9} {:>7}",
        "family", "files", "entries", "warnings", "errors"
    );
    for (name, f) in &report.families {
        let _ = writeln!(
            s,
            "{:<12} {:>7} {:>9} {:>9} {:>7}",
            name, f.files, f.entries, f.warnings, f.errors
        );
        if !f.variants.is_empty() {
            let v: Vec<String> = f.variants.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(s, "    variants: {}", v.join(", "));
        }
    }
    for d in &report.diagnostics {
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let entry = d
            .entry
            .as_deref()
            .map(|e| format!(" entry {e}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{severity}: {}{entry}: offset 0x{:x}: {}",
            d.file, d.offset, d.message
        );
    }
    let _ = writeln!(s, "missions {}", report.missions.len());
    for m in &report.missions {
        let _ = writeln!(s, "  {}: {}", m.mission, totals_line(&m.totals));
        for f in &m.failures {
            let _ = writeln!(s, "error: {f}");
        }
        for c in &m.scripts {
            let reached = match (&c.file, c.handlers) {
                (Some(file), Some(h)) => format!("{file} ({h} handlers)"),
                _ => "not readable".to_string(),
            };
            let _ = writeln!(s, "    script of {}: {} -> {reached}", c.clan, c.path);
        }
    }
    let _ = writeln!(s, "reachability: {}", totals_line(&report.reachability));
    let u = &report.unreachable;
    let _ = writeln!(
        s,
        "registry: {} prototypes, {} reachable, {} unreachable checked, {} non-geometric, {} unreachable failures",
        u.prototypes,
        u.reachable,
        u.checked,
        u.non_geometric.len(),
        u.failures.len()
    );
    for f in &u.failures {
        let _ = writeln!(s, "warning: unreachable: {f}");
    }
    let _ = writeln!(s, "errors {}, warnings {}", report.errors, report.warnings);
    s
}

/// One line of totals.
pub(super) fn totals_line(t: &Totals) -> String {
    format!(
        "{} objects, {} unit refs -> {} components, {} direct keys, {} prototypes ({} non-geometric), {} MSH, {} WEAR, {} material slots, {} textures, {} lightmaps, {} effects, failures {}",
        t.objects,
        t.unit_refs,
        t.components,
        t.direct_keys,
        t.prototypes,
        t.non_geometric,
        t.meshes,
        t.wears,
        t.material_slots,
        t.textures,
        t.lightmaps,
        t.effects,
        t.failures
    )
}
