//! The summary of a model printed by `iron3d model info`.

use super::{Msh, NONE, Nodes, kind};
use std::fmt;

/// One container entry.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StreamInfo {
    pub index: usize,
    pub type_id: u32,
    pub name: String,
    pub attr1: u32,
    pub attr2: u32,
    pub attr3: u32,
    /// Payload bytes (encoded size of a typed stream).
    pub size: usize,
    /// Whether the stream was decoded into typed data.
    pub typed: bool,
}

/// One Node38.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NodeInfo {
    pub index: usize,
    pub name: Option<String>,
    pub parent: Option<usize>,
    pub hdr0: u16,
    pub anim_map_start: Option<u16>,
    pub fallback_key: u16,
    /// `[state, lod, slot]` for every slot present.
    pub slots: Vec<[u16; 3]>,
}

/// The animation streams.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AnimationInfo {
    pub keys: usize,
    pub frame_map_words: usize,
    pub frame_count: u32,
    pub animated_nodes: usize,
    /// Smallest and largest key time.
    pub time_range: Option<[f32; 2]>,
}

/// Everything `model info` prints.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MshInfo {
    pub streams: Vec<StreamInfo>,
    /// "Node38" or "Raw24".
    pub node_layout: &'static str,
    pub node_count: usize,
    pub nodes: Vec<NodeInfo>,
    pub vertices: usize,
    pub indices: usize,
    pub triangles: Option<usize>,
    pub has_uv1: bool,
    pub slots: Vec<super::Slot68>,
    pub batches: Vec<super::Batch20>,
    pub animation: AnimationInfo,
    /// `None` when valid, else the validation error.
    pub validation: Option<String>,
}

impl Msh {
    /// The summary printed by `iron3d model info`.
    pub fn info(&self) -> MshInfo {
        let names = self.node_names();
        let streams = self
            .layout
            .iter()
            .enumerate()
            .map(|(index, e)| StreamInfo {
                index,
                type_id: e.entry.type_id,
                name: e.entry.display_name(),
                attr1: e.entry.attr1,
                attr2: e.entry.attr2,
                attr3: e.entry.attr3,
                size: e
                    .raw
                    .as_ref()
                    .map_or_else(|| self.encode(e.entry.type_id).len(), Vec::len),
                typed: e.raw.is_none(),
            })
            .collect();
        let nodes = self
            .nodes
            .node38()
            .iter()
            .enumerate()
            .map(|(index, n)| NodeInfo {
                index,
                name: names
                    .as_ref()
                    .and_then(|v| v.get(index).cloned().flatten())
                    .map(|b| String::from_utf8_lossy(&b).into_owned()),
                parent: n.parent(),
                hdr0: n.hdr0,
                anim_map_start: (n.anim_map_start != NONE).then_some(n.anim_map_start),
                fallback_key: n.fallback_key,
                slots: (0..15)
                    .filter(|&i| n.slot_index[i] != NONE)
                    .map(|i| [(i / 5) as u16, (i % 5) as u16, n.slot_index[i]])
                    .collect(),
            })
            .collect();
        let times = self.keys.iter().map(|k| k.time).filter(|t| t.is_finite());
        let time_range = times
            .clone()
            .reduce(f32::min)
            .zip(times.reduce(f32::max))
            .map(|(a, b)| [a, b]);
        MshInfo {
            streams,
            node_layout: match self.nodes {
                Nodes::Node38(_) => "Node38",
                Nodes::Raw24(_) => "Raw24",
            },
            node_count: self.nodes.len(),
            nodes,
            vertices: self.positions.len(),
            indices: self.indices.len(),
            triangles: self.triangles.as_ref().map(Vec::len),
            has_uv1: self.uv1.is_some(),
            slots: self.slots.slots.clone(),
            batches: self.batches.clone(),
            animation: AnimationInfo {
                keys: self.keys.len(),
                frame_map_words: self.frame_map.len(),
                frame_count: self.frame_count,
                animated_nodes: self
                    .nodes
                    .node38()
                    .iter()
                    .filter(|n| n.anim_map_start != NONE)
                    .count(),
                time_range,
            },
            validation: self.validate().err().map(|e| e.to_string()),
        }
    }
}

