//! Replays (tome VII "Тестовый контур"): the input snapshot of every fixed
//! step recorded as a session runs, played back in place of the devices,
//! and the state hash checked against the recording's checkpoints.
//!
//! | step | where | what |
//! |---|---|---|
//! | record / play a step | [`SimStep::ReplayInput`]: after the clock counts the step and the player's snapshot is taken | [`Recording`] adds the step's `StepInput`; [`Playback`] replaces it with the recorded one |
//! | checkpoint | `Last`, `Phase::Maintenance` | the state hash (and each subsystem's) every [`CHECKPOINT_EVERY`] ticks, at the frame that passes them |
//! | verify | `FixedLast`, after each step | on playback, the state at each checkpoint's tick compared with the recording's (however many steps a frame runs: loads and seeks run fast) |
//! | finish | `Last`, `Phase::Maintenance`, as the app exits or the mission leaves the slot | the recording written (write-then-rename) |
//!
//! The trace of a session ([`trace`]) is written beside it on the same
//! steps.
//!
//! A recording covers the first mission that runs (the next ones start
//! their own, for the saves); the player's
//! settings that reach the simulation (the mouse sensitivity) travel in
//! the step input, so a replay needs nothing else.

pub mod step;
pub mod trace;

pub use iron3d_formats::replay::{
    Checkpoint, FORMAT_VERSION, MAX_FILE_BYTES, MAX_RATE, MIN_RATE, Replay, ReplayError, Step,
    digest,
};
pub use step::{input_of, step_of};
pub use trace::{Trace, TraceLines, TracePlugin, finish_trace};

use bevy::app::AppExit;
use bevy::prelude::*;
use iron3d_player::StepInput;
use iron3d_schedules::{
    FieldDigest, GameClock, Phase, SavedSection, SimStep, StateHash, StateHasher, StateSave,
};
use iron3d_world::mission::{
    LoadProgress, MissionChange, MissionCommand, MissionDescription, MissionPhase, MissionScopeExt,
    RngStreams,
};
use iron3d_world::{GmsgKind, OriginalObjectId, WorldOutbox};
use std::path::PathBuf;
use std::sync::Arc;

/// Ticks between checkpoints (one a second at 30 Hz).
pub const CHECKPOINT_EVERY: u64 = 30;

/// Where a replay reads or writes the step's input, inside
/// [`SimStep::ReplayInput`] (the trace notes the input after it).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ReplayInput;

/// Where a playback sets the step's input (a recording of a loaded save
/// records it after).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct PlayStep;

/// Where a loaded save's state is put back: once its mission runs (every
/// `OnEnter` system of the mission's start has run: the state replaces
/// what they set up), before the first fixed step.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RestoreState;

/// [`ReplayInput`] runs in its step of the tick table: once the step's
/// tick is counted and its input taken from the snapshot.
fn configure_input(app: &mut App) {
    app.configure_sets(FixedUpdate, ReplayInput.in_set(SimStep::ReplayInput));
}

/// The identity of the install a mission was loaded from: FNV-1a of its
/// `data.tma` as the loader read it, 16 hex digits.
pub fn install_identity(description: &MissionDescription) -> String {
    let mut hasher = StateHasher::default();
    hasher.write(&description.tma.to_bytes().unwrap_or_default());
    format!("{:016x}", hasher.finish())
}

/// The checkpoint of the world now, and its field digest.
pub fn checkpoint(world: &World) -> (Checkpoint, FieldDigest) {
    let point = Checkpoint {
        tick: world.resource::<GameClock>().tick(),
        hash: StateHash::compute(world),
        sections: StateHash::sections(world)
            .into_iter()
            .map(|(name, hash)| (name.to_string(), hash))
            .collect(),
        changes: String::new(),
    };
    (point, StateHash::fields(world))
}

