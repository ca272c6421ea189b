//! Behavior on the demo install, headless at the fixed step: order packets
//! addressed by original id through the World3D queue drive a walker
//! through Control.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use iron3d_behavior::capture::{REOPEN_SECONDS, capture_seconds};
use iron3d_behavior::wizard::Footprints;
use iron3d_behavior::*;
use iron3d_control::{Body, ControlPlugin, PhysicalState};
use iron3d_schedules::{GameClock, StateHash};
use iron3d_world::mission::*;
use iron3d_world::test_support::{delete_all_but, demo_install, running_test_app};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOps, WorldOutbox};
use std::path::Path;

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
    delete_all_but(app, &[id]);
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

/// Behavior reads its own `Behavior.ini` in the mission load (the mission
/// loader does not): a broken one fails the load with the chain naming
/// the file and the phase, and the same install loads without Behavior.
#[test]
fn behavior_reads_its_own_ini_and_a_broken_one_fails_the_load() {
    let tmp = demo_install();
    let ini = tmp.path().join("game").join("Behavior.ini");
    std::fs::write(
        &ini,
        b"PathFind_CorridorRadius = 9\r\nwords \"unterminated\r\n",
    )
    .unwrap();
    let request = MissionRequest::first_of(tmp.path().join("game"));
    let mut bare = headless_app(Some(request.clone()), 1);
    let loaded = update_until_loaded(&mut bare);
    assert!(
        loaded.is_ok(),
        "the loader reads no Behavior.ini: {loaded:?}"
    );
    assert!(bare.world().get_resource::<BehaviorIni>().is_none());
    let mut app = headless_app(Some(request), 1);
    app.add_plugins((ControlPlugin, BehaviorPlugin));
    app.finish();
    app.cleanup();
    let error = update_until_loaded(&mut app).unwrap_err();
    assert_eq!(error.phase, MissionPhase::Foundation);
    let said = error.to_string();
    assert!(said.contains("Behavior.ini"), "{said}");
    assert!(said.contains("unterminated"), "{said}");
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
    delete_all_but(&mut app, &[leader, follower]);
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

/// A patrol round a place walks a loop of points drawn in the square of
/// its radius, at 0.8 of its speed, and draws a new loop every 20 to 30 s;
/// it never ends.
#[test]
fn a_place_patrol_walks_its_loop_in_its_square_and_draws_it_again() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let centre = translation(&app, id) + Vec3::new(30.0, 0.0, 0.0);
    let radius = 40;
    let packet = OrderPacket {
        code: 4,
        target: OrderTarget::Place(map_place(centre)),
        mode: InsertMode::Replace,
        parameter: radius,
    };
    post(&mut app, id, packet.to_bytes());
    let (mut seeds, mut legs, mut farthest) = (Vec::new(), Vec::new(), 0.0f32);
    for _ in 0..30 * 70 {
        app.update();
        let Some(order) = orders(&app, id).current().copied() else {
            panic!("the patrol ended");
        };
        assert_eq!(order.kind, OrderKind::Patrol);
        if let Some(place) = order.place {
            assert_eq!(order.speed, 0.8);
            let point = Vec2::from(place);
            let from = Vec2::from(ground(centre));
            assert!(
                (point - from).abs().max_element() <= radius as f32,
                "{point}"
            );
            assert!(walkable(&app, point.into()), "{point} on walkable ground");
        }
        if seeds.last() != Some(&order.seed) {
            seeds.push(order.seed);
        }
        if legs.last() != Some(&order.leg) {
            legs.push(order.leg);
        }
        farthest = farthest.max(horizontal(translation(&app, id), centre));
    }
    // 70 s: the first loop and two or three more.
    assert!((3..=4).contains(&seeds.len()), "{} loops", seeds.len());
    assert!(legs.len() >= 4, "points reached: {legs:?}");
    let corner = radius as f32 * std::f32::consts::SQRT_2;
    assert!(farthest <= corner + 10.0, "{farthest} m from the centre");
}

