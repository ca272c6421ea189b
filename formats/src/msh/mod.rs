//! MSH models (reference/msh.md, tome V "MSH как граф модели"): a nested NRes
//! archive whose entries are streams found by type id.
//!
//! [`Msh::parse`] opens the container, finds each known stream by type (the
//! first entry of that type in directory order), checks its framing (strides,
//! the attributes the reference names) and decodes it; other entries, and
//! later duplicates of a type, are kept raw. The original entry order is kept
//! in [`Msh::layout`]. [`Msh::validate`] runs the cross-stream range checks;
//! [`Msh::load`] is both.
//!
//! Writers: [`Msh::to_bytes`] re-encodes the typed streams into the original
//! container through the lossless NRes editor (byte-identical when nothing
//! changed); a model made by [`Msh::build`] is written canonically.

pub mod anim;
pub mod info;
pub mod streams;

pub use anim::{Pose, blend_pose, quat_blend};
pub use streams::{
    AnimKey24, BATCH_DOORWAY, BATCH_LIGHT_DISCS, BATCH_TWO_SIDED, BATCH_UNTESTED, Batch20, NONE,
    Node38, Nodes, SLOT_HEADER_SIZE, Slot68, SlotTable, TRI_FLOOR, TRI_OPEN_DOOR, TRI_UNTESTED,
    TriDesc16, decode_names, decode_normal, decode_uv, encode_names, kind,
};

use crate::archive::Mode;
use crate::archive::nres::{NewEntry, Nres, NresEditor, NresEntry, build};
use crate::error::{FormatError, Result};
use streams::*;

/// One entry of the model container, in directory order.
#[derive(Debug, Clone, PartialEq)]
pub struct MshEntry {
    /// The directory entry as stored (for a built model: the canonical one,
    /// with `size`, `data_offset` and `sort_index` derived on write).
    pub entry: NresEntry,
    /// `None`: the payload is the typed stream of this type id; `Some`: a raw
    /// payload kept as read (unknown types, duplicates).
    pub raw: Option<Vec<u8>>,
}

/// One triangle of a slot's geometry and the flags collision reads
/// ([`Msh::slot_faces`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SlotFace {
    /// Node-frame positions (Z up).
    pub corners: [[f32; 3]; 3],
    /// The batch's leading dword: `batch_flags | material_index_hi << 16`.
    pub batch_word: u32,
    /// Type 7 `tri_flags` (0 without type 7).
    pub tri_flags: u16,
}

/// A parsed MSH model.
#[derive(Debug, Clone, PartialEq)]
pub struct Msh {
    /// Every entry in the original order.
    pub layout: Vec<MshEntry>,
    /// Type 1.
    pub nodes: Nodes,
    /// Type 2.
    pub slots: SlotTable,
    /// Type 3.
    pub positions: Vec<[f32; 3]>,
    /// Type 4 (four signed bytes; the fourth is kept).
    pub normals: Vec<[i8; 4]>,
    /// Type 5.
    pub uv0: Vec<[u16; 2]>,
    /// Type 18, optional.
    pub uv1: Option<Vec<[u16; 2]>>,
    /// Type 6.
    pub indices: Vec<u16>,
    /// Type 7, optional.
    pub triangles: Option<Vec<TriDesc16>>,
    /// Type 8 (empty when absent).
    pub keys: Vec<AnimKey24>,
    /// Type 19 words (empty when absent).
    pub frame_map: Vec<u16>,
    /// Type 19 `attr2`: frames of the timeline (0 when absent).
    pub frame_count: u32,
    /// Type 13.
    pub batches: Vec<Batch20>,
    /// The original container, for the lossless writer.
    source: Option<Vec<u8>>,
}

/// The types decoded into typed fields.
const TYPED: [u32; 11] = [
    kind::NODES,
    kind::SLOTS,
    kind::POSITIONS,
    kind::NORMALS,
    kind::UV0,
    kind::UV1,
    kind::INDICES,
    kind::TRIANGLES,
    kind::ANIM_KEYS,
    kind::FRAME_MAP,
    kind::BATCHES,
];

fn invalid(expected: impl Into<String>, found: impl std::fmt::Display) -> FormatError {
    FormatError::invalid(FORMAT, 0, expected, found)
}

