//! Builds the drawable scene once the mission runs: the terrain mesh, and
//! under every model node the meshes of its LOD-0 / state-0 slot batches
//! with their materials; then places the camera.

use crate::camera::{CameraPose, MissionCamera, default_target};
use crate::install::{InstallFiles, PartModel};
use crate::material::MaterialCache;
use crate::terrain::terrain_mesh;
use bevy::prelude::*;
use iron3d_assets::model::batch_mesh;
use iron3d_formats::msh::Msh;
use iron3d_world::mission::{
    LoadProgress, MissionObject, ModelNode, ObjectState, PrototypeChain, UnitPartInfo,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the scene is built from: the install and the camera override.
#[derive(Resource, Debug, Clone)]
pub struct SceneSource {
    pub game_dir: PathBuf,
    pub camera: Option<CameraPose>,
}

/// Inserted once the scene is built: the number of batch meshes placed.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneBuilt {
    pub batches: usize,
}

/// Marks the terrain entity.
#[derive(Component, Debug)]
pub struct Terrain;

/// Marks a drawn batch: its model node's slot batch index.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnBatch {
    pub batch: usize,
}

/// The rotation from the original Z-up frame to Bevy's Y-up frame, for
/// model vertices: `(x, y, z) -> (x, z, -y)`.
fn z_up_rotation() -> Quat {
    Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)
}

/// The batches of node `node` at state 0, LOD 0 (empty when it has no
/// geometry there or its slot is out of range).
pub fn lod0_batches(msh: &Msh, node: usize) -> std::ops::Range<usize> {
    let slot = msh
        .nodes
        .node38()
        .get(node)
        .and_then(|n| n.slot(0, 0))
        .and_then(|s| msh.slots.slots.get(s as usize));
    match slot {
        Some(s) => {
            let start = s.batch_start as usize;
            let end = (start + s.batch_count as usize).min(msh.batches.len());
            start.min(end)..end
        }
        None => 0..0,
    }
}

/// Builds the scene (an exclusive system on entering `Running`). Files
/// that cannot be read are logged and leave their part undrawn.
pub fn build_scene(world: &mut World) {
    let Some(source) = world.get_resource::<SceneSource>().cloned() else {
        return;
    };
    let mission = world.resource::<LoadProgress>().mission.clone();
    let mut files = match InstallFiles::open(&source.game_dir, &mission) {
        Ok(files) => files,
        Err(e) => {
            error!("render: mission '{mission}': {e}");
            return;
        }
    };
    let tma = files.tma().map_err(|e| error!("render: {e}")).ok();
    let land = tma
        .as_ref()
        .and_then(|t| files.land(t).map_err(|e| error!("render: {e}")).ok());
    if let Some(mesh) = land.as_ref().and_then(terrain_mesh) {
        spawn_terrain(world, mesh);
    }
    make_hierarchy_visible(world);
    let batches = match MaterialCache::open(&mut files) {
        Ok(mut cache) => spawn_models(world, &mut files, &mut cache),
        Err(e) => {
            error!("render: {e}");
            0
        }
    };
    let pose = source.camera.unwrap_or_else(|| {
        let clans = tma.as_ref().map(|t| t.clans.as_slice()).unwrap_or_default();
        CameraPose::looking_at(default_target(
            clans,
            land.as_ref().and_then(|l| l.bounds()),
        ))
    });
    let mut cameras = world.query_filtered::<&mut Transform, With<MissionCamera>>();
    for mut transform in cameras.iter_mut(world) {
        *transform = pose.transform();
    }
    world.insert_resource(SceneBuilt { batches });
}

/// Gives every placed object's root, parts and model nodes a visibility so
/// the batches below them are drawn: a root is shown when its
/// [`ObjectState`] is visible (or it has none), the rest inherit.
fn make_hierarchy_visible(world: &mut World) {
    let roots: Vec<(Entity, bool)> = world
        .query_filtered::<(Entity, Option<&ObjectState>), With<MissionObject>>()
        .iter(world)
        .map(|(e, state)| (e, state.is_none_or(|s| s.visible)))
        .collect();
    for (root, visible) in roots {
        let visibility = if visible {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        world.entity_mut(root).insert(visibility);
    }
    let inner: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<UnitPartInfo>, With<ModelNode>)>>()
        .iter(world)
        .collect();
    for entity in inner {
        world.entity_mut(entity).insert(Visibility::Inherited);
    }
}

fn spawn_terrain(world: &mut World, mesh: Mesh) {
    let mesh = world.resource_mut::<Assets<Mesh>>().add(mesh);
    let material = world
        .resource_mut::<Assets<StandardMaterial>>()
        .add(StandardMaterial {
            perceptual_roughness: 1.0,
            ..default()
        });
    world.spawn((
        Terrain,
        Mesh3d(mesh),
        MeshMaterial3d(material),
        Transform::IDENTITY,
    ));
}

/// The model nodes below `part`, with their node index.
fn nodes_below(world: &World, part: Entity) -> Vec<(Entity, usize)> {
    let mut found = Vec::new();
    let mut stack = vec![part];
    while let Some(entity) = stack.pop() {
        if let Some(children) = world.get::<Children>(entity) {
            stack.extend(children.iter());
        }
        if let Some(node) = world.get::<ModelNode>(entity) {
            found.push((entity, node.index));
        }
    }
    found
}

/// Spawns the batch meshes of every part's nodes; returns how many.
fn spawn_models(world: &mut World, files: &mut InstallFiles, cache: &mut MaterialCache) -> usize {
    let mut parts: Vec<(Entity, PrototypeChain)> = world
        .query::<(Entity, &PrototypeChain)>()
        .iter(world)
        .map(|(e, c)| (e, c.clone()))
        .collect();
    parts.sort_by_key(|(e, _)| *e);
    let mut models: BTreeMap<Vec<u8>, Option<PartModel>> = BTreeMap::new();
    let mut meshes: BTreeMap<(Vec<u8>, usize), Handle<Mesh>> = BTreeMap::new();
    let mut count = 0;
    for (part, chain) in parts {
        let key = chain.0.key.to_ascii_uppercase();
        let model = models.entry(key.clone()).or_insert_with(|| {
            files.part_model(&chain.0).unwrap_or_else(|e| {
                error!("render: model of '{}': {e}", String::from_utf8_lossy(&key));
                None
            })
        });
        let Some(model) = model else { continue };
        for (node_entity, node) in nodes_below(world, part) {
            for batch in lod0_batches(&model.msh, node) {
                let b = &model.msh.batches[batch];
                let mesh = match meshes.get(&(key.clone(), batch)) {
                    Some(handle) => handle.clone(),
                    None => {
                        let Some(mesh) = batch_mesh(&model.msh, b) else {
                            continue;
                        };
                        let handle = world
                            .resource_mut::<Assets<Mesh>>()
                            .add(mesh.rotated_by(z_up_rotation()));
                        meshes.insert((key.clone(), batch), handle.clone());
                        handle
                    }
                };
                let material = world.resource_scope(|world, mut images: Mut<Assets<Image>>| {
                    let mut materials = world.resource_mut::<Assets<StandardMaterial>>();
                    cache.batch_material(
                        model.wear.as_ref(),
                        b.material_index as usize,
                        &mut images,
                        &mut materials,
                    )
                });
                world.spawn((
                    DrawnBatch { batch },
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    Transform::IDENTITY,
                    ChildOf(node_entity),
                ));
                count += 1;
            }
        }
    }
    count
}
