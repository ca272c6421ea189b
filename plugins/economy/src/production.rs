//! Production (openparkan `docs/36-factory.md`, "Production";
//! `docs/23-economy.md`, "Construction", "What a free bot is spared";
//! `docs/38-designs.md`, "The price"): each factory's queue of designs and
//! its build under way with its three budgets (power, ore, time); a build
//! done makes the robot at the factory's exit, a unit of its clan with a
//! new original id.

use crate::distribute::{EconomyEvent, EconomyEventKind, EconomyEvents};
use crate::orders::{members_with, take_building_orders};
use crate::research::{ClanTree, ClanTrees, Trees, budget_fractions, least_done};
use crate::stock::{Building, Stock};
use bevy::prelude::*;
use iron3d_formats::order::{ORDER_BUILDING_CONSTRUCT, ORDER_STOP};
use iron3d_formats::research::ResearchTree;
use iron3d_schedules::GameClock;
use iron3d_world::mission::{
    Blueprints, BodyBounds, Design, ObjectClan, PlacedTransform, PropertyBag, spawn_built,
};
use iron3d_world::save::SavedValue;
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldMessage};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The time budget of a paid build, whatever the robot (docs/23,
/// "Construction").
pub const PAID_BUILD_TIME: f32 = 5.0;
/// The power a free build costs (docs/23, "What a free bot is spared").
pub const FREE_BUILD_POWER: f32 = 1.0;
/// A free build's time when the table has no row for the factory and
/// chassis sizes.
pub const FREE_BUILD_TIME_ELSE: f32 = 20.0;

/// A build under way: its design, the clan it is built for, whether it
/// is free, and its three budgets, power, ore and time: what each costs
/// and what was collected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildTask {
    pub design: String,
    pub clan: u32,
    pub free: bool,
    pub costs: [f32; 3],
    pub collected: [f32; 3],
}

impl BuildTask {
    /// The share built: the smallest of the three fractions.
    pub fn fraction(&self) -> f32 {
        least_done(&self.costs, &self.collected)
    }

    /// The share of each budget collected: power, ore, time.
    pub fn fractions(&self) -> [f32; 3] {
        budget_fractions(&self.costs, &self.collected)
    }

    /// The ore it asks for at a takt (docs/23, "Construction"): what is
    /// missing × k × KPD × 0.2 + 0.07, with k 0.2 below a fifth collected,
    /// the share collected up to four fifths, 3 above; at most what is
    /// missing.
    pub fn ore_request(&self, kpd: f32) -> f32 {
        let (cost, got) = (self.costs[1], self.collected[1]);
        let missing = (cost - got).max(0.0);
        if missing <= 0.0 {
            return 0.0;
        }
        let f = got / cost;
        let k = match f {
            f if f < 0.2 => 0.2,
            f if f <= 0.8 => f,
            _ => 3.0,
        };
        (missing * k * kpd * 0.2 + 0.07).min(missing)
    }
}

/// A factory's production: the designs queued, the build under way, its
/// free builds left (`FreeBotNum`) and its size.
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Production {
    pub queue: VecDeque<String>,
    pub task: Option<BuildTask>,
    pub free: u32,
    /// Small 2, medium 3, large 4 (none: the model's name gives none).
    pub size: Option<u8>,
}

impl Production {
    /// A factory's production as placed: its free builds from its
    /// properties, its size from its model's prototype key.
    pub fn of(bag: &PropertyBag, model: &[u8]) -> Self {
        Self {
            free: bag.int("FreeBotNum").map_or(0, |n| n.max(0) as u32),
            size: building_size(model),
            ..Self::default()
        }
    }
}

impl SavedValue for Production {
    fn check_saved(&self) -> Result<(), String> {
        let bad = self
            .task
            .as_ref()
            .is_some_and(|t| t.costs.iter().chain(&t.collected).any(|f| *f < 0.0));
        match bad {
            true => Err(format!("a build budget below 0: {self:?}")),
            false => Ok(()),
        }
    }
}

/// A building's size from its model's prototype key (docs/23, "The bot
/// limit"): its fourth letter, `l` 2, `m` 3, `b` 4, `e` 5.
pub fn building_size(key: &[u8]) -> Option<u8> {
    match key.get(3)?.to_ascii_lowercase() {
        b'l' => Some(2),
        b'm' => Some(3),
        b'b' => Some(4),
        b'e' => Some(5),
        _ => None,
    }
}

