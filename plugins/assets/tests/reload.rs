//! Hot reload through the `iron://` watcher on a demo install.

mod common;

use bevy::asset::LoadState;
use bevy::image::Image;
use bevy::prelude::*;
use common::{
    app_watching, base_pixels, image_base, install, nres_entries, pump, rewrite_entry,
    same_size_pair, settle, until,
};
use iron3d_assets::IronAssetsPlugin;
use iron3d_formats::fsutil::write_atomic;
use std::path::Path;

/// Ids of the images modified so far.
#[derive(Resource, Default)]
struct Modified(Vec<AssetId<Image>>);

fn record(mut events: MessageReader<AssetEvent<Image>>, mut seen: ResMut<Modified>) {
    for e in events.read() {
        if let AssetEvent::Modified { id } = e {
            seen.0.push(*id);
        }
    }
}

/// Messages of failed loads, as the UI would show them.
#[derive(Resource, Default)]
struct Failures(Vec<String>);

fn record_failures(
    mut events: MessageReader<bevy::asset::UntypedAssetLoadFailedEvent>,
    mut seen: ResMut<Failures>,
) {
    for e in events.read() {
        seen.0.push(format!("{}: {}", e.path, e.error));
    }
}

/// `(name, type_id, payload)` of every entry of `Textures.lib`.
fn entries(game: &Path) -> Vec<(String, u32, Vec<u8>)> {
    nres_entries(&game.join("Textures.lib"))
}

/// Rewrites `Textures.lib` atomically with entry `index` holding `payload`.
fn rewrite(game: &Path, all: &[(String, u32, Vec<u8>)], index: usize, payload: &[u8]) {
    rewrite_entry(&game.join("Textures.lib"), all, index, payload);
}

#[test]
fn rewriting_one_archive_entry_reloads_only_that_texture() {
    let (_tmp, game) = install();
    let all = entries(&game);
    // `a` is rewritten with the pixels of `c`; `b` is untouched.
    let (a, b, c) = same_size_pair(&all);
    let mut app = app_watching(IronAssetsPlugin::new(&game), true);
    app.init_resource::<Modified>().add_systems(Update, record);
    let server = app.world().resource::<AssetServer>().clone();
    let ha: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", all[a].0));
    let hb: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", all[b].0));
    assert!(settle(&mut app, &ha).is_loaded());
    assert!(settle(&mut app, &hb).is_loaded());
    pump(&mut app);
    app.world_mut().resource_mut::<Modified>().0.clear();

    rewrite(&game, &all, a, &all[c].2);
    let want = base_pixels(&all[c].2);
    assert!(until(&mut app, |app| image_base(app, &ha) == Some(want.clone())));
    pump(&mut app);
    let modified = &app.world().resource::<Modified>().0;
    assert!(modified.contains(&ha.id()));
    assert!(
        !modified.contains(&hb.id()),
        "an unchanged entry was reloaded"
    );
}

#[test]
fn a_corrupted_rewrite_keeps_the_old_image_and_the_fix_reloads() {
    let (_tmp, game) = install();
    let all = entries(&game);
    let (a, _, c) = same_size_pair(&all);
    let mut app = app_watching(IronAssetsPlugin::new(&game), true);
    app.init_resource::<Failures>()
        .add_systems(Update, record_failures);
    let server = app.world().resource::<AssetServer>().clone();
    let ha: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", all[a].0));
    assert!(settle(&mut app, &ha).is_loaded());
    pump(&mut app);
    let before = image_base(&app, &ha);

    rewrite(&game, &all, a, &all[a].2[..20]);
    assert!(until(&mut app, |app| matches!(
        app.world().resource::<AssetServer>().load_state(&ha),
        LoadState::Failed(_)
    )));
    let LoadState::Failed(err) = server.load_state(&ha) else {
        unreachable!()
    };
    let text = err.to_string();
    assert!(
        text.contains(&format!("entry #{a} '{}'", all[a].0)),
        "{text}"
    );
    assert_eq!(image_base(&app, &ha), before, "the last good image stays");
    assert!(until(&mut app, |app| !app
        .world()
        .resource::<Failures>()
        .0
        .is_empty()));
    let failures = &app.world().resource::<Failures>().0;
    assert!(failures[0].starts_with("iron://"), "{failures:?}");
    assert!(failures[0].contains("offset 0x"), "{failures:?}");

    rewrite(&game, &all, a, &all[c].2);
    let want = base_pixels(&all[c].2);
    assert!(until(&mut app, |app| image_base(app, &ha) == Some(want.clone())));
    assert!(server.load_state(&ha).is_loaded());
}

#[test]
fn adding_a_mod_override_at_run_time_reloads_the_entry() {
    let (tmp, game) = install();
    let all = entries(&game);
    let (a, _, c) = same_size_pair(&all);
    let mods = tmp.path().join("mod");
    std::fs::create_dir_all(&mods).unwrap();
    let mut app = app_watching(IronAssetsPlugin::new(&game).with_mod_dir(&mods), true);
    let server = app.world().resource::<AssetServer>().clone();
    let ha: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", all[a].0));
    assert!(settle(&mut app, &ha).is_loaded());
    pump(&mut app);

    std::fs::create_dir_all(mods.join("Textures.lib")).unwrap();
    write_atomic(
        &mods.join("Textures.lib").join(format!("{}.texm", all[a].0)),
        &all[c].2,
    )
    .unwrap();
    let want = base_pixels(&all[c].2);
    assert!(until(&mut app, |app| image_base(app, &ha) == Some(want.clone())));
}
