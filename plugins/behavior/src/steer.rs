//! The physical-step level of tome VI's four (global path, local path,
//! Wizard path, physical step): the head order becomes the requested speed
//! and turn of the unit's [`PhysicalState`], which Control then moves as
//! far as it allows. Behavior never writes a transform.
//!
//! Going to a place is going along the unit's [`Route`] to it: toward the
//! Wizard point when there is one, else the next local point. The nose
//! turns toward it at most as fast as the live turn rate allows in one
//! step (so it never overshoots), the unit walks while the point is within
//! 45° of the nose, no faster than it can still brake to a stand at the end
//! of the path with its live acceleration, and the order is done once the
//! goal is within the corridor radius (`PathFind_CorridorRadius`).
//! Following an object is going toward where it is now (planning again
//! once it has moved the follow radius from the path's goal), never done,
//! holding within the follow radius; patrolling is going to each point of
//! the path, or of the loop round its circle ([`crate::patrol`]), in turn,
//! the first again after the last.

use crate::attack::{self, Target};
use crate::diagnostic::BehaviorDiagnostics;
use crate::diagnostic::ErrorState;
use crate::leave;
use crate::order::{FOLLOW_RADIUS, OrderKind, OrderTarget, Orders};
use crate::patrol::{self, Circle, Ground};
use crate::route::{
    PROGRESS_TIME, Planner, REPLANS, Route, Watch, Who, distance, map_point, off_corridor,
    pass_points,
};
use crate::sensor::Sensor;
use crate::wizard::{Footprints, MARGIN, Surroundings, ground_units};
use bevy::prelude::*;
use iron3d_control::{Body, LiveLimits, MapBounds, PhysicalState, Piloted, StaticBody};
use iron3d_formats::config::ini::{BEHAVIOR_INI, Settings};
use iron3d_formats::tma;
use iron3d_schedules::GameClock;
use iron3d_world::mission::{
    Destroyed, InstanceName, LoadError, MissionArealMap, MissionClans, MissionDescription,
    MissionLand, MissionPaths, ObjectClan, ObjectKind, PrototypeKey, ReadContext, RngStreams,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};
use std::f32::consts::FRAC_PI_4;

/// m: the corridor radius when `Behavior.ini` has none (the engine's own
/// choice: the original's compiled default is not known).
// STAND-IN: 5 m (tome VIII: the demo `Behavior.ini` has no `PathFind_*`
// key, so the compiled default is unknown); settled by reading the
// default in `Behavior.dll`'s parameter table.
pub const DEFAULT_CORRIDOR_RADIUS: f32 = 5.0;
/// m/s: a stopping unit is at a stand below this speed.
// STAND-IN: 0.05 m/s (Behavior's own stop test is not measured); settled
// by reading the stop task's done test in `Behavior.dll` (openparkan
// docs/31).
const AT_REST: f32 = 0.05;

/// Behavior's run-time parameters (tome VI "Параметры Behavior.ini").
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
pub struct BehaviorParams {
    /// m: how near a unit must come to a place for a go order to be done.
    pub corridor_radius: f32,
}

impl Default for BehaviorParams {
    fn default() -> Self {
        Self {
            corridor_radius: DEFAULT_CORRIDOR_RADIUS,
        }
    }
}

impl BehaviorParams {
    /// The install's values, the defaults where a key is unset; a radius
    /// that is not a positive number keeps the default (and says so).
    pub fn from_ini(ini: &BehaviorIni) -> Self {
        let mut params = Self::default();
        if let Some(r) = ini.0.number("PathFind_CorridorRadius") {
            if r.is_finite() && r > 0.0 {
                params.corridor_radius = r as f32;
            } else {
                warn!("Behavior.ini: PathFind_CorridorRadius {r} is not a positive length");
            }
        }
        params
    }
}

/// Behavior's run-time parameters, at the install's root (optional).
const BEHAVIOR_FILE: &str = "Behavior.ini";

/// The install's `Behavior.ini` as the mission load resolved it against
/// its key table (every key at its default or unset when the install has
/// none): Behavior reads its parameters from here.
#[derive(Resource, Debug, Clone)]
pub struct BehaviorIni(pub Settings);

/// Behavior's reader in the mission load (foundation phase): publishes
/// the install's [`BehaviorIni`].
pub(crate) fn read_behavior_ini(world: &mut World, load: &ReadContext) -> Result<(), LoadError> {
    let settings = load.settings(BEHAVIOR_FILE, BEHAVIOR_INI)?;
    world.insert_resource(BehaviorIni(settings));
    Ok(())
}

