//! `iron3d play --headless --ticks N --report FILE.json`: the state a
//! headless run ends in, as one JSON object other tools read (documented
//! field by field in docs/book/src/cli.md, "The headless report"; fields
//! are added, never renamed).

use bevy::prelude::*;
use iron3d_behavior::{BehaviorDiagnostics, Orders, Route, RouteReport, Target};
use iron3d_combat::{CombatEvents, Rounds, Shield};
use iron3d_control::{Body, Gait, MotionFlags, PhysicalState};
use iron3d_formats::fsutil::write_atomic;
use iron3d_fx::{FxFaults, FxInstances};
use iron3d_schedules::GameClock;
use iron3d_script::{
    MessageEntry, ObjectiveStatus, OutcomeResult, Progress, ScriptError, ScriptErrors,
};
use iron3d_sound::{SoundFaults, Sounds};
use iron3d_world::mission::{
    Controller, Destroyed, Drive, LevelRatio, MissionClans, MissionEffects, NodeLife, ObjectClan,
    PropertyBag, PrototypeKey, SHIELD_SECTORS,
};
use iron3d_world::{ObjectRegistry, PendingDelete};
use serde::Serialize;
use std::path::Path;

/// The report.
#[derive(Debug, Serialize)]
struct Report {
    mission: String,
    ticks: u64,
    game_time_s: f64,
    /// The 16 hex digits `state hash:` prints.
    state_hash: String,
    /// Every live object, by original id.
    objects: Vec<ObjectReport>,
    /// Tome VI's Behavior error states units ran into, in the order they
    /// happened.
    behavior_diagnostics: Vec<DiagnosticReport>,
    /// Everything combat and the economy did, in the order it happened.
    events: Vec<EventReport>,
    /// Rounds in the world at the end (flying, or stopped and lingering).
    rounds: usize,
    /// Every sound the simulation played, in the order it played them.
    sounds: Vec<SoundReport>,
    /// Effect instances running at the end.
    effects: usize,
    /// Effects a cue named that the mission did not read, and effects or
    /// node explosions the loader could not read (each with its chain).
    effect_faults: Vec<String>,
    /// Sounds asked for that played nothing (missing, empty or invalid),
    /// each chain once.
    sound_faults: Vec<SoundFaultReport>,
    /// How the mission ended, if it has.
    outcome: OutcomeReport,
    /// Every objective of `mission.cfg`, primaries first.
    objectives: Vec<ObjectiveStatus>,
    /// Every call of the scripts' message channel, in order.
    messages: Vec<MessageEntry>,
    /// Script faults and unimplemented slots reached, each with its chain.
    script_errors: Vec<ScriptError>,
    /// Entities in the ECS world at the end: the objects, their parts and
    /// nodes, and the engine's own (in a window also the camera's, the
    /// HUD's and the renderer's).
    entities: u32,
    /// Each clan's economy at the end.
    clans: Vec<super::economy_report::ClanReport>,
    /// The install's designs a factory builds, in the order it offers
    /// them.
    designs: Vec<super::economy_report::DesignReport>,
}

/// The outcome: `complete`, `failed` or `running`, and its tick.
#[derive(Debug, Serialize)]
struct OutcomeReport {
    result: &'static str,
    tick: Option<u64>,
}

/// One sound event.
#[derive(Debug, Serialize)]
struct SoundReport {
    tick: u64,
    /// The sample: `LIBRARY::ENTRY`, upper-cased.
    key: String,
    /// The raw id of the object it follows.
    owner: Option<u32>,
    /// Map frame (Z up), where it played; `null` for a sound without a
    /// place (the theme, variations, voices).
    position: Option<[f32; 3]>,
    /// `play` (a one-shot), `loop` (a loop starts), `stop` or `voice`.
    kind: &'static str,
    /// The mixer bus: `effects`, `voices`, `music` or `ambience`.
    bus: &'static str,
    /// What played it: an effect key, `mission.cfg THEME`,
    /// `mission.cfg variation` or `messages.cfg message N`.
    source: String,
    /// The playback rate: the sample's own frequency times this.
    rate: f32,
}

