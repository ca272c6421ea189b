//! The economy's fixed step: buildings join and leave their clans'
//! distributors, then every distribution period each clan's mines dig,
//! its transports carry, and its distribution step shares power and ore
//! (openparkan `docs/23-economy.md`; GAMEPLAY §5).

use crate::constants::{
    MINE_ORE_PER_SECOND, TRANSPORT_BUILDING_DIST, TRANSPORT_ORE_OFF_BOARD_PER_SECOND,
    TRANSPORT_ORE_ON_BOARD_PER_SECOND,
};
use crate::production::{Catalogue, Deliveries, Production, build_step};
use crate::research::{ClanTrees, Research, Trees, research_step};
use crate::role::Role;
use crate::share::share;
use crate::stock::{Building, LEAST_KPD, Stock};
use bevy::prelude::*;
use iron3d_schedules::GameClock;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{Blueprints, Destroyed, ObjectClan};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Seconds between two distribution steps of a clan (GAMEPLAY §5: about
/// every 200 ms).
// STAND-IN: the engine adds a random wait to each clan's step; its source
// is not read, so every clan steps every 200 ms on the same tick.
pub const DISTRIBUTION_PERIOD_S: f64 = 0.2;

/// The ore held that fills the Ore bar: one full mine and one full
/// storage (openparkan docs/23, "What the HUD shows").
pub const ORE_BAR_SCALE: f32 = 4500.0;

/// One clan's distributor: its buildings and its last step's totals.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Distributor {
    /// Its buildings' original ids, in the order they joined.
    pub members: Vec<u32>,
    /// Power its generators give and its buildings lack, a second.
    pub power_available: f32,
    pub power_demand: f32,
    /// The share of its want every building received.
    pub power_share: f32,
    /// Ore its holders offer and its consumers ask for, a second.
    pub ore_available: f32,
    pub ore_demand: f32,
    pub ore_share: f32,
    /// Ore held in its mines and storages.
    pub ore: f32,
    /// The HUD's bars, 0 to 1: ore held over [`ORE_BAR_SCALE`], and its
    /// net power over the power of every clan.
    pub ore_bar: f32,
    pub energy_bar: f32,
}

/// Every clan's distributor, by the clan's identity word.
#[derive(Resource, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Distributors {
    pub clans: BTreeMap<u32, Distributor>,
    /// The tick of the last distribution step.
    pub stepped: Option<u64>,
}

/// What the economy did, for the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EconomyEvent {
    pub tick: u64,
    pub kind: EconomyEventKind,
    /// The building's original id.
    pub object: u32,
    pub amount: f32,
    /// For `built`: the robot's original id and its design's name.
    #[serde(default)]
    pub made: Option<u32>,
    #[serde(default)]
    pub design: Option<String>,
}

impl EconomyEvent {
    /// An event of `kind` at `object`, of no amount.
    pub fn new(tick: u64, kind: EconomyEventKind, object: u32) -> Self {
        Self {
            tick,
            kind,
            object,
            amount: 0.0,
            made: None,
            design: None,
        }
    }
}

/// An economy event's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EconomyEventKind {
    /// A mine dug `amount` ore since its last (at most one a second).
    Mined,
    /// A research centre's clan researched the item `amount` (its index
    /// in the clan's tree).
    Researched,
    /// A factory made a robot (`made`) of a design (`design`).
    Built,
}

impl EconomyEventKind {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            EconomyEventKind::Mined => "mined",
            EconomyEventKind::Researched => "researched",
            EconomyEventKind::Built => "built",
        }
    }
}

/// The economy's events of the mission, in order.
#[derive(Resource, Debug, Clone, Default, Serialize, Deserialize)]
pub struct EconomyEvents(pub Vec<EconomyEvent>);

/// A building of a clan as one step sees it.
#[derive(Debug, Clone, Copy)]
pub struct Member {
    pub id: u32,
    pub building: Building,
    pub stock: Stock,
    /// Its place on the map's ground plane.
    pub at: Vec2,
}

/// The buildings of the economy.
type Members<'a> = (
    &'a OriginalObjectId,
    &'a Building,
    &'a mut Stock,
    &'a ObjectClan,
    &'a Transform,
    Has<Destroyed>,
    Option<&'a mut Research>,
    Option<&'a mut Production>,
);

/// Steps of the fixed step between two distribution steps (at least 1).
fn period_ticks(clock: &GameClock) -> u64 {
    let ticks = DISTRIBUTION_PERIOD_S / clock.timestep().as_secs_f64();
    (ticks.round() as u64).max(1)
}

