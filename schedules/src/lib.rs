//! The Iron3D frame spine: the scheduler phases of tome VII as Bevy
//! [`SystemSet`]s in one fixed order, the [`GameClock`] that drives the
//! fixed-step simulation separately from real time, and the canonical
//! [`StateHash`] every subsystem contributes to, and the [`StateSave`] each
//! writes its state into.
//!
//! Every plugin of the engine puts its systems in one of the [`Phase`] sets,
//! and its simulation systems in one of the [`SimStep`]s of the tick table;
//! nothing else decides when a system runs relative to other subsystems.

mod clock;
mod hash;
mod phase;
mod save;
mod step;

pub use clock::{GameClock, SimulationRate};
pub use hash::{AppStateHashExt, FieldDigest, StateHash, StateHasher, Subject};
pub use phase::{Phase, deny_simulation_ambiguities, run_on_one_thread};
pub use ron::value::RawValue;
pub use save::{
    AppStateSaveExt, CheckFn, RestoreFn, SaveFn, SavedSection, SectionError, StateSave, check_as,
    from_section, to_section,
};
pub use step::SimStep;

use bevy::prelude::*;

/// Installs the phases, the game clock and the state hash. Needs Bevy's
/// `TimePlugin` (part of `MinimalPlugins` and `DefaultPlugins`).
#[derive(Debug, Clone, Default)]
pub struct SpinePlugin {
    /// Fixed simulation rate; 30 Hz by default.
    pub rate: SimulationRate,
}

impl Plugin for SpinePlugin {
    fn build(&self, app: &mut App) {
        phase::plugin(app);
        step::plugin(app);
        clock::plugin(app, self.rate);
        hash::plugin(app);
        save::plugin(app);
    }
}
