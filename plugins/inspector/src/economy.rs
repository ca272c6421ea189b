//! The economy for the panel: each clan's distributor with its totals and
//! bars, its buildings with what they hold, wanted and received, and its
//! research centres' researches and its factories' builds.

use bevy::prelude::*;
use iron3d_economy::{Building, Distributors, Production, Stock, researches};
use iron3d_world::mission::MissionClans;
use iron3d_world::{ObjectRegistry, OriginalObjectId};

/// One clan's economy.
#[derive(Debug, Clone, PartialEq)]
pub struct ClanEconomyView {
    /// `Player: ore 120 (3%), power 10.0/s, demand 1.0/s (energy 90%)`.
    pub title: String,
    /// `#5 mine: ore 120/500, power wanted 0.20 got 0.20, ore wanted 0.00 got 0.00`.
    pub buildings: Vec<String>,
    /// `#7 researches item 3: 40%`.
    pub research: Vec<String>,
    /// `#4 builds Warbot (free): 40% (power 100%, ore 100%, time 40%), 1 queued`.
    pub builds: Vec<String>,
}

/// Every clan with a distributor, by identity word.
pub fn economy_view(world: &World) -> Vec<ClanEconomyView> {
    let (Some(distributors), Some(registry)) = (
        world.get_resource::<Distributors>(),
        world.get_resource::<ObjectRegistry>(),
    ) else {
        return Vec::new();
    };
    let clans = world.get_resource::<MissionClans>();
    distributors
        .clans
        .iter()
        .map(|(identity, d)| {
            let name = clans
                .and_then(|c| c.0.get(*identity as usize))
                .map_or_else(|| format!("clan {identity}"), |c| {
                    String::from_utf8_lossy(&c.name).into_owned()
                });
            let title = format!(
                "{name}: ore {:.0} ({:.0}%), power {:.1}/s, demand {:.1}/s (energy {:.0}%)",
                d.ore,
                d.ore_bar * 100.0,
                d.power_available,
                d.power_demand,
                d.energy_bar * 100.0
            );
            let entity = |id: u32| registry.entity(OriginalObjectId(id)).ok();
            let buildings = d
                .members
                .iter()
                .filter_map(|id| {
                    let e = entity(*id)?;
                    let (building, s) = (world.get::<Building>(e)?, world.get::<Stock>(e)?);
                    Some(format!(
                        "#{id} {}: ore {:.0}/{:.0}, power wanted {:.2} got {:.2}, ore wanted {:.2} got {:.2}",
                        building.role.name(),
                        s.ore,
                        s.ore_most,
                        s.power_wanted,
                        s.power_received,
                        s.ore_wanted,
                        s.ore_received
                    ))
                })
                .collect();
            let research = researches(world, &d.members, *identity)
                .into_iter()
                .map(|(id, item, done)| format!("#{id} researches item {item}: {:.0}%", done * 100.0))
                .collect();
            let builds = d
                .members
                .iter()
                .filter_map(|id| Some((id, world.get::<Production>(entity(*id)?)?)))
                .filter_map(|(id, p)| Some(build_line(*id, p.task.as_ref()?, p.queue.len())))
                .collect();
            ClanEconomyView {
                title,
                buildings,
                research,
                builds,
            }
        })
        .collect()
}

/// A factory's build with each of its three budgets' share collected.
fn build_line(id: u32, task: &iron3d_economy::BuildTask, queued: usize) -> String {
    let [power, ore, time] = task.fractions().map(|f| f * 100.0);
    format!(
        "#{id} builds {}{}: {:.0}% (power {power:.0}%, ore {ore:.0}%, time {time:.0}%), {queued} queued",
        task.design,
        if task.free { " (free)" } else { "" },
        task.fraction() * 100.0,
    )
}
