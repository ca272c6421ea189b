//! `Land.msh`: the terrain of a level, an NRes of fixed streams
//! (`reference/terrain-and-areal-map.md` §2, tome IV "Land.msh").
//!
//! | type | content                      | stride |
//! |-----:|------------------------------|-------:|
//! | 1    | [`Node38`]                   | 38     |
//! | 2    | 0x8C header + [`Slot68`]     | 68     |
//! | 3    | positions, float3            | 12     |
//! | 4    | packed normals               | 4      |
//! | 5    | packed UV0                   | 4      |
//! | 11   | cell accelerator records     | 4      |
//! | 14   | auxiliary (optional)         | 4      |
//! | 18   | auxiliary (UV1)              | 4      |
//! | 21   | [`TerrainFace28`]            | 28     |
//!
//! For every stream `attr1 == size / stride` and `attr3 == stride`. The reader
//! takes the first entry of each type (the engine's lookup by type); later
//! duplicates and entries of other types are kept as opaque entries. The
//! directory order, names and `attr2` are kept; `attr1`/`attr3` are derived
//! from the typed data on write (the reader proved them equal), so an
//! unmodified file is written back byte-identical.

use super::{EntryMeta, build_container, container_entries, rewrite_container};
use crate::archive::Mode;
use crate::archive::nres::Nres;
use crate::cursor::Cursor;
use crate::error::{FormatError, Result};
use crate::msh::streams::{encode_positions, encode_uvs};
use crate::msh::{Node38, Slot68};

/// Format name used in errors.
pub const FORMAT: &str = "Land.msh";

pub const TYPE_NODES: u32 = 1;
pub const TYPE_SLOTS: u32 = 2;
pub const TYPE_POSITIONS: u32 = 3;
pub const TYPE_NORMALS: u32 = 4;
pub const TYPE_UV0: u32 = 5;
pub const TYPE_CELLS: u32 = 11;
pub const TYPE_AUX14: u32 = 14;
pub const TYPE_UV1: u32 = 18;
pub const TYPE_FACES: u32 = 21;

/// The stream order of every retail map; the writer of new files uses it.
pub const RETAIL_ORDER: [u32; 9] = [1, 2, 3, 4, 5, 18, 14, 11, 21];
/// The entry name retail maps give every stream.
pub const STREAM_NAME: &[u8] = b"Land";

pub const NODE_STRIDE: usize = Node38::SIZE;
pub const SLOT_HEADER_SIZE: usize = crate::msh::SLOT_HEADER_SIZE;
pub const SLOT_STRIDE: usize = Slot68::SIZE;
pub const POSITION_STRIDE: usize = 12;
pub const PACKED_STRIDE: usize = 4;
pub const FACE_STRIDE: usize = 28;

/// "No face/slot" in a 16-bit index.
pub const NO_INDEX: u16 = 0xFFFF;
/// Levels of detail of the Node38 slot matrix (`slot_index[state * LODS + lod]`).
pub const LODS: usize = 5;
/// "No texture" in a face's layer texture byte.
pub const NO_TEXTURE: u8 = 0xFF;
/// One texture repeat in the layer UV streams 5 and 18 (u16, 8.8 fixed
/// point: value / 256; retail maps tile every 50 world units).
pub const UV_ONE: f32 = 256.0;

/// Type 21 record (TerrainFace28).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerrainFace28 {
    /// +0x00: the full 32-bit face mask (see [`super::mask`]).
    pub flags: u32,
    /// +0x04..+0x08: material/service bytes, raw (public readers see the
    /// layer-1 texture index at +4, layer-2 at +5 with 0xFF = none).
    pub service: [u8; 4],
    /// +0x08: triangle vertices (indices into type 3).
    pub vertices: [u16; 3],
    /// +0x0E: neighbour faces across edges (v0,v1), (v1,v2), (v2,v0);
    /// [`NO_INDEX`] = none.
    pub neighbours: [u16; 3],
    /// +0x14..+0x1C: material/class/edge fields, raw.
    pub tail: [u8; 8],
}

