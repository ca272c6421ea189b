//! A memory-mapped archive file: the owner of the bytes that the zero-copy
//! readers borrow from (the CLI and the Bevy asset source use it).

use crate::error::{FormatError, Result};
use memmap2::Mmap;
use std::path::{Path, PathBuf};

/// A read-only mapping of a whole file.
#[derive(Debug)]
pub struct MappedFile {
    path: PathBuf,
    /// `None` for an empty file (a zero-length mapping is not portable).
    map: Option<Mmap>,
}

impl MappedFile {
    /// Maps `path` read-only.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, &e))?;
        let len = file
            .metadata()
            .map_err(|e| FormatError::io(path, &e))?
            .len();
        let map = if len == 0 {
            None
        } else {
            // SAFETY: the mapping is read-only. Our own writers never modify
            // a file in place (`fsutil::write_atomic` writes a new file and
            // renames it), so a mapped archive only changes under us if
            // another program truncates it, which the OS reports as a fault
            // like any other read error of a mapped file.
            Some(unsafe { Mmap::map(&file) }.map_err(|e| FormatError::io(path, &e))?)
        };
        Ok(Self {
            path: path.to_path_buf(),
            map,
        })
    }

    /// The file bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// The path the file was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file name (last path component), for errors and name-bound quirks.
    pub fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_files_including_empty_ones() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.lib");
        std::fs::write(&p, b"NRes").unwrap();
        let m = MappedFile::open(&p).unwrap();
        assert_eq!(m.bytes(), b"NRes");
        assert_eq!(m.file_name(), "a.lib");
        std::fs::write(&p, b"").unwrap();
        assert_eq!(MappedFile::open(&p).unwrap().bytes(), b"");
        let err = MappedFile::open(dir.path().join("missing")).unwrap_err();
        assert!(err.to_string().contains("missing"));
    }
}
