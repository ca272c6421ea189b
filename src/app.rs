//! App composition: which plugins make up the game, windowed or headless.
//! Both forms run the same simulation schedule; headless has no window and
//! no renderer and advances exactly one fixed step per update.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_schedules::{GameClock, SimulationRate, SpinePlugin, StateHash};
use iron3d_world::WorldPlugin;

/// The engine plugins shared by every form of the app.
fn add_engine(app: &mut App, rate: SimulationRate) {
    app.add_plugins((SpinePlugin { rate }, WorldPlugin));
}

/// A headless app: `MinimalPlugins`, no window, no renderer; every
/// `update()` runs exactly one simulation tick.
pub fn headless(rate: SimulationRate) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    add_engine(&mut app, rate);
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    app
}

/// Runs a headless app until the game clock reaches `ticks`, and returns
/// the canonical state hash then.
pub fn run_headless(app: &mut App, ticks: u64) -> u64 {
    while app.world().resource::<GameClock>().tick() < ticks {
        app.update();
    }
    StateHash::compute(app.world())
}

/// The windowed game. With `exit_after`, it exits once the game clock has
/// run that many ticks and prints the state hash.
pub fn windowed(rate: SimulationRate, exit_after: Option<u64>) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Iron3D".into(),
            ..default()
        }),
        ..default()
    }));
    add_engine(&mut app, rate);
    app.add_systems(Startup, spawn_camera)
        .add_systems(Update, show_clock_in_title);
    if let Some(ticks) = exit_after {
        app.insert_resource(ExitAfterTicks(ticks))
            .add_systems(Last, exit_after_ticks);
    }
    app
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 20.0, 40.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
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

#[derive(Resource)]
struct ExitAfterTicks(u64);

fn exit_after_ticks(world: &mut World) {
    let target = world.resource::<ExitAfterTicks>().0;
    let tick = world.resource::<GameClock>().tick();
    if tick >= target {
        println!("ticks: {tick}");
        println!("state hash: {:016x}", StateHash::compute(world));
        world.write_message(AppExit::Success);
    }
}
