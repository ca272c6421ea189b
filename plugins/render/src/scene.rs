//! Builds the drawable scene of the mission from assets of the `iron://`
//! source (no file is read here). While the mission loader prepares its
//! resources, every resolved part's model ([`Model`]) and WEAR table
//! ([`WearMaterials`], with MAT0 rows, phase textures and lightmaps) are
//! requested, and the `Land.msh` the loader found for the mission's TMA
//! ([`MissionDescription`]; [`Terrain`], with its render ground layer
//! meshes and textures); each
//! request holds the loader's [`ResourceGate`] until it has loaded with
//! its dependencies (a failed dependency, such as a missing texture, is
//! logged and leaves that surface untextured). A failed request ends the
//! load with its chain (mission -> object -> prototype -> archive -> entry
//! -> the asset error), so the mission never runs without its assets. On
//! `Running` the scene is spawned from the loaded handles: the terrain
//! (one entity per ground layer mesh: layer 1 opaque, layer 2 blended over
//! it; [`crate::terrain`] animates and hot-reloads it), and under every
//! model node the batches of every distinct slot of its native states
//! (spawned hidden; the one shown for the object's `ModelState` and the
//! camera distance is chosen by [`crate::lod`]), each with its
//! [`crate::material::LegacyMaterial`] and [`DrawItemSource`].

use crate::animate::MaterialBindings;
use crate::camera::{CameraPose, MissionCamera, default_target};
use crate::draw::{DrawItemSource, DrawnBatch};
use crate::lod::NodeSlots;
use crate::paths;
use crate::terrain::{SceneTerrain, spawn_terrain};
pub use crate::terrain::{Terrain, TerrainLayer};
use bevy::asset::{AssetPath, LoadState, RecursiveDependencyLoadState, UntypedAssetId};
use bevy::prelude::*;
use iron3d_assets::IronSourceHandle;
use iron3d_assets::material::WearMaterials;
use iron3d_assets::model::Model;
use iron3d_assets::terrain::Terrain as TerrainAsset;
use iron3d_formats::registry::{Geometry, Resolved};
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{
    Built, GateFailure, MissionClans, MissionDescription, MissionObject, ModelNode, ObjectState,
    PlannedObjects, PrototypeChain, ResourceGate, UnitPartInfo,
};
use std::collections::BTreeMap;

/// The scene is drawn (the app loads a mission), with this camera override.
#[derive(Resource, Debug, Clone)]
pub struct SceneSource {
    pub camera: Option<CameraPose>,
}

/// Inserted once the scene is built: the number of batch entities placed
/// (every distinct slot of every native state) and of assets loaded with a
/// failed dependency (a missing texture: drawn untextured).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneBuilt {
    pub batches: usize,
    pub failed: usize,
}

/// The models and WEAR tables of one prototype.
#[derive(Debug, Clone)]
struct PartAssets {
    model: Handle<Model>,
    wear: Option<Handle<WearMaterials>>,
}

/// One request holding the mission's [`ResourceGate`]: its asset, the
/// blocker's name (the asset path) and the links of the chain a failure
/// reports.
#[derive(Debug, Clone)]
struct PendingLoad {
    id: UntypedAssetId,
    name: String,
    chain: GateFailure,
}

/// The requests of the scene, made while the mission prepares its
/// resources; it waits until each has loaded.
#[derive(Resource, Debug)]
pub struct SceneRequests {
    terrain: Handle<TerrainAsset>,
    /// By upper-case prototype key.
    parts: BTreeMap<Vec<u8>, PartAssets>,
    /// Requests not yet loaded.
    pending: Vec<PendingLoad>,
    /// Requests loaded with a failed dependency (drawn in part).
    degraded: usize,
}

/// The rotation from the original Z-up frame to Bevy's Y-up frame, for
/// model vertices: `(x, y, z) -> (x, z, -y)`.
fn z_up_rotation() -> Quat {
    Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)
}

