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
mod texts;

pub use texts::undrawn;

use crate::error::{FormatError, Result};
use crate::gamedir::GameDir;
use crate::graph::{ChainError, Graph, Totals, Unreachable};
use std::collections::BTreeMap;
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
    /// The script of each clan that names one, in clan order.
    pub scripts: Vec<ClanScript>,
}

/// A clan's script as a mission reaches it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ClanScript {
    pub clan: String,
    /// The clan's script path as the TMA spells it.
    pub path: String,
    /// The `.scr` below the root, when it resolved.
    pub file: Option<String>,
    /// Its handler count, when all three files read.
    pub handlers: Option<usize>,
    /// Why it could not be read.
    pub error: Option<String>,
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

    /// Records a finding that no reader error carries (a check across
    /// files), of the file `file` as a whole.
    pub(crate) fn note(&mut self, severity: Severity, family: &str, file: &str, message: String) {
        self.push(Diagnostic {
            severity,
            family: family.to_string(),
            file: file.to_string(),
            entry: None,
            offset: 0,
            message,
        });
    }

    /// Keeps a finding and counts it in its family.
    fn push(&mut self, d: Diagnostic) {
        let stats = self.family(&d.family);
        match d.severity {
            Severity::Error => stats.errors += 1,
            Severity::Warning => stats.warnings += 1,
        }
        self.diagnostics.push(d);
    }

    /// Records a reader error or an accepted quirk.
    pub(crate) fn finding(
        &mut self,
        severity: Severity,
        family: &str,
        file: &str,
        e: &FormatError,
    ) {
        self.push(Diagnostic {
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
    if files.is_empty() {
        return Err(
            FormatError::missing("validate", "an install: the directory holds no file")
                .in_file(root.display().to_string()),
        );
    }
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
    let source = crate::source::Source::new(dir.root(), &[])?;
    let graph = Graph::new(&source);
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
        let scripts = clan_scripts(&dir, mission, &mut collector);
        summaries.push(MissionSummary {
            mission: g.mission,
            totals: g.totals,
            failures: g.failures,
            scripts,
        });
    }
    texts::check(&mut collector, &source, &missions);
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

/// The scripts `mission`'s clans name, each read with its formulas and
/// variables ([`crate::script::Bundle`]; the file pass checks every
/// script against them). One that cannot be read is an error of the
/// mission (family `mission script`).
fn clan_scripts(
    dir: &GameDir,
    mission: &crate::gamedir::Mission,
    collector: &mut Collector,
) -> Vec<ClanScript> {
    let Ok(tma) = crate::fsutil::read_file(&mission.tma)
        .and_then(|d| crate::tma::parse(&d, crate::archive::Mode::Compatible))
    else {
        return Vec::new(); // the TMA's own error is reported by its reader
    };
    let file = &mission.tma;
    let tma_file = file
        .strip_prefix(dir.root())
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/");
    tma.clans
        .iter()
        .filter(|c| !c.ai_script.is_empty())
        .map(|clan| {
            let path = crate::config::decode_cp1251(&clan.ai_script);
            let mut out = ClanScript {
                clan: crate::config::decode_cp1251(&clan.name),
                path,
                file: None,
                handlers: None,
                error: None,
            };
            match crate::script::Bundle::load(dir, &clan.ai_script) {
                Ok(bundle) => {
                    out.handlers = Some(bundle.script.handlers.len());
                    out.file = Some(bundle.files[0].clone());
                }
                Err(e) => {
                    let e = FormatError::invalid(
                        "mission script",
                        0,
                        format!("clan {}'s script {} readable", out.clan, out.path),
                        &e,
                    );
                    collector.family("mission script").files += 1;
                    collector.finding(Severity::Error, "mission script", &tma_file, &e);
                    out.error = Some(e.to_string());
                }
            }
            out
        })
        .collect()
}
