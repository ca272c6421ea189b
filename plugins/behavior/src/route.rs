//! The global and local levels of tome VI's four (global path, local path,
//! Wizard path, physical step). A unit sent somewhere plans a global path
//! over the walkable areals of the mission's areal map (A* with the
//! original's randomised costs, drawn from the [`PATH_STREAM`] stream:
//! [`Navigator::plan`]), cuts it into local points on the crossed edges
//! ([`Navigator::waypoints`]) and walks from point to point; the Wizard
//! path is a short-term point in front of the next local point when
//! something stands in the way.
//!
//! A point counts as passed within the corridor radius
//! (`PathFind_CorridorRadius`); a unit farther than twice that from the
//! leg it walks (pushed off it) has a broken path and plans again. A new
//! target, a broken path and the end of an order clear the Wizard path
//! ([`Route::clear_wizard_path`]).
//!
//! A flyer is not searched: it goes straight (docs/24-motion, `SetTarget`
//! on open ground). A unit standing in a non-walkable areal walks out to
//! the first walkable one of 50 random points in a square round it, the
//! square growing from a half-width of 30 by 3 a round up to 500
//! (docs/24-motion "Off a non-walkable areal"). Everything that fails is a
//! [`Diagnostic`] and the order is dropped: the unit stays put.
//!
//! A go order is watched ([`Route::watch`]): when its path left has not
//! shrunk by [`PROGRESS_STEP`] in [`PROGRESS_TIME`], its way is planned
//! again, and when that does not help either it is given up with a
//! diagnostic. No unit goes round in circles for ever.

use crate::diagnostic::{BehaviorDiagnostics, Diagnostic, ErrorState, object_chain};
use crate::wizard::{Footprints, MARGIN};
use bevy::prelude::*;
use iron3d_formats::terrain::route::{RAND_MAX, RouteError};
use iron3d_schedules::StateHasher;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{
    InstanceName, MissionArealMap, MissionDescription, PrototypeKey, RngStreams, fraction,
};
use std::collections::VecDeque;

/// The random stream of route planning (the search's cost factors and the
/// way out of a non-walkable areal).
pub const PATH_STREAM: &str = "behavior_path";
/// The way out of a non-walkable areal: points tried per round, the first
/// half-width of the square, its growth per round and its limit (m).
const ESCAPE_TRIES: usize = 50;
const ESCAPE_FIRST: f32 = 30.0;
const ESCAPE_GROWTH: f32 = 3.0;
const ESCAPE_LIMIT: f32 = 500.0;
/// How many corridor radii off its leg a unit may be before its path is
/// broken.
// STAND-IN: twice the corridor radius (the walker's timed trajectory
// points are not measured); settled by reading when the walker replans in
// `Behavior.dll` (openparkan docs/24).
const CORRIDOR_WIDTHS: f32 = 2.0;

/// A unit's way to where its order sends it, in the map frame (x, y).
#[derive(Component, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Route {
    /// Goes up by one with each path planned: the path revision.
    pub revision: u32,
    /// Where the path leads; `None`: no path.
    pub goal: Option<[f32; 2]>,
    /// The global path: areal ids from the start's to the goal's (empty
    /// for a flyer, which is not searched).
    pub areals: Vec<u32>,
    /// The local path: the points still ahead, the goal last.
    pub points: VecDeque<[f32; 2]>,
    /// Where the leg to the next point began.
    pub leg_start: [f32; 2],
    /// The Wizard path: a short-term point to go by first.
    pub wizard: Option<[f32; 2]>,
    /// The side the Wizard goes round things on (true: the right), kept
    /// while its path lasts.
    pub wizard_side: Option<bool>,
    /// A walkable point the unit walks out to from a non-walkable areal.
    pub escape: Option<[f32; 2]>,
    /// The areal the unit stands in (`None`: off the areal map), updated
    /// every step.
    pub areal: Option<u32>,
    /// The watch on a go order's progress (`None`: no go order watched).
    #[serde(default)]
    pub progress: Option<Progress>,
}

