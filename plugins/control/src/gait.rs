//! The controller's animation state graph (docs/facts.md "Control states";
//! openparkan `docs/24-motion.md` "Playing a state" and "Which state comes
//! next"): a mover plays one section-1 state at a time, a step at a time, on
//! a clock of its own; an anchor state plans the next run of states by the
//! cheapest path to an anchor whose velocity and spin boxes hold the
//! mover's motion. The frames a step plays are what [`crate::pose`] shows.
//!
//! Everything here is simulation state (hashed): which state, the queue,
//! the step's start and length, the blend weights and the use counts.

use crate::PhysicalState;
use crate::footing::Footing;
use bevy::prelude::*;
use iron3d_formats::proto::ctld::{
    STATE_ANCHOR, STATE_BY_VELOCITY, STATE_FIXED, STATE_JITTER, StateRecord,
};
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{
    ContactCondition, Controller, ControllerStates, NodeLife, NodeRef, RngStreams, StateFoot,
};
use iron3d_world::{ObjectRegistry, PendingDelete};
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Arc;

/// A transition cost at or above this is no edge.
const NO_EDGE: f32 = 1_000_000.0;
/// A step is held to this many seconds.
const STEP_MIN: f64 = 0.01;
const STEP_MAX: f64 = 5.0;
/// A fixed-length velocity-driven step is cut so that speed × step stays
/// within this many metres.
const FIXED_STEP_REACH: f64 = 5.0;
/// The jitter of a flagged step: up to this fraction either way.
const JITTER: f64 = 0.125;
/// The RNG stream of the jitter.
const JITTER_STREAM: &str = "control_gait_jitter";

/// A controller's graph as the planner uses it: the states, the live
/// costs (the file's scaled at load, row the destination) and the strides.
#[derive(Debug, Clone, PartialEq)]
pub struct GaitGraph {
    pub states: Vec<StateRecord>,
    /// `costs[to * n + from]`, scaled: `file × (1 + velocity gap + spin
    /// gap)`.
    pub costs: Vec<f32>,
    pub strides: Vec<[f32; 2]>,
    /// Per state, what it asks of its contacts' nodes.
    pub conditions: Vec<Vec<ContactCondition>>,
    /// Per state, its contacts as feet.
    pub feet: Vec<Vec<StateFoot>>,
}

impl GaitGraph {
    /// The planner's graph of a controller's states (none without states).
    pub fn new(read: &ControllerStates) -> Option<Self> {
        let n = read.states.len();
        if n == 0 || read.costs.len() != n * n {
            return None;
        }
        let costs = (0..n * n)
            .map(|at| {
                let (to, from) = (at / n, at % n);
                let gaps = gap(&read.states[to].velocity, &read.states[from], 0x1)
                    + gap(&read.states[to].spin, &read.states[from], 0x10);
                read.costs[at] * (1.0 + gaps)
            })
            .collect();
        Some(Self {
            states: read.states.clone(),
            costs,
            strides: read.strides.clone(),
            conditions: read.conditions.clone(),
            feet: read.feet.clone(),
        })
    }

    /// Whether state `to` applies to `motion` with the nodes `destroyed`
    /// says are gone: inside its boxes ([`applies`]), every contact that
    /// needs an intact node on one and every one that needs a destroyed
    /// node on a destroyed one (openparkan `docs/13-control.md`: the
    /// walkers limp on a leg shot off).
    pub fn allows(&self, to: usize, motion: &Motion, destroyed: &impl Fn(usize) -> bool) -> bool {
        let contacts_hold = self.conditions.get(to).is_none_or(|all| {
            all.iter()
                .all(|c| c.node.is_some_and(destroyed) != c.intact)
        });
        applies(&self.states[to], motion) && contacts_hold
    }

    fn cost(&self, to: usize, from: usize) -> f32 {
        self.costs[to * self.states.len() + from]
    }