/// Records the session: into a replay file as it ends (`path`), and
/// into saves at the ticks `saves` names (a save is the replay up to
/// there).
#[derive(Debug, Clone, Default)]
pub struct RecordPlugin {
    pub path: Option<PathBuf>,
    pub rate: f64,
    pub saves: Vec<(u64, PathBuf)>,
    /// Orders given before the first step (raw id, packet bytes).
    pub orders: Vec<(u32, Vec<u8>)>,
}

/// The recording under way.
#[derive(Resource, Debug)]
pub struct Recording {
    pub path: Option<PathBuf>,
    /// The replay so far, from the mission's start until it is written.
    pub replay: Option<Replay>,
    rate: f64,
    orders: Vec<(u32, Vec<u8>)>,
    /// Saves still to make, by tick.
    pub saves: Vec<(u64, PathBuf)>,
    /// Saves that could not be written.
    pub save_errors: Vec<String>,
}

impl Plugin for RecordPlugin {
    fn build(&self, app: &mut App) {
        configure_input(app);
        app.insert_resource(Recording {
            path: self.path.clone(),
            replay: None,
            rate: self.rate,
            orders: self.orders.clone(),
            saves: self.saves.clone(),
            save_errors: Vec::new(),
        })
        .add_systems(OnEnter(MissionPhase::Running), start_recording)
        .add_systems(FixedUpdate, record_step.in_set(ReplayInput).after(PlayStep))
        .add_systems(OnExit(MissionPhase::Running), finish_recording)
        .add_systems(
            Last,
            (record_checkpoint, finish_on_exit)
                .chain()
                .in_set(Phase::Maintenance),
        );
    }
}

/// A mission runs: its recording starts, with the game seed and the
/// start orders (a loaded save's, when one plays again).
fn start_recording(
    mut recording: ResMut<Recording>,
    progress: Res<LoadProgress>,
    rng: Res<RngStreams>,
    playback: Option<Res<Playback>>,
    description: Option<Res<MissionDescription>>,
) {
    if recording.replay.is_some() {
        return;
    }
    let install = description
        .map(|d| install_identity(&d))
        .unwrap_or_default();
    let mut replay = Replay::new(
        progress.mission.clone(),
        install,
        rng.seed(),
        recording.rate,
    );
    info!("replay: recording {}", replay.mission);
    let save = playback.filter(|p| p.live_after_end);
    if let Some(save) = save.as_ref().filter(|p| p.restores_state) {
        // The session goes on from the save's recording.
        recording.replay = Some(save.replay.stateless());
        return;
    }
    replay.orders = match save {
        Some(save) => save.replay.orders.clone(),
        None => recording.orders.clone(),
    };
    recording.replay = Some(replay);
}

fn record_step(clock: Res<GameClock>, input: Res<StepInput>, mut recording: ResMut<Recording>) {
    if let Some(replay) = &mut recording.replay {
        replay.record(step_of(clock.tick(), &input));
    }
}

/// A checkpoint each time the clock has passed another
/// [`CHECKPOINT_EVERY`] ticks since the last one; the saves due by now.
fn record_checkpoint(world: &mut World) {
    let tick = world.resource::<GameClock>().tick();
    let due = world
        .resource::<Recording>()
        .replay
        .as_ref()
        .is_some_and(|r| tick >= r.checkpoints.last().map_or(0, |c| c.tick) + CHECKPOINT_EVERY);
    if due {
        let (point, fields) = checkpoint(world);
        if let Some(replay) = &mut world.resource_mut::<Recording>().replay {
            replay.push_checkpoint(point, &fields);
        }
    }
    let saves: Vec<(u64, PathBuf)> = {
        let mut recording = world.resource_mut::<Recording>();
        if recording.replay.is_none() {
            return;
        }
        let (now, later) = recording.saves.drain(..).partition(|(at, _)| *at <= tick);
        recording.saves = later;
        now
    };
    for (_, path) in saves {
        save(world, &path);
    }
}

/// Writes the replay so far, ending at this tick with its checkpoint, to
/// `path`: a save.
fn save(world: &mut World, path: &std::path::Path) {
    if let Err(e) = save_now(world, path) {
        error!("save: not written: {e}");
        world.resource_mut::<Recording>().save_errors.push(e);
    }
}

