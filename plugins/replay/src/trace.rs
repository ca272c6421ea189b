//! The trace (tome VI "Trace-события"): `--trace FILE.jsonl`, one JSON
//! object a line, each with its `tick` and `channel`, in the order the
//! frame produced them:
//!
//! | channel | a line for | fields |
//! |---|---|---|
//! | `input` | a step whose input is not empty | `held`, `pressed` (action names), `mouse`, `sensitivity` |
//! | `queue` | a world message dispatched, or refused; a deferred deletion applied | `phase` (`dispatch`: `seq`, `message`, `object`, `payload_len`, `delivered`; `apply_deferred_operations`: `object`, `deferred_deletion`) |
//! | `control` | a body whose place changed in the step (the first step: every body) | `object`, `position` (world frame, Y up), `heading` (rad); a mover also `candidate` (where its requested speed and turn put it, before the collision pipeline) and `correction` (`position` − `candidate`) |
//! | `contact` | a pair of objects that started touching | `objects` |
//! | `behavior` | a unit whose target changed (from none at the start) | `object`, `target` |
//! | `path` | a unit's path planned anew (a new revision) | `object`, `revision`, `goal`, `areals` (the global path), `points` (the local path) |
//! | `wizard` | a unit's Wizard point set, moved or cleared | `object`, `wizard`, `right` (the side it goes round on), `escape` (the way out it takes when held), `requested` (the speed and turn it asks of Control) |
//! | `areal` | a unit that came into another areal (the first step: every unit; off the map: null) | `object`, `areal` |
//! | `sound` | a sound event | `key`, `owner`, `position`, `kind` |
//! | `camera` | a frame whose active 3D camera moved (windowed) | `eye`, `forward`, `fov`, `mode`, `target`, `yaw`, `pitch`, `world_from_view`, `clip_from_view`, `viewport` |
//! | `listener` | a frame whose sound listener moved (windowed) | `position`, `right` |
//!
//! The simulation's lines are written at the end of each step (input as
//! the step takes it); sound lines carry their event's tick; camera lines
//! the tick of the frame. The file is written under a fresh temporary
//! name beside `FILE` and renamed to it as the app exits (or
//! [`finish_trace`] is called); a `FILE` that is not a regular file is
//! refused ([`OutputFile`]).
//!
//! Each object's last [`RECENT`] lines (those naming it as `object`,
//! among `objects` or as a sound's `owner`) are also kept in memory, with
//! or without a file: the inspector shows the selected object's as its
//! timeline ([`Trace::recent`]), until the mission unloads. The windowed
//! game always traces so.

use crate::{ReplayInput, configure_input};
use bevy::app::AppExit;
use bevy::camera::RenderTarget;
use bevy::prelude::*;
use iron3d_behavior::{Route, Target};
use iron3d_control::{Body, PhysicalState, TouchingPairs};
use iron3d_economy::Distributors;
use iron3d_formats::fsutil::OutputFile;
use iron3d_player::{PlayerAction, PlayerView, StepInput, ViewMode};
use iron3d_schedules::{GameClock, Phase, SimStep};
use iron3d_sound::{Listener, Sounds};
use iron3d_world::mission::{Hero, MissionScopeExt};
use iron3d_world::{OriginalObjectId, Undeliverable, WorldMessage, WorldQueue};
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// A written trace file's lines, parsed, for tools and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceLines(pub Vec<Value>);

impl TraceLines {
    /// Reads `path` (one JSON object a line); a line that is no JSON is
    /// an `InvalidData` error naming it.
    pub fn read(path: &std::path::Path) -> std::io::Result<Self> {
        let text = std::fs::read_to_string(path)?;
        let lines = text
            .lines()
            .enumerate()
            .map(|(n, l)| {
                serde_json::from_str(l).map_err(|e| {
                    let at = format!("{} line {}: {e}", path.display(), n + 1);
                    std::io::Error::new(std::io::ErrorKind::InvalidData, at)
                })
            })
            .collect::<std::io::Result<_>>()?;
        Ok(Self(lines))
    }

    /// The lines on `channel`, in file order.
    pub fn on(&self, channel: &str) -> Vec<&Value> {
        self.0.iter().filter(|l| l["channel"] == channel).collect()
    }
}

/// How many lines of each object the trace keeps in memory.
pub const RECENT: usize = 32;

/// Traces the session: into the file `path` when there is one, and each
/// object's recent lines in memory.
#[derive(Debug, Clone)]
pub struct TracePlugin {
    pub path: Option<PathBuf>,
}

