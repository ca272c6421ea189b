//! Missions: `data.tma` (four clans with relations, zones on the nature
//! clan only, paths, buildings and units at the build sites, scenery on
//! walkable ground, the property names of tome IV, mineral lodes),
//! `mission.cfg`, `briefing.cfg`, `messages.cfg`, `sky.ske` and `sky.wea`,
//! the menu's `descr`,
//! and the campaign
//! `MISSIONS/dispatcher.ini`.

use super::land::Field;
use super::scripts;
use super::units::Units;
use super::{Rng, crlf};
use crate::Install;
use iron3d_formats::config::briefing::{self, EdgeType, WaitType, Waypoint};
use iron3d_formats::config::builddat::BuildCategory;
use iron3d_formats::error::Result;
use iron3d_formats::strings::StringDll;
use iron3d_formats::tma::{
    Clan, ClanRelation, ClanType, ClanZone, Description, HERO_TYPE, MineralLode, MissionPath,
    ObjectKind, PlacedObject, Property, Tma, WARRIOR_TYPE,
};
use iron3d_formats::unitdat::{CLASS_BUILDING, CLASS_ROBOT};

/// Where a mission lives and what it holds.
#[derive(Debug, Clone)]
pub struct MissionSpec {
    pub campaign: String,
    pub name: String,
    /// The map, as a legacy path relative to the install root.
    pub land_path: String,
    pub trees: usize,
    pub rocks: usize,
    /// Which of the map's four build sites is the player's (the enemy's
    /// and the neutral's follow along the road chain).
    pub first_site: usize,
    /// The mission's number in the install (1 up): its scripts' names.
    pub number: usize,
}

impl MissionSpec {
    fn dir(&self) -> String {
        format!("MISSIONS/{}/{}", self.campaign, self.name)
    }
}

/// Clan table order: index = the clan word stored in `identity` and
/// `ClanID`.
pub(super) const CLANS: [(&str, ClanType); 4] = [
    ("Nature", ClanType::Nature),
    ("Player", ClanType::Player),
    ("Enemy", ClanType::Enemy),
    ("Neutral", ClanType::Neutral),
];
pub(super) const PLAYER: u32 = 1;
pub(super) const ENEMY: u32 = 2;
pub(super) const NEUTRAL: u32 = 3;

/// Vertex offsets around a site centre (all within the flat radius).
const BUILDING_SPOTS: [[i64; 2]; 4] = [[0, 0], [3, 0], [0, 3], [-3, 0]];
const UNIT_SPOTS: [[i64; 2]; 8] = [
    [-2, -2],
    [2, -2],
    [-2, 2],
    [2, 2],
    [0, -3],
    [-1, -3],
    [3, -1],
    [1, 1],
];

/// Writes one mission directory.
pub fn write(
    install: &mut Install,
    spec: &MissionSpec,
    field: &Field,
    units: &Units,
    rng: &mut Rng,
) -> Result<()> {
    let (mut tma, targets) = build_tma(spec, field, units, rng);
    let ids = tma.original_ids();
    let (player, enemy) = scripts::write(
        install,
        spec.number,
        &scripts::Targets {
            hero: ids[targets.hero],
            tower: ids[targets.tower],
            generator: ids[targets.generator],
            route: targets.route,
            patrols: targets.patrols.map(|slots| slots.map(|s| ids[s])),
        },
    )?;
    tma.clans[PLAYER as usize].ai_script = player.into_bytes();
    tma.clans[ENEMY as usize].ai_script = enemy.into_bytes();
    let dir = spec.dir();
    install.add(format!("{dir}/data.tma"), tma.to_bytes()?)?;
    install.add(format!("{dir}/mission.cfg"), mission_cfg(spec))?;
    install.add(format!("{dir}/sky.ske"), super::sky::sky()?)?;
    install.add(format!("{dir}/sky.wea"), super::sky::wear()?)?;
    install.add(format!("{dir}/briefing.cfg"), briefing_cfg(spec, field))?;
    install.add(format!("{dir}/messages.cfg"), messages_cfg())?;
    install.add(format!("{dir}/descr"), descr(spec))?;
    Ok(())
}