/// Face field 0 (the mask's low word) bit of a water face: retail water
/// faces read 0x0608 there (openparkan `docs/03-terrain.md`, "The face
/// record").
pub const WATER_FIELD0: u32 = 0x0008;
/// Face field 1 (the mask's high word) bit 0x02 of a water face.
pub const WATER_FIELD1: u32 = 0x0002_0000;

impl TerrainFace28 {
    /// Whether the face is water (or another liquid's surface, lava
    /// included): field 0 bit 0x008 or field 1 bit 0x02.
    pub fn is_water(&self) -> bool {
        self.flags & (WATER_FIELD0 | WATER_FIELD1) != 0
    }

    /// The layer-1 texture: an index into the map's `Land1.wea` (byte +4).
    pub fn layer1_texture(&self) -> u8 {
        self.service[0]
    }

    /// The layer-2 texture: an index into the map's `Land2.wea` (byte +5),
    /// `None` for [`NO_TEXTURE`].
    pub fn layer2_texture(&self) -> Option<u8> {
        Some(self.service[1]).filter(|&t| t != NO_TEXTURE)
    }

    /// Sets both layer texture bytes (`None`: no layer 2); the other
    /// service bytes are kept.
    pub fn set_layer_textures(&mut self, layer1: u8, layer2: Option<u8>) {
        self.service[0] = layer1;
        self.service[1] = layer2.unwrap_or(NO_TEXTURE);
    }
}

/// The typed view of a whole `Land.msh`.
#[derive(Debug, Clone, PartialEq)]
pub struct LandMsh {
    /// Type 1.
    pub nodes: Vec<Node38>,
    /// Type 2 header (0x8C bytes, raw; retail: eight bounding-box corners
    /// then zeros).
    pub slot_header: Vec<u8>,
    /// Type 2 records.
    pub slots: Vec<Slot68>,
    /// Type 3.
    pub positions: Vec<[f32; 3]>,
    /// Type 4: three signed bytes of normal and a fourth byte kept raw.
    pub normals: Vec<[u8; 4]>,
    /// Type 5: UV0, two u16 per vertex.
    pub uv0: Vec<[u16; 2]>,
    /// Type 18: UV1, two u16 per vertex.
    pub uv1: Vec<[u16; 2]>,
    /// Type 14 (optional), raw 4-byte records.
    pub aux14: Option<Vec<[u8; 4]>>,
    /// Type 11, raw 4-byte records.
    pub cells: Vec<[u8; 4]>,
    /// Type 21.
    pub faces: Vec<TerrainFace28>,
    /// Every entry in directory order; `payload` holds the bytes of entries
    /// that are not one of the typed streams above (kept verbatim).
    pub layout: Vec<LayoutEntry>,
}

/// One directory entry of a `Land.msh`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutEntry {
    pub meta: EntryMeta,
    /// `None` for the typed stream of `meta.type_id`; the raw payload of an
    /// opaque entry otherwise.
    pub payload: Option<Vec<u8>>,
}

/// The element stride of a typed stream type, `None` for type 2 and
/// unknown types.
pub fn stride_of(type_id: u32) -> Option<usize> {
    match type_id {
        TYPE_NODES => Some(NODE_STRIDE),
        TYPE_POSITIONS => Some(POSITION_STRIDE),
        TYPE_NORMALS | TYPE_UV0 | TYPE_CELLS | TYPE_AUX14 | TYPE_UV1 => Some(PACKED_STRIDE),
        TYPE_FACES => Some(FACE_STRIDE),
        _ => None,
    }
}

fn is_typed(type_id: u32) -> bool {
    type_id == TYPE_SLOTS || stride_of(type_id).is_some()
}

/// Required stream types (14 is optional).
pub const REQUIRED: [u32; 8] = [1, 2, 3, 4, 5, 11, 18, 21];

impl LandMsh {
    /// Parses a whole `Land.msh` file (`mode` applies to the NRes container;
    /// the terrain checks are the same in both modes).
    pub fn parse(data: &[u8], mode: Mode) -> Result<LandMsh> {
        let nres = Nres::parse(data, mode)?;
        Self::from_entries(&container_entries(&nres))
    }

