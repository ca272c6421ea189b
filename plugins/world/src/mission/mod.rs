//! Staged mission loading (tome IV "Фазы loader-а", "Создание мира") as
//! Bevy states, one phase per frame (resource preparation as many as its
//! [`ResourceGate`] holds it):
//!
//! context -> foundation -> description -> prototypes -> resources ->
//! construction -> registration -> running
//!
//! Phases up to resource preparation only read and check files (through the
//! game's one `Source`, shared with the `iron://` asset source, and the
//! formats crate's dependency graph) and touch no entity. Resource
//! preparation then waits, as long as it takes, for the work other plugins
//! registered in the [`ResourceGate`] (the renderer's asset loads; they read
//! the resolved prototypes from [`PlannedObjects`]); a failure reported
//! there ends the load like any other. Construction
//! spawns each placed object's hierarchy (root, one child per part in
//! part-tree order, placed on its socket as [`mounts_on_node`] says, the
//! model's nodes under each part) without registering it; registration then adds every root to
//! the [`ObjectRegistry`](crate::ObjectRegistry) at once. A failure in any
//! phase before registration despawns what construction built, leaves the
//! registry untouched and keeps the [`LoadError`] with its full chain in
//! [`LoadProgress`]. The simulation phases are gated: the first tick runs
//! only in [`MissionPhase::Running`] (or [`MissionPhase::Idle`], when no
//! mission was asked for).

mod arms;
mod built;
mod chain;
mod clans;
mod components;
mod drive;
mod effects;
mod gate;
mod load;
mod mount;
mod programs;
mod readers;
mod rng;
mod session;

pub use arms::{
    AimAxis, Armament, Armour, Barrel, Blast, GunSpec, HitModel, HitNode, NODE_NEVER_HIDDEN,
    NODE_VITAL, NodeStage, RoundEnd, RoundSpec, SURFACE_MACHINE, Seeker, TurretSpec,
};
pub(crate) use built::spawn_built_as;
pub use built::{Blueprints, Built, Design, next_id, spawn_built};
pub use chain::{PartResources, ResourceChain};
pub use clans::{ClanRelations, Relation};
pub use components::{
    AnimatedModel, BodyBounds, ContactCondition, Controller, ControllerStates, Destroyed, Drive,
    EngineEffect, EngineRef, Hero, InstanceName, LevelRatio, Locality, MissionObject, ModelNode,
    ModelState, NodeLife, NodeRef, ObjectClan, ObjectKind, ObjectState, PartNodes, PhysicalFace,
    PhysicalModel, PlacedTransform, PropertyBag, PrototypeChain, PrototypeKey, RadarRef,
    ShieldSpec, SocketMount, StateFoot, UnitPartInfo, z_up_to_y_up,
};
pub use effects::{MissionEffects, effect_key, reference_key};
pub use gate::{GateFailure, ResourceGate};
pub use iron3d_formats::graph::MaterialRow;
pub use iron3d_formats::proto::ctld::SHIELD_SECTORS;
pub use load::{ErrorChain, LoadError, MissionFiles, MissionRequest};
pub use mount::node_to_bevy;
pub use programs::{EffectAction, EffectDoes, EffectGroup, EffectPrograms, Trigger};
pub use readers::{MissionReader, MissionReaderExt, ReadContext};
pub use rng::{Draws, RngStreams, fraction};
pub use session::{
    LoadedMission, MissionChange, MissionCommand, MissionScopeExt, MissionScoped, StartOrders,
    unload,
};

use crate::save::AppSaveExt;
use crate::{ObjectRegistry, OriginalObjectId};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use iron3d_formats::config::ini::{Settings, level_ratio};
use iron3d_formats::proto::ctld::Component;
use iron3d_formats::terrain::land_map::LandMap;
use iron3d_formats::terrain::route::{NavGraph, Navigator};
use iron3d_formats::tma::{
    Clan, HERO_TYPE, HQ_TYPE, MissionPath, PlacedObject, Property, PropertyValue, Tma, WARRIOR_TYPE,
};
use iron3d_formats::unitdat::CLASS_ROBOT;
use iron3d_schedules::{AppStateHashExt, Phase};
use load::{Loader, Prepared};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The loader phases of tome IV, then running (or failed).
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MissionPhase {
    /// No mission asked for: an empty world that simulates.
    #[default]
    Idle,
    /// Install, mission directory, `data.tma`, the map it names.
    Context,
    /// `Land.msh`, `Land.map`, `BuildDat.lst`.
    Foundation,
    /// Paths, clans and placed objects published; ids assigned.
    Description,
    /// Direct keys and unit DATs resolved in `objects.rlb`.
    Prototypes,
    /// Every reached MSH, WEAR, MAT0, texture, lightmap and effect checked;
    /// models read; then the [`ResourceGate`] waited for.
    Resources,
    /// Entities built, not registered.
    Construction,
    /// Every object added to the registry.
    Registration,
    /// The simulation runs.
    Running,
    /// Loading stopped before registration; see [`LoadProgress::error`].
    Failed,
}