/// `'text'`, as the mission loader quotes names in its chains.
fn quoted(bytes: &[u8]) -> String {
    format!("'{}'", String::from_utf8_lossy(bytes))
}

/// The archive and entry of a resolved prototype's model.
fn model_entry(resolved: &Resolved) -> (Option<String>, Option<String>) {
    match resolved.geometry() {
        Geometry::Mesh(r) => (Some(quoted(&r.archive)), Some(quoted(&r.resource))),
        Geometry::BaseStem { archive, mesh_name } => {
            (Some(quoted(archive)), Some(quoted(&mesh_name)))
        }
        Geometry::NonGeometric => (None, None),
    }
}

/// Reports a failure to the mission's gate (when a mission loads).
fn fail_gate(world: &mut World, failure: GateFailure) {
    if let Some(mut gate) = world.get_resource_mut::<ResourceGate>() {
        gate.fail(failure);
    }
}

/// Requests the scene's assets (on entering the mission's resource
/// preparation): the mission's `Land.msh` and the model and WEAR table of
/// every prototype the loader resolved ([`PlannedObjects`]), each holding
/// the [`ResourceGate`] until loaded.
pub fn request_scene(world: &mut World) {
    if !world.contains_resource::<SceneSource>() {
        return;
    }
    let Some(description) = world.get_resource::<MissionDescription>().cloned() else {
        let cause = "the mission loader published no mission description".into();
        return fail_gate(world, GateFailure { cause, ..default() });
    };
    let Some(IronSourceHandle(game)) = world.get_resource::<IronSourceHandle>().cloned() else {
        let cause = "the app has no iron:// asset source".into();
        return fail_gate(world, GateFailure { cause, ..default() });
    };
    let files = &description.files;
    let mission_dir = game.relative(&files.dir).unwrap_or(&files.dir);
    let planned = world
        .get_resource::<PlannedObjects>()
        .cloned()
        .unwrap_or_default();
    let server = world.resource::<AssetServer>().clone();
    let mut parts = BTreeMap::new();
    let mut pending = Vec::new();
    let land = &description.files.land_msh;
    let terrain = match paths::iron_path(&game, land) {
        Ok(path) => {
            let link = GateFailure {
                archive: Some(quoted(land.display().to_string().as_bytes())),
                ..default()
            };
            request::<TerrainAsset>(&server, path, link, &mut pending)
        }
        Err(cause) => return fail_gate(world, GateFailure { cause, ..default() }),
    };
    for object in &planned.0 {
        for chain in &object.parts {
            let key = chain.0.key.to_ascii_uppercase();
            if parts.contains_key(&key) {
                continue;
            }
            let (archive, entry) = model_entry(&chain.0);
            let link = GateFailure {
                object: Some(object.label.clone()),
                prototype: Some(quoted(&chain.0.key)),
                archive,
                entry,
                ..default()
            };
            let model = match paths::model_path(&game, mission_dir, &chain.0) {
                Ok(Some((path, candidate))) => {
                    if candidate && game.origin(path.path()).is_none() {
                        continue;
                    }
                    request::<Model>(&server, path, link.clone(), &mut pending)
                }
                Ok(None) => continue,
                Err(cause) => return fail_gate(world, GateFailure { cause, ..link }),
            };
            let wear_link = GateFailure {
                archive: chain.0.wear().map(|w| quoted(&w.archive)),
                entry: chain.0.wear().map(|w| quoted(&w.resource)),
                ..link
            };
            let wear = match paths::wear_path(&game, mission_dir, &chain.0) {
                Ok(path) => path
                    .map(|p| request::<WearMaterials>(&server, p, wear_link.clone(), &mut pending)),
                Err(cause) => return fail_gate(world, GateFailure { cause, ..wear_link }),
            };
            parts.insert(key, PartAssets { model, wear });
        }
    }
    hold(world, &pending);
    world.insert_resource(SceneRequests {
        terrain,
        parts,
        pending,
        degraded: 0,
    });
}

