//! The archives of an install, each opened once: a name index over the
//! entries (ASCII case-insensitive, duplicates resolve to the first in
//! directory order) and the payload bytes (NRes spans of the file, RsLi rows
//! decoded when opened).

use crate::archive::Mode;
use crate::archive::open::Archive;
use crate::error::{FormatError, Result};
use crate::gamedir::GameDir;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One entry of an opened archive.
#[derive(Debug, Clone)]
pub struct LibEntry {
    pub name: Vec<u8>,
    /// NRes type id (0 for RsLi rows).
    pub type_id: u32,
    pub attr1: u32,
    pub attr2: u32,
    payload: Stored,
}

#[derive(Debug, Clone)]
enum Stored {
    /// A span of the archive file (NRes).
    Span(Range<usize>),
    /// A decoded RsLi row.
    Decoded(Vec<u8>),
    /// A row that did not decode.
    Broken(FormatError),
}

/// An opened archive.
#[derive(Debug)]
pub struct Library {
    /// The archive name as the data spells it.
    pub name: String,
    data: Vec<u8>,
    pub entries: Vec<LibEntry>,
    index: BTreeMap<Vec<u8>, usize>,
}

impl Library {
    /// Parses archive bytes (NRes or RsLi, compatible mode).
    pub fn parse(name: &str, data: Vec<u8>) -> Result<Self> {
        let entries = match Archive::parse(&data, Mode::Compatible, name)? {
            Archive::Nres(nres) => (0..nres.entries().len())
                .map(|i| {
                    let e = &nres.entries()[i];
                    let payload = nres.payload(i);
                    LibEntry {
                        name: e.name().to_vec(),
                        type_id: e.type_id,
                        attr1: e.attr1,
                        attr2: e.attr2,
                        payload: span_of(&data, payload),
                    }
                })
                .collect::<Vec<_>>(),
            Archive::Rsli(rsli) => (0..rsli.len())
                .map(|i| LibEntry {
                    name: rsli.entries()[i].name().to_vec(),
                    type_id: 0,
                    attr1: 0,
                    attr2: 0,
                    payload: match rsli.decode(i) {
                        Ok(bytes) => Stored::Decoded(bytes),
                        Err(e) => Stored::Broken(e),
                    },
                })
                .collect(),
        };
        let mut index = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            index.entry(e.name.to_ascii_uppercase()).or_insert(i);
        }
        Ok(Self {
            name: name.to_string(),
            data,
            entries,
            index,
        })
    }

    /// An archive with no entries (a mod layer may add them all).
    fn empty(name: &str) -> Self {
        Self {
            name: name.to_string(),
            data: Vec::new(),
            entries: Vec::new(),
            index: BTreeMap::new(),
        }
    }

    /// Puts the entries of `upper` (a mod layer's archive of the same name)
    /// over this one's: an entry of the same name is replaced, a new one is
    /// added.
    fn overlay(&mut self, upper: &Library) {
        for (i, entry) in upper.entries.iter().enumerate() {
            let payload = match upper.payload(i) {
                Ok(bytes) => Stored::Decoded(bytes.to_vec()),
                Err(e) => Stored::Broken(e),
            };
            let entry = LibEntry {
                name: entry.name.clone(),
                type_id: entry.type_id,
                attr1: entry.attr1,
                attr2: entry.attr2,
                payload,
            };
            match self.find(&entry.name) {
                Some(at) => self.entries[at] = entry,
                None => self.push(entry, &[]),
            }
        }
    }

    /// Puts the loose files of `dir` (a mod layer's directory named like
    /// the archive) over its entries: a file replaces the entry of its name,
    /// else of its stem (`T_GRASS.texm` -> `T_GRASS`), keeping the entry's
    /// directory fields; another file is added, found by its name and stem.
    fn overlay_loose(&mut self, dir: &Path) -> Result<()> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| FormatError::io(dir, &e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .map(|n| n.as_encoded_bytes().to_vec())
                .unwrap_or_default();
            let stem = match name.iter().rposition(|&b| b == b'.') {
                Some(dot) if dot > 0 => name[..dot].to_vec(),
                _ => name.clone(),
            };
            let payload = Stored::Decoded(crate::fsutil::read_file(&path)?);
            match self.find(&name).or_else(|| self.find(&stem)) {
                Some(at) => self.entries[at].payload = payload,
                None => {
                    let entry = LibEntry {
                        name,
                        type_id: 0,
                        attr1: 0,
                        attr2: 0,
                        payload,
                    };
                    self.push(entry, &[stem]);
                }
            }
        }
        Ok(())
    }

    /// Adds `entry`, found by its name and by each of `aliases` not taken.
    fn push(&mut self, entry: LibEntry, aliases: &[Vec<u8>]) {
        let at = self.entries.len();
        for key in std::iter::once(&entry.name).chain(aliases) {
            self.index.entry(key.to_ascii_uppercase()).or_insert(at);
        }
        self.entries.push(entry);
    }

    /// The entry of a name (ASCII case-insensitive, first in directory order).
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        self.index.get(&name.to_ascii_uppercase()).copied()
    }

    /// The payload of entry `index` (an RsLi row that failed to decode gives
    /// its error).
    pub fn payload(&self, index: usize) -> Result<&[u8]> {
        let entry = self.entries.get(index).ok_or_else(|| {
            FormatError::missing("archive", format!("entry #{index} of {}", self.name))
        })?;
        match &entry.payload {
            Stored::Span(range) => Ok(self.data.get(range.clone()).unwrap_or_default()),
            Stored::Decoded(bytes) => Ok(bytes),
            Stored::Broken(e) => Err(e.clone()),
        }
    }
}

