//! The controller's integrator and the terrain rules (GAMEPLAY §2,
//! openparkan `docs/24-motion.md`; docs/facts.md "Control"):
//!
//! - each body axis moves toward `requested × live top` by at most
//!   `live acceleration × dt`, then is held to the live top; the nose turns
//!   at `turn × live turn rate` about the up axis;
//! - a ground-bound body off the ground falls: each tick it drops
//!   `(v − g·dt/2)·dt` and `v` loses `g·dt` (g = 10), so from rest the drop
//!   is exactly `5t²`; it lands on the first face it reaches;
//! - on the ground it keeps to the face below it (within its radius) and a
//!   move onto a face whose normal's z is not above cos 80° (or where no
//!   face is found) snaps back to where it started; mode 2 brakes uphill;
//! - a flyer never falls: its vertical axis follows the request like the
//!   others, and the ground only lifts it (its sphere stays above);
//! - the map edge: hard clamp inset by the radius, a soft push back in the
//!   last 80 m, and a ceiling 20 above the highest ground.

use crate::backend::BodyPoses;
use crate::body::{Body, MotionFlags, PhysicalState};
use crate::ground::Ground;
use crate::terrain::MapBounds;
use bevy::prelude::*;
use iron3d_schedules::GameClock;
use iron3d_world::{ObjectRegistry, PendingDelete};

/// m/s² for every body that is not a flyer.
pub const GRAVITY: f32 = 10.0;
/// A face is walkable when its normal's up component is above cos 80°.
pub const WALKABLE_NORMAL_Z: f32 = 0.173_648_18;
/// The soft band along each side of the map, m.
const EDGE_BAND: f32 = 80.0;
/// Soft edge push per m of depth into the band, m/s (3 × 0.0125).
// STAND-IN: the push taken as a speed, m/s (docs/24 "The map edge" gives
// the factors, not the unit); settled by timing a retail unit pushed
// back from the edge.
const EDGE_PUSH: f32 = 3.0 * 0.0125;
/// Above the highest ground: a soft push down per m (3 × 0.05, m/s), and
/// the hard ceiling this far above it, m.
const CEILING: f32 = 20.0;
// STAND-IN: the push down taken as a speed, m/s, as `EDGE_PUSH`; settled
// the same way above the highest ground.
const CEILING_PUSH: f32 = 3.0 * 0.05;
/// How far a ground probe reaches down, m.
const PROBE_REACH: f32 = 100_000.0;

/// Where a mover stood before this tick's move (for a snap back) and
/// where the integrator meant to take it: what the rules after it (the
/// ground, push-outs, the map edge) did to the move is their difference.
/// Not state: each step writes it anew before anything reads it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
pub struct StepStart {
    pub(crate) start: Vec3,
    candidate: Vec3,
}

impl StepStart {
    /// A mover standing at `at`, not moved yet.
    pub(crate) fn at(at: Vec3) -> Self {
        Self {
            start: at,
            candidate: at,
        }
    }

    /// The body's real velocity over the last step of `dt` seconds, now at
    /// `now`: the integrator's velocity plus what the rules after it did
    /// to the move (a body pushed along, lifted or snapped back moves as
    /// it is moved, not as it asked to).
    pub fn real_velocity(&self, state: &PhysicalState, now: Vec3, dt: f32) -> Vec3 {
        if dt <= 0.0 {
            return state.linear_velocity;
        }
        state.linear_velocity + (now - self.candidate) / dt
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        integrate.in_set(iron3d_schedules::SimStep::Integrate),
    )
    .add_systems(
        FixedUpdate,
        (follow_ground, crate::contact::push_apart, keep_inside_map)
            .chain()
            .in_set(iron3d_schedules::SimStep::Resolve),
    )
    .add_systems(
        FixedUpdate,
        publish_poses.in_set(iron3d_schedules::SimStep::Publish),
    );
}

/// `value` moved toward `target` by at most `step`.
fn approach(value: f32, target: f32, step: f32) -> f32 {
    if value < target {
        (value + step).min(target)
    } else {
        (value - step).max(target)
    }
}

/// How much of its speed a mode-2 body keeps going up a face with normal
/// `up` (its up component): 1 on flat ground, 0 past the slope cone.
pub(crate) fn slope_factor(up: f32, cone: f32) -> f32 {
    let edge = cone.cos();
    if up <= edge || edge >= 1.0 {
        return 0.0;
    }
    (2.0 * (up - edge) / (1.0 - edge)).min(1.0)
}

