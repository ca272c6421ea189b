//! The one path space of a running game: the install with mod directories
//! layered over it, addressing loose files and archive entries alike, and
//! the one place their bytes are read and parsed. The mission loader, its
//! dependency graph ([`crate::graph`]) and the `iron://` asset source all
//! read through a [`Source`], so they see the same mods and share every
//! parse of an entry.
//!
//! A path is split on `/` or `\` and walked ASCII case-insensitively
//! ([`GameDir`]), layer by layer, the last mod directory first and the game
//! directory last. In a layer:
//! - a directory component descends;
//! - a file component that is the last one is a loose file;
//! - a file component followed by exactly one more component is an archive
//!   (NRes or RsLi, recognised by its magic) and the rest is an entry name;
//!   the entry is looked up as given, then without its extension, so
//!   `Textures.lib/T_GRASS.texm` addresses entry `T_GRASS` (the extension
//!   selects a Bevy loader);
//! - inside a directory named like an archive (`MOD/Textures.lib/`), the last
//!   component also matches a file named it plus an extension, or it
//!   without its extension, so `MOD/Textures.lib/T_GRASS.texm` overrides
//!   entry `T_GRASS` (and `MOD/static.rlb/X.ctl` does not override
//!   `X.msh`).
//!
//! A layer that misses (no such file, or the archive lacks the entry) falls
//! through to the next one, so mods override single entries.
//!
//! Every file is read as a private copy ([`FileSnapshot`]: never a memory
//! mapping a modder's tool could truncate under us), once per version (size,
//! mtime, inode); what is parsed from a version is kept with it
//! ([`Found::parsed`]), so two readers of the same entry share one parse
//! until [`Source::release_parsed`].

use crate::archive::{Mode, nres::Nres, rsli::Rsli};
use crate::error::{FormatError, Result};
use crate::fsutil::{FileSnapshot, Stamp};
use crate::gamedir::GameDir;
use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// File extensions (ASCII case-insensitive) of archive files (an NRes or
/// RsLi file by its magic: `behpsp.res` holds the behaviour profiles).
pub const ARCHIVE_EXTENSIONS: [&str; 3] = ["lib", "rlb", "res"];

/// Where a path of the source was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// A loose file on disk.
    Loose(PathBuf),
    /// An entry of an archive file.
    Entry {
        archive: PathBuf,
        /// Index in the archive's directory / table order.
        index: usize,
        /// The entry name as stored.
        name: String,
    },
}

impl Origin {
    /// Adds this origin (file, entry) to an error about the bytes it gave.
    pub fn annotate(&self, err: FormatError) -> FormatError {
        match self {
            Origin::Loose(path) => err.in_file(path.display().to_string()),
            Origin::Entry {
                archive,
                index,
                name,
            } => err
                .in_entry(*index, name.clone())
                .in_file(archive.display().to_string()),
        }
    }

    /// The file the bytes came from (the archive of an entry).
    pub fn file(&self) -> &Path {
        match self {
            Origin::Loose(path) => path,
            Origin::Entry { archive, .. } => archive,
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Loose(path) => write!(f, "{}", path.display()),
            Origin::Entry {
                archive,
                index,
                name,
            } => write!(f, "{} entry #{index} '{name}'", archive.display()),
        }
    }
}

/// The directory fields of one NRes entry, for readers whose format depends
/// on them (MAT0: `attr1` = flags, `attr2` = version; the type id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    /// The entry name as stored (lossy UTF-8).
    pub name: String,
    pub type_id: u32,
    pub attr1: u32,
    pub attr2: u32,
    pub attr3: u32,
}

/// The parsed directory of an NRes archive.
#[derive(Debug)]
struct NresDirectory {
    /// Directory fields and payload range of each entry, directory order.
    entries: Vec<(EntryInfo, Range<usize>)>,
    /// ASCII-lowercased name -> first entry of that name in directory order
    /// (the lookup rule of [`Nres::find`]).
    by_name: BTreeMap<Vec<u8>, usize>,
}

impl NresDirectory {
    fn parse(bytes: &[u8]) -> Result<Self> {
        let nres = Nres::parse(bytes, Mode::Compatible)?;
        let mut by_name = BTreeMap::new();
        let entries = nres
            .entries()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                by_name.entry(e.name().to_ascii_lowercase()).or_insert(i);
                let start = e.data_offset as usize;
                let info = EntryInfo {
                    name: String::from_utf8_lossy(e.name()).into_owned(),
                    type_id: e.type_id,
                    attr1: e.attr1,
                    attr2: e.attr2,
                    attr3: e.attr3,
                };
                (info, start..start + nres.payload(i).len())
            })
            .collect();
        Ok(Self { entries, by_name })
    }
}

/// What one parse of an entry gave, shared by every reader of it.
type ParseSlot = OnceLock<Result<Arc<dyn Any + Send + Sync>>>;

/// Which parse of a file version: entry (`None`: the loose file), parsed
/// type, and the caller's variant (inputs beside the bytes, e.g. MAT0's
/// directory attributes).
type ParseKey = (Option<usize>, TypeId, u64);

/// One version of a file: its private copy, its NRes directory (parsed
/// once), and what has been parsed from it.
#[derive(Debug)]
struct CachedFile {
    file: FileSnapshot,
    nres: OnceLock<Result<NresDirectory>>,
    parsed: Mutex<BTreeMap<ParseKey, Arc<ParseSlot>>>,
    rsli: Mutex<RsliMemo>,
}

