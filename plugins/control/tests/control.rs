//! Control on the demo install, headless at the fixed step: free motion,
//! terrain following, falls, cliffs, the map edge, pair collisions and
//! their world messages (tome VI "Проверки Control").

use bevy::prelude::*;
use iron3d_control::*;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_schedules::{GameClock, SimStep};
use iron3d_world::mission::*;
use iron3d_world::test_support::{delete_all_but, demo_install, running_test_app};
use iron3d_world::{
    DeleteOutcome, GmsgKind, ObjectRegistry, OriginalObjectId, WorldMessage, WorldOps,
};
use std::path::Path;
use std::sync::Arc;

const DT: f32 = 1.0 / 30.0;

/// The first demo mission running with Control, every simulation system
/// explicitly ordered.
fn app(dir: &Path) -> App {
    running_test_app(dir.join("game"), ControlPlugin)
}

fn entity(app: &App, id: OriginalObjectId) -> Entity {
    app.world().resource::<ObjectRegistry>().entity(id).unwrap()
}

fn state(app: &App, id: OriginalObjectId) -> PhysicalState {
    *app.world().get::<PhysicalState>(entity(app, id)).unwrap()
}

fn translation(app: &App, id: OriginalObjectId) -> Vec3 {
    app.world()
        .get::<Transform>(entity(app, id))
        .unwrap()
        .translation
}

/// Ground-bound movers, in id order (bodies are attached on the first tick).
fn walkers(app: &mut App) -> Vec<OriginalObjectId> {
    if app.world().resource::<GameClock>().tick() == 0 {
        app.update();
    }
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| world.get::<Body>(e).is_some_and(|b| b.holds_ground))
        .map(|(id, _)| id)
        .collect()
}

/// The demo mission with one ground-bound mover left alone on the map.
fn lone_walker() -> (tempfile::TempDir, App, OriginalObjectId) {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = walkers(&mut app)[0];
    delete_all_but(&mut app, &[id]);
    app.update();
    (tmp, app, id)
}

/// Puts an object at `at` facing `facing` (world frame, horizontal), at
/// rest and off the ground bits, and asks it to walk `forward`.
fn place(app: &mut App, id: OriginalObjectId, at: Vec3, facing: Vec3, forward: f32) {
    let e = entity(app, id);
    let mut world = app.world_mut().entity_mut(e);
    let mut t = world.get_mut::<Transform>().unwrap();
    t.translation = at;
    t.rotation = Transform::default().looking_to(facing, Vec3::Y).rotation;
    let mut s = world.get_mut::<PhysicalState>().unwrap();
    s.linear_velocity = Vec3::ZERO;
    s.requested = Vec3::new(0.0, forward, 0.0);
    s.turn = 0.0;
    s.flags.set(MotionFlags::ON_GROUND, false);
}

fn land(app: &App) -> Arc<LandMsh> {
    app.world().resource::<MissionLand>().0.clone()
}

/// The terrain under a world point, by the faces of `Land.msh` (not the
/// backend): height and the face's up component.
fn terrain_at(land: &LandMsh, x: f32, z: f32) -> Option<(f32, f32)> {
    let (px, py) = (x, -z); // map frame
    for f in land.lod_faces(0) {
        let face = &land.faces[f as usize];
        let [a, b, c] = face
            .vertices
            .map(|v| Vec3::from(land.positions[v as usize]));
        let d = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
        if d == 0.0 {
            continue;
        }
        let l1 = ((b.y - c.y) * (px - c.x) + (c.x - b.x) * (py - c.y)) / d;
        let l2 = ((c.y - a.y) * (px - c.x) + (a.x - c.x) * (py - c.y)) / d;
        let l3 = 1.0 - l1 - l2;
        if l1 >= -1e-6 && l2 >= -1e-6 && l3 >= -1e-6 {
            let n = (b - a).cross(c - a).normalize();
            return Some((l1 * a.z + l2 * b.z + l3 * c.z, n.z.abs()));
        }
    }
    None
}

fn ground_point(app: &App, x: f32, z: f32) -> Vec3 {
    let (h, _) = terrain_at(&land(app), x, z).expect("on the map");
    Vec3::new(x, h, z)
}

#[test]
fn free_motion_reaches_top_speed_with_the_controllers_acceleration() {
    let (_tmp, mut app, id) = lone_walker();
    let body = *app.world().get::<Body>(entity(&app, id)).unwrap();
    // The demo walker: acceleration 4 (live 8) up to its live top speed.
    assert_eq!(body.limits.acceleration, Vec3::splat(8.0));
    let top = body.limits.top_speed.y;
    assert!(top > 4.0 && top <= 8.0, "{top}");
    let start = translation(&app, id);
    let facing = app
        .world()
        .get::<Transform>(entity(&app, id))
        .unwrap()
        .forward();
    place(&mut app, id, start, *facing, 1.0);
    let mut travelled = 0.0;
    for tick in 1..=45 {
        app.update();
        let speed = state(&app, id).linear_velocity.length();
        let expected = (8.0 * DT * tick as f32).min(top);
        assert!(
            (speed - expected).abs() < 1e-4,
            "tick {tick}: {speed} vs {expected}"
        );
        travelled += expected * DT;
    }
    let moved = translation(&app, id) - start;
    let flat = Vec2::new(moved.x, moved.z).length();
    assert!((flat - travelled).abs() < 1e-2, "{flat} vs {travelled}");
    assert!(state(&app, id).flags.has(MotionFlags::ON_GROUND));
}

