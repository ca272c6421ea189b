//! RIFF/WAVE sound entries → `bevy_kira_audio::AudioSource`, decoded by the
//! formats crate (PCM 8/16-bit and Microsoft ADPCM, which kira's own WAV
//! decoder does not read) into kira [`StaticSoundData`] frames.
//!
//! **Address**: `iron://sounds.lib/SHOT.WAV.swav`. The extension `swav`
//! (the spec's name for sound resources) selects this loader; the source
//! resolves the entry as given, then without its last extension, so
//! `SHOT.WAV.swav` reads entry `SHOT.WAV`. A plain `*.wav` path would be
//! ambiguous: bevy_kira_audio's own `WavLoader` claims `wav` for the same
//! asset type (and Bevy matches extensions case-sensitively).
//!
//! The four outcomes of a sound load (tome VI) stay distinct:
//! - `entry_missing`: the path does not resolve, Bevy's "not found" failure;
//! - `entry_empty` (retail Part 2 `ALIEN_ME.WAV`): a load failure whose
//!   message names `entry_empty` and the archive entry. An empty entry is a
//!   present key without a waveform, so nothing is played; the payload never
//!   reaches the RIFF parser;
//! - `wave_invalid`: a load failure with the structured error (file, entry,
//!   offset);
//! - `decoded_sample`: the [`AudioSource`].

use crate::parsed::ParsedAsset;
use bevy_kira_audio::AudioSource;
use bevy_kira_audio::prelude::{Frame, StaticSoundData, StaticSoundSettings};
use iron3d_formats::error::FormatError;
use iron3d_formats::sound::{self, DecodedSound, SoundOutcome};

/// The extension that selects the sound loader.
pub const EXTENSION: &str = "swav";

/// Converts interleaved PCM16 to kira frames (full scale = 32768, the
/// convention of kira's own decoders, via symphonia): mono to both sides, stereo as left
/// and right; a sound with more channels keeps its first two.
pub fn to_kira(sound: &DecodedSound) -> StaticSoundData {
    let scale = |s: i16| s as f32 / 32768.0;
    let channels = sound.channels.max(1) as usize;
    let frames: Vec<Frame> = sound
        .samples
        .chunks_exact(channels)
        .map(|f| match f {
            [mono] => Frame::from_mono(scale(*mono)),
            [left, right, ..] => Frame::new(scale(*left), scale(*right)),
            [] => Frame::ZERO,
        })
        .collect();
    StaticSoundData {
        sample_rate: sound.sample_rate,
        frames: frames.into(),
        settings: StaticSoundSettings::default(),
        slice: None,
    }
}

/// Decodes a sound payload; an empty one is the `entry_empty` error.
pub fn decode(bytes: &[u8]) -> Result<DecodedSound, FormatError> {
    match sound::classify(Some(bytes)) {
        SoundOutcome::Decoded(sound) => Ok(sound),
        SoundOutcome::WaveInvalid(err) => Err(err),
        outcome @ (SoundOutcome::EntryEmpty | SoundOutcome::EntryMissing) => {
            Err(FormatError::invalid(
                "WAVE",
                0,
                format!("{}: a non-empty sound payload", outcome.name()),
                "0 bytes",
            ))
        }
    }
}

/// Served by [`crate::parsed::ParsedLoader`]: errors name the archive and
/// entry of the bytes.
impl ParsedAsset for AudioSource {
    const EXTENSIONS: &'static [&'static str] = &[EXTENSION];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(AudioSource {
            sound: to_kira(&decode(bytes)?),
        })
    }
}
