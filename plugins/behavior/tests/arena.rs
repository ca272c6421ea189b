//! Small Behavior tests in the test arena: only the objects a test names,
//! on flat ground.

use bevy::prelude::*;
use iron3d_behavior::{BehaviorPlugin, InsertMode, OrderPacket, OrderTarget, Orders};
use iron3d_control::ControlPlugin;
use iron3d_formats::proto::ctld::{ControlParams, Ctld};
use iron3d_world::test_support::{
    Arena, Side, What, run_for_seconds, running_arena, running_arena_with_controller,
};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOutbox};

/// Posts the unit `id` (at `unit`) a GO order to 60 m north of where it
/// stands; returns the goal (map frame, Z up).
fn go_north(app: &mut App, id: OriginalObjectId, unit: Entity) -> [f32; 3] {
    let start = app.world().get::<Transform>(unit).unwrap().translation;
    let goal = [start.x, -start.z + 60.0, start.y];
    let order = OrderPacket {
        code: 2,
        target: OrderTarget::Place(goal),
        mode: InsertMode::Replace,
        parameter: 0,
    };
    app.world_mut()
        .resource_mut::<WorldOutbox>()
        .post(GmsgKind::Order, Some(id), order.to_bytes());
    goal
}

#[test]
fn a_go_order_walks_a_walker_across_the_arena_and_is_done_there() {
    let arena = Arena::default().with(What::Walker, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, ids) = running_arena(&arena, (ControlPlugin, BehaviorPlugin));
    let walker = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(ids[0])
        .unwrap();
    app.update();
    let goal = go_north(&mut app, ids[0], walker);
    run_for_seconds(&mut app, 60);
    let at = app.world().get::<Transform>(walker).unwrap().translation;
    let left = Vec2::new(at.x - goal[0], -at.z - goal[1]).length();
    assert!(left < 6.0, "it arrives: {left} m short");
    assert!(
        app.world().get::<Orders>(walker).unwrap().0.is_empty(),
        "the order is done"
    );
}

#[test]
fn a_unit_whose_controller_has_no_states_refuses_a_go_order() {
    // The hero: its engine is its chassis's own (a walker's engine part
    // needs the slot its chassis's controller declares).
    let floor = Ctld::frame(&ControlParams::ENGINE_DEFAULT)
        .to_bytes()
        .unwrap();
    let arena = Arena::default().with(What::Hero, Side::Player, [0.0, 0.0]);
    let plugins = (ControlPlugin, BehaviorPlugin);
    let (_tmp, mut app, ids) = running_arena_with_controller(&arena, 0, floor, plugins);
    let hero = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(ids[0])
        .unwrap();
    app.update();
    let start = app.world().get::<Transform>(hero).unwrap().translation;
    go_north(&mut app, ids[0], hero);
    run_for_seconds(&mut app, 10);
    assert!(
        app.world().get::<Orders>(hero).unwrap().0.is_empty(),
        "the order is refused, not held"
    );
    let at = app.world().get::<Transform>(hero).unwrap().translation;
    assert!(at.distance(start) < 0.05, "it stays: {start} -> {at}");
}
