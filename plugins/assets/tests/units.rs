//! Headless `App` tests of the unit DAT and `objects.rlb` loaders on a demo
//! install.

mod common;

use bevy::prelude::*;
use common::{app, failure, install, nres_entries, rewrite_entry, settle};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::units::{PrototypeRegistry, Unit};
use iron3d_formats::archive::Mode;
use iron3d_formats::registry::Registry;
use iron3d_formats::unitdat::UnitDat;
use std::path::{Path, PathBuf};

/// Every `*.dat` file under `dir`, as paths relative to `root`, sorted.
fn dat_files(root: &Path, dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "dat") {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_unit_dat_loads_as_its_parsed_part_tree() {
    let (_tmp, game) = install();
    let files = dat_files(&game, &game.join("UNITS"));
    let robots = files
        .iter()
        .filter(|p| p.starts_with("UNITS/ROBOTS"))
        .count();
    assert!(robots > 0 && files.len() > robots, "{files:?}");
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    for rel in &files {
        // Addressed the way missions and BuildDat.lst name them.
        let legacy = rel.to_string_lossy().replace('/', "\\").to_uppercase();
        let handle: Handle<Unit> = server.load(format!("iron://{legacy}"));
        assert!(settle(&mut app, &handle).is_loaded(), "{legacy}");
        let want = UnitDat::parse(&std::fs::read(game.join(rel)).unwrap(), Mode::Strict).unwrap();
        let unit = app.world().resource::<Assets<Unit>>().get(&handle).unwrap();
        assert_eq!(unit.dat, want, "{legacy}");
        assert!(!unit.dat.parts.is_empty(), "{legacy}");
    }
}

#[test]
fn objects_rlb_loads_as_the_registry_and_resolves_like_the_parse() {
    let (_tmp, game) = install();
    let want = Registry::parse(
        &std::fs::read(game.join("objects.rlb")).unwrap(),
        Mode::Strict,
    )
    .unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    let handle: Handle<PrototypeRegistry> = server.load("iron://OBJECTS.RLB");
    assert!(settle(&mut app, &handle).is_loaded());
    let loaded = &app
        .world()
        .resource::<Assets<PrototypeRegistry>>()
        .get(&handle)
        .unwrap()
        .registry;
    assert_eq!(loaded.prototypes, want.prototypes);
    assert!(!want.prototypes.is_empty());
    let mut inherited = 0;
    for proto in &want.prototypes {
        let resolved = loaded.resolve(&proto.key).unwrap();
        assert_eq!(resolved, want.resolve(&proto.key).unwrap());
        inherited += usize::from(resolved.chain.len() > 1);
    }
    assert!(inherited > 0, "the demo has a prototype with a parent");
}

#[test]
fn a_corrupt_unit_dat_in_a_mod_fails_with_its_file_and_offset() {
    let (tmp, game) = install();
    let rel = dat_files(&game, &game.join("UNITS"))[0].clone();
    let mods = tmp.path().join("mod");
    let over = mods.join(&rel);
    std::fs::create_dir_all(over.parent().unwrap()).unwrap();
    let mut bytes = std::fs::read(game.join(&rel)).unwrap();
    bytes[0] ^= 0xFF;
    std::fs::write(&over, &bytes).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game).with_mod_dir(&mods));
    let server = app.world().resource::<AssetServer>().clone();
    let handle: Handle<Unit> = server.load(format!("iron://{}", rel.display()));
    let text = failure(&mut app, &handle);
    assert!(
        text.contains(&format!("{}: offset 0x0: unit DAT:", over.display())),
        "{text}"
    );
}

#[test]
fn a_corrupt_prototype_fails_with_file_entry_and_offset() {
    let (_tmp, game) = install();
    let path = game.join("objects.rlb");
    let all = nres_entries(&path);
    let (index, (key, _, payload)) = all
        .iter()
        .enumerate()
        .find(|(_, (_, _, p))| !p.is_empty())
        .unwrap();
    rewrite_entry(&path, &all, index, &payload[..payload.len() - 1]);
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    let handle: Handle<PrototypeRegistry> = server.load("iron://objects.rlb");
    let text = failure(&mut app, &handle);
    let want = format!(
        "{}: entry #{index} '{key}': offset 0x0: objects.rlb:",
        path.display()
    );
    assert!(text.contains(&want), "{text}");
}
