//! The scene built for the demo install's first mission through the
//! `iron://` asset source, without a window: terrain, batches under model
//! nodes with their legacy materials and draw-item sources, lightmaps on
//! UV1, MAT0 phases on game time, LOD switching, and a mod directory
//! overriding a texture.

// The archive rewrite and bounded-wait helpers of the asset reload tests.
#[path = "../../assets/tests/common/mod.rs"]
mod common;
mod game;

use bevy::asset::LoadState;
use bevy::mesh::Indices;
use bevy::prelude::*;
use iron3d_assets::material::WearMaterials;
use iron3d_assets::terrain::{GroundLayer, Terrain as TerrainAsset};
use iron3d_demo::{self as demo, Scale};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{Nres, NresEditor};
use iron3d_formats::fsutil::write_atomic;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::registry::Geometry;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::texm::Texm;
use iron3d_formats::wear::Wear;
use iron3d_render::animate::{MaterialBindings, active_phase, material_phase, material_time};
use iron3d_render::camera::MissionCamera;
use iron3d_render::draw::{DrawItemSource, DrawnBatch, RenderPhase};
use iron3d_render::lod::NodeSlots;
use iron3d_render::material::{FLAG_LIGHTMAP, LegacyMaterial};
use iron3d_render::paths;
use iron3d_render::scene::SceneRequests;
use iron3d_render::scene::{SceneBuilt, Terrain, TerrainLayer};
use iron3d_schedules::GameClock;
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::{
    LoadProgress, MissionObject, MissionPhase, MissionRequest, ModelNode, ModelState, NodeStage,
    PrototypeChain, UnitPartInfo, headless_app, spawn_built,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Frames allowed for loading and building the scene.
const MAX_FRAMES: usize = 400;

/// A windowless app over the demo install in `dir` (plus `mods`), updated
/// until its scene is built. Each update advances virtual time by 50 ms.
fn built_app(dir: &Path, mods: &[PathBuf]) -> App {
    built_app_watching(dir, mods, false)
}

/// [`built_app`], hot-reloading changed files when `watch`.
fn built_app_watching(dir: &Path, mods: &[PathBuf], watch: bool) -> App {
    let mut app = scene_app(dir, mods, watch);
    for _ in 0..MAX_FRAMES {
        if app.world().contains_resource::<SceneBuilt>() {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        app.world().contains_resource::<SceneBuilt>(),
        "scene not built in {MAX_FRAMES} frames"
    );
    let progress = app.world().resource::<LoadProgress>();
    assert!(
        progress.waited_frames > 0,
        "resource preparation waited for the asset loads: {progress:?}"
    );
    app
}

/// The windowless app of [`built_app_watching`], before any update.
fn scene_app(dir: &Path, mods: &[PathBuf], watch: bool) -> App {
    game::windowless_game(dir, mods, mods, watch)
}

fn demo_install() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    dir
}

fn sources(world: &mut World) -> Vec<(Entity, DrawItemSource)> {
    world
        .query::<(Entity, &DrawItemSource)>()
        .iter(world)
        .map(|(e, s)| (e, s.clone()))
        .collect()
}

/// The terrain's layer entities: layer, mesh and material, by layer then
/// texture index.
fn terrain_layers(world: &mut World) -> Vec<(TerrainLayer, Handle<Mesh>, Handle<LegacyMaterial>)> {
    let mut layers: Vec<_> = world
        .query_filtered::<(&TerrainLayer, &Mesh3d, &MeshMaterial3d<LegacyMaterial>), With<Terrain>>(
        )
        .iter(world)
        .map(|(l, mesh, m)| (*l, mesh.0.clone(), m.0.clone()))
        .collect();
    layers.sort_by_key(|(l, ..)| (l.layer, l.index));
    layers
}

/// The triangles of a loaded mesh.
fn face_count(world: &World, mesh: &Handle<Mesh>) -> usize {
    match world
        .resource::<Assets<Mesh>>()
        .get(mesh)
        .and_then(|m| m.indices())
    {
        Some(Indices::U32(i)) => i.len() / 3,
        other => panic!("terrain indices: {other:?}"),
    }
}

/// The ground is drawn as textured layer-1 meshes, one per texture index
/// of the faces (opaque terrain), and layer-2 overlays of exactly the faces
/// with a layer-2 texture, blended over them (a material pass) with the
/// textures `Land2.wea` names (`L10` -> `Textures.lib` member `L10.0`).
#[test]
fn terrain_draws_textured_layers_and_blended_overlays() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let world = app.world_mut();
    let land = world
        .resource::<Assets<TerrainAsset>>()
        .iter()
        .next()
        .map(|(_, t)| t.land.clone())
        .expect("the terrain asset");
    let lod0 = land.lod_faces(0);
    let expected = |layer: GroundLayer, index: u8| {
        lod0.iter()
            .map(|&f| &land.faces[f as usize])
            .filter(|f| match layer {
                GroundLayer::One => f.layer1_texture() == index,
                GroundLayer::Two => f.layer2_texture() == Some(index),
            })
            .count()
    };
    let layers = terrain_layers(world);
    let overlays = layers
        .iter()
        .filter(|(l, ..)| l.layer == GroundLayer::Two)
        .count();
    assert!(layers.len() - overlays >= 3, "grass, rock, sand, water");
    assert!(overlays >= 1, "site and road overlays");
    let mut sources = Vec::new();
    for (layer, mesh, material) in &layers {
        assert_eq!(face_count(world, mesh), layer.faces);
        assert_eq!(layer.faces, expected(layer.layer, layer.index), "{layer:?}");
        let m = world
            .resource::<Assets<LegacyMaterial>>()
            .get(material)
            .unwrap()
            .clone();
        let texture = m
            .texture
            .clone()
            .unwrap_or_else(|| panic!("{layer:?} untextured"));
        let image = world.resource::<Assets<Image>>().get(&texture).unwrap();
        assert!(image.width() > 0);
        let entity = world
            .query::<(&TerrainLayer, &DrawItemSource)>()
            .iter(world)
            .find(|(l, _)| **l == *layer)
            .map(|(_, s)| s.clone())
            .unwrap();
        assert_eq!(entity.object, None);
        assert_eq!(entity.render_phase, m.render_phase());
        match layer.layer {
            GroundLayer::One => {
                assert_eq!(m.render_phase(), RenderPhase::OpaqueTerrain);
                assert!(m.state.depth.write);
            }
            GroundLayer::Two => {
                assert_eq!(m.render_phase(), RenderPhase::MaterialPasses);
                assert!(m.state.depth.test && !m.state.depth.write);
                assert_eq!(m.alpha_mode(), AlphaMode::Mask(0.0));
                let path = entity.texture.clone().unwrap();
                let name = ["L10", "L11"][layer.index as usize];
                assert!(
                    path.ends_with(&format!("Textures.lib/{name}.0.texm")),
                    "{path}"
                );
            }
        }
        sources.push(entity.texture);
    }
    // The water row (`M_WATER`, not a texture) falls back to its material:
    // it shows a phase texture (which one depends on the game time).
    assert!(
        sources
            .iter()
            .flatten()
            .any(|p| p.contains("Textures.lib/T_WATER")),
        "{sources:?}"
    );
}

