//! Loading through the `AssetServer`: every texture (`Textures.lib`,
//! `LightMap.lib`) and model (`*.msh` of `static.rlb`/`system.rlb`) of a demo
//! install, in a fresh headless `App` per iteration (throughput = archive
//! payload bytes).

use bevy::asset::{AssetPlugin, UntypedAssetId};
use bevy::image::Image;
use bevy::prelude::*;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::model::Model;
use iron3d_formats::archive::{Mode, nres::Nres};
use iron3d_formats::demo::{self, Scale};
use std::path::Path;
use std::time::{Duration, Instant};

/// `(name, type_id, payload)` of every entry of the NRes file `path`.
fn entries(path: &Path) -> Vec<(String, u32, Vec<u8>)> {
    let bytes = std::fs::read(path).expect("demo archive");
    let lib = Nres::parse(&bytes, Mode::Strict).expect("demo archive parses");
    lib.entries()
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let name = String::from_utf8_lossy(e.name()).into_owned();
            (name, e.type_id, lib.payload(i).to_vec())
        })
        .collect()
}

/// The asset paths to load, and their total payload bytes.
fn manifest(game: &Path) -> (Vec<String>, Vec<String>, u64) {
    let mut bytes = 0u64;
    let mut textures = Vec::new();
    for lib in ["Textures.lib", "LightMap.lib"] {
        for (name, _, payload) in entries(&game.join(lib)) {
            bytes += payload.len() as u64;
            textures.push(format!("iron://{lib}/{name}.texm"));
        }
    }
    let mut models = Vec::new();
    for lib in ["static.rlb", "system.rlb"] {
        for (name, _, payload) in entries(&game.join(lib)) {
            if name.to_ascii_lowercase().ends_with(".msh") {
                bytes += payload.len() as u64;
                models.push(format!("iron://{lib}/{name}"));
            }
        }
    }
    (textures, models, bytes)
}

fn new_app(game: &Path) -> App {
    let mut app = App::new();
    app.add_plugins(IronAssetsPlugin::new(game)).add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            ..default()
        },
    ));
    app.finish();
    app.cleanup();
    app
}

/// Updates until every id is loaded; panics on a failure or after 60 s.
fn settle_all(app: &mut App, ids: &[UntypedAssetId]) {
    let start = Instant::now();
    loop {
        app.update();
        let server = app.world().resource::<AssetServer>();
        let pending: Vec<_> = ids
            .iter()
            .map(|&id| (id, server.load_state(id)))
            .filter(|(_, state)| !state.is_loaded())
            .collect();
        assert!(
            pending.iter().all(|(_, state)| !state.is_failed()),
            "load failed: {pending:?}"
        );
        if pending.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still loading: {pending:?}"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn load_everything(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let game = tmp.path().join("game");
    demo::build(&game, 1, Scale::Demo).expect("demo install");
    let (textures, models, bytes) = manifest(&game);
    println!(
        "demo install: {} textures + {} models, {:.2} MB of payload",
        textures.len(),
        models.len(),
        bytes as f64 / 1e6
    );
    let mut group = c.benchmark_group("asset_server");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    group.bench_function("load_all_textures_and_models", |b| {
        b.iter(|| {
            let mut app = new_app(&game);
            let server = app.world().resource::<AssetServer>().clone();
            // The handles must live until loaded: a dropped handle cancels.
            let mut handles: Vec<UntypedHandle> = textures
                .iter()
                .map(|p| server.load::<Image>(p.clone()).untyped())
                .collect();
            handles.extend(
                models
                    .iter()
                    .map(|p| server.load::<Model>(p.clone()).untyped()),
            );
            let ids: Vec<UntypedAssetId> = handles.iter().map(UntypedHandle::id).collect();
            settle_all(&mut app, &ids);
        })
    });
    group.finish();
}

criterion_group!(benches, load_everything);
criterion_main!(benches);
