//! The presentation: [`Sounds`] heard through a kira mixer (tome VI
//! "Звуковая подсистема"). One sub-track per [`Bus`] with the install's
//! volume; one kira sound per event, made from the one decoded sample of
//! its key; the listener is the camera's frame of the frame being drawn
//! (in `Last`, `Phase::EndFrameCallbacks`: after transforms propagate,
//! before the renderer extracts the frame), each
//! source follows its object, its gain and pan set every frame
//! ([`crate::mix`]). Voices queue and never overlap. Game pause pauses
//! every bus (loops keep their place); mute silences the main track and
//! keeps every source running. The briefing's voices ([`BriefingVoices`])
//! play at once on a sub-track of their own, which the game pause (the
//! briefing stops the clock) leaves alone.
//!
//! The mixer is generic over kira's backend: the game plays on cpal's
//! device, tests on [`crate::capture::CaptureBackend`]. bevy_kira_audio
//! 0.26 builds its manager on cpal's backend alone, which a test cannot
//! read back, so this plugin owns its own manager of the same kira. No
//! device is an explicit state ([`AudioDevice::Missing`]): the mixer is
//! absent and the simulation is unchanged.

use crate::mix::{beyond_far, decibels, heard};
use bevy::camera::RenderTarget;
use bevy::prelude::*;
use iron3d_schedules::{GameClock, Phase};
use iron3d_sound::{Bus, Listener, SoundEvent, SoundKind, Sounds};
use iron3d_sound::{MissionSounds, Volumes};
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use kira::backend::Backend;
use kira::sound::PlaybackState;
use kira::sound::static_sound::{StaticSoundData, StaticSoundHandle};
use kira::track::{TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Decibels, Tween};
use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;

/// Sounds one bus holds at once; a sound past it is not played.
const SOUNDS_PER_BUS: usize = 256;
/// Game seconds after which a one-shot sound or voice not yet taken is
/// no longer played: a loaded save's log (its loops still running start).
const STALE_S: f64 = 1.0;

/// Whether there is a device to play on.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub enum AudioDevice {
    Open,
    /// No device: why (tome VI: "3D Sound was not initialized").
    Missing(String),
}

/// The player's switches over the output.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct AudioControl {
    /// Silence everything; sources keep their place and run on.
    pub muted: bool,
    /// The player's volumes (the settings menu's), in place of the
    /// install's `iron_3d.ini` ones; `None` keeps the install's.
    pub volumes: Option<Volumes>,
}

/// A source being heard, as the inspector shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayingSource {
    pub key: String,
    pub owner: Option<u32>,
    pub bus: Bus,
    pub looped: bool,
    pub position: Option<Vec3>,
    pub gain: f32,
    pub pan: f32,
    /// Seconds into the sample.
    pub time: f64,
}

/// The briefing's voices (openparkan `docs/21-briefing.md`, "How the
/// briefing is shown": a waypoint's voice starts as the flight arrives
/// there, at once, past the voices' queue, stopping nothing). The
/// briefing flies on real time outside the simulation, so these are the
/// presentation's own requests, taken every frame.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct BriefingVoices {
    /// Sample keys to start now.
    pub start: Vec<String>,
    /// Stop the ones still speaking (Esc skipped the briefing).
    // STAND-IN: Esc stops the briefing voices still speaking (docs/21 does
    // not say what an ended briefing does to its voice); settled by
    // skipping a retail briefing mid-line.
    pub hush: bool,
}

/// Every source being heard this frame.
#[derive(Resource, Debug, Clone, Default)]
pub struct PlayingSources(pub Vec<PlayingSource>);

/// A sound playing for an event.
struct Source {
    event: SoundEvent,
    /// Its place in its object's frame, while it follows one.
    offset: Option<Vec3>,
    position: Option<Vec3>,
    handle: StaticSoundHandle,
}

