//! Unit DATs (robots under `UNITS/ROBOTS`, buildings under
//! `UNITS/BUILDS/AI`) and `BuildDat.lst` (12 categories, 32 paths as
//! retail Part 2 has). Part trees: chassis -> turrets -> guns and ammo; every
//! record names `objects.rlb` and a prototype key of the catalogue.

use super::Rng;
use crate::Install;
use crate::assets::{self, Catalog, Role};
use iron3d_formats::config::builddat::{BuildCategory, BuildDat};
use iron3d_formats::error::{FormatError, Result};
use iron3d_formats::unitdat::{CLASS_BUILDING, CLASS_ROBOT, PartClass, PartSpec, UnitDat};

/// Prototype keys by family: the base key and its generated variants
/// (`<KEY>_NNN`), when the catalogue has them.
#[derive(Debug, Clone)]
pub struct Pools {
    families: Vec<(&'static str, Vec<String>)>,
}

/// The base keys the world uses, with the role each must have.
const FAMILIES: [(&str, Role); 14] = [
    ("CH_WALKER", Role::Chassis),
    ("CH_HOVER", Role::Chassis),
    ("TR_LIGHT", Role::Turret),
    ("TR_HEAVY", Role::Turret),
    ("GN_LASER", Role::Gun),
    ("GN_CANNON", Role::Gun),
    ("AM_SHELL", Role::Ammo),
    ("B_FACTORY", Role::Building),
    ("B_TOWER", Role::Building),
    ("B_FORT", Role::Fortification),
    ("T_PINE", Role::Tree),
    ("T_OAK", Role::Tree),
    ("R_ROCK1", Role::Rock),
    ("R_ROCK2", Role::Rock),
];

impl Pools {
    /// Gathers every family from the catalogue; a missing base key (or one
    /// of another role) is an error.
    pub fn of(catalog: &Catalog) -> Result<Pools> {
        let mut families = Vec::new();
        for (base, role) in FAMILIES {
            let keys: Vec<String> = catalog
                .prototypes
                .iter()
                .filter(|p| p.role == role && is_family(&p.key, base))
                .map(|p| p.key.clone())
                .collect();
            if !keys.iter().any(|k| k == base) {
                return Err(FormatError::missing(
                    "demo world",
                    format!("prototype {base} ({role:?}) in the catalogue"),
                ));
            }
            families.push((base, keys));
        }
        Ok(Pools { families })
    }