/// Loads `path`, adding it to `pending` with the links of its chain.
fn request<A: Asset>(
    server: &AssetServer,
    path: AssetPath<'static>,
    chain: GateFailure,
    pending: &mut Vec<PendingLoad>,
) -> Handle<A> {
    let handle = server.load::<A>(path.clone());
    pending.push(PendingLoad {
        id: handle.id().untyped(),
        name: path.to_string(),
        chain,
    });
    handle
}

/// Holds the gate for each of `loads`.
fn hold(world: &mut World, loads: &[PendingLoad]) {
    if let Some(mut gate) = world.get_resource_mut::<ResourceGate>() {
        for load in loads {
            gate.hold(load.name.clone());
        }
    }
}

/// How far a request is: still loading, loaded (perhaps with a failed
/// dependency), or failed with the asset error.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Settled {
    Loading,
    Ready,
    Degraded,
    Failed(String),
}

/// The state of one request.
fn settled(server: &AssetServer, id: UntypedAssetId) -> Settled {
    match server.get_load_state(id) {
        Some(LoadState::Failed(e)) => Settled::Failed(e.to_string()),
        Some(LoadState::Loaded) => match server.get_recursive_dependency_load_state(id) {
            Some(RecursiveDependencyLoadState::Loaded) => Settled::Ready,
            // A missing texture leaves the surface untextured; the rest draws.
            Some(RecursiveDependencyLoadState::Failed(e)) => {
                warn!("render: a dependency failed: {e}");
                Settled::Degraded
            }
            _ => Settled::Loading,
        },
        _ => Settled::Loading,
    }
}

/// While the mission prepares its resources: releases the gate for each
/// loaded request and reports the first failure with its chain.
pub fn await_scene_assets(world: &mut World) {
    if !world.contains_resource::<SceneRequests>() {
        return;
    }
    let server = world.resource::<AssetServer>().clone();
    let mut requests = world.resource_mut::<SceneRequests>();
    let mut released = Vec::new();
    let mut failure = None;
    let mut still = Vec::new();
    for load in std::mem::take(&mut requests.pending) {
        match settled(&server, load.id) {
            Settled::Loading => still.push(load),
            Settled::Ready => released.push(load.name),
            Settled::Degraded => {
                requests.degraded += 1;
                released.push(load.name);
            }
            Settled::Failed(cause) => {
                failure.get_or_insert(GateFailure {
                    cause,
                    ..load.chain
                });
            }
        }
    }
    requests.pending = still;
    let Some(mut gate) = world.get_resource_mut::<ResourceGate>() else {
        return;
    };
    for name in released {
        gate.release(&name);
    }
    if let Some(failure) = failure {
        gate.fail(failure);
    }
}

/// Drops the requests of a mission that failed to load.
pub fn drop_scene_requests(world: &mut World) {
    world.remove_resource::<SceneRequests>();
}

/// Builds the scene from the loaded requests (on entering `Running`).
pub fn build_scene(world: &mut World) {
    let Some(requests) = world.remove_resource::<SceneRequests>() else {
        return;
    };
    let terrain = world
        .resource::<Assets<TerrainAsset>>()
        .get(&requests.terrain)
        .cloned();
    let mut insertion = 0u64;
    if let Some(t) = &terrain {
        spawn_terrain(world, &t.layers, &mut insertion);
    }
    let roots: Vec<Entity> = world
        .query_filtered::<Entity, With<MissionObject>>()
        .iter(world)
        .collect();
    let parts = ScenePartAssets(requests.parts);
    let batches = draw_objects(world, &parts, &roots, &mut insertion);
    world.insert_resource(parts);
    world.insert_resource(SceneTerrain {
        handle: requests.terrain.clone(),
        next_insertion: insertion,
    });
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
    world.insert_resource(SceneBuilt {
        batches,
        failed: requests.degraded,
    });
}

