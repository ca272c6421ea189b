//! `iron3d replay`: plays a recorded session back (see `play --record`),
//! headless or in a window, and with `--verify` checks every checkpoint.

use iron3d::app;
use iron3d_replay::{
    LoadsPlugin, Playback, PlaybackPlugin, RecordPlugin, Replay, TracePlugin, finish_trace,
    install_identity,
};
use iron3d_schedules::{GameClock, SimulationRate};
use iron3d_world::mission::{MissionDescription, MissionPlugin, MissionRequest};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The replay file `iron3d play --record` wrote.
    file: PathBuf,
    /// The install it was recorded on (default: the embedded demo
    /// install).
    #[arg(long)]
    game_dir: Option<PathBuf>,
    /// Mod directories, as the recording had them (repeatable).
    #[arg(long = "mod-dir", value_name = "DIR")]
    mod_dirs: Vec<PathBuf>,
    /// Play without a window or renderer.
    #[arg(long)]
    headless: bool,
    /// Check every checkpoint: the first that differs names its tick and
    /// the subsystems whose state differs, and the exit code is 1.
    #[arg(long)]
    verify: bool,
    /// Write the end state as the headless report (see `play --report`).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write the trace of the played-back session (see `play --trace`).
    #[arg(long, value_name = "FILE.jsonl")]
    trace: Option<PathBuf>,
    /// With --headless, record the played-back session again into OUT:
    /// the same input with this build's checkpoints, for a replay kept as
    /// a test after a conscious change of the simulation (or of the demo
    /// install: a replay of another install is then played on this one,
    /// and OUT names this one).
    #[arg(long, value_name = "OUT", requires = "headless")]
    rerecord: Option<PathBuf>,
    /// With --headless, save the played-back session at tick TICK into
    /// FILE (repeatable), as `play --save-at` does.
    #[arg(long = "save-at", num_args = 2, value_names = ["TICK", "FILE"], requires = "headless")]
    save_at: Vec<String>,
    /// Start from SAVE's state (a save made on this replay's session, by
    /// --save-at or F5 while it played): the steps before it do not play
    /// again, the checkpoints after it are checked.
    #[arg(long, value_name = "SAVE", conflicts_with = "rerecord")]
    from: Option<PathBuf>,
}

