//! Attacking, engaging and a unit's target (openparkan
//! `docs/31-packages.md`, "The attack, tick by tick" and "Between orders",
//! read; GAMEPLAY §4).
//!
//! - **Engaging**: every step a unit between orders (none, or a stop,
//!   stay-ground or patrol, the tasks that let an engagement through) that
//!   sees a hostile within [`ENGAGE_RANGE`] puts an attack on the nearest
//!   first; the order it had carries on once the attack is over. A neutral
//!   clan's units and buildings do not engage.
//! - **Attacking a unit**: the unit goes to a fighting place before the
//!   target, `target − dir × (50 + rand × 50) + side × (2 rand − 1) × 80`,
//!   `dir` the way from the unit to the target and `side` across it; it
//!   picks again every 8 + rand × 8 s. Under [`FIGHT_DISTANCE`] it fights
//!   at 0.7 + rand × 0.3 of its speed, farther it nears at full speed. A
//!   place off walkable ground is drawn again (25 tries, the original's
//!   unstuck count), else the unit stands. A building target's place is
//!   on the way to it, 5 to 20 m outside its box (a stand-in: the page
//!   reads points between r − 20 and r − 5 of a sphere whose r is not
//!   measured; docs/facts.md "Stand-ins"). The
//!   attack is over when the target is gone.
//! - **The target** is state: the attacked object, else the hostile contact
//!   the fire control picks while the unit goes about its order (mode 2,
//!   the nearest within 500), else none. Combat aims and fires at it.
//! - **A building that carries guns** (a tower, a bunker) has a radar
//!   picture and a target too (a stand-in: its fire control alone): the nearest
//!   hostile its radar sees within 500; none for a neutral clan's or a
//!   destroyed one.

use crate::clan::ClanRelations;
use crate::order::{Order, OrderKind, OrderTarget, Orders};
use crate::patrol::{self, Circle};
use crate::route::map_point;
use crate::sensor::Sensor;
use bevy::prelude::*;
use iron3d_control::Piloted;
use iron3d_formats::order::InsertMode;
use iron3d_formats::tma;
use iron3d_schedules::StateHasher;
use iron3d_world::mission::{
    Armament, Controller, Destroyed, ObjectClan, ObjectKind, RngStreams, fraction,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// The random stream of attacks' fighting places.
pub const ATTACK_STREAM: &str = "behavior_attack";
/// m: how near a hostile must be for a unit to engage it, and for its fire
/// control to pick it.
pub const ENGAGE_RANGE: f32 = 500.0;
/// m: nearer than this a unit attacking fights; farther, it nears
/// (`Attack_MaxFireDistance`).
pub const FIGHT_DISTANCE: f32 = 200.0;
/// Draws of a fighting place before the unit stands instead.
const PLACE_TRIES: usize = 25;

/// The object a unit is after (`None`: nothing).
#[derive(
    Component, Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct Target(pub Option<OriginalObjectId>);

/// A uniform draw in 0..1 from the attack stream.
fn unit_draw(rng: &mut RngStreams) -> f32 {
    fraction(rng.next_u64(ATTACK_STREAM)) as f32
}

/// What an attack goes for next: its fighting place, its speed fraction
/// and when it picks again.
pub(crate) struct Pick {
    pub place: Vec2,
    pub speed: f32,
    pub repick: u64,
}

/// Picks an attack's next fighting place for a unit at `here` after a
/// target at `target` (`building`: the half-size of its box, for a
/// building), at `tick` of `tick_s` seconds.
pub(crate) fn pick(
    here: Vec2,
    target: Vec2,
    building: Option<f32>,
    (tick, tick_s): (u64, f32),
    rng: &mut RngStreams,
    walkable: impl Fn(Vec2) -> bool,
) -> Pick {
    let dir = (target - here).normalize_or(Vec2::X);
    let place = (0..PLACE_TRIES)
        .map(|_| match building {
            // STAND-IN: 5 to 20 m outside the box, on the way to it (docs/31
            // reads r − 20 to r − 5 of a sphere whose r is not measured);
            // settled by measuring that sphere's radius on a retail building.
            Some(half) => target - dir * (half + 5.0 + unit_draw(rng) * 15.0),
            None => {
                let back = 50.0 + unit_draw(rng) * 50.0;
                let aside = (2.0 * unit_draw(rng) - 1.0) * 80.0;
                target - dir * back + dir.perp() * aside
            }
        })
        .find(|p| walkable(*p))
        .unwrap_or(here);
    let speed = if here.distance(target) < FIGHT_DISTANCE {
        0.7 + 0.3 * unit_draw(rng)
    } else {
        1.0
    };
    let wait_s = 8.0 + 8.0 * unit_draw(rng);
    Pick {
        place,
        speed,
        repick: tick + (wait_s / tick_s).round() as u64,
    }
}

/// Whether a unit doing `order` takes an engagement.
// STAND-IN: a unit engages with no order, or a stop, stay-ground or patrol
// at its head (docs/31 "Between orders" names stopping, guarding and
// attacking tasks, not orders); settled by reading each task's engagement
// priority in `Behavior.dll`'s task factory.
fn engages_during(order: Option<&Order>) -> bool {
    order.is_none_or(|o| {
        matches!(
            o.kind,
            OrderKind::Stop | OrderKind::StayGround | OrderKind::Patrol
        )
    })
}

type Engaging<'a> = (
    &'a mut Orders,
    &'a Sensor,
    Option<&'a ObjectClan>,
    Option<&'a ObjectKind>,
);