#[test]
fn demo_mission_scene_has_terrain_textured_models_and_a_placed_camera() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let world = app.world_mut();
    let built = *world.resource::<SceneBuilt>();
    assert!(built.batches > 0, "{built:?}");
    assert_eq!(built.failed, 0, "{built:?}");

    // The terrain's layer-1 meshes cover every LOD-0 face of the demo map.
    let layer1_faces: usize = terrain_layers(world)
        .iter()
        .filter(|(layer, ..)| layer.layer == GroundLayer::One)
        .map(|(_, mesh, _)| face_count(world, mesh))
        .sum();
    assert_eq!(layer1_faces, 8192, "every LOD-0 face of the demo map");

    // Every drawn batch hangs under a model node; the count matches.
    let batches: Vec<(Entity, Handle<LegacyMaterial>)> = world
        .query_filtered::<(&ChildOf, &MeshMaterial3d<LegacyMaterial>), With<DrawnBatch>>()
        .iter(world)
        .map(|(parent, m)| (parent.parent(), m.0.clone()))
        .collect();
    assert_eq!(batches.len(), built.batches);
    assert!(
        batches
            .iter()
            .all(|(parent, _)| world.get::<ModelNode>(*parent).is_some())
    );
    // Their materials carry decoded Texm textures.
    let materials = world.resource::<Assets<LegacyMaterial>>();
    let images = world.resource::<Assets<Image>>();
    let textured = batches
        .iter()
        .filter_map(|(_, m)| materials.get(m)?.texture.clone())
        .filter(|t| images.get(t).is_some_and(|i| i.width() > 0))
        .count();
    assert!(textured > 0, "some batches are textured");

    // Object roots got a visibility, so the batches below them are drawn.
    let roots_visible = world
        .query_filtered::<Option<&Visibility>, With<MissionObject>>()
        .iter(world)
        .all(|v| v == Some(&Visibility::Inherited));
    assert!(roots_visible);

    // The camera is above the ground, looking down.
    let camera = world
        .query_filtered::<&Transform, With<MissionCamera>>()
        .single(world)
        .unwrap();
    assert!(camera.translation.y > 50.0, "{camera:?}");
    assert!(camera.forward().y < -0.5, "{camera:?}");
}

#[test]
fn every_drawn_entity_has_a_draw_item_source_in_a_stable_order() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let world = app.world_mut();
    let all = sources(world);
    let drawn = world
        .query_filtered::<Entity, With<Mesh3d>>()
        .iter(world)
        .count();
    assert_eq!(all.len(), drawn, "one source per drawn entity");
    let terrain: Vec<_> = all.iter().filter(|(_, s)| s.object.is_none()).collect();
    assert_eq!(
        terrain.len(),
        terrain_layers(world).len(),
        "one per ground layer"
    );
    assert!(terrain.iter().all(|(_, s)| matches!(
        s.render_phase,
        RenderPhase::OpaqueTerrain | RenderPhase::MaterialPasses
    )));
    let mut items: Vec<&DrawItemSource> = all.iter().map(|(_, s)| s).collect();
    items.sort_by_key(|s| s.insertion);
    let insertions: Vec<u64> = items.iter().map(|s| s.insertion).collect();
    assert_eq!(insertions, (0..items.len() as u64).collect::<Vec<_>>());
    // Insertion follows (object id, node, ...): object ids never decrease.
    let objects: Vec<u32> = items.iter().filter_map(|s| s.object).collect();
    assert!(objects.windows(2).all(|w| w[0] <= w[1]), "{objects:?}");
    // The terrain's layers come first, then every batch.
    assert!(
        items
            .iter()
            .skip(terrain.len())
            .all(|s| s.node.is_some() && s.batch.is_some())
    );
    // The phases of tome V all occur in the demo: opaque, alpha-tested
    // (leaves), transparent (glass).
    for phase in [
        RenderPhase::OpaqueObjects,
        RenderPhase::AlphaTested,
        RenderPhase::Transparent,
    ] {
        assert!(items.iter().any(|s| s.render_phase == phase), "{phase:?}");
    }
    // Each source's key is its material's state key.
    let materials = world.resource::<Assets<LegacyMaterial>>();
    for (entity, source) in &all {
        let handle = world
            .get::<MeshMaterial3d<LegacyMaterial>>(*entity)
            .unwrap();
        let material = materials.get(&handle.0).unwrap();
        assert_eq!(source.pipeline_key, material.state.pipeline_key());
        assert_eq!(source.render_phase, material.render_phase());
    }
}

/// A robot made in play (a factory's) is drawn as the placed ones are:
/// its parts' batches, after every other in the insertion order.
#[test]
fn an_object_made_in_play_is_drawn_after_the_placed_ones() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let before = sources(app.world_mut());
    let id = spawn_built(app.world_mut(), "Warbot", 1, [100.0, 100.0, 0.0], 0.0).unwrap();
    app.update();
    let after = sources(app.world_mut());
    let made: Vec<&DrawItemSource> = after
        .iter()
        .map(|(_, s)| s)
        .filter(|s| s.object == Some(id.raw()))
        .collect();
    assert!(!made.is_empty(), "the robot's batches");
    assert_eq!(after.len(), before.len() + made.len());
    let last_before = before.iter().map(|(_, s)| s.insertion).max().unwrap();
    assert!(made.iter().all(|s| s.insertion > last_before));
    let mut insertions: Vec<u64> = after.iter().map(|(_, s)| s.insertion).collect();
    insertions.sort_unstable();
    insertions.dedup();
    assert_eq!(insertions.len(), after.len(), "every insertion once");
    let world = app.world();
    let root = world.resource::<ObjectRegistry>().entity(id).unwrap();
    assert_eq!(world.get::<Visibility>(root), Some(&Visibility::Inherited));
    assert_eq!(
        world.resource::<SceneBuilt>().batches,
        after.len() - terrain_count(&after)
    );
}

/// How many of `sources` draw the ground.
fn terrain_count(sources: &[(Entity, DrawItemSource)]) -> usize {
    sources.iter().filter(|(_, s)| s.object.is_none()).count()
}