/// Live limits (GAMEPLAY §2): E the fitted engine's drive × its node's
/// life × the running gear's mean life, r the spare payload; recomputed
/// when a node's life changes, and the walker then walks at the new top.
#[test]
fn live_limits_follow_the_engine_the_load_and_the_damage() {
    let (_tmp, mut app, id) = lone_walker();
    let e = entity(&app, id);
    let world = app.world();
    let drive = world.get::<Drive>(e).unwrap().clone();
    let params = world.get::<Controller>(e).unwrap().params;
    let limits = |app: &App| app.world().get::<Body>(e).unwrap().limits;
    let engine = drive.engines[0];
    let fitted = engine.drive;
    assert!((0.7..=1.0).contains(&fitted), "{fitted}");
    let r = (params.payload_kg + drive.own_kg - drive.mass_kg) / params.payload_kg;
    assert!(r > 0.0 && r < 1.0, "a loaded walker: r = {r}");
    let expect = |e_now: f32| LiveLimits::new(&params, e_now, r);
    let close = |a: LiveLimits, b: LiveLimits| {
        (a.top_speed - b.top_speed).abs().max_element() < 1e-5
            && (a.turn_rate - b.turn_rate).abs().max_element() < 1e-5
            && a.acceleration == b.acceleration
    };
    assert!(close(limits(&app), expect(fitted)), "{:?}", limits(&app));
    // The numbers: top = 8 × E × (1 + r) / 2, turn = 1.2 × E × (1.5 r + 0.5).
    let now = limits(&app);
    assert!((now.top_speed.y - 8.0 * fitted * (1.0 + r) / 2.0).abs() < 1e-5);
    assert!((now.turn_rate.z - 1.2 * fitted * (1.5 * r + 0.5)).abs() < 1e-5);

    // The engine's node takes half its life: E halves on the next tick.
    let node = engine.node.expect("the engine sits on a node");
    let set_life = |app: &mut App, at: NodeRef, life: f32| {
        app.world_mut().get_mut::<NodeLife>(e).unwrap().0[at.part][at.node] = life;
        app.update();
    };
    set_life(&mut app, node, 0.5);
    assert!(close(limits(&app), expect(fitted * 0.5)));
    // A left leg node shot off: the left side's mean life is 1/2, the
    // gear's (1/2 + 1) / 2 = 3/4.
    let left = drive.gear[0][0];
    set_life(&mut app, left, 0.0);
    let slowed = fitted * 0.5 * 0.75;
    assert!(close(limits(&app), expect(slowed)), "{:?}", limits(&app));

    // The walker now walks at the slowed top.
    let at = translation(&app, id);
    let facing = *app.world().get::<Transform>(e).unwrap().forward();
    place(&mut app, id, at, facing, 1.0);
    for _ in 0..60 {
        app.update();
    }
    let speed = state(&app, id).linear_velocity.length();
    let top = limits(&app).top_speed.y;
    assert!((speed - top).abs() < 1e-3, "{speed} vs {top}");
    assert!(top < now.top_speed.y / 2.0);
}

/// A walker whose left shin is shot off limps: its walking states need
/// both feet's nodes whole, and the state that needs the left one gone
/// takes over.
#[test]
fn a_walker_limps_on_a_leg_shot_off() {
    let (_tmp, mut app, id) = lone_walker();
    let e = entity(&app, id);
    let at = translation(&app, id);
    let facing = *app.world().get::<Transform>(e).unwrap().forward();
    place(&mut app, id, at, facing, 1.0);
    let current = |app: &App| app.world().get::<Gait>(e).unwrap().current;
    for _ in 0..60 {
        app.update();
    }
    assert!(
        matches!(current(&app), 1..=4),
        "walking or running: {}",
        current(&app)
    );
    // The limp's two halves.
    let limping = |state: usize| matches!(state, 7 | 8);
    assert!(!app.world().get::<Gait>(e).unwrap().graph.conditions[7].is_empty());
    app.world_mut().get_mut::<NodeLife>(e).unwrap().0[0][2] = 0.0;
    let mut limped = false;
    for _ in 0..60 {
        app.update();
        limped |= limping(current(&app));
    }
    assert!(limped, "limping");
    assert!(limping(current(&app)), "and still limping");
}