/// The mixer and what it plays.
pub struct SoundOutput<B: Backend> {
    manager: AudioManager<B>,
    /// One sub-track per bus, in [`Bus::ALL`] order.
    tracks: Vec<TrackHandle>,
    /// One decoded sample per key, shared by every source of it.
    samples: HashMap<String, StaticSoundData>,
    sources: Vec<Source>,
    voices: VecDeque<SoundEvent>,
    voice: Option<StaticSoundHandle>,
    /// The briefing's sub-track and its voices speaking.
    briefing: TrackHandle,
    briefing_voices: Vec<StaticSoundHandle>,
    /// Events of [`Sounds`] already taken.
    read: usize,
    volumes: Option<Volumes>,
    paused: bool,
    muted: bool,
}

impl<B: Backend> SoundOutput<B> {
    fn new(mut manager: AudioManager<B>) -> Option<Self> {
        let mut track =
            || manager.add_sub_track(TrackBuilder::new().sound_capacity(SOUNDS_PER_BUS));
        let tracks = Bus::ALL
            .iter()
            .map(|_| track())
            .collect::<Result<Vec<_>, _>>()
            .ok()?;
        let briefing = track().ok()?;
        Some(Self {
            manager,
            tracks,
            briefing,
            briefing_voices: Vec::new(),
            samples: HashMap::new(),
            sources: Vec::new(),
            voices: VecDeque::new(),
            voice: None,
            read: 0,
            volumes: None,
            paused: false,
            muted: false,
        })
    }

    /// Stops every source and voice and forgets the mission's samples and
    /// events (the mission was unloaded; the next one starts silent).
    fn silence(&mut self) {
        for source in &mut self.sources {
            source.handle.stop(Tween::default());
        }
        if let Some(voice) = &mut self.voice {
            voice.stop(Tween::default());
        }
        self.hush_briefing();
        self.sources.clear();
        self.voices.clear();
        self.voice = None;
        self.samples.clear();
        self.read = 0;
    }

    /// The backend (tests pull a capture backend's output through it).
    pub fn backend_mut(&mut self) -> &mut B {
        self.manager.backend_mut()
    }

    /// Voices waiting for the one speaking.
    pub fn voices_waiting(&self) -> usize {
        self.voices.len()
    }

    fn track(&mut self, bus: Bus) -> &mut TrackHandle {
        let index = Bus::ALL.iter().position(|&b| b == bus).unwrap_or(0);
        &mut self.tracks[index]
    }

    /// The kira data of `key`, converted once.
    fn sample(&mut self, sounds: &MissionSounds, key: &str) -> Option<StaticSoundData> {
        if let Some(data) = self.samples.get(key) {
            return Some(data.clone());
        }
        let data = iron3d_assets::sound::to_kira(sounds.sample(key).ok()?);
        self.samples.insert(key.to_string(), data.clone());
        Some(data)
    }

    /// Starts the sound of `event`, heard from `listener`.
    fn start(
        &mut self,
        sounds: &MissionSounds,
        event: &SoundEvent,
        listener: &Listener,
        owner: Option<&GlobalTransform>,
    ) -> Option<Source> {
        let looped = event.kind == SoundKind::Loop;
        if !looped && beyond_far(listener, event.position, event.far) {
            return None;
        }
        let (gain, pan) = heard(listener, event.position, event.near);
        let mut data = self
            .sample(sounds, &event.key)?
            .volume(decibels(gain))
            .panning(pan)
            .playback_rate(f64::from(event.rate));
        if looped {
            data = data.loop_region(..);
        }
        let handle = self.track(event.bus).play(data).ok()?;
        Some(Source {
            offset: owner
                .zip(event.position)
                .map(|(frame, p)| frame.affine().inverse().transform_point3(p)),
            position: event.position,
            event: event.clone(),
            handle,
        })
    }

    /// Plays the events not taken yet that are still due at tick
    /// `fresh_from` or later: one-shots and voices of their tick, loops
    /// not stopped by then.
    fn take(
        &mut self,
        events: &[SoundEvent],
        fresh_from: u64,
        sounds: &MissionSounds,
        listener: &Listener,
        frame_of: impl Fn(Option<u32>) -> Option<GlobalTransform>,
    ) {
        let stops = |stop: &SoundEvent, looping: &SoundEvent| {
            looping.kind == SoundKind::Loop
                && looping.effect == stop.effect
                && looping.key == stop.key
        };
        let mut due = Vec::new();
        for event in events.get(self.read..).unwrap_or_default() {
            match event.kind {
                SoundKind::Play if event.tick >= fresh_from => due.push(event),
                SoundKind::Loop => due.push(event),
                SoundKind::Stop => {
                    due.retain(|playing| !stops(event, playing));
                    for source in &mut self.sources {
                        if stops(event, &source.event) {
                            source.handle.stop(Tween::default());
                        }
                    }
                }
                SoundKind::Voice if event.tick >= fresh_from => {
                    self.voices.push_back(event.clone())
                }
                SoundKind::Play | SoundKind::Voice => {}
            }
        }
        for event in due {
            let owner = frame_of(event.owner);
            if let Some(source) = self.start(sounds, event, listener, owner.as_ref()) {
                self.sources.push(source);
            }
        }
        self.read = events.len();
    }

