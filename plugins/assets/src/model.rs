//! MSH → [`Model`]: one Bevy [`Mesh`] per batch (labelled sub-assets
//! `batch<i>`), the node hierarchy and the slot table. Coordinates stay in
//! the original model frame (no axis conversion here).

use crate::source::IronSource;
use bevy::asset::{AssetLoader, LoadContext, RenderAssetUsages, io::Reader};
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use bevy::prelude::{Asset, Handle, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::msh::Msh;
use iron3d_formats::msh::streams::{Batch20, decode_normal, decode_uv};
use std::ops::Range;
use std::sync::Arc;

/// One draw batch: its mesh and the WEAR rows it uses.
#[derive(Debug, Clone)]
pub struct ModelBatch {
    pub mesh: Handle<Mesh>,
    /// The WEAR material row.
    pub material_index: u8,
    /// The lightmap row, `None` for 0xFF.
    pub lightmap_index: Option<u8>,
    /// The batch word's `0x800`: point lights are also emulated on it as
    /// discs (openparkan `docs/11-effects.md`, "What switches it on"; no
    /// retail batch carries it).
    pub light_discs: bool,
}

/// A node of the hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelNode {
    pub name: Option<String>,
    pub parent: Option<usize>,
    /// Slot of `state * 5 + lod` (3 states x 5 LODs), `None` = no geometry.
    pub slots: [Option<u16>; 15],
}

/// A slot: its range of [`Model::batches`] and bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSlot {
    pub batches: Range<usize>,
    pub aabb_min: [f32; 3],
    pub aabb_max: [f32; 3],
    pub sphere_center: [f32; 3],
    pub sphere_radius: f32,
}

/// A loaded model. `msh` keeps every stream (animation keys, frame map,
/// triangle descriptors) for sampling and queries; it is the parse the
/// mission loader's checks made (or will share).
#[derive(Asset, TypePath, Debug)]
pub struct Model {
    pub batches: Vec<ModelBatch>,
    pub nodes: Vec<ModelNode>,
    pub slots: Vec<ModelSlot>,
    pub msh: Arc<Msh>,
}

/// The format name in errors about model containers.
const MSH_FORMAT: &str = "MSH";

/// The label of batch `i`'s mesh.
pub fn batch_label(i: usize) -> String {
    format!("batch{i}")
}

/// The mesh of one batch: only the vertices it references (the index range
/// plus `base_vertex`, compacted), U32 indices, whole triangles only.
/// `None` when the batch's ranges fall outside the streams.
pub fn batch_mesh(msh: &Msh, batch: &Batch20) -> Option<Mesh> {
    let words = msh.batch_indices(batch)?;
    let words = &words[..words.len() - words.len() % 3];
    let global: Vec<usize> = words
        .iter()
        .map(|&i| (batch.base_vertex as usize).checked_add(i as usize))
        .collect::<Option<_>>()?;
    let lo = global.iter().copied().min().unwrap_or(0);
    let hi = global.iter().copied().max().map_or(lo, |h| h + 1);
    let range = lo..hi;
    let positions = msh.positions.get(range.clone())?.to_vec();
    let normals: Vec<[f32; 3]> = msh
        .normals
        .get(range.clone())?
        .iter()
        .map(|&n| decode_normal(n))
        .collect();
    let uv0: Vec<[f32; 2]> = msh
        .uv0
        .get(range.clone())?
        .iter()
        .map(|&u| decode_uv(u))
        .collect();
    let indices = global.iter().map(|&g| (g - lo) as u32).collect();
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uv0)
    .with_inserted_indices(Indices::U32(indices));
    if let Some(uv1) = &msh.uv1 {
        let uv1: Vec<[f32; 2]> = uv1.get(range)?.iter().map(|&u| decode_uv(u)).collect();
        mesh.insert_attribute(Mesh::ATTRIBUTE_UV_1, uv1);
    }
    Some(mesh)
}

/// Loads MSH model containers (`*.msh`).
#[derive(TypePath)]
pub struct MshLoader {
    pub source: Arc<IronSource>,
}

impl AssetLoader for MshLoader {
    type Asset = Model;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Model, FormatError> {
        let found = crate::found_input(&self.source, load_context)?;
        let annotate = |err: FormatError| found.origin.annotate(err);
        let msh = found.parsed(0, |b| Msh::load(b, Mode::Compatible))?;
        let mut batches = Vec::with_capacity(msh.batches.len());
        for (i, b) in msh.batches.iter().enumerate() {
            let mesh = batch_mesh(&msh, b).ok_or_else(|| {
                annotate(FormatError::invalid(
                    MSH_FORMAT,
                    0,
                    format!("batch {i} within the vertex streams"),
                    format!("base vertex {} + indices", b.base_vertex),
                ))
            })?;
            batches.push(ModelBatch {
                mesh: load_context.add_labeled_asset(batch_label(i), mesh),
                material_index: b.material_index,
                lightmap_index: (b.lightmap_index != 0xFF).then_some(b.lightmap_index),
                light_discs: u32::from(b.batch_flags) & iron3d_formats::msh::BATCH_LIGHT_DISCS != 0,
            });
        }
        let names = msh.node_names();
        let nodes = msh
            .nodes
            .node38()
            .iter()
            .enumerate()
            .map(|(i, n)| ModelNode {
                name: names
                    .as_ref()
                    .and_then(|v| v.get(i).cloned().flatten())
                    .map(|b| String::from_utf8_lossy(&b).into_owned()),
                parent: n.parent(),
                slots: std::array::from_fn(|k| n.slot(k / 5, k % 5)),
            })
            .collect();
        let slots = msh
            .slots
            .slots
            .iter()
            .map(|s| ModelSlot {
                batches: s.batch_start as usize..s.batch_start as usize + s.batch_count as usize,
                aabb_min: s.aabb_min,
                aabb_max: s.aabb_max,
                sphere_center: s.sphere_center,
                sphere_radius: s.sphere_radius,
            })
            .collect();
        Ok(Model {
            batches,
            nodes,
            slots,
            msh,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["msh"]
    }
}
