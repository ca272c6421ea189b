//! How the player sees the world (GAMEPLAY §2 "Camera"; openparkan
//! `docs/30-turrets.md` "The first-person eye"):
//!
//! - **Cockpit**: the eye at the hero's turret's `CameraCenter` (else its
//!   `TurretCenter`), turned with the turret's yaw, looking along its aim
//!   (`TargetDirect`); horizontal field of view 1.3 rad, each zoom step
//!   0.1 less, down to 0.2. The hero's own model is not drawn.
//! - **Outer**: four places round the hero (0.4 rad up at 2.5 body radii
//!   and 0.2 rad up at 4.5 radii, behind it, then the same two ahead of it
//!   looking back), eased over 0.4 s of real time when the place changes
//!   (both stand-ins, below).
//! - **Debug**: the free and orbit cameras of the input plugin (also when
//!   there is no hero, and from the start when `--camera` placed the view).
//!
//! The view is presentation: it reads the published hero and never
//! feeds the simulation. This module holds the view's state and its
//! geometry; the input crate's camera module puts the mission camera
//! where it says, in `Phase::PublishRenderSnapshot`, so the frame's render
//! and the audio listener (in `Last`) see the same camera.

use bevy::prelude::*;
use iron3d_combat::{TurretAim, Weapons};
use iron3d_world::mission::Armament;

/// The cockpit's horizontal field of view, rad.
pub const COCKPIT_FOV: f32 = 1.3;
/// What a zoom step takes off it, and the narrowest it gets.
pub const ZOOM_STEP: f32 = 0.1;
pub const NARROWEST_FOV: f32 = 0.2;
/// s of real time an outer camera eases to its new place.
// STAND-IN: 0.4 s of real time (no source gives the outer camera's
// ease); settled by timing a retail outer-view switch.
pub const EASE_S: f32 = 0.4;
/// The outer places: how far up (rad), how many body radii away, and
/// whether ahead of the hero (looking back).
// STAND-IN: 0.4 rad up at 2.5 body radii and 0.2 rad up at 4.5, behind
// the hero, then the same two ahead looking back (GAMEPLAY §2 names
// outer views, not their places); settled by measuring the retail outer
// cameras.
pub const OUTER_PLACES: [(f32, f32, bool); 4] = [
    (0.4, 2.5, false),
    (0.2, 4.5, false),
    (0.4, 2.5, true),
    (0.2, 4.5, true),
];

/// Which camera shows the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum ViewMode {
    #[default]
    Cockpit,
    /// One of [`OUTER_PLACES`].
    Outer(u8),
    Debug,
}

/// The player's view: its mode, the cockpit's zoom steps, and an outer
/// camera's easing (where it started, s into it).
#[derive(Resource, Debug, Clone, PartialEq, Default, Reflect)]
pub struct PlayerView {
    pub mode: ViewMode,
    /// Zoom steps in from [`COCKPIT_FOV`].
    pub zoom: u8,
    ease: Option<(Transform, f32)>,
}

impl PlayerView {
    /// A view that starts in `mode`.
    pub fn new(mode: ViewMode) -> Self {
        Self { mode, ..default() }
    }

    /// The cockpit's horizontal field of view at the current zoom.
    pub fn fov(&self) -> f32 {
        (COCKPIT_FOV - ZOOM_STEP * f32::from(self.zoom)).max(NARROWEST_FOV)
    }

    /// The debug camera on, or back to the cockpit.
    pub fn toggle_debug(&mut self) {
        self.mode = match self.mode {
            ViewMode::Debug => ViewMode::Cockpit,
            _ => ViewMode::Debug,
        };
    }

    /// The next place: cockpit, the outer places in turn, cockpit again
    /// (the debug camera stays); an outer place eases in from `from`.
    pub fn cycle(&mut self, from: Transform) {
        self.mode = match self.mode {
            ViewMode::Cockpit => ViewMode::Outer(0),
            ViewMode::Outer(n) if usize::from(n) + 1 < OUTER_PLACES.len() => ViewMode::Outer(n + 1),
            ViewMode::Outer(_) => ViewMode::Cockpit,
            ViewMode::Debug => ViewMode::Debug,
        };
        self.ease = matches!(self.mode, ViewMode::Outer(_)).then_some((from, 0.0));
    }

    /// Where the camera goes this frame for a view `target`: the target,
    /// or on the way to it while an outer place eases in (`dt` s of real
    /// time later).
    pub fn eased(&mut self, target: Transform, dt: f32) -> Transform {
        let Some((from, t)) = self.ease else {
            return target;
        };
        let t = (t + dt).min(EASE_S);
        self.ease = (t < EASE_S).then_some((from, t));
        let s = t / EASE_S;
        Transform {
            translation: from.translation.lerp(target.translation, s),
            rotation: from.rotation.slerp(target.rotation, s),
            scale: target.scale,
        }
    }

    /// One zoom step in (narrower, down to [`NARROWEST_FOV`]) or out.
    pub fn zoom(&mut self, narrower: bool) {
        let steps = ((COCKPIT_FOV - NARROWEST_FOV) / ZOOM_STEP).round() as u8;
        self.zoom = if narrower {
            (self.zoom + 1).min(steps)
        } else {
            self.zoom.saturating_sub(1)
        };
    }
}

/// The cockpit eye: at the first turret's camera point turned by its yaw,
/// looking along its aim; a hero without a turret looks ahead from 1.7
/// above its feet.
pub fn cockpit(
    hero: &Transform,
    armament: Option<&Armament>,
    weapons: Option<&Weapons>,
) -> Transform {
    // Before its first step (a game started paused) the turret stands as
    // it was built: ahead and level.
    let aim = weapons
        .and_then(|w| w.turrets.first())
        .copied()
        .unwrap_or(TurretAim {
            yaw: 0.0,
            pitch: 0.0,
            error: 0.0,
        });
    let Some(turret) = armament.and_then(|a| a.turrets.first()) else {
        let eye = hero.translation + Vec3::Y * 1.7;
        return Transform::from_translation(eye).looking_to(hero.rotation * Vec3::NEG_Z, Vec3::Y);
    };
    let offset = turret.eye.unwrap_or(turret.centre) - turret.centre;
    let local = turret.centre + Quat::from_rotation_y(aim.yaw) * offset;
    let eye = hero.transform_point(local);
    let look = hero.rotation * aim.direction();
    Transform::from_translation(eye).looking_to(look, Vec3::Y)
}

/// An outer place round a hero of body radius `radius`.
pub fn outer(hero: &Transform, radius: f32, place: u8) -> Transform {
    let (up, radii, ahead) = OUTER_PLACES[usize::from(place) % OUTER_PLACES.len()];
    let forward = hero.rotation * Vec3::NEG_Z;
    let flat = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::NEG_Z);
    let away = if ahead { flat } else { -flat };
    let centre = hero.translation + Vec3::Y * radius;
    let eye = centre + (away * up.cos() + Vec3::Y * up.sin()) * radius.max(1.0) * radii;
    Transform::from_translation(eye).looking_at(centre, Vec3::Y)
}

/// The vertical field of view of a horizontal one at `aspect` (w ÷ h).
pub fn vertical_fov(horizontal: f32, aspect: f32) -> f32 {
    2.0 * ((horizontal / 2.0).tan() / aspect.max(1e-3)).atan()
}