/// A row of an RsLi archive: index, stored name, decoded bytes.
type RsliRow = (usize, String, Arc<Vec<u8>>);

/// The RsLi lookups of one file version and the rows they decoded, so
/// that the table is parsed and a row decompressed once per reader wave
/// (the decoded rows go with the parses, [`Source::release_parsed`]).
#[derive(Debug, Default)]
struct RsliMemo {
    /// Name asked -> its row index and stored name, or `None`.
    found: BTreeMap<Vec<u8>, Option<(usize, String)>>,
    decoded: BTreeMap<usize, Arc<Vec<u8>>>,
}

impl CachedFile {
    /// Row `name` of this RsLi archive: its index, stored name and decoded
    /// bytes; `None` when it has no such row.
    fn rsli_row(&self, name: &[u8]) -> Result<Option<RsliRow>> {
        let mut memo = self.rsli.lock().unwrap_or_else(|e| e.into_inner());
        let known = memo.found.get(name).cloned();
        let (index, stored) = match known {
            Some(None) => return Ok(None),
            Some(Some(hit)) => hit,
            None => {
                let rsli = self.rsli_table()?;
                let hit = rsli
                    .find(name)
                    .map(|i| (i, rsli.entries()[i].display_name()));
                memo.found.insert(name.to_vec(), hit.clone());
                match hit {
                    Some(hit) => hit,
                    None => return Ok(None),
                }
            }
        };
        let payload = match memo.decoded.get(&index) {
            Some(p) => p.clone(),
            None => {
                let p = Arc::new(self.rsli_table()?.decode(index)?);
                memo.decoded.insert(index, p.clone());
                p
            }
        };
        Ok(Some((index, stored, payload)))
    }

    /// Whether this archive (NRes or RsLi) has an entry named `name`
    /// exactly (ASCII case-insensitively); `false` when it does not parse.
    fn has_entry(&self, path: &Path, name: &[u8]) -> bool {
        if self.file.bytes().starts_with(b"NL") {
            return self.rsli_table().is_ok_and(|t| t.find(name).is_some());
        }
        self.directory(path)
            .is_ok_and(|d| d.by_name.contains_key(&name.to_ascii_lowercase()))
    }

    fn rsli_table(&self) -> Result<Rsli<'_>> {
        Rsli::parse_named(self.file.bytes(), Mode::Compatible, &self.file.file_name())
    }

    fn directory(&self, path: &Path) -> Result<&NresDirectory> {
        let dir = self
            .nres
            .get_or_init(|| NresDirectory::parse(self.file.bytes()));
        dir.as_ref()
            .map_err(|e| e.clone().in_file(path.display().to_string()))
    }
}

/// The bytes a [`Found`] gives.
#[derive(Debug)]
enum Payload {
    /// A span of the file (a loose file whole, an NRes entry).
    Span(Range<usize>),
    /// A decoded RsLi row.
    Decoded(Arc<Vec<u8>>),
}

/// A path of the source as found: where, its bytes, and its directory
/// fields when it is (or overrides) an NRes entry.
#[derive(Debug)]
pub struct Found {
    pub origin: Origin,
    /// The NRes directory fields of the entry; for a loose file overriding
    /// an entry, those of the entry it overrides in the highest archive
    /// file below it (its bytes replace the entry, its fields stay).
    pub info: Option<EntryInfo>,
    file: Arc<CachedFile>,
    entry: Option<usize>,
    payload: Payload,
    stats: Arc<ParseStats>,
}

impl Found {
    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.payload {
            Payload::Span(range) => self
                .file
                .file
                .bytes()
                .get(range.clone())
                .unwrap_or_default(),
            Payload::Decoded(bytes) => bytes.as_slice(),
        }
    }

    /// The bytes parsed as `T` by `parse`, once per version of the file,
    /// `T` and `variant` (any input of `parse` besides the bytes): every
    /// other reader of the same bytes gets the same value, and a reader
    /// asking while the parse runs waits for it. Errors carry the origin.
    pub fn parsed<T: Any + Send + Sync>(
        &self,
        variant: u64,
        parse: impl FnOnce(&[u8]) -> Result<T>,
    ) -> Result<Arc<T>> {
        let key = (self.entry, TypeId::of::<T>(), variant);
        let slot = self
            .file
            .parsed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone();
        let value = slot.get_or_init(|| {
            self.stats.record(&self.origin, std::any::type_name::<T>());
            parse(self.bytes())
                .map(|v| Arc::new(v) as Arc<dyn Any + Send + Sync>)
                .map_err(|e| self.origin.annotate(e))
        });
        let value = value.clone()?;
        Ok(value
            .downcast::<T>()
            .expect("a parse slot holds the type of its key"))
    }
}

/// How often each entry was parsed as each type (parses run, not served
/// from a slot): the evidence that readers share parses.
#[derive(Debug, Default)]
pub struct ParseStats {
    runs: Mutex<BTreeMap<(Origin, &'static str), u32>>,
}

impl ParseStats {
    fn record(&self, origin: &Origin, type_name: &'static str) {
        *self
            .runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((origin.clone(), type_name))
            .or_default() += 1;
    }

