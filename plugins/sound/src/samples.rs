//! The sounds a mission can play, read by Sound's reader in the mission
//! load (nothing re-reads the install while it runs): every sample an effect's
//! sound emitter names, the `mission.cfg` theme and ambient variations
//! ([`Ambient`]), the messages' voices (`messages.cfg`), the interface
//! voices and the briefing's voices (its `briefing_sounds`), and the
//! install's `iron_3d.ini` volumes. Each sample is
//! decoded once and serves every source that plays it. A sound that is
//! missing, empty or not a wave keeps its outcome (tome VI: `entry_missing`,
//! `entry_empty`, `wave_invalid`) and plays nothing; the mission loads.

use bevy::prelude::*;
use iron3d_formats::config::ambient::{Ambient, briefing_voices};
use iron3d_formats::config::blocks::ObjectConfig;
use iron3d_formats::config::ini::Settings;
use iron3d_formats::config::mission_text::{self, Message};
use iron3d_formats::config::ui_resources;
use iron3d_formats::fxid::emitter::EmitterKind;
use iron3d_formats::sound::{DecodedSound, SoundOutcome, classify};
use iron3d_formats::source::Source;
use iron3d_world::mission::{LoadError, MissionEffects, ReadContext, effect_key};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The mission's description of its sound objects.
const MISSION_CFG: &[u8] = b"mission.cfg";
/// The library of the messages' voices.
pub const VOICES: &[u8] = b"voices.lib";
/// The interface voice of an objective completed (openparkan
/// `docs/34-progression.md`, "Objectives and the end of a mission"), by
/// its `ui/game_resources.cfg` name.
pub const VOICE_OBJ_COMPLETE: &str = "VOICE_OBJ_COMPLETE";
/// The interface voices of the outcomes (the same section).
pub const VOICE_MISSION_COMPLETE: &str = "VOICE_MISSION_COMPLETE";
pub const VOICE_MISSION_FAIL: &str = "VOICE_MISSION_FAIL";
/// The interface voices of a building changing hands (openparkan
/// `docs/27-ownership.md`, "Capture"): the player's clan took it from a
/// neutral clan (or one neutral toward it), from an enemy, or lost one.
pub const VOICE_NBUILD_CAPTURE: &str = "VOICE_NBUILD_CAPTURE";
pub const VOICE_EBUILD_CAPTURE: &str = "VOICE_EBUILD_CAPTURE";
pub const VOICE_BUILD_CAPTURE: &str = "VOICE_BUILD_CAPTURE";
/// Every interface voice a mission may play.
pub const INTERFACE_VOICES: [&str; 6] = [
    VOICE_OBJ_COMPLETE,
    VOICE_MISSION_COMPLETE,
    VOICE_MISSION_FAIL,
    VOICE_NBUILD_CAPTURE,
    VOICE_EBUILD_CAPTURE,
    VOICE_BUILD_CAPTURE,
];

/// A sample as loading left it.
#[derive(Debug, Clone)]
pub enum Sample {
    Decoded(Arc<DecodedSound>),
    /// Why it plays nothing: the outcome's name (tome VI), then the cause.
    Unplayable {
        outcome: &'static str,
        cause: String,
    },
}

/// The bus volumes of the install's `iron_3d.ini` (openparkan
/// `docs/34-progression.md`, "Music": `SFX_VOLUME`, `CD_VOLUME` × 0.01;
/// `PLAY_CD_MUSIC` 0 silences music), each 0..1; 1 where a key is absent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Volumes {
    /// Effects, voices and the ambience (the sound server's volume).
    pub sfx: f32,
    /// Music (the CD's).
    pub music: f32,
}

impl Default for Volumes {
    fn default() -> Self {
        Self {
            sfx: 1.0,
            music: 1.0,
        }
    }
}

impl Volumes {
    fn read(settings: &Settings) -> Self {
        // STAND-IN: the share taken as a linear gain, 1 when the key is
        // absent (the game sets that share of a system mixer control, and
        // its default is not known, docs/34 "Music"); settled by measuring
        // the retail output level at a few `SFX_VOLUME` values.
        let share = |key| {
            settings
                .number(key)
                .map_or(1.0, |v| (v as f32 * 0.01).clamp(0.0, 1.0))
        };
        let music_on = settings.number("PLAY_CD_MUSIC") != Some(0.0);
        Self {
            sfx: share("SFX_VOLUME"),
            music: if music_on { share("CD_VOLUME") } else { 0.0 },
        }
    }
}

