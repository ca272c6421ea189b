//! Sound (tome VI "Звуковая подсистема"; GAMEPLAY §1, §7; openparkan
//! `docs/11-effects.md`, `docs/34-progression.md`): the simulation's sound
//! events, and the mission heard in 3D through kira.
//!
//! | step | where | what |
//! |---|---|---|
//! | events | `Phase::UpdateWorld` | effects' sound emitters (the fx plugin) and the ambience ([`ambient`], [`AmbientStep`]) push [`SoundEvent`]s through [`SoundSink`]; a sound that did not load is a [`SoundFault`] |
//! | output | `Last`, `Phase::EndFrameCallbacks` | the windowed game's [`AudioOutputPlugin`]: listener from the camera, kira sounds per event ([`output`], [`mix`]) |
//!
//! The events and faults are simulation output, the same headless and
//! windowed; the ambience's timer and picks are in the state hash
//! (`ambient`). The output only reads.

pub mod ambient;
pub mod capture;
pub mod event;
pub mod mix;
pub mod output;

pub use ambient::AmbientState;
pub use event::{Bus, SoundEvent, SoundFault, SoundFaults, SoundKind, SoundSink, Sounds};
pub use mix::Listener;
pub use output::{
    AudioControl, AudioDevice, AudioOutputPlugin, BriefingVoices, PlayingSource, PlayingSources,
    SoundOutput,
};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, Phase};
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::save::AppSaveExt;

/// The ambience's step inside `Phase::UpdateWorld` (the effects' step runs
/// before it, so events keep one order).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AmbientStep;

/// The simulation's sound: events, faults and the ambience. Needs the
/// spine and the mission plugin.
pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(FixedUpdate, AmbientStep.in_set(Phase::UpdateWorld))
            .init_mission_resource::<Sounds>()
            .init_mission_resource::<SoundFaults>()
            .init_mission_resource::<AmbientState>()
            .init_mission_resource::<BriefingVoices>()
            .add_systems(FixedUpdate, ambient::play_ambience.in_set(AmbientStep))
            .add_state_hash("ambient", ambient::hash_ambient)
            // The sounds played so far stay the mission's log; a loaded
            // save's output starts at its end (its loops playing again).
            .save_resource::<AmbientState>("ambient")
            .save_resource::<Sounds>("sounds")
            .save_resource::<SoundFaults>("sound_faults");
    }
}
