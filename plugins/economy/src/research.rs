//! Research (openparkan `docs/16-research.md`, "Researching", "The takt",
//! "Completing"): each clan's tree of items, and each research centre's
//! queue and task with its three budgets (power, ore, time).

use crate::distribute::{EconomyEvent, EconomyEventKind, EconomyEvents};
use crate::orders::{members_with, take_building_orders};
use crate::stock::{Building, Stock};
use bevy::prelude::*;
use iron3d_formats::order::ORDER_RESEARCH;
use iron3d_formats::research::{AVAILABLE, IN_TREE, RESEARCHED, ResearchTree};
use iron3d_world::mission::{ObjectClan, PropertyBag};
use iron3d_world::save::SavedValue;
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldMessage};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// Seconds a research takes at least when its centre has no
/// `FreeResearchTime` (docs/16, "Researching": the default 2 s).
pub const DEFAULT_RESEARCH_TIME: f32 = 2.0;

/// Ore still missing above which a centre asks for half of it.
const HALF_REQUEST_ABOVE: f32 = 5.0;

/// The state of one clan's tree: each item's state bits (TRF1's) and the
/// share of its research done.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClanTree {
    pub state: Vec<u8>,
    pub progress: Vec<f32>,
}

impl ClanTree {
    /// A tree as the mission starts: its stored state, nothing under way.
    pub fn of(tree: &ResearchTree) -> Self {
        Self {
            state: tree.state.clone(),
            progress: vec![0.0; tree.items.len()],
        }
    }

    /// Whether item `i` is researched.
    pub fn researched(&self, i: usize) -> bool {
        self.state.get(i).is_some_and(|s| s & RESEARCHED != 0)
    }

    /// The indices of the items researched.
    pub fn researched_items(&self) -> Vec<usize> {
        (0..self.state.len())
            .filter(|i| self.researched(*i))
            .collect()
    }

    /// Whether item `i` may be researched now: in the tree, available,
    /// not researched.
    fn open(&self, i: usize) -> bool {
        self.state.get(i).is_some_and(|s| {
            s & (IN_TREE | AVAILABLE) == IN_TREE | AVAILABLE && s & RESEARCHED == 0
        })
    }

    /// Item `i` is researched: every item of the tree whose prerequisites
    /// are all researched becomes available, and one of those that costs
    /// nothing to research is researched at once, in turn. Returns the
    /// items researched, `i` first.
    fn complete(&mut self, tree: &ResearchTree, i: usize) -> Vec<usize> {
        let mut done = vec![i];
        let mut next = vec![i];
        self.state[i] |= RESEARCHED | AVAILABLE;
        while let Some(item) = next.pop() {
            for &u in &tree.unlocks[item] {
                let u = u as usize;
                let ready = tree.prerequisites[u]
                    .iter()
                    .all(|&p| self.researched(p as usize));
                if self.state[u] & IN_TREE == 0 || !ready || self.researched(u) {
                    continue;
                }
                self.state[u] |= AVAILABLE;
                let it = &tree.items[u];
                if it.research_energy == 0.0 && it.research_ore == 0.0 {
                    self.state[u] |= RESEARCHED;
                    done.push(u);
                    next.push(u);
                }
            }
        }
        done
    }
}

/// Every clan's tree state, by the clan's identity word.
#[derive(Resource, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClanTrees(pub BTreeMap<u32, ClanTree>);

impl ClanTrees {
    /// Why these tree states cannot stand for `trees` (a clan the mission
    /// has no tree for, a tree of another length, a progress outside 0 to
    /// 1), if they cannot.
    pub fn check_against(&self, trees: &Trees) -> Result<(), String> {
        for (clan, state) in &self.0 {
            let items = trees
                .0
                .get(clan)
                .map(|t| t.items.len())
                .ok_or_else(|| format!("clan {clan} has no research tree"))?;
            if state.state.len() != items || state.progress.len() != items {
                return Err(format!(
                    "clan {clan}: a tree state of another length than its {items} items"
                ));
            }
            if state.progress.iter().any(|p| !(0.0..=1.0).contains(p)) {
                return Err(format!("clan {clan}: a research progress outside 0 to 1"));
            }
        }
        Ok(())
    }
}

/// The trees the mission's clans name, by identity word (data: the
/// state they start in is [`ClanTrees`]').
#[derive(Resource, Debug, Clone, Default)]
pub struct Trees(pub BTreeMap<u32, Arc<ResearchTree>>);

/// A research under way and its three budgets: what each costs and what
/// was collected.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ResearchTask {
    pub item: u32,
    pub costs: [f32; 3],
    pub collected: [f32; 3],
}

impl ResearchTask {
    /// The smallest of the three fractions done.
    pub fn fraction(&self) -> f32 {
        least_done(&self.costs, &self.collected)
    }
}

