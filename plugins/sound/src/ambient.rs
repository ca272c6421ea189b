//! The mission's ambience on the fixed step (openparkan
//! `docs/34-progression.md`, "Ambient sound"): the theme loops from the
//! first tick; one variation plays on the first tick and then every
//! 10 + rand % 10 whole seconds of game time, never the same one twice in
//! a row. The draws come from the `ambient` stream; the timer and the last
//! pick are simulation state (in the state hash).
//!
//! The list: the default one when the mission names no day or night
//! variation, else the night list while the level says it is night and the
//! day list otherwise (the night list may be empty: silent nights).
//!
//! Our rules where the game's are not ours to copy: the game's `rand()` and
//! its two-word picker become draws of the named stream; night is the
//! mission's sky with its sun down at the game time (`sky.ske` from its own
//! start; the level's night flag is not known), day without a sky.

use crate::event::{Bus, SoundEvent, SoundKind, SoundSink};
use crate::samples::MissionSounds;
use bevy::prelude::*;
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{MissionSky, RngStreams};

/// The RNG stream of the variation timer and picks.
pub const STREAM: &str = "ambient";
/// The shortest wait between variations, in seconds; `rand() % SPREAD` is
/// added.
pub const WAIT_SECS: u64 = 10;
pub const SPREAD_SECS: u64 = 10;

/// Where the ambience is.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AmbientState {
    /// The theme loop was started.
    pub theme_started: bool,
    /// Game time (ms) of the next variation.
    pub next_ms: u64,
    /// The index of the last variation played in its list.
    pub last: Option<usize>,
}

/// The list that plays (see the module's rules).
fn variation_list(sounds: &MissionSounds, night: bool) -> &[String] {
    let [default, day, night_list] = &sounds.ambient.variations;
    if day.is_empty() && night_list.is_empty() {
        default
    } else if night {
        night_list
    } else {
        day
    }
}

/// A draw below `n` from the ambient stream.
fn below(rng: &mut RngStreams, n: u64) -> u64 {
    rng.next_u64(STREAM) % n
}

/// Plays the theme and the variations that are due.
pub(crate) fn play_ambience(
    clock: Res<GameClock>,
    sounds: Option<Res<MissionSounds>>,
    sky: Option<Res<MissionSky>>,
    mut state: ResMut<AmbientState>,
    mut rng: ResMut<RngStreams>,
    mut sink: SoundSink,
) {
    let Some(sounds) = sounds else { return };
    let tick = clock.tick();
    let event = |key: &str, kind, source: &str| SoundEvent {
        tick,
        key: key.to_string(),
        owner: None,
        position: None,
        kind,
        bus: Bus::Ambience,
        near: 0.0,
        far: 0.0,
        rate: 1.0,
        source: source.to_string(),
        effect: 0,
    };
    if !state.theme_started {
        state.theme_started = true;
        if let Some(theme) = &sounds.ambient.theme {
            sink.push(event(theme, SoundKind::Loop, "mission.cfg THEME"));
        }
    }
    let now = clock.elapsed().as_millis() as u64;
    if now < state.next_ms {
        return;
    }
    state.next_ms = now + 1000 * (WAIT_SECS + below(&mut rng, SPREAD_SECS));
    // STAND-IN: night is the mission's sky with no sun spell at the game
    // time, day without a sky (the level's night flag is not known,
    // docs/34 "Ambient sound"); settled by finding which type-3 object
    // flag the picker reads.
    let night = sky.is_some_and(|s| s.sky.sun_up(None, now) == Some(false));
    let list = variation_list(&sounds, night);
    let pick = match list.len() {
        0 => return,
        1 => 0,
        n => loop {
            let i = below(&mut rng, n as u64) as usize;
            if Some(i) != state.last {
                break i;
            }
        },
    };
    state.last = Some(pick);
    sink.push(event(&list[pick], SoundKind::Play, "mission.cfg variation"));
}

/// State-hash contributor.
pub(crate) fn hash_ambient(world: &World, hasher: &mut StateHasher) {
    let Some(state) = world.get_resource::<AmbientState>() else {
        return;
    };
    hasher.write_u64(u64::from(state.theme_started));
    hasher.write_u64(state.next_ms);
    hasher.write_u64(state.last.map_or(u64::MAX, |i| i as u64));
}
