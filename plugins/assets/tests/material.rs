//! Headless `App` tests of the WEAR + MAT0 material loader on a demo
//! install: resolution, lightmap slots, and dependency hot reload.

mod common;

use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use common::{app, app_watching, base_pixels, image_base, install, pump, settle, until};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::material::WearMaterials;
use iron3d_formats::archive::{
    Mode,
    nres::{self, NewEntry},
};
use iron3d_formats::fsutil::write_atomic;
use iron3d_formats::mat0::{Mat0, Resolution};
use iron3d_formats::texm::Texm;
use iron3d_formats::wear::{Wear, WearRow};
use std::path::Path;
use std::time::Duration;

/// `(name, payload, attr1, attr2)` of every entry of the NRes file `path`.
fn entries(path: &Path) -> Vec<(String, Vec<u8>, u32, u32)> {
    common::nres_directory(path)
        .into_iter()
        .map(|e| (e.name, e.payload, e.attr1, e.attr2))
        .collect()
}

fn index_of(list: &[(String, Vec<u8>, u32, u32)], name: &[u8]) -> Option<usize> {
    list.iter()
        .position(|e| e.0.as_bytes().eq_ignore_ascii_case(name))
}

/// The first WEAR entry of `static.rlb` with a `LIGHTMAPS` block.
fn lightmapped_wear(game: &Path) -> (String, Wear) {
    entries(&game.join("static.rlb"))
        .into_iter()
        .filter(|e| e.0.ends_with(".wea"))
        .map(|e| (e.0, Wear::parse(&e.1, Mode::Strict).unwrap()))
        .find(|(_, w)| w.lightmaps.is_some())
        .expect("a lightmapped model")
}