/// A patrolling unit takes on only a hostile inside its circle; an attack
/// that takes it beyond radius + 60 of the centre is dropped and the
/// patrol goes on with a new loop.
#[test]
fn a_patrol_engages_inside_its_circle_and_is_called_back_past_its_reach() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (player, enemy) = foes(&mut app);
    let centre = Vec2::from(ground(translation(&app, player)));
    let packet = OrderPacket {
        code: 4,
        target: OrderTarget::Place([centre.x, centre.y, 0.0]),
        mode: InsertMode::Replace,
        parameter: 60,
    };
    post(&mut app, player, packet.to_bytes());
    // Pins the enemy at `p` for `ticks` steps; the kinds of the player's
    // head order on the way.
    let hold = |app: &mut App, p: Vec2, ticks: usize| {
        let mut kinds = Vec::new();
        for _ in 0..ticks {
            put(app, enemy, p);
            app.update();
            let kind = orders(app, player).current().map(|o| o.kind);
            if kinds.last() != Some(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    };
    // 150 m off: seen (radar 400), outside the circle.
    let outside = hold(&mut app, centre + Vec2::new(150.0, 0.0), 90);
    assert_eq!(outside, [Some(OrderKind::Patrol)]);
    // 40 m off: inside; the attack goes first, the patrol under it.
    let inside = hold(&mut app, centre + Vec2::new(40.0, 0.0), 60);
    assert!(inside.contains(&Some(OrderKind::Attack)), "{inside:?}");
    let list = orders(&app, player);
    assert_eq!(list.0.len(), 2);
    assert_eq!(list.0[1].kind, OrderKind::Patrol);
    // The enemy backs off to 250 m: the attack follows it out until the
    // unit is past 120 m of the centre, then the patrol takes over again.
    let mut farthest = 0.0f32;
    let mut ticks = 0;
    while hold(&mut app, centre + Vec2::new(250.0, 0.0), 1) != [Some(OrderKind::Patrol)] {
        let at = Vec2::from(ground(translation(&app, player)));
        farthest = farthest.max(at.distance(centre));
        ticks += 1;
        assert!(ticks < 30 * 90, "still attacking {farthest} m out");
    }
    assert_eq!(orders(&app, player).0.len(), 1);
    assert!(farthest > 115.0, "the attack took it out: {farthest}");
    assert!(
        farthest < 120.0 + 15.0,
        "called back at its reach: {farthest}"
    );
}

/// Whether map point `p` lies on a walkable areal of the mission.
fn walkable(app: &App, p: [f32; 2]) -> bool {
    let map = app.world().resource::<MissionArealMap>();
    map.navigator()
        .locator
        .areal_at(p[0], p[1])
        .is_some_and(|a| map.map.areals[a as usize].is_walkable())
}

fn ground(p: Vec3) -> [f32; 2] {
    [p.x, -p.z]
}

fn route(app: &App, id: OriginalObjectId) -> Route {
    app.world().get::<Route>(entity(app, id)).unwrap().clone()
}

/// The lone walker sent from the player's base to the enemy's, whose
/// straight way runs through the lake in the middle of the map.
fn across_the_lake(app: &mut App) -> (OriginalObjectId, [f32; 3]) {
    let id = lone_walker(app);
    // Path 10 runs from the enemy base through the neutral one to the
    // player's.
    let goal = app
        .world()
        .resource::<MissionPaths>()
        .0
        .iter()
        .find(|p| p.id == 10)
        .unwrap()
        .points[0];
    let from = ground(translation(app, id));
    let wet = (0..=400).any(|i| {
        let t = i as f32 / 400.0;
        let p = [
            from[0] + t * (goal[0] - from[0]),
            from[1] + t * (goal[1] - from[1]),
        ];
        !walkable(app, p)
    });
    assert!(wet, "the straight way crosses non-walkable ground");
    post(app, id, go(goal, InsertMode::Replace));
    (id, goal)
}

/// A go order whose straight way runs through the lake follows a global
/// path over walkable areals round it, every sampled position on walkable
/// ground, and arrives within the corridor radius.
#[test]
fn a_go_order_goes_round_the_lake_on_walkable_ground() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (id, goal) = across_the_lake(&mut app);
    app.update();
    let planned = route(&app, id);
    assert_eq!(planned.revision, 1);
    assert!(planned.areals.len() > 10, "{:?}", planned.areals);
    let map = app.world().resource::<MissionArealMap>();
    assert!(
        planned
            .areals
            .iter()
            .all(|&a| map.map.areals[a as usize].is_walkable())
    );
    assert_eq!(planned.points.back(), Some(&[goal[0], goal[1]]));
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    let mut ticks = 0;
    while orders(&app, id).current().is_some() {
        app.update();
        ticks += 1;
        let at = ground(translation(&app, id));
        assert!(
            walkable(&app, at),
            "tick {ticks}: off walkable ground at {at:?}, goal {goal:?}, route {:?}",
            route(&app, id)
        );
        assert!(ticks < 30 * 400, "the walker did not arrive");
    }
    let end = ground(translation(&app, id));
    assert!(
        Vec2::from(end).distance(Vec2::new(goal[0], goal[1])) <= radius,
        "{end:?} vs {goal:?}"
    );
    assert!(
        app.world().resource::<BehaviorDiagnostics>().0.is_empty(),
        "{:?}",
        app.world().resource::<BehaviorDiagnostics>().0
    );
}