#[test]
fn lightmapped_batches_use_uv1_and_their_lightmap_on_stage_one() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let world = app.world_mut();
    let lit: Vec<(Entity, DrawItemSource)> = sources(world)
        .into_iter()
        .filter(|(_, s)| s.lightmap.is_some())
        .collect();
    assert!(!lit.is_empty(), "the demo places lightmapped buildings");
    let materials = world.resource::<Assets<LegacyMaterial>>();
    let meshes = world.resource::<Assets<Mesh>>();
    let images = world.resource::<Assets<Image>>();
    for (entity, source) in &lit {
        assert!(
            source.lightmap.as_ref().unwrap().contains("LightMap.lib"),
            "{source:?}"
        );
        let material = materials
            .get(
                &world
                    .get::<MeshMaterial3d<LegacyMaterial>>(*entity)
                    .unwrap()
                    .0,
            )
            .unwrap();
        assert_eq!(material.state.stages[1].uv_set, 1);
        assert!(material.state.stages[1].textured());
        assert!(material.state.vertex.uv1);
        assert_ne!(material.uniform.flags & FLAG_LIGHTMAP, 0);
        let lightmap = material.lightmap.as_ref().unwrap();
        assert!(images.get(lightmap).is_some_and(|i| i.width() > 0));
        let mesh = meshes
            .get(&world.get::<Mesh3d>(*entity).unwrap().0)
            .unwrap();
        assert!(mesh.contains_attribute(Mesh::ATTRIBUTE_UV_1));
    }
    // Batches without a lightmap leave stage 1 off.
    let unlit = sources(world)
        .into_iter()
        .filter(|(_, s)| s.lightmap.is_none() && s.object.is_some())
        .count();
    assert!(unlit > 0);
}

#[test]
fn animated_materials_change_phase_over_game_time() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    // A drawn material whose phase (and texture) differs at another time.
    let (material, phase_then, millis_then) = {
        let world = app.world();
        let wears = world.resource::<Assets<WearMaterials>>();
        let now = world.resource::<GameClock>().elapsed().as_millis() as u32;
        world
            .resource::<MaterialBindings>()
            .iter()
            .find_map(|b| {
                let row = wears.get(b.wear.as_ref()?)?.materials.get(b.key.row)?;
                let later = now + 500;
                let p = active_phase(&row.mat0, later, 0);
                let differs = p != b.phase && row.textures[p] != row.textures[b.phase];
                (row.mat0.animations.first()?.mode_bits() == 0 && differs)
                    .then(|| (b.material.clone(), p, later))
            })
            .expect("an animated material (the blinking lamp) is drawn")
    };
    let texture_before = app
        .world()
        .resource::<Assets<LegacyMaterial>>()
        .get(&material)
        .unwrap()
        .texture
        .clone();
    for _ in 0..200 {
        let clock = app.world().resource::<GameClock>().elapsed().as_millis() as u32;
        if clock >= millis_then && clock < millis_then + 100 {
            break;
        }
        app.update();
    }
    let world = app.world_mut();
    let now = world.resource::<GameClock>().elapsed().as_millis() as u32;
    assert!(now >= millis_then, "the game clock ran ({now} ms)");
    let after = world
        .resource::<Assets<LegacyMaterial>>()
        .get(&material)
        .unwrap()
        .texture
        .clone();
    assert_ne!(after, texture_before, "stage 0 shows another texture");
    let phases: Vec<usize> = world
        .query::<(&MeshMaterial3d<LegacyMaterial>, &DrawItemSource)>()
        .iter(world)
        .filter(|(m, _)| m.0 == material)
        .map(|(_, s)| s.material_phase)
        .collect();
    assert!(!phases.is_empty());
    assert!(phases.iter().all(|&p| p == phase_then), "{phases:?}");
}

/// The slots of the batches shown under `node`.
fn shown_slots(app: &mut App, node: Entity) -> Vec<usize> {
    let world = app.world_mut();
    world
        .query::<(&DrawnBatch, &ChildOf, &Visibility)>()
        .iter(world)
        .filter(|(_, p, v)| p.parent() == node && **v != Visibility::Hidden)
        .map(|(b, _, _)| b.slot)
        .collect()
}

/// Puts the camera `distance` above `position` and lets the LODs follow.
fn place_camera(app: &mut App, position: Vec3, distance: f32) {
    let world = app.world_mut();
    let mut q = world.query_filtered::<&mut Transform, With<MissionCamera>>();
    for mut t in q.iter_mut(world) {
        *t = Transform::from_translation(position + Vec3::new(0.0, distance, 0.0))
            .looking_at(position, Vec3::Z);
    }
    app.update();
    app.update();
}

/// The first model node whose slots satisfy `wanted`, with its world
/// position and slots.
fn node_where(app: &mut App, wanted: impl Fn(&NodeSlots) -> bool) -> (Entity, Vec3, NodeSlots) {
    let world = app.world_mut();
    world
        .query::<(Entity, &NodeSlots, &GlobalTransform)>()
        .iter(world)
        .find(|(_, s, _)| wanted(s))
        .map(|(e, s, t)| (e, t.translation(), s.clone()))
        .expect("a matching model node")
}

/// Whether every entry of `shown` is `slot` (and there is one).
fn all_are(shown: &[usize], slot: usize) -> bool {
    !shown.is_empty() && shown.iter().all(|&s| s == slot)
}

#[test]
fn batches_switch_lod_with_camera_distance() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    // A node with two LODs in state 0.
    let (node, position, slots) = node_where(&mut app, |s| s.states[0].slots.len() >= 2);
    let lods = &slots.states[0];
    place_camera(&mut app, position, 0.5 * lods.radius);
    let near = shown_slots(&mut app, node);
    place_camera(&mut app, position, 1000.0 * lods.radius);
    let far = shown_slots(&mut app, node);
    assert!(all_are(&near, lods.slots[0].1), "{near:?} of {lods:?}");
    assert!(all_are(&far, lods.slots[1].1), "{far:?} of {lods:?}");
}

/// Gives every node of every model in the install's `*.rlb` archives a
/// state 1 whose LOD 0 is its LOD-1 geometry (`slot_index[5] =
/// slot_index[1]`), so states 0 and 1 show different slots up close. (The
/// demo's state 1 shares state 0's slots; it has no state 2.)
fn give_state_one_coarse_geometry(game: &Path) {
    const NODE_SIZE: usize = 38;
    const SLOT_INDEX: usize = 8;
    for file in std::fs::read_dir(game).unwrap() {
        let path = file.unwrap().path();
        if path
            .extension()
            .is_none_or(|e| !e.eq_ignore_ascii_case("rlb"))
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Ok(outer) = Nres::parse(&bytes, Mode::Compatible) else {
            continue; // an RsLi library (no models)
        };
        let mut archive = NresEditor::new(&outer);
        for (i, entry) in outer.entries().iter().enumerate() {
            if !entry.display_name().to_ascii_lowercase().ends_with(".msh") {
                continue;
            }
            let inner = Nres::parse(outer.payload(i), Mode::Compatible).unwrap();
            let n = inner.find_type(1).expect("a node table");
            let mut nodes = inner.payload(n).to_vec();
            assert_eq!(nodes.len() % NODE_SIZE, 0);
            for node in nodes.chunks_exact_mut(NODE_SIZE) {
                let at = |slot: usize| SLOT_INDEX + 2 * slot;
                let lod1 = [node[at(1)], node[at(1) + 1]];
                if lod1 != [0xFF, 0xFF] {
                    node[at(5)..at(5) + 2].copy_from_slice(&lod1);
                }
            }
            let mut model = NresEditor::new(&inner);
            model.set_payload(n, nodes);
            archive.set_payload(i, model.to_bytes().unwrap());
        }
        write_atomic(&path, &archive.to_bytes().unwrap()).unwrap();
    }
}

