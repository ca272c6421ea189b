//! Sensors (openparkan `docs/25-sensors.md`; GAMEPLAY §4 "Radar"): a unit,
//! or a building that carries guns, sees with its radar, the last class-8
//! component of its parts' records ([`RadarRef`]). A scan stays good for
//! the radar's period (750 ms on every shipped radar); then the radar
//! looks again: every other object
//! within its range `R` is seen when, for one of its three signatures,
//! `sensitivity × life × level × signature × (1 − d²/R²) ≥ 1` — no line of
//! sight, no terrain. `life` is the radar node's; a radar on a dead node
//! sees nothing.
//!
//! Ours, until power is simulated: the power level is 1 and a
//! target gives away only its mass (kg, its first signature); the
//! electronics and drive signatures, which are power draws, are 0. A unit's
//! scans are staggered over the period by its id, so a mission's radars do
//! not all look on one tick; between scans a contact that is gone (deleted)
//! is dropped at once.
//!
//! What is seen is sorted by clan ([`ClanRelations`]): buildings and
//! nature's and neutral clans' objects are dropped, the rest go to the
//! hostile or the friendly list, nearest first.

use crate::clan::ClanRelations;
use bevy::prelude::*;
use iron3d_formats::tma;
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{Destroyed, Drive, NodeLife, ObjectClan, ObjectKind, RadarRef};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// What a unit's radar last saw.
#[derive(Component, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sensor {
    /// The tick of its next scan.
    pub next_scan: u64,
    /// Hostile contacts and their distances (m), nearest first.
    pub hostile: Vec<(OriginalObjectId, f32)>,
    /// Friendly contacts, nearest first.
    pub friendly: Vec<OriginalObjectId>,
}

impl Sensor {
    /// The nearest hostile contact within `range` m.
    pub fn nearest_hostile(&self, range: f32) -> Option<OriginalObjectId> {
        self.hostile
            .first()
            .filter(|(_, d)| *d <= range)
            .map(|(id, _)| *id)
    }
}

/// Whether a radar at distance `d` sees a target of signatures `signature`.
pub fn detects(radar: &RadarRef, life: f32, level: f32, signature: [f32; 3], d: f32) -> bool {
    let r = radar.range;
    if d.is_nan() || d >= r || life <= 0.0 {
        return false;
    }
    let falloff = 1.0 - (d * d) / (r * r);
    (0..3).any(|i| radar.sensitivity[i] * life * level * signature[i] * falloff >= 1.0)
}

/// One object a radar may see.
struct Seen {
    id: OriginalObjectId,
    at: Vec3,
    mass: f32,
    clan: Option<usize>,
}

type Scanner<'a> = (
    &'a Transform,
    Option<&'a RadarRef>,
    &'a NodeLife,
    Option<&'a ObjectClan>,
    &'a mut Sensor,
);

type Visible<'a> = (
    &'a Transform,
    &'a Drive,
    Option<&'a ObjectClan>,
    Option<&'a ObjectKind>,
);

/// Objects neither waiting for deletion nor destroyed: what sees and is
/// seen.
type Present = (Without<PendingDelete>, Without<Destroyed>);
/// Objects that went out of sight this step.
type Gone = Or<(Added<PendingDelete>, Added<Destroyed>)>;

