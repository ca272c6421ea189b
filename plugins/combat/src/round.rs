//! Rounds in flight (openparkan `docs/29-weapons.md`, "The round's start",
//! "Guided rounds differ in how hard they steer", "How a round ends").
//!
//! Each step, in the order they were fired, a round:
//! - steers, when it is guided and its target's sphere centre is within its
//!   seeker's reach and cone, toward it at up to its turn rate;
//! - falls at g = 10 when lobbed; otherwise the part of its velocity across
//!   its nose (the shooter's, added at launch) bleeds off at 3 m/s²;
//! - moves, its path cut to the range it has left; each standing shield
//!   bubble the path enters first stops what it can of the round's hit
//!   ([`crate::shield`]): a round it stops whole is spent there (its hit
//!   effect plays, nothing is struck), one it does not goes on with the
//!   rest; the first thing the path meets (the land, or a live node of an
//!   object other than its shooter) stops it and runs its hit group: its
//!   node's explosion goes off there, striking that node;
//! - at the end of its range runs its range group (its named `.exp`,
//!   striking nothing directly); leaving the map's box (up to twice the
//!   land's highest point) removes it with no explosion.
//!
//! A stopped round stays its controller's `+92` ms, then goes.

use crate::damage::{HitQueue, PendingHit};
use crate::event::{CombatEvents, EffectCue, EventKind};
use crate::hit::{Struck, Targets, first_hit};
use crate::shield::{BubbleView, bubbles_along};
use bevy::prelude::*;
use iron3d_control::{GRAVITY, GroundFaces, MapBounds};
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{HitModel, NodeRef, RoundEnd, RoundSpec, SURFACE_MACHINE};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};
use std::sync::Arc;

/// m/s a second: how fast a straight round's velocity across its nose
/// bleeds off (0.003 m/s per ms).
pub const SIDEWAYS_BLEED: f32 = 3.0;

/// The next round's serial number (rounds are ordered and named by it).
#[derive(
    Resource, Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct RoundSerial(pub u64);

impl RoundSerial {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }
}

/// Where a round is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RoundState {
    Flying,
    /// Stopped; it goes at `until` (tick).
    Stopped {
        until: u64,
    },
}

/// A round: a simulation object of its own, named by its serial.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Round {
    pub serial: u64,
    #[serde(with = "iron3d_world::save::shared")]
    pub spec: Arc<RoundSpec>,
    /// The object that fired it (its hit test skips it).
    pub owner: OriginalObjectId,
    /// What its seeker steers at.
    pub target: Option<OriginalObjectId>,
    /// World frame.
    pub position: Vec3,
    pub velocity: Vec3,
    /// Unit: where its nose points.
    pub nose: Vec3,
    /// m it may still fly.
    pub range_left: f32,
    /// Its hit's factor: the firer's difficulty ratio (openparkan
    /// `docs/26-damage.md`: a gun hands it to each round it fires), 1 for
    /// a firer without one.
    pub ratio: f32,
    /// What the shields it passed through stopped of its hit.
    pub spent: f32,
    pub state: RoundState,
}

impl Round {
    /// A round leaving `muzzle` with `velocity`, its nose along `nose`,
    /// its hit scaled by `ratio`.
    pub(crate) fn launch(
        (serial, ratio): (u64, f32),
        spec: Arc<RoundSpec>,
        (owner, target): (OriginalObjectId, Option<OriginalObjectId>),
        muzzle: Vec3,
        velocity: Vec3,
        nose: Vec3,
    ) -> Round {
        let range_left = if spec.range > 0.0 {
            spec.range
        } else {
            f32::MAX
        };
        Round {
            serial,
            spec,
            owner,
            target,
            position: muzzle,
            velocity,
            nose,
            range_left,
            ratio,
            spent: 0.0,
            state: RoundState::Flying,
        }
    }

    /// What it hits for when an explosion of `damage` goes off: its ratio
    /// × (its node hit points + the damage; a round goes off from full
    /// life), less what shields stopped.
    pub fn amount(&self, damage: f32) -> f32 {
        (self.ratio * (self.spec.hit_points + damage) - self.spent).max(0.0)
    }
}

/// Every round in the world, in serial order (fired order).
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct Rounds(pub Vec<Round>);

/// Turns `v` toward `want` by at most `angle` rad (its length kept).
fn turn_toward(v: Vec3, want: Vec3, angle: f32) -> Vec3 {
    let (Some(from), Some(to)) = (v.try_normalize(), want.try_normalize()) else {
        return v;
    };
    let between = from.angle_between(to);
    if between <= angle {
        return to * v.length();
    }
    let axis = from.cross(to).try_normalize().unwrap_or(Vec3::Y);
    Quat::from_axis_angle(axis, angle) * v
}

