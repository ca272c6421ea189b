//! `iron3d terrain`: inspect a `Land.msh`.

use super::output::{CliOutput, json_text, with_file};
use iron3d_formats::archive::Mode;
use iron3d_formats::terrain::land_msh::{LandMsh, TYPE_SLOTS, stride_of};
use iron3d_formats::terrain::report::{BitCount, TerrainInfo, terrain_info};
use std::path::{Path, PathBuf};
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

/// `iron3d terrain info <LAND.MSH> [--json]`.
fn run_terrain_info(path: &Path, json: bool) -> CliOutput {
    with_file(path, |file, data| {
        match LandMsh::parse(data, Mode::Strict) {
            Ok(land) => {
                let info = terrain_info(file, &land);
                CliOutput::ok(if json {
                    json_text(&info)
                } else {
                    terrain_info_text(&info)
                })
            }
            Err(e) => CliOutput::failure(e.in_file(file)),
        }
    })
}

/// The text of `terrain info`.
fn terrain_info_text(info: &TerrainInfo) -> String {
    let mut out = format!("{}: terrain (Land.msh)\n", info.file);
    out += "streams (directory order):\n";
    for s in &info.streams {
        let known = stride_of(s.type_id).is_some() || s.type_id == TYPE_SLOTS;
        let note = if !known {
            "  (opaque)"
        } else if !s.typed {
            "  (duplicate, opaque)"
        } else {
            ""
        };
        out += &format!(
            "  type {:>2} '{}': {} x {} bytes, attr2 {}{}\n",
            s.type_id, s.name, s.count, s.stride, s.attr2, note
        );
    }
    out += &format!(
        "vertices {}, faces {} ({} on the mesh boundary), nodes {}, slots {}\n",
        info.vertices, info.faces, info.boundary_faces, info.nodes, info.slots
    );
    let lods: Vec<String> = info
        .lod_faces
        .iter()
        .enumerate()
        .map(|(l, n)| format!("LOD {l}: {n}"))
        .collect();
    out += &format!(
        "faces per level of detail: {}\n",
        if lods.is_empty() {
            "none".into()
        } else {
            lods.join(", ")
        }
    );
    if let (Some(lo), Some(hi)) = (info.bounds_min, info.bounds_max) {
        out += &format!(
            "bounds: x {} .. {}, y {} .. {}, z (up) {} .. {}\n",
            lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]
        );
    }
    out += &format!(
        "stream 14: {}\n",
        if info.has_stream_14 {
            "present"
        } else {
            "absent"
        }
    );
    let m = &info.masks;
    let list = |bits: &[BitCount]| -> String {
        if bits.is_empty() {
            return "none".into();
        }
        bits.iter()
            .map(|b| format!("{} x{}", b.bit, b.faces))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out += &format!("face masks: {} distinct\n", m.distinct_masks);
    out += &format!("  full bits: {}\n", list(&m.full_bits));
    out += &format!("  compactMain16 bits: {}\n", list(&m.main16_bits));
    out += &format!("  compactMaterial6 bits: {}\n", list(&m.material6_bits));
    out += &format!(
        "  faces with bits outside both tables: {}\n",
        m.faces_with_unmapped_bits
    );
    out
}
