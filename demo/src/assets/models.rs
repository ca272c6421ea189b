//! MSH models of the demo, built from primitives (boxes, prisms, cones,
//! jittered rocks) on a node hierarchy: every node has two LODs (a coarser
//! second one), states 0 and 1 share the slots, state 2 has none; animated
//! nodes get type 8 keys and a type 19 frame map (turret yaw, gun recoil,
//! leg swing, radar spin); every triangle has a type 7 descriptor; slots
//! carry their bounds.

use super::noise::{axis_turns, cos_turns, hash3, quat_i16, sin_turns};
use iron3d_formats::error::Result;
use iron3d_formats::msh::{
    AnimKey24, Batch20, Msh, MshParts, NONE, Node38, SLOT_HEADER_SIZE, Slot68, TriDesc16,
};

/// Frames of every model's timeline.
pub const FRAMES: u32 = 8;
/// LODs written per node.
const LODS: usize = 2;

/// A primitive shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Prim {
    /// An axis-aligned box.
    Box,
    /// A prism of `sides` around Z; `top` scales the top ring (0: a cone).
    Prism { sides: u32, top: f32 },
    /// A rough prism whose ring radii are jittered by a hash of `seed`.
    Rock { seed: u32 },
}

/// A primitive placed in its node: centre of the base (`at`, Z up), size
/// (x, y, z extents), the WEAR row it is painted with and the type-7 flags
/// of its triangles (2: a floor).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub prim: Prim,
    pub at: [f32; 3],
    pub size: [f32; 3],
    pub row: u8,
    pub tri_flags: u16,
}

/// How a node moves over the timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anim {
    Still,
    /// A full turn about Z over the timeline (turret yaw, radar).
    Yaw,
    /// Kicked back along -Y on frame 1, returning linearly.
    Recoil(f32),
    /// Swinging about X by ±[`SWING`] turn, phase in turns (a thigh).
    Swing(f32),
    /// Bending back about X by up to [`KNEE`] turn while the thigh of the
    /// same phase swings forward, straight while it swings back (a shin:
    /// its foot lifts off the ground only as it swings).
    Knee(f32),
    /// Sinking along Z by what a straight leg of this length rises as the
    /// thighs swing ([`STRIDE_PHASE`]), so the standing foot keeps its
    /// height (a walker's pelvis, lowest twice a stride).
    Sink(f32),
}

/// Turns a thigh swings either way.
pub const SWING: f32 = 1.0 / 16.0;
/// Turns a knee bends at most.
pub const KNEE: f32 = 1.0 / 5.0;
/// The left thigh's phase (the right one's is half a cycle on): at frame
/// [`REST_FRAME`] both legs hang straight, at `FRAMES / 2` the left foot
/// is lifted, at 0 (and `FRAMES`) the right one.
pub const STRIDE_PHASE: f32 = 0.75;
/// The frame a walker stands in: its rest pose.
pub const REST_FRAME: u32 = FRAMES / 4;

/// A node: its parent (earlier index or `None`), rest offset from the
/// parent, parts and motion.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSpec {
    pub parent: Option<u16>,
    pub offset: [f32; 3],
    pub parts: Vec<Part>,
    pub anim: Anim,
}

/// Geometry being accumulated for [`Msh::build`].
#[derive(Default)]
struct Builder {
    parts: MshParts,
    lightmapped: bool,
}