#[test]
fn a_walker_follows_hills_within_five_centimetres() {
    let (_tmp, mut app, id) = lone_walker();
    let start = translation(&app, id);
    // Toward the middle of the map: off the flat site, over noise and hills.
    let map = *app.world().resource::<MapBounds>();
    let centre = (map.min + map.max) / 2.0;
    let facing = Vec3::new(centre.x - start.x, 0.0, centre.z - start.z);
    place(&mut app, id, start, facing, 1.0);
    let land = land(&app);
    let (mut grounded, mut low, mut high) = (0, f32::MAX, f32::MIN);
    let mut faces = std::collections::BTreeSet::new();
    for tick in 0..1500 {
        app.update();
        let at = translation(&app, id);
        let now = state(&app, id);
        if now.flags.has(MotionFlags::ON_GROUND) {
            // It keeps the face it stands on, walking from face to face.
            faces.insert(now.face.expect("the face it stands on"));
            grounded += 1;
            let (h, _) = terrain_at(&land, at.x, at.z).unwrap();
            assert!((at.y - h).abs() <= 0.05, "tick {tick}: {} above {h}", at.y);
        }
        low = low.min(at.y);
        high = high.max(at.y);
    }
    assert!(grounded >= 1490, "on the ground {grounded} of 1500 ticks");
    assert!(faces.len() > 20, "walked over {} faces", faces.len());
    assert!(
        high - low > 2.0,
        "it went over uneven ground ({low}..{high})"
    );
    let gone = translation(&app, id) - start;
    assert!(Vec2::new(gone.x, gone.z).length() > 100.0);
}

#[test]
fn a_dropped_walker_falls_five_t_squared_then_rests_on_the_ground() {
    let (_tmp, mut app, id) = lone_walker();
    let ground = translation(&app, id);
    let top = ground + Vec3::Y * 45.0;
    place(&mut app, id, top, Vec3::NEG_Z, 0.0);
    let mut landed = None;
    for n in 1..=120u32 {
        app.update();
        let y = translation(&app, id).y;
        let t = n as f32 * DT;
        let free = top.y - 5.0 * t * t;
        let s = state(&app, id);
        if free > ground.y {
            assert!((y - free).abs() < 1e-3, "tick {n}: {y} vs {free}");
            assert!(s.flags.has(MotionFlags::FALLING));
            assert!((s.linear_velocity.y + 10.0 * t).abs() < 1e-3);
        } else {
            landed.get_or_insert(n);
            assert!((y - ground.y).abs() < 1e-4, "tick {n}: rests at {y}");
            assert!(s.flags.has(MotionFlags::ON_GROUND));
            assert_eq!(s.linear_velocity, Vec3::ZERO);
        }
    }
    // 45 m take 3 s.
    assert_eq!(landed, Some(90));
}

#[test]
fn the_cliff_stops_a_walker() {
    let (_tmp, mut app, id) = lone_walker();
    let land = land(&app);
    // The demo's mesa: the faces too steep to walk.
    let steep: Vec<Vec3> = land
        .lod_faces(0)
        .into_iter()
        .filter_map(|f| {
            let face = &land.faces[f as usize];
            let [a, b, c] = face
                .vertices
                .map(|v| Vec3::from(land.positions[v as usize]));
            let n = (b - a).cross(c - a).normalize();
            (n.z.abs() <= WALKABLE_NORMAL_Z).then_some((a + b + c) / 3.0)
        })
        .collect();
    assert!(!steep.is_empty(), "the demo map has a cliff");
    let mesa = steep.iter().sum::<Vec3>() / steep.len() as f32;
    let (mx, mz) = (mesa.x, -mesa.y);
    let start = ground_point(&app, mx + 60.0, mz);
    place(&mut app, id, start, Vec3::NEG_X, 1.0);
    let mut blocked = 0;
    for _ in 0..450 {
        app.update();
        blocked += state(&app, id).flags.has(MotionFlags::BLOCKED) as u32;
        let at = translation(&app, id);
        assert!(at.y < start.y + 20.0, "climbed to {}", at.y);
    }
    assert!(blocked > 100, "stopped at the foot ({blocked} ticks)");
    let at = translation(&app, id);
    assert!(at.x > mx + 8.0, "still east of the mesa: {} vs {mx}", at.x);
}

/// The demo factory (a direct `B_FACTORY` object) and the lone walker with
/// everything else gone; the factory's transform.
fn walker_and_factory() -> (tempfile::TempDir, App, OriginalObjectId, Transform) {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let walker = walkers(&mut app)[0];
    let world = app.world_mut();
    let mut keys = world.query::<(&PrototypeKey, &OriginalObjectId)>();
    let factory = keys
        .iter(world)
        .find(|(k, _)| k.0 == b"B_FACTORY")
        .map(|(_, id)| *id)
        .expect("the demo places a factory");
    delete_all_but(&mut app, &[walker, factory]);
    app.update();
    let frame = *app.world().get::<Transform>(entity(&app, factory)).unwrap();
    (tmp, app, walker, frame)
}

