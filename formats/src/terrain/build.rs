//! Writers from typed data for generated content: a heightfield terrain
//! (`Land.msh`) and an areal map from polygons (`Land.map`). Both compute
//! every derived field (neighbours, slot ranges and bounds, links, areas,
//! cell lists) with IEEE basic operations and `sqrt` only, so the same input
//! gives the same bytes everywhere.

use super::EntryMeta;
use super::geom::{bounds3, polygon_area};
use super::land_map::{
    Areal, CellGrid, ENTRY_NAME, EdgeLink, FORMAT as MAP_FORMAT, GridFrame, LandMap, TYPE_AREAL_MAP,
};
use super::land_msh::{
    FORMAT, LandMsh, LayoutEntry, NO_INDEX, RETAIL_ORDER, SLOT_HEADER_SIZE, STREAM_NAME,
    TerrainFace28,
};
use crate::error::{FormatError, Result};
use crate::msh::{Node38, Slot68};
use std::collections::BTreeMap;

/// A regular heightfield: `cols x rows` vertices, row-major heights
/// (`heights[y * cols + x]`), `spacing` world units apart from `origin`.
#[derive(Debug, Clone, PartialEq)]
pub struct Heightfield {
    pub cols: usize,
    pub rows: usize,
    pub origin: [f32; 2],
    pub spacing: f32,
    pub heights: Vec<f32>,
    /// Quads per side of one slot (a node's square of faces).
    pub block: usize,
}

/// UV units per world unit (8.8 fixed point, one tile per 50 units, as the
/// retail maps measure).
const UV_PER_UNIT: f32 = 256.0 / 50.0;

/// A `LandMsh` entry layout in the retail order, every stream named `Land`.
pub fn retail_layout() -> Vec<LayoutEntry> {
    RETAIL_ORDER
        .iter()
        .map(|&type_id| LayoutEntry {
            meta: EntryMeta {
                name: STREAM_NAME.to_vec(),
                type_id,
                attr1: 0,
                attr2: 0,
                attr3: 0,
            },
            payload: None,
        })
        .collect()
}

/// Fills the neighbour fields of every face from shared edges: edge `k` of a
/// face runs from vertex `k` to `k + 1`; a face across it is the other face
/// with the same undirected edge ([`NO_INDEX`] when none or when more than
/// two faces share the edge).
pub fn link_face_neighbours(faces: &mut [TerrainFace28]) {
    let mut edges: BTreeMap<(u16, u16), Vec<(usize, usize)>> = BTreeMap::new();
    for (f, face) in faces.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (face.vertices[k], face.vertices[(k + 1) % 3]);
            edges.entry((a.min(b), a.max(b))).or_default().push((f, k));
        }
    }
    for face in faces.iter_mut() {
        face.neighbours = [NO_INDEX; 3];
    }
    for users in edges.values() {
        if let [(f1, k1), (f2, k2)] = users[..] {
            faces[f1].neighbours[k1] = f2 as u16;
            faces[f2].neighbours[k2] = f1 as u16;
        }
    }
}

fn too_large(what: &str, found: usize, limit: usize) -> FormatError {
    FormatError::invalid(FORMAT, 0, format!("{what} at most {limit}"), found)
}