/// One line of an object's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEntry {
    pub tick: u64,
    pub channel: &'static str,
    /// The line's other fields, as JSON.
    pub fields: String,
}

/// The trace being written.
#[derive(Resource, Debug)]
pub struct Trace {
    pub path: Option<PathBuf>,
    out: Option<BufWriter<OutputFile>>,
    /// Lines written to the file.
    pub lines: u64,
    /// Why the trace stopped being written, if it did.
    pub error: Option<String>,
    /// Each object's last [`RECENT`] lines, by raw id.
    recent: BTreeMap<u32, VecDeque<TraceEntry>>,
}

/// The objects a line names: `object`, each of `objects`, a sound's
/// `owner`.
fn named_objects(fields: &Value) -> Vec<u32> {
    let one = ["object", "owner"]
        .iter()
        .filter_map(|key| fields.get(*key).and_then(Value::as_u64));
    let many = fields
        .get("objects")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64);
    one.chain(many)
        .filter_map(|id| u32::try_from(id).ok())
        .collect()
}

impl Trace {
    /// Object `id`'s last lines, oldest first.
    pub fn recent(&self, id: u32) -> impl Iterator<Item = &TraceEntry> {
        self.recent.get(&id).into_iter().flatten()
    }

    /// Keeps one line in the timelines of the objects it names.
    fn remember(&mut self, tick: u64, channel: &'static str, fields: &Value) {
        let objects = named_objects(fields);
        if objects.is_empty() {
            return;
        }
        let entry = TraceEntry {
            tick,
            channel,
            fields: fields.to_string(),
        };
        for id in objects {
            let timeline = self.recent.entry(id).or_default();
            if timeline.len() == RECENT {
                timeline.pop_front();
            }
            timeline.push_back(entry.clone());
        }
    }

    /// Writes one line on `channel` at `tick` with `fields`.
    fn line(&mut self, tick: u64, channel: &'static str, mut fields: Value) {
        self.remember(tick, channel, &fields);
        let Some(out) = &mut self.out else { return };
        if let Some(map) = fields.as_object_mut() {
            map.insert("tick".into(), tick.into());
            map.insert("channel".into(), channel.into());
        }
        match writeln!(out, "{fields}") {
            Ok(()) => self.lines += 1,
            Err(e) => {
                self.error = Some(e.to_string());
                self.out = None;
            }
        }
    }
}

impl Plugin for TracePlugin {
    fn build(&self, app: &mut App) {
        let mut trace = Trace {
            path: self.path.clone(),
            out: None,
            lines: 0,
            error: None,
            recent: BTreeMap::new(),
        };
        if let Some(path) = &self.path {
            match OutputFile::create(path) {
                Ok(file) => trace.out = Some(BufWriter::new(file)),
                Err(e) => {
                    error!("trace: {e}");
                    trace.error = Some(e.to_string());
                }
            }
        }
        configure_input(app);
        app.insert_resource(trace)
            // The next mission's objects start their timelines afresh.
            .on_unload(|world| world.resource_mut::<Trace>().recent.clear())
            .add_systems(
                FixedUpdate,
                trace_input.after(ReplayInput).in_set(SimStep::ReplayInput),
            )
            .add_systems(FixedUpdate, trace_queue.in_set(SimStep::Receive))
            .add_systems(FixedUpdate, trace_deletions.in_set(SimStep::NoteDeletions))
            .init_resource::<Candidates>()
            .add_systems(FixedUpdate, note_candidates.in_set(SimStep::Candidates))
            .add_systems(
                FixedUpdate,
                (trace_step, trace_routes, trace_economy)
                    .chain()
                    .after(Phase::UpdateWorld)
                    .run_if(|clock: Res<GameClock>| clock.runs()),
            )
            .add_systems(
                Last,
                (trace_sounds, trace_camera, trace_listener, finish_on_exit)
                    .chain()
                    .in_set(Phase::Maintenance),
            );
    }
}

/// The names of the actions in a set of button bits.
fn names(bits: iron3d_player::Buttons) -> Vec<String> {
    PlayerAction::BUTTONS
        .into_iter()
        .filter(|a| bits.has(*a))
        .map(PlayerAction::name)
        .collect()
}