    /// Each (origin, type) parsed and how many times, in origin order.
    pub fn runs(&self) -> Vec<(Origin, &'static str, u32)> {
        self.runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|((o, t), n)| (o.clone(), *t, *n))
            .collect()
    }
}

/// The files of the source, each version read once.
#[derive(Debug, Default)]
struct FileCache {
    files: Mutex<BTreeMap<PathBuf, Arc<CachedFile>>>,
}

impl FileCache {
    /// The current version of `path`: the held copy while its stamp is
    /// unchanged, else a fresh one.
    fn get(&self, path: &Path) -> Result<Arc<CachedFile>> {
        let now = Stamp::read(path)?;
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = files.get(path).filter(|f| f.file.stamp() == now) {
            return Ok(f.clone());
        }
        let read = Arc::new(CachedFile {
            file: FileSnapshot::read(path)?,
            nres: OnceLock::new(),
            parsed: Mutex::default(),
            rsli: Mutex::default(),
        });
        files.insert(path.to_path_buf(), read.clone());
        Ok(read)
    }
}

/// A layered path space over an install and its mod directories.
#[derive(Debug)]
pub struct Source {
    /// Layer roots, highest priority first: the last mod directory, ...,
    /// the game dir.
    roots: Vec<PathBuf>,
    /// One [`GameDir`] per root; replaced by [`Source::refresh`] (their
    /// directory listings are cached).
    layers: RwLock<Vec<Layer>>,
    files: FileCache,
    stats: Arc<ParseStats>,
    /// Every path read through [`Source::deliver`] and a hash of the bytes
    /// it last resolved to (`None`: missing or unreadable at the last
    /// check), for change detection.
    delivered: Mutex<BTreeMap<PathBuf, Option<u64>>>,
}

/// A hash of delivered bytes (deterministic: fixed SipHash keys).
fn content_hash(bytes: &[u8]) -> u64 {
    use std::hash::{DefaultHasher, Hasher};
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

fn open_layers(roots: &[PathBuf]) -> Result<Vec<Layer>> {
    let mods = roots.len().saturating_sub(1);
    roots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let dir = GameDir::open(r.clone()).map_err(|e| match i < mods {
                // The roots before the last are mod directories.
                true => FormatError::missing("mod dir", "a mod directory (a directory)")
                    .in_file(r.display().to_string()),
                false => e,
            })?;
            Ok(Layer {
                dir,
                steps: Mutex::default(),
            })
        })
        .collect()
}

/// Where the components before a path's last one lead in one layer.
#[derive(Debug, Clone)]
enum Step {
    /// A directory: the last component is a file in it (or, in a directory
    /// named like an archive, a file of the same stem).
    Dir(PathBuf),
    /// An archive file: the last component is an entry name.
    Archive(PathBuf),
    /// Nothing the last component can be in.
    Dead,
}

/// One layer of the path space: its directory tree and where the path
/// prefixes read so far lead (both forgotten by [`Source::refresh`]).
#[derive(Debug)]
struct Layer {
    dir: GameDir,
    steps: Mutex<BTreeMap<Vec<u8>, Step>>,
}

impl Layer {
    /// Where `prefix` leads, walked once per spelling.
    fn step(&self, prefix: &[&[u8]]) -> Step {
        let key = prefix.join(&b'/');
        let mut steps = self.steps.lock().unwrap_or_else(|e| e.into_inner());
        steps
            .entry(key)
            .or_insert_with(|| self.walk(prefix))
            .clone()
    }

    fn walk(&self, prefix: &[&[u8]]) -> Step {
        let mut at = self.dir.root().to_path_buf();
        for (i, part) in prefix.iter().enumerate() {
            let Ok(found) = self.dir.resolve_from(&at, part) else {
                return Step::Dead;
            };
            if found.is_dir() {
                at = found;
            } else if i + 1 == prefix.len() && is_archive_file(&found) {
                return Step::Archive(found);
            } else {
                return Step::Dead;
            }
        }
        Step::Dir(at)
    }
}

fn is_archive_name(name: &Path) -> bool {
    name.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ARCHIVE_EXTENSIONS.iter().any(|a| a.eq_ignore_ascii_case(e)))
}