/// Saves the running mission's session to `path` now; its tick, or why
/// not (no mission recorded, the file not written).
pub fn save_now(world: &mut World, path: &std::path::Path) -> Result<u64, String> {
    let (point, fields) = checkpoint(world);
    let recording = world
        .get_resource::<Recording>()
        .ok_or("the session is not recorded")?;
    let mut replay = recording.replay.clone().ok_or("no mission is running")?;
    replay.state = Some(StateSave::capture(world).map_err(|e| e.to_string())?);
    replay.end_tick = point.tick;
    if replay
        .checkpoints
        .last()
        .is_none_or(|c| c.tick < point.tick)
    {
        replay.push_checkpoint(point, &fields);
    }
    replay.save(path).map_err(|e| e.to_string())?;
    info!(
        "save: tick {} written to {}",
        replay.end_tick,
        path.display()
    );
    Ok(replay.end_tick)
}

fn finish_on_exit(world: &mut World) {
    if !world.resource::<Messages<AppExit>>().is_empty() {
        finish_recording(world);
    }
}

/// Ends the recording with a checkpoint at its last tick and writes it
/// (the first mission's, when a file was asked for; a failure goes to
/// [`Recording::save_errors`]); the next mission that runs starts
/// another (for the saves), without the start orders. A headless run
/// calls it as its ticks run out.
pub fn finish_recording(world: &mut World) {
    if world.resource::<Recording>().replay.is_none() {
        return;
    }
    let (last, fields) = checkpoint(world);
    let mut recording = world.resource_mut::<Recording>();
    recording.orders.clear();
    let Some(mut replay) = recording.replay.take() else {
        return;
    };
    replay.end_tick = replay.end_tick.max(last.tick);
    if replay.checkpoints.last().is_none_or(|c| c.tick < last.tick) {
        replay.push_checkpoint(last, &fields);
    }
    let Some(path) = recording.path.take() else {
        return;
    };
    match replay.save(&path) {
        Ok(()) => info!(
            "replay: {} ticks, {} input changes, {} checkpoints written to {}",
            replay.end_tick,
            replay.steps.len(),
            replay.checkpoints.len(),
            path.display()
        ),
        Err(e) => {
            error!("replay: not written: {e}");
            recording.save_errors.push(e.to_string());
        }
    }
}

/// Plays a replay's input in place of the devices and checks its
/// checkpoints; a loaded save ([`PlaybackPlugin::load`]) then hands the
/// steps after its end to the live input.
#[derive(Debug, Clone)]
pub struct PlaybackPlugin {
    /// Shared with the [`Playback`] it inserts (a replay is read-only once
    /// loaded, and may be large).
    pub replay: Arc<Replay>,
    pub live_after_end: bool,
    /// The file the replay's state was read from, named by its errors.
    pub state_file: Option<PathBuf>,
}

impl PlaybackPlugin {
    /// The whole replay from the mission's start (a save's state, if it
    /// is one, is not taken), its input repeated after its end.
    pub fn replay(replay: Replay) -> Self {
        Self {
            replay: Arc::new(replay.without_state()),
            live_after_end: false,
            state_file: None,
        }
    }

    /// The replay from its state on ([`Replay::starting_from`]).
    pub fn replay_from(replay: impl Into<Arc<Replay>>) -> Self {
        Self {
            replay: replay.into(),
            live_after_end: false,
            state_file: None,
        }
    }

    /// The same, its state read from `path` (named when it does not
    /// load).
    pub fn state_from(self, path: PathBuf) -> Self {
        Self {
            state_file: Some(path),
            ..self
        }
    }

    /// A save: its steps, then the live input.
    pub fn load(save: Replay) -> Self {
        Self {
            replay: Arc::new(save),
            live_after_end: true,
            state_file: None,
        }
    }
}

