//! The frame's draw items (tome V "Draw item", tome VII render command
//! capture). Every drawn entity (terrain and model batches) carries a
//! [`DrawItemSource`]: what the legacy renderer would have queued for it.
//!
//! Bevy 0.19 renders each camera by running its `Core3d` schedule in the
//! render world. Each frame the sources of the entities visible in some
//! view are extracted with their world matrix and bounds centre (unchanged
//! sources keep one shared copy); then, for every camera view, a `Core3d`
//! system ahead of the prepass takes the view's own visible entities
//! (`RenderVisibleEntities`: frustum-culled) and builds the frame's
//! immutable [`DrawItemList`]: camera matrices and viewport, then the items
//! sorted by render phase, then pipeline key (opaque and alpha-tested) or
//! view depth back to front (transparent), then stable insertion id. The
//! lists are shared with the main world ([`FrameDrawItems`]);
//! `--capture-frame FILE.json` writes the mission camera's list of one
//! frame.

use crate::camera::MissionCamera;
use crate::draw::{DrawItemSource, RenderPhase, ShadowCaster};
use crate::output::{OutputSystems, PendingOutputs, ReadyFrames, register_output};
use bevy::camera::primitives::Aabb;
use bevy::core_pipeline::{Core3d, Core3dSystems};
use bevy::diagnostic::FrameCount;
use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use bevy::render::renderer::ViewQuery;
use bevy::render::view::{ExtractedView, RenderVisibleEntities};
use bevy::render::{Extract, ExtractSchedule, RenderApp};
use iron3d_formats::fsutil::write_atomic;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The camera state of a captured frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapturedCamera {
    /// The camera's world transform, column-major (Bevy Y-up frame).
    pub world_from_view: [f32; 16],
    /// The projection, column-major.
    pub clip_from_view: [f32; 16],
    /// Physical viewport: x, y, width, height in pixels.
    pub viewport: [u32; 4],
}

/// One drawn entity of the frame, with the key it was sorted by.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawItem {
    #[serde(flatten)]
    pub source: SharedSource,
    /// `[render phase order, phase key, insertion]`: the phase key is the
    /// pipeline key in opaque and alpha-tested phases and the inverted
    /// order-preserving bits of the view depth in the transparent phase
    /// (back to front).
    pub sort_key: [u64; 3],
    /// Distance of the item's bounds centre in front of the camera.
    pub view_depth: f32,
    /// The node's world matrix, column-major.
    pub world_from_node: [f32; 16],
}

/// A drawn entity's [`DrawItemSource`] as extracted for a frame: shared by
/// every frame until the component changes, never mutated.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedSource(pub Arc<DrawItemSource>);

impl Serialize for SharedSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The frame's draw items for one camera, in drawing order. Immutable once
/// built (tome V: a draw item refers to immutable frame data).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawItemList {
    /// The main-world frame ([`FrameCount`]) the list was extracted from.
    #[serde(skip)]
    pub frame: u32,
    pub camera: CapturedCamera,
    pub items: Vec<DrawItem>,
}

impl DrawItemList {
    /// The list as pretty-printed JSON.
    pub fn to_json(&self) -> Vec<u8> {
        let mut json = serde_json::to_vec_pretty(self).expect("draw items serialize");
        json.push(b'\n');
        json
    }
}

/// The latest draw-item list of every camera (keyed by its main-world
/// entity): written by the render world, read by the main world.
#[derive(Resource, Debug, Clone, Default)]
pub struct FrameDrawItems(Arc<Mutex<BTreeMap<Entity, Arc<DrawItemList>>>>);

impl FrameDrawItems {
    /// The latest list of `camera`.
    pub fn latest(&self, camera: Entity) -> Option<Arc<DrawItemList>> {
        self.lock().get(&camera).cloned()
    }

