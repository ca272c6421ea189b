//! The output on kira's mixer, read back through the capture backend
//! (tome VI "Проверки звука": levels and states at the kira instances, not
//! our own arithmetic): distance gain, the far cut, pan, pause and resume
//! of a loop, mute, the voices' queue, and no device.

use bevy::prelude::*;
use iron3d_audio::capture::{CAPTURE_RATE, CaptureBackend, rms};
use iron3d_audio::*;
use iron3d_formats::sound::DecodedSound;
use iron3d_schedules::GameClock;
use iron3d_sound::*;
use iron3d_sound::{MissionSounds, Sample, Volumes};
use std::sync::Arc;
use std::time::Duration;

const TONE: &str = "SOUNDS.LIB::TONE.WAV";
const BLIP: &str = "VOICES.LIB::BLIP.WAV";

/// A square wave of `amplitude` (of full scale) lasting `seconds`.
fn square(amplitude: f32, seconds: f32) -> DecodedSound {
    let frames = (CAPTURE_RATE as f32 * seconds) as usize;
    let level = (amplitude * 32767.0) as i16;
    DecodedSound {
        sample_rate: CAPTURE_RATE,
        channels: 1,
        samples: (0..frames)
            .map(|i| if i / 50 % 2 == 0 { level } else { -level })
            .collect(),
    }
}

/// An app that presents sound events on the capture backend, the listener
/// at the origin looking down -Z.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    let mut sounds = MissionSounds::default();
    for (key, sound) in [(TONE, square(0.5, 1.0)), (BLIP, square(0.5, 0.1))] {
        sounds
            .samples
            .insert(key.into(), Sample::Decoded(Arc::new(sound)));
    }
    app.insert_resource(sounds)
        .insert_resource(GameClock::new(Duration::from_millis(50)))
        .init_resource::<Sounds>()
        .add_plugins(AudioOutputPlugin::<CaptureBackend>::default());
    assert_eq!(*app.world().resource::<AudioDevice>(), AudioDevice::Open);
    app
}

fn event(key: &str, kind: SoundKind, position: Option<Vec3>) -> SoundEvent {
    SoundEvent {
        tick: 0,
        key: key.into(),
        owner: None,
        position,
        kind,
        bus: if kind == SoundKind::Voice {
            Bus::Voices
        } else {
            Bus::Effects
        },
        near: 10.0,
        far: 100.0,
        rate: 1.0,
        source: "test".into(),
        effect: 1,
    }
}

fn send(app: &mut App, event: SoundEvent) {
    app.world_mut().resource_mut::<Sounds>().0.push(event);
    app.update();
}

/// `frames` of the mixer's output.
fn render(app: &mut App, frames: usize) -> Vec<f32> {
    app.world_mut()
        .non_send_mut::<SoundOutput<CaptureBackend>>()
        .backend_mut()
        .render(frames)
}

fn side(samples: &[f32], channel: usize) -> Vec<f32> {
    samples.iter().skip(channel).step_by(2).copied().collect()
}

fn playing(app: &App) -> Vec<PlayingSource> {
    app.world().resource::<PlayingSources>().0.clone()
}

/// The first source's time as the mixer last published it (kira shares a
/// sound's position as a processing pass starts).
fn time(app: &mut App) -> f64 {
    render(app, 0);
    app.update();
    playing(app)[0].time
}

/// The level of one one-shot of the tone `distance` ahead.
fn level_at(distance: f32) -> f32 {
    let mut app = app();
    send(
        &mut app,
        event(TONE, SoundKind::Play, Some(Vec3::new(0.0, 0.0, -distance))),
    );
    rms(&render(&mut app, 4410))
}

#[test]
fn a_shot_at_twice_the_near_distance_is_heard_at_half_volume() {
    let near = level_at(10.0);
    let twice = level_at(20.0);
    assert!((near - 0.5).abs() < 0.01, "full volume within near: {near}");
    assert!((twice / near - 0.5).abs() < 0.01, "{twice} / {near}");
    assert!((level_at(5.0) - near).abs() < 1e-4);
}

/// How long (s) the one-second tone plays at `rate`: the mixer's output
/// ten milliseconds at a time until it falls silent.
fn heard_for(rate: f32) -> f32 {
    let mut app = app();
    let mut tone = event(TONE, SoundKind::Play, None);
    tone.rate = rate;
    send(&mut app, tone);
    let chunk = CAPTURE_RATE as usize / 100;
    let mut chunks = 0;
    while rms(&render(&mut app, chunk)) > 0.01 && chunks < 300 {
        chunks += 1;
    }
    chunks as f32 / 100.0
}