fn type_name(t: u32) -> &'static str {
    match t {
        kind::NODES => "nodes",
        kind::SLOTS => "slots",
        kind::POSITIONS => "positions",
        kind::NORMALS => "normals",
        kind::UV0 => "uv0",
        kind::INDICES => "indices",
        kind::TRIANGLES => "triangles",
        kind::ANIM_KEYS => "anim keys",
        kind::SERVICE => "service",
        kind::STRINGS => "strings",
        kind::BATCHES => "batches",
        kind::AUX15 => "aux 15",
        kind::COLOURS16 => "colours 16",
        kind::AUX17 => "aux 17",
        kind::UV1 => "uv1",
        kind::FRAME_MAP => "frame map",
        kind::AUX20 => "aux 20",
        _ => "unknown",
    }
}

impl fmt::Display for MshInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "streams: {}", self.streams.len())?;
        for s in &self.streams {
            writeln!(
                f,
                "  #{:<2} type {:>2} {:<11} {:<20} attr {} {} {}  {} bytes{}",
                s.index,
                s.type_id,
                type_name(s.type_id),
                s.name,
                s.attr1,
                s.attr2,
                s.attr3,
                s.size,
                if s.typed { "" } else { " (raw)" }
            )?;
        }
        writeln!(f, "nodes: {} ({})", self.node_count, self.node_layout)?;
        for n in &self.nodes {
            let parent = n
                .parent
                .map_or("root".to_string(), |p| format!("parent {p}"));
            let slots: Vec<String> = n
                .slots
                .iter()
                .map(|[s, l, x]| format!("{s}/{l}:{x}"))
                .collect();
            writeln!(
                f,
                "  #{:<2} {:<16} {:<10} hdr0 {:#06x} map {} fallback {} slots [{}]",
                n.index,
                n.name.as_deref().unwrap_or("-"),
                parent,
                n.hdr0,
                n.anim_map_start.map_or("-".to_string(), |m| m.to_string()),
                n.fallback_key,
                slots.join(" ")
            )?;
        }
        writeln!(
            f,
            "geometry: {} vertices, {} indices, {} triangle descriptors, uv1 {}",
            self.vertices,
            self.indices,
            self.triangles.map_or("none".to_string(), |t| t.to_string()),
            if self.has_uv1 { "yes" } else { "no" }
        )?;
        writeln!(f, "slots: {}", self.slots.len())?;
        for (i, s) in self.slots.iter().enumerate() {
            writeln!(
                f,
                "  #{i:<3} tris {}+{} batches {}+{} radius {}",
                s.tri_start, s.tri_count, s.batch_start, s.batch_count, s.sphere_radius
            )?;
        }
        writeln!(f, "batches: {}", self.batches.len())?;
        for (i, b) in self.batches.iter().enumerate() {
            writeln!(
                f,
                "  #{i:<3} flags {:#06x} material {} (hi {:#x}) lightmap {} indices {}+{} base {} vertices {} local {}",
                b.batch_flags,
                b.material_index,
                b.material_index_hi,
                b.lightmap_index,
                b.index_start,
                b.index_count,
                b.base_vertex,
                b.vertex_count,
                b.local_batch_index
            )?;
        }
        let a = &self.animation;
        writeln!(
            f,
            "animation: {} keys, {} map words, {} frames, {} animated nodes{}",
            a.keys,
            a.frame_map_words,
            a.frame_count,
            a.animated_nodes,
            a.time_range
                .map_or(String::new(), |[lo, hi]| format!(", times {lo}..{hi}"))
        )?;
        match &self.validation {
            None => writeln!(f, "validation: ok"),
            Some(e) => writeln!(f, "validation: FAILED: {e}"),
        }
    }
}
