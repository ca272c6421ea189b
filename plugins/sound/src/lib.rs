//! The simulation's sound (tome VI "Звуковая подсистема"; GAMEPLAY §1, §7;
//! openparkan `docs/11-effects.md`, `docs/34-progression.md`): what the
//! fixed step plays, as events, the same headless and windowed.
//!
//! | step | where | what |
//! |---|---|---|
//! | ambience | [`SimStep::Ambience`] | the mission's theme and variations ([`ambient`]) |
//! | events | the steps that emit them | effects' emitters (fx) and messages' voices (script) push [`SoundEvent`]s through [`SoundSink`]; a sound that did not load is a [`SoundFault`] ([`event`]) |
//!
//! The events, the faults and the ambience's timer and picks are
//! simulation state (the ambience in the state hash, all three in saves).
//! The presentation (the audio crate's kira output) only reads the events
//! and writes the [`Listener`] it hears them from.

pub mod ambient;
pub mod event;
mod listener;
pub mod samples;

pub use ambient::AmbientState;
pub use event::{Bus, SoundEvent, SoundFault, SoundFaults, SoundKind, SoundSink, Sounds};
pub use listener::Listener;
pub use samples::{
    AmbientKeys, INTERFACE_VOICES, MissionSounds, Sample, VOICE_BUILD_CAPTURE,
    VOICE_EBUILD_CAPTURE, VOICE_MISSION_COMPLETE, VOICE_MISSION_FAIL, VOICE_NBUILD_CAPTURE,
    VOICE_OBJ_COMPLETE, VOICES, Volumes,
};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, SimStep};
use iron3d_world::mission::{MissionPhase, MissionReaderExt, MissionScopeExt};
use iron3d_world::save::AppSaveExt;

/// The simulation's sound: events, faults and the ambience. Needs the
/// spine and the mission plugin.
pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.add_mission_reader(MissionPhase::Resources, samples::read_mission_sounds)
            .remove_on_unload::<MissionSounds>()
            .init_mission_resource::<Sounds>()
            .init_mission_resource::<SoundFaults>()
            .init_mission_resource::<AmbientState>()
            .add_systems(
                FixedUpdate,
                ambient::play_ambience.in_set(SimStep::Ambience),
            )
            .add_state_hash("ambient", ambient::hash_ambient)
            // The sounds played so far stay the mission's log; a loaded
            // save's output starts at its end (its loops playing again).
            .save_resource::<AmbientState>("ambient")
            .save_resource::<Sounds>("sounds")
            .save_resource::<SoundFaults>("sound_faults");
    }
}
