//! Sound heard (tome VI "Звуковая подсистема"; GAMEPLAY §7; openparkan
//! `docs/11-effects.md`): the mission's sound events, which the simulation
//! emits (the sound crate), played in 3D through kira.
//!
//! | step | where | what |
//! |---|---|---|
//! | output | `Last`, `Phase::EndFrameCallbacks` | the windowed game's [`AudioOutputPlugin`]: listener from the camera, kira sounds per event ([`output`], [`mix`]) |
//!
//! The output only reads the simulation: the state hash is the same with
//! and without it.

pub mod capture;
pub mod mix;
pub mod output;

pub use output::{
    AudioControl, AudioDevice, AudioOutputPlugin, BriefingVoices, PlayingSource, PlayingSources,
    SoundOutput,
};
