//! The Bevy-free work of each loader phase (tome IV "Фазы loader-а"): read
//! and check everything a mission reaches through the formats crate, and
//! plan the entities to build. Nothing here touches the ECS world, so a
//! failure leaves no trace in it. Every file and entry is read through the
//! game's one [`Source`] (the one the `iron://` asset source serves, when
//! the app has it), so mods apply and each parse is shared with the asset
//! loaders.

use super::MissionPhase;
use super::chain::ResourceChain;
use super::components::{ContactCondition, ControllerStates, StateFoot};
use iron3d_formats::archive::Mode;
use iron3d_formats::config::builddat::BuildDat;
use iron3d_formats::config::ini::{IRON_3D_INI, KeySpec, Settings};
use iron3d_formats::config::text::TextConfig;
use iron3d_formats::error::FormatError;
use iron3d_formats::gamedir::{GameDir, MISSION_FILE, Mission};
use iron3d_formats::graph::{ChainError, Graph, Link};
use iron3d_formats::msh::{Msh, Node38, Pose, SlotFace};
use iron3d_formats::proto::ctld::{
    CLASS_GUN, CONTACT_DESTROYED, CONTACT_INTACT, Ctld, StateRecord,
};
use iron3d_formats::proto::ctpt::Ctpt;
use iron3d_formats::proto::expl::Expl;
use iron3d_formats::proto::ndpr::Ndpr;
use iron3d_formats::proto::ske::Sky;
use iron3d_formats::registry::{EffectiveRef, Geometry, Registry, Resolved};
use iron3d_formats::source::{Found, Source};
use iron3d_formats::terrain::land_map::LandMap;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::tma::{self, ResourceRef, Tma};
use iron3d_formats::unitdat::{PartClass, UnitDat};
use iron3d_formats::wear::Wear;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The mission a loader is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissionRequest {
    pub game_dir: PathBuf,
    /// Name below `MISSIONS`, a mission directory or its `data.tma`; `None`:
    /// the first mission of the install.
    pub mission: Option<String>,
    /// Mod directories layered over the install, later ones winning (the
    /// rules of [`Source`]).
    pub mod_dirs: Vec<PathBuf>,
}

impl MissionRequest {
    /// The first mission of the install at `game_dir`, with no mods.
    pub fn first_of(game_dir: PathBuf) -> Self {
        Self {
            game_dir,
            mission: None,
            mod_dirs: Vec::new(),
        }
    }
}

/// Where a mission's files are on disk (ASCII case-insensitively resolved
/// in the install).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissionFiles {
    /// The mission directory.
    pub dir: PathBuf,
    /// Its `data.tma`.
    pub tma: PathBuf,
    /// The `Land.msh` and `Land.map` its TMA names.
    pub land_msh: PathBuf,
    pub land_map: PathBuf,
}

/// A load failure with the edge of the dependency graph it happened on
/// (tome IV "Диагностика ошибок"): mission -> object -> prototype -> archive
/// -> entry -> cause. The [`ErrorChain`] sits behind one pointer so the
/// loader's `Result`s stay small; its fields read through `Deref`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(Box<ErrorChain>);

/// The links of a [`LoadError`], outermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorChain {
    pub phase: MissionPhase,
    pub mission: String,
    /// `#index 'resource_name'` of the placed object.
    pub object: Option<String>,
    pub prototype: Option<String>,
    pub archive: Option<String>,
    pub entry: Option<String>,
    pub cause: String,
}

impl From<ErrorChain> for LoadError {
    fn from(chain: ErrorChain) -> Self {
        Self(Box::new(chain))
    }
}

impl std::ops::Deref for LoadError {
    type Target = ErrorChain;
    fn deref(&self) -> &ErrorChain {
        &self.0
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mission '{}' ({:?})", self.mission, self.phase)?;
        let links = [
            ("object", &self.object),
            ("prototype", &self.prototype),
            ("archive", &self.archive),
            ("entry", &self.entry),
        ];
        for (what, value) in links {
            if let Some(v) = value {
                write!(f, " -> {what} {v}")?;
            }
        }
        write!(f, ": {}", self.cause)
    }
}

impl std::error::Error for LoadError {}

/// Where in the graph an error happened, filled in as it is known.
#[derive(Debug, Clone, Default)]
struct Edge {
    object: Option<String>,
    prototype: Option<String>,
    archive: Option<String>,
    entry: Option<String>,
}

fn lossy(b: &[u8]) -> String {
    format!("'{}'", String::from_utf8_lossy(b))
}

/// How errors name placed object `index`: `#index 'resource_name'`.
pub(crate) fn object_label(index: usize, resource_name: &[u8]) -> String {
    format!("#{index} {}", lossy(resource_name))
}

/// A component of a placed object, resolved.
#[derive(Debug, Clone)]
pub(crate) struct PartPlan {
    pub index: usize,
    pub parent: Option<usize>,
    pub key: Vec<u8>,
    pub class: Option<PartClass>,
    /// The record's raw attachment word (-1 on a root and on a direct key).
    pub attachment: i32,
    pub resolved: Arc<Resolved>,
}

/// A component as its unit DAT record (or the direct key) names it, before
/// its key is resolved.
struct PartRecord {
    parent: Option<usize>,
    key: Vec<u8>,
    class: Option<PartClass>,
    attachment: i32,
}

/// A design the install offers a factory: a unit DAT, by name.
#[derive(Debug, Clone)]
pub(crate) struct DesignPlan {
    /// The file's stem.
    pub name: String,
    /// Its legacy path below the install.
    pub path: Vec<u8>,
    /// The unit file's Type word.
    pub unit_type: u32,
    pub parts: Vec<PartPlan>,
    /// Its drive, prepared in the resources phase.
    pub drive: Option<super::Drive>,
}

