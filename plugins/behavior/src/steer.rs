//! The physical-step level of tome VI's four (global path, local path,
//! Wizard path, physical step): the head order becomes the requested speed
//! and turn of the unit's [`PhysicalState`], which Control then moves as
//! far as it allows. Behavior never writes a transform.
//!
//! Going to a place: the nose turns toward it at most as fast as the live
//! turn rate allows in one step (so it never overshoots), the unit walks
//! while the place is within 45° of the nose, no faster than it can still
//! brake to a stand at the place with its live acceleration, and the order
//! is done once the place is within the corridor radius
//! (`PathFind_CorridorRadius`). Following an object is going toward where
//! it is now, never done, holding within the follow radius; patrolling is
//! going to each point of the path in turn, the first again after the last.

use crate::order::{FOLLOW_RADIUS, OrderKind, OrderTarget, Orders};
use bevy::prelude::*;
use iron3d_control::{Body, LiveLimits, PhysicalState};
use iron3d_schedules::GameClock;
use iron3d_world::mission::{BehaviorIni, MissionPaths};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};
use std::f32::consts::FRAC_PI_4;

/// m: the corridor radius when `Behavior.ini` has none (the engine's own
/// choice: the original's compiled default is not known).
pub const DEFAULT_CORRIDOR_RADIUS: f32 = 5.0;
/// m/s: a stopping unit is at a stand below this speed.
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

/// Steering toward `goal` (world frame; its height is ignored) from
/// `transform` for one step of `dt`.
fn go_toward(
    goal: Vec3,
    transform: &Transform,
    limits: &LiveLimits,
    radius: f32,
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
    let forward = if error.abs() > FRAC_PI_4 || top <= 0.0 {
        0.0
    } else {
        // The speed from which the live acceleration still stops it at the
        // place (v² = 2·a·s).
        let brake = (2.0 * limits.acceleration.y.abs() * distance).sqrt();
        (brake / top).min(1.0) * error.cos()
    };
    Command {
        forward,
        turn,
        done: false,
    }
}

/// One patrol step toward point `leg` of `points` (not empty): the
/// command (never done) and the leg to go for next, the following point
/// once this one is reached.
fn patrol(
    points: &[[f32; 3]],
    leg: u32,
    transform: &Transform,
    limits: &LiveLimits,
    params: &BehaviorParams,
    dt: f32,
) -> (Command, u32) {
    let n = points.len() as u32;
    let leg = leg % n;
    let goal = world_point(points[leg as usize]);
    let step = go_toward(goal, transform, limits, params.corridor_radius, dt);
    let next = if step.done { (leg + 1) % n } else { leg };
    (
        Command {
            done: false,
            ..step
        },
        next,
    )
}

/// The world-frame point of a map-frame place (Z up).
fn world_point(place: [f32; 3]) -> Vec3 {
    Vec3::new(place[0], place[2], -place[1])
}

type Unit<'a> = (
    &'a Transform,
    &'a Body,
    &'a mut PhysicalState,
    &'a mut Orders,
);

