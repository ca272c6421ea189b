//! Helpers shared by the mission tests: bounded loading and the checks of
//! a failed load.
// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

use bevy::prelude::*;
use iron3d_schedules::GameClock;
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::*;

/// The current loader phase.
pub fn phase(app: &App) -> MissionPhase {
    *app.world().resource::<State<MissionPhase>>().get()
}

/// Updates until the mission runs or failed; the clock must not move
/// before.
pub fn load(app: &mut App) -> MissionPhase {
    for _ in 0..20 {
        app.update();
        let p = phase(app);
        if matches!(p, MissionPhase::Running | MissionPhase::Failed) {
            return p;
        }
        assert_eq!(
            app.world().resource::<GameClock>().tick(),
            0,
            "ticked in {p:?}"
        );
    }
    panic!("loading did not finish: {:?}", phase(app));
}

/// The error of a failed load, after checking that it failed and left
/// nothing behind: an empty registry and no entity of the mission.
pub fn failed_load(app: &mut App) -> LoadError {
    assert_eq!(load(app), MissionPhase::Failed);
    let error = app.world().resource::<LoadProgress>().error.clone();
    assert!(app.world().resource::<ObjectRegistry>().is_empty());
    let world = app.world_mut();
    let mut built = world
        .query_filtered::<Entity, Or<(With<MissionObject>, With<UnitPartInfo>, With<ModelNode>)>>();
    assert_eq!(
        built.iter(world).count(),
        0,
        "no entity of the mission remains"
    );
    error.expect("a failed load keeps its error")
}