/// Sets the model state of the object `root` and lets the batches follow.
fn set_state(app: &mut App, root: Entity, state: u8) {
    app.world_mut()
        .entity_mut(root)
        .insert(ModelState::new(state).unwrap());
    app.update();
    app.update();
}

#[test]
fn batches_switch_with_the_objects_model_state() {
    let dir = demo_install();
    give_state_one_coarse_geometry(dir.path());
    let mut app = built_app(dir.path(), &[]);
    {
        let world = app.world_mut();
        let states: Vec<Option<ModelState>> = world
            .query_filtered::<Option<&ModelState>, With<MissionObject>>()
            .iter(world)
            .map(|s| s.copied())
            .collect();
        assert!(!states.is_empty());
        assert!(states.iter().all(|s| *s == Some(ModelState::default())));
    }
    // A node whose state 1 shows another slot up close than state 0, of
    // a model without state 2 (a machine's), so it draws state 0.
    let (node, position, slots) = node_where(&mut app, |s| {
        s.drawn == [0, 1, 0]
            && s.states[0].slots.first().map(|l| l.1) != s.states[1].slots.first().map(|l| l.1)
    });
    let (state0, state1) = (slots.states[0].slots[0].1, slots.states[1].slots[0].1);
    place_camera(&mut app, position, 0.5 * slots.states[0].radius);
    let shown = shown_slots(&mut app, node);
    assert!(all_are(&shown, state0), "state 0: {shown:?} of {slots:?}");

    set_state(&mut app, slots.object, 1);
    let shown = shown_slots(&mut app, node);
    assert!(all_are(&shown, state1), "state 1: {shown:?} of {slots:?}");
    // The shown batches' draw items name that slot.
    let world = app.world_mut();
    let items: Vec<Option<usize>> = world
        .query::<(&DrawItemSource, &ChildOf, &Visibility)>()
        .iter(world)
        .filter(|(_, p, v)| p.parent() == node && **v != Visibility::Hidden)
        .map(|(s, _, _)| s.slot)
        .collect();
    assert!(items.iter().all(|&s| s == Some(state1)), "{items:?}");

    set_state(&mut app, slots.object, 2);
    let shown = shown_slots(&mut app, node);
    assert!(all_are(&shown, state0), "state 2 falls back: {shown:?}");
    set_state(&mut app, slots.object, 0);
    assert!(all_are(&shown_slots(&mut app, node), state0));
}

/// A node in a damage stage (combat's [`NodeStage`]) shows that native
/// state's slot while its object stays in state 0: a demo building's
/// battered look.
#[test]
fn a_node_is_drawn_in_its_damage_stage() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let (node, position, slots) = node_where(&mut app, |s| {
        s.drawn == [0, 1, 2]
            && s.states[0].slots.first().map(|l| l.1) != s.states[1].slots.first().map(|l| l.1)
    });
    let (state0, battered) = (slots.states[0].slots[0].1, slots.states[1].slots[0].1);
    place_camera(&mut app, position, 0.5 * slots.states[0].radius);
    assert!(all_are(&shown_slots(&mut app, node), state0));
    for stage in [1, 2] {
        app.world_mut().entity_mut(node).insert(NodeStage(stage));
        app.update();
        app.update();
        let shown = shown_slots(&mut app, node);
        assert!(
            all_are(&shown, battered),
            "stage {stage}: {shown:?} of {slots:?}"
        );
    }
    assert_eq!(
        app.world().get::<ModelState>(slots.object),
        Some(&ModelState::default())
    );
    app.world_mut().entity_mut(node).insert(NodeStage(0));
    app.update();
    app.update();
    assert!(all_are(&shown_slots(&mut app, node), state0));
}

/// The entry payload of `name` in the archive at `path`.
fn entry(path: &Path, name: &str) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let nres = Nres::parse(&bytes, Mode::Compatible).unwrap();
    let i = nres.find(name.as_bytes()).unwrap();
    nres.payload(i).to_vec()
}

#[test]
fn a_mod_dir_overrides_a_drawn_texture() {
    let dir = demo_install();
    // Without the mod: a drawn texture and its size.
    let (path, width) = {
        let mut app = built_app(dir.path(), &[]);
        let world = app.world_mut();
        let materials = world.resource::<Assets<LegacyMaterial>>();
        let images = world.resource::<Assets<Image>>();
        let server = world.resource::<AssetServer>();
        materials
            .iter()
            .filter_map(|(_, m)| m.texture.clone())
            .find_map(|t| {
                let path = server.get_path(t.id())?.to_string();
                let width = images.get(&t)?.width();
                (path.contains("Textures.lib") && width != 32).then_some((path, width))
            })
            .expect("a drawn texture")
    };
    // The mod replaces it with the 32 x 32 lamp texture.
    let name = path.rsplit('/').next().unwrap().trim_end_matches(".texm");
    let mods = tempfile::tempdir().unwrap();
    let lib = mods.path().join("Textures.lib");
    std::fs::create_dir_all(&lib).unwrap();
    let lamp = entry(&dir.path().join("Textures.lib"), "T_LAMP_ON");
    assert_eq!(Texm::parse(&lamp).unwrap().width, 32);
    std::fs::write(lib.join(format!("{name}.texm")), &lamp).unwrap();
    let mut app = built_app(dir.path(), &[mods.path().to_path_buf()]);
    let world = app.world_mut();
    let materials = world.resource::<Assets<LegacyMaterial>>();
    let images = world.resource::<Assets<Image>>();
    let server = world.resource::<AssetServer>();
    let widths: Vec<u32> = materials
        .iter()
        .filter_map(|(_, m)| m.texture.clone())
        .filter(|t| {
            server
                .get_path(t.id())
                .is_some_and(|p| p.to_string() == path)
        })
        .filter_map(|t| images.get(&t).map(|i| i.width()))
        .collect();
    assert!(!widths.is_empty(), "{path} is drawn with the mod too");
    assert!(
        widths.iter().all(|&w| w == 32),
        "was {width}, now {widths:?}"
    );
}

