//! Mission scripts (tome VI "SuperAI и миссионные сценарии"; openparkan
//! `docs/15-behaviour.md`, `docs/34-progression.md`; docs/facts.md
//! "Scripts"): one SuperAI ([`Brain`]) per clan that names a script runs it
//! on game time, inside the fixed step ([`SimStep::Scripts`]: after combat,
//! so a handler sees this step's deaths).
//!
//! | when | what |
//! |---|---|
//! | the first step | every clan's `Init`, once |
//! | every 7000 + rand % 1000 ms of a clan (stream [`TAKT_STREAM`]) | its takt: 7 s on its seconds clock, its problem handler (`Problems0`), then each standing problem's `_Start` (the first time) or `_Continue`, heaviest first; solved and unsolved problems go |
//! | every 2000 ms from the first step | the player clan's `Mission` handler |
//! | a step a building changed hands | the player's clan hears of it (its System line and voice), then the new owner's `Fort_Captured` |
//!
//! A handler that faults stops and is reported with its chain
//! ([`ScriptErrors`]); the mission goes on. Orders go out through the
//! World3D queue by original id; the message channel drives the
//! objectives, messages and outcome ([`Progress`]). The variables, clocks,
//! problems and progress are simulation state: in the state hash.

pub mod brain;
pub mod files;
pub mod functions;
pub mod progress;
pub mod view;
pub mod vm;

pub use brain::{Brain, Problem};
pub use files::{ClanScript, MissionScripts};
pub use progress::{
    MessageEntry, ObjectiveState, ObjectiveStatus, OutcomeResult, Progress, VoiceCue,
};

use bevy::prelude::*;
use functions::{Call, ChannelCall};
use iron3d_behavior::{ClanRelations, OrderPacket, TacticalAreals};
use iron3d_economy::Distributors;
use iron3d_formats::script::scr::FUNCTION_TABLE_LEN;
use iron3d_formats::tma::ClanType;
use iron3d_schedules::{
    AppStateHashExt, AppStateSaveExt, GameClock, SimStep, StateHasher, check_as,
};
use iron3d_sound::{
    Bus, MissionSounds, SoundEvent, SoundKind, SoundPlugin, SoundSink, VOICE_BUILD_CAPTURE,
    VOICE_EBUILD_CAPTURE, VOICE_NBUILD_CAPTURE, VOICES,
};
use iron3d_world::mission::{
    Destroyed, MissionClans, MissionDescription, MissionObject, MissionPhase, MissionReaderExt,
    MissionScopeExt, ObjectClan, ObjectKind, Relation, RngStreams, effect_key,
};
use iron3d_world::save::{AppSaveExt, save_resource};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOutbox};
use std::collections::{BTreeMap, BTreeSet};
use view::View;

/// The random stream of the clans' takts.
pub const TAKT_STREAM: &str = "script_takt";
/// The player clan's `Mission` handler runs this often (ms of game time).
pub const MISSION_PERIOD_MS: u64 = 2000;
/// A clan's takt: this many ms plus a draw below [`TAKT_SPREAD_MS`].
pub const TAKT_MS: u64 = 7000;
pub const TAKT_SPREAD_MS: u64 = 1000;
/// Seconds a takt adds to the clan's clock.
pub const TAKT_SECONDS: u32 = 7;

/// Every clan's SuperAI and the player clan's schedule.
#[derive(Resource, Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Brains {
    pub list: Vec<Brain>,
    /// The player clan's brain (its `Mission` handler runs).
    pub player: Option<usize>,
    /// Game time (ms) of the next `Mission` run; `None` before the first
    /// step (when `Init` runs).
    pub next_mission_ms: Option<u64>,
    /// Each building's owning clan as last seen (a change raises the new
    /// owner's `Fort_Captured`).
    pub owners: BTreeMap<u32, u32>,
}

/// A script fault or an unimplemented slot a script reached, with its
/// chain: `mission -> clan -> script -> handler, node -> cause`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScriptError {
    pub tick: u64,
    pub chain: String,
}

/// What went wrong in the scripts, each unimplemented slot once.
#[derive(Resource, Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ScriptErrors {
    pub list: Vec<ScriptError>,
    /// (clan, handler, node, slot) already reported.
    reported: BTreeSet<(u32, usize, usize, u32)>,
}

/// The Script plugin. Needs the spine, the World3D, mission, Control,
/// Behavior and Combat plugins.
pub struct ScriptPlugin;