/// One flat face: corners (counter-clockwise seen from outside) and UVs.
struct Face {
    corners: Vec<[f32; 3]>,
    uvs: Vec<[f32; 2]>,
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The unit normal of a face (IEEE `sqrt` is exact, so deterministic).
fn normal(c: &[[f32; 3]]) -> [f32; 3] {
    let n = cross(sub(c[1], c[0]), sub(c[2], c[0]));
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 {
        n.map(|v| v / len)
    } else {
        [0.0, 0.0, 1.0]
    }
}

fn uv16(v: f32) -> u16 {
    (v * 1024.0).clamp(0.0, 65535.0) as u16
}

/// The faces of a part; `coarse` halves the prism sides (LOD 1).
fn faces(part: &Part, coarse: bool) -> Vec<Face> {
    let [cx, cy, cz] = part.at;
    let [sx, sy, sz] = part.size;
    match part.prim {
        Prim::Box => {
            let lo = [cx - sx / 2.0, cy - sy / 2.0, cz];
            let hi = [cx + sx / 2.0, cy + sy / 2.0, cz + sz];
            let mut out = Vec::with_capacity(6);
            for axis in 0..3 {
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                for positive in [false, true] {
                    let corner = |du: bool, dv: bool| {
                        let mut p = [0.0; 3];
                        p[axis] = if positive { hi[axis] } else { lo[axis] };
                        p[u] = if du { hi[u] } else { lo[u] };
                        p[v] = if dv { hi[v] } else { lo[v] };
                        p
                    };
                    let mut corners = vec![
                        corner(false, false),
                        corner(true, false),
                        corner(true, true),
                        corner(false, true),
                    ];
                    let mut uvs = vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]];
                    if !positive {
                        corners.reverse();
                        uvs.reverse();
                    }
                    out.push(Face { corners, uvs });
                }
            }
            out
        }
        Prim::Prism { sides, top } => prism(
            part,
            if coarse { (sides / 2).max(3) } else { sides },
            top,
            None,
        ),
        Prim::Rock { seed } => prism(part, if coarse { 4 } else { 7 }, 0.55, Some(seed)),
    }
}

/// Side, top and bottom faces of a (possibly jittered) prism.
fn prism(part: &Part, sides: u32, top: f32, jitter: Option<u32>) -> Vec<Face> {
    let [cx, cy, cz] = part.at;
    let [sx, sy, sz] = part.size;
    let ring = |i: u32, z: f32, scale: f32| {
        let t = i as f32 / sides as f32;
        let j = jitter.map_or(1.0, |s| {
            0.75 + (hash3(s, i as i32, 0, 0) & 63) as f32 / 128.0
        });
        [
            cx + sx / 2.0 * scale * j * cos_turns(t),
            cy + sy / 2.0 * scale * j * sin_turns(t),
            z,
        ]
    };
    let mut out = Vec::new();
    for i in 0..sides {
        let (u0, u1) = (i as f32 / sides as f32, (i + 1) as f32 / sides as f32);
        let (b0, b1) = (ring(i, cz, 1.0), ring(i + 1, cz, 1.0));
        if top == 0.0 {
            out.push(Face {
                corners: vec![b0, b1, [cx, cy, cz + sz]],
                uvs: vec![[u0, 1.0], [u1, 1.0], [(u0 + u1) / 2.0, 0.0]],
            });
        } else {
            let (t0, t1) = (ring(i, cz + sz, top), ring(i + 1, cz + sz, top));
            out.push(Face {
                corners: vec![b0, b1, t1, t0],
                uvs: vec![[u0, 1.0], [u1, 1.0], [u1, 0.0], [u0, 0.0]],
            });
        }
    }
    let cap_uv = |i: u32| {
        let t = i as f32 / sides as f32;
        [0.5 + 0.5 * cos_turns(t), 0.5 + 0.5 * sin_turns(t)]
    };
    if top != 0.0 {
        out.push(Face {
            corners: (0..sides).map(|i| ring(i, cz + sz, top)).collect(),
            uvs: (0..sides).map(cap_uv).collect(),
        });
    }
    out.push(Face {
        corners: (0..sides).rev().map(|i| ring(i, cz, 1.0)).collect(),
        uvs: (0..sides).rev().map(cap_uv).collect(),
    });
    out
}

