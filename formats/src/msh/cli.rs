//! The logic of `iron3d model info|export`: it returns what to print and the
//! exit status; the binary only parses arguments.

use super::Msh;
use crate::archive::Mode;
use crate::fsutil::write_atomic;
use crate::gamedir::GameDir;
use crate::gltf::{ExportOptions, export_glb, resolve_materials};
use crate::tool::{CliOutput, json_text, output, with_archive_entry};
use std::path::Path;

/// `iron3d model info <ARCHIVE> <ENTRY> [--json]`: streams, nodes, slots,
/// batches, animation and the validation result. A model that parses but
/// fails validation is reported (exit code 1).
pub fn run_model_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    let mut invalid = false;
    let mut out = output(with_archive_entry(archive, entry, |_, _, payload| {
        let info = Msh::parse(payload, Mode::Compatible)?.info();
        invalid = info.validation.is_some();
        Ok(if json {
            json_text(&info)
        } else {
            info.to_string()
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
pub fn run_model_export(
    archive: &Path,
    entry: &str,
    out: &Path,
    game_dir: Option<&Path>,
) -> CliOutput {
    let mut problems = Vec::new();
    let mut result = output(with_archive_entry(
        archive,
        entry,
        |nres, index, payload| {
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
        },
    ));
    for p in problems {
        result.stderr.push_str(&format!("warning: {p}\n"));
    }
    result
}