/// One integrator step: the new velocity and spin in `state`, the
/// candidate transform returned.
pub(crate) fn step(
    transform: &Transform,
    state: &mut PhysicalState,
    body: &Body,
    dt: f32,
) -> Transform {
    let limits = &body.limits;
    if !body.can_move {
        // No state to move in: whatever was asked is refused.
        state.requested = Vec3::ZERO;
        state.turn = 0.0;
    }
    let turn = state.turn.clamp(-1.0, 1.0) * limits.turn_rate.z;
    let rotation = (Quat::from_rotation_y(turn * dt) * transform.rotation).normalize();
    let right = rotation * Vec3::X;
    let forward = rotation * Vec3::NEG_Z;
    let request = state.requested.clamp(Vec3::NEG_ONE, Vec3::ONE);
    let v = state.linear_velocity;
    let axis = |now: f32, request: f32, top: f32, accel: f32| {
        approach(now, request * top, accel * dt).clamp(-top.abs(), top.abs())
    };
    let side = axis(
        v.dot(right),
        request.x,
        limits.top_speed.x,
        limits.acceleration.x,
    );
    let mut ahead = axis(
        v.dot(forward),
        request.y,
        limits.top_speed.y,
        limits.acceleration.y,
    );
    let on_ground = state.flags.has(MotionFlags::ON_GROUND);
    if body.brakes_on_slopes && on_ground {
        let downhill = Vec3::new(state.ground_normal.x, 0.0, state.ground_normal.z);
        if (forward * ahead).dot(downhill) < 0.0 {
            let cap = slope_factor(state.ground_normal.y, body.slope_cone) * limits.top_speed.y;
            if ahead.abs() > cap {
                let brake = 1.5 * limits.acceleration.y * dt;
                ahead = approach(ahead, cap.copysign(ahead), brake);
            }
        }
    }
    let (vertical, rise) = if !body.holds_ground {
        let up = axis(v.y, request.z, limits.top_speed.z, limits.acceleration.z);
        (up, up * dt)
    } else if on_ground {
        (0.0, 0.0)
    } else {
        (v.y - GRAVITY * dt, (v.y - GRAVITY * dt / 2.0) * dt)
    };
    let horizontal = right * side + forward * ahead;
    state.linear_velocity = horizontal + Vec3::Y * vertical;
    state.angular_velocity = Vec3::Y * turn;
    Transform {
        translation: transform.translation + horizontal * dt + Vec3::Y * rise,
        rotation,
        scale: transform.scale,
    }
}

pub(crate) type Mover<'a> = (
    &'a mut Transform,
    &'a mut PhysicalState,
    &'a Body,
    &'a mut StepStart,
);

/// Steps 1–2: every mover's candidate transform, in id order; the backend
/// sees it.
fn integrate(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    mut movers: Query<Mover, Without<PendingDelete>>,
    mut poses: BodyPoses,
) {
    let dt = clock.timestep().as_secs_f32();
    for (_, entity) in registry.iter() {
        let Ok((mut transform, mut state, body, mut start)) = movers.get_mut(entity) else {
            continue;
        };
        start.start = transform.translation;
        // Blocked is this step's news: a cliff or a building sets it.
        state.flags.set(MotionFlags::BLOCKED, false);
        *transform = step(&transform, &mut state, body, dt);
        start.candidate = transform.translation;
        poses.set(entity, &transform);
    }
}

/// Step 6, terrain: cliffs stop, the ground holds, falls land, flyers are
/// lifted.
fn follow_ground(
    registry: Res<ObjectRegistry>,
    mut movers: Query<Mover, Without<PendingDelete>>,
    ground: Ground,
) {
    for (_, entity) in registry.iter() {
        let Ok((mut transform, mut state, body, start)) = movers.get_mut(entity) else {
            continue;
        };
        if body.holds_ground {
            stand(&mut transform, &mut state, body, start.start, &ground);
        } else {
            lift(&mut transform, &mut state, body, &ground);
        }
    }
}