/// The share of each of `costs` `collected` holds (a cost of 0 counts as
/// done), at most 1 each.
pub fn budget_fractions(costs: &[f32; 3], collected: &[f32; 3]) -> [f32; 3] {
    std::array::from_fn(|i| match costs[i] > 0.0 {
        true => (collected[i] / costs[i]).min(1.0),
        false => 1.0,
    })
}

/// The smallest of [`budget_fractions`].
pub(crate) fn least_done(costs: &[f32; 3], collected: &[f32; 3]) -> f32 {
    budget_fractions(costs, collected)
        .into_iter()
        .fold(1.0, f32::min)
}

/// A research centre's queue, its task, and its free researches left.
#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Research {
    pub queue: VecDeque<u32>,
    pub task: Option<ResearchTask>,
    /// `FreeTechnoNum`: researches left that cost no power or ore.
    pub free: u32,
    /// `FreeResearchTime`: the time budget of each research.
    pub time: f32,
}

impl Research {
    /// A centre's research as placed: its free researches and time from
    /// its properties.
    pub fn of(bag: &PropertyBag) -> Self {
        let time = bag.int("FreeResearchTime").map(|t| t as f32);
        Self {
            free: bag.int("FreeTechnoNum").map_or(0, |n| n.max(0) as u32),
            // STAND-IN: docs/16 gives the default of 2 s; whether a
            // centre's `FreeResearchTime` of 0 means no time or the
            // default is not read. Ours: the default.
            time: time.filter(|t| *t > 0.0).unwrap_or(DEFAULT_RESEARCH_TIME),
            ..Self::default()
        }
    }
}

impl SavedValue for Research {
    fn check_saved(&self) -> Result<(), String> {
        let bad = self.time < 0.0
            || self
                .task
                .is_some_and(|t| t.costs.iter().chain(&t.collected).any(|f| *f < 0.0));
        match bad {
            true => Err(format!("a research budget below 0: {self:?}")),
            false => Ok(()),
        }
    }
}

/// The researches under way among `members` (original ids) of clan
/// `clan`: each centre, its item and the share of the item researched
/// (0 for an item its tree state lacks).
pub fn researches(world: &World, members: &[u32], clan: u32) -> Vec<(u32, u32, f32)> {
    let tree = world
        .get_resource::<ClanTrees>()
        .and_then(|t| t.0.get(&clan));
    members_with::<Research>(world, members)
        .filter_map(|(id, research)| {
            let task = research.task?;
            let done = tree.and_then(|t| t.progress.get(task.item as usize).copied());
            Some((id, task.item, done.unwrap_or(0.0)))
        })
        .collect()
}

/// Research orders (14) join their centre's queue, each tick.
pub(crate) fn take_research_orders(
    mut messages: MessageReader<WorldMessage>,
    registry: Res<ObjectRegistry>,
    mut centres: Query<&mut Research>,
) {
    let order = (ORDER_RESEARCH, Some("research centre"));
    take_building_orders(
        &mut messages,
        &registry,
        &mut centres,
        order,
        |research, packet, seq| match u32::try_from(packet.parameter) {
            Ok(item) => research.queue.push_back(item),
            Err(_) => warn!("order packet {seq}: no item {}", packet.parameter),
        },
    );
}

/// A research centre as its step sees it.
pub(crate) type Centre<'a> = (
    &'a OriginalObjectId,
    &'a Building,
    &'a mut Stock,
    &'a mut Research,
    &'a ObjectClan,
);

/// Each standing centre's research over the step of `dt` seconds, after
/// the distribution: its task takes the power its charge served and the
/// ore it was given, and its time; a task done completes its item; an
/// idle centre starts the first item of its queue it may research, and
/// asks for the power and ore its task still needs.
pub(crate) fn research_step(
    tick: u64,
    dt: f32,
    trees: &Trees,
    states: &mut ClanTrees,
    events: &mut EconomyEvents,
    centre: Centre,
) {
    let (id, building, stock, research, clan) = centre;
    let (Some(tree), Some(state)) = (
        trees.0.get(&clan.identity_raw),
        states.0.get_mut(&clan.identity_raw),
    ) else {
        return;
    };
    let profile = building.profile;
    // A task of an item outside the tree (from an edited save) is dropped.
    let known = |item: u32| (item as usize) < tree.items.len().min(state.progress.len());
    if research.task.is_some_and(|t| !known(t.item)) {
        warn!(
            "research centre {:#010x}: its item is not in its tree",
            id.0
        );
        research.task = None;
    }
    if let Some(task) = &mut research.task {
        let ore = (building.kpd * profile.use_ore * dt).min(stock.ore_received);
        stock.ore_received -= ore;
        let power = building.kpd * profile.use_power * dt * stock.level;
        let before = task.fraction();
        task.collected[0] += power;
        task.collected[1] += ore;
        task.collected[2] += dt;
        let item = task.item as usize;
        // An item another centre researched meanwhile is dropped.
        let share = (state.progress[item] + task.fraction() - before).min(1.0);
        state.progress[item] = share;
        if state.researched(item) {
            research.task = None;
        } else if share + 0.001 >= 1.0 {
            for done in state.complete(tree, item) {
                events.0.push(EconomyEvent {
                    amount: done as f32,
                    ..EconomyEvent::new(tick, EconomyEventKind::Researched, id.0)
                });
            }
            research.task = None;
        }
    }
    if research.task.is_none() {
        while let Some(item) = research.queue.pop_front() {
            let Some(record) = tree.items.get(item as usize) else {
                continue;
            };
            if !state.open(item as usize) {
                continue;
            }
            let paid = match research.free {
                0 => [record.research_energy, record.research_ore],
                _ => {
                    research.free -= 1;
                    [0.0, 0.0]
                }
            };
            research.task = Some(ResearchTask {
                item,
                costs: [paid[0], paid[1], research.time],
                collected: [0.0; 3],
            });
            break;
        }
    }
    let asks = research.task.map(|t| {
        let missing = (t.costs[1] - t.collected[1] - stock.ore_received).max(0.0);
        let ore = if missing > HALF_REQUEST_ABOVE {
            missing / 2.0
        } else {
            missing
        };
        let power = if t.collected[0] < t.costs[0] {
            profile.use_power
        } else {
            0.0
        };
        (power, ore)
    });
    (stock.usage, stock.ore_wanted) = asks.unwrap_or((0.0, 0.0));
}