/// The economy's system: on each distribution step, every clan's
/// buildings (standing ones, by their current owner) join its
/// distributor, and the clan steps.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step_economy(
    clock: Res<GameClock>,
    trees: Res<Trees>,
    blueprints: Option<Res<Blueprints>>,
    mut states: ResMut<ClanTrees>,
    mut distributors: ResMut<Distributors>,
    mut events: ResMut<EconomyEvents>,
    mut deliveries: ResMut<Deliveries>,
    mut buildings: Query<Members>,
) {
    let period = period_ticks(&clock);
    let tick = clock.tick();
    if !tick.is_multiple_of(period) {
        return;
    }
    let dt = (period as f64 * clock.timestep().as_secs_f64()) as f32;
    let mut clans: BTreeMap<u32, Vec<Member>> = BTreeMap::new();
    for (id, building, stock, clan, transform, destroyed, ..) in &buildings {
        if destroyed {
            continue;
        }
        clans.entry(clan.identity_raw).or_default().push(Member {
            id: id.0,
            building: *building,
            stock: *stock,
            at: transform.translation.xz(),
        });
    }
    register(&mut distributors, &clans);
    // A clan left without buildings steps too: its totals fall to 0.
    for (clan, distributor) in &mut distributors.clans {
        let members = clans.entry(*clan).or_default();
        members.sort_by_key(|m| m.id);
        step_clan(members, dt, distributor);
    }
    energy_bars(&mut distributors);
    distributors.stepped = Some(tick);
    // A mine's `mined` event at most once a second.
    let second = (1.0 / clock.timestep().as_secs_f64()).round().max(1.0) as u64;
    let report = tick.is_multiple_of(second.max(period));
    let stocks: BTreeMap<u32, Stock> = clans.values().flatten().map(|m| (m.id, m.stock)).collect();
    for (id, building, mut stock, clan, _, _, research, production) in &mut buildings {
        let Some(new) = stocks.get(&id.0) else {
            continue;
        };
        *stock = *new;
        if let Some(mut research) = research {
            let centre = (id, building, &mut *stock, &mut *research, clan);
            research_step(tick, dt, &trees, &mut states, &mut events, centre);
        }
        if let Some(mut production) = production {
            let catalogue = Catalogue {
                blueprints: blueprints.as_deref(),
                trees: &trees,
                states: &states,
            };
            let factory = (id, building, &mut *stock, &mut *production, clan);
            build_step(dt, &catalogue, &mut deliveries, factory);
        }
        if report && stock.dug > 0.0 {
            events.0.push(EconomyEvent {
                amount: stock.dug,
                ..EconomyEvent::new(tick, EconomyEventKind::Mined, id.0)
            });
            stock.dug = 0.0;
        }
    }
}

/// A building joins its owner's distributor at the end of its members
/// and leaves any other (a capture moves it); a building gone or
/// destroyed leaves.
fn register(distributors: &mut Distributors, clans: &BTreeMap<u32, Vec<Member>>) {
    let owner: BTreeMap<u32, u32> = clans
        .iter()
        .flat_map(|(clan, members)| members.iter().map(move |m| (m.id, *clan)))
        .collect();
    for (clan, distributor) in &mut distributors.clans {
        distributor.members.retain(|id| owner.get(id) == Some(clan));
    }
    for (clan, members) in clans {
        let distributor = distributors.clans.entry(*clan).or_default();
        let mut joining: Vec<u32> = members
            .iter()
            .map(|m| m.id)
            .filter(|id| !distributor.members.contains(id))
            .collect();
        joining.sort_unstable();
        distributor.members.extend(joining);
    }
}

/// One clan's step of `dt` seconds over its `members` (sorted by id):
/// work, then carrying, then sharing power and ore; the totals go to
/// `distributor`.
pub fn step_clan(members: &mut [Member], dt: f32, distributor: &mut Distributor) {
    for m in members.iter_mut() {
        work(m, dt);
    }
    carry(members, dt);
    share_power(members, dt, distributor);
    share_ore(members, dt, distributor);
    distributor.ore = total(
        members
            .iter()
            .filter(|m| m.building.role.holds_ore())
            .map(|m| m.stock.ore),
    );
    distributor.ore_bar = (distributor.ore / ORE_BAR_SCALE).clamp(0.0, 1.0);
}

/// A building uses its charge while it works, at the level its charge
/// serves; a mine that has room digs at its efficiency times that level.
fn work(m: &mut Member, dt: f32) {
    let (building, stock) = (&m.building, &mut m.stock);
    let digs = building.role == Role::Mine && stock.room() > 0.0 && building.kpd >= LEAST_KPD;
    if building.role == Role::Mine {
        stock.usage = if digs {
            building.profile.use_power
        } else {
            0.0
        };
    }
    let asked = stock.usage * dt;
    let served = stock.charge.min(asked);
    stock.charge -= served;
    // STAND-IN: whether a short supply lowers a building's efficiency (the
    // component level openparkan docs/23 leaves unread) is not known; a
    // building works at the share of its use its charge served.
    stock.level = if asked > 0.0 { served / asked } else { 1.0 };
    if digs {
        let level = if building.profile.use_power > 0.0 {
            building.kpd * stock.level
        } else {
            1.0
        };
        let dug = (MINE_ORE_PER_SECOND * level * dt).min(stock.room());
        stock.ore += dug;
        stock.dug += dug;
    }
}

