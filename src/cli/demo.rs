//! `iron3d demo build`: the deterministic synthetic demo install.

use iron3d_demo::{self as demo, Scale};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    #[command(subcommand)]
    command: DemoCommand,
}

#[derive(clap::Subcommand, Debug)]
enum DemoCommand {
    /// Write the demo install to DIR (atomically: built beside it, then renamed).
    Build {
        dir: PathBuf,
        /// Content seed: same seed, same bytes.
        #[arg(long, default_value_t = demo::DEFAULT_SEED)]
        seed: u64,
        /// `demo` (small, the embedded default) or `retail` (full-install size).
        #[arg(long, value_enum, default_value_t = ScaleArg::Demo)]
        scale: ScaleArg,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ScaleArg {
    Demo,
    Retail,
}

pub fn run(args: DemoArgs) -> ExitCode {
    match args.command {
        DemoCommand::Build { dir, seed, scale } => {
            let scale = match scale {
                ScaleArg::Demo => Scale::Demo,
                ScaleArg::Retail => Scale::Retail,
            };
            match demo::build(&dir, seed, scale) {
                Ok(install) => {
                    let bytes: usize = install.files().values().map(Vec::len).sum();
                    println!(
                        "{}: {} files, {} bytes (seed {seed}, generator v{})",
                        dir.display(),
                        install.files().len(),
                        bytes,
                        demo::GENERATOR_VERSION
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("iron3d demo build: {e}");
                    ExitCode::from(1)
                }
            }
        }
    }
}
