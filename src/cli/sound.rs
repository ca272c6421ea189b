//! `iron3d sound`: export a sound of an NRes archive as a PCM16 WAV.

use super::output::{CliOutput, output};
use iron3d_formats::sound::export_sound;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct SoundArgs {
    #[command(subcommand)]
    command: SoundCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SoundCommand {
    /// Decode a sound (PCM or MS ADPCM) and write it as a PCM16 WAV (exit 1
    /// for entry_missing, entry_empty or wave_invalid).
    Export {
        #[command(flatten)]
        target: super::EntryArgs,
        /// The WAV file to write.
        out: PathBuf,
    },
}

pub fn run(args: SoundArgs) -> ExitCode {
    match args.command {
        SoundCommand::Export { target, out } => {
            run_sound_export(&target.archive, &target.entry, &out)
        }
    }
    .print()
}

/// `iron3d sound export <ARCHIVE> <ENTRY> <OUT.wav>`: what to print and the
/// exit status.
fn run_sound_export(archive: &Path, entry: &str, out: &Path) -> CliOutput {
    output(export_sound(archive, entry, out).map(|s| {
        format!(
            "{}: {} Hz, {} channel(s), {} frames ({:.3} s) -> {}\n",
            entry,
            s.sample_rate,
            s.channels,
            s.frames(),
            s.duration_seconds(),
            out.display()
        )
    }))
}