/// A building's faces stop a walker's centre: it stays outside the hall
/// (which it meets at its wall, not at the box around the whole building),
/// blocked, touching the building, and the pair posts its message. A
/// blocked walker keeps no speed toward the wall it did not pass.
#[test]
fn a_buildings_wall_stops_a_walker() {
    let (_tmp, mut app, walker, factory) = walker_and_factory();
    assert!(app.world().resource::<BuildingFaces>().len() > 100);
    // 12 m behind the hall (its back wall is 3 m behind its centre),
    // walking toward the centre.
    let start = factory.transform_point(Vec3::new(0.0, 0.0, -12.0));
    let start = ground_point(&app, start.x, start.z);
    let centre = factory.translation;
    place(&mut app, walker, start, centre - start, 1.0);
    let (mut blocked, mut touched) = (0, false);
    for _ in 0..240 {
        app.update();
        let now = state(&app, walker);
        if now.flags.has(MotionFlags::BLOCKED) {
            blocked += 1;
            let toward = (centre - translation(&app, walker)).with_y(0.0).normalize();
            let speed = now.linear_velocity.dot(toward);
            assert!(speed.abs() < 1e-3, "blocked at {speed} m/s toward the wall");
        }
        let local = factory
            .compute_affine()
            .inverse()
            .transform_point3(translation(&app, walker));
        assert!(local.z < -3.0 + 1e-3, "outside the back wall: {local}");
        let factory_id = app
            .world()
            .resource::<ObjectRegistry>()
            .iter()
            .map(|(id, _)| id);
        let pair = factory_id
            .filter(|&id| id != walker)
            .map(|f| (walker.min(f), walker.max(f)));
        touched |= pair
            .into_iter()
            .any(|p| app.world().resource::<TouchingPairs>().now.contains(&p));
    }
    assert!(blocked > 100, "stopped at the wall ({blocked} ticks)");
    assert!(touched, "touching the factory");
    let local = factory
        .compute_affine()
        .inverse()
        .transform_point3(translation(&app, walker));
    assert!(local.z > -6.0, "it reached the wall: {local}");
}

/// A destroyed node takes its faces with it: with the nodes that carry
/// the factory's loading dock destroyed, the building has that many faces
/// fewer and a walker dropped over the dock lands on the ground beneath.
#[test]
fn a_destroyed_node_is_not_stood_on() {
    let (_tmp, mut app, walker, factory) = walker_and_factory();
    let world = app.world();
    let building = world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(_, e)| e)
        .find(|&e| world.get::<PhysicalModel>(e).is_some())
        .unwrap();
    let model = world.get::<PhysicalModel>(building).unwrap();
    let dock: std::collections::BTreeSet<NodeRef> = model
        .0
        .iter()
        .filter(|f| f.tri_flags & iron3d_formats::msh::TRI_FLOOR != 0)
        .map(|f| f.node)
        .collect();
    let dock_faces = model.0.iter().filter(|f| dock.contains(&f.node)).count();
    assert!(!dock.is_empty());
    let before = world.resource::<BuildingFaces>().len();
    let mut life = app.world_mut().get_mut::<NodeLife>(building).unwrap();
    for n in &dock {
        life.0[n.part][n.node] = 0.0;
    }
    let over = factory.transform_point(Vec3::new(0.0, 3.0, 5.0));
    place(&mut app, walker, over, factory.rotation * Vec3::Z, 0.0);
    for _ in 0..60 {
        app.update();
    }
    let after = app.world().resource::<BuildingFaces>().len();
    assert!(
        after < before && before - after <= dock_faces,
        "{before} -> {after}"
    );
    let at = translation(&app, walker);
    let (ground, _) = terrain_at(&land(&app), at.x, at.z).unwrap();
    assert!(
        (at.y - ground).abs() < 0.05,
        "on the ground: {} vs {ground}",
        at.y
    );
}

/// A walker dropped over the factory's loading dock lands on the dock (a
/// floor: triangle flag 2), half a metre above the ground beside it, and
/// walks off it onto the ground.
#[test]
fn a_walker_stands_on_a_buildings_floor_and_walks_off_it() {
    let (_tmp, mut app, walker, factory) = walker_and_factory();
    assert!(app.world().resource::<GroundFaces>().floors() > 0);
    // The dock: 5 × 3.8 m before the door, its top 0.5 m up; the door
    // faces the object's +z.
    let over = factory.transform_point(Vec3::new(0.0, 3.0, 5.0));
    let outward = factory.rotation * Vec3::Z;
    place(&mut app, walker, over, outward, 0.0);
    for _ in 0..60 {
        app.update();
    }
    let at = translation(&app, walker);
    let dock_top = factory.transform_point(Vec3::new(0.0, 0.5, 5.0)).y;
    assert!(
        (at.y - dock_top).abs() < 1e-3,
        "{} on the dock at {dock_top}",
        at.y
    );
    let (ground, _) = terrain_at(&land(&app), at.x, at.z).unwrap();
    assert!(
        at.y - ground > 0.4,
        "above the ground: {} vs {ground}",
        at.y
    );
    assert!(state(&app, walker).flags.has(MotionFlags::ON_GROUND));
    // Out along the dock and off its edge (1.9 m ahead): back on the ground.
    let e = entity(&app, walker);
    app.world_mut()
        .get_mut::<PhysicalState>(e)
        .unwrap()
        .requested
        .y = 1.0;
    for _ in 0..90 {
        app.update();
    }
    let at = translation(&app, walker);
    let (ground, _) = terrain_at(&land(&app), at.x, at.z).unwrap();
    assert!(
        (at.y - ground).abs() < 0.05,
        "down on the ground: {} vs {ground}",
        at.y
    );
    assert!(!state(&app, walker).flags.has(MotionFlags::BLOCKED));
}

