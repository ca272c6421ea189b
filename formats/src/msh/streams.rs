//! The fixed-size records of the MSH streams (reference/msh.md, FACTS.md) and
//! their stream decoders/encoders. Every decoder reads a whole payload through
//! a bounded cursor and checks that it is an exact multiple of the stride.

use crate::cursor::{Cursor, put_f32s};
use crate::error::Result;

pub(crate) const FORMAT: &str = "MSH";

/// Stream type ids (the NRes `type_id` of each entry of a model).
pub mod kind {
    pub const NODES: u32 = 1;
    pub const SLOTS: u32 = 2;
    pub const POSITIONS: u32 = 3;
    pub const NORMALS: u32 = 4;
    pub const UV0: u32 = 5;
    pub const INDICES: u32 = 6;
    pub const TRIANGLES: u32 = 7;
    pub const ANIM_KEYS: u32 = 8;
    pub const SERVICE: u32 = 9;
    pub const STRINGS: u32 = 10;
    pub const BATCHES: u32 = 13;
    pub const AUX15: u32 = 15;
    pub const COLOURS16: u32 = 16;
    pub const AUX17: u32 = 17;
    pub const UV1: u32 = 18;
    pub const FRAME_MAP: u32 = 19;
    pub const AUX20: u32 = 20;
}

/// Size of the type 2 header before the slots.
pub const SLOT_HEADER_SIZE: usize = 0x8C;
/// `0xFFFF`: no slot, no parent, no frame map.
pub const NONE: u16 = 0xFFFF;

/// A node of type 1 (38 bytes): `slot_index[state * 5 + lod]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Node38 {
    /// +0x00: node flags, raw.
    pub hdr0: u16,
    /// +0x02: parent index (before the child) or 0xFFFF for a root.
    pub parent_or_link: u16,
    /// +0x04: start of this node's block in the type 19 map, or 0xFFFF.
    pub anim_map_start: u16,
    /// +0x06: the key used when no mapped key applies; also the bound of
    /// usable map values.
    pub fallback_key: u16,
    /// +0x08: 3 states x 5 LODs of slot indices (0xFFFF = no geometry).
    pub slot_index: [u16; 15],
}

impl Node38 {
    /// The slot of native `state` (0..3) and `lod` (0..5), if any.
    pub fn slot(&self, state: usize, lod: usize) -> Option<u16> {
        if state >= 3 || lod >= 5 {
            return None;
        }
        Some(self.slot_index[state * 5 + lod]).filter(|&s| s != NONE)
    }

    /// How many damage states the node has (openparkan
    /// `docs/26-damage.md`, "Damage stages"): the last native state past
    /// state 0 it has geometry in at any LOD, 0 when only state 0 has.
    // STAND-IN: N read from the native states' slots, a state that repeats
    // state 0's slots still counting (docs/26 "Damage stages" gives N, not
    // where the engine reads it); settled by reading N's source in the
    // damage code against a retail node with repeated slots.
    pub fn damage_states(&self) -> u8 {
        (1..3u8)
            .rev()
            .find(|&state| (0..5).any(|lod| self.slot(usize::from(state), lod).is_some()))
            .unwrap_or(0)
    }

    /// The parent index, `None` for a root.
    pub fn parent(&self) -> Option<usize> {
        (self.parent_or_link != NONE).then_some(self.parent_or_link as usize)
    }

    /// Bytes of one record.
    pub const SIZE: usize = 38;

    /// Reads one record.
    pub fn read(c: &mut Cursor) -> Result<Self> {
        let [hdr0, parent_or_link, anim_map_start, fallback_key] = c.u16s()?;
        Ok(Self {
            hdr0,
            parent_or_link,
            anim_map_start,
            fallback_key,
            slot_index: c.u16s()?,
        })
    }