/// A terrain from a heightfield: faces counter-clockwise from above, grouped
/// by square blocks (one node and one LOD 0 slot per block, faces of a slot
/// contiguous), neighbours linked, vertex normals from central differences,
/// UVs at 8.8 fixed point (both layers: `u = x / 50`, `v = (max y - y) / 50`
/// from the field's corner, as retail maps measure), stream 14 all 1.0,
/// stream 11 the face order.
pub fn land_from_heightfield(h: &Heightfield) -> Result<LandMsh> {
    let vertex_count = h.cols.saturating_mul(h.rows);
    if h.cols < 2 || h.rows < 2 || h.heights.len() != vertex_count || h.block == 0 {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            "at least 2 x 2 vertices, one height per vertex and a block size above 0",
            format!(
                "{} x {}, {} heights, block {}",
                h.cols,
                h.rows,
                h.heights.len(),
                h.block
            ),
        ));
    }
    if vertex_count > 1 << 16 {
        return Err(too_large(
            "vertices (16-bit indices)",
            vertex_count,
            1 << 16,
        ));
    }
    let quads = [h.cols - 1, h.rows - 1];
    let face_count = 2 * quads[0] * quads[1];
    if face_count >= NO_INDEX as usize {
        return Err(too_large(
            "faces (16-bit neighbours)",
            face_count,
            NO_INDEX as usize - 1,
        ));
    }
    let at = |x: usize, y: usize| y * h.cols + x;
    let positions: Vec<[f32; 3]> = (0..h.rows)
        .flat_map(|y| (0..h.cols).map(move |x| (x, y)))
        .map(|(x, y)| {
            [
                h.origin[0] + h.spacing * x as f32,
                h.origin[1] + h.spacing * y as f32,
                h.heights[at(x, y)],
            ]
        })
        .collect();

    let mut faces = Vec::with_capacity(face_count);
    let mut nodes = Vec::new();
    let mut slots = Vec::new();
    let blocks = quads.map(|q| q.div_ceil(h.block));
    for by in 0..blocks[1] {
        for bx in 0..blocks[0] {
            let tri_start = faces.len();
            let xs = bx * h.block..((bx + 1) * h.block).min(quads[0]);
            let ys = by * h.block..((by + 1) * h.block).min(quads[1]);
            for y in ys.clone() {
                for x in xs.clone() {
                    let [a, b, c, d] =
                        [at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)].map(|v| v as u16);
                    faces.push(new_face([a, b, c]));
                    faces.push(new_face([a, c, d]));
                }
            }
            let block_points: Vec<[f32; 3]> = ys
                .clone()
                .chain([ys.end])
                .flat_map(|y| (xs.start..=xs.end).map(move |x| (x, y)))
                .map(|(x, y)| positions[at(x, y)])
                .collect();
            let slot_index = slots.len();
            if slot_index >= NO_INDEX as usize {
                return Err(too_large("slots", slot_index + 1, NO_INDEX as usize - 1));
            }
            slots.push(new_slot(tri_start, faces.len() - tri_start, &block_points));
            let mut node = Node38 {
                hdr0: 0,
                parent_or_link: NO_INDEX,
                anim_map_start: 0,
                fallback_key: 0,
                slot_index: [NO_INDEX; 15],
            };
            node.slot_index[0] = slot_index as u16;
            nodes.push(node);
        }
    }
    link_face_neighbours(&mut faces);

    let normals = (0..h.rows)
        .flat_map(|y| (0..h.cols).map(move |x| (x, y)))
        .map(|(x, y)| {
            let z = |x: usize, y: usize| h.heights[at(x, y)] as f64;
            let (x0, x1) = (x.saturating_sub(1), (x + 1).min(h.cols - 1));
            let (y0, y1) = (y.saturating_sub(1), (y + 1).min(h.rows - 1));
            let step = h.spacing as f64;
            let dx = (z(x1, y) - z(x0, y)) / (step * (x1 - x0) as f64);
            let dy = (z(x, y1) - z(x, y0)) / (step * (y1 - y0) as f64);
            pack_normal([-dx, -dy, 1.0])
        })
        .collect();
    // Retail rule: u = x / 50, v = (max y - y) / 50, from the field's corner.
    let top = h.origin[1] + h.spacing * (h.rows - 1) as f32;
    let fixed = |units: f32| ((units * UV_PER_UNIT) as i64 & 0xFFFF) as u16;
    let uv: Vec<[u16; 2]> = positions
        .iter()
        .map(|p| [fixed(p[0] - h.origin[0]), fixed(top - p[1])])
        .collect();
    let (lo, hi) = bounds3(&positions).unwrap_or(([0.0; 3], [0.0; 3]));
    let mut land = LandMsh {
        nodes,
        slot_header: slot_header(lo, hi),
        slots,
        normals,
        uv0: uv.clone(),
        uv1: uv,
        aux14: Some(vec![1.0f32.to_le_bytes(); positions.len()]),
        cells: (0..faces.len())
            .map(|f| [f as u8, (f >> 8) as u8, 0, 0])
            .collect(),
        faces,
        positions,
        layout: retail_layout(),
    };
    land.refresh_layout()?;
    Ok(land)
}