impl Plugin for ScriptPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<SoundPlugin>() {
            app.add_plugins(SoundPlugin);
        }
        // Messages' voices join the sound events after the effects' and
        // the ambience's (the tick table's order).
        app.add_mission_reader(MissionPhase::Resources, files::read_mission_scripts)
            .remove_on_unload::<MissionScripts>()
            .init_mission_resource::<Brains>()
            .init_mission_resource::<Progress>()
            .init_mission_resource::<ScriptErrors>()
            .add_systems(OnEnter(MissionPhase::Running), start)
            .init_mission_resource::<VoicesSpoken>()
            .add_systems(
                FixedUpdate,
                (watch_hero, run, speak).chain().in_set(SimStep::Scripts),
            )
            .add_state_hash("script_brains", hash_brains)
            .add_state_hash("script_progress", |world, h| {
                if let Some(p) = world.get_resource::<Progress>() {
                    p.hash_into(h);
                }
            })
            .add_state_save(
                "script_brains",
                save_resource::<Brains>,
                check_as::<Brains>,
                brain::restore_brains,
            )
            .add_state_save(
                "script_progress",
                save_resource::<Progress>,
                check_as::<Progress>,
                progress::restore_progress,
            )
            .save_resource::<ScriptErrors>("script_errors")
            .save_resource::<VoicesSpoken>("script_voices_spoken");
    }
}

/// The objects a view is taken from.
type Objects<'w, 's> = Query<'w, 's, view::ObjectItem<'static>, With<MissionObject>>;

/// Mission objects whose owner changed (or that are new) since the last
/// step.
type ChangedOwners<'w, 's> = Query<
    'w,
    's,
    (
        &'static OriginalObjectId,
        &'static ObjectClan,
        &'static ObjectKind,
    ),
    (Changed<ObjectClan>, With<MissionObject>),
>;

/// The view of the world now.
fn take_view(
    objects: &Objects,
    registry: &ObjectRegistry,
    clans: Option<&MissionClans>,
    (relations, routes): (Option<&ClanRelations>, Option<&TacticalAreals>),
    (distributors, mission): (Option<&Distributors>, Option<&MissionDescription>),
) -> View {
    View::take(
        objects.iter(),
        registry.deleted().map(OriginalObjectId::raw).collect(),
        clans.map_or(&[][..], |c| &c.0),
        &relations.cloned().unwrap_or_default(),
        &routes.cloned().unwrap_or_default(),
        distributors,
        mission.map_or(&[][..], |m| &m.tma.lodes),
    )
}

/// As the mission starts running: a brain per clan whose script read (a
/// script that did not, or one built for another function table, is
/// reported), the objectives and messages, and the hero.
#[allow(clippy::too_many_arguments)]
fn start(
    scripts: Option<Res<MissionScripts>>,
    mission: Option<Res<MissionDescription>>,
    clans: Option<Res<MissionClans>>,
    objects: Objects,
    registry: Res<ObjectRegistry>,
    mut brains: ResMut<Brains>,
    mut progress: ResMut<Progress>,
    mut errors: ResMut<ScriptErrors>,
) {
    let Some(scripts) = scripts else { return };
    let mission = mission.map_or_else(String::new, |m| m.name.clone());
    *brains = Brains::default();
    for clan in &scripts.clans {
        let chain = format!(
            "mission {mission} -> clan {} -> script {}",
            clan.clan_name, clan.path
        );
        match &clan.bundle {
            Ok(bundle) => {
                if bundle.script.table_len != FUNCTION_TABLE_LEN {
                    errors.list.push(ScriptError {
                        tick: 0,
                        chain: format!(
                            "{chain} -> version mismatch: a function table of {}, this engine's is {FUNCTION_TABLE_LEN} (run anyway)",
                            bundle.script.table_len
                        ),
                    });
                }
                brains.list.push(Brain::new(
                    clan.clan as u32,
                    clan.clan_name.clone(),
                    clan.path.clone(),
                    bundle.clone(),
                ));
            }
            Err(cause) => errors.list.push(ScriptError {
                tick: 0,
                chain: format!("{chain} -> {cause}"),
            }),
        }
    }
    let player = clans.as_ref().and_then(|c| {
        c.0.iter()
            .position(|c| c.clan_type() == Some(iron3d_formats::tma::ClanType::Player))
    });
    brains.player = player.and_then(|p| brains.list.iter().position(|b| b.clan as usize == p));
    let view = take_view(
        &objects,
        &registry,
        clans.as_deref(),
        (None, None),
        (None, None),
    );
    *progress = Progress::new(
        &scripts.objectives,
        &scripts.messages,
        view.hero(),
        &scripts.engine_strings,
    );
    brains.owners = objects
        .iter()
        .filter(|(_, _, kind, ..)| kind.kind() == Some(iron3d_formats::tma::ObjectKind::Building))
        .map(|(id, clan, ..)| (id.raw(), clan.identity_raw))
        .collect();
}

