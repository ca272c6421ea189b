//! The structured error shared by every reader and writer of the data layer.
//!
//! A reader reports *where* (byte offset inside the buffer it was given) and
//! *what was expected*. Callers that know more add context on the way up:
//! the entry of the archive the bytes came from ([`FormatError::in_entry`]),
//! the file ([`FormatError::in_file`]), and an offset base when the buffer was
//! a slice of a larger one ([`FormatError::shifted`]). The `Display` form is one
//! actionable line: `file: entry #3 'NAME': offset 0x1c: format: problem`.

use std::fmt;

/// Result alias of the data layer.
pub type Result<T, E = FormatError> = std::result::Result<T, E>;

/// The entry of a container (archive, nested model) an error happened in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRef {
    /// Index in directory order.
    pub index: usize,
    /// Name as stored (lossy UTF-8 for display).
    pub name: String,
}

/// What went wrong, as "what was expected" versus what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The data ended before a field of `needed` bytes; `available` remained.
    Truncated { needed: u64, available: u64 },
    /// A magic or signature differs.
    BadMagic { expected: String, found: String },
    /// A value is outside what the format allows.
    Invalid { expected: String, found: String },
    /// Arithmetic on stored sizes/counts/offsets would overflow.
    Overflow { what: String },
    /// Bytes remain after the last structure of a payload.
    TrailingBytes { count: u64 },
    /// A feature the format defines that this reader does not handle.
    Unsupported { what: String },
    /// The file was built for another version of the engine (a script's
    /// function-table length): well formed, but not this engine's.
    VersionMismatch { expected: String, found: String },
    /// A known retail irregularity that strict mode refuses (compatible mode
    /// accepts it under this name).
    Quirk { name: &'static str, detail: String },
    /// A named thing (entry, resource, file) is absent.
    Missing { what: String },
    /// An operating-system error while reading or writing a file.
    Io { message: String },
}

/// A structured error of the data layer: its [`ErrorDetail`] behind one
/// pointer, so every `Result` of a reader stays small on the happy path.
/// Fields read and write through `Deref` (`err.offset`, `err.problem`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError(Box<ErrorDetail>);

/// Where a [`FormatError`] happened and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorDetail {
    /// The file the bytes came from, when known.
    pub file: Option<String>,
    /// The container entry, when the bytes were an entry's payload.
    pub entry: Option<EntryRef>,
    /// Byte offset of the problem, relative to `file` when the file is known
    /// and no entry is set, else relative to the entry payload.
    pub offset: u64,
    /// The format being read (`"NRes"`, `"Texm"`, ...).
    pub format: &'static str,
    /// What was expected and found.
    pub problem: Problem,
}

impl FormatError {
    /// A new error at `offset` of a `format` buffer.
    pub fn new(format: &'static str, offset: u64, problem: Problem) -> Self {
        Self(Box::new(ErrorDetail {
            file: None,
            entry: None,
            offset,
            format,
            problem,
        }))
    }

    /// Shorthand for [`Problem::Invalid`].
    pub fn invalid(
        format: &'static str,
        offset: u64,
        expected: impl Into<String>,
        found: impl fmt::Display,
    ) -> Self {
        Self::new(
            format,
            offset,
            Problem::Invalid {
                expected: expected.into(),
                found: found.to_string(),
            },
        )
    }

    /// Shorthand for [`Problem::Overflow`].
    pub fn overflow(format: &'static str, offset: u64, what: impl Into<String>) -> Self {
        Self::new(format, offset, Problem::Overflow { what: what.into() })
    }

