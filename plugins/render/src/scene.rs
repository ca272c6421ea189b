//! Builds the drawable scene of the running mission from assets of the
//! `iron://` source (no file is read here): once the mission is `Running`
//! its `data.tma`, every part's model ([`Model`]) and WEAR table
//! ([`WearMaterials`], with MAT0 rows, phase textures and lightmaps) are
//! requested; the TMA gives the `Land.msh` ([`Terrain`], with its render
//! ground layer meshes and textures). When every request has settled (loaded with its dependencies, or
//! failed: the error is logged in full and that part stays undrawn) the
//! scene is spawned: the terrain (one entity per ground layer mesh: layer 1
//! opaque, layer 2 blended over it; [`crate::terrain`] animates and
//! hot-reloads it), and under every model node the batches of
//! every distinct slot of its native states (spawned hidden; the one shown
//! for the object's `ModelState` and the camera distance is chosen by
//! [`crate::lod`]), each with its [`crate::material::LegacyMaterial`] and
//! [`DrawItemSource`].

use crate::animate::MaterialBindings;
use crate::camera::{CameraPose, MissionCamera, default_target};
use crate::capture::DrawItemSource;
use crate::lod::NodeSlots;
use crate::paths;
use crate::terrain::{SceneTerrain, spawn_terrain};
pub use crate::terrain::{Terrain, TerrainLayer};
use bevy::asset::{LoadState, RecursiveDependencyLoadState, UntypedAssetId};
use bevy::prelude::*;
use iron3d_assets::IronSourceHandle;
use iron3d_assets::material::WearMaterials;
use iron3d_assets::mission::Mission;
use iron3d_assets::model::Model;
use iron3d_assets::terrain::Terrain as TerrainAsset;
use iron3d_formats::gamedir::GameDir;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{
    LoadProgress, MissionClans, MissionObject, ModelNode, ObjectState, PrototypeChain, UnitPartInfo,
};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the scene is built from: the install and the camera override.
#[derive(Resource, Debug, Clone)]
pub struct SceneSource {
    pub game_dir: PathBuf,
    pub camera: Option<CameraPose>,
}

/// Inserted once the scene is built: the number of batch entities placed
/// (every distinct slot of every native state) and of assets that failed.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneBuilt {
    pub batches: usize,
    pub failed: usize,
}

/// Marks a drawn batch: its node's slot and its model batch index. It is
/// shown while its node selects this slot ([`crate::lod::select_lods`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawnBatch {
    pub batch: usize,
    pub slot: usize,
}

/// The models and WEAR tables of one prototype.
#[derive(Debug, Clone)]
struct PartAssets {
    model: Handle<Model>,
    wear: Option<Handle<WearMaterials>>,
}

/// The requests of the scene while they load.
#[derive(Resource, Debug)]
pub struct SceneRequests {
    game: GameDir,
    mission: iron3d_formats::gamedir::Mission,
    tma: Handle<Mission>,
    terrain: Option<Handle<TerrainAsset>>,
    /// By upper-case prototype key.
    parts: BTreeMap<Vec<u8>, PartAssets>,
    /// Part entities and their prototype key.
    placed: Vec<(Entity, Vec<u8>)>,
}

/// The rotation from the original Z-up frame to Bevy's Y-up frame, for
/// model vertices: `(x, y, z) -> (x, z, -y)`.
fn z_up_rotation() -> Quat {
    Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)
}

/// Requests the scene's assets (on entering `Running`).
pub fn request_scene(world: &mut World) {
    let Some(source) = world.get_resource::<SceneSource>().cloned() else {
        return;
    };
    let name = world.resource::<LoadProgress>().mission.clone();
    let opened = GameDir::open(&source.game_dir).and_then(|g| {
        let m = g.mission(&name)?;
        Ok((g, m))
    });
    let (game, mission) = match opened {
        Ok(found) => found,
        Err(e) => {
            error!("render: mission '{name}': {e}");
            return;
        }
    };
    let tma_path = match paths::tma_path(&game, &mission) {
        Ok(path) => path,
        Err(e) => {
            error!("render: mission '{name}': {e}");
            return;
        }
    };
    let chains: Vec<(Entity, PrototypeChain)> = world
        .query::<(Entity, &PrototypeChain)>()
        .iter(world)
        .map(|(e, c)| (e, c.clone()))
        .collect();
    let iron = world.get_resource::<IronSourceHandle>().cloned();
    let server = world.resource::<AssetServer>().clone();
    let mut parts = BTreeMap::new();
    let mut placed = Vec::new();
    for (entity, chain) in chains {
        let key = chain.0.key.to_ascii_uppercase();
        placed.push((entity, key.clone()));
        if parts.contains_key(&key) {
            continue;
        }
        let model = match paths::model_path(&game, &mission, &chain.0) {
            Ok(Some((path, candidate))) => {
                let present = iron
                    .as_ref()
                    .is_none_or(|s| s.0.origin(path.path()).is_some());
                if candidate && !present {
                    continue;
                }
                server.load::<Model>(path)
            }
            Ok(None) => continue,
            Err(e) => {
                error!("render: model of '{}': {e}", String::from_utf8_lossy(&key));
                continue;
            }
        };
        let wear = match paths::wear_path(&game, &mission, &chain.0) {
            Ok(path) => path.map(|p| server.load::<WearMaterials>(p)),
            Err(e) => {
                error!("render: WEAR of '{}': {e}", String::from_utf8_lossy(&key));
                None
            }
        };
        parts.insert(key, PartAssets { model, wear });
    }
    world.insert_resource(SceneRequests {
        tma: server.load::<Mission>(tma_path),
        game,
        mission,
        terrain: None,
        parts,
        placed,
    });
}