    /// The cheapest run of states from `from` to `to` (Dijkstra), without
    /// `from` and ending on `to`; `to == from` is a whole cycle. Ties keep
    /// the lower state index. `None`: no path.
    pub fn path(&self, from: usize, to: usize) -> Option<(f32, Vec<usize>)> {
        let n = self.states.len();
        let mut best = vec![f32::INFINITY; n];
        let mut back = vec![usize::MAX; n];
        let mut done = vec![false; n];
        let mut open = BinaryHeap::new();
        let relax = |at: usize, cost: f32, best: &mut Vec<f32>, back: &mut Vec<usize>| {
            let mut found = Vec::new();
            for next in 0..n {
                let edge = self.cost(next, at);
                // STAND-IN: no-edge is tested on the live (scaled) cost,
                // not the file's (docs/24 "Which state comes next" leaves
                // it open); settled by reading the planner's test in the
                // control DLL at `0x10001790`'s caller.
                if (0.0..NO_EDGE).contains(&edge) && cost + edge < best[next] {
                    best[next] = cost + edge;
                    back[next] = at;
                    found.push(Open(cost + edge, next));
                }
            }
            found
        };
        // `from` itself is not reached until a path returns to it.
        open.extend(relax(from, 0.0, &mut best, &mut back));
        while let Some(Open(cost, at)) = open.pop() {
            if done[at] || cost > best[at] {
                continue;
            }
            done[at] = true;
            if at == to {
                let mut run = vec![at];
                let mut step = back[at];
                while step != from {
                    run.push(step);
                    step = back[step];
                }
                run.reverse();
                return Some((cost, run));
            }
            open.extend(relax(at, cost, &mut best, &mut back));
        }
        None
    }
}

/// The velocity (`first_bit` 0x1) or spin (0x10) gap between two states
/// the live costs scale by: over the axes the source switches on, the
/// largest distance from the centre of the destination's box to the
/// source's minimum.
fn gap(dest: &[[f32; 3]; 2], source: &StateRecord, first_bit: u32) -> f32 {
    let source_box = if first_bit == 0x1 {
        &source.velocity
    } else {
        &source.spin
    };
    (0..3)
        .filter(|&k| source.box_flags & (first_bit << k) != 0)
        .map(|k| ((dest[0][k] * 0.5 + dest[1][k] * 0.5) - source_box[0][k]).abs())
        .fold(0.0, f32::max)
}

/// A heap entry: the cheapest cost first, then the lower state.
#[derive(PartialEq)]
struct Open(f32, usize);

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The mover's motion as the state boxes test it: velocity in its own
/// frame (x right, y forward, z up) and spin (z yaw, + to the left).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Motion {
    pub velocity: [f32; 3],
    pub spin: [f32; 3],
}

impl Motion {
    /// The motion of `state` for a body turned by `rotation`.
    pub fn of(state: &PhysicalState, rotation: Quat) -> Self {
        let local = rotation.inverse() * state.linear_velocity;
        let spin = rotation.inverse() * state.angular_velocity;
        Self {
            velocity: [local.x, -local.z, local.y],
            spin: [spin.x, -spin.z, spin.y],
        }
    }

    /// The largest velocity component: the speed a step is timed by.
    fn speed(&self) -> f32 {
        self.velocity.iter().fold(0.0, |m, v| m.max(v.abs()))
    }
}

/// Whether `state` applies to `motion`: inside every box axis its flags
/// switch on.
pub fn applies(state: &StateRecord, motion: &Motion) -> bool {
    (0..3).all(|k| {
        let inside = |on: bool, b: &[[f32; 3]; 2], v: f32| !on || (b[0][k] <= v && v <= b[1][k]);
        inside(
            state.box_flags & (1 << k) != 0,
            &state.velocity,
            motion.velocity[k],
        ) && inside(
            state.box_flags & (0x10 << k) != 0,
            &state.spin,
            motion.spin[k],
        )
    })
}

/// A mover's place in its state graph.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Gait {
    pub graph: Arc<GaitGraph>,
    /// The state playing.
    pub current: usize,
    /// The states planned after it.
    pub queue: VecDeque<usize>,
    /// Game time (s) the step started, and its length (s).
    pub step_start: f64,
    pub step_length: f64,
    /// The blend toward pair B of the previous step and of this one.
    pub previous_q: f32,
    pub q: f32,
    /// Per state, how many more times the planner may choose it (-1:
    /// unlimited).
    pub uses: Vec<i32>,
    /// The states taken this tick, in order: each runs its section-5
    /// group (`+0x90`) after the step (the effects plugin carries it
    /// out). This tick's output, not state.
    pub entered: Vec<usize>,
}

