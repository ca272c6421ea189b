//! Small Behavior tests in the test arena: only the objects a test names,
//! on flat ground.

use bevy::prelude::*;
use iron3d_behavior::{BehaviorPlugin, InsertMode, OrderPacket, OrderTarget, Orders};
use iron3d_control::ControlPlugin;
use iron3d_world::test_support::{Arena, Side, What, run_for_seconds, running_arena};
use iron3d_world::{GmsgKind, ObjectRegistry, WorldOutbox};

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
    // 60 m north of where it stands, in the map frame (Z up).
    let start = app.world().get::<Transform>(walker).unwrap().translation;
    let goal = [start.x, -start.z + 60.0, start.y];
    let order = OrderPacket {
        code: 2,
        target: OrderTarget::Place(goal),
        mode: InsertMode::Replace,
        parameter: 0,
    };
    app.world_mut().resource_mut::<WorldOutbox>().post(
        GmsgKind::Order,
        Some(ids[0]),
        order.to_bytes(),
    );
    run_for_seconds(&mut app, 60);
    let at = app.world().get::<Transform>(walker).unwrap().translation;
    let left = Vec2::new(at.x - goal[0], -at.z - goal[1]).length();
    assert!(left < 6.0, "it arrives: {left} m short");
    assert!(
        app.world().get::<Orders>(walker).unwrap().0.is_empty(),
        "the order is done"
    );
}