impl MissionPhase {
    /// The loading phases in order.
    pub const LOADING: [MissionPhase; 7] = [
        MissionPhase::Context,
        MissionPhase::Foundation,
        MissionPhase::Description,
        MissionPhase::Prototypes,
        MissionPhase::Resources,
        MissionPhase::Construction,
        MissionPhase::Registration,
    ];

    fn next(self) -> MissionPhase {
        let at = Self::LOADING.iter().position(|&p| p == self);
        at.and_then(|i| Self::LOADING.get(i + 1))
            .copied()
            .unwrap_or(MissionPhase::Running)
    }
}

/// Loading progress for a loading screen and for reports.
#[derive(Resource, Debug, Clone, Default)]
pub struct LoadProgress {
    /// The mission name below `MISSIONS` once known.
    pub mission: String,
    /// Wall time of each finished phase, in order.
    pub timings: Vec<(MissionPhase, Duration)>,
    pub objects_total: usize,
    pub parts: usize,
    pub nodes: usize,
    /// Objects registered.
    pub registered: usize,
    /// Frames resource preparation waited on the [`ResourceGate`] after
    /// its own checks (0 when nothing was registered there).
    pub waited_frames: u32,
    pub error: Option<LoadError>,
}

/// The mission's routes, by stored id order of the file.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionPaths(pub Vec<MissionPath>);

/// The mission's terrain, `Land.msh` as the loader read it (shared with
/// the renderer's terrain asset), published in the description phase:
/// Control builds the ground from it.
#[derive(Resource, Debug, Clone)]
pub struct MissionLand(pub Arc<iron3d_formats::terrain::land_msh::LandMsh>);

/// The mission's sky, its `sky.ske` as the loader read it (published in
/// the description phase; none when the mission directory has none): the
/// renderer draws its day cycle.
#[derive(Resource, Debug, Clone)]
pub struct MissionSky {
    pub sky: Arc<iron3d_formats::proto::ske::Sky>,
    /// The sky's materials by their role in `sky.wea` (its row's number:
    /// 0 nebula, 1 stars, 2 clouds, 3 sun, 4 moon, 5 and 6 the flare, 7
    /// snow, 8 rain), each a `MATERIAL.LIB::NAME` key; empty without a
    /// `sky.wea`.
    pub materials: std::collections::BTreeMap<u32, String>,
}

/// `sky.wea` roles.
pub const SKY_SUN: u32 = 3;
pub const SKY_MOON: u32 = 4;
pub const SKY_FLARE: [u32; 2] = [5, 6];

/// The mission's areal map, `Land.map` as the loader read it, with its
/// route graph, published in the description phase: Behavior plans its
/// routes over it.
#[derive(Resource, Debug, Clone)]
pub struct MissionArealMap {
    pub map: Arc<LandMap>,
    graph: Arc<NavGraph>,
}

impl MissionArealMap {
    /// The map and its graph.
    pub fn new(map: Arc<LandMap>) -> Self {
        let graph = Arc::new(NavGraph::new(&map));
        Self { map, graph }
    }

    /// Route search and point lookup over the map.
    pub fn navigator(&self) -> Navigator<'_> {
        Navigator::with_graph(&self.map, &self.graph)
    }
}

/// The mission's clans in file order.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionClans(pub Vec<Clan>);

/// The running mission as the loader read it, published once in the
/// description phase: its files and its whole TMA (every record, property
/// and unknown byte). Readers take the mission from here, never from the
/// install again.
#[derive(Resource, Debug, Clone)]
pub struct MissionDescription {
    /// The mission name below `MISSIONS`.
    pub name: String,
    /// Where its files were found (in a mod directory when one overrides
    /// them).
    pub files: MissionFiles,
    /// The mod directories over the install, later ones winning.
    pub mod_dirs: Vec<std::path::PathBuf>,
    pub tma: Arc<Tma>,
}