/// Each transport takes ore on board from the first mine within the
/// building distance and puts it off into the first storage within it
/// with room, at its rates.
// STAND-IN: a transport's rounds between a mine and a storage (its
// movement) are a Behavior task not read yet; a transport carries
// between the buildings within its reach where it stands.
fn carry(members: &mut [Member], dt: f32) {
    let near = |a: Vec2, b: Vec2| a.distance(b) <= TRANSPORT_BUILDING_DIST;
    for t in 0..members.len() {
        if members[t].building.role != Role::Transport {
            continue;
        }
        let at = members[t].at;
        let mine = (0..members.len())
            .find(|&i| members[i].building.role == Role::Mine && near(members[i].at, at));
        if let Some(mine) = mine {
            let amount = (TRANSPORT_ORE_ON_BOARD_PER_SECOND * dt)
                .min(members[t].stock.room())
                .min(members[mine].stock.ore);
            members[mine].stock.ore -= amount;
            members[t].stock.ore += amount;
        }
        let storage = (0..members.len()).find(|&i| {
            let m = &members[i];
            m.building.role == Role::Storage && near(m.at, at) && m.stock.room() > 0.0
        });
        if let Some(storage) = storage {
            let amount = (TRANSPORT_ORE_OFF_BOARD_PER_SECOND * dt)
                .min(members[t].stock.ore)
                .min(members[storage].stock.room());
            members[t].stock.ore -= amount;
            members[storage].stock.ore += amount;
        }
    }
}

/// The generators give `Transfer_Power_Out × dt`; every other building
/// lacking charge receives the same share of its lack.
fn share_power(members: &mut [Member], dt: f32, distributor: &mut Distributor) {
    let available = total(
        members
            .iter()
            .filter(|m| m.building.role.gives_power())
            .map(|m| m.building.profile.power_out * dt),
    );
    let lack = |m: &Member| {
        let gives = m.building.role.gives_power();
        if gives {
            0.0
        } else {
            (m.building.capacity() - m.stock.charge).max(0.0)
        }
    };
    let wanted = total(members.iter().map(lack));
    let fraction = share(available, wanted);
    for m in members.iter_mut() {
        let want = lack(m);
        m.stock.power_wanted = want;
        m.stock.power_received = want * fraction;
        m.stock.charge += m.stock.power_received;
    }
    distributor.power_available = available / dt;
    distributor.power_demand = wanted / dt;
    distributor.power_share = fraction;
}

/// The holders offer `KPD × Transfer_Ore_OffBoard × dt` (at most what
/// they hold); every consumer asking receives the same share of its ask,
/// drawn from the holders in proportion to their offers.
fn share_ore(members: &mut [Member], dt: f32, distributor: &mut Distributor) {
    let offer = |m: &Member| {
        let rate = m.building.kpd * m.building.profile.ore_off_board * dt;
        if m.building.role.holds_ore() {
            rate.min(m.stock.ore)
        } else {
            0.0
        }
    };
    let ask = |m: &Member| {
        if m.building.role.holds_ore() {
            0.0
        } else {
            m.stock.ore_wanted
        }
    };
    let available = total(members.iter().map(offer));
    let asked = total(members.iter().map(ask));
    let fraction = share(available, asked);
    let given = asked * fraction;
    let take = if available > 0.0 {
        given / available
    } else {
        0.0
    };
    for m in members.iter_mut() {
        let (o, a) = (offer(m), ask(m));
        m.stock.ore -= o * take;
        m.stock.ore_received += a * fraction;
        m.stock.ore_wanted -= a * fraction;
    }
    distributor.ore_available = available / dt;
    distributor.ore_demand = asked / dt;
    distributor.ore_share = fraction;
}

/// The sum of `figures` (0, not −0, when there are none).
fn total(figures: impl Iterator<Item = f32>) -> f32 {
    figures.fold(0.0, |sum, f| sum + f)
}