/// A ground-bound body after its move.
fn stand(
    transform: &mut Transform,
    state: &mut PhysicalState,
    body: &Body,
    start: Vec3,
    ground: &Ground,
) {
    let was_on_ground = state.flags.has(MotionFlags::ON_GROUND);
    let at = transform.translation;
    // A body on the ground walks from the face it stands on.
    let face = state.face.filter(|_| was_on_ground);
    let probe = |p: Vec3| ground.walk(face, p + Vec3::Y * body.radius, PROBE_REACH);
    let hit = probe(Vec3::new(at.x, at.y.max(start.y), at.z));
    let walkable = hit.is_some_and(|g| g.normal.y > WALKABLE_NORMAL_Z);
    let moved = Vec2::new(at.x - start.x, at.z - start.z) != Vec2::ZERO;
    if was_on_ground && moved && !walkable {
        // A cliff (or the end of the ground): back to the start.
        transform.translation.x = start.x;
        transform.translation.z = start.z;
        state.flags.set(MotionFlags::BLOCKED, true);
        return;
    }
    let Some(hit) = hit else {
        state.flags.set(MotionFlags::ON_GROUND, false);
        state.flags.set(MotionFlags::FALLING, true);
        state.face = None;
        return;
    };
    let y = transform.translation.y;
    // STAND-IN: a body on the ground keeps to a face less than its radius
    // below, else falls (the contact points, whose 16-byte records are not
    // decoded, hold the original's); settled by decoding the contact
    // records (openparkan docs/24 "Holding the body on the ground").
    let lands = if was_on_ground {
        hit.height >= y - body.radius
    } else {
        y <= hit.height
    };
    if lands {
        transform.translation.y = hit.height;
        state.linear_velocity.y = 0.0;
        state.ground_normal = hit.normal;
        state.face = Some(hit.face);
    } else {
        state.ground_normal = Vec3::Y;
        state.face = None;
    }
    state.flags.set(MotionFlags::ON_GROUND, lands);
    state.flags.set(MotionFlags::FALLING, !lands);
}

/// A flyer: the ground only lifts its sphere.
fn lift(transform: &mut Transform, state: &mut PhysicalState, body: &Body, ground: &Ground) {
    let centre = transform.transform_point(body.centre);
    state.flags.set(MotionFlags::ON_GROUND, false);
    let Some(hit) = ground.below(centre + Vec3::Y * body.radius, PROBE_REACH) else {
        return;
    };
    state.ground_normal = hit.normal;
    let lowest = hit.height + body.radius;
    if centre.y < lowest {
        transform.translation.y += lowest - centre.y;
        state.linear_velocity.y = state.linear_velocity.y.max(0.0);
    }
}

/// Step 6, the map edge: hard clamp inset by the radius, soft push in the
/// band along each side, the ceiling.
pub(crate) fn keep_inside_map(
    clock: Res<GameClock>,
    map: Option<Res<MapBounds>>,
    registry: Res<ObjectRegistry>,
    mut movers: Query<(&mut Transform, &mut PhysicalState, &Body), Without<PendingDelete>>,
) {
    let Some(map) = map else { return };
    let dt = clock.timestep().as_secs_f32();
    for (_, entity) in registry.iter() {
        let Ok((mut transform, mut state, body)) = movers.get_mut(entity) else {
            continue;
        };
        let at_edge = edge_rule(&mut transform.translation, &map, body.radius, dt);
        state.flags.set(MotionFlags::AT_EDGE, at_edge);
    }
}

/// Applies the edge rules to a position; whether it is in a soft band.
pub(crate) fn edge_rule(p: &mut Vec3, map: &MapBounds, radius: f32, dt: f32) -> bool {
    let mut in_band = false;
    for axis in [0, 2] {
        let (low, high) = (map.min[axis], map.max[axis]);
        let depth_low = EDGE_BAND - (p[axis] - low);
        let depth_high = EDGE_BAND - (high - p[axis]);
        if depth_low > 0.0 {
            p[axis] += EDGE_PUSH * depth_low.min(EDGE_BAND) * dt;
            in_band = true;
        }
        if depth_high > 0.0 {
            p[axis] -= EDGE_PUSH * depth_high.min(EDGE_BAND) * dt;
            in_band = true;
        }
        let (inner_low, inner_high) = (low + radius, high - radius);
        p[axis] = if inner_low <= inner_high {
            p[axis].clamp(inner_low, inner_high)
        } else {
            (low + high) / 2.0
        };
    }
    let top = map.max.y;
    if p.y > top {
        let depth = p.y - top;
        p.y = (p.y - CEILING_PUSH * depth.min(CEILING) * dt).min(top + CEILING);
    }
    in_band
}