/// Where the install keeps the mission's prebuilt designs and the
/// designer's saved ones (openparkan `docs/38-designs.md`, "The files").
const PREBUILT_DESIGNS: &str = "UNITS\\UNITS\\PREBLD";
const SAVED_DESIGNS: &str = "UNITS";

/// How errors name design `name`.
pub(crate) fn design_label(name: &str) -> String {
    format!("design '{name}'")
}

/// One node of a prepared model.
#[derive(Debug, Clone)]
pub(crate) struct NodePlan {
    pub parent: Option<usize>,
    pub name: Option<Vec<u8>>,
    /// Engine-local rest pose (fallback keys), Z-up.
    pub local: Pose,
    /// The box of its state-0, LOD-0 slot in the node's frame (Z-up
    /// `min`, `max`), when it has one.
    pub bounds: Option<([f32; 3], [f32; 3])>,
    /// The area and volume that slot stores (what the node weighs by).
    pub measures: Option<(f32, f32)>,
    /// That slot's triangles (what a static object collides with).
    pub faces: Vec<SlotFace>,
    /// The node's flag word (`Node38` `+0`): vital, never hidden, ...
    pub flags: u16,
    /// Its damage states ([`Node38::damage_states`]).
    pub damage_states: u8,
}

/// What the resources phase prepared of each prototype: kept after the
/// load, for objects made in play.
#[derive(Default)]
pub(crate) struct Prepared {
    /// Upper-cased prototype key -> its model nodes (empty: no geometry).
    pub models: BTreeMap<Vec<u8>, Arc<Vec<NodePlan>>>,
    /// Upper-cased prototype key -> its checked resource chain.
    pub chains: BTreeMap<Vec<u8>, Arc<ResourceChain>>,
    /// Upper-cased prototype key -> its parsed model, when it has one.
    pub meshes: BTreeMap<Vec<u8>, Arc<Msh>>,
    /// Upper-cased prototype key -> the controller it names (its `part`
    /// set where an object uses it), none when it names none.
    pub(crate) controllers: BTreeMap<Vec<u8>, Option<super::Controller>>,
    /// Upper-cased prototype key -> the controller file it names, whose
    /// components join its objects' drives (absent when it names none).
    pub devices: BTreeMap<Vec<u8>, Arc<Ctld>>,
    /// Upper-cased prototype key -> the `.ndp` node table it names.
    pub damage: BTreeMap<Vec<u8>, Arc<Ndpr>>,
    /// Upper-cased prototype key -> the control points (`.cpt`) it names.
    pub points: BTreeMap<Vec<u8>, Arc<Ctpt>>,
    /// Upper-cased round prototype key -> the round a gun fires.
    pub rounds: BTreeMap<Vec<u8>, Arc<super::RoundSpec>>,
    /// Upper-cased prototype key -> the key of its effect.
    pub part_effects: BTreeMap<Vec<u8>, String>,
    /// Upper-cased prototype key -> the `.exp` key of each `.ndp` row.
    pub explosions: BTreeMap<Vec<u8>, Vec<Option<String>>>,
}

impl Prepared {
    /// The controller of a placed object: its root part's, when its
    /// prototype names one.
    pub(crate) fn controller_of(&self, parts: &[PartPlan]) -> Option<super::Controller> {
        let root = parts.first().filter(|p| p.parent.is_none())?;
        let controller = self.controllers.get(&root.key.to_ascii_uppercase())?;
        Some(super::Controller {
            part: root.index,
            ..controller.clone()?
        })
    }
}

/// Everything the loader has read so far; each phase adds its part.
pub(crate) struct Loader {
    pub request: MissionRequest,
    pub mission_name: String,
    source: Option<Arc<Source>>,
    mission: Option<Mission>,
    /// The mission directory relative to the layer roots.
    pub mission_dir: PathBuf,
    /// Where the TMA was found.
    tma_file: PathBuf,
    pub tma: Option<Tma>,
    land_files: Option<(Found, Found)>,
    pub land: Option<(Arc<LandMsh>, Arc<LandMap>)>,
    pub build_dat: Option<BuildDat>,
    /// The mission directory's `sky.ske`, when it has one, and its
    /// `sky.wea` materials by role.
    pub sky: Option<(Arc<Sky>, BTreeMap<u32, String>)>,
    /// `iron_3d.ini` resolved against its key table (every key at its
    /// default or unset when the install has no such file): the bus
    /// volumes, the difficulty, the render keys it writes.
    pub game_ini: Option<Settings>,
    /// Per placed object, its components in part-tree order.
    pub parts: Vec<Vec<PartPlan>>,
    /// The install's designs, resolved like placed objects.
    pub designs: Vec<DesignPlan>,
    /// Every prototype's prepared data.
    pub prepared: Prepared,
    /// Per placed object, its drive when it has a controller.
    pub drives: Vec<Option<super::Drive>>,
    /// The effects and node explosions read so far.
    pub effects: super::MissionEffects,
}

/// The mission directory's sky and its materials.
const SKY_FILE: &str = "sky.ske";
const SKY_WEAR: &str = "sky.wea";
/// The game's settings, at the install's root (optional).
const GAME_FILE: &str = "iron_3d.ini";

/// What runtime readers accept: retail files with their known quirks.
const MODE: Mode = Mode::Compatible;

impl Loader {
    pub fn new(request: MissionRequest) -> Self {
        let mission_name = request
            .mission
            .clone()
            .unwrap_or_else(|| "(first mission)".into());
        Self {
            request,
            mission_name,
            source: None,
            mission: None,
            mission_dir: PathBuf::new(),
            tma_file: PathBuf::new(),
            tma: None,
            land_files: None,
            land: None,
            build_dat: None,
            sky: None,
            game_ini: None,
            parts: Vec::new(),
            designs: Vec::new(),
            prepared: Prepared::default(),
            drives: Vec::new(),
            effects: Default::default(),
        }
    }