pub fn run(args: ReplayArgs) -> ExitCode {
    let replay = match Replay::load(&args.file) {
        Ok(replay) => replay,
        Err(e) => {
            eprintln!("iron3d: {e}");
            return ExitCode::from(1);
        }
    };
    // A save played as a replay plays from the mission's start, unless
    // --from names the state to start from.
    let replay = match args.from.as_deref().map(|from| from_save(&replay, from)) {
        None => replay.without_state(),
        Some(Ok(from)) => from,
        Some(Err(e)) => {
            eprintln!("iron3d: --from: {e}");
            return ExitCode::from(1);
        }
    };
    // A replay with no checkpoint has nothing to verify: refused before
    // it plays (a day-long one would play to its end first).
    if args.verify && replay.checkpoints.is_empty() {
        eprintln!(
            "iron3d: {}: replay: not verified: 0 checkpoints of 0 reached (it holds none)",
            args.file.display()
        );
        return ExitCode::from(1);
    }
    let replay = Arc::new(replay);
    let saves = match super::play::parse_saves(&args.save_at) {
        Ok(saves) => saves,
        Err(e) => {
            eprintln!("iron3d: --save-at: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(game_dir) = super::play::install_or_demo(args.game_dir.clone()) else {
        return ExitCode::from(1);
    };
    let rate = SimulationRate(replay.rate);
    let mission = MissionPlugin {
        request: Some(MissionRequest {
            game_dir,
            mission: Some(replay.mission.clone()),
            mod_dirs: args.mod_dirs.clone(),
        }),
        seed: replay.seed,
    };
    let ticks = replay.end_tick;
    let checkpoints = replay.checkpoints.len();
    let verify = args.verify;
    let report = args.report.clone();
    // What the end of the run prints and checks, headless or windowed.
    let finish = move |world: &mut bevy::prelude::World, tick: u64, hash: u64| {
        let playback = world.resource::<Playback>();
        let checked = playback.checked;
        println!("replay: {checked} checkpoints of {checkpoints} reached");
        let parted = playback.divergence.clone();
        if let Some(path) = &report {
            let mission = world
                .resource::<iron3d_world::mission::LoadProgress>()
                .mission
                .clone();
            super::report::write(world, path, &mission, tick, hash)
                .map_err(|e| format!("cannot write the report {}: {e}", path.display()))?;
        }
        match parted {
            Some(parted) if verify => Err(format!("replay: {parted}")),
            Some(parted) => {
                println!("replay: {parted}");
                Ok(())
            }
            // A verification that checked fewer than every checkpoint (or
            // a replay with none) verified nothing of the rest.
            None if verify && (checked == 0 || checked < checkpoints) => Err(format!(
                "replay: not verified: {checked} checkpoints of {checkpoints} reached"
            )),
            None => Ok(()),
        }
    };
    if !args.headless {
        let view = app::View {
            hud: true,
            at_exit: Some(Box::new(finish)),
            ..Default::default()
        };
        let mut app = app::windowed(rate, Some(ticks), mission, view);
        app.add_plugins((playback(replay, args.from), LoadsPlugin));
        // Always traced: the inspector shows the selected object's
        // timeline.
        app.add_plugins(TracePlugin { path: args.trace });
        return match app.run() {
            bevy::app::AppExit::Success => ExitCode::SUCCESS,
            bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
        };
    }
    let traced = args.trace.is_some();
    // The replay's input, and its start orders (LoadsPlugin); the session
    // recorded again when saves are asked for.
    let session = super::play::Session {
        trace: args.trace.map(|path| TracePlugin { path: Some(path) }),
        record: (!saves.is_empty()).then(|| RecordPlugin {
            path: None,
            rate: replay.rate,
            saves,
            orders: replay.orders.clone(),
        }),
        playback: Some(playback(Arc::clone(&replay), args.from)),
    };
    let mut app = app::headless(rate, mission, (session, LoadsPlugin));
    if let Err(error) = iron3d_world::mission::update_until_loaded(&mut app) {
        eprintln!("iron3d: {error}");
        return ExitCode::from(1);
    }
    if super::play::state_not_loaded(app.world()) {
        super::play::state_or_saves_failed(app.world());
        return ExitCode::from(1);
    }
    let here = app
        .world()
        .get_resource::<MissionDescription>()
        .map(install_identity)
        .unwrap_or_default();
    if here != replay.install {
        eprintln!(
            "iron3d: {}: recorded on another install (its data.tma {}, this one {here})",
            args.file.display(),
            replay.install
        );
        if args.rerecord.is_none() {
            return ExitCode::from(1);
        }
    }
    // A verification stops at the first checkpoint that differs.
    let hash = app::run_headless_until(&mut app, ticks, |world| {
        verify && world.resource::<Playback>().divergence.is_some()
    });
    let ticks = app.world().resource::<GameClock>().tick();
    let trace_failed = traced
        .then(|| finish_trace(app.world_mut()))
        .and_then(Result::err);
    if let Some(e) = &trace_failed {
        eprintln!("iron3d: cannot write the trace: {e}");
    }
    if let Some(out) = &args.rerecord
        && let Err(e) = rerecord(app.world(), (&replay, &here), out)
    {
        eprintln!("iron3d: --rerecord: {e}");
        return ExitCode::from(1);
    }
    println!("mission: {}", replay.mission);
    println!("ticks: {ticks}");
    println!("state hash: {hash:016x}");
    let finished = finish(app.world_mut(), ticks, hash);
    if let Err(e) = &finished {
        eprintln!("iron3d: {e}");
    }
    if finished.is_err() | trace_failed.is_some() | super::play::state_or_saves_failed(app.world())
    {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The playback of `replay`, from the state of the save `from` when one
/// is named.
fn playback(replay: Arc<Replay>, from: Option<PathBuf>) -> PlaybackPlugin {
    let plugin = PlaybackPlugin::replay_from(replay);
    match from {
        Some(file) => plugin.state_from(file),
        None => plugin,
    }
}

/// `replay` played from the state of the save at `path`.
fn from_save(replay: &Replay, path: &std::path::Path) -> Result<Replay, String> {
    let save = Replay::load(path).map_err(|e| e.to_string())?;
    replay
        .starting_from(&save)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `replay` to `out` with the checkpoints the playback reached in
/// place of its own: the same header but this `install`'s identity, the
/// same input and checkpoint ticks.
fn rerecord(
    world: &bevy::prelude::World,
    (replay, install): (&Replay, &str),
    out: &std::path::Path,
) -> Result<(), String> {
    let mut again = world.resource::<Playback>().reached.clone();
    again.install = install.to_owned();
    if again.checkpoints.len() != replay.checkpoints.len() {
        return Err(format!(
            "{} checkpoints of {} reached; nothing written",
            again.checkpoints.len(),
            replay.checkpoints.len()
        ));
    }
    again
        .save(out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("replay: rerecorded into {}", out.display());
    Ok(())
}