/// Decodes the first entry of `type_id` with `decode`, if there is one
/// (errors name the entry).
fn stream<T>(
    nres: &Nres,
    type_id: u32,
    decode: impl FnOnce(&NresEntry, &[u8]) -> Result<T>,
) -> Result<Option<T>> {
    let Some(i) = nres.find_type(type_id) else {
        return Ok(None);
    };
    let e = &nres.entries()[i];
    decode(e, nres.payload(i))
        .map(Some)
        .map_err(|err| err.in_entry(i, e.display_name()))
}

/// Like [`stream`], for a stream every model has.
fn required<T>(
    nres: &Nres,
    type_id: u32,
    decode: impl FnOnce(&NresEntry, &[u8]) -> Result<T>,
) -> Result<T> {
    stream(nres, type_id, decode)?
        .ok_or_else(|| FormatError::missing(FORMAT, format!("stream of type {type_id}")))
}

/// The reference's contract of a per-vertex stream entry: `attr1` is the
/// record count and `attr3` the record size.
fn check_count_attrs(e: &NresEntry, count: usize, stride: u32, expected: &str) -> Result<()> {
    if e.attr3 != stride || e.attr1 as usize != count {
        return Err(invalid(
            expected,
            format!("attr1 {} attr3 {} for {count} records", e.attr1, e.attr3),
        ));
    }
    Ok(())
}

impl Msh {
    /// Parses and validates a model.
    pub fn load(data: &[u8], mode: Mode) -> Result<Msh> {
        let msh = Msh::parse(data, mode)?;
        msh.validate()?;
        Ok(msh)
    }

    /// Opens the container and decodes every known stream (framing checks
    /// only; see [`Msh::validate`] for the range checks).
    pub fn parse(data: &[u8], mode: Mode) -> Result<Msh> {
        let nres = Nres::parse(data, mode)?;
        let n = &nres;
        let nodes = required(n, kind::NODES, |e, p| {
            if e.attr3 == 24 {
                decode_nodes24(p).map(Nodes::Raw24)
            } else {
                decode_nodes38(p).map(Nodes::Node38)
            }
        })?;
        let positions = required(n, kind::POSITIONS, |e, p| {
            let v = decode_positions(p)?;
            check_count_attrs(e, v.len(), 12, "type 3 attr1 = vertex count and attr3 = 12")?;
            Ok(v)
        })?;
        let uv1 = stream(n, kind::UV1, |e, p| {
            let v = decode_uvs(p, "type 18 UV1")?;
            check_count_attrs(e, v.len(), 4, "type 18 attr1 = record count and attr3 = 4")?;
            Ok(v)
        })?;
        let first = |t: u32| nres.find_type(t);
        Ok(Msh {
            layout: nres
                .entries()
                .iter()
                .enumerate()
                .map(|(i, e)| MshEntry {
                    entry: e.clone(),
                    raw: (!(TYPED.contains(&e.type_id) && first(e.type_id) == Some(i)))
                        .then(|| nres.payload(i).to_vec()),
                })
                .collect(),
            nodes,
            slots: required(n, kind::SLOTS, |_, p| decode_slots(p))?,
            positions,
            normals: required(n, kind::NORMALS, |_, p| decode_normals(p))?,
            uv0: required(n, kind::UV0, |_, p| decode_uvs(p, "type 5 UV0"))?,
            uv1,
            indices: required(n, kind::INDICES, |_, p| decode_u16s(p, "type 6 indices"))?,
            triangles: stream(n, kind::TRIANGLES, |_, p| decode_triangles(p))?,
            keys: stream(n, kind::ANIM_KEYS, |_, p| decode_keys(p))?.unwrap_or_default(),
            frame_map: stream(n, kind::FRAME_MAP, |_, p| {
                decode_u16s(p, "type 19 frame map")
            })?
            .unwrap_or_default(),
            frame_count: first(kind::FRAME_MAP).map_or(0, |i| nres.entries()[i].attr2),
            batches: required(n, kind::BATCHES, |_, p| decode_batches(p))?,
            source: Some(data.to_vec()),
        })
    }

