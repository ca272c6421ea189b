//! Seeing the running mission (first cut of issue 9): once the mission
//! reaches `Running`, the terrain of its `Land.msh` and every placed
//! object's model (LOD 0, state 0, one mesh per batch with its WEAR→MAT0
//! phase-0 texture) are drawn with Bevy's standard PBR material, lit by a
//! sun, seen by a camera above the player's base (or a given pose); an
//! optional screenshot of the window ends the app.

pub mod camera;
pub mod install;
pub mod material;
pub mod scene;
pub mod screenshot;
pub mod terrain;

use bevy::prelude::*;
use camera::{CameraPose, MissionCamera, spawn_light};
use iron3d_world::mission::MissionPhase;
use scene::{SceneSource, build_scene};
use screenshot::{ScreenshotRequest, add_screenshot};
use std::path::PathBuf;

/// Sky colour behind the scene.
pub const CLEAR_COLOUR: Color = Color::srgb(0.45, 0.62, 0.80);

/// Draws the mission of the install at `game_dir` (add it after the
/// mission plugin and `DefaultPlugins`). Without an install (no mission)
/// only the camera and light exist and no screenshot is taken.
#[derive(Debug, Clone)]
pub struct IronRenderPlugin {
    pub game_dir: Option<PathBuf>,
    /// Camera pose override (map frame); default: above the player base.
    pub camera: Option<CameraPose>,
    /// Capture the window and exit.
    pub screenshot: Option<ScreenshotRequest>,
}

impl Plugin for IronRenderPlugin {
    fn build(&self, app: &mut App) {
        if let Some(game_dir) = &self.game_dir {
            app.insert_resource(SceneSource {
                game_dir: game_dir.clone(),
                camera: self.camera,
            });
        }
        app.insert_resource(ClearColor(CLEAR_COLOUR))
            .add_systems(Startup, spawn_view)
            .add_systems(OnEnter(MissionPhase::Running), build_scene);
        if let Some(request) = &self.screenshot {
            add_screenshot(app, request);
        }
    }
}

/// The camera (placed when the scene is built) and the light.
fn spawn_view(mut commands: Commands) {
    commands.spawn((
        MissionCamera,
        Camera3d::default(),
        Transform::from_xyz(0.0, 200.0, 200.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    spawn_light(&mut commands);
}
