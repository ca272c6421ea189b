//! The gate of resource preparation (tome IV "Resource preparation (wait
//! for assets)"): other plugins register the work the mission must wait for
//! (asset loads, say) as named blockers while the loader is in
//! [`MissionPhase::Resources`](super::MissionPhase::Resources), release each
//! when it is done, or report a failure with the links of its chain. The
//! loader moves on to construction once the gate is empty, and to
//! `Failed` on the first reported failure. The world crate knows nothing of
//! what the blockers are.

use super::{ErrorChain, LoadError, MissionPhase};
use bevy::prelude::*;
use std::collections::BTreeSet;

/// A failure of preparation work: the links of the chain the reporter
/// knows (mission and phase are the loader's) and the cause.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GateFailure {
    /// `#index 'resource_name'` of the placed object (see
    /// [`PlannedObject::label`](super::PlannedObject::label)).
    pub object: Option<String>,
    pub prototype: Option<String>,
    pub archive: Option<String>,
    pub entry: Option<String>,
    pub cause: String,
}

impl GateFailure {
    /// The loader's error for this failure in `mission`.
    pub fn into_error(self, mission: String) -> LoadError {
        ErrorChain {
            phase: MissionPhase::Resources,
            mission,
            object: self.object,
            prototype: self.prototype,
            archive: self.archive,
            entry: self.entry,
            cause: self.cause,
        }
        .into()
    }
}

/// Pending preparation work of the resources phase: a set of named
/// blockers and the first failure reported. Emptied when the phase ends.
#[derive(Resource, Debug, Default)]
pub struct ResourceGate {
    pending: BTreeSet<String>,
    failure: Option<GateFailure>,
}

impl ResourceGate {
    /// Holds the phase until `name` is released.
    pub fn hold(&mut self, name: impl Into<String>) {
        self.pending.insert(name.into());
    }

    /// Releases `name`; whether it was held.
    pub fn release(&mut self, name: &str) -> bool {
        self.pending.remove(name)
    }

    /// Reports a failure: loading stops with it (the first one is kept).
    pub fn fail(&mut self, failure: GateFailure) {
        self.failure.get_or_insert(failure);
    }

    /// The blockers still held, in name order.
    pub fn pending(&self) -> impl Iterator<Item = &str> {
        self.pending.iter().map(String::as_str)
    }

    /// No blocker held and no failure reported.
    pub fn is_open(&self) -> bool {
        self.pending.is_empty() && self.failure.is_none()
    }

    fn clear(&mut self) {
        self.pending.clear();
        self.failure = None;
    }
}

/// The resources phase's own checks passed; the loader now waits on the
/// gate since `start` (the phase's start).
#[derive(Resource, Debug)]
pub(super) struct AwaitingGate {
    pub start: std::time::Instant,
}

/// What the gate says this frame: keep waiting, go on, or stop.
pub(super) enum GateOutcome {
    Waiting,
    Open,
    Failed(LoadError),
}

/// Reads the gate (taking a reported failure) for `mission`.
pub(super) fn poll_gate(world: &mut World, mission: String) -> GateOutcome {
    let mut gate = world.resource_mut::<ResourceGate>();
    if let Some(failure) = gate.failure.take() {
        return GateOutcome::Failed(failure.into_error(mission));
    }
    match gate.pending.is_empty() {
        true => GateOutcome::Open,
        false => GateOutcome::Waiting,
    }
}

/// Empties the gate (on leaving the resources phase, either way).
pub(super) fn clear_gate(mut gate: ResMut<ResourceGate>) {
    gate.clear();
}