/// The same seed gives the same path and the same command every tick
/// (tome VI: the same input, the same Behavior commands).
#[test]
fn the_same_seed_gives_the_same_path_and_commands() {
    let tmp = demo_install();
    let run = || {
        let mut app = app(tmp.path());
        let (id, _) = across_the_lake(&mut app);
        let mut commands = Vec::new();
        for _ in 0..30 * 20 {
            app.update();
            let state = app.world().get::<PhysicalState>(entity(&app, id)).unwrap();
            commands.push((state.requested, state.turn));
        }
        (route(&app, id).areals, commands)
    };
    let first = run();
    assert!(first.1.iter().any(|(r, _)| r.y > 0.5), "it walks");
    assert_eq!(run(), first);
}

/// A goal in the lake cannot be reached: the unit gets tome VI's
/// diagnostic with its chain, drops the order and stays where it is.
#[test]
fn an_unreachable_goal_is_a_diagnostic_and_the_unit_stays_put() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let map = app.world().resource::<MissionArealMap>();
    let lake = map.map.areals.iter().find(|a| a.is_lake()).unwrap().anchor;
    let start = translation(&app, id);
    post(&mut app, id, go(lake, InsertMode::Replace));
    for _ in 0..60 {
        app.update();
    }
    assert!(orders(&app, id).current().is_none());
    assert!(horizontal(translation(&app, id), start) < 0.5);
    let diagnostics = &app.world().resource::<BehaviorDiagnostics>().0;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!((d.object, d.state), (id, ErrorState::NonReachable));
    assert!(d.chain.starts_with("mission '"), "{}", d.chain);
    assert!(d.chain.contains(&format!("object {:#010x}", id.raw())));
    assert!(d.cause.contains("non-walkable areal"), "{}", d.cause);
}

/// The first `n` ground-bound movers, every other mover deleted (and,
/// with `statics` false, every building, tree and stone too).
fn walkers_alone(app: &mut App, n: usize, statics: bool) -> Vec<OriginalObjectId> {
    app.update();
    let world = app.world();
    let movers: Vec<_> = world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| world.get::<Body>(e).is_some())
        .map(|(id, e)| (id, world.get::<Body>(e).unwrap().holds_ground))
        .collect();
    let kept: Vec<_> = movers
        .iter()
        .filter(|(_, ground)| *ground)
        .map(|(id, _)| *id)
        .take(n)
        .collect();
    let doomed: Vec<_> = world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(id, _)| id)
        .filter(|id| !kept.contains(id) && (!statics || movers.iter().any(|(m, _)| m == id)))
        .collect();
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| {
            for id in &doomed {
                ops.delete(*id).unwrap();
            }
        })
        .unwrap();
    app.update();
    kept
}

/// Puts unit `id` at map point `p`, a metre over the ground of the road.
fn put(app: &mut App, id: OriginalObjectId, p: Vec2) {
    let e = entity(app, id);
    let height = translation(app, id).y;
    app.world_mut().get_mut::<Transform>(e).unwrap().translation =
        Vec3::new(p.x, height + 1.0, -p.y);
    app.world_mut().get_mut::<PhysicalState>(e).unwrap().flags =
        iron3d_control::MotionFlags::default();
}

/// The demo's building row (the neutral clan's factories): its centre and
/// the direction along the road it crosses, map frame.
fn building_row(app: &mut App) -> (Vec2, Vec2) {
    let world = app.world_mut();
    let mut row: Vec<Vec2> = world
        .query::<(&Transform, &PrototypeKey, &ObjectClan)>()
        .iter(world)
        .filter(|(_, key, clan)| key.0.starts_with(b"B_FACTORY") && clan.identity_raw == 3)
        .map(|(t, _, _)| Vec2::new(t.translation.x, -t.translation.z))
        .collect();
    assert_eq!(row.len(), 6, "the demo's row");
    row.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let centre = row.iter().copied().sum::<Vec2>() / row.len() as f32;
    let along_row = (row[5] - row[0]).normalize();
    (centre, along_row.perp())
}