#[test]
fn the_map_edge_clamps_inset_by_the_radius() {
    let (_tmp, mut app, id) = lone_walker();
    let map = *app.world().resource::<MapBounds>();
    let radius = app.world().get::<Body>(entity(&app, id)).unwrap().radius;
    let at = Vec3::new(map.max.x + 50.0, map.max.y, (map.min.z + map.max.z) / 2.0);
    place(&mut app, id, at, Vec3::X, 1.0);
    app.update();
    let x = translation(&app, id).x;
    assert!(
        x <= map.max.x - radius + 1e-3,
        "{x} inside {}",
        map.max.x - radius
    );
    for _ in 0..60 {
        app.update();
        let p = translation(&app, id);
        assert!(p.x <= map.max.x - radius + 1e-3);
        assert!(state(&app, id).flags.has(MotionFlags::AT_EDGE));
    }
}

/// The first two walkers left alone on the map, 40 m apart on flat ground
/// (around where the first stood), walking into each other: the first on
/// the left when `first_on_left`. Their ids and the middle.
fn walking_pair(app: &mut App, first_on_left: bool) -> (OriginalObjectId, OriginalObjectId, Vec3) {
    let ids = walkers(app);
    let (a, b) = (ids[0], ids[1]);
    delete_all_but(app, &[a, b]);
    app.update();
    let middle = translation(app, a);
    let (left, right) = if first_on_left { (a, b) } else { (b, a) };
    place(app, left, middle - Vec3::X * 20.0, Vec3::X, 1.0);
    place(app, right, middle + Vec3::X * 20.0, Vec3::NEG_X, 1.0);
    (a, b, middle)
}

/// Two walkers `left` and `right` on flat ground 40 m apart walking into
/// each other for 4 s; their end positions relative to the middle, and
/// every GMSG_COLLISION_DETECTED read by a handler (tick, target, other).
fn head_on(
    tmp: &Path,
    left_is_first: bool,
) -> (
    Vec3,
    Vec3,
    OriginalObjectId,
    Vec<(u64, OriginalObjectId, u32)>,
) {
    let mut app = app(tmp);
    app.init_resource::<Heard>()
        .add_systems(FixedUpdate, listen.in_set(SimStep::Receive));
    let (a, b, middle) = walking_pair(&mut app, left_is_first);
    for _ in 0..120 {
        app.update();
    }
    let heard = app.world().resource::<Heard>().0.clone();
    (
        translation(&app, a) - middle,
        translation(&app, b) - middle,
        a,
        heard,
    )
}

#[derive(Resource, Default)]
struct Heard(Vec<(u64, OriginalObjectId, u32)>);

fn listen(
    mut messages: MessageReader<WorldMessage>,
    clock: Res<GameClock>,
    mut heard: ResMut<Heard>,
) {
    for m in messages.read() {
        if m.kind == GmsgKind::CollisionDetected {
            let other = u32::from_le_bytes(m.payload[..4].try_into().unwrap());
            heard.0.push((clock.tick(), m.target.unwrap(), other));
        }
    }
}

#[test]
fn a_symmetric_pair_collision_mirrors_with_the_ids_swapped() {
    let tmp = demo_install();
    let (a1, b1, _, _) = head_on(tmp.path(), true);
    let (a2, b2, _, _) = head_on(tmp.path(), false);
    let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
    for (one, two) in [(a1, a2), (b1, b2)] {
        assert!((mirror(one) - two).length() < 1e-3, "{one} mirrors {two}");
    }
    // They met and stopped each other short of the middle.
    assert!(a1.x < 0.0 && b1.x > 0.0, "{a1} {b1}");
    assert!(b1.x - a1.x < 40.0);
}

#[test]
fn the_contact_message_arrives_once_in_the_dispatch_of_the_next_tick() {
    let tmp = demo_install();
    let (_, _, first, heard) = head_on(tmp.path(), true);
    assert_eq!(heard.len(), 1, "one message for the pair: {heard:?}");
    let (tick, target, other) = heard[0];
    assert_eq!(target, first, "addressed to the lower id");
    assert_ne!(other, first.raw());
    assert!(tick > 1 && tick < 120);
}

#[derive(Resource, Default)]
struct Deleted(Vec<(OriginalObjectId, DeleteOutcome)>);

