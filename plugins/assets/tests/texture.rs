//! Headless `App` tests of the `iron://` source and the Texm loader on a
//! generated demo install.

mod common;

use bevy::asset::LoadState;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use common::{app, install, settle};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::texture::{ColorSpace, TexmSettings};
use iron3d_formats::archive::{
    Mode,
    nres::{self, NewEntry, Nres},
};
use iron3d_formats::texm::Texm;
use std::path::Path;

/// `(name, payload)` of every entry of the install's `Textures.lib`.
fn textures(game: &Path) -> Vec<(String, Vec<u8>)> {
    let bytes = std::fs::read(game.join("Textures.lib")).unwrap();
    let lib = Nres::parse(&bytes, Mode::Strict).unwrap();
    (0..lib.entries().len())
        .map(|i| {
            let name = String::from_utf8(lib.entries()[i].name().to_vec()).unwrap();
            (name, lib.payload(i).to_vec())
        })
        .collect()
}

/// Every mip level of a Texm payload decoded to RGBA8, base first.
fn decoded(payload: &[u8]) -> (u32, u32, u32, Vec<u8>) {
    let t = Texm::parse(payload).unwrap();
    let mut data = Vec::new();
    for level in 0..t.mip_count() {
        data.extend(t.decode_level(level).unwrap().pixels);
    }
    (t.width, t.height, t.mip_count(), data)
}