    /// Reads the streams from container entries in directory order.
    pub fn from_entries(entries: &[(EntryMeta, &[u8])]) -> Result<LandMsh> {
        let mut first = [None::<usize>; 22];
        let mut layout = Vec::with_capacity(entries.len());
        for (i, (meta, payload)) in entries.iter().enumerate() {
            // is_typed implies a type id below 22.
            let typed = is_typed(meta.type_id) && first[meta.type_id as usize].is_none();
            if typed {
                first[meta.type_id as usize] = Some(i);
            }
            layout.push(LayoutEntry {
                meta: meta.clone(),
                payload: (!typed).then(|| payload.to_vec()),
            });
        }
        let find = |t: u32| -> Result<usize> {
            first[t as usize]
                .ok_or_else(|| FormatError::missing(FORMAT, format!("stream type {t}")))
        };
        for t in REQUIRED {
            find(t)?;
        }
        let read = |t: u32| -> Result<(usize, &EntryMeta, Cursor<'_>)> {
            let i = find(t)?;
            Ok((i, &entries[i].0, Cursor::new(entries[i].1, FORMAT)))
        };
        let ctx = |i: usize| {
            let name = entries[i].0.display_name();
            move |e: FormatError| e.in_entry(i, name)
        };

        let (i, meta, mut c) = read(TYPE_POSITIONS)?;
        let positions = read_records(meta, &mut c, |c| c.f32s()).map_err(ctx(i))?;
        let vertex_count = positions.len();

        let vertex_stream = |t: u32| -> Result<Vec<[u8; 4]>> {
            let (i, meta, mut c) = read(t)?;
            let out = read_records(meta, &mut c, |c| c.array::<4>()).map_err(ctx(i))?;
            expect_count(&out, vertex_count, t).map_err(ctx(i))?;
            Ok(out)
        };
        let normals = vertex_stream(TYPE_NORMALS)?;
        let uv0 = vertex_stream(TYPE_UV0)?
            .into_iter()
            .map(packed_uv)
            .collect();
        let uv1 = vertex_stream(TYPE_UV1)?
            .into_iter()
            .map(packed_uv)
            .collect();

        let aux14 = match first[TYPE_AUX14 as usize] {
            Some(_) => {
                let (i, meta, mut c) = read(TYPE_AUX14)?;
                Some(read_records(meta, &mut c, |c| c.array::<4>()).map_err(ctx(i))?)
            }
            None => None,
        };
        let (i, meta, mut c) = read(TYPE_CELLS)?;
        let cells = read_records(meta, &mut c, |c| c.array::<4>()).map_err(ctx(i))?;

        let (i, meta, mut c) = read(TYPE_FACES)?;
        let faces = read_records(meta, &mut c, read_face).map_err(ctx(i))?;
        check_faces(&faces, vertex_count).map_err(ctx(i))?;

        let (i, meta, mut c) = read(TYPE_SLOTS)?;
        let (slot_header, slots) = read_slot_table(meta, &mut c).map_err(ctx(i))?;
        check_slots(&slots, faces.len()).map_err(ctx(i))?;

        let (i, meta, mut c) = read(TYPE_NODES)?;
        let nodes = read_records(meta, &mut c, Node38::read).map_err(ctx(i))?;
        check_nodes(&nodes, slots.len()).map_err(ctx(i))?;

        Ok(LandMsh {
            nodes,
            slot_header,
            slots,
            positions,
            normals,
            uv0,
            uv1,
            aux14,
            cells,
            faces,
            layout,
        })
    }

    /// The entries to write, in directory order: typed streams serialized,
    /// `attr1`/`attr3` derived, names and `attr2` kept.
    pub fn to_entries(&self) -> Result<Vec<(EntryMeta, Vec<u8>)>> {
        let mut out = Vec::with_capacity(self.layout.len());
        for entry in &self.layout {
            let mut meta = entry.meta.clone();
            let payload = match &entry.payload {
                Some(raw) => raw.clone(),
                None => {
                    let (payload, count, stride) = self.stream_bytes(meta.type_id)?;
                    meta.attr1 = to_u32(count)?;
                    meta.attr3 = to_u32(stride)?;
                    payload
                }
            };
            out.push((meta, payload));
        }
        Ok(out)
    }

