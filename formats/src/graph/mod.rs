//! The dependency graph of a mission (tome IV "Сквозная загрузка миссии",
//! tome VII "Cross-resource integration"):
//!
//! ```text
//! mission -> placed object -> direct key | unit DAT -> component key
//!   -> objects.rlb prototype (parents expanded) -> MSH and WEAR
//!   -> WEAR rows -> MAT0 -> phase Texm; WEAR lightmap rows -> LightMap Texm
//!   -> FXID references of the prototype -> their command resources
//! ```
//!
//! Every failing edge gives a [`ChainError`] carrying the whole chain from
//! the mission. Every file and entry is read through a [`Source`] (the
//! install with its mod layers; each entry parsed once, the parse shared
//! with the source's other readers) and every
//! prototype, material and texture is checked once; totals count requests
//! (a prototype used by ten objects counts ten times), as the tome's
//! statistics do. What no mission reaches is checked separately
//! ([`Graph::unreachable`]): a broken unreachable registry entry is global
//! archive health, not a mission failure.

pub mod chain;

pub use chain::{ChainError, Edge, Link};
use chain::{entry, text};

use crate::archive::Mode;
use crate::error::Result;
use crate::fxid::{FXID_TYPE_ID, Fxid};
use crate::gamedir::{GameDir, Mission};
use crate::mat0::MAT0_TYPE_ID;
use crate::msh::Msh;
use crate::registry::{REGISTRY_ARCHIVE, Registry};
use crate::source::{Found, Source};
use crate::texm::Texm;
use crate::tma::ResourceRef;
use crate::unitdat::UnitDat;
use crate::wear::{WEAR_TYPE_ID, Wear};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// The material library every WEAR row is looked up in.
pub const MATERIAL_LIB: &[u8] = b"Material.lib";
/// The texture library of MAT0 phases.
pub const TEXTURE_LIB: &[u8] = b"Textures.lib";
/// The texture library of WEAR lightmap rows.
pub const LIGHTMAP_LIB: &[u8] = b"LightMap.lib";
/// NRes type id of a model (`"MESH"`).
pub const MESH_TYPE_ID: u32 = 0x4853_454D;
/// NRes type id of a texture (`"Texm"`).
pub const TEXM_TYPE_ID: u32 = 0x6D78_6554;

/// Request counts of a graph (or of one prototype).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    pub objects: u64,
    /// Objects naming a unit DAT.
    pub unit_refs: u64,
    /// Objects naming a prototype key directly.
    pub direct_keys: u64,
    /// Parts of the unit DATs.
    pub components: u64,
    /// Prototype requests (direct keys + components).
    pub prototypes: u64,
    /// Requests of prototypes without geometry (a status, not a failure).
    pub non_geometric: u64,
    pub meshes: u64,
    pub wears: u64,
    pub material_slots: u64,
    pub textures: u64,
    pub lightmaps: u64,
    pub effects: u64,
    pub failures: u64,
}

impl std::ops::AddAssign for Totals {
    fn add_assign(&mut self, o: Totals) {
        self.objects += o.objects;
        self.unit_refs += o.unit_refs;
        self.direct_keys += o.direct_keys;
        self.components += o.components;
        self.prototypes += o.prototypes;
        self.non_geometric += o.non_geometric;
        self.meshes += o.meshes;
        self.wears += o.wears;
        self.material_slots += o.material_slots;
        self.textures += o.textures;
        self.lightmaps += o.lightmaps;
        self.effects += o.effects;
        self.failures += o.failures;
    }
}

/// The status of a prototype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    /// No MSH reference and no BASE stem model: a system or logic object.
    NonGeometric,
    Failed,
}

