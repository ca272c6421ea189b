//! Behavior on the demo install, headless at the fixed step: order packets
//! addressed by original id through the World3D queue drive a walker
//! through Control.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use iron3d_behavior::*;
use iron3d_control::{Body, ControlPlugin, PhysicalState};
use iron3d_demo::{self as demo, Scale};
use iron3d_schedules::StateHash;
use iron3d_world::mission::*;
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOps, WorldOutbox};
use std::path::Path;

fn demo_install() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    demo::build(&tmp.path().join("game"), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    tmp
}

/// The first demo mission running with Control and Behavior, every
/// simulation system explicitly ordered.
fn app(dir: &Path) -> App {
    running_test_app(dir.join("game"), (ControlPlugin, BehaviorPlugin))
}

fn entity(app: &App, id: OriginalObjectId) -> Entity {
    app.world().resource::<ObjectRegistry>().entity(id).unwrap()
}

fn translation(app: &App, id: OriginalObjectId) -> Vec3 {
    app.world()
        .get::<Transform>(entity(app, id))
        .unwrap()
        .translation
}

fn orders(app: &App, id: OriginalObjectId) -> Orders {
    app.world().get::<Orders>(entity(app, id)).unwrap().clone()
}

/// The first ground-bound mover, alone on the map (bodies are attached on
/// the first tick).
fn lone_walker(app: &mut App) -> OriginalObjectId {
    app.update();
    let world = app.world();
    let id = world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| world.get::<Body>(e).is_some_and(|b| b.holds_ground))
        .map(|(id, _)| id)
        .unwrap();
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| {
            let all: Vec<_> = ops.registry().iter().map(|(id, _)| id).collect();
            for other in all.into_iter().filter(|&o| o != id) {
                ops.delete(other).unwrap();
            }
        })
        .unwrap();
    app.update();
    id
}

fn post(app: &mut App, id: OriginalObjectId, payload: Vec<u8>) {
    app.world_mut()
        .resource_mut::<WorldOutbox>()
        .post(GmsgKind::Order, Some(id), payload);
}

fn go(place: [f32; 3], mode: InsertMode) -> Vec<u8> {
    OrderPacket {
        code: 2,
        target: OrderTarget::Place(place),
        mode,
        parameter: 0,
    }
    .to_bytes()
}

/// A world point as a map-frame place (Z up).
fn map_place(p: Vec3) -> [f32; 3] {
    [p.x, -p.z, p.y]
}

fn horizontal(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

/// A walker ordered to a place 20 m away on flat ground turns, walks there
/// and stops inside the corridor radius; its order is then done.
#[test]
fn a_go_order_walks_the_unit_to_the_place_and_is_done_there() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let start = translation(&app, id);
    // Behind and to the side of where it stands: it has to turn.
    let goal = start + Vec3::new(20.0, 0.0, 6.0);
    post(&mut app, id, go(map_place(goal), InsertMode::Replace));
    app.update();
    assert_eq!(orders(&app, id).current().unwrap().kind, OrderKind::Go);
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    assert_eq!(radius, steer::DEFAULT_CORRIDOR_RADIUS);
    let mut ticks = 0;
    while orders(&app, id).current().is_some() {
        app.update();
        ticks += 1;
        assert!(ticks < 30 * 30, "the walker did not arrive");
    }
    let end = translation(&app, id);
    assert!(horizontal(end, goal) <= radius, "{end} vs {goal}");
    // It brakes to a stand near the place and is left standing.
    for _ in 0..60 {
        app.update();
    }
    let state = *app.world().get::<PhysicalState>(entity(&app, id)).unwrap();
    assert!(state.linear_velocity.length() < 0.05, "{state:?}");
    assert_eq!(state.requested, Vec3::ZERO);
    assert!(horizontal(translation(&app, id), goal) <= radius + 1.0);
}

/// A stop order put before a go brakes the walker to a stand, is done, and
/// the go order it was put before carries on.
#[test]
fn a_stop_put_first_brakes_the_unit_then_the_next_order_goes_on() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let start = translation(&app, id);
    let goal = start + Vec3::new(-20.0, 0.0, 0.0);
    post(&mut app, id, go(map_place(goal), InsertMode::End));
    for _ in 0..60 {
        app.update();
    }
    let stop = OrderPacket {
        code: 1,
        target: OrderTarget::None,
        mode: InsertMode::Start,
        parameter: 0,
    };
    post(&mut app, id, stop.to_bytes());
    app.update();
    let kinds: Vec<_> = orders(&app, id).0.iter().map(|o| o.kind).collect();
    assert_eq!(kinds, [OrderKind::Stop, OrderKind::Go]);
    let mut ticks = 0;
    while orders(&app, id).current().unwrap().kind == OrderKind::Stop {
        app.update();
        ticks += 1;
        assert!(ticks < 30 * 10, "the walker did not stop");
    }
    assert_eq!(orders(&app, id).current().unwrap().kind, OrderKind::Go);
}

/// A bad packet is dropped and the unit keeps its orders; an order for an
/// object that is gone is undeliverable, never another object's.
#[test]
fn bad_and_undeliverable_orders_change_nothing() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let goal = map_place(translation(&app, id) + Vec3::X * 10.0);
    post(&mut app, id, go(goal, InsertMode::End));
    app.update();
    let before = orders(&app, id);
    let mut truncated = go(goal, InsertMode::Replace);
    truncated.pop();
    post(&mut app, id, truncated);
    // ORDER_ROBOT_SEARCH: not carried out yet.
    let search = OrderPacket {
        code: 5,
        target: OrderTarget::None,
        mode: InsertMode::Replace,
        parameter: -1,
    };
    post(&mut app, id, search.to_bytes());
    post(
        &mut app,
        OriginalObjectId(0x7fff_fff0),
        go(goal, InsertMode::Replace),
    );
    app.update();
    assert_eq!(orders(&app, id).0, before.0);
}

