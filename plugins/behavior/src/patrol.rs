//! Patrolling a place, a unit or a building (openparkan
//! `docs/31-packages.md` "The patrol, tick by tick", "What it scores" and
//! "A task's limits", read; docs/facts.md "Patrols"). A patrol of a mission
//! path (no target, the path's id as the parameter) is the engine's own
//! and lives in [`crate::steer`].
//!
//! The patrol goes round a *circle*: the place, or where the object is
//! now, with the order's parameter as its radius unless that is 0 or −1.
//! It walks a loop of points: 15 to 19 for a place, 3 to 7 for a unit,
//! each drawn in the square of the radius round the centre, inside the map
//! less 100 and (for a ground unit) on walkable ground, up to 350 tries, the
//! last kept; a building's loop is its outline's corners pushed out 30 from
//! its middle. After the last point the first comes again; the loop is
//! drawn afresh on its timer. It engages only what is inside its circle,
//! and an attack taken on the way that strays too far from it is dropped:
//! the patrol starts again with a new loop ([`leash`]).

use crate::obstacle::Convex;
use crate::order::{Order, OrderKind, OrderTarget, Orders};
use crate::route::map_point;
use bevy::prelude::*;
use iron3d_formats::tma;
use iron3d_world::mission::{Draws, ObjectKind, RngStreams, fraction};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// The stream a loop's seed and timer are drawn from.
pub const PATROL_STREAM: &str = "behavior_patrol";
/// Tries for a loop point before the last one is kept.
const POINT_TRIES: u32 = 350;
/// m: a loop point keeps this far inside the map's edges.
const EDGE_MARGIN: f32 = 100.0;
/// m: a building's loop runs this far out from its outline's corners.
const BUILDING_PUSH: f32 = 30.0;

/// What a patrol goes round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ground {
    Place,
    Unit,
    Building,
}

impl Ground {
    /// m: the radius when the order gives none.
    fn default_radius(self) -> f32 {
        match self {
            Ground::Place | Ground::Unit => 60.0,
            Ground::Building => 30.0,
        }
    }

    /// s: the loop is drawn again after the first plus up to the second.
    fn redraw(self) -> (f32, f32) {
        match self {
            Ground::Place => (20.0, 10.0),
            Ground::Unit => (5.0, 10.0),
            Ground::Building => (60.0, 60.0),
        }
    }

    /// The share of the unit's top speed it patrols at (a building's
    /// figure, 80, is cut to full speed by the walker).
    pub fn speed(self) -> f32 {
        match self {
            Ground::Place => 0.8,
            Ground::Unit | Ground::Building => 1.0,
        }
    }

    /// m: how far beyond the radius an attack under the patrol may take
    /// the unit.
    fn leash(self) -> f32 {
        match self {
            Ground::Place | Ground::Unit => 60.0,
            Ground::Building => 80.0,
        }
    }

    /// How a contact's distance from the centre is weighed: a unit's
    /// circle counts it at 0.7.
    fn weight(self) -> f32 {
        match self {
            Ground::Unit => 0.7,
            Ground::Place | Ground::Building => 1.0,
        }
    }
}

/// A patrol's circle (map frame).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    pub ground: Ground,
    pub centre: Vec2,
    pub radius: f32,
}

impl Circle {
    /// The circle of `order` when it is a patrol of a place or an object;
    /// `object` is where that object stands now and its kind (`None`:
    /// gone).
    pub fn of(order: &Order, object: Option<(&Transform, Option<&ObjectKind>)>) -> Option<Self> {
        if order.kind != OrderKind::Patrol {
            return None;
        }
        let (ground, centre) = match order.target {
            OrderTarget::None | OrderTarget::Name(_) => return None,
            OrderTarget::Place(p) => (Ground::Place, Vec2::new(p[0], p[1])),
            OrderTarget::Object(_) => {
                let (at, kind) = object?;
                let building = kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building);
                let ground = if building {
                    Ground::Building
                } else {
                    Ground::Unit
                };
                (ground, Vec2::from(map_point(at.translation)))
            }
        };
        let radius = match order.parameter {
            0 | -1 => ground.default_radius(),
            r => r as f32,
        };
        Some(Self {
            ground,
            centre,
            radius,
        })
    }

    /// Whether the patrol takes on a contact at `p`: strictly inside the
    /// circle.
    pub fn takes(&self, p: Vec2) -> bool {
        self.centre.distance(p) * self.ground.weight() < self.radius
    }

    /// Whether a unit at `p` is still within the reach of an attack under
    /// the patrol (measured across the ground).
    // STAND-IN: the leash is measured across the ground (docs/31 "A task's
    // limits" reads the original's distance in 3-D); kept flat because
    // every other patrol distance here is; settled by a retail flyer's
    // patrol leash.
    pub fn holds(&self, p: Vec2) -> bool {
        self.centre.distance(p) <= self.radius + self.ground.leash()
    }
}