/// The frames a step plays at a moment: pair A's frame, pair B's, and the
/// weight toward B.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GaitFrame {
    pub a: f32,
    pub b: f32,
    pub weight: f32,
}

impl Gait {
    /// State 0, its first step starting at `now`.
    pub fn new(graph: Arc<GaitGraph>, now: f64) -> Self {
        let uses = graph.states.iter().map(|s| s.use_count).collect();
        Self {
            graph,
            current: 0,
            queue: VecDeque::new(),
            step_start: now,
            step_length: 0.0,
            previous_q: 1.0,
            q: 1.0,
            uses,
            entered: Vec::new(),
        }
    }

    /// The state playing.
    pub fn state(&self) -> &StateRecord {
        &self.graph.states[self.current]
    }

    /// Runs every step due by `now` (s): an anchor plans, the next state
    /// is taken off the queue (and listed in [`Gait::entered`]), and its
    /// step is timed from `motion`.
    /// `destroyed` tells which nodes of the chassis are gone; `jitter`
    /// gives a uniform value in 0..1 for a jittered step.
    pub fn advance(
        &mut self,
        now: f64,
        motion: &Motion,
        destroyed: impl Fn(usize) -> bool,
        mut jitter: impl FnMut() -> f64,
    ) {
        self.entered.clear();
        while self.step_start + self.step_length <= now {
            if self.state().has(STATE_ANCHOR) {
                self.plan(motion, &destroyed);
            }
            if let Some(next) = self.queue.pop_front() {
                self.current = next;
            }
            self.entered.push(self.current);
            self.step_start += self.step_length;
            self.previous_q = self.q;
            self.q = self.blend(motion);
            self.step_length = self.length(motion, &mut jitter);
        }
    }

    /// An anchor that still applies queues the cycle back to itself; one
    /// that does not queues the cheapest path to another anchor that does
    /// (spending one of that anchor's uses).
    fn plan(&mut self, motion: &Motion, destroyed: &impl Fn(usize) -> bool) {
        let from = self.current;
        let graph = self.graph.clone();
        let path = if graph.allows(from, motion, destroyed) {
            graph.path(from, from)
        } else {
            let target = (0..graph.states.len())
                .filter(|&to| to != from && self.uses[to] != 0)
                .filter(|&to| graph.states[to].has(STATE_ANCHOR))
                .filter(|&to| graph.allows(to, motion, destroyed))
                .filter_map(|to| graph.path(from, to))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some(&to) = target.as_ref().and_then(|(_, run)| run.last())
                && self.uses[to] > 0
            {
                self.uses[to] -= 1;
            }
            target
        };
        if let Some((_, run)) = path {
            self.queue = run.into();
        }
    }

    /// q: 1, except on a state neither velocity-driven nor fixed in length,
    /// where it grows from the blend base with the speed across the
    /// velocity box.
    fn blend(&self, motion: &Motion) -> f32 {
        let s = self.state();
        if s.has(STATE_BY_VELOCITY) || s.has(STATE_FIXED) || s.length_ms > 0.0 {
            return 1.0;
        }
        let axes: Vec<usize> = (0..3).filter(|&k| s.box_flags & (1 << k) != 0).collect();
        let largest = |side: usize| {
            axes.iter()
                .fold(0.0f32, |m, &k| m.max(s.velocity[side][k].abs()))
        };
        // STAND-IN: lo the smaller of the largest |min| and the largest
        // |max| over the switched-on axes, D (`span`) their largest span
        // (docs/24 "Playing a state" leaves lo open and calls the span a
        // guess); settled by reading the blend in the control DLL.
        let lo = largest(0).min(largest(1));
        let span = axes
            .iter()
            .fold(0.0f32, |m, &k| m.max(s.velocity[1][k] - s.velocity[0][k]));
        let p = if span > 0.0 && span.is_finite() {
            ((motion.speed() - lo) / span).clamp(0.0, 1.0)
        } else {
            1.0
        };
        p + (1.0 - p) * s.blend
    }