    /// Sets `attr1`/`attr3` of the typed streams' layout entries from the
    /// typed data (after edits or when building a new file).
    pub fn refresh_layout(&mut self) -> Result<()> {
        let entries = self.to_entries()?;
        for (entry, (meta, _)) in self.layout.iter_mut().zip(entries) {
            entry.meta = meta;
        }
        Ok(())
    }

    /// A canonical NRes file of the streams (the form new files take).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        build_container(&self.to_entries()?)
    }

    /// Writes the streams back into the archive they were read from, keeping
    /// every container byte that does not depend on them: byte-identical for
    /// unmodified data, whatever the container's layout.
    pub fn rewrite(&self, original: &Nres<'_>) -> Result<Vec<u8>> {
        rewrite_container(original, &self.to_entries()?, FORMAT)
    }

    /// The serialized payload of typed stream `type_id`, its element count
    /// (`attr1`) and stride (`attr3`).
    fn stream_bytes(&self, type_id: u32) -> Result<(Vec<u8>, usize, usize)> {
        fn words<const N: usize>(items: &[[u8; N]]) -> Vec<u8> {
            items.concat()
        }
        let (payload, count) = match type_id {
            TYPE_NODES => (
                {
                    let mut out = Vec::with_capacity(self.nodes.len() * NODE_STRIDE);
                    self.nodes.iter().for_each(|n| n.write(&mut out));
                    out
                },
                self.nodes.len(),
            ),
            TYPE_SLOTS => {
                if self.slot_header.len() != SLOT_HEADER_SIZE {
                    return Err(FormatError::invalid(
                        FORMAT,
                        0,
                        "a type 2 header of 0x8C bytes",
                        self.slot_header.len(),
                    ));
                }
                let mut out = self.slot_header.clone();
                for s in &self.slots {
                    s.write(&mut out);
                }
                return Ok((out, self.slots.len(), SLOT_STRIDE));
            }
            TYPE_POSITIONS => (encode_positions(&self.positions), self.positions.len()),
            TYPE_NORMALS => (words(&self.normals), self.normals.len()),
            TYPE_UV0 => (encode_uvs(&self.uv0), self.uv0.len()),
            TYPE_UV1 => (encode_uvs(&self.uv1), self.uv1.len()),
            TYPE_CELLS => (words(&self.cells), self.cells.len()),
            TYPE_AUX14 => {
                let aux = self.aux14.as_ref().ok_or_else(|| {
                    FormatError::missing(FORMAT, "stream 14 data for its layout entry")
                })?;
                (words(aux), aux.len())
            }
            TYPE_FACES => (
                self.faces.iter().flat_map(face_bytes).collect(),
                self.faces.len(),
            ),
            other => {
                return Err(FormatError::missing(
                    FORMAT,
                    format!("typed stream {other}"),
                ));
            }
        };
        let stride = stride_of(type_id).unwrap_or(PACKED_STRIDE);
        Ok((payload, count, stride))
    }

    /// The faces of one level of detail: the union of the slot ranges the
    /// nodes select at state 0 and `lod`, in ascending order (retail maps
    /// store the authored mesh as LOD 0 and a simplification as LOD 1).
    pub fn lod_faces(&self, lod: usize) -> Vec<u32> {
        let mut used = vec![false; self.faces.len()];
        for node in &self.nodes {
            let Some(s) = node.slot(0, lod) else { continue };
            if let Some(slot) = self.slots.get(s as usize) {
                let start = slot.tri_start as usize;
                let end = (start + slot.tri_count as usize).min(used.len());
                used[start.min(end)..end].iter_mut().for_each(|u| *u = true);
            }
        }
        (0..used.len() as u32)
            .filter(|&f| used[f as usize])
            .collect()
    }

    /// Axis-aligned bounds of the positions, `None` without vertices.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        super::geom::bounds3(&self.positions)
    }

    /// The layer-1 texture coordinates of vertex `i` (stream 5 / [`UV_ONE`]).
    pub fn layer1_uv(&self, i: usize) -> Option<[f32; 2]> {
        self.uv0.get(i).map(|uv| uv.map(decode_uv))
    }

    /// The layer-2 texture coordinates of vertex `i` (stream 18 / [`UV_ONE`]).
    pub fn layer2_uv(&self, i: usize) -> Option<[f32; 2]> {
        self.uv1.get(i).map(|uv| uv.map(decode_uv))
    }

    /// The weight of layer 1 at vertex `i` (stream 14, an f32; the ground is
    /// `mix(layer2, layer1, weight)`), clamped to 0..=1: 1.0 without stream
    /// 14, past its end or for a NaN.
    pub fn layer1_weight(&self, i: usize) -> f32 {
        self.aux14
            .as_ref()
            .and_then(|aux| aux.get(i))
            .map(|&b| f32::from_le_bytes(b))
            .filter(|w| !w.is_nan())
            .map_or(1.0, |w| w.clamp(0.0, 1.0))
    }

    /// Sets the layer-1 weight of every vertex (stream 14, created when
    /// absent: a new file gets the entry at the end of its layout).
    pub fn set_layer1_weights(&mut self, weights: &[f32]) {
        if self.aux14.is_none() {
            self.layout.push(LayoutEntry {
                meta: EntryMeta {
                    name: STREAM_NAME.to_vec(),
                    type_id: TYPE_AUX14,
                    attr1: 0,
                    attr2: 0,
                    attr3: 0,
                },
                payload: None,
            });
        }
        self.aux14 = Some(weights.iter().map(|w| w.to_le_bytes()).collect());
    }

    /// The decoded normal of vertex `i` (signed byte / 127, clamped).
    pub fn normal(&self, i: usize) -> Option<[f32; 3]> {
        self.normals
            .get(i)
            .map(|n| [0, 1, 2].map(|k| ((n[k] as i8) as f32 / 127.0).clamp(-1.0, 1.0)))
    }
}