/// Takes the parameters of the mission's `Behavior.ini` when it is
/// published.
pub(crate) fn read_params(ini: Option<Res<BehaviorIni>>, mut params: ResMut<BehaviorParams>) {
    if let Some(ini) = ini.filter(|i| i.is_changed()) {
        *params = BehaviorParams::from_ini(&ini);
    }
}

/// What a unit asks of Control this step for its head order, and whether
/// the order is done.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Command {
    forward: f32,
    turn: f32,
    done: bool,
}

const HOLD: Command = Command {
    forward: 0.0,
    turn: 0.0,
    done: false,
};

/// The order cannot be carried out (or is over): stand, and drop it.
const DROP: Command = Command { done: true, ..HOLD };

/// Steering toward `goal` (world frame; its height is ignored) from
/// `transform` for one step of `dt`, with `beyond` more path after it to
/// brake for; done within `radius` of it.
fn go_toward(
    goal: Vec3,
    transform: &Transform,
    limits: &LiveLimits,
    radius: f32,
    beyond: f32,
    dt: f32,
) -> Command {
    let to = Vec2::new(
        goal.x - transform.translation.x,
        goal.z - transform.translation.z,
    );
    let distance = to.length();
    if distance <= radius {
        return Command { done: true, ..HOLD };
    }
    let nose = transform.rotation * Vec3::NEG_Z;
    let nose = Vec2::new(nose.x, nose.z);
    // The signed angle from the nose to the place about +Y (a positive turn
    // is to the left, as Control's integrator turns).
    let error = -nose.perp_dot(to).atan2(nose.dot(to));
    let rate = limits.turn_rate.z.abs() * dt;
    let turn = if rate > 0.0 {
        (error / rate).clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let top = limits.top_speed.y.abs();
    // STAND-IN: walk only while the place is within 45° of the nose, at no
    // more than the speed it can brake from over the whole path left (the
    // Wizard's and Behavior's own steering are not measured); settled by
    // reading the walker's steering in `Behavior.dll` or timing a retail
    // unit's go order.
    let forward = if error.abs() > FRAC_PI_4 || top <= 0.0 {
        0.0
    } else {
        // The speed from which the live acceleration still stops it at the
        // end of the path (v² = 2·a·s).
        let brake = (2.0 * limits.acceleration.y.abs() * (distance + beyond)).sqrt();
        (brake / top).min(1.0) * error.cos()
    };
    Command {
        forward,
        turn,
        done: false,
    }
}

/// One step along the unit's route to `goal` (map frame), planning it
/// when there is none to that goal (within `retarget` of it) or the unit
/// has strayed off it; done once within `arrive` of the goal. `None` when
/// there is no way there (reported by the planner).
#[allow(clippy::too_many_arguments)]
fn travel(
    planner: &mut Planner,
    around: &Surroundings,
    who: &Who,
    route: &mut Route,
    goal: [f32; 2],
    (arrive, retarget): (f32, f32),
    transform: &Transform,
    limits: &LiveLimits,
    params: &BehaviorParams,
    dt: f32,
) -> Option<Command> {
    let corridor = params.corridor_radius;
    let here = map_point(transform.translation);
    if let Some(out) = route.escape {
        let step = go_toward(world_ground(out), transform, limits, corridor, 0.0, dt);
        if step.done {
            // Out: plan from here next step.
            route.clear();
        }
        return Some(Command {
            done: false,
            ..step
        });
    }
    let stale = route.goal.is_none_or(|g| distance(g, goal) > retarget);
    if (stale || off_corridor(route, here, corridor)) && !planner.plan(route, who, here, goal) {
        return None;
    }
    if route.escape.is_some() {
        return Some(HOLD);
    }
    pass_points(route, here, corridor);
    let (next, beyond) = route.next_point()?;
    if !who.flyer {
        around.steer_round(
            route,
            who.id,
            who.radius,
            Vec2::from(here),
            Vec2::from(next),
        );
    }
    let last = route.points.len() == 1;
    let taken = |goal: [f32; 2]| {
        let (here, goal) = (Vec2::from(here), Vec2::from(goal));
        around.as_near_as_can_be(who.id, who.radius, (here, goal), corridor)
    };
    if last && !who.flyer && taken(goal) {
        return Some(Command { done: true, ..HOLD });
    }
    let step = match route.wizard {
        // Toward the Wizard's corner, never stopping at it.
        Some(by) => Command {
            done: false,
            ..go_toward(
                world_ground(by),
                transform,
                limits,
                0.0,
                distance(by, next) + beyond,
                dt,
            )
        },
        None if last => go_toward(world_ground(goal), transform, limits, arrive, 0.0, dt),
        None => Command {
            done: false,
            ..go_toward(world_ground(next), transform, limits, corridor, beyond, dt)
        },
    };
    Some(step)
}

/// The watch on a go order to `goal` of a unit at `here` after its step
/// along `route` (the path left: to the next point and beyond it).
fn watch_go(route: &mut Route, goal: [f32; 2], here: [f32; 2], now: (u64, f32)) -> Watch {
    let left = route
        .next_point()
        .map_or(0.0, |(next, beyond)| distance(here, next) + beyond);
    route.watch(goal, left, now)
}

/// The world-frame point of a map-frame ground point (height 0: steering
/// ignores it).
fn world_ground(p: [f32; 2]) -> Vec3 {
    Vec3::new(p[0], 0.0, -p[1])
}

type Unit<'a> = (
    &'a Transform,
    &'a Body,
    &'a mut PhysicalState,
    &'a mut Orders,
    &'a mut Route,
    Option<&'a InstanceName>,
    Option<&'a PrototypeKey>,
    Option<&'a ObjectClan>,
    Option<&'a Sensor>,
    &'a mut Target,
    Has<Destroyed>,
);