/// Saves: the clans' tree states, put back only when they fit the trees
/// the mission read.
pub(crate) fn save_trees(world: &World) -> Result<Box<iron3d_schedules::RawValue>, String> {
    iron3d_schedules::to_section(world.resource::<ClanTrees>())
}

/// Puts saved tree states back, refusing ones that do not fit.
pub(crate) fn restore_trees(
    world: &mut World,
    state: &iron3d_schedules::RawValue,
) -> Result<(), String> {
    let saved: ClanTrees = iron3d_schedules::from_section(state)?;
    saved.check_against(world.resource::<Trees>())?;
    world.insert_resource(saved);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::research::{NewItem, TechItem};

    fn tree() -> ResearchTree {
        let item = |research: [f32; 2], needs: &[u32]| NewItem {
            record: TechItem::costing(12, research, [0.0, 0.0]),
            code: String::new(),
            name: String::new(),
            part_id: "p".into(),
            prerequisites: needs.to_vec(),
        };
        // 0 granted; 1 open; 2 free, needs 1; 3 needs 1 and 2; 4 off the tree.
        let items = [
            item([0.0, 0.0], &[]),
            item([12.0, 35.0], &[0]),
            item([0.0, 0.0], &[1]),
            item([20.0, 60.0], &[1, 2]),
            item([0.0, 0.0], &[1]),
        ];
        let bytes = ResearchTree::build(&items, &[7, 5, 4, 4, 0]).unwrap();
        ResearchTree::parse(&bytes).unwrap()
    }

    #[test]
    fn completing_an_item_opens_what_it_unlocks_and_grants_free_ones() {
        let tree = tree();
        let mut state = ClanTree::of(&tree);
        assert!(state.open(1) && !state.open(3));
        assert_eq!(state.complete(&tree, 1), [1, 2]);
        // 3 needs 1 and 2, both researched now: open, not granted.
        assert!(state.open(3));
        assert!(!state.researched(3));
        // 4 is not in the tree.
        assert_eq!(state.state[4], 0);
    }

    #[test]
    fn saved_tree_states_must_fit_the_mission_s_trees() {
        let tree = Arc::new(tree());
        let trees = Trees(BTreeMap::from([(1, tree.clone())]));
        let good = ClanTrees(BTreeMap::from([(1, ClanTree::of(&tree))]));
        assert_eq!(good.check_against(&trees), Ok(()));
        let mut short = good.clone();
        short.0.get_mut(&1).unwrap().progress.pop();
        assert!(
            short
                .check_against(&trees)
                .unwrap_err()
                .contains("another length")
        );
        let mut past = good.clone();
        past.0.get_mut(&1).unwrap().progress[2] = 2.0;
        assert!(
            past.check_against(&trees)
                .unwrap_err()
                .contains("outside 0 to 1")
        );
        let stranger = ClanTrees(BTreeMap::from([(7, ClanTree::of(&tree))]));
        assert!(
            stranger
                .check_against(&trees)
                .unwrap_err()
                .contains("no research tree")
        );
    }

    #[test]
    fn a_task_is_as_done_as_its_least_done_budget() {
        let task = ResearchTask {
            item: 1,
            costs: [12.0, 35.0, 2.0],
            collected: [12.0, 7.0, 2.0],
        };
        assert_eq!(task.fraction(), 0.2);
        let free = ResearchTask {
            costs: [0.0, 0.0, 2.0],
            collected: [0.0, 0.0, 1.0],
            ..task
        };
        assert_eq!(free.fraction(), 0.5);
    }
}
