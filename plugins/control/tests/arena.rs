//! Small Control tests in the test arena: only the objects a test names,
//! on flat ground (Bevy's `tests/how_to_test_apps.rs` style: a headless
//! app with what the test needs, updated, asserted on components).

use bevy::prelude::*;
use iron3d_control::{Body, ControlPlugin, MotionFlags, PhysicalState, map_velocity};
use iron3d_formats::proto::ctld::{ControlParams, Ctld};
use iron3d_world::mission::Controller;
use iron3d_world::test_support::{
    Arena, ROBOT_DESIGNS, Side, What, run_for_seconds, running_arena, running_arena_with_controller,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};

/// The entity of the object `id`.
fn entity(app: &App, id: OriginalObjectId) -> Entity {
    app.world()
        .resource::<ObjectRegistry>()
        .entity(id)
        .expect("a registered object")
}

/// How far the object `id` moves between the second and the twelfth
/// second of game time (it has settled by then), and its reported
/// velocity at the end (map frame, m/s).
fn idle_drift(app: &mut App, id: OriginalObjectId) -> (f32, [f32; 3]) {
    let e = entity(app, id);
    run_for_seconds(app, 2);
    let settled = app.world().get::<Transform>(e).unwrap().translation;
    run_for_seconds(app, 12);
    let now = app.world().get::<Transform>(e).unwrap().translation;
    let velocity = map_velocity(app.world(), e).expect("a mover");
    (now.distance(settled), velocity)
}

#[test]
fn an_idle_walker_on_flat_ground_lands_and_stays_where_it_stands() {
    let arena = Arena::default().with(What::Walker, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, ids) = running_arena(&arena, ControlPlugin);
    assert_eq!(app.world().resource::<ObjectRegistry>().iter().count(), 1);
    let (drift, velocity) = idle_drift(&mut app, ids[0]);
    let state = app.world().get::<PhysicalState>(entity(&app, ids[0]));
    let state = state.unwrap();
    assert!(state.face.is_some(), "it stands on the ground: {state:?}");
    assert!(drift < 0.05, "no drift over 10 s: {drift} m");
    assert!(state.linear_velocity.length() < 0.01, "{state:?}");
    assert!(Vec3::from(velocity).length() < 0.01, "{velocity:?}");
}

#[test]
fn no_design_the_demo_ships_drifts_when_idle() {
    let designs = (0..ROBOT_DESIGNS)
        .map(What::Robot)
        .chain([What::Flyer, What::Hero]);
    for what in designs {
        let arena = Arena::default().with(what, Side::Player, [0.0, 0.0]);
        let (_tmp, mut app, ids) = running_arena(&arena, ControlPlugin);
        let (drift, velocity) = idle_drift(&mut app, ids[0]);
        let e = entity(&app, ids[0]);
        let controller = &app.world().get::<Controller>(e).unwrap().resource;
        assert!(
            drift < 0.05,
            "{what:?} ({controller}) drifted {drift} m in 10 s"
        );
        let speed = Vec3::from(velocity).length();
        assert!(speed < 0.01, "{what:?} ({controller}) reports {velocity:?}");
    }
}

#[test]
fn a_controller_without_states_is_a_plain_body_that_refuses_to_move() {
    // The documented floor: all five counts zero, the parameter block and
    // the group block, written over the hero's own controller.
    let floor = Ctld::frame(&ControlParams::ENGINE_DEFAULT)
        .to_bytes()
        .unwrap();
    assert_eq!(floor.len(), 212);
    let arena = Arena::default().with(What::Hero, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, ids) = running_arena_with_controller(&arena, 0, floor, ControlPlugin);
    let hero = ids[0];
    let e = entity(&app, hero);
    app.update();
    let ground = app.world().get::<Transform>(e).unwrap().translation.y;
    let body = *app.world().get::<Body>(e).expect("a body");
    assert!(body.holds_ground && !body.can_move, "{body:?}");
    // Lifted 3 m, it falls and lands where it stood.
    app.world_mut()
        .get_mut::<Transform>(e)
        .unwrap()
        .translation
        .y = ground + 3.0;
    run_for_seconds(&mut app, 2);
    let state = *app.world().get::<PhysicalState>(e).unwrap();
    assert!(state.flags.has(MotionFlags::ON_GROUND), "{state:?}");
    let landed = *app.world().get::<Transform>(e).unwrap();
    assert!((landed.translation.y - ground).abs() < 1e-3, "{landed:?}");
    // Asked to walk and turn every step for 10 s, it stays put.
    while app
        .world()
        .resource::<iron3d_schedules::GameClock>()
        .elapsed()
        .as_secs()
        < 12
    {
        let mut state = app.world_mut().get_mut::<PhysicalState>(e).unwrap();
        state.requested = Vec3::new(0.3, 1.0, 0.0);
        state.turn = 1.0;
        app.update();
    }
    let now = *app.world().get::<Transform>(e).unwrap();
    assert!(
        now.translation.distance(landed.translation) < 0.05,
        "{landed:?} -> {now:?}"
    );
    assert!(now.rotation.angle_between(landed.rotation) < 1e-4);
    let state = app.world().get::<PhysicalState>(e).unwrap();
    assert_eq!((state.requested, state.turn), (Vec3::ZERO, 0.0), "refused");
    let velocity = map_velocity(app.world(), e).unwrap();
    assert!(Vec3::from(velocity).length() < 1e-3, "{velocity:?}");
}
