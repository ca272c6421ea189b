//! File-system helpers: writers that lose no data on failure, and readers
//! that take a consistent copy of a file other programs may be changing.

use crate::error::{FormatError, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory is written, flushed to disk and renamed over `path`. On any
/// failure the previous file (if any) is left untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FormatError::io(path, &e)
    })
}

/// Reads a whole file consistently ([`FileSnapshot`]), with the path in
/// the error.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    FileSnapshot::read(path).map(FileSnapshot::into_bytes)
}

/// What identifies one version of a file: size, modification time and (on
/// Unix) inode, which changes on the write-then-rename of editors and
/// [`write_atomic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub len: u64,
    pub modified: Option<SystemTime>,
    pub inode: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Self {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Self {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode,
        }
    }

    /// The stamp of the file at `path` now.
    pub fn read(path: &Path) -> Result<Self> {
        let meta = std::fs::metadata(path).map_err(|e| FormatError::io(path, &e))?;
        Ok(Self::of(&meta))
    }
}

/// How often [`FileSnapshot::read`] tries again when the file changed while
/// it was being read.
const SNAPSHOT_ATTEMPTS: usize = 4;

/// A private copy of a whole file, taken while nobody changed it.
///
/// Files another program may truncate, rewrite or delete while we read them
/// (an install or mod directory a modder's tool edits) are never
/// memory-mapped: touching a mapped page past a truncated end raises
/// `SIGBUS`, which ends the process. A snapshot owns its bytes, so a later
/// change on disk cannot reach them; a change during the read (the stamp
/// before and after differs, or the length read is not the length stated)
/// is retried and then reported as an I/O error naming the file.
#[derive(Debug, Clone)]
pub struct FileSnapshot {
    path: PathBuf,
    stamp: Stamp,
    bytes: Vec<u8>,
}

impl FileSnapshot {
    /// Reads `path` whole, consistently.
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let io = |e: std::io::Error| FormatError::io(path, &e);
        for _ in 0..SNAPSHOT_ATTEMPTS {
            let mut file = std::fs::File::open(path).map_err(io)?;
            let before = Stamp::of(&file.metadata().map_err(io)?);
            // One byte more than stated shows a file that grew meanwhile;
            // the allocation follows what is read, not the stated length.
            let mut bytes = Vec::new();
            (&mut file)
                .take(before.len.saturating_add(1))
                .read_to_end(&mut bytes)
                .map_err(io)?;
            let after_open = Stamp::of(&file.metadata().map_err(io)?);
            // The path may meanwhile name a new file (write-then-rename).
            let after_path = Stamp::read(path)?;
            let complete = u64::try_from(bytes.len()).is_ok_and(|n| n == before.len);
            if complete && before == after_open && before == after_path {
                return Ok(Self {
                    path: path.to_path_buf(),
                    stamp: before,
                    bytes,
                });
            }
        }
        Err(io(std::io::Error::other(format!(
            "the file changed while it was read ({SNAPSHOT_ATTEMPTS} attempts)"
        ))))
    }

    /// The file bytes as they were read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, taken out of the snapshot.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The version of the file the bytes are.
    pub fn stamp(&self) -> Stamp {
        self.stamp
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
    fn snapshot_keeps_its_bytes_when_the_file_is_truncated_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.lib");
        std::fs::write(&p, b"NRes and more bytes").unwrap();
        let snapshot = FileSnapshot::read(&p).unwrap();
        assert_eq!(snapshot.file_name(), "a.lib");
        assert_eq!(snapshot.stamp(), Stamp::read(&p).unwrap());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(4)
            .unwrap();
        assert_eq!(snapshot.bytes(), b"NRes and more bytes");
        assert_ne!(snapshot.stamp(), Stamp::read(&p).unwrap());
        std::fs::remove_file(&p).unwrap();
        assert_eq!(snapshot.bytes().len(), 19);
        std::fs::write(&p, b"").unwrap();
        assert_eq!(FileSnapshot::read(&p).unwrap().bytes(), b"");
    }

    #[test]
    fn snapshot_of_a_missing_file_is_an_io_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = FileSnapshot::read(dir.path().join("missing.lib")).unwrap_err();
        assert!(matches!(err.problem, crate::error::Problem::Io { .. }));
        assert!(err.file.as_deref().unwrap().ends_with("missing.lib"));
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.bin");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(&dir.path().join("missing/x.bin"), b"x").unwrap_err();
        assert!(err.to_string().contains("missing/x.bin"));
    }
}
