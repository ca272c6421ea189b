//! The world queue's calculation pass and deferred deletion (tome II).
//!
//! While the queue is being calculated (`SimStep::OpenQueue` ..
//! `SimStep::CloseQueue`) a delete request only marks the object
//! ([`PendingDelete`]) and queues it; `SimStep::ApplyDeletions` then
//! removes queued objects in request order. Outside the calculation a
//! delete is immediate.

use crate::id::{NoSuchObject, ObjectRegistry, OriginalObjectId};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use iron3d_schedules::SimStep;

/// The world queue: whether a calculation pass is running and the
/// deletions it deferred.
#[derive(Resource, Default, Debug)]
pub struct WorldQueue {
    in_calculation: bool,
    deferred: Vec<OriginalObjectId>,
}

impl WorldQueue {
    /// Whether a calculation pass is running.
    pub fn in_calculation(&self) -> bool {
        self.in_calculation
    }
    /// Deletions waiting for the apply phase, in request order.
    pub fn deferred(&self) -> &[OriginalObjectId] {
        &self.deferred
    }
}

/// Marks an object whose deletion was requested during a calculation pass.
#[derive(Component, Debug, Clone, Copy)]
pub struct PendingDelete;

/// What a delete request did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// Removed now (outside a calculation pass).
    Deleted,
    /// Queued until the apply-deferred-operations phase.
    Deferred,
    /// Already queued by an earlier request of this pass.
    AlreadyPending,
}

/// Object operations that respect the calculation pass.
#[derive(SystemParam)]
pub struct WorldOps<'w, 's> {
    queue: ResMut<'w, WorldQueue>,
    registry: ResMut<'w, ObjectRegistry>,
    commands: Commands<'w, 's>,
}

impl WorldOps<'_, '_> {
    /// Requests deletion of an object (tome II `DeleteGameObject`).
    pub fn delete(&mut self, id: OriginalObjectId) -> Result<DeleteOutcome, NoSuchObject> {
        let entity = self.registry.entity(id)?;
        if self.queue.in_calculation {
            if self.queue.deferred.contains(&id) {
                return Ok(DeleteOutcome::AlreadyPending);
            }
            self.queue.deferred.push(id);
            self.commands.entity(entity).insert(PendingDelete);
            Ok(DeleteOutcome::Deferred)
        } else {
            self.registry.unregister(id);
            self.commands.entity(entity).despawn();
            Ok(DeleteOutcome::Deleted)
        }
    }

    /// The entity of a live object.
    pub fn entity(&self, id: OriginalObjectId) -> Result<Entity, NoSuchObject> {
        self.registry.entity(id)
    }

    /// Whether a calculation pass is running.
    pub fn in_calculation(&self) -> bool {
        self.queue.in_calculation
    }

    /// The registry, read-only.
    pub fn registry(&self) -> &ObjectRegistry {
        &self.registry
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<WorldQueue>()
        .add_systems(FixedUpdate, enter_calculation.in_set(SimStep::OpenQueue))
        .add_systems(FixedUpdate, leave_calculation.in_set(SimStep::CloseQueue))
        .add_systems(
            FixedUpdate,
            apply_deferred_deletions.in_set(SimStep::ApplyDeletions),
        );
}

fn enter_calculation(mut queue: ResMut<WorldQueue>) {
    queue.in_calculation = true;
}

fn leave_calculation(mut queue: ResMut<WorldQueue>) {
    queue.in_calculation = false;
}

/// Removes the objects whose deletion was deferred, in request order.
fn apply_deferred_deletions(
    mut queue: ResMut<WorldQueue>,
    mut registry: ResMut<ObjectRegistry>,
    mut commands: Commands,
) {
    for id in queue.deferred.drain(..) {
        if let Some(entity) = registry.unregister(id) {
            commands.entity(entity).despawn();
        }
    }
}