    /// The step's length (s): the state's fixed length (a velocity-driven
    /// one cut to reach at most 5 m), else its blended stride over the
    /// speed; jittered by up to ±12.5 % when flagged; held to 0.01–5 s.
    fn length(&self, motion: &Motion, jitter: &mut impl FnMut() -> f64) -> f64 {
        let s = self.state();
        let speed = f64::from(motion.speed());
        let mut length = if s.length_ms > 0.0 {
            let fixed = f64::from(s.length_ms) / 1000.0;
            let cut = s.has(STATE_BY_VELOCITY) && !s.has(STATE_FIXED);
            if cut && speed * fixed > FIXED_STEP_REACH {
                FIXED_STEP_REACH / speed
            } else {
                fixed
            }
        } else {
            let [a, b] = self.graph.strides[self.current];
            let q = f64::from(self.q);
            ((1.0 - q) * f64::from(a) + q * f64::from(b)) / speed
        };
        if s.has(STATE_JITTER) {
            length *= 1.0 + JITTER * (2.0 * jitter() - 1.0);
        }
        if length.is_nan() {
            length = STEP_MAX;
        }
        length.clamp(STEP_MIN, STEP_MAX)
    }

    /// The frames played at `now`: phase s = (now − start) ÷ length held to
    /// 0–1 moves each pair from its first frame to its last; the weight
    /// eases from the last step's q to this one's over the first quarter.
    pub fn frame(&self, now: f64) -> GaitFrame {
        let s = self.state();
        let phase = if self.step_length > 0.0 {
            ((now - self.step_start) / self.step_length).clamp(0.0, 1.0) as f32
        } else {
            0.0
        };
        let along = |[first, last]: [f32; 2]| first + phase * (last - first);
        let u = (4.0 * phase).min(1.0);
        GaitFrame {
            a: along(s.frames_a),
            b: along(s.frames_b),
            weight: (1.0 - u) * self.previous_q + u * self.q,
        }
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        (
            attach_gaits.in_set(iron3d_schedules::SimStep::Attach),
            advance_gaits.in_set(iron3d_schedules::SimStep::Animate),
        ),
    );
}

/// Gives every mover whose controller has states its place in the graph,
/// in id order. Movers sharing a controller share its planner's graph,
/// built once (kept while some object still holds the controller).
fn attach_gaits(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    movers: Query<&Controller, (Without<Gait>, Without<PendingDelete>)>,
    mut graphs: Local<Vec<(Arc<ControllerStates>, Arc<GaitGraph>)>>,
    mut commands: Commands,
) {
    if movers.is_empty() {
        return;
    }
    graphs.retain(|(states, _)| Arc::strong_count(states) > 1);
    let now = clock.elapsed().as_secs_f64();
    for (_, entity) in registry.iter() {
        let Ok(controller) = movers.get(entity) else {
            continue;
        };
        let states = &controller.states;
        let graph = match graphs.iter().find(|(s, _)| Arc::ptr_eq(s, states)) {
            Some((_, graph)) => graph.clone(),
            None => {
                let Some(graph) = GaitGraph::new(states) else {
                    continue;
                };
                graphs.push((states.clone(), Arc::new(graph)));
                graphs[graphs.len() - 1].1.clone()
            }
        };
        let gait = Gait::new(graph, now);
        let footing = Footing::standing(&gait);
        commands.entity(entity).insert((gait, footing));
    }
}

/// Every mover's steps due by the end of this tick, in id order, timed
/// by its resolved motion.
pub(crate) fn advance_gaits(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    mut rng: ResMut<RngStreams>,
    mut movers: Query<GaitInputs, Without<PendingDelete>>,
) {
    let now = clock.elapsed().as_secs_f64();
    for (_, entity) in registry.iter() {
        let Ok((mut gait, state, transform, controller, life)) = movers.get_mut(entity) else {
            continue;
        };
        let motion = Motion::of(state, transform.rotation);
        let part = controller.part;
        let destroyed = |node| life.is_some_and(|l| l.of(NodeRef { part, node }) <= 0.0);
        let jitter = || rng.next_u64(JITTER_STREAM) as f64 / (u64::MAX as f64 + 1.0);
        gait.advance(now, &motion, destroyed, jitter);
    }
}

