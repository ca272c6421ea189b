//! `iron3d model`: inspect MSH models of an NRes archive and export them as
//! binary glTF.

use super::output::{CliOutput, json_text, output};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::open::with_nres_entry;
use iron3d_formats::fsutil::write_atomic;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::gltf::{ExportOptions, export_glb, resolve_materials};
use iron3d_formats::msh::info::MshInfo;
use iron3d_formats::msh::{Msh, kind};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
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

/// `iron3d model info <ARCHIVE> <ENTRY> [--json]`: streams, nodes, slots,
/// batches, animation and the validation result. A model that parses but
/// fails validation is reported (exit code 1).
fn run_model_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    let mut invalid = false;
    let mut out = output(with_nres_entry(archive, entry, |_, _, payload| {
        let info = Msh::parse(payload, Mode::Compatible)?.info();
        invalid = info.validation.is_some();
        Ok(if json {
            json_text(&info)
        } else {
            info_text(&info)
        })
    }));
    if invalid {
        out.code = 1;
    }
    out
}

/// `iron3d model export <ARCHIVE> <ENTRY> <OUT.glb> [--game-dir DIR]`: the
/// model as binary glTF; with an install, its WEAR/MAT0 textures embedded.
/// Textures that cannot be resolved are listed on stderr (still exit 0).
fn run_model_export(archive: &Path, entry: &str, out: &Path, game_dir: Option<&Path>) -> CliOutput {
    let mut problems = Vec::new();
    let mut result = output(with_nres_entry(archive, entry, |nres, index, payload| {
        let msh = Msh::load(payload, Mode::Compatible)?;
        let mut options = ExportOptions::default();
        if let Some(dir) = game_dir {
            let game = GameDir::open(dir)?;
            let (materials, found) =
                resolve_materials(&game, nres, nres.entries()[index].name(), &msh)?;
            options.materials = materials;
            problems = found;
        }
        let glb = export_glb(&msh, &options)?;
        write_atomic(out, &glb)?;
        let textured = options
            .materials
            .values()
            .filter(|m| m.png.is_some())
            .count();
        Ok(format!(
            "wrote {} ({} nodes, {} batches, {textured} textures)\n",
            out.display(),
            msh.nodes.len(),
            msh.batches.len()
        ))
    }));
    for p in problems {
        result.stderr.push_str(&format!("warning: {p}\n"));
    }
    result
}

/// The name of a stream type in `model info`.
fn type_name(t: u32) -> &'static str {
    match t {
        kind::NODES => "nodes",
        kind::SLOTS => "slots",
        kind::POSITIONS => "positions",
        kind::NORMALS => "normals",
        kind::UV0 => "uv0",
        kind::INDICES => "indices",
        kind::TRIANGLES => "triangles",
        kind::ANIM_KEYS => "anim keys",
        kind::SERVICE => "service",
        kind::STRINGS => "strings",
        kind::BATCHES => "batches",
        kind::AUX15 => "aux 15",
        kind::COLOURS16 => "colours 16",
        kind::AUX17 => "aux 17",
        kind::UV1 => "uv1",
        kind::FRAME_MAP => "frame map",
        kind::AUX20 => "aux 20",
        _ => "unknown",
    }
}

/// The text of `model info`.
fn info_text(info: &MshInfo) -> String {
    let mut f = String::new();
    let _ = write_info(&mut f, info);
    f
}

fn write_info(f: &mut String, info: &MshInfo) -> std::fmt::Result {
    writeln!(f, "streams: {}", info.streams.len())?;
    for s in &info.streams {
        writeln!(
            f,
            "  #{:<2} type {:>2} {:<11} {:<20} attr {} {} {}  {} bytes{}",
            s.index,
            s.type_id,
            type_name(s.type_id),
            s.name,
            s.attr1,
            s.attr2,
            s.attr3,
            s.size,
            if s.typed { "" } else { " (raw)" }
        )?;
    }
    writeln!(f, "nodes: {} ({})", info.node_count, info.node_layout)?;
    for n in &info.nodes {
        let parent = n
            .parent
            .map_or("root".to_string(), |p| format!("parent {p}"));
        let slots: Vec<String> = n
            .slots
            .iter()
            .map(|[s, l, x]| format!("{s}/{l}:{x}"))
            .collect();
        writeln!(
            f,
            "  #{:<2} {:<16} {:<10} hdr0 {:#06x} map {} fallback {} slots [{}]",
            n.index,
            n.name.as_deref().unwrap_or("-"),
            parent,
            n.hdr0,
            n.anim_map_start.map_or("-".to_string(), |m| m.to_string()),
            n.fallback_key,
            slots.join(" ")
        )?;
    }
    writeln!(
        f,
        "geometry: {} vertices, {} indices, {} triangle descriptors, uv1 {}",
        info.vertices,
        info.indices,
        info.triangles.map_or("none".to_string(), |t| t.to_string()),
        if info.has_uv1 { "yes" } else { "no" }
    )?;
    writeln!(f, "slots: {}", info.slots.len())?;
    for (i, s) in info.slots.iter().enumerate() {
        writeln!(
            f,
            "  #{i:<3} tris {}+{} batches {}+{} radius {}",
            s.tri_start, s.tri_count, s.batch_start, s.batch_count, s.sphere_radius
        )?;
    }
    writeln!(f, "batches: {}", info.batches.len())?;
    for (i, b) in info.batches.iter().enumerate() {
        writeln!(
            f,
            "  #{i:<3} flags {:#06x} material {} (hi {:#x}) lightmap {} indices {}+{} base {} vertices {} local {}",
            b.batch_flags,
            b.material_index,
            b.material_index_hi,
            b.lightmap_index,
            b.index_start,
            b.index_count,
            b.base_vertex,
            b.vertex_count,
            b.local_batch_index
        )?;
    }
    let a = &info.animation;
    writeln!(
        f,
        "animation: {} keys, {} map words, {} frames, {} animated nodes{}",
        a.keys,
        a.frame_map_words,
        a.frame_count,
        a.animated_nodes,
        a.time_range
            .map_or(String::new(), |[lo, hi]| format!(", times {lo}..{hi}"))
    )?;
    match &info.validation {
        None => writeln!(f, "validation: ok"),
        Some(e) => writeln!(f, "validation: FAILED: {e}"),
    }
}