    /// The next voice once the one speaking has ended.
    fn speak(&mut self, sounds: &MissionSounds) {
        let speaking = self
            .voice
            .as_ref()
            .is_some_and(|v| v.state() != PlaybackState::Stopped);
        if speaking {
            return;
        }
        self.voice = None;
        while let Some(next) = self.voices.pop_front() {
            if let Some(data) = self.sample(sounds, &next.key)
                && let Ok(handle) = self.track(Bus::Voices).play(data)
            {
                self.voice = Some(handle);
                return;
            }
        }
    }

    /// Starts the briefing's voices asked for, each at once; `hush` first
    /// stops the ones still speaking.
    fn brief(&mut self, sounds: &MissionSounds, asked: &mut BriefingVoices) {
        if std::mem::take(&mut asked.hush) {
            self.hush_briefing();
        }
        self.briefing_voices
            .retain(|v| v.state() != PlaybackState::Stopped);
        for key in std::mem::take(&mut asked.start) {
            if let Some(data) = self.sample(sounds, &key)
                && let Ok(handle) = self.briefing.play(data)
            {
                self.briefing_voices.push(handle);
            }
        }
    }

    fn hush_briefing(&mut self) {
        for voice in &mut self.briefing_voices {
            voice.stop(Tween::default());
        }
        self.briefing_voices.clear();
    }

    /// Moves every source with its object, sets its gain and pan, stops a
    /// one-shot gone past its far distance, drops ended ones.
    fn follow(
        &mut self,
        listener: &Listener,
        frame_of: impl Fn(Option<u32>) -> Option<GlobalTransform>,
    ) -> Vec<PlayingSource> {
        self.sources
            .retain(|s| s.handle.state() != PlaybackState::Stopped);
        let mut playing = Vec::with_capacity(self.sources.len());
        for source in &mut self.sources {
            if let (Some(offset), Some(frame)) = (source.offset, frame_of(source.event.owner)) {
                source.position = Some(frame.transform_point(offset));
            }
            let looped = source.event.kind == SoundKind::Loop;
            if !looped && beyond_far(listener, source.position, source.event.far) {
                source.handle.stop(Tween::default());
                continue;
            }
            let (gain, pan) = heard(listener, source.position, source.event.near);
            source.handle.set_volume(decibels(gain), Tween::default());
            source.handle.set_panning(pan, Tween::default());
            playing.push(PlayingSource {
                key: source.event.key.clone(),
                owner: source.event.owner,
                bus: source.event.bus,
                looped,
                position: source.position,
                gain,
                pan,
                time: source.handle.position(),
            });
        }
        playing
    }

    /// Applies the install's volumes, the game pause and the mute.
    fn switch(&mut self, volumes: Volumes, paused: bool, muted: bool) {
        if self.volumes != Some(volumes) {
            self.volumes = Some(volumes);
            for bus in Bus::ALL {
                let share = if bus == Bus::Music {
                    volumes.music
                } else {
                    volumes.sfx
                };
                self.track(bus)
                    .set_volume(decibels(share), Tween::default());
            }
            self.briefing
                .set_volume(decibels(volumes.sfx), Tween::default());
        }
        // STAND-IN: game pause pauses every bus (loops resume where they
        // were) and mute silences the main track with every source running
        // (no doc covers them); settled by pausing and muting the retail
        // game mid-loop.
        if self.paused != paused {
            self.paused = paused;
            for track in &mut self.tracks {
                if paused {
                    track.pause(Tween::default());
                } else {
                    track.resume(Tween::default());
                }
            }
        }
        if self.muted != muted {
            self.muted = muted;
            let level = if muted {
                Decibels::SILENCE
            } else {
                Decibels::IDENTITY
            };
            self.manager
                .main_track()
                .set_volume(level, Tween::default());
        }
    }
}