/// Units that may engage: present, not destroyed and not driven by the
/// player.
type Engageable = (Without<PendingDelete>, Without<Destroyed>, Without<Piloted>);

/// Every unit between orders that sees a hostile within range attacks the
/// nearest, in id order; a unit patrolling a place or an object only what
/// is inside its circle ([`crate::patrol`]).
pub(crate) fn engage(
    registry: Res<ObjectRegistry>,
    relations: Res<ClanRelations>,
    mut units: Query<Engaging, Engageable>,
    objects: Query<(&Transform, Option<&ObjectKind>), Without<PendingDelete>>,
) {
    for (_, entity) in registry.iter() {
        let Ok((mut orders, sensor, clan, kind)) = units.get_mut(entity) else {
            continue;
        };
        let neutral = relations.is_neutral(clan);
        let building = kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building);
        if neutral || building || !engages_during(orders.current()) {
            continue;
        }
        let circle = orders
            .current()
            .and_then(|o| Circle::of(o, patrol::guarded(o, &registry, &objects)));
        let enemy = match circle {
            Some(circle) => patrol::contact_within(&circle, &sensor.hostile, ENGAGE_RANGE, |id| {
                let e = registry.entity(id).ok()?;
                objects
                    .get(e)
                    .ok()
                    .map(|(t, _)| Vec2::from(map_point(t.translation)))
            }),
            None => sensor.nearest_hostile(ENGAGE_RANGE),
        };
        if let Some(enemy) = enemy {
            let attack = Order::new(3, OrderTarget::Object(enemy.raw()))
                .expect("an attack on an object is an order");
            orders.insert(attack, InsertMode::Start);
        }
    }
}

/// An armed object without a controller (a building) holds a radar
/// picture and a target (none at first) from the moment it is armed.
pub(crate) fn give_fire_control(
    add: On<Add, Armament>,
    machines: Query<(), With<Controller>>,
    mut commands: Commands,
) {
    if !machines.contains(add.entity) {
        commands
            .entity(add.entity)
            .insert((Sensor::default(), Target::default()));
    }
}

/// What an armed building's fire control reads and sets.
type FireControl<'a> = (
    &'a Sensor,
    &'a mut Target,
    Option<&'a ObjectClan>,
    Has<Destroyed>,
);