/// `(name, type_id, payload)` of every entry of an archive.
type Entries = Vec<(String, u32, Vec<u8>)>;

/// What the reload tests watch: a drawn batch with a still material, its
/// material, the `Textures.lib` image on its stage 0 and that entry's index.
struct DrawnTexture {
    batch: Entity,
    material: Handle<LegacyMaterial>,
    image: Handle<Image>,
    entry: usize,
}

/// A drawn batch whose material is not animated (its stage 0 keeps one
/// image) and textured from `Textures.lib` entry `all[entry]`.
fn drawn_texture(app: &mut App, all: &Entries) -> DrawnTexture {
    let world = app.world_mut();
    let still: Vec<Handle<LegacyMaterial>> = {
        let wears = world.resource::<Assets<WearMaterials>>();
        world
            .resource::<MaterialBindings>()
            .iter()
            .filter(|b| {
                b.wear
                    .as_ref()
                    .and_then(|w| wears.get(w)?.materials.get(b.key.row))
                    .is_some_and(|row| row.mat0.animations.is_empty())
            })
            .map(|b| b.material.clone())
            .collect()
    };
    let batches: Vec<(Entity, Handle<LegacyMaterial>)> = world
        .query_filtered::<(Entity, &MeshMaterial3d<LegacyMaterial>), With<DrawnBatch>>()
        .iter(world)
        .map(|(e, m)| (e, m.0.clone()))
        .collect();
    let materials = world.resource::<Assets<LegacyMaterial>>();
    let server = world.resource::<AssetServer>();
    batches
        .into_iter()
        .filter(|(_, m)| still.contains(m))
        .find_map(|(batch, material)| {
            let image = materials.get(&material)?.texture.clone()?;
            let path = server.get_path(image.id())?.to_string();
            let name = path.strip_prefix("iron://Textures.lib/")?;
            let entry = all
                .iter()
                .position(|(n, _, _)| format!("{n}.texm").eq_ignore_ascii_case(name))?;
            Some(DrawnTexture {
                batch,
                material,
                image,
                entry,
            })
        })
        .expect("a still material textured from Textures.lib is drawn")
}

/// Ids of the batch materials modified since the last clear.
#[derive(Resource, Default)]
struct ModifiedMaterials(Vec<AssetId<LegacyMaterial>>);

fn record_modified(
    mut events: MessageReader<AssetEvent<LegacyMaterial>>,
    mut seen: ResMut<ModifiedMaterials>,
) {
    seen.0.extend(events.read().filter_map(|e| match e {
        AssetEvent::Modified { id } => Some(*id),
        _ => None,
    }));
}

/// The running mission with hot reload, the drawn texture it watches and
/// the entries of `Textures.lib` (the watcher settled, the record clear).
fn running_with_reload(dir: &Path) -> (App, DrawnTexture, Entries) {
    let all = common::nres_entries(&dir.join("Textures.lib"));
    let mut app = built_app_watching(dir, &[], true);
    app.init_resource::<ModifiedMaterials>()
        .add_systems(Update, record_modified);
    let drawn = drawn_texture(&mut app, &all);
    common::pump(&mut app);
    app.world_mut()
        .resource_mut::<ModifiedMaterials>()
        .0
        .clear();
    (app, drawn, all)
}

/// Another entry of `all` whose pixels differ from entry `a`'s.
fn other_pixels(all: &Entries, a: usize) -> usize {
    let pixels = common::base_pixels(&all[a].2);
    (0..all.len())
        .find(|&c| c != a && common::base_pixels(&all[c].2) != pixels)
        .expect("two textures with different pixels")
}

/// The batch still draws `drawn.material`, which still samples
/// `drawn.image`; the game clock runs.
fn still_drawn(app: &mut App, drawn: &DrawnTexture) {
    let clock = app.world().resource::<GameClock>().elapsed();
    app.update();
    let world = app.world();
    assert!(
        world.resource::<GameClock>().elapsed() > clock,
        "the game runs"
    );
    let on_batch = world.get::<MeshMaterial3d<LegacyMaterial>>(drawn.batch);
    assert_eq!(on_batch.map(|m| m.0.id()), Some(drawn.material.id()));
    let material = world
        .resource::<Assets<LegacyMaterial>>()
        .get(&drawn.material)
        .unwrap();
    assert_eq!(
        material.texture.as_ref().map(Handle::id),
        Some(drawn.image.id())
    );
}

#[test]
fn a_rewritten_archive_texture_reaches_the_drawn_material() {
    let dir = demo_install();
    let (mut app, drawn, all) = running_with_reload(dir.path());
    let c = other_pixels(&all, drawn.entry);
    let want = common::base_pixels(&all[c].2);
    assert_ne!(common::image_base(&app, &drawn.image), Some(want.clone()));

    common::rewrite_entry(
        &dir.path().join("Textures.lib"),
        &all,
        drawn.entry,
        &all[c].2,
    );
    assert!(
        common::until(&mut app, |app| {
            let modified = &app.world().resource::<ModifiedMaterials>().0;
            common::image_base(app, &drawn.image) == Some(want.clone())
                && modified.contains(&drawn.material.id())
        }),
        "the batch's material shows the new pixels"
    );
    still_drawn(&mut app, &drawn);
}

#[test]
fn a_corrupt_rewrite_keeps_the_last_good_texture_drawn() {
    let dir = demo_install();
    let (mut app, drawn, all) = running_with_reload(dir.path());
    let before = common::image_base(&app, &drawn.image);
    assert!(before.is_some());
    let truncated = &all[drawn.entry].2[..20];

    common::rewrite_entry(
        &dir.path().join("Textures.lib"),
        &all,
        drawn.entry,
        truncated,
    );
    assert!(common::until(&mut app, |app| matches!(
        app.world()
            .resource::<AssetServer>()
            .load_state(&drawn.image),
        LoadState::Failed(_)
    )));
    common::pump(&mut app);
    assert_eq!(common::image_base(&app, &drawn.image), before);
    still_drawn(&mut app, &drawn);
}

/// The terrain entity drawing `(layer, index)`: its material and draw item.
fn terrain_entity(
    world: &World,
    layer: GroundLayer,
    index: u8,
) -> Option<(Entity, Handle<LegacyMaterial>, DrawItemSource)> {
    world
        .try_query_filtered::<(
            Entity,
            &TerrainLayer,
            &MeshMaterial3d<LegacyMaterial>,
            &DrawItemSource,
        ), With<Terrain>>()?
        .iter(world)
        .find(|(_, l, ..)| (l.layer, l.index) == (layer, index))
        .map(|(e, _, m, s)| (e, m.0.clone(), s.clone()))
}