/// A go order along the road through the building row goes round the row
/// on a Wizard path (the row cuts no areal: the global path runs straight
/// through it), never inside a building's footprint, and arrives.
#[test]
fn a_go_order_goes_round_the_building_row() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = walkers_alone(&mut app, 1, true)[0];
    let (centre, road) = building_row(&mut app);
    let (start, goal) = (centre - road * 40.0, centre + road * 40.0);
    put(&mut app, id, start);
    for _ in 0..60 {
        app.update();
    }
    app.update();
    let buildings = app.world().resource::<Footprints>().buildings.clone();
    assert!(buildings.len() >= 6);
    let from = ground(translation(&app, id));
    assert!(
        buildings
            .iter()
            .any(|b| b.outline.clip(Vec2::from(from), goal).is_some()),
        "the straight way runs into the row"
    );
    post(&mut app, id, go([goal.x, goal.y, 0.0], InsertMode::Replace));
    app.update();
    assert_eq!(orders(&app, id).current().unwrap().kind, OrderKind::Go);
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    let (mut ticks, mut detoured) = (0, false);
    while orders(&app, id).current().is_some() {
        app.update();
        ticks += 1;
        let at = Vec2::from(ground(translation(&app, id)));
        assert!(
            !buildings.iter().any(|b| b.outline.contains(at)),
            "tick {ticks}: inside a building at {at}"
        );
        detoured |= route(&app, id).wizard.is_some();
        assert!(ticks < 30 * 120, "the walker did not arrive");
    }
    assert!(
        detoured,
        "it went round on a Wizard path ({ticks} ticks, {:?})",
        app.world().resource::<BehaviorDiagnostics>().0
    );
    let end = Vec2::from(ground(translation(&app, id)));
    assert!(end.distance(goal) <= radius, "{end} vs {goal}");
}

/// Two walkers sent to each other's places cross without going through
/// each other, and both arrive.
#[test]
fn two_units_crossing_paths_do_not_interpenetrate() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let pair = walkers_alone(&mut app, 2, false);
    let (a, b) = (pair[0], pair[1]);
    let (centre, road) = (ground(translation(&app, a)).into(), Vec2::X);
    let centre: Vec2 = centre;
    let (pa, pb) = (centre - road * 25.0, centre + road * 25.0);
    put(&mut app, a, pa);
    put(&mut app, b, pb);
    for _ in 0..60 {
        app.update();
    }
    let radii: f32 = [a, b]
        .iter()
        .map(|&id| app.world().get::<Body>(entity(&app, id)).unwrap().radius)
        .sum();
    post(&mut app, a, go([pb.x, pb.y, 0.0], InsertMode::Replace));
    post(&mut app, b, go([pa.x, pa.y, 0.0], InsertMode::Replace));
    app.update();
    assert!(orders(&app, a).current().is_some() && orders(&app, b).current().is_some());
    let (mut closest, mut gave_way) = (f32::MAX, false);
    for _ in 0..30 * 60 {
        app.update();
        closest = closest.min(horizontal(translation(&app, a), translation(&app, b)));
        gave_way |= [a, b].iter().any(|&u| route(&app, u).wizard.is_some());
        if orders(&app, a).current().is_none() && orders(&app, b).current().is_none() {
            break;
        }
    }
    assert!(closest >= radii - 0.05, "{closest} m apart, radii {radii}");
    assert!(
        gave_way,
        "they went round each other ({closest} m apart at the closest)"
    );
    assert!(orders(&app, a).current().is_none(), "a arrived");
    assert!(orders(&app, b).current().is_none(), "b arrived");
}

/// The first ground walker of clan `clan` (by its identity word).
fn walker_of(app: &App, clan: u32) -> OriginalObjectId {
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| {
            world.get::<Body>(e).is_some_and(|b| b.holds_ground)
                && world
                    .get::<ObjectClan>(e)
                    .is_some_and(|c| c.identity_raw == clan)
        })
        .map(|(id, _)| id)
        .unwrap()
}

/// A player's and an enemy's walker alone on the map, the enemy out of
/// radar range at its base.
fn foes(app: &mut App) -> (OriginalObjectId, OriginalObjectId) {
    app.update();
    let (player, enemy) = (walker_of(app, 1), walker_of(app, 2));
    delete_all_but(app, &[player, enemy]);
    app.update();
    (player, enemy)
}

fn sensor(app: &App, id: OriginalObjectId) -> Sensor {
    app.world().get::<Sensor>(entity(app, id)).unwrap().clone()
}