/// The replay being played and what its checkpoints showed.
#[derive(Resource, Debug, Clone)]
pub struct Playback {
    pub replay: Arc<Replay>,
    /// Whether the steps after the replay's end take the live input.
    pub live_after_end: bool,
    /// Checkpoints reached and compared.
    pub checked: usize,
    /// The first checkpoint whose state differed.
    pub divergence: Option<Divergence>,
    /// The replay again with the played-back state at each checkpoint
    /// reached (this build's checkpoints for the same input: `replay
    /// --rerecord`).
    pub reached: Replay,
    /// The tick a seek in the watched replay runs fast to.
    pub seek_to: Option<u64>,
    /// The replay's state is put back (a loaded save's, or the one a
    /// replay starts from): the steps before it do not play again.
    pub restores_state: bool,
    /// The state is still to be put back.
    state_pending: bool,
    /// Why a loaded save's state could not be put back, or was not the
    /// one saved (the clock is stopped); it names the state's file when
    /// known.
    pub restore_error: Option<String>,
    /// The file the state was read from.
    pub state_file: Option<PathBuf>,
    /// The clock's scale to go back to when a loaded save has played
    /// again or a seek arrived ([`FAST_FORWARD`]).
    resume_scale: Option<f64>,
    /// The clock was stopped where the fast steps were going.
    held: bool,
}

/// How many differing fields a divergence's message names.
const SHOWN_FIELDS: usize = 6;

/// Where a played-back run parted from its recording.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    pub tick: u64,
    pub recorded: u64,
    pub replayed: u64,
    /// The subsystems whose own hash differs, in hash order.
    pub sections: Vec<String>,
    /// The fields whose own hash differs (`subject section.field`), in
    /// subject order: the first names the first object and field that
    /// differ. Empty when the recording has no field digests.
    pub fields: Vec<String>,
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
        )?;
        if self.fields.is_empty() {
            return Ok(());
        }
        let shown = self.fields.len().min(SHOWN_FIELDS);
        write!(f, "; fields: {}", self.fields[..shown].join(", "))?;
        match self.fields.len() - shown {
            0 => Ok(()),
            more => write!(f, " and {more} more"),
        }
    }
}

impl Playback {
    fn new(replay: Arc<Replay>, live_after_end: bool) -> Self {
        let restores_state = replay.state.is_some();
        Self {
            reached: replay.without_checkpoints(),
            replay,
            live_after_end,
            checked: 0,
            divergence: None,
            seek_to: None,
            restores_state,
            state_pending: restores_state,
            restore_error: None,
            state_file: None,
            resume_scale: None,
            held: false,
        }
    }

    /// `error` about the replay's state, naming the file it was read from
    /// when known.
    pub fn of_file(&self, error: &str) -> String {
        match &self.state_file {
            Some(file) => format!("{}: {error}", file.display()),
            None => error.to_string(),
        }
    }

    /// Whether a loaded save's steps are still being played again (or its
    /// state is still to be put back).
    pub fn loading(&self, tick: u64) -> bool {
        self.state_pending || (self.live_after_end && tick < self.replay.end_tick)
    }

    /// The tick up to which the clock runs fast: the end of a loaded
    /// save whose steps play again, or a seek's target.
    fn fast_until(&self) -> Option<u64> {
        let replays_steps = self.live_after_end && !self.restores_state;
        let save_end = replays_steps.then_some(self.replay.end_tick);
        save_end.max(self.seek_to)
    }
}

impl Plugin for PlaybackPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Playback {
            state_file: self.state_file.clone(),
            ..Playback::new(self.replay.clone(), self.live_after_end)
        });
        playback_systems(app);
    }
}

/// A replay to play as the next mission starts ([`LoadsPlugin`]).
#[derive(Resource, Debug, Clone)]
pub struct PendingLoad {
    pub replay: Arc<Replay>,
    /// A save: the live input after its end.
    pub live_after_end: bool,
    /// Run fast to this tick.
    pub seek_to: Option<u64>,
}

impl PendingLoad {
    /// A save to load: its steps again, then the live input.
    pub fn save(save: Replay) -> Self {
        Self {
            replay: Arc::new(save),
            live_after_end: true,
            seek_to: None,
        }
    }
}

