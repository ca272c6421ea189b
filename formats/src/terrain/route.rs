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
use super::land_map::{Areal, ArealLocator, LandMap};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

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
}

impl std::fmt::Display for RouteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RouteError::StartOutside => write!(f, "the start point lies in no areal"),
            RouteError::GoalOutside => write!(f, "the goal point lies in no areal"),
            RouteError::Unreachable { from, to } => {
                write!(f, "areal {to} cannot be reached from areal {from}")
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

/// Route search over one map; reuse it for many queries (the graph is
/// flattened once: anchors and the crossable edges of every areal).
#[derive(Debug, Clone)]
pub struct Navigator<'m> {
    pub locator: ArealLocator<'m>,
    anchors: Vec<[f64; 2]>,
    /// Crossable edges of areal `a`: `links[starts[a]..starts[a + 1]]`.
    starts: Vec<usize>,
    links: Vec<Link>,
}

impl<'m> Navigator<'m> {
    pub fn new(map: &'m LandMap) -> Self {
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
            locator: ArealLocator::new(map),
            anchors: map
                .areals
                .iter()
                .map(|a| [a.anchor[0] as f64, a.anchor[1] as f64])
                .collect(),
            starts,
            links,
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
        let start = self
            .locator
            .areal_at(from[0], from[1])
            .ok_or(RouteError::StartOutside)?;
        let goal = self
            .locator
            .areal_at(to[0], to[1])
            .ok_or(RouteError::GoalOutside)?;
        let areals = &self.locator.map.areals;
        let (p_from, p_to) = (
            [from[0] as f64, from[1] as f64],
            [to[0] as f64, to[1] as f64],
        );
        let point = |id: u32| -> [f64; 2] {
            if id == start {
                p_from
            } else if id == goal {
                p_to
            } else {
                self.anchors[id as usize]
            }
        };

        let n = areals.len();
        let mut best = vec![f64::INFINITY; n];
        let mut came: Vec<Option<Crossing>> = vec![None; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        best[start as usize] = 0.0;
        open.push(Open {
            f: dist2(p_from, p_to),
            g: 0.0,
            areal: start,
        });
        while let Some(Open { g, areal, .. }) = open.pop() {
            if closed[areal as usize] {
                continue;
            }
            closed[areal as usize] = true;
            if areal == goal {
                return Ok(self.unwind(&came, start, goal, g));
            }
            let here = point(areal);
            for l in &self.links[self.starts[areal as usize]..self.starts[areal as usize + 1]] {
                let (next, mid) = (l.next, l.mid);
                if closed[next as usize] || (next != goal && !passable(&areals[next as usize])) {
                    continue;
                }
                let cost = g + dist2(here, mid) + dist2(mid, point(next));
                if cost < best[next as usize] {
                    best[next as usize] = cost;
                    came[next as usize] = Some(Crossing {
                        from: areal,
                        edge: l.edge,
                        to: next,
                        to_edge: l.to_edge,
                    });
                    open.push(Open {
                        f: cost + dist2(point(next), p_to),
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