    /// Appends the 38 bytes.
    pub fn write(&self, out: &mut Vec<u8>) {
        let header = [
            self.hdr0,
            self.parent_or_link,
            self.anim_map_start,
            self.fallback_key,
        ];
        for w in header.iter().chain(&self.slot_index) {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
}

/// The node table: the usual 38-byte records, or the rare 24-byte variant
/// (`MTCHECK.MSH`, type 1 `attr3 == 24`) whose layout is not known and which
/// is carried through raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nodes {
    Node38(Vec<Node38>),
    Raw24(Vec<[u8; 24]>),
}

impl Nodes {
    /// Number of records.
    pub fn len(&self) -> usize {
        match self {
            Nodes::Node38(n) => n.len(),
            Nodes::Raw24(n) => n.len(),
        }
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The 38-byte nodes, or an empty slice for the raw variant.
    pub fn node38(&self) -> &[Node38] {
        match self {
            Nodes::Node38(n) => n,
            Nodes::Raw24(_) => &[],
        }
    }
}

/// A slot of type 2 (68 bytes after the 0x8C header), in models and in
/// `Land.msh` alike.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Slot68 {
    /// First triangle of the slot's contiguous range (type 7 in models,
    /// type 21 faces in `Land.msh`).
    pub tri_start: u16,
    pub tri_count: u16,
    /// First batch (type 13); raw in `Land.msh`, which has no batches.
    pub batch_start: u16,
    pub batch_count: u16,
    pub aabb_min: [f32; 3],
    pub aabb_max: [f32; 3],
    pub sphere_center: [f32; 3],
    pub sphere_radius: f32,
    /// +0x30: five words kept raw; the first two are the geometry's area
    /// and volume ([`Slot68::area`], [`Slot68::volume`]).
    pub opaque: [u32; 5],
}

impl Slot68 {
    /// `+0x30`: the area of the slot's geometry, which armour weighs by
    /// (openparkan `docs/28-chassis.md`, "What a chassis weighs").
    pub fn area(&self) -> f32 {
        f32::from_bits(self.opaque[0])
    }

    /// `+0x34`: the volume a node's density weighs (its bounding box's on
    /// every slot openparkan measured).
    pub fn volume(&self) -> f32 {
        f32::from_bits(self.opaque[1])
    }

    /// Stores the area and volume (`+0x30`, `+0x34`).
    pub fn set_measures(&mut self, area: f32, volume: f32) {
        self.opaque[0] = area.to_bits();
        self.opaque[1] = volume.to_bits();
    }

    /// Bytes of one record.
    pub const SIZE: usize = 68;

    /// Reads one record.
    pub fn read(c: &mut Cursor) -> Result<Self> {
        let [tri_start, tri_count, batch_start, batch_count] = c.u16s()?;
        Ok(Self {
            tri_start,
            tri_count,
            batch_start,
            batch_count,
            aabb_min: c.f32s()?,
            aabb_max: c.f32s()?,
            sphere_center: c.f32s()?,
            sphere_radius: c.f32()?,
            opaque: [c.u32()?, c.u32()?, c.u32()?, c.u32()?, c.u32()?],
        })
    }

    /// Appends the 68 bytes.
    pub fn write(&self, out: &mut Vec<u8>) {
        for w in [
            self.tri_start,
            self.tri_count,
            self.batch_start,
            self.batch_count,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        put_f32s(out, &self.aabb_min);
        put_f32s(out, &self.aabb_max);
        put_f32s(out, &self.sphere_center);
        put_f32s(out, &[self.sphere_radius]);
        for w in self.opaque {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
}

/// Type 2: the 0x8C-byte header (35 floats of global bounds, kept raw) and
/// the slots.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotTable {
    pub header: [u8; SLOT_HEADER_SIZE],
    pub slots: Vec<Slot68>,
}

/// Type-7 `tri_flags`: a floor, ground a walker stands on (GAMEPLAY §2
/// "Collision").
pub const TRI_FLOOR: u16 = 0x0002;
/// Type-7 `tri_flags`: an open door, which movers pass.
pub const TRI_OPEN_DOOR: u16 = 0x0010;
/// Type-7 `tri_flags` the building segment query never tests (reference
/// msh.md, "Мировой отрезок по выбранным узлам").
pub const TRI_UNTESTED: u16 = 0x0024;
/// Batch word flag: the batch's faces are tested from both sides.
pub const BATCH_TWO_SIDED: u32 = 0x0002;
/// Batch word flag: a doorway quad, which movers pass.
pub const BATCH_DOORWAY: u32 = 0x0008;
/// Batch word flag the building segment query never tests.
pub const BATCH_UNTESTED: u32 = 0x0200;
/// Batch word flag: point lights are emulated on the batch as discs
/// (with `EmulatePointLight`; openparkan `docs/11-effects.md`, "What
/// switches it on").
pub const BATCH_LIGHT_DISCS: u32 = 0x0800;

/// A triangle descriptor of type 7 (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct TriDesc16 {
    /// +0x00.
    pub tri_flags: u16,
    /// +0x02, +0x04, +0x06: uninterpreted words.
    pub links: [u16; 3],
    /// +0x08: signed normal, scale 1/32767.
    pub normal: [i16; 3],
    /// +0x0E: uninterpreted word (three 2-bit selectors).
    pub sel_packed: u16,
}

impl TriDesc16 {
    /// The face normal: each component / 32767 (the AniMesh scale).
    pub fn normal_f32(&self) -> [f32; 3] {
        self.normal.map(|v| v as f32 / 32767.0)
    }