fn delete_on_contact(
    mut messages: MessageReader<WorldMessage>,
    mut ops: WorldOps,
    mut done: ResMut<Deleted>,
) {
    for m in messages.read() {
        if m.kind == GmsgKind::CollisionDetected {
            let target = m.target.unwrap();
            let outcome = ops.delete(target).unwrap();
            // The handler still sees the object: the delete waits.
            assert!(ops.entity(target).is_ok());
            done.0.push((target, outcome));
        }
    }
}

#[test]
fn deleting_an_object_from_its_collision_handler_is_deferred_and_safe() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.init_resource::<Deleted>()
        .add_systems(FixedUpdate, delete_on_contact.in_set(SimStep::Receive));
    let (a, b, middle) = walking_pair(&mut app, true);
    for _ in 0..180 {
        app.update();
    }
    let deleted = &app.world().resource::<Deleted>().0;
    assert_eq!(deleted.as_slice(), [(a, DeleteOutcome::Deferred)]);
    let registry = app.world().resource::<ObjectRegistry>();
    assert!(registry.entity(a).unwrap_err().was_deleted);
    let touching = app.world().resource::<TouchingPairs>();
    assert!(touching.now.iter().all(|&(x, y)| x != a && y != a));
    // The survivor walked on through where the other stood.
    assert!(
        translation(&app, b).x < middle.x - 5.0,
        "{}",
        translation(&app, b)
    );
}

#[test]
fn a_changed_part_rebuilds_the_body() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = walkers(&mut app)[0];
    let e = entity(&app, id);
    let before = *app.world().get::<Body>(e).unwrap();
    let mut bounds = *app.world().get::<BodyBounds>(e).unwrap();
    // A part lost: the body's box is halved.
    bounds.max = (bounds.min + bounds.max) / 2.0;
    app.world_mut().entity_mut(e).insert(bounds);
    app.update();
    let after = *app.world().get::<Body>(e).unwrap();
    assert!(
        after.radius < before.radius,
        "{} < {}",
        after.radius,
        before.radius
    );
    assert_ne!(after.centre, before.centre);
}

#[test]
fn the_same_requests_give_the_same_state_hash_and_motion_changes_it() {
    let tmp = demo_install();
    let run = |forward: f32| {
        let mut app = app(tmp.path());
        for id in walkers(&mut app) {
            let e = entity(&app, id);
            app.world_mut()
                .get_mut::<PhysicalState>(e)
                .unwrap()
                .requested
                .y = forward;
        }
        for _ in 0..60 {
            app.update();
        }
        iron3d_schedules::StateHash::compute(app.world())
    };
    assert_eq!(run(1.0), run(1.0));
    assert_ne!(run(1.0), run(0.5));
}

/// The demo's showcase object placed under `name`.
fn named(app: &mut App, name: &str) -> OriginalObjectId {
    let world = app.world_mut();
    let mut q = world.query::<(&InstanceName, &iron3d_world::OriginalObjectId)>();
    q.iter(world)
        .find(|(n, _)| n.0 == name)
        .map(|(_, id)| *id)
        .unwrap_or_else(|| panic!("the demo places '{name}'"))
}

/// The player's hero has a controller in the original layout: its own
/// engine of drive 1 and no load to speak of (its turret and guns are
/// under 0.02 % of its payload) give it the measured live limits (14 m/s,
/// a yaw rate of 2 × 25.12), and it runs at 14 m/s.
#[test]
fn the_demo_hero_runs_at_fourteen_metres_a_second() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = named(&mut app, "Hero");
    app.update();
    let e = entity(&app, hero);
    let drive = app.world().get::<Drive>(e).unwrap().clone();
    assert_eq!(drive.engines.len(), 1);
    assert_eq!(drive.engines[0].drive, 1.0);
    let limits = app.world().get::<Body>(e).unwrap().limits;
    assert!((limits.top_speed.y - 14.0).abs() < 1e-3, "{limits:?}");
    assert!((limits.turn_rate.z - 50.24).abs() < 1e-2, "{limits:?}");
    assert_eq!(limits.acceleration.y, 140.0);
    assert!(app.world().get::<Body>(e).unwrap().holds_ground);
    let at = translation(&app, hero);
    let facing = *app.world().get::<Transform>(e).unwrap().forward();
    place(&mut app, hero, at, facing, 1.0);
    for _ in 0..15 {
        app.update();
    }
    let speed = state(&app, hero).linear_velocity.length();
    assert!((speed - limits.top_speed.y).abs() < 1e-3, "{speed}");
}

