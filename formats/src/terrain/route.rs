//! A* over the areal graph (tome IV "Маршрут"): nodes are areals, edges are
//! their boundary links. Crossing edge `e` from areal A to areal B costs the
//! ground distance from A's point to the midpoint of `e` plus from there to
//! B's point, where an areal's point is its anchor, the start point for the
//! start areal and the goal point for the goal areal. The heuristic is the
//! straight distance to the goal point: a route is a polyline through those
//! points, so the heuristic never overestimates and is consistent, and the
//! first time the goal is taken off the queue its route is the cheapest.
//! Ties are broken by areal id, so the result is deterministic.

use super::geom::dist2;
use super::land_map::{Areal, ArealLocator, GridFrame, LandMap};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Areals Behavior's search takes off its open list before it gives up
/// (docs/24-motion "The global path").
pub const PLAN_NODE_LIMIT: usize = 2048;
/// The largest share of its cost a random draw adds to a step.
pub const PLAN_JITTER: f64 = 0.7;
/// The largest value of the draws [`Navigator::plan`] takes (C's `rand()`).
pub const RAND_MAX: u16 = 32767;
/// How far along an edge from its end a waypoint goes when the straight
/// line to the goal misses the edge.
pub const EDGE_END_INSET: f64 = 3.0;

/// One edge crossed by a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Crossing {
    /// The areal left and the index of its boundary edge crossed.
    pub from: u32,
    pub edge: u32,
    /// The areal entered and the same edge's index in it.
    pub to: u32,
    pub to_edge: u32,
}

/// A route between two ground points.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Route {
    /// Areal ids from the start areal to the goal areal.
    pub areals: Vec<u32>,
    /// The edges crossed, one fewer than the areals.
    pub crossings: Vec<Crossing>,
    /// Total ground length of the route polyline.
    pub cost: f64,
}

/// Why no route exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteError {
    /// The start point lies in no areal.
    StartOutside,
    /// The goal point lies in no areal.
    GoalOutside,
    /// Start and goal areals are not connected (through passable areals).
    Unreachable { from: u32, to: u32 },
    /// The start point lies in an areal no unit walks on.
    StartNotWalkable { areal: u32 },
    /// The goal point lies in an areal no unit walks on.
    GoalNotWalkable { areal: u32 },
    /// The search took its limit of areals off the open list.
    GaveUp { taken: usize },
}

impl std::fmt::Display for RouteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RouteError::StartOutside => write!(f, "the start point lies in no areal"),
            RouteError::GoalOutside => write!(f, "the goal point lies in no areal"),
            RouteError::Unreachable { from, to } => {
                write!(f, "areal {to} cannot be reached from areal {from}")
            }
            RouteError::StartNotWalkable { areal } => {
                write!(f, "the start point lies in non-walkable areal {areal}")
            }
            RouteError::GoalNotWalkable { areal } => {
                write!(f, "the goal point lies in non-walkable areal {areal}")
            }
            RouteError::GaveUp { taken } => {
                write!(f, "the search gave up after {taken} areals")
            }
        }
    }
}

impl std::error::Error for RouteError {}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Open {
    f: f64,
    g: f64,
    areal: u32,
}

impl Eq for Open {}

impl Ord for Open {
    /// Reversed for the max-heap: lowest f first, then lowest areal id.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| other.areal.cmp(&self.areal))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A crossable boundary edge, precomputed.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Link {
    edge: u32,
    next: u32,
    to_edge: u32,
    /// Ground midpoint of the edge.
    mid: [f64; 2],
}

/// The flattened areal graph of one map: the grid frame, the anchors and
/// the crossable edges of every areal. Owned, so a caller can keep it
/// beside its map and search without rebuilding it
/// ([`Navigator::with_graph`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NavGraph {
    frame: Option<GridFrame>,
    anchors: Vec<[f64; 2]>,
    /// Crossable edges of areal `a`: `links[starts[a]..starts[a + 1]]`.
    starts: Vec<usize>,
    links: Vec<Link>,
}

impl NavGraph {
    pub fn new(map: &LandMap) -> Self {
        let n = map.areals.len();
        let mut starts = Vec::with_capacity(n + 1);
        let mut links = Vec::new();
        for a in &map.areals {
            starts.push(links.len());
            for (edge, link) in a.links.iter().enumerate() {
                let Some((next, to_edge)) = link.target().filter(|&(next, _)| (next as usize) < n)
                else {
                    continue;
                };
                if let Some(mid) = a.edge_midpoint(edge) {
                    links.push(Link {
                        edge: edge as u32,
                        next,
                        to_edge,
                        mid,
                    });
                }
            }
        }
        starts.push(links.len());
        Self {
            frame: GridFrame::of(map),
            anchors: map
                .areals
                .iter()
                .map(|a| [a.anchor[0] as f64, a.anchor[1] as f64])
                .collect(),
            starts,
            links,
        }
    }
}