/// A chassis' size from its prototype key (docs/23, "The bot limit"):
/// its third letter, `t` 1, `l` or `h` 2, `m` 3, `b` 4.
pub fn chassis_size(key: &[u8]) -> Option<u8> {
    match key.get(2)?.to_ascii_lowercase() {
        b't' => Some(1),
        b'l' | b'h' => Some(2),
        b'm' => Some(3),
        b'b' => Some(4),
        _ => None,
    }
}

/// A free build's time, by the factory's and the chassis' sizes (docs/23,
/// "What a free bot is spared": the table at `0x1002a000`).
pub fn free_build_time(factory: Option<u8>, chassis: Option<u8>) -> f32 {
    match (factory, chassis) {
        (Some(2), Some(1)) => 30.0,
        (Some(2), Some(2)) => 60.0,
        (Some(3), Some(1)) => 20.0,
        (Some(3), Some(2)) => 35.0,
        (Some(3), Some(3)) => 60.0,
        (Some(4), Some(1)) => 10.0,
        (Some(4), Some(2)) => 20.0,
        (Some(4), Some(3)) => 40.0,
        (Some(4), Some(4)) => 60.0,
        _ => FREE_BUILD_TIME_ELSE,
    }
}

/// A design's price in its clan's tree (docs/38, "The price"): the build
/// energy and ore of every part; an error names a part the tree lacks or
/// the clan has not researched.
pub fn price(design: &Design, tree: &ResearchTree, state: &ClanTree) -> Result<[f32; 2], String> {
    let mut sum = [0.0; 2];
    for key in &design.parts {
        let shown = String::from_utf8_lossy(key);
        let item = tree
            .item_of_part(key)
            .ok_or_else(|| format!("technology to create {shown} is not in the clan's tree"))?;
        if !state.researched(item as usize) {
            return Err(format!("technology to create {shown} is not researched"));
        }
        let record = &tree.items[item as usize];
        sum[0] += record.build_energy;
        sum[1] += record.build_ore;
    }
    Ok(sum)
}

/// The builds under way among `members` (original ids): each factory, its
/// design and the share built.
pub fn builds(world: &World, members: &[u32]) -> Vec<(u32, String, f32)> {
    members_with::<Production>(world, members)
        .filter_map(|(id, p)| {
            let task = p.task.as_ref()?;
            Some((id, task.design.clone(), task.fraction()))
        })
        .collect()
}

/// Build orders (12) join their factory's queue, each tick.
pub(crate) fn take_build_orders(
    mut messages: MessageReader<WorldMessage>,
    registry: Res<ObjectRegistry>,
    mut factories: Query<&mut Production>,
) {
    let order = (ORDER_BUILDING_CONSTRUCT, Some("factory"));
    take_building_orders(
        &mut messages,
        &registry,
        &mut factories,
        order,
        |production, packet, seq| match packet.target.name_text() {
            Some(design) => production.queue.push_back(design),
            None => warn!("order packet {seq}: a build names no design"),
        },
    );
}

/// The stop order (1) to a factory aborts its build and empties its
/// queue (docs/36, "What the controls do"); what the build collected is
/// not given back.
// STAND-IN: docs/36 and docs/23 do not say whether an aborted build's
// ore and power come back; ours keeps them spent.
pub(crate) fn take_stop_orders(
    mut messages: MessageReader<WorldMessage>,
    registry: Res<ObjectRegistry>,
    mut factories: Query<&mut Production>,
) {
    let order = (ORDER_STOP, None);
    take_building_orders(
        &mut messages,
        &registry,
        &mut factories,
        order,
        |production, _, _| {
            production.task = None;
            production.queue.clear();
        },
    );
}

/// A build done, to be made at the end of the step.
#[derive(Debug, Clone)]
pub(crate) struct Done {
    factory: u32,
    design: String,
}

/// The builds done at this step (emptied as they are made).
#[derive(Resource, Debug, Default)]
pub(crate) struct Deliveries(Vec<Done>);

/// What a factory's takt reads of the mission.
pub(crate) struct Catalogue<'a> {
    pub blueprints: Option<&'a Blueprints>,
    pub trees: &'a Trees,
    pub states: &'a ClanTrees,
}