fn to_u32(v: usize) -> Result<u32> {
    u32::try_from(v).map_err(|_| FormatError::overflow(FORMAT, 0, "stream larger than 4 GiB"))
}

/// Reads a whole stream of `stride`-byte records after checking its
/// `attr1`/`attr3` and that the payload is a whole number of records.
fn read_records<'a, T>(
    meta: &EntryMeta,
    c: &mut Cursor<'a>,
    mut read: impl FnMut(&mut Cursor<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let stride = stride_of(meta.type_id).unwrap_or(PACKED_STRIDE);
    let count = check_stream_attrs(meta, c.len(), 0, stride)?;
    let count = c.checked_count(count as u64, stride, "stream records")?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(read(c)?);
    }
    c.expect_end()?;
    Ok(out)
}

/// `size = header + attr1 * stride` exactly and `attr3 == stride`; returns
/// the record count.
fn check_stream_attrs(
    meta: &EntryMeta,
    size: usize,
    header: usize,
    stride: usize,
) -> Result<usize> {
    let body = size.checked_sub(header).ok_or_else(|| {
        FormatError::invalid(
            FORMAT,
            0,
            format!("a payload of at least {header:#x} bytes"),
            size,
        )
    })?;
    if body % stride != 0 {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("a payload of {header} + a multiple of {stride} bytes"),
            format!("{size} bytes"),
        ));
    }
    let count = body / stride;
    if meta.attr1 as usize != count {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("attr1 = element count {count} (size / {stride})"),
            meta.attr1,
        ));
    }
    if meta.attr3 as usize != stride {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("attr3 = stride {stride}"),
            meta.attr3,
        ));
    }
    Ok(count)
}

fn expect_count<T>(items: &[T], vertex_count: usize, type_id: u32) -> Result<()> {
    if items.len() != vertex_count {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("stream {type_id} with one record per vertex ({vertex_count})"),
            items.len(),
        ));
    }
    Ok(())
}

fn decode_uv(v: u16) -> f32 {
    v as f32 / UV_ONE
}

fn packed_uv(b: [u8; 4]) -> [u16; 2] {
    [
        u16::from_le_bytes([b[0], b[1]]),
        u16::from_le_bytes([b[2], b[3]]),
    ]
}

