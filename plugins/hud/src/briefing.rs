//! The briefing (GAMEPLAY §1 "Mission start"; openparkan
//! `docs/21-briefing.md`): before the player gets the hero, the camera
//! flies the mission's `briefing.cfg` waypoints on real time with
//! letterbox bars (y 0–75 and 405–480 of the 640×480 layout), the
//! mission's name as the title and each waypoint's text as the subtitle,
//! through its fades; the game clock stands meanwhile (every object
//! waits; a stand-in: the hero too, it is not the player's yet). Esc or the
//! flight's end hands the hero to the player, and the objectives screen
//! shows for its first 7 s of game time. As the flight arrives at a
//! waypoint (the first at once), its `SoundResID`'s voice starts, at once
//! and past the voices' queue (`docs/21-briefing.md`, "How the briefing is
//! shown"; the name through `mission.cfg`'s `briefing_sounds`); Esc hushes
//! it.
//!
//! The flight (read in docs/21): an edge belongs to the waypoint it
//! leaves and runs its `EdgeType` over its `EdgeTime` to the next stop
//! (`LoopIndex`, else the next); a dwell lasts `WaypointTime` when
//! `WaitForTime` is set; a `flyaround` dwell orbits the target, level,
//! once per `RotateTime`; a `jump` holds half the edge, cuts, and dips to
//! black over it; the fade moves from a stop's `FadePercent` to the next
//! stop's over its `FadeTime`; the last stop holds for its `EdgeTime`;
//! a `linear` edge is not eased; a `spline` edge moves the eye on a cubic
//! Hermite from the velocity the phase before left to the one it arrives
//! with, the look-at eased in and out ([`hermite`], docs/facts.md
//! "Briefing").

use bevy::prelude::*;
use iron3d_audio::BriefingVoices;
use iron3d_formats::config::briefing::{EdgeType, WaitType, Waypoint};
use iron3d_player::MenuOpen;
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::GameClock;
use iron3d_script::MissionScripts;
use iron3d_sound::MissionSounds;
use iron3d_world::mission::z_up_to_y_up;
use std::f32::consts::TAU;

/// The briefing camera's horizontal field of view, rad (GAMEPLAY §1).
pub const BRIEFING_FOV: f32 = 1.04;
/// Stops a flight may pass before it is taken as over (a `LoopIndex`
/// loop runs until Esc; this bounds a loop of zero-length stops).
const MOST_STOPS: usize = 100_000;

/// One frame of the flight: eye and look-at (map frame, Z up), how black
/// the picture is (0–1) and the subtitle.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot {
    pub eye: Vec3,
    pub target: Vec3,
    pub fade: f32,
    pub text: String,
    /// The waypoint the flight is at (dwelling there or leaving it), and
    /// how many arrivals at a waypoint the flight has made (1 at the
    /// start; a loop arrives again).
    pub stop: usize,
    pub arrival: usize,
}

fn v(p: [f32; 3]) -> Vec3 {
    Vec3::from_array(p)
}

/// The orbit of a flyaround stop after `t` s: level round its target, at
/// the camera's height and distance, from the camera's bearing.
fn orbit(w: &Waypoint, t: f32) -> Vec3 {
    let (eye, target) = (v(w.camera), v(w.target));
    let offset = (eye - target).truncate();
    let angle = offset.y.atan2(offset.x) + TAU * t / w.rotate_time.max(1e-3);
    let radius = offset.length();
    Vec3::new(
        target.x + radius * angle.cos(),
        target.y + radius * angle.sin(),
        eye.z,
    )
}

/// The velocity of a flyaround stop's orbit where the eye is at `eye`.
fn orbit_velocity(w: &Waypoint, eye: Vec3) -> Vec3 {
    let d = eye - v(w.target);
    let omega = TAU / w.rotate_time.max(1e-3);
    Vec3::new(-omega * d.y, omega * d.x, 0.0)
}

/// The cubic Hermite from `p0` to `p1` with end tangents `a` and `b`, at
/// `u` in 0..1.
fn hermite(p0: Vec3, p1: Vec3, a: Vec3, b: Vec3, u: f32) -> Vec3 {
    let c2 = 3.0 * (p1 - p0) - 2.0 * a - b;
    let c3 = a + b - 2.0 * (p1 - p0);
    p0 + a * u + c2 * u * u + c3 * u * u * u
}