    /// A key of the family `base`: the base key itself or a variant.
    pub fn pick(&self, rng: &mut Rng, base: &str) -> String {
        let keys = self
            .families
            .iter()
            .find(|(b, _)| *b == base)
            .map(|(_, k)| k.as_slice())
            .unwrap_or_default();
        if keys.is_empty() {
            return base.to_string();
        }
        rng.pick(keys).clone()
    }
}

/// `key` is `base` or `base_NNN` (three digits).
fn is_family(key: &str, base: &str) -> bool {
    key == base
        || key
            .strip_prefix(base)
            .and_then(|r| r.strip_prefix('_'))
            .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The unit files a mission can reference.
#[derive(Debug, Clone)]
pub struct Units {
    pub pools: Pools,
    /// Legacy paths (`UNITS\ROBOTS\X.dat`) of the walking robot designs.
    pub robots: Vec<String>,
    /// The flying design (`UNITS\ROBOTS\Hover_Scout.dat`).
    pub flyer: String,
    /// The ore transport (`UNITS\UNITS\TRANSPRT\Transport.dat`).
    pub transport: String,
    /// The player's hero (`UNITS\HERO\Hero.dat`): its chassis alone, with
    /// the engine of its own.
    pub hero: String,
    /// Legacy paths of the building designs, by category.
    pub buildings: Vec<(BuildCategory, Vec<String>)>,
    /// The prebuilt design's parts (prototype key and class), in file
    /// order: what the research tree prices.
    pub design_parts: Vec<(String, PartClass)>,
}

/// The factories' one prebuilt design (`UNITS\UNITS\PREBLD`, openparkan
/// `docs/38-designs.md`): the first walking robot's file.
pub const DESIGN: &str = "Warbot";

impl Units {
    /// The first building design of a category.
    pub fn building(&self, category: BuildCategory, rng: &mut Rng) -> String {
        let list = self
            .buildings
            .iter()
            .find(|(c, _)| *c == category)
            .map(|(_, l)| l.as_slice())
            .unwrap_or_default();
        if list.is_empty() {
            return String::new();
        }
        rng.pick(list).clone()
    }
}

/// Paths per category in `BuildDat.lst` (32 in all, as retail).
const BUILD_COUNTS: [usize; 12] = [2, 2, 2, 4, 4, 4, 3, 3, 2, 2, 2, 2];

/// Writes the robot and building DATs and `BuildDat.lst`.
pub fn write(
    install: &mut Install,
    catalog: &Catalog,
    rng: &mut Rng,
    robots: usize,
) -> Result<Units> {
    let pools = Pools::of(catalog)?;
    let mut robot_paths = Vec::new();
    let mut design_parts = Vec::new();
    for i in 0..robots {
        let name = match i {
            0 => "Walker_Light".to_string(),
            1 => "Walker_Heavy".to_string(),
            2 => "Walker_Assault".to_string(),
            _ => format!("Walker_{i:03}"),
        };
        let spec = robot(&pools, rng, i);
        let dat = UnitDat::build(CLASS_ROBOT, &[spec])?;
        if i == 0 {
            let path = format!("UNITS/UNITS/PREBLD/{DESIGN}.dat");
            install.add(path, dat.to_bytes())?;
            design_parts = dat
                .parts
                .iter()
                .filter_map(|p| Some((String::from_utf8_lossy(p.key()).into_owned(), p.class()?)))
                .collect();
        }
        install.add(format!("UNITS/ROBOTS/{name}.dat"), dat.to_bytes())?;
        robot_paths.push(format!("UNITS\\ROBOTS\\{name}.dat"));
    }

    let hover = turret(&pools, rng, ("CH_HOVER", "mount"), false, 1, 0);
    let hover = part(
        pools.pick(rng, "CH_HOVER"),
        "Парящее шасси",
        PartClass::Chassis,
        vec![engine(0), hover],
    );
    let hover = UnitDat::build(CLASS_ROBOT, &[hover])?.to_bytes();
    install.add("UNITS/ROBOTS/Hover_Scout.dat", hover.clone())?;
    // The ore transport: the hovering design in the transports' folder.
    install.add("UNITS/UNITS/TRANSPRT/Transport.dat", hover)?;

    let hero = part(
        HERO.to_string(),
        "Герой",
        PartClass::Chassis,
        vec![hero_turret(&pools)],
    );
    install.add(
        "UNITS/HERO/Hero.dat",
        UnitDat::build(CLASS_ROBOT, &[hero])?.to_bytes(),
    )?;

    let mut buildings = Vec::new();
    for (category, count) in BuildCategory::ALL.into_iter().zip(BUILD_COUNTS) {
        let mut paths = Vec::new();
        for n in 1..=count {
            let name = format!("{}_{n}", category.name());
            let spec = building(&pools, rng, category);
            let dat = UnitDat::build(CLASS_BUILDING, &[spec])?;
            install.add(format!("UNITS/BUILDS/AI/{name}.dat"), dat.to_bytes())?;
            paths.push(format!("UNITS\\BUILDS\\AI\\{name}.dat"));
        }
        buildings.push((category, paths));
    }
    let mut lst = b"// Building designs by category (generated demo install)\r\n\r\n".to_vec();
    lst.extend(BuildDat::build(&buildings));
    install.add("BuildDat.lst", lst)?;
    Ok(Units {
        pools,
        robots: robot_paths,
        flyer: "UNITS\\ROBOTS\\Hover_Scout.dat".to_string(),
        transport: "UNITS\\UNITS\\TRANSPRT\\Transport.dat".to_string(),
        hero: "UNITS\\HERO\\Hero.dat".to_string(),
        buildings,
        design_parts,
    })
}

/// The hero's chassis prototype (one of a kind: no variants).
const HERO: &str = "CH_HERO";
/// The stream the hero's arms are picked from (its own, so the rest of
/// the install stays as it was).
const HERO_ARMS_SEED: u64 = 0x4845_524F;

/// The hero's arms: a light turret on its head with a laser and a cannon
/// (with a clip of shells fitted), the player's two weapons.
fn hero_turret(pools: &Pools) -> PartSpec {
    let mut rng = Rng::new(HERO_ARMS_SEED);
    let mut guns: Vec<PartSpec> = [("GN_LASER", "Лазер"), ("GN_CANNON", "Пушка")]
        .into_iter()
        .map(|(gun, text)| part(pools.pick(&mut rng, gun), text, PartClass::Gun, Vec::new()))
        .collect();
    guns[1].children.push(clip(pools, &mut rng));
    let children = guns
        .into_iter()
        .map(|g| mounted(g, "TR_LIGHT", "head"))
        .collect();
    let turret = part(
        pools.pick(&mut rng, "TR_LIGHT"),
        "Лёгкая башня",
        PartClass::Turret,
        children,
    );
    mounted(turret, HERO, "head")
}

/// A part whose children are already placed: a turret or gun child keeps
/// the socket its builder chose ([`mounted`]) and a fitted part its slot
/// ([`engine`]); any other child gets its index among its siblings.
fn part(key: String, text: &str, class: PartClass, children: Vec<PartSpec>) -> PartSpec {
    let children = children
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            if c.attachment < 0 && !matches!(c.class, PartClass::Turret | PartClass::Gun) {
                c.attachment = i as i32;
            }
            c
        })
        .collect();
    PartSpec {
        key,
        description: text.to_string(),
        class,
        attachment: -1,
        children,
    }
}

/// The small engine of `mark` fitted into its chassis's engine slot.
fn engine(mark: usize) -> PartSpec {
    PartSpec {
        attachment: assets::ENGINE_SLOT_INDEX,
        ..part(
            assets::engine_key(mark).to_string(),
            "Двигатель",
            PartClass::Internal,
            Vec::new(),
        )
    }
}