/// Draws a new loop for the patrol `order` going round a `ground`: its
/// seed, its first point next, and the tick it is drawn again at.
pub(crate) fn new_loop(
    order: &mut Order,
    ground: Ground,
    rng: &mut RngStreams,
    (tick, dt): (u64, f32),
) {
    order.speed = ground.speed();
    order.leg = 0;
    order.seed = rng.next_u64(PATROL_STREAM);
    let (base, extra) = ground.redraw();
    let wait = base + extra * fraction(rng.next_u64(PATROL_STREAM)) as f32;
    order.repick = tick + (wait / dt).round() as u64;
}

/// How many points the loop of `seed` has.
pub(crate) fn length(circle: &Circle, seed: u64, outline: Option<&Convex>) -> u32 {
    match circle.ground {
        Ground::Place => 15 + (seed % 5) as u32,
        Ground::Unit => 3 + (seed % 5) as u32,
        Ground::Building => outline.map_or(1, |o| o.0.len().max(1) as u32),
    }
}

/// Where point `index` of the loop of `seed` is; `fits` says whether a
/// drawn point may be used (inside the map, on ground the unit can stand
/// on). `outline` is a building's footprint.
pub(crate) fn point(
    circle: &Circle,
    (seed, index): (u64, u32),
    outline: Option<&Convex>,
    fits: impl Fn(Vec2) -> bool,
) -> Vec2 {
    let index = index % length(circle, seed, outline);
    // STAND-IN: a building's contour is its footprint's four corners (the
    // original walks the building's own contour, docs/31 "The patrol, tick
    // by tick", which our data lack); settled by reading the contour a
    // retail building model carries.
    if let (Ground::Building, Some(o)) = (circle.ground, outline)
        && let Some(&corner) = o.0.get(index as usize)
    {
        let middle = o.0.iter().sum::<Vec2>() / o.0.len() as f32;
        return corner + (corner - middle).normalize_or_zero() * BUILDING_PUSH;
    }
    let mut draws = Draws(seed ^ (u64::from(index) << 32));
    let mut drawn = circle.centre;
    for _ in 0..POINT_TRIES {
        let mut offset = || (2.0 * draws.unit() - 1.0) * circle.radius;
        drawn = circle.centre + Vec2::new(offset(), offset());
        if fits(drawn) {
            break;
        }
    }
    drawn
}

/// Whether map point `p` is inside the map (`bounds`, world frame) less
/// the margin a loop point keeps.
pub(crate) fn inside_map(bounds: Option<(Vec3, Vec3)>, p: Vec2) -> bool {
    bounds.is_none_or(|(min, max)| {
        // The map frame's y is the world's −z.
        let (x, y) = ((min.x, max.x), (-max.z, -min.z));
        p.x >= x.0 + EDGE_MARGIN
            && p.x <= x.1 - EDGE_MARGIN
            && p.y >= y.0 + EDGE_MARGIN
            && p.y <= y.1 - EDGE_MARGIN
    })
}

/// Where the object a patrol goes round is now, and its kind.
pub(crate) fn guarded<'a>(
    order: &Order,
    registry: &ObjectRegistry,
    objects: &'a Query<(&Transform, Option<&ObjectKind>), Without<PendingDelete>>,
) -> Option<(&'a Transform, Option<&'a ObjectKind>)> {
    let id = order.target_object()?;
    objects.get(registry.entity(id).ok()?).ok()
}

/// An attack that took a patrolling unit beyond its circle's reach is
/// dropped, and the patrol under it starts again with a new loop (docs/31
/// "A task's limits").
pub(crate) fn leash(
    registry: Res<ObjectRegistry>,
    mut units: Query<(&Transform, &mut Orders), Without<PendingDelete>>,
    objects: Query<(&Transform, Option<&ObjectKind>), Without<PendingDelete>>,
) {
    for (_, entity) in registry.iter() {
        let Ok((at, mut orders)) = units.get_mut(entity) else {
            continue;
        };
        let (Some(head), Some(under)) = (orders.0.front(), orders.0.get(1)) else {
            continue;
        };
        if head.kind != OrderKind::Attack {
            continue;
        }
        let Some(circle) = Circle::of(under, guarded(under, &registry, &objects)) else {
            continue;
        };
        if !circle.holds(Vec2::from(map_point(at.translation))) {
            orders.0.pop_front();
            if let Some(patrol) = orders.0.front_mut() {
                patrol.place = None;
            }
        }
    }
}