/// The hero destroyed (or gone) fails the mission.
fn watch_hero(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    destroyed: Query<(), With<Destroyed>>,
    mut progress: ResMut<Progress>,
) {
    let Some(hero) = progress.hero else { return };
    let dead = match registry.entity(OriginalObjectId(hero)) {
        Ok(entity) => destroyed.contains(entity),
        Err(_) => true,
    };
    if dead {
        progress.end(OutcomeResult::Failed, clock.tick());
    }
}

/// What a brain runs in a step, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    /// A handler by name (`Init` on the first step, the player's `Mission`).
    Handler(&'static str),
    /// The clan's takt: its clock, its problem handler, its problems.
    Takt,
    /// `Fort_Captured`, `dCurrentSender` naming the building the clan took.
    Captured(u32),
}

/// Runs what is due this step: a building that changed hands is announced
/// to the player's clan ([`announce_capture`]); every clan's `Init` on the
/// first step, each clan's takt, `Fort_Captured` for a clan that took a
/// building, then the player clan's `Mission` handler.
#[allow(clippy::too_many_arguments)]
fn run(
    clock: Res<GameClock>,
    mission: Option<Res<MissionDescription>>,
    clans: Option<Res<MissionClans>>,
    relations: Option<Res<ClanRelations>>,
    routes: Option<Res<TacticalAreals>>,
    distributors: Option<Res<Distributors>>,
    objects: Objects,
    registry: Res<ObjectRegistry>,
    mut brains: ResMut<Brains>,
    mut rng: ResMut<RngStreams>,
    mut outbox: ResMut<WorldOutbox>,
    mut progress: ResMut<Progress>,
    mut errors: ResMut<ScriptErrors>,
    owners: ChangedOwners,
) {
    let tick = clock.tick();
    // A building that changed owner: the player's clan hears of it, and
    // its new clan's `Fort_Captured` runs.
    let mut captured: Vec<(usize, u32)> = Vec::new();
    for (id, clan, kind) in &owners {
        if kind.kind() != Some(iron3d_formats::tma::ObjectKind::Building) {
            continue;
        }
        let new = clan.identity_raw;
        let Some(old) = brains
            .owners
            .insert(id.raw(), new)
            .filter(|&old| old != new)
        else {
            continue;
        };
        if let Some(relations) = relations.as_deref() {
            announce_capture(&mut progress, relations, (old, new), tick);
        }
        if let Some(i) = brains.list.iter().position(|b| b.clan == new) {
            captured.push((i, id.raw()));
        }
    }
    if brains.list.is_empty() {
        return;
    }
    let now = clock.elapsed().as_millis() as u64;
    let first = brains.next_mission_ms.is_none();
    let mut due: Vec<(usize, Vec<Task>)> = Vec::new();
    let add = |due: &mut Vec<(usize, Vec<Task>)>, i: usize, task: Task| match due
        .iter_mut()
        .find(|(b, _)| *b == i)
    {
        Some((_, list)) => list.push(task),
        None => due.push((i, vec![task])),
    };
    for (i, brain) in brains.list.iter_mut().enumerate() {
        if first {
            add(&mut due, i, Task::Handler("Init"));
            // STAND-IN: the first takt 7 to 8 s after the first step, on game
            // time, the seconds clock from 0 (the original's clock starts at
            // `timeGetTime ÷ 1000`, docs/15); settled by logging a retail
            // script's function 59 on its first takt.
            brain.next_takt_ms = now + TAKT_MS + rng.next_u64(TAKT_STREAM) % TAKT_SPREAD_MS;
        } else if now >= brain.next_takt_ms {
            add(&mut due, i, Task::Takt);
            brain.next_takt_ms = now + TAKT_MS + rng.next_u64(TAKT_STREAM) % TAKT_SPREAD_MS;
        }
    }
    // STAND-IN: a building whose owner changes runs the new owner's
    // `Fort_Captured` in that step, after the takts and before `Mission`,
    // `dCurrentSender` the building (docs/34: which events run it is not
    // read); settled by reading what calls `Fort_Captured`.
    for (i, building) in captured {
        add(&mut due, i, Task::Captured(building));
    }
    if first || brains.next_mission_ms.is_some_and(|t| now >= t) {
        brains.next_mission_ms = Some(now + MISSION_PERIOD_MS);
        if let Some(p) = brains.player {
            add(&mut due, p, Task::Handler("Mission"));
        }
    }
    if due.is_empty() {
        return;
    }
    let view = take_view(
        &objects,
        &registry,
        clans.as_deref(),
        (relations.as_deref(), routes.as_deref()),
        (distributors.as_deref(), mission.as_deref()),
    );
    let mission = mission.map_or_else(String::new, |m| m.name.clone());
    let mut batch = Batch {
        view: &view,
        rng: &mut rng,
        orders: Vec::new(),
        progress: &mut progress,
        errors: &mut errors,
        mission: &mission,
        tick,
    };
    for (i, tasks) in due {
        let brain = &mut brains.list[i];
        for task in tasks {
            match task {
                Task::Takt => {
                    brain.seconds = brain.seconds.wrapping_add(TAKT_SECONDS);
                    if let Some(handler) = brain.problem_handler {
                        batch.run(brain, handler, None);
                    }
                    batch.run_problems(brain);
                }
                Task::Handler(name) => {
                    if let Some(handler) = brain.handler(name) {
                        batch.run(brain, handler, None);
                    }
                }
                Task::Captured(building) => {
                    if let Some(handler) = brain.handler("Fort_Captured") {
                        brain.set_word("dCurrentSender", building);
                        batch.run(brain, handler, None);
                    }
                }
            }
        }
    }
    for (id, packet) in batch.orders {
        outbox.post(
            GmsgKind::Order,
            Some(OriginalObjectId(id)),
            packet.to_bytes(),
        );
    }
}