/// Each clan's Energy bar: its power given less its buildings' lack, over
/// the power every clan gives, within 0 to 1.
fn energy_bars(distributors: &mut Distributors) {
    let all = total(distributors.clans.values().map(|d| d.power_available));
    for d in distributors.clans.values_mut() {
        d.energy_bar = match all > 0.0 {
            true => ((d.power_available - d.power_demand) / all).clamp(0.0, 1.0),
            false => 0.0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::config::profile::BuildingProfile;

    fn member(id: u32, role: Role, profile: BuildingProfile, at: [f32; 2]) -> Member {
        let building = Building::new(role, profile);
        Member {
            id,
            building,
            stock: Stock::charged(&building, role.ore_most()),
            at: Vec2::from(at),
        }
    }

    fn mine(id: u32, at: [f32; 2]) -> Member {
        let profile = BuildingProfile {
            use_power: 1.0,
            ore_off_board: 1.0,
            ..Default::default()
        };
        member(id, Role::Mine, profile, at)
    }

    fn generator(id: u32) -> Member {
        let profile = BuildingProfile {
            power_out: 10.0,
            ..Default::default()
        };
        member(id, Role::Generator, profile, [0.0, 0.0])
    }

    fn run(members: &mut [Member], steps: usize) -> Distributor {
        let mut d = Distributor::default();
        for _ in 0..steps {
            step_clan(members, 0.2, &mut d);
        }
        d
    }

    #[test]
    fn a_powered_mine_fills_at_its_rate_to_its_cap() {
        let mut clan = [generator(1), mine(2, [0.0, 0.0])];
        // 50 a second: 10 a step of 0.2 s.
        run(&mut clan, 1);
        assert_eq!(clan[1].stock.ore, 10.0);
        let d = run(&mut clan, 60);
        assert_eq!(clan[1].stock.ore, 500.0);
        // A full mine stops using power: nothing lacks, Ore reads 11%.
        assert_eq!(d.power_demand, 0.0);
        assert!((d.ore_bar - 500.0 / 4500.0).abs() < 1e-6);
    }

    #[test]
    fn an_unpowered_mine_digs_only_its_charge() {
        let mut clan = [mine(1, [0.0, 0.0])];
        let d = run(&mut clan, 20);
        // One second of charge: 50 ore, then nothing.
        assert_eq!(clan[0].stock.ore, 50.0);
        assert_eq!((d.power_available, d.power_share), (0.0, 0.0));
        assert_eq!(d.power_demand, 5.0);
    }

    #[test]
    fn a_transport_carries_at_its_rates_within_its_reach() {
        let storage_profile = BuildingProfile {
            use_power: 1.0,
            ore_off_board: 1.0,
            ..Default::default()
        };
        let trn = BuildingProfile {
            ore_on_board: 100.0,
            ore_off_board: 100.0,
            ..Default::default()
        };
        let mut full = mine(2, [0.0, 0.0]);
        full.stock.ore = 500.0;
        let mut clan = [
            generator(1),
            full,
            member(3, Role::Storage, storage_profile, [100.0, 0.0]),
            member(4, Role::Transport, trn, [50.0, 0.0]),
        ];
        run(&mut clan, 1);
        // 100 a second: 20 on board from the full mine, 20 off into the
        // storage (the mine's offer goes to nobody: nothing asks).
        assert_eq!(clan[1].stock.ore, 480.0);
        assert_eq!(clan[2].stock.ore, 20.0);
        assert_eq!(clan[3].stock.ore, 0.0);
        // Out of reach of the storage (81 away), it only loads; the mine
        // dug 10 with its room.
        clan[2].at = Vec2::new(131.0, 0.0);
        run(&mut clan, 1);
        assert_eq!(clan[1].stock.ore, 470.0);
        assert_eq!((clan[2].stock.ore, clan[3].stock.ore), (20.0, 20.0));
    }

    #[test]
    fn consumers_share_short_ore_and_the_holders_give_it() {
        let consumer = BuildingProfile {
            ore_on_board: 100.0,
            ..Default::default()
        };
        let mut a = member(3, Role::Plant, consumer, [0.0, 0.0]);
        let mut b = member(4, Role::Institute, consumer, [0.0, 0.0]);
        a.stock.ore_wanted = 0.3;
        b.stock.ore_wanted = 0.1;
        let mut m = mine(2, [0.0, 0.0]);
        m.stock.ore = 500.0;
        let mut clan = [generator(1), m, a, b];
        let d = run(&mut clan, 1);
        // The mine offers 1 × 0.2; 0.4 is asked: each gets half its ask.
        assert!((d.ore_share - 0.5).abs() < 1e-6, "{d:?}");
        assert!((clan[2].stock.ore_received - 0.15).abs() < 1e-6);
        assert!((clan[3].stock.ore_received - 0.05).abs() < 1e-6);
        assert!((clan[1].stock.ore - (500.0 - 0.2)).abs() < 1e-3);
    }

    #[test]
    fn the_energy_bar_is_a_share_of_every_clan_s_power() {
        let mut distributors = Distributors::default();
        for clan in 0..3 {
            let mut members = [generator(clan)];
            let d = distributors.clans.entry(clan).or_default();
            step_clan(&mut members, 0.2, d);
        }
        energy_bars(&mut distributors);
        let bar = distributors.clans[&0].energy_bar;
        assert!((bar - 1.0 / 3.0).abs() < 1e-6, "{bar}");
    }
}