/// How a go order gets on: the least path left seen and the tick it last
/// shrank by [`PROGRESS_STEP`], and how often it was planned again for
/// want of progress.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// The place the order sends the unit to.
    pub goal: [f32; 2],
    /// m: the least path left seen since `since`.
    pub least: f32,
    pub since: u64,
    pub replans: u32,
}

/// What the watch on a go order says this step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Watch {
    /// It gets on (or has not had its time yet).
    Going,
    /// No progress in its time: plan the way again.
    Replan,
    /// No progress after planning again either: give the order up.
    GiveUp,
}

/// m: by how much the path left must shrink to count as progress.
// STAND-IN: 1 m (no source measures a go order's progress: docs/31 "What
// each package does" re-plans only when the walker is idle); settled by
// reading the go task's progress test, if any, in `Behavior.dll`.
pub const PROGRESS_STEP: f32 = 1.0;
/// s: how long a go order may go without progress before it is planned
/// again, and then given up.
// STAND-IN: 20 s, the time after which the escape checks whether its unit
// is still on the building (docs/31 "The escape"), the only measured check
// of a unit's lack of progress; settled as `PROGRESS_STEP`.
pub const PROGRESS_TIME: f32 = 20.0;
/// How often a go order without progress is planned again before it is
/// given up.
// STAND-IN: once (the search's random costs give another way, where there
// is one); settled as `PROGRESS_STEP`.
pub const REPLANS: u32 = 1;

impl Route {
    /// `ClearWizardPath`.
    pub fn clear_wizard_path(&mut self) {
        self.wizard = None;
        self.wizard_side = None;
    }

    /// No path any more (the order is over): the next one plans afresh.
    pub fn clear(&mut self) {
        self.goal = None;
        self.areals.clear();
        self.points.clear();
        self.escape = None;
        self.clear_wizard_path();
    }

    /// Watches the go order to `goal` at tick `tick` (steps of `dt`) with
    /// `left` metres of path left: a new goal starts a new watch, progress
    /// restarts its clock, and a watch out of time plans again (the path
    /// is dropped) until [`REPLANS`] plans are spent.
    pub(crate) fn watch(&mut self, goal: [f32; 2], left: f32, (tick, dt): (u64, f32)) -> Watch {
        let fresh = Progress {
            goal,
            least: left,
            since: tick,
            replans: 0,
        };
        let progress = match &mut self.progress {
            Some(p) if p.goal == goal => p,
            other => {
                *other = Some(fresh);
                return Watch::Going;
            }
        };
        if left < progress.least - PROGRESS_STEP {
            progress.least = left;
            progress.since = tick;
            return Watch::Going;
        }
        let window = (PROGRESS_TIME / dt.max(f32::EPSILON)).round() as u64;
        if tick.saturating_sub(progress.since) < window {
            return Watch::Going;
        }
        if progress.replans >= REPLANS {
            return Watch::GiveUp;
        }
        progress.replans += 1;
        progress.least = left;
        progress.since = tick;
        self.goal = None;
        Watch::Replan
    }

    /// The next point to go for and how much path lies beyond it.
    pub fn next_point(&self) -> Option<([f32; 2], f32)> {
        let next = *self.points.front()?;
        let beyond = self
            .points
            .iter()
            .zip(self.points.iter().skip(1))
            .map(|(a, b)| distance(*a, *b))
            .sum();
        Some((next, beyond))
    }