#[test]
fn an_emitters_playback_rate_plays_the_sample_faster_or_slower() {
    let (normal, twice, slower) = (heard_for(1.0), heard_for(2.0), heard_for(0.8));
    assert!((normal - 1.0).abs() <= 0.02, "{normal} s");
    assert!((twice - 0.5).abs() <= 0.02, "{twice} s");
    assert!((slower - 1.25).abs() <= 0.02, "{slower} s");
}

#[test]
fn a_one_shot_beyond_far_is_not_played_and_a_loop_there_is() {
    let mut app = app();
    let far = Some(Vec3::new(0.0, 0.0, -150.0));
    send(&mut app, event(TONE, SoundKind::Play, far));
    assert!(playing(&app).is_empty());
    assert_eq!(rms(&render(&mut app, 2205)), 0.0);
    send(&mut app, event(TONE, SoundKind::Loop, far));
    let heard = playing(&app);
    assert_eq!(heard.len(), 1);
    assert!((heard[0].gain - 10.0 / 150.0).abs() < 1e-5);
    assert!(rms(&render(&mut app, 2205)) > 0.01);
}

/// A loaded save's log of sounds comes all at once: of its past only the
/// loops still running play again (no old shot or voice); what is of the
/// last second plays as ever.
#[test]
fn a_loaded_saves_log_plays_only_its_running_loops_and_the_last_second() {
    let mut app = app();
    // 20 ticks a second: tick 1000 is at 50 s.
    app.world_mut().resource_mut::<GameClock>().set_tick(1000);
    let at = |tick: u64, effect: u64, key: &str, kind: SoundKind| SoundEvent {
        tick,
        effect,
        ..event(key, kind, None)
    };
    app.world_mut().resource_mut::<Sounds>().0 = vec![
        at(10, 1, TONE, SoundKind::Play),
        at(20, 2, TONE, SoundKind::Loop),
        at(30, 3, BLIP, SoundKind::Loop),
        at(40, 3, BLIP, SoundKind::Stop),
        at(50, 0, BLIP, SoundKind::Voice),
        at(990, 4, BLIP, SoundKind::Play),
    ];
    app.update();
    let heard: Vec<(String, bool)> = playing(&app)
        .into_iter()
        .map(|p| (p.key, p.looped))
        .collect();
    assert_eq!(heard, [(TONE.to_string(), true), (BLIP.to_string(), false)]);
    let output = app.world().non_send::<SoundOutput<CaptureBackend>>();
    assert_eq!(output.voices_waiting(), 0, "the old voice is not spoken");
}

#[test]
fn a_source_to_the_right_is_heard_on_the_right() {
    let mut app = app();
    send(
        &mut app,
        event(TONE, SoundKind::Play, Some(Vec3::new(5.0, 0.0, 0.0))),
    );
    let out = render(&mut app, 2205);
    assert!(rms(&side(&out, 0)) < 1e-3, "left {}", rms(&side(&out, 0)));
    assert!(rms(&side(&out, 1)) > 0.5, "right {}", rms(&side(&out, 1)));
    assert_eq!(playing(&app)[0].pan, 1.0);
}

#[test]
fn the_theme_loop_survives_pause_and_resume() {
    let mut app = app();
    let mut theme = event(TONE, SoundKind::Loop, None);
    theme.bus = Bus::Ambience;
    send(&mut app, theme);
    render(&mut app, 11025);
    app.world_mut().resource_mut::<GameClock>().pause();
    app.update();
    render(&mut app, 2205); // the pause's short fade
    let paused_at = time(&mut app);
    assert_eq!(rms(&render(&mut app, 4410)), 0.0, "paused: silent");
    assert_eq!(time(&mut app), paused_at, "paused: in place");
    app.world_mut().resource_mut::<GameClock>().resume();
    app.update();
    // Past the sample's end (1 s): the loop goes round and plays on.
    let out = render(&mut app, 33075);
    app.update();
    let after = playing(&app);
    assert_eq!(after.len(), 1, "the loop still plays");
    assert!(after[0].looped);
    assert!(rms(&out[out.len() - 4410..]) > 0.4);
}