/// A sound that played nothing.
#[derive(Debug, Serialize)]
struct SoundFaultReport {
    tick: u64,
    key: String,
    /// `entry_missing`, `entry_empty` or `wave_invalid`.
    outcome: String,
    /// mission -> object -> effect -> library::entry -> outcome: cause.
    chain: String,
}

/// One combat event.
#[derive(Debug, Serialize)]
struct EventReport {
    tick: u64,
    /// `shot`, `hit`, `damage`, `node_destroyed`, `destroyed`,
    /// `explosion` (the rest in the book's CLI chapter), or the economy's
    /// `mined` (`amount`: the ore a mine dug since its last),
    /// `researched` (`amount`: the item) and `built` (`object`: the
    /// factory).
    kind: &'static str,
    /// The raw id of the object it happened to (the shooter of a shot).
    object: u32,
    /// The raw id of the shooter whose round caused it; `None` for
    /// burning and for shots.
    by: Option<u32>,
    /// `[part, node]` of the node concerned (the gun of a shot).
    node: Option<[usize; 2]>,
    /// Life lost for `damage`; the round's serial for `shot`, `hit` and
    /// `explosion`; else 0.
    amount: f32,
    /// For `built`: the robot's original id and its design (absent on
    /// other events).
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    design: Option<String>,
}

/// One Behavior diagnostic.
#[derive(Debug, Serialize)]
struct DiagnosticReport {
    tick: u64,
    /// The unit's original id.
    object: u32,
    /// Tome VI's number of the error state, 1 to 6.
    state: u8,
    /// `mission '...' -> object 0x... 'name' -> prototype '...'`.
    chain: String,
    cause: String,
}

/// One live object.
#[derive(Debug, Serialize)]
struct ObjectReport {
    id: u32,
    /// The `LogicalID` property, when the object has an integer one.
    logical_id: Option<i64>,
    /// The owning clan's name, when its identity word names a clan.
    clan: Option<String>,
    /// The placed record's resource name: a prototype key or a unit DAT.
    prototype: String,
    /// Map frame, Z up.
    position: [f32; 3],
    /// Map frame, Z up, m/s: the real velocity over the last step, pushes
    /// and the ground's hold included (zero for a static body).
    velocity: [f32; 3],
    /// The rotation about the map's Z axis, degrees in `[0, 360)`.
    heading_deg: f32,
    /// Standing on a walkable face (false for static bodies and flyers).
    on_ground: bool,
    /// Not destroyed by damage and not waiting for a deferred delete.
    alive: bool,
    /// Each node's life as a share of its full life (1 whole, 0
    /// destroyed), by part then node in part-tree order.
    life: Vec<Vec<f32>>,
    /// `archive::entry` of its controller; `None` for a static body.
    controller: Option<String>,
    /// The index of the controller state it plays; `None` without states.
    control_state: Option<usize>,
    /// kg: everything a mover weighs (nodes and parts); `None` for a static
    /// body.
    mass_kg: Option<f32>,
    /// m/s: a mover's live forward top speed (engines, condition, load);
    /// `None` for a static body.
    top_speed: Option<f32>,
    /// The original name of the order it carries out now (the head of its
    /// list, e.g. `ORDER_ROBOT_GO`); `None` with no order or no controller.
    order: Option<&'static str>,
    /// The raw id of the object it is after: the one it attacks, else the
    /// hostile its fire control picks (the nearest in sight within 500 m);
    /// `None` for none.
    target: Option<u32>,
    /// The id of the areal of `Land.map` it stands in; `None` off the
    /// areal map or with no controller.
    areal: Option<u32>,
    /// How many paths it has planned; `None` with no controller.
    path_revision: Option<u32>,
    /// The tactical areals (mission paths by file position) it is listed
    /// in as of its last route report.
    routes: Vec<u32>,
    /// The difficulty ratio it took at load (its life and its rounds'
    /// damage scale by it); `None` for an object that took none.
    level_ratio: Option<f32>,
    /// The points each of its shield's six sectors holds (front, back,
    /// left, right, top, bottom); `None` for an object with no shield.
    shield: Option<[f32; SHIELD_SECTORS]>,
}