    fn error(&self, phase: MissionPhase, edge: Edge, cause: impl fmt::Display) -> LoadError {
        ErrorChain {
            phase,
            mission: self.mission_name.clone(),
            object: edge.object,
            prototype: edge.prototype,
            archive: edge.archive,
            entry: edge.entry,
            cause: cause.to_string(),
        }
        .into()
    }

    /// The files the context phase found, once it ran.
    pub fn files(&self) -> Option<MissionFiles> {
        let mission = self.mission.as_ref()?;
        let (land_msh, land_map) = self.land_files.as_ref()?;
        Some(MissionFiles {
            dir: mission.dir.clone(),
            tma: self.tma_file.clone(),
            land_msh: land_msh.origin.file().to_path_buf(),
            land_map: land_map.origin.file().to_path_buf(),
        })
    }

    /// Drops the parses the source kept for the load's other readers.
    pub fn release_parsed(self) {
        if let Some(source) = &self.source {
            source.release_parsed();
        }
    }

    /// What every phase reads through.
    pub fn source(&self) -> &Arc<Source> {
        self.source.as_ref().expect("the context phase ran")
    }

    /// Phase 1: the install, the mission directory, its `data.tma`, and the
    /// map it names. `shared` is the app's source (the `iron://` one); it is
    /// used when it layers the request's directories, else the loader opens
    /// its own.
    pub fn context(&mut self, shared: Option<Arc<Source>>) -> Result<(), LoadError> {
        let phase = MissionPhase::Context;
        let err = |s: &Self, e: &dyn fmt::Display| s.error(phase, Edge::default(), e);
        let (game_dir, mod_dirs) = (&self.request.game_dir, &self.request.mod_dirs);
        let source = match shared.filter(|s| s.is_over(game_dir, mod_dirs)) {
            Some(source) => source,
            None => Arc::new(Source::new(game_dir, mod_dirs).map_err(|e| err(self, &e))?),
        };
        let game = GameDir::open(game_dir).map_err(|e| err(self, &e))?;
        let mission = match &self.request.mission {
            Some(name) => game.mission(name),
            None => game.missions().and_then(|m| {
                m.into_iter().next().ok_or_else(|| {
                    iron3d_formats::error::FormatError::missing("game dir", "a mission")
                })
            }),
        }
        .map_err(|e| err(self, &e))?;
        self.mission_name = mission.name.clone();
        let mission_dir = source
            .relative(&mission.dir)
            .unwrap_or(&mission.dir)
            .to_path_buf();
        let found = source
            .read_in_mission(&mission_dir, MISSION_FILE.as_bytes())
            .and_then(|f| f.ok_or_else(|| FormatError::missing("TMA", "the mission's data.tma")))
            .map_err(|e| err(self, &e.in_file(mission.tma.display().to_string())))?;
        let tma =
            tma::parse(found.bytes(), MODE).map_err(|e| err(self, &found.origin.annotate(e)))?;
        let land = land_files(&source, &mission_dir, &tma.land_path).map_err(|e| {
            let edge = Edge {
                entry: Some(lossy(&tma.land_path)),
                ..Edge::default()
            };
            self.error(phase, edge, e)
        })?;
        self.sky = self.read_sky(&source, &mission_dir)?;
        self.land_files = Some(land);
        self.tma = Some(tma);
        self.tma_file = found.origin.file().to_path_buf();
        self.source = Some(source);
        self.mission_dir = mission_dir;
        self.mission = Some(mission);
        Ok(())
    }

    /// The mission directory's `sky.ske` and `sky.wea` (none without a
    /// `sky.ske`; no materials without a `sky.wea`), read strictly: an
    /// error names the file.
    #[allow(clippy::type_complexity)]
    fn read_sky(
        &self,
        source: &Source,
        mission_dir: &Path,
    ) -> Result<Option<(Arc<Sky>, BTreeMap<u32, String>)>, LoadError> {
        let phase = MissionPhase::Context;
        let fail = |file: &str, e: FormatError| {
            let edge = Edge {
                entry: Some(format!("'{file}'")),
                ..Edge::default()
            };
            self.error(phase, edge, e)
        };
        let read = |file: &str| {
            source
                .read_in_mission(mission_dir, file.as_bytes())
                .map_err(|e| fail(file, e))
        };
        let Some(found) = read(SKY_FILE)? else {
            return Ok(None);
        };
        let sky =
            Sky::parse(found.bytes()).map_err(|e| fail(SKY_FILE, found.origin.annotate(e)))?;
        let mut materials = BTreeMap::new();
        if let Some(found) = read(SKY_WEAR)? {
            let wear = Wear::parse(found.bytes(), MODE)
                .map_err(|e| fail(SKY_WEAR, found.origin.annotate(e)))?;
            for row in &wear.materials {
                let role = std::str::from_utf8(&row.legacy_id)
                    .ok()
                    .and_then(|r| r.trim().parse::<u32>().ok());
                let Some(role) = role else {
                    let found = format!("'{}'", lossy(&row.legacy_id));
                    let e = FormatError::invalid("WEAR", 0, "a role number", found);
                    return Err(fail(SKY_WEAR, e));
                };
                materials.insert(role, super::effect_key(b"Material.lib", &row.name));
            }
        }
        Ok(Some((Arc::new(sky), materials)))
    }

    /// Phase 2: `Land.msh`, `Land.map`, `BuildDat.lst` and `iron_3d.ini`
    /// (the subsystems read their own settings files after it).
    pub fn foundation(&mut self) -> Result<(), LoadError> {
        let phase = MissionPhase::Foundation;
        let fail = |e: FormatError| self.error(phase, Edge::default(), e);
        let (msh, map) = self.land_files.as_ref().expect("the context phase ran");
        // The renderer's terrain asset shares this parse.
        let land_msh = msh.parsed(0, |b| LandMsh::parse(b, MODE)).map_err(fail)?;
        let land_map =
            LandMap::parse(map.bytes(), MODE).map_err(|e| fail(map.origin.annotate(e)))?;
        let build = read_required(self.source(), b"BuildDat.lst").map_err(fail)?;
        let build_dat =
            BuildDat::parse(build.bytes(), MODE).map_err(|e| fail(build.origin.annotate(e)))?;
        self.game_ini = Some(self.settings(phase, GAME_FILE, IRON_3D_INI)?);
        self.land = Some((land_msh, Arc::new(land_map)));
        self.build_dat = Some(build_dat);
        Ok(())
    }

