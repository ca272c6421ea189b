//! Seeing the running mission: while the mission prepares its
//! resources, the scene's assets load through the `AssetServer` (the
//! `iron://` source of `iron3d_assets`): the terrain of its `Land.msh` and
//! every placed object's model, per node the slot of the object's
//! `ModelState` at the LOD chosen by camera distance ([`lod`]), per batch
//! its WEAR→MAT0 material with the phase active on game time ([`animate`])
//! and its lightmap on stage 1 through UV1; the terrain's layers animate
//! their MAT0 phases too and follow hot reloads ([`terrain`]). Each draw has a fixed-function
//! legacy render state (`LegacyRenderState`) drawn by the one custom
//! [`material::LegacyMaterial`] (WGSL in `assets/shaders/legacy.wgsl`).
//! A sun lights it, a camera looks at the player's base (or a given pose);
//! an optional screenshot of the window ends the app.
//!
//! Add `iron3d_assets::IronAssetsPlugin` (before `DefaultPlugins`) over the
//! same install; without it nothing is drawn.

pub mod animate;
pub mod bench;
pub mod camera;
pub mod capture;
mod clouds;
pub mod draw;
mod effects;
mod legacy;
mod lights;
pub mod lod;
pub mod material;
mod output;
pub mod paths;
pub mod scene;
pub mod screenshot;
mod shade;
mod shadow;
pub mod sky;
pub mod terrain;
mod water;
mod weather;

use bench::{BenchRequest, add_bench};
use bevy::prelude::*;
use camera::{CameraPose, MissionCamera};
use capture::{CaptureRequest, add_capture_frame, add_draw_item_capture};
use iron3d_schedules::Phase;
use iron3d_world::mission::{MissionPhase, MissionReaderExt, MissionScopeExt};
use material::{LegacyMaterial, embed_shader};
use scene::{SceneSource, await_scene_assets, build_scene, drop_scene_requests, request_scene};
use screenshot::{ScreenshotRequest, add_screenshot};
use sky::spawn_light;
use std::path::PathBuf;

/// Sky colour behind the scene.
pub const CLEAR_COLOUR: Color = Color::srgb(0.45, 0.62, 0.80);

/// Draws the running mission (add it after the mission plugin and
/// `DefaultPlugins`). Without an install (`scene` false) only the camera
/// and light exist and no screenshot is taken.
#[derive(Debug, Clone, Default)]
pub struct IronRenderPlugin {
    /// Whether there is an install whose missions' scenes are built (the
    /// `iron://` asset source serves it).
    pub scene: bool,
    /// Camera pose override (map frame); default: above the player base.
    pub camera: Option<CameraPose>,
    /// Capture the window and exit.
    pub screenshot: Option<ScreenshotRequest>,
    /// Write the frame's draw-item list and exit.
    pub capture: Option<CaptureRequest>,
    /// Time frames, print the figures and exit.
    pub bench: Option<BenchRequest>,
    /// The time of day the sky starts at instead of its file's.
    pub sky_time: Option<iron3d_formats::proto::ske::ClockTime>,
    /// Draw without the sky, fog and shadows ([`sky::Atmosphere`]).
    pub no_atmosphere: bool,
}