/// Moves every round one step, in serial order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fly(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    ground: Option<Res<GroundFaces>>,
    bounds: Option<Res<MapBounds>>,
    mut queue: ResMut<HitQueue>,
    mut events: ResMut<CombatEvents>,
    mut rounds: ResMut<Rounds>,
    targets: Query<(&Transform, &HitModel)>,
    world: Query<Targets>,
    mut shields: Query<BubbleView, Without<PendingDelete>>,
) {
    let dt = clock.timestep().as_secs_f32();
    let step_ms = clock.timestep().as_secs_f64() * 1000.0;
    let tick = clock.tick();
    rounds.0.retain(|r| match r.state {
        RoundState::Stopped { until } => tick < until,
        RoundState::Flying => true,
    });
    let mut gone = Vec::new();
    for (at, round) in rounds.0.iter_mut().enumerate() {
        if round.state != RoundState::Flying {
            continue;
        }
        steer(round, &registry, &targets, dt);
        if round.spec.lobbed {
            round.velocity.y -= GRAVITY * dt;
        } else {
            let nose = round.nose;
            let along = nose * round.velocity.dot(nose);
            let across = round.velocity - along;
            let kept = (across.length() - SIDEWAYS_BLEED * dt).max(0.0);
            round.velocity = along + across.normalize_or_zero() * kept;
        }
        let mut path = round.velocity * dt;
        let length = path.length();
        let at_range = length >= round.range_left;
        if at_range && length > 0.0 {
            path *= round.range_left / length;
        }
        let (from, to) = (round.position, round.position + path);
        let hit = first_hit(
            from,
            to,
            Some(round.owner),
            ground.as_deref(),
            &registry,
            &world,
        );
        let reach = hit.map_or(1.0, |h| h.t);
        let spent_at = pass_bubbles(
            round,
            (from, to),
            reach,
            &registry,
            &mut shields,
            (&mut events, tick),
        );
        if spent_at.is_none() && hit.is_none() && bounds.as_deref().is_some_and(|b| outside(b, to))
        {
            gone.push(at);
            continue;
        }
        let (point, end, struck) = match (spent_at, hit) {
            (Some(t), _) => (from.lerp(to, t), round.spec.on_hit.clone(), None),
            (None, Some(hit)) => {
                let struck = match hit.struck {
                    Struck::Node { object, index } => {
                        let node = struck_node(&registry, &targets, object, index);
                        events.push(
                            tick,
                            EventKind::Hit,
                            object.raw(),
                            Some(round.owner.raw()),
                            node,
                            round.serial as f32,
                        );
                        Some((object, index))
                    }
                    Struck::Ground(_) => None,
                };
                (from.lerp(to, hit.t), round.spec.on_hit.clone(), struck)
            }
            (None, None) if at_range => (to, round.spec.at_range.clone(), None),
            (None, None) => {
                round.position = to;
                round.range_left -= length;
                continue;
            }
        };
        if let RoundEnd::Explode(blast) = end {
            // STAND-IN: a round going off plays its explosion's slot for
            // surface class 5 (slot 6) on a node, slot 0 on the ground or at
            // the end of its range (the ground's surface class is not
            // tracked; GAMEPLAY §7 gives per-surface slots); settled by
            // tracking the surface class a round strikes.
            let surface = struck.map(|_| SURFACE_MACHINE);
            let explosion = events.push(
                tick,
                EventKind::Explosion,
                round.owner.raw(),
                Some(round.owner.raw()),
                struck.and_then(|(object, index)| struck_node(&registry, &targets, object, index)),
                round.serial as f32,
            );
            explosion.cue = blast.effect_on(surface).map(|effect| EffectCue {
                effect: effect.to_owned(),
                at: point,
                rotation: Quat::IDENTITY,
                scale: if blast.radius > 0.0 {
                    blast.radius
                } else {
                    1.0
                },
                on: struck.map(|(object, _)| object.raw()),
                node: None,
            });
            if spent_at.is_none() {
                queue.0.push(PendingHit {
                    point,
                    amount: round.amount(blast.damage),
                    blast,
                    firer: Some(round.owner),
                    struck,
                });
            }
        }
        let linger = ticks_after(round.spec.linger_ms, step_ms);
        round.position = point;
        round.velocity = Vec3::ZERO;
        round.state = RoundState::Stopped {
            until: tick + linger,
        };
    }
    for at in gone.into_iter().rev() {
        rounds.0.remove(at);
    }
}