    /// The range checks of tome V and the reference: per-vertex stream
    /// counts, slot indices, parents before children, fallback keys and
    /// frame-map blocks in range, increasing key times on every interpolated
    /// pair, slot triangle and batch ranges, batch index ranges and
    /// `base_vertex + index < vertex count`.
    pub fn validate(&self) -> Result<()> {
        let vertices = self.positions.len();
        for (what, n) in [
            ("type 4 normals", Some(self.normals.len())),
            ("type 5 UV0", Some(self.uv0.len())),
            ("type 18 UV1", self.uv1.as_ref().map(Vec::len)),
        ] {
            if let Some(n) = n
                && n != vertices
            {
                return Err(invalid(
                    format!("{what}: one record per vertex ({vertices})"),
                    n,
                ));
            }
        }
        let slot_count = self.slots.slots.len();
        for (i, node) in self.nodes.node38().iter().enumerate() {
            self.validate_node(i, node, slot_count)?;
        }
        let tri_count = self.triangles.as_ref().map(Vec::len);
        for (i, s) in self.slots.slots.iter().enumerate() {
            let end = s.tri_start as usize + s.tri_count as usize;
            if let Some(t) = tri_count
                && end > t
            {
                return Err(invalid(
                    format!("slot #{i}: triangles within type 7 ({t})"),
                    end,
                ));
            }
            let end = s.batch_start as usize + s.batch_count as usize;
            if end > self.batches.len() {
                return Err(invalid(
                    format!("slot #{i}: batches within type 13 ({})", self.batches.len()),
                    end,
                ));
            }
        }
        for (i, b) in self.batches.iter().enumerate() {
            let range = self.batch_indices(b).ok_or_else(|| {
                invalid(
                    format!("batch #{i}: indices within type 6 ({})", self.indices.len()),
                    format!("{} + {}", b.index_start, b.index_count),
                )
            })?;
            for &index in range {
                let v = b.base_vertex as u64 + index as u64;
                if v >= vertices as u64 {
                    return Err(invalid(
                        format!(
                            "batch #{i}: base_vertex + index below the vertex count {vertices}"
                        ),
                        v,
                    ));
                }
            }
        }
        Ok(())
    }

    fn validate_node(&self, i: usize, node: &Node38, slot_count: usize) -> Result<()> {
        if let Some(&s) = node
            .slot_index
            .iter()
            .find(|&&s| s != NONE && s as usize >= slot_count)
        {
            return Err(invalid(
                format!("Node38 #{i}: slot index below {slot_count} or 0xFFFF"),
                s,
            ));
        }
        if let Some(p) = node.parent()
            && p >= i
        {
            return Err(invalid(
                format!("Node38 #{i}: a parent before the child or 0xFFFF"),
                p,
            ));
        }
        if self.keys.is_empty() {
            return Ok(()); // a static model without type 8: identity poses
        }
        let fallback = node.fallback_key as usize;
        if fallback >= self.keys.len() {
            return Err(invalid(
                format!(
                    "Node38 #{i}: fallback key below the key count {}",
                    self.keys.len()
                ),
                fallback,
            ));
        }
        if node.anim_map_start == NONE {
            return Ok(());
        }
        let start = node.anim_map_start as usize;
        let block = self
            .frame_map
            .get(start..start + self.frame_count as usize)
            .ok_or_else(|| {
                invalid(
                    format!(
                        "Node38 #{i}: a frame map block within type 19 ({} words)",
                        self.frame_map.len()
                    ),
                    format!("{start} + {}", self.frame_count),
                )
            })?;
        for &k in block.iter().filter(|&&k| (k as usize) < fallback) {
            let (k0, k1) = (&self.keys[k as usize], &self.keys[k as usize + 1]);
            if k0.time.partial_cmp(&k1.time) != Some(std::cmp::Ordering::Less) {
                return Err(invalid(
                    format!("Node38 #{i}: increasing times of keys {k} and {}", k + 1),
                    format!("{} then {}", k0.time, k1.time),
                ));
            }
        }
        Ok(())
    }