/// Step 7: the backend's bodies take the final transforms.
fn publish_poses(
    registry: Res<ObjectRegistry>,
    movers: Query<&Transform, (With<Body>, Without<PendingDelete>)>,
    mut poses: BodyPoses,
) {
    for (_, entity) in registry.iter() {
        if let Ok(transform) = movers.get(entity) {
            poses.set(entity, transform);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::LiveLimits;
    use iron3d_formats::proto::ctld::ControlParams;

    fn walker() -> Body {
        let params = ControlParams {
            acceleration: [4.0; 3],
            top_speed: [8.0; 3],
            turn_rate: [1.2; 3],
            ..ControlParams::ENGINE_DEFAULT
        };
        Body {
            centre: Vec3::Y,
            radius: 2.0,
            mass: 1000.0,
            holds_ground: true,
            can_move: true,
            limits: LiveLimits::new(&params, 1.0, 1.0),
            brakes_on_slopes: true,
            slope_cone: 0.6,
        }
    }

    #[test]
    fn the_slope_factor_is_one_on_flat_ground_and_zero_past_the_cone() {
        assert_eq!(slope_factor(1.0, 0.6), 1.0);
        assert_eq!(slope_factor(0.6f32.cos() - 1e-3, 0.6), 0.0);
        // Halfway between cos(cone) and 1: min(1, 2 * 0.5) = 1; a quarter
        // of the way: 0.5.
        let quarter = 0.6f32.cos() + (1.0 - 0.6f32.cos()) / 4.0;
        assert!((slope_factor(quarter, 0.6) - 0.5).abs() < 1e-5);
    }

    #[test]
    fn mode_two_brakes_uphill_only() {
        let body = walker();
        let dt = 1.0 / 30.0;
        // A face rising toward -Z (the nose's way): its normal leans +Z.
        let quarter = 0.6f32.cos() + (1.0 - 0.6f32.cos()) / 4.0;
        let normal = Vec3::new(0.0, quarter, (1.0 - quarter * quarter).sqrt());
        let run = |facing: Vec3| {
            let mut state = PhysicalState {
                linear_velocity: facing * 8.0,
                requested: Vec3::new(0.0, 1.0, 0.0),
                ground_normal: normal,
                ..Default::default()
            };
            state.flags.set(MotionFlags::ON_GROUND, true);
            let t = Transform::default().looking_to(facing, Vec3::Y);
            step(&t, &mut state, &body, dt);
            state.linear_velocity.length()
        };
        // Uphill: pulled toward half the top speed at 1.5 x the live
        // acceleration (8 m/s²).
        assert!((run(Vec3::NEG_Z) - (8.0 - 1.5 * 8.0 * dt)).abs() < 1e-4);
        // Downhill: no brake, still at top speed.
        assert!((run(Vec3::Z) - 8.0).abs() < 1e-5);
    }

    #[test]
    fn the_soft_edge_pushes_in_by_depth_and_the_hard_edge_clamps() {
        let map = MapBounds {
            min: Vec3::new(-500.0, 0.0, -500.0),
            max: Vec3::new(500.0, 100.0, 500.0),
        };
        // 30 m from the +X side: 50 m deep in the band, 3 x 0.0125 x 50 m/s.
        let mut p = Vec3::new(470.0, 10.0, 0.0);
        assert!(edge_rule(&mut p, &map, 2.0, 1.0));
        assert!((p.x - (470.0 - 1.875)).abs() < 1e-4, "{p}");
        let mut p = Vec3::new(0.0, 10.0, 0.0);
        assert!(!edge_rule(&mut p, &map, 2.0, 1.0));
        assert_eq!(p, Vec3::new(0.0, 10.0, 0.0));
        let mut p = Vec3::new(900.0, 10.0, -900.0);
        edge_rule(&mut p, &map, 2.0, 1.0 / 30.0);
        assert_eq!((p.x, p.z), (498.0, -498.0));
        // Above the highest ground: pushed down, never over 20 m above it.
        let mut p = Vec3::new(0.0, 200.0, 0.0);
        edge_rule(&mut p, &map, 2.0, 1.0);
        assert_eq!(p.y, 120.0);
    }
}
