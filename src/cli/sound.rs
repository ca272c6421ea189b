//! `iron3d sound`: export a sound of an NRes archive as a PCM16 WAV. The
//! logic lives in `iron3d_formats::sound`; this module only parses arguments
//! and prints.

use iron3d_formats::sound::run_sound_export;
use std::path::PathBuf;
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
