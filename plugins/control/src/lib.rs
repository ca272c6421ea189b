//! Control (tome VI "Control, физика и коллизии"): every registered object
//! gets a physical body; objects with a controller move by their
//! [`PhysicalState`] on the terrain, the rest are static bodies that still
//! collide.
//!
//! One fixed step follows the collision pipeline of tome VI, in the steps
//! of the tick table ([`SimStep`]):
//!
//! | step | what |
//! |---|---|
//! | [`SimStep::Attach`] | new objects get bodies; changed geometry rebuilds them |
//! | [`SimStep::Integrate`] | 1–2: requested speed and turn give a candidate transform |
//! | [`SimStep::Collide`] | 3–5: the collision backend (avian3d) updates bounds, pairs and contacts |
//! | [`SimStep::Resolve`] | 6: terrain (cliffs, ground contact, falls), push-out between bodies, buildings' faces, map edge |
//! | [`SimStep::Publish`] | 7–8: World3D gets the final transforms; new contact pairs post `GMSG_COLLISION_DETECTED` |
//! | [`SimStep::Animate`] | the controller's state graph steps on; then the feet that land ([`footing`]) |
//!
//! When the frame is published, each mover's chassis model shows the step
//! it plays and mounted parts follow their sockets ([`pose`]).
//!
//! Every object is processed in original-id order, contact pairs sorted by
//! their two ids; avian3d runs its own schedule from [`SimStep::Collide`]
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

pub use body::{Body, LiveLimits, MotionFlags, PhysicalState, Piloted, StaticBody, map_velocity};
pub use building::BuildingFaces;
pub use contact::TouchingPairs;
pub use footing::{Footing, Landing};
pub use gait::{Gait, GaitFrame, GaitGraph, Motion, applies};
pub use ground::{GroundFaces, GroundHit, crosses};
pub use motion::{GRAVITY, StepStart, WALKABLE_NORMAL_Z};
pub use terrain::{MapBounds, TerrainBody};

use bevy::prelude::*;
use iron3d_schedules::AppStateHashExt;
#[cfg(doc)]
use iron3d_schedules::SimStep;

/// The Control plugin. Needs the spine, the World3D plugin and the
/// mission plugin.
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
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
