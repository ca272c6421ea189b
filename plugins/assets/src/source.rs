//! The `iron://` asset source: one path space over the install and the mod
//! directories, addressing loose files and archive entries alike.
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
//!   selects the Bevy loader);
//! - inside a directory named like an archive (`MOD/Textures.lib/`), the last
//!   component also matches a file of the same stem with any extension, so
//!   `MOD/Textures.lib/T_GRASS.texm` overrides entry `T_GRASS`.
//!
//! A layer that misses (no such file, or the archive lacks the entry) falls
//! through to the next one, so mods override single entries.

use bevy::asset::io::{AssetReader, AssetReaderError, PathStream, Reader, VecReader};
use bevy::log::{debug, info};
use iron3d_formats::archive::{Mode, nres::Nres, rsli::Rsli};
use iron3d_formats::error::{FormatError, Result};
use iron3d_formats::fsutil::{FileSnapshot, Stamp};
use iron3d_formats::gamedir::GameDir;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

/// File extensions (ASCII case-insensitive) of archive files.
pub const ARCHIVE_EXTENSIONS: [&str; 2] = ["lib", "rlb"];

/// Where a path of the source was found.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// An archive file read once per version: a private copy of its bytes
/// (never a memory mapping: a modder's tool may truncate or rewrite it while
/// the game runs), re-read when its size, mtime or inode changes; an NRes
/// directory is parsed once per copy.
#[derive(Debug)]
struct CachedArchive {
    file: FileSnapshot,
    nres: OnceLock<Result<NresDirectory>>,
}

/// The directory fields of one NRes entry, for loaders whose format depends
/// on them (MAT0: `attr1` = flags, `attr2` = version).
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

/// The shared archive cache: each version of an archive file read once.
#[derive(Debug, Default)]
pub struct ArchiveCache {
    archives: Mutex<BTreeMap<PathBuf, Arc<CachedArchive>>>,
}

impl ArchiveCache {
    fn get(&self, path: &Path) -> Result<Arc<CachedArchive>> {
        let now = Stamp::read(path)?;
        let mut archives = self.archives.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(a) = archives.get(path).filter(|a| a.file.stamp() == now) {
            return Ok(a.clone());
        }
        let read = Arc::new(CachedArchive {
            file: FileSnapshot::read(path)?,
            nres: OnceLock::new(),
        });
        archives.insert(path.to_path_buf(), read.clone());
        Ok(read)
    }

    /// Number of archives currently held.
    pub fn len(&self) -> usize {
        self.archives
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// Whether no archive is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The payload (decoded for RsLi) of the entry `name` of `archive`, or
    /// `None` when the archive has no such entry.
    fn entry(&self, archive: &Path, name: &str) -> Result<Option<(Origin, Vec<u8>)>> {
        let cached = self.get(archive)?;
        let bytes = cached.file.bytes();
        let file_name = cached.file.file_name();
        let in_file = |e: FormatError| e.in_file(archive.display().to_string());
        let origin = |index: usize, name: String| Origin::Entry {
            archive: archive.to_path_buf(),
            index,
            name,
        };
        if bytes.starts_with(b"NL") {
            let rsli = Rsli::parse_named(bytes, Mode::Compatible, &file_name).map_err(in_file)?;
            let Some(index) = rsli.find(name.as_bytes()) else {
                return Ok(None);
            };
            let payload = rsli.decode(index).map_err(in_file)?;
            let stored = rsli.entries()[index].display_name();
            Ok(Some((origin(index, stored), payload)))
        } else {
            let dir = cached.nres.get_or_init(|| NresDirectory::parse(bytes));
            let dir = dir.as_ref().map_err(|e| in_file(e.clone()))?;
            let Some(&index) = dir.by_name.get(&name.as_bytes().to_ascii_lowercase()) else {
                return Ok(None);
            };
            let (stored, range) = &dir.entries[index];
            // The range was checked against the file by `Nres::parse`.
            let payload = bytes.get(range.clone()).unwrap_or_default().to_vec();
            Ok(Some((origin(index, stored.name.clone()), payload)))
        }
    }

    /// The directory of the NRes archive file `archive`, directory order.
    /// RsLi archives have no entry attributes: an error.
    fn directory(&self, archive: &Path) -> Result<Vec<EntryInfo>> {
        let cached = self.get(archive)?;
        let bytes = cached.file.bytes();
        let in_file = |e: FormatError| e.in_file(archive.display().to_string());
        if bytes.starts_with(b"NL") {
            return Err(in_file(FormatError::missing(
                "NRes",
                "an NRes directory (an RsLi archive has no entry attributes)",
            )));
        }
        let dir = cached.nres.get_or_init(|| NresDirectory::parse(bytes));
        let dir = dir.as_ref().map_err(|e| in_file(e.clone()))?;
        Ok(dir.entries.iter().map(|(info, _)| info.clone()).collect())
    }
}

/// One layer of the path space: the game directory or a mod directory.
#[derive(Debug)]
struct Layer {
    dir: GameDir,
}

/// The resolver behind the `iron://` source (shared by the reader, the
/// watcher and the loaders, which use it to name the origin of bytes in
/// errors).
#[derive(Debug)]
pub struct IronSource {
    /// Layer roots, highest priority first: the last mod directory, ...,
    /// the game dir.
    roots: Vec<PathBuf>,
    /// One [`GameDir`] per root; replaced by [`IronSource::refresh`] (their
    /// directory listings are cached).
    layers: RwLock<Vec<Layer>>,
    archives: ArchiveCache,
    /// Every path read through the asset reader and a hash of the bytes it
    /// last resolved to (`None`: missing or unreadable at the last check),
    /// for change detection.
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
    roots
        .iter()
        .map(|r| {
            Ok(Layer {
                dir: GameDir::open(r.clone())?,
            })
        })
        .collect()
}

fn is_archive_name(name: &Path) -> bool {
    name.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ARCHIVE_EXTENSIONS.iter().any(|a| a.eq_ignore_ascii_case(e)))
}

fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}

impl IronSource {
    /// A source over `game_dir` with `mod_dirs` layered on top (later ones
    /// win). Every directory must exist.
    pub fn new(game_dir: &Path, mod_dirs: &[PathBuf]) -> Result<Self> {
        let mut roots: Vec<PathBuf> = mod_dirs.iter().rev().cloned().collect();
        roots.push(game_dir.to_path_buf());
        Ok(Self {
            layers: RwLock::new(open_layers(&roots)?),
            roots,
            archives: ArchiveCache::default(),
            delivered: Mutex::new(BTreeMap::new()),
        })
    }

    /// The layer roots, highest priority first (the game dir last).
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Forgets the cached directory listings (files were added or removed).
    pub fn refresh(&self) {
        if let Ok(fresh) = open_layers(&self.roots) {
            *self.layers.write().unwrap_or_else(|e| e.into_inner()) = fresh;
        }
    }

    /// Reads `path` for the asset reader and remembers a hash of its bytes.
    pub fn deliver(&self, path: &Path) -> Result<Option<Vec<u8>>> {
        let found = self.read(path)?;
        if let Some((_, bytes)) = &found {
            self.delivered
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path.to_path_buf(), Some(content_hash(bytes)));
        }
        Ok(found.map(|(_, bytes)| bytes))
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
                Ok(Some((_, bytes))) => Some(content_hash(&bytes)),
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

    /// The shared archive cache.
    pub fn archives(&self) -> &ArchiveCache {
        &self.archives
    }