/// A checked prototype: what it resolved to and what failed (chains start at
/// the prototype; [`ChainError::under`] puts them below a parent).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ProtoNode {
    pub key: String,
    pub status: Status,
    /// The prototype and its registry parents, nearest first.
    pub inheritance: Vec<String>,
    /// `archive::entry` of the model.
    pub mesh: Option<String>,
    /// `archive::entry` of the material table.
    pub wear: Option<String>,
    /// FXID entries referenced by the prototype.
    pub effects: Vec<String>,
    /// The material table's rows in file order, each with its MAT0 and
    /// the MAT0's phase textures.
    #[serde(skip)]
    pub materials: Vec<MaterialRow>,
    /// `LightMap.lib::NAME` of each lightmap row of the material table.
    #[serde(skip)]
    pub lightmaps: Vec<String>,
    /// Non-model references whose archive or entry is missing (a warning:
    /// the loader only needs the model and its materials).
    pub missing_refs: Vec<String>,
    /// Counts of one request of this prototype.
    pub totals: Totals,
    #[serde(skip)]
    pub failures: Vec<ChainError>,
}

/// One row of a prototype's material table as the graph walked it.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialRow {
    /// The row's first token (legacy id).
    pub row: String,
    /// `Material.lib::NAME` of the row's MAT0.
    pub material: String,
    /// `Textures.lib::NAME` of each textured phase, by phase index.
    pub textures: Vec<(usize, String)>,
    /// Why the MAT0 could not be read.
    pub error: Option<String>,
}

/// One component of a placed object.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ComponentNode {
    /// Index of the part in its unit DAT (`None` for a direct key).
    pub part: Option<usize>,
    pub description: String,
    pub prototype: ProtoNode,
}

/// One placed object and what it expands to.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ObjectNode {
    pub index: usize,
    pub name: String,
    /// The TMA `resource_name`.
    pub resource: String,
    /// The unit DAT file, when the resource is one and it was found.
    pub unit_file: Option<String>,
    pub components: Vec<ComponentNode>,
}

/// The reachability tree of one mission.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MissionGraph {
    pub mission: String,
    pub totals: Totals,
    pub objects: Vec<ObjectNode>,
    pub failures: Vec<ChainError>,
}

/// Health of the registry entries no mission reaches.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Unreachable {
    /// Entries of `objects.rlb`.
    pub prototypes: u64,
    /// Entries reached by the missions (with their parents).
    pub reachable: u64,
    /// Entries checked here.
    pub checked: u64,
    /// Keys without geometry among them.
    pub non_geometric: Vec<String>,
    /// Failures below `registry objects.rlb` (warnings, not errors).
    pub failures: Vec<ChainError>,
}

/// A MAT0 checked once: its texture requests and failures (chains start at
/// the `Material.lib` entry).
#[derive(Debug, Default)]
struct MaterialCheck {
    textures: u64,
    /// `Textures.lib::NAME` of each textured phase, by phase index.
    phase_textures: Vec<(usize, String)>,
    /// Why the MAT0 could not be read.
    error: Option<String>,
    failures: Vec<ChainError>,
}

/// A texture cache key: library and texture names, upper-cased.
type TextureKey = (Vec<u8>, Vec<u8>);

/// The dependency graph of an install.
pub struct Graph<'s> {
    source: &'s Source,
    registry: std::result::Result<Arc<Registry>, String>,
    prototypes: RefCell<BTreeMap<Vec<u8>, Rc<ProtoNode>>>,
    /// Upper-cased prototype key -> the model its check parsed.
    models: RefCell<BTreeMap<Vec<u8>, Arc<Msh>>>,
    materials: RefCell<BTreeMap<Vec<u8>, Rc<MaterialCheck>>>,
    /// `(library, texture)` upper-cased -> the failure cause, if any.
    textures: RefCell<BTreeMap<TextureKey, Option<String>>>,
    /// Registry indices reached by a walked mission (parents included).
    reached: RefCell<BTreeSet<usize>>,
}