/// Every unit with an order asks Control for its move, in id order; a unit
/// without one is left to whoever drives it.
pub(crate) fn steer(
    clock: Res<GameClock>,
    params: Res<BehaviorParams>,
    registry: Res<ObjectRegistry>,
    mut units: Query<Unit, Without<PendingDelete>>,
    placed: Query<&Transform, Without<PendingDelete>>,
    paths: Option<Res<MissionPaths>>,
) {
    let dt = clock.timestep().as_secs_f32();
    for (id, entity) in registry.iter() {
        let Ok((transform, body, mut state, mut orders)) = units.get_mut(entity) else {
            continue;
        };
        let Some(order) = orders.current().copied() else {
            continue;
        };
        let command = match (order.kind, order.target) {
            (OrderKind::Go, OrderTarget::Place(place)) => go_toward(
                world_point(place),
                transform,
                &body.limits,
                params.corridor_radius,
                dt,
            ),
            (OrderKind::Follow, OrderTarget::Object(leader)) => {
                let leader = registry
                    .entity(OriginalObjectId(leader))
                    .ok()
                    .and_then(|e| placed.get(e).ok());
                match leader {
                    // Within the radius it waits; it never arrives.
                    Some(leader) => Command {
                        done: false,
                        ..go_toward(
                            leader.translation,
                            transform,
                            &body.limits,
                            FOLLOW_RADIUS,
                            dt,
                        )
                    },
                    // Whom it followed is gone: the order is over.
                    None => Command { done: true, ..HOLD },
                }
            }
            (OrderKind::Patrol, _) => {
                let path = paths
                    .as_ref()
                    .and_then(|p| p.0.iter().find(|p| p.id == order.parameter));
                match path.filter(|p| !p.points.is_empty()) {
                    Some(path) => {
                        let (step, next) = patrol(
                            &path.points,
                            order.leg,
                            transform,
                            &body.limits,
                            &params,
                            dt,
                        );
                        if let Some(head) = orders.0.front_mut() {
                            head.leg = next;
                        }
                        step
                    }
                    None => {
                        warn!(
                            "object {:#010x}: no mission path {} with points to patrol",
                            id.raw(),
                            order.parameter
                        );
                        Command { done: true, ..HOLD }
                    }
                }
            }
            (OrderKind::Stop, _) => Command {
                done: state.linear_velocity.length() < AT_REST,
                ..HOLD
            },
            // A go order always has a place and a follow order an object
            // (the factory checks them).
            (OrderKind::Go | OrderKind::Follow | OrderKind::StayGround, _) => HOLD,
        };
        state.requested = Vec3::new(0.0, command.forward, 0.0);
        state.turn = command.turn;
        if command.done {
            orders.0.pop_front();
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
        let far = go_toward(Vec3::new(0.0, 0.0, -100.0), &t, &limits(), 5.0, DT);
        assert_eq!((far.forward, far.turn, far.done), (1.0, 0.0, false));
        let near = go_toward(Vec3::new(0.0, 0.0, -4.0), &t, &limits(), 5.0, DT);
        assert!(near.done);
    }

    #[test]
    fn the_nose_turns_toward_the_place_without_overshooting() {
        let t = Transform::default();
        // To the left (-X), 90°: full left turn, no walking yet.
        let left = go_toward(Vec3::new(-50.0, 0.0, 0.0), &t, &limits(), 5.0, DT);
        assert_eq!((left.forward, left.turn), (0.0, 1.0));
        let right = go_toward(Vec3::new(50.0, 0.0, 0.0), &t, &limits(), 5.0, DT);
        assert_eq!(right.turn, -1.0);
        // A small error is turned in exactly one step: turn × rate × dt.
        let rate = limits().turn_rate.z;
        let err = 0.5 * rate * DT;
        let goal = Vec3::new(-err.sin() * 50.0, 0.0, -err.cos() * 50.0);
        let small = go_toward(goal, &t, &limits(), 5.0, DT);
        assert!((small.turn - 0.5).abs() < 1e-3, "{small:?}");
    }

    #[test]
    fn it_slows_down_to_brake_at_the_place() {
        let t = Transform::default();
        // 9 m away, a = 4 m/s²: sqrt(2·4·9) = 8.49 > top 8 · (1+1)/2 = 8.
        let b = limits();
        assert_eq!(b.acceleration.y, 4.0);
        let at_9 = go_toward(Vec3::new(0.0, 0.0, -9.0), &t, &b, 5.0, DT);
        assert_eq!(at_9.forward, 1.0);
        // 6 m away: sqrt(48) / 8.
        let at_6 = go_toward(Vec3::new(0.0, 0.0, -6.0), &t, &b, 5.0, DT);
        assert!((at_6.forward - 48f32.sqrt() / 8.0).abs() < 1e-5);
    }

    #[test]
    fn a_patrol_goes_for_the_next_point_once_one_is_reached_and_wraps() {
        let t = Transform::default();
        let params = BehaviorParams::default();
        // Map (0, 100) is world (0, _, -100): ahead of the nose.
        let points = [[0.0, 2.0, 0.0], [0.0, 100.0, 0.0]];
        let (at_first, next) = patrol(&points, 0, &t, &limits(), &params, DT);
        assert_eq!((at_first.done, next), (false, 1));
        let (walking, next) = patrol(&points, 1, &t, &limits(), &params, DT);
        assert_eq!((walking.forward, next), (1.0, 1));
        // A leg past the end (the path got shorter) wraps.
        assert_eq!(patrol(&points, 2, &t, &limits(), &params, DT).1, 1);
    }

    #[test]
    fn places_are_in_the_map_frame() {
        assert_eq!(world_point([1.0, 2.0, 3.0]), Vec3::new(1.0, 3.0, -2.0));
    }
}
