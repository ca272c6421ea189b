//! The tick table: every step one fixed simulation step runs, in order.
//!
//! This is the one place that says when a subsystem's systems run
//! relative to another's. Each crate puts its systems `.in_set(SimStep::X)`
//! and orders them only against its own systems inside that step; no crate
//! names another crate's sets. The book's architecture chapter prints this
//! table (a test compares the two).
//!
//! When adding a variant, put it in [`SimStep::ALL`] and in the chain of
//! its phase in [`plugin`], in the order it runs.

use crate::phase::Phase;
use bevy::prelude::*;

/// One step of the fixed simulation step, inside one of the simulation
/// [`Phase`]s.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimStep {
    // Phase::AdvanceGameClock
    /// The game clock counts the step's tick (schedules).
    Clock,
    /// The step's input is taken from the player's snapshot (player).
    TakeInput,
    /// A played replay's input stands in for it, a recording writes it
    /// down, the trace notes it (replay).
    ReplayInput,

    // Phase::CalculateWorldQueue
    /// The calculation pass opens: deletions are deferred from here (world).
    OpenQueue,
    /// Queued world messages are delivered (world).
    Dispatch,
    /// What was delivered is taken: order packets join their units'
    /// lists (behavior); the trace notes every message (replay).
    Receive,
    /// Destroyed machines whose delete time has come are deleted (combat).
    Reap,
    /// The calculation pass closes (world).
    CloseQueue,

    // Phase::ApplyDeferredOperations
    /// The deferred deletions are read before they take effect (replay's trace).
    NoteDeletions,
    /// The deferred deletions take effect (world).
    ApplyDeletions,

    // Phase::UpdateWorld
    /// New objects get bodies, terrain and gaits; changed geometry rebuilds them (control).
    Attach,
    /// Footprints, areals, sensors, targets, orders and routes become each
    /// unit's request; captures change owners (behavior).
    Behavior,
    /// The hero's request, turn, turret aim and trigger from the step's input (player).
    Pilot,
    /// Requested speed and turn give candidate transforms (control).
    Integrate,
    /// The candidate transforms are read (replay's trace).
    Candidates,
    /// The collision backend updates bounds, pairs and contacts (control).
    Collide,
    /// Terrain, push-out between bodies, buildings' faces and the map edge (control).
    Resolve,
    /// Guns aim and fire, shields recharge, rounds fly, damage lands (combat).
    Combat,
    /// Effect instances start, follow, play their sounds and end (fx).
    Effects,
    /// The ambience picks and plays its sounds (sound).
    Ambience,
    /// Buildings join and leave their clans' distributors; mines dig,
    /// transports carry, and each clan's distribution step shares power
    /// and ore (economy).
    Economy,
    /// The clans' scripts run; messages speak (script).
    Scripts,
    /// World3D gets the final transforms; new contact pairs post their messages (control).
    Publish,
    /// Controllers' state graphs step on; feet land (control).
    Animate,
    /// A state taken runs its effect group, a foot that landed its contact's (fx).
    React,
}

impl SimStep {
    /// Every step with its phase, in the order a fixed step runs them.
    pub const ALL: [(SimStep, Phase); 25] = [
        (SimStep::Clock, Phase::AdvanceGameClock),
        (SimStep::TakeInput, Phase::AdvanceGameClock),
        (SimStep::ReplayInput, Phase::AdvanceGameClock),
        (SimStep::OpenQueue, Phase::CalculateWorldQueue),
        (SimStep::Dispatch, Phase::CalculateWorldQueue),
        (SimStep::Receive, Phase::CalculateWorldQueue),
        (SimStep::Reap, Phase::CalculateWorldQueue),
        (SimStep::CloseQueue, Phase::CalculateWorldQueue),
        (SimStep::NoteDeletions, Phase::ApplyDeferredOperations),
        (SimStep::ApplyDeletions, Phase::ApplyDeferredOperations),
        (SimStep::Attach, Phase::UpdateWorld),
        (SimStep::Behavior, Phase::UpdateWorld),
        (SimStep::Pilot, Phase::UpdateWorld),
        (SimStep::Integrate, Phase::UpdateWorld),
        (SimStep::Candidates, Phase::UpdateWorld),
        (SimStep::Collide, Phase::UpdateWorld),
        (SimStep::Resolve, Phase::UpdateWorld),
        (SimStep::Combat, Phase::UpdateWorld),
        (SimStep::Effects, Phase::UpdateWorld),
        (SimStep::Ambience, Phase::UpdateWorld),
        (SimStep::Economy, Phase::UpdateWorld),
        (SimStep::Scripts, Phase::UpdateWorld),
        (SimStep::Publish, Phase::UpdateWorld),
        (SimStep::Animate, Phase::UpdateWorld),
        (SimStep::React, Phase::UpdateWorld),
    ];
}

/// Chains the steps inside their phases: the whole tick order in one call.
pub(crate) fn plugin(app: &mut App) {
    use SimStep::*;
    app.configure_sets(
        FixedUpdate,
        (
            (Clock, TakeInput, ReplayInput)
                .chain()
                .in_set(Phase::AdvanceGameClock),
            (OpenQueue, Dispatch, Receive, Reap, CloseQueue)
                .chain()
                .in_set(Phase::CalculateWorldQueue),
            (NoteDeletions, ApplyDeletions)
                .chain()
                .in_set(Phase::ApplyDeferredOperations),
            (
                Attach, Behavior, Pilot, Integrate, Candidates, Collide, Resolve, Combat, Effects,
                Ambience, Economy, Scripts, Publish, Animate, React,
            )
                .chain()
                .in_set(Phase::UpdateWorld),
        ),
    );
}
