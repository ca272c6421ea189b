//! `iron3d mission`: inspect the missions of an install (`info`) and their
//! dependency graphs (`graph`). The logic lives in `iron3d_formats::tma::info`
//! and `iron3d_formats::validate`; this module only parses arguments and prints.

use iron3d_formats::archive::Mode;
use iron3d_formats::tma::info::run_info;
use iron3d_formats::validate::run_mission_graph;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct MissionArgs {
    #[command(subcommand)]
    command: MissionCommand,
}

#[derive(clap::Subcommand, Debug)]
enum MissionCommand {
    /// Clans, paths, objects by kind, properties, land path, description and
    /// mineral lodes of one mission.
    Info {
        /// The install directory.
        game_dir: PathBuf,
        /// The mission: its name below MISSIONS (any case, `/` or `\`), the
        /// last part of that name when unique, or a path to its directory or
        /// data.tma.
        mission: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Accept unknown section versions (kept raw, listed as quirks).
        #[arg(long)]
        compatible: bool,
    },
    /// The dependency graph of one mission: objects, unit parts, prototypes,
    /// models, material tables, materials, textures and lightmaps, with
    /// totals and every failing edge with its chain.
    Graph {
        /// The install directory.
        game_dir: PathBuf,
        /// The mission (as for `mission info`).
        mission: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: MissionArgs) -> ExitCode {
    match args.command {
        MissionCommand::Info {
            game_dir,
            mission,
            json,
            compatible,
        } => {
            let mode = if compatible {
                Mode::Compatible
            } else {
                Mode::Strict
            };
            let out = run_info(&game_dir, &mission, json, mode);
            // A closed pipe (e.g. `| head`) is not an error of ours.
            let _ = std::io::stdout().write_all(out.stdout.as_bytes());
            let _ = std::io::stderr().write_all(out.stderr.as_bytes());
            ExitCode::from(out.code)
        }
        MissionCommand::Graph {
            game_dir,
            mission,
            json,
        } => run_mission_graph(&game_dir, &mission, json).print(),
    }
}