/// The original ids of the placed objects, in TMA order.
#[derive(Resource, Debug, Clone, Default)]
struct AssignedIds(Vec<OriginalObjectId>);

/// One placed object (or design) as the prototypes phase resolved it.
#[derive(Debug, Clone)]
pub struct PlannedObject {
    /// `#index 'resource_name'` (`design 'name'`), as errors name the
    /// object.
    pub label: String,
    /// Its components in part-tree order.
    pub parts: Vec<PrototypeChain>,
}

/// The placed objects resolved by the prototypes phase, in TMA order, then
/// the install's designs,
/// published read-only for plugins preparing resources (from
/// [`MissionPhase::Resources`] until construction is done).
#[derive(Resource, Debug, Clone, Default)]
pub struct PlannedObjects(pub Vec<PlannedObject>);

/// Roots built by construction, waiting for registration.
#[derive(Resource, Debug, Clone, Default)]
struct PendingObjects(Vec<(OriginalObjectId, Entity)>);

/// The loader's state between phases (not part of the game state).
#[derive(Resource)]
struct MissionLoader(Loader);

/// Mission loading. With a request it starts at [`MissionPhase::Context`];
/// without, the world stays [`MissionPhase::Idle`] and simulates empty.
#[derive(Debug, Clone, Default)]
pub struct MissionPlugin {
    pub request: Option<MissionRequest>,
    /// Seed of the named random streams.
    pub seed: u64,
}

impl Plugin for MissionPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<StatesPlugin>() {
            app.add_plugins(StatesPlugin);
        }
        app.init_resource::<LoadProgress>()
            .init_resource::<ResourceGate>()
            .init_resource::<MissionPaths>()
            .init_resource::<MissionClans>()
            .insert_resource(RngStreams::new(self.seed))
            .register_type::<Drive>()
            .register_type::<NodeLife>()
            .add_state_hash("rng_streams", rng::hash_streams)
            .add_state_hash("node_life", drive::hash_node_life)
            .save_resource::<RngStreams>("rng_streams")
            .save_checked_object_component::<NodeLife>("node_life")
            .save_object_component::<ObjectClan>("object_clans")
            .save_object_component::<PropertyBag>("object_properties")
            .save_object_component::<Destroyed>("destroyed");
        match &self.request {
            Some(request) => {
                app.insert_resource(MissionLoader(Loader::new(request.clone())))
                    .insert_resource(LoadedMission(request.clone()))
                    .insert_state(MissionPhase::Context);
            }
            None => {
                app.init_state::<MissionPhase>();
            }
        }
        session::plugin(app);
        for phase in MissionPhase::LOADING {
            app.add_systems(OnEnter(phase), move |world: &mut World| {
                run_phase(world, phase)
            });
        }
        // The gate is read once the frame's other work (asset loads
        // reported by other plugins) is done.
        app.add_systems(
            Last,
            await_gate
                .run_if(resource_exists::<gate::AwaitingGate>)
                .in_set(Phase::EndFrameCallbacks),
        )
        .add_systems(OnExit(MissionPhase::Resources), gate::clear_gate);
        for phase in Phase::SIMULATION {
            app.configure_sets(FixedUpdate, phase.run_if(simulation_may_run));
        }
    }
}

