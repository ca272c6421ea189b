//! `iron3d model`: inspect MSH models of an NRes archive and export them as
//! binary glTF. The logic lives in `iron3d_formats::msh::cli`; this module
//! only parses arguments and prints.

use iron3d_formats::msh::cli::{run_model_export, run_model_info};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ModelArgs {
    #[command(subcommand)]
    command: ModelCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ModelCommand {
    /// Streams, nodes with parents, slots, batches, animation and validation.
    Info {
        /// The archive holding the model (e.g. objects.rlb).
        archive: PathBuf,
        /// The model entry name (ASCII case-insensitive).
        entry: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the model as binary glTF 2.0 (.glb).
    Export {
        /// The archive holding the model.
        archive: PathBuf,
        /// The model entry name (ASCII case-insensitive).
        entry: String,
        /// The .glb file to write.
        out: PathBuf,
        /// An install directory: embed the WEAR/MAT0 textures.
        #[arg(long)]
        game_dir: Option<PathBuf>,
    },
}

pub fn run(args: ModelArgs) -> ExitCode {
    match args.command {
        ModelCommand::Info {
            archive,
            entry,
            json,
        } => run_model_info(&archive, &entry, json),
        ModelCommand::Export {
            archive,
            entry,
            out,
            game_dir,
        } => run_model_export(&archive, &entry, &out, game_dir.as_deref()),
    }
    .print()
}