/// Armed buildings: present, and not machines.
type ArmedBuilding = (With<Armament>, Without<Controller>, Without<PendingDelete>);

/// Every armed building's fire control picks the nearest hostile its radar
/// sees within [`ENGAGE_RANGE`], in id order; a neutral clan's, or a
/// destroyed one, picks none.
// STAND-IN: an armed building's fire control alone picks its target, the
// nearest hostile within 500 m (docs/30 reads that the turret decides what
// a unit is; the building profiles of `Behavior.dll` were not traced);
// settled by tracing those profiles.
pub(crate) fn aim_buildings(
    registry: Res<ObjectRegistry>,
    relations: Res<ClanRelations>,
    mut buildings: Query<FireControl, ArmedBuilding>,
) {
    for (_, entity) in registry.iter() {
        let Ok((sensor, mut target, clan, destroyed)) = buildings.get_mut(entity) else {
            continue;
        };
        let pick = if relations.is_neutral(clan) || destroyed {
            None
        } else {
            sensor.nearest_hostile(ENGAGE_RANGE)
        };
        target.set_if_neq(Target(pick));
    }
}

/// A unit's target for its head `order` and what it sees.
pub(crate) fn target_of(
    order: Option<&Order>,
    sensor: Option<&Sensor>,
) -> Option<OriginalObjectId> {
    match order {
        Some(o) if o.kind == OrderKind::Attack => o.target_object(),
        _ => sensor.and_then(|s| s.nearest_hostile(ENGAGE_RANGE)),
    }
}

/// State-hash contributor: every unit's target, in id order.
pub(crate) fn hash_targets(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        if let Some(Target(target)) = world.get::<Target>(entity) {
            hasher.object(id.raw());
            hasher.write_u32(target.map_or(0, |t| t.raw()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fighting_place_lies_50_to_100_before_the_target_and_80_aside() {
        let mut rng = RngStreams::new(5);
        let (here, target) = (Vec2::ZERO, Vec2::new(300.0, 0.0));
        for _ in 0..200 {
            let p = pick(here, target, None, (0, 1.0 / 30.0), &mut rng, |_| true);
            let back = target.x - p.place.x;
            assert!((50.0..=100.0).contains(&back), "{}", p.place);
            assert!(p.place.y.abs() <= 80.0, "{}", p.place);
            assert_eq!(p.speed, 1.0, "nearing at 300 m");
            assert!((240..=480).contains(&p.repick), "8 to 16 s: {}", p.repick);
        }
        let near = pick(
            here,
            Vec2::new(150.0, 0.0),
            None,
            (0, 1.0),
            &mut rng,
            |_| true,
        );
        assert!((0.7..=1.0).contains(&near.speed));
        // A building: on the way to it, 5 to 20 m outside its box.
        let b = pick(here, target, Some(10.0), (0, 1.0), &mut rng, |_| true);
        assert!((15.0..=30.0).contains(&(target.x - b.place.x)) && b.place.y == 0.0);
        // Nowhere walkable: it stands.
        assert_eq!(
            pick(here, target, None, (0, 1.0), &mut rng, |_| false).place,
            here
        );
    }

    #[test]
    fn only_a_unit_between_orders_engages() {
        let go = Order::new(2, OrderTarget::Place([0.0; 3])).unwrap();
        let stop = Order::new(1, OrderTarget::None).unwrap();
        assert!(engages_during(None) && engages_during(Some(&stop)));
        assert!(!engages_during(Some(&go)));
        let sensor = Sensor {
            hostile: vec![(OriginalObjectId(8), 300.0)],
            ..Sensor::default()
        };
        assert_eq!(
            target_of(Some(&go), Some(&sensor)),
            Some(OriginalObjectId(8))
        );
        let attack = Order::new(3, OrderTarget::Object(3)).unwrap();
        assert_eq!(
            target_of(Some(&attack), Some(&sensor)),
            Some(OriginalObjectId(3))
        );
        assert_eq!(target_of(None, None), None);
    }
}
