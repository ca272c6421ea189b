//! What a command prints: [`CliOutput`] holds both streams and the exit
//! status, so that each command builds its output first and prints it once.

use iron3d_formats::error::Result;
use std::path::Path;
use std::process::ExitCode;

/// What a command prints and its exit status.
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

    /// Prints both streams and gives the exit status. A closed pipe (e.g.
    /// `| head`) is not an error of ours, so write failures are ignored.
    pub fn print(&self) -> ExitCode {
        use std::io::Write;
        let _ = std::io::stdout().write_all(self.stdout.as_bytes());
        let _ = std::io::stderr().write_all(self.stderr.as_bytes());
        ExitCode::from(self.code)
    }
}

/// Turns a result into the output (errors on stderr, exit code 1).
pub fn output(result: Result<String>) -> CliOutput {
    match result {
        Ok(stdout) => CliOutput::ok(stdout),
        Err(e) => CliOutput::failure(e),
    }
}

/// Reads `path` and runs `command` on its bytes (the file named as given);
/// a read error exits 1.
pub fn with_file(path: &Path, command: impl FnOnce(&str, &[u8]) -> CliOutput) -> CliOutput {
    let file = path.display().to_string();
    match iron3d_formats::fsutil::read_file(path) {
        Ok(data) => command(&file, &data),
        Err(e) => CliOutput::failure(e.in_file(file)),
    }
}

/// The pretty JSON of a report, newline-terminated.
pub fn json_text<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_string_pretty(value) {
        Ok(json) => json + "\n",
        Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
    }
}