/// The path of the stage-0 texture of a terrain material.
fn material_texture_path(world: &World, material: &Handle<LegacyMaterial>) -> Option<String> {
    let texture = world
        .resource::<Assets<LegacyMaterial>>()
        .get(material)?
        .texture
        .clone()?;
    Some(
        world
            .resource::<AssetServer>()
            .get_path(texture.id())?
            .to_string(),
    )
}

/// Every map directory of the demo install.
fn map_dirs(game: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(game.join("MAPS"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Land.msh").exists())
        .collect()
}

/// The running mission with hot reload, the watcher settled.
fn watching_install(dir: &Path) -> App {
    let mut app = built_app_watching(dir, &[], true);
    common::pump(&mut app);
    app
}

/// Layer-1 index 0 (grass, `L00`) of the demo's first mission names
/// `L02` after `Land1.wea` is rewritten (atomically, as the editor saves):
/// the running game rebinds that layer's entity to the new texture, in
/// place (same entity and insertion id), without a restart.
#[test]
fn a_rewritten_layer_table_rebinds_the_terrain_layer() {
    let dir = demo_install();
    let mut app = watching_install(dir.path());
    let (entity, material, source) =
        terrain_entity(app.world_mut(), GroundLayer::One, 0).expect("a grass layer");
    let before = source.texture.clone().unwrap();
    assert!(before.ends_with("Textures.lib/L00.0.texm"), "{before}");
    assert_eq!(
        material_texture_path(app.world(), &material).as_ref(),
        Some(&before)
    );
    let layer_count = terrain_layers(app.world_mut()).len();

    for map in map_dirs(dir.path()) {
        let path = map.join("Land1.wea");
        let mut wear = Wear::parse(&std::fs::read(&path).unwrap(), Mode::Strict).unwrap();
        assert_eq!(wear.materials[0].name, b"L00");
        wear.materials[0].name = b"L02".to_vec();
        write_atomic(&path, &wear.to_bytes().unwrap()).unwrap();
    }
    let rebound = |app: &App| {
        let world = app.world();
        let Some((e, material, source)) = terrain_entity(world, GroundLayer::One, 0) else {
            return false;
        };
        let path = source.texture.clone().unwrap_or_default();
        e == entity
            && path.ends_with("Textures.lib/L02.0.texm")
            && material_texture_path(world, &material) == Some(path)
    };
    assert!(
        common::until(&mut app, rebound),
        "the grass layer draws L02"
    );
    let world = app.world_mut();
    assert_eq!(terrain_layers(world).len(), layer_count);
    let (_, _, after) = terrain_entity(world, GroundLayer::One, 0).unwrap();
    assert_eq!(after.insertion, source.insertion, "same place in the order");
}

/// A ground texture rewritten inside `Textures.lib` (`L00.0`, through the
/// archive writer) reaches the image the grass layer's material samples.
#[test]
fn a_rewritten_ground_texture_reaches_the_terrain_material() {
    let dir = demo_install();
    let lib = dir.path().join("Textures.lib");
    let all = common::nres_entries(&lib);
    let grass = all
        .iter()
        .position(|(n, ..)| n.eq_ignore_ascii_case("L00.0"))
        .expect("the grass texture");
    let mut app = watching_install(dir.path());
    let c = other_pixels(&all, grass);
    let want = common::base_pixels(&all[c].2);
    let grass_image = |app: &App| {
        let world = app.world();
        let (_, material, _) = terrain_entity(world, GroundLayer::One, 0)?;
        world
            .resource::<Assets<LegacyMaterial>>()
            .get(&material)?
            .texture
            .clone()
    };
    let image = grass_image(&app).expect("a textured grass layer");
    assert_ne!(common::image_base(&app, &image), Some(want.clone()));

    common::rewrite_entry(&lib, &all, grass, &all[c].2);
    assert!(
        common::until(&mut app, |app| {
            grass_image(app).is_some_and(|i| common::image_base(app, &i) == Some(want.clone()))
        }),
        "the grass layer's material shows the new pixels"
    );
}

/// A `Land.msh` rewritten corrupt fails to reload: the last good terrain
/// stays drawn (same entities, meshes and materials).
#[test]
fn a_corrupt_land_file_keeps_the_last_good_terrain_drawn() {
    let dir = demo_install();
    let mut app = watching_install(dir.path());
    let before = terrain_layers(app.world_mut());
    assert!(!before.is_empty());
    let handle = app
        .world()
        .resource::<iron3d_render::terrain::SceneTerrain>()
        .handle
        .clone();
    for map in map_dirs(dir.path()) {
        let path = map.join("Land.msh");
        let bytes = std::fs::read(&path).unwrap();
        write_atomic(&path, &bytes[..20]).unwrap();
    }
    assert!(common::until(&mut app, |app| matches!(
        app.world().resource::<AssetServer>().load_state(&handle),
        LoadState::Failed(_)
    )));
    common::pump(&mut app);
    let world = app.world_mut();
    assert!(
        world
            .resource::<Assets<TerrainAsset>>()
            .get(&handle)
            .is_some()
    );
    assert_eq!(terrain_layers(world), before);
}

/// Every terrain layer entity by (layer, index): entity and insertion id.
fn terrain_insertions(world: &mut World) -> Vec<((GroundLayer, u8), Entity, u64)> {
    let mut all: Vec<_> = world
        .query_filtered::<(Entity, &TerrainLayer, &DrawItemSource), With<Terrain>>()
        .iter(world)
        .map(|(e, l, s)| ((l.layer, l.index), e, s.insertion))
        .collect();
    all.sort_by_key(|(key, ..)| *key);
    all
}

/// Rewrites every map's `Land.msh` (atomically, through the `Land.msh`
/// writer) with no layer 2 on the faces whose layer-2 texture is `index`;
/// returns each file's original bytes.
fn drop_layer2_index(game: &Path, index: u8) -> Vec<(PathBuf, Vec<u8>)> {
    map_dirs(game)
        .into_iter()
        .map(|map| {
            let path = map.join("Land.msh");
            let bytes = std::fs::read(&path).unwrap();
            let container = Nres::parse(&bytes, Mode::Strict).unwrap();
            let mut land = LandMsh::parse(&bytes, Mode::Strict).unwrap();
            for face in &mut land.faces {
                if face.layer2_texture() == Some(index) {
                    face.set_layer_textures(face.layer1_texture(), None);
                }
            }
            write_atomic(&path, &land.rewrite(&container).unwrap()).unwrap();
            (path, bytes)
        })
        .collect()
}

/// The insertion ids of every drawn entity are distinct.
fn insertions_unique(world: &mut World) -> bool {
    let mut ids: Vec<u64> = sources(world).iter().map(|(_, s)| s.insertion).collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    ids.len() == count
}

/// Updates until the terrain entity of `key` is drawn (`drawn`) or gone,
/// then lets the watcher settle.
fn await_overlay(app: &mut App, key: (GroundLayer, u8), drawn: bool) {
    assert!(
        common::until(app, |app| {
            terrain_entity(app.world(), key.0, key.1).is_some() == drawn
        }),
        "the overlay {key:?} drawn: {drawn}"
    );
    common::pump(app);
}

/// A layer-2 texture index that disappears from the faces of `Land.msh`
/// (rewritten atomically) despawns that overlay's entity only: the other
/// layers keep their entities and insertion ids. Restoring the file spawns
/// the overlay again after every existing draw item, the rest unchanged.
#[test]
fn a_layer2_index_leaving_and_returning_despawns_and_respawns_its_overlay() {
    let dir = demo_install();
    let mut app = watching_install(dir.path());
    let before = terrain_insertions(app.world_mut());
    let overlays: Vec<u8> = before
        .iter()
        .filter(|((layer, _), ..)| *layer == GroundLayer::Two)
        .map(|((_, index), ..)| *index)
        .collect();
    assert!(overlays.len() >= 2, "two overlays in the demo: {before:?}");
    let gone = (GroundLayer::Two, overlays[0]);
    let (gone_entity, ..) = terrain_entity(app.world(), gone.0, gone.1).unwrap();
    let others: Vec<_> = before
        .iter()
        .filter(|(k, ..)| *k != gone)
        .cloned()
        .collect();
    let next = app
        .world()
        .resource::<iron3d_render::terrain::SceneTerrain>()
        .next_insertion;

    let originals = drop_layer2_index(dir.path(), gone.1);
    await_overlay(&mut app, gone, false);
    let world = app.world_mut();
    assert!(world.get_entity(gone_entity).is_err(), "despawned");
    assert_eq!(
        terrain_insertions(world),
        others,
        "the others stay as they were"
    );
    assert!(insertions_unique(world));

    for (path, bytes) in &originals {
        write_atomic(path, bytes).unwrap();
    }
    await_overlay(&mut app, gone, true);
    let world = app.world_mut();
    let after = terrain_insertions(world);
    let back: Vec<_> = after.iter().filter(|(k, ..)| *k != gone).cloned().collect();
    assert_eq!(back, others, "the others keep their entities and order");
    let (_, _, source) = terrain_entity(world, gone.0, gone.1).unwrap();
    assert_eq!(
        source.insertion, next,
        "the returning overlay is drawn last"
    );
    assert!(insertions_unique(world));
    assert_eq!(
        world
            .resource::<iron3d_render::terrain::SceneTerrain>()
            .next_insertion,
        next + 1
    );
    assert_eq!(terrain_layers(world).len(), before.len());
}

/// The water layer (`M_WATER`, a `Material.lib` entry of four phases
/// switching every 250 ms) cycles its phase on game time like a model
/// material, its texture the phase's; a paused clock freezes it.
#[test]
fn the_water_layer_animates_its_material_on_game_time() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let (layer, mat0, name) = {
        let world = app.world();
        let terrain = world
            .resource::<Assets<TerrainAsset>>()
            .iter()
            .next()
            .map(|(_, t)| t.clone())
            .unwrap();
        let water = terrain
            .layers
            .iter()
            .find(|l| l.name.as_deref() == Some("M_WATER"))
            .expect("a water layer");
        let m = water.material.clone().expect("M_WATER is a material");
        assert_eq!(m.mat0.phases.len(), 4);
        ((water.layer, water.index), m.mat0, m.entry.name)
    };
    let shown = |app: &App| {
        let world = app.world();
        let (_, material, source) = terrain_entity(world, layer.0, layer.1).unwrap();
        let millis = material_time(world.resource::<GameClock>());
        let expected = material_phase(&mat0, &name, millis);
        assert_eq!(source.material_phase, expected, "at {millis} ms");
        let path = source.texture.clone().unwrap();
        assert!(path.ends_with(&format!("T_WATER{expected}.texm")), "{path}");
        assert_eq!(material_texture_path(world, &material), Some(path));
        expected
    };
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        app.update();
        seen.insert(shown(&app));
    }
    assert_eq!(seen.len(), 4, "every phase shows: {seen:?}");

    app.world_mut().resource_mut::<GameClock>().pause();
    let frozen = shown(&app);
    let millis = app.world().resource::<GameClock>().elapsed();
    for _ in 0..20 {
        app.update();
        assert_eq!(shown(&app), frozen);
    }
    assert_eq!(app.world().resource::<GameClock>().elapsed(), millis);
}

