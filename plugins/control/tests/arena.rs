//! Small Control tests in the test arena: only the objects a test names,
//! on flat ground (Bevy's `tests/how_to_test_apps.rs` style: a headless
//! app with what the test needs, updated, asserted on components).

use bevy::prelude::*;
use iron3d_control::{ControlPlugin, PhysicalState};
use iron3d_world::ObjectRegistry;
use iron3d_world::test_support::{Arena, Side, What, run_for_seconds, running_arena};

#[test]
fn an_idle_walker_on_flat_ground_lands_and_stays_where_it_stands() {
    let arena = Arena::default().with(What::Walker, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, ids) = running_arena(&arena, ControlPlugin);
    assert_eq!(app.world().resource::<ObjectRegistry>().iter().count(), 1);
    let walker = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(ids[0])
        .unwrap();
    run_for_seconds(&mut app, 2);
    let settled = app.world().get::<Transform>(walker).unwrap().translation;
    run_for_seconds(&mut app, 12);
    let world = app.world();
    let now = world.get::<Transform>(walker).unwrap().translation;
    let state = world.get::<PhysicalState>(walker).unwrap();
    assert!(state.face.is_some(), "it stands on the ground: {state:?}");
    assert!(
        now.distance(settled) < 0.05,
        "no drift over 10 s: {settled} -> {now}"
    );
    assert!(state.linear_velocity.length() < 0.01, "{state:?}");
}
