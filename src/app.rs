//! App composition: which plugins make up the game, windowed or headless.
//! Both forms run the same simulation schedule; headless has no window and
//! no renderer and advances exactly one fixed step per update.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_assets::IronAssetsPlugin;
use iron3d_audio::AudioOutputPlugin;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::CombatPlugin;
use iron3d_control::ControlPlugin;
use iron3d_economy::EconomyPlugin;
use iron3d_fx::FxPlugin;
use iron3d_hud::{HudPlugin, MainMenu, PlayBriefing};
use iron3d_input::IronInputPlugin;
use iron3d_inspector::InspectorPlugin;
use iron3d_player::{
    Bindings, BindingsFile, PlayerInputPlugin, PlayerPlugin, PlayerView, ViewMode,
};
use iron3d_render::IronRenderPlugin;
use iron3d_render::bench::BenchRequest;
use iron3d_render::camera::CameraPose;
use iron3d_render::capture::CaptureRequest;
use iron3d_render::screenshot::ScreenshotRequest;
use iron3d_schedules::{GameClock, Phase, SimulationRate, SpinePlugin, StateHash};
use iron3d_script::ScriptPlugin;
use iron3d_sound::SoundPlugin;
use iron3d_world::WorldPlugin;
use iron3d_world::mission::{LoadProgress, MissionPhase, MissionPlugin, MissionRequest};

/// The engine plugins shared by every form of the app; `mission` names
/// the mission to load (none: an empty world).
fn add_engine(app: &mut App, rate: SimulationRate, mission: MissionPlugin) {
    app.add_plugins((
        SpinePlugin { rate },
        WorldPlugin,
        mission,
        ControlPlugin,
        BehaviorPlugin,
        CombatPlugin,
        EconomyPlugin,
        SoundPlugin,
        FxPlugin,
        ScriptPlugin,
        PlayerPlugin,
    ));
}

/// A headless app: `MinimalPlugins`, no window, no renderer, and
/// `plugins` beside the engine's, every schedule on one thread; once the
/// mission runs, every `update()` runs exactly one simulation tick.
pub fn headless<M>(
    rate: SimulationRate,
    mission: MissionPlugin,
    plugins: impl bevy::app::Plugins<M>,
) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    add_engine(&mut app, rate, mission);
    app.add_plugins(plugins);
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    iron3d_schedules::run_on_one_thread(&mut app);
    app
}

/// Runs a headless app until the game clock reaches `ticks`, calling
/// `every` with the tick and the state hash each `every_k` ticks, and
/// returns the canonical state hash at the end.
pub fn run_headless(
    app: &mut App,
    ticks: u64,
    every_k: Option<u64>,
    mut every: impl FnMut(u64, u64),
) -> u64 {
    run_headless_until(app, ticks, |world| {
        let tick = world.resource::<GameClock>().tick();
        if let Some(k) = every_k.filter(|&k| k > 0)
            && tick.is_multiple_of(k)
            && tick < ticks
        {
            every(tick, StateHash::compute(world));
        }
        false
    })
}

/// Runs a headless app until the game clock reaches `ticks`, or until
/// `stop` says so after a tick, and returns the canonical state hash at
/// the end.
pub fn run_headless_until(app: &mut App, ticks: u64, mut stop: impl FnMut(&World) -> bool) -> u64 {
    while app.world().resource::<GameClock>().tick() < ticks {
        app.update();
        if stop(app.world()) {
            break;
        }
    }
    StateHash::compute(app.world())
}

/// What the windowed game shows: a camera pose override, and the outputs
/// to finish before exiting (a screenshot, a draw-item capture, a timed
/// benchmark).
#[derive(Default)]
pub struct View {
    pub camera: Option<CameraPose>,
    pub screenshot: Option<ScreenshotRequest>,
    pub capture: Option<CaptureRequest>,
    pub bench: Option<BenchRequest>,
    /// The time of day the sky starts at (`--sky-time`).
    pub sky_time: Option<iron3d_formats::proto::ske::ClockTime>,
    /// Draw without the sky, fog and shadows (`--no-atmosphere`).
    pub no_atmosphere: bool,
    /// Start with game time stopped at tick 0 (a fixed timeline for
    /// reproducible screenshots and frame captures).
    pub paused: bool,
    /// Start with the inspector shown (F3 toggles it).
    pub inspector: bool,
    /// Show the HUD.
    pub hud: bool,
    /// Play the mission's briefing flight first.
    pub briefing: bool,
    /// Open on the main menu of this install (the mission plugin then
    /// has no request); a failed load comes back to it.
    pub main_menu: Option<MainMenu>,
    /// Run once the run of `--ticks` ends, with the tick and the state
    /// hash (the report writer); its error exits 1.
    pub at_exit: Option<AtExit>,
}

/// What a windowed run does with the world as its ticks run out.
pub type AtExit = Box<dyn Fn(&mut World, u64, u64) -> Result<(), String> + Send + Sync>;