    /// The install's settings file `name` resolved against `table` (every
    /// key at its default or unset when there is no such file), read in
    /// `phase`.
    pub(super) fn settings(
        &self,
        phase: MissionPhase,
        name: &'static str,
        table: &[KeySpec],
    ) -> Result<Settings, LoadError> {
        let fail = |e: FormatError| self.error(phase, Edge::default(), e);
        let config = match self.source().read_legacy(name.as_bytes()).map_err(fail)? {
            Some(found) => TextConfig::parse(found.bytes(), name)
                .map_err(|e| fail(found.origin.annotate(e)))?,
            None => TextConfig::parse(b"", name).map_err(fail)?,
        };
        Ok(Settings::resolve(&config, table))
    }

    /// Phase 4: each placed object's component list: a direct key, or the
    /// parts of its unit DAT in part-tree order, resolved in `objects.rlb`.
    pub fn prototypes(&mut self) -> Result<(), LoadError> {
        let phase = MissionPhase::Prototypes;
        let registry_edge = || Edge {
            archive: Some("'objects.rlb'".into()),
            ..Edge::default()
        };
        // The dependency graph of phase 5 shares this parse.
        let registry = iron3d_formats::graph::registry(self.source())
            .map_err(|e| self.error(phase, registry_edge(), e))?;
        let tma = self.tma.as_ref().expect("the context phase ran");
        let mut all = Vec::with_capacity(tma.objects.len());
        for (i, placed) in tma.objects.iter().enumerate() {
            let object = Some(object_label(i, &placed.resource_name));
            all.push(self.part_plans(&registry, placed.resource(), object)?.0);
        }
        self.parts = all;
        let mut designs: Vec<DesignPlan> = Vec::new();
        for (name, path) in self.design_files() {
            if designs.iter().any(|d| d.name.eq_ignore_ascii_case(&name)) {
                continue;
            }
            let object = Some(design_label(&name));
            let (parts, unit_type) =
                self.part_plans(&registry, ResourceRef::UnitDat(&path), object)?;
            designs.push(DesignPlan {
                name,
                path,
                unit_type: unit_type.unwrap_or_default(),
                parts,
                drive: None,
            });
        }
        self.designs = designs;
        Ok(())
    }

    /// The install's designs, by name (the file's stem), in the order a
    /// factory offers them: the prebuilt ones (`UNITS\UNITS\PREBLD`),
    /// then the designs the designer saved (`UNITS`, but for the files the
    /// factory and the designer write for themselves: openparkan
    /// `docs/38-designs.md` "The files").
    fn design_files(&self) -> Vec<(String, Vec<u8>)> {
        let own = |name: &str| {
            let upper = name.to_ascii_uppercase();
            ["BLD_UNIT_", "VIEW_UNIT_", "TEMP_UNIT."]
                .iter()
                .any(|p| upper.starts_with(p))
        };
        let mut found = Vec::new();
        for dir in [PREBUILT_DESIGNS, SAVED_DESIGNS] {
            for file in self.source().files_in(dir.as_bytes()) {
                let cut = file.len().saturating_sub(4);
                let Some(stem) = file
                    .get(cut..)
                    .filter(|ext| ext.eq_ignore_ascii_case(".dat"))
                    .and_then(|_| file.get(..cut))
                    .filter(|stem| !stem.is_empty())
                else {
                    continue;
                };
                if dir == SAVED_DESIGNS && own(&file) {
                    continue;
                }
                found.push((stem.to_string(), format!("{dir}\\{file}").into_bytes()));
            }
        }
        found
    }

    /// The components of an object made from `resource`: a direct key, or
    /// the parts of its unit DAT in part-tree order, each resolved in
    /// `objects.rlb`, with the unit DAT's Type word; an error names
    /// `object`.
    fn part_plans(
        &self,
        registry: &Registry,
        resource: ResourceRef<'_>,
        object: Option<String>,
    ) -> Result<(Vec<PartPlan>, Option<u32>), LoadError> {
        let phase = MissionPhase::Prototypes;
        let mut unit_type = None;
        let specs: Vec<PartRecord> = match resource {
            ResourceRef::Prototype(key) => vec![PartRecord {
                parent: None,
                key: key.to_vec(),
                class: None,
                attachment: -1,
            }],
            ResourceRef::UnitDat(path) => {
                let edge = Edge {
                    object: object.clone(),
                    archive: Some(lossy(path)),
                    ..Edge::default()
                };
                let unit = self
                    .read_unit(path)
                    .map_err(|e| self.error(phase, edge.clone(), e))?;
                unit_type = Some(unit.class_word);
                // A broken tree (compatible mode) keeps the flat records.
                let links = unit.tree().unwrap_or_default();
                unit.parts
                    .iter()
                    .enumerate()
                    .map(|(p, part)| {
                        let parent = links.get(p).and_then(|l| l.parent);
                        PartRecord {
                            parent,
                            key: part.key().to_vec(),
                            class: part.class(),
                            attachment: part.attachment,
                        }
                    })
                    .collect()
            }
        };
        let mut parts = Vec::with_capacity(specs.len());
        for (index, record) in specs.into_iter().enumerate() {
            let PartRecord {
                parent,
                key,
                class,
                attachment,
            } = record;
            let resolved = registry.resolve(&key).map_err(|e| {
                let edge = Edge {
                    object: object.clone(),
                    prototype: Some(lossy(&key)),
                    archive: Some("'objects.rlb'".into()),
                    ..Edge::default()
                };
                self.error(phase, edge, e)
            })?;
            parts.push(PartPlan {
                index,
                parent,
                key,
                class,
                attachment,
                resolved,
            });
        }
        Ok((parts, unit_type))
    }