/// Writes the report of `world` after `ticks` ticks ending in `hash` to
/// `path` (write-then-rename).
pub fn write(
    world: &mut World,
    path: &Path,
    mission: &str,
    ticks: u64,
    hash: u64,
) -> Result<(), String> {
    let report = Report {
        mission: mission.to_string(),
        ticks,
        game_time_s: world.resource::<GameClock>().elapsed_secs_f64(),
        state_hash: format!("{hash:016x}"),
        objects: objects(world),
        behavior_diagnostics: diagnostics(world),
        events: events(world),
        rounds: world.get_resource::<Rounds>().map_or(0, |r| r.0.len()),
        sounds: sounds(world),
        effects: world
            .get_resource::<FxInstances>()
            .map_or(0, |f| f.0.iter().filter(|i| !i.off).count()),
        effect_faults: effect_faults(world),
        sound_faults: sound_faults(world),
        outcome: outcome(world),
        objectives: world
            .get_resource::<Progress>()
            .map(|p| p.objectives.clone())
            .unwrap_or_default(),
        messages: world
            .get_resource::<Progress>()
            .map(|p| p.messages.clone())
            .unwrap_or_default(),
        script_errors: world
            .get_resource::<ScriptErrors>()
            .map(|e| e.list.clone())
            .unwrap_or_default(),
        entities: world.entities().count_spawned(),
        clans: super::economy_report::clans(world),
        designs: super::economy_report::designs(world),
    };
    let json = serde_json::to_vec_pretty(&report).map_err(|e| e.to_string())?;
    write_atomic(path, &json).map_err(|e| e.to_string())
}

fn outcome(world: &World) -> OutcomeReport {
    let outcome = world.get_resource::<Progress>().and_then(|p| p.outcome);
    OutcomeReport {
        result: match outcome {
            Some((OutcomeResult::Complete, _)) => "complete",
            Some((OutcomeResult::Failed, _)) => "failed",
            None => "running",
        },
        tick: outcome.map(|(_, tick)| tick),
    }
}

fn objects(world: &mut World) -> Vec<ObjectReport> {
    let clans = world
        .get_resource::<MissionClans>()
        .map(|c| c.0.clone())
        .unwrap_or_default();
    let live: Vec<_> = world.resource::<ObjectRegistry>().iter().collect();
    let mut query = world.query::<(
        &Transform,
        &PrototypeKey,
        &PropertyBag,
        &ObjectClan,
        Option<&Controller>,
        Option<&PhysicalState>,
        Option<&Gait>,
        Option<&Drive>,
        Option<&Body>,
        Option<&Orders>,
        Option<&Route>,
        Option<&Target>,
        Option<&RouteReport>,
        (Option<&NodeLife>, Has<Destroyed>, Option<&LevelRatio>),
        (Has<PendingDelete>, Option<&Shield>),
    )>();
    live.into_iter()
        .filter_map(|(id, entity)| {
            let (
                transform,
                key,
                bag,
                clan,
                controller,
                state,
                gait,
                drive,
                body,
                orders,
                route,
                target,
                reported,
                (life, destroyed, level),
                (pending, shield),
            ) = query.get(world, entity).ok()?;
            let current = orders.and_then(Orders::current);
            let (position, heading_deg) = map_frame(transform);
            Some(ObjectReport {
                id: id.raw(),
                logical_id: bag.int("LogicalID").map(i64::from),
                clan: clan
                    .name(&clans)
                    .map(|n| String::from_utf8_lossy(n).into_owned()),
                prototype: String::from_utf8_lossy(&key.0).into_owned(),
                position,
                velocity: iron3d_control::map_velocity(world, entity).unwrap_or_default(),
                heading_deg,
                on_ground: state.is_some_and(|s| s.flags.has(MotionFlags::ON_GROUND)),
                alive: !pending && !destroyed,
                life: life.map(|l| l.0.clone()).unwrap_or_default(),
                controller: controller.map(|c| c.resource.clone()),
                control_state: gait.map(|g| g.current),
                mass_kg: drive.map(|d| d.mass_kg),
                top_speed: body.map(|b| b.limits.top_speed.y),
                order: current.map(|o| o.kind.name()),
                target: target.and_then(|t| t.0).map(|id| id.raw()),
                areal: route.and_then(|r| r.areal),
                path_revision: route.map(|r| r.revision),
                routes: reported.map(|r| r.routes.clone()).unwrap_or_default(),
                level_ratio: level.map(|l| l.0),
                shield: shield.map(|s| s.sectors),
            })
        })
        .collect()
}

