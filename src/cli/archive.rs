//! `iron3d archive`: list, cat, extract, pack and verify NRes and RsLi
//! archives. The logic lives in `iron3d_formats::archive::tool`; this module
//! only parses arguments and prints.

use iron3d_formats::archive::tool::{self, Command};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ArchiveArgs {
    #[command(subcommand)]
    command: ArchiveCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ArchiveCommand {
    /// One line per entry in directory order: index, name, type id or method, sizes, offsets, attributes.
    List {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the decoded payload of an entry to stdout.
    Cat {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// The entry name (ASCII case-insensitive).
        entry: String,
    },
    /// Write every payload and a manifest.json with all metadata to DIR.
    Extract {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// The directory to create or fill.
        dir: PathBuf,
    },
    /// Rebuild an archive from an extract directory (byte-identical when unchanged).
    Pack {
        /// A directory written by `archive extract`.
        dir: PathBuf,
        /// The archive to write.
        file: PathBuf,
    },
    /// Check an archive and decode every payload; exit 1 with the error if invalid.
    Verify {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// Strict mode: refuse the retail quirks too.
        #[arg(long)]
        strict: bool,
    },
}

pub fn run(args: ArchiveArgs) -> ExitCode {
    let cmd = match args.command {
        ArchiveCommand::List { file, json } => Command::List { file, json },
        ArchiveCommand::Cat { file, entry } => Command::Cat { file, entry },
        ArchiveCommand::Extract { file, dir } => Command::Extract { file, dir },
        ArchiveCommand::Pack { dir, file } => Command::Pack { dir, file },
        ArchiveCommand::Verify { file, strict } => Command::Verify { file, strict },
    };
    // A closed pipe (e.g. `| head`) is not an error of ours.
    match tool::run(&cmd) {
        Ok(report) => {
            for w in &report.warnings {
                let _ = writeln!(std::io::stderr(), "{w}");
            }
            let _ = std::io::stdout().write_all(&report.stdout);
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(1)
        }
    }
}