fn target(app: &App, id: OriginalObjectId) -> Option<OriginalObjectId> {
    app.world().get::<Target>(entity(app, id)).unwrap().0
}

/// An enemy coming into radar range is on the hostile list within one
/// rescan (750 ms), and not before.
#[test]
fn an_enemy_coming_into_range_is_detected_within_one_rescan() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (player, enemy) = foes(&mut app);
    let apart = horizontal(translation(&app, player), translation(&app, enemy));
    assert!(apart > 500.0, "{apart} m: out of range");
    for _ in 0..45 {
        app.update();
    }
    assert!(sensor(&app, player).hostile.is_empty());
    assert_eq!(target(&app, player), None);
    // The enemy steps 150 m from the player (within the demo radars' 400).
    let here = Vec2::from(ground(translation(&app, player)));
    put(&mut app, enemy, here + Vec2::new(150.0, 0.0));
    let rescan = (750.0f32 / (1000.0 / 30.0)).round() as usize;
    let mut ticks = 0;
    while sensor(&app, player).hostile.is_empty() {
        app.update();
        ticks += 1;
        assert!(ticks <= rescan + 1, "not seen within one rescan");
    }
    let (seen, d) = sensor(&app, player).hostile[0];
    assert_eq!(seen, enemy);
    assert!((d - 150.0).abs() < 5.0, "{d}");
    // The friend list holds no foe; the enemy sees the player too.
    assert!(!sensor(&app, player).friendly.contains(&enemy));
    app.update();
    assert_eq!(target(&app, player), Some(enemy));
}

/// A unit with no order that sees a hostile within 500 attacks it: the
/// attack goes first in its list, its target is the enemy, it closes to a
/// fighting place 50 to 100 m before it; once the enemy is gone the attack
/// is over.
#[test]
fn a_unit_between_orders_engages_the_nearest_hostile() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (player, enemy) = foes(&mut app);
    // The enemy 250 m off, pinned there every tick (it engages too).
    let here = Vec2::from(ground(translation(&app, player)));
    put(&mut app, enemy, here + Vec2::new(250.0, 0.0));
    for _ in 0..3 {
        app.update();
    }
    let enemy_at = translation(&app, enemy);
    let mut attacked = false;
    for _ in 0..30 * 40 {
        app.update();
        if let Some(order) = orders(&app, player).current() {
            assert_eq!(order.kind, OrderKind::Attack);
            assert_eq!(order.target_object(), Some(enemy));
            attacked = true;
        }
        let e = entity(&app, enemy);
        app.world_mut().get_mut::<Transform>(e).unwrap().translation = enemy_at;
    }
    assert!(attacked, "the player's unit engaged");
    assert_eq!(target(&app, player), Some(enemy));
    let apart = horizontal(translation(&app, player), enemy_at);
    assert!((30.0..=140.0).contains(&apart), "{apart} m from the enemy");
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| ops.delete(enemy).unwrap())
        .unwrap();
    for _ in 0..3 {
        app.update();
    }
    assert!(
        orders(&app, player).current().is_none(),
        "the attack is over"
    );
    assert_eq!(target(&app, player), None);
}

/// A unit with a logical id that walks into a mission path's polygon is
/// listed in that tactical areal within one takt of getting there, and
/// taken off once it walks out.
#[test]
fn a_unit_is_listed_in_the_route_it_stands_in() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = lone_walker(&mut app);
    let bag = app.world().get::<PropertyBag>(entity(&app, id)).unwrap();
    assert!(
        bag.int("LogicalID").is_some_and(|v| v != 0),
        "a unit with a logical id"
    );
    let start = ground(translation(&app, id));
    let centre = [start[0] + 40.0, start[1]];
    let corner = |dx: f32, dy: f32| [centre[0] + dx, centre[1] + dy, 0.0];
    let route = {
        let mut paths = app.world_mut().resource_mut::<MissionPaths>();
        paths.0.push(iron3d_formats::tma::MissionPath {
            id: 901,
            points: vec![
                corner(-15.0, -15.0),
                corner(15.0, -15.0),
                corner(15.0, 15.0),
                corner(-15.0, 15.0),
            ],
        });
        paths.0.len() - 1
    };
    let listed = |app: &App| app.world().resource::<TacticalAreals>().lists(route, id);
    let walk_to = |app: &mut App, p: [f32; 2]| {
        post(app, id, go([p[0], p[1], 0.0], InsertMode::Replace));
        app.update();
        let mut ticks = 0;
        while orders(app, id).current().is_some() {
            app.update();
            ticks += 1;
            assert!(ticks < 30 * 60, "did not arrive");
        }
    };
    app.update();
    assert!(!listed(&app));
    walk_to(&mut app, centre);
    let takt = (4.92f32 * 30.0).ceil() as usize;
    let mut waited = 0;
    while !listed(&app) {
        app.update();
        waited += 1;
        assert!(waited <= takt, "not listed within one takt");
    }
    let report = app.world().get::<RouteReport>(entity(&app, id)).unwrap();
    assert!(report.routes.contains(&(route as u32)), "{report:?}");
    walk_to(&mut app, start);
    let mut waited = 0;
    while listed(&app) {
        app.update();
        waited += 1;
        assert!(waited <= takt, "still listed a takt after leaving");
    }
}