/// The ambience as sample keys.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AmbientKeys {
    /// The theme loop.
    pub theme: Option<String>,
    /// The variations by list: default, day, night.
    pub variations: [Vec<String>; 3],
}

/// Every sound the mission can play.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionSounds {
    /// Sample key (`LIBRARY::ENTRY`, upper-cased) -> its sample.
    pub samples: BTreeMap<String, Sample>,
    pub ambient: AmbientKeys,
    pub volumes: Volumes,
    /// What could not be read at load: `origin -> key: outcome: cause`.
    pub faults: Vec<String>,
    /// The interface voices `ui/game_resources.cfg` binds (name -> sample
    /// key), of the names asked at load.
    pub interface_voices: BTreeMap<String, String>,
    /// The briefing's voices `mission.cfg` binds (upper-cased
    /// `SoundResID` -> sample key).
    pub briefing_voices: BTreeMap<String, String>,
}

impl MissionSounds {
    /// The decoded sample of `key`, or why it plays nothing.
    pub fn sample(&self, key: &str) -> Result<&Arc<DecodedSound>, (&'static str, &str)> {
        match self.samples.get(key) {
            Some(Sample::Decoded(sound)) => Ok(sound),
            Some(Sample::Unplayable { outcome, cause }) => Err((outcome, cause)),
            None => Err(("entry_missing", "not read at load")),
        }
    }

    /// Reads the sounds of a mission: its effects' emitters, its
    /// `mission.cfg` ambience and its messages' voices (entries of
    /// `voices.lib`); the volumes of the install's `iron_3d.ini`
    /// (`settings`).
    pub fn read(
        source: &Source,
        mission_dir: &Path,
        (effects, messages): (&MissionEffects, &[Message]),
        settings: Option<&Settings>,
    ) -> Self {
        let mut sounds = Self::default();
        sounds.load_interface_voices(source);
        for voice in messages.iter().filter_map(|m| m.voice.as_deref()) {
            sounds.load(source, "messages.cfg voice", (VOICES, voice.as_bytes()));
        }
        for (effect, fx) in &effects.effects {
            for command in &fx.commands {
                if command.emitter() != Some(EmitterKind::Sound) {
                    continue;
                }
                if let Some(r) = command.resource() {
                    sounds.load(source, effect, (r.archive.name(), r.name.name()));
                }
            }
        }
        let config = match source.read_in_mission(mission_dir, MISSION_CFG) {
            Ok(Some(found)) => ObjectConfig::parse(found.bytes(), "mission.cfg")
                .map(Some)
                .map_err(|e| found.origin.annotate(e).to_string()),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        };
        match config {
            Ok(config) => {
                let ambient = config.as_ref().map(Ambient::read).unwrap_or_default();
                sounds.ambient = sounds.load_ambient(source, &ambient);
                for (name, voice) in config.as_ref().map(briefing_voices).unwrap_or_default() {
                    let (library, entry) = (voice.library.as_bytes(), voice.entry.as_bytes());
                    let origin = format!("mission.cfg briefing_sounds {name}");
                    sounds.load(source, &origin, (library, entry));
                    sounds
                        .briefing_voices
                        .insert(name, effect_key(library, entry));
                }
            }
            Err(cause) => sounds.fault("mission.cfg", "ambience", "unreadable", &cause),
        }
        sounds.volumes = settings.map(Volumes::read).unwrap_or_default();
        sounds
    }

