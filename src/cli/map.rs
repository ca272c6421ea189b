//! `iron3d map`: query a `Land.map`.

use super::output::{CliOutput, with_file};
use iron3d_formats::archive::Mode;
use iron3d_formats::terrain::land_map::{Areal, LandMap};
use iron3d_formats::terrain::route::{Navigator, Route};
use std::path::{Path, PathBuf};
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

/// `iron3d map route <LAND.MAP> <x1> <y1> <x2> <y2>`: the route from ground
/// point `from` to `to` over walkable areals (the start and goal areals
/// always count); exit 1 with a message when a point lies outside
/// every areal or the goal is unreachable.
fn run_map_route(path: &Path, from: [f32; 2], to: [f32; 2]) -> CliOutput {
    with_file(path, |file, data| {
        let map = match LandMap::parse(data, Mode::Strict) {
            Ok(map) => map,
            Err(e) => return CliOutput::failure(e.in_file(file)),
        };
        match Navigator::new(&map).route_where(from, to, Areal::is_walkable) {
            Ok(route) => CliOutput::ok(route_text(&route)),
            Err(e) => CliOutput::failure(format!(
                "{file}: no route from ({}, {}) to ({}, {}): {e}",
                from[0], from[1], to[0], to[1]
            )),
        }
    })
}

/// The text of a route.
fn route_text(route: &Route) -> String {
    let ids: Vec<String> = route.areals.iter().map(u32::to_string).collect();
    let mut out = format!("areals: {}\n", ids.join(" "));
    out += &format!("crossed edges: {}\n", route.crossings.len());
    for c in &route.crossings {
        out += &format!(
            "  areal {} edge {} -> areal {} edge {}\n",
            c.from, c.edge, c.to, c.to_edge
        );
    }
    out += &format!("length: {:.3}\n", route.cost);
    out
}