    /// Resolves `path` to its origin and bytes; `Ok(None)` when no layer has
    /// it (or it has a `..` component: nothing outside the layer roots is
    /// reachable). Errors are I/O errors and archives that do not parse.
    pub fn read(&self, path: &Path) -> Result<Option<(Origin, Vec<u8>)>> {
        let text = path.to_string_lossy();
        let parts: Vec<&str> = text
            .split(['/', '\\'])
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        if parts.is_empty() || parts.contains(&"..") {
            return Ok(None);
        }
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        let game = layers.len() - 1;
        for (i, layer) in layers.iter().enumerate() {
            if let Some(found) = self.read_in(layer, &parts)? {
                if i == game {
                    debug!("iron://{text} -> {}", found.0);
                } else {
                    info!("iron://{text} -> {} (mod override)", found.0);
                }
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// The origin of `path` (reads it: the loaders call this only on errors).
    pub fn origin(&self, path: &Path) -> Option<Origin> {
        self.read(path).ok().flatten().map(|(origin, _)| origin)
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
        let text = archive.to_string_lossy();
        if text.split(['/', '\\']).any(|p| p == "..") {
            return Ok(None);
        }
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        for layer in layers.iter() {
            match layer.dir.resolve(text.as_bytes()) {
                Ok(found) if is_archive_file(&found) => {
                    return self.archives.directory(&found).map(Some);
                }
                _ => continue,
            }
        }
        Ok(None)
    }

    /// Whether `path` is a directory in some layer.
    pub fn is_dir(&self, path: &Path) -> bool {
        let text = path.to_string_lossy();
        let layers = self.layers.read().unwrap_or_else(|e| e.into_inner());
        layers.iter().any(|l| {
            l.dir
                .resolve(text.as_bytes())
                .is_ok_and(|p| p.is_dir() && !is_archive_file(&p))
        })
    }

    fn read_in(&self, layer: &Layer, parts: &[&str]) -> Result<Option<(Origin, Vec<u8>)>> {
        let mut at = layer.dir.root().to_path_buf();
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            let found = match layer.dir.resolve_from(&at, part.as_bytes()) {
                Ok(p) => Some(p),
                Err(_) if last && is_archive_name(&at) && at.is_dir() => stem_match(&at, part),
                Err(_) => None,
            };
            let Some(found) = found else {
                return Ok(None);
            };
            if found.is_dir() {
                if last {
                    return Ok(None);
                }
                at = found;
            } else if last {
                let bytes = FileSnapshot::read(&found)?.into_bytes();
                return Ok(Some((Origin::Loose(found), bytes)));
            } else if i + 2 == parts.len() && is_archive_file(&found) {
                let entry = parts[i + 1];
                return match self.archives.entry(&found, entry)? {
                    Some(hit) => Ok(Some(hit)),
                    None if stem(entry) != entry => self.archives.entry(&found, stem(entry)),
                    None => Ok(None),
                };
            } else {
                return Ok(None);
            }
        }
        Ok(None)
    }
}

/// Whether a component of `path` is one of `names` (lower-case file names),
/// or its last component has the stem of one of them.
fn names_touched(path: &Path, names: &[String]) -> bool {
    let text = path.to_string_lossy().to_ascii_lowercase();
    let parts: Vec<&str> = text.split(['/', '\\']).collect();
    let last = parts.last().map_or("", |l| stem(l));
    names
        .iter()
        .any(|n| parts.contains(&n.as_str()) || stem(n) == last)
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

/// The file of `dir` whose stem equals `name`'s stem (ASCII
/// case-insensitive), first in byte order.
fn stem_match(dir: &Path, name: &str) -> Option<PathBuf> {
    let want = stem(name);
    let mut hits: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| {
            let file = e.file_name();
            let file = file.to_string_lossy();
            stem(&file).eq_ignore_ascii_case(want) && e.path().is_file()
        })
        .map(|e| e.path())
        .collect();
    hits.sort();
    hits.into_iter().next()
}

/// The Bevy [`AssetReader`] of the `iron://` source.
#[derive(Debug, Clone)]
pub struct IronReader(pub Arc<IronSource>);

fn reader_error(err: FormatError) -> AssetReaderError {
    AssetReaderError::Io(Arc::new(std::io::Error::other(err.to_string())))
}

impl AssetReader for IronReader {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        match self.0.deliver(path) {
            Ok(Some(bytes)) => Ok(VecReader::new(bytes)),
            Ok(None) => Err(AssetReaderError::NotFound(path.to_path_buf())),
            Err(err) => Err(reader_error(err)),
        }
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        // Meta files are not part of the original data: always the defaults.
        Err::<VecReader, _>(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn read_directory<'a>(
        &'a self,
        path: &'a Path,
    ) -> Result<Box<PathStream>, AssetReaderError> {
        Err(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn is_directory<'a>(&'a self, path: &'a Path) -> Result<bool, AssetReaderError> {
        Ok(self.0.is_dir(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_and_touched_names() {
        assert_eq!(stem("T_GRASS.texm"), "T_GRASS");
        assert_eq!(stem("T_GRASS"), "T_GRASS");
        assert_eq!(stem(".hidden"), ".hidden");
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
        let source = IronSource::new(&game, &[]).unwrap();
        assert!(source.read(Path::new("../secret.txt")).unwrap().is_none());
        assert!(
            source
                .read(Path::new("a/../../secret.txt"))
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn archive_directories_give_entry_attributes_from_the_highest_layer() {
        use iron3d_formats::archive::nres::{NewEntry, build};
        let tmp = tempfile::tempdir().unwrap();
        let (game, mods) = (tmp.path().join("game"), tmp.path().join("mod"));
        let write = |dir: &Path, attr2: u32| {
            std::fs::create_dir_all(dir).unwrap();
            let entry = NewEntry {
                name: b"M_ONE".to_vec(),
                type_id: 7,
                attr1: 0x14,
                attr2,
                attr3: 9,
                payload: b"x",
            };
            std::fs::write(dir.join("Material.lib"), build(&[entry]).unwrap()).unwrap();
        };
        write(&game, 2);
        std::fs::write(game.join("plain.lib"), b"not an archive").unwrap();
        let source = IronSource::new(&game, &[]).unwrap();
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
        let layered = IronSource::new(&game, std::slice::from_ref(&mods)).unwrap();
        let dir = layered
            .archive_directory(Path::new("Material.lib"))
            .unwrap();
        assert_eq!(dir, Some(vec![EntryInfo { attr2: 4, ..want }]));
    }

    #[test]
    fn an_archive_is_read_once_and_again_when_replaced() {
        use iron3d_formats::archive::nres::{NewEntry, build};
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("A.lib");
        let write = |payload: &[u8]| {
            let entry = NewEntry {
                name: b"E".to_vec(),
                type_id: 0,
                attr1: 0,
                attr2: 0,
                attr3: 0,
                payload,
            };
            iron3d_formats::fsutil::write_atomic(&lib, &build(&[entry]).unwrap()).unwrap();
        };
        write(b"one");
        let source = IronSource::new(tmp.path(), &[]).unwrap();
        for _ in 0..3 {
            let (origin, bytes) = source.read(Path::new("a.LIB/e")).unwrap().unwrap();
            assert_eq!(bytes, b"one");
            assert_eq!(
                origin,
                Origin::Entry {
                    archive: lib.clone(),
                    index: 0,
                    name: "E".into()
                }
            );
        }
        assert_eq!(source.archives().len(), 1);
        write(b"two!");
        let (_, bytes) = source.read(Path::new("A.lib/E.texm")).unwrap().unwrap();
        assert_eq!(bytes, b"two!");
        assert_eq!(source.archives().len(), 1);
    }
}
