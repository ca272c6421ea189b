//! `iron3d validate`: the corpus harness of tome VII ("Этап 0", "Corpus
//! validation"). Every file of an install goes through its family's reader
//! (archives entry by entry by type id, missions, maps, unit DATs, configs);
//! the report holds per-family counts of files, entries and variants,
//! warnings and errors with offsets, then the reachability totals of every
//! mission and the health of the registry entries no mission reaches.
//!
//! The report is deterministic: files are visited in byte order of their
//! relative paths, maps are ordered, no timing is recorded. Errors (exit 1)
//! are reader errors and reachable-graph failures; unreachable broken
//! registry entries and accepted quirks are warnings.

mod check;

use crate::error::{FormatError, Result};
use crate::gamedir::GameDir;
use crate::graph::{ChainError, Graph, Totals, Unreachable};
use crate::tool::CliOutput;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How many directory levels below the root are visited.
const MAX_DEPTH: usize = 16;

/// Error or warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Warning,
    Error,
}

/// One finding of a reader.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub family: String,
    /// Path below the root, `/`-separated.
    pub file: String,
    /// `#index 'name'` of the archive entry, when the bytes were one.
    pub entry: Option<String>,
    /// Offset in the entry payload (or in the file when there is no entry).
    pub offset: u64,
    pub message: String,
}

/// Counts of one family.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct FamilyStats {
    pub files: u64,
    /// Archive entries of this family (or records, for files of records).
    pub entries: u64,
    /// Variant name -> count (Texm formats, RsLi methods, FXID opcodes, ...).
    pub variants: BTreeMap<String, u64>,
    pub warnings: u64,
    pub errors: u64,
}

/// The reachability of one mission.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MissionSummary {
    pub mission: String,
    pub totals: Totals,
    pub failures: Vec<ChainError>,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Report {
    pub files: u64,
    pub bytes: u64,
    pub families: BTreeMap<String, FamilyStats>,
    pub diagnostics: Vec<Diagnostic>,
    pub missions: Vec<MissionSummary>,
    /// Sum over the missions.
    pub reachability: Totals,
    pub unreachable: Unreachable,
    pub errors: u64,
    pub warnings: u64,
}

/// Progress of a run: `done` of `total` steps, the current file.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub done: u64,
    pub total: u64,
    pub item: &'a str,
}

/// Collects counts and findings while files are read.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    families: BTreeMap<String, FamilyStats>,
    diagnostics: Vec<Diagnostic>,
}

impl Collector {
    pub(crate) fn family(&mut self, family: &str) -> &mut FamilyStats {
        self.families.entry(family.to_string()).or_default()
    }

    pub(crate) fn variant(&mut self, family: &str, variant: impl Into<String>, n: u64) {
        *self
            .family(family)
            .variants
            .entry(variant.into())
            .or_default() += n;
    }

    /// Records a reader error or an accepted quirk.
    pub(crate) fn finding(
        &mut self,
        severity: Severity,
        family: &str,
        file: &str,
        e: &FormatError,
    ) {
        let stats = self.family(family);
        match severity {
            Severity::Error => stats.errors += 1,
            Severity::Warning => stats.warnings += 1,
        }
        self.diagnostics.push(Diagnostic {
            severity,
            family: family.to_string(),
            file: file.to_string(),
            entry: e
                .entry
                .as_ref()
                .map(|en| format!("#{} '{}'", en.index, en.name)),
            offset: e.offset,
            message: format!("{}: {}", e.format, e.problem),
        });
    }
}