impl Plugin for IronRenderPlugin {
    fn build(&self, app: &mut App) {
        if self.scene {
            app.insert_resource(SceneSource {
                camera: self.camera,
            });
        }
        app.insert_resource(ClearColor(CLEAR_COLOUR))
            .add_systems(Startup, spawn_view)
            .add_mission_reader(MissionPhase::Foundation, shade::read_shade_cfg)
            .remove_on_unload::<shade::ShadeSettings>()
            .init_mission_resource::<animate::MaterialBindings>()
            .remove_on_unload::<scene::SceneRequests>()
            .remove_on_unload::<terrain::SceneTerrain>()
            .remove_on_unload::<scene::SceneBuilt>()
            .remove_on_unload::<scene::ScenePartAssets>()
            .add_systems(OnEnter(MissionPhase::Resources), request_scene)
            .add_systems(OnEnter(MissionPhase::Running), build_scene)
            .add_systems(OnEnter(MissionPhase::Failed), drop_scene_requests)
            .add_systems(
                Last,
                await_scene_assets
                    .run_if(in_state(MissionPhase::Resources))
                    .run_if(resource_exists::<SceneSource>)
                    .in_set(Phase::EndFrameCallbacks),
            )
            .add_systems(
                PostUpdate,
                (
                    scene::draw_built.run_if(resource_exists::<scene::SceneBuilt>),
                    terrain::reload_terrain,
                    animate::animate_phases,
                    terrain::animate_terrain,
                    water::draw_water,
                    animate::reload_materials,
                    lod::select_lods,
                )
                    .chain()
                    .run_if(resource_exists::<SceneSource>)
                    .in_set(Phase::PublishRenderSnapshot),
            );
        add_legacy_material(app);
        sky::plugin(app);
        clouds::plugin(app);
        weather::plugin(app);
        shadow::plugin(app);
        lights::plugin(app);
        effects::plugin(app);
        app.insert_resource(sky::SkyStart(self.sky_time))
            .insert_resource(sky::Atmosphere {
                on: !self.no_atmosphere,
            });
        add_draw_item_capture(app);
        if let Some(request) = &self.screenshot {
            add_screenshot(app, request);
        }
        if let Some(request) = &self.capture {
            add_capture_frame(app, request);
        }
        if let Some(request) = self.bench {
            add_bench(app, request);
        }
    }
}

/// The game without a window, before any update (for tests and benchmarks):
/// the `iron://` asset source over the request's install with `asset_mods`
/// (watching for changes when `watch`), `MinimalPlugins` with Bevy's asset
/// and transform plugins, the spine, the world with the mission loader for
/// `request`, and the renderer. The game gives the loader and the asset
/// source the same mods; a test may split them to see what one reader
/// alone reports.
pub fn windowless_app(
    request: iron3d_world::mission::MissionRequest,
    asset_mods: &[PathBuf],
    watch: bool,
) -> App {
    let mut app = App::new();
    let assets = asset_mods.iter().fold(
        iron3d_assets::IronAssetsPlugin::new(&request.game_dir),
        |p, m| p.with_mod_dir(m),
    );
    let asset_plugin = AssetPlugin {
        watch_for_changes_override: Some(watch),
        ..default()
    };
    app.add_plugins(assets)
        .add_plugins((MinimalPlugins, asset_plugin, TransformPlugin))
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            std::time::Duration::from_millis(50),
        ))
        .add_plugins((
            iron3d_schedules::SpinePlugin::default(),
            iron3d_world::WorldPlugin,
            iron3d_world::mission::MissionPlugin {
                request: Some(request),
                seed: 0,
            },
            IronRenderPlugin {
                scene: true,
                ..default()
            },
        ));
    app
}

/// The camera (placed when the scene is built) and the light.
fn spawn_view(mut commands: Commands) {
    commands.spawn((
        MissionCamera,
        Camera3d::default(),
        Transform::from_xyz(0.0, 200.0, 200.0).looking_at(Vec3::ZERO, Vec3::Y),
        // The world and the water (which the reflection does not see).
        bevy::camera::visibility::RenderLayers::from_layers(&[0, water::WATER_LAYER]),
    ));
    spawn_light(&mut commands);
}

/// Registers [`LegacyMaterial`]: its render pipeline with the PBR plugin,
/// otherwise (windowless apps) the asset type alone.
fn add_legacy_material(app: &mut App) {
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        embed_shader(app);
        app.add_plugins(MaterialPlugin::<LegacyMaterial>::default());
    } else {
        app.init_asset::<LegacyMaterial>();
    }
}
