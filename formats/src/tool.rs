//! Shared plumbing of the CLI commands: each `run_*` function of the crate
//! returns a [`CliOutput`] (what to print and the exit status) so that the
//! binary stays a thin argument parser.

use crate::archive::{Mode, nres::Nres};
use crate::error::{FormatError, Result};
use crate::fsutil::read_file;
use std::path::Path;

/// What the CLI prints and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliOutput {
    pub stdout: String,
    pub stderr: String,
    /// 0 ok, 1 a data error.
    pub code: u8,
}

impl CliOutput {
    /// Success: `stdout` printed, exit code 0.
    pub fn ok(stdout: String) -> Self {
        Self {
            stdout,
            stderr: String::new(),
            code: 0,
        }
    }

    /// A data error: `error: <message>` on stderr, exit code 1.
    pub fn failure(message: impl std::fmt::Display) -> Self {
        Self {
            stdout: String::new(),
            stderr: format!("error: {message}\n"),
            code: 1,
        }
    }
}

impl CliOutput {
    /// Prints both streams and gives the exit status. A closed pipe (e.g.
    /// `| head`) is not an error of ours, so write failures are ignored.
    pub fn print(&self) -> std::process::ExitCode {
        use std::io::Write;
        let _ = std::io::stdout().write_all(self.stdout.as_bytes());
        let _ = std::io::stderr().write_all(self.stderr.as_bytes());
        std::process::ExitCode::from(self.code)
    }
}

/// Turns a result into the CLI output (errors on stderr, exit code 1).
pub fn output(result: Result<String>) -> CliOutput {
    match result {
        Ok(stdout) => CliOutput::ok(stdout),
        Err(e) => CliOutput::failure(e),
    }
}

/// Reads `archive` (an NRes file) and hands the payload of entry `entry`
/// (ASCII case-insensitive) to `f`, with file and entry context on errors.
pub fn with_archive_entry<T>(
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

/// The pretty JSON of a CLI report, newline-terminated.
pub fn json_text<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(json) => json + "\n",
        Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
    }
}