    fn hash(&self, hasher: &mut StateHasher) {
        let point = |hasher: &mut StateHasher, p: Option<[f32; 2]>| match p {
            None => hasher.write_u32(0),
            Some(p) => {
                hasher.write_u32(1);
                p.iter().for_each(|c| hasher.write_f32(*c));
            }
        };
        hasher.write_u32(self.revision);
        point(hasher, self.goal);
        hasher.write_u32(self.areals.len() as u32);
        self.areals.iter().for_each(|a| hasher.write_u32(*a));
        hasher.write_u32(self.points.len() as u32);
        for p in self.points.iter().chain([&self.leg_start]) {
            p.iter().for_each(|c| hasher.write_f32(*c));
        }
        point(hasher, self.wizard);
        hasher.write_u32(self.wizard_side.map_or(2, u32::from));
        point(hasher, self.escape);
        hasher.write_u32(self.areal.map_or(u32::MAX, |a| a));
        match &self.progress {
            None => hasher.write_u32(0),
            Some(p) => {
                hasher.write_u32(1);
                p.goal.iter().for_each(|c| hasher.write_f32(*c));
                hasher.write_f32(p.least);
                hasher.write_u64(p.since);
                hasher.write_u32(p.replans);
            }
        }
    }
}

/// The unit a planner works for, to name it in diagnostics.
pub(crate) struct Who<'a> {
    pub id: OriginalObjectId,
    pub name: Option<&'a InstanceName>,
    pub key: Option<&'a PrototypeKey>,
    pub flyer: bool,
    /// m: its body radius.
    pub radius: f32,
    /// Whether it belongs to a clan of the mission (whose areal map it
    /// plans over).
    pub in_clan: bool,
}

/// What planning needs from the world for one step.
pub(crate) struct Planner<'a> {
    pub map: Option<&'a MissionArealMap>,
    pub footprints: &'a Footprints,
    pub terrain: bool,
    pub mission: Option<&'a MissionDescription>,
    pub tick: u64,
    pub rng: &'a mut RngStreams,
    pub diagnostics: &'a mut BehaviorDiagnostics,
}

/// Why a unit cannot go where it was sent.
struct Failure {
    state: ErrorState,
    cause: String,
}

impl Planner<'_> {
    /// Plans `route` from `from` to `goal` for `who`. False when no path
    /// can be had (reported): the order is to be dropped. A unit in a
    /// non-walkable areal gets a way out (reported too) and plans again
    /// once it is out.
    pub fn plan(&mut self, route: &mut Route, who: &Who, from: [f32; 2], goal: [f32; 2]) -> bool {
        route.clear();
        match self.search(route, who, from, goal) {
            Ok(()) => true,
            Err(failure) => {
                let (map, footprints) = (self.map, self.footprints);
                let out = map
                    .filter(|_| failure.state == ErrorState::LeavingNonWalkable)
                    .and_then(|m| escape_point(m, footprints, from, self.rng));
                route.escape = out;
                let cause = match out {
                    Some(out) => {
                        format!("{}; walks out to ({}, {})", failure.cause, out[0], out[1])
                    }
                    None => failure.cause,
                };
                self.report(who, failure.state, cause);
                out.is_some()
            }
        }
    }

    /// Records a diagnostic about `who`.
    pub fn report(&mut self, who: &Who, state: ErrorState, cause: String) {
        self.diagnostics.report(Diagnostic {
            tick: self.tick,
            object: who.id,
            chain: object_chain(self.mission, who.id, who.name, who.key),
            state,
            cause,
        });
    }

    fn search(
        &mut self,
        route: &mut Route,
        who: &Who,
        from: [f32; 2],
        goal: [f32; 2],
    ) -> Result<(), Failure> {
        let fail = |state, cause: String| Failure { state, cause };
        if !self.terrain {
            return Err(fail(
                ErrorState::NoTerrain,
                "the mission has no Land.msh".into(),
            ));
        }
        let Some(map) = self.map else {
            return Err(fail(
                ErrorState::NoSystemMap,
                "the mission has no Land.map".into(),
            ));
        };
        if !who.in_clan {
            return Err(fail(
                ErrorState::NoArealMap,
                "it belongs to no clan of the mission".into(),
            ));
        }
        let (areals, points) = if who.flyer {
            (Vec::new(), VecDeque::from([goal]))
        } else {
            let nav = map.navigator();
            let cut = &self.footprints.cut;
            let rng = &mut *self.rng;
            let found = nav
                .plan(from, goal, |a| cut.contains(&a), || draw(rng))
                .map_err(|e| {
                    let state = match e {
                        RouteError::StartNotWalkable { .. } => ErrorState::LeavingNonWalkable,
                        RouteError::GaveUp { .. } => ErrorState::PathCycling,
                        _ => ErrorState::NonReachable,
                    };
                    fail(
                        state,
                        format!(
                            "no path from ({}, {}) to ({}, {}): {e}",
                            from[0], from[1], goal[0], goal[1]
                        ),
                    )
                })?;
            let points: Vec<Vec2> = nav
                .waypoints(&found, from, goal)
                .iter()
                .map(|p| Vec2::new(p[0] as f32, p[1] as f32))
                .collect();
            let local = self
                .footprints
                .local_path(Vec2::from(from), &points, who.radius + MARGIN);
            (
                found.areals,
                local.into_iter().map(<[f32; 2]>::from).collect(),
            )
        };
        route.revision += 1;
        route.goal = Some(goal);
        route.areals = areals;
        route.points = points;
        route.leg_start = from;
        Ok(())
    }
}