/// A headless app asked to load `request`: `MinimalPlugins`, the spine,
/// [`WorldPlugin`](crate::WorldPlugin) and [`MissionPlugin`], one fixed step
/// per update (for tests and benchmarks; the game composes its own).
pub fn headless_app(request: Option<MissionRequest>, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        iron3d_schedules::SpinePlugin::default(),
        crate::WorldPlugin,
        MissionPlugin { request, seed },
    ))
    .insert_resource(bevy::time::TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// Most frames a mission load may take (one per loader phase, plus slack).
const MAX_LOAD_FRAMES: usize = 64;

/// Updates an app until its mission runs (at once when it has none and no
/// change of mission waits), and returns the loading progress; a failed or
/// unfinished load is the error.
pub fn update_until_loaded(app: &mut App) -> Result<LoadProgress, LoadError> {
    for _ in 0..MAX_LOAD_FRAMES {
        let phase = *app.world().resource::<State<MissionPhase>>().get();
        let progress = app.world().resource::<LoadProgress>();
        let changing = app.world().resource::<MissionChange>().pending().is_some()
            || !matches!(
                app.world().resource::<NextState<MissionPhase>>(),
                NextState::Unchanged
            );
        if changing {
            app.update();
            continue;
        }
        match phase {
            MissionPhase::Idle | MissionPhase::Running => return Ok(progress.clone()),
            MissionPhase::Failed => {
                if let Some(error) = &progress.error {
                    return Err(error.clone());
                }
            }
            _ => {}
        }
        app.update();
    }
    let progress = app.world().resource::<LoadProgress>();
    Err(ErrorChain {
        phase: *app.world().resource::<State<MissionPhase>>().get(),
        mission: progress.mission.clone(),
        object: None,
        prototype: None,
        archive: None,
        entry: None,
        cause: format!("loading did not finish in {MAX_LOAD_FRAMES} frames"),
    }
    .into())
}

/// The simulation runs with no mission, or once the mission is registered.
pub fn simulation_may_run(state: Option<Res<State<MissionPhase>>>) -> bool {
    state.is_none_or(|s| matches!(s.get(), MissionPhase::Idle | MissionPhase::Running))
}

/// Runs one loader phase, times it and moves to the next phase (or to
/// `Failed`, undoing construction). Resource preparation whose checks
/// passed waits on the gate instead ([`await_gate`]).
fn run_phase(world: &mut World, phase: MissionPhase) {
    let start = Instant::now();
    let outcome = match phase {
        MissionPhase::Construction => construct(world),
        MissionPhase::Registration => register(world),
        _ => with_loader(world, phase),
    };
    if phase == MissionPhase::Resources && outcome.is_ok() {
        world.insert_resource(gate::AwaitingGate { start });
        // The wait may end this very frame, as a phase without it does.
        return;
    }
    finish_phase(world, phase, start, outcome);
}

/// While resource preparation waits: on to construction once the gate is
/// empty, to `Failed` on a reported failure.
fn await_gate(world: &mut World) {
    let mission = world.resource::<LoadProgress>().mission.clone();
    let outcome = match gate::poll_gate(world, mission) {
        gate::GateOutcome::Waiting => {
            world.resource_mut::<LoadProgress>().waited_frames += 1;
            return;
        }
        gate::GateOutcome::Open => Ok(()),
        gate::GateOutcome::Failed(error) => Err(error),
    };
    let waited = world
        .remove_resource::<gate::AwaitingGate>()
        .expect("run only while waiting");
    finish_phase(world, MissionPhase::Resources, waited.start, outcome);
}

/// Records the time of a phase begun at `start` and sets the next phase
/// (or `Failed`, keeping the error and undoing construction).
fn finish_phase(
    world: &mut World,
    phase: MissionPhase,
    start: Instant,
    outcome: Result<(), LoadError>,
) {
    let elapsed = start.elapsed();
    world
        .resource_mut::<LoadProgress>()
        .timings
        .push((phase, elapsed));
    let next = match outcome {
        Ok(()) => phase.next(),
        Err(error) => {
            world.resource_mut::<LoadProgress>().error = Some(error);
            undo_construction(world);
            MissionPhase::Failed
        }
    };
    if matches!(next, MissionPhase::Running | MissionPhase::Failed)
        && let Some(MissionLoader(loader)) = world.remove_resource::<MissionLoader>()
    {
        // Every reader of the load (the renderer's assets included: the
        // gate waited for them) holds what it took; the source keeps none.
        loader.release_parsed();
    }
    world.resource_mut::<NextState<MissionPhase>>().set(next);
}

/// The file-reading phases: the loader works outside the world.
fn with_loader(world: &mut World, phase: MissionPhase) -> Result<(), LoadError> {
    let Some(MissionLoader(mut loader)) = world.remove_resource::<MissionLoader>() else {
        return Ok(());
    };
    let result = match phase {
        MissionPhase::Context => {
            let shared = world.get_resource::<iron3d_assets::IronSourceHandle>();
            loader.context(shared.map(|s| s.0.clone()))
        }
        MissionPhase::Foundation => loader.foundation(),
        MissionPhase::Description => {
            describe(world, &loader);
            Ok(())
        }
        MissionPhase::Prototypes => loader.prototypes().inspect(|()| {
            world.insert_resource(planned_objects(&loader));
        }),
        MissionPhase::Resources => loader.resources(),
        _ => Ok(()),
    }
    .and_then(|()| readers::run_readers(world, &loader, phase));
    let mut progress = world.resource_mut::<LoadProgress>();
    progress.mission = loader.mission_name.clone();
    progress.parts = loader.parts.iter().map(Vec::len).sum();
    world.insert_resource(MissionLoader(loader));
    result
}

/// The resolved placed objects the loader holds after phase 4, then the
/// install's designs (what objects made in play will draw).
fn planned_objects(loader: &Loader) -> PlannedObjects {
    let Some(tma) = &loader.tma else {
        return PlannedObjects::default();
    };
    let chains = |parts: &[load::PartPlan]| {
        parts
            .iter()
            .map(|p| PrototypeChain(p.resolved.clone()))
            .collect()
    };
    let placed = tma
        .objects
        .iter()
        .zip(&loader.parts)
        .enumerate()
        .map(|(i, (placed, parts))| PlannedObject {
            label: load::object_label(i, &placed.resource_name),
            parts: chains(parts),
        });
    let designs = loader.designs.iter().map(|d| PlannedObject {
        label: load::design_label(&d.name),
        parts: chains(&d.parts),
    });
    PlannedObjects(placed.chain(designs).collect())
}

/// Phase 3: paths and clans become resources; each placed object gets its
/// original id.
fn describe(world: &mut World, loader: &Loader) {
    let Some(tma) = &loader.tma else { return };
    if let Some(files) = loader.files() {
        world.insert_resource(MissionDescription {
            name: loader.mission_name.clone(),
            files,
            mod_dirs: loader.request.mod_dirs.clone(),
            tma: Arc::new(tma.clone()),
        });
    }
    if let Some((land, areals)) = &loader.land {
        world.insert_resource(MissionLand(land.clone()));
        world.insert_resource(MissionArealMap::new(areals.clone()));
    }
    if let Some((sky, materials)) = &loader.sky {
        world.insert_resource(MissionSky {
            sky: sky.clone(),
            materials: materials.clone(),
        });
    }
    world.insert_resource(MissionPaths(tma.paths.clone()));
    world.insert_resource(MissionClans(tma.clans.clone()));
    let ids = tma
        .original_ids()
        .into_iter()
        .map(OriginalObjectId)
        .collect();
    world.insert_resource(AssignedIds(ids));
    world.resource_mut::<LoadProgress>().objects_total = tma.objects.len();
}

/// What an object fights and sees with and where it is struck.
struct Arms {
    armament: Armament,
    hits: HitModel,
    armour: Option<Armour>,
    radar: Option<RadarRef>,
    shield: Option<ShieldSpec>,
    programs: EffectPrograms,
}

/// An object's guns and turrets, where it can be struck, its armour, its
/// radar and its shield, from its parts' models, controllers (clips and other fitted
/// parts in their slots), control points and node tables.
fn arms_of(
    prepared: &Prepared,
    parts: &[load::PartPlan],
    frames: &[(Transform, Option<usize>)],
    (scale, level): ([f32; 3], f32),
) -> Arms {
    // Node life = .ndp HP × volume scale × level ratio (docs/26).
    let inputs: Vec<arms::PartArms<'_>> = parts
        .iter()
        .map(|plan| {
            let upper = plan.key.to_ascii_uppercase();
            arms::PartArms {
                plan,
                nodes: prepared.models.get(&upper).map_or(&[][..], |m| &m[..]),
                ctld: prepared.devices.get(&upper).map(|c| &**c),
                points: prepared.points.get(&upper).map(|c| &**c),
                damage: prepared.damage.get(&upper).map(|d| &**d),
                effect: prepared.part_effects.get(&upper).map(String::as_str),
                explosions: prepared.explosions.get(&upper).map_or(&[][..], |e| &e[..]),
            }
        })
        .collect();
    // A missing slot fails the mission through the drive (a machine's);
    // here such a part brings nothing.
    let own: Vec<(&load::PartPlan, &[Component])> = inputs
        .iter()
        .map(|p| (p.plan, p.ctld.map_or(&[][..], |c| &c.components[..])))
        .collect();
    let (components, _) = drive::fitted(&own);
    let volume_scale = (scale[0] * scale[1] * scale[2]).abs();
    let life_scale = volume_scale * level;
    let (armament, hits) =
        arms::assemble(&inputs, &components, frames, &prepared.rounds, life_scale);
    Arms {
        armament,
        hits,
        armour: arms::armour(&inputs),
        radar: drive::radar(&components),
        // The ratio scales a shield's sectors too (docs/26).
        shield: drive::shield(&components).map(|spec| ShieldSpec {
            sector_max: spec.sector_max * level,
            ..spec
        }),
        programs: programs::assemble(&inputs, frames),
    }
}

/// Who takes the difficulty ratio (openparkan `docs/26-damage.md`, "The
/// difficulty ratio", read): every warrior, HQ and hero (a robot `Type`
/// with the [`WARRIOR_TYPE`], [`HQ_TYPE`] or [`HERO_TYPE`] bit) of a clan
/// not allied with the player's clan. The original also gives it to such
/// units created after the load; ours creates none after it. With no
/// player clan nobody is allied with it.
struct Difficulty {
    ratio: f32,
    player: Option<usize>,
    relations: ClanRelations,
}

impl Difficulty {
    fn new(tma: &Tma, game_ini: Option<&Settings>) -> Self {
        Self {
            ratio: game_ini.map_or(1.0, level_ratio),
            // STAND-IN: the player's clan is the first player clan, none
            // allied without one (docs/26 "The difficulty ratio" says "the
            // player's"); settled by a retail mission with two player clans.
            player: tma.player_clan(),
            relations: ClanRelations::from_clans(&tma.clans),
        }
    }

    /// The ratio `placed` takes, if it takes one.
    fn of(&self, placed: &PlacedObject) -> Option<f32> {
        let type_word = match placed.property(b"Type").map(Property::value) {
            Some(PropertyValue::Int { value, .. }) => value as u32,
            _ => return None,
        };
        // STAND-IN: a robot-class word with bit `0x8000`, `0x10000` or
        // `0x20000` (docs/26 gives the whole words `0x1008000`, `0x1010000`,
        // `0x1020000`); settled by reading the loader's type test.
        let fights = type_word & (WARRIOR_TYPE | HQ_TYPE | HERO_TYPE) != 0;
        let clan = placed.identity as usize;
        let allied = self
            .player
            .is_some_and(|p| self.relations.between(p, clan) == Some(Relation::Allied));
        (type_word & CLASS_ROBOT != 0 && fights && !allied).then_some(self.ratio)
    }
}

/// Phase 6: every object's hierarchy, spawned but not registered; the
/// prepared prototypes and designs stay for objects made in play.
fn construct(world: &mut World) -> Result<(), LoadError> {
    let Some(MissionLoader(mut loader)) = world.remove_resource::<MissionLoader>() else {
        return Ok(());
    };
    world.remove_resource::<PlannedObjects>();
    world.insert_resource(loader.effects.clone());
    let ids = world.remove_resource::<AssignedIds>().unwrap_or_default().0;
    let prepared = Arc::new(std::mem::take(&mut loader.prepared));
    let mut pending = Vec::new();
    let (mut parts, mut nodes) = (0, 0);
    if let Some(tma) = &loader.tma {
        let hero = tma.hero();
        let difficulty = Difficulty::new(tma, loader.game_ini.as_ref());
        for (index, ((placed, id), object_parts)) in
            tma.objects.iter().zip(&ids).zip(&loader.parts).enumerate()
        {
            let spec = ObjectSpec {
                placed,
                index: Some(index),
                parts: object_parts,
                drive: loader.drives.get(index).and_then(Option::as_ref),
                level: difficulty.of(placed),
            };
            let spawned = spawn_object(world, &prepared, &spec, *id);
            if hero == Some(index) {
                world.entity_mut(spawned.root).insert(Hero);
            }
            parts += spawned.parts;
            nodes += spawned.nodes;
            pending.push((*id, spawned.root));
        }
        world.insert_resource(built::Blueprints::new(
            prepared,
            std::mem::take(&mut loader.designs),
            difficulty,
        ));
    }
    let mut progress = world.resource_mut::<LoadProgress>();
    progress.parts = parts;
    progress.nodes = nodes;
    world.insert_resource(PendingObjects(pending));
    Ok(())
}

/// What one object is made of: its record (placed, or made for an object
/// made in play), its resolved parts and drive, and its difficulty ratio.
struct ObjectSpec<'a> {
    placed: &'a PlacedObject,
    /// Its record's index in the TMA; none for an object made in play.
    index: Option<usize>,
    parts: &'a [load::PartPlan],
    drive: Option<&'a Drive>,
    level: Option<f32>,
}