/// A face with no flags, layer-1 texture 0, no layer-2 texture (0xFF) and
/// 0xFFFF in the word at +6, as retail faces carry.
fn new_face(vertices: [u16; 3]) -> TerrainFace28 {
    TerrainFace28 {
        flags: 0,
        service: [0, 0xFF, 0xFF, 0xFF],
        vertices,
        neighbours: [NO_INDEX; 3],
        tail: [0; 8],
    }
}

fn new_slot(tri_start: usize, tri_count: usize, points: &[[f32; 3]]) -> Slot68 {
    let (lo, hi) = bounds3(points).unwrap_or(([0.0; 3], [0.0; 3]));
    let centre = [0, 1, 2].map(|k| (lo[k] + hi[k]) / 2.0);
    let half = [0, 1, 2].map(|k| (hi[k] - lo[k]) as f64 / 2.0);
    Slot68 {
        tri_start: tri_start as u16,
        tri_count: tri_count as u16,
        batch_start: 0,
        batch_count: 0,
        aabb_min: lo,
        aabb_max: hi,
        sphere_center: centre,
        sphere_radius: (half[0] * half[0] + half[1] * half[1] + half[2] * half[2]).sqrt() as f32,
        opaque: [0; 5],
    }
}

/// The type 2 header: the eight corners of the bounding box (x slowest, z
/// fastest), then zeros to 0x8C bytes.
fn slot_header(lo: [f32; 3], hi: [f32; 3]) -> Vec<u8> {
    let mut out = Vec::with_capacity(SLOT_HEADER_SIZE);
    for corner in 0..8 {
        let pick = |k: usize| {
            if corner >> (2 - k) & 1 == 1 {
                hi[k]
            } else {
                lo[k]
            }
        };
        for k in 0..3 {
            out.extend(pick(k).to_le_bytes());
        }
    }
    out.resize(SLOT_HEADER_SIZE, 0);
    out
}

/// Packs a normal as three signed bytes (x127, rounded) and a zero byte.
pub fn pack_normal(n: [f64; 3]) -> [u8; 4] {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    let unit = if len > 0.0 {
        n.map(|c| c / len)
    } else {
        [0.0, 0.0, 1.0]
    };
    let b = unit.map(|c| ((c * 127.0).round().clamp(-127.0, 127.0) as i8) as u8);
    [b[0], b[1], b[2], 0]
}

/// The exact bits of a ground point, for matching shared edges.
type PointKey = (u32, u32);

/// One areal of a generated map: its boundary (counter-clockwise from above)
/// and raw class fields.
#[derive(Debug, Clone, PartialEq)]
pub struct ArealShape {
    pub vertices: Vec<[f32; 3]>,
    pub logic_flag: u32,
    pub class_id: u32,
}

