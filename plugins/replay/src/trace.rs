//! The trace (tome VI "Trace-события"): `--trace FILE.jsonl`, one JSON
//! object a line, each with its `tick` and `channel`, in the order the
//! frame produced them:
//!
//! | channel | a line for | fields |
//! |---|---|---|
//! | `input` | a step whose input is not empty | `held`, `pressed` (action names), `mouse`, `sensitivity` |
//! | `queue` | a world message dispatched, or refused | `seq`, `message`, `object`, `payload_len`, `delivered` |
//! | `control` | a body whose place changed in the step (the first step: every body) | `object`, `position` (world frame, Y up), `heading` (rad) |
//! | `contact` | a pair of objects that started touching | `objects` |
//! | `behavior` | a unit whose target changed (from none at the start) | `object`, `target` |
//! | `path` | a unit's path planned anew (a new revision) | `object`, `revision`, `goal`, `areals` (the global path), `points` (the local path) |
//! | `wizard` | a unit's Wizard point set, moved or cleared | `object`, `wizard`, `right` (the side it goes round on) |
//! | `areal` | a unit that came into another areal (the first step: every unit; off the map: null) | `object`, `areal` |
//! | `sound` | a sound event | `key`, `owner`, `position`, `kind` |
//! | `camera` | a frame whose active 3D camera moved (windowed) | `eye`, `forward`, `fov` |
//!
//! The simulation's lines are written at the end of each step (input as
//! the step takes it); sound lines carry their event's tick; camera lines
//! the tick of the frame. The file is written as `FILE.part` and renamed
//! to `FILE` as the app exits (or [`finish_trace`] is called).

use crate::{ReplayInput, configure_input};
use bevy::app::AppExit;
use bevy::prelude::*;
use iron3d_audio::Sounds;
use iron3d_behavior::{Route, Target};
use iron3d_control::{Body, TouchingPairs};
use iron3d_player::{PlayerAction, StepInput};
use iron3d_schedules::{GameClock, Phase};
use iron3d_world::{OriginalObjectId, QueueStep, Undeliverable, WorldMessage};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// Writes the trace of the session to `path`.
#[derive(Debug, Clone)]
pub struct TracePlugin {
    pub path: PathBuf,
}

/// The trace being written.
#[derive(Resource, Debug)]
pub struct Trace {
    pub path: PathBuf,
    out: Option<BufWriter<File>>,
    /// Lines written.
    pub lines: u64,
    /// Why the trace stopped being written, if it did.
    pub error: Option<String>,
}

impl Trace {
    /// The file being written until it is finished.
    fn part(&self) -> PathBuf {
        let mut name = self.path.clone().into_os_string();
        name.push(".part");
        name.into()
    }

    /// Writes one line on `channel` at `tick` with `fields`.
    fn line(&mut self, tick: u64, channel: &str, mut fields: Value) {
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
        };
        match File::create(trace.part()) {
            Ok(file) => trace.out = Some(BufWriter::new(file)),
            Err(e) => {
                error!("trace: cannot write {}: {e}", trace.part().display());
                trace.error = Some(e.to_string());
            }
        }
        configure_input(app);
        app.insert_resource(trace)
            .add_systems(
                FixedUpdate,
                trace_input
                    .after(ReplayInput)
                    .in_set(Phase::AdvanceGameClock),
            )
            .add_systems(
                FixedUpdate,
                trace_queue
                    .after(QueueStep::Dispatch)
                    .in_set(Phase::CalculateWorldQueue),
            )
            .add_systems(
                FixedUpdate,
                (trace_step, trace_routes)
                    .chain()
                    .after(Phase::UpdateWorld)
                    .run_if(|clock: Res<GameClock>| clock.runs()),
            )
            .add_systems(
                Last,
                (trace_sounds, trace_camera, finish_on_exit)
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

fn trace_input(clock: Res<GameClock>, input: Res<StepInput>, mut trace: ResMut<Trace>) {
    if input.held.0 == 0 && input.pressed.0 == 0 && input.mouse == Vec2::ZERO {
        return;
    }
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
            "seq": m.seq,
            "message": format!("{:?}", m.kind),
            "object": m.reason.id.raw(),
            "delivered": false,
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

/// A body that may have moved this step.
type Moved<'a> = (&'a OriginalObjectId, &'a Transform);

fn trace_step(
    clock: Res<GameClock>,
    moved: Query<Moved, (With<Body>, Changed<Transform>)>,
    targets: Query<(&OriginalObjectId, &Target), Changed<Target>>,
    pairs: Res<TouchingPairs>,
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
        let fields = json!({
            "object": id.raw(),
            "position": place.translation.to_array(),
            "heading": heading,
        });
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
    routes: Query<(&OriginalObjectId, &Route), Changed<Route>>,
    mut seen: Local<SeenRoutes>,
    mut trace: ResMut<Trace>,
) {
    let tick = clock.tick();
    let mut routes: Vec<_> = routes.iter().collect();
    routes.sort_by_key(|(id, _)| **id);
    for (id, route) in routes {
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
type MovedCamera<'a> = (&'a Camera, &'a GlobalTransform, &'a Projection);

fn trace_camera(
    clock: Res<GameClock>,
    cameras: Query<MovedCamera, (With<Camera3d>, Changed<GlobalTransform>)>,
    mut trace: ResMut<Trace>,
) {
    for (_, frame, projection) in cameras.iter().filter(|(c, _, _)| c.is_active) {
        let fov = match projection {
            Projection::Perspective(p) => Some(p.fov),
            _ => None,
        };
        let fields = json!({
            "eye": frame.translation().to_array(),
            "forward": frame.forward().to_array(),
            "fov": fov,
        });
        trace.line(clock.tick(), "camera", fields);
    }
}

fn finish_on_exit(world: &mut World) {
    if !world.resource::<Messages<AppExit>>().is_empty() {
        finish_trace(world);
    }
}

/// Flushes the trace and gives it its name.
pub fn finish_trace(world: &mut World) {
    let mut trace = world.resource_mut::<Trace>();
    let Some(mut out) = trace.out.take() else {
        return;
    };
    let done = out
        .flush()
        .and_then(|()| std::fs::rename(trace.part(), &trace.path));
    match done {
        Ok(()) => info!(
            "trace: {} lines written to {}",
            trace.lines,
            trace.path.display()
        ),
        Err(e) => {
            error!("trace: not written: {e}");
            trace.error = Some(e.to_string());
        }
    }
}