fn trace_input(clock: Res<GameClock>, input: Option<Res<StepInput>>, mut trace: ResMut<Trace>) {
    let Some(input) = input.filter(|i| i.held.0 != 0 || i.pressed.0 != 0 || i.mouse != Vec2::ZERO)
    else {
        return;
    };
    let fields = json!({
        "held": names(input.held),
        "pressed": names(input.pressed),
        "mouse": input.mouse.to_array(),
        "sensitivity": input.sensitivity,
    });
    trace.line(clock.tick(), "input", fields);
}

fn trace_queue(
    clock: Res<GameClock>,
    mut delivered: MessageReader<WorldMessage>,
    mut refused: MessageReader<Undeliverable>,
    mut trace: ResMut<Trace>,
) {
    for m in delivered.read() {
        let fields = json!({
            "phase": "dispatch",
            "seq": m.seq,
            "message": format!("{:?}", m.kind),
            "object": m.target.map(OriginalObjectId::raw),
            "payload_len": m.payload.len(),
            "delivered": true,
        });
        trace.line(clock.tick(), "queue", fields);
    }
    for m in refused.read() {
        let fields = json!({
            "phase": "dispatch",
            "seq": m.seq,
            "message": format!("{:?}", m.kind),
            "object": m.reason.id.raw(),
            "delivered": false,
        });
        trace.line(clock.tick(), "queue", fields);
    }
}

/// The deletions the step deferred (asked for during a calculation pass),
/// as they are applied, in request order.
fn trace_deletions(clock: Res<GameClock>, queue: Res<WorldQueue>, mut trace: ResMut<Trace>) {
    for id in queue.deferred() {
        let fields = json!({
            "phase": "apply_deferred_operations",
            "object": id.raw(),
            "deferred_deletion": true,
        });
        trace.line(clock.tick(), "queue", fields);
    }
}

/// What the trace last said of each object: its place and its target.
#[derive(Default)]
struct Seen {
    places: BTreeMap<OriginalObjectId, (Vec3, f32)>,
    targets: BTreeMap<OriginalObjectId, Option<OriginalObjectId>>,
}

/// Where each mover's requested speed and turn put it this step, before
/// the collision pipeline (Control's steps 1–2).
#[derive(Resource, Debug, Default)]
struct Candidates(BTreeMap<OriginalObjectId, Vec3>);

fn note_candidates(
    movers: Query<(&OriginalObjectId, &Transform), With<PhysicalState>>,
    mut candidates: ResMut<Candidates>,
) {
    candidates.0 = movers.iter().map(|(id, t)| (*id, t.translation)).collect();
}

/// A body that may have moved this step.
type Moved<'a> = (&'a OriginalObjectId, &'a Transform);

fn trace_step(
    clock: Res<GameClock>,
    moved: Query<Moved, (With<Body>, Changed<Transform>)>,
    targets: Query<(&OriginalObjectId, &Target), Changed<Target>>,
    pairs: Res<TouchingPairs>,
    candidates: Res<Candidates>,
    mut seen: Local<Seen>,
    mut trace: ResMut<Trace>,
) {
    let tick = clock.tick();
    let mut moved: Vec<_> = moved.iter().collect();
    moved.sort_by_key(|(id, _)| **id);
    for (id, place) in moved {
        let (heading, _, _) = place.rotation.to_euler(EulerRot::YXZ);
        let now = (place.translation, heading);
        // A body written in place without moving says nothing.
        if seen.places.insert(*id, now) == Some(now) {
            continue;
        }
        let mut fields = json!({
            "object": id.raw(),
            "position": place.translation.to_array(),
            "heading": heading,
        });
        if let Some(candidate) = candidates.0.get(id) {
            fields["candidate"] = json!(candidate.to_array());
            fields["correction"] = json!((place.translation - *candidate).to_array());
        }
        trace.line(tick, "control", fields);
    }
    for (a, b) in pairs.now.difference(&pairs.before) {
        trace.line(tick, "contact", json!({ "objects": [a.raw(), b.raw()] }));
    }
    let mut targets: Vec<_> = targets.iter().collect();
    targets.sort_by_key(|(id, _)| **id);
    for (id, target) in targets {
        if seen.targets.insert(*id, target.0).unwrap_or(None) == target.0 {
            continue;
        }
        let fields = json!({ "object": id.raw(), "target": target.0.map(OriginalObjectId::raw) });
        trace.line(tick, "behavior", fields);
    }
}

