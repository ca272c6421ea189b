//! Shared helpers of the headless `App` tests.

use bevy::asset::{AssetPlugin, LoadState, UntypedAssetId};
use bevy::prelude::*;
use iron3d_assets::IronAssetsPlugin;
use iron3d_formats::demo::{self, Scale};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A demo install in a temporary directory.
pub fn install() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    demo::build(&game, 1, Scale::Demo).unwrap();
    (tmp, game)
}

/// A headless app over `plugin` without hot reload.
pub fn app(plugin: IronAssetsPlugin) -> App {
    app_watching(plugin, false)
}

/// A headless app over `plugin`, watching for changes when `watch`.
pub fn app_watching(plugin: IronAssetsPlugin, watch: bool) -> App {
    let mut app = App::new();
    app.add_plugins(plugin).add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(watch),
            ..default()
        },
    ));
    app.finish();
    app.cleanup();
    app
}

/// Updates until the asset is loaded or failed (bounded).
pub fn settle(app: &mut App, id: impl Into<UntypedAssetId>) -> LoadState {
    let id = id.into();
    for _ in 0..500 {
        app.update();
        let state = app.world().resource::<AssetServer>().load_state(id);
        if !state.is_loading() {
            return state;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("asset did not settle");
}

/// Updates until `done` holds (bounded: 20 s of wall time, never asserted).
#[allow(dead_code)] // used by the reload tests only
pub fn until(app: &mut App, mut done: impl FnMut(&App) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// Lets the watcher settle: updates for a while longer than its debounce.
#[allow(dead_code)] // used by the reload tests only
pub fn pump(app: &mut App) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1000) {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}
