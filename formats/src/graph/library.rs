//! The archives of an install, each opened once: a name index over the
//! entries (ASCII case-insensitive, duplicates resolve to the first in
//! directory order) and the payload bytes (NRes spans of the file, RsLi rows
//! decoded when opened).

use crate::archive::Mode;
use crate::archive::tool::Archive;
use crate::error::{FormatError, Result};
use crate::gamedir::GameDir;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::Range;
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
        let shown = String::from_utf8_lossy(name).into_owned();
        let lib = self.dir.resolve(name).and_then(|path| {
            let data = crate::fsutil::read_file(&path)?;
            Library::parse(&shown, data)
                .map(Rc::new)
                .map_err(|e| e.in_file(path.display().to_string()))
        });
        self.open.borrow_mut().insert(key, lib.clone());
        lib
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::nres::{NewEntry, build};

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
        assert!(lib.payload(99).is_err());
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
        assert!(libs.get(b"missing.lib").is_err());
    }
}