fn owner(app: &App, building: OriginalObjectId) -> u32 {
    app.world()
        .get::<ObjectClan>(entity(app, building))
        .unwrap()
        .identity_raw
}

/// A capture order walks the unit to the building's door; standing there
/// for 0.9 ÷ the pod's rate seconds gives the building to the unit's clan,
/// and the order is over.
#[test]
fn a_capture_order_takes_the_building_for_the_units_clan() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let unit = walker_of(&app, 1);
    let building = building_of(&app, 2);
    delete_all_but(&mut app, &[unit, building]);
    app.update();
    let at = Vec2::from(ground(translation(&app, building)));
    put(&mut app, unit, at + Vec2::new(0.0, -40.0));
    for _ in 0..60 {
        app.update();
    }
    let capture = OrderPacket {
        code: 17,
        target: OrderTarget::Object(building.raw()),
        mode: InsertMode::Replace,
        parameter: 0,
    };
    post(&mut app, unit, capture.to_bytes());
    app.update();
    assert_eq!(
        orders(&app, unit).current().unwrap().kind,
        OrderKind::Capture
    );
    let mut ticks = 0;
    while owner(&app, building) == 2 {
        assert!(orders(&app, unit).current().is_some(), "not before");
        app.update();
        ticks += 1;
        assert!(ticks < 30 * 60, "no capture");
    }
    // The building is the player's; the capture is over and the unit
    // leaves: to walkable ground within 150 along each axis, then done.
    assert_eq!(owner(&app, building), 1);
    let stood = Vec2::from(ground(translation(&app, unit)));
    app.update();
    let escape = orders(&app, unit).current().copied().unwrap();
    assert_eq!(
        (escape.kind, escape.target),
        (OrderKind::Leave, OrderTarget::None)
    );
    let out = Vec2::from(escape.place.expect("a place to leave to"));
    assert!((out - stood).abs().max_element() <= 150.0, "{out}");
    assert!(walkable(&app, out.into()));
    let mut ticks = 0;
    while orders(&app, unit).current().is_some() {
        app.update();
        ticks += 1;
        assert!(ticks < 30 * 90, "never out");
    }
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    let end = Vec2::from(ground(translation(&app, unit)));
    assert!(end.distance(out) <= radius + 1.0, "{end} for {out}");
    let bag = app
        .world()
        .get::<PropertyBag>(entity(&app, building))
        .unwrap();
    if bag.get("ClanID").is_some() {
        assert_eq!(bag.int("ClanID"), Some(1));
    }
    // A capture of an own building is over at once.
    post(&mut app, unit, capture.to_bytes());
    app.update();
    app.update();
    assert!(orders(&app, unit).current().is_none());
}

/// A unit told to leave a building walks 20 to 70 m beyond its bounding
/// circle and is done there; nothing interrupts it.
#[test]
fn a_unit_leaving_a_building_goes_beyond_it_and_does_not_engage() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let (unit, enemy) = (walker_of(&app, 1), walker_of(&app, 2));
    let building = building_of(&app, 2);
    delete_all_but(&mut app, &[unit, enemy, building]);
    app.update();
    let at = Vec2::from(ground(translation(&app, building)));
    put(&mut app, unit, at + Vec2::new(0.0, -40.0));
    put(&mut app, enemy, at + Vec2::new(0.0, -200.0));
    let leave = OrderPacket {
        code: 20,
        target: OrderTarget::Object(building.raw()),
        mode: InsertMode::Replace,
        parameter: 0,
    };
    post(&mut app, unit, leave.to_bytes());
    let mut ticks = 0;
    app.update();
    while let Some(order) = orders(&app, unit).current().copied() {
        assert_eq!(order.kind, OrderKind::Leave, "not interrupted");
        put(&mut app, enemy, at + Vec2::new(0.0, -200.0));
        app.update();
        ticks += 1;
        assert!(ticks < 30 * 90, "never out");
    }
    let footprint = app
        .world()
        .resource::<Footprints>()
        .buildings
        .iter()
        .find(|f| f.id == building)
        .unwrap()
        .outline
        .clone();
    let middle = footprint.0.iter().sum::<Vec2>() / footprint.0.len() as f32;
    let reach = footprint
        .0
        .iter()
        .map(|c| c.distance(middle))
        .fold(0.0, f32::max);
    let out = Vec2::from(ground(translation(&app, unit))).distance(middle) - reach;
    let radius = app.world().resource::<BehaviorParams>().corridor_radius;
    assert!(
        (20.0 - radius..=70.0 + radius).contains(&out),
        "{out} m beyond"
    );
}

