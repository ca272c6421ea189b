//! A session recorded with simulated devices plays back, headless and
//! without them, to the same state hash at every checkpoint; a changed
//! step shows as a divergence at the first checkpoint after it, naming
//! the subsystems and the first object and field that differ.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::CombatPlugin;
use iron3d_control::ControlPlugin;
use iron3d_economy::EconomyPlugin;
use iron3d_player::{Buttons, PlayerAction, PlayerInputPlugin, PlayerPlugin};
use iron3d_replay::*;
use iron3d_schedules::GameClock;
use iron3d_script::ScriptPlugin;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::Hero;
use iron3d_world::test_support::{
    ARENA_MISSION, Arena, Side, What, demo_install, running_test_app,
};
use leafwing_input_manager::prelude::*;
use std::path::Path;

/// The simulation a session runs.
struct Simulation;

impl Plugin for Simulation {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            ControlPlugin,
            BehaviorPlugin,
            CombatPlugin,
            EconomyPlugin,
            ScriptPlugin,
            PlayerPlugin,
        ));
    }
}

fn tick(app: &App) -> u64 {
    app.world().resource::<GameClock>().tick()
}

fn run_to(app: &mut App, ticks: u64) {
    while tick(app) < ticks {
        app.update();
    }
}

/// Records 150 ticks of play: walking, a turn of the mouse, strafing, a
/// weapon key and fire.
fn record(game: &Path, path: &Path) -> Replay {
    let mut app = running_test_app(
        game.to_path_buf(),
        (
            Simulation,
            InputPlugin,
            PlayerInputPlugin,
            RecordPlugin {
                path: Some(path.to_path_buf()),
                rate: 30.0,
                ..default()
            },
        ),
    );
    KeyCode::KeyW.press(app.world_mut());
    run_to(&mut app, 40);
    MouseMove::default().set_axis_pair(app.world_mut(), Vec2::new(60.0, -20.0));
    app.update();
    KeyCode::KeyW.release(app.world_mut());
    KeyCode::KeyA.press(app.world_mut());
    run_to(&mut app, 80);
    KeyCode::KeyA.release(app.world_mut());
    KeyCode::Digit2.press(app.world_mut());
    MouseButton::Left.press(app.world_mut());
    run_to(&mut app, 150);
    app.world_mut().write_message(AppExit::Success);
    app.update();
    Replay::load(path).expect("the recording was written")
}

/// The replay played to its end.
fn playing(game: &Path, replay: Replay) -> App {
    let ticks = replay.end_tick;
    let mut app = running_test_app(
        game.to_path_buf(),
        (Simulation, PlaybackPlugin::replay(replay)),
    );
    run_to(&mut app, ticks);
    app
}

fn play(game: &Path, replay: Replay) -> Playback {
    playing(game, replay).world().resource::<Playback>().clone()
}

#[test]
fn a_recorded_session_replays_to_its_hashes_and_a_changed_step_is_found() {
    // The hero alone in the test arena.
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    let arena = Arena::default().with(What::Hero, Side::Player, [0.0, 0.0]);
    iron3d_demo::build_arena(&game, &arena).unwrap();
    let replay = record(&game, &tmp.path().join("session.ron"));
    assert_eq!(replay.mission, ARENA_MISSION);
    assert_eq!(replay.install.len(), 16);
    assert!(replay.end_tick >= 150);
    assert!(
        replay.checkpoints.len() >= 5,
        "{:?}",
        replay.checkpoints.len()
    );
    // Only the changes are written: far fewer records than steps.
    assert!(replay.steps.len() < 20, "{:?}", replay.steps);
    let held = |a: PlayerAction| replay.steps.iter().any(|s| Buttons(s.held).has(a));
    assert!(held(PlayerAction::WalkForward) && held(PlayerAction::StrafeLeft));
    assert!(held(PlayerAction::FirePrimary));
    assert!(replay.steps.iter().any(|s| s.mouse != [0.0; 2]));

    let played = play(&game, replay.clone());
    assert_eq!(played.divergence, None);
    assert_eq!(played.checked, replay.checkpoints.len());

    // The walk held ten ticks longer: the run parts by the first
    // checkpoint after the change, and the hero's subsystems say so.
    let mut changed = replay.clone();
    let release = changed
        .steps
        .iter()
        .position(|s| !Buttons(s.held).has(PlayerAction::WalkForward) && s.tick > 1)
        .expect("the walk ends");
    let mut walking = Buttons(changed.steps[release].held);
    walking.set(PlayerAction::WalkForward, true);
    changed.steps[release].held = walking.0;
    let at = changed.steps[release].tick;
    let mut app = playing(&game, changed);
    let parted = app.world().resource::<Playback>().divergence.clone();
    let parted = parted.expect("the change shows");
    let first_after = replay
        .checkpoints
        .iter()
        .find(|c| c.tick >= at)
        .unwrap()
        .tick;
    assert_eq!(parted.tick, first_after);
    assert!(
        parted.sections.iter().any(|s| s == "world_objects"),
        "{parted}"
    );
    assert!(
        parted.sections.iter().all(|s| s != "rng_streams"),
        "{parted}"
    );
    // Field by field, in id order: the hero's first are its place's (the
    // object registry's section comes first), then its body's motion;
    // others may differ too (a neighbour's radar sees it elsewhere).
    let hero = app
        .world_mut()
        .query_filtered::<&OriginalObjectId, With<Hero>>()
        .single(app.world())
        .copied()
        .unwrap();
    let heros: Vec<&str> = parted
        .fields
        .iter()
        .filter_map(|f| f.strip_prefix(&format!("{hero} ")))
        .collect();
    assert!(heros[0].starts_with("world_objects."), "{parted}");
    for field in ["world_objects.translation", "control.linear_velocity"] {
        assert!(heros.contains(&field), "{parted}");
    }
    assert!(
        parted
            .to_string()
            .contains(&format!("; fields: {}", parted.fields[0])),
        "{parted}"
    );
}