fn assert_image(app: &App, handle: &Handle<Image>, payload: &[u8], format: TextureFormat) {
    let (w, h, mips, data) = decoded(payload);
    let images = app.world().resource::<Assets<Image>>();
    let image = images.get(handle).unwrap();
    assert_eq!((image.width(), image.height()), (w, h));
    assert_eq!(image.texture_descriptor.mip_level_count, mips);
    assert_eq!(image.texture_descriptor.format, format);
    assert!(
        image.data.as_deref() == Some(data.as_slice()),
        "pixels differ"
    );
    // Sampled as the fixed-function pipeline does: wrapping, bilinear.
    match &image.sampler {
        bevy::image::ImageSampler::Descriptor(d) => {
            assert_eq!(d.address_mode_u, bevy::image::ImageAddressMode::Repeat);
            assert_eq!(d.address_mode_v, bevy::image::ImageAddressMode::Repeat);
            assert_eq!(d.min_filter, bevy::image::ImageFilterMode::Linear);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn loads_a_texture_from_inside_textures_lib_with_its_mip_chain() {
    let (_tmp, game) = install();
    let all = textures(&game);
    let (name, payload) = all
        .iter()
        .find(|(_, p)| Texm::parse(p).unwrap().mip_count() > 1)
        .unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    // Any case, `\` separators; the `.texm` extension selects the loader.
    let path = format!("iron://textures.LIB\\{}.texm", name.to_ascii_lowercase());
    let handle: Handle<Image> = app.world().resource::<AssetServer>().load(path);
    assert!(settle(&mut app, &handle).is_loaded());
    assert_image(&app, &handle, payload, TextureFormat::Rgba8UnormSrgb);
}

#[test]
fn lightmap_setting_gives_linear_and_mip_skip_drops_levels() {
    let (_tmp, game) = install();
    let (name, payload) = textures(&game)
        .into_iter()
        .find(|(_, p)| Texm::parse(p).unwrap().mip_count() > 1)
        .unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<Image> = app
        .world()
        .resource::<AssetServer>()
        .load_builder()
        .with_settings(|s: &mut TexmSettings| {
            s.color_space = ColorSpace::Linear;
            s.mip_skip = 1;
        })
        .load(format!("iron://Textures.lib/{name}.texm"));
    assert!(settle(&mut app, &handle).is_loaded());
    let skipped = Texm::parse(&payload).unwrap().skipped(1).unwrap();
    assert_image(
        &app,
        &handle,
        &skipped.to_bytes().unwrap(),
        TextureFormat::Rgba8Unorm,
    );
}

#[test]
fn a_loose_file_in_a_mod_dir_overrides_the_archive_entry() {
    let (tmp, game) = install();
    let all = textures(&game);
    let (name, original) = &all[0];
    let (_, replacement) = all.iter().find(|(_, p)| p != original).unwrap();
    let mods = [tmp.path().join("mod_a"), tmp.path().join("mod_b")];
    // mod_a replaces the entry, mod_b (later, wins) replaces it again with
    // a different extension-less-looking file name in another case.
    std::fs::create_dir_all(mods[0].join("Textures.lib")).unwrap();
    std::fs::write(
        mods[0].join("Textures.lib").join(format!("{name}.texm")),
        original,
    )
    .unwrap();
    std::fs::create_dir_all(mods[1].join("TEXTURES.LIB")).unwrap();
    std::fs::write(
        mods[1]
            .join("TEXTURES.LIB")
            .join(format!("{}.tex", name.to_ascii_lowercase())),
        replacement,
    )
    .unwrap();
    let plugin = IronAssetsPlugin::new(&game)
        .with_mod_dir(&mods[0])
        .with_mod_dir(&mods[1]);
    let mut app = app(plugin);
    let handle: Handle<Image> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://Textures.lib/{name}.texm"));
    assert!(settle(&mut app, &handle).is_loaded());
    assert_image(&app, &handle, replacement, TextureFormat::Rgba8UnormSrgb);
}

#[test]
fn a_corrupted_entry_fails_with_file_entry_and_offset() {
    let (_tmp, game) = install();
    let all = textures(&game);
    let victim = 2;
    let entries: Vec<NewEntry> = all
        .iter()
        .enumerate()
        .map(|(i, (name, payload))| NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: 0,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload: if i == victim { &payload[..20] } else { payload },
        })
        .collect();
    std::fs::write(game.join("Textures.lib"), nres::build(&entries).unwrap()).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let name = &all[victim].0;
    let handle: Handle<Image> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://Textures.lib/{name}.texm"));
    let LoadState::Failed(err) = settle(&mut app, &handle) else {
        panic!("a truncated Texm must fail to load");
    };
    let text = err.to_string();
    eprintln!("load failure: {text}");
    assert!(text.contains("Textures.lib: "), "{text}");
    assert!(
        text.contains(&format!("entry #{victim} '{name}'")),
        "{text}"
    );
    assert!(text.contains("offset 0x"), "{text}");
    assert!(text.contains("Texm"), "{text}");
}

#[test]
fn loose_files_below_missions_resolve_case_insensitively() {
    let (_tmp, game) = install();
    let source = iron3d_assets::source::IronSource::new(&game, &[]).unwrap();
    let mission = iron3d_formats::gamedir::GameDir::open(&game)
        .unwrap()
        .missions()
        .unwrap()
        .remove(0);
    let path = format!("missions/{}/DATA.TMA", mission.name.to_ascii_uppercase());
    let found = source.read(Path::new(&path)).unwrap().unwrap();
    assert_eq!(
        found.origin,
        iron3d_assets::source::Origin::Loose(mission.tma.clone())
    );
    assert_eq!(found.bytes(), std::fs::read(&mission.tma).unwrap());
    assert!(
        source
            .read(Path::new("MISSIONS/nope/data.tma"))
            .unwrap()
            .is_none()
    );
}

#[test]
fn rsli_entries_are_decoded() {
    use iron3d_formats::archive::rsli::Rsli;
    let (_tmp, game) = install();
    // sprites.lib is RsLi with deflate-packed rows.
    let bytes = std::fs::read(game.join("sprites.lib")).unwrap();
    let lib = Rsli::parse(&bytes, Mode::Strict).unwrap();
    let name = lib.entries()[0].display_name();
    let payload = lib.decode(0).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<Image> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://SPRITES.LIB/{name}.texm"));
    assert!(settle(&mut app, &handle).is_loaded());
    assert_image(&app, &handle, &payload, TextureFormat::Rgba8UnormSrgb);
}

#[test]
fn page_rectangles_are_a_labelled_sub_asset() {
    use iron3d_assets::texture::TexturePages;
    let (_tmp, game) = install();
    let (name, payload) = textures(&game)
        .into_iter()
        .find(|(_, p)| Texm::parse(p).unwrap().page.is_some())
        .expect("the demo has an atlas texture");
    let texm = Texm::parse(&payload).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<TexturePages> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://Textures.lib/{name}.texm#pages"));
    assert!(settle(&mut app, &handle).is_loaded());
    let pages = app.world().resource::<Assets<TexturePages>>();
    let pages = pages.get(&handle).unwrap();
    assert_eq!(Some(&pages.rects), texm.page.as_ref());
    assert_eq!((pages.width, pages.height), (texm.width, texm.height));
}
