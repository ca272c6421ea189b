//! How the player sees the world (GAMEPLAY §2 "Camera"; openparkan
//! `docs/30-turrets.md` "The first-person eye"):
//!
//! - **Cockpit**: the eye at the hero's turret's `CameraCenter` (else its
//!   `TurretCenter`), turned with the turret's yaw, looking along its aim
//!   (`TargetDirect`); horizontal field of view 1.3 rad, each zoom step
//!   0.1 less, down to 0.2. The hero's own model is not drawn.
//! - **Outer**: four places round the hero (ours: 0.4 rad up at 2.5 body
//!   radii and 0.2 rad up at 4.5 radii, behind it, then the same two
//!   ahead of it looking back), eased over 0.4 s of real time when the
//!   place changes.
//! - **Debug**: the free and orbit cameras of the input plugin (also when
//!   there is no hero, and from the start when `--camera` placed the view).
//!
//! The view is presentation: it reads the published hero and never
//! feeds the simulation. It is set in `Phase::PublishRenderSnapshot`, so
//! the frame's render and the audio listener (in `Last`) see the same
//! camera.

use crate::action::PlayerAction;
use crate::pilot::Pilot;
use crate::snapshot::PlayerInput;
use bevy::prelude::*;
use iron3d_combat::{TurretAim, Weapons};
use iron3d_control::Body;
use iron3d_input::{CameraSystems, DebugCamera};
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::Phase;
use iron3d_world::mission::Armament;
use leafwing_input_manager::prelude::*;

/// The cockpit's horizontal field of view, rad.
pub const COCKPIT_FOV: f32 = 1.3;
/// What a zoom step takes off it, and the narrowest it gets.
pub const ZOOM_STEP: f32 = 0.1;
pub const NARROWEST_FOV: f32 = 0.2;
/// s of real time an outer camera eases to its new place.
pub const EASE_S: f32 = 0.4;
/// The body radius the outer camera takes before Control has given the
/// hero a body (a game started paused), m.
const DEFAULT_RADIUS: f32 = 2.0;
/// The outer places: how far up (rad), how many body radii away, and
/// whether ahead of the hero (looking back).
pub const OUTER_PLACES: [(f32, f32, bool); 4] = [
    (0.4, 2.5, false),
    (0.2, 4.5, false),
    (0.4, 2.5, true),
    (0.2, 4.5, true),
];

/// The player view's systems in `Phase::PublishRenderSnapshot` (a view
/// that overrides them, the briefing's, runs after).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ViewSystems;

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

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PlayerView>()
        .register_type::<PlayerView>()
        .add_systems(
            PostUpdate,
            (switch_view, place_camera)
                .chain()
                .in_set(ViewSystems)
                .in_set(Phase::PublishRenderSnapshot)
                .after(CameraSystems),
        );
}

/// The mission camera's place and projection.
type MissionView<'a> = (&'a mut Transform, &'a mut Projection);

type HeroView<'a> = (
    Entity,
    &'a Transform,
    Option<&'a Body>,
    Option<&'a Armament>,
    Option<&'a Weapons>,
);

/// The frame's view keys; the debug cameras run while the view is theirs
/// or there is no hero.
fn switch_view(
    actions: Query<&ActionState<PlayerAction>, With<PlayerInput>>,
    mut view: ResMut<PlayerView>,
    debug: Option<ResMut<DebugCamera>>,
    heroes: Query<(), With<Pilot>>,
    cameras: Query<&Transform, With<MissionCamera>>,
) {
    let from = cameras.iter().next().copied().unwrap_or_default();
    for a in &actions {
        let pressed = |action| a.just_pressed(&action);
        if pressed(PlayerAction::DebugCamera) {
            view.toggle_debug();
        }
        if pressed(PlayerAction::CycleCamera) {
            view.cycle(from);
        }
        if pressed(PlayerAction::ZoomIn) {
            view.zoom(true);
        }
        if pressed(PlayerAction::ZoomOut) {
            view.zoom(false);
        }
    }
    let free = view.mode == ViewMode::Debug || heroes.is_empty();
    if let Some(mut debug) = debug
        && debug.0 != free
    {
        debug.0 = free;
    }
}

/// Puts the mission camera where the view says and hides the hero from
/// its own cockpit.
fn place_camera(
    time: Res<Time<Real>>,
    mut view: ResMut<PlayerView>,
    heroes: Query<HeroView, With<Pilot>>,
    mut shown: Query<&mut Visibility, With<Pilot>>,
    mut cameras: Query<MissionView, (With<MissionCamera>, Without<Pilot>)>,
) {
    let Some((entity, hero, body, armament, weapons)) = heroes.iter().next() else {
        return;
    };
    let hidden = view.mode == ViewMode::Cockpit;
    if let Ok(mut v) = shown.get_mut(entity) {
        let want = if hidden {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        v.set_if_neq(want);
    }
    let target = match view.mode {
        ViewMode::Debug => return,
        ViewMode::Cockpit => cockpit(hero, armament, weapons),
        ViewMode::Outer(n) => outer(hero, body.map_or(DEFAULT_RADIUS, |b| b.radius), n),
    };
    let placed = match view.ease {
        Some((from, t)) => {
            let t = (t + time.delta_secs()).min(EASE_S);
            view.ease = (t < EASE_S).then_some((from, t));
            let s = t / EASE_S;
            Transform {
                translation: from.translation.lerp(target.translation, s),
                rotation: from.rotation.slerp(target.rotation, s),
                scale: target.scale,
            }
        }
        None => target,
    };
    let fov = match view.mode {
        ViewMode::Cockpit => view.fov(),
        _ => COCKPIT_FOV,
    };
    for (mut transform, mut projection) in &mut cameras {
        transform.set_if_neq(placed);
        if let Projection::Perspective(p) = projection.as_mut() {
            let vertical = vertical_fov(fov, p.aspect_ratio);
            if (p.fov - vertical).abs() > 1e-6 {
                p.fov = vertical;
            }
        }
    }
}
