//! What every drawn entity carries, read by the modules that draw, sort,
//! cast shadows and capture: its render phase and draw-item source
//! ([`DrawItemSource`], tome V "Draw item"), the model batch it shows
//! ([`DrawnBatch`]) and whether it casts a shadow ([`ShadowCaster`]).

use bevy::prelude::*;
use serde::Serialize;

/// The render phases of tome V ("Согласованная декомпозиция внутренних
/// render phases"), in drawing order. Items of one phase are sorted by the
/// phase's own key (see [`DrawItemSource::pipeline_key`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Reflect)]
pub enum RenderPhase {
    /// Opaque terrain.
    OpaqueTerrain,
    /// Opaque object batches.
    OpaqueObjects,
    /// Additional material passes over the opaque terrain (tome V phase 4):
    /// the terrain's layer-2 overlay, blended, after every opaque draw and
    /// before the alpha-tested ones.
    MaterialPasses,
    /// Shadows and projected primitives: the batches drawn into the sun's
    /// shadow map (the shadow module; the terrain's draw applies it).
    Shadows,
    /// Alpha-tested geometry.
    AlphaTested,
    /// Transparent objects, back to front.
    Transparent,
    /// Atmosphere, flares and overlays: the sky's dome, its sun and moon
    /// and the lens flare, in drawing order (the sky module).
    Atmosphere,
}

/// What one drawn entity contributes to the frame: its origin in the
/// mission (object, node, slot, batch), its active material phase, its
/// texture stages and its legacy pipeline state reduced to a key.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Reflect)]
pub struct DrawItemSource {
    /// Raw original id of the placed object; `None` for the terrain.
    pub object: Option<u32>,
    /// Model node, slot and batch index (`None` for the terrain).
    pub node: Option<usize>,
    pub slot: Option<usize>,
    pub batch: Option<usize>,
    /// The active MAT0 phase.
    pub material_phase: usize,
    /// Asset path of the texture on stage 0 (`None`: untextured).
    pub texture: Option<String>,
    /// Asset path of the lightmap on stage 1 (`None`: no lightmap).
    pub lightmap: Option<String>,
    pub render_phase: RenderPhase,
    /// The immutable pipeline key of the legacy render state (blend, depth,
    /// cull, alpha test, vertex format): the primary sort key of opaque
    /// phases.
    pub pipeline_key: u64,
    /// Stable insertion id: the last sort key of every phase.
    pub insertion: u64,
}

impl RenderPhase {
    /// The phase's place in the frame (tome V decomposition order).
    pub fn order(self) -> u64 {
        self as u64
    }
}

/// Marks a batch drawn into this frame's shadow map.
#[derive(Component, Debug)]
pub struct ShadowCaster;

/// Marks a drawn batch: its node's slot and its model batch index. It is
/// shown while its node selects this slot (the LOD module).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[require(Name::new("Model batch"))]
pub struct DrawnBatch {
    pub batch: usize,
    pub slot: usize,
}
