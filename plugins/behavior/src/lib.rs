//! Behavior (tome VI "AI, Behavior и Wizard"): every unit with a controller
//! holds a list of orders, addressed to it by original id through the
//! World3D queue, and its head order drives the unit's [`PhysicalState`]
//! (requested speed and turn; never a transform).
//!
//! | step | where | what |
//! |---|---|---|
//! | take | `Phase::CalculateWorldQueue`, [`QueueStep::Traverse`] | delivered order packets join their units' lists ([`order`]) |
//! | steer | `Phase::UpdateWorld`, [`BehaviorStep`], after Control's attach and before its integrator | the head order becomes the step's request ([`steer`]) |
//!
//! What is here so far is the physical-step level: `ORDER_ROBOT_STOP`,
//! `ORDER_ROBOT_GO` to a place (and `ORDER_ROBOT_ATTACK` at a place, which
//! the original turns into a go), `ORDER_ROBOT_FOLLOW` an object and
//! `ORDER_ROBOT_STAYGROUND`. Paths over the areal map, the Wizard and the
//! other orders follow.
//!
//! [`PhysicalState`]: iron3d_control::PhysicalState
//! [`QueueStep::Traverse`]: iron3d_world::QueueStep::Traverse

pub mod order;
pub mod steer;

pub use order::{
    InsertMode, Order, OrderError, OrderKind, OrderPacket, OrderTarget, Orders, parse_order_command,
};
pub use steer::BehaviorParams;

use bevy::prelude::*;
use iron3d_control::ControlStep;
use iron3d_schedules::{AppStateHashExt, Phase};
use iron3d_world::QueueStep;

/// Behavior's step inside `Phase::UpdateWorld`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BehaviorStep;

/// The Behavior plugin. Needs the spine, the World3D, mission and Control
/// plugins.
pub struct BehaviorPlugin;

impl Plugin for BehaviorPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            FixedUpdate,
            BehaviorStep
                .in_set(Phase::UpdateWorld)
                .after(ControlStep::Attach)
                .before(ControlStep::Integrate),
        )
        .init_resource::<BehaviorParams>()
        .add_observer(order::give_order_list)
        .add_systems(FixedUpdate, order::take_orders.in_set(QueueStep::Traverse))
        .add_systems(
            FixedUpdate,
            (steer::read_params, steer::steer)
                .chain()
                .in_set(BehaviorStep),
        )
        .add_state_hash("behavior_orders", order::hash_orders);
    }
}