    fn read_unit(&self, path: &[u8]) -> Result<Arc<UnitDat>, FormatError> {
        let found = self
            .source()
            .read_in_mission(&self.mission_dir, path)?
            .ok_or_else(|| missing_file(self.source(), path))?;
        found.parsed(0, |b| UnitDat::parse(b, MODE))
    }

    /// Phase 5 (tome IV "Resource preparation"): every resource a reached
    /// prototype needs is checked through the formats crate's dependency
    /// graph (MSH, WEAR, the MAT0 of each WEAR row in `Material.lib` and the
    /// Texm of each phase in `Textures.lib`, the lightmaps in `LightMap.lib`,
    /// FXID effects), then its model is read and its rest pose taken.
    pub fn resources(&mut self) -> Result<(), LoadError> {
        let tma = self.tma.take().expect("the context phase ran");
        let parts = std::mem::take(&mut self.parts);
        let source = self.source().clone();
        let graph = Graph::new(&source);
        let result = self.prepare_all(&graph, &tma, &parts);
        self.tma = Some(tma);
        self.parts = parts;
        result
    }

    /// Checks and prepares each distinct prototype once, of the placed
    /// objects, then of the designs; an error carries the first object
    /// that reached it.
    fn prepare_all(
        &mut self,
        graph: &Graph<'_>,
        tma: &Tma,
        parts: &[Vec<PartPlan>],
    ) -> Result<(), LoadError> {
        for (i, object_parts) in parts.iter().enumerate() {
            let placed = &tma.objects[i];
            let object = Some(object_label(i, &placed.resource_name));
            self.prepare_parts(graph, object_parts, &object)?;
            let scale = super::PlacedTransform::of(placed).scale;
            let drive = self.placed_drive(object_parts, scale, &object)?;
            self.drives.push(drive);
        }
        let mut designs = std::mem::take(&mut self.designs);
        let prepared = designs.iter_mut().try_for_each(|design| {
            let object = Some(design_label(&design.name));
            self.prepare_parts(graph, &design.parts, &object)?;
            design.drive = self.placed_drive(&design.parts, [1.0; 3], &object)?;
            Ok(())
        });
        self.designs = designs;
        prepared
    }

    /// [`Self::drive_of`], its error in the load's chain naming `object`.
    fn placed_drive(
        &self,
        parts: &[PartPlan],
        scale: [f32; 3],
        object: &Option<String>,
    ) -> Result<Option<super::Drive>, LoadError> {
        self.drive_of(parts, scale).map_err(|(key, cause)| {
            let edge = Edge {
                object: object.clone(),
                prototype: Some(lossy(key)),
                ..Edge::default()
            };
            self.error(MissionPhase::Resources, edge, cause)
        })
    }

    /// Checks and prepares the prototypes of `parts` not prepared yet.
    fn prepare_parts(
        &mut self,
        graph: &Graph<'_>,
        parts: &[PartPlan],
        object: &Option<String>,
    ) -> Result<(), LoadError> {
        for part in parts {
            let upper = part.key.to_ascii_uppercase();
            if self.prepared.models.contains_key(&upper) {
                continue;
            }
            let checked = graph.prototype(&part.key);
            if let Some(failure) = checked.failures.first() {
                let (edge, cause) = graph_edge(object.clone(), &part.key, failure);
                return Err(self.error(MissionPhase::Resources, edge, cause));
            }
            let nodes =
                prepare(graph, &part.key, &part.resolved).map_err(|(archive, entry, cause)| {
                    let edge = Edge {
                        object: object.clone(),
                        prototype: Some(lossy(&part.key)),
                        archive: Some(lossy(&archive)),
                        entry: Some(lossy(&entry)),
                    };
                    self.error(MissionPhase::Resources, edge, cause)
                })?;
            self.prepared.models.insert(upper.clone(), Arc::new(nodes));
            let chain = ResourceChain::new(&checked, &part.resolved);
            self.prepared.chains.insert(upper.clone(), Arc::new(chain));
            let model = graph.model(&part.key);
            if let Some(msh) = &model {
                self.prepared.meshes.insert(upper.clone(), msh.clone());
            }
            let entry_error = |(r, cause): (EffectiveRef, String)| {
                let edge = Edge {
                    object: object.clone(),
                    prototype: Some(lossy(&part.key)),
                    archive: Some(lossy(&r.archive)),
                    entry: Some(lossy(&r.resource)),
                };
                self.error(MissionPhase::Resources, edge, cause)
            };
            let points = match part.resolved.first_with("cpt") {
                Some(cpt) => Some(self.read_entry(cpt, Ctpt::parse).map_err(entry_error)?),
                None => None,
            };
            let controller = self
                .read_controller(&part.resolved, model.as_deref(), points.as_deref())
                .map_err(entry_error)?;
            let damage = match part.resolved.first_with("ndp") {
                Some(r) => Some(self.read_entry(r, Ndpr::parse).map_err(entry_error)?),
                None => None,
            };
            let (controller, ctld) = controller.unzip();
            self.prepared.controllers.insert(upper.clone(), controller);
            if let Some(ctld) = ctld {
                self.read_rounds(&ctld).map_err(|(round, cause)| {
                    let edge = Edge {
                        object: object.clone(),
                        prototype: Some(lossy(&part.key)),
                        archive: Some("'objects.rlb'".into()),
                        entry: Some(lossy(&round)),
                    };
                    self.error(MissionPhase::Resources, edge, cause)
                })?;
                self.read_program_effects(&part.key, &ctld);
                self.prepared.devices.insert(upper.clone(), ctld);
            }
            if let Some(points) = points {
                self.prepared.points.insert(upper.clone(), points);
            }
            self.read_part_effects(&part.key, &part.resolved, damage.as_deref());
            if let Some(damage) = damage {
                self.prepared.damage.insert(upper, damage);
            }
        }
        Ok(())
    }

