//! Sound events: what the simulation plays, as output of the fixed step
//! (the same list headless and windowed, with or without a device; the
//! presentation turns them into kira instances, the report lists them).
//! A sound whose sample did not load plays nothing: the event is dropped
//! and a fault with its chain is kept ([`SoundSink`]).

use crate::samples::MissionSounds;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use iron3d_world::mission::MissionDescription;
use std::collections::BTreeSet;

/// What a sound event does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SoundKind {
    /// A one-shot starts (again, when it still played).
    Play,
    /// A loop starts.
    Loop,
    /// A loop stops.
    Stop,
    /// A voice joins the voices' queue (never over another voice).
    Voice,
}

impl SoundKind {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            SoundKind::Play => "play",
            SoundKind::Loop => "loop",
            SoundKind::Stop => "stop",
            SoundKind::Voice => "voice",
        }
    }
}

/// The mixer bus a sound plays on, each with its volume.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Bus {
    Effects,
    Voices,
    Music,
    Ambience,
}

impl Bus {
    /// Every bus, in track order.
    pub const ALL: [Bus; 4] = [Bus::Effects, Bus::Voices, Bus::Music, Bus::Ambience];

    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Bus::Effects => "effects",
            Bus::Voices => "voices",
            Bus::Music => "music",
            Bus::Ambience => "ambience",
        }
    }
}

/// One sound event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SoundEvent {
    pub tick: u64,
    /// The sample: `LIBRARY::ENTRY`, upper-cased.
    pub key: String,
    /// The object it follows.
    pub owner: Option<u32>,
    /// World frame, at the event; `None` for a sound without a place (the
    /// theme, variations and voices play beside the listener).
    pub position: Option<Vec3>,
    pub kind: SoundKind,
    pub bus: Bus,
    /// Full volume within `near`; one-shots beyond `far` are not played.
    pub near: f32,
    pub far: f32,
    /// The playback rate: the sample's own frequency times this (1 for a
    /// sound that names none).
    pub rate: f32,
    /// What played it, for the chain of a fault: an effect key or
    /// `mission.cfg THEME` / `mission.cfg variation`.
    pub source: String,
    /// The effect instance that played it (0: none); a loop's stop names
    /// the same instance and key as its start.
    pub effect: u64,
}

/// Every sound event so far.
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct Sounds(pub Vec<SoundEvent>);

/// Sounds that were asked for and played nothing, each chain once:
/// `mission -> object -> effect or script -> library::entry -> outcome:
/// cause`.
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct SoundFaults {
    pub faults: Vec<SoundFault>,
    seen: BTreeSet<String>,
}

/// One sound that played nothing.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SoundFault {
    pub tick: u64,
    pub key: String,
    /// `entry_missing`, `entry_empty` or `wave_invalid` (tome VI).
    pub outcome: String,
    pub chain: String,
}

/// Where the simulation's sound events go: a playable one joins
/// [`Sounds`], one whose sample did not load becomes a [`SoundFault`].
#[derive(SystemParam)]
pub struct SoundSink<'w> {
    sounds: ResMut<'w, Sounds>,
    faults: ResMut<'w, SoundFaults>,
    samples: Option<Res<'w, MissionSounds>>,
    mission: Option<Res<'w, MissionDescription>>,
}

impl SoundSink<'_> {
    /// Plays `event`, or keeps why it cannot play.
    pub fn push(&mut self, event: SoundEvent) {
        let outcome = match &self.samples {
            Some(samples) => samples.sample(&event.key).err(),
            None => Some(("entry_missing", "the mission read no sounds")),
        };
        let Some((outcome, cause)) = outcome else {
            self.sounds.0.push(event);
            return;
        };
        let mission = self.mission.as_ref().map_or("", |m| m.name.as_str());
        let object = event
            .owner
            .map_or_else(|| "no object".to_string(), |id| format!("object {id}"));
        let chain = format!(
            "mission '{mission}' -> {object} -> {} -> {} -> {outcome}: {cause}",
            event.source, event.key
        );
        if self.faults.seen.insert(chain.clone()) {
            warn!("sound not played: {chain}");
            self.faults.faults.push(SoundFault {
                tick: event.tick,
                key: event.key,
                outcome: outcome.to_string(),
                chain,
            });
        }
    }
}