    /// The three 2-bit selectors of `sel_packed`; 3 means "none" (0xFFFF).
    pub fn selectors(&self) -> [u16; 3] {
        [0, 2, 4].map(|shift| match (self.sel_packed >> shift) & 3 {
            3 => NONE,
            v => v,
        })
    }
}

/// A draw range of type 13 (20 bytes, packed), field layout of FACTS.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Batch20 {
    /// +0x00.
    pub batch_flags: u16,
    /// +0x02: native high selector, raw.
    pub material_index_hi: u16,
    /// +0x04: the WEAR row.
    pub material_index: u8,
    /// +0x05: lightmap, 0xFF for none.
    pub lightmap_index: u8,
    /// +0x06: raw.
    pub local_batch_index: u16,
    /// +0x08.
    pub index_count: u16,
    /// +0x0A: first index in type 6.
    pub index_start: u32,
    /// +0x0E.
    pub vertex_count: u16,
    /// +0x10: added to every index of the range.
    pub base_vertex: u32,
}

/// An animation key of type 8 (24 bytes). The quaternion is stored W, X, Y, Z
/// as i16 (value / 32767); [`AnimKey24::rotation`] gives it as X, Y, Z, W.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AnimKey24 {
    pub position: [f32; 3],
    pub time: f32,
    /// Stored order: W, X, Y, Z.
    pub rotation_wxyz: [i16; 4],
}

impl AnimKey24 {
    /// The decoded rotation as X, Y, Z, W (components / 32767, not normalised).
    pub fn rotation(&self) -> [f32; 4] {
        let [w, x, y, z] = self.rotation_wxyz.map(|v| v as f32 / 32767.0);
        [x, y, z, w]
    }
}

/// Decodes a packed normal: signed / 127, clamped to [-1, 1] (the fourth byte
/// is not part of the direction).
pub fn decode_normal(n: [i8; 4]) -> [f32; 3] {
    [n[0], n[1], n[2]].map(|v| (v as f32 / 127.0).clamp(-1.0, 1.0))
}

/// Decodes a packed UV pair: u16 / 1024.
pub fn decode_uv(uv: [u16; 2]) -> [f32; 2] {
    uv.map(|v| v as f32 / 1024.0)
}

/// The record count of a stream of `len` bytes with `stride`, or an error
/// when the length is not an exact multiple.
fn records(c: &Cursor, stride: usize, what: &str) -> Result<usize> {
    if !c.len().is_multiple_of(stride) {
        return Err(c.invalid_at(
            0,
            format!("{what}: a multiple of {stride} bytes"),
            format!("{} bytes", c.len()),
        ));
    }
    c.checked_count((c.len() / stride) as u64, stride, what)
}

/// Reads `n` records of a stream with `read`.
fn read_all<T>(
    data: &[u8],
    stride: usize,
    what: &str,
    read: impl Fn(&mut Cursor) -> Result<T>,
) -> Result<Vec<T>> {
    let mut c = Cursor::new(data, FORMAT);
    let n = records(&c, stride, what)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(read(&mut c)?);
    }
    c.expect_end()?;
    Ok(out)
}