/// Each clan's distribution step of this tick: its supply, demand and
/// shares of power and ore.
fn trace_economy(
    clock: Res<GameClock>,
    distributors: Option<Res<Distributors>>,
    mut trace: ResMut<Trace>,
) {
    let tick = clock.tick();
    let Some(distributors) = distributors.filter(|d| d.stepped == Some(tick)) else {
        return;
    };
    for (clan, d) in &distributors.clans {
        let fields = json!({
            "clan": clan,
            "members": d.members,
            "power_available": d.power_available,
            "power_demand": d.power_demand,
            "power_share": d.power_share,
            "ore_available": d.ore_available,
            "ore_demand": d.ore_demand,
            "ore_share": d.ore_share,
            "ore": d.ore,
        });
        trace.line(tick, "economy", fields);
    }
}

/// What the route lines said last, per unit.
#[derive(Default)]
struct SeenRoutes {
    revisions: BTreeMap<OriginalObjectId, u32>,
    wizards: BTreeMap<OriginalObjectId, Option<[f32; 2]>>,
    areals: BTreeMap<OriginalObjectId, Option<u32>>,
}

/// The `path`, `wizard` and `areal` lines of the units whose route
/// changed in the step, by original id.
fn trace_routes(
    clock: Res<GameClock>,
    routes: Query<(&OriginalObjectId, &Route, Option<&PhysicalState>), Changed<Route>>,
    mut seen: Local<SeenRoutes>,
    mut trace: ResMut<Trace>,
) {
    let tick = clock.tick();
    let mut routes: Vec<_> = routes.iter().collect();
    routes.sort_by_key(|(id, ..)| **id);
    for (id, route, state) in routes {
        if seen.revisions.insert(*id, route.revision).unwrap_or(0) != route.revision {
            let fields = json!({
                "object": id.raw(),
                "revision": route.revision,
                "goal": route.goal,
                "areals": route.areals,
                "points": route.points,
            });
            trace.line(tick, "path", fields);
        }
        if seen.wizards.insert(*id, route.wizard).unwrap_or(None) != route.wizard {
            let fields = json!({
                "object": id.raw(),
                "wizard": route.wizard,
                "right": route.wizard_side,
                "escape": route.escape,
                "requested": state.map(|s| json!({
                    "speed": s.requested.to_array(),
                    "turn": s.turn,
                })),
            });
            trace.line(tick, "wizard", fields);
        }
        if seen.areals.get(id) != Some(&route.areal) {
            seen.areals.insert(*id, route.areal);
            trace.line(
                tick,
                "areal",
                json!({ "object": id.raw(), "areal": route.areal }),
            );
        }
    }
}

/// The sound events since the last frame, each at its own tick.
fn trace_sounds(sounds: Option<Res<Sounds>>, mut read: Local<usize>, mut trace: ResMut<Trace>) {
    let Some(sounds) = sounds else { return };
    // A mission loaded anew starts its list again.
    *read = (*read).min(sounds.0.len());
    for event in &sounds.0[*read..] {
        let fields = json!({
            "key": event.key,
            "owner": event.owner,
            "position": event.position.map(|p| p.to_array()),
            "kind": format!("{:?}", event.kind),
        });
        trace.line(event.tick, "sound", fields);
    }
    *read = sounds.0.len();
}

/// The frame's active 3D camera, when it moved.
type MovedCamera<'a> = (
    &'a Camera,
    &'a GlobalTransform,
    &'a Projection,
    &'a RenderTarget,
);

/// The camera's state, as tome VI's trace asks: its place and look, mode
/// and target (the hero, under the cockpit and outer cameras), angles
/// (yaw from −Z toward −X, pitch up), matrices (column-major) and the
/// viewport in pixels.
fn trace_camera(
    clock: Res<GameClock>,
    cameras: Query<MovedCamera, (With<Camera3d>, Changed<GlobalTransform>)>,
    view: Option<Res<PlayerView>>,
    hero: Query<&OriginalObjectId, With<Hero>>,
    mut trace: ResMut<Trace>,
) {
    let mode = view.as_ref().map(|v| v.mode);
    let target = match mode {
        Some(ViewMode::Cockpit | ViewMode::Outer(_)) => hero.iter().next().map(|id| id.raw()),
        _ => None,
    };
    // The cameras on a window (a texture's, as the water's reflection, is
    // not the player's view).
    let on_screen =
        |(c, _, _, target): &MovedCamera| c.is_active && matches!(target, RenderTarget::Window(_));
    for (camera, frame, projection, _) in cameras.iter().filter(on_screen) {
        let fov = match projection {
            Projection::Perspective(p) => Some(p.fov),
            _ => None,
        };
        let forward = frame.forward();
        let fields = json!({
            "eye": frame.translation().to_array(),
            "forward": forward.to_array(),
            "fov": fov,
            "mode": mode.map(|m| format!("{m:?}")),
            "target": target,
            "yaw": (-forward.x).atan2(-forward.z),
            "pitch": forward.y.clamp(-1.0, 1.0).asin(),
            "world_from_view": frame.to_matrix().to_cols_array(),
            "clip_from_view": camera.clip_from_view().to_cols_array(),
            "viewport": camera.physical_viewport_size().map(|s| s.to_array()),
        });
        trace.line(clock.tick(), "camera", fields);
    }
}