#[test]
fn a_wear_table_resolves_its_materials_textures_and_lightmaps() {
    let (_tmp, game) = install();
    let (name, wear) = lightmapped_wear(&game);
    let materials = entries(&game.join("Material.lib"));
    let textures = entries(&game.join("Textures.lib"));
    let lightmaps = entries(&game.join("LightMap.lib"));
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<WearMaterials> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://static.rlb/{name}"));
    assert!(settle(&mut app, &handle).is_loaded());
    // Recursively loaded: every texture is in `Assets<Image>` too.
    for _ in 0..500 {
        app.update();
        let server = app.world().resource::<AssetServer>();
        if server.is_loaded_with_dependencies(&handle) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let table = app
        .world()
        .resource::<Assets<WearMaterials>>()
        .get(&handle)
        .unwrap();
    assert_eq!(*table.wear, wear);
    assert_eq!(table.materials.len(), wear.materials.len());
    let mut checked = 0;
    for (row, wear_row) in table.materials.iter().zip(&wear.materials) {
        let i = index_of(&materials, &wear_row.name).expect("demo names resolve");
        assert_eq!(row.resolved.via, Resolution::Named);
        assert_eq!(row.resolved.entry, i);
        let (_, payload, attr1, attr2) = &materials[i];
        assert_eq!((row.entry.attr1, row.entry.attr2), (*attr1, *attr2));
        assert_eq!(*row.mat0, Mat0::parse(payload, *attr1, *attr2).unwrap());
        assert_eq!(row.textures.len(), row.mat0.phases.len());
        for (phase, texture) in row.mat0.phases.iter().zip(&row.textures) {
            let Some(t) = index_of(&textures, phase.texture()) else {
                assert!(texture.is_none());
                continue;
            };
            let image = texture.as_ref().expect("an existing texture has a handle");
            assert_eq!(image_base(&app, image), Some(base_pixels(&textures[t].1)));
            checked += 1;
        }
    }
    assert!(checked > 0, "no textured phase was checked");
    let lm_rows = wear.lightmaps.as_ref().unwrap();
    assert_eq!(table.lightmaps.len(), lm_rows.len());
    let (slot, image) = table.lightmap(0);
    assert_eq!(
        slot as usize,
        index_of(&lightmaps, &lm_rows[0].name).unwrap()
    );
    let image = app
        .world()
        .resource::<Assets<Image>>()
        .get(image.unwrap())
        .unwrap();
    assert_eq!(image.texture_descriptor.format, TextureFormat::Rgba8Unorm);
    assert_eq!(table.lightmap(0xFF), (-1, None));
}

#[test]
fn a_missing_lightmap_is_slot_minus_one_and_a_missing_material_falls_back_to_default() {
    let (_tmp, game) = install();
    let (_, demo) = lightmapped_wear(&game);
    let lightmaps = entries(&game.join("LightMap.lib"));
    let existing = demo.lightmaps.as_ref().unwrap()[0].name.clone();
    let wear = Wear::new(
        vec![
            WearRow::new("0", demo.materials[0].name.clone()),
            WearRow::new("1", "NO_SUCH_MATERIAL"),
        ],
        Some(vec![
            WearRow::new("0", "LM_NO_SUCH_MAP"),
            WearRow::new("1", existing.clone()),
        ]),
    );
    write_atomic(&game.join("probe.wea"), &wear.to_bytes().unwrap()).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<WearMaterials> = app
        .world()
        .resource::<AssetServer>()
        .load("iron://probe.wea");
    assert!(settle(&mut app, &handle).is_loaded());
    let table = app
        .world()
        .resource::<Assets<WearMaterials>>()
        .get(&handle)
        .unwrap();
    assert_eq!(table.materials[0].resolved.via, Resolution::Named);
    assert_eq!(table.materials[1].resolved.via, Resolution::Default);
    assert_eq!(table.materials[1].entry.name, "DEFAULT");
    assert_eq!(table.lightmap(0), (-1, None));
    let (slot, image) = table.lightmap(1);
    assert_eq!(slot as usize, index_of(&lightmaps, &existing).unwrap());
    assert!(image.is_some());
    assert_eq!(table.lightmap(2), (-1, None), "past the block");
}

/// Ids of the assets of type `A` modified so far.
#[derive(Resource)]
struct Modified<A: Asset>(Vec<AssetId<A>>);

impl<A: Asset> Default for Modified<A> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

fn record<A: Asset>(mut events: MessageReader<AssetEvent<A>>, mut seen: ResMut<Modified<A>>) {
    for e in events.read() {
        if let AssetEvent::Modified { id } = e {
            seen.0.push(*id);
        }
    }
}

#[test]
fn rewriting_a_texture_in_textures_lib_reloads_it_and_modifies_its_material() {
    let (_tmp, game) = install();
    let (name, wear) = lightmapped_wear(&game);
    let materials = entries(&game.join("Material.lib"));
    let textures = entries(&game.join("Textures.lib"));
    // `a`: a texture of the table's first material; `c`: another texture of
    // the same size and format; `b`: a texture the table does not use.
    let m = index_of(&materials, &wear.materials[0].name).unwrap();
    let mat0 = Mat0::parse(&materials[m].1, materials[m].2, materials[m].3).unwrap();
    let used: Vec<usize> = mat0
        .phases
        .iter()
        .filter_map(|p| index_of(&textures, p.texture()))
        .collect();
    let dims = |p: &[u8]| {
        let t = Texm::parse(p).unwrap();
        (t.width, t.height, t.format)
    };
    let (a, c) = used
        .iter()
        .find_map(|&a| {
            (0..textures.len())
                .find(|&c| {
                    c != a
                        && dims(&textures[c].1) == dims(&textures[a].1)
                        && textures[c].1 != textures[a].1
                })
                .map(|c| (a, c))
        })
        .expect("a used texture with a same-size twin");
    let b = (0..textures.len())
        .find(|&b| b != a && b != c && !used.contains(&b))
        .unwrap();

    let mut app = app_watching(IronAssetsPlugin::new(&game), true);
    app.init_resource::<Modified<Image>>()
        .init_resource::<Modified<WearMaterials>>()
        .add_systems(Update, (record::<Image>, record::<WearMaterials>));
    let server = app.world().resource::<AssetServer>().clone();
    let table: Handle<WearMaterials> = server.load(format!("iron://static.rlb/{name}"));
    let hb: Handle<Image> = server.load(format!("iron://Textures.lib/{}.texm", textures[b].0));
    assert!(settle(&mut app, &table).is_loaded());
    assert!(settle(&mut app, &hb).is_loaded());
    let ha = app
        .world()
        .resource::<Assets<WearMaterials>>()
        .get(&table)
        .unwrap()
        .materials[0]
        .textures
        .iter()
        .flatten()
        .find(|h| {
            h.path()
                .is_some_and(|p| p.path().to_string_lossy().contains(&textures[a].0))
        })
        .unwrap()
        .clone();
    assert!(settle(&mut app, &ha).is_loaded());
    pump(&mut app);
    app.world_mut().resource_mut::<Modified<Image>>().0.clear();
    app.world_mut()
        .resource_mut::<Modified<WearMaterials>>()
        .0
        .clear();

    let list: Vec<NewEntry> = textures
        .iter()
        .enumerate()
        .map(|(i, (name, payload, attr1, attr2))| NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: u32::from_le_bytes(*b"Texm"),
            attr1: *attr1,
            attr2: *attr2,
            attr3: 0,
            payload: if i == a { &textures[c].1 } else { payload },
        })
        .collect();
    write_atomic(&game.join("Textures.lib"), &nres::build(&list).unwrap()).unwrap();
    let want = base_pixels(&textures[c].1);
    assert!(until(&mut app, |app| image_base(app, &ha) == Some(want.clone())));
    assert!(until(&mut app, |app| {
        app.world()
            .resource::<Modified<WearMaterials>>()
            .0
            .contains(&table.id())
    }));
    pump(&mut app);
    let images = &app.world().resource::<Modified<Image>>().0;
    assert!(images.contains(&ha.id()));
    assert!(!images.contains(&hb.id()), "an unused texture was reloaded");
    let table = app
        .world()
        .resource::<Assets<WearMaterials>>()
        .get(&table)
        .unwrap();
    assert!(
        table.materials[0].textures.contains(&Some(ha)),
        "same handle after reload"
    );
}