/// Another object an order is after.
type Prey<'a> = (
    &'a Transform,
    Option<&'a StaticBody>,
    Option<&'a ObjectClan>,
    Option<&'a ObjectKind>,
);

/// What the steering of one step reads from the mission.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct MissionView<'w> {
    clock: Res<'w, GameClock>,
    params: Res<'w, BehaviorParams>,
    registry: Res<'w, ObjectRegistry>,
    paths: Option<Res<'w, MissionPaths>>,
    map: Option<Res<'w, MissionArealMap>>,
    land: Option<Res<'w, MissionLand>>,
    mission: Option<Res<'w, MissionDescription>>,
    clans: Option<Res<'w, MissionClans>>,
    footprints: Res<'w, Footprints>,
    bounds: Option<Res<'w, MapBounds>>,
}

/// Every unit with an order asks Control for its move, in id order; a unit
/// without one is left to whoever drives it.
pub(crate) fn steer(
    view: MissionView,
    mut rng: ResMut<RngStreams>,
    mut diagnostics: ResMut<BehaviorDiagnostics>,
    mut units: Query<Unit, (Without<PendingDelete>, Without<Piloted>)>,
    placed: Query<Prey, Without<PendingDelete>>,
    bodies: Query<(&Transform, &Body), Without<PendingDelete>>,
) {
    let dt = view.clock.timestep().as_secs_f32();
    let tick = view.clock.tick();
    let params = *view.params;
    let grid = ground_units(&view.registry, &bodies);
    let around = Surroundings {
        footprints: &view.footprints,
        units: &grid,
        map: view.map.as_deref(),
    };
    let mut planner = Planner {
        map: view.map.as_deref(),
        footprints: &view.footprints,
        terrain: view.land.is_some(),
        mission: view.mission.as_deref(),
        tick: view.clock.tick(),
        rng: &mut rng,
        diagnostics: &mut diagnostics,
    };
    for (id, entity) in view.registry.iter() {
        let Ok((
            transform,
            body,
            mut state,
            mut orders,
            mut route,
            name,
            key,
            clan,
            sensor,
            mut target,
            destroyed,
        )) = units.get_mut(entity)
        else {
            continue;
        };
        if destroyed {
            // A destroyed machine asks for nothing more and is after
            // nothing.
            orders.0.clear();
            target.set_if_neq(Target(None));
            state.requested = Vec3::ZERO;
            state.turn = 0.0;
            continue;
        }
        target.set_if_neq(Target(attack::target_of(orders.current(), sensor)));
        let Some(order) = orders.current().copied() else {
            continue;
        };
        let who = Who {
            id,
            name,
            key,
            flyer: !body.holds_ground,
            radius: body.radius,
            in_clan: clan
                .zip(view.clans.as_deref())
                .is_some_and(|(c, clans)| c.name(&clans.0).is_some()),
        };
        let here = map_point(transform.translation);
        // The object an attack, a capture or a patrol is after, where it
        // is now.
        let prey = match (order.kind, order.target) {
            (
                OrderKind::Attack | OrderKind::Capture | OrderKind::Patrol,
                OrderTarget::Object(prey),
            ) => view
                .registry
                .entity(OriginalObjectId(prey))
                .ok()
                .and_then(|e| placed.get(e).ok()),
            _ => None,
        };
        if let (Some((at, shape, _, _)), Some(head)) = (prey, orders.0.front_mut()) {
            match order.kind {
                OrderKind::Attack if head.place.is_none() || tick >= head.repick => {
                    let half = shape
                        .and_then(|s| s.0)
                        .map(|b| ((b.max - b.min) * 0.5).xz().length());
                    let next = attack::pick(
                        Vec2::from(here),
                        Vec2::from(map_point(at.translation)),
                        half,
                        (tick, dt),
                        planner.rng,
                        |p| around.walkable(p),
                    );
                    head.place = Some(next.place.into());
                    head.speed = next.speed;
                    head.repick = next.repick;
                }
                OrderKind::Capture if head.place.is_none() => {
                    // STAND-IN: the capturer's place is the building's door,
                    // the point of its footprint grown by the unit's radius
                    // and 1.5 nearest to it (the pod is a hall-way vertex
                    // the engine does not read yet, docs/27 "Capture");
                    // settled by reading hall ways (mesh stream 17).
                    let door = order
                        .target_object()
                        .and_then(|b| view.footprints.buildings.iter().find(|f| f.id == b))
                        .map(|f| {
                            f.outline
                                .inflated(body.radius + MARGIN)
                                .nearest_on_outline(Vec2::from(here))
                        })
                        .unwrap_or(Vec2::from(map_point(at.translation)));
                    head.place = Some(door.into());
                }
                _ => {}
            }
        }
        // A loop patrol's circle (none when what it goes round is gone, or
        // is a unit of another clan), and its loop drawn when it has none
        // or its timer is up.
        let circle = Circle::of(&order, prey.map(|(at, _, _, kind)| (at, kind))).filter(|c| {
            c.ground != Ground::Unit
                || prey.and_then(|p| p.2).map(|c| c.identity_raw) == clan.map(|c| c.identity_raw)
        });
        // The footprint of a building a patrol goes round or an escape
        // leaves.
        let outline = matches!(order.kind, OrderKind::Patrol | OrderKind::Leave)
            .then(|| order.target_object())
            .flatten()
            .and_then(|b| view.footprints.buildings.iter().find(|f| f.id == b))
            .map(|f| &f.outline);
        let bounds = view.bounds.as_deref().map(|b| (b.min, b.max));
        let fits = |p: Vec2| patrol::inside_map(bounds, p) && (who.flyer || around.walkable(p));
        if let (Some(circle), Some(head)) = (circle, orders.0.front_mut())
            && (head.place.is_none() || tick >= head.repick)
        {
            patrol::new_loop(head, circle.ground, planner.rng, (tick, dt));
            head.place = Some(patrol::point(&circle, (head.seed, 0), outline, fits).into());
        }
        // The escape's place, found once (a flyer's too must be on
        // walkable ground).
        if let Some(head) = orders.0.front_mut()
            && head.kind == OrderKind::Leave
            && head.place.is_none()
        {
            let ground = |p: Vec2| patrol::inside_map(bounds, p) && around.walkable(p);
            head.place =
                leave::way_out(Vec2::from(here), outline, planner.rng, ground).map(Into::into);
            if head.place.is_none() {
                warn!(
                    "object {:#010x}: cannot leave: no walkable place round it",
                    id.raw()
                );
            }
        }
        let mut go = |route: &mut Route, goal: [f32; 2], radii: (f32, f32)| {
            travel(
                &mut planner,
                &around,
                &who,
                route,
                goal,
                radii,
                transform,
                &body.limits,
                &params,
                dt,
            )
        };
        let command = match (order.kind, order.target) {
            (OrderKind::Go, OrderTarget::Place(place)) => {
                let goal = [place[0], place[1]];
                match go(&mut route, goal, (params.corridor_radius, 0.0)) {
                    Some(step) if !step.done => {
                        let watched = watch_go(&mut route, goal, here, (tick, dt));
                        if watched == Watch::GiveUp {
                            let cause = format!(
                                "no progress toward ({}, {}) in {PROGRESS_TIME} s, planned {} \
                                 times; the order is given up",
                                goal[0],
                                goal[1],
                                REPLANS + 1
                            );
                            planner.report(&who, ErrorState::NonReachable, cause);
                            DROP
                        } else {
                            step
                        }
                    }
                    step => step.unwrap_or(DROP),
                }
            }
            (OrderKind::Follow, OrderTarget::Object(leader)) => {
                let leader = view
                    .registry
                    .entity(OriginalObjectId(leader))
                    .ok()
                    .and_then(|e| placed.get(e).ok())
                    .map(|(t, ..)| t);
                match leader {
                    // Within the radius it waits; it never arrives.
                    Some(leader) => {
                        let goal = map_point(leader.translation);
                        go(&mut route, goal, (FOLLOW_RADIUS, FOLLOW_RADIUS)).map_or(DROP, |step| {
                            Command {
                                done: false,
                                ..step
                            }
                        })
                    }
                    // Whom it followed is gone: the order is over.
                    // STAND-IN: a follow whose object is gone ends (docs/31
                    // does not say); settled by reading the follow task's
                    // end in `Behavior.dll`.
                    None => DROP,
                }
            }
            (OrderKind::Patrol, OrderTarget::Place(_) | OrderTarget::Object(_)) => {
                match (circle, orders.0.front_mut()) {
                    (Some(circle), Some(head)) => {
                        let goal = head.place.unwrap_or(here);
                        // STAND-IN: a loop point is reached as a go is, within
                        // the corridor radius (the original waits for its
                        // walker to be idle, docs/31 "The patrol, tick by
                        // tick"); settled by reading the walker's idle test.
                        match go(&mut route, goal, (params.corridor_radius, 0.0)) {
                            Some(step) => {
                                if step.done {
                                    head.leg = (head.leg + 1)
                                        % patrol::length(&circle, head.seed, outline);
                                    let next = patrol::point(
                                        &circle,
                                        (head.seed, head.leg),
                                        outline,
                                        fits,
                                    );
                                    head.place = Some(next.into());
                                }
                                Command {
                                    forward: step.forward * head.speed,
                                    done: false,
                                    ..step
                                }
                            }
                            None => DROP,
                        }
                    }
                    // What it went round is gone (or not its clan's).
                    _ => DROP,
                }
            }
            (OrderKind::Leave, _) => match orders.0.front().and_then(|o| o.place) {
                Some(out) => go(&mut route, out, (params.corridor_radius, 0.0)).unwrap_or(DROP),
                None => DROP,
            },
            (OrderKind::Patrol, _) => {
                // STAND-IN: a patrol with no target walks the mission path
                // whose stored id is the parameter (docs/31 measures the
                // menu's Guard on an object or place, not how a script names
                // a path); settled by a retail script's PATROL along a path.
                let path = view
                    .paths
                    .as_ref()
                    .and_then(|p| p.0.iter().find(|p| p.id == order.parameter));
                match path.filter(|p| !p.points.is_empty()) {
                    Some(path) => {
                        let n = path.points.len() as u32;
                        let leg = order.leg % n;
                        let point = path.points[leg as usize];
                        match go(
                            &mut route,
                            [point[0], point[1]],
                            (params.corridor_radius, 0.0),
                        ) {
                            Some(step) => {
                                if let Some(head) = orders.0.front_mut() {
                                    head.leg = if step.done { (leg + 1) % n } else { leg };
                                }
                                Command {
                                    done: false,
                                    ..step
                                }
                            }
                            None => DROP,
                        }
                    }
                    None => {
                        warn!(
                            "object {:#010x}: no mission path {} with points to patrol",
                            id.raw(),
                            order.parameter
                        );
                        DROP
                    }
                }
            }
            (OrderKind::Capture, OrderTarget::Object(_)) => {
                let own = clan.map(|c| c.identity_raw);
                let foreign = prey.is_some_and(|(_, _, owner, kind)| {
                    kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building)
                        && own.is_some()
                        && owner.map(|c| c.identity_raw) != own
                });
                // To the door, and stand there until the building's pod
                // fires ([`crate::capture::watch_pods`]).
                match orders.0.front_mut().filter(|_| foreign) {
                    Some(head) => {
                        let door = head.place.unwrap_or(here);
                        match go(&mut route, door, (params.corridor_radius, 0.0)) {
                            Some(step) => Command {
                                done: false,
                                ..step
                            },
                            None => DROP,
                        }
                    }
                    // Gone, not a building, or the unit's clan's already.
                    None => DROP,
                }
            }
            (OrderKind::Attack, _) => match orders.0.front_mut().filter(|_| prey.is_some()) {
                Some(head) => {
                    let (place, speed) = (head.place.unwrap_or_default(), head.speed);
                    match go(&mut route, place, (params.corridor_radius, 0.0)) {
                        Some(step) => Command {
                            forward: step.forward * speed,
                            done: false,
                            ..step
                        },
                        // No way there: stand and fight from here.
                        None => {
                            head.place = Some(map_point(transform.translation));
                            HOLD
                        }
                    }
                }
                // The target is gone: the attack is over.
                None => DROP,
            },
            (OrderKind::Stop, _) => Command {
                done: state.linear_velocity.length() < AT_REST,
                ..HOLD
            },
            // A go order always has a place, a follow and a capture order
            // an object (the factory checks them).
            (OrderKind::Go | OrderKind::Follow | OrderKind::Capture | OrderKind::StayGround, _) => {
                HOLD
            }
        };
        if matches!(order.kind, OrderKind::Stop | OrderKind::StayGround) {
            route.clear();
            route.progress = None;
        }
        state.requested = Vec3::new(0.0, command.forward, 0.0);
        state.turn = command.turn;
        if command.done {
            orders.0.pop_front();
            route.clear();
            route.progress = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::proto::ctld::ControlParams;

    fn limits() -> LiveLimits {
        let params = ControlParams {
            acceleration: [2.0; 3],
            top_speed: [8.0; 3],
            turn_rate: [1.0; 3],
            ..ControlParams::ENGINE_DEFAULT
        };
        LiveLimits::new(&params, 1.0, 1.0)
    }

    const DT: f32 = 1.0 / 30.0;

    #[test]
    fn a_place_ahead_is_walked_to_at_full_request_and_done_inside_the_radius() {
        let t = Transform::default(); // nose along -Z
        let far = go_toward(Vec3::new(0.0, 0.0, -100.0), &t, &limits(), 5.0, 0.0, DT);
        assert_eq!((far.forward, far.turn, far.done), (1.0, 0.0, false));
        let near = go_toward(Vec3::new(0.0, 0.0, -4.0), &t, &limits(), 5.0, 0.0, DT);
        assert!(near.done);
    }

    #[test]
    fn the_nose_turns_toward_the_place_without_overshooting() {
        let t = Transform::default();
        // To the left (-X), 90°: full left turn, no walking yet.
        let left = go_toward(Vec3::new(-50.0, 0.0, 0.0), &t, &limits(), 5.0, 0.0, DT);
        assert_eq!((left.forward, left.turn), (0.0, 1.0));
        let right = go_toward(Vec3::new(50.0, 0.0, 0.0), &t, &limits(), 5.0, 0.0, DT);
        assert_eq!(right.turn, -1.0);
        // A small error is turned in exactly one step: turn × rate × dt.
        let rate = limits().turn_rate.z;
        let err = 0.5 * rate * DT;
        let goal = Vec3::new(-err.sin() * 50.0, 0.0, -err.cos() * 50.0);
        let small = go_toward(goal, &t, &limits(), 5.0, 0.0, DT);
        assert!((small.turn - 0.5).abs() < 1e-3, "{small:?}");
    }

    #[test]
    fn it_slows_down_to_brake_at_the_place() {
        let t = Transform::default();
        // 9 m away, a = 4 m/s²: sqrt(2·4·9) = 8.49 > top 8 · (1+1)/2 = 8.
        let b = limits();
        assert_eq!(b.acceleration.y, 4.0);
        let at_9 = go_toward(Vec3::new(0.0, 0.0, -9.0), &t, &b, 5.0, 0.0, DT);
        assert_eq!(at_9.forward, 1.0);
        // 6 m away: sqrt(48) / 8.
        let at_6 = go_toward(Vec3::new(0.0, 0.0, -6.0), &t, &b, 5.0, 0.0, DT);
        assert!((at_6.forward - 48f32.sqrt() / 8.0).abs() < 1e-5);
    }

    #[test]
    fn it_brakes_for_the_whole_path_left_not_the_next_point() {
        let t = Transform::default();
        let b = limits();
        // 6 m to the next point but 20 m more beyond it: full speed on.
        let step = go_toward(Vec3::new(0.0, 0.0, -6.0), &t, &b, 5.0, 20.0, DT);
        assert_eq!(step.forward, 1.0);
    }

    #[test]
    fn ground_points_are_in_the_map_frame() {
        assert_eq!(world_ground([1.0, 2.0]), Vec3::new(1.0, 0.0, -2.0));
        assert_eq!(map_point(world_ground([1.0, 2.0])), [1.0, 2.0]);
    }
}