/// An areal map from polygons: links from shared edges (edge `a -> b` of one
/// areal meets `b -> a` of another, exact coordinates), anchor at the vertex
/// average (inside a convex areal), area by the shoelace formula, normal
/// (0, 0, 1), and each cell listing the areals whose bounds overlap it.
pub fn land_map_from_polygons(shapes: &[ArealShape], cells: [u32; 2]) -> Result<LandMap> {
    let invalid = |expected: &str, found: String| {
        FormatError::invalid(MAP_FORMAT, 0, expected.to_string(), found)
    };
    if shapes.is_empty() || shapes.len() > 1 << 16 {
        return Err(invalid(
            "1..=65536 areals (16-bit cell ids)",
            shapes.len().to_string(),
        ));
    }
    if cells[0] == 0 || cells[1] == 0 || cells[0] as u64 * cells[1] as u64 > 1 << 22 {
        return Err(invalid(
            "a grid of 1..=2^22 cells",
            format!("{} x {}", cells[0], cells[1]),
        ));
    }
    if let Some(i) = shapes.iter().position(|s| s.vertices.len() < 3) {
        return Err(invalid(
            "areals of at least 3 vertices",
            format!("areal {i}"),
        ));
    }
    let key = |v: &[f32; 3]| (v[0].to_bits(), v[1].to_bits());
    // (from, to) ground point bits -> (areal, edge)
    let mut edge_owner: BTreeMap<(PointKey, PointKey), (usize, usize)> = BTreeMap::new();
    for (i, s) in shapes.iter().enumerate() {
        let n = s.vertices.len();
        for e in 0..n {
            edge_owner.insert((key(&s.vertices[e]), key(&s.vertices[(e + 1) % n])), (i, e));
        }
    }
    let mut areals: Vec<Areal> = shapes
        .iter()
        .map(|s| {
            let n = s.vertices.len();
            let links = (0..n)
                .map(|e| {
                    let back = (key(&s.vertices[(e + 1) % n]), key(&s.vertices[e]));
                    edge_owner
                        .get(&back)
                        .map_or(EdgeLink::NONE, |&(a, k)| EdgeLink {
                            area_ref: a as i32,
                            edge_ref: k as i32,
                        })
                })
                .collect();
            let ground: Vec<[f64; 2]> = s
                .vertices
                .iter()
                .map(|v| [v[0] as f64, v[1] as f64])
                .collect();
            let sum = s
                .vertices
                .iter()
                .fold([0f64; 3], |acc, v| [0, 1, 2].map(|k| acc[k] + v[k] as f64));
            Areal {
                anchor: sum.map(|c| (c / n as f64) as f32),
                reserved_12: 0.0,
                area_metric: polygon_area(&ground) as f32,
                normal: [0.0, 0.0, 1.0],
                logic_flag: s.logic_flag,
                reserved_36: 0,
                class_id: s.class_id,
                reserved_44: 0,
                vertices: s.vertices.clone(),
                links,
                polygon_links: Vec::new(),
                polygons: Vec::new(),
            }
        })
        .collect();

    let mut map = LandMap {
        areals: Vec::new(),
        grid: CellGrid {
            cells_x: cells[0],
            cells_y: cells[1],
            packed: Vec::new(),
            pool: Vec::new(),
        },
        map_entry: 0,
        entries: vec![(
            EntryMeta {
                name: ENTRY_NAME.to_vec(),
                type_id: TYPE_AREAL_MAP,
                attr1: 0,
                attr2: 0,
                attr3: 0,
            },
            None,
        )],
    };
    map.entries[0].0.attr1 = areals.len() as u32;
    std::mem::swap(&mut map.areals, &mut areals);
    let frame = GridFrame::of(&map).ok_or_else(|| invalid("areal vertices", "none".into()))?;
    let mut lists = vec![Vec::new(); cells[0] as usize * cells[1] as usize];
    for (id, a) in map.areals.iter().enumerate() {
        let (lo, hi) = bounds3(&a.vertices).unwrap_or(([0.0; 3], [0.0; 3]));
        let (Some((x0, y0)), Some((x1, y1))) = (
            frame.cell_of([lo[0] as f64, lo[1] as f64]),
            frame.cell_of([hi[0] as f64, hi[1] as f64]),
        ) else {
            continue;
        };
        for x in x0..=x1 {
            for y in y0..=y1 {
                lists[x as usize * cells[1] as usize + y as usize].push(id as u16);
            }
        }
    }
    map.grid = CellGrid::from_lists(cells[0], cells[1], &lists)?;
    Ok(map)
}
