//! Terrain and areal map of a level (tome IV; `reference/terrain-and-areal-map.md`
//! wins where they differ).
//!
//! - [`land_msh`]: `Land.msh`, an NRes of fixed terrain streams (positions,
//!   packed normals/UVs, the node/slot tables, `TerrainFace28`, the type 11
//!   accelerator), read strictly and written back byte-identical.
//! - [`mask`]: the full 32-bit face mask and its two compact forms.
//! - [`surface`]: CPU surface queries (height, normal, ray cast) through a
//!   uniform grid over the faces.
//! - [`land_map`]: `Land.map`, the areals with their edge links, polygon
//!   blocks and the cell grid (packed 10/22-bit form), with point lookup.
//! - [`route`]: A* over the areal graph.
//! - [`build`]: writers from typed data (heightfield terrain, polygon areal
//!   maps) for generated content.
//! - [`report`]: the text/JSON of the `terrain` and `map` CLI commands.
//!
//! Coordinates are the engine's own: Z is up, the ground plane is X/Y
//! (areal polygons are XY polygons; the terrain's height is its Z).

pub mod build;
pub mod geom;
pub mod land_map;
pub mod land_msh;
pub mod mask;
pub mod report;
pub mod route;
pub mod surface;

/// Directory metadata of one NRes entry of a terrain file, kept so that an
/// unmodified file is written back with the same names and attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryMeta {
    /// The name (bytes before the NUL of the name field).
    pub name: Vec<u8>,
    pub type_id: u32,
    pub attr1: u32,
    pub attr2: u32,
    pub attr3: u32,
}

impl EntryMeta {
    /// Metadata of the entry `index` of a parsed archive.
    pub fn of(nres: &crate::archive::nres::Nres<'_>, index: usize) -> Self {
        let e = &nres.entries()[index];
        Self {
            name: e.name().to_vec(),
            type_id: e.type_id,
            attr1: e.attr1,
            attr2: e.attr2,
            attr3: e.attr3,
        }
    }

    /// The name for error context (lossy UTF-8).
    pub fn display_name(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }
}

/// Reads the entries of an NRes container into metadata + payload pairs.
pub(crate) fn container_entries<'a>(
    nres: &crate::archive::nres::Nres<'a>,
) -> Vec<(EntryMeta, &'a [u8])> {
    (0..nres.entries().len())
        .map(|i| (EntryMeta::of(nres, i), nres.payload(i)))
        .collect()
}

/// Builds a canonical NRes container from metadata + payload pairs.
pub(crate) fn build_container(entries: &[(EntryMeta, Vec<u8>)]) -> crate::error::Result<Vec<u8>> {
    use crate::archive::nres::{NewEntry, build};
    let list: Vec<NewEntry> = entries
        .iter()
        .map(|(m, p)| NewEntry {
            name: m.name.clone(),
            type_id: m.type_id,
            attr1: m.attr1,
            attr2: m.attr2,
            attr3: m.attr3,
            payload: p,
        })
        .collect();
    build(&list)
}

/// Rewrites `original` losslessly (gaps, padding, name tails, sort table
/// kept) with new payloads and attributes for its entries, in directory order.
pub(crate) fn rewrite_container(
    original: &crate::archive::nres::Nres<'_>,
    entries: &[(EntryMeta, Vec<u8>)],
    format: &'static str,
) -> crate::error::Result<Vec<u8>> {
    use crate::archive::nres::NresEditor;
    if original.entries().len() != entries.len() {
        return Err(crate::error::FormatError::invalid(
            format,
            0,
            "the original archive to have one entry per stream",
            format!(
                "{} entries for {} streams",
                original.entries().len(),
                entries.len()
            ),
        ));
    }
    let mut editor = NresEditor::new(original);
    for (i, (m, p)) in entries.iter().enumerate() {
        editor.set_attributes(i, m.type_id, m.attr1, m.attr2, m.attr3);
        if m.name.as_slice() != original.entries()[i].name() {
            editor.rename(i, &m.name)?;
        }
        if p.as_slice() != original.payload(i) {
            editor.set_payload(i, p.clone());
        }
    }
    editor.to_bytes()
}
