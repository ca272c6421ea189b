//! Models shared by the MSH tests, the model mutation test and the model
//! benchmark, built from hand-written typed data.

#![allow(dead_code)] // each test binary uses a different part

use iron3d_formats::msh::{
    AnimKey24, Batch20, MshParts, NONE, Node38, RawStream, Slot68, TriDesc16,
};

/// A quaternion `[x, y, z, w]` as stored (W, X, Y, Z, i16 / 32767).
pub fn q(x: f32, y: f32, z: f32, w: f32) -> [i16; 4] {
    [w, x, y, z].map(|v| (v * 32767.0).round() as i16)
}

pub fn key(t: f32, pos: [f32; 3], rot: [i16; 4]) -> AnimKey24 {
    AnimKey24 {
        position: pos,
        time: t,
        rotation_wxyz: rot,
    }
}

pub fn node(parent: u16, map: u16, fallback: u16, slot: u16) -> Node38 {
    let mut slot_index = [NONE; 15];
    slot_index[0] = slot;
    Node38 {
        hdr0: 0,
        parent_or_link: parent,
        anim_map_start: map,
        fallback_key: fallback,
        slot_index,
    }
}

pub fn slot(batch_start: u16, batch_count: u16, tri_start: u16, tri_count: u16) -> Slot68 {
    Slot68 {
        tri_start,
        tri_count,
        batch_start,
        batch_count,
        aabb_min: [-1.0; 3],
        aabb_max: [1.0; 3],
        sphere_center: [0.0; 3],
        sphere_radius: 1.75,
        opaque: [1, 2, 3, 4, 5],
    }
}

pub fn batch(material: u8, index_start: u32, index_count: u16, base_vertex: u32) -> Batch20 {
    Batch20 {
        batch_flags: 0,
        material_index_hi: 0,
        material_index: material,
        lightmap_index: 0xFF,
        local_batch_index: 0,
        index_count,
        index_start,
        vertex_count: 4,
        base_vertex,
    }
}

pub const S: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Two nodes (root 0, child 1), each drawing one quad of its own; three
/// frames. Root: keys 0 (t 0, origin, identity), 1 (t 2, x = 2, +90° z),
/// 2 fallback (5, 5, 5). Child: keys 3 (t 0, y = 1, identity), 4 (t 2,
/// y = 1, +90° z stored with the negated sign), 5 fallback; its map sends
/// frame 1 to key 9 (>= fallback: fallback).
pub fn two_node_parts() -> MshParts {
    let quad = |z: f32| [[0.0, 0.0, z], [1.0, 0.0, z], [1.0, 1.0, z], [0.0, 1.0, z]];
    let mut positions = quad(0.0).to_vec();
    positions.extend(quad(1.0));
    MshParts {
        nodes: vec![node(NONE, 0, 2, 0), node(0, 3, 5, 1)],
        slots: vec![slot(0, 1, 0, 2), slot(1, 1, 2, 2)],
        positions,
        normals: vec![[0, 0, 127, 0]; 8],
        uv0: vec![
            [0, 0],
            [1024, 0],
            [1024, 1024],
            [0, 1024],
            [0, 0],
            [512, 0],
            [512, 512],
            [0, 512],
        ],
        uv1: None,
        indices: vec![0, 1, 2, 0, 2, 3],
        triangles: Some(vec![
            TriDesc16 {
                tri_flags: 0,
                links: [NONE; 3],
                normal: [0, 0, 32767],
                sel_packed: 0x3F
            };
            4
        ]),
        keys: vec![
            key(0.0, [0.0; 3], q(0.0, 0.0, 0.0, 1.0)),
            key(2.0, [2.0, 0.0, 0.0], q(0.0, 0.0, S, S)),
            key(9.0, [5.0; 3], q(0.0, 0.0, 0.0, 1.0)),
            key(0.0, [0.0, 1.0, 0.0], q(0.0, 0.0, 0.0, 1.0)),
            key(2.0, [0.0, 1.0, 0.0], q(0.0, 0.0, -S, -S)),
            key(9.0, [0.0, 3.0, 0.0], q(0.0, 0.0, 0.0, 1.0)),
        ],
        frame_map: vec![0, 0, 1, 3, 9, 4],
        frame_count: 3,
        batches: vec![batch(0, 0, 6, 0), batch(1, 0, 6, 4)],
        names: vec![Some(b"body".to_vec()), Some(b"turret".to_vec())],
        extra: vec![
            RawStream {
                type_id: 9,
                payload: vec![1, 2, 3],
                ..RawStream::default()
            },
            RawStream {
                type_id: 17,
                attr1: 7,
                attr2: 8,
                attr3: 9,
                payload: vec![0xAB; 5],
            },
        ],
        ..MshParts::default()
    }
}

/// A model of `vertices` vertices (a strip of triangles), one node, one slot
/// and batches of at most 60000 indices.
pub fn big_parts(vertices: usize) -> MshParts {
    let positions: Vec<[f32; 3]> = (0..vertices)
        .map(|i| [i as f32, (i % 2) as f32, 0.0])
        .collect();
    let tris = vertices.saturating_sub(2);
    let mut indices = Vec::new();
    let mut batches = Vec::new();
    let per = 20000;
    for chunk in 0..tris.div_ceil(per) {
        let first = chunk * per;
        let count = per.min(tris - first);
        let start = indices.len() as u32;
        for t in 0..count {
            indices.extend([t as u16, t as u16 + 1, t as u16 + 2]);
        }
        batches.push(batch(0, start, (count * 3) as u16, first as u32));
    }
    MshParts {
        nodes: vec![node(NONE, NONE, 0, 0)],
        slots: vec![slot(0, batches.len() as u16, 0, 0)],
        normals: vec![[0, 0, 127, 0]; vertices],
        uv0: (0..vertices).map(|i| [(i % 1024) as u16, 0]).collect(),
        positions,
        indices,
        keys: vec![key(0.0, [0.0; 3], q(0.0, 0.0, 0.0, 1.0))],
        batches,
        ..MshParts::default()
    }
}
