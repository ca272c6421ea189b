//! A summary of a model: its streams, nodes with parents and slots,
//! geometry counts, slots, batches, animation and the validation result.

use super::{Msh, NONE, Nodes};

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
    /// The summary of the model (`iron3d model info`).
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