/// The windowed game, drawing the mission (see [`IronRenderPlugin`]). With
/// `exit_after`, it exits once the game clock has run that many ticks and
/// prints the state hash.
pub fn windowed(
    rate: SimulationRate,
    exit_after: Option<u64>,
    mission: MissionPlugin,
    view: View,
) -> App {
    // The install the asset source serves: the mission's, or the menu's.
    let request = mission.request.clone().or_else(|| {
        view.main_menu.as_ref().map(|menu| MissionRequest {
            game_dir: menu.game_dir.clone(),
            mission: None,
            mod_dirs: menu.mod_dirs.clone(),
        })
    });
    let debug_view = view.camera.is_some() || view.capture.is_some() || view.bench.is_some();
    let inspector = InspectorPlugin {
        open: view.inspector,
    };
    let mut app = App::new();
    // The `iron://` source must exist before `AssetPlugin` is built; it
    // layers the same mod directories as the mission loader.
    if let Some(request) = &request {
        let assets = request
            .mod_dirs
            .iter()
            .fold(IronAssetsPlugin::new(&request.game_dir), |p, m| {
                p.with_mod_dir(m)
            });
        app.add_plugins(assets);
    }
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Iron3D".into(),
            ..default()
        }),
        ..default()
    }));
    add_engine(&mut app, rate, mission);
    app.add_plugins(IronRenderPlugin {
        scene: request.is_some(),
        camera: view.camera,
        screenshot: view.screenshot,
        capture: view.capture,
        bench: view.bench,
        sky_time: view.sky_time,
        no_atmosphere: view.no_atmosphere,
    })
    .add_plugins((IronInputPlugin, PlayerInputPlugin, inspector))
    .add_plugins(HudPlugin { shown: view.hud })
    .insert_resource(PlayBriefing(view.briefing))
    .add_plugins(AudioOutputPlugin::<kira::DefaultBackend>::default())
    .add_systems(PostUpdate, show_clock_in_title.in_set(Phase::RenderUi))
    .add_systems(
        OnEnter(MissionPhase::Failed),
        exit_on_load_failure.run_if(not(resource_exists::<MainMenu>)),
    );
    if let Some(menu) = view.main_menu {
        app.insert_resource(menu);
    }
    // A view placed by `--camera` (and a frame capture or bench, which
    // measure the scene's pose) starts in the debug camera; otherwise the
    // player sees from the hero's cockpit.
    if debug_view {
        app.insert_resource(PlayerView::new(ViewMode::Debug));
    }
    // The bindings before the player's file: the defaults with the
    // install's `hero.tbl` laid over them.
    if let Some(request) = &request {
        app.insert_resource(Bindings::of_install(&request.game_dir, &request.mod_dirs));
    }
    // The player's bindings file (written on the first run, re-read when
    // it changes); without a config directory the defaults stay.
    if let Some(file) = BindingsFile::in_config_dir() {
        app.insert_resource(file);
    }
    if view.paused {
        app.world_mut().resource_mut::<GameClock>().pause();
    }
    if let Some(ticks) = exit_after {
        app.insert_resource(ExitAfterTicks(ticks, view.at_exit))
            .add_systems(
                Last,
                exit_after_ticks
                    .run_if(in_state(MissionPhase::Running))
                    .in_set(Phase::EndFrameCallbacks),
            );
    }
    app
}

/// The window title shows the game clock (tick, game seconds, pause).
fn show_clock_in_title(clock: Res<GameClock>, mut windows: Query<&mut Window>) {
    if !clock.is_changed() {
        return;
    }
    for mut window in &mut windows {
        window.title = format!(
            "Iron3D - tick {} ({:.1} s){}",
            clock.tick(),
            clock.elapsed_secs_f64(),
            if clock.is_paused() { " paused" } else { "" }
        );
    }
}

/// A mission that failed to load ends the windowed game with its error
/// (with a main menu, the menu shows it instead).
fn exit_on_load_failure(progress: Res<LoadProgress>, mut exit: MessageWriter<AppExit>) {
    if let Some(error) = &progress.error {
        eprintln!("iron3d: {error}");
    }
    exit.write(AppExit::from_code(1));
}

#[derive(Resource)]
struct ExitAfterTicks(u64, Option<AtExit>);

fn exit_after_ticks(world: &mut World) {
    let target = world.resource::<ExitAfterTicks>().0;
    let tick = world.resource::<GameClock>().tick();
    if tick < target {
        return;
    }
    let hash = StateHash::compute(world);
    println!("mission: {}", world.resource::<LoadProgress>().mission);
    println!("{}", iron3d_script::outcome_line(world));
    println!("ticks: {tick}");
    println!("state hash: {hash:016x}");
    let at_exit = world.resource_mut::<ExitAfterTicks>().1.take();
    let done = at_exit.map_or(Ok(()), |f| f(world, tick, hash));
    world.write_message(match done {
        Ok(()) => AppExit::Success,
        Err(e) => {
            eprintln!("iron3d: {e}");
            AppExit::from_code(1)
        }
    });
}
