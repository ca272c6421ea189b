//! The report's economy: each clan's distributor with its buildings, the
//! install's designs, and the economy's events among the report's events.

use bevy::prelude::*;
use iron3d_economy::{
    Building, ClanTrees, Distributors, EconomyEvent, EconomyEvents, Stock, builds, researches,
};
use iron3d_world::mission::{Blueprints, MissionClans};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use serde::Serialize;

/// One clan's economy at the end.
#[derive(Debug, Serialize)]
pub(super) struct ClanReport {
    /// The clan's name in the mission; its identity word beside it.
    clan: Option<String>,
    identity: u32,
    /// Ore held in its mines and storages.
    ore: f32,
    /// Power its generators give and its buildings lacked, a second, at
    /// its last distribution step.
    power_available: f32,
    power_demand: f32,
    /// The HUD's bars, 0 to 1.
    ore_bar: f32,
    energy_bar: f32,
    /// Its buildings in the order they joined its distributor.
    buildings: Vec<BuildingReport>,
    /// Its factories' builds under way.
    builds: Vec<BuildReport>,
    /// Its research centres' researches under way.
    research: Vec<ResearchReport>,
    /// The items of its research tree researched, by index.
    researched: Vec<usize>,
}

/// A build under way.
#[derive(Debug, Serialize)]
struct BuildReport {
    factory: u32,
    /// The design's name.
    design: String,
    /// The share built, 0 to 1 (the least of its three budgets).
    progress: f32,
}

/// A research under way.
#[derive(Debug, Serialize)]
struct ResearchReport {
    institute: u32,
    item: u32,
    /// The share of the item researched, 0 to 1.
    progress: f32,
}

/// One building of a clan's distributor.
#[derive(Debug, Serialize)]
struct BuildingReport {
    id: u32,
    role: &'static str,
    ore: f32,
    power_wanted: f32,
    power_received: f32,
    ore_wanted: f32,
    ore_received: f32,
}

/// Every clan with a distributor, by identity word.
pub(super) fn clans(world: &World) -> Vec<ClanReport> {
    let Some(distributors) = world.get_resource::<Distributors>() else {
        return Vec::new();
    };
    let names = world.get_resource::<MissionClans>();
    let registry = world.resource::<ObjectRegistry>();
    let building = |id: u32| {
        let entity = registry.entity(OriginalObjectId(id)).ok()?;
        let role = world.get::<Building>(entity)?.role;
        let stock = world.get::<Stock>(entity)?;
        Some(BuildingReport {
            id,
            role: role.name(),
            ore: stock.ore,
            power_wanted: stock.power_wanted,
            power_received: stock.power_received,
            ore_wanted: stock.ore_wanted,
            ore_received: stock.ore_received,
        })
    };
    let trees = world.get_resource::<ClanTrees>();
    let research = |members: &[u32], identity: u32| -> Vec<ResearchReport> {
        researches(world, members, identity)
            .into_iter()
            .map(|(institute, item, progress)| ResearchReport {
                institute,
                item,
                progress,
            })
            .collect()
    };
    let researched = |identity: u32| -> Vec<usize> {
        trees
            .and_then(|t| t.0.get(&identity))
            .map_or_else(Vec::new, |t| t.researched_items())
    };
    distributors
        .clans
        .iter()
        .map(|(identity, d)| ClanReport {
            clan: names
                .and_then(|n| n.0.get(*identity as usize))
                .map(|c| String::from_utf8_lossy(&c.name).into_owned()),
            identity: *identity,
            ore: d.ore,
            power_available: d.power_available,
            power_demand: d.power_demand,
            ore_bar: d.ore_bar,
            energy_bar: d.energy_bar,
            buildings: d.members.iter().filter_map(|id| building(*id)).collect(),
            builds: builds(world, &d.members)
                .into_iter()
                .map(|(factory, design, progress)| BuildReport {
                    factory,
                    design,
                    progress,
                })
                .collect(),
            research: research(&d.members, *identity),
            researched: researched(*identity),
        })
        .collect()
}

/// The economy's events.
pub(super) fn events(world: &World) -> Vec<EconomyEvent> {
    world
        .get_resource::<EconomyEvents>()
        .map_or_else(Vec::new, |e| e.0.clone())
}

/// A design the install offers the factories.
#[derive(Debug, Serialize)]
pub(super) struct DesignReport {
    /// What `--order "ID BUILD DESIGN"` names it by.
    name: String,
    /// Its unit file's Type word.
    unit_type: u32,
    /// Its parts' prototype keys, the chassis first.
    parts: Vec<String>,
}

/// The install's designs, as the mission prepared them.
pub(super) fn designs(world: &World) -> Vec<DesignReport> {
    let Some(blueprints) = world.get_resource::<Blueprints>() else {
        return Vec::new();
    };
    blueprints
        .designs()
        .map(|d| DesignReport {
            name: d.name,
            unit_type: d.unit_type,
            parts: d
                .parts
                .iter()
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .collect(),
        })
        .collect()
}