/// The pod reads only who stands in it: a unit with no order, put at the
/// door, takes the building after 0.9 ÷ the pod's rate seconds (so does
/// the player's hero); at its own clan's building the pod fires and
/// nothing changes hands; a unit that goes before the pod fires takes
/// nothing.
#[test]
fn whoever_stands_in_a_pod_takes_the_building() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let unit = walker_of(&app, 1);
    let enemy = building_of(&app, 2);
    let own = building_of(&app, 1);
    delete_all_but(&mut app, &[unit, enemy, own]);
    app.update();
    let radius = app.world().get::<Body>(entity(&app, unit)).unwrap().radius;
    let fires = (capture_seconds() * 30.0).round() as u64;
    let run = |app: &mut App, ticks: u64| {
        for _ in 0..ticks {
            app.update();
        }
    };
    // Put at the door of `building` nearest the point 40 m south of it.
    let stand_at = |app: &mut App, building: OriginalObjectId| {
        let at = Vec2::from(ground(translation(app, building)));
        let footprints = app.world().resource::<Footprints>();
        let outline = &footprints.buildings.iter().find(|f| f.id == building);
        let door = outline
            .unwrap()
            .outline
            .inflated(radius + iron3d_behavior::wizard::MARGIN)
            .nearest_on_outline(at + Vec2::new(0.0, -40.0));
        put(app, unit, door);
    };
    let away = |app: &mut App, building: OriginalObjectId| {
        let at = Vec2::from(ground(translation(app, building)));
        put(app, unit, at + Vec2::new(0.0, -60.0));
    };

    stand_at(&mut app, own);
    run(&mut app, fires + 30);
    let pod = app.world().resource::<Pods>().0.get(&own).copied();
    assert!(pod.is_some_and(|p| p.fired), "{pod:?}");
    assert_eq!(owner(&app, own), 1);
    away(&mut app, own);
    run(&mut app, (REOPEN_SECONDS * 30.0) as u64 + 2);
    assert!(app.world().resource::<Pods>().0.is_empty(), "closed");

    stand_at(&mut app, enemy);
    run(&mut app, fires / 2);
    away(&mut app, enemy);
    run(&mut app, fires);
    assert_eq!(owner(&app, enemy), 2, "gone before it fired");

    stand_at(&mut app, enemy);
    run(&mut app, fires + 30);
    assert!(orders(&app, unit).current().is_none());
    assert_eq!(owner(&app, enemy), 1, "taken with no order");
}

/// A building of `clan` with a body.
fn building_of(app: &App, clan: u32) -> OriginalObjectId {
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| {
            world
                .get::<ObjectClan>(e)
                .is_some_and(|c| c.identity_raw == clan)
                && world
                    .get::<iron3d_control::StaticBody>(e)
                    .is_some_and(|b| b.0.is_some())
                && world.get::<ObjectKind>(e).and_then(|k| k.kind())
                    == Some(iron3d_formats::tma::ObjectKind::Building)
        })
        .map(|(id, _)| id)
        .expect("a building of the clan")
}

/// Where a go order of the base test leads and by when it must be over.
struct Trip {
    unit: OriginalObjectId,
    goal: [f32; 2],
    /// Game seconds by which it arrives.
    arrive_by: f32,
    /// Game seconds by which it has arrived or been reported.
    over_by: f32,
}