/// How far a request is: still loading, usable, or failed (logged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Settled {
    Loading,
    Ready,
    Failed,
}

/// The state of one request; a failure's error is logged with the path.
fn settled(server: &AssetServer, id: impl Into<UntypedAssetId>) -> Settled {
    let id = id.into();
    match server.get_load_state(id) {
        Some(LoadState::Failed(e)) => {
            error!("render: {e}");
            Settled::Failed
        }
        Some(LoadState::Loaded) => match server.get_recursive_dependency_load_state(id) {
            Some(RecursiveDependencyLoadState::Loaded) => Settled::Ready,
            // A missing texture leaves the surface untextured; the rest draws.
            Some(RecursiveDependencyLoadState::Failed(e)) => {
                warn!("render: a dependency failed: {e}");
                Settled::Ready
            }
            _ => Settled::Loading,
        },
        _ => Settled::Loading,
    }
}

/// Polls the requests; once all have settled, builds the scene.
pub fn poll_scene(world: &mut World) {
    if world.contains_resource::<SceneBuilt>() {
        return;
    }
    let Some(requests) = world.get_resource::<SceneRequests>() else {
        return;
    };
    let server = world.resource::<AssetServer>().clone();
    // The terrain is requested once the TMA naming it is in.
    if requests.terrain.is_none() {
        match settled(&server, &requests.tma) {
            Settled::Loading => return,
            Settled::Failed => {}
            Settled::Ready => {
                let tma = world.resource::<Assets<Mission>>().get(&requests.tma);
                let land = tma.map(|t| t.tma.land_path.clone()).unwrap_or_default();
                match paths::land_path(&requests.game, &requests.mission, &land) {
                    Ok(path) => {
                        let handle = server.load::<TerrainAsset>(path);
                        world.resource_mut::<SceneRequests>().terrain = Some(handle);
                    }
                    Err(e) => error!("render: land of the mission: {e}"),
                }
            }
        }
    }
    let requests = world.resource::<SceneRequests>();
    let mut ids: Vec<UntypedAssetId> = requests.terrain.iter().map(|h| h.id().untyped()).collect();
    for part in requests.parts.values() {
        ids.push(part.model.id().untyped());
        ids.extend(part.wear.iter().map(|h| h.id().untyped()));
    }
    let mut failed = 0;
    for id in ids {
        match settled(&server, id) {
            Settled::Loading => return,
            Settled::Failed => failed += 1,
            Settled::Ready => {}
        }
    }
    build_scene(world, failed);
}