/// A building passing from clan `old` to clan `new` as the player's clan
/// hears of it (openparkan `docs/27-ownership.md`, "Capture"): taken by it,
/// the System line and the voice by the old owner (a neutral clan, or one
/// neutral toward the taker, `VOICE_NBUILD_CAPTURE`; a hostile one
/// `VOICE_EBUILD_CAPTURE`; any other `VOICE_BUILD_CAPTURE`); lost by it,
/// `VOICE_BUILD_CAPTURE` alone. A building two other clans trade is not
/// heard of.
// STAND-IN: a building two other clans trade is not heard of (docs/27
// "Capture" does not say); settled by a retail capture between two AI
// clans.
fn announce_capture(
    progress: &mut Progress,
    relations: &ClanRelations,
    (old, new): (u32, u32),
    tick: u64,
) {
    let player = |clan: u32| relations.clan_type(clan as usize) == Some(ClanType::Player);
    if player(new) {
        let neutral = relations.clan_type(old as usize) == Some(ClanType::Neutral);
        let voice = match relations.between(old as usize, new as usize) {
            _ if neutral => VOICE_NBUILD_CAPTURE,
            Some(Relation::Neutral) => VOICE_NBUILD_CAPTURE,
            Some(Relation::Hostile) => VOICE_EBUILD_CAPTURE,
            _ => VOICE_BUILD_CAPTURE,
        };
        progress.building_taken(tick, true, voice);
    } else if player(old) {
        progress.building_taken(tick, false, VOICE_BUILD_CAPTURE);
    }
}

/// How many of [`Progress::voices`] have become sound events.
#[derive(
    Resource, Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct VoicesSpoken(pub usize);

/// The voices the progress asked for this step become voice events, in
/// order: a message's `voices.lib` entry, an interface voice's sample as
/// `ui/game_resources.cfg` binds it (nothing when the install binds
/// none; a bound sample that did not read is in the load's faults).
fn speak(
    clock: Res<GameClock>,
    progress: Res<Progress>,
    sounds: Option<Res<MissionSounds>>,
    mut spoken: ResMut<VoicesSpoken>,
    mut sink: SoundSink,
) {
    for cue in progress.voices.iter().skip(spoken.0) {
        let (key, source) = match cue {
            VoiceCue::Message { index, entry } => (
                Some(effect_key(VOICES, entry.as_bytes())),
                format!("messages.cfg message {index}"),
            ),
            VoiceCue::Interface(name) => (
                sounds
                    .as_ref()
                    .and_then(|s| s.interface_voices.get(name.as_str()).cloned()),
                format!("ui/game_resources.cfg {name}"),
            ),
        };
        let Some(key) = key else { continue };
        sink.push(SoundEvent {
            tick: clock.tick(),
            key,
            owner: None,
            position: None,
            kind: SoundKind::Voice,
            bus: Bus::Voices,
            near: 0.0,
            far: 0.0,
            rate: 1.0,
            source,
            effect: 0,
        });
    }
    spoken.0 = progress.voices.len();
}

