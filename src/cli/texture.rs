//! `iron3d texture`: inspect and export Texm textures of an NRes archive. The
//! logic lives in `iron3d_formats::texm::cli`; this module only parses
//! arguments and prints.

use iron3d_formats::texm::cli::{run_texture_export, run_texture_info};
use std::path::PathBuf;
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
