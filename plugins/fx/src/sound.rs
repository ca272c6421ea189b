//! The sound emitters' state in an effect instance; their events are the
//! sound crate's ([`iron3d_sound::SoundEvent`]).

/// A sound emitter's state in its instance.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct SoundPlay {
    /// A one-shot's previous time.
    pub previous: f32,
    /// A loop is playing.
    pub looping: bool,
}