/// What one step's handler runs share: the world as the batch began, and
/// what they ask of the engine.
struct Batch<'a> {
    view: &'a View,
    rng: &'a mut RngStreams,
    /// Orders to post once the batch is done, in call order.
    orders: Vec<(u32, OrderPacket)>,
    progress: &'a mut Progress,
    errors: &'a mut ScriptErrors,
    mission: &'a str,
    tick: u64,
}

impl Batch<'_> {
    /// Each standing problem's `_Start` (first time) or `_Continue`,
    /// heaviest first (raise order among equals); then solved and unsolved
    /// ones go.
    fn run_problems(&mut self, brain: &mut Brain) {
        let mut order: Vec<usize> = (0..brain.problems.len()).collect();
        order.sort_by(|&a, &b| {
            brain.problems[b]
                .weight
                .total_cmp(&brain.problems[a].weight)
        });
        for p in order {
            let Some(problem) = brain.problems.get_mut(p) else {
                continue;
            };
            let handler = problem.handlers[usize::from(problem.started)];
            problem.started = true;
            brain.set_word("dCurrentProblem", p as u32);
            brain.set_word("dCurrentSender", 0);
            self.run(brain, handler, Some(p));
        }
        let ended =
            |s: u32| brain.word("ST_SOLVED") == Some(s) || brain.word("ST_UNSOLVED") == Some(s);
        let keep: Vec<bool> = brain.problems.iter().map(|p| !ended(p.state)).collect();
        let mut keep = keep.into_iter();
        brain.problems.retain(|_| keep.next().unwrap_or(true));
    }

    /// One handler run (with `problem` running): its channel calls and
    /// findings taken out, its orders kept for the batch.
    fn run(&mut self, brain: &mut Brain, handler: usize, problem: Option<usize>) {
        let mut channel: Vec<ChannelCall> = Vec::new();
        let mut unimplemented = Vec::new();
        let bundle = brain.bundle.clone();
        let mut vars = std::mem::replace(&mut brain.vars, vm::Variables::new(&bundle));
        let result = {
            let mut call = Call {
                brain,
                view: self.view,
                rng: &mut *self.rng,
                problem,
                orders: &mut self.orders,
                channel: &mut channel,
                unimplemented: &mut unimplemented,
            };
            vm::run(&bundle, &mut vars, handler, &mut call)
        };
        brain.vars = vars;
        let chain = |h: usize, n: usize| {
            let name = bundle
                .script
                .handlers
                .get(h)
                .map_or_else(|| format!("#{h}"), |h| h.name());
            format!(
                "mission {} -> clan {} -> script {} -> handler {name} node {n}",
                self.mission, brain.clan_name, brain.path
            )
        };
        let tick = self.tick;
        for (h, n, slot) in unimplemented {
            if self.errors.reported.insert((brain.clan, h, n, slot)) {
                self.errors.list.push(ScriptError {
                    tick,
                    chain: format!(
                        "{} -> function {slot} is not implemented: ERROR returned",
                        chain(h, n)
                    ),
                });
            }
        }
        if let Err(f) = result {
            let chain = format!(
                "{} -> {} (handler stopped)",
                chain(f.handler, f.node),
                f.cause
            );
            self.errors.list.push(ScriptError { tick, chain });
        }
        for c in channel {
            self.progress.take(brain, c, tick);
        }
    }
}

fn hash_brains(world: &World, h: &mut StateHasher) {
    let Some(brains) = world.get_resource::<Brains>() else {
        return;
    };
    h.write_u64(brains.next_mission_ms.unwrap_or(u64::MAX));
    for (&building, &clan) in &brains.owners {
        h.write_u32(building);
        h.write_u32(clan);
    }
    for b in &brains.list {
        b.hash_into(h);
    }
}

/// The line a run prints before its hash lines: `outcome: complete at tick
/// N`, `outcome: failed at tick N` or `outcome: running`.
pub fn outcome_line(world: &World) -> String {
    match world.get_resource::<Progress>().and_then(|p| p.outcome) {
        Some((OutcomeResult::Complete, tick)) => format!("outcome: complete at tick {tick}"),
        Some((OutcomeResult::Failed, tick)) => format!("outcome: failed at tick {tick}"),
        None => "outcome: running".to_string(),
    }
}