/// Every radar whose scan is due looks, in id order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn scan(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    relations: Res<ClanRelations>,
    visible: Query<Visible, Present>,
    mut scanners: Query<Scanner, Present>,
    doomed: Query<(), Gone>,
    mut removed: RemovedComponents<OriginalObjectId>,
) {
    // Whether any object went since the last step (only then can a contact
    // have gone).
    let gone = !doomed.is_empty() || removed.read().count() > 0;
    let tick = clock.tick();
    let tick_ms = clock.timestep().as_secs_f32() * 1000.0;
    let targets: Vec<Seen> = registry
        .iter()
        .filter_map(|(id, e)| {
            let (t, drive, clan, kind) = visible.get(e).ok()?;
            let building = kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building);
            (!building).then(|| Seen {
                id,
                at: t.translation,
                mass: drive.mass_kg,
                clan: clan.map(|c| c.identity_raw as usize),
            })
        })
        .collect();
    for (id, entity) in registry.iter() {
        let Ok((transform, radar, life, clan, mut sensor)) = scanners.get_mut(entity) else {
            continue;
        };
        if tick < sensor.next_scan {
            if !gone {
                continue;
            }
            // Between scans, what is gone is forgotten at once.
            let alive =
                |c: &OriginalObjectId| registry.entity(*c).is_ok_and(|e| visible.get(e).is_ok());
            if !sensor.hostile.iter().all(|(c, _)| alive(c)) {
                sensor.hostile.retain(|(c, _)| alive(c));
            }
            if !sensor.friendly.iter().all(alive) {
                sensor.friendly.retain(alive);
            }
            continue;
        }
        let Some(&radar) = radar else {
            sensor.hostile.clear();
            sensor.friendly.clear();
            sensor.next_scan = u64::MAX;
            continue;
        };
        let period = ((radar.period_ms / tick_ms).round() as u64).max(1);
        // STAND-IN: scans staggered over the period by the object's id
        // (docs/25 gives the period, not when a radar's first scan falls);
        // settled by reading where the radar's timer starts in the control
        // system.
        sensor.next_scan = if sensor.next_scan == 0 {
            // The first scan: at once, the next ones staggered by id.
            tick + 1 + u64::from(id.raw()) % period
        } else {
            tick + period
        };
        let life = radar.node.map_or(1.0, |n| life.of(n));
        let own = clan.map(|c| c.identity_raw as usize);
        let (mut hostile, mut friendly) = (Vec::new(), Vec::new());
        for seen in targets.iter().filter(|s| s.id != id) {
            let d = transform.translation.distance(seen.at);
            // STAND-IN: power level 1, electronics and drive signatures 0
            // (they are power draws, docs/25 "What a target gives away", and
            // no power system is simulated); settled by simulating the power
            // system (openparkan docs/25).
            if !detects(&radar, life, 1.0, [seen.mass, 0.0, 0.0], d) {
                continue;
            }
            let (Some(a), Some(b)) = (own, seen.clan) else {
                continue;
            };
            if relations.hostile(a, b) {
                hostile.push((seen.id, d));
            } else if relations.friendly(a, b) {
                friendly.push((seen.id, d));
            }
        }
        let nearest = |x: &(OriginalObjectId, f32), y: &(OriginalObjectId, f32)| {
            x.1.total_cmp(&y.1).then(x.0.cmp(&y.0))
        };
        hostile.sort_by(nearest);
        friendly.sort_by(nearest);
        sensor.hostile = hostile;
        sensor.friendly = friendly.into_iter().map(|(id, _)| id).collect();
    }
}

/// State-hash contributor: every unit's radar picture, in id order.
pub(crate) fn hash_sensors(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(sensor) = world.get::<Sensor>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        hasher.field("next_scan");
        hasher.write_u64(sensor.next_scan);
        hasher.field("hostile");
        hasher.write_u32(sensor.hostile.len() as u32);
        for (contact, d) in &sensor.hostile {
            hasher.write_u32(contact.raw());
            hasher.write_f32(*d);
        }
        hasher.field("friendly");
        hasher.write_u32(sensor.friendly.len() as u32);
        sensor
            .friendly
            .iter()
            .for_each(|f| hasher.write_u32(f.raw()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_radar_sees_by_signature_falloff_and_life() {
        let radar = RadarRef {
            sensitivity: [0.05, 0.7, 25.0],
            range: 400.0,
            period_ms: 750.0,
            node: None,
        };
        // 0.05 × 100 kg = 5: seen out to R·√(1 − 1/5) = 357.8 m.
        assert!(detects(&radar, 1.0, 1.0, [100.0, 0.0, 0.0], 357.0));
        assert!(!detects(&radar, 1.0, 1.0, [100.0, 0.0, 0.0], 358.5));
        // Half the life halves the product: √(1 − 1/2.5) = 0.775 R.
        assert!(!detects(&radar, 0.5, 1.0, [100.0, 0.0, 0.0], 320.0));
        assert!(
            !detects(&radar, 0.0, 1.0, [1e9, 0.0, 0.0], 1.0),
            "dead radar"
        );
        assert!(
            !detects(&radar, 1.0, 1.0, [1e9, 0.0, 0.0], 400.0),
            "d < R only"
        );
        // The drive signature alone, 25 × 0.1 = 2.5.
        assert!(detects(&radar, 1.0, 1.0, [0.0, 0.0, 0.1], 300.0));
    }

    #[test]
    fn the_nearest_hostile_is_the_first_within_range() {
        let sensor = Sensor {
            hostile: vec![(OriginalObjectId(4), 120.0), (OriginalObjectId(2), 300.0)],
            ..Sensor::default()
        };
        assert_eq!(sensor.nearest_hostile(500.0), Some(OriginalObjectId(4)));
        assert_eq!(sensor.nearest_hostile(100.0), None);
    }
}