/// What [`spawn_object`] spawned: the root and how many parts and nodes.
struct Spawned {
    root: Entity,
    parts: usize,
    nodes: usize,
}

/// Spawns one object's hierarchy with id `id` (not registered): the root
/// with its record's components, controller, drive, arms and bounds, one
/// child per part in part-tree order placed on its socket, the model's
/// nodes under each part.
fn spawn_object(
    world: &mut World,
    prepared: &Prepared,
    spec: &ObjectSpec<'_>,
    id: OriginalObjectId,
) -> Spawned {
    let ObjectSpec {
        placed,
        index,
        parts: object_parts,
        drive,
        level,
    } = *spec;
    let placed_transform = PlacedTransform::of(placed);
    let instance = InstanceName::of(placed);
    let prototype = String::from_utf8_lossy(&placed.resource_name).into_owned();
    let root = world
        .spawn((
            Name::new(format!("{:#010x} {} ({prototype})", id.raw(), instance.0)),
            instance,
            id,
            MissionObject { index },
            ObjectKind {
                raw: placed.raw_kind,
            },
            PropertyBag(placed.properties.clone()),
            ObjectClan {
                identity_raw: placed.identity,
                clan_id: PropertyBag(placed.properties.clone()).int("ClanID"),
            },
            PrototypeKey(placed.resource_name.clone()),
            placed_transform,
            placed_transform.to_bevy(),
            ObjectState::default(),
            ModelState::default(),
            Locality::Local,
        ))
        .id();
    if let Some(controller) = prepared.controller_of(object_parts) {
        let engine = object_parts
            .iter()
            .find(|p| p.index == controller.part)
            .and_then(|p| prepared.part_effects.get(&p.key.to_ascii_uppercase()));
        if let Some(effect) = engine {
            world.entity_mut(root).insert(EngineEffect(effect.clone()));
        }
        world.entity_mut(root).insert(controller);
    }
    if let Some(drive) = drive {
        world.entity_mut(root).insert(drive.clone());
    }
    let whole = object_parts
        .iter()
        .map(|p| {
            let upper = p.key.to_ascii_uppercase();
            vec![1.0; prepared.models.get(&upper).map_or(0, |m| m.len())]
        })
        .collect();
    world.entity_mut(root).insert(NodeLife(whole));
    let frames = mount::part_frames(object_parts, &prepared.models);
    if let Some(bounds) = mount::body_bounds(object_parts, &prepared.models, &frames) {
        world.entity_mut(root).insert(bounds);
    }
    if let Some(ratio) = level {
        world.entity_mut(root).insert(LevelRatio(ratio));
    }
    let Arms {
        armament,
        hits,
        armour,
        radar,
        shield,
        programs,
    } = arms_of(
        prepared,
        object_parts,
        &frames,
        (placed_transform.scale, level.unwrap_or(1.0)),
    );
    if !armament.guns.is_empty() || !armament.turrets.is_empty() {
        world.entity_mut(root).insert(armament);
    }
    if let Some(armour) = armour {
        world.entity_mut(root).insert(armour);
    }
    if let Some(radar) = radar {
        world.entity_mut(root).insert(radar);
    }
    if let Some(shield) = shield {
        world.entity_mut(root).insert(shield);
    }
    if !hits.nodes.is_empty() {
        world.entity_mut(root).insert(hits);
    }
    if !programs.0.is_empty() {
        world.entity_mut(root).insert(programs);
    }
    if world.get::<Controller>(root).is_none()
        && let Some(model) = mount::physical_model(object_parts, &prepared.models, &frames)
    {
        world.entity_mut(root).insert(model);
    }
    // The chassis whose model plays the controller's states.
    let animated = world.get::<Controller>(root).and_then(|c| {
        let part = object_parts.iter().find(|p| p.index == c.part)?;
        Some((
            c.part,
            prepared.meshes.get(&part.key.to_ascii_uppercase())?.clone(),
        ))
    });
    let mut spawned = Spawned {
        root,
        parts: 0,
        nodes: 0,
    };
    let mut part_entities = Vec::with_capacity(object_parts.len());
    for (part, (frame, socket)) in object_parts.iter().zip(frames) {
        let upper = part.key.to_ascii_uppercase();
        let key = String::from_utf8_lossy(&part.key);
        let label = format!("{:#010x} part #{} {key}", id.raw(), part.index);
        let mut part_entity = world.spawn((
            Name::new(label.clone()),
            UnitPartInfo {
                index: part.index,
                parent: part.parent,
                key: part.key.clone(),
                class: part.class,
                attachment: part.attachment,
                socket,
            },
            PrototypeChain(part.resolved.clone()),
            frame,
            ChildOf(root),
        ));
        if let Some(chain) = prepared.chains.get(&upper) {
            part_entity.insert(PartResources(chain.clone()));
        }
        let part_entity = part_entity.id();
        spawned.parts += 1;
        let model = prepared.models.get(&upper).map_or(&[][..], |m| &m[..]);
        let node_entities = spawn_nodes(world, part_entity, &label, model);
        spawned.nodes += node_entities.len();
        let mount = socket.and_then(|s| {
            let parent_part = part_entities.get(part.parent?).copied()?;
            let socket_node = *world.get::<PartNodes>(parent_part)?.0.get(s)?;
            let own_root = model.first().map_or(Transform::IDENTITY, mount::node_local);
            Some(SocketMount {
                parent_part,
                socket_node,
                own_root_inverse: mount::inverse(own_root),
            })
        });
        let mut entity = world.entity_mut(part_entity);
        entity.insert(PartNodes(node_entities));
        if let Some(mount) = mount {
            entity.insert(mount);
        }
        if let Some((_, msh)) = animated.as_ref().filter(|(i, _)| *i == part.index) {
            entity.insert(AnimatedModel(msh.clone()));
        }
        part_entities.push(part_entity);
    }
    spawned
}