pub(crate) fn decode_nodes38(data: &[u8]) -> Result<Vec<Node38>> {
    read_all(data, Node38::SIZE, "type 1 nodes", Node38::read)
}

pub(crate) fn decode_nodes24(data: &[u8]) -> Result<Vec<[u8; 24]>> {
    read_all(data, 24, "type 1 nodes (24-byte variant)", |c| c.array())
}

pub(crate) fn decode_slots(data: &[u8]) -> Result<SlotTable> {
    let mut c = Cursor::new(data, FORMAT);
    let header = c.array::<SLOT_HEADER_SIZE>()?;
    let slots = read_all(
        &data[SLOT_HEADER_SIZE..],
        Slot68::SIZE,
        "type 2 slots",
        Slot68::read,
    )
    .map_err(|e| e.shifted(SLOT_HEADER_SIZE as u64))?;
    Ok(SlotTable { header, slots })
}

pub(crate) fn decode_positions(data: &[u8]) -> Result<Vec<[f32; 3]>> {
    read_all(data, 12, "type 3 positions", |c| c.f32s())
}

pub(crate) fn decode_normals(data: &[u8]) -> Result<Vec<[i8; 4]>> {
    read_all(data, 4, "type 4 normals", |c| {
        Ok(c.array::<4>()?.map(|b| b as i8))
    })
}

pub(crate) fn decode_uvs(data: &[u8], what: &str) -> Result<Vec<[u16; 2]>> {
    read_all(data, 4, what, |c| Ok([c.u16()?, c.u16()?]))
}

pub(crate) fn decode_u16s(data: &[u8], what: &str) -> Result<Vec<u16>> {
    read_all(data, 2, what, |c| c.u16())
}

pub(crate) fn decode_triangles(data: &[u8]) -> Result<Vec<TriDesc16>> {
    read_all(data, 16, "type 7 triangle descriptors", |c| {
        Ok(TriDesc16 {
            tri_flags: c.u16()?,
            links: [c.u16()?, c.u16()?, c.u16()?],
            normal: [c.i16()?, c.i16()?, c.i16()?],
            sel_packed: c.u16()?,
        })
    })
}

pub(crate) fn decode_keys(data: &[u8]) -> Result<Vec<AnimKey24>> {
    read_all(data, 24, "type 8 animation keys", |c| {
        Ok(AnimKey24 {
            position: c.f32s()?,
            time: c.f32()?,
            rotation_wxyz: [c.i16()?, c.i16()?, c.i16()?, c.i16()?],
        })
    })
}

pub(crate) fn decode_batches(data: &[u8]) -> Result<Vec<Batch20>> {
    read_all(data, 20, "type 13 batches", |c| {
        Ok(Batch20 {
            batch_flags: c.u16()?,
            material_index_hi: c.u16()?,
            material_index: c.u8()?,
            lightmap_index: c.u8()?,
            local_batch_index: c.u16()?,
            index_count: c.u16()?,
            index_start: c.u32()?,
            vertex_count: c.u16()?,
            base_vertex: c.u32()?,
        })
    })
}

/// Little-endian output helpers of the encoders.
trait Put {
    fn put<const N: usize>(&mut self, bytes: [u8; N]);
    fn f32s(&mut self, v: &[f32]) {
        for x in v {
            self.put(x.to_le_bytes());
        }
    }
}

impl Put for Vec<u8> {
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.extend_from_slice(&bytes);
    }
}

pub(crate) fn encode_nodes(nodes: &Nodes) -> Vec<u8> {
    let mut out = Vec::new();
    match nodes {
        Nodes::Raw24(n) => n.iter().for_each(|r| out.extend_from_slice(r)),
        Nodes::Node38(n) => n.iter().for_each(|node| node.write(&mut out)),
    }
    out
}

pub(crate) fn encode_slots(table: &SlotTable) -> Vec<u8> {
    let mut out = table.header.to_vec();
    for s in &table.slots {
        s.write(&mut out);
    }
    out
}

