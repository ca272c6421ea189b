//! `iron3d material`: inspect a MAT0 material of an install's
//! `Material.lib`. The logic lives in `iron3d_formats::mat0`; this module only
//! parses arguments and prints.

use iron3d_formats::mat0::run_material_info;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct MaterialArgs {
    #[command(subcommand)]
    command: MaterialCommand,
}

#[derive(clap::Subcommand, Debug)]
enum MaterialCommand {
    /// Version, flags, phases, animation blocks and textures of a material.
    Info {
        /// The game directory (holding Material.lib).
        game_dir: PathBuf,
        /// The material name (ASCII case-insensitive).
        material: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: MaterialArgs) -> ExitCode {
    match args.command {
        MaterialCommand::Info {
            game_dir,
            material,
            json,
        } => run_material_info(&game_dir, &material, json),
    }
    .print()
}