    /// Shorthand for [`Problem::Missing`].
    pub fn missing(format: &'static str, what: impl Into<String>) -> Self {
        Self::new(format, 0, Problem::Missing { what: what.into() })
    }

    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, err: &std::io::Error) -> Self {
        Self::new(
            "file",
            0,
            Problem::Io {
                message: err.to_string(),
            },
        )
        .in_file(path.display().to_string())
    }

    /// Sets the file, unless an inner layer already named one.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        if self.file.is_none() {
            self.file = Some(file.into());
        }
        self
    }

    /// Sets the container entry, unless an inner layer already named one.
    pub fn in_entry(mut self, index: usize, name: impl Into<String>) -> Self {
        if self.entry.is_none() {
            self.entry = Some(EntryRef {
                index,
                name: name.into(),
            });
        }
        self
    }

    /// Adds `base` to the offset: the buffer the error was found in started at
    /// `base` of the buffer the caller knows.
    pub fn shifted(mut self, base: u64) -> Self {
        self.offset = self.offset.saturating_add(base);
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Truncated { needed, available } => write!(
                f,
                "truncated: expected {needed} more bytes, {available} available"
            ),
            Problem::BadMagic { expected, found } => {
                write!(f, "bad magic: expected {expected}, found {found}")
            }
            Problem::Invalid { expected, found } => write!(f, "expected {expected}, found {found}"),
            Problem::Overflow { what } => write!(f, "arithmetic overflow in {what}"),
            Problem::TrailingBytes { count } => {
                write!(f, "expected end of data, {count} bytes remain")
            }
            Problem::Unsupported { what } => write!(f, "unsupported: {what}"),
            Problem::VersionMismatch { expected, found } => {
                write!(f, "version mismatch: expected {expected}, found {found}")
            }
            Problem::Quirk { name, detail } => {
                write!(
                    f,
                    "quirk `{name}` (accepted only in compatible mode): {detail}"
                )
            }
            Problem::Missing { what } => write!(f, "missing: {what}"),
            Problem::Io { message } => write!(f, "i/o error: {message}"),
        }
    }
}

impl std::ops::Deref for FormatError {
    type Target = ErrorDetail;
    fn deref(&self) -> &ErrorDetail {
        &self.0
    }
}

impl std::ops::DerefMut for FormatError {
    fn deref_mut(&mut self) -> &mut ErrorDetail {
        &mut self.0
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(entry) = &self.entry {
            // A name from a hostile file may hold line breaks and other
            // control characters: they are shown escaped.
            write!(f, "entry #{} '", entry.index)?;
            for c in entry.name.chars() {
                match c.is_control() {
                    true => write!(f, "{}", c.escape_default())?,
                    false => write!(f, "{c}")?,
                }
            }
            write!(f, "': ")?;
        }
        write!(
            f,
            "offset 0x{:x}: {}: {}",
            self.offset, self.format, self.problem
        )
    }
}

impl std::error::Error for FormatError {}

/// Test helper: the error `result` must hold, at `offset`, with a
/// `format: problem` text (as in the `Display` form) containing `needle`.
/// Returns the error for further checks (entry, file).
#[cfg(test)]
#[track_caller]
pub(crate) fn expect_error<T>(result: Result<T>, offset: u64, needle: &str) -> FormatError {
    let Err(err) = result else {
        panic!("expected an error at offset {offset} with {needle:?}, got Ok");
    };
    let text = format!("{}: {}", err.format, err.problem);
    assert!(text.contains(needle), "{text:?} lacks {needle:?} ({err})");
    assert_eq!(err.offset, offset, "offset of: {err}");
    err
}

/// Test helper: the entry of `err` as (index, name).
#[cfg(test)]
pub(crate) fn entry_of(err: &FormatError) -> Option<(usize, &str)> {
    err.entry.as_ref().map(|e| (e.index, e.name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_carries_file_entry_offset_and_expectation() {
        let err = FormatError::invalid("Texm", 0x10, "mip count 1..=16", 40)
            .shifted(0x20)
            .in_entry(3, "TREE01")
            .in_file("Textures.lib");
        assert_eq!(
            err.to_string(),
            "Textures.lib: entry #3 'TREE01': offset 0x30: Texm: expected mip count 1..=16, found 40"
        );
    }

    #[test]
    fn an_entry_name_with_line_breaks_is_shown_escaped() {
        let err = FormatError::missing("MSH", "stream 3").in_entry(2, "evil\nname\u{1b}[2J");
        assert_eq!(
            err.to_string(),
            "entry #2 'evil\\nname\\u{1b}[2J': offset 0x0: MSH: missing: stream 3"
        );
    }

    #[test]
    fn inner_context_wins_over_outer() {
        let err = FormatError::missing("MSH", "stream 3")
            .in_entry(1, "inner")
            .in_entry(7, "outer")
            .in_file("a.rlb")
            .in_file("b.rlb");
        assert_eq!(err.entry.as_ref().map(|e| e.index), Some(1));
        assert_eq!(err.file.as_deref(), Some("a.rlb"));
    }
}