pub(crate) fn encode_positions(p: &[[f32; 3]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(p.len() * 12);
    p.iter().for_each(|v| out.f32s(v));
    out
}

pub(crate) fn encode_normals(n: &[[i8; 4]]) -> Vec<u8> {
    n.iter().flat_map(|v| v.map(|b| b as u8)).collect()
}

pub(crate) fn encode_uvs(uv: &[[u16; 2]]) -> Vec<u8> {
    uv.iter()
        .flat_map(|[u, v]| [u.to_le_bytes(), v.to_le_bytes()])
        .flatten()
        .collect()
}

pub(crate) fn encode_u16s(words: &[u16]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub(crate) fn encode_triangles(t: &[TriDesc16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.len() * 16);
    for d in t {
        out.put(d.tri_flags.to_le_bytes());
        d.links.iter().for_each(|w| out.put(w.to_le_bytes()));
        d.normal.iter().for_each(|w| out.put(w.to_le_bytes()));
        out.put(d.sel_packed.to_le_bytes());
    }
    out
}

pub(crate) fn encode_keys(keys: &[AnimKey24]) -> Vec<u8> {
    let mut out = Vec::with_capacity(keys.len() * 24);
    for k in keys {
        out.f32s(&k.position);
        out.f32s(&[k.time]);
        k.rotation_wxyz
            .iter()
            .for_each(|w| out.put(w.to_le_bytes()));
    }
    out
}

pub(crate) fn encode_batches(b: &[Batch20]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() * 20);
    for x in b {
        out.put(x.batch_flags.to_le_bytes());
        out.put(x.material_index_hi.to_le_bytes());
        out.put([x.material_index, x.lightmap_index]);
        out.put(x.local_batch_index.to_le_bytes());
        out.put(x.index_count.to_le_bytes());
        out.put(x.index_start.to_le_bytes());
        out.put(x.vertex_count.to_le_bytes());
        out.put(x.base_vertex.to_le_bytes());
    }
    out
}

/// Decodes the type 10 string table: one record per node, `u32 len`, then
/// `len + 1` bytes (text and NUL) when `len > 0`. Returns `None` when the
/// payload does not follow that framing (the stream is still kept raw).
pub fn decode_names(data: &[u8]) -> Option<Vec<Option<Vec<u8>>>> {
    let mut c = Cursor::new(data, FORMAT);
    let mut out = Vec::new();
    while !c.at_end() {
        let len = c.u32().ok()? as usize;
        if len == 0 {
            out.push(None);
            continue;
        }
        let text = c.bytes(len.checked_add(1)?).ok()?;
        out.push(Some(text[..len].to_vec()));
    }
    Some(out)
}

/// Encodes node names in the type 10 framing of [`decode_names`].
pub fn encode_names(names: &[Option<&[u8]>]) -> Vec<u8> {
    let mut out = Vec::new();
    for name in names {
        match name {
            Some(n) if !n.is_empty() => {
                out.put((n.len() as u32).to_le_bytes());
                out.extend_from_slice(n);
                out.push(0);
            }
            _ => out.put(0u32.to_le_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    #[test]
    fn normals_divide_by_127_and_clamp() {
        assert_eq!(decode_normal([127, -127, 0, 9]), [1.0, -1.0, 0.0]);
        assert_eq!(decode_normal([-128, 64, 1, 0])[0], -1.0);
        assert_eq!(decode_normal([-128, 64, 1, 0])[1], 64.0 / 127.0);
    }

    #[test]
    fn damage_states_are_the_last_state_with_geometry() {
        let node = |slots: &[(usize, u16)]| {
            let mut slot_index = [NONE; 15];
            for &(k, s) in slots {
                slot_index[k] = s;
            }
            Node38 {
                hdr0: 0,
                parent_or_link: NONE,
                anim_map_start: NONE,
                fallback_key: 0,
                slot_index,
            }
        };
        assert_eq!(node(&[(0, 0)]).damage_states(), 0);
        assert_eq!(node(&[(0, 0), (5, 0)]).damage_states(), 1, "shared slot");
        assert_eq!(node(&[(0, 0), (5, 1), (14, 2)]).damage_states(), 2);
        assert_eq!(node(&[(0, 0), (12, 1)]).damage_states(), 2, "a gap");
        assert_eq!(node(&[]).damage_states(), 0);
    }

    #[test]
    fn uvs_divide_by_1024() {
        assert_eq!(decode_uv([1024, 512]), [1.0, 0.5]);
        assert_eq!(decode_uv([0xFFFF, 1]), [65535.0 / 1024.0, 1.0 / 1024.0]);
    }

    #[test]
    fn batch20_layout_matches_facts() {
        let mut raw = Vec::new();
        raw.extend_from_slice(&0x4002u16.to_le_bytes()); // flags
        raw.extend_from_slice(&0x1234u16.to_le_bytes()); // hi selector
        raw.extend_from_slice(&[7, 0xFF]); // material, lightmap
        raw.extend_from_slice(&3u16.to_le_bytes()); // local batch index
        raw.extend_from_slice(&6u16.to_le_bytes()); // index count
        raw.extend_from_slice(&0x0001_0002u32.to_le_bytes()); // index start
        raw.extend_from_slice(&4u16.to_le_bytes()); // vertex count
        raw.extend_from_slice(&100u32.to_le_bytes()); // base vertex
        let b = decode_batches(&raw).unwrap();
        assert_eq!(
            b[0],
            Batch20 {
                batch_flags: 0x4002,
                material_index_hi: 0x1234,
                material_index: 7,
                lightmap_index: 0xFF,
                local_batch_index: 3,
                index_count: 6,
                index_start: 0x0001_0002,
                vertex_count: 4,
                base_vertex: 100
            }
        );
        assert_eq!(encode_batches(&b), raw);
        expect_error(
            decode_batches(&raw[..19]),
            0,
            "MSH: expected type 13 batches: a multiple of 20 bytes, found 19 bytes",
        );
    }

    #[test]
    fn a_slot_stores_its_area_and_volume_at_0x30_and_0x34() {
        let mut raw = vec![0u8; Slot68::SIZE];
        raw[0x30..0x34].copy_from_slice(&22.0f32.to_le_bytes());
        raw[0x34..0x38].copy_from_slice(&6.0f32.to_le_bytes());
        raw[0x38] = 0xAB; // an unread word survives
        let slot = Slot68::read(&mut Cursor::new(&raw, "MSH")).unwrap();
        assert_eq!((slot.area(), slot.volume()), (22.0, 6.0));
        let mut edited = slot;
        edited.set_measures(22.0, 6.0);
        let mut out = Vec::new();
        edited.write(&mut out);
        assert_eq!(out, raw);
    }

    #[test]
    fn key_quaternion_is_stored_wxyz() {
        let mut raw = Vec::new();
        for f in [1.0f32, 2.0, 3.0, 0.5] {
            raw.extend_from_slice(&f.to_le_bytes());
        }
        for q in [32767i16, 0, -32767, 0] {
            raw.extend_from_slice(&q.to_le_bytes());
        }
        let k = decode_keys(&raw).unwrap()[0];
        assert_eq!(k.rotation(), [0.0, -1.0, 0.0, 1.0]);
        assert_eq!(k.time, 0.5);
        assert_eq!(encode_keys(&[k]), raw);
    }

    #[test]
    fn triangle_descriptor_fields() {
        let raw: Vec<u8> = [0x24u16, 1, 2, 3, 32767, 0, 0x8001, 0b11_10_01]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let t = decode_triangles(&raw).unwrap()[0];
        assert_eq!((t.tri_flags, t.links), (0x24, [1, 2, 3]));
        assert_eq!(t.normal_f32(), [1.0, 0.0, -1.0]);
        assert_eq!(t.selectors(), [1, 2, NONE]);
        assert_eq!(encode_triangles(&[t]), raw);
    }

    #[test]
    fn names_round_trip() {
        let raw = encode_names(&[Some(b"root"), None, Some(b"turret")]);
        assert_eq!(
            decode_names(&raw).unwrap(),
            vec![Some(b"root".to_vec()), None, Some(b"turret".to_vec())]
        );
        assert_eq!(decode_names(&[5, 0, 0, 0, b'a']), None);
    }
}