    /// The drive of a placed object with a controller, from its parts'
    /// components, node tables and models; an error names the prototype of
    /// the part that does not fit.
    fn drive_of<'a>(
        &self,
        parts: &'a [PartPlan],
        scale: [f32; 3],
    ) -> Result<Option<super::Drive>, (&'a [u8], String)> {
        let Some(controller) = self.prepared.controller_of(parts) else {
            return Ok(None);
        };
        let inputs: Vec<_> = parts
            .iter()
            .map(|plan| {
                let upper = plan.key.to_ascii_uppercase();
                super::drive::PartInputs {
                    plan,
                    components: self
                        .prepared
                        .devices
                        .get(&upper)
                        .map_or(&[][..], |c| &c.components),
                    damage: self.prepared.damage.get(&upper).map(|d| &**d),
                    nodes: self.prepared.models.get(&upper).map_or(&[][..], |m| &m[..]),
                }
            })
            .collect();
        super::drive::assemble(&inputs, scale, controller.params.payload_kg)
            .map(Some)
            .map_err(|(part, cause)| (&parts[part].key[..], cause))
    }
}

impl Loader {
    /// The entry `r` names, parsed strictly (shared with every other
    /// reader of it); an error (the reference and the cause) when it is
    /// missing or malformed.
    fn read_entry<T: std::any::Any + Send + Sync>(
        &self,
        r: &EffectiveRef,
        parse: impl FnOnce(&[u8]) -> Result<T, FormatError>,
    ) -> Result<Arc<T>, (EffectiveRef, String)> {
        let fail = |cause: String| (r.clone(), cause);
        self.source()
            .entry(&r.archive, &r.resource)
            .map_err(|e| fail(e.to_string()))?
            .ok_or_else(|| fail("the entry is missing".into()))?
            .parsed(0, parse)
            .map_err(|e| fail(e.to_string()))
    }

    /// The controller a resolved prototype names, read strictly, its
    /// states' strides measured through the prototype's `model` and their
    /// contacts placed by the first `.cpt` it names (read strictly too),
    /// with the parsed file: `None` when it names none; an error (the reference and
    /// the cause) when the entry is missing or malformed, never a default
    /// body.
    #[allow(clippy::type_complexity)]
    fn read_controller(
        &self,
        resolved: &Resolved,
        model: Option<&Msh>,
        points: Option<&Ctpt>,
    ) -> Result<Option<(super::Controller, Arc<Ctld>)>, (EffectiveRef, String)> {
        let Some(r) = resolved.controller() else {
            return Ok(None);
        };
        let fail = |cause: String| (r.clone(), cause);
        let ctld = self.read_entry(r, Ctld::parse)?;
        let resource = format!(
            "{}::{}",
            String::from_utf8_lossy(&r.archive),
            String::from_utf8_lossy(&r.resource)
        );
        let states = controller_states(&ctld, model, points).map_err(fail)?;
        let controller = super::Controller {
            resource,
            part: 0,
            params: ctld.control(),
            holds_ground: ctld.holds_ground(),
            states: Arc::new(states),
        };
        Ok(Some((controller, ctld)))
    }

    /// Reads the round of every gun of `ctld` not read yet (its `BULL`
    /// prototype in `objects.rlb`: its controller, required, its `.ndp` and
    /// the explosions they name); an error is the round's key and the
    /// cause.
    fn read_rounds(&mut self, ctld: &Ctld) -> Result<(), (Vec<u8>, String)> {
        for gun in ctld.components.iter().filter(|k| k.type_id() == CLASS_GUN) {
            let key = gun.emits().name.name().to_vec();
            let upper = key.to_ascii_uppercase();
            if key.is_empty() || self.prepared.rounds.contains_key(&upper) {
                continue;
            }
            let fail = |cause: String| (key.clone(), cause);
            let registry =
                iron3d_formats::graph::registry(self.source()).map_err(|e| fail(e.to_string()))?;
            let resolved = registry.resolve(&key).map_err(|e| fail(e.to_string()))?;
            let entry_cause = |(r, cause): (EffectiveRef, String)| {
                fail(format!(
                    "{}::{}: {cause}",
                    lossy(&r.archive),
                    lossy(&r.resource)
                ))
            };
            let control = resolved
                .controller()
                .ok_or_else(|| fail("the round names no controller (.ctl)".into()))?;
            let round_ctld = self.read_entry(control, Ctld::parse).map_err(entry_cause)?;
            let ndp = match resolved.first_with("ndp") {
                Some(r) => Some(self.read_entry(r, Ndpr::parse).map_err(entry_cause)?),
                None => None,
            };
            let context = control.archive.clone();
            let source = self.source().clone();
            let reader = super::arms::explosion_reader(&context, |archive, name| {
                read_explosion(&source, archive, name)
            });
            let round =
                super::RoundSpec::read(&key, &round_ctld, ndp.as_deref(), reader).map_err(fail)?;
            for end in [&round.on_hit, &round.at_range] {
                if let super::RoundEnd::Explode(blast) = end {
                    self.effects.read_blast_effects(&source, blast);
                }
            }
            self.prepared.rounds.insert(upper, Arc::new(round));
        }
        Ok(())
    }

    /// The effects a part's controller makes from its effect groups
    /// (a fault of [`super::MissionEffects`] for one that cannot be read).
    fn read_program_effects(&mut self, key: &[u8], ctld: &Ctld) {
        let source = self.source().clone();
        for (archive, entry) in super::programs::named_effects(ctld) {
            self.effects
                .read_effect(&source, &lossy(key), (&archive, &entry));
        }
    }