/// One draw of the path stream as C's `rand()` gives it, 0 to 32767.
fn draw(rng: &mut RngStreams) -> u16 {
    (rng.next_u64(PATH_STREAM) >> 49) as u16 & RAND_MAX
}

/// A uniform draw in -1..1 from the path stream.
fn signed_unit(rng: &mut RngStreams) -> f32 {
    (2.0 * fraction(rng.next_u64(PATH_STREAM)) - 1.0) as f32
}

/// The first walkable point of the way-out search round `from`.
fn escape_point(
    map: &MissionArealMap,
    footprints: &Footprints,
    from: [f32; 2],
    rng: &mut RngStreams,
) -> Option<[f32; 2]> {
    let locator = map.navigator().locator;
    let mut half = ESCAPE_FIRST;
    while half < ESCAPE_LIMIT {
        for _ in 0..ESCAPE_TRIES {
            let p = [
                from[0] + half * signed_unit(rng),
                from[1] + half * signed_unit(rng),
            ];
            let areal = locator.areal_at(p[0], p[1]);
            if footprints.walkable(&map.map, areal, Vec2::from(p)) {
                return Some(p);
            }
        }
        half += ESCAPE_GROWTH;
    }
    None
}

/// Whether a unit at `here` is off the leg it walks (its path is broken).
pub(crate) fn off_corridor(route: &Route, here: [f32; 2], corridor: f32) -> bool {
    let Some(&next) = route.points.front() else {
        return false;
    };
    route.wizard.is_none()
        && route.escape.is_none()
        && segment_distance(here, route.leg_start, next) > CORRIDOR_WIDTHS * corridor
}

/// Drops the points the unit at `here` has passed (all but the goal).
// STAND-IN: a point is passed within the corridor radius (the walker's
// timed trajectory points are not measured); settled as
// `CORRIDOR_WIDTHS`.
pub(crate) fn pass_points(route: &mut Route, here: [f32; 2], corridor: f32) {
    while route.points.len() > 1
        && route
            .points
            .front()
            .is_some_and(|p| distance(*p, here) <= corridor)
    {
        if let Some(passed) = route.points.pop_front() {
            route.leg_start = passed;
        }
    }
}

pub(crate) fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    Vec2::from(a).distance(Vec2::from(b))
}

/// The distance from `p` to segment `a -> b`.
pub(crate) fn segment_distance(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let p = Vec2::from(p);
    p.distance(crate::obstacle::nearest_on_segment(p, a.into(), b.into()))
}

/// The areal each unit stands in, every step.
pub(crate) fn locate(
    map: Option<Res<MissionArealMap>>,
    mut units: Query<(&Transform, &mut Route)>,
) {
    let nav = map.as_ref().map(|m| m.navigator());
    for (transform, mut route) in &mut units {
        let here = map_point(transform.translation);
        let areal = nav
            .as_ref()
            .and_then(|n| n.locator.areal_at(here[0], here[1]));
        if route.areal != areal {
            route.areal = areal;
        }
    }
}