/// Every file below `root`, sorted by relative path (symlinked directories
/// are not followed).
fn files(root: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let mut pending = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = pending.pop() {
        let listing = std::fs::read_dir(&dir).map_err(|e| FormatError::io(&dir, &e))?;
        for item in listing {
            let item = item.map_err(|e| FormatError::io(&dir, &e))?;
            let path = item.path();
            let Ok(meta) = path.symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                if depth < MAX_DEPTH {
                    pending.push((path, depth + 1));
                }
            } else if path.is_file() {
                let rel = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((rel, path));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Validates the install at `root`; `progress` is told each step.
pub fn validate(root: &Path, progress: &mut dyn FnMut(Progress)) -> Result<Report> {
    let dir = GameDir::open(root)?;
    let files = files(dir.root())?;
    let missions = dir.missions().unwrap_or_default();
    let total = (files.len() + missions.len()) as u64 + 1;
    let mut collector = Collector::default();
    let mut bytes = 0u64;
    for (done, (rel, path)) in files.iter().enumerate() {
        progress(Progress {
            done: done as u64,
            total,
            item: rel,
        });
        bytes += check::file(&mut collector, rel, path);
    }
    let graph = Graph::new(&dir);
    let mut reachability = Totals::default();
    let mut summaries = Vec::new();
    for (i, mission) in missions.iter().enumerate() {
        progress(Progress {
            done: (files.len() + i) as u64,
            total,
            item: &mission.name,
        });
        let g = graph.mission(mission);
        reachability += g.totals;
        summaries.push(MissionSummary {
            mission: g.mission,
            totals: g.totals,
            failures: g.failures,
        });
    }
    progress(Progress {
        done: total - 1,
        total,
        item: "objects.rlb (unreachable entries)",
    });
    let unreachable = graph.unreachable();
    progress(Progress {
        done: total,
        total,
        item: "",
    });
    let count = |s: Severity| {
        collector
            .diagnostics
            .iter()
            .filter(|d| d.severity == s)
            .count() as u64
    };
    let errors = count(Severity::Error) + reachability.failures;
    let warnings = count(Severity::Warning) + unreachable.failures.len() as u64;
    Ok(Report {
        files: files.len() as u64,
        bytes,
        families: collector.families,
        diagnostics: collector.diagnostics,
        missions: summaries,
        reachability,
        unreachable,
        errors,
        warnings,
    })
}

impl Report {
    /// The human-readable report.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "files {}, bytes {}", self.files, self.bytes);
        let _ = writeln!(
            s,
            "{:<12} {:>7} {:>9} {:>9} {:>7}",
            "family", "files", "entries", "warnings", "errors"
        );
        for (name, f) in &self.families {
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
        for d in &self.diagnostics {
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
        let _ = writeln!(s, "missions {}", self.missions.len());
        for m in &self.missions {
            let _ = writeln!(s, "  {}: {}", m.mission, totals_line(&m.totals));
            for f in &m.failures {
                let _ = writeln!(s, "error: {f}");
            }
        }
        let _ = writeln!(s, "reachability: {}", totals_line(&self.reachability));
        let u = &self.unreachable;
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
        let _ = writeln!(s, "errors {}, warnings {}", self.errors, self.warnings);
        s
    }
}

/// One line of totals.
pub fn totals_line(t: &Totals) -> String {
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

/// `iron3d validate <GAME_DIR> [--json]`: what to print and the exit status
/// (0 without errors, 1 otherwise).
pub fn run_validate(root: &Path, json: bool, progress: &mut dyn FnMut(Progress)) -> CliOutput {
    match validate(root, progress) {
        Err(e) => CliOutput::failure(e),
        Ok(report) => {
            let stdout = if json {
                crate::tool::json_text(&report)
            } else {
                report.text()
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

/// `iron3d mission graph <GAME_DIR> <MISSION> [--json]`: the reachability
/// tree and totals of one mission (exit 1 when an edge fails).
pub fn run_mission_graph(root: &Path, mission: &str, json: bool) -> CliOutput {
    let graph = match crate::graph::mission_graph(root, mission) {
        Ok(g) => g,
        Err(e) => return CliOutput::failure(e),
    };
    let stdout = if json {
        crate::tool::json_text(&graph)
    } else {
        graph_text(&graph)
    };
    let code = u8::from(!graph.failures.is_empty());
    let stderr: String = graph
        .failures
        .iter()
        .map(|f| format!("error: {f}\n"))
        .collect();
    CliOutput {
        stdout,
        stderr,
        code,
    }
}

/// The text tree of a mission graph.
fn graph_text(g: &crate::graph::MissionGraph) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "mission {}", g.mission);
    for o in &g.objects {
        let unit = o
            .unit_file
            .as_deref()
            .map(|u| format!(" (unit {u})"))
            .unwrap_or_default();
        let _ = writeln!(s, "  #{} '{}' -> {}{unit}", o.index, o.name, o.resource);
        for c in &o.components {
            let p = &c.prototype;
            let part = c
                .part
                .map(|i| format!("part #{i} '{}' ", c.description))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "    {part}prototype '{}' [{:?}] mesh {} wear {}: {} slots, {} textures, {} lightmaps",
                p.key,
                p.status,
                p.mesh.as_deref().unwrap_or("-"),
                p.wear.as_deref().unwrap_or("-"),
                p.totals.material_slots,
                p.totals.textures,
                p.totals.lightmaps
            );
        }
    }
    let _ = writeln!(s, "totals: {}", totals_line(&g.totals));
    s
}