/// Operation names of the demo's missions, in install order (numbered on
/// from the second round).
const OPERATIONS: [&str; 6] = [
    "Ridge Tower",
    "Generator Valley",
    "Iron Ford",
    "Quarry Watch",
    "Burnt Crossing",
    "Last Relay",
];

/// `descr`: the title the main menu shows, one CRLF line.
fn descr(spec: &MissionSpec) -> Vec<u8> {
    let round = (spec.number - 1) / OPERATIONS.len();
    let name = OPERATIONS[(spec.number - 1) % OPERATIONS.len()];
    let title = match round {
        0 => format!("Operation {name}"),
        _ => format!("Operation {name} {}", round + 1),
    };
    crlf(&[&title])
}

/// Positions of what the player's objectives name: objects in the TMA's
/// list and the route among its paths.
struct TargetSlots {
    hero: usize,
    tower: usize,
    generator: usize,
    route: i32,
    patrols: Option<[usize; 2]>,
}

fn build_tma(
    spec: &MissionSpec,
    field: &Field,
    units: &Units,
    rng: &mut Rng,
) -> (Tma, TargetSlots) {
    let mut tma = Tma::new(spec.land_path.as_bytes());
    let site = |i: usize| field.sites[(i + spec.first_site) % field.sites.len()];
    let at = |v: [usize; 2]| field.point(v[0], v[1]);

    // Logical sites: 0 player, 1 neutral, 2 enemy, 3 free build site.
    // Paths by stored id (not their position): a patrol from the enemy base
    // through the neutral one to the player base (by each site's open
    // side, clear of the building at its centre), and the free site's
    // approach.
    let open_side = |[x, y]: [usize; 2]| at([x, y - 3]);
    tma.paths.push(MissionPath {
        id: scripts::ROAD_PATH,
        points: [2, 1, 0].map(|i| open_side(site(i))).to_vec(),
    });
    tma.paths.push(MissionPath {
        id: 20,
        points: [3, 0].map(|i| at(site(i))).to_vec(),
    });
    // A square round the free site: the route the hero must reach.
    let [fx, fy] = site(3);
    tma.paths.push(MissionPath {
        id: 30,
        points: [[-3, -3], [3, -3], [3, 3], [-3, 3]]
            .map(|[dx, dy]: [i64; 2]| at([(fx as i64 + dx) as usize, (fy as i64 + dy) as usize]))
            .to_vec(),
    });
    let mut slots = TargetSlots {
        hero: 0,
        tower: 0,
        generator: 0,
        route: tma.paths.len() as i32 - 1,
        patrols: None,
    };

    for (index, (_, clan_type)) in CLANS.iter().enumerate() {
        let base = match clan_type {
            ClanType::Nature => None,
            ClanType::Player => Some(0),
            ClanType::Enemy => Some(2),
            ClanType::Neutral => Some(1),
        };
        let mut clan = clan(index, base.map(|s| at(site(s))));
        if base.is_none() {
            // Zones only on the nature clan (FACTS "one public reader").
            clan.zones = (0..2)
                .map(|s| ClanZone {
                    kind: 1,
                    centre: at(site(s * 2 + 1)),
                    inner_radius: 40.0,
                    outer_radius: 120.0,
                })
                .collect();
        }
        tma.clans.push(clan);
    }

    let mut objects = Objects::new();
    let spot = |s: usize, d: [i64; 2]| {
        let [x, y] = site(s);
        at([(x as i64 + d[0]) as usize, (y as i64 + d[1]) as usize])
    };
    // Buildings first (the load order), then units, then scenery.
    let pools = &units.pools;
    // After the first mission the enemy has a factory where the first
    // mission's has a fort: its script builds warbots with it.
    let enemy_fort = match spec.number {
        1 => Building::Key("B_FORT"),
        _ => Building::Dat(BuildCategory::Plant),
    };
    let buildings: [(u32, usize, Building); 8] = [
        (PLAYER, 0, Building::Key("B_FACTORY")),
        (PLAYER, 0, Building::Dat(BuildCategory::Plant)),
        (ENEMY, 2, Building::Dat(BuildCategory::TowerLarge)),
        (ENEMY, 2, enemy_fort),
        (ENEMY, 2, Building::Key("B_TOWER")),
        (ENEMY, 2, Building::Dat(BuildCategory::BunkerMedium)),
        (NEUTRAL, 1, Building::Dat(BuildCategory::Generator)),
        (NEUTRAL, 1, Building::Dat(BuildCategory::Mine)),
    ];
    let mut used = [0usize; 4];
    for (clan, s, b) in buildings {
        let position = spot(s, BUILDING_SPOTS[used[s] % BUILDING_SPOTS.len()]);
        used[s] += 1;
        let slot = objects.list.len();
        match b {
            Building::Key("B_TOWER") if clan == ENEMY => slots.tower = slot,
            Building::Dat(BuildCategory::Generator) => slots.generator = slot,
            _ => {}
        }
        let (name, dat) = match b {
            Building::Key(base) => (pools.pick(rng, base), false),
            Building::Dat(category) => (units.building(category, rng), true),
        };
        let o = objects.place(rng, ObjectKind::Building, name, dat, clan, position);
        if let Building::Dat(category) = b {
            set_ore_capacity(o, ore_capacity(Some(category)));
        }
    }
    for (clan, s, count) in [(PLAYER, 0, 5), (ENEMY, 2, 7), (NEUTRAL, 1, 2)] {
        // After the first mission the enemy keeps its first two units on
        // patrol (the first mission's enemy sends every unit at the player).
        if clan == ENEMY && spec.number > 1 {
            let first = objects.list.len();
            slots.patrols = Some([first, first + 1]);
        }
        for u in 0..count {
            let mut path = rng.pick(&units.robots).clone();
            if u % 3 == 2 {
                // Legacy data spells paths in any case.
                path = path.to_ascii_uppercase();
            }
            let position = spot(s, UNIT_SPOTS[u % UNIT_SPOTS.len()]);
            objects.place(rng, ObjectKind::Unit, path, true, clan, position);
        }
    }
    // What Control shows at the player's site, placed from a stream of its
    // own so the rest of the mission stays as it was: a flyer hovering, a
    // walker dropped from the air, the hero, and a walker on the nearest
    // slope.
    let mut showcase = Rng::new(SHOWCASE_SEED);
    let lifted = |v: [f32; 3], dz: f32| [v[0], v[1], v[2] + dz];
    let walker = || units.robots[0].clone();
    let show = [
        (
            units.flyer.clone(),
            lifted(spot(0, [1, -1]), HOVER_HEIGHT),
            "Hover",
        ),
        (
            walker(),
            lifted(spot(0, [-1, 1]), DROP_HEIGHT),
            "Dropped walker",
        ),
        (units.hero.clone(), spot(0, [1, 1]), "Hero"),
    ];
    let slope = slope_spot(field, site(0)).map(|v| (walker(), at(v), "Slope walker"));
    for (path, position, name) in show.into_iter().chain(slope) {
        let hero = name == "Hero";
        if hero {
            slots.hero = objects.list.len();
        }
        let o = objects.place(
            &mut showcase,
            ObjectKind::Unit,
            path,
            true,
            PLAYER,
            position,
        );
        o.instance_name = name.as_bytes().to_vec();
        if hero {
            mark_hero(o);
        }
    }
    // On a mission whose player base is the map's first site, a row of
    // factories across the road from there to the next site, at its
    // middle: a route along the road must go round it. From a stream of
    // its own too.
    let mut row = Rng::new(ROW_SEED);
    let rows = if spec.first_site == 0 {
        building_row(field)
    } else {
        Vec::new()
    };
    for position in rows {
        let key = pools.pick(&mut row, "B_FACTORY");
        let o = objects.place(
            &mut row,
            ObjectKind::Building,
            key,
            false,
            NEUTRAL,
            position.0,
        );
        o.orientation = [0.0, 0.0, position.1];
    }
    for (kind, count, families) in [
        (ObjectKind::Vegetation, spec.trees, ["T_PINE", "T_OAK"]),
        (ObjectKind::Rock, spec.rocks, ["R_ROCK1", "R_ROCK2"]),
    ] {
        for _ in 0..count {
            let Some(v) = scenery_spot(field, rng) else {
                continue;
            };
            let family = *rng.pick(&families);
            let key = pools.pick(rng, family);
            let o = objects.place(rng, kind, key, false, 0, at(v));
            let s = (80 + rng.below(41)) as f32 / 100.0;
            o.scale = [s; 3];
        }
    }
    tma.objects = objects.list;

    let mut description = Description::from_text(&format!(
        "{} / {}: capture the enemy base.",
        spec.campaign, spec.name
    ));
    // The length is a buffer capacity: the bytes after the NUL are kept.
    description.raw.resize(96, 0);
    tma.description = description;

    tma.lodes = (0..3)
        .map(|i| {
            let d = [[-2, 2], [2, 2], [0, -2]][i];
            MineralLode {
                position: spot(3 - (i % 2) * 2, d),
                found: (i == 0) as u32,
                lode_type: i as u32,
                amount: (1000 + 500 * rng.below(7)) as f32,
                raw: 0,
            }
        })
        .collect();
    (tma, slots)
}

