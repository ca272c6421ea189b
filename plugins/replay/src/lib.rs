//! Replays (tome VII "Тестовый контур"): the input snapshot of every fixed
//! step recorded as a session runs, played back in place of the devices,
//! and the state hash checked against the recording's checkpoints.
//!
//! | step | where | what |
//! |---|---|---|
//! | record / play a step | `FixedUpdate`, `Phase::AdvanceGameClock`, after the clock counts the step and the player's snapshot is taken | [`Recording`] adds the step's `StepInput`; [`Playback`] replaces it with the recorded one |
//! | checkpoint / verify | `Last`, `Phase::Maintenance` | the state hash (and each subsystem's) every [`CHECKPOINT_EVERY`] ticks; on playback compared with the recording's at the same tick |
//! | finish | `Last`, `Phase::Maintenance`, as the app exits or the mission leaves the slot | the recording written (write-then-rename) |
//!
//! The trace of a session ([`trace`]) is written beside it on the same
//! steps.
//!
//! A recording covers the first mission that runs; the player's
//! settings that reach the simulation (the mouse sensitivity) travel in
//! the step input, so a replay needs nothing else.

pub mod file;
pub mod trace;

pub use file::{Checkpoint, FORMAT_VERSION, Replay, ReplayError, Step};
pub use trace::{Trace, TracePlugin, finish_trace};

use bevy::app::AppExit;
use bevy::prelude::*;
use iron3d_player::{StepInput, TakeInput};
use iron3d_schedules::{AdvanceClock, GameClock, Phase, StateHash, StateHasher};
use iron3d_world::mission::{LoadProgress, MissionDescription, MissionPhase};
use std::path::PathBuf;

/// Ticks between checkpoints (one a second at 30 Hz).
pub const CHECKPOINT_EVERY: u64 = 30;

/// Where a replay reads or writes the step's input.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReplayInput;

/// [`ReplayInput`] runs once the step's tick is counted and its input
/// taken from the snapshot.
fn configure_input(app: &mut App) {
    app.configure_sets(
        FixedUpdate,
        ReplayInput
            .in_set(Phase::AdvanceGameClock)
            .after(AdvanceClock)
            .after(TakeInput),
    );
}

/// The identity of the install a mission was loaded from: FNV-1a of its
/// `data.tma` as the loader read it, 16 hex digits.
pub fn install_identity(description: &MissionDescription) -> String {
    let mut hasher = StateHasher::default();
    hasher.write(&description.tma.to_bytes().unwrap_or_default());
    format!("{:016x}", hasher.finish())
}

/// The checkpoint of the world now.
pub fn checkpoint(world: &World) -> Checkpoint {
    Checkpoint {
        tick: world.resource::<GameClock>().tick(),
        hash: StateHash::compute(world),
        sections: StateHash::sections(world)
            .into_iter()
            .map(|(name, hash)| (name.to_string(), hash))
            .collect(),
    }
}

/// Records the session into a file.
pub struct RecordPlugin {
    pub path: PathBuf,
    pub seed: u64,
    pub rate: f64,
}

/// The recording under way.
#[derive(Resource, Debug)]
pub struct Recording {
    pub path: PathBuf,
    /// The replay so far, from the mission's start until it is written.
    pub replay: Option<Replay>,
    seed: u64,
    rate: f64,
    /// Written: nothing more is recorded.
    pub finished: bool,
}

impl Plugin for RecordPlugin {
    fn build(&self, app: &mut App) {
        configure_input(app);
        app.insert_resource(Recording {
            path: self.path.clone(),
            replay: None,
            seed: self.seed,
            rate: self.rate,
            finished: false,
        })
        .add_systems(OnEnter(MissionPhase::Running), start_recording)
        .add_systems(FixedUpdate, record_step.in_set(ReplayInput))
        .add_systems(OnExit(MissionPhase::Running), finish_recording)
        .add_systems(
            Last,
            (record_checkpoint, finish_on_exit)
                .chain()
                .in_set(Phase::Maintenance),
        );
    }
}

fn start_recording(
    mut recording: ResMut<Recording>,
    progress: Res<LoadProgress>,
    description: Option<Res<MissionDescription>>,
) {
    if recording.finished || recording.replay.is_some() {
        return;
    }
    let install = description
        .map(|d| install_identity(&d))
        .unwrap_or_default();
    let replay = Replay::new(
        progress.mission.clone(),
        install,
        recording.seed,
        recording.rate,
    );
    info!("replay: recording {}", replay.mission);
    recording.replay = Some(replay);
}

