//! The economy (openparkan `docs/23-economy.md`; GAMEPLAY §5): each clan's
//! distributor sharing its generators' power and its mines' and
//! storages' ore among its buildings, mines digging, transports carrying.
//!
//! | step | where | what |
//! |---|---|---|
//! | read | the mission load's resources phase | the behaviour profiles of `behpsp.res` by role, the building categories' Type words ([`load`]) |
//! | join | `OnEnter(MissionPhase::Running)` | every placed building with a role, and every transport, gets its [`Building`] and [`Stock`] |
//! | orders | [`SimStep::Economy`], each tick | research orders (14) join their centre's queue ([`research`]), build orders (12) their factory's, and a stop (1) to a factory aborts its build and empties its queue ([`production`]) |
//! | step | [`SimStep::Economy`] | every 200 ms: buildings join their owner's distributor and leave others, mines dig, transports carry, each clan shares power and ore ([`distribute`]); research centres take their share and research ([`research`]); factories take theirs and build ([`production`]) |
//! | deliver | [`SimStep::Economy`], after the step | the robots of the builds done are made at their factories, with new original ids ([`production`]) |
//!
//! The stocks, the distributors, the centres' research, the factories'
//! production and the clans' tree states are simulation state (the state
//! hash and saves); the `mined`, `researched` and `built` events are the
//! mission's log (saves).

pub mod constants;
pub mod distribute;
pub mod load;
mod orders;
pub mod production;
pub mod research;
pub mod role;
pub mod share;
pub mod stock;

pub use distribute::{Distributor, Distributors, EconomyEvent, EconomyEventKind, EconomyEvents};
pub use production::{BuildTask, Production, builds};
pub use research::{ClanTree, ClanTrees, Research, ResearchTask, Trees, researches};
pub use role::Role;
pub use stock::{Building, Stock};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, AppStateSaveExt, SimStep, StateHasher, check_as};
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::{MissionPhase, MissionReaderExt, MissionScopeExt};
use iron3d_world::save::AppSaveExt;

/// The economy. Needs the spine and the mission plugin.
pub struct EconomyPlugin;

impl Plugin for EconomyPlugin {
    fn build(&self, app: &mut App) {
        app.add_mission_reader(MissionPhase::Resources, load::read_economy)
            .remove_on_unload::<load::EconomyData>()
            .init_mission_resource::<Distributors>()
            .init_mission_resource::<EconomyEvents>()
            .init_mission_resource::<ClanTrees>()
            .init_mission_resource::<Trees>()
            .init_mission_resource::<production::Deliveries>()
            .register_type::<Building>()
            .register_type::<Stock>()
            .add_systems(OnEnter(MissionPhase::Running), load::join_economy)
            .add_systems(
                FixedUpdate,
                (
                    research::take_research_orders,
                    production::take_build_orders,
                    production::take_stop_orders,
                    distribute::step_economy,
                    production::deliver,
                )
                    .chain()
                    .in_set(SimStep::Economy),
            )
            .add_state_hash("economy", hash_economy)
            .save_checked_object_component::<Stock>("economy_stocks")
            .save_resource::<Distributors>("economy")
            .save_resource::<EconomyEvents>("economy_events")
            .save_checked_object_component::<Research>("research")
            .save_checked_object_component::<Production>("production")
            .add_state_save(
                "research_trees",
                research::save_trees,
                check_as::<ClanTrees>,
                research::restore_trees,
            );
    }
}

/// Every clan's distributor, then the stocks by original id.
fn hash_economy(world: &World, hasher: &mut StateHasher) {
    if let Some(trees) = world.get_resource::<ClanTrees>() {
        for (clan, tree) in &trees.0 {
            hasher.field_at("tree", *clan as usize);
            hasher.write(&tree.state);
            tree.progress.iter().for_each(|f| hasher.write_f32(*f));
        }
    }
    if let Some(distributors) = world.get_resource::<Distributors>() {
        for (clan, d) in &distributors.clans {
            hasher.field_at("clan", *clan as usize);
            hasher.write_u32(*clan);
            hasher.write_u32(d.members.len() as u32);
            d.members.iter().for_each(|id| hasher.write_u32(*id));
            [
                d.power_available,
                d.power_demand,
                d.power_share,
                d.ore_available,
                d.ore_demand,
                d.ore_share,
                d.ore,
                d.ore_bar,
                d.energy_bar,
            ]
            .iter()
            .for_each(|f| hasher.write_f32(*f));
        }
    }
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(stock) = world.get::<Stock>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        hasher.field("stock");
        stock.figures().iter().for_each(|f| hasher.write_f32(*f));
        if let Some(research) = world.get::<Research>(entity) {
            hasher.field("research");
            hash_research(research, hasher);
        }
        if let Some(production) = world.get::<Production>(entity) {
            hasher.field("production");
            hash_production(production, hasher);
        }
    }
}

/// A factory's queue, free builds, size and task.
fn hash_production(production: &Production, hasher: &mut StateHasher) {
    hasher.write_u32(production.queue.len() as u32);
    for design in &production.queue {
        hasher.write_u32(design.len() as u32);
        hasher.write(design.as_bytes());
    }
    hasher.write_u32(production.free);
    hasher.write_u32(production.size.map_or(0, u32::from));
    if let Some(task) = &production.task {
        hasher.write_u32(task.design.len() as u32);
        hasher.write(task.design.as_bytes());
        hasher.write_u32(task.clan);
        hasher.write_u32(u32::from(task.free));
        task.costs
            .iter()
            .chain(&task.collected)
            .for_each(|f| hasher.write_f32(*f));
    }
}

/// A centre's queue, free researches, time and task.
fn hash_research(research: &Research, hasher: &mut StateHasher) {
    hasher.write_u32(research.queue.len() as u32);
    research.queue.iter().for_each(|i| hasher.write_u32(*i));
    hasher.write_u32(research.free);
    hasher.write_f32(research.time);
    if let Some(task) = &research.task {
        hasher.write_u32(task.item);
        task.costs
            .iter()
            .chain(&task.collected)
            .for_each(|f| hasher.write_f32(*f));
    }
}
