//! Case-insensitive resolution of legacy paths over a real install (tome VIII
//! "Правила файловой совместимости").
//!
//! A retail install has mixed-case names and its data spells paths with `\`
//! (`UNITS\BUILDS\X.dat`, `MISSIONS\Tut_1\Land`). On a case-sensitive file
//! system each component is looked up in a listing of its directory: the
//! exact name wins, then ASCII case-insensitive matches (no Unicode folding)
//! in byte order, so resolution is deterministic. Listings are cached per
//! directory. The legacy spelling is kept by callers for logs and round trips.
//!
//! A `GameDir` is one directory tree; mod directories layer over the
//! install in [`crate::source::Source`].

use crate::error::{FormatError, Result};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Format name in errors.
pub const FORMAT: &str = "game dir";
/// Directory of the missions, relative to the root.
pub const MISSIONS_DIR: &str = "MISSIONS";
/// The mission description file inside a mission directory.
pub const MISSION_FILE: &str = "data.tma";
/// The one-line description of a mission the menu shows, in its
/// directory (openparkan docs/04).
pub const DESCRIPTION_FILE: &str = "descr";
/// Bytes of a `descr` file read at most (its first line is the title).
const DESCRIPTION_LIMIT: u64 = 4096;
/// How deep below `MISSIONS` mission directories are searched.
const MISSION_DEPTH: usize = 4;

/// An install directory with a cache of directory listings.
#[derive(Debug)]
pub struct GameDir {
    root: PathBuf,
    listings: Mutex<BTreeMap<PathBuf, Arc<Vec<OsString>>>>,
}

/// A mission of an install.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Mission {
    /// Path below `MISSIONS`, `/`-separated, as spelled on disk.
    pub name: String,
    /// The mission directory (its context for relative paths).
    pub dir: PathBuf,
    /// Its `data.tma`.
    pub tma: PathBuf,
    /// The first non-empty line of its `descr` file (CP1251), when it has
    /// one.
    pub title: Option<String>,
}

impl Mission {
    /// The group the menu lists it under: its path below `MISSIONS` but
    /// the last component (empty for a mission directly below it).
    pub fn campaign(&self) -> &str {
        self.name.rsplit_once('/').map_or("", |(group, _)| group)
    }
}

impl GameDir {
    /// Opens an install root (it must be a directory).
    pub fn open(root: impl Into<PathBuf>) -> Result<Self> {
        let root = root.into();
        if !root.is_dir() {
            return Err(FormatError::missing(FORMAT, "the game directory")
                .in_file(root.display().to_string()));
        }
        Ok(Self {
            root,
            listings: Mutex::new(BTreeMap::new()),
        })
    }

    /// The install root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves a legacy path relative to the root.
    pub fn resolve(&self, legacy: &[u8]) -> Result<PathBuf> {
        self.resolve_from(&self.root, legacy)
    }

    /// Resolves a legacy path in a mission's context: the mission directory
    /// first, then the root.
    pub fn resolve_in_mission(&self, mission_dir: &Path, legacy: &[u8]) -> Result<PathBuf> {
        self.resolve_from(mission_dir, legacy)
            .or_else(|_| self.resolve(legacy))
    }

    /// Resolves a legacy path (`/` or `\` separators, any case) below an
    /// existing directory `base`. `.` and empty components are skipped, `..`
    /// goes up.
    pub fn resolve_from(&self, base: &Path, legacy: &[u8]) -> Result<PathBuf> {
        let mut at = base.to_path_buf();
        for component in legacy.split(|&b| b == b'/' || b == b'\\') {
            match component {
                b"" | b"." => {}
                b".." => {
                    at.pop();
                }
                name => {
                    at = self
                        .lookup(&at, name)
                        .ok_or_else(|| missing(legacy, &at, name))?
                }
            }
        }
        if !at.exists() {
            return Err(missing(legacy, &at, b""));
        }
        Ok(at)
    }

    /// The entry of `dir` matching `name`: exact, else the first ASCII
    /// case-insensitive match in byte order.
    fn lookup(&self, dir: &Path, name: &[u8]) -> Option<PathBuf> {
        let listing = self.listing(dir)?;
        let decoded = crate::config::decode_cp1251(name);
        let exact = listing.iter().find(|e| e.as_encoded_bytes() == name);
        let folded = || {
            listing.iter().find(|e| {
                let e = e.as_encoded_bytes();
                e.eq_ignore_ascii_case(name) || e.eq_ignore_ascii_case(decoded.as_bytes())
            })
        };
        exact.or_else(folded).map(|e| dir.join(e))
    }

