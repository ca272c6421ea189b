//! `iron3d play`: the game, in a window or headless.

use bevy::prelude::{App, Plugin};
use iron3d::app;
use iron3d_behavior::{OrderPacket, check_order, parse_order_command};
use iron3d_demo as demo;
use iron3d_formats::gamedir::GameDir;
use iron3d_fx::StartEffects;
use iron3d_hud::{MainMenu, QuickSave};
use iron3d_render::bench::BenchRequest;
use iron3d_render::camera::CameraPose;
use iron3d_render::capture::CaptureRequest;
use iron3d_render::screenshot::ScreenshotRequest;
use iron3d_replay::{
    LoadsPlugin, PendingLoad, Playback, PlaybackPlugin, RecordPlugin, Recording, Replay,
    TracePlugin, finish_recording, finish_trace,
};
use iron3d_schedules::SimulationRate;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{
    LoadProgress, MissionPlugin, MissionRequest, StartOrders, update_until_loaded,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `println!` that ignores a closed stdout (`iron3d play ... | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(clap::Args, Debug)]
#[command(group(
    clap::ArgGroup::new("outputs")
        .multiple(true)
        .args(["screenshot", "capture_frame", "bench_frames"])
))]
pub struct PlayArgs {
    /// The game install (default: the embedded demo install, built in the
    /// user's cache directory on first use).
    #[arg(long)]
    game_dir: Option<PathBuf>,
    /// A mod directory layered over the game directory (repeatable; later
    /// ones win): its files and archive-named directories override files
    /// and entries of the install, for the mission loader and the drawn
    /// assets alike (headless too).
    #[arg(long = "mod-dir", value_name = "DIR")]
    mod_dirs: Vec<PathBuf>,
    /// The mission to load: its name below MISSIONS, its directory or its
    /// data.tma. Without it the windowed game opens the main menu (but
    /// --ticks, --camera, --screenshot, --capture-frame and --bench-frames
    /// take the first mission, as does --headless).
    #[arg(long)]
    mission: Option<String>,
    /// Open the main menu even with --ticks, --camera, --screenshot,
    /// --capture-frame or --bench-frames (tools that drive the menu).
    #[arg(long, conflicts_with_all = ["mission", "headless"])]
    menu: bool,
    /// List the missions of the install and exit.
    #[arg(long, conflicts_with_all = ["mission", "headless", "ticks"])]
    list_missions: bool,
    /// Seed of the named random streams.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// With --headless, also print the state hash every K ticks.
    #[arg(long, value_name = "K", requires = "headless")]
    hash_every: Option<u64>,
    /// Write the end state as one JSON object to FILE (see
    /// docs/book/src/cli.md, "The headless report"): headless, or windowed
    /// with --ticks.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// With --headless, give a unit an order at tick 0: "ID GO X Y" (a
    /// place in the map frame), "ID PATROL PATH_ID" (a mission path),
    /// "ID FOLLOW LEADER_ID", "ID STOP" or "ID STAYGROUND", ids raw
    /// original ids (decimal or 0x hex). Repeatable: a unit's orders queue
    /// in the order given.
    #[arg(long = "order", value_name = "\"ID VERB [ARGS]\"", requires = "headless", value_parser = parse_order)]
    orders: Vec<(OriginalObjectId, OrderPacket)>,
    /// Play an effect where the mission starts: "NAME X,Y,Z", an
    /// `effects.rlb` name the mission reads (its objects' guns, rounds and
    /// node tables name them) at a map-frame point (Z up). Repeatable.
    #[arg(long = "effect", value_name = "\"NAME X,Y,Z\"", value_parser = parse_effect, allow_hyphen_values = true)]
    effects: Vec<(String, [f32; 3])>,
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
    /// Camera pose in the map frame (Z up): eye x,y,z, heading in degrees
    /// from +X counter-clockwise, pitch in degrees (negative looks down).
    /// Default: above the player's base, 45° down.
    #[arg(long, value_name = "X,Y,Z,YAW,PITCH", value_parser = CameraPose::parse, allow_hyphen_values = true, conflicts_with = "headless")]
    camera: Option<CameraPose>,
    /// The time of day the mission's sky starts at (24-hour clock of its
    /// `sky.ske`), instead of the file's own start; only what is drawn
    /// changes.
    #[arg(long, value_name = "HH:MM", value_parser = parse_sky_time, conflicts_with = "headless")]
    sky_time: Option<iron3d_formats::proto::ske::ClockTime>,
    /// Draw without the atmosphere: no sky dome, clouds, sun, moon or
    /// flare, no fog and no shadows (to compare, as --bench-frames does).
    #[arg(long, conflicts_with = "headless")]
    no_atmosphere: bool,
    /// Save a PNG of the window once the scene is drawn, then exit.
    #[arg(long, value_name = "FILE.png", conflicts_with = "headless")]
    screenshot: Option<PathBuf>,
    /// Write the frame's draw-item list (camera, viewport, sorted draw
    /// items) as JSON once the scene is drawn, then exit.
    #[arg(long, value_name = "FILE.json", conflicts_with = "headless")]
    capture_frame: Option<PathBuf>,
    /// Time N frames after the warm-up (vsync off), print frames per
    /// second, CPU time per frame and the draw-item count, then exit.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "headless")]
    bench_frames: Option<u32>,
    /// Start with game time stopped at tick 0 (a fixed timeline: the same
    /// material phases in every screenshot or frame capture).
    #[arg(long, conflicts_with = "headless")]
    paused: bool,
    /// With --screenshot, --capture-frame or --bench-frames: frames drawn
    /// after every pipeline is ready (the warm-up of --bench-frames).
    #[arg(long, value_name = "N", default_value_t = 60, requires = "outputs")]
    frames: u32,
    /// Start with the inspector shown (F3 toggles it): the world
    /// inspector and the Iron3D object panel.
    #[arg(long, conflicts_with = "headless")]
    inspector: bool,
    /// Start without the HUD (weapons list, messages, radar, panels,
    /// reticle).
    #[arg(long, conflicts_with = "headless")]
    no_hud: bool,
    /// Start without the mission's briefing flight (it is also skipped by
    /// --camera, --screenshot, --capture-frame, --bench-frames and
    /// --ticks, which want the world at once, unless the mission is
    /// chosen in the main menu).
    #[arg(long, conflicts_with = "headless")]
    skip_briefing: bool,
    /// Record the session into a replay file (see `iron3d replay`): the
    /// header, every step's input that changed and state-hash
    /// checkpoints, written as the game exits or the mission ends (a
    /// headless run's as its ticks run out: the same file).
    #[arg(long, value_name = "FILE", conflicts_with = "effects")]
    record: Option<PathBuf>,
    /// With --headless, save the session at tick TICK into FILE
    /// (repeatable): the replay up to there, loaded again by --load.
    #[arg(long = "save-at", num_args = 2, value_names = ["TICK", "FILE"], requires = "headless", conflicts_with = "effects")]
    save_at: Vec<String>,
    /// Load a save (its mission, seed, rate and orders; F5's quick save
    /// or --save-at's): its steps are played again (in a window at 64
    /// times real time), then the run goes on with the live input (to
    /// --ticks).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["mission", "orders", "effects", "menu"])]
    load: Option<PathBuf>,
    /// Write the trace of the session (one JSON object a line: input,
    /// queue, control, contact, behavior, sound and camera channels, each
    /// with its tick; see docs/book/src/replays-and-saves.md, "The trace").
    #[arg(long, value_name = "FILE.jsonl")]
    trace: Option<PathBuf>,
}

fn parse_order(s: &str) -> Result<(OriginalObjectId, OrderPacket), String> {
    parse_order_command(s)
}

fn parse_effect(s: &str) -> Result<(String, [f32; 3]), String> {
    let (name, at) = s
        .trim()
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("expected \"NAME X,Y,Z\", found '{s}'"))?;
    let values: Vec<f32> = at
        .split(',')
        .map(|v| v.trim().parse::<f32>().map_err(|e| format!("'{v}': {e}")))
        .collect::<Result<_, _>>()?;
    match values[..] {
        [x, y, z] if values.iter().all(|v| v.is_finite()) => Ok((name.to_owned(), [x, y, z])),
        _ => Err(format!("expected three finite numbers X,Y,Z, found '{at}'")),
    }
}

fn parse_rate(s: &str) -> Result<f64, String> {
    let rate: f64 = s.parse().map_err(|e| format!("{e}"))?;
    use iron3d_replay::{MAX_RATE, MIN_RATE};
    if rate.is_finite() && (MIN_RATE..=MAX_RATE).contains(&rate) {
        Ok(rate)
    } else {
        Err(format!(
            "rate must be between {MIN_RATE} and {MAX_RATE} steps per second"
        ))
    }
}

/// The install asked for, else the embedded demo install (built in the
/// user's cache on first use); `None` after saying why it cannot be.
pub(super) fn install_or_demo(game_dir: Option<PathBuf>) -> Option<PathBuf> {
    match game_dir {
        Some(dir) => Some(dir),
        None => demo::ensure_cached(demo::DEFAULT_SEED)
            .inspect_err(|e| eprintln!("iron3d: cannot prepare the embedded demo install: {e}"))
            .ok(),
    }
}

pub fn run(args: PlayArgs) -> ExitCode {
    let Some(game_dir) = install_or_demo(args.game_dir) else {
        return ExitCode::from(1);
    };
    if args.list_missions {
        return list_missions(game_dir);
    }
    let save = match args.load.as_deref().map(Replay::load).transpose() {
        Ok(save) => save,
        Err(e) => {
            eprintln!("iron3d: cannot load the save: {e}");
            return ExitCode::from(1);
        }
    };
    // A save runs in its own mission, on its rate and seed.
    let rate = SimulationRate(save.as_ref().map_or(args.rate, |s| s.rate));
    let seed = save.as_ref().map_or(args.seed, |s| s.seed);
    let named = save.as_ref().map(|s| s.mission.clone()).or(args.mission);
    // Runs that want the world at once (tools, captures) take the first
    // mission when none is named; a player gets the main menu.
    let automated = args.ticks.is_some()
        || args.camera.is_some()
        || args.screenshot.is_some()
        || args.capture_frame.is_some()
        || args.bench_frames.is_some();
    let main_menu = (!args.headless && named.is_none() && (args.menu || !automated))
        .then(|| MainMenu::of_install(game_dir.clone(), args.mod_dirs.clone()));
    let mission = MissionPlugin {
        request: main_menu.is_none().then_some(MissionRequest {
            game_dir,
            mission: named,
            mod_dirs: args.mod_dirs,
        }),
        seed,
    };
    let trace = args.trace.map(|path| TracePlugin { path: Some(path) });
    if args.headless {
        let saves = match parse_saves(&args.save_at) {
            Ok(saves) => saves,
            Err(e) => {
                eprintln!("iron3d: --save-at: {e}");
                return ExitCode::from(2);
            }
        };
        let mut orders: Vec<(u32, Vec<u8>)> = args
            .orders
            .iter()
            .map(|(id, packet)| (id.raw(), packet.to_bytes()))
            .collect();
        let mut session = Session {
            trace,
            record: None,
            playback: None,
        };
        // A save's orders were given at its start: its state holds them.
        let mut post = true;
        if let (Some(save), Some(ticks)) = (&save, args.ticks)
            && ticks < save.end_tick
        {
            eprintln!(
                "iron3d: --ticks {ticks} ends before the save's tick {}",
                save.end_tick
            );
            return ExitCode::from(2);
        }
        if let Some(save) = save {
            orders = save.orders.clone();
            post = save.state.is_none();
            let file = args.load.clone().expect("a save is loaded from --load");
            session.playback = Some(PlaybackPlugin::load(save).state_from(file));
        }
        if args.record.is_some() || !saves.is_empty() {
            session.record = Some(RecordPlugin {
                path: args.record.clone(),
                rate: rate.0,
                saves,
                orders: orders.clone(),
            });
        }
        let outputs = Outputs {
            every: args.hash_every,
            report: args.report.as_deref(),
        };
        return run_headless(
            rate,
            mission,
            args.ticks.unwrap_or_default(),
            outputs,
            session,
            if post { &orders } else { &[] },
            args.effects,
        );
    }
    if args.report.is_some() && args.ticks.is_none() {
        eprintln!(
            "iron3d: a windowed --report needs --ticks N: the report is the state as the run ends"
        );
        return ExitCode::from(2);
    }
    if let Err(why) = display_available() {
        eprintln!(
            "iron3d: cannot open a window: {why}; use `iron3d play --headless --ticks N` to run without one"
        );
        return ExitCode::from(2);
    }
    // A mission chosen in the menu is the player's: its briefing plays.
    let briefing = !args.skip_briefing && (main_menu.is_some() || !automated);
    let view = app::View {
        briefing,
        camera: args.camera,
        sky_time: args.sky_time,
        no_atmosphere: args.no_atmosphere,
        screenshot: args.screenshot.map(|path| ScreenshotRequest {
            path,
            frames: args.frames,
        }),
        capture: args.capture_frame.map(|path| CaptureRequest {
            path,
            frames: args.frames,
        }),
        bench: args.bench_frames.map(|frames| BenchRequest {
            frames,
            warmup: args.frames,
        }),
        paused: args.paused,
        inspector: args.inspector,
        hud: !args.no_hud,
        main_menu,
        at_exit: args.report.map(|path| -> app::AtExit {
            Box::new(move |world, ticks, hash| {
                let mission = world.resource::<LoadProgress>().mission.clone();
                super::report::write(world, &path, &mission, ticks, hash)
                    .map_err(|e| format!("cannot write the report {}: {e}", path.display()))
            })
        }),
    };
    let mut app = app::windowed(rate, args.ticks, mission, view);
    app.insert_resource(StartEffects(args.effects));
    // Always traced: the inspector shows the selected object's timeline.
    app.add_plugins(trace.unwrap_or(TracePlugin { path: None }));
    // The session is always recorded (F5 saves it); --record also
    // writes the first mission's replay.
    app.add_plugins((
        RecordPlugin {
            path: args.record,
            rate: rate.0,
            ..Default::default()
        },
        LoadsPlugin,
    ));
    if let Some(quick) = QuickSave::in_data_dir() {
        app.insert_resource(quick);
    }
    if let Some(save) = save {
        app.insert_resource(PendingLoad::save(save));
    }
    match app.run() {
        bevy::app::AppExit::Success => ExitCode::SUCCESS,
        bevy::app::AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// What a headless run writes besides its last lines: the hash every K
/// ticks, the report.
struct Outputs<'a> {
    every: Option<u64>,
    report: Option<&'a Path>,
}

/// The session plugins of a headless run: its trace, its recording for
/// saves, the save or replay it plays.
pub(super) struct Session {
    pub(super) trace: Option<TracePlugin>,
    pub(super) record: Option<RecordPlugin>,
    pub(super) playback: Option<PlaybackPlugin>,
}

impl Plugin for Session {
    fn build(&self, app: &mut App) {
        if let Some(trace) = &self.trace {
            app.add_plugins(trace.clone());
        }
        if let Some(record) = &self.record {
            app.add_plugins(record.clone());
        }
        if let Some(playback) = &self.playback {
            app.add_plugins(playback.clone());
        }
    }
}

/// `--save-at TICK FILE` pairs.
pub(super) fn parse_saves(words: &[String]) -> Result<Vec<(u64, PathBuf)>, String> {
    words
        .chunks(2)
        .map(|pair| match pair {
            [tick, file] => tick
                .parse::<u64>()
                .map(|t| (t, PathBuf::from(file)))
                .map_err(|e| format!("{tick:?}: {e}")),
            _ => Err("expected TICK FILE".into()),
        })
        .collect()
}

/// Loads the mission (if any), runs `ticks` fixed steps and prints the
/// load report, the hashes and the final state hash; with a report, writes
/// the end state there too.
fn run_headless(
    rate: SimulationRate,
    mission: MissionPlugin,
    ticks: u64,
    outputs: Outputs,
    session: Session,
    orders: &[(u32, Vec<u8>)],
    effects: Vec<(String, [f32; 3])>,
) -> ExitCode {
    let Outputs { every, report } = outputs;
    let has_mission = mission.request.is_some();
    let traced = session.trace.is_some();
    let recorded = session.record.is_some();
    let mut app = app::headless(rate, mission, session);
    app.insert_resource(StartEffects(effects))
        .insert_resource(StartOrders(orders.to_vec()));
    let progress = match update_until_loaded(&mut app) {
        Ok(progress) => progress,
        Err(error) => {
            eprintln!("iron3d: {error}");
            return ExitCode::from(1);
        }
    };
    if has_mission {
        print_load(&progress);
    }
    if let Err(e) = same_install(app.world()) {
        eprintln!("iron3d: {e}");
        return ExitCode::from(1);
    }
    // A start order names objects of the mission, of the kinds it needs.
    for (id, bytes) in orders {
        let checked = OrderPacket::parse(bytes)
            .map_err(|e| e.to_string())
            .and_then(|packet| check_order(app.world(), OriginalObjectId(*id), &packet));
        if let Err(e) = checked {
            eprintln!("iron3d: --order for object {id:#x}: {e}");
            return ExitCode::from(2);
        }
    }
    if state_not_loaded(app.world()) {
        return session_outcome(app.world());
    }
    let hash = app::run_headless(&mut app, ticks, every, |tick, hash| {
        say!("tick {tick}: hash {hash:016x}");
    });
    let trace_failed = traced
        .then(|| finish_trace(app.world_mut()))
        .and_then(Result::err);
    if recorded {
        // As the window's recording ends when it exits: a last checkpoint
        // at the last tick, the file written (a failure fails the run).
        finish_recording(app.world_mut());
    }
    say!("{}", iron3d_script::outcome_line(app.world()));
    say!("ticks: {ticks}");
    say!("state hash: {hash:016x}");
    if let Some(path) = report
        && let Err(e) = super::report::write(app.world_mut(), path, &progress.mission, ticks, hash)
    {
        eprintln!("iron3d: cannot write the report {}: {e}", path.display());
        return ExitCode::from(1);
    }
    if let Some(e) = trace_failed {
        eprintln!("iron3d: cannot write the trace: {e}");
        return ExitCode::from(1);
    }
    session_outcome(app.world())
}

/// A loaded save whose steps did not give its recorded state, or a save
/// that was not written (or not reached), fails the run.
fn session_outcome(world: &bevy::prelude::World) -> ExitCode {
    // A state that did not come back says so with its own error.
    let playback = world.get_resource::<Playback>();
    let parted = playback
        .filter(|p| p.restore_error.is_none())
        .and_then(|p| p.divergence.as_ref());
    if let Some(parted) = parted {
        eprintln!("iron3d: the save does not load as it was made: {parted}");
    }
    if parted.is_some() | state_or_saves_failed(world) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A loaded save must have been made on this install (as a replay is
/// played only on its own); the error names the save's file.
fn same_install(world: &bevy::prelude::World) -> Result<(), String> {
    iron3d_replay::made_on_this_install(world).map_err(|e| {
        world
            .get_resource::<Playback>()
            .map_or(e.clone(), |p| p.of_file(&e))
    })
}

/// Whether a loaded save's state did not come back (the clock stopped on
/// it: the run ends there).
pub(super) fn state_not_loaded(world: &bevy::prelude::World) -> bool {
    world
        .get_resource::<Playback>()
        .is_some_and(|p| p.restore_error.is_some())
}

/// Says why a save's state did not load, or a save was not written (or
/// not reached); whether any of it happened.
pub(super) fn state_or_saves_failed(world: &bevy::prelude::World) -> bool {
    let mut failed = false;
    let playback = world.get_resource::<Playback>();
    if let Some(error) = playback.and_then(|p| p.restore_error.as_ref()) {
        eprintln!("iron3d: the save's state does not load: {error}");
        failed = true;
    }
    if let Some(recording) = world.get_resource::<Recording>() {
        for e in &recording.save_errors {
            eprintln!("iron3d: save not written: {e}");
        }
        for (tick, path) in &recording.saves {
            eprintln!(
                "iron3d: save {} not written: the run ended before tick {tick}",
                path.display()
            );
        }
        failed |= !recording.save_errors.is_empty() || !recording.saves.is_empty();
    }
    failed
}

fn print_load(progress: &LoadProgress) {
    say!("mission: {}", progress.mission);
    for (phase, time) in &progress.timings {
        say!("load {phase:?}: {:.3} ms", time.as_secs_f64() * 1000.0);
    }
    say!(
        "objects: {} (parts {}, model nodes {})",
        progress.registered,
        progress.parts,
        progress.nodes
    );
}

/// `--list-missions`: one mission name per line (a closed pipe is not an
/// error).
fn list_missions(game_dir: PathBuf) -> ExitCode {
    match GameDir::open(&game_dir).and_then(|g| g.missions()) {
        Ok(missions) => {
            let text: String = missions.iter().map(|m| format!("{}\n", m.name)).collect();
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("iron3d: {error}");
            ExitCode::from(1)
        }
    }
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

/// `HH:MM` on a 24-hour clock.
fn parse_sky_time(text: &str) -> Result<iron3d_formats::proto::ske::ClockTime, String> {
    let (h, m) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}': expected HH:MM"))?;
    let number = |v: &str, below: u32| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n < below)
            .ok_or_else(|| format!("'{text}': expected HH:MM, hours 0-23 and minutes 0-59"))
    };
    Ok(iron3d_formats::proto::ske::ClockTime::new(
        0,
        number(h, 24)?,
        number(m, 60)?,
    ))
}