/// Route search over one map; reuse it for many queries.
#[derive(Debug, Clone)]
pub struct Navigator<'m> {
    pub locator: ArealLocator<'m>,
    graph: Cow<'m, NavGraph>,
}

impl<'m> Navigator<'m> {
    /// Flattens the graph of `map`.
    pub fn new(map: &'m LandMap) -> Self {
        let graph = NavGraph::new(map);
        Self {
            locator: ArealLocator {
                map,
                frame: graph.frame,
            },
            graph: Cow::Owned(graph),
        }
    }

    /// Searches `map` over its graph built earlier.
    pub fn with_graph(map: &'m LandMap, graph: &'m NavGraph) -> Self {
        Self {
            locator: ArealLocator {
                map,
                frame: graph.frame,
            },
            graph: Cow::Borrowed(graph),
        }
    }

    /// The cheapest route from ground point `from` to `to` over every areal.
    pub fn route(&self, from: [f32; 2], to: [f32; 2]) -> Result<Route, RouteError> {
        self.route_where(from, to, |_| true)
    }

    /// The cheapest route through areals for which `passable` holds (the
    /// start and goal areals always are).
    pub fn route_where(
        &self,
        from: [f32; 2],
        to: [f32; 2],
        passable: impl Fn(&Areal) -> bool,
    ) -> Result<Route, RouteError> {
        let (start, goal) = self.ends(from, to)?;
        let areals = &self.locator.map.areals;
        let (p_from, p_to) = (widen2(from), widen2(to));
        let point = |id: u32| -> [f64; 2] {
            if id == start {
                p_from
            } else if id == goal {
                p_to
            } else {
                self.graph.anchors[id as usize]
            }
        };
        self.search(
            (start, goal),
            point,
            |id| passable(&areals[id as usize]),
            |g, here, mid, there| g + dist2(here, mid) + dist2(mid, there),
            usize::MAX,
        )
    }

    /// The global path of Behavior's walker (openparkan docs/24-motion "The
    /// global path"): A* over walkable areals from centre to centre, each
    /// step costing (cost so far + centre distance + 1) × (1 + rand ×
    /// [`PLAN_JITTER`]), where `rand` gives values in `0..=RAND_MAX` like
    /// C's `rand()`; the factor compounds along the path, so the route is a
    /// randomised good one, not the cheapest. Gives up after
    /// [`PLAN_NODE_LIMIT`] areals have been taken off the open list.
    ///
    /// Areals for which `cut` holds count as not walkable (trees and stones
    /// cut them away).
    pub fn plan(
        &self,
        from: [f32; 2],
        to: [f32; 2],
        cut: impl Fn(u32) -> bool,
        mut rand: impl FnMut() -> u16,
    ) -> Result<Route, RouteError> {
        let (start, goal) = self.ends(from, to)?;
        let areals = &self.locator.map.areals;
        let walkable = |id: u32| areals[id as usize].is_walkable() && !cut(id);
        if !walkable(start) {
            return Err(RouteError::StartNotWalkable { areal: start });
        }
        if !walkable(goal) {
            return Err(RouteError::GoalNotWalkable { areal: goal });
        }
        self.search(
            (start, goal),
            |id| self.graph.anchors[id as usize],
            walkable,
            |g, here, _, there| {
                let share = rand().min(RAND_MAX) as f64 / RAND_MAX as f64;
                (g + dist2(here, there) + 1.0) * (1.0 + share * PLAN_JITTER)
            },
            PLAN_NODE_LIMIT,
        )
    }

    /// The points a walker goes through along `route` from `from` to `to`
    /// (docs/24-motion "Waypoints"): one on each crossed edge, where the
    /// straight line from the previous point to the goal crosses it, else
    /// at the end of the edge moved [`EDGE_END_INSET`] along it that makes
    /// previous point -> point -> goal shortest; then the goal.
    // STAND-IN: a crossing nearer an end of the edge than the inset is moved
    // to the inset too (a walker's body would otherwise cut the corner over
    // the next areal, which may not be walkable; docs/24 "Waypoints" insets
    // only the ends it falls back to); settled by a retail route that
    // crosses an edge near its end.
    pub fn waypoints(&self, route: &Route, from: [f32; 2], to: [f32; 2]) -> Vec<[f64; 2]> {
        let areals = &self.locator.map.areals;
        let goal = widen2(to);
        let mut last = widen2(from);
        let mut points = Vec::with_capacity(route.crossings.len() + 1);
        for c in &route.crossings {
            let Some((a, b)) = areals
                .get(c.from as usize)
                .and_then(|areal| areal.edge(c.edge as usize))
            else {
                continue;
            };
            let (near, far) = inset_ends(a, b, EDGE_END_INSET);
            let point = crossing(last, goal, a, b)
                .map(|p| nearest_on(p, near, far))
                .unwrap_or_else(|| {
                    let via = |p: [f64; 2]| dist2(last, p) + dist2(p, goal);
                    if via(near) <= via(far) { near } else { far }
                });
            points.push(point);
            last = point;
        }
        points.push(goal);
        points
    }

