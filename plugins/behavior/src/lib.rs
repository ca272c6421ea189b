//! Behavior (tome VI "AI, Behavior и Wizard"): every unit with a controller
//! holds a list of orders, addressed to it by original id through the
//! World3D queue, and its head order drives the unit's [`PhysicalState`]
//! (requested speed and turn; never a transform).
//!
//! | step | where | what |
//! |---|---|---|
//! | take | [`SimStep::Receive`] | delivered order packets join their units' lists ([`order`]) |
//! | footprints | [`SimStep::Behavior`] | trees', stones' and buildings' footprints when a static body comes or goes ([`wizard`]) |
//! | locate | [`SimStep::Behavior`] | each unit's areal ([`route`]) |
//! | report | [`SimStep::Behavior`] | units on their takt report the mission paths (tactical areals) they stand in ([`tactical`]) |
//! | scan | [`SimStep::Behavior`] | radars whose scan is due look; contacts sorted by clan ([`sensor`], [`clan`]) |
//! | seize | [`SimStep::Behavior`], after steer | captured buildings change owner ([`capture`]) |
//! | engage | [`SimStep::Behavior`] | a unit between orders attacks the nearest hostile within 500 (a patrolling one only inside its circle); an armed building targets it ([`attack`]) |
//! | leash | [`SimStep::Behavior`] | an attack that took a patrolling unit beyond its circle's reach is dropped ([`patrol`]) |
//! | steer | [`SimStep::Behavior`] | the head order plans and follows a route, and becomes the step's request ([`steer`]) |
//!
//! Orders carried out: `ORDER_ROBOT_STOP`, `ORDER_ROBOT_GO` to a place (and
//! `ORDER_ROBOT_ATTACK` at a place, which the original turns into a go),
//! `ORDER_ROBOT_PATROL`, `ORDER_ROBOT_FOLLOW` an object,
//! `ORDER_ROBOT_ATTACK` an object, `ORDER_ROBOT_CAPTURE` a building,
//! `ORDER_ROBOT_LEAVE` and `ORDER_ROBOT_STAYGROUND`. Going anywhere follows a global path over the
//! walkable areals cut into local points ([`route`]); what fails is a
//! [`Diagnostic`] of tome VI's error states ([`diagnostic`]).
//!
//! [`PhysicalState`]: iron3d_control::PhysicalState

pub mod attack;
pub mod capture;
pub mod clan;
pub mod diagnostic;
pub mod leave;
pub mod obstacle;
pub mod order;
pub mod patrol;
pub mod route;
pub mod sensor;
pub mod steer;
pub mod tactical;
pub mod wizard;

pub use attack::Target;
pub use capture::{Pod, Pods, Seizures};
pub use clan::{ClanRelations, Relation};
pub use diagnostic::{BehaviorDiagnostics, Diagnostic, ErrorState};
pub use order::{
    InsertMode, Order, OrderError, OrderKind, OrderPacket, OrderTarget, Orders, check_order,
    parse_order_command,
};
pub use route::{PATH_STREAM, Route};
pub use sensor::Sensor;
pub use steer::{BehaviorIni, BehaviorParams};
pub use tactical::{RouteReport, TacticalAreals};
pub use wizard::Footprints;

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, SimStep};
use iron3d_world::mission::{MissionPhase, MissionReaderExt, MissionScopeExt};
use iron3d_world::save::AppSaveExt;

/// The Behavior plugin. Needs the spine, the World3D, mission and Control
/// plugins.
pub struct BehaviorPlugin;

impl Plugin for BehaviorPlugin {
    fn build(&self, app: &mut App) {
        app.add_mission_reader(MissionPhase::Foundation, steer::read_behavior_ini)
            .remove_on_unload::<BehaviorIni>()
            .init_mission_resource::<BehaviorParams>()
            .init_mission_resource::<BehaviorDiagnostics>()
            .init_mission_resource::<Footprints>()
            .init_mission_resource::<ClanRelations>()
            .init_mission_resource::<TacticalAreals>()
            .init_mission_resource::<Seizures>()
            .init_mission_resource::<Pods>()
            .add_observer(order::give_order_list)
            .add_observer(attack::give_fire_control)
            .add_systems(FixedUpdate, order::take_orders.in_set(SimStep::Receive))
            .add_systems(
                FixedUpdate,
                (
                    (steer::read_params, clan::read_clans),
                    wizard::gather_footprints,
                    route::locate,
                    tactical::report_routes,
                    sensor::scan,
                    attack::engage,
                    patrol::leash,
                    attack::aim_buildings,
                    steer::steer,
                    capture::watch_pods,
                    capture::seize,
                )
                    .chain()
                    .in_set(SimStep::Behavior),
            )
            .add_state_hash("behavior_orders", order::hash_orders)
            .add_state_hash("behavior_routes", route::hash_routes)
            .add_state_hash("behavior_sensors", sensor::hash_sensors)
            .add_state_hash("behavior_targets", attack::hash_targets)
            .add_state_hash("behavior_route_reports", tactical::hash_reports)
            .add_state_hash("behavior_pods", capture::hash_pods)
            // Saved: the units' orders, routes, sensors, targets and route
            // reports, the lists of units on each path, the capture pods, and
            // the diagnostics so far. What Behavior derives from the mission
            // (footprints, clan relations, its parameters) is derived again
            // on the first step after a load.
            .save_object_component::<order::Orders>("behavior_orders")
            .save_object_component::<route::Route>("behavior_routes")
            .save_object_component::<sensor::Sensor>("behavior_sensors")
            .save_object_component::<attack::Target>("behavior_targets")
            .save_object_component::<tactical::RouteReport>("behavior_route_reports")
            .save_resource::<tactical::TacticalAreals>("behavior_path_units")
            .save_resource::<capture::Pods>("behavior_pods")
            .save_resource::<diagnostic::BehaviorDiagnostics>("behavior_diagnostics");
    }
}