/// The archive, entry and `iron://` path (relative to the install) of the
/// first placed part's model of the demo's first mission, as the headless
/// loader resolves it.
fn a_placed_model(dir: &Path) -> (String, String, PathBuf) {
    let request = MissionRequest {
        game_dir: dir.to_path_buf(),
        mission: None,
        mod_dirs: Vec::new(),
    };
    let mut app = headless_app(Some(request), 0);
    while *app.world().resource::<State<MissionPhase>>().get() != MissionPhase::Running {
        app.update();
    }
    let name = app.world().resource::<LoadProgress>().mission.clone();
    let mission = GameDir::open(dir).unwrap().mission(&name).unwrap();
    let game = iron3d_assets::source::IronSource::new(dir, &[]).unwrap();
    let mission_dir = game.relative(&mission.dir).unwrap().to_path_buf();
    let world = app.world_mut();
    let mut chains = world.query::<&PrototypeChain>();
    chains
        .iter(world)
        .find_map(|c| match c.0.geometry() {
            Geometry::Mesh(r) => {
                let (path, _) = paths::model_path(&game, &mission_dir, &c.0).ok()??;
                let archive = String::from_utf8_lossy(&r.archive).into_owned();
                let entry = String::from_utf8_lossy(&r.resource).into_owned();
                Some((archive, entry, path.path().to_path_buf()))
            }
            _ => None,
        })
        .expect("a placed model")
}

