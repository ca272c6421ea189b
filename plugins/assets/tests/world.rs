//! Headless `App` tests of the FXID, `Land.msh` and `Land.map` loaders on a
//! demo install.

mod common;

use bevy::prelude::*;
use common::{app, install, settle};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::effect::Effect;
use iron3d_assets::terrain::{ArealMap, Terrain};
use iron3d_formats::archive::{Mode, nres::Nres};
use iron3d_formats::fxid::Fxid;
use iron3d_formats::terrain::land_map::{ArealLocator, LandMap};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::TerrainSurface;

#[test]
fn every_effect_of_effects_rlb_loads_as_its_parsed_fxid() {
    let (_tmp, game) = install();
    let bytes = std::fs::read(game.join("effects.rlb")).unwrap();
    let lib = Nres::parse(&bytes, Mode::Strict).unwrap();
    assert!(!lib.entries().is_empty());
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    let handles: Vec<Handle<Effect>> = lib
        .entries()
        .iter()
        .map(|e| {
            let name = String::from_utf8(e.name().to_vec()).unwrap();
            server.load(format!("iron://EFFECTS.RLB/{name}.fxid"))
        })
        .collect();
    for (i, handle) in handles.iter().enumerate() {
        assert!(settle(&mut app, handle).is_loaded());
        let effect = app
            .world()
            .resource::<Assets<Effect>>()
            .get(handle)
            .unwrap();
        assert_eq!(effect.fxid, Fxid::parse(lib.payload(i)).unwrap());
    }
}

/// `(min, max)` of the X/Y ground plane of `land`.
fn ground_bounds(land: &LandMsh) -> ([f32; 2], [f32; 2]) {
    land.positions
        .iter()
        .fold(([f32::MAX; 2], [f32::MIN; 2]), |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        })
}

/// A 9 x 9 grid of ground points strictly inside the bounds.
fn probe_points(lo: [f32; 2], hi: [f32; 2]) -> Vec<[f32; 2]> {
    (1..10)
        .flat_map(|i| {
            (1..10).map(move |j| {
                [
                    lo[0] + (hi[0] - lo[0]) * i as f32 / 10.0,
                    lo[1] + (hi[1] - lo[1]) * j as f32 / 10.0,
                ]
            })
        })
        .collect()
}

#[test]
fn land_msh_loads_as_terrain_with_a_queryable_surface() {
    let (_tmp, game) = install();
    let parsed = LandMsh::parse(
        &std::fs::read(game.join("MAPS/Map01/Land.msh")).unwrap(),
        Mode::Strict,
    )
    .unwrap();
    let direct = TerrainSurface::build_lod0(&parsed);
    let mut app = app(IronAssetsPlugin::new(&game));
    // Typed load: `*.msh` is also the model extension.
    let handle: Handle<Terrain> = app
        .world()
        .resource::<AssetServer>()
        .load("iron://maps\\MAP01\\land.MSH");
    assert!(settle(&mut app, &handle).is_loaded());
    let terrain = app
        .world()
        .resource::<Assets<Terrain>>()
        .get(&handle)
        .unwrap();
    assert_eq!(*terrain.land, parsed);
    assert_eq!(terrain.surface.face_count(), direct.face_count());
    let (lo, hi) = ground_bounds(&parsed);
    let mut hits = 0;
    for [x, y] in probe_points(lo, hi) {
        let h = terrain.surface.height(x, y);
        assert_eq!(h, direct.height(x, y));
        hits += usize::from(h.is_some());
    }
    assert!(hits > 0, "no probe point hit the terrain");
}

#[test]
fn land_map_loads_as_an_areal_map_with_locator_and_routes() {
    let (_tmp, game) = install();
    let parsed = LandMap::parse(
        &std::fs::read(game.join("MAPS/Map01/Land.map")).unwrap(),
        Mode::Strict,
    )
    .unwrap();
    let land = LandMsh::parse(
        &std::fs::read(game.join("MAPS/Map01/Land.msh")).unwrap(),
        Mode::Strict,
    )
    .unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<ArealMap> = app
        .world()
        .resource::<AssetServer>()
        .load("iron://MAPS/Map01/Land.map");
    assert!(settle(&mut app, &handle).is_loaded());
    let areal_map = app
        .world()
        .resource::<Assets<ArealMap>>()
        .get(&handle)
        .unwrap();
    assert_eq!(areal_map.map, parsed);
    let (locator, direct) = (areal_map.locator(), ArealLocator::new(&parsed));
    let (lo, hi) = ground_bounds(&land);
    let located: Vec<[f32; 2]> = probe_points(lo, hi)
        .into_iter()
        .filter(|&[x, y]| {
            let areal = locator.areal_at(x, y);
            assert_eq!(areal, direct.areal_at(x, y));
            areal.is_some()
        })
        .collect();
    assert!(located.len() >= 2, "too few probe points inside areals");
    let (from, to) = (located[0], located[located.len() - 1]);
    assert_eq!(
        areal_map.navigator().route(from, to),
        Navigator::new(&parsed).route(from, to)
    );
}