/// The player's ground units (walkers: a flyer is not searched), its
/// buildings' footprints and the box of both, from the first demo mission.
fn player_base(app: &mut App) -> (Vec<OriginalObjectId>, Vec<obstacle::Convex>, [Vec2; 2]) {
    app.update();
    let world = app.world();
    let clans = world.resource::<MissionClans>().0.clone();
    let player = |e: Entity| {
        world
            .get::<ObjectClan>(e)
            .and_then(|c| c.name(&clans))
            .is_some_and(|n| n == b"Player")
    };
    let registry = world.resource::<ObjectRegistry>();
    let units: Vec<_> = registry
        .iter()
        .filter(|&(_, e)| player(e))
        .filter(|&(_, e)| world.get::<Body>(e).is_some_and(|b| b.holds_ground))
        .map(|(id, _)| id)
        .collect();
    let footprints = world.resource::<wizard::Footprints>();
    let buildings: Vec<_> = footprints
        .buildings
        .iter()
        .filter(|f| registry.entity(f.id).is_ok_and(player))
        .map(|f| f.outline.clone())
        .collect();
    let points = units
        .iter()
        .map(|&id| ground(translation(app, id)).into())
        .chain(buildings.iter().flat_map(|b| b.0.iter().copied()));
    let (lo, hi) = points.fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p: Vec2| {
        (lo.min(p), hi.max(p))
    });
    (units, buildings, [lo, hi])
}

/// Every unit of the player's base is sent, round after round, to every
/// building's door (the point of its footprint grown by the unit's radius
/// and the Wizard's margin nearest to it) and every far corner of the
/// base (one of them where a unit stands), each unit to each place once,
/// all of a round at once: each arrives within twice
/// the time its top speed takes in a straight line plus 15 s, or is
/// reported by the time the progress watch gives up (its two windows
/// after that); no unit still holds its order at the end. Most trips
/// arrive.
#[test]
fn units_sent_across_the_players_base_arrive_or_report_why_not() {
    let dir = demo_install();
    let mut app = app(dir.path());
    let (units, buildings, [lo, hi]) = player_base(&mut app);
    assert!(units.len() >= 5 && buildings.len() >= 2, "{units:?}");
    let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
    let places = buildings.len() + corners.len();
    let rounds = places;
    let (mut arrived, mut reported) = (0, 0);
    for round in 0..rounds {
        let now = app.world().resource::<GameClock>().elapsed().as_secs_f32();
        let trips: Vec<Trip> = units
            .iter()
            .enumerate()
            .map(|(i, &unit)| {
                let e = entity(&app, unit);
                let body = app.world().get::<Body>(e).unwrap();
                let (radius, top) = (body.radius, body.limits.top_speed.y);
                let here = Vec2::from(ground(translation(&app, unit)));
                let goal = match (i + round) % places {
                    k if k < buildings.len() => buildings[k]
                        .inflated(radius + wizard::MARGIN)
                        .nearest_on_outline(here),
                    k => corners[k - buildings.len()],
                };
                let straight = here.distance(goal) / top;
                Trip {
                    unit,
                    goal: goal.into(),
                    arrive_by: now + 2.0 * straight + 15.0,
                    over_by: now + straight + 2.0 * route::PROGRESS_TIME + 15.0,
                }
            })
            .collect();
        for trip in &trips {
            let place = [trip.goal[0], trip.goal[1], 0.0];
            post(&mut app, trip.unit, go(place, InsertMode::Replace));
        }
        let mut open: Vec<&Trip> = trips.iter().collect();
        while !open.is_empty() {
            app.update();
            let now = app.world().resource::<GameClock>().elapsed().as_secs_f32();
            let diagnostics = &app.world().resource::<BehaviorDiagnostics>().0;
            let mut still = Vec::new();
            for trip in open {
                let why = diagnostics.iter().find(|d| d.object == trip.unit);
                let done = orders(&app, trip.unit).0.is_empty();
                match (why, done) {
                    (Some(_), _) => reported += 1,
                    (None, true) => {
                        assert!(
                            now <= trip.arrive_by,
                            "unit {:#x} arrived late at {now} s",
                            trip.unit.raw()
                        );
                        arrived += 1;
                    }
                    (None, false) => {
                        assert!(
                            now <= trip.over_by,
                            "unit {:#x} still going to {:?} at {now} s",
                            trip.unit.raw(),
                            trip.goal
                        );
                        still.push(trip);
                    }
                }
            }
            open = still;
        }
        app.world_mut()
            .resource_mut::<BehaviorDiagnostics>()
            .0
            .clear();
    }
    let trips = rounds * units.len();
    println!(
        "{} units, {places} places, {rounds} rounds: {arrived} arrived, {reported} reported",
        units.len()
    );
    assert_eq!(arrived + reported, trips);
    assert!(arrived * 4 >= trips * 3, "{arrived} of {trips} arrived");
}
