//! Running the `iron3d` binary from a test: both streams as text and the exit
//! code, for tests that compare what a command prints.

use std::process::Command;

/// What a run of `iron3d` printed and its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Out {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

/// The `iron3d` binary, to be given arguments (and a working directory).
pub fn iron3d() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
}

/// Runs `command` to its end.
pub fn run(command: &mut Command) -> Out {
    let out = command.output().expect("run iron3d");
    Out {
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
        code: u8::try_from(out.status.code().expect("an exit code")).expect("a u8 exit code"),
    }
}