    /// The start and goal areals of a search.
    fn ends(&self, from: [f32; 2], to: [f32; 2]) -> Result<(u32, u32), RouteError> {
        let start = self
            .locator
            .areal_at(from[0], from[1])
            .ok_or(RouteError::StartOutside)?;
        let goal = self
            .locator
            .areal_at(to[0], to[1])
            .ok_or(RouteError::GoalOutside)?;
        Ok((start, goal))
    }

    /// A* from `start` to `goal`: `point` is where an areal is measured
    /// from (the heuristic is the straight distance between points),
    /// `step(g, here, edge midpoint, there)` the cost so far after a step,
    /// and at most `limit` areals are taken off the open list.
    fn search(
        &self,
        (start, goal): (u32, u32),
        point: impl Fn(u32) -> [f64; 2],
        passable: impl Fn(u32) -> bool,
        mut step: impl FnMut(f64, [f64; 2], [f64; 2], [f64; 2]) -> f64,
        limit: usize,
    ) -> Result<Route, RouteError> {
        let n = self.graph.anchors.len();
        let target = point(goal);
        let mut best = vec![f64::INFINITY; n];
        let mut came: Vec<Option<Crossing>> = vec![None; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        let mut taken = 0usize;
        best[start as usize] = 0.0;
        open.push(Open {
            f: dist2(point(start), target),
            g: 0.0,
            areal: start,
        });
        while let Some(Open { g, areal, .. }) = open.pop() {
            if closed[areal as usize] {
                continue;
            }
            if taken == limit {
                return Err(RouteError::GaveUp { taken });
            }
            taken += 1;
            closed[areal as usize] = true;
            if areal == goal {
                return Ok(self.unwind(&came, start, goal, g));
            }
            let here = point(areal);
            for l in &self.graph.links
                [self.graph.starts[areal as usize]..self.graph.starts[areal as usize + 1]]
            {
                let next = l.next;
                if closed[next as usize] || (next != goal && !passable(next)) {
                    continue;
                }
                let there = point(next);
                let cost = step(g, here, l.mid, there);
                if cost < best[next as usize] {
                    best[next as usize] = cost;
                    came[next as usize] = Some(Crossing {
                        from: areal,
                        edge: l.edge,
                        to: next,
                        to_edge: l.to_edge,
                    });
                    open.push(Open {
                        f: cost + dist2(there, target),
                        g: cost,
                        areal: next,
                    });
                }
            }
        }
        Err(RouteError::Unreachable {
            from: start,
            to: goal,
        })
    }

    fn unwind(&self, came: &[Option<Crossing>], start: u32, goal: u32, cost: f64) -> Route {
        let mut crossings = Vec::new();
        let mut at = goal;
        while at != start {
            let Some(c) = came[at as usize] else { break };
            crossings.push(c);
            at = c.from;
        }
        crossings.reverse();
        let mut areals = vec![start];
        areals.extend(crossings.iter().map(|c| c.to));
        Route {
            areals,
            crossings,
            cost,
        }
    }
}

fn widen2(p: [f32; 2]) -> [f64; 2] {
    [p[0] as f64, p[1] as f64]
}

/// Where segment `p -> q` crosses segment `a -> b`, if it does.
fn crossing(p: [f64; 2], q: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Option<[f64; 2]> {
    let (r, s) = ([q[0] - p[0], q[1] - p[1]], [b[0] - a[0], b[1] - a[1]]);
    let denom = r[0] * s[1] - r[1] * s[0];
    if denom == 0.0 {
        return None;
    }
    let (ax, ay) = (a[0] - p[0], a[1] - p[1]);
    let t = (ax * s[1] - ay * s[0]) / denom;
    let u = (ax * r[1] - ay * r[0]) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u))
        .then(|| [a[0] + u * s[0], a[1] + u * s[1]])
}

/// The point of segment `a -> b` nearest `p`.
fn nearest_on(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    let s = [b[0] - a[0], b[1] - a[1]];
    let length2 = s[0] * s[0] + s[1] * s[1];
    if length2 == 0.0 {
        return a;
    }
    let t = (((p[0] - a[0]) * s[0] + (p[1] - a[1]) * s[1]) / length2).clamp(0.0, 1.0);
    [a[0] + t * s[0], a[1] + t * s[1]]
}

/// The ends of edge `a -> b` each moved `by` toward the other (both at the
/// midpoint when the edge is shorter than twice that).
fn inset_ends(a: [f64; 2], b: [f64; 2], by: f64) -> ([f64; 2], [f64; 2]) {
    let length = dist2(a, b);
    let t = if length > 2.0 * by { by / length } else { 0.5 };
    let at = |t: f64| [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    (at(t), at(1.0 - t))
}
