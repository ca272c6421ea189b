//! Loading through the `AssetServer`, on a demo install:
//!
//! - `load_all_textures_and_models`: every texture (`Textures.lib`,
//!   `LightMap.lib`) and model (`*.msh` of `static.rlb`/`system.rlb`) in a
//!   fresh headless `App` per iteration; the reference in the same run,
//!   `decode_all_without_bevy`, does the same decoding work (Texm → RGBA8
//!   image with its mip chain, MSH → one mesh per batch) straight from the
//!   payloads. Throughput = archive payload bytes.
//! - `archive_write_to_reloaded_texture`: the time from the start of an
//!   atomic rewrite of `Textures.lib` (one entry changed) to the moment the
//!   loaded `Image` holds the new pixels, through the watcher (debounce
//!   [`iron3d_assets::watch::DEBOUNCE`]) in an app updated every 2 ms. Each
//!   iteration alternates the entry between two payloads, so every write
//!   really changes its bytes (a write of the bytes already delivered is,
//!   correctly, not a reload).

#[path = "../tests/common/mod.rs"]
mod common;

use bevy::asset::UntypedAssetId;
use bevy::image::Image;
use bevy::prelude::*;
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::model::{Model, batch_mesh};
use iron3d_assets::texture::{TexmSettings, texm_to_image};
use iron3d_formats::archive::Mode;
use iron3d_formats::msh::Msh;
use iron3d_formats::texm::Texm;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// One asset to load: its `iron://` path and its payload.
struct Item {
    path: String,
    payload: Vec<u8>,
}

/// The textures and models of the install.
fn manifest(game: &Path) -> (Vec<Item>, Vec<Item>) {
    let mut textures = Vec::new();
    for lib in ["Textures.lib", "LightMap.lib"] {
        for (name, _, payload) in common::nres_entries(&game.join(lib)) {
            let path = format!("iron://{lib}/{name}.texm");
            textures.push(Item { path, payload });
        }
    }
    let mut models = Vec::new();
    for lib in ["static.rlb", "system.rlb"] {
        for (name, _, payload) in common::nres_entries(&game.join(lib)) {
            if name.to_ascii_lowercase().ends_with(".msh") {
                let path = format!("iron://{lib}/{name}");
                models.push(Item { path, payload });
            }
        }
    }
    (textures, models)
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

/// Loads everything through a fresh app's `AssetServer`.
fn load_through_asset_server(game: &Path, textures: &[Item], models: &[Item]) {
    let mut app = common::app(IronAssetsPlugin::new(game));
    let server = app.world().resource::<AssetServer>().clone();
    // The handles must live until loaded: a dropped handle cancels.
    let mut handles: Vec<UntypedHandle> = textures
        .iter()
        .map(|t| server.load::<Image>(t.path.clone()).untyped())
        .collect();
    handles.extend(
        models
            .iter()
            .map(|m| server.load::<Model>(m.path.clone()).untyped()),
    );
    let ids: Vec<UntypedAssetId> = handles.iter().map(UntypedHandle::id).collect();
    settle_all(&mut app, &ids);
}

/// The loaders' decoding work without Bevy: images and batch meshes.
fn decode_directly(textures: &[Item], models: &[Item]) {
    for t in textures {
        let texm = Texm::parse(&t.payload).expect("demo texture");
        black_box(texm_to_image(&texm, &TexmSettings::default()).expect("decodes"));
    }
    for m in models {
        let msh = Msh::load(&m.payload, Mode::Compatible).expect("demo model");
        for batch in &msh.batches {
            black_box(batch_mesh(&msh, batch).expect("batch in range"));
        }
    }
}

fn load_everything(c: &mut Criterion) {
    let (_tmp, game) = common::install();
    let (textures, models) = manifest(&game);
    let bytes: usize = textures
        .iter()
        .chain(&models)
        .map(|i| i.payload.len())
        .sum();
    println!(
        "demo install: {} textures + {} models = {} assets, {:.3} MB of payload",
        textures.len(),
        models.len(),
        textures.len() + models.len(),
        bytes as f64 / 1e6
    );
    let mut group = c.benchmark_group("asset_server");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20);
    group.bench_function("load_all_textures_and_models", |b| {
        b.iter(|| load_through_asset_server(&game, &textures, &models))
    });
    group.bench_function("decode_all_without_bevy", |b| {
        b.iter(|| decode_directly(&textures, &models))
    });
    group.finish();
}

fn write_to_reload(c: &mut Criterion) {
    let (_tmp, game) = common::install();
    let lib = game.join("Textures.lib");
    let all = common::nres_entries(&lib);
    let (a, _, other) = common::same_size_pair(&all);
    let mut app = common::app_watching(IronAssetsPlugin::new(&game), true);
    let server = app.world().resource::<AssetServer>().clone();
    let handle: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", all[a].0));
    assert!(common::settle(&mut app, &handle).is_loaded());
    common::pump(&mut app);
    let payloads = [all[other].2.clone(), all[a].2.clone()];
    let wants = payloads.each_ref().map(|p| common::base_pixels(p));
    let mut next = 0;
    let mut group = c.benchmark_group("hot_reload");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("archive_write_to_reloaded_texture", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                common::rewrite_entry(&lib, &all, a, &payloads[next]);
                let want = &wants[next];
                let reloaded = common::until(&mut app, |app| {
                    common::image_base(app, &handle).as_ref() == Some(want)
                });
                assert!(reloaded, "no reload within 20 s");
                total += start.elapsed();
                next = 1 - next;
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, load_everything, write_to_reload);
criterion_main!(benches);
