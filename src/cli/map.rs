//! `iron3d map`: query a `Land.map`. The logic lives in
//! `iron3d_formats::terrain::report`; this module only parses arguments and
//! prints.

use iron3d_formats::terrain::report::run_map_route;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct MapArgs {
    #[command(subcommand)]
    command: MapCommand,
}

#[derive(clap::Subcommand, Debug)]
enum MapCommand {
    /// The areal route between two ground points: areal ids and crossed
    /// edges (exit 1 when a point is outside every areal or unreachable).
    /// Coordinates are the engine's ground plane, X and Y (Z is up).
    Route {
        /// The Land.map file.
        land_map: PathBuf,
        #[arg(allow_negative_numbers = true)]
        x1: f32,
        #[arg(allow_negative_numbers = true)]
        y1: f32,
        #[arg(allow_negative_numbers = true)]
        x2: f32,
        #[arg(allow_negative_numbers = true)]
        y2: f32,
    },
}

pub fn run(args: MapArgs) -> ExitCode {
    match args.command {
        MapCommand::Route {
            land_map,
            x1,
            y1,
            x2,
            y2,
        } => run_map_route(&land_map, [x1, y1], [x2, y2]).print(),
    }
}