    /// The names of the files in the directory at legacy path `legacy`
    /// (below the root), sorted; empty when there is no such directory.
    pub fn files_in(&self, legacy: &[u8]) -> Vec<OsString> {
        let Ok(dir) = self.resolve(legacy) else {
            return Vec::new();
        };
        let listing = self.listing(&dir).unwrap_or_default();
        listing
            .iter()
            .filter(|name| dir.join(name).is_file())
            .cloned()
            .collect()
    }

    /// The sorted names in `dir` (cached); `None` when it cannot be listed.
    fn listing(&self, dir: &Path) -> Option<Arc<Vec<OsString>>> {
        let mut cache = self.listings.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = cache.get(dir) {
            return Some(l.clone());
        }
        let mut names: Vec<OsString> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.file_name()))
            .collect();
        names.sort();
        let names = Arc::new(names);
        cache.insert(dir.to_path_buf(), names.clone());
        Some(names)
    }

    /// Every mission of the install: directories below `MISSIONS` (up to
    /// four levels) that hold a `data.tma`, sorted by name.
    pub fn missions(&self) -> Result<Vec<Mission>> {
        let top = self.resolve(MISSIONS_DIR.as_bytes())?;
        let mut out = Vec::new();
        let mut pending = vec![(top.clone(), 0usize)];
        while let Some((dir, depth)) = pending.pop() {
            if let Some(tma) = self
                .lookup(&dir, MISSION_FILE.as_bytes())
                .filter(|p| p.is_file())
            {
                out.push(self.mission_at(&top, dir.clone(), tma));
            }
            if depth >= MISSION_DEPTH {
                continue;
            }
            for name in self.listing(&dir).iter().flat_map(|l| l.iter()) {
                let sub = dir.join(name);
                // Symlinked directories are not followed (no loops).
                if sub.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                    pending.push((sub, depth + 1));
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// The mission in `dir`.
    fn mission_at(&self, top: &Path, dir: PathBuf, tma: PathBuf) -> Mission {
        let name = dir
            .strip_prefix(top)
            .unwrap_or(&dir)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let title = self
            .lookup(&dir, DESCRIPTION_FILE.as_bytes())
            .and_then(|path| read_title(&path));
        Mission {
            name,
            dir,
            tma,
            title,
        }
    }

    /// Finds a mission by a path (a mission directory or its `data.tma`), by
    /// its name below `MISSIONS` (any case, either separator), or by the last
    /// component of its name when that is unique.
    pub fn mission(&self, spec: &str) -> Result<Mission> {
        let top = self.resolve(MISSIONS_DIR.as_bytes());
        let direct = Path::new(spec);
        let as_dir = |dir: PathBuf| {
            let tma = self
                .lookup(&dir, MISSION_FILE.as_bytes())
                .filter(|p| p.is_file())?;
            let top = top.as_deref().unwrap_or(&self.root);
            Some(self.mission_at(top, dir, tma))
        };
        let mut candidates = Vec::new();
        if direct.is_file() {
            let parent = direct.parent().filter(|p| !p.as_os_str().is_empty());
            candidates.push(parent.unwrap_or(Path::new(".")).to_path_buf());
        }
        if direct.is_dir() {
            candidates.push(direct.to_path_buf());
        }
        if let Ok(top) = &top
            && let Ok(dir) = self.resolve_from(top, spec.as_bytes())
        {
            candidates.push(dir);
        }
        if let Some(m) = candidates.into_iter().find_map(as_dir) {
            return Ok(m);
        }
        let missions = self.missions()?;
        let last = |m: &&Mission| {
            m.name
                .rsplit('/')
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(spec))
        };
        let mut found = missions.iter().filter(last);
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(m.clone()),
            (Some(_), Some(_)) => Err(FormatError::invalid(
                FORMAT,
                0,
                "a unique mission name",
                format!("{spec:?} names several missions; give its path below MISSIONS"),
            )),
            _ => Err(FormatError::missing(
                FORMAT,
                format!(
                    "mission {spec:?} (known: {})",
                    missions
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .in_file(self.root.display().to_string())),
        }
    }
}

/// The title a `descr` file gives: its first non-empty line, trimmed
/// (at most [`DESCRIPTION_LIMIT`] bytes are read; an unreadable file has
/// none).
fn read_title(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(DESCRIPTION_LIMIT)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = crate::config::decode_cp1251(&bytes);
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(String::from)
}

fn missing(legacy: &[u8], at: &Path, component: &[u8]) -> FormatError {
    FormatError::missing(
        FORMAT,
        format!(
            "{} (legacy path {}) in {}",
            crate::cursor::show_bytes(component),
            crate::cursor::show_bytes(legacy),
            at.display()
        ),
    )
}
