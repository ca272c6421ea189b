//! The player's view placed on the mission camera (GAMEPLAY §2 "Camera";
//! openparkan `docs/30-turrets.md` "The first-person eye"): the cockpit
//! or outer place [`iron3d_player::view`] computes from the published
//! hero, eased as the view says; the view keys switch the mode, zoom and
//! hand the camera to the debug cameras ([`crate::camera`]). The hero's
//! own model is hidden from its cockpit. Presentation only: it reads the
//! simulation and never feeds it.

use crate::camera::{CameraSystems, DebugCamera};
use bevy::prelude::*;
use iron3d_combat::Weapons;
use iron3d_control::Body;
use iron3d_player::view::{COCKPIT_FOV, PlayerView, ViewMode, cockpit, outer, vertical_fov};
use iron3d_player::{Pilot, PlayerAction, PlayerInput};
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::Phase;
use iron3d_world::mission::Armament;
use leafwing_input_manager::prelude::*;

/// The body radius the outer camera takes before Control has given the
/// hero a body (a game started paused), m.
const DEFAULT_RADIUS: f32 = 2.0;

/// The player view's systems in `Phase::PublishRenderSnapshot` (a view
/// that overrides them, the briefing's, runs after).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ViewSystems;

/// The player's view on the mission camera: the cockpit or an outer place
/// from the published hero, after the debug cameras (which have the
/// camera while the view is theirs or there is no hero). Runs where the
/// player's [`PlayerView`] exists.
pub struct PlayerViewPlugin;

impl Plugin for PlayerViewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PostUpdate,
            (switch_view, place_camera)
                .chain()
                .run_if(resource_exists::<PlayerView>)
                .in_set(ViewSystems)
                .in_set(Phase::PublishRenderSnapshot)
                .after(CameraSystems),
        );
    }
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
    let placed = view.eased(target, time.delta_secs());
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
