//! `iron3d play`: the game, in a window or headless.

use crate::app;
use iron3d_schedules::SimulationRate;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Run without a window or renderer (requires --ticks).
    #[arg(long, requires = "ticks")]
    headless: bool,
    /// Exit after this many simulation ticks, printing the tick count and the
    /// state hash.
    #[arg(long)]
    ticks: Option<u64>,
    /// Simulation steps per second.
    #[arg(long, default_value_t = 30.0, value_parser = parse_rate)]
    rate: f64,
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let rate: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if rate.is_finite() && (1.0..=1000.0).contains(&rate) {
        Ok(rate)
    } else {
        Err("rate must be between 1 and 1000 steps per second".into())
    }
}

pub fn run(args: PlayArgs) -> ExitCode {
    let rate = SimulationRate(args.rate);
    if args.headless {
        let ticks = args.ticks.unwrap_or_default();
        let mut app = app::headless(rate);
        let hash = app::run_headless(&mut app, ticks);
        println!("ticks: {ticks}");
        println!("state hash: {hash:016x}");
        return ExitCode::SUCCESS;
    }
    if let Err(why) = display_available() {
        eprintln!(
            "iron3d: cannot open a window: {why}; use `iron3d play --headless --ticks N` to run without one"
        );
        return ExitCode::from(2);
    }
    app::windowed(rate, args.ticks).run();
    ExitCode::SUCCESS
}

/// Whether a window can be opened: an X11 or Wayland display must be named
/// and, for a local X11 display, its socket must exist.
fn display_available() -> Result<(), String> {
    if let Ok(wayland) = std::env::var("WAYLAND_DISPLAY")
        && !wayland.is_empty()
    {
        return Ok(());
    }
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.is_empty() {
        return Err("no display (DISPLAY and WAYLAND_DISPLAY are unset)".into());
    }
    // ":N" or ":N.S" is a local display with a socket in /tmp/.X11-unix.
    if let Some(local) = display.strip_prefix(':') {
        let number = local.split('.').next().unwrap_or_default();
        let socket = format!("/tmp/.X11-unix/X{number}");
        if !std::path::Path::new(&socket).exists() {
            return Err(format!(
                "no X server for DISPLAY={display} ({socket} is missing)"
            ));
        }
    }
    Ok(())
}