/// Game time per real time while a loaded save's steps play again or a
/// seek runs.
pub const FAST_FORWARD: f64 = 64.0;

/// Game seconds a seek key moves the watched replay.
pub const SEEK_STEP_S: f64 = 10.0;

/// A seek asked for in the watched replay: to this tick (kept within the
/// replay).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct SeekRequest(pub Option<u64>);

/// Loads and seeks in a running game. A [`PendingLoad`] becomes the
/// [`Playback`] of the mission that loads next, played at
/// [`FAST_FORWARD`] times real time up to a save's end (then the live
/// input goes on) or a seek's target. A [`SeekRequest`] in a watched
/// replay (PageDown / PageUp: [`SEEK_STEP_S`] on / back, Home: the start)
/// runs fast to a later tick, or loads the mission anew and runs fast to
/// an earlier one. Every checkpoint on the way is checked.
pub struct LoadsPlugin;

impl Plugin for LoadsPlugin {
    fn build(&self, app: &mut App) {
        playback_systems(app);
        app.init_resource::<SeekRequest>()
            .add_systems(OnEnter(MissionPhase::Context), take_pending_load)
            .add_systems(
                OnEnter(MissionPhase::Running),
                start_playback.run_if(resource_exists::<Playback>),
            )
            .add_systems(
                RunFixedMainLoop,
                play_steps_instead
                    .after(RestoreState)
                    .in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop)
                    .run_if(resource_exists::<Playback>),
            )
            .add_systems(
                Update,
                seek_keys
                    .run_if(resource_exists::<Playback>)
                    .run_if(resource_exists::<ButtonInput<KeyCode>>),
            )
            .add_systems(Last, apply_seek.in_set(Phase::Maintenance))
            .add_systems(
                Last,
                fast_forward
                    .after(Phase::Maintenance)
                    .run_if(resource_exists::<Playback>),
            )
            .add_systems(
                FixedLast,
                hold_at_target
                    .run_if(resource_exists::<Playback>)
                    .after(verify),
            );
    }
}

/// The playback systems, once however many plugins need them.
fn playback_systems(app: &mut App) {
    #[derive(Resource)]
    struct Added;
    if app.world().contains_resource::<Added>() {
        return;
    }
    configure_input(app);
    app.insert_resource(Added)
        .add_systems(
            FixedUpdate,
            play_step
                .in_set(ReplayInput)
                .in_set(PlayStep)
                .run_if(resource_exists::<Playback>),
        )
        .add_systems(
            RunFixedMainLoop,
            restore_saved_state
                .in_set(RestoreState)
                .in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop)
                .run_if(in_state(MissionPhase::Running))
                .run_if(resource_exists::<Playback>),
        )
        .add_systems(FixedLast, verify.run_if(resource_exists::<Playback>))
        .on_unload(end_fast_forward)
        .remove_on_unload::<Playback>();
}

/// The mission the replay was made in starts loading: it plays again on
/// its seed.
fn take_pending_load(mut commands: Commands, pending: Option<Res<PendingLoad>>) {
    if let Some(pending) = pending {
        let mut playback = Playback::new(pending.replay.clone(), pending.live_after_end);
        playback.seek_to = pending.seek_to;
        commands.insert_resource(RngStreams::new(pending.replay.seed));
        commands.insert_resource(playback);
        commands.remove_resource::<PendingLoad>();
    }
}

/// The mission runs: the replay's start orders are given before its
/// first step, as they were when it was made.
fn start_playback(playback: Res<Playback>, mut outbox: ResMut<WorldOutbox>) {
    if playback.restores_state {
        return;
    }
    info!(
        "replay: playing {} ({} ticks, {} checkpoints)",
        playback.replay.mission,
        playback.replay.end_tick,
        playback.replay.checkpoints.len()
    );
    for (id, packet) in &playback.replay.orders {
        outbox.post(GmsgKind::Order, Some(OriginalObjectId(*id)), packet.clone());
    }
}