fn read_slot_table(meta: &EntryMeta, c: &mut Cursor<'_>) -> Result<(Vec<u8>, Vec<Slot68>)> {
    let count = check_stream_attrs(meta, c.len(), SLOT_HEADER_SIZE, SLOT_STRIDE)?;
    let header = c.bytes(SLOT_HEADER_SIZE)?.to_vec();
    let count = c.checked_count(count as u64, SLOT_STRIDE, "slots")?;
    let mut slots = Vec::with_capacity(count);
    for _ in 0..count {
        slots.push(Slot68::read(c)?);
    }
    c.expect_end()?;
    Ok((header, slots))
}

fn read_face(c: &mut Cursor<'_>) -> Result<TerrainFace28> {
    Ok(TerrainFace28 {
        flags: c.u32()?,
        service: c.array()?,
        vertices: c.u16s()?,
        neighbours: c.u16s()?,
        tail: c.array()?,
    })
}

fn face_bytes(f: &TerrainFace28) -> Vec<u8> {
    let mut out = Vec::with_capacity(FACE_STRIDE);
    out.extend(f.flags.to_le_bytes());
    out.extend(f.service);
    for v in f.vertices.iter().chain(&f.neighbours) {
        out.extend(v.to_le_bytes());
    }
    out.extend(f.tail);
    out
}

/// Vertex indices below the vertex count, neighbours [`NO_INDEX`] or below
/// the face count.
fn check_faces(faces: &[TerrainFace28], vertex_count: usize) -> Result<()> {
    for (i, f) in faces.iter().enumerate() {
        let at = i * FACE_STRIDE;
        for (k, &v) in f.vertices.iter().enumerate() {
            if v as usize >= vertex_count {
                return Err(FormatError::invalid(
                    FORMAT,
                    (at + 8 + 2 * k) as u64,
                    format!("face {i} vertex index below the vertex count {vertex_count}"),
                    v,
                ));
            }
        }
        for (k, &n) in f.neighbours.iter().enumerate() {
            if n != NO_INDEX && n as usize >= faces.len() {
                return Err(FormatError::invalid(
                    FORMAT,
                    (at + 14 + 2 * k) as u64,
                    format!(
                        "face {i} neighbour 0xFFFF or below the face count {}",
                        faces.len()
                    ),
                    n,
                ));
            }
        }
    }
    Ok(())
}

/// Every slot's face range inside type 21.
fn check_slots(slots: &[Slot68], face_count: usize) -> Result<()> {
    for (i, s) in slots.iter().enumerate() {
        let end = s.tri_start as usize + s.tri_count as usize;
        if end > face_count {
            return Err(FormatError::invalid(
                FORMAT,
                (SLOT_HEADER_SIZE + i * SLOT_STRIDE) as u64,
                format!("slot {i} face range within the {face_count} faces"),
                format!("{}..{end}", s.tri_start),
            ));
        }
    }
    Ok(())
}

/// Every node slot index [`NO_INDEX`] or below the slot count.
fn check_nodes(nodes: &[Node38], slot_count: usize) -> Result<()> {
    for (i, n) in nodes.iter().enumerate() {
        for (k, &s) in n.slot_index.iter().enumerate() {
            if s != NO_INDEX && s as usize >= slot_count {
                return Err(FormatError::invalid(
                    FORMAT,
                    (i * NODE_STRIDE + 8 + 2 * k) as u64,
                    format!("node {i} slot index 0xFFFF or below the slot count {slot_count}"),
                    s,
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_faces_carry_field_0_bit_8_or_field_1_bit_2() {
        let face = |flags| TerrainFace28 {
            flags,
            service: [0; 4],
            vertices: [0; 3],
            neighbours: [0; 3],
            tail: [0; 8],
        };
        assert!(face(0x0000_0608).is_water());
        assert!(face(0x0002_0600).is_water());
        assert!(face(0x0012_0600).is_water());
        assert!(!face(0x0000_0600).is_water());
        assert!(!face(0x0010_2600).is_water());
    }
}
