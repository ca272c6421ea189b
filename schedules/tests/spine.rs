//! Headless tests of the frame spine: phase order, pause, single step, time
//! scale and ambiguity detection (Bevy's `tests/how_to_test_apps.rs` style).

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_schedules::{GameClock, Phase, SpinePlugin, StateHash, deny_simulation_ambiguities};
use std::time::Duration;

/// The order in which probe systems ran.
#[derive(Resource, Default)]
struct Trace(Vec<Phase>);

/// A spine app whose every update advances real time by `frame`.
fn app(frame: Duration) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpinePlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    deny_simulation_ambiguities(&mut app);
    // The first update only starts the clocks (zero delta).
    app.update();
    app
}

fn timestep(app: &App) -> Duration {
    app.world().resource::<GameClock>().timestep()
}

fn clock(app: &App) -> &GameClock {
    app.world().resource::<GameClock>()
}

fn add_probes(app: &mut App) {
    app.init_resource::<Trace>();
    for phase in Phase::ALL {
        let schedule = match phase {
            Phase::CollectPlatformEvents | Phase::BuildInputSnapshot => PreUpdate.intern(),
            Phase::PublishRenderSnapshot | Phase::RenderUi => PostUpdate.intern(),
            Phase::EndFrameCallbacks | Phase::Maintenance => Last.intern(),
            _ => FixedUpdate.intern(),
        };
        app.add_systems(
            schedule,
            (move |mut trace: ResMut<Trace>| trace.0.push(phase)).in_set(phase),
        );
    }
}

#[test]
fn default_rate_is_30_hz() {
    let app = app(Duration::from_millis(1));
    assert_eq!(timestep(&app), Duration::from_secs_f64(1.0 / 30.0));
}

#[test]
fn phases_run_in_the_declared_order_each_tick() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step);
    add_probes(&mut app);
    for frame in 0..3 {
        app.world_mut().resource_mut::<Trace>().0.clear();
        app.update();
        assert_eq!(
            app.world().resource::<Trace>().0,
            Phase::ALL.to_vec(),
            "frame {frame}: one tick per frame, phases in order"
        );
    }
    assert_eq!(clock(&app).tick(), 3);
}

#[test]
fn simulation_phases_repeat_in_order_when_a_frame_holds_several_ticks() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step * 3);
    add_probes(&mut app);
    app.world_mut().resource_mut::<Trace>().0.clear();
    app.update();
    let trace = &app.world().resource::<Trace>().0;
    let mut expected = vec![Phase::CollectPlatformEvents, Phase::BuildInputSnapshot];
    for _ in 0..3 {
        expected.extend(Phase::SIMULATION);
    }
    expected.extend([
        Phase::PublishRenderSnapshot,
        Phase::RenderUi,
        Phase::EndFrameCallbacks,
        Phase::Maintenance,
    ]);
    assert_eq!(trace, &expected);
}

#[test]
fn pause_stops_game_time_and_ticks_while_real_time_goes_on() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step);
    for _ in 0..5 {
        app.update();
    }
    let tick = clock(&app).tick();
    let game_time = clock(&app).elapsed();
    assert_eq!(tick, 5);
    let real_before = app.world().resource::<Time<Real>>().elapsed();

    app.world_mut().resource_mut::<GameClock>().pause();
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(clock(&app).tick(), tick, "no simulation tick while paused");
    assert_eq!(clock(&app).elapsed(), game_time, "game time stopped");
    let real_after = app.world().resource::<Time<Real>>().elapsed();
    assert_eq!(real_after - real_before, step * 10, "real time went on");

    app.world_mut().resource_mut::<GameClock>().resume();
    for _ in 0..2 {
        app.update();
    }
    assert_eq!(clock(&app).tick(), tick + 2, "resumed");
}

#[test]
fn a_pause_made_during_a_frame_stops_that_frames_ticks() {
    // Frames of three timesteps: each would run three ticks.
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step * 3);
    app.update();
    let tick = clock(&app).tick();
    assert_eq!(tick, 3);
    // A menu pausing the game in `PreUpdate`, after the frame's time was
    // measured.
    app.add_systems(PreUpdate, |mut clock: ResMut<GameClock>| clock.pause());
    app.update();
    assert_eq!(clock(&app).tick(), tick, "no tick in the frame that paused");
}

#[test]
fn single_step_while_paused_advances_exactly_one_tick() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step);
    app.world_mut().resource_mut::<GameClock>().pause();
    app.update();
    let tick = clock(&app).tick();

    app.world_mut().resource_mut::<GameClock>().request_step();
    app.update();
    assert_eq!(clock(&app).tick(), tick + 1);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(clock(&app).tick(), tick + 1, "one request, one tick");

    // Two requests, two ticks (one per frame).
    let mut c = app.world_mut().resource_mut::<GameClock>();
    c.request_step();
    c.request_step();
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(clock(&app).tick(), tick + 3);
}

#[test]
fn step_request_while_running_is_ignored() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let mut app = app(step);
    app.world_mut().resource_mut::<GameClock>().request_step();
    app.update();
    assert_eq!(clock(&app).tick(), 1);
}

#[test]
fn time_scale_two_doubles_game_time_per_real_second() {
    let frame = Duration::from_millis(10);
    let mut normal = app(frame);
    let mut fast = app(frame);
    assert!(fast.world_mut().resource_mut::<GameClock>().set_scale(2.0));
    // One real second.
    for _ in 0..100 {
        normal.update();
        fast.update();
    }
    let step = timestep(&normal).as_secs_f64();
    let normal_time = clock(&normal).elapsed_secs_f64();
    let fast_time = clock(&fast).elapsed_secs_f64();
    // Fixed steps quantise game time to one step either way.
    assert!((normal_time - 1.0).abs() <= step + 1e-9, "{normal_time}");
    assert!((fast_time - 2.0).abs() <= step + 1e-9, "{fast_time}");
}

#[test]
fn invalid_scales_are_refused() {
    let mut clock = GameClock::new(Duration::from_millis(33));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(!clock.set_scale(bad));
    }
    assert_eq!(clock.scale(), 1.0);
}

#[test]
fn simulation_schedule_has_zero_ambiguities() {
    let mut app = app(Duration::from_secs_f64(1.0 / 30.0));
    add_probes(&mut app);
    app.update();
    let schedules = app.world().resource::<Schedules>();
    let fixed = schedules.get(FixedUpdate).expect("FixedUpdate exists");
    assert!(fixed.graph().conflicting_systems().0.is_empty());
}

#[derive(Resource, Default)]
struct Shared(u32);

#[test]
#[should_panic(expected = "ambigu")]
fn an_unordered_conflict_in_the_simulation_schedule_is_an_error() {
    let mut app = app(Duration::from_secs_f64(1.0 / 30.0));
    app.init_resource::<Shared>().add_systems(
        FixedUpdate,
        (
            |mut s: ResMut<Shared>| s.0 += 1,
            |mut s: ResMut<Shared>| s.0 *= 2,
        )
            .in_set(Phase::UpdateWorld),
    );
    app.update();
}

#[test]
fn state_hash_is_reproducible_and_tracks_the_clock() {
    let step = Duration::from_secs_f64(1.0 / 30.0);
    let run = |ticks| {
        let mut app = app(step);
        for _ in 0..ticks {
            app.update();
        }
        StateHash::compute(app.world())
    };
    assert_eq!(run(10), run(10));
    assert_ne!(run(10), run(11));
}