    /// The triangles of slot `slot` with the flags collision reads,
    /// batch by batch (reference msh.md "Type 7 и сегментный запрос"): the
    /// type-7 descriptor cursor starts at the slot's `tri_start` and moves
    /// on by `index_count / 3` after each batch; a batch's word is its
    /// leading dword, `batch_flags | material_index_hi << 16`. A triangle
    /// naming a vertex outside type 3 is left out (the loader's checks
    /// reject such a model); without type 7 every triangle's flags are 0.
    pub fn slot_faces(&self, slot: usize) -> Vec<SlotFace> {
        let Some(s) = self.slots.slots.get(slot) else {
            return Vec::new();
        };
        let first = usize::from(s.batch_start);
        let batches = self
            .batches
            .get(first..first + usize::from(s.batch_count))
            .unwrap_or_default();
        let mut cursor = usize::from(s.tri_start);
        let mut faces = Vec::new();
        for b in batches {
            let batch_word = u32::from(b.batch_flags) | u32::from(b.material_index_hi) << 16;
            let corner = |i: u16| {
                let at = (b.base_vertex as usize).checked_add(usize::from(i))?;
                self.positions.get(at).copied()
            };
            let indices = self.batch_indices(b).unwrap_or_default();
            for (k, t) in indices.chunks_exact(3).enumerate() {
                let (Some(a), Some(bb), Some(c)) = (corner(t[0]), corner(t[1]), corner(t[2]))
                else {
                    continue;
                };
                let tri_flags = self
                    .triangles
                    .as_ref()
                    .and_then(|d| d.get(cursor + k))
                    .map_or(0, |d| d.tri_flags);
                faces.push(SlotFace {
                    corners: [a, bb, c],
                    batch_word,
                    tri_flags,
                });
            }
            cursor += usize::from(b.index_count) / 3;
        }
        faces
    }

    /// The index words of a batch, if its range lies within type 6.
    pub fn batch_indices(&self, b: &Batch20) -> Option<&[u16]> {
        let start = b.index_start as usize;
        self.indices
            .get(start..start.checked_add(b.index_count as usize)?)
    }

    /// The typed payload of stream `type_id`.
    fn encode(&self, type_id: u32) -> Vec<u8> {
        match type_id {
            kind::NODES => encode_nodes(&self.nodes),
            kind::SLOTS => encode_slots(&self.slots),
            kind::POSITIONS => encode_positions(&self.positions),
            kind::NORMALS => encode_normals(&self.normals),
            kind::UV0 => encode_uvs(&self.uv0),
            kind::UV1 => self.uv1.as_deref().map(encode_uvs).unwrap_or_default(),
            kind::INDICES => encode_u16s(&self.indices),
            kind::TRIANGLES => self
                .triangles
                .as_deref()
                .map(encode_triangles)
                .unwrap_or_default(),
            kind::ANIM_KEYS => encode_keys(&self.keys),
            kind::FRAME_MAP => encode_u16s(&self.frame_map),
            _ => encode_batches(&self.batches),
        }
    }

    /// The model container. A parsed model goes through the lossless NRes
    /// editor over the original bytes (identical output when unmodified);
    /// a built one through the canonical NRes writer.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let payloads: Vec<Vec<u8>> = self
            .layout
            .iter()
            .map(|e| {
                e.raw
                    .clone()
                    .unwrap_or_else(|| self.encode(e.entry.type_id))
            })
            .collect();
        if let Some(source) = &self.source
            && let Ok(nres) = Nres::parse(source, Mode::Compatible)
            && nres.len() == self.layout.len()
        {
            let mut editor = NresEditor::new(&nres);
            for (i, (e, p)) in self.layout.iter().zip(&payloads).enumerate() {
                let x = &e.entry;
                editor.set_attributes(i, x.type_id, x.attr1, x.attr2, x.attr3);
                if x.name_field != nres.entries()[i].name_field {
                    editor.rename(i, x.name())?;
                }
                if p.as_slice() != nres.payload(i) {
                    editor.set_payload(i, p.clone());
                }
            }
            return editor.to_bytes();
        }
        let entries: Vec<NewEntry> = self
            .layout
            .iter()
            .zip(&payloads)
            .map(|(e, p)| NewEntry {
                name: e.entry.name().to_vec(),
                type_id: e.entry.type_id,
                attr1: e.entry.attr1,
                attr2: e.entry.attr2,
                attr3: e.entry.attr3,
                payload: p,
            })
            .collect();
        build(&entries)
    }

    /// Node names from the type 10 string table, one per node when the
    /// table follows the documented framing.
    pub fn node_names(&self) -> Option<Vec<Option<Vec<u8>>>> {
        let e = self
            .layout
            .iter()
            .find(|e| e.entry.type_id == kind::STRINGS)?;
        decode_names(e.raw.as_deref()?)
    }
}

