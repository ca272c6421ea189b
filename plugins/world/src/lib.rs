//! World3D as ECS (tome II): original object ids beside Bevy entities, the
//! world queue with its calculation pass, `GMSG_*` world messages dispatched
//! in a stable order, and deferred deletion.
//!
//! Scripts, saves and the network address objects by [`OriginalObjectId`];
//! only the [`ObjectRegistry`] maps them to `Entity` values.

mod id;
mod message;
pub mod mission;
mod queue;
pub mod save;
#[cfg(feature = "test-support")]
pub mod test_support;

pub use id::{NoSuchObject, ObjectRegistry, OriginalObjectId, RegisterError};
pub use message::{GmsgKind, Undeliverable, WorldMessage, WorldOutbox};
pub use queue::{DeleteOutcome, PendingDelete, WorldOps, WorldQueue};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, AppStateSaveExt};
use save::AppSaveExt;

/// The World3D plugin. Needs the spine (`iron3d_schedules::SpinePlugin`).
pub struct WorldPlugin;

impl Plugin for WorldPlugin {
    fn build(&self, app: &mut App) {
        id::plugin(app);
        queue::plugin(app);
        message::plugin(app);
        app.add_state_hash("world_objects", id::hash_objects)
            .add_state_save(
                "world_objects",
                save::save_world_objects,
                save::check_world_objects,
                save::restore_world_objects,
            )
            .save_resource::<WorldOutbox>("world_outbox");
    }
}
