//! The game without a window, shared by the render and inspector tests.

use bevy::prelude::*;
use iron3d_render::windowless_app;
use iron3d_schedules::deny_simulation_ambiguities;
use iron3d_world::mission::MissionRequest;
use std::path::{Path, PathBuf};

/// [`windowless_app`] over the install `dir` (the loader layering
/// `world_mods`, the asset source `asset_mods`), simulation ambiguities
/// denied, finished and ready for its first update.
pub fn windowless_game(
    dir: &Path,
    world_mods: &[PathBuf],
    asset_mods: &[PathBuf],
    watch: bool,
) -> App {
    let request = MissionRequest {
        game_dir: dir.to_path_buf(),
        mission: None,
        mod_dirs: world_mods.to_vec(),
    };
    let mut app = windowless_app(request, asset_mods, watch);
    deny_simulation_ambiguities(&mut app);
    app.finish();
    app.cleanup();
    app
}
