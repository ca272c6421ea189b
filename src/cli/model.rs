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
        #[command(flatten)]
        target: super::EntryArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the model as binary glTF 2.0 (.glb).
    Export {
        #[command(flatten)]
        target: super::EntryArgs,
        /// The .glb file to write.
        out: PathBuf,
        /// An install directory: embed the WEAR/MAT0 textures.
        #[arg(long)]
        game_dir: Option<PathBuf>,
    },
}

pub fn run(args: ModelArgs) -> ExitCode {
    match args.command {
        ModelCommand::Info { target, json } => run_model_info(&target.archive, &target.entry, json),
        ModelCommand::Export {
            target,
            out,
            game_dir,
        } => run_model_export(&target.archive, &target.entry, &out, game_dir.as_deref()),
    }
    .print()
}
