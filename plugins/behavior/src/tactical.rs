//! Route membership (openparkan `docs/34-progression.md`, "Routes are
//! tactical areals" and "Who stands in a route", read and measured): the
//! mission's paths, in file order, are tactical areals — polygons in the
//! ground plane, closed back to their first point — and each keeps the
//! list of the units standing in it, which the mission scripts read.
//!
//! A unit with a logical id reports once when it comes into the world and
//! then on its takt, every 31 × 64 + rand8 × 46 × 64 / 256 ms (1.98 to
//! 4.92 s, the byte drawn from the [`TAKT_STREAM`] stream): when it has
//! moved more than 5 by |dx| + |dy| since its last report, or stands in
//! another areal of the areal map, it is taken off every list and put on
//! each whose polygon holds it. The lists lag: a unit that stops stays
//! listed where it last reported.

use crate::route::{Route, map_point};
use bevy::prelude::*;
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{MissionPaths, PropertyBag};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// The random stream of the unit takt.
pub const TAKT_STREAM: &str = "behavior_takt";
/// How far a unit moves (|dx| + |dy|) before its next takt reports it.
pub const REPORT_DISTANCE: f32 = 5.0;

/// Who stands in each tactical areal (the mission's paths by file
/// position), ids ascending.
#[derive(Resource, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TacticalAreals(pub Vec<Vec<OriginalObjectId>>);

impl TacticalAreals {
    /// Whether `id` is listed in tactical areal `route` (the scripts'
    /// function 32).
    pub fn lists(&self, route: usize, id: OriginalObjectId) -> bool {
        self.0
            .get(route)
            .is_some_and(|list| list.binary_search(&id).is_ok())
    }
}

/// A unit's last route report.
#[derive(Component, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RouteReport {
    /// Where it stood and which areal of the map (none before the first).
    pub at: Option<([f32; 2], Option<u32>)>,
    /// The tick of its next takt.
    pub next_takt: u64,
    /// The tactical areals it is listed in.
    pub routes: Vec<u32>,
}

/// Whether ground point `p` lies inside the route polygon `points`: a ray
/// toward +x crosses it an odd number of times, an edge counting when one
/// end is at or above `p.y` and the other below, and it meets the ray at
/// or right of `p`.
pub fn inside(points: &[[f32; 3]], p: Vec2) -> bool {
    let n = points.len();
    let mut crossings = 0;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a[1] >= p.y) != (b[1] >= p.y) {
            let x = a[0] + (p.y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
            if x >= p.x {
                crossings += 1;
            }
        }
    }
    crossings % 2 == 1
}

/// The takt's interval in ms for a random byte.
// STAND-IN: the timer's units taken as ms (docs/34 "Who stands in a route"
// reads the sum, and that it is ms is the page's guess); settled by timing
// a retail unit's route reports.
fn takt_ms(byte: u8) -> f32 {
    (31 * 64) as f32 + f32::from(byte) * (46 * 64) as f32 / 256.0
}

type Reporting<'a> = (
    &'a Transform,
    &'a Route,
    &'a PropertyBag,
    &'a mut RouteReport,
);

/// Every unit with a logical id whose takt is due reports where it stands,
/// in id order.
pub(crate) fn report_routes(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    paths: Option<Res<MissionPaths>>,
    mut rng: ResMut<iron3d_world::mission::RngStreams>,
    mut lists: ResMut<TacticalAreals>,
    mut units: Query<Reporting, Without<PendingDelete>>,
) {
    let paths = paths.as_ref().map_or(&[][..], |p| &p.0[..]);
    if lists.0.len() != paths.len() {
        lists.0.resize(paths.len(), Vec::new());
    }
    let tick = clock.tick();
    let tick_ms = clock.timestep().as_secs_f32() * 1000.0;
    for (id, entity) in registry.iter() {
        let Ok((transform, route, bag, mut report)) = units.get_mut(entity) else {
            continue;
        };
        if bag.int("LogicalID").is_none_or(|v| v == 0) {
            continue;
        }
        let first = report.at.is_none();
        if !first && tick < report.next_takt {
            continue;
        }
        let byte = (rng.next_u64(TAKT_STREAM) >> 56) as u8;
        report.next_takt = tick + ((takt_ms(byte) / tick_ms).round() as u64).max(1);
        let here = map_point(transform.translation);
        let moved = report.at.is_none_or(|(at, areal)| {
            (here[0] - at[0]).abs() + (here[1] - at[1]).abs() > REPORT_DISTANCE
                || areal != route.areal
        });
        if !moved {
            continue;
        }
        for list in &mut lists.0 {
            if let Ok(i) = list.binary_search(&id) {
                list.remove(i);
            }
        }
        report.routes.clear();
        for (i, path) in paths.iter().enumerate() {
            if inside(&path.points, Vec2::from(here)) {
                let list = &mut lists.0[i];
                if let Err(at) = list.binary_search(&id) {
                    list.insert(at, id);
                }
                report.routes.push(i as u32);
            }
        }
        report.at = Some((here, route.areal));
    }
}

/// State-hash contributor: the tactical lists, then every unit's last
/// report, in id order.
pub(crate) fn hash_reports(world: &World, hasher: &mut StateHasher) {
    if let Some(lists) = world.get_resource::<TacticalAreals>() {
        for list in &lists.0 {
            hasher.write_u32(list.len() as u32);
            list.iter().for_each(|id| hasher.write_u32(id.raw()));
        }
    }
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(report) = world.get::<RouteReport>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        hasher.write_u64(report.next_takt);
        if let Some((at, areal)) = report.at {
            at.iter().for_each(|c| hasher.write_f32(*c));
            hasher.write_u32(areal.map_or(u32::MAX, |a| a));
        }
        report.routes.iter().for_each(|r| hasher.write_u32(*r));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crossing_rule_closes_the_polygon_and_counts_edges_right_of_the_point() {
        // A square 0..10 given open (the last point does not repeat).
        let square = [
            [0.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            [10.0, 10.0, 0.0],
            [0.0, 10.0, 0.0],
        ];
        assert!(inside(&square, Vec2::new(5.0, 5.0)));
        assert!(!inside(&square, Vec2::new(15.0, 5.0)));
        assert!(!inside(&square, Vec2::new(-1.0, 5.0)));
        // On the bottom edge no edge has an end below: outside; on the top
        // one the right side crosses: inside.
        assert!(!inside(&square, Vec2::new(5.0, 0.0)));
        assert!(inside(&square, Vec2::new(5.0, 10.0)));
        // Two points make no area.
        assert!(!inside(&square[..2], Vec2::new(5.0, 0.0)));
    }

    #[test]
    fn the_takt_runs_every_1_98_to_4_92_seconds() {
        assert_eq!(takt_ms(0), 1984.0);
        assert!((takt_ms(255) - 4916.5).abs() < 0.01);
    }

    #[test]
    fn lists_answer_who_stands_in_a_route() {
        let lists = TacticalAreals(vec![vec![OriginalObjectId(2), OriginalObjectId(9)], vec![]]);
        assert!(lists.lists(0, OriginalObjectId(9)));
        assert!(!lists.lists(1, OriginalObjectId(9)) && !lists.lists(5, OriginalObjectId(2)));
    }
}
