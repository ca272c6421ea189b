//! The game without a window, shared by the render and inspector tests.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_assets::IronAssetsPlugin;
use iron3d_render::IronRenderPlugin;
use iron3d_schedules::{SpinePlugin, deny_simulation_ambiguities};
use iron3d_world::WorldPlugin;
use iron3d_world::mission::{MissionPlugin, MissionRequest};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The game without a window over the install `dir`, before any update:
/// the `iron://` asset source (watching when `watch`), the spine, the
/// world with the mission loader and the renderer, simulation ambiguities
/// denied. The loader layers `world_mods`, the asset source `asset_mods`:
/// the game gives both the same, a test may split them to see what the
/// renderer alone reports.
pub fn windowless_game(
    dir: &Path,
    world_mods: &[PathBuf],
    asset_mods: &[PathBuf],
    watch: bool,
) -> App {
    let mut app = App::new();
    let assets = asset_mods
        .iter()
        .fold(IronAssetsPlugin::new(dir), |p, m| p.with_mod_dir(m));
    let asset_plugin = AssetPlugin {
        watch_for_changes_override: Some(watch),
        ..default()
    };
    app.add_plugins(assets)
        .add_plugins((MinimalPlugins, asset_plugin, TransformPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            50,
        )))
        .add_plugins((
            SpinePlugin::default(),
            WorldPlugin,
            MissionPlugin {
                request: Some(MissionRequest {
                    game_dir: dir.to_path_buf(),
                    mission: None,
                    mod_dirs: world_mods.to_vec(),
                }),
                seed: 0,
            },
            IronRenderPlugin {
                game_dir: Some(dir.to_path_buf()),
                ..default()
            },
        ));
    deny_simulation_ambiguities(&mut app);
    app.finish();
    app.cleanup();
    app
}