type GaitInputs<'a> = (
    &'a mut Gait,
    &'a PhysicalState,
    &'a Transform,
    &'a Controller,
    Option<&'a NodeLife>,
);

/// State-hash contributor: every mover's place in its graph, in id order.
pub(crate) fn hash_gaits(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(gait) = world.get::<Gait>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        hasher.field("states");
        hasher.write_u32(gait.current as u32);
        hasher.write_u32(gait.queue.len() as u32);
        for &state in &gait.queue {
            hasher.write_u32(state as u32);
        }
        hasher.field("step");
        hasher.write_u64(gait.step_start.to_bits());
        hasher.write_u64(gait.step_length.to_bits());
        hasher.field("q");
        hasher.write_u32(gait.previous_q.to_bits());
        hasher.write_u32(gait.q.to_bits());
        hasher.field("uses");
        for &uses in &gait.uses {
            hasher.write_u32(uses as u32);
        }
        if let Some(footing) = world.get::<Footing>(entity) {
            hasher.field("planted");
            hasher.write_u32(footing.planted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A forward-speed state: anchor, box vy `lo..hi`, frames 0..8.
    fn forward(lo: f32, hi: f32, mode: u32, length_ms: f32) -> StateRecord {
        StateRecord {
            box_flags: 0x2,
            mode: STATE_ANCHOR | mode,
            frames_a: [0.0, 8.0],
            frames_b: [10.0, 18.0],
            length_ms,
            velocity: [[-f32::MAX, lo, -f32::MAX], [f32::MAX, hi, f32::MAX]],
            ..StateRecord::IDLE
        }
    }

    /// Stand, walk and run, every edge costing 1 (staying 0); strides 2 m.
    fn graph(states: Vec<StateRecord>) -> Arc<GaitGraph> {
        let n = states.len();
        let read = ControllerStates {
            costs: (0..n * n)
                .map(|at| if at / n == at % n { 0.0 } else { 1.0 })
                .collect(),
            strides: vec![[2.0, 4.0]; n],
            conditions: vec![Vec::new(); n],
            feet: vec![Vec::new(); n],
            states,
        };
        Arc::new(GaitGraph::new(&read).unwrap())
    }

    /// No node destroyed.
    fn whole(_: usize) -> bool {
        false
    }

    fn walker() -> Arc<GaitGraph> {
        graph(vec![
            forward(-0.5, 0.5, 0, 200.0),
            forward(0.5, 5.0, STATE_BY_VELOCITY, 600.0),
            forward(5.0, 20.0, STATE_BY_VELOCITY, 400.0),
        ])
    }

    fn moving(vy: f32) -> Motion {
        Motion {
            velocity: [0.0, vy, 0.0],
            spin: [0.0; 3],
        }
    }

    #[test]
    fn the_cheapest_path_skips_missing_edges_and_a_cycle_returns_home() {
        // Every edge missing but these (to, from, cost): 0 -> 3 direct
        // costs 5, 0 -> 1 -> 2 -> 3 costs 3, and only 3 leads back to 0.
        let edges = [
            (3, 0, 5.0),
            (1, 0, 1.0),
            (2, 1, 1.0),
            (3, 2, 1.0),
            (0, 3, 2.0),
        ];
        let mut costs = vec![NO_EDGE; 16];
        for (to, from, cost) in edges {
            costs[to * 4 + from] = cost;
        }
        let mut g = GaitGraph {
            states: vec![StateRecord::IDLE; 4],
            costs,
            strides: vec![[0.0; 2]; 4],
            conditions: vec![Vec::new(); 4],
            feet: vec![Vec::new(); 4],
        };
        assert_eq!(g.path(0, 3), Some((3.0, vec![1, 2, 3])));
        // The cycle 0 -> ... -> 0 goes through 3 (the only edge into 0).
        assert_eq!(g.path(0, 0), Some((5.0, vec![1, 2, 3, 0])));
        // Nothing leaves 3 but to 0: 3 -> 1 passes 0.
        assert_eq!(g.path(3, 1), Some((3.0, vec![0, 1])));
        g.costs[3] = NO_EDGE;
        assert_eq!(g.path(3, 1), None);
    }

    #[test]
    fn live_costs_grow_with_the_gap_between_the_boxes() {
        let g = walker();
        // Into walk (centre vy 2.75) from stand (min vy -0.5): 1 × (1 + 3.25).
        assert_eq!(g.cost(1, 0), 4.25);
        // Staying costs nothing, however far.
        assert_eq!(g.cost(1, 1), 0.0);
    }

    #[test]
    fn a_state_applies_inside_the_boxes_it_switches_on() {
        let walk = forward(0.5, 5.0, 0, 0.0);
        assert!(applies(&walk, &moving(3.0)));
        assert!(!applies(&walk, &moving(6.0)));
        // Sideways and spin are not switched on: anything goes.
        let sideways = Motion {
            velocity: [100.0, 3.0, -4.0],
            spin: [0.0, 0.0, 9.0],
        };
        assert!(applies(&walk, &sideways));
        let turning = StateRecord {
            box_flags: 0x40,
            spin: [[0.0, 0.0, 0.1], [0.0, 0.0, 2.0]],
            ..StateRecord::IDLE
        };
        assert!(!applies(&turning, &sideways));
        assert!(applies(&StateRecord::IDLE, &sideways));
    }

    #[test]
    fn an_anchor_that_stops_applying_moves_to_the_anchor_that_does() {
        let mut gait = Gait::new(walker(), 0.0);
        gait.advance(0.0, &moving(0.0), whole, || 0.5);
        assert_eq!((gait.current, gait.step_length), (0, 0.2));
        // Still standing: the stand cycles on itself, a step every 0.2 s.
        gait.advance(0.3, &moving(0.0), whole, || 0.5);
        assert_eq!(gait.current, 0);
        assert!((gait.step_start - 0.2).abs() < 1e-12);
        // Walking speed: the next step is the walk.
        gait.advance(0.45, &moving(3.0), whole, || 0.5);
        assert_eq!((gait.current, gait.step_length), (1, 0.6));
        // Running: at the end of the walk step the run takes over.
        gait.advance(0.9, &moving(8.0), whole, || 0.5);
        assert_eq!(gait.current, 1, "the walk step is not over yet");
        gait.advance(1.1, &moving(8.0), whole, || 0.5);
        assert_eq!(gait.current, 2);
    }

    #[test]
    fn a_spent_anchor_is_not_chosen_again() {
        let mut states = walker().states.clone();
        states[1].use_count = 1;
        let mut gait = Gait::new(graph(states), 0.0);
        gait.advance(0.0, &moving(3.0), whole, || 0.5);
        assert_eq!((gait.current, gait.uses[1]), (1, 0));
        // Back to standing, then walking again: the walk has no use left
        // and nothing else applies, so the stand plays on.
        gait.advance(0.7, &moving(0.0), whole, || 0.5);
        assert_eq!(gait.current, 0);
        gait.advance(0.95, &moving(3.0), whole, || 0.5);
        assert_eq!(gait.current, 0);
    }

    #[test]
    fn a_step_is_fixed_cut_to_five_metres_or_a_stride_over_the_speed() {
        let at = |state: StateRecord, vy: f32, jitter: f64| {
            let mut gait = Gait::new(graph(vec![state]), 0.0);
            gait.advance(0.0, &moving(vy), whole, || jitter);
            gait.step_length
        };
        let fixed = forward(-100.0, 100.0, 0, 400.0);
        assert_eq!(at(fixed, 20.0, 0.5), 0.4, "fixed and not by velocity");
        let by_velocity = forward(-100.0, 100.0, STATE_BY_VELOCITY, 400.0);
        assert_eq!(at(by_velocity, 20.0, 0.5), 0.25, "20 m/s × 0.25 s = 5 m");
        assert_eq!(at(by_velocity, 10.0, 0.5), 0.4);
        // No fixed length, by velocity (q = 1): stride B over the speed.
        let strided = forward(-100.0, 100.0, STATE_BY_VELOCITY, 0.0);
        assert_eq!(at(strided, 8.0, 0.5), 0.5);
        assert_eq!(at(strided, 0.0, 0.5), STEP_MAX, "standing still");
        assert_eq!(at(strided, 1000.0, 0.5), STEP_MIN);
        // Jitter: ±12.5 % at the ends of the random range.
        let jittered = forward(-100.0, 100.0, STATE_JITTER, 400.0);
        assert!((at(jittered, 0.0, 0.0) - 0.35).abs() < 1e-12);
        assert!((at(jittered, 0.0, 1.0) - 0.45).abs() < 1e-12);
    }

    #[test]
    fn a_stride_driven_state_blends_toward_b_with_the_speed() {
        // Neither by velocity nor fixed: q = p + (1 − p) × base, p across
        // the box (lo 1 = min(largest |min|, largest |max|), span 4).
        let state = StateRecord {
            blend: 0.2,
            ..forward(1.0, 5.0, 0, 0.0)
        };
        let mut gait = Gait::new(graph(vec![state]), 0.0);
        gait.advance(0.0, &moving(3.0), whole, || 0.5);
        // p = (3 − 1) / 4 = 0.5, q = 0.5 + 0.5 × 0.2 = 0.6.
        assert!((gait.q - 0.6).abs() < 1e-6);
        // The stride is (1 − q) × 2 + q × 4 = 3.2 m, at 3 m/s.
        assert!((gait.step_length - 3.2 / 3.0).abs() < 1e-6);
    }

    #[test]
    fn a_walker_limps_once_the_node_under_a_contact_is_destroyed() {
        // Walk needs node 2 intact; limp (the same box) needs it destroyed.
        let mut read = Arc::unwrap_or_clone(walker()).states;
        read.push(forward(0.5, 5.0, STATE_BY_VELOCITY, 600.0));
        let n = read.len();
        let mut conditions = vec![Vec::new(); n];
        let leg = |intact| ContactCondition {
            node: Some(2),
            intact,
        };
        conditions[1].push(leg(true));
        conditions[3].push(leg(false));
        let graph = Arc::new(
            GaitGraph::new(&ControllerStates {
                costs: (0..n * n).map(|at| f32::from(at / n != at % n)).collect(),
                strides: vec![[2.0, 4.0]; n],
                conditions,
                feet: vec![Vec::new(); n],
                states: read,
            })
            .unwrap(),
        );
        let shot_off = |node: usize| node == 2;
        assert!(graph.allows(1, &moving(3.0), &whole));
        assert!(!graph.allows(3, &moving(3.0), &whole));
        assert!(!graph.allows(1, &moving(3.0), &shot_off));
        assert!(graph.allows(3, &moving(3.0), &shot_off));
        let mut gait = Gait::new(graph.clone(), 0.0);
        gait.advance(0.3, &moving(3.0), whole, || 0.5);
        assert_eq!(gait.current, 1, "walking on two legs");
        let end = gait.step_start + gait.step_length;
        gait.advance(end, &moving(3.0), shot_off, || 0.5);
        assert_eq!(gait.current, 3, "limping");
        // A contact on a point the `.cpt` lacks is never destroyed.
        let none = ContactCondition {
            node: None,
            intact: false,
        };
        let mut g = Arc::unwrap_or_clone(graph);
        g.conditions[3] = vec![none];
        assert!(!g.allows(3, &moving(3.0), &shot_off));
    }

    #[test]
    fn the_frame_moves_along_both_pairs_and_the_weight_eases_in() {
        let mut gait = Gait::new(walker(), 0.0);
        gait.advance(0.0, &moving(0.0), whole, || 0.5);
        gait.previous_q = 0.0;
        // A quarter into the step: frames 2 and 12, the weight fully q.
        let f = gait.frame(0.05);
        assert_eq!((f.a, f.b, f.weight), (2.0, 12.0, 1.0));
        // An eighth in: the weight is halfway from the last q.
        assert_eq!(gait.frame(0.025).weight, 0.5);
        // Past the end the phase holds at 1.
        assert_eq!(gait.frame(9.0).a, 8.0);
    }
}
