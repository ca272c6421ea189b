//! The drawn terrain: one entity per ground layer mesh of the scene's
//! `Land.msh` ([`TerrainAsset`]), layer 1 opaque, layer 2 blended over it
//! (docs/facts.md "Terrain layers").
//!
//! A layer whose name resolved to a `Material.lib` entry (the demo's water
//! `M_WATER`, retail `WATER`) shows the MAT0 phase of the game time on the
//! phase clock of the model materials ([`crate::animate::material_phase`]):
//! a paused clock freezes it ([`animate_terrain`]).
//!
//! Hot reload: the terrain loader reads `Land.msh`, the `.wea` tables and
//! the textures as loader dependencies, so rewriting any of them reloads
//! the [`TerrainAsset`]; on its `Modified` event the layer entities are
//! rebound to the new meshes, materials and draw items ([`reload_terrain`]).
//! A failed reload leaves the asset (and so the drawn terrain) as it was.

use crate::animate::{draw_item, material_phase, material_time, set_material_fields};
use crate::draw::DrawItemSource;
use crate::legacy::MaterialInputs;
use crate::material::LegacyMaterial;
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use iron3d_assets::terrain::{GroundLayer, Terrain as TerrainAsset, TerrainLayerMesh};
use iron3d_schedules::GameClock;
use iron3d_world::mission::MissionScoped;

/// Marks the terrain's entities (one per ground layer mesh).
#[derive(Component, Debug)]
#[require(Name::new("Terrain layer"))]
pub struct Terrain;

/// The ground layer mesh a terrain entity draws: its layer, the texture
/// index of its layer table, and its face count.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainLayer {
    pub layer: GroundLayer,
    pub index: u8,
    /// Its faces are water (the water module).
    pub water: bool,
    pub faces: usize,
}

/// The scene's terrain asset (held, so it stays loaded and hot-reloads)
/// and the next free draw-item insertion id (for layers a reload adds).
#[derive(Resource, Debug, Clone)]
pub struct SceneTerrain {
    pub handle: Handle<TerrainAsset>,
    pub next_insertion: u64,
}

/// The MAT0 phase a layer shows at material time `millis` and that
/// phase's texture (phase 0 and the plain texture without a material).
fn layer_phase(layer: &TerrainLayerMesh, millis: u32) -> (usize, Option<Handle<Image>>) {
    match &layer.material {
        Some(m) => {
            let phase = material_phase(&m.mat0, &m.entry.name, millis);
            (phase, m.textures.get(phase).cloned().flatten())
        }
        None => (0, layer.texture.clone()),
    }
}

/// The material of a `layer` mesh showing `texture`: opaque terrain on
/// layer 1, blended over it (a material pass) on layer 2.
fn layer_material(layer: GroundLayer, texture: Option<Handle<Image>>) -> LegacyMaterial {
    let overlay = layer == GroundLayer::Two;
    let state = MaterialInputs::terrain_layer(overlay, texture.is_some()).state();
    let mut material = LegacyMaterial::new(state, texture, None, 1.0);
    material.terrain = true;
    material.uniform.flags |= crate::material::FLAG_SHADOWED | crate::material::FLAG_POINT_LIT;
    material
}

/// The components drawing `layer` at the current game time, its
/// material added to the assets, with draw-item insertion id `insertion`.
fn layer_components(
    world: &mut World,
    layer: &TerrainLayerMesh,
    insertion: u64,
) -> (
    TerrainLayer,
    Mesh3d,
    MeshMaterial3d<LegacyMaterial>,
    DrawItemSource,
) {
    let millis = world.get_resource::<GameClock>().map_or(0, material_time);
    let (phase, texture) = layer_phase(layer, millis);
    let material = layer_material(layer.layer, texture);
    let source = DrawItemSource {
        insertion,
        ..draw_item(&material, phase, world.resource::<AssetServer>())
    };
    let material = world.resource_mut::<Assets<LegacyMaterial>>().add(material);
    (
        TerrainLayer {
            layer: layer.layer,
            index: layer.index,
            water: layer.water,
            faces: layer.faces,
        },
        Mesh3d(layer.mesh.clone()),
        MeshMaterial3d(material),
        source,
    )
}