/// A factory as its step sees it.
pub(crate) type Factory<'a> = (
    &'a OriginalObjectId,
    &'a Building,
    &'a mut Stock,
    &'a mut Production,
    &'a ObjectClan,
);

/// Each standing factory's build over the step of `dt` seconds, after
/// the distribution: its task takes the power its charge served, the ore
/// it was given and its time; a task with every budget collected is done
/// (and a free one spends a free build); an idle factory starts the first
/// design of its queue it may build (a refused one is dropped, as the
/// original drops it), and asks for the power and ore its task still
/// needs.
pub(crate) fn build_step(
    dt: f32,
    catalogue: &Catalogue,
    deliveries: &mut Deliveries,
    factory: Factory,
) {
    let (id, building, stock, production, clan) = factory;
    let profile = building.profile;
    // A factory that changed hands drops its build and its queue (docs/36,
    // "Mission 02": seen in a recording).
    if production
        .task
        .as_ref()
        .is_some_and(|t| t.clan != clan.identity_raw)
    {
        production.task = None;
        production.queue.clear();
    }
    if let Some(task) = &mut production.task {
        if task.collected[0] < task.costs[0] {
            task.collected[0] += building.kpd * profile.use_power * dt * stock.level;
        }
        let ore = stock
            .ore_received
            .min((task.costs[1] - task.collected[1]).max(0.0));
        stock.ore_received -= ore;
        task.collected[1] += ore;
        task.collected[2] += dt;
        if task.fraction() + 0.001 >= 1.0 {
            if task.free {
                production.free = production.free.saturating_sub(1);
            }
            deliveries.0.push(Done {
                factory: id.0,
                design: task.design.clone(),
            });
            production.task = None;
        }
    }
    while production.task.is_none() {
        let Some(design) = production.queue.pop_front() else {
            break;
        };
        match start(catalogue, building, production, clan.identity_raw, &design) {
            Ok(task) => production.task = Some(task),
            Err(why) => warn!("factory {:#010x}: build of {design} refused: {why}", id.0),
        }
    }
    let asks = production.task.as_ref().map(|t| {
        let power = if t.collected[0] < t.costs[0] {
            profile.use_power
        } else {
            0.0
        };
        (power, t.ore_request(building.kpd))
    });
    (stock.usage, stock.ore_wanted) = asks.unwrap_or((0.0, 0.0));
}

/// The task of a build of `name` at a factory of clan `clan`: every part
/// of the design researched in the clan's tree (a free build too: the
/// factory screen refuses such a design, docs/36 "Projects"); free while
/// the factory has free builds (no ore, 1 power, the table's time), else
/// the design's price, its ore divided by the factory's KPD, over
/// [`PAID_BUILD_TIME`]; an error says why the factory refuses.
fn start(
    catalogue: &Catalogue,
    building: &Building,
    production: &Production,
    clan: u32,
    name: &str,
) -> Result<BuildTask, String> {
    let design = catalogue
        .blueprints
        .and_then(|b| b.design(name))
        .ok_or("the install has no such design")?;
    let chassis = design.parts.first().and_then(|k| chassis_size(k));
    if let (Some(factory), Some(chassis)) = (production.size, chassis)
        && chassis > factory
    {
        return Err(format!(
            "its chassis (size {chassis}) is bigger than the factory (size {factory})"
        ));
    }
    let (tree, state) = catalogue
        .trees
        .0
        .get(&clan)
        .zip(catalogue.states.0.get(&clan))
        .ok_or("the clan has no research tree")?;
    let [energy, ore] = price(&design, tree, state)?;
    let free = production.free > 0;
    let costs = if free {
        let time = free_build_time(production.size, chassis);
        [FREE_BUILD_POWER, 0.0, time]
    } else {
        let kpd = building.kpd;
        let ore = if kpd > 0.0 { ore / kpd } else { ore };
        [energy, ore, PAID_BUILD_TIME]
    };
    Ok(BuildTask {
        design: design.name,
        clan,
        free,
        costs,
        collected: [0.0; 3],
    })
}

/// How far beyond its body's edge a robot made in a factory appears.
const EXIT_MARGIN: f32 = 5.0;