/// A replay with a state (a loaded save, a replay started from a save):
/// the mission, loaded anew, takes the state ([`StateSave::restore`]) and
/// its hash is checked against the checkpoint of its tick. A state made
/// on another install (another `data.tma`), one this build cannot put
/// back (a section it does not read, an object the mission lacks) or one
/// that differs from the checkpoint (its [`Divergence`]) is the load's
/// [`Playback::restore_error`], naming the file, and the clock stops
/// there.
fn restore_saved_state(world: &mut World) {
    let mut playback = world.resource_mut::<Playback>();
    if !std::mem::take(&mut playback.state_pending) {
        return;
    }
    let replay = Arc::clone(&playback.replay);
    let Some(state) = &replay.state else {
        return;
    };
    // The state's tick must be one the recording checked (the save's own).
    let checked: Vec<u64> = replay.checkpoints.iter().map(|c| c.tick).collect();
    // A state is put back only on the install it was made on.
    let failed = match made_on_this_install(world) {
        Err(e) => Some(e),
        Ok(()) => restore_checked(world, state, &checked),
    };
    // No step runs on a state that did not come back as it was saved.
    if let Some(error) = failed.map(|e| world.resource::<Playback>().of_file(&e)) {
        error!("save: the state does not load: {error}");
        world.resource_mut::<Playback>().restore_error = Some(error);
        world.resource_mut::<GameClock>().pause();
    }
}

/// Whether the replay being played was made on this install (the
/// identity of the mission's `data.tma`), as a save must be to load;
/// without a playback or a mission there is nothing to compare.
pub fn made_on_this_install(world: &World) -> Result<(), String> {
    let (Some(playback), Some(description)) = (
        world.get_resource::<Playback>(),
        world.get_resource::<MissionDescription>(),
    ) else {
        return Ok(());
    };
    let here = install_identity(description);
    let made = &playback.replay.install;
    if *made == here {
        Ok(())
    } else {
        Err(format!(
            "the save was made on another install (its data.tma {made}, this one {here})"
        ))
    }
}

/// Puts `state` back and checks it against the checkpoint of its tick
/// (one of `checked`); why it did not come back as saved, if it did not.
fn restore_checked(world: &mut World, state: &[SavedSection], checked: &[u64]) -> Option<String> {
    match StateSave::restore(world, state) {
        Ok(()) if !checked.contains(&world.resource::<GameClock>().tick()) => Some(format!(
            "game_clock: the state is of tick {}, which has no checkpoint in the save",
            world.resource::<GameClock>().tick()
        )),
        Ok(()) => {
            let tick = world.resource::<GameClock>().tick();
            info!("save: the state of tick {tick} is back");
            verify(world);
            let playback = world.resource::<Playback>();
            playback
                .divergence
                .as_ref()
                .map(|parted| format!("the state put back is not the one saved: {parted}"))
        }
        Err(e) => Some(e.to_string()),
    }
}

/// In a running game, a save whose state did not load is loaded again
/// without it: the mission anew, the save's steps played again.
fn play_steps_instead(world: &mut World) {
    let mut playback = world.resource_mut::<Playback>();
    if playback.restore_error.take().is_none() {
        return;
    }
    let replay = playback.replay.stateless();
    world.insert_resource(PendingLoad::save(replay));
    world
        .resource_mut::<MissionChange>()
        .request(MissionCommand::Restart);
}

/// As a frame ends (its checkpoint checked): the clock runs fast while a
/// loaded save plays again or a seek runs, then at the scale it had
/// before.
fn fast_forward(mut playback: ResMut<Playback>, mut clock: ResMut<GameClock>) {
    if std::mem::take(&mut playback.held) {
        clock.resume();
    }
    let tick = clock.tick();
    let fast = playback.fast_until().is_some_and(|until| tick < until);
    if !fast {
        playback.seek_to = None;
    }
    match playback.resume_scale {
        None if fast => {
            playback.resume_scale = Some(clock.scale());
            clock.set_scale(FAST_FORWARD);
        }
        Some(scale) if !fast => {
            clock.set_scale(scale);
            playback.resume_scale = None;
        }
        _ => {}
    }
}