/// Plays the simulation's sounds on backend `B`'s device.
pub struct AudioOutputPlugin<B>(PhantomData<fn() -> B>);

impl<B> Default for AudioOutputPlugin<B> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<B> Plugin for AudioOutputPlugin<B>
where
    B: Backend + 'static,
    B::Settings: Default,
    B::Error: std::fmt::Debug,
{
    fn build(&self, app: &mut App) {
        // The listener follows the camera with or without a device (the
        // trace shows it either way).
        app.init_resource::<Listener>()
            .init_resource::<AudioControl>()
            .init_mission_resource::<PlayingSources>()
            .add_systems(Last, listen.in_set(Phase::EndFrameCallbacks));
        let output = AudioManager::<B>::new(AudioManagerSettings::default())
            .map_err(|e| format!("the audio device did not open: {e:?}"))
            .and_then(|m| SoundOutput::new(m).ok_or_else(|| "no mixer tracks".to_string()));
        match output {
            Ok(output) => {
                info!("sound: playing on the audio device");
                app.insert_non_send(output)
                    .insert_resource(AudioDevice::Open)
                    .on_unload(silence::<B>)
                    .add_systems(
                        Last,
                        present::<B>.after(listen).in_set(Phase::EndFrameCallbacks),
                    );
            }
            Err(reason) => {
                warn!("sound is off: {reason}");
                app.insert_resource(AudioDevice::Missing(reason));
            }
        }
    }
}

/// An unload silences the device.
fn silence<B: Backend + 'static>(world: &mut World) {
    if let Some(mut output) = world.get_non_send_mut::<SoundOutput<B>>() {
        output.silence();
    }
}

/// The listener: the frame of the active 3D camera drawn last on a
/// window (not one rendering into a texture, as the water's reflection).
fn listen(
    cameras: Query<(&Camera, &GlobalTransform, &RenderTarget), With<Camera3d>>,
    mut listener: ResMut<Listener>,
) {
    if let Some((_, frame, _)) = cameras
        .iter()
        .filter(|(camera, _, target)| camera.is_active && matches!(target, RenderTarget::Window(_)))
        .max_by_key(|(camera, _, _)| camera.order)
    {
        *listener = Listener::from_transform(frame);
    }
}

/// Turns the new sound events into kira sounds and keeps the playing ones
/// placed.
#[allow(clippy::too_many_arguments)]
fn present<B: Backend + 'static>(
    mut output: NonSendMut<SoundOutput<B>>,
    events: Option<Res<Sounds>>,
    sounds: Option<Res<MissionSounds>>,
    listener: Res<Listener>,
    clock: Res<GameClock>,
    control: Res<AudioControl>,
    registry: Option<Res<ObjectRegistry>>,
    frames: Query<&GlobalTransform>,
    mut playing: ResMut<PlayingSources>,
    briefing: Option<ResMut<BriefingVoices>>,
) {
    let (Some(events), Some(sounds)) = (events, sounds) else {
        return;
    };
    let frame_of = |owner: Option<u32>| {
        let entity = registry.as_ref()?.entity(OriginalObjectId(owner?)).ok()?;
        frames.get(entity).ok().copied()
    };
    if sounds.is_changed() {
        // Another mission (or a reload): its samples, its events.
        output.samples.clear();
        output.read = output.read.min(events.0.len());
    }
    let volumes = control.volumes.unwrap_or(sounds.volumes);
    output.switch(volumes, clock.is_paused(), control.muted);
    let stale = (STALE_S / clock.timestep().as_secs_f64()) as u64;
    let fresh_from = clock.tick().saturating_sub(stale);
    output.take(&events.0, fresh_from, &sounds, &listener, frame_of);
    output.speak(&sounds);
    if let Some(mut briefing) = briefing {
        output.brief(&sounds, &mut briefing);
    }
    playing.0 = output.follow(&listener, frame_of);
}