#[test]
fn the_demo_flyer_holds_its_altitude_climbs_on_request_and_never_falls() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hover = named(&mut app, "Hover");
    app.update();
    let body = *app.world().get::<Body>(entity(&app, hover)).unwrap();
    assert!(!body.holds_ground, "its controller has no ground contact");
    assert!(state(&app, hover).flags.has(MotionFlags::FLYER));
    let start = translation(&app, hover);
    let (ground, _) = terrain_at(&land(&app), start.x, start.z).unwrap();
    assert!(start.y - ground > 25.0, "placed in the air");
    for _ in 0..90 {
        app.update();
        assert_eq!(translation(&app, hover).y, start.y, "holds its height");
        assert!(!state(&app, hover).flags.has(MotionFlags::FALLING));
    }
    // Up at full request: the vertical axis follows the controller (live
    // acceleration 12) to its live top (20 m/s by the file, less on the
    // scout's light engine).
    let top = body.limits.top_speed.z;
    assert!(top > 6.0 && top < 20.0, "{top}");
    let e = entity(&app, hover);
    app.world_mut()
        .get_mut::<PhysicalState>(e)
        .unwrap()
        .requested
        .z = 1.0;
    for tick in 1..=60 {
        app.update();
        let vy = state(&app, hover).linear_velocity.y;
        assert!(
            (vy - (12.0 * DT * tick as f32).min(top)).abs() < 1e-3,
            "tick {tick}: {vy}"
        );
    }
    // Down: the ground lifts it, it never lands or falls.
    app.world_mut()
        .get_mut::<PhysicalState>(e)
        .unwrap()
        .requested
        .z = -1.0;
    for _ in 0..300 {
        app.update();
        let at = translation(&app, hover);
        let (ground, _) = terrain_at(&land(&app), at.x, at.z).unwrap();
        let centre = at + body.centre;
        assert!(centre.y >= ground + body.radius - 1e-3, "above the ground");
    }
}

#[test]
fn the_demo_walker_placed_in_the_air_lands_and_the_one_on_a_slope_stands() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let dropped = named(&mut app, "Dropped walker");
    let slope = named(&mut app, "Slope walker");
    app.update();
    let land = land(&app);
    let on_ground = |app: &App, id| {
        let at = translation(app, id);
        let (h, up) = terrain_at(&land, at.x, at.z).unwrap();
        (
            state(app, id).flags.has(MotionFlags::ON_GROUND),
            at.y - h,
            up,
        )
    };
    let (grounded, above, _) = on_ground(&app, dropped);
    assert!(!grounded && above > 20.0, "starts 25 m up ({above})");
    let (grounded, above, up) = on_ground(&app, slope);
    assert!(
        grounded && above.abs() < 0.05,
        "stands on the slope ({above})"
    );
    assert!(up < 0.99, "a face that is not flat ({up})");
    for _ in 0..90 {
        app.update();
    }
    let (grounded, above, _) = on_ground(&app, dropped);
    assert!(grounded && above.abs() < 0.05, "landed ({above})");
    let (grounded, above, _) = on_ground(&app, slope);
    assert!(
        grounded && above.abs() < 0.05,
        "still on the slope ({above})"
    );
}

/// The model-node entities of the part of `object` carrying `C`.
fn part_with<C: Component>(app: &mut App, object: OriginalObjectId) -> Entity {
    let root = entity(app, object);
    let world = app.world();
    world
        .get::<Children>(root)
        .unwrap()
        .iter()
        .find(|&c| world.get::<C>(c).is_some())
        .unwrap()
}

#[test]
fn a_walkers_model_plays_its_control_state_and_its_turret_follows_the_socket() {
    let (_tmp, mut app, id) = lone_walker();
    let root = entity(&app, id);
    let chassis = part_with::<AnimatedModel>(&mut app, id);
    let turret = part_with::<SocketMount>(&mut app, id);
    let nodes = app.world().get::<PartNodes>(chassis).unwrap().0.clone();
    let transform = |app: &App, e: Entity| *app.world().get::<Transform>(e).unwrap();
    let (pelvis, thigh) = (nodes[0], nodes[1]);
    let (pelvis_rest, turret_rest) = (transform(&app, pelvis), transform(&app, turret));
    assert_eq!(
        app.world().get::<Gait>(root).unwrap().current,
        0,
        "standing"
    );
    let at = translation(&app, id);
    let facing = *transform(&app, root).forward();
    place(&mut app, id, at, facing, 1.0);
    let (mut states, mut swing, mut sink) = (vec![0], 0.0f32, 0.0f32);
    for _ in 0..90 {
        app.update();
        let current = app.world().get::<Gait>(root).unwrap().current;
        if states.last() != Some(&current) {
            states.push(current);
        }
        swing = swing.max(
            transform(&app, thigh)
                .rotation
                .angle_between(Quat::IDENTITY),
        );
        // The pelvis sinks as the legs swing; the turret on its socket
        // sinks and rises with it.
        let rise = transform(&app, pelvis).translation.y - pelvis_rest.translation.y;
        let carried = transform(&app, turret).translation.y - turret_rest.translation.y;
        assert!((rise - carried).abs() < 1e-4, "{rise} vs {carried}");
        sink = sink.max(-rise);
    }
    // Accelerating to 8 m/s: stand, walk (0.6 to 5 m/s), run (above 5),
    // each stride an anchor and its second half (1 and 2, 3 and 4).
    let strides: Vec<usize> = states.iter().map(|&s| s.div_ceil(2)).collect();
    assert_eq!(strides.iter().fold(vec![], dedup), [0, 1, 2]);
    assert!(states.contains(&2) && states.contains(&4), "{states:?}");
    assert!(swing > 0.2, "the legs swing: {swing} rad");
    assert!(sink > 0.01, "the pelvis sinks: {sink}");
    // Stopping: back to the standing state, frame 0 again.
    app.world_mut()
        .get_mut::<PhysicalState>(root)
        .unwrap()
        .requested = Vec3::ZERO;
    for _ in 0..60 {
        app.update();
    }
    let gait = app.world().get::<Gait>(root).unwrap().clone();
    assert_eq!(gait.current, 0);
    let now = app.world().resource::<GameClock>().elapsed().as_secs_f64();
    assert_eq!(gait.frame(now).a, 2.0, "the rest pose");
    let settled = transform(&app, turret).translation - turret_rest.translation;
    assert!(settled.length() < 1e-4, "{settled}");
}

