//! The game clock: simulation time, separate from real time.
//!
//! The simulation advances in fixed steps (`FixedUpdate`, driven by Bevy's
//! `Time<Fixed>` over `Time<Virtual>`). [`GameClock`] is the one authority
//! for pause, time scale and single-stepping: at the start of each frame it
//! is applied to `Time<Virtual>` (pause, relative speed), and a step request
//! while paused puts exactly one timestep into the fixed accumulator. The
//! simulation phases run only while the clock runs (or for a granted
//! step), so a pause made during a frame stops that frame's steps too. Game
//! time itself is `ticks x timestep`, so it is exact and reproducible.

use crate::step::SimStep;
use bevy::prelude::*;
use bevy::time::TimeSystems;
use std::time::Duration;

/// The fixed simulation rate in steps per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimulationRate(pub f64);

impl Default for SimulationRate {
    /// 30 Hz, the default rate of the engine.
    fn default() -> Self {
        Self(30.0)
    }
}

/// Game time, pause, scale and single-step requests.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct GameClock {
    timestep: Duration,
    tick: u64,
    paused: bool,
    scale: f64,
    pending_steps: u32,
    /// Whether this frame was granted one step while paused (a step
    /// request turned into fixed time at the frame's start).
    step_granted: bool,
}

impl GameClock {
    /// A running clock at tick 0 with the given fixed step.
    pub fn new(timestep: Duration) -> Self {
        Self {
            timestep,
            tick: 0,
            paused: false,
            scale: 1.0,
            pending_steps: 0,
            step_granted: false,
        }
    }

    /// Simulation ticks run so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Game time elapsed: `tick x timestep`.
    pub fn elapsed(&self) -> Duration {
        let nanos = self.timestep.as_nanos().saturating_mul(self.tick as u128);
        Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }

    /// Game time elapsed in seconds.
    pub fn elapsed_secs_f64(&self) -> f64 {
        self.tick as f64 * self.timestep.as_secs_f64()
    }

    /// The fixed step.
    pub fn timestep(&self) -> Duration {
        self.timestep
    }

    /// Whether game time is stopped.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Game seconds per real second.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Whether a simulation step may run now: the clock runs, or this
    /// frame was granted a single step. A pause takes effect at once, even
    /// when the frame's fixed time was already measured.
    pub fn runs(&self) -> bool {
        !self.paused || self.step_granted
    }

    /// Stops game time (real time goes on).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Lets game time run again; pending single steps are dropped.
    pub fn resume(&mut self) {
        self.paused = false;
        self.pending_steps = 0;
    }

    /// Sets game seconds per real second. Values that are not finite and
    /// positive are refused (the clock keeps its scale).
    pub fn set_scale(&mut self, scale: f64) -> bool {
        let ok = scale.is_finite() && scale > 0.0;
        if ok {
            self.scale = scale;
        }
        ok
    }

    /// While paused, asks for exactly one more simulation tick (on the next
    /// frame). Ignored while running.
    pub fn request_step(&mut self) {
        if self.paused {
            self.pending_steps = self.pending_steps.saturating_add(1);
        }
    }

    /// Back to tick 0, running, for a mission loaded anew (the step and
    /// the scale stay).
    pub fn rewind(&mut self) {
        *self = Self {
            scale: self.scale,
            ..Self::new(self.timestep)
        };
    }

    /// Sets the tick reached, for a loaded save's state.
    pub fn set_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    /// Feeds the hash of the clock state: the tick and the step. Pause
    /// and scale only say how fast real time turns into ticks (the pause
    /// menu, a loaded save played again fast), not what a tick does, so
    /// a save made while paused is the same state when it runs again.
    pub(crate) fn hash_into(&self, hasher: &mut crate::StateHasher) {
        hasher.write_u64(self.tick);
        hasher.write_u64(self.timestep.as_nanos() as u64);
    }
}

pub(crate) fn plugin(app: &mut App, rate: crate::SimulationRate) {
    let timestep = Duration::from_secs_f64(1.0 / rate.0);
    app.insert_resource(GameClock::new(timestep))
        .insert_resource(Time::<Fixed>::from_duration(timestep))
        .add_systems(First, apply_clock_to_time.before(TimeSystems))
        .add_systems(
            FixedUpdate,
            // What runs after it sees the tick of the step under way.
            advance_game_clock.in_set(SimStep::Clock),
        );
}

/// Applies pause and scale to virtual time before it is updated this frame,
/// and turns one pending single step into one timestep of fixed overstep.
fn apply_clock_to_time(
    mut clock: ResMut<GameClock>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut fixed_time: ResMut<Time<Fixed>>,
) {
    if clock.paused != virtual_time.is_paused() {
        if clock.paused {
            virtual_time.pause();
        } else {
            virtual_time.unpause();
        }
    }
    if virtual_time.relative_speed_f64() != clock.scale {
        virtual_time.set_relative_speed_f64(clock.scale);
    }
    clock.step_granted = clock.paused && clock.pending_steps > 0;
    if clock.step_granted {
        clock.pending_steps -= 1;
        let step = fixed_time.timestep();
        fixed_time.accumulate_overstep(step);
    }
}

/// The simulation phases' run condition: see [`GameClock::runs`].
pub(crate) fn clock_runs(clock: Res<GameClock>) -> bool {
    clock.runs()
}

fn advance_game_clock(mut clock: ResMut<GameClock>) {
    clock.tick += 1;
}