/// A name without its extension (a leading dot is not one).
fn stem(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&b| b == b'.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}

/// The components of a path: split on `/` or `\`, `.` and empty ones
/// dropped; `None` with a `..` (nothing outside the layer roots is
/// reachable) or with no component.
fn components(path: &[u8]) -> Option<Vec<&[u8]>> {
    let parts: Vec<&[u8]> = path
        .split(|&b| b == b'/' || b == b'\\')
        .filter(|p| !p.is_empty() && *p != b".")
        .collect();
    (!parts.is_empty() && !parts.contains(&&b".."[..])).then_some(parts)
}

fn path_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

impl Source {
    /// A source over `game_dir` with `mod_dirs` layered on top (later ones
    /// win). Every directory must exist.
    pub fn new(game_dir: &Path, mod_dirs: &[PathBuf]) -> Result<Self> {
        let mut roots: Vec<PathBuf> = mod_dirs.iter().rev().cloned().collect();
        roots.push(game_dir.to_path_buf());
        Ok(Self {
            layers: RwLock::new(open_layers(&roots)?),
            roots,
            files: FileCache::default(),
            stats: Arc::default(),
            delivered: Mutex::new(BTreeMap::new()),
        })
    }

    /// The layer roots, highest priority first (the game dir last).
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The install root.
    pub fn game_dir(&self) -> &Path {
        self.roots.last().expect("a source has the game dir")
    }

    /// The mod directories in `--mod-dir` order (later ones win).
    pub fn mod_dirs(&self) -> Vec<PathBuf> {
        let mods = &self.roots[..self.roots.len() - 1];
        mods.iter().rev().cloned().collect()
    }

    /// Whether this source layers exactly `mod_dirs` over `game_dir`.
    pub fn is_over(&self, game_dir: &Path, mod_dirs: &[PathBuf]) -> bool {
        self.game_dir() == game_dir && self.mod_dirs() == mod_dirs
    }

    /// The path of `path` relative to the layer root it lies in; `None`
    /// outside every layer.
    pub fn relative<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        self.roots
            .iter()
            .find_map(|root| path.strip_prefix(root).ok())
    }

    /// Whether `origin` is in a mod directory.
    pub fn is_override(&self, origin: &Origin) -> bool {
        let file = origin.file();
        self.roots[..self.roots.len() - 1]
            .iter()
            .any(|root| file.starts_with(root))
    }

    /// Forgets the cached directory listings (files were added or removed).
    pub fn refresh(&self) {
        if let Ok(fresh) = open_layers(&self.roots) {
            *self.layers.write().unwrap_or_else(|e| e.into_inner()) = fresh;
        }
    }

    /// How often each entry was parsed ([`Found::parsed`]).
    pub fn parse_stats(&self) -> &ParseStats {
        &self.stats
    }

    /// Drops every kept parse and decoded RsLi row (the files stay): once
    /// every reader of a load has taken its values, so that only they hold
    /// them.
    pub fn release_parsed(&self) {
        let files = self.files.files.lock().unwrap_or_else(|e| e.into_inner());
        for file in files.values() {
            file.parsed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clear();
            let mut rsli = file.rsli.lock().unwrap_or_else(|e| e.into_inner());
            rsli.decoded.clear();
        }
    }

    /// Resolves `path` (relative to the layer roots) to its origin and
    /// bytes; `Ok(None)` when no layer has it. Errors are I/O errors and
    /// archives that do not parse.
    pub fn read(&self, path: &Path) -> Result<Option<Found>> {
        match components(path_bytes(path)) {
            Some(parts) => self.read_parts(&parts),
            None => Ok(None),
        }
    }

    /// A legacy path in a mission's context: below the mission directory
    /// `mission` (relative to the roots) first, then below the roots.
    pub fn read_in_mission(&self, mission: &Path, legacy: &[u8]) -> Result<Option<Found>> {
        let Some(legacy_parts) = components(legacy) else {
            return Ok(None);
        };
        if let Some(mut parts) = components(path_bytes(mission)) {
            parts.extend(&legacy_parts);
            if let Some(found) = self.read_parts(&parts)? {
                return Ok(Some(found));
            }
        }
        self.read_parts(&legacy_parts)
    }

    /// A legacy path (either separator, any case) below the roots.
    pub fn read_legacy(&self, legacy: &[u8]) -> Result<Option<Found>> {
        match components(legacy) {
            Some(parts) => self.read_parts(&parts),
            None => Ok(None),
        }
    }

    /// Entry `name` of the archive at legacy path `archive` (the name is one
    /// component, whatever bytes it holds), with the directory fields of
    /// what it overrides when a mod's loose file gives it.
    pub fn entry(&self, archive: &[u8], name: &[u8]) -> Result<Option<Found>> {
        let Some(mut parts) = components(archive) else {
            return Ok(None);
        };
        parts.push(name);
        let Some(mut found) = self.read_parts(&parts)? else {
            return Ok(None);
        };
        if found.info.is_none() && matches!(found.origin, Origin::Loose(_)) {
            found.info = self.overridden_fields(&parts[..parts.len() - 1], name);
        }
        Ok(Some(found))
    }

    /// The directory fields of entry `name` (or its stem) in the highest
    /// layer whose archive file at `archive` has it: the entry a loose file
    /// of that name overrides (no layer above the file has the entry, or
    /// the file would not have been found).
    fn overridden_fields(&self, archive: &[&[u8]], name: &[u8]) -> Option<EntryInfo> {
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        archive_files(&layers, archive).iter().find_map(|path| {
            let file = self.files.get(path).ok()?;
            let dir = file.directory(path).ok()?;
            let index = dir
                .by_name
                .get(&name.to_ascii_lowercase())
                .or_else(|| dir.by_name.get(&stem(name).to_ascii_lowercase()))?;
            Some(dir.entries[*index].0.clone())
        })
    }

    /// Reads `path` for an asset reader and remembers a hash of its bytes
    /// (see [`Source::changed`]).
    pub fn deliver(&self, path: &Path) -> Result<Option<Found>> {
        let found = self.read(path)?;
        if let Some(found) = &found {
            self.delivered
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path.to_path_buf(), Some(content_hash(found.bytes())));
        }
        Ok(found)
    }

    /// The delivered paths whose bytes changed after the files `touched`
    /// (absolute or root-relative) changed on disk, in path order; their
    /// remembered hashes are updated. Only paths that name a touched file
    /// (a component equal to its name, or a last component with its stem,
    /// ASCII case-insensitively) are re-read, so rewriting an archive
    /// reports exactly its entries whose bytes differ.
    pub fn changed(&self, touched: &[PathBuf]) -> Vec<PathBuf> {
        self.refresh();
        let names: Vec<String> = touched
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .collect();
        let candidates: Vec<(PathBuf, Option<u64>)> = self
            .delivered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(path, _)| names_touched(path, &names))
            .map(|(p, h)| (p.clone(), *h))
            .collect();
        let mut changed = Vec::new();
        for (path, old) in candidates {
            // Missing, or an archive that no longer parses: reported as a
            // change so that the reload surfaces the error.
            let now = match self.read(&path) {
                Ok(Some(found)) => Some(content_hash(found.bytes())),
                Ok(None) | Err(_) => None,
            };
            if now != old {
                self.delivered
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(path.clone(), now);
                changed.push(path);
            }
        }
        changed
    }

    /// Number of file versions currently held.
    pub fn held_files(&self) -> usize {
        self.files
            .files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// The origin of `path` (reads it: callers use this on errors).
    pub fn origin(&self, path: &Path) -> Option<Origin> {
        self.read(path).ok().flatten().map(|found| found.origin)
    }

    /// Adds the origin of `path` (file, entry) to an error about its bytes;
    /// the path itself when it no longer resolves.
    pub fn annotate(&self, path: &Path, err: FormatError) -> FormatError {
        match self.origin(path) {
            Some(origin) => origin.annotate(err),
            None => err.in_file(path.display().to_string()),
        }
    }

    /// The directory of the archive file at `archive` (e.g. `Material.lib`)
    /// in the highest layer that has it as a file; `Ok(None)` when none
    /// does. Loose overrides (`MOD/Material.lib/NAME.mat0`) are not listed:
    /// their bytes replace an entry, its directory fields stay.
    pub fn archive_directory(&self, archive: &Path) -> Result<Option<Vec<EntryInfo>>> {
        match components(path_bytes(archive)) {
            Some(parts) => self.directory_parts(&parts),
            None => Ok(None),
        }
    }

    fn directory_parts(&self, parts: &[&[u8]]) -> Result<Option<Vec<EntryInfo>>> {
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        let Some(found) = archive_files(&layers, parts).into_iter().next() else {
            return Ok(None);
        };
        let file = self.files.get(&found)?;
        if file.file.bytes().starts_with(b"NL") {
            return Err(FormatError::missing(
                "NRes",
                "an NRes directory (an RsLi archive has no entry attributes)",
            )
            .in_file(found.display().to_string()));
        }
        let dir = file.directory(&found)?;
        Ok(Some(dir.entries.iter().map(|(i, _)| i.clone()).collect()))
    }

    /// The loose files of the directory at legacy path `legacy` in every
    /// layer, each name once (a higher layer's spelling, ASCII
    /// case-insensitive), sorted by their upper-case spelling; archives'
    /// entries are not listed.
    pub fn files_in(&self, legacy: &[u8]) -> Vec<String> {
        let Some(parts) = components(legacy) else {
            return Vec::new();
        };
        let joined = parts.join(&b'/');
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        let mut names = BTreeMap::new();
        for layer in layers.iter() {
            for name in layer.dir.files_in(&joined) {
                let name = name.to_string_lossy().into_owned();
                names.entry(name.to_ascii_uppercase()).or_insert(name);
            }
        }
        names.into_values().collect()
    }

    /// Whether `path` is a directory (not an archive) in some layer.
    pub fn is_dir(&self, path: &Path) -> bool {
        self.is_dir_legacy(path_bytes(path))
    }

    /// Whether the legacy path (either separator, any case) is a directory
    /// (not an archive) in some layer.
    pub fn is_dir_legacy(&self, legacy: &[u8]) -> bool {
        self.kind(legacy).is_some_and(|(dir, _)| dir)
    }

    /// Whether `path` is a file in some layer.
    pub fn is_file(&self, path: &Path) -> bool {
        self.is_file_legacy(path_bytes(path))
    }

    /// Whether the legacy path is a file in some layer.
    pub fn is_file_legacy(&self, legacy: &[u8]) -> bool {
        self.kind(legacy).is_some_and(|(_, file)| file)
    }

    /// (a directory in some layer, a file in some layer).
    fn kind(&self, legacy: &[u8]) -> Option<(bool, bool)> {
        let joined = components(legacy)?.join(&b'/');
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        let found: Vec<PathBuf> = layers
            .iter()
            .filter_map(|l| l.dir.resolve(&joined).ok())
            .collect();
        Some((
            found.iter().any(|p| p.is_dir() && !is_archive_file(p)),
            found.iter().any(|p| p.is_file()),
        ))
    }

    fn read_parts(&self, parts: &[&[u8]]) -> Result<Option<Found>> {
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        for layer in layers.iter() {
            if let Some(found) = self.read_in(&layers, layer, parts)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    fn read_in(&self, layers: &[Layer], layer: &Layer, parts: &[&[u8]]) -> Result<Option<Found>> {
        let Some((last, prefix)) = parts.split_last() else {
            return Ok(None);
        };
        match layer.step(prefix) {
            Step::Dead => Ok(None),
            Step::Archive(archive) => match self.archive_entry(&archive, last)? {
                Some(hit) => Ok(Some(hit)),
                None if stem(last) != *last => self.archive_entry(&archive, stem(last)),
                None => Ok(None),
            },
            Step::Dir(at) => {
                let found = match layer.dir.resolve_from(&at, last) {
                    Ok(p) => Some(p),
                    Err(_) if is_archive_name(&at) => {
                        let is_entry = |file: &[u8]| self.archive_has(layers, prefix, file);
                        entry_file(&at, last, is_entry)
                    }
                    Err(_) => None,
                };
                match found {
                    Some(file) if !file.is_dir() => {
                        let cached = self.files.get(&file)?;
                        let whole = Payload::Span(0..cached.file.bytes().len());
                        Ok(Some(self.found(
                            Origin::Loose(file),
                            None,
                            cached,
                            None,
                            whole,
                        )))
                    }
                    _ => Ok(None),
                }
            }
        }
    }

    /// Whether the archive file at `archive` in some layer has an entry
    /// named `name` exactly.
    fn archive_has(&self, layers: &[Layer], archive: &[&[u8]], name: &[u8]) -> bool {
        archive_files(layers, archive)
            .iter()
            .any(|path| self.files.get(path).is_ok_and(|f| f.has_entry(path, name)))
    }

    fn found(
        &self,
        origin: Origin,
        info: Option<EntryInfo>,
        file: Arc<CachedFile>,
        entry: Option<usize>,
        payload: Payload,
    ) -> Found {
        Found {
            origin,
            info,
            file,
            entry,
            payload,
            stats: self.stats.clone(),
        }
    }

    /// The entry `name` of the archive file `archive` (decoded for RsLi),
    /// or `None` when it has no such entry.
    fn archive_entry(&self, archive: &Path, name: &[u8]) -> Result<Option<Found>> {
        let file = self.files.get(archive)?;
        let in_file = |e: FormatError| e.in_file(archive.display().to_string());
        let origin = |index: usize, name: String| Origin::Entry {
            archive: archive.to_path_buf(),
            index,
            name,
        };
        let bytes = file.file.bytes();
        if bytes.starts_with(b"NL") {
            let Some((index, stored, payload)) = file.rsli_row(name).map_err(in_file)? else {
                return Ok(None);
            };
            let origin = origin(index, stored);
            return Ok(Some(self.found(
                origin,
                None,
                file.clone(),
                Some(index),
                Payload::Decoded(payload),
            )));
        }
        let dir = file.directory(archive)?;
        let Some(&index) = dir.by_name.get(&name.to_ascii_lowercase()) else {
            return Ok(None);
        };
        let (info, range) = dir.entries[index].clone();
        let origin = origin(index, info.name.clone());
        Ok(Some(self.found(
            origin,
            Some(info),
            file.clone(),
            Some(index),
            Payload::Span(range),
        )))
    }
}

/// The archive file at the place `archive` names in each layer that has one
/// there, highest layer first.
fn archive_files(layers: &[Layer], archive: &[&[u8]]) -> Vec<PathBuf> {
    let joined = archive.join(&b'/');
    layers
        .iter()
        .filter_map(|layer| layer.dir.resolve(&joined).ok())
        .filter(|path| is_archive_file(path))
        .collect()
}

/// Whether a component of `path` is one of `names` (lower-case file names),
/// or its last component has the stem of one of them.
fn names_touched(path: &Path, names: &[String]) -> bool {
    let text = path.to_string_lossy().to_ascii_lowercase();
    let parts: Vec<&str> = text.split(['/', '\\']).collect();
    let last = parts.last().map_or(&b""[..], |l| stem(l.as_bytes()));
    names
        .iter()
        .any(|n| parts.contains(&n.as_str()) || stem(n.as_bytes()) == last)
}

/// Whether `path` is a file holding an NRes or RsLi archive.
fn is_archive_file(path: &Path) -> bool {
    use std::io::Read;
    if !path.is_file() || !is_archive_name(path) {
        return false;
    }
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == b"NRes" || magic.starts_with(b"NL"))
}

/// The file of `dir` (a directory named like an archive) that gives entry
/// `name`, ASCII case-insensitively, first in byte order: one named the
/// entry plus an extension (`T_GRASS.texm` for `T_GRASS`); else, for a name
/// with an extension (a loader's request, `T_GRASS.texm`), one that gives
/// the name without it: named exactly that, or that plus another extension
/// (`T_GRASS.tex`) unless its own name is an entry of the archive
/// (`is_entry`: `X.ctl` overrides entry `X.ctl`, never `X.msh`).
fn entry_file(dir: &Path, name: &[u8], is_entry: impl Fn(&[u8]) -> bool) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let name_of = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.as_encoded_bytes().to_vec())
            .unwrap_or_default()
    };
    let own = files
        .iter()
        .find(|p| stem(&name_of(p)).eq_ignore_ascii_case(name));
    let bare = stem(name);
    let without_extension = || {
        files.iter().find(|p| {
            let file = name_of(p);
            file.eq_ignore_ascii_case(bare)
                || (stem(&file).eq_ignore_ascii_case(bare) && !is_entry(&file))
        })
    };
    match own {
        Some(hit) => Some(hit.clone()),
        None if bare != name => without_extension().cloned(),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::nres::{NewEntry, build};

    fn entry<'p>(name: &str, attr2: u32, payload: &'p [u8]) -> NewEntry<'p> {
        NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: 7,
            attr1: 0x14,
            attr2,
            attr3: 9,
            payload,
        }
    }

    #[test]
    fn stems_and_touched_names() {
        assert_eq!(stem(b"T_GRASS.texm"), b"T_GRASS");
        assert_eq!(stem(b"T_GRASS"), b"T_GRASS");
        assert_eq!(stem(b".hidden"), b".hidden");
        let names = ["textures.lib".to_string()];
        assert!(names_touched(
            Path::new("Textures.lib/T_GRASS.texm"),
            &names
        ));
        assert!(!names_touched(Path::new("LightMap.lib/LM_A.texm"), &names));
        let names = ["t_grass.tex".to_string()];
        assert!(names_touched(
            Path::new("Textures.lib/T_GRASS.texm"),
            &names
        ));
    }

    #[test]
    fn parent_components_never_leave_the_roots() {
        let tmp = tempfile::tempdir().unwrap();
        let game = tmp.path().join("game");
        std::fs::create_dir_all(&game).unwrap();
        std::fs::write(tmp.path().join("secret.txt"), b"x").unwrap();
        let source = Source::new(&game, &[]).unwrap();
        assert!(source.read(Path::new("../secret.txt")).unwrap().is_none());
        assert!(
            source
                .read(Path::new("a/../../secret.txt"))
                .unwrap()
                .is_none()
        );
        assert!(source.read_legacy(b"..\\secret.txt").unwrap().is_none());
    }

    #[test]
    fn archive_directories_give_entry_attributes_from_the_highest_layer() {
        let tmp = tempfile::tempdir().unwrap();
        let (game, mods) = (tmp.path().join("game"), tmp.path().join("mod"));
        let write = |dir: &Path, attr2: u32| {
            std::fs::create_dir_all(dir).unwrap();
            let lib = build(&[entry("M_ONE", attr2, b"x")]).unwrap();
            std::fs::write(dir.join("Material.lib"), lib).unwrap();
        };
        write(&game, 2);
        std::fs::write(game.join("plain.lib"), b"not an archive").unwrap();
        let source = Source::new(&game, &[]).unwrap();
        let want = EntryInfo {
            name: "M_ONE".into(),
            type_id: 7,
            attr1: 0x14,
            attr2: 2,
            attr3: 9,
        };
        let dir = source.archive_directory(Path::new("MATERIAL.LIB")).unwrap();
        assert_eq!(dir, Some(vec![want.clone()]));
        assert_eq!(
            source.archive_directory(Path::new("plain.lib")).unwrap(),
            None
        );
        assert_eq!(
            source.archive_directory(Path::new("none.lib")).unwrap(),
            None
        );
        write(&mods, 4);
        let layered = Source::new(&game, std::slice::from_ref(&mods)).unwrap();
        let dir = layered
            .archive_directory(Path::new("Material.lib"))
            .unwrap();
        assert_eq!(dir, Some(vec![EntryInfo { attr2: 4, ..want }]));
    }

    /// An install of one archive `A.lib` holding entry `E`, and its writer
    /// (write-then-rename, as an editor saves).
    fn one_entry_install() -> (tempfile::TempDir, PathBuf, impl Fn(&[u8])) {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("A.lib");
        let path = lib.clone();
        let write = move |payload: &[u8]| {
            let bytes = build(&[entry("E", 0, payload)]).unwrap();
            crate::fsutil::write_atomic(&path, &bytes).unwrap();
        };
        write(b"one");
        (tmp, lib, write)
    }

    #[test]
    fn an_archive_is_read_once_and_again_when_replaced() {
        let (tmp, lib, write) = one_entry_install();
        let source = Source::new(tmp.path(), &[]).unwrap();
        for _ in 0..3 {
            let found = source.read(Path::new("a.LIB/e")).unwrap().unwrap();
            assert_eq!(found.bytes(), b"one");
            assert_eq!(
                found.origin,
                Origin::Entry {
                    archive: lib.clone(),
                    index: 0,
                    name: "E".into()
                }
            );
        }
        assert_eq!(source.held_files(), 1);
        write(b"two!");
        let found = source.read(Path::new("A.lib/E.texm")).unwrap().unwrap();
        assert_eq!(found.bytes(), b"two!");
        assert_eq!(source.held_files(), 1);
    }

    #[test]
    fn an_entry_is_parsed_once_per_version_type_and_variant() {
        let (tmp, _, write) = one_entry_install();
        let source = Source::new(tmp.path(), &[]).unwrap();
        let len = |b: &[u8]| Ok(b.len());
        let read = || source.entry(b"a.lib", b"E").unwrap().unwrap();
        let first = read().parsed(0, len).unwrap();
        let again = read()
            .parsed(0, |_| unreachable!("served from the slot"))
            .unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        let other_variant = read().parsed(1, len).unwrap();
        assert!(!Arc::ptr_eq(&first, &other_variant));
        let as_text = read().parsed(0, |b| Ok(String::from_utf8_lossy(b).into_owned()));
        assert_eq!(*as_text.unwrap(), "one");
        write(b"three");
        assert_eq!(
            *read().parsed(0, len).unwrap(),
            5,
            "a new version parses anew"
        );
        let runs: Vec<u32> = source.parse_stats().runs().iter().map(|r| r.2).collect();
        assert_eq!(runs, [1, 3], "String, then usize (v0, v1, new file)");
        source.release_parsed();
        read().parsed(0, len).unwrap();
        assert_eq!(
            source.parse_stats().runs()[1].2,
            4,
            "released parses run again"
        );
    }

    #[test]
    fn a_failed_parse_is_shared_with_its_origin() {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("A.lib");
        std::fs::write(&lib, build(&[entry("E", 0, b"x")]).unwrap()).unwrap();
        let source = Source::new(tmp.path(), &[]).unwrap();
        let fail = |_: &[u8]| -> Result<u8> { Err(FormatError::missing("T", "a thing")) };
        let found = source.entry(b"A.LIB", b"e").unwrap().unwrap();
        let err = found.parsed(0, fail).unwrap_err();
        assert_eq!(
            err.file.as_deref(),
            Some(lib.display().to_string().as_str())
        );
        assert_eq!(err.entry.as_ref().map(|e| e.name.as_str()), Some("E"));
        let again = found
            .parsed(0, |_| -> Result<u8> { unreachable!() })
            .unwrap_err();
        assert_eq!(again, err);
    }

    #[test]
    fn a_loose_override_keeps_the_directory_fields_of_the_entry_it_replaces() {
        let tmp = tempfile::tempdir().unwrap();
        let (game, mods) = (tmp.path().join("game"), tmp.path().join("mod"));
        std::fs::create_dir_all(mods.join("material.LIB")).unwrap();
        std::fs::create_dir_all(&game).unwrap();
        std::fs::write(
            game.join("Material.lib"),
            build(&[entry("M_ONE", 3, b"old")]).unwrap(),
        )
        .unwrap();
        std::fs::write(mods.join("material.LIB/m_one.mat0"), b"new").unwrap();
        let source = Source::new(&game, std::slice::from_ref(&mods)).unwrap();
        let found = source.entry(b"Material.lib", b"M_ONE").unwrap().unwrap();
        assert_eq!(found.bytes(), b"new");
        assert_eq!(
            found.origin,
            Origin::Loose(mods.join("material.LIB/m_one.mat0"))
        );
        assert_eq!(
            found.info.map(|i| (i.name, i.attr2)),
            Some(("M_ONE".into(), 3))
        );
        assert!(
            source.is_override(
                &source
                    .entry(b"Material.lib", b"M_ONE")
                    .unwrap()
                    .unwrap()
                    .origin
            )
        );
        assert_eq!(source.mod_dirs(), std::slice::from_ref(&mods));
        assert!(source.is_over(&game, &[mods]));
    }

    #[test]
    fn a_directory_lists_its_files_of_every_layer_once() {
        let tmp = tempfile::tempdir().unwrap();
        let (game, mods) = (tmp.path().join("game"), tmp.path().join("mod"));
        std::fs::create_dir_all(game.join("UNITS/SUB")).unwrap();
        std::fs::create_dir_all(mods.join("units")).unwrap();
        std::fs::write(game.join("UNITS/B.dat"), b"b").unwrap();
        std::fs::write(game.join("UNITS/a.dat"), b"a").unwrap();
        std::fs::write(mods.join("units/A.DAT"), b"mod a").unwrap();
        std::fs::write(mods.join("units/c.dat"), b"c").unwrap();
        let source = Source::new(&game, std::slice::from_ref(&mods)).unwrap();
        assert_eq!(source.files_in(b"Units"), ["A.DAT", "B.dat", "c.dat"]);
        assert!(source.files_in(b"UNITS\\NONE").is_empty());
        assert!(source.files_in(b"../game").is_empty());
    }

    #[test]
    fn a_loose_entry_file_overrides_its_own_name_only() {
        let tmp = tempfile::tempdir().unwrap();
        let (game, mods) = (tmp.path().join("game"), tmp.path().join("mod"));
        std::fs::create_dir_all(mods.join("static.rlb")).unwrap();
        std::fs::create_dir_all(&game).unwrap();
        let lib = build(&[
            entry("X.msh", 0, b"model"),
            entry("X.ctl", 0, b"old controller"),
            entry("T", 0, b"texture"),
        ])
        .unwrap();
        std::fs::write(game.join("static.rlb"), lib).unwrap();
        std::fs::write(mods.join("static.rlb/x.CTL"), b"controller").unwrap();
        std::fs::write(mods.join("static.rlb/t.tex"), b"new texture").unwrap();
        let source = Source::new(&game, std::slice::from_ref(&mods)).unwrap();
        let bytes = |name: &[u8]| {
            source
                .entry(b"static.rlb", name)
                .unwrap()
                .map(|f| f.bytes().to_vec())
        };
        assert_eq!(
            bytes(b"X.msh").as_deref(),
            Some(&b"model"[..]),
            "another entry of the stem"
        );
        assert_eq!(bytes(b"x.ctl").as_deref(), Some(&b"controller"[..]));
        assert_eq!(
            bytes(b"T").as_deref(),
            Some(&b"new texture"[..]),
            "the entry plus an extension"
        );
        let texm = source
            .read(Path::new("static.rlb/T.texm"))
            .unwrap()
            .unwrap();
        assert_eq!(texm.bytes(), b"new texture", "the loader's request");
        assert_eq!(bytes(b"Y"), None);
    }
}
