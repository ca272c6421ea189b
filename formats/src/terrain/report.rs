//! A summary of a `Land.msh` (`iron3d terrain info`): streams in directory
//! order, counts, bounds and face mask statistics.

use super::land_msh::LandMsh;
use super::mask::{MAIN16_MAP, MAPPED_FULL_BITS, MATERIAL6_MAP};
use serde::Serialize;
use std::collections::BTreeMap;

/// One stream of a `Land.msh`, in directory order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreamInfo {
    pub type_id: u32,
    pub name: String,
    /// Elements (`attr1`).
    pub count: u32,
    /// Bytes per element (`attr3`).
    pub stride: u32,
    pub attr2: u32,
    /// Whether the reader typed it (first entry of a known type).
    pub typed: bool,
}

/// Faces carrying one mask bit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BitCount {
    pub bit: String,
    pub faces: usize,
}

/// Face mask statistics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaskStats {
    /// Distinct full masks.
    pub distinct_masks: usize,
    /// Faces per full-mask bit (bits that occur).
    pub full_bits: Vec<BitCount>,
    /// Faces per compactMain16 bit (bits that occur).
    pub main16_bits: Vec<BitCount>,
    /// Faces per compactMaterial6 bit (bits that occur).
    pub material6_bits: Vec<BitCount>,
    /// Faces with full bits outside both compact tables.
    pub faces_with_unmapped_bits: usize,
}

/// Summary of a `Land.msh`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TerrainInfo {
    pub file: String,
    pub streams: Vec<StreamInfo>,
    pub vertices: usize,
    pub faces: usize,
    pub nodes: usize,
    pub slots: usize,
    /// Faces per level of detail (LOD 0, 1, ...) as the nodes select them.
    pub lod_faces: Vec<usize>,
    /// Faces with at least one edge without neighbour.
    pub boundary_faces: usize,
    pub bounds_min: Option<[f32; 3]>,
    pub bounds_max: Option<[f32; 3]>,
    pub has_stream_14: bool,
    pub masks: MaskStats,
}

fn bit_counts(
    values: impl Iterator<Item = u32>,
    bits: impl Iterator<Item = u32>,
    width: usize,
) -> Vec<BitCount> {
    let values: Vec<u32> = values.collect();
    bits.filter_map(|bit| {
        let faces = values.iter().filter(|&&v| v & bit != 0).count();
        (faces > 0).then(|| BitCount {
            bit: format!("0x{bit:0width$X}"),
            faces,
        })
    })
    .collect()
}

/// The summary of a parsed `Land.msh`.
pub fn terrain_info(file: &str, land: &LandMsh) -> TerrainInfo {
    let flags = || land.faces.iter().map(|f| f.flags);
    let compact = || flags().map(super::mask::full_to_compact);
    let distinct: BTreeMap<u32, ()> = flags().map(|f| (f, ())).collect();
    let mut lod_faces: Vec<usize> = (0..super::land_msh::LODS)
        .map(|l| land.lod_faces(l).len())
        .collect();
    while lod_faces.last() == Some(&0) {
        lod_faces.pop();
    }
    let bounds = land.bounds();
    TerrainInfo {
        file: file.to_string(),
        streams: land
            .layout
            .iter()
            .map(|e| StreamInfo {
                type_id: e.meta.type_id,
                name: e.meta.display_name(),
                count: e.meta.attr1,
                stride: e.meta.attr3,
                attr2: e.meta.attr2,
                typed: e.payload.is_none(),
            })
            .collect(),
        vertices: land.positions.len(),
        faces: land.faces.len(),
        nodes: land.nodes.len(),
        slots: land.slots.len(),
        lod_faces,
        boundary_faces: land
            .faces
            .iter()
            .filter(|f| f.neighbours.contains(&super::land_msh::NO_INDEX))
            .count(),
        bounds_min: bounds.map(|b| b.0),
        bounds_max: bounds.map(|b| b.1),
        has_stream_14: land.aux14.is_some(),
        masks: MaskStats {
            distinct_masks: distinct.len(),
            full_bits: bit_counts(flags(), (0..32).map(|b| 1u32 << b), 8),
            main16_bits: bit_counts(
                compact().map(|c| c.main as u32),
                MAIN16_MAP.iter().map(|m| m.1 as u32),
                4,
            ),
            material6_bits: bit_counts(
                compact().map(|c| c.material as u32),
                MATERIAL6_MAP.iter().map(|m| m.1 as u32),
                2,
            ),
            faces_with_unmapped_bits: flags().filter(|f| f & !MAPPED_FULL_BITS != 0).count(),
        },
    }
}