/// The eye's velocity as a spline edge of `time` s from `p0` arrives at
/// stop `dest` at `p1` (docs/21 "Every frame of the path, exactly"): into
/// a continuous stop that leaves by a spline, the mean of the two legs'
/// directions at their mean speed; by a timed linear edge, that edge's
/// velocity; into a flyaround, its orbit's; else at rest.
fn arrival_velocity(
    waypoints: &[Waypoint],
    dest: usize,
    (p0, p1): (Vec3, Vec3),
    time: f32,
) -> Vec3 {
    let Some(d) = waypoints.get(dest) else {
        return Vec3::ZERO;
    };
    let after = usize::try_from(d.loop_index)
        .ok()
        .map_or_else(|| waypoints.get(dest + 1), |n| waypoints.get(n))
        .map(|w| v(w.camera));
    match (&d.wait, &d.edge, after) {
        (WaitType::Flyaround, ..) => orbit_velocity(d, p1),
        (WaitType::Continuous, EdgeType::Spline, Some(after)) => {
            let (a, b) = (p1 - p0, after - p1);
            let direction = (a.normalize_or_zero() + b.normalize_or_zero()).normalize_or_zero();
            direction * (a.length() + b.length()) / (time + d.edge_time).max(1e-6)
        }
        (WaitType::Continuous, EdgeType::Linear, Some(after)) if d.edge_time > 0.0 => {
            (after - p1) / d.edge_time
        }
        _ => Vec3::ZERO,
    }
}

/// Where the flight is `t` s after its start; `None` once it is over.
pub fn shot(waypoints: &[Waypoint], mut t: f32) -> Option<Shot> {
    let mut i = 0;
    let mut from = (v(waypoints.first()?.camera), v(waypoints.first()?.target));
    // The eye's velocity as the last phase left it (at rest at the start).
    // STAND-IN: the flight starts at rest (docs/21 does not give the first
    // phase's velocity); settled by a retail briefing opening on a spline.
    let mut velocity = Vec3::ZERO;
    for arrival in 1..=MOST_STOPS {
        let w = waypoints.get(i)?;
        let next = match usize::try_from(w.loop_index) {
            Ok(n) => waypoints.get(n),
            Err(_) => waypoints.get(i + 1),
        };
        let next_index = usize::try_from(w.loop_index).unwrap_or(i + 1);
        let fade_to = next.map_or(w.fade_percent, |n| n.fade_percent) / 100.0;
        let fade = |since: f32| {
            let s = if w.fade_time > 0.0 {
                (since / w.fade_time).min(1.0)
            } else {
                1.0
            };
            w.fade_percent / 100.0 + (fade_to - w.fade_percent / 100.0) * s
        };
        let dwell = if w.wait_for_time {
            w.waypoint_time
        } else {
            0.0
        };
        let flying = matches!(w.wait, WaitType::Flyaround);
        let text = w.text.clone();
        if t < dwell {
            let eye = if flying { orbit(w, t) } else { from.0 };
            return Some(Shot {
                eye,
                target: from.1,
                fade: fade(t),
                text,
                stop: i,
                arrival,
            });
        }
        let leave = if flying {
            (orbit(w, dwell), from.1)
        } else {
            from
        };
        // A dwell leaves the orbit's velocity, or none when the camera held
        // still.
        // STAND-IN: a still dwell leaves no velocity (docs/21 "Every frame
        // of the path, exactly" gives the orbit's only); settled by a retail
        // briefing whose spline leaves a still dwell.
        if dwell > 0.0 {
            velocity = if flying {
                orbit_velocity(w, leave.0)
            } else {
                Vec3::ZERO
            };
        }
        let edge_t = t - dwell;
        let Some(next) = next else {
            // The last stop holds for its edge time, then the flight ends.
            return (edge_t < w.edge_time).then(|| Shot {
                eye: leave.0,
                target: leave.1,
                fade: fade(t),
                text,
                stop: i,
                arrival,
            });
        };
        let to = (v(next.camera), v(next.target));
        let time = w.edge_time;
        let end_velocity = match w.edge {
            EdgeType::Spline => arrival_velocity(waypoints, next_index, (leave.0, to.0), time),
            _ => Vec3::ZERO,
        };
        if edge_t < time {
            let s = edge_t / time;
            // The look-at eases in and out (a Hermite with no tangents).
            let ease = s * s * (3.0 - 2.0 * s);
            let (eye, target, dip) = match w.edge {
                EdgeType::Linear => (leave.0.lerp(to.0, s), leave.1.lerp(to.1, s), 0.0),
                EdgeType::Spline => (
                    hermite(leave.0, to.0, velocity * time, end_velocity * time, s),
                    leave.1.lerp(to.1, ease),
                    0.0,
                ),
                EdgeType::Jump => {
                    let (eye, target) = if s < 0.5 { leave } else { to };
                    (eye, target, 1.0 - (2.0 * s - 1.0).abs())
                }
            };
            return Some(Shot {
                eye,
                target,
                fade: fade(t).max(dip),
                text,
                stop: i,
                arrival,
            });
        }
        // What the edge leaves: a linear one one speed on every axis (as
        // docs/21 reads it), a spline its arrival velocity, a jump none.
        velocity = match w.edge {
            EdgeType::Linear if time > 0.0 => Vec3::splat(leave.0.distance(to.0) / time),
            // STAND-IN: a spline leaves its V₁ (the page writes T·V₁, read
            // as the tangent, docs/21 "Every frame of the path, exactly");
            // settled by a retail briefing's spline followed by another.
            EdgeType::Spline => end_velocity,
            _ => Vec3::ZERO,
        };
        t = edge_t - time;
        from = to;
        i = next_index;
    }
    None
}