/// The nearest of `hostile` (nearest first) that a patrol going round
/// `circle` takes on.
pub(crate) fn contact_within(
    circle: &Circle,
    hostile: &[(OriginalObjectId, f32)],
    range: f32,
    position: impl Fn(OriginalObjectId) -> Option<Vec2>,
) -> Option<OriginalObjectId> {
    hostile
        .iter()
        .take_while(|(_, d)| *d <= range)
        .map(|(id, _)| *id)
        .find(|&id| position(id).is_some_and(|p| circle.takes(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place_patrol(radius: i32) -> Order {
        Order {
            parameter: radius,
            ..Order::new(4, OrderTarget::Place([100.0, 50.0, 0.0])).unwrap()
        }
    }

    #[test]
    fn the_radius_is_the_parameter_unless_zero_or_minus_one() {
        for (param, radius) in [(0, 60.0), (-1, 60.0), (150, 150.0)] {
            let c = Circle::of(&place_patrol(param), None).unwrap();
            assert_eq!(
                (c.ground, c.centre, c.radius),
                (Ground::Place, Vec2::new(100.0, 50.0), radius)
            );
        }
        let path = Order {
            parameter: 10,
            ..Order::new(4, OrderTarget::None).unwrap()
        };
        assert_eq!(Circle::of(&path, None), None, "a path patrol has no circle");
    }

    #[test]
    fn loop_points_are_in_the_square_fit_and_come_again_each_lap() {
        let c = Circle::of(&place_patrol(40), None).unwrap();
        let seed = 0x1234_5678_9abc_def0;
        let n = length(&c, seed, None);
        assert!((15..=19).contains(&n));
        let east = |p: Vec2| p.x > 100.0;
        for i in 0..n {
            let p = point(&c, (seed, i), None, east);
            assert!((p - c.centre).abs().max_element() <= 40.0, "{p}");
            assert!(east(p), "a point that fits is found: {p}");
            assert_eq!(point(&c, (seed, i + n), None, east), p, "the next lap");
        }
        // Nothing fits: the last try is kept, still in the square.
        let p = point(&c, (seed, 0), None, |_| false);
        assert!((p - c.centre).abs().max_element() <= 40.0);
    }

    #[test]
    fn a_buildings_loop_is_its_corners_pushed_out_thirty() {
        let c = Circle {
            ground: Ground::Building,
            centre: Vec2::ZERO,
            radius: 30.0,
        };
        let square = Convex::quad([
            Vec2::new(-10.0, -10.0),
            Vec2::new(10.0, -10.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(-10.0, 10.0),
        ]);
        let p = point(&c, (7, 0), Some(&square), |_| true);
        let corner = square.0[0];
        assert!((p.length() - (corner.length() + 30.0)).abs() < 1e-3, "{p}");
        assert_eq!(length(&c, 7, Some(&square)), 4);
    }

    #[test]
    fn a_units_circle_weighs_distance_at_seven_tenths_and_the_leash_is_wider() {
        let unit = Circle {
            ground: Ground::Unit,
            centre: Vec2::ZERO,
            radius: 60.0,
        };
        assert!(unit.takes(Vec2::new(85.0, 0.0)), "85 × 0.7 < 60");
        assert!(!unit.takes(Vec2::new(86.0, 0.0)));
        assert!(unit.holds(Vec2::new(120.0, 0.0)));
        assert!(!unit.holds(Vec2::new(121.0, 0.0)));
        let building = Circle {
            ground: Ground::Building,
            ..unit
        };
        assert!(building.holds(Vec2::new(140.0, 0.0)));
    }

    #[test]
    fn loop_points_keep_a_hundred_inside_the_map() {
        let bounds = Some((Vec3::new(0.0, 0.0, -1000.0), Vec3::new(1000.0, 50.0, 0.0)));
        assert!(inside_map(bounds, Vec2::new(500.0, 500.0)));
        assert!(!inside_map(bounds, Vec2::new(50.0, 500.0)));
        assert!(!inside_map(bounds, Vec2::new(500.0, 950.0)));
        assert!(inside_map(None, Vec2::new(-5.0, 0.0)));
    }
}
