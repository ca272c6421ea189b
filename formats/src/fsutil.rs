//! File-system helpers: writers that lose no data on failure, and readers
//! that take a consistent copy of a file other programs may be changing.

use crate::error::{FormatError, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Writes `bytes` to `path` atomically ([`OutputFile`]): on any failure
/// the previous file (if any) is left untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = OutputFile::create(path)?;
    out.write_all(bytes)
        .map_err(|e| FormatError::io(path, &e))?;
    out.finish()
}

/// An output file written whole or not at all: the bytes go to a fresh
/// temporary file in the target's directory (created exclusively, so a
/// link or file already at that name is never followed or reused), which
/// [`OutputFile::finish`] flushes to disk and renames over the target. A
/// target that exists and is not a regular file (a directory, a device, a
/// link) is refused before anything is written; dropped unfinished, the
/// temporary file goes.
#[derive(Debug)]
pub struct OutputFile {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<std::fs::File>,
}

/// How many temporary names [`OutputFile::create`] tries.
const TEMP_ATTEMPTS: u32 = 16;

impl OutputFile {
    /// Opens the temporary file for `target`.
    pub fn create(target: &Path) -> Result<Self> {
        let fail = |e: std::io::Error| FormatError::io(target, &e);
        match std::fs::symlink_metadata(target) {
            Ok(meta) if !meta.file_type().is_file() => {
                return Err(fail(std::io::Error::other(
                    "exists and is not a regular file: refused as an output",
                )));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(e)),
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let mut last = None;
        for _ in 0..TEMP_ATTEMPTS {
            let tmp = dir.join(format!(".{name}.{}-{}.part", std::process::id(), unique()));
            let opened = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp);
            match opened {
                Ok(file) => {
                    return Ok(Self {
                        target: target.to_path_buf(),
                        tmp,
                        file: Some(file),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(fail(e)),
            }
        }
        Err(fail(last.unwrap_or_else(|| {
            std::io::Error::other("no temporary name")
        })))
    }

    /// The path it is written to.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes the bytes to disk and renames them over the target.
    pub fn finish(mut self) -> Result<()> {
        let fail = |e: std::io::Error| FormatError::io(&self.target, &e);
        let file = self.file.take().expect("an unfinished output has its file");
        file.sync_all().map_err(fail)?;
        drop(file);
        std::fs::rename(&self.tmp, &self.target).map_err(fail)
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().map_or(Ok(0), |f| f.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), std::fs::File::flush)
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A number no other temporary name of this process has had.
fn unique() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Reads a whole file that may come from anyone (a save, a replay, key
/// bindings): a path that is not a regular file (a device such as
/// `/dev/zero`, a directory, a pipe) or that holds more than `limit`
/// bytes is refused before its bytes are read, and no more than `limit`
/// bytes are ever read.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| FormatError::io(path, &e);
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.file_type().is_file() {
        return Err(io(std::io::Error::other("not a regular file")));
    }
    if meta.len() > limit {
        return Err(io(std::io::Error::other(format!(
            "{} bytes, more than the {limit} such a file may have",
            meta.len()
        ))));
    }
    let bytes = read_file(path)?;
    if bytes.len() as u64 > limit {
        return Err(io(std::io::Error::other(format!(
            "more than the {limit} bytes such a file may have"
        ))));
    }
    Ok(bytes)
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

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_output_replaces_a_regular_file_and_refuses_anything_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.json");
        write_atomic(&out, b"one").unwrap();
        write_atomic(&out, b"two").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        // A directory, a link (to a file elsewhere) and a missing parent
        // are refused, naming the path; the link's file is untouched.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"kept").unwrap();
        let link = dir.path().join("link.json");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let missing = dir.path().join("no/such/out.json");
        for target in [&sub, &link, &missing] {
            let e = write_atomic(target, b"x").unwrap_err().to_string();
            assert!(e.contains(&target.display().to_string()), "{e}");
        }
        for target in [&sub, &link] {
            let e = write_atomic(target, b"x").unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        assert_eq!(std::fs::read(&victim).unwrap(), b"kept");
        // Nothing is left behind.
        assert_eq!(
            names(dir.path()),
            ["link.json", "out.json", "sub", "victim"]
        );
    }

    #[test]
    fn an_output_dropped_unfinished_leaves_the_target_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("trace.jsonl");
        std::fs::write(&out, b"old").unwrap();
        let mut file = OutputFile::create(&out).unwrap();
        file.write_all(b"half a").unwrap();
        drop(file);
        assert_eq!(std::fs::read(&out).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["trace.jsonl"]);
    }

    #[test]
    fn a_bounded_read_refuses_devices_directories_and_oversized_files() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.ron");
        std::fs::write(&big, vec![b'x'; 101]).unwrap();
        let e = read_bounded(&big, 100).unwrap_err().to_string();
        assert!(e.contains("101 bytes, more than the 100"), "{e}");
        assert_eq!(read_bounded(&big, 101).unwrap().len(), 101);
        let e = read_bounded(dir.path(), 100).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        #[cfg(target_os = "linux")]
        {
            let e = read_bounded(Path::new("/dev/zero"), 100).unwrap_err();
            let e = e.to_string();
            assert!(
                e.starts_with("/dev/zero") && e.ends_with("not a regular file"),
                "{e}"
            );
        }
    }

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