/// The assets of every part the scene draws, by upper-case prototype key
/// (the mission's placed objects' and its designs'): kept once the scene
/// is built, for the objects made in play.
#[derive(Resource, Debug, Default)]
pub struct ScenePartAssets(BTreeMap<Vec<u8>, PartAssets>);

/// Draws the objects made in play since the last frame (those without a
/// visibility yet) as the scene drew the placed ones, after them in the
/// stable insertion order.
pub fn draw_built(world: &mut World) {
    let roots: Vec<Entity> = world
        .query_filtered::<Entity, (With<Built>, Without<Visibility>)>()
        .iter(world)
        .collect();
    if roots.is_empty() {
        return;
    }
    let Some(parts) = world.remove_resource::<ScenePartAssets>() else {
        return;
    };
    let mut insertion = world.resource::<SceneTerrain>().next_insertion;
    let batches = draw_objects(world, &parts, &roots, &mut insertion);
    world.insert_resource(parts);
    world.resource_mut::<SceneTerrain>().next_insertion = insertion;
    world.resource_mut::<SceneBuilt>().batches += batches;
}

/// Gives `roots` and everything below them a visibility and spawns the
/// batches of their parts; returns how many batches.
fn draw_objects(
    world: &mut World,
    parts: &ScenePartAssets,
    roots: &[Entity],
    insertion: &mut u64,
) -> usize {
    let below = make_hierarchy_visible(world, roots);
    spawn_models(world, &parts.0, &below, insertion)
}

/// Gives `roots` and their parts and model nodes a visibility so the
/// batches below them are drawn: a root is shown when its
/// [`ObjectState`] is visible (or it has none), the rest inherit. Returns
/// the parts met, each with its upper-case prototype key.
fn make_hierarchy_visible(world: &mut World, roots: &[Entity]) -> Vec<(Entity, Vec<u8>)> {
    let mut parts = Vec::new();
    let mut stack = Vec::new();
    for &root in roots {
        let visible = world.get::<ObjectState>(root).is_none_or(|s| s.visible);
        let visibility = if visible {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        world.entity_mut(root).insert(visibility);
        stack.extend(world.get::<Children>(root).into_iter().flatten().copied());
    }
    while let Some(entity) = stack.pop() {
        let inner =
            world.get::<UnitPartInfo>(entity).is_some() || world.get::<ModelNode>(entity).is_some();
        if !inner {
            continue;
        }
        if let Some(chain) = world.get::<PrototypeChain>(entity) {
            parts.push((entity, chain.0.key.to_ascii_uppercase()));
        }
        world.entity_mut(entity).insert(Visibility::Inherited);
        stack.extend(world.get::<Children>(entity).into_iter().flatten().copied());
    }
    parts
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

/// Spawns the batches of the nodes of `placed` parts (each with its
/// upper-case prototype key; every distinct slot of its native states,
/// hidden) in the order (object id, node, slot, batch); returns how many.
fn spawn_models(
    world: &mut World,
    parts: &BTreeMap<Vec<u8>, PartAssets>,
    placed: &[(Entity, Vec<u8>)],
    insertion: &mut u64,
) -> usize {
    let mut draws = Vec::new();
    for (part, key) in placed {
        let Some(assets) = parts.get(key) else {
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
        let assets = &parts[&draw.key];
        let (mesh, material_index, lightmap_index, light_discs) = {
            let model = world
                .resource::<Assets<Model>>()
                .get(&assets.model)
                .expect("loaded");
            let b = &model.batches[draw.batch];
            (
                b.mesh.clone(),
                b.material_index,
                b.lightmap_index,
                b.light_discs,
            )
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
            light_discs,
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
            // The shadow pass picks its casters ([`crate::shadow`]).
            bevy::light::NotShadowCaster,
            // Its object's lights that light only their owner find it.
            bevy::mesh::MeshTag(crate::lights::owner_tag(draw.object)),
        ));
    }
    world.insert_resource(bindings);
    count
}
