//! The selected object's prototype chains down to the texture entries,
//! read once per selection through the formats crate's dependency graph:
//! prototype -> registry parents -> MSH and WEAR -> WEAR rows -> MAT0 of
//! `Material.lib` -> phase Texm of `Textures.lib`; WEAR lightmap rows ->
//! `LightMap.lib`. Failures are the graph's chained errors.

use crate::model::lossy;
use iron3d_formats::archive::Mode;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::graph::library::{Libraries, Library};
use iron3d_formats::graph::{Graph, LIGHTMAP_LIB, MATERIAL_LIB, TEXTURE_LIB};
use iron3d_formats::mat0::Mat0;
use iron3d_formats::registry::Resolved;
use iron3d_formats::wear::Wear;
use std::path::Path;
use std::rc::Rc;

/// One MAT0 a WEAR row names, with its phase textures.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialLink {
    /// The row's first token (legacy id) and MAT0 name.
    pub row: String,
    pub material: String,
    /// `Textures.lib::NAME` of each textured phase, by phase.
    pub textures: Vec<(usize, String)>,
    /// Why the MAT0 could not be read.
    pub error: Option<String>,
}

/// The chain of one part's prototype.
#[derive(Debug, Clone, PartialEq)]
pub struct PartChain {
    pub part: usize,
    pub key: String,
    /// The prototype and its parents, nearest first.
    pub inheritance: Vec<String>,
    /// Effective references: `archive::resource (from ORIGIN)`.
    pub refs: Vec<String>,
    /// `archive::entry` of the model and of the material table.
    pub mesh: Option<String>,
    pub wear: Option<String>,
    pub materials: Vec<MaterialLink>,
    /// `LightMap.lib::NAME` of each lightmap row.
    pub lightmaps: Vec<String>,
    pub effects: Vec<String>,
    /// Failing edges, each with its whole chain.
    pub failures: Vec<String>,
}

/// The chains of every part of an object (in part order).
pub fn part_chains(
    game_dir: &Path,
    parts: &[(usize, &Resolved)],
) -> Result<Vec<PartChain>, String> {
    let dir = GameDir::open(game_dir).map_err(|e| e.to_string())?;
    let graph = Graph::new(&dir);
    Ok(parts
        .iter()
        .map(|&(part, resolved)| part_chain(&graph, part, resolved))
        .collect())
}

fn part_chain(graph: &Graph<'_>, part: usize, resolved: &Resolved) -> PartChain {
    let node = graph.prototype(&resolved.key);
    let mut chain = PartChain {
        part,
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
        materials: Vec::new(),
        lightmaps: Vec::new(),
        effects: node.effects.clone(),
        failures: node.failures.iter().map(ToString::to_string).collect(),
    };
    if let Some(wear) = wear_of(graph.libraries(), resolved) {
        chain.materials = wear
            .materials
            .iter()
            .map(|row| MaterialLink {
                row: lossy(&row.legacy_id),
                ..material_link(graph.libraries(), &row.name)
            })
            .collect();
        chain.lightmaps = wear
            .lightmaps
            .iter()
            .flatten()
            .map(|row| entry_text(LIGHTMAP_LIB, &row.name))
            .collect();
    }
    chain
}

/// `archive::entry` as the graph prints entry links.
fn entry_text(archive: &[u8], entry: &[u8]) -> String {
    iron3d_formats::graph::chain::entry(archive, entry).to_string()
}

/// An entry of an archive of the install.
fn lookup(libs: &Libraries<'_>, archive: &[u8], name: &[u8]) -> Option<(Rc<Library>, usize)> {
    let lib = libs.get(archive).ok()?;
    let index = lib.find(name)?;
    Some((lib, index))
}

/// The WEAR the prototype's model uses: its `.wea` reference, else the
/// `<stem>.wea` beside the first model candidate that exists.
fn wear_of(libs: &Libraries<'_>, resolved: &Resolved) -> Option<Wear> {
    let (archive, name) = match resolved.wear() {
        Some(w) => (w.archive.clone(), w.resource.clone()),
        None => {
            let (archive, mesh) = resolved
                .mesh_candidates()
                .into_iter()
                .find(|(archive, name)| lookup(libs, archive, name).is_some())?;
            let stem = &mesh[..mesh.iter().rposition(|&b| b == b'.').unwrap_or(mesh.len())];
            (archive.to_vec(), [stem, b".wea"].concat())
        }
    };
    let (lib, index) = lookup(libs, &archive, &name)?;
    Wear::parse(lib.payload(index).ok()?, Mode::Compatible).ok()
}

/// A MAT0 of `Material.lib` and its phase textures.
fn material_link(libs: &Libraries<'_>, name: &[u8]) -> MaterialLink {
    let mut link = MaterialLink {
        row: String::new(),
        material: entry_text(MATERIAL_LIB, name),
        textures: Vec::new(),
        error: None,
    };
    let mat = lookup(libs, MATERIAL_LIB, name)
        .ok_or_else(|| format!("no entry '{}' in Material.lib", lossy(name)))
        .and_then(|(lib, index)| {
            let e = &lib.entries[index];
            let payload = lib.payload(index).map_err(|e| e.to_string())?;
            Mat0::parse(payload, e.attr1, e.attr2).map_err(|e| e.to_string())
        });
    match mat {
        Ok(mat) => {
            link.textures = mat
                .phases
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.texture().is_empty())
                .map(|(i, p)| (i, entry_text(TEXTURE_LIB, p.texture())))
                .collect();
        }
        Err(e) => link.error = Some(e),
    }
    link
}