/// The same orders give the same state hash every run; an order changes it.
#[test]
fn the_same_orders_give_the_same_hash_and_orders_are_in_it() {
    let tmp = demo_install();
    let run = |order: bool| {
        let mut app = app(tmp.path());
        let id = lone_walker(&mut app);
        if order {
            let goal = translation(&app, id) + Vec3::new(15.0, 0.0, -5.0);
            post(&mut app, id, go(map_place(goal), InsertMode::Replace));
        }
        let mut positions = Vec::new();
        for _ in 0..90 {
            app.update();
            positions.push(translation(&app, id));
        }
        (StateHash::compute(app.world()), positions)
    };
    let first = run(true);
    assert_eq!(run(true), first);
    assert_ne!(run(false).0, first.0);
}

/// `PathFind_CorridorRadius` is read from the install's `Behavior.ini`.
#[test]
fn the_corridor_radius_comes_from_behavior_ini() {
    let tmp = demo_install();
    let ini = tmp.path().join("game").join("Behavior.ini");
    let mut text = std::fs::read(&ini).unwrap();
    text.extend_from_slice(b"PathFind_CorridorRadius = 12.5 // metres\r\n");
    std::fs::write(&ini, text).unwrap();
    let mut app = app(tmp.path());
    app.update();
    assert_eq!(
        app.world().resource::<BehaviorParams>().corridor_radius,
        12.5
    );
}

/// A walker following another keeps within 20 m of it as the leader walks
/// away, and is still following; once the leader is gone the order is over.
#[test]
fn a_follower_keeps_within_twenty_metres_of_its_leader() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let world = app.world();
    let walkers: Vec<_> = world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| world.get::<Body>(e).is_some_and(|b| b.holds_ground))
        .map(|(id, _)| id)
        .take(2)
        .collect();
    let (leader, follower) = (walkers[0], walkers[1]);
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| {
            let all: Vec<_> = ops.registry().iter().map(|(id, _)| id).collect();
            for other in all.into_iter().filter(|o| ![leader, follower].contains(o)) {
                ops.delete(other).unwrap();
            }
        })
        .unwrap();
    // The follower a metre up, 20 m west of the leader: it lands and waits.
    let start = translation(&app, leader);
    let e = entity(&app, follower);
    app.world_mut().get_mut::<Transform>(e).unwrap().translation =
        start + Vec3::new(-20.0, 1.0, 0.0);
    app.world_mut().get_mut::<PhysicalState>(e).unwrap().flags =
        iron3d_control::MotionFlags::default();
    let follow = OrderPacket {
        code: 22,
        target: OrderTarget::Object(leader.raw()),
        mode: InsertMode::Replace,
        parameter: 0,
    };
    post(&mut app, follower, follow.to_bytes());
    post(
        &mut app,
        leader,
        go(map_place(start + Vec3::X * 18.0), InsertMode::Replace),
    );
    let mut widest: f32 = 0.0;
    for tick in 0..30 * 25 {
        app.update();
        let apart = horizontal(translation(&app, leader), translation(&app, follower));
        if tick > 30 * 15 {
            widest = widest.max(apart);
        }
    }
    assert!(
        orders(&app, leader).current().is_none(),
        "the leader arrived"
    );
    assert_eq!(
        orders(&app, follower).current().unwrap().kind,
        OrderKind::Follow
    );
    // 38 m apart when the leader stopped; the follower closed to the radius.
    assert!(widest <= order::FOLLOW_RADIUS + 0.5, "{widest} m apart");
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| ops.delete(leader).unwrap())
        .unwrap();
    app.update();
    app.update();
    assert!(orders(&app, follower).current().is_none());
}

/// A patrol walks its mission path point after point and starts again at
/// the first after the last; it is never done. A path that is not in the
/// mission ends the order.
#[test]
fn a_patrol_loops_its_path() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let start = translation(&app, id);
    let ends = [start + Vec3::X * 15.0, start - Vec3::X * 15.0];
    app.world_mut()
        .resource_mut::<MissionPaths>()
        .0
        .push(iron3d_formats::tma::MissionPath {
            id: 900,
            points: ends.iter().map(|&p| map_place(p)).collect(),
        });
    let patrol = |path| OrderPacket {
        code: 4,
        target: OrderTarget::None,
        mode: InsertMode::Replace,
        parameter: path,
    };
    post(&mut app, id, patrol(900).to_bytes());
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    // Which end it last reached, and how many times it turned round.
    let (mut last, mut visits) = (None, 0);
    for _ in 0..30 * 60 {
        app.update();
        let at = translation(&app, id);
        if let Some(end) = (0..2).find(|&e| horizontal(at, ends[e]) <= radius)
            && last != Some(end)
        {
            last = Some(end);
            visits += 1;
        }
    }
    assert!(visits >= 4, "{visits} ends reached");
    assert_eq!(orders(&app, id).current().unwrap().kind, OrderKind::Patrol);
    post(&mut app, id, patrol(901).to_bytes());
    app.update();
    app.update();
    assert!(orders(&app, id).current().is_none());
}
