//! Shields (openparkan `docs/26-damage.md`, "Shields"; GAMEPLAY §3): a
//! fight shield holds six sectors and a deflector decides how much of each
//! stops damage. The bubble, the object's bounding sphere, stands while
//! both parts' nodes live.
//!
//! - **Which sector**: a round meets the bubble where it enters it from
//!   outside; a blast reaches it when its sphere crosses the bubble from
//!   outside (`r < d < r + R`), and a blast inside the bubble meets none.
//!   The sector is the dominant axis of the hit's direction from the
//!   bubble's centre ([`ShieldSpec::sector`]).
//! - **What it stops**: a sector stops up to `coefficient × the
//!   deflector's condition × its points` (at full power: a stand-in, with no
//!   power grid), and loses what it stopped ÷ the coefficient. What a blast has
//!   left goes on to the nodes; a round that had more than the sector
//!   passes through with the rest (GAMEPLAY §3), one that had less is
//!   spent on the bubble.
//! - **Recharge**, on the 250 ms power tick: `value 1 × the fight
//!   shield's condition` points a second, no more than the sectors lack,
//!   shared in proportion to what each lacks.
//!
//! Every sector's points are simulation state, in the state hash.

use crate::gun::power_tick;
use bevy::prelude::*;
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{Destroyed, HitModel, NodeLife, SHIELD_SECTORS, ShieldSpec};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// The points each sector of an object's shield holds.
#[derive(Component, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Shield {
    pub sectors: [f32; SHIELD_SECTORS],
}

/// Whether the bubble stands: both the fight shield's and the deflector's
/// nodes live.
pub fn stands(spec: &ShieldSpec, life: &NodeLife) -> bool {
    ShieldSpec::condition(life, spec.node) > 0.0 && deflecting(spec, life) > 0.0
}

/// The deflector's condition.
fn deflecting(spec: &ShieldSpec, life: &NodeLife) -> f32 {
    ShieldSpec::condition(life, spec.deflector)
}

impl Shield {
    /// Sector `sector` meets `amount`: it stops what it can and pays for
    /// it; returns what it stopped.
    pub fn stop(&mut self, spec: &ShieldSpec, life: &NodeLife, sector: usize, amount: f32) -> f32 {
        let coefficient = spec.coefficients[sector];
        let points = &mut self.sectors[sector];
        if coefficient <= 0.0 || amount <= 0.0 || !stands(spec, life) {
            return 0.0;
        }
        // STAND-IN: at full power, the power term 1 (no power grid is
        // simulated; docs/26 "Shields" multiplies by it); settled by
        // simulating the power system.
        let stopped = amount.min(coefficient * deflecting(spec, life) * *points);
        *points = (*points - stopped / coefficient).max(0.0);
        stopped
    }

    /// Adds `points`, shared among the sectors in proportion to what each
    /// lacks of `max`, no more than they lack together.
    fn recharge(&mut self, max: f32, points: f32) {
        let lack: f32 = self.sectors.iter().map(|s| max - s).sum();
        if lack <= 0.0 || points <= 0.0 {
            return;
        }
        let share = (points / lack).min(1.0);
        for s in &mut self.sectors {
            *s = (*s + (max - *s) * share).min(max);
        }
    }
}

/// A bubble a segment enters: where along it, whose, and which sector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BubbleMeet {
    pub t: f32,
    pub object: OriginalObjectId,
    pub sector: usize,
}

/// The sector of `transform`'s shield facing a hit from `at` (world) on a
/// bubble centred at `centre`.
fn sector_facing(transform: &Transform, centre: Vec3, at: Vec3) -> usize {
    ShieldSpec::sector(transform.rotation.inverse() * (at - centre))
}

pub(crate) type BubbleView<'a> = (
    &'a Transform,
    &'a HitModel,
    &'a NodeLife,
    &'a ShieldSpec,
    &'a mut Shield,
);

/// Every standing bubble the segment `from` → `to` enters from outside,
/// nearest first (then by id), but `skip`'s.
pub(crate) fn bubbles_along(
    (from, to): (Vec3, Vec3),
    skip: OriginalObjectId,
    registry: &ObjectRegistry,
    shields: &Query<BubbleView, Without<PendingDelete>>,
) -> Vec<BubbleMeet> {
    let mut meets: Vec<BubbleMeet> = registry
        .iter()
        .filter(|(id, _)| *id != skip)
        .filter_map(|(object, entity)| {
            let (transform, model, life, spec, _) = shields.get(entity).ok()?;
            if !stands(spec, life) {
                return None;
            }
            let (centre, radius) = model.sphere(transform);
            let t = entry(from, to, centre, radius)?;
            let sector = sector_facing(transform, centre, from.lerp(to, t));
            Some(BubbleMeet { t, object, sector })
        })
        .collect();
    meets.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.object.cmp(&b.object)));
    meets
}

/// Where along `a` → `b` (0..=1) the segment enters the sphere, when it
/// starts outside it.
fn entry(a: Vec3, b: Vec3, centre: Vec3, radius: f32) -> Option<f32> {
    let d = b - a;
    let f = a - centre;
    let c = f.length_squared() - radius * radius;
    let (len2, half_b) = (d.length_squared(), f.dot(d));
    if c <= 0.0 || len2 <= 0.0 {
        return None;
    }
    let disc = half_b * half_b - len2 * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-half_b - disc.sqrt()) / len2;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// What a blast of radius `reach` at `point` meets of an object's shield:
/// the sector it crosses from outside, or none when it goes off inside the
/// bubble or does not reach it.
pub(crate) fn blast_sector(
    transform: &Transform,
    model: &HitModel,
    point: Vec3,
    reach: f32,
) -> Option<usize> {
    let (centre, radius) = model.sphere(transform);
    let d = centre.distance(point);
    (radius < d && d < radius + reach).then(|| sector_facing(transform, centre, point))
}

/// Gives every shielded object its sectors, full.
pub(crate) fn raise(
    shielded: Query<(Entity, &ShieldSpec), Without<Shield>>,
    mut commands: Commands,
) {
    for (entity, spec) in &shielded {
        // STAND-IN: a sector starts full (docs/26 does not say); settled by
        // hitting a retail unit's shield on the mission's first tick.
        commands.entity(entity).insert(Shield {
            sectors: [spec.sector_max; SHIELD_SECTORS],
        });
    }
}

/// Recharges every shield on the power tick.
pub(crate) fn recharge(
    clock: Res<GameClock>,
    mut shields: Query<(&ShieldSpec, &NodeLife, &mut Shield), Without<Destroyed>>,
) {
    if !power_tick(&clock) {
        return;
    }
    let span = crate::gun::POWER_TICK_S as f32;
    for (spec, life, mut shield) in &mut shields {
        // STAND-IN: at full power, so the charge a point costs and the drain
        // short of power are not applied (docs/26 "Shields"); settled by
        // simulating the power system.
        let points = spec.recharge * ShieldSpec::condition(life, spec.node) * span;
        shield.recharge(spec.sector_max, points);
    }
}

/// State-hash contributor: every shield's sectors in id order.
pub(crate) fn hash_shields(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        if let Some(shield) = world.get::<Shield>(entity) {
            hasher.object(id.raw());
            hasher.field("shield");
            shield.sectors.iter().for_each(|&s| hasher.write_f32(s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_world::mission::NodeRef;

    fn spec() -> ShieldSpec {
        ShieldSpec {
            node: Some(NodeRef { part: 0, node: 0 }),
            sector_max: 100.0,
            recharge: 40.0,
            deflector: Some(NodeRef { part: 1, node: 0 }),
            coefficients: [0.5; SHIELD_SECTORS],
        }
    }

    #[test]
    fn a_sector_stops_its_share_and_pays_for_it_by_the_coefficient() {
        let mut life = NodeLife(vec![vec![1.0], vec![1.0]]);
        let mut shield = Shield {
            sectors: [100.0; SHIELD_SECTORS],
        };
        // 0.5 × 1 × 100 = 50 stopped of 80, at 100 points the sector.
        assert_eq!(shield.stop(&spec(), &life, 2, 80.0), 50.0);
        assert_eq!(shield.sectors[2], 0.0);
        // Under its strength it stops it all, at twice the cost.
        assert_eq!(shield.stop(&spec(), &life, 3, 20.0), 20.0);
        assert_eq!(shield.sectors[3], 60.0);
        // A half-dead deflector stops half as much; a dead one nothing.
        life.0[1][0] = 0.5;
        assert_eq!(shield.stop(&spec(), &life, 4, 80.0), 25.0);
        life.0[1][0] = 0.0;
        assert_eq!(shield.stop(&spec(), &life, 5, 80.0), 0.0);
        assert_eq!(shield.sectors[5], 100.0);
    }

    #[test]
    fn recharge_goes_to_the_sectors_by_what_they_lack() {
        let mut shield = Shield {
            sectors: [100.0, 70.0, 90.0, 100.0, 100.0, 100.0],
        };
        shield.recharge(100.0, 20.0);
        assert_eq!(shield.sectors[..3], [100.0, 85.0, 95.0]);
        shield.recharge(100.0, 1000.0);
        assert_eq!(shield.sectors, [100.0; SHIELD_SECTORS]);
    }

    #[test]
    fn the_sector_is_the_hits_dominant_axis_in_the_node_frame() {
        // Bevy −Z is the node frame's +Y (ahead), Bevy +Y its +Z (top).
        assert_eq!(ShieldSpec::sector(Vec3::new(0.1, 0.2, -1.0)), 0);
        assert_eq!(ShieldSpec::sector(Vec3::new(0.1, 0.2, 1.0)), 1);
        assert_eq!(ShieldSpec::sector(Vec3::new(-1.0, 0.2, 0.3)), 2);
        assert_eq!(ShieldSpec::sector(Vec3::new(1.0, 0.2, 0.3)), 3);
        assert_eq!(ShieldSpec::sector(Vec3::new(0.1, 1.0, 0.3)), 4);
        assert_eq!(ShieldSpec::sector(Vec3::new(0.1, -1.0, 0.3)), 5);
    }

    #[test]
    fn a_segment_enters_a_sphere_only_from_outside() {
        let centre = Vec3::new(10.0, 0.0, 0.0);
        let t = entry(Vec3::ZERO, Vec3::new(20.0, 0.0, 0.0), centre, 2.0).unwrap();
        assert!((t - 0.4).abs() < 1e-6);
        // From inside, or short of it, or past it: no entry.
        assert_eq!(entry(centre, Vec3::new(20.0, 0.0, 0.0), centre, 2.0), None);
        assert_eq!(
            entry(Vec3::ZERO, Vec3::new(5.0, 0.0, 0.0), centre, 2.0),
            None
        );
        assert_eq!(
            entry(Vec3::ZERO, Vec3::new(20.0, 6.0, 0.0), centre, 2.0),
            None
        );
    }
}