/// A model's nodes under `part` (named after the part's `label`), each
/// under its parent node, with its rest-pose local transform; returns them
/// by node index.
fn spawn_nodes(
    world: &mut World,
    part: Entity,
    label: &str,
    model: &[load::NodePlan],
) -> Vec<Entity> {
    let mut entities: Vec<Entity> = Vec::with_capacity(model.len());
    for (index, node) in model.iter().enumerate() {
        let parent = node
            .parent
            .and_then(|p| entities.get(p).copied())
            .unwrap_or(part);
        let shown = node.name.as_deref().map(String::from_utf8_lossy);
        let entity = world
            .spawn((
                Name::new(format!(
                    "{label} node #{index} {}",
                    shown.unwrap_or_default()
                )),
                ModelNode {
                    index,
                    name: node.name.clone(),
                },
                mount::node_local(node),
                ChildOf(parent),
            ))
            .id();
        entities.push(entity);
    }
    entities
}

/// Phase 7: all roots enter the registry, or none does.
fn register(world: &mut World) -> Result<(), LoadError> {
    let pending = world
        .remove_resource::<PendingObjects>()
        .unwrap_or_default();
    let mission = world.resource::<LoadProgress>().mission.clone();
    world.resource_scope(|world, mut registry: Mut<ObjectRegistry>| {
        if let Some((id, _)) = pending
            .0
            .iter()
            .find(|(id, _)| registry.entity(*id).is_ok())
        {
            world.insert_resource(pending.clone());
            return Err(LoadError::from(ErrorChain {
                phase: MissionPhase::Registration,
                mission,
                object: Some(id.to_string()),
                prototype: None,
                archive: None,
                entry: None,
                cause: "the id is already registered".into(),
            }));
        }
        for &(id, entity) in &pending.0 {
            // Ids are unique by construction and checked above.
            let _ = registry.register(id, entity);
        }
        Ok(())
    })?;
    world.resource_mut::<LoadProgress>().registered = pending.0.len();
    Ok(())
}

/// Despawns what construction built (and its children); nothing was
/// registered.
fn undo_construction(world: &mut World) {
    if let Some(pending) = world.remove_resource::<PendingObjects>() {
        for (_, entity) in pending.0 {
            world.despawn(entity);
        }
    }
    world.remove_resource::<MissionLoader>();
    world.remove_resource::<PlannedObjects>();
}