/// The sound listener, when it moved (it follows the camera's frame).
fn trace_listener(
    clock: Res<GameClock>,
    listener: Option<Res<Listener>>,
    mut trace: ResMut<Trace>,
) {
    let Some(listener) = listener.filter(|l| l.is_changed()) else {
        return;
    };
    let fields = json!({
        "position": listener.position.to_array(),
        "right": listener.right.to_array(),
    });
    trace.line(clock.tick(), "listener", fields);
}

fn finish_on_exit(world: &mut World) {
    if !world.resource::<Messages<AppExit>>().is_empty()
        && let Err(e) = finish_trace(world)
    {
        error!("trace: not written: {e}");
    }
}

/// Flushes the trace and gives it its name; why the trace was not
/// written whole, if it was not (the error names the file).
pub fn finish_trace(world: &mut World) -> Result<(), String> {
    let mut trace = world.resource_mut::<Trace>();
    let Some(path) = trace.path.clone() else {
        return Ok(());
    };
    if let Some(out) = trace.out.take() {
        let done = out
            .into_inner()
            .map_err(|e| e.error().to_string())
            .and_then(|file| file.finish().map_err(|e| e.to_string()));
        match done {
            Ok(()) => info!("trace: {} lines written to {}", trace.lines, path.display()),
            Err(e) => trace.error = Some(e),
        }
    }
    match &trace.error {
        None => Ok(()),
        Some(e) if e.contains(&path.display().to_string()) => Err(e.clone()),
        Some(e) => Err(format!("{}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trace file reads back line by line; a line that is no JSON is
    /// an error naming the file and the line.
    #[test]
    fn trace_lines_read_back_and_name_a_bad_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(
            &path,
            "{\"tick\":1,\"channel\":\"input\"}\n{\"tick\":2,\"channel\":\"sound\"}\n",
        )
        .unwrap();
        let lines = TraceLines::read(&path).unwrap();
        assert_eq!(lines.0.len(), 2);
        assert_eq!(lines.on("sound")[0]["tick"], 2);
        std::fs::write(&path, "{\"tick\":1}\n{\"tick\":\n").unwrap();
        let e = TraceLines::read(&path).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("t.jsonl line 2"), "{e}");
    }

    /// Without a file the lines are kept per object: each line in the
    /// timeline of every object it names, the last [`RECENT`] of each.
    #[test]
    fn each_object_keeps_its_last_lines_without_a_file() {
        let mut trace = Trace {
            path: None,
            out: None,
            lines: 0,
            error: None,
            recent: BTreeMap::new(),
        };
        for tick in 0..RECENT as u64 + 5 {
            trace.line(tick, "control", json!({ "object": 7, "heading": 0.5 }));
        }
        trace.line(50, "contact", json!({ "objects": [7, 9] }));
        trace.line(51, "sound", json!({ "key": "A.WAV", "owner": 9 }));
        trace.line(52, "input", json!({ "held": ["walk_forward"] }));
        assert_eq!(trace.lines, 0, "no file, nothing written");
        let seven: Vec<&TraceEntry> = trace.recent(7).collect();
        assert_eq!(seven.len(), RECENT);
        assert_eq!(seven[0].tick, 6, "the oldest dropped");
        assert_eq!(seven[RECENT - 1].channel, "contact");
        let nine: Vec<(u64, &str)> = trace.recent(9).map(|e| (e.tick, e.channel)).collect();
        assert_eq!(nine, [(50, "contact"), (51, "sound")]);
        assert_eq!(
            trace.recent(9).last().unwrap().fields,
            r#"{"key":"A.WAV","owner":9}"#
        );
        assert_eq!(trace.recent(1).count(), 0);
    }
}