/// Typed content of a model for the canonical builder.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MshParts {
    pub nodes: Vec<Node38>,
    /// The 0x8C-byte slot header (global bounds); zeros when `None`.
    pub slot_header: Option<[u8; SLOT_HEADER_SIZE]>,
    pub slots: Vec<Slot68>,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[i8; 4]>,
    pub uv0: Vec<[u16; 2]>,
    pub uv1: Option<Vec<[u16; 2]>>,
    pub indices: Vec<u16>,
    pub triangles: Option<Vec<TriDesc16>>,
    pub keys: Vec<AnimKey24>,
    pub frame_map: Vec<u16>,
    pub frame_count: u32,
    pub batches: Vec<Batch20>,
    /// Node names for type 10 (written when not empty).
    pub names: Vec<Option<Vec<u8>>>,
    /// Further raw streams of untyped types (9, 15, 16, 17, 20, ...),
    /// written after the typed ones.
    pub extra: Vec<RawStream>,
}

/// A stream the builder writes as given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawStream {
    pub type_id: u32,
    pub attr1: u32,
    pub attr2: u32,
    pub attr3: u32,
    pub payload: Vec<u8>,
}

/// A builder layout row: a typed stream (`None`) or a raw payload.
type Row = (u32, u32, u32, u32, Option<Vec<u8>>);

impl Msh {
    /// A model from typed data, in the retail stream order
    /// `[1, 2, 3, 4, 5, 18, 13, 6, 7, 8, 19, 10, extra...]` with the entry
    /// attributes retail files carry (attr1 = record count, attr3 = stride;
    /// type 8 attr3 = 4, type 19 attr2 = frame count). Validated.
    pub fn build(parts: MshParts) -> Result<Msh> {
        let n = |v: usize| v as u32;
        let mut layout: Vec<Row> = vec![
            (kind::NODES, n(parts.nodes.len()), 0, 38, None),
            (kind::SLOTS, n(parts.slots.len()), 0, 68, None),
            (kind::POSITIONS, n(parts.positions.len()), 0, 12, None),
            (kind::NORMALS, n(parts.normals.len()), 0, 4, None),
            (kind::UV0, n(parts.uv0.len()), 0, 4, None),
        ];
        if let Some(uv1) = &parts.uv1 {
            layout.push((kind::UV1, n(uv1.len()), 0, 4, None));
        }
        layout.push((kind::BATCHES, n(parts.batches.len()), 0, 20, None));
        layout.push((kind::INDICES, n(parts.indices.len()), 0, 2, None));
        if let Some(t) = &parts.triangles {
            layout.push((kind::TRIANGLES, n(t.len()), 0, 16, None));
        }
        if !parts.keys.is_empty() {
            layout.push((kind::ANIM_KEYS, n(parts.keys.len()), 0, 4, None));
        }
        if !parts.frame_map.is_empty() || parts.frame_count > 0 {
            layout.push((
                kind::FRAME_MAP,
                n(parts.frame_map.len()),
                parts.frame_count,
                2,
                None,
            ));
        }
        if !parts.names.is_empty() {
            let names: Vec<Option<&[u8]>> = parts.names.iter().map(|x| x.as_deref()).collect();
            layout.push((
                kind::STRINGS,
                n(names.len()),
                0,
                0,
                Some(encode_names(&names)),
            ));
        }
        for x in parts.extra {
            layout.push((x.type_id, x.attr1, x.attr2, x.attr3, Some(x.payload)));
        }
        let mut entries = Vec::with_capacity(layout.len());
        for (i, (type_id, attr1, attr2, attr3, raw)) in layout.into_iter().enumerate() {
            if raw.is_some() && TYPED.contains(&type_id) {
                return Err(invalid("extra streams of untyped types only", type_id));
            }
            let name = format!("RES{type_id}_{i}");
            let name_field =
                crate::archive::nres::name_field(name.as_bytes()).map_err(|e| invalid(e, &name))?;
            entries.push(MshEntry {
                entry: NresEntry {
                    type_id,
                    attr1,
                    attr2,
                    size: 0,
                    attr3,
                    name_field,
                    data_offset: 0,
                    sort_index: 0,
                },
                raw,
            });
        }
        let msh = Msh {
            layout: entries,
            nodes: Nodes::Node38(parts.nodes),
            slots: SlotTable {
                header: parts.slot_header.unwrap_or([0; SLOT_HEADER_SIZE]),
                slots: parts.slots,
            },
            positions: parts.positions,
            normals: parts.normals,
            uv0: parts.uv0,
            uv1: parts.uv1,
            indices: parts.indices,
            triangles: parts.triangles,
            keys: parts.keys,
            frame_map: parts.frame_map,
            frame_count: parts.frame_count,
            batches: parts.batches,
            source: None,
        };
        msh.validate()?;
        Ok(msh)
    }
}