/// `spec` mounted on the node `socket` of the model of the base kind
/// `parent` (a node every variant of that kind has).
fn mounted(mut spec: PartSpec, parent: &str, socket: &str) -> PartSpec {
    spec.attachment = assets::socket(parent, socket).map_or(-1, |n| n as i32);
    spec
}

/// A clip of shells fitted into its gun's slot (the gun's record, slot 0).
fn clip(pools: &Pools, rng: &mut Rng) -> PartSpec {
    PartSpec {
        attachment: 0,
        ..part(
            pools.pick(rng, "AM_SHELL"),
            "Снаряды",
            PartClass::Ammo,
            Vec::new(),
        )
    }
}

/// A turret mounted on the `socket` node of its parent `parent`; its guns
/// sit on its yawing `head`, `ammo` clips fitted into them in turn (only a
/// heavy turret's cannons take clips).
fn turret(
    pools: &Pools,
    rng: &mut Rng,
    (parent, socket): (&str, &str),
    heavy: bool,
    guns: usize,
    ammo: usize,
) -> PartSpec {
    let (base, text, gun, gun_text) = if heavy {
        ("TR_HEAVY", "Тяжёлая башня", "GN_CANNON", "Пушка")
    } else {
        ("TR_LIGHT", "Лёгкая башня", "GN_LASER", "Лазер")
    };
    let mut guns: Vec<PartSpec> = (0..guns)
        .map(|_| part(pools.pick(rng, gun), gun_text, PartClass::Gun, Vec::new()))
        .collect();
    for i in 0..ammo {
        let clip = clip(pools, rng);
        let count = guns.len();
        if let Some(g) = guns.get_mut(i % count.max(1)) {
            g.children.push(clip);
        }
    }
    let children = guns.into_iter().map(|g| mounted(g, base, "head")).collect();
    let t = part(pools.pick(rng, base), text, PartClass::Turret, children);
    mounted(t, parent, socket)
}

/// Robot design `i`: the three named demo designs (5, 5 and 8 parts), then
/// retail-size designs of 12 to 14 parts; each fits an engine.
fn robot(pools: &Pools, rng: &mut Rng, i: usize) -> PartSpec {
    let turret = |rng: &mut Rng, heavy, guns, ammo| {
        turret(pools, rng, ("CH_WALKER", "mount"), heavy, guns, ammo)
    };
    // The light design runs on the best engine, the heavy on a weak one.
    let (mark, turrets) = match i {
        0 => (3, vec![turret(rng, false, 2, 0)]),
        1 => (1, vec![turret(rng, true, 1, 1)]),
        2 => (2, vec![turret(rng, true, 2, 1), turret(rng, false, 1, 0)]),
        _ => {
            let extra = rng.below(3) as usize;
            let mark = rng.below(4) as usize;
            let turrets = vec![
                turret(rng, true, 2, 2),
                turret(rng, false, 2, 0),
                turret(rng, extra > 0, 1, extra),
            ];
            (mark, turrets)
        }
    };
    let mut children = vec![engine(mark)];
    children.extend(turrets);
    part(
        pools.pick(rng, "CH_WALKER"),
        "Шагающее шасси",
        PartClass::Chassis,
        children,
    )
}

/// A building design of `category`: fortifications carry turrets, towers a
/// turret, plants an internal tower, the others the factory body alone.
fn building(pools: &Pools, rng: &mut Rng, category: BuildCategory) -> PartSpec {
    use BuildCategory::*;
    let body = |rng: &mut Rng, base: &str, text: &str, children| {
        part(pools.pick(rng, base), text, PartClass::Chassis, children)
    };
    // Fortifications and towers carry their turrets on the tower's `top`.
    let turret = |rng: &mut Rng, base: &str, heavy, guns, ammo| {
        turret(pools, rng, (base, "top"), heavy, guns, ammo)
    };
    match category {
        BunkerSmall => {
            let t = turret(rng, "B_FORT", false, 1, 0);
            body(rng, "B_FORT", "Бункер", vec![t])
        }
        BunkerMedium => {
            let t = turret(rng, "B_FORT", true, 1, 1);
            body(rng, "B_FORT", "Бункер", vec![t])
        }
        BunkerLarge => {
            let t = vec![
                turret(rng, "B_FORT", true, 1, 1),
                turret(rng, "B_FORT", false, 1, 0),
            ];
            body(rng, "B_FORT", "Бункер", t)
        }
        TowerMedium => {
            let t = turret(rng, "B_TOWER", false, 1, 0);
            body(rng, "B_TOWER", "Башня", vec![t])
        }
        TowerLarge => {
            let t = turret(rng, "B_TOWER", true, 2, 1);
            body(rng, "B_TOWER", "Башня", vec![t])
        }
        Plant => {
            let inner = part(
                pools.pick(rng, "B_TOWER"),
                "Цех",
                PartClass::Internal,
                Vec::new(),
            );
            body(rng, "B_FACTORY", "Завод", vec![inner])
        }
        _ => body(rng, "B_FACTORY", category.name(), Vec::new()),
    }
}