/// The registry of a source, parsed once (shared with its other readers).
pub fn registry(source: &Source) -> Result<Arc<Registry>> {
    source
        .read_legacy(REGISTRY_ARCHIVE)?
        .ok_or_else(|| {
            crate::error::FormatError::missing(
                crate::gamedir::FORMAT,
                format!(
                    "{} in {}",
                    text(REGISTRY_ARCHIVE),
                    source.game_dir().display()
                ),
            )
        })?
        .parsed(0, |b| Registry::parse(b, Mode::Compatible))
}

impl<'s> Graph<'s> {
    /// The graph of an install; `objects.rlb` is read now (a broken registry
    /// fails every prototype edge, with its cause).
    pub fn new(source: &'s Source) -> Self {
        Self {
            source,
            registry: registry(source).map_err(|e| e.to_string()),
            prototypes: RefCell::default(),
            models: RefCell::default(),
            materials: RefCell::default(),
            textures: RefCell::default(),
            reached: RefCell::default(),
        }
    }

    /// What the graph reads through.
    pub fn source(&self) -> &'s Source {
        self.source
    }

    /// Walks one mission.
    pub fn mission(&self, mission: &Mission) -> MissionGraph {
        let root = vec![Link::Mission(mission.name.clone())];
        let mut graph = MissionGraph {
            mission: mission.name.clone(),
            totals: Totals::default(),
            objects: Vec::new(),
            failures: Vec::new(),
        };
        let tma = self.read_at(&mission.tma).and_then(|found| {
            crate::tma::parse(found.bytes(), Mode::Compatible).map_err(|e| found.origin.annotate(e))
        });
        let tma = match tma {
            Ok(tma) => tma,
            Err(e) => {
                graph
                    .failures
                    .push(ChainError::new(root, Edge::Mission, e.to_string()));
                graph.totals.failures = 1;
                return graph;
            }
        };
        for (index, object) in tma.objects.iter().enumerate() {
            let name = if object.instance_name.is_empty() {
                &object.resource_name
            } else {
                &object.instance_name
            };
            let mut node = ObjectNode {
                index,
                name: text(name),
                resource: text(&object.resource_name),
                unit_file: None,
                components: Vec::new(),
            };
            let mut here = root.clone();
            here.push(Link::Object {
                index,
                name: node.name.clone(),
            });
            graph.totals.objects += 1;
            match object.resource() {
                ResourceRef::Prototype(key) => {
                    graph.totals.direct_keys += 1;
                    let proto = self.prototype(key);
                    self.add(&mut graph, &here, &proto);
                    node.components.push(ComponentNode {
                        part: None,
                        description: String::new(),
                        prototype: (*proto).clone(),
                    });
                }
                ResourceRef::UnitDat(path) => {
                    graph.totals.unit_refs += 1;
                    here.push(Link::Unit(text(path)));
                    self.unit(mission, path, &here, &mut graph, &mut node);
                }
            }
            graph.objects.push(node);
        }
        graph.totals.failures = graph.failures.len() as u64;
        graph
    }

    /// Expands a unit DAT into its components.
    fn unit(
        &self,
        mission: &Mission,
        path: &[u8],
        here: &[Link],
        graph: &mut MissionGraph,
        node: &mut ObjectNode,
    ) {
        let fail = |graph: &mut MissionGraph, cause: String| {
            graph
                .failures
                .push(ChainError::new(here.to_vec(), Edge::UnitDat, cause));
        };
        let mission_dir = self.source.relative(&mission.dir).unwrap_or(&mission.dir);
        let found = match self.source.read_in_mission(mission_dir, path) {
            Ok(Some(found)) => found,
            Ok(None) => return fail(graph, "unit DAT not found".into()),
            Err(e) => return fail(graph, format!("unit DAT not readable: {e}")),
        };
        node.unit_file = Some(self.shown(found.origin.file()));
        let unit = match found.parsed(0, |b| UnitDat::parse(b, Mode::Compatible)) {
            Ok(unit) => unit,
            Err(e) => return fail(graph, e.to_string()),
        };
        for (part_index, part) in unit.parts.iter().enumerate() {
            graph.totals.components += 1;
            let description = part.description_text();
            let mut at = here.to_vec();
            at.push(Link::Component {
                index: part_index,
                name: description.clone(),
            });
            let archive = part.archive_name();
            let proto = self.prototype(part.key());
            if !archive.eq_ignore_ascii_case(REGISTRY_ARCHIVE) {
                graph.failures.push(ChainError::new(
                    at.clone(),
                    Edge::Prototype,
                    format!(
                        "the part names archive '{}', not objects.rlb",
                        text(archive)
                    ),
                ));
            }
            self.add(graph, &at, &proto);
            node.components.push(ComponentNode {
                part: Some(part_index),
                description,
                prototype: (*proto).clone(),
            });
        }
    }

    fn add(&self, graph: &mut MissionGraph, prefix: &[Link], proto: &ProtoNode) {
        graph.totals += proto.totals;
        graph
            .failures
            .extend(proto.failures.iter().map(|f| f.under(prefix)));
    }

    /// A path below its layer root, `/`-separated.
    fn shown(&self, path: &Path) -> String {
        shown(self.source, path)
    }

    /// The file at `path` (in a layer root) as the layers give it: a mod's
    /// file at the same place wins.
    fn read_at(&self, path: &Path) -> Result<Found> {
        let rel = self.source.relative(path).unwrap_or(path);
        self.source.read(rel)?.ok_or_else(|| {
            crate::error::FormatError::missing(crate::gamedir::FORMAT, "the file")
                .in_file(path.display().to_string())
        })
    }

    /// Checks a prototype once (cached by upper-cased key).
    pub fn prototype(&self, key: &[u8]) -> Rc<ProtoNode> {
        let cache_key = key.to_ascii_uppercase();
        if let Some(done) = self.prototypes.borrow().get(&cache_key) {
            return done.clone();
        }
        let node = Rc::new(self.check_prototype(key));
        self.prototypes.borrow_mut().insert(cache_key, node.clone());
        node
    }

    /// The model of a prototype as its check parsed it (checking it first);
    /// `None` when it has no geometry or its model did not parse.
    pub fn model(&self, key: &[u8]) -> Option<Arc<Msh>> {
        self.prototype(key);
        self.models.borrow().get(&key.to_ascii_uppercase()).cloned()
    }

    fn check_prototype(&self, key: &[u8]) -> ProtoNode {
        let mut node = ProtoNode {
            key: text(key),
            status: Status::Ok,
            inheritance: Vec::new(),
            mesh: None,
            wear: None,
            effects: Vec::new(),
            materials: Vec::new(),
            lightmaps: Vec::new(),
            missing_refs: Vec::new(),
            totals: Totals {
                prototypes: 1,
                ..Totals::default()
            },
            failures: Vec::new(),
        };
        let here = vec![Link::Prototype(node.key.clone())];
        let fail = |node: &mut ProtoNode, chain: Vec<Link>, edge: Edge, cause: String| {
            node.failures.push(ChainError::new(chain, edge, cause));
        };
        let registry = match &self.registry {
            Ok(r) => r,
            Err(e) => {
                fail(&mut node, here, Edge::Prototype, e.clone());
                return node.finish();
            }
        };
        let resolved = match registry.resolve(key) {
            Ok(r) => r,
            Err(e) => {
                fail(&mut node, here, Edge::Prototype, e.to_string());
                return node.finish();
            }
        };
        {
            let mut reached = self.reached.borrow_mut();
            reached.extend(resolved.chain.iter().filter_map(|k| registry.find(k)));
        }
        node.inheritance = resolved.chain.iter().map(|k| text(k)).collect();

        // The model: the first candidate found in its archive.
        let candidates = resolved.mesh_candidates();
        let explicit_mesh = resolved.mesh().is_some();
        let mut mesh = None;
        let mut first_miss = None;
        for (archive, name) in &candidates {
            match self.find(archive, name) {
                Ok(found) => {
                    mesh = Some((*archive, name.clone(), found));
                    break;
                }
                Err(cause) => {
                    first_miss.get_or_insert((*archive, name.clone(), cause));
                }
            }
        }
        let Some((mesh_archive, mesh_name, mesh_found)) = mesh else {
            match first_miss {
                Some((archive, name, cause)) if explicit_mesh => {
                    node.totals.meshes = 1;
                    let mut chain = here.clone();
                    chain.push(entry(archive, &name));
                    fail(&mut node, chain, Edge::Mesh, cause);
                }
                _ => {
                    node.status = Status::NonGeometric;
                    node.totals.non_geometric = 1;
                }
            }
            self.check_other_refs(&mut node, &here, &resolved.refs);
            return node.finish();
        };
        node.totals.meshes = 1;
        let mesh_link = entry(mesh_archive, &mesh_name);
        node.mesh = Some(mesh_link.to_string());
        let mesh_chain = [here.clone(), vec![mesh_link.clone()]].concat();
        let msh = typed(&mesh_found, MESH_TYPE_ID, "MESH").and_then(|found| {
            let parsed = found.parsed(0, |b| Msh::load(b, Mode::Compatible));
            parsed.map_err(|e| e.to_string())
        });
        let msh = match msh {
            Ok(m) => {
                let upper = key.to_ascii_uppercase();
                self.models.borrow_mut().insert(upper, m.clone());
                Some(m)
            }
            Err(cause) => {
                fail(&mut node, mesh_chain.clone(), Edge::Mesh, cause);
                None
            }
        };

        // The material table: the `.wea` reference, else `<stem>.wea` beside the model.
        node.totals.wears = 1;
        let (wear_archive, wear_name) = match resolved.wear() {
            Some(w) => (w.archive.as_slice(), w.resource.clone()),
            None => (mesh_archive, with_extension(&mesh_name, b"wea")),
        };
        let wear_link = entry(wear_archive, &wear_name);
        node.wear = Some(wear_link.to_string());
        let wear_chain = [here.clone(), vec![wear_link]].concat();
        let wear = self.find(wear_archive, &wear_name).and_then(|found| {
            let parsed = typed(&found, WEAR_TYPE_ID, "WEAR")?
                .parsed(0, |b| Wear::parse(b, Mode::Compatible));
            parsed.map_err(|e| e.to_string())
        });
        let wear = match wear {
            Ok(w) => w,
            Err(cause) => {
                fail(&mut node, wear_chain, Edge::Wear, cause);
                self.check_other_refs(&mut node, &here, &resolved.refs);
                return node.finish();
            }
        };
        if let Some(msh) = &msh
            && let Some((b, batch)) = msh
                .batches
                .iter()
                .enumerate()
                .find(|(_, b)| usize::from(b.material_index) >= wear.materials.len())
        {
            fail(
                &mut node,
                mesh_chain,
                Edge::Wear,
                format!(
                    "batch #{b} uses material row {} but the WEAR has {} rows",
                    batch.material_index,
                    wear.materials.len()
                ),
            );
        }
        for row in &wear.materials {
            node.totals.material_slots += 1;
            let m = self.material(&row.name);
            node.totals.textures += m.textures;
            node.failures
                .extend(m.failures.iter().map(|f| f.under(&wear_chain)));
            node.materials.push(MaterialRow {
                row: text(&row.legacy_id),
                material: entry(MATERIAL_LIB, &row.name).to_string(),
                textures: m.phase_textures.clone(),
                error: m.error.clone(),
            });
        }
        for row in wear.lightmaps.iter().flatten() {
            node.totals.lightmaps += 1;
            node.lightmaps
                .push(entry(LIGHTMAP_LIB, &row.name).to_string());
            if let Some(cause) = self.texture(LIGHTMAP_LIB, &row.name) {
                let mut chain = wear_chain.clone();
                chain.push(entry(LIGHTMAP_LIB, &row.name));
                fail(&mut node, chain, Edge::Lightmap, cause);
            }
        }
        self.check_other_refs(&mut node, &here, &resolved.refs);
        node.finish()
    }

    /// References other than model, table and BASE: FXID effects are parsed
    /// and their command resources checked; others must exist (a warning).
    fn check_other_refs(
        &self,
        node: &mut ProtoNode,
        here: &[Link],
        refs: &[crate::registry::EffectiveRef],
    ) {
        for r in refs {
            if ["msh", "wea", "bas"].iter().any(|e| r.has_extension(e)) {
                continue;
            }
            let link = entry(&r.archive, &r.resource);
            let found = match self.find(&r.archive, &r.resource) {
                Ok(found) => found,
                Err(cause) => {
                    node.missing_refs.push(format!("{link}: {cause}"));
                    continue;
                }
            };
            if found.info.as_ref().map(|i| i.type_id) != Some(FXID_TYPE_ID) {
                continue;
            }
            node.totals.effects += 1;
            node.effects.push(link.to_string());
            let chain = [here.to_vec(), vec![link]].concat();
            let fx = found.parsed(0, Fxid::parse).map_err(|e| e.to_string());
            let fx = match fx {
                Ok(fx) => fx,
                Err(cause) => {
                    node.failures
                        .push(ChainError::new(chain, Edge::Effect, cause));
                    continue;
                }
            };
            for (i, command) in fx.commands.iter().enumerate() {
                let Some(res) = command.resource() else {
                    continue;
                };
                let (archive, name) = (res.archive.name(), res.name.name());
                if archive.is_empty() || name.is_empty() {
                    continue;
                }
                if let Err(cause) = self.find(archive, name) {
                    let mut at = chain.clone();
                    at.extend([Link::Command(i), entry(archive, name)]);
                    node.failures.push(ChainError::new(at, Edge::Effect, cause));
                }
            }
        }
    }

    /// Checks a MAT0 of `Material.lib` once.
    fn material(&self, name: &[u8]) -> Rc<MaterialCheck> {
        let key = name.to_ascii_uppercase();
        if let Some(done) = self.materials.borrow().get(&key) {
            return done.clone();
        }
        let mut check = MaterialCheck::default();
        let here = vec![entry(MATERIAL_LIB, name)];
        let mat = self.find(MATERIAL_LIB, name).and_then(|found| {
            let (attr1, attr2) = mat0_attributes(typed(&found, MAT0_TYPE_ID, "MAT0")?);
            crate::mat0::parse_shared(&found, attr1, attr2).map_err(|e| e.to_string())
        });
        match mat {
            Err(cause) => {
                check.error = Some(cause.clone());
                check
                    .failures
                    .push(ChainError::new(here, Edge::Material, cause));
            }
            Ok(mat) => {
                for (i, phase) in mat.phases.iter().enumerate() {
                    let texture = phase.texture();
                    if texture.is_empty() {
                        continue; // an intentionally untextured phase
                    }
                    check.textures += 1;
                    check
                        .phase_textures
                        .push((i, entry(TEXTURE_LIB, texture).to_string()));
                    if let Some(cause) = self.texture(TEXTURE_LIB, texture) {
                        let mut chain = here.clone();
                        chain.extend([Link::Phase(i), entry(TEXTURE_LIB, texture)]);
                        check
                            .failures
                            .push(ChainError::new(chain, Edge::Texture, cause));
                    }
                }
            }
        }
        let check = Rc::new(check);
        self.materials.borrow_mut().insert(key, check.clone());
        check
    }

    /// Checks a texture of `library` once: `None` when it exists and parses.
    fn texture(&self, library: &[u8], name: &[u8]) -> Option<String> {
        let key = (library.to_ascii_uppercase(), name.to_ascii_uppercase());
        if let Some(done) = self.textures.borrow().get(&key) {
            return done.clone();
        }
        let cause = self
            .find(library, name)
            .and_then(|found| {
                let parsed = typed(&found, TEXM_TYPE_ID, "Texm")?.parsed(0, Texm::parse);
                parsed.map_err(|e| e.to_string())
            })
            .err();
        self.textures.borrow_mut().insert(key, cause.clone());
        cause
    }

    /// An entry of an archive, or why it is not there.
    fn find(&self, archive: &[u8], name: &[u8]) -> std::result::Result<Found, String> {
        match self.source.entry(archive, name) {
            Ok(Some(found)) => Ok(found),
            Ok(None) if self.source.is_file(Path::new(&*text(archive))) => {
                Err(format!("no entry '{}' in {}", text(name), text(archive)))
            }
            Ok(None) => Err(format!(
                "archive not readable: no layer has {}",
                text(archive)
            )),
            Err(e) => Err(format!("archive not readable: {e}")),
        }
    }

    /// Checks every registry entry no walked mission reached.
    pub fn unreachable(&self) -> Unreachable {
        let Ok(registry) = &self.registry else {
            return Unreachable::default();
        };
        let reached = self.reached.borrow().clone();
        let mut out = Unreachable {
            prototypes: registry.prototypes.len() as u64,
            reachable: reached.len() as u64,
            ..Unreachable::default()
        };
        let root = [Link::Registry];
        for (index, proto) in registry.prototypes.iter().enumerate() {
            // Later duplicates of a key are shadowed: lookups never reach them.
            if reached.contains(&index) || registry.find(&proto.key) != Some(index) {
                continue;
            }
            out.checked += 1;
            let node = self.prototype(&proto.key);
            if node.status == Status::NonGeometric {
                out.non_geometric.push(node.key.clone());
            }
            out.failures
                .extend(node.failures.iter().map(|f| f.under(&root)));
        }
        out
    }
}

