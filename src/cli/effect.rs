//! `iron3d effect`: inspect an FXID effect of an NRes archive. The logic
//! lives in `iron3d_formats::fxid`; this module only parses arguments and
//! prints.

use iron3d_formats::fxid::run_effect_info;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct EffectArgs {
    #[command(subcommand)]
    command: EffectCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EffectCommand {
    /// Header and commands (opcode, size, resource references) of an effect.
    Info {
        #[command(flatten)]
        target: super::EntryArgs,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: EffectArgs) -> ExitCode {
    match args.command {
        EffectCommand::Info { target, json } => {
            run_effect_info(&target.archive, &target.entry, json)
        }
    }
    .print()
}
