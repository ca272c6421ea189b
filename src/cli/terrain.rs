//! `iron3d terrain`: inspect a `Land.msh`. The logic lives in
//! `iron3d_formats::terrain::report`; this module only parses arguments and
//! prints.

use iron3d_formats::terrain::report::run_terrain_info;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct TerrainArgs {
    #[command(subcommand)]
    command: TerrainCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TerrainCommand {
    /// Streams, counts, bounds, slots and face mask statistics of a Land.msh.
    Info {
        /// The Land.msh file.
        land_msh: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: TerrainArgs) -> ExitCode {
    match args.command {
        TerrainCommand::Info { land_msh, json } => run_terrain_info(&land_msh, json).print(),
    }
}
