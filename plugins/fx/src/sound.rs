//! Sound events: what the effects' sound emitters play, as simulation
//! output on the fixed step (the same list headless and windowed; the
//! audio plugin turns them into kira instances, the report lists them).

use bevy::prelude::*;

/// What a sound event does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoundKind {
    /// A one-shot starts (again, when it still played).
    Play,
    /// A loop starts.
    Loop,
    /// A loop stops.
    Stop,
}

impl SoundKind {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            SoundKind::Play => "play",
            SoundKind::Loop => "loop",
            SoundKind::Stop => "stop",
        }
    }
}

/// One sound event.
#[derive(Debug, Clone, PartialEq)]
pub struct SoundEvent {
    pub tick: u64,
    /// The sample: `LIBRARY::ENTRY`, upper-cased.
    pub key: String,
    /// The object it follows.
    pub owner: Option<u32>,
    /// World frame, at the event.
    pub position: Vec3,
    pub kind: SoundKind,
    /// Full volume within `near`; one-shots beyond `far` are not played.
    pub near: f32,
    pub far: f32,
    /// The effect instance that played it.
    pub effect: u64,
}

/// Every sound event so far.
#[derive(Resource, Debug, Default, Clone)]
pub struct Sounds(pub Vec<SoundEvent>);

/// A sound emitter's state in its instance.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SoundPlay {
    /// A one-shot's previous time.
    pub previous: f32,
    /// A loop is playing.
    pub looping: bool,
}
