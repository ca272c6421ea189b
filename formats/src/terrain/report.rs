//! What `iron3d terrain info` and `iron3d map route` print: the logic of the
//! two commands, kept here so it is tested without the binary.

use super::land_map::LandMap;
use super::land_msh::{LandMsh, stride_of};
use super::mask::{MAIN16_MAP, MAPPED_FULL_BITS, MATERIAL6_MAP};
use super::route::{Navigator, Route};
use crate::archive::Mode;
use crate::tool::{CliOutput, json_text};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

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

/// The text form of [`TerrainInfo`].
pub fn terrain_info_text(info: &TerrainInfo) -> String {
    let mut out = format!("{}: terrain (Land.msh)\n", info.file);
    out += "streams (directory order):\n";
    for s in &info.streams {
        let known = stride_of(s.type_id).is_some() || s.type_id == super::land_msh::TYPE_SLOTS;
        let note = if !known {
            "  (opaque)"
        } else if !s.typed {
            "  (duplicate, opaque)"
        } else {
            ""
        };
        out += &format!(
            "  type {:>2} '{}': {} x {} bytes, attr2 {}{}\n",
            s.type_id, s.name, s.count, s.stride, s.attr2, note
        );
    }
    out += &format!(
        "vertices {}, faces {} ({} on the mesh boundary), nodes {}, slots {}\n",
        info.vertices, info.faces, info.boundary_faces, info.nodes, info.slots
    );
    let lods: Vec<String> = info
        .lod_faces
        .iter()
        .enumerate()
        .map(|(l, n)| format!("LOD {l}: {n}"))
        .collect();
    out += &format!(
        "faces per level of detail: {}\n",
        if lods.is_empty() {
            "none".into()
        } else {
            lods.join(", ")
        }
    );
    if let (Some(lo), Some(hi)) = (info.bounds_min, info.bounds_max) {
        out += &format!(
            "bounds: x {} .. {}, y {} .. {}, z (up) {} .. {}\n",
            lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]
        );
    }
    out += &format!(
        "stream 14: {}\n",
        if info.has_stream_14 {
            "present"
        } else {
            "absent"
        }
    );
    let m = &info.masks;
    let list = |bits: &[BitCount]| -> String {
        if bits.is_empty() {
            return "none".into();
        }
        bits.iter()
            .map(|b| format!("{} x{}", b.bit, b.faces))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out += &format!("face masks: {} distinct\n", m.distinct_masks);
    out += &format!("  full bits: {}\n", list(&m.full_bits));
    out += &format!("  compactMain16 bits: {}\n", list(&m.main16_bits));
    out += &format!("  compactMaterial6 bits: {}\n", list(&m.material6_bits));
    out += &format!(
        "  faces with bits outside both tables: {}\n",
        m.faces_with_unmapped_bits
    );
    out
}

/// Reads `path` and runs `command` on its bytes; a read error exits 1.
fn with_file(path: &Path, command: impl FnOnce(&str, &[u8]) -> CliOutput) -> CliOutput {
    let file = path.display().to_string();
    match crate::fsutil::read_file(path) {
        Ok(data) => command(&file, &data),
        Err(e) => CliOutput::failure(e.in_file(file)),
    }
}

/// `iron3d terrain info <LAND.MSH> [--json]`.
pub fn run_terrain_info(path: &Path, json: bool) -> CliOutput {
    with_file(path, |file, data| terrain_info_command(file, data, json))
}

/// `iron3d map route <LAND.MAP> <x1> <y1> <x2> <y2>`.
pub fn run_map_route(path: &Path, from: [f32; 2], to: [f32; 2]) -> CliOutput {
    with_file(path, |file, data| map_route_command(file, data, from, to))
}

/// `terrain info` on the bytes `data` of `file`.
pub fn terrain_info_command(file: &str, data: &[u8], json: bool) -> CliOutput {
    match LandMsh::parse(data, Mode::Strict) {
        Ok(land) => {
            let info = terrain_info(file, &land);
            CliOutput::ok(if json {
                json_text(&info)
            } else {
                terrain_info_text(&info)
            })
        }
        Err(e) => CliOutput::failure(e.in_file(file)),
    }
}

/// The text form of a route.
pub fn route_text(route: &Route) -> String {
    let ids: Vec<String> = route.areals.iter().map(u32::to_string).collect();
    let mut out = format!("areals: {}\n", ids.join(" "));
    out += &format!("crossed edges: {}\n", route.crossings.len());
    for c in &route.crossings {
        out += &format!(
            "  areal {} edge {} -> areal {} edge {}\n",
            c.from, c.edge, c.to, c.to_edge
        );
    }
    out += &format!("length: {:.3}\n", route.cost);
    out
}

/// `map route` on the bytes `data` of `file`: route from ground point `from`
/// to `to`; exit 1 with a message when a point lies outside every areal or
/// the goal is unreachable.
pub fn map_route_command(file: &str, data: &[u8], from: [f32; 2], to: [f32; 2]) -> CliOutput {
    let map = match LandMap::parse(data, Mode::Strict) {
        Ok(map) => map,
        Err(e) => return CliOutput::failure(e.in_file(file)),
    };
    match Navigator::new(&map).route(from, to) {
        Ok(route) => CliOutput::ok(route_text(&route)),
        Err(e) => CliOutput::failure(format!(
            "{file}: no route from ({}, {}) to ({}, {}): {e}",
            from[0], from[1], to[0], to[1]
        )),
    }
}
