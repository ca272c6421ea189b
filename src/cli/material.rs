//! `iron3d material`: inspect a MAT0 material of an install's
//! `Material.lib`.

use super::output::{CliOutput, json_text, output};
use iron3d_formats::mat0::{MaterialInfo, material_info};
use std::path::{Path, PathBuf};
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

/// `iron3d material info <GAME_DIR> <MATERIAL> [--json]`: what to print and
/// the exit status.
fn run_material_info(game_dir: &Path, name: &str, json: bool) -> CliOutput {
    output(material_info(game_dir, name).map(|info| {
        if json {
            json_text(&info)
        } else {
            info_text(&info)
        }
    }))
}

/// The text of `material info`.
fn info_text(info: &MaterialInfo) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let name = String::from_utf8_lossy(&info.name);
    let _ = writeln!(
        s,
        "material {name} ({} entry #{})",
        info.library, info.entry
    );
    let _ = writeln!(
        s,
        "version {}  flags 0x{:x} (render type {}, bump {})",
        info.version, info.flags, info.render_type, info.bump
    );
    let _ = writeln!(
        s,
        "blend {}/{}  alpha {}  emissive {}",
        info.src_blend, info.dst_blend, info.alpha, info.emissive
    );
    let _ = writeln!(s, "phases {}", info.phases.len());
    for p in &info.phases {
        let tex = String::from_utf8_lossy(&p.texture);
        let tex = if tex.is_empty() {
            "(untextured)".into()
        } else {
            tex
        };
        let _ = writeln!(
            s,
            "  [{}] texture {tex}  parameters {}",
            p.index, p.parameters
        );
    }
    let _ = writeln!(s, "animation blocks {}", info.animations.len());
    for (i, a) in info.animations.iter().enumerate() {
        let mode = a
            .mode_name
            .map_or_else(|| format!("mode {}", a.mode), |m| format!("{m:?}"));
        let _ = writeln!(
            s,
            "  [{i}] {mode}  mask 0x{:x}  keys {}",
            a.mask,
            a.keys.len()
        );
        for k in &a.keys {
            let _ = writeln!(s, "      phase {} at {} (k2 {})", k.k0, k.k1, k.k2);
        }
    }
    let _ = writeln!(s, "textures: {}", info.textures.join(", "));
    s
}