#[test]
fn the_players_volume_replaces_the_installs() {
    let mut app = app();
    send(&mut app, event(TONE, SoundKind::Loop, None));
    render(&mut app, 2205);
    let full = rms(&render(&mut app, 4410));
    app.world_mut().resource_mut::<AudioControl>().volumes = Some(Volumes {
        sfx: 0.5,
        music: 1.0,
    });
    app.update();
    render(&mut app, 2205);
    let half = rms(&render(&mut app, 4410));
    assert!((half / full - 0.5).abs() < 0.01, "{half} / {full}");
    app.world_mut().resource_mut::<AudioControl>().volumes = None;
    app.update();
    render(&mut app, 2205);
    assert!(
        (rms(&render(&mut app, 4410)) - full).abs() < 0.01,
        "the install's again"
    );
}

#[test]
fn mute_keeps_every_source_running_in_place() {
    let mut app = app();
    send(&mut app, event(TONE, SoundKind::Loop, None));
    render(&mut app, 2205);
    app.world_mut().resource_mut::<AudioControl>().muted = true;
    app.update();
    render(&mut app, 2205);
    let before = time(&mut app);
    assert_eq!(rms(&render(&mut app, 4410)), 0.0, "muted: silent");
    let after = time(&mut app);
    assert!((after - before - 0.2).abs() < 0.01, "{before} -> {after}");
    app.world_mut().resource_mut::<AudioControl>().muted = false;
    app.update();
    render(&mut app, 2205);
    assert!(rms(&render(&mut app, 2205)) > 0.4, "heard again");
}

#[test]
fn voices_queue_and_never_overlap() {
    let mut app = app();
    app.world_mut().resource_mut::<Sounds>().0.extend([
        event(BLIP, SoundKind::Voice, None),
        event(BLIP, SoundKind::Voice, None),
    ]);
    app.update();
    let output = |app: &mut App| {
        app.world_mut()
            .non_send_mut::<SoundOutput<CaptureBackend>>()
            .voices_waiting()
    };
    assert_eq!(output(&mut app), 1, "the second waits");
    // Both at once would sum to twice the level; one at a time never does.
    let first = render(&mut app, 2400);
    assert!((rms(&first[..2000]) - 0.5).abs() < 0.01);
    app.update();
    assert_eq!(output(&mut app), 0, "the second speaks after the first");
    let second = render(&mut app, 2205);
    assert!((rms(&second[..2000]) - 0.5).abs() < 0.01);
}

/// The briefing's voices play at once while the clock stands (the
/// briefing stops it), past the voices' queue; Esc's hush stops them.
#[test]
fn a_briefing_voice_plays_at_once_with_the_clock_stopped_and_hushes() {
    let mut app = app();
    app.init_resource::<BriefingVoices>();
    app.world_mut().resource_mut::<GameClock>().pause();
    app.world_mut()
        .resource_mut::<BriefingVoices>()
        .start
        .push(TONE.into());
    app.update();
    assert!(
        app.world().resource::<BriefingVoices>().start.is_empty(),
        "taken"
    );
    render(&mut app, 2205);
    assert!(
        (rms(&render(&mut app, 2205)) - 0.5).abs() < 0.01,
        "speaking"
    );
    // It is not in the voices' queue: a message's voice does not wait.
    app.world_mut().resource_mut::<GameClock>().resume();
    send(&mut app, event(BLIP, SoundKind::Voice, None));
    let waiting = app
        .world_mut()
        .non_send_mut::<SoundOutput<CaptureBackend>>()
        .voices_waiting();
    assert_eq!(waiting, 0, "the message's voice speaks at once");
    app.world_mut().resource_mut::<BriefingVoices>().hush = true;
    app.update();
    render(&mut app, 2205); // the stop's short fade, and the blip's end
    assert_eq!(rms(&render(&mut app, 2205)), 0.0, "hushed");
}

/// A device that never opens.
struct NoDevice;

impl kira::backend::Backend for NoDevice {
    type Settings = ();
    type Error = &'static str;

    fn setup(_: (), _: usize) -> Result<(Self, u32), Self::Error> {
        Err("no sound card")
    }

    fn start(&mut self, _: kira::backend::Renderer) -> Result<(), Self::Error> {
        Err("no sound card")
    }
}

#[test]
fn no_device_is_an_explicit_state() {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .init_resource::<Sounds>()
        .add_plugins(AudioOutputPlugin::<NoDevice>::default());
    let device = app.world().resource::<AudioDevice>().clone();
    assert!(
        matches!(&device, AudioDevice::Missing(why) if why.contains("no sound card")),
        "{device:?}"
    );
    send(&mut app, event(TONE, SoundKind::Play, None));
    assert_eq!(app.world().resource::<Sounds>().0.len(), 1);
}
