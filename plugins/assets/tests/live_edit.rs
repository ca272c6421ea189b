//! A modder's tool truncating and rewriting an archive in place while the
//! game loads from it: every outcome is a load error or a good asset, never
//! a crash, and the restored archive loads again.

mod common;

use bevy::asset::{LoadState, UntypedAssetLoadFailedEvent};
use bevy::image::Image;
use bevy::prelude::*;
use common::{app_watching, base_pixels, image_base, install, nres_entries, settle, until};
use iron3d_assets::IronAssetsPlugin;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Truncations (each followed by an in-place restore) during the loads.
const EDITS: usize = 120;

/// Messages of failed loads.
#[derive(Resource, Default)]
struct Failures(Vec<String>);

fn record_failures(
    mut events: MessageReader<UntypedAssetLoadFailedEvent>,
    mut seen: ResMut<Failures>,
) {
    seen.0
        .extend(events.read().map(|e| format!("{}: {}", e.path, e.error)));
}

/// Cuts the file at `path` to `len` bytes, in place (same inode).
fn truncate_in_place(path: &Path, len: u64) {
    let file = OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(len).unwrap();
}

/// Writes `bytes` over the file at `path`, in place (same inode).
fn restore_in_place(path: &Path, bytes: &[u8]) {
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    file.write_all(bytes).unwrap();
}

#[test]
fn truncating_an_archive_under_loads_in_flight_reports_errors_then_reloads() {
    let (_tmp, game) = install();
    let lib = game.join("Textures.lib");
    let original = std::fs::read(&lib).unwrap();
    let all = nres_entries(&lib);
    let mut app = app_watching(IronAssetsPlugin::new(&game), true);
    app.init_resource::<Failures>()
        .add_systems(Update, record_failures);
    let server = app.world().resource::<AssetServer>().clone();
    let paths: Vec<String> = all
        .iter()
        .map(|(name, _, _)| format!("iron://Textures.lib/{name}.texm"))
        .collect();
    let handles: Vec<Handle<Image>> = paths.iter().map(|p| server.load(p)).collect();
    for h in &handles {
        assert!(settle(&mut app, h).is_loaded());
    }

    // The editor: cut the archive to a fraction of its size, then put it
    // back, over and over, while the game keeps reloading every texture.
    let done = Arc::new(AtomicBool::new(false));
    let editor = {
        let (lib, original, done) = (lib.clone(), original.clone(), done.clone());
        std::thread::spawn(move || {
            let len = original.len() as u64;
            for i in 0..EDITS {
                truncate_in_place(&lib, len * (i as u64 % 7 + 1) / 8);
                std::thread::sleep(Duration::from_millis(1));
                restore_in_place(&lib, &original);
                std::thread::sleep(Duration::from_millis(1));
            }
            done.store(true, Ordering::SeqCst);
        })
    };
    let mut rounds = 0;
    while !done.load(Ordering::SeqCst) {
        for p in &paths {
            server.reload(p);
        }
        app.update();
        rounds += 1;
    }
    editor.join().unwrap();
    assert!(rounds > 0);
    // The loads still in flight end one way or the other (an in-place
    // restore is empty for a moment: such a load finds no archive).
    for h in &handles {
        settle(&mut app, h);
    }

    // One truncation that a load must meet: the last entry lies past the
    // cut, so its reload fails with the archive's structured error and
    // the last good image stays.
    let last = handles.len() - 1;
    let before = image_base(&app, &handles[last]);
    assert!(before.is_some());
    truncate_in_place(&lib, original.len() as u64 / 2);
    server.reload(&paths[last]);
    let failed_on_the_cut = |app: &App| {
        let state = app
            .world()
            .resource::<AssetServer>()
            .load_state(&handles[last]);
        matches!(state, LoadState::Failed(err) if err.to_string().contains("total_size"))
    };
    assert!(until(&mut app, failed_on_the_cut));
    let LoadState::Failed(err) = server.load_state(&handles[last]) else {
        unreachable!()
    };
    let text = err.to_string();
    assert!(text.contains("Textures.lib"), "{text}");
    assert!(text.contains("NRes"), "{text}");
    assert!(text.contains("offset 0xc"), "{text}");
    assert_eq!(image_base(&app, &handles[last]), before);
    assert!(until(&mut app, |app| !app
        .world()
        .resource::<Failures>()
        .0
        .is_empty()));

    // Restored: every texture loads again with its own pixels.
    restore_in_place(&lib, &original);
    for p in &paths {
        server.reload(p);
    }
    for (h, (_, _, payload)) in handles.iter().zip(&all) {
        let want = base_pixels(payload);
        assert!(
            until(&mut app, |app| image_base(app, h) == Some(want.clone())),
            "a texture did not reload after the restore"
        );
    }
}