impl Builder {
    /// Adds the slot of one node at one LOD; returns its index.
    fn slot(&mut self, parts: &[Part], coarse: bool) -> u16 {
        let p = &mut self.parts;
        let slot_index = p.slots.len() as u16;
        let (tri_start, batch_start) = (p.triangles.as_ref().map_or(0, Vec::len), p.batches.len());
        let mut rows: Vec<u8> = parts.iter().map(|x| x.row).collect();
        rows.sort_unstable();
        rows.dedup();
        let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
        for row in rows {
            let base_vertex = p.positions.len() as u32;
            let index_start = p.indices.len() as u32;
            for part in parts.iter().filter(|x| x.row == row) {
                for face in faces(part, coarse) {
                    let n = normal(&face.corners);
                    let first = (p.positions.len() as u32 - base_vertex) as u16;
                    for (k, (c, uv)) in face.corners.iter().zip(&face.uvs).enumerate() {
                        for a in 0..3 {
                            lo[a] = lo[a].min(c[a]);
                            hi[a] = hi[a].max(c[a]);
                        }
                        p.positions.push(*c);
                        p.normals.push([
                            (n[0] * 127.0) as i8,
                            (n[1] * 127.0) as i8,
                            (n[2] * 127.0) as i8,
                            0,
                        ]);
                        p.uv0.push([uv16(uv[0] * 2.0), uv16(uv[1] * 2.0)]);
                        if let Some(uv1) = &mut p.uv1 {
                            let q = (k % 4) as f32;
                            uv1.push([uv16((uv[0] + q) / 4.0), uv16(uv[1])]);
                        }
                    }
                    for k in 1..face.corners.len() as u16 - 1 {
                        p.indices.extend([first, first + k, first + k + 1]);
                        if let Some(t) = &mut p.triangles {
                            t.push(TriDesc16 {
                                tri_flags: part.tri_flags,
                                links: [NONE; 3],
                                normal: n.map(|v| (v * 32767.0) as i16),
                                sel_packed: 0x3F,
                            });
                        }
                    }
                }
            }
            let vertex_count = p.positions.len() as u32 - base_vertex;
            p.batches.push(Batch20 {
                batch_flags: 0,
                material_index_hi: 0,
                material_index: row,
                lightmap_index: if self.lightmapped { 0 } else { 0xFF },
                local_batch_index: (p.batches.len() - batch_start) as u16,
                index_count: (p.indices.len() as u32 - index_start) as u16,
                index_start,
                vertex_count: vertex_count as u16,
                base_vertex,
            });
        }
        let tri_end = p.triangles.as_ref().map_or(0, Vec::len);
        let centre = [0, 1, 2].map(|a| (lo[a] + hi[a]) / 2.0);
        let d = sub(hi, centre);
        // The measures the shipped slots carry: the box's area and volume.
        let [x, y, z] = sub(hi, lo);
        let mut slot = Slot68 {
            tri_start: tri_start as u16,
            tri_count: (tri_end - tri_start) as u16,
            batch_start: batch_start as u16,
            batch_count: (p.batches.len() - batch_start) as u16,
            aabb_min: lo,
            aabb_max: hi,
            sphere_center: centre,
            sphere_radius: (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt(),
            opaque: [0; 5],
        };
        slot.set_measures(2.0 * (x * y + y * z + z * x), x * y * z);
        p.slots.push(slot);
        slot_index
    }
}

/// The key of a node at `time` (a frame number).
fn key(anim: Anim, offset: [f32; 3], time: u32) -> AnimKey24 {
    // The timeline repeats: frame FRAMES is frame 0 again.
    let frame = time % FRAMES;
    let t = frame as f32 / FRAMES as f32;
    let (position, rotation) = match anim {
        Anim::Still => (offset, [0.0, 0.0, 0.0, 1.0]),
        Anim::Yaw => (offset, axis_turns([0.0, 0.0, 1.0], t)),
        Anim::Recoil(length) => {
            let back = if frame == 0 {
                0.0
            } else {
                length * (FRAMES - frame) as f32 / FRAMES as f32
            };
            (
                [offset[0], offset[1] - back, offset[2]],
                [0.0, 0.0, 0.0, 1.0],
            )
        }
        Anim::Swing(phase) => (
            offset,
            axis_turns([1.0, 0.0, 0.0], SWING * sin_turns(t + phase)),
        ),
        Anim::Knee(phase) => (
            offset,
            axis_turns([1.0, 0.0, 0.0], -KNEE * sin_turns(t + phase).max(0.0)),
        ),
        Anim::Sink(length) => {
            let thigh = SWING * sin_turns(t + STRIDE_PHASE);
            let rise = 2.0 * length * (1.0 - cos_turns(thigh));
            (
                [offset[0], offset[1], offset[2] - rise],
                [0.0, 0.0, 0.0, 1.0],
            )
        }
    };
    AnimKey24 {
        position,
        time: time as f32,
        rotation_wxyz: quat_i16(rotation),
    }
}

/// How much of its height a battered node keeps.
const BATTERED_HEIGHT: f32 = 0.6;

/// A node's parts after a beating: each kept at [`BATTERED_HEIGHT`] of its
/// height, sagging toward the side it leans on.
fn battered(parts: &[Part]) -> Vec<Part> {
    parts
        .iter()
        .map(|p| {
            let [sx, sy, sz] = p.size;
            Part {
                at: [p.at[0] + sx * 0.1, p.at[1], p.at[2]],
                size: [sx * 0.9, sy, sz * BATTERED_HEIGHT],
                ..*p
            }
        })
        .collect()
}

/// Builds a model from its nodes; `lightmapped` adds UV1 and lightmap
/// index 0 on every batch; `battered` gives each node with geometry its
/// [`battered`] look in native states 1 and 2 (two damage states,
/// openparkan `docs/26-damage.md`), else state 1 shares state 0's slots.
pub fn build(
    nodes: &[NodeSpec],
    (lightmapped, battered_states): (bool, bool),
    names: &[&str],
) -> Result<Vec<u8>> {
    let mut b = Builder {
        lightmapped,
        ..Builder::default()
    };
    b.parts.triangles = Some(Vec::new());
    if lightmapped {
        b.parts.uv1 = Some(Vec::new());
    }
    for spec in nodes {
        let mut slot_index = [NONE; 15];
        for lod in 0..LODS {
            let s = b.slot(&spec.parts, lod > 0);
            slot_index[lod] = s; // state 0
            slot_index[5 + lod] = s; // state 1 (damaged) shares the geometry
        }
        if battered_states && !spec.parts.is_empty() {
            let worn = battered(&spec.parts);
            for lod in 0..LODS {
                let s = b.slot(&worn, lod > 0);
                slot_index[5 + lod] = s;
                slot_index[10 + lod] = s;
            }
        }
        let keys = &mut b.parts.keys;
        let (anim_map_start, fallback_key) = if spec.anim == Anim::Still {
            keys.push(key(Anim::Still, spec.offset, 0));
            (NONE, keys.len() as u16 - 1)
        } else {
            let first = keys.len() as u16;
            let start = b.parts.frame_map.len() as u16;
            // Frame FRAMES closes the cycle on the pose of frame 0; one
            // more key is what it interpolates toward.
            keys.extend((0..=FRAMES + 1).map(|f| key(spec.anim, spec.offset, f)));
            b.parts
                .frame_map
                .extend((0..=FRAMES as u16).map(|f| first + f));
            keys.push(key(Anim::Still, spec.offset, 0)); // the rest pose
            (start, keys.len() as u16 - 1)
        };
        b.parts.nodes.push(Node38 {
            hdr0: 0,
            parent_or_link: spec.parent.unwrap_or(NONE),
            anim_map_start,
            fallback_key,
            slot_index,
        });
    }
    b.parts.frame_count = if b.parts.frame_map.is_empty() {
        0
    } else {
        FRAMES + 1
    };
    b.parts.slot_header = Some(slot_header(&b.parts.slots));
    b.parts.names = names.iter().map(|n| Some(n.as_bytes().to_vec())).collect();
    Msh::build(b.parts)?.to_bytes()
}

/// The 0x8C-byte header: the model's AABB, centre and radius first (the
/// rest of the 35 floats zero).
fn slot_header(slots: &[Slot68]) -> [u8; SLOT_HEADER_SIZE] {
    let (mut lo, mut hi) = ([f32::MAX; 3], [f32::MIN; 3]);
    for s in slots {
        for a in 0..3 {
            lo[a] = lo[a].min(s.aabb_min[a]);
            hi[a] = hi[a].max(s.aabb_max[a]);
        }
    }
    let centre = [0, 1, 2].map(|a| (lo[a] + hi[a]) / 2.0);
    let d = sub(hi, centre);
    let radius = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    let mut out = [0u8; SLOT_HEADER_SIZE];
    let floats = lo.iter().chain(&hi).chain(&centre).chain([&radius]);
    for (chunk, v) in out.chunks_exact_mut(4).zip(floats) {
        chunk.copy_from_slice(&v.to_le_bytes());
    }
    out
}