/// The round meets the standing bubbles its path enters up to `reach`
/// (of the way), nearest first: each stops what it can of what the round
/// has left of its hit. Returns where along the path a bubble stopped it
/// whole, if one did.
fn pass_bubbles(
    round: &mut Round,
    path: (Vec3, Vec3),
    reach: f32,
    registry: &ObjectRegistry,
    shields: &mut Query<BubbleView, Without<PendingDelete>>,
    (events, tick): (&mut CombatEvents, u64),
) -> Option<f32> {
    let damage = match &round.spec.on_hit {
        RoundEnd::Explode(blast) => blast.damage,
        _ => 0.0,
    };
    for meet in bubbles_along(path, round.owner, registry, shields) {
        if meet.t > reach {
            break;
        }
        let Some((_, _, life, spec, mut shield)) = registry
            .entity(meet.object)
            .ok()
            .and_then(|e| shields.get_mut(e).ok())
        else {
            continue;
        };
        let left = round.amount(damage);
        let stopped = shield.stop(spec, life, meet.sector, left);
        round.spent += stopped;
        if stopped > 0.0 {
            let owner = round.owner.raw();
            let object = meet.object.raw();
            events.push(
                tick,
                EventKind::Shielded,
                object,
                Some(owner),
                None,
                stopped,
            );
        }
        if stopped >= left {
            return Some(meet.t);
        }
    }
    None
}

/// The node `index` of the hit model of `object`.
fn struck_node(
    registry: &ObjectRegistry,
    targets: &Query<(&Transform, &HitModel)>,
    object: OriginalObjectId,
    index: usize,
) -> Option<NodeRef> {
    let entity = registry.entity(object).ok()?;
    Some(targets.get(entity).ok()?.1.nodes.get(index)?.node)
}

/// The ticks of `step_ms` until `ms` have passed (a rounding error of the
/// step does not add a tick).
pub(crate) fn ticks_after(ms: i32, step_ms: f64) -> u64 {
    (f64::from(ms.max(0)) / step_ms - 1e-6).ceil().max(0.0) as u64
}

/// A guided round turns toward its target while the target is within its
/// seeker's reach and cone.
fn steer(
    round: &mut Round,
    registry: &ObjectRegistry,
    targets: &Query<(&Transform, &HitModel)>,
    dt: f32,
) {
    let Some(seeker) = round.spec.seeker else {
        return;
    };
    let Some((transform, model)) = round
        .target
        .and_then(|t| registry.entity(t).ok())
        .and_then(|e| targets.get(e).ok())
    else {
        return;
    };
    let to = transform.transform_point(model.centre) - round.position;
    let seen =
        to.length() <= seeker.reach && round.nose.dot(to.normalize_or_zero()) >= seeker.cone.cos();
    if !seen {
        return;
    }
    let angle = round.spec.turn_rate * dt;
    round.velocity = turn_toward(round.velocity, to, angle);
    round.nose = turn_toward(round.nose, to, angle).normalize_or(round.nose);
}

/// Whether a point has left the map's box: beyond its edges seen from
/// above, or above twice the land's highest point.
fn outside(bounds: &MapBounds, p: Vec3) -> bool {
    p.x < bounds.min.x
        || p.x > bounds.max.x
        || p.z < bounds.min.z
        || p.z > bounds.max.z
        || p.y > 2.0 * bounds.max.y.max(0.0)
}

/// State-hash contributor: the serial counter and every round in serial
/// order.
pub(crate) fn hash_rounds(world: &World, hasher: &mut StateHasher) {
    if let Some(serial) = world.get_resource::<RoundSerial>() {
        hasher.write_u64(serial.0);
    }
    let Some(rounds) = world.get_resource::<Rounds>() else {
        return;
    };
    for r in &rounds.0 {
        hasher.field("serial");
        hasher.write_u64(r.serial);
        hasher.field("owner");
        hasher.write_u32(r.owner.raw());
        for (name, v) in [
            ("position", r.position),
            ("velocity", r.velocity),
            ("nose", r.nose),
        ] {
            hasher.field(name);
            v.to_array().iter().for_each(|&c| hasher.write_f32(c));
        }
        hasher.field("range_left");
        hasher.write_f32(r.range_left);
        hasher.field("ratio");
        hasher.write_f32(r.ratio);
        hasher.field("spent");
        hasher.write_f32(r.spent);
        hasher.field("state");
        match r.state {
            RoundState::Flying => hasher.write_u64(u64::MAX),
            RoundState::Stopped { until } => hasher.write_u64(until),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_toward_stops_on_its_goal_and_keeps_the_speed() {
        let v = Vec3::new(10.0, 0.0, 0.0);
        let turned = turn_toward(v, Vec3::Z, 0.1);
        assert!((turned.length() - 10.0).abs() < 1e-4);
        assert!((turned.normalize().angle_between(Vec3::X) - 0.1).abs() < 1e-5);
        assert_eq!(
            turn_toward(v, Vec3::new(1.0, 0.01, 0.0), 0.1).normalize(),
            Vec3::new(1.0, 0.01, 0.0).normalize()
        );
    }
}