/// Updates `app` until its mission runs or fails; asserts it failed and
/// returns the load's error chain.
fn failed_load(app: &mut App) -> iron3d_world::mission::LoadError {
    for _ in 0..MAX_FRAMES {
        let phase = *app.world().resource::<State<MissionPhase>>().get();
        if matches!(phase, MissionPhase::Failed | MissionPhase::Running) {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let world = app.world();
    assert_eq!(
        *world.resource::<State<MissionPhase>>().get(),
        MissionPhase::Failed
    );
    world
        .resource::<LoadProgress>()
        .error
        .clone()
        .expect("the error chain")
}

/// A model the mission's own checks accept (the install's entry is whole)
/// but the asset loader cannot load (a mod layer of the asset source alone
/// replaces it with a truncated copy) fails the load in resource preparation with the chain
/// down to that archive entry, leaving nothing built or registered.
#[test]
fn a_model_only_the_asset_loader_rejects_fails_the_mission_with_its_chain() {
    let dir = demo_install();
    let (archive, entry_name, path) = a_placed_model(dir.path());
    let whole = entry(&dir.path().join(path.parent().unwrap()), &entry_name);
    let mods = tempfile::tempdir().unwrap();
    let broken = mods.path().join(&path);
    std::fs::create_dir_all(broken.parent().unwrap()).unwrap();
    std::fs::write(&broken, &whole[..whole.len() / 2]).unwrap();

    let mut app = game::windowless_game(dir.path(), &[], &[mods.path().to_path_buf()], false);
    let error = failed_load(&mut app);
    let world = app.world_mut();
    assert_eq!(error.phase, MissionPhase::Resources);
    assert!(
        error.object.is_some() && error.prototype.is_some(),
        "{error}"
    );
    assert_eq!(error.archive, Some(format!("'{archive}'")), "{error}");
    assert_eq!(error.entry, Some(format!("'{entry_name}'")), "{error}");
    // The asset error, about the mod's truncated file.
    assert!(
        error.cause.contains(&broken.display().to_string()),
        "{error}"
    );
    assert!(world.resource::<ObjectRegistry>().is_empty());
    let mut built = world
        .query_filtered::<Entity, Or<(With<MissionObject>, With<UnitPartInfo>, With<ModelNode>)>>();
    assert_eq!(built.iter(world).count(), 0, "no entity of the mission");
    assert!(!world.contains_resource::<SceneBuilt>());
    assert!(!world.contains_resource::<SceneRequests>());
    assert_eq!(world.resource::<GameClock>().tick(), 0);
}

/// A `Land.msh` the mission's own checks accept (the install's file is
/// whole) but the terrain loader cannot load (a mod layer of the asset
/// source alone replaces it with a truncated copy) fails the first load: the scene waits for the
/// terrain in resource preparation, so the mission fails there with the
/// chain down to that file, and nothing is drawn.
#[test]
fn a_land_file_only_the_terrain_loader_rejects_fails_the_mission() {
    let dir = demo_install();
    let mods = tempfile::tempdir().unwrap();
    let mut broken = Vec::new();
    for map in map_dirs(dir.path()) {
        let relative = map.strip_prefix(dir.path()).unwrap().join("Land.msh");
        let bytes = std::fs::read(dir.path().join(&relative)).unwrap();
        let path = mods.path().join(&relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &bytes[..20]).unwrap();
        broken.push(path);
    }
    let mut app = game::windowless_game(dir.path(), &[], &[mods.path().to_path_buf()], false);
    let error = failed_load(&mut app);
    let world = app.world_mut();
    assert_eq!(error.phase, MissionPhase::Resources);
    assert!(
        error
            .archive
            .as_ref()
            .is_some_and(|a| a.contains("Land.msh")),
        "{error}"
    );
    assert!(
        broken
            .iter()
            .any(|b| error.cause.contains(&b.display().to_string())),
        "{error}"
    );
    assert!(!world.contains_resource::<iron3d_render::terrain::SceneTerrain>());
    assert!(terrain_layers(world).is_empty());
    assert!(!world.contains_resource::<SceneBuilt>());
}

/// Each (origin, parsed type) of a source's parse statistics, with how
/// many times it was parsed.
fn parse_runs(source: &iron3d_assets::source::IronSource) -> Vec<(String, &'static str, u32)> {
    let runs = source.parse_stats().runs();
    runs.into_iter()
        .map(|(origin, ty, n)| (origin.to_string(), ty, n))
        .collect()
}

/// The mission loader's checks and the renderer's asset loads share one
/// parse per entry: with both reading, every entry is parsed once per type,
/// and every parse the loader alone makes (its MSH, WEAR, MAT0, Texm,
/// Land.msh and registry checks) is among them, not made a second time by
/// the renderer's loaders.
#[test]
fn the_loader_and_the_renderer_share_one_parse_per_entry() {
    let dir = demo_install();
    let both = built_app(dir.path(), &[]);
    let shared = both.world().resource::<iron3d_assets::IronSourceHandle>();
    let with_renderer = parse_runs(&shared.0);
    let twice: Vec<_> = with_renderer.iter().filter(|r| r.2 != 1).collect();
    assert!(twice.is_empty(), "parsed more than once: {twice:?}");

    // The loader alone, over a source the test holds.
    let alone =
        std::sync::Arc::new(iron3d_assets::source::IronSource::new(dir.path(), &[]).unwrap());
    let mut app = headless_app(
        Some(MissionRequest {
            game_dir: dir.path().to_path_buf(),
            mission: None,
            mod_dirs: Vec::new(),
        }),
        0,
    );
    app.insert_resource(iron3d_assets::IronSourceHandle(alone.clone()));
    while *app.world().resource::<State<MissionPhase>>().get() != MissionPhase::Running {
        app.update();
    }
    let loader_only = parse_runs(&alone);
    for kind in ["Msh", "Wear", "Mat0", "Texm", "LandMsh", "Registry"] {
        let count = loader_only.iter().filter(|r| r.1.ends_with(kind)).count();
        assert!(count > 0, "the loader parses no {kind}: {loader_only:?}");
    }
    for run in &loader_only {
        assert!(
            with_renderer.contains(run),
            "{run:?} not shared: {with_renderer:?}"
        );
    }
    // What the renderer adds is what the loader does not read: the
    // terrain's layer tables and their textures.
    let added: Vec<_> = with_renderer
        .iter()
        .filter(|r| !loader_only.contains(r))
        .collect();
    let terrain = |r: &&(String, &str, u32)| {
        r.0.to_ascii_lowercase().ends_with(".wea") || r.1.ends_with("Texm")
    };
    assert!(!added.is_empty() && added.iter().all(terrain), "{added:?}");
}

/// Every placed entity of the running mission and its view carries a
/// name (the world inspector lists entities by it): objects, parts and
/// nodes by their original ids, model batches, terrain layers, the camera
/// and the lights.
#[test]
fn every_entity_of_the_scene_has_a_name() {
    let dir = demo_install();
    let mut app = built_app(dir.path(), &[]);
    let world = app.world_mut();
    let nameless: Vec<Entity> = world
        .query_filtered::<Entity, (With<Transform>, Without<Name>)>()
        .iter(world)
        .collect();
    let named = world
        .query_filtered::<(), (With<Transform>, With<Name>)>()
        .iter(world)
        .count();
    assert!(named > 100, "{named}");
    let shown: Vec<_> = nameless
        .iter()
        .take(5)
        .map(|&e| {
            world
                .inspect_entity(e)
                .map(|c| c.map(|i| i.name().to_string()).collect::<Vec<_>>())
        })
        .collect();
    assert!(
        nameless.is_empty(),
        "{} nameless: {shown:?}",
        nameless.len()
    );
}