impl ProtoNode {
    fn finish(mut self) -> Self {
        if !self.failures.is_empty() {
            self.status = Status::Failed;
        }
        self.totals.failures = self.failures.len() as u64;
        self
    }
}

/// `found` when its NRes type id is `type_id` (RsLi rows and loose files
/// carry none and are accepted).
fn typed<'f>(found: &'f Found, type_id: u32, what: &str) -> std::result::Result<&'f Found, String> {
    match found.info.as_ref().map_or(0, |i| i.type_id) {
        0 => Ok(found),
        t if t == type_id => Ok(found),
        t => Err(format!(
            "entry type 0x{t:08x}, expected {what} (0x{type_id:08x})"
        )),
    }
}

/// The MAT0 reader's inputs beside the bytes: the entry's `attr1` (flags)
/// and `attr2` (version); zero for an entry without directory fields.
pub fn mat0_attributes(found: &Found) -> (u32, u32) {
    found.info.as_ref().map_or((0, 0), |i| (i.attr1, i.attr2))
}

/// `name` with its extension replaced (or added).
fn with_extension(name: &[u8], ext: &[u8]) -> Vec<u8> {
    let stem = name
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(name, |dot| &name[..dot]);
    [stem, b".", ext].concat()
}

/// A path below its layer root, `/`-separated (the full path otherwise).
fn shown(source: &Source, path: &Path) -> String {
    match source.relative(path) {
        Some(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        None => path.display().to_string(),
    }
}

/// Walks one mission of the install at `root` (by any spelling
/// [`GameDir::mission`] accepts).
pub fn mission_graph(root: &std::path::Path, mission: &str) -> Result<MissionGraph> {
    let mission = GameDir::open(root)?.mission(mission)?;
    let source = Source::new(root, &[])?;
    Ok(Graph::new(&source).mission(&mission))
}