/// Makes the robots of the builds done at this step, in the order they
/// were done: each at its factory's exit, a unit of the factory's clan
/// with the next original id, standing by; each is a `built` event.
// STAND-IN: the original makes the robot at the factory model's creation
// vertex (its hall-way vertex with bit 0x800) and gives it the escape
// order (20): docs/36 "Production". Hall-ways are not read yet, so ours
// appears on the ground beside the factory, past its body on its own +X
// side, with no order.
pub(crate) fn deliver(world: &mut World) {
    let Some(done) = world
        .get_resource_mut::<Deliveries>()
        .map(|mut d| std::mem::take(&mut d.0))
    else {
        return;
    };
    let tick = world.resource::<GameClock>().tick();
    for Done { factory, design } in done {
        let Some(entity) = world
            .resource::<ObjectRegistry>()
            .entity(OriginalObjectId(factory))
            .ok()
        else {
            continue;
        };
        let (Some(placed), Some(clan)) = (
            world.get::<PlacedTransform>(entity).copied(),
            world.get::<ObjectClan>(entity).map(|c| c.identity_raw),
        ) else {
            continue;
        };
        let reach = world.get::<BodyBounds>(entity).map_or(0.0, |b| {
            [b.min.x, b.max.x, b.min.z, b.max.z]
                .iter()
                .fold(0.0f32, |m, v| m.max(v.abs()))
        });
        let yaw = placed.orientation[2];
        let d = reach + EXIT_MARGIN;
        let [x, y, z] = placed.position;
        let exit = [x + d * yaw.cos(), y + d * yaw.sin(), z];
        match spawn_built(world, &design, clan, exit, yaw) {
            Ok(id) => world.resource_mut::<EconomyEvents>().0.push(EconomyEvent {
                made: Some(id.raw()),
                design: Some(design),
                ..EconomyEvent::new(tick, EconomyEventKind::Built, factory)
            }),
            Err(why) => warn!("factory {factory:#010x}: {design} not made: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::role::Role;
    use iron3d_formats::config::profile::BuildingProfile;
    use iron3d_formats::research::{AVAILABLE, IN_TREE, NewItem, RESEARCHED, TechItem};

    fn plant() -> Building {
        Building::new(
            Role::Plant,
            BuildingProfile {
                use_power: 4.0,
                use_ore: 5.0,
                ..BuildingProfile::default()
            },
        )
    }

    /// Steps a factory of clan 1 building `task` every 0.2 s, its charge
    /// serving `level` of its use and `ore` arriving at each step; the step
    /// the robot is done at.
    fn done_at(task: BuildTask, level: f32, ore: f32) -> Option<usize> {
        let mut production = Production {
            task: Some(task),
            ..Production::default()
        };
        (1..=1000).find(|_| step(&mut production, 1, level, ore))
    }

    /// One step of `production` at a factory of clan `owner`; whether a
    /// robot was done.
    fn step(production: &mut Production, owner: u32, level: f32, ore: f32) -> bool {
        let catalogue = Catalogue {
            blueprints: None,
            trees: &Trees::default(),
            states: &ClanTrees::default(),
        };
        let mut deliveries = Deliveries::default();
        let clan = ObjectClan {
            identity_raw: owner,
            clan_id: Some(owner as i32),
        };
        let mut stock = Stock {
            level,
            ore_received: ore,
            ..Stock::default()
        };
        let factory = (
            &OriginalObjectId(9),
            &plant(),
            &mut stock,
            production,
            &clan,
        );
        build_step(0.2, &catalogue, &mut deliveries, factory);
        !deliveries.0.is_empty()
    }

    #[test]
    fn a_captured_factory_drops_its_build_and_its_queue() {
        let mut production = Production {
            task: Some(task([8.0, 10.0, PAID_BUILD_TIME], [8.0, 10.0, 4.9])),
            queue: ["Warbot".to_string()].into(),
            ..Production::default()
        };
        assert!(!step(&mut production, 2, 1.0, 0.0), "nothing made");
        assert_eq!((production.task, production.queue.len()), (None, 0));
    }

    #[test]
    fn a_build_is_done_when_its_last_budget_is_collected() {
        let paid = task([8.0, 10.0, PAID_BUILD_TIME], [0.0; 3]);
        // Ore plenty, power whole: the time binds (5 s, 25 steps).
        assert_eq!(done_at(paid.clone(), 1.0, 100.0), Some(25));
        // Power short (a quarter of its use served): 8 at 1 a second.
        assert_eq!(done_at(paid.clone(), 0.25, 100.0), Some(40));
        // Ore short: 0.1 a step, 100 steps.
        assert_eq!(done_at(paid, 1.0, 0.1), Some(100));
    }

    #[test]
    fn a_design_costs_its_parts_build_costs_when_researched() {
        let item = |part: &str, build: [f32; 2]| NewItem {
            record: TechItem::costing(9, [0.0, 0.0], build),
            code: part.into(),
            name: part.into(),
            part_id: part.into(),
            prerequisites: Vec::new(),
        };
        let granted = IN_TREE | AVAILABLE | RESEARCHED;
        let items = [
            item("ch_a", [25.0, 95.0]),
            item("gun_a", [6.0, 15.0]),
            item("gun_b", [9.0, 20.0]),
        ];
        let bytes = ResearchTree::build(&items, &[granted, granted, IN_TREE]).unwrap();
        let tree = ResearchTree::parse(&bytes).unwrap();
        let state = ClanTree::of(&tree);
        let design = |parts: &[&str]| Design {
            name: "D".into(),
            unit_type: 0,
            parts: parts.iter().map(|p| p.as_bytes().to_vec()).collect(),
        };
        assert_eq!(
            price(&design(&["CH_A", "gun_a", "gun_a"]), &tree, &state),
            Ok([37.0, 125.0])
        );
        let e = price(&design(&["ch_a", "gun_b"]), &tree, &state).unwrap_err();
        assert!(e.contains("gun_b is not researched"), "{e}");
        let e = price(&design(&["ch_a", "gun_c"]), &tree, &state).unwrap_err();
        assert!(e.contains("gun_c is not in the clan's tree"), "{e}");
    }

    fn task(costs: [f32; 3], collected: [f32; 3]) -> BuildTask {
        BuildTask {
            design: "X".into(),
            clan: 1,
            free: false,
            costs,
            collected,
        }
    }

    #[test]
    fn the_ore_request_follows_the_share_collected() {
        // Below a fifth: k = 0.2.
        let t = task([0.0, 100.0, 5.0], [0.0, 10.0, 0.0]);
        assert!((t.ore_request(1.0) - (90.0 * 0.2 * 0.2 + 0.07)).abs() < 1e-4);
        // Half: k = 0.5, and the KPD scales it.
        let t = task([0.0, 100.0, 5.0], [0.0, 50.0, 0.0]);
        assert!((t.ore_request(3.0) - (50.0 * 0.5 * 3.0 * 0.2 + 0.07)).abs() < 1e-4);
        // Past four fifths: k = 3, at most what is missing.
        let t = task([0.0, 100.0, 5.0], [0.0, 90.0, 0.0]);
        assert!((t.ore_request(1.0) - (10.0 * 3.0 * 0.2 + 0.07)).abs() < 1e-4);
        let t = task([0.0, 100.0, 5.0], [0.0, 99.99, 0.0]);
        assert!(t.ore_request(5.0) <= 0.0101);
        assert_eq!(task([0.0, 0.0, 5.0], [0.0; 3]).ore_request(1.0), 0.0);
    }

    #[test]
    fn sizes_come_from_the_prototype_keys() {
        assert_eq!(building_size(b"fr_l_plant"), Some(2));
        assert_eq!(building_size(b"FR_B_PLANT"), Some(4));
        assert_eq!(building_size(b"fr"), None);
        assert_eq!(chassis_size(b"r_t_walk"), Some(1));
        assert_eq!(chassis_size(b"r_h_hero"), Some(2));
        assert_eq!(chassis_size(b"CH_WALK"), None);
    }

    #[test]
    fn a_free_build_takes_the_table_s_time() {
        assert_eq!(free_build_time(Some(2), Some(1)), 30.0);
        assert_eq!(free_build_time(Some(3), Some(2)), 35.0);
        assert_eq!(free_build_time(Some(4), Some(4)), 60.0);
        assert_eq!(free_build_time(Some(2), Some(3)), FREE_BUILD_TIME_ELSE);
        assert_eq!(free_build_time(None, Some(1)), FREE_BUILD_TIME_ELSE);
    }
}
