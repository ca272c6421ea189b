//! Opening an archive file: an [`Archive`] of either kind (detected by its
//! magic) or one NRes entry, with the file (and the entry) named in every
//! error.

use super::Mode;
use super::nres::{self, Nres};
use super::rsli::Rsli;
use crate::error::{FormatError, Problem, Result};
use crate::fsutil::FileSnapshot;
use crate::fsutil::read_file;
use std::path::Path;

/// An opened archive of either kind.
pub enum Archive<'a> {
    Nres(Nres<'a>),
    Rsli(Rsli<'a>),
}

impl<'a> Archive<'a> {
    /// Detects the kind by magic and parses `data` (the file `file_name`).
    pub fn parse(data: &'a [u8], mode: Mode, file_name: &str) -> Result<Self> {
        if data.starts_with(nres::MAGIC) {
            Nres::parse(data, mode).map(Archive::Nres)
        } else if data.starts_with(b"NL") {
            Rsli::parse_named(data, mode, file_name).map(Archive::Rsli)
        } else {
            Err(FormatError::new(
                "archive",
                0,
                Problem::BadMagic {
                    expected: "\"NRes\" or \"NL\"".into(),
                    found: crate::cursor::show_bytes(&data[..data.len().min(4)]),
                },
            ))
        }
    }

    /// The retail quirks the reader accepted (compatible mode).
    pub fn quirks(&self) -> &[FormatError] {
        match self {
            Archive::Nres(a) => a.quirks(),
            Archive::Rsli(a) => a.quirks(),
        }
    }

    /// The entry named `name`: NRes ASCII case-insensitive; RsLi as the
    /// engine looks it up (upper-cased), then case-insensitively for names
    /// stored in lower case.
    pub fn find(&self, name: &str) -> Option<usize> {
        let name = name.as_bytes();
        match self {
            Archive::Nres(a) => a.find(name),
            Archive::Rsli(a) => a.find(name).or_else(|| {
                a.entries()
                    .iter()
                    .position(|e| e.name().eq_ignore_ascii_case(name))
            }),
        }
    }

    /// Decodes every packed payload (NRes payloads are stored as they are),
    /// failing at the first one that does not decode.
    pub fn decode_all(&self) -> Result<()> {
        if let Archive::Rsli(a) = self {
            for i in 0..a.len() {
                a.decode(i)?;
            }
        }
        Ok(())
    }
}

/// Reads the archive `file` (a private copy, see [`FileSnapshot`]), parses
/// it in `mode` and hands it to `f`; errors of both name the file.
pub fn with_archive<T>(
    file: &Path,
    mode: Mode,
    f: impl FnOnce(&Archive) -> Result<T>,
) -> Result<T> {
    let name = file.display().to_string();
    let copy = FileSnapshot::read(file)?;
    let archive =
        Archive::parse(copy.bytes(), mode, &copy.file_name()).map_err(|e| e.in_file(&name))?;
    f(&archive).map_err(|e| e.in_file(&name))
}

/// Reads `archive` (an NRes file) and hands the payload of entry `entry`
/// (ASCII case-insensitive) to `f`, with file and entry context on errors.
pub fn with_nres_entry<T>(
    archive: &Path,
    entry: &str,
    f: impl FnOnce(&Nres, usize, &[u8]) -> Result<T>,
) -> Result<T> {
    let file = archive.display().to_string();
    let data = read_file(archive)?;
    let nres = Nres::parse(&data, Mode::Compatible).map_err(|e| e.in_file(&file))?;
    let index = nres
        .find(entry.as_bytes())
        .ok_or_else(|| FormatError::missing("NRes", format!("entry '{entry}'")).in_file(&file))?;
    f(&nres, index, nres.payload(index)).map_err(|e| {
        e.in_entry(index, nres.entries()[index].display_name())
            .in_file(&file)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::nres::NewEntry;
    use crate::archive::rsli::{self, Method, NewRsliEntry};

    mod sample_archives {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/sample_archives.rs"
        ));
    }
    use sample_archives::{sample_nres, sample_rsli};

    #[test]
    fn verify_reports_structured_errors() {
        let dir = tempfile::tempdir().unwrap();
        let n = dir.path().join("n.lib");
        std::fs::write(&n, sample_nres()).unwrap();
        with_archive(&n, Mode::Strict, |a| a.decode_all()).unwrap();
        let p = dir.path().join("a.lib");
        let mut f = sample_rsli();
        std::fs::write(&p, &f).unwrap();
        with_archive(&p, Mode::Strict, |a| a.decode_all()).unwrap();
        f.pop(); // the last row's range now ends past the end of the file
        std::fs::write(&p, &f).unwrap();
        let e = with_archive(&p, Mode::Strict, |a| a.decode_all()).unwrap_err();
        assert!(e.file.is_some() && e.entry.is_some(), "{e}");
        std::fs::write(&p, b"junk").unwrap();
        assert!(with_archive(&p, Mode::Compatible, |a| a.decode_all()).is_err());
    }
}
