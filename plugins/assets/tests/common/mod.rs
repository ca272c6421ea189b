//! Shared helpers of the headless `App` tests (and of `benches/load.rs`);
//! each test target uses a subset.
#![allow(dead_code)]

use bevy::asset::{AssetPlugin, LoadState, UntypedAssetId};
use bevy::prelude::*;
use iron3d_assets::IronAssetsPlugin;
use iron3d_demo::{self as demo, Scale};
use iron3d_formats::archive::{
    Mode,
    nres::{self, NewEntry, Nres},
};
use iron3d_formats::fsutil::write_atomic;
use std::path::{Path, PathBuf};
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

/// Updates until `done` holds, polling every 2 ms (bounded: 20 s of wall
/// time, never asserted).
pub fn until(app: &mut App, mut done: impl FnMut(&App) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

/// Lets the watcher settle: updates for a while longer than its debounce.
pub fn pump(app: &mut App) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1000) {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// One entry of an NRes file, as the tests read it.
pub struct DirEntry {
    pub name: String,
    pub type_id: u32,
    pub payload: Vec<u8>,
    pub attr1: u32,
    pub attr2: u32,
}

/// Every entry of the NRes file `path`, in directory order.
pub fn nres_directory(path: &Path) -> Vec<DirEntry> {
    let bytes = std::fs::read(path).unwrap();
    let lib = Nres::parse(&bytes, Mode::Strict).unwrap();
    lib.entries()
        .iter()
        .enumerate()
        .map(|(i, e)| DirEntry {
            name: String::from_utf8(e.name().to_vec()).unwrap(),
            type_id: e.type_id,
            payload: lib.payload(i).to_vec(),
            attr1: e.attr1,
            attr2: e.attr2,
        })
        .collect()
}

/// `(name, type_id, payload)` of every entry of the NRes file `path`.
pub fn nres_entries(path: &Path) -> Vec<(String, u32, Vec<u8>)> {
    nres_directory(path)
        .into_iter()
        .map(|e| (e.name, e.type_id, e.payload))
        .collect()
}

/// Rewrites the NRes file `path` atomically from `all` with entry `index`
/// holding `payload` (directory attributes written as zero).
pub fn rewrite_entry(path: &Path, all: &[(String, u32, Vec<u8>)], index: usize, payload: &[u8]) {
    let list: Vec<NewEntry> = all
        .iter()
        .enumerate()
        .map(|(i, (name, type_id, p))| NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: *type_id,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload: if i == index { payload } else { p },
        })
        .collect();
    write_atomic(path, &nres::build(&list).unwrap()).unwrap();
}

/// The message of a failed load (panics when it loads).
pub fn failure(app: &mut App, id: impl Into<UntypedAssetId>) -> String {
    match settle(app, id) {
        LoadState::Failed(err) => err.to_string(),
        state => panic!("expected a load failure, got {state:?}"),
    }
}

/// The decoded base level of a Texm payload.
pub fn base_pixels(payload: &[u8]) -> Vec<u8> {
    iron3d_formats::texm::Texm::parse(payload)
        .unwrap()
        .decode_level(0)
        .unwrap()
        .pixels
}

/// The base level of a loaded image, if loaded.
pub fn image_base(app: &App, handle: &Handle<Image>) -> Option<Vec<u8>> {
    let image = app.world().resource::<Assets<Image>>().get(handle)?;
    let len = (image.width() * image.height() * 4) as usize;
    image.data.as_ref().map(|d| d[..len].to_vec())
}

/// Indices `(a, b, c)` of `Textures.lib` entries: `a` and `c` have the same
/// size and format but different bytes, `b` is a third one.
pub fn same_size_pair(all: &[(String, u32, Vec<u8>)]) -> (usize, usize, usize) {
    let dims = |p: &[u8]| {
        let t = iron3d_formats::texm::Texm::parse(p).unwrap();
        (t.width, t.height, t.format)
    };
    for a in 0..all.len() {
        for c in 0..all.len() {
            if a != c && dims(&all[a].2) == dims(&all[c].2) && all[a].2 != all[c].2 {
                let b = (0..all.len()).find(|&b| b != a && b != c).unwrap();
                return (a, b, c);
            }
        }
    }
    panic!("no two textures of the same size and format");
}
