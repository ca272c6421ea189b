//! `iron3d validate`: every file of an install through its reader, then the
//! reachability of every mission. The logic lives in
//! `iron3d_formats::validate`; this module parses arguments, draws the
//! progress line (only on a terminal, never with `--json`) and prints.

use iron3d_formats::validate::{Progress, run_validate};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ValidateArgs {
    /// The install directory.
    game_dir: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Width of the progress bar in cells.
const BAR: u64 = 30;

/// Redraws one progress line on stderr.
fn draw(p: Progress) {
    let filled = (p.done * BAR).checked_div(p.total).unwrap_or(BAR);
    let bar: String = (0..BAR)
        .map(|i| if i < filled { '#' } else { '-' })
        .collect();
    let item: String = p.item.chars().take(50).collect();
    let mut err = std::io::stderr();
    let _ = write!(err, "\r\x1b[2K[{bar}] {}/{} {item}", p.done, p.total);
    if p.done >= p.total {
        let _ = write!(err, "\r\x1b[2K");
    }
    let _ = err.flush();
}

pub fn run(args: ValidateArgs) -> ExitCode {
    let show = !args.json && std::io::stderr().is_terminal();
    let mut progress = |p: Progress| {
        if show {
            draw(p);
        }
    };
    run_validate(&args.game_dir, args.json, &mut progress).print()
}