fn record_step(clock: Res<GameClock>, input: Res<StepInput>, mut recording: ResMut<Recording>) {
    if let Some(replay) = &mut recording.replay {
        replay.record(clock.tick(), &input);
    }
}

/// A checkpoint each time the clock has passed another
/// [`CHECKPOINT_EVERY`] ticks since the last one.
fn record_checkpoint(world: &mut World) {
    let tick = world.resource::<GameClock>().tick();
    let due = world
        .resource::<Recording>()
        .replay
        .as_ref()
        .is_some_and(|r| tick >= r.checkpoints.last().map_or(0, |c| c.tick) + CHECKPOINT_EVERY);
    if due {
        let point = checkpoint(world);
        if let Some(replay) = &mut world.resource_mut::<Recording>().replay {
            replay.checkpoints.push(point);
        }
    }
}

fn finish_on_exit(world: &mut World) {
    if !world.resource::<Messages<AppExit>>().is_empty() {
        finish(world);
    }
}

fn finish_recording(world: &mut World) {
    finish(world);
}

/// Ends the recording with a checkpoint at its last tick and writes it.
fn finish(world: &mut World) {
    if world.resource::<Recording>().replay.is_none() {
        return;
    }
    let last = checkpoint(world);
    let mut recording = world.resource_mut::<Recording>();
    recording.finished = true;
    let Some(mut replay) = recording.replay.take() else {
        return;
    };
    replay.end_tick = replay.end_tick.max(last.tick);
    if replay.checkpoints.last().is_none_or(|c| c.tick < last.tick) {
        replay.checkpoints.push(last);
    }
    match replay.save(&recording.path) {
        Ok(()) => info!(
            "replay: {} ticks, {} input changes, {} checkpoints written to {}",
            replay.end_tick,
            replay.steps.len(),
            replay.checkpoints.len(),
            recording.path.display()
        ),
        Err(e) => error!("replay: not written: {e}"),
    }
}

/// Plays a replay's input in place of the devices and checks its
/// checkpoints.
pub struct PlaybackPlugin(pub Replay);

/// The replay being played and what its checkpoints showed.
#[derive(Resource, Debug, Clone)]
pub struct Playback {
    pub replay: Replay,
    /// Checkpoints reached and compared.
    pub checked: usize,
    /// The first checkpoint whose state differed.
    pub divergence: Option<Divergence>,
}

/// Where a played-back run parted from its recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    pub tick: u64,
    pub recorded: u64,
    pub replayed: u64,
    /// The subsystems whose own hash differs, in hash order.
    pub sections: Vec<String>,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the run parts from the recording by tick {}: state hash {:016x}, recorded {:016x}; differing: {}",
            self.tick,
            self.replayed,
            self.recorded,
            self.sections.join(", ")
        )
    }
}

impl Plugin for PlaybackPlugin {
    fn build(&self, app: &mut App) {
        configure_input(app);
        app.insert_resource(Playback {
            replay: self.0.clone(),
            checked: 0,
            divergence: None,
        })
        .add_systems(FixedUpdate, play_step.in_set(ReplayInput))
        .add_systems(Last, verify.in_set(Phase::Maintenance));
    }
}

fn play_step(clock: Res<GameClock>, playback: Res<Playback>, mut input: ResMut<StepInput>) {
    *input = playback.replay.input_at(clock.tick());
}

/// Compares the state with the recording's checkpoint at this tick.
fn verify(world: &mut World) {
    let tick = world.resource::<GameClock>().tick();
    let playback = world.resource::<Playback>();
    let checkpoints = &playback.replay.checkpoints;
    let Ok(at) = checkpoints.binary_search_by_key(&tick, |c| c.tick) else {
        return;
    };
    if playback.checked > at {
        return;
    }
    let recorded = checkpoints[at].clone();
    let now = checkpoint(world);
    let mut playback = world.resource_mut::<Playback>();
    playback.checked = at + 1;
    if now.hash != recorded.hash && playback.divergence.is_none() {
        let sections = now
            .sections
            .iter()
            .filter(|s| !recorded.sections.contains(s))
            .map(|(name, _)| name.clone())
            .collect();
        playback.divergence = Some(Divergence {
            tick,
            recorded: recorded.hash,
            replayed: now.hash,
            sections,
        });
    }
}