/// The fast steps stop where they were going (a save's end, a seek's
/// target): the clock stands there until the next frame, so that the
/// live input or the replay's own pace takes over exactly at that tick.
fn hold_at_target(mut playback: ResMut<Playback>, mut clock: ResMut<GameClock>) {
    if !clock.is_paused() && playback.fast_until() == Some(clock.tick()) {
        clock.pause();
        playback.held = true;
    }
}

/// PageDown / PageUp seek the watched replay [`SEEK_STEP_S`] on / back
/// (from where a seek under way goes), Home to its start.
fn seek_keys(
    keys: Res<ButtonInput<KeyCode>>,
    playback: Res<Playback>,
    clock: Res<GameClock>,
    mut seek: ResMut<SeekRequest>,
) {
    if playback.live_after_end {
        return;
    }
    let step = (SEEK_STEP_S * playback.replay.rate) as u64;
    let from = playback.seek_to.unwrap_or(clock.tick());
    if keys.just_pressed(KeyCode::PageDown) {
        seek.0 = Some(from + step);
    }
    if keys.just_pressed(KeyCode::PageUp) {
        seek.0 = Some(from.saturating_sub(step));
    }
    if keys.just_pressed(KeyCode::Home) {
        seek.0 = Some(0);
    }
}

/// Carries out a [`SeekRequest`] in a watched replay: a later tick runs
/// fast to it; an earlier one loads the mission anew and runs fast from
/// its start (the state of a tick is only reached by playing up to it).
fn apply_seek(world: &mut World) {
    let Some(to) = world.resource_mut::<SeekRequest>().0.take() else {
        return;
    };
    let tick = world.resource::<GameClock>().tick();
    let Some(mut playback) = world.get_resource_mut::<Playback>() else {
        return;
    };
    if playback.live_after_end {
        return;
    }
    let to = to.min(playback.replay.end_tick);
    if to >= tick {
        info!("replay: seeking on to tick {to}");
        playback.seek_to = Some(to).filter(|&to| to > tick);
        return;
    }
    info!("replay: seeking back to tick {to}: the mission loads anew");
    let pending = PendingLoad {
        replay: Arc::new(playback.replay.stateless()),
        live_after_end: false,
        seek_to: Some(to).filter(|&to| to > 0),
    };
    world.insert_resource(pending);
    world
        .resource_mut::<MissionChange>()
        .request(MissionCommand::Restart);
}

/// A mission unloaded while its save was still playing again leaves the
/// clock at its scale from before.
fn end_fast_forward(world: &mut World) {
    let resume = world
        .get_resource_mut::<Playback>()
        .and_then(|mut playback| playback.resume_scale.take());
    if let Some(scale) = resume {
        world.resource_mut::<GameClock>().set_scale(scale);
    }
}

fn play_step(clock: Res<GameClock>, playback: Res<Playback>, mut input: ResMut<StepInput>) {
    let tick = clock.tick();
    if !(playback.live_after_end && tick > playback.replay.end_tick) {
        *input = input_of(&playback.replay.step_at(tick));
    }
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
    let (now, fields) = checkpoint(world);
    let mut playback = world.resource_mut::<Playback>();
    playback.checked = at + 1;
    playback.reached.push_checkpoint(now.clone(), &fields);
    if now.hash != recorded.hash && playback.divergence.is_none() {
        let sections = now
            .sections
            .iter()
            .filter(|s| !recorded.sections.contains(s))
            .map(|(name, _)| name.clone())
            .collect();
        // A replay without field digests names the subsystems alone.
        let order: Vec<&str> = now.sections.iter().map(|(name, _)| name.as_str()).collect();
        let fields = match playback.replay.fields_at(at) {
            Ok(was) if playback.replay.has_fields() => digest::differing(&was, &fields, &order),
            _ => Vec::new(),
        };
        playback.divergence = Some(Divergence {
            tick,
            recorded: recorded.hash,
            replayed: now.hash,
            sections,
            fields,
        });
    }
}
