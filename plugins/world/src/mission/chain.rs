//! Each prototype's resource chain down to the texture entries, as
//! resource preparation walked it in the formats crate's dependency graph:
//! prototype -> registry parents -> MSH and WEAR -> WEAR rows -> MAT0 of
//! `Material.lib` -> phase Texm of `Textures.lib`; WEAR lightmap rows ->
//! `LightMap.lib`. Failures are the graph's chained errors. Published on
//! every part entity ([`PartResources`]), so no reader opens the install
//! again to learn them.

use bevy::prelude::*;
use iron3d_formats::graph::{MaterialRow, ProtoNode};
use iron3d_formats::registry::Resolved;
use std::sync::Arc;

/// The resource chain of one prototype.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceChain {
    pub key: String,
    /// The prototype and its parents, nearest first.
    pub inheritance: Vec<String>,
    /// Effective references: `archive::resource (from ORIGIN)`.
    pub refs: Vec<String>,
    /// `archive::entry` of the model and of the material table.
    pub mesh: Option<String>,
    pub wear: Option<String>,
    /// The material table's rows, each with its MAT0 and phase textures.
    pub materials: Vec<MaterialRow>,
    /// `LightMap.lib::NAME` of each lightmap row.
    pub lightmaps: Vec<String>,
    pub effects: Vec<String>,
    /// Failing edges, each with its whole chain.
    pub failures: Vec<String>,
}

/// The resource chain of a part entity's prototype (shared by every part
/// of that prototype).
#[derive(Component, Debug, Clone, PartialEq)]
pub struct PartResources(pub Arc<ResourceChain>);

impl ResourceChain {
    /// The chain of `resolved` as the graph checked it (`node`).
    pub(crate) fn new(node: &ProtoNode, resolved: &Resolved) -> Self {
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        Self {
            key: node.key.clone(),
            inheritance: node.inheritance.clone(),
            refs: resolved
                .refs
                .iter()
                .map(|r| {
                    format!(
                        "{}::{} (from {})",
                        lossy(&r.archive),
                        lossy(&r.resource),
                        lossy(&r.origin)
                    )
                })
                .collect(),
            mesh: node.mesh.clone(),
            wear: node.wear.clone(),
            materials: node.materials.clone(),
            lightmaps: node.lightmaps.clone(),
            effects: node.effects.clone(),
            failures: node.failures.iter().map(ToString::to_string).collect(),
        }
    }
}