/// Spawns one entity per ground layer mesh of `layers`, taking insertion
/// ids from `insertion`.
pub fn spawn_terrain(world: &mut World, layers: &[TerrainLayerMesh], insertion: &mut u64) {
    for layer in layers {
        let components = layer_components(world, layer, *insertion);
        *insertion += 1;
        world.spawn((
            Terrain,
            MissionScoped,
            Transform::IDENTITY,
            components,
            bevy::light::NotShadowCaster,
        ));
    }
}

/// Rebinds the layer entities to the layers of the scene's terrain asset:
/// an entity of the same (layer, index) keeps its insertion id and gets
/// the new mesh, material and draw item; new layers are spawned, layers
/// gone are despawned.
fn rebind_terrain(world: &mut World) {
    let Some(scene) = world.get_resource::<SceneTerrain>().cloned() else {
        return;
    };
    let Some(layers) = world
        .resource::<Assets<TerrainAsset>>()
        .get(&scene.handle)
        .map(|t| t.layers.clone())
    else {
        return;
    };
    let existing: Vec<(Entity, TerrainLayer, u64)> = world
        .query_filtered::<(Entity, &TerrainLayer, &DrawItemSource), With<Terrain>>()
        .iter(world)
        .map(|(e, l, s)| (e, *l, s.insertion))
        .collect();
    let mut next = scene.next_insertion;
    let mut kept = Vec::new();
    for layer in &layers {
        let same = existing.iter().find(|(_, l, _)| {
            (l.layer, l.index, l.water) == (layer.layer, layer.index, layer.water)
        });
        match same {
            Some(&(entity, _, insertion)) => {
                let components = layer_components(world, layer, insertion);
                world.entity_mut(entity).insert(components);
                kept.push(entity);
            }
            None => spawn_terrain(world, std::slice::from_ref(layer), &mut next),
        }
    }
    for (entity, ..) in existing.into_iter().filter(|(e, ..)| !kept.contains(e)) {
        world.despawn(entity);
    }
    world.resource_mut::<SceneTerrain>().next_insertion = next;
}

/// Hot reload: rebinds the terrain entities when the scene's terrain
/// asset is reloaded (`Modified`). A failed reload sends no event: the
/// last good terrain stays drawn.
pub fn reload_terrain(
    world: &mut World,
    mut cursor: Local<MessageCursor<AssetEvent<TerrainAsset>>>,
) {
    let Some(id) = world.get_resource::<SceneTerrain>().map(|s| s.handle.id()) else {
        // Events before the scene exists are of its first load.
        cursor.clear(world.resource::<Messages<AssetEvent<TerrainAsset>>>());
        return;
    };
    let messages = world.resource::<Messages<AssetEvent<TerrainAsset>>>();
    let modified = cursor
        .read(messages)
        .any(|e| matches!(e, AssetEvent::Modified { id: m } if *m == id));
    if modified {
        rebind_terrain(world);
    }
}

/// Switches every terrain layer drawn with a `Material.lib` entry to the
/// MAT0 phase of the game time (its stage-0 texture and draw item).
pub fn animate_terrain(
    clock: Res<GameClock>,
    scene: Option<Res<SceneTerrain>>,
    terrains: Res<Assets<TerrainAsset>>,
    server: Res<AssetServer>,
    mut materials: ResMut<Assets<LegacyMaterial>>,
    mut layers: Query<
        (
            &TerrainLayer,
            &MeshMaterial3d<LegacyMaterial>,
            &mut DrawItemSource,
        ),
        With<Terrain>,
    >,
) {
    let Some(terrain) = scene.and_then(|s| terrains.get(&s.handle)) else {
        return;
    };
    let millis = material_time(&clock);
    for (drawn, handle, mut source) in &mut layers {
        let Some(layer) = terrain.layers.iter().find(|l| {
            l.material.is_some()
                && (l.layer, l.index, l.water) == (drawn.layer, drawn.index, drawn.water)
        }) else {
            continue;
        };
        let (phase, texture) = layer_phase(layer, millis);
        if phase == source.material_phase {
            continue;
        }
        let material = layer_material(layer.layer, texture);
        set_material_fields(&mut source, &draw_item(&material, phase, &server));
        if let Some(mut slot) = materials.get_mut(&handle.0) {
            *slot = material;
        }
    }
}