/// The running briefing: its waypoints and how long it has flown (s of
/// real time); `waypoints` empty when none runs.
#[derive(Resource, Debug, Clone, Default)]
pub struct Briefing {
    pub waypoints: Vec<Waypoint>,
    pub elapsed: f32,
    /// The mission's name, the flight's title.
    pub title: String,
    /// The frame's shot, for the drawing.
    pub shot: Option<Shot>,
    /// Whether the clock ran before the briefing stopped it.
    resume_clock: bool,
    /// Arrivals whose voice was asked for.
    voiced: usize,
    /// Esc was pressed: the briefing ends this frame.
    skipped: bool,
}

impl Briefing {
    pub fn active(&self) -> bool {
        !self.waypoints.is_empty()
    }

    /// Esc: the flight ends at its next frame.
    pub fn skip(&mut self) {
        self.skipped = true;
    }
}

/// Whether runs play the briefing (windowed play; tools and tests that
/// want the world at once turn it off).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayBriefing(pub bool);

/// As the mission starts running: the flight starts when there is one to
/// play, the clock stops (before the first step) and the keys are the
/// briefing's.
pub(crate) fn start(
    play: Option<Res<PlayBriefing>>,
    playback: Option<Res<iron3d_replay::Playback>>,
    scripts: Option<Res<MissionScripts>>,
    progress: Res<iron3d_world::mission::LoadProgress>,
    mut briefing: ResMut<Briefing>,
    mut clock: ResMut<GameClock>,
    mut captured: ResMut<MenuOpen>,
) {
    let waypoints = scripts.map(|s| s.briefing.clone()).unwrap_or_default();
    // A loaded save goes on where it was made, past its briefing.
    let loading = playback.is_some_and(|p| p.live_after_end);
    if !play.is_some_and(|p| p.0) || waypoints.is_empty() || loading {
        return;
    }
    info!("briefing: {} waypoints", waypoints.len());
    *briefing = Briefing {
        waypoints,
        title: progress.mission.clone(),
        resume_clock: !clock.is_paused(),
        ..default()
    };
    // STAND-IN: the whole clock stands, the hero too (GAMEPLAY §1: every
    // object but the hero is paused; the hero is not the player's until the
    // flight ends); settled by watching the retail hero during a briefing.
    clock.pause();
    captured.0 = true;
}

/// Flies the camera and starts each waypoint's voice as it arrives; at
/// the end (or on Esc, which hushes the voice) hands the game back.
pub(crate) fn fly(
    time: Res<Time<Real>>,
    sounds: Option<Res<MissionSounds>>,
    mut voices: ResMut<BriefingVoices>,
    mut briefing: ResMut<Briefing>,
    mut clock: ResMut<GameClock>,
    mut captured: ResMut<MenuOpen>,
    mut cameras: Query<(&mut Transform, &mut Projection), With<MissionCamera>>,
) {
    if !briefing.active() {
        return;
    }
    briefing.elapsed += time.delta_secs();
    let shot = shot(&briefing.waypoints, briefing.elapsed).filter(|_| !briefing.skipped);
    let Some(shot) = shot else {
        voices.hush |= briefing.skipped;
        if briefing.resume_clock {
            clock.resume();
        }
        captured.0 = false;
        *briefing = Briefing::default();
        return;
    };
    let eye = z_up_to_y_up(shot.eye, Quat::IDENTITY, Vec3::ONE).translation;
    let target = z_up_to_y_up(shot.target, Quat::IDENTITY, Vec3::ONE).translation;
    let placed = Transform::from_translation(eye).looking_at(target, Vec3::Y);
    for (mut transform, mut projection) in &mut cameras {
        transform.set_if_neq(placed);
        if let Projection::Perspective(p) = projection.as_mut() {
            p.fov = iron3d_player::view::vertical_fov(BRIEFING_FOV, p.aspect_ratio);
        }
    }
    if shot.arrival > briefing.voiced {
        briefing.voiced = shot.arrival;
        let name = briefing.waypoints[shot.stop].sound.to_ascii_uppercase();
        match sounds.and_then(|s| s.briefing_voices.get(&name).cloned()) {
            Some(key) => voices.start.push(key),
            None if !name.is_empty() => warn!(
                "briefing: waypoint {} names the voice '{name}', which mission.cfg's \
                 briefing_sounds does not bind",
                shot.stop
            ),
            None => {}
        }
    }
    briefing.shot = Some(shot);
}