    fn publish(&self, camera: Entity, list: DrawItemList) {
        self.lock().insert(camera, Arc::new(list));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<Entity, Arc<DrawItemList>>> {
        // A panic while holding the lock leaves a whole map behind: usable.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The sort key of an item of `source` at `view_depth` (see
/// [`DrawItem::sort_key`]).
pub fn sort_key(source: &DrawItemSource, view_depth: f32) -> [u64; 3] {
    let phase_key = match source.render_phase {
        RenderPhase::Transparent => u64::from(!ordered_bits(view_depth)),
        RenderPhase::OpaqueTerrain
        | RenderPhase::OpaqueObjects
        | RenderPhase::MaterialPasses
        | RenderPhase::Shadows
        | RenderPhase::AlphaTested => source.pipeline_key,
        // Drawn in the order the sky makes them.
        RenderPhase::Atmosphere => 0,
    };
    [source.render_phase.order(), phase_key, source.insertion]
}

/// The bits of `value` as an unsigned integer of the same order (negative
/// values below positive ones).
fn ordered_bits(value: f32) -> u32 {
    let bits = value.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

/// A drawn entity as the render world keeps it between frames.
#[derive(Debug, Clone)]
struct ExtractedSource {
    source: SharedSource,
    /// The same draw in the shadow phase, when it casts this frame.
    shadow: Option<SharedSource>,
    world_from_node: Mat4,
    /// World-space centre of its bounds (its origin without bounds).
    centre: Vec3,
}

/// Render world: the drawn entities visible in some view this frame, by
/// main-world entity.
#[derive(Resource, Debug, Default)]
struct ExtractedDrawSources(EntityHashMap<ExtractedSource>);

/// Builds the frame's draw-item lists: extraction of every visible
/// [`DrawItemSource`], and a system of the `Core3d` schedule (run for each
/// camera view) that sorts the view's visible items into its
/// [`DrawItemList`], published in [`FrameDrawItems`].
pub fn add_draw_item_capture(app: &mut App) {
    let shared = FrameDrawItems::default();
    app.insert_resource(shared.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(shared)
            .init_resource::<ExtractedDrawSources>()
            .add_systems(ExtractSchedule, extract_draw_sources)
            .add_systems(Core3d, build_draw_items.before(Core3dSystems::Prepass));
    }
}

/// What the extraction reads of a drawn entity.
type DrawnQuery = (
    Entity,
    Ref<'static, DrawItemSource>,
    &'static GlobalTransform,
    &'static ViewVisibility,
    Option<&'static Aabb>,
    Has<ShadowCaster>,
);

/// Extracts the drawn entities visible in some view; a source unchanged
/// since the last frame keeps its shared copy.
fn extract_draw_sources(
    mut extracted: ResMut<ExtractedDrawSources>,
    drawn: Extract<Query<DrawnQuery>>,
) {
    let previous = std::mem::take(&mut extracted.0);
    for (entity, source, transform, visibility, aabb, casts) in &drawn {
        if !visibility.get() {
            continue;
        }
        let old = previous.get(&entity).filter(|_| !source.is_changed());
        let shadow = casts.then(|| match old.and_then(|o| o.shadow.clone()) {
            Some(kept) => kept,
            None => SharedSource(Arc::new(DrawItemSource {
                render_phase: RenderPhase::Shadows,
                ..DrawItemSource::clone(&source)
            })),
        });
        let source = match old {
            Some(old) => old.source.clone(),
            None => SharedSource(Arc::new(DrawItemSource::clone(&source))),
        };
        let centre = aabb.map_or(Vec3::ZERO, |b| Vec3::from(b.center));
        extracted.0.insert(
            entity,
            ExtractedSource {
                source,
                shadow,
                world_from_node: transform.to_matrix(),
                centre: transform.transform_point(centre),
            },
        );
    }
}

/// `Core3d`, for the current camera view: its visible drawn entities as
/// the frame's sorted draw-item list.
fn build_draw_items(
    view: ViewQuery<(&ExtractedView, &RenderVisibleEntities)>,
    sources: Res<ExtractedDrawSources>,
    frame: Res<FrameCount>,
    shared: Res<FrameDrawItems>,
) {
    let (view, visible) = view.into_inner();
    let view_from_world = view.world_from_view.affine().inverse();
    let mut entities: Vec<Entity> = visible
        .classes
        .values()
        .flat_map(|class| {
            let cpu = class.entities_cpu_culling.iter().map(|(_, main)| main.id());
            cpu.chain(class.entities_gpu_culling.keys().map(|main| main.id()))
        })
        .collect();
    entities.sort_unstable();
    entities.dedup();
    let items = entities
        .into_iter()
        .filter_map(|entity| sources.0.get(&entity))
        .flat_map(|drawn| {
            let view_depth = -view_from_world.transform_point3(drawn.centre).z;
            let item = |source: &SharedSource| DrawItem {
                sort_key: sort_key(&source.0, view_depth),
                source: source.clone(),
                view_depth,
                world_from_node: drawn.world_from_node.to_cols_array(),
            };
            std::iter::once(item(&drawn.source)).chain(drawn.shadow.as_ref().map(item))
        })
        .collect();
    let camera = CapturedCamera {
        world_from_view: view.world_from_view.to_matrix().to_cols_array(),
        clip_from_view: view.clip_from_view.to_cols_array(),
        viewport: view.viewport.to_array(),
    };
    shared.publish(
        view.retained_view_entity.main_entity.id(),
        sorted_list(frame.0, camera, items),
    );
}

/// The list of `items` in drawing order (a stable sort by sort key).
pub fn sorted_list(frame: u32, camera: CapturedCamera, mut items: Vec<DrawItem>) -> DrawItemList {
    items.sort_by_key(|item| item.sort_key);
    DrawItemList {
        frame,
        camera,
        items,
    }
}

/// `--capture-frame FILE.json`: where to write the draw-item list and how
/// many ready frames to draw first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureRequest {
    pub path: PathBuf,
    pub frames: u32,
}

/// The capture in progress: the main-world frame whose list is wanted.
#[derive(Resource, Debug)]
struct CapturePlan {
    path: PathBuf,
    frames: u32,
    wanted: Option<u32>,
    written: bool,
}

/// Adds the `--capture-frame` systems for `request` (after
/// [`add_draw_item_capture`]).
pub fn add_capture_frame(app: &mut App, request: &CaptureRequest) {
    register_output(app);
    app.insert_resource(CapturePlan {
        path: request.path.clone(),
        frames: request.frames,
        wanted: None,
        written: false,
    })
    .add_systems(
        Last,
        (choose_capture_frame, write_capture)
            .chain()
            .in_set(OutputSystems::Act),
    );
}

/// After the last of the ready frames, the current frame is the one to
/// capture.
fn choose_capture_frame(
    mut plan: ResMut<CapturePlan>,
    ready: Res<ReadyFrames>,
    frame: Res<FrameCount>,
) {
    if plan.wanted.is_none() && ready.0 > plan.frames {
        plan.wanted = Some(frame.0);
    }
}

/// Writes the mission camera's list of the wanted frame once the render
/// world has built it.
fn write_capture(
    mut plan: ResMut<CapturePlan>,
    shared: Res<FrameDrawItems>,
    camera: Query<Entity, With<MissionCamera>>,
    mut outputs: ResMut<PendingOutputs>,
) {
    let Some(wanted) = plan.wanted.filter(|_| !plan.written) else {
        return;
    };
    let Some(list) = camera
        .iter()
        .find_map(|camera| shared.latest(camera))
        .filter(|list| list.frame >= wanted)
    else {
        return;
    };
    plan.written = true;
    let written = write_atomic(&plan.path, &list.to_json());
    match &written {
        Ok(()) => info!(
            "frame capture ({} draw items) saved to {}",
            list.items.len(),
            plan.path.display()
        ),
        Err(e) => eprintln!(
            "iron3d: cannot write the frame capture {}: {e}",
            plan.path.display()
        ),
    }
    outputs.finish(written.is_ok());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(render_phase: RenderPhase, pipeline_key: u64, insertion: u64) -> DrawItemSource {
        DrawItemSource {
            object: Some(insertion as u32),
            node: Some(0),
            slot: Some(0),
            batch: Some(0),
            material_phase: 0,
            texture: None,
            lightmap: None,
            render_phase,
            pipeline_key,
            insertion,
        }
    }

    fn item(source: DrawItemSource, view_depth: f32) -> DrawItem {
        DrawItem {
            sort_key: sort_key(&source, view_depth),
            source: SharedSource(Arc::new(source)),
            view_depth,
            world_from_node: Mat4::IDENTITY.to_cols_array(),
        }
    }

    fn camera() -> CapturedCamera {
        CapturedCamera {
            world_from_view: Mat4::IDENTITY.to_cols_array(),
            clip_from_view: Mat4::IDENTITY.to_cols_array(),
            viewport: [0, 0, 640, 480],
        }
    }

    /// The insertion ids, in drawing order, of items given as (phase,
    /// pipeline key, insertion, view depth).
    fn order(items: &[(RenderPhase, u64, u64, f32)]) -> Vec<u64> {
        let items = items
            .iter()
            .map(|&(phase, key, insertion, depth)| item(source(phase, key, insertion), depth))
            .collect();
        sorted_list(0, camera(), items)
            .items
            .iter()
            .map(|i| i.source.0.insertion)
            .collect()
    }

    #[test]
    fn phases_come_in_frame_order() {
        use RenderPhase::*;
        let items = [
            (Transparent, 0, 1, 5.0),
            (AlphaTested, 0, 2, 5.0),
            (MaterialPasses, 0, 6, 5.0),
            (Atmosphere, 0, 8, 1.0),
            (OpaqueObjects, 0, 3, 5.0),
            (Shadows, 0, 7, 5.0),
            (OpaqueTerrain, 9, 4, 5.0),
        ];
        assert_eq!(order(&items), [4, 3, 6, 7, 2, 1, 8]);
    }

    #[test]
    fn opaque_and_alpha_tested_sort_by_pipeline_key_then_insertion() {
        use RenderPhase::*;
        let items = [
            (OpaqueObjects, 7, 1, 1.0),
            (OpaqueObjects, 3, 5, 9.0),
            (OpaqueObjects, 3, 2, 50.0),
            (AlphaTested, 1, 4, 1.0),
            (AlphaTested, 1, 3, 2.0),
        ];
        assert_eq!(order(&items), [2, 5, 1, 3, 4]);
    }

    #[test]
    fn transparent_sorts_back_to_front_then_by_insertion() {
        let t = RenderPhase::Transparent;
        let items = [
            (t, 0, 1, 2.5),
            (t, 9, 2, 40.0),
            (t, 0, 3, -1.0),
            (t, 0, 5, 10.0),
            (t, 0, 4, 10.0),
        ];
        assert_eq!(order(&items), [2, 4, 5, 1, 3]);
    }

    #[test]
    fn ordered_bits_keep_the_order_of_floats() {
        let values = [-100.0f32, -1.5, -0.0, 0.0, 1e-9, 2.0, 1e9];
        for pair in values.windows(2) {
            assert!(ordered_bits(pair[0]) <= ordered_bits(pair[1]), "{pair:?}");
        }
    }

    #[test]
    fn json_flattens_the_source_beside_the_sort_key() {
        let list = sorted_list(
            3,
            camera(),
            vec![item(source(RenderPhase::OpaqueObjects, 6, 8), 1.0)],
        );
        let json: serde_json::Value = serde_json::from_slice(&list.to_json()).unwrap();
        let first = &json["items"][0];
        assert_eq!(first["object"], 8);
        assert_eq!(first["pipeline_key"], 6);
        assert_eq!(first["render_phase"], "OpaqueObjects");
        assert_eq!(first["sort_key"], serde_json::json!([1, 6, 8]));
        assert_eq!(
            json["camera"]["viewport"],
            serde_json::json!([0, 0, 640, 480])
        );
        assert!(json.get("frame").is_none(), "the frame number is not data");
    }
}