/// The map-frame ground point (x, y) of a world position.
pub(crate) fn map_point(p: Vec3) -> [f32; 2] {
    [p.x, -p.z]
}

/// State-hash contributor: every unit's route, in id order.
pub(crate) fn hash_routes(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<iron3d_world::ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        if let Some(route) = world.get::<Route>(entity) {
            hasher.object(id.raw());
            route.hash(hasher);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::terrain::build::{ArealShape, land_map_from_polygons};
    use std::sync::Arc;

    #[test]
    fn points_within_the_corridor_are_passed_but_never_the_goal() {
        let mut route = Route {
            points: VecDeque::from([[10.0, 0.0], [20.0, 0.0], [30.0, 0.0]]),
            ..Route::default()
        };
        pass_points(&mut route, [8.0, 1.0], 5.0);
        assert_eq!(route.points.len(), 2);
        assert_eq!(route.leg_start, [10.0, 0.0]);
        // Only a point within the radius is passed, one at a time.
        pass_points(&mut route, [29.0, 0.0], 5.0);
        assert_eq!(route.points.len(), 2);
        pass_points(&mut route, [21.0, 0.0], 5.0);
        pass_points(&mut route, [30.0, 0.0], 5.0);
        assert_eq!(route.points, VecDeque::from([[30.0, 0.0]]));
        assert_eq!(route.next_point(), Some(([30.0, 0.0], 0.0)));
    }

    #[test]
    fn a_unit_pushed_off_its_leg_has_a_broken_path() {
        let route = Route {
            points: VecDeque::from([[100.0, 0.0], [100.0, 50.0]]),
            leg_start: [0.0, 0.0],
            ..Route::default()
        };
        assert_eq!(route.next_point(), Some(([100.0, 0.0], 50.0)));
        assert!(!off_corridor(&route, [50.0, 9.0], 5.0));
        assert!(off_corridor(&route, [50.0, 11.0], 5.0));
        // Going round something on a Wizard point is not straying.
        let detour = Route {
            wizard: Some([50.0, 12.0]),
            ..route
        };
        assert!(!off_corridor(&detour, [50.0, 11.0], 5.0));
    }

    /// A walker of a clan of the mission.
    const WALKER: (bool, bool) = (false, true);

    /// A 5 x 5 grid of 20 m areals, those of `blocked` not walkable.
    fn grid(blocked: &[usize]) -> MissionArealMap {
        let shapes = (0..25)
            .map(|i| {
                let (x, y) = ((i % 5) as f32 * 20.0, (i / 5) as f32 * 20.0);
                ArealShape {
                    vertices: vec![
                        [x, y, 0.0],
                        [x + 20.0, y, 0.0],
                        [x + 20.0, y + 20.0, 0.0],
                        [x, y + 20.0, 0.0],
                    ],
                    logic_flag: u32::from(!blocked.contains(&i)),
                    class_id: 1,
                }
            })
            .collect::<Vec<_>>();
        MissionArealMap::new(Arc::new(land_map_from_polygons(&shapes, [10, 10]).unwrap()))
    }

    /// Plans for a walker (or a flyer) and returns the route and the
    /// diagnostics.
    fn plan(
        map: Option<&MissionArealMap>,
        (flyer, in_clan): (bool, bool),
        from: [f32; 2],
        goal: [f32; 2],
    ) -> (bool, Route, Vec<Diagnostic>) {
        let (mut rng, mut diagnostics) = (RngStreams::new(1), BehaviorDiagnostics::default());
        let footprints = Footprints::default();
        let mut planner = Planner {
            map,
            footprints: &footprints,
            terrain: true,
            mission: None,
            tick: 3,
            rng: &mut rng,
            diagnostics: &mut diagnostics,
        };
        let who = Who {
            id: OriginalObjectId(9),
            name: None,
            key: None,
            flyer,
            radius: 1.0,
            in_clan,
        };
        let mut route = Route::default();
        let planned = planner.plan(&mut route, &who, from, goal);
        (planned, route, diagnostics.0)
    }

    #[test]
    fn a_plan_goes_round_what_is_not_walkable_and_counts_revisions() {
        // The middle column blocked but for the top row.
        let map = grid(&[2, 7, 12, 17]);
        let (planned, route, notes) = plan(Some(&map), WALKER, [10.0, 10.0], [90.0, 10.0]);
        assert!(planned && notes.is_empty());
        assert_eq!(route.revision, 1);
        assert_eq!(route.goal, Some([90.0, 10.0]));
        assert!(
            route.areals.contains(&22),
            "over the top: {:?}",
            route.areals
        );
        assert_eq!(route.points.back(), Some(&[90.0, 10.0]));
        // A flyer is not searched: straight there.
        let (_, flown, _) = plan(Some(&map), (true, true), [10.0, 10.0], [90.0, 10.0]);
        assert_eq!((flown.areals.len(), flown.points.len()), (0, 1));
    }

    #[test]
    fn failures_are_the_error_states_of_tome_vi() {
        let walled = grid(&[2, 7, 12, 17, 22]);
        let (planned, _, notes) = plan(Some(&walled), WALKER, [10.0, 10.0], [90.0, 10.0]);
        assert!(!planned);
        assert_eq!(notes[0].state, ErrorState::NonReachable);
        assert_eq!((notes[0].tick, notes[0].object), (3, OriginalObjectId(9)));
        let (_, _, notes) = plan(None, WALKER, [10.0, 10.0], [90.0, 10.0]);
        assert_eq!(notes[0].state, ErrorState::NoSystemMap);
        let (_, _, notes) = plan(Some(&walled), (false, false), [10.0, 10.0], [30.0, 10.0]);
        assert_eq!(notes[0].state, ErrorState::NoArealMap);
        let (_, _, notes) = plan(Some(&walled), WALKER, [10.0, 10.0], [500.0, 10.0]);
        assert_eq!(notes[0].state, ErrorState::NonReachable);
    }

    #[test]
    fn a_unit_in_a_non_walkable_areal_walks_out_to_walkable_ground() {
        let map = grid(&[12]);
        let (planned, route, notes) = plan(Some(&map), WALKER, [50.0, 50.0], [90.0, 90.0]);
        assert!(planned);
        assert_eq!(notes[0].state, ErrorState::LeavingNonWalkable);
        let out = route.escape.expect("a way out");
        let nav = map.navigator();
        let areal = nav.locator.areal_at(out[0], out[1]).unwrap();
        assert!(map.map.areals[areal as usize].is_walkable());
        assert!((out[0] - 50.0).abs() <= ESCAPE_FIRST && (out[1] - 50.0).abs() <= ESCAPE_FIRST);
        assert!(
            notes[0].cause.contains("walks out to"),
            "{}",
            notes[0].cause
        );
        // With nothing walkable anywhere near there is no way out.
        let all: Vec<usize> = (0..25).collect();
        let (planned, route, notes) = plan(Some(&grid(&all)), WALKER, [50.0, 50.0], [90.0, 90.0]);
        assert!(!planned && route.escape.is_none());
        assert_eq!(notes[0].state, ErrorState::LeavingNonWalkable);
    }

    #[test]
    fn draws_span_rand_and_the_unit_interval() {
        let mut rng = RngStreams::new(3);
        let draws: Vec<u16> = (0..2000).map(|_| draw(&mut rng)).collect();
        assert!(draws.iter().all(|&d| d <= RAND_MAX));
        assert!(draws.iter().any(|&d| d > RAND_MAX - 100) && draws.iter().any(|&d| d < 100));
        let units: Vec<f32> = (0..2000).map(|_| signed_unit(&mut rng)).collect();
        assert!(units.iter().all(|u| (-1.0..1.0).contains(u)));
        assert!(units.iter().any(|&u| u > 0.99) && units.iter().any(|&u| u < -0.99));
    }
}
