//! The recorder of the kept won game, `tests/replays/won.ron`: the demo's
//! first mission played by a player made of code (`autopilot`) in the
//! engine `iron3d play --headless` runs, recorded as `--record` does. The
//! CLI tests verify the kept file and check that it wins
//! (`the_kept_won_replay_completes_the_demo_mission`); run this when a
//! meant change leaves it no longer winning:
//! `cargo test --workspace --test won_replay -- --ignored`.

mod autopilot;

use bevy::prelude::*;
use iron3d_replay::RecordPlugin;
use iron3d_schedules::{GameClock, Phase, SimStep, SimulationRate};
use iron3d_script::{OutcomeResult, Progress};
use iron3d_world::mission::{MissionPlugin, MissionRequest, update_until_loaded};
use std::path::Path;

/// The autopilot's step, where the step's input is taken and before the
/// recorder reads it.
struct Autopiloted;

impl Plugin for Autopiloted {
    fn build(&self, app: &mut App) {
        app.add_systems(
            FixedUpdate,
            autopilot::steer
                .in_set(Phase::AdvanceGameClock)
                .after(SimStep::TakeInput)
                .before(SimStep::ReplayInput),
        );
    }
}

fn tick(app: &App) -> u64 {
    app.world().resource::<GameClock>().tick()
}

#[test]
#[ignore = "writes tests/replays/won.ron"]
fn record_the_demo_mission_won() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    iron3d_demo::build(&game, iron3d_demo::DEFAULT_SEED, iron3d_demo::Scale::Demo).unwrap();
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/won.ron");
    let mission = MissionPlugin {
        request: Some(MissionRequest {
            game_dir: game,
            mission: Some("Campaign.00/Mission.01".into()),
            mod_dirs: Vec::new(),
        }),
        seed: 0,
    };
    let record = RecordPlugin {
        path: Some(out.clone()),
        rate: 30.0,
        ..default()
    };
    let mut app = iron3d::app::headless(SimulationRate(30.0), mission, (record, Autopiloted));
    update_until_loaded(&mut app).unwrap();
    let plan = autopilot::Autopilot::first_mission(app.world_mut());
    app.insert_resource(plan);
    let outcome = |app: &App| app.world().resource::<Progress>().outcome;
    let mut legs = usize::MAX;
    while outcome(&app).is_none() && tick(&app) < 30 * 60 * 10 {
        app.update();
        let left = app.world().resource::<autopilot::Autopilot>().legs.len();
        if left != legs {
            eprintln!("tick {}: {left} legs left", tick(&app));
            legs = left;
        }
    }
    eprintln!("outcome {:?} at tick {}", outcome(&app), tick(&app));
    assert!(matches!(outcome(&app), Some((OutcomeResult::Complete, _))));
    // A second after the end, the game exits, which writes the replay.
    let end = tick(&app) + 30;
    while tick(&app) < end {
        app.update();
    }
    app.world_mut().write_message(AppExit::Success);
    app.update();
    let replay = iron3d_replay::Replay::load(&out).expect("written");
    assert!(replay.orders.is_empty());
}