#[test]
fn the_trace_has_a_line_per_event_on_each_channel_with_its_tick() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let replay = record(&game, &tmp.path().join("session.ron"));
    let path = tmp.path().join("trace.jsonl");
    let ticks = replay.end_tick;
    let mut app = running_test_app(
        game,
        (
            Simulation,
            PlaybackPlugin::replay(replay.clone()),
            TracePlugin {
                path: Some(path.clone()),
            },
        ),
    );
    run_to(&mut app, ticks);
    finish_trace(app.world_mut()).expect("the trace is written");
    assert!(!path.with_extension("jsonl.part").exists());
    let lines = TraceLines::read(&path).unwrap();
    let on = |channel: &str| lines.on(channel);
    // The input channel is the replay's input, step by step.
    let input = on("input");
    assert!(!input.is_empty());
    for line in &input {
        let tick = line["tick"].as_u64().unwrap();
        let step = input_of(&replay.step_at(tick));
        let held: Vec<&str> = line["held"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let expected: Vec<String> = PlayerAction::BUTTONS
            .into_iter()
            .filter(|a| step.held.has(*a))
            .map(PlayerAction::name)
            .collect();
        assert_eq!(held, expected, "tick {tick}");
    }
    assert_eq!(input[0]["tick"], replay.steps[0].tick);
    // The hero walked: its body's place is traced every step it moved,
    // with where its input put it and what the collision pipeline
    // corrected (the ground holds it up: some steps are corrected).
    let control = on("control");
    assert!(control.len() >= 40);
    let movers: Vec<_> = control
        .iter()
        .filter(|l| l.get("candidate").is_some())
        .collect();
    assert!(!movers.is_empty());
    let v = |l: &serde_json::Value, k: &str| -> Vec<f64> {
        l[k].as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_f64().unwrap())
            .collect()
    };
    for line in &movers {
        let (p, c, d) = (
            v(line, "position"),
            v(line, "candidate"),
            v(line, "correction"),
        );
        for i in 0..3 {
            assert!((p[i] - c[i] - d[i]).abs() < 1e-3, "{line}");
        }
    }
    assert!(
        movers
            .iter()
            .any(|l| v(l, "correction").iter().any(|c| c.abs() > 1e-4)),
        "no step corrected"
    );
    // It fired: the shots were heard.
    assert!(on("sound").iter().any(|l| l["kind"] == "Play"));
    // Every 200 ms (6 ticks) each clan with buildings shares its power
    // and ore: the neutral clan's generator gives 10 a second.
    let economy = on("economy");
    assert!(economy.iter().all(|l| l["tick"].as_u64().unwrap() % 6 == 0));
    assert!(
        economy.iter().any(|l| l["power_available"] == 10.0),
        "{:?}",
        economy.first()
    );
    // Simulation lines come in tick order.
    let ticks: Vec<u64> = lines
        .0
        .iter()
        .filter(|l| l["channel"] != "sound")
        .map(|l| l["tick"].as_u64().unwrap())
        .collect();
    assert!(ticks.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(app.world().resource::<Trace>().lines, lines.0.len() as u64);
}

/// A watched replay seeks on by running fast to the tick, and back by
/// loading the mission anew and running fast from its start; either way
/// every checkpoint on the way is checked and the seek ends exactly at
/// its tick, where the state is the recorded one.
#[test]
fn a_watched_replay_seeks_on_fast_and_back_by_loading_again() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let replay = record(&game, &tmp.path().join("session.ron"));
    let mut app = running_test_app(
        game,
        (
            Simulation,
            PlaybackPlugin::replay(replay.clone()),
            LoadsPlugin,
        ),
    );
    let checkpoints_to = |to: u64| replay.checkpoints.iter().filter(|c| c.tick <= to).count();
    let seek = |app: &mut App, to: u64| -> u64 {
        app.world_mut().resource_mut::<SeekRequest>().0 = Some(to);
        app.update();
        iron3d_world::mission::update_until_loaded(app).expect("the mission loads");
        let mut frames = 1;
        while app.world().resource::<Playback>().seek_to.is_some() {
            app.update();
            frames += 1;
        }
        frames
    };

    let frames = seek(&mut app, 120);
    assert_eq!(tick(&app), 120);
    assert!(frames * 3 < 120, "fast: {frames} frames");
    let playback = app.world().resource::<Playback>();
    assert_eq!(playback.divergence, None);
    assert_eq!(playback.checked, checkpoints_to(120));

    let frames = seek(&mut app, 60);
    assert_eq!(tick(&app), 60);
    assert!(frames * 2 < 60, "fast: {frames} frames");
    let playback = app.world().resource::<Playback>();
    assert_eq!(playback.divergence, None);
    assert_eq!(playback.checked, checkpoints_to(60));
    let recorded = replay.checkpoints.iter().find(|c| c.tick == 60).unwrap();
    assert_eq!(playback.reached.checkpoints.last().unwrap(), recorded);

    // Then the replay plays on at its own pace, to its end.
    app.update();
    assert_eq!(tick(&app), 61);
    run_to(&mut app, replay.end_tick);
    let playback = app.world().resource::<Playback>();
    assert_eq!(playback.divergence, None);
    assert_eq!(playback.checked, replay.checkpoints.len());
}
