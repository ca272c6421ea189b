//! `iron3d mission`: inspect the missions of an install (`info`) and their
//! dependency graphs (`graph`).

use super::output::{CliOutput, json_text, output};
use super::validate::totals_line;
use iron3d_formats::archive::Mode;
use iron3d_formats::graph::{MissionGraph, mission_graph};
use iron3d_formats::tma::info::{MissionInfo, mission_info};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
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
            run_info(&game_dir, &mission, json, mode).print()
        }
        MissionCommand::Graph {
            game_dir,
            mission,
            json,
        } => run_mission_graph(&game_dir, &mission, json).print(),
    }
}

/// `iron3d mission info <GAME_DIR> <MISSION> [--json] [--compatible]`.
fn run_info(game_dir: &Path, mission: &str, json: bool, mode: Mode) -> CliOutput {
    output(mission_info(game_dir, mission, mode).map(|info| {
        if json {
            json_text(&info)
        } else {
            render_text(&info)
        }
    }))
}

/// The text of `mission info`.
fn render_text(info: &MissionInfo) -> String {
    let mut s = String::new();
    let v = &info.versions;
    let _ = writeln!(s, "mission {} ({})", info.mission, info.tma);
    let _ = writeln!(
        s,
        "versions: format {}, clans {}, objects {}, extras {}",
        v.format, v.clans, v.objects, v.extras
    );
    for q in &info.quirks {
        let _ = writeln!(s, "quirk: {q}");
    }
    let _ = writeln!(s, "paths: {}", info.paths.len());
    for p in &info.paths {
        let _ = writeln!(s, "  path id {}: {} points", p.id, p.points);
    }
    let _ = writeln!(s, "clans: {}", info.clans.len());
    for c in &info.clans {
        let kind = c
            .clan_type
            .map(|t| format!("{t:?}").to_lowercase())
            .unwrap_or_else(|| format!("type {}", c.raw_type));
        let relations: Vec<String> = c
            .relations
            .iter()
            .map(|r| format!("{}={}", r.clan, r.value))
            .collect();
        let _ = writeln!(
            s,
            "  {:?} {kind} base ({}, {}) ai {:?} zones {} trf {:?} bots {} relations [{}]",
            c.name,
            c.base[0],
            c.base[1],
            c.ai_script,
            c.zones,
            c.trf,
            c.bot_cap,
            relations.join(", ")
        );
    }
    let o = &info.objects;
    let _ = writeln!(
        s,
        "objects: {} (building {}, unit {}, vegetation {}, rock {}, other {}); unit DAT refs {}, prototype keys {}",
        o.total,
        o.building,
        o.unit,
        o.vegetation,
        o.rock,
        o.other_kind,
        o.unit_dat_refs,
        o.prototype_refs
    );
    let _ = writeln!(s, "properties: {} names", info.properties.len());
    for p in &info.properties {
        let _ = writeln!(
            s,
            "  {:?}: {} (float {}, int {}, other {})",
            p.name, p.count, p.float, p.int, p.other
        );
    }
    let _ = writeln!(
        s,
        "land: {:?} -> {}",
        info.land_path,
        info.land_resolved
            .as_deref()
            .unwrap_or("(not found in the install)")
    );
    let _ = writeln!(s, "mission flag: {}", info.mission_flag);
    let d = &info.description;
    let _ = writeln!(
        s,
        "description ({} bytes, {} after NUL): {:?}",
        d.capacity, d.junk_bytes, d.text
    );
    let _ = writeln!(s, "lodes: {}", info.lodes.len());
    for l in &info.lodes {
        let _ = writeln!(
            s,
            "  at ({}, {}, {}) type {} amount {} found {}",
            l.position[0], l.position[1], l.position[2], l.lode_type, l.amount, l.found
        );
    }
    s
}

/// `iron3d mission graph <GAME_DIR> <MISSION> [--json]`: the reachability
/// tree and totals of one mission (exit 1 when an edge fails).
fn run_mission_graph(root: &Path, mission: &str, json: bool) -> CliOutput {
    let graph = match mission_graph(root, mission) {
        Ok(g) => g,
        Err(e) => return CliOutput::failure(e),
    };
    let stdout = if json {
        json_text(&graph)
    } else {
        graph_text(&graph)
    };
    let code = u8::from(!graph.failures.is_empty());
    let stderr: String = graph
        .failures
        .iter()
        .map(|f| format!("error: {f}\n"))
        .collect();
    CliOutput {
        stdout,
        stderr,
        code,
    }
}

/// The text tree of a mission graph.
fn graph_text(g: &MissionGraph) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "mission {}", g.mission);
    for o in &g.objects {
        let unit = o
            .unit_file
            .as_deref()
            .map(|u| format!(" (unit {u})"))
            .unwrap_or_default();
        let _ = writeln!(s, "  #{} '{}' -> {}{unit}", o.index, o.name, o.resource);
        for c in &o.components {
            let p = &c.prototype;
            let part = c
                .part
                .map(|i| format!("part #{i} '{}' ", c.description))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "    {part}prototype '{}' [{:?}] mesh {} wear {}: {} slots, {} textures, {} lightmaps",
                p.key,
                p.status,
                p.mesh.as_deref().unwrap_or("-"),
                p.wear.as_deref().unwrap_or("-"),
                p.totals.material_slots,
                p.totals.textures,
                p.totals.lightmaps
            );
        }
    }
    let _ = writeln!(s, "totals: {}", totals_line(&g.totals));
    s
}