/// Clan `index` of [`CLANS`] with its relations (hostile between the
/// player and the enemy, friendly otherwise) and, for a clan with a base,
/// its base at `base` and its bot cap.
pub(super) fn clan(index: usize, base: Option<[f32; 3]>) -> Clan {
    let (name, clan_type) = CLANS[index];
    let mut clan = Clan::new(name, clan_type);
    if let Some(p) = base {
        clan.base = [p[0], p[1]];
        clan.bot_cap = 8;
        clan.trf = super::research::TREE_NAME.as_bytes().to_vec();
    }
    clan.relations = CLANS
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != index)
        .map(|(other, (other_name, _))| ClanRelation {
            clan: other_name.as_bytes().to_vec(),
            // 0 hostile between player and enemy, 1 otherwise.
            value: u32::from(!matches!(
                (index as u32, other as u32),
                (PLAYER, ENEMY) | (ENEMY, PLAYER)
            )),
        })
        .collect();
    clan
}

enum Building {
    Key(&'static str),
    Dat(BuildCategory),
}

/// Placed objects with running logical ids.
pub(super) struct Objects {
    pub(super) list: Vec<PlacedObject>,
    logical_id: i32,
}

impl Objects {
    pub(super) fn new() -> Self {
        Self {
            list: Vec::new(),
            logical_id: 0,
        }
    }

