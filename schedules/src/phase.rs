//! The scheduler phases of tome VII and where each one runs.
//!
//! Frame order (one Bevy frame):
//!
//! | phase | schedule |
//! |---|---|
//! | `CollectPlatformEvents`, `BuildInputSnapshot` | `PreUpdate` (after Bevy's input systems) |
//! | `AdvanceGameClock`, `CalculateWorldQueue`, `ApplyDeferredOperations`, `UpdateWorld` | `FixedUpdate`, zero or more times per frame |
//! | `PublishRenderSnapshot`, `RenderUi` | `PostUpdate` (before transform propagation) |
//! | `EndFrameCallbacks`, `Maintenance` | `Last` |
//!
//! Bevy runs `PreUpdate` before the fixed loop and `PostUpdate`/`Last` after
//! it, so the sets of different schedules are ordered by the main schedule
//! itself; the sets sharing a schedule are chained here.

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};
use bevy::input::InputSystems;
use bevy::prelude::*;
use bevy::transform::TransformSystems;

/// One phase of the Iron3D frame. Simulation phases (the four in
/// `FixedUpdate`) run on the game clock; the others on real frames.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Window, device and network events are read into engine messages.
    CollectPlatformEvents,
    /// The immutable input snapshot the simulation reads this frame.
    BuildInputSnapshot,
    /// The game clock advances by one fixed step.
    AdvanceGameClock,
    /// World objects are traversed and world messages dispatched; registry
    /// mutation is forbidden here (deletions are deferred).
    CalculateWorldQueue,
    /// Deferred deletions and registrations take effect.
    ApplyDeferredOperations,
    /// Navigation, physics, animation and effects step.
    UpdateWorld,
    /// The presentation state the renderer reads is published.
    PublishRenderSnapshot,
    /// Menus, HUD and inspector panels.
    RenderUi,
    /// Callbacks that must see the finished frame.
    EndFrameCallbacks,
    /// Cache eviction and other work that must not affect gameplay.
    Maintenance,
}

impl Phase {
    /// Every phase, in frame order.
    pub const ALL: [Phase; 10] = [
        Phase::CollectPlatformEvents,
        Phase::BuildInputSnapshot,
        Phase::AdvanceGameClock,
        Phase::CalculateWorldQueue,
        Phase::ApplyDeferredOperations,
        Phase::UpdateWorld,
        Phase::PublishRenderSnapshot,
        Phase::RenderUi,
        Phase::EndFrameCallbacks,
        Phase::Maintenance,
    ];

    /// The simulation phases, in order: they run in `FixedUpdate`.
    pub const SIMULATION: [Phase; 4] = [
        Phase::AdvanceGameClock,
        Phase::CalculateWorldQueue,
        Phase::ApplyDeferredOperations,
        Phase::UpdateWorld,
    ];

    /// Whether this phase runs on the fixed-step game clock.
    pub fn is_simulation(self) -> bool {
        Self::SIMULATION.contains(&self)
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.configure_sets(
        PreUpdate,
        (Phase::CollectPlatformEvents, Phase::BuildInputSnapshot)
            .chain()
            .after(InputSystems),
    )
    .configure_sets(
        FixedUpdate,
        (
            Phase::AdvanceGameClock,
            Phase::CalculateWorldQueue,
            Phase::ApplyDeferredOperations,
            Phase::UpdateWorld,
        )
            .chain()
            .run_if(crate::clock::clock_runs),
    )
    .configure_sets(
        PostUpdate,
        (Phase::PublishRenderSnapshot, Phase::RenderUi)
            .chain()
            .before(TransformSystems::Propagate),
    )
    .configure_sets(Last, (Phase::EndFrameCallbacks, Phase::Maintenance).chain());
}

/// Makes any ambiguity (two systems with conflicting access and no order)
/// in the simulation schedule a build error. The tests of every plugin with
/// systems in the simulation phases or beside them (world, input,
/// inspector, render) call it, so that system order inside a phase stays
/// explicit.
pub fn deny_simulation_ambiguities(app: &mut App) {
    deny_ambiguities(app, FixedUpdate);
}

/// Runs every schedule of `app` made so far on the calling thread. A
/// headless run's frames are small (one fixed step each): on a machine
/// with few cores, waking the task pool's threads for each schedule costs
/// far more than running its systems one after another (about 12 times
/// the whole frame on a 2-core machine: docs/book/src/benchmarks.md,
/// "Headless runs on one thread"). System order is explicit where it
/// matters, so the state is the same on either executor.
pub fn run_on_one_thread(app: &mut App) {
    let mut schedules = app.world_mut().resource_mut::<Schedules>();
    for (_, schedule) in schedules.iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
}

fn deny_ambiguities(app: &mut App, label: impl ScheduleLabel) {
    app.edit_schedule(label, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
}