    /// The effect a part's prototype names and the explosions of its
    /// node table (`damage`), each read once; what cannot be read is a
    /// fault of [`super::MissionEffects`], never a load error.
    fn read_part_effects(&mut self, key: &[u8], resolved: &Resolved, damage: Option<&Ndpr>) {
        let upper = key.to_ascii_uppercase();
        if self.prepared.part_effects.contains_key(&upper)
            || self.prepared.explosions.contains_key(&upper)
        {
            return;
        }
        let source = self.source().clone();
        let origin = lossy(key);
        if let Some(r) = super::effects::prototype_effect(&source, &resolved.refs)
            && self
                .effects
                .read_effect(&source, &origin, (&r.archive, &r.resource))
        {
            let effect = super::effects::effect_key(&r.archive, &r.resource);
            self.prepared.part_effects.insert(upper.clone(), effect);
        }
        let (Some(table), Some(ndp)) = (damage, resolved.first_with("ndp")) else {
            return;
        };
        let keys = table
            .nodes
            .iter()
            .map(|row| {
                let key = super::effects::reference_key(&ndp.archive, &row.explosion)?;
                if self.effects.blasts.contains_key(&key) {
                    return Some(key);
                }
                let (archive, entry) = key.split_once("::")?;
                match read_explosion(&source, archive.as_bytes(), entry.as_bytes()) {
                    Ok(expl) => {
                        let blast = super::Blast::of(key.clone(), archive.as_bytes(), &expl);
                        self.effects.read_blast_effects(&source, &blast);
                        self.effects.blasts.insert(key.clone(), blast);
                        Some(key)
                    }
                    Err(cause) => {
                        self.effects.fault(&origin, &key, &cause);
                        None
                    }
                }
            })
            .collect();
        self.prepared.explosions.insert(upper, keys);
    }
}

/// The loader's edge of a graph failure: the failing entry (the last one of
/// the chain) as archive and entry; the links between the prototype and it
/// (its WEAR, the MAT0, the phase, ...) lead the cause, so the whole chain
/// is kept.
fn graph_edge(object: Option<String>, key: &[u8], failure: &ChainError) -> (Edge, String) {
    let last_entry = failure
        .chain
        .iter()
        .rposition(|l| matches!(l, Link::Entry { .. }));
    let (archive, entry) = match last_entry.map(|i| &failure.chain[i]) {
        Some(Link::Entry { archive, entry }) => {
            (Some(format!("'{archive}'")), Some(format!("'{entry}'")))
        }
        _ => (None, None),
    };
    let via: Vec<String> = failure
        .chain
        .iter()
        .take(last_entry.unwrap_or(0))
        .filter(|l| !matches!(l, Link::Prototype(_)))
        .map(ToString::to_string)
        .collect();
    let cause = if via.is_empty() {
        failure.cause.clone()
    } else {
        format!("via {}: {}", via.join(" -> "), failure.cause)
    };
    let edge = Edge {
        object,
        prototype: Some(lossy(key)),
        archive,
        entry,
    };
    (edge, cause)
}

/// A controller's state graph, typed, each state's strides measured
/// through `model` (none: strides 0); a frame the model cannot play is an
/// error naming the state.
fn controller_states(
    ctld: &Ctld,
    model: Option<&Msh>,
    points: Option<&Ctpt>,
) -> Result<ControllerStates, String> {
    let states: Vec<StateRecord> = (0..ctld.states.len())
        .filter_map(|i| ctld.state(i))
        .collect();
    let stride = |[first, last]: [f32; 2]| -> Result<f32, String> {
        let Some(msh) = model.filter(|m| !m.nodes.node38().is_empty()) else {
            return Ok(0.0);
        };
        let [x, y, z] = msh.node_travel(0, first, last).map_err(|e| e.to_string())?;
        Ok((x * x + y * y + z * z).sqrt())
    };
    let strides = states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let pair = |frames| stride(frames).map_err(|e| format!("state {i}: {e}"));
            Ok([pair(s.frames_a)?, pair(s.frames_b)?])
        })
        .collect::<Result<_, String>>()?;
    // A contact's node: the third word of its control point.
    let node_of = |point: i32| {
        let point = points?.points.get(usize::try_from(point).ok()?)?;
        usize::try_from(point.node).ok()
    };
    let conditions = (0..states.len())
        .map(|i| {
            ctld.contacts(i)
                .iter()
                .flat_map(|k| {
                    let node = node_of(k.point);
                    [(CONTACT_INTACT, true), (CONTACT_DESTROYED, false)]
                        .into_iter()
                        .filter(move |(bit, _)| k.flags & bit != 0)
                        .map(move |(_, intact)| ContactCondition { node, intact })
                })
                .collect()
        })
        .collect();
    let feet = state_feet(ctld, &states, model, points)?;
    Ok(ControllerStates {
        states,
        costs: ctld.costs.clone(),
        strides,
        conditions,
        feet,
    })
}