fn events(world: &World) -> Vec<EventReport> {
    let combat = world.get_resource::<CombatEvents>();
    let mut events: Vec<EventReport> = combat
        .iter()
        .flat_map(|events| &events.0)
        .map(|e| EventReport {
            tick: e.tick,
            kind: e.kind.name(),
            object: e.object,
            by: e.by,
            node: e.node.map(|n| [n.part, n.node]),
            amount: e.amount,
            id: None,
            design: None,
        })
        .collect();
    let economy = super::economy_report::events(world);
    events.extend(economy.into_iter().map(|e| EventReport {
        tick: e.tick,
        kind: e.kind.name(),
        object: e.object,
        by: None,
        node: None,
        amount: e.amount,
        id: e.made,
        design: e.design,
    }));
    // In tick order; within a tick, combat's before the economy's.
    events.sort_by_key(|e| e.tick);
    events
}

fn sounds(world: &World) -> Vec<SoundReport> {
    let Some(sounds) = world.get_resource::<Sounds>() else {
        return Vec::new();
    };
    sounds
        .0
        .iter()
        .map(|s| SoundReport {
            tick: s.tick,
            key: s.key.clone(),
            owner: s.owner,
            position: s
                .position
                .map(|p| map_frame(&Transform::from_translation(p)).0),
            kind: s.kind.name(),
            bus: s.bus.name(),
            source: s.source.clone(),
            rate: s.rate,
        })
        .collect()
}

fn sound_faults(world: &World) -> Vec<SoundFaultReport> {
    let Some(faults) = world.get_resource::<SoundFaults>() else {
        return Vec::new();
    };
    faults
        .faults
        .iter()
        .map(|f| SoundFaultReport {
            tick: f.tick,
            key: f.key.clone(),
            outcome: f.outcome.clone(),
            chain: f.chain.clone(),
        })
        .collect()
}

fn effect_faults(world: &World) -> Vec<String> {
    let loaded = world
        .get_resource::<MissionEffects>()
        .map(|e| e.faults.clone());
    let played = world.get_resource::<FxFaults>().map(|f| f.0.clone());
    loaded.into_iter().chain(played).flatten().collect()
}

fn diagnostics(world: &World) -> Vec<DiagnosticReport> {
    let Some(list) = world.get_resource::<BehaviorDiagnostics>() else {
        return Vec::new();
    };
    list.0
        .iter()
        .map(|d| DiagnosticReport {
            tick: d.tick,
            object: d.object.raw(),
            state: d.state.number(),
            chain: d.chain.clone(),
            cause: d.cause.clone(),
        })
        .collect()
}

/// A Bevy (Y-up) transform in the map frame (Z up): the position and the
/// heading, the inverse of `iron3d_world::mission::z_up_to_y_up`.
fn map_frame(transform: &Transform) -> ([f32; 3], f32) {
    let t = transform.translation;
    let c = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let rotation = c.inverse() * transform.rotation * c;
    let (z, _, _) = rotation.to_euler(EulerRot::ZYX);
    ([t.x, -t.z, t.y], z.to_degrees().rem_euclid(360.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_world::mission::z_up_to_y_up;

    #[test]
    fn the_map_frame_undoes_the_one_conversion_to_y_up() {
        let rotation = Quat::from_rotation_z(-1.0) * Quat::from_rotation_x(0.2);
        let bevy = z_up_to_y_up(Vec3::new(3.0, -4.0, 5.0), rotation, Vec3::ONE);
        let (position, heading) = map_frame(&bevy);
        for (got, want) in position.iter().zip([3.0, -4.0, 5.0]) {
            assert!((got - want).abs() < 1e-5, "{position:?}");
        }
        let want = (-1.0f32).to_degrees().rem_euclid(360.0);
        assert!((heading - want).abs() < 1e-3, "{heading} vs {want}");
    }
}