    /// Places one object: random yaw, the property bag of its kind.
    pub(super) fn place(
        &mut self,
        rng: &mut Rng,
        kind: ObjectKind,
        name: String,
        dat: bool,
        clan: u32,
        position: [f32; 3],
    ) -> &mut PlacedObject {
        let mut o = PlacedObject::new(kind, name.as_bytes(), position);
        o.identity = clan;
        o.orientation = [0.0, 0.0, rng.below(6283) as f32 / 1000.0];
        if !dat {
            // A direct key's instance carries the prototype stem.
            o.instance_name = name.into_bytes();
        }
        o.properties = vec![
            Property::int("Invulnerability", 0, 0, 1),
            Property::float("Life state", 1.0, 0.0, 1.0),
        ];
        if dat {
            self.logical_id += 1;
            let building = kind == ObjectKind::Building;
            let ore = if building { 4000 } else { 0 };
            o.properties.extend([
                Property::int("LogicalID", self.logical_id, 0, 65535),
                Property::int("ClanID", clan as i32, 0, 16),
                Property::int("Type", type_word(kind) as i32, i32::MIN, i32::MAX),
                Property::float("MaxSpeedPercent", 100.0, 0.0, 100.0),
                Property::int("MaximumOre", ore, 0, 4000),
                Property::int("CurrentOre", ore / 4, 0, 4000),
                Property::float("ChargeRadius", 20.0, 0.0, 500.0),
                Property::int("FreeBotNum", if building { 2 } else { 0 }, 0, 100),
                Property::int("FreeTechnoNum", 0, 0, 100),
                Property::int("FreeConstructionTime", 0, 0, 1000),
                Property::int("FreeResearchTime", 0, 0, 1000),
            ]);
        }
        o.properties.push(Property::int("NOT USED", 0, 0, 0));
        self.list.push(o);
        let last = self.list.len() - 1;
        &mut self.list[last]
    }
}

/// The `MaximumOre` the retail editor writes by what an object is
/// (openparkan `docs/23-economy.md`, "The engine's constants"): 500 on a
/// mine, 4000 on a storage, 2000 on a transport (`None`), 0 on any other
/// building.
pub(super) fn ore_capacity(category: Option<BuildCategory>) -> i32 {
    match category {
        Some(BuildCategory::Mine) => 500,
        Some(BuildCategory::Storage) => 4000,
        Some(_) => 0,
        None => 2000,
    }
}

/// Gives a placed object its ore capacity, holding none.
pub(super) fn set_ore_capacity(o: &mut PlacedObject, capacity: i32) {
    for p in o.properties.iter_mut() {
        match &p.name[..] {
            b"MaximumOre" => *p = Property::int("MaximumOre", capacity, 0, 4000),
            b"CurrentOre" => *p = Property::int("CurrentOre", 0, 0, 4000),
            _ => {}
        }
    }
}

/// Makes a placed unit the player's hero: its `Type` word carries the
/// hero's bit.
pub(super) fn mark_hero(o: &mut PlacedObject) {
    for p in o.properties.iter_mut().filter(|p| p.name == b"Type") {
        *p = Property::int("Type", (CLASS_ROBOT | HERO_TYPE) as i32, i32::MIN, i32::MAX);
    }
}

/// The type word of a placed object (its `Type` property): the class
/// words of the unit DATs, which the scripts' unit counts test; every demo
/// robot is armed, a warrior (the hero's word is set apart).
fn type_word(kind: ObjectKind) -> u32 {
    match kind {
        ObjectKind::Building => CLASS_BUILDING,
        ObjectKind::Unit => CLASS_ROBOT | WARRIOR_TYPE,
        _ => 0,
    }
}

/// The seed of the showcase placements' own stream.
const SHOWCASE_SEED: u64 = 0x5348_4F57;
/// How high the hover is placed above the ground, and the dropped walker.
const HOVER_HEIGHT: f32 = 30.0;
const DROP_HEIGHT: f32 = 25.0;
/// The least rise, m, between a vertex's two neighbours along x or y that
/// makes it a slope.
const SLOPE_RISE: f32 = 4.0;

/// The seed of the building row's own stream.
const ROW_SEED: u64 = 0x524F_5753;
/// The building row: how many, and how far apart their centres are (m;
/// `B_FACTORY` is 8.4 m long at scale 1, 6.7 m at its smallest variant,
/// so no unit gets between two).
const ROW_LENGTH: usize = 6;
const ROW_STEP: f32 = 6.5;

/// The places of the building row (map frame) and the yaw that lays each
/// factory's length along the row, which crosses the road from the map's
/// first site to its second at its middle, on the flat road.
fn building_row(field: &Field) -> Vec<([f32; 3], f32)> {
    let [a, b] = [field.sites[0], field.sites[1]].map(|v| field.point(v[0], v[1]));
    let (mid, along) = (
        [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0],
        [b[0] - a[0], b[1] - a[1]],
    );
    let length = (along[0] * along[0] + along[1] * along[1]).sqrt();
    // Across the road: the road's direction turned a quarter.
    let across = [-along[1] / length, along[0] / length];
    let yaw = across[1].atan2(across[0]);
    (0..ROW_LENGTH)
        .map(|k| {
            let offset = (k as f32 - (ROW_LENGTH - 1) as f32 / 2.0) * ROW_STEP;
            let position = [
                mid[0] + across[0] * offset,
                mid[1] + across[1] * offset,
                super::land::GROUND as f32,
            ];
            (position, yaw)
        })
        .collect()
}

/// The walkable vertex off the flat ground nearest to `site` (the first in
/// row order among equals) whose neighbours differ by [`SLOPE_RISE`].
fn slope_spot(field: &Field, site: [usize; 2]) -> Option<[usize; 2]> {
    let n = field.size;
    let rise = |x: usize, y: usize| {
        let dx = (field.height(x + 1, y) - field.height(x - 1, y)).abs();
        let dy = (field.height(x, y + 1) - field.height(x, y - 1)).abs();
        dx.max(dy)
    };
    let d2 = |x: usize, y: usize| {
        let (dx, dy) = (x as i64 - site[0] as i64, y as i64 - site[1] as i64);
        dx * dx + dy * dy
    };
    (1..n - 1)
        .flat_map(|y| (1..n - 1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            field.flat[y * n + x] == 0 && field.vertex_walkable(x, y) && rise(x, y) >= SLOPE_RISE
        })
        .min_by_key(|&(x, y)| d2(x, y))
        .map(|(x, y)| [x, y])
}

fn scenery_spot(field: &Field, rng: &mut Rng) -> Option<[usize; 2]> {
    (0..400).find_map(|_| {
        let x = 1 + rng.below(field.size as u64 - 2) as usize;
        let y = 1 + rng.below(field.size as u64 - 2) as usize;
        (field.vertex_walkable(x, y) && field.flat[y * field.size + x] == 0).then_some([x, y])
    })
}

fn mission_cfg(spec: &MissionSpec) -> Vec<u8> {
    crlf(&[
        &format!(
            "// {} {} (generated demo install)",
            spec.campaign, spec.name
        ),
        "object ambient_music_loop",
        " desc = \"resource\"",
        " library = \"sounds.lib\"",
        " libtype = \"multi\"",
        " type = 5",
        " THEME = \"ATM_LOOP.WAV\"",
        "end",
        "",
        "object ambient_music_variation",
        " desc = \"resource\"",
        " library = \"sounds.lib\"",
        " libtype = \"multi\"",
        " type = 4",
        " DAY_VARIATION1 = \"ATM_BIRD1.WAV\"",
        " DAY_VARIATION2 = \"ATM_BIRD2.WAV\"",
        " DAY_VARIATION3 = \"ATM_WIND.WAV\"",
        " NIGHT_VARIATION1 = \"ATM_CRICKETS.WAV\"",
        " NIGHT_VARIATION2 = \"ATM_WIND.WAV\"",
        "end",
        "",
        "object briefing_sounds",
        " desc = \"resource\"",
        " library = \"voices.lib\"",
        " libtype = \"multi\"",
        " type = 4",
        &format!(" {} = \"B_OPEN.WAV\"", BRIEFING_VOICES[0]),
        &format!(" {} = \"B_ROAD.WAV\"", BRIEFING_VOICES[1]),
        &format!(" {} = \"B_ROUND.WAV\"", BRIEFING_VOICES[2]),
        "end",
        "",
        "object primary_objectives",
        " objective1 = \"Destroy the enemy tower\"",
        " objective2 = \"Capture the neutral generator\"",
        " objective3 = \"Reach the free build site\"",
        "end",
        "",
        "object bonus_objectives",
        " objective1 = \"Leave the enemy no robot\"",
        "end",
        "",
        "object briefing",
        " desc \"Briefing flight\"",
        " library briefing.cfg",
        " libtype 0",
        " type 3",
        "end",
    ])
}

/// The `SoundResID`s of the briefing's first three waypoints, which
/// `mission.cfg`'s `briefing_sounds` binds to `voices.lib` entries.
const BRIEFING_VOICES: [&str; 3] = ["D00_B01", "D00_B02", "D00_B03"];

/// The briefing camera flight in the measured layout (openparkan
/// `docs/21-briefing.md`): out of black over the player's base, along
/// the road to the next site, then once round the third, back to black;
/// about 8 s. The first three stops speak a line each.
fn briefing_cfg(spec: &MissionSpec, field: &Field) -> Vec<u8> {
    let ground = |s: usize| {
        let [x, y] = field.sites[s];
        field.point(x, y)
    };
    // 60 m up and 80 m back to the south-west of a site, so the camera
    // looks at it from aside, never straight down.
    let above = |p: [f32; 3]| [p[0] - 80.0, p[1] - 80.0, p[2] + 60.0];
    let stop = |i: usize, from: usize, to: usize| Waypoint {
        name: format!("WayPoint{i}"),
        camera: above(ground(from)),
        target: ground(to),
        edge: EdgeType::Spline,
        wait: WaitType::Continuous,
        edge_time: 2.5,
        waypoint_time: 0.0,
        rotate_time: 0.0,
        fade_time: 0.0,
        wait_for_time: false,
        text: String::new(),
        sound: String::new(),
        fade_percent: 0.0,
        loop_index: -1,
    };
    let opening = Waypoint {
        fade_percent: 100.0,
        fade_time: 1.0,
        text: spec.name.clone(),
        sound: BRIEFING_VOICES[0].to_string(),
        ..stop(0, 0, 1)
    };
    let road = Waypoint {
        edge: EdgeType::Linear,
        text: BRIEFING_LINE.to_string(),
        sound: BRIEFING_VOICES[1].to_string(),
        ..stop(1, 1, 2)
    };
    let round = Waypoint {
        wait: WaitType::Flyaround,
        rotate_time: 3.0,
        waypoint_time: 3.0,
        wait_for_time: true,
        edge_time: 0.5,
        fade_time: 0.5,
        text: BRIEFING_LINE.to_string(),
        sound: BRIEFING_VOICES[2].to_string(),
        ..stop(2, 2, 2)
    };
    let closing = Waypoint {
        fade_percent: 100.0,
        edge_time: 0.0,
        ..stop(3, 2, 2)
    };
    let mut text = "// Briefing camera waypoints (generated demo install)\r\n".to_string();
    for w in [opening, road, round, closing] {
        text.push_str(&briefing::write_waypoint(&w));
    }
    text.into_bytes()
}

/// Messages: one object each, with its index, text (a `TextRes` name)
/// and voice entry of `voices.lib`.
fn messages_cfg() -> Vec<u8> {
    let messages = [
        (1, "M_ENEMY_AT_BASE", "V_ACK.WAV"),
        (2, "M_OBJECTIVE_DONE", "V_DONE.WAV"),
        (3, "M_MISSION_FAILED", "V_FAIL.WAV"),
    ];
    let mut lines = vec!["// in-mission messages".to_string()];
    for (index, text, voice) in messages {
        lines.extend([
            format!("object message{index}"),
            format!(" message_index = {index}"),
            format!(" text_resource = \"{text}\""),
            format!(" voice_resource = \"{voice}\""),
            "end".to_string(),
        ]);
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    crlf(&refs)
}

/// The `TextRes` name of the briefing's subtitle.
const BRIEFING_LINE: &str = "D00_T01";

/// The missions' dialogue: names the briefings and messages use, bound to
/// string ids of `TextRes.dll` (openparkan `docs/20-resources.md`: ids
/// from 8).
const DIALOGUE: [(&str, u32, &str); 4] = [
    (BRIEFING_LINE, 8, "Захватите базу противника"),
    ("M_ENEMY_AT_BASE", 9, "Внимание: противник у базы"),
    ("M_OBJECTIVE_DONE", 10, "Objective complete"),
    ("M_MISSION_FAILED", 11, "Mission failed"),
];

/// `DATA/TextRes.cfg`, the text descriptor binding the dialogue's names,
/// and `DATA/TextRes.dll`, their strings.
pub fn write_dialogue(install: &mut Install) -> Result<()> {
    let mut lines = vec![
        "// the missions' dialogue".to_string(),
        "object text_resources".to_string(),
        " desc = \"resource\"".to_string(),
        " library = \"data\\TextRes.dll\"".to_string(),
        " libtype = \"multi\"".to_string(),
        " type = 6".to_string(),
    ];
    lines.extend(
        DIALOGUE
            .iter()
            .map(|(name, id, _)| format!(" {name} = {id}")),
    );
    lines.push("end".to_string());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    install.add("DATA/TextRes.cfg", crlf(&refs))?;
    let strings = DIALOGUE
        .iter()
        .map(|&(_, id, text)| (id, text.to_string()))
        .collect();
    install.add(
        "DATA/TextRes.dll",
        StringDll::build(&strings)?.to_bytes().to_vec(),
    )?;
    Ok(())
}

/// `MISSIONS/dispatcher.ini`: the campaigns and their missions, and the
/// `[COMPLETE]` section of the demo install (nothing completed).
pub fn dispatcher(missions: &[MissionSpec]) -> Vec<u8> {
    let mut lines = vec!["[CAMPAIGNS]".to_string()];
    let mut campaigns: Vec<&str> = missions.iter().map(|m| m.campaign.as_str()).collect();
    campaigns.dedup();
    for (i, c) in campaigns.iter().enumerate() {
        lines.push(format!("Campaign{}={c}", i + 1));
    }
    for c in &campaigns {
        lines.push(String::new());
        lines.push(format!("[{c}]"));
        for (i, m) in missions.iter().filter(|m| m.campaign == *c).enumerate() {
            lines.push(format!("Mission{}={}\\{}", i + 1, m.campaign, m.name));
        }
    }
    lines.push(String::new());
    lines.push("[COMPLETE]".to_string());
    for m in missions {
        lines.push(format!("{}\\{}=0", m.campaign, m.name));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    crlf(&refs)
}
