//! Control (tome VI "Control, физика и коллизии"): every registered object
//! gets a physical body; objects with a controller move by their
//! [`PhysicalState`] on the terrain, the rest are static bodies that still
//! collide.
//!
//! One fixed step, inside `Phase::UpdateWorld`, follows the collision
//! pipeline of tome VI:
//!
//! | step | what |
//! |---|---|
//! | [`ControlStep::Attach`] | new objects get bodies; changed geometry rebuilds them |
//! | [`ControlStep::Integrate`] | 1–2: requested speed and turn give a candidate transform |
//! | [`ControlStep::Backend`] | 3–5: the collision backend (avian3d) updates bounds, pairs and contacts |
//! | [`ControlStep::Resolve`] | 6: terrain (cliffs, ground contact, falls), push-out between bodies, buildings' faces, map edge |
//! | [`ControlStep::Publish`] | 7–8: World3D gets the final transforms; new contact pairs post `GMSG_COLLISION_DETECTED` |
//! | [`ControlStep::Animate`] | the controller's state graph steps on; then the feet that land ([`footing`]) |
//!
//! When the frame is published, each mover's chassis model shows the step
//! it plays and mounted parts follow their sockets ([`pose`]).
//!
//! Every object is processed in original-id order, contact pairs sorted by
//! their two ids; avian3d runs its own schedule from [`ControlStep::Backend`]
//! only, never on its own clock. Everything avian-specific is behind
//! [`backend`], so another backend (rapier) can follow.

pub mod backend;
mod body;
mod building;
mod contact;
pub mod footing;
mod gait;
mod ground;
mod motion;
pub mod pose;
mod save;
mod terrain;

pub use body::{Body, LiveLimits, MotionFlags, PhysicalState, Piloted, StaticBody};
pub use building::BuildingFaces;
pub use contact::TouchingPairs;
pub use footing::{Footing, Landing};
pub use gait::{Gait, GaitFrame, GaitGraph, Motion, applies};
pub use ground::{GroundFaces, GroundHit, crosses};
pub use motion::{GRAVITY, WALKABLE_NORMAL_Z};
pub use terrain::{MapBounds, TerrainBody};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, Phase};

/// The steps of one Control tick inside `Phase::UpdateWorld`, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControlStep {
    Attach,
    Integrate,
    Backend,
    Resolve,
    Publish,
    Animate,
}

/// The Control plugin. Needs the spine, the World3D plugin and the
/// mission plugin.
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            FixedUpdate,
            (
                ControlStep::Attach,
                ControlStep::Integrate,
                ControlStep::Backend,
                ControlStep::Resolve,
                ControlStep::Publish,
                ControlStep::Animate,
            )
                .chain()
                .in_set(Phase::UpdateWorld),
        );
        backend::plugin(app);
        terrain::plugin(app);
        body::plugin(app);
        building::plugin(app);
        motion::plugin(app);
        contact::plugin(app);
        gait::plugin(app);
        footing::plugin(app);
        pose::plugin(app);
        save::plugin(app);
        app.add_state_hash("control", body::hash_bodies)
            .add_state_hash("control_contacts", contact::hash_touching)
            .add_state_hash("control_gait", gait::hash_gaits);
    }
}