/// Spawns the scene from the settled requests and places the camera.
fn build_scene(world: &mut World, failed: usize) {
    let requests = world
        .remove_resource::<SceneRequests>()
        .expect("polled requests");
    let terrain = requests
        .terrain
        .as_ref()
        .and_then(|h| world.resource::<Assets<TerrainAsset>>().get(h))
        .cloned();
    let mut insertion = 0u64;
    if let Some(t) = &terrain {
        spawn_terrain(world, &t.layers, &mut insertion);
    }
    make_hierarchy_visible(world);
    let batches = spawn_models(world, &requests, &mut insertion);
    if let Some(handle) = requests.terrain.clone() {
        world.insert_resource(SceneTerrain {
            handle,
            next_insertion: insertion,
        });
    }
    let camera = world.resource::<SceneSource>().camera;
    let pose = camera.unwrap_or_else(|| {
        let clans = world
            .get_resource::<MissionClans>()
            .map(|c| c.0.clone())
            .unwrap_or_default();
        CameraPose::looking_at(default_target(
            &clans,
            terrain.as_ref().and_then(|t| t.land.bounds()),
        ))
    });
    let mut cameras = world.query_filtered::<&mut Transform, With<MissionCamera>>();
    for mut transform in cameras.iter_mut(world) {
        *transform = pose.transform();
    }
    world.insert_resource(SceneBuilt { batches, failed });
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

/// The model nodes of `part` (not those of parts attached below it), with
/// their node index.
fn nodes_below(world: &World, part: Entity) -> Vec<(Entity, usize)> {
    let mut found = Vec::new();
    let mut stack = vec![part];
    while let Some(entity) = stack.pop() {
        if let Some(children) = world.get::<Children>(entity) {
            stack.extend(
                children
                    .iter()
                    .filter(|&c| world.get::<PrototypeChain>(c).is_none()),
            );
        }
        if let Some(node) = world.get::<ModelNode>(entity) {
            found.push((entity, node.index));
        }
    }
    found
}

/// The root of the placed object above `entity`: the first entity up the
/// `ChildOf` chain carrying [`OriginalObjectId`].
pub fn object_root(world: &World, mut entity: Entity) -> Option<Entity> {
    loop {
        if world.get::<OriginalObjectId>(entity).is_some() {
            return Some(entity);
        }
        entity = world.get::<ChildOf>(entity)?.parent();
    }
}

/// The raw original id of the placed object above `entity`.
pub fn object_id(world: &World, entity: Entity) -> Option<u32> {
    let root = object_root(world, entity)?;
    world.get::<OriginalObjectId>(root).map(|id| id.0)
}

/// One batch to spawn, before the stable insertion order is assigned.
struct PendingDraw {
    object: Option<u32>,
    node_entity: Entity,
    node: usize,
    slot: usize,
    batch: usize,
    key: Vec<u8>,
}

/// Spawns the batches of every part's nodes (every distinct slot of its
/// native states, hidden) in the order (object id, node, slot, batch);
/// returns how many.
fn spawn_models(world: &mut World, requests: &SceneRequests, insertion: &mut u64) -> usize {
    let mut draws = Vec::new();
    for (part, key) in &requests.placed {
        let Some(assets) = requests.parts.get(key) else {
            continue;
        };
        let models = world.resource::<Assets<Model>>();
        let Some(model) = models.get(&assets.model) else {
            continue;
        };
        let object = object_id(world, *part);
        // Without a root the part shows state 0 (it has no `ModelState`).
        let root = object_root(world, *part).unwrap_or(*part);
        let mut slots_of_nodes = Vec::new();
        for (node_entity, node) in nodes_below(world, *part) {
            let Some(model_node) = model.nodes.get(node) else {
                continue;
            };
            let node_slots = NodeSlots::of(model, model_node, root);
            let slots = node_slots.slots();
            if slots.is_empty() {
                continue;
            }
            for slot in slots {
                let Some(s) = model.slots.get(slot) else {
                    continue;
                };
                for batch in s.batches.clone().filter(|&b| b < model.batches.len()) {
                    draws.push(PendingDraw {
                        object,
                        node_entity,
                        node,
                        slot,
                        batch,
                        key: key.clone(),
                    });
                }
            }
            slots_of_nodes.push((node_entity, node_slots));
        }
        for (entity, node_slots) in slots_of_nodes {
            world.entity_mut(entity).insert(node_slots);
        }
    }
    draws.sort_by_key(|d| (d.object, d.node_entity, d.node, d.slot, d.batch));
    let mut bindings = world
        .remove_resource::<MaterialBindings>()
        .unwrap_or_default();
    let count = draws.len();
    for draw in draws {
        let assets = &requests.parts[&draw.key];
        let (mesh, material_index, lightmap_index) = {
            let model = world
                .resource::<Assets<Model>>()
                .get(&assets.model)
                .expect("loaded");
            let b = &model.batches[draw.batch];
            (b.mesh.clone(), b.material_index, b.lightmap_index)
        };
        let uv1 = world
            .resource::<Assets<Mesh>>()
            .get(&mesh)
            .is_some_and(|m| m.contains_attribute(Mesh::ATTRIBUTE_UV_1));
        let binding = bindings.bind(
            world,
            assets.wear.as_ref(),
            material_index as usize,
            lightmap_index,
            uv1,
        );
        let source = DrawItemSource {
            object: draw.object,
            node: Some(draw.node),
            slot: Some(draw.slot),
            batch: Some(draw.batch),
            insertion: *insertion,
            ..binding.draw_item(world)
        };
        *insertion += 1;
        world.spawn((
            DrawnBatch {
                batch: draw.batch,
                slot: draw.slot,
            },
            Mesh3d(mesh),
            MeshMaterial3d(binding.material.clone()),
            Transform::from_rotation(z_up_rotation()),
            Visibility::Hidden,
            ChildOf(draw.node_entity),
            source,
        ));
    }
    world.insert_resource(bindings);
    count
}