    /// Reads the samples `ui/game_resources.cfg` binds to the interface
    /// voices of [`INTERFACE_VOICES`] (openparkan `docs/34-progression.md`:
    /// `VOICE_OBJ_COMPLETE` is `vc_obj_cpl.wav` there); a name the file
    /// does not bind plays nothing.
    fn load_interface_voices(&mut self, source: &Source) {
        let origin = ui_resources::GAME_RESOURCES;
        let configs = match ui_resources::read_configs(source, &[origin]) {
            Ok(configs) => configs,
            Err(e) => return self.fault(origin, "interface voices", "unreadable", &e.to_string()),
        };
        for name in INTERFACE_VOICES {
            match ui_resources::sound_entry(source, &configs, name) {
                Ok(Some((library, entry))) => {
                    self.load(source, &format!("{origin} {name}"), (&library, &entry));
                    self.interface_voices
                        .insert(name.to_string(), effect_key(&library, &entry));
                }
                Ok(None) => {}
                Err(e) => self.fault(origin, name, "unreadable", &e.to_string()),
            }
        }
    }

    fn load_ambient(&mut self, source: &Source, ambient: &Ambient) -> AmbientKeys {
        let mut key = |origin: &str, r: &iron3d_formats::config::ambient::SoundRef| {
            let (library, entry) = (r.library.as_bytes(), r.entry.as_bytes());
            self.load(source, origin, (library, entry));
            effect_key(library, entry)
        };
        AmbientKeys {
            theme: ambient.theme.as_ref().map(|t| key("mission.cfg THEME", t)),
            variations: [0, 1, 2].map(|list| {
                ambient.variations[list]
                    .iter()
                    .map(|v| key("mission.cfg variation", v))
                    .collect()
            }),
        }
    }

    /// Reads and decodes one sample once; a fault names `origin`.
    fn load(&mut self, source: &Source, origin: &str, (library, entry): (&[u8], &[u8])) {
        let key = effect_key(library, entry);
        if self.samples.contains_key(&key) {
            return;
        }
        let sample = match source.entry(library, entry) {
            Err(e) => Sample::Unplayable {
                outcome: "entry_missing",
                cause: e.to_string(),
            },
            Ok(found) => match classify(found.as_ref().map(|f| f.bytes())) {
                SoundOutcome::Decoded(sound) => Sample::Decoded(Arc::new(sound)),
                SoundOutcome::WaveInvalid(e) => Sample::Unplayable {
                    outcome: "wave_invalid",
                    cause: found.map_or(e.to_string(), |f| f.origin.annotate(e).to_string()),
                },
                SoundOutcome::EntryEmpty => Sample::Unplayable {
                    outcome: "entry_empty",
                    cause: "a zero-length payload".into(),
                },
                SoundOutcome::EntryMissing => Sample::Unplayable {
                    outcome: "entry_missing",
                    cause: "no entry of that name".into(),
                },
            },
        };
        if let Sample::Unplayable { outcome, cause } = &sample {
            self.fault(origin, &key, outcome, cause);
        }
        self.samples.insert(key, sample);
    }

    fn fault(&mut self, origin: &str, key: &str, outcome: &str, cause: &str) {
        let line = format!("{origin} -> {key}: {outcome}: {cause}");
        warn!("sound not played: {line}");
        self.faults.push(line);
    }
}
/// The mission's messages file, whose messages name their voices.
const MESSAGES_CFG: &[u8] = b"messages.cfg";

/// Sound's reader in the mission load (resources phase, after the
/// loader's effects): publishes [`MissionSounds`]. A sound that does not
/// read plays nothing and is kept with its outcome; the load goes on.
pub(crate) fn read_mission_sounds(world: &mut World, load: &ReadContext) -> Result<(), LoadError> {
    let (source, mission_dir) = (load.source(), load.mission_dir());
    let messages = mission_messages(source, mission_dir);
    let sounds = MissionSounds::read(
        source,
        mission_dir,
        (load.effects(), &messages),
        load.game_ini(),
    );
    world.insert_resource(sounds);
    Ok(())
}

/// The mission's `messages.cfg` messages (none when it has none or it
/// does not read: Script reports that with the file), from the parse
/// Script shares.
fn mission_messages(source: &Source, mission_dir: &Path) -> Vec<Message> {
    let found = source
        .read_in_mission(mission_dir, MESSAGES_CFG)
        .ok()
        .flatten();
    found
        .and_then(|found| found.parsed(0, |b| ObjectConfig::parse(b, "cfg")).ok())
        .map(|config| mission_text::messages(&config))
        .unwrap_or_default()
}
