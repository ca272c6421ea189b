//! `iron3d texture`: inspect and export Texm textures of an NRes archive.

use super::output::{CliOutput, json_text, output};
use iron3d_formats::archive::open::with_nres_entry;
use iron3d_formats::fsutil::write_atomic;
use iron3d_formats::texm::{Texm, TexmInfo, png_bytes};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct TextureArgs {
    #[command(subcommand)]
    command: TextureCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TextureCommand {
    /// Format, size, mips, flags and Page rectangles of a texture.
    Info {
        #[command(flatten)]
        target: super::EntryArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write one mip level as an RGBA8 PNG.
    Export {
        #[command(flatten)]
        target: super::EntryArgs,
        /// The PNG file to write.
        out: PathBuf,
        /// The mip level (0 is the base level).
        #[arg(long, default_value_t = 0)]
        mip: u32,
    },
}

pub fn run(args: TextureArgs) -> ExitCode {
    match args.command {
        TextureCommand::Info { target, json } => {
            run_texture_info(&target.archive, &target.entry, json)
        }
        TextureCommand::Export { target, out, mip } => {
            run_texture_export(&target.archive, &target.entry, &out, mip)
        }
    }
    .print()
}

/// `iron3d texture info <ARCHIVE> <ENTRY> [--json]`.
fn run_texture_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    output(with_nres_entry(archive, entry, |_, _, payload| {
        let info = Texm::parse(payload)?.info();
        Ok(if json {
            json_text(&info)
        } else {
            info_text(&info)
        })
    }))
}

/// `iron3d texture export <ARCHIVE> <ENTRY> <OUT.png> [--mip N]`: the RGBA8
/// PNG of mip level `mip`.
fn run_texture_export(archive: &Path, entry: &str, out: &Path, mip: u32) -> CliOutput {
    output(with_nres_entry(archive, entry, |_, _, payload| {
        let image = Texm::parse(payload)?.decode_level(mip)?;
        write_atomic(out, &png_bytes(&image)?)?;
        Ok(format!(
            "wrote {} ({}x{}, mip {mip})\n",
            out.display(),
            image.width,
            image.height
        ))
    }))
}

/// The text of `texture info`.
fn info_text(info: &TexmInfo) -> String {
    let mut f = String::new();
    let _ = write_info(&mut f, info);
    f
}

fn write_info(f: &mut String, info: &TexmInfo) -> std::fmt::Result {
    writeln!(f, "format: {} ({:?})", info.format_code, info.format)?;
    writeln!(f, "size: {}x{}", info.width, info.height)?;
    let sizes: Vec<String> = info
        .mip_sizes
        .iter()
        .map(|[w, h]| format!("{w}x{h}"))
        .collect();
    writeln!(f, "mips: {} [{}]", info.mip_count, sizes.join(", "))?;
    writeln!(
        f,
        "flags4: {:#x}  flags5: {:#010x}{}{}  unknown6: {:#x}",
        info.flags4,
        info.flags5,
        if info.alpha_surface {
            " (alpha surface)"
        } else {
            ""
        },
        if info.palette_fade {
            " (palette fade)"
        } else {
            ""
        },
        info.unknown6
    )?;
    match &info.page {
        None => writeln!(f, "page: none"),
        Some(rects) => {
            writeln!(f, "page: {} rectangles", rects.len())?;
            for (i, r) in rects.iter().enumerate() {
                writeln!(
                    f,
                    "  #{i}: x {} y {} w {} h {}",
                    r.x, r.y, r.width, r.height
                )?;
            }
            Ok(())
        }
    }
}
