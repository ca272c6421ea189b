//! The whole simulation without presentation: every simulation plugin on
//! `MinimalPlugins` (`iron3d::app::headless`: no window, renderer, sound
//! output, HUD or inspector) loads and runs the first demo mission. Its
//! 300th tick has the state hash `iron3d play --headless --ticks 300`
//! prints on the demo install (the hash every restructure keeps), and the
//! sound the simulation emits is there without an output to hear it.

use iron3d::app::{headless, run_headless};
use iron3d_demo::{self as demo, Scale};
use iron3d_schedules::SimulationRate;
use iron3d_sound::Sounds;
use iron3d_world::mission::{MissionPlugin, MissionRequest, update_until_loaded};

/// The demo install's 300-tick state hash at seed 0 and 30 Hz.
const DEMO_300_TICK_HASH: u64 = 0x7a9d_4aa3_548a_6925;

#[test]
fn every_simulation_plugin_runs_the_demo_mission_without_presentation() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    demo::build(&game, demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mission = MissionPlugin {
        request: Some(MissionRequest::first_of(game)),
        seed: 0,
    };
    let mut app = headless(SimulationRate(30.0), mission, ());
    update_until_loaded(&mut app).expect("the first demo mission loads");
    let hash = run_headless(&mut app, 300, None, |_, _| {});
    assert_eq!(
        hash, DEMO_300_TICK_HASH,
        "{hash:016x}: the simulation's state after 300 ticks changed"
    );
    let sounds = &app.world().resource::<Sounds>().0;
    assert!(!sounds.is_empty(), "the ambience plays with no output");
}