#[test]
fn a_scaled_objects_collider_is_its_world_size_shape_unscaled() {
    use avian3d::prelude::Collider;
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let id = walkers(&mut app)[0];
    let e = entity(&app, id);
    // Stretch the walker unevenly; a changed box rebuilds its body.
    app.world_mut().get_mut::<Transform>(e).unwrap().scale = Vec3::new(2.0, 1.0, 3.0);
    app.update();
    let bounds = *app.world().get::<BodyBounds>(e).unwrap();
    app.world_mut().entity_mut(e).insert(bounds);
    app.update();
    let body = *app.world().get::<Body>(e).unwrap();
    let collider = app.world().get::<Collider>(e).unwrap();
    // The body's sphere already holds the placed scale: avian must not
    // scale it again (nor turn it into a polyhedron).
    assert_eq!(collider.scale(), Vec3::ONE);
    let ball = collider.shape().as_ball().expect("still a sphere");
    assert_eq!(ball.radius, body.radius);
    // The statics too: boxes of their world size.
    let world = app.world();
    let statics = world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| world.get::<StaticBody>(e).is_some_and(|s| s.0.is_some()))
        .count();
    let unscaled = world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| world.get::<StaticBody>(e).is_some_and(|s| s.0.is_some()))
        .filter(|&(_, e)| {
            world
                .get::<Collider>(e)
                .is_some_and(|c| c.scale() == Vec3::ONE)
        })
        .count();
    assert!(
        statics > 0 && unscaled == statics,
        "{unscaled} of {statics}"
    );
}

#[test]
fn movers_of_one_controller_share_its_planners_graph() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let ids = walkers(&mut app);
    app.update();
    let graph = |id| {
        app.world()
            .get::<Gait>(entity(&app, id))
            .unwrap()
            .graph
            .clone()
    };
    let (first, second) = (graph(ids[0]), graph(ids[1]));
    assert!(std::sync::Arc::ptr_eq(&first, &second));
    assert_eq!(first.states.len(), 9);
}

/// `list` with `item` pushed unless it repeats the last one.
fn dedup(mut list: Vec<usize>, item: &usize) -> Vec<usize> {
    if list.last() != Some(item) {
        list.push(*item);
    }
    list
}

/// Footsteps: a walking walker's feet land in turn, each running its own
/// group, once per half stride; standing, none land; with the left leg
/// shot off, only the right foot lands.
#[test]
fn a_walkers_feet_land_in_turn_and_a_shot_off_leg_lands_no_more() {
    let (_tmp, mut app, id) = lone_walker();
    let e = entity(&app, id);
    let landed = |app: &mut App, ticks: usize| {
        let mut slots = Vec::new();
        for _ in 0..ticks {
            app.update();
            let footing = app.world().get::<Footing>(e).unwrap();
            slots.extend(footing.landed.iter().map(|l| l.slot));
        }
        slots
    };
    // Standing as it loads: planted, nothing lands.
    assert_eq!(app.world().get::<Footing>(e).unwrap().planted, 0b11);
    assert!(landed(&mut app, 30).is_empty());
    let at = translation(&app, id);
    let facing = *app.world().get::<Transform>(e).unwrap().forward();
    place(&mut app, id, at, facing, 0.3);
    let walking = landed(&mut app, 120);
    assert!(walking.len() >= 6, "{walking:?}");
    assert!(
        walking.windows(2).all(|w| w[0] != w[1]),
        "left and right in turn: {walking:?}"
    );
    let groups: Vec<usize> = app.world().get::<Gait>(e).unwrap().graph.feet[1]
        .iter()
        .map(|f| f.group.unwrap())
        .collect();
    assert_ne!(groups[0], groups[1], "each foot its own group");
    // Limping: the left contact's node is gone, so it is skipped.
    app.world_mut().get_mut::<NodeLife>(e).unwrap().0[0][2] = 0.0;
    landed(&mut app, 30);
    let limping = landed(&mut app, 120);
    assert!(
        !limping.is_empty() && limping.iter().all(|&s| s == 1),
        "{limping:?}"
    );
}