/// Where `payload` (a sub-slice of `data`, as the NRes view hands it out)
/// lies in `data`; a slice from elsewhere (an empty payload) is copied.
fn span_of(data: &[u8], payload: &[u8]) -> Stored {
    let start = payload.as_ptr().addr().checked_sub(data.as_ptr().addr());
    match start {
        Some(start) if !payload.is_empty() => {
            let end = start
                .checked_add(payload.len())
                .filter(|&e| e <= data.len());
            match end {
                Some(end) => Stored::Span(start..end),
                None => Stored::Decoded(payload.to_vec()),
            }
        }
        _ => Stored::Decoded(payload.to_vec()),
    }
}

/// The archives of an install, opened on first use and kept.
#[derive(Debug)]
pub struct Libraries<'d> {
    dir: &'d GameDir,
    open: RefCell<BTreeMap<Vec<u8>, Result<Rc<Library>>>>,
}

impl<'d> Libraries<'d> {
    pub fn new(dir: &'d GameDir) -> Self {
        Self {
            dir,
            open: RefCell::new(BTreeMap::new()),
        }
    }

    /// The install.
    pub fn dir(&self) -> &'d GameDir {
        self.dir
    }

    /// The archive a reference names (legacy path, any case), opened once.
    pub fn get(&self, name: &[u8]) -> Result<Rc<Library>> {
        let key: Vec<u8> = name
            .iter()
            .map(|&b| {
                if b == b'\\' {
                    b'/'
                } else {
                    b.to_ascii_uppercase()
                }
            })
            .collect();
        if let Some(lib) = self.open.borrow().get(&key) {
            return lib.clone();
        }
        let lib = self.layered(name).map(Rc::new);
        self.open.borrow_mut().insert(key, lib.clone());
        lib
    }

    /// The archive `name` with every mod layer's entries over the
    /// install's: each layer's archive file of that name, or its directory
    /// of that name holding loose entry files.
    fn layered(&self, name: &[u8]) -> Result<Library> {
        let shown = String::from_utf8_lossy(name).into_owned();
        let layers = self.dir.layers_of(name);
        if layers.is_empty() {
            // No layer has it: the install's error names what is missing.
            self.dir.resolve(name)?;
        }
        let mut merged: Option<Library> = None;
        for path in layers {
            if path.is_dir() {
                let lib = merged.get_or_insert_with(|| Library::empty(&shown));
                lib.overlay_loose(&path)?;
                continue;
            }
            let data = crate::fsutil::read_file(&path)?;
            let layer =
                Library::parse(&shown, data).map_err(|e| e.in_file(path.display().to_string()))?;
            match &mut merged {
                Some(lib) => lib.overlay(&layer),
                None => merged = Some(layer),
            }
        }
        merged.ok_or_else(|| FormatError::missing("archive", shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::nres::{NewEntry, build};
    use crate::error::expect_error;

    fn entry<'p>(name: &str, payload: &'p [u8]) -> NewEntry<'p> {
        NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: 7,
            attr1: 1,
            attr2: 2,
            attr3: 0,
            payload,
        }
    }

    #[test]
    fn nres_entries_found_case_insensitively_with_payloads() {
        let data = build(&[
            entry("Empty", b""),
            entry("Rock", b"abc"),
            entry("ROCK", b"x"),
        ])
        .unwrap();
        let lib = Library::parse("t.lib", data).unwrap();
        assert_eq!(lib.entries.len(), 3);
        let rock = lib.find(b"rOcK").unwrap();
        assert_eq!(
            lib.payload(rock).unwrap(),
            b"abc",
            "first of a duplicate name"
        );
        let empty = lib.find(b"EMPTY").unwrap();
        assert_eq!(lib.payload(empty).unwrap(), b"");
        assert!(lib.find(b"none").is_none());
        expect_error(lib.payload(99), 0, "archive: missing: entry #99 of t.lib");
    }

    #[test]
    fn libraries_open_each_archive_once_and_report_missing_ones() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("A.LIB"),
            build(&[entry("x", b"1")]).unwrap(),
        )
        .unwrap();
        let dir = GameDir::open(tmp.path()).unwrap();
        let libs = Libraries::new(&dir);
        let a = libs.get(b"a.lib").unwrap();
        let again = libs.get(b"A.lib").unwrap();
        assert!(Rc::ptr_eq(&a, &again));
        let e = expect_error(
            libs.get(b"missing.lib"),
            0,
            &format!(
                "game dir: missing: \"missing.lib\" (legacy path \"missing.lib\") in {}",
                tmp.path().display()
            ),
        );
        assert_eq!(e.file, None);
    }
}