/// Every state's contacts as feet, each with how far its point stands
/// above its rest height as pair A and pair B end (openparkan
/// `docs/13-control.md`, "A footstep, end to end": the state's last pose
/// against the rest pose); a frame the model cannot play is an error
/// naming the state.
fn state_feet(
    ctld: &Ctld,
    states: &[StateRecord],
    model: Option<&Msh>,
    points: Option<&Ctpt>,
) -> Result<Vec<Vec<StateFoot>>, String> {
    let model = model.filter(|m| !m.nodes.node38().is_empty());
    let rest = model
        .map(Msh::fallback_hierarchy)
        .transpose()
        .map_err(|e| e.to_string())?;
    let point = |index: i32| points?.points.get(usize::try_from(index).ok()?);
    let height = |poses: &[Pose], index: i32| {
        let point = point(index)?;
        let node = poses.get(usize::try_from(point.node).ok()?)?;
        let at = Pose {
            translation: point.position,
            ..Pose::IDENTITY
        };
        Some(node.compose(&at).translation[2])
    };
    let mut feet = Vec::with_capacity(states.len());
    for (i, state) in states.iter().enumerate() {
        let ends = match model {
            Some(m) => {
                let end = |frames: [f32; 2]| {
                    m.sampled_hierarchy(frames[1])
                        .map_err(|e| format!("state {i}: {e}"))
                };
                Some([end(state.frames_a)?, end(state.frames_b)?])
            }
            None => None,
        };
        let contacts = ctld.contacts(i);
        feet.push(
            contacts
                .iter()
                .enumerate()
                .map(|(slot, k)| {
                    let lift = |poses: &[Pose]| {
                        Some(height(poses, k.point)? - height(rest.as_deref()?, k.point)?)
                    };
                    let lift = ends.as_ref().and_then(|[a, b]| Some([lift(a)?, lift(b)?]));
                    StateFoot {
                        slot,
                        node: point(k.point).and_then(|p| usize::try_from(p.node).ok()),
                        group: usize::try_from(k.group).ok(),
                        lift,
                    }
                })
                .collect(),
        );
    }
    Ok(feet)
}

/// The model nodes of prototype `key` from the model the graph's check
/// parsed (none: no geometry); an error names the model's archive and
/// entry.
fn prepare(
    graph: &Graph<'_>,
    key: &[u8],
    resolved: &Resolved,
) -> Result<Vec<NodePlan>, (Vec<u8>, Vec<u8>, String)> {
    let Some(model) = graph.model(key) else {
        return Ok(Vec::new());
    };
    let fail = |cause: String| {
        let (archive, name) = match resolved.geometry() {
            Geometry::Mesh(r) => (r.archive.clone(), r.resource.clone()),
            Geometry::BaseStem { archive, mesh_name } => (archive.to_vec(), mesh_name),
            Geometry::NonGeometric => (Vec::new(), Vec::new()),
        };
        (archive, name, cause)
    };
    let locals = model
        .local_poses(&vec![None; model.nodes.node38().len()])
        .map_err(|e| fail(e.to_string()))?;
    let names = model.node_names().unwrap_or_default();
    let slot = |node: &Node38| {
        node.slot(0, 0)
            .and_then(|s| model.slots.slots.get(usize::from(s)))
    };
    Ok(model
        .nodes
        .node38()
        .iter()
        .zip(locals)
        .enumerate()
        .map(|(n, (node, local))| NodePlan {
            // A parent must come before its child (tome V); a node
            // naming a later one is kept as a root, no hierarchy invented.
            parent: node.parent().filter(|&p| p < n),
            name: names.get(n).cloned().flatten(),
            local,
            bounds: slot(node).map(|slot| (slot.aabb_min, slot.aabb_max)),
            measures: slot(node).map(|slot| (slot.area(), slot.volume())),
            faces: node
                .slot(0, 0)
                .map(|s| model.slot_faces(usize::from(s)))
                .unwrap_or_default(),
            flags: node.hdr0,
            damage_states: node.damage_states(),
        })
        .collect())
}

/// `Land.msh` and `Land.map` of a TMA land path: a map directory, a
/// `Land.msh` file, or a stem (`...\Land`) of both, each looked up below
/// the mission directory first; empty: the mission directory.
fn land_files(
    source: &Source,
    mission_dir: &Path,
    land_path: &[u8],
) -> Result<(Found, Found), FormatError> {
    let mission = mission_dir.as_os_str().as_encoded_bytes();
    let in_mission = |p: &[u8]| [mission, b"/", p].concat();
    let dir = if land_path.is_empty() {
        Some(mission.to_vec())
    } else {
        [in_mission(land_path), land_path.to_vec()]
            .into_iter()
            .find(|p| source.is_dir_legacy(p))
    };
    if let Some(dir) = dir {
        let msh = read_required(source, &[&dir[..], b"/Land.msh"].concat())?;
        let map = read_required(source, &[&dir[..], b"/Land.map"].concat())?;
        return Ok((msh, map));
    }
    let with_msh = [land_path, b".msh"].concat();
    let file = [land_path, &with_msh]
        .into_iter()
        .flat_map(|p| [in_mission(p), p.to_vec()])
        .find(|p| source.is_file_legacy(p))
        .ok_or_else(|| missing_file(source, land_path))?;
    let msh = read_required(source, &file)?;
    // The map beside it, of the same stem.
    let cut = file
        .iter()
        .rposition(|&b| b == b'.')
        .filter(|&dot| !file[dot..].iter().any(|&b| b == b'/' || b == b'\\'));
    let map = [&file[..cut.unwrap_or(file.len())], b".map"].concat();
    Ok((msh, read_required(source, &map)?))
}

/// A legacy path below the layer roots that must be there.
/// Entry `name` of archive `archive` parsed as an explosion (`.exp`),
/// shared with every other reader of it; the cause when it is missing or
/// malformed.
fn read_explosion(source: &Source, archive: &[u8], name: &[u8]) -> Result<Arc<Expl>, String> {
    source
        .entry(archive, name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "the entry is missing".to_string())?
        .parsed(0, Expl::parse)
        .map_err(|e| e.to_string())
}

fn read_required(source: &Source, legacy: &[u8]) -> Result<Found, FormatError> {
    source
        .read_legacy(legacy)?
        .ok_or_else(|| missing_file(source, legacy))
}

/// The error of a file no layer has.
fn missing_file(source: &Source, legacy: &[u8]) -> FormatError {
    FormatError::missing(
        iron3d_formats::gamedir::FORMAT,
        format!("{:?} in any layer", String::from_utf8_lossy(legacy)),
    )
    .in_file(source.game_dir().display().to_string())
}
