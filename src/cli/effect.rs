//! `iron3d effect`: inspect an FXID effect of an NRes archive.

use super::output::{CliOutput, json_text, output};
use iron3d_formats::fxid::{EffectInfo, effect_info};
use std::path::Path;
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

/// `iron3d effect info <ARCHIVE> <ENTRY> [--json]`: what to print and the
/// exit status.
fn run_effect_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    output(effect_info(archive, entry).map(|info| {
        if json {
            json_text(&info)
        } else {
            info_text(&info)
        }
    }))
}

/// The text of `effect info`.
fn info_text(info: &EffectInfo) -> String {
    use std::fmt::Write;
    let h = &info.header;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "effect {} ({} entry #{}, {} bytes)",
        info.name, info.archive, info.entry, info.size
    );
    let _ = writeln!(
        s,
        "time mode {}  duration {} s  jitter {}  flags 0x{:x}  settings {}",
        h.time_mode, h.duration_seconds, h.phase_jitter, h.flags, h.settings_id
    );
    let _ = writeln!(
        s,
        "random shift {:?}  pivot {:?}  scale {:?}",
        h.random_shift, h.pivot, h.scale
    );
    let _ = writeln!(s, "commands {}", info.commands.len());
    for c in &info.commands {
        let _ = write!(
            s,
            "  [{}] @0x{:x} opcode {} size {}{}",
            c.index,
            c.offset,
            c.opcode,
            c.size,
            if c.enabled { " enabled" } else { "" }
        );
        if let Some(r) = &c.resource {
            let _ = write!(s, "  {}/{}", r.archive.text(), r.name.text());
        }
        s.push('\n');
    }
    s
}
