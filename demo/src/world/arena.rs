//! The test arena: the demo's prototypes and root configs without its
//! campaign, and one mission, `MISSIONS/Arena/Flat`, on a flat map
//! (`MAPS/Arena`) holding only the pieces a test names. Gameplay tests
//! place what they watch here instead of pruning the demo's missions.

use super::land::Field;
use super::mission::{self, CLANS, ENEMY, NEUTRAL, Objects, PLAYER};
use super::scripts;
use super::units::Units;
use super::{Rng, crlf};
use crate::Install;
use iron3d_formats::config::builddat::BuildCategory;
use iron3d_formats::error::{FormatError, Result};
use iron3d_formats::tma::{ObjectKind, Tma};

/// The walking robot designs the arena can place ([`What::Robot`]).
pub const ROBOT_DESIGNS: usize = super::DEMO_ROBOT_DESIGNS;

/// The arena mission's name below `MISSIONS`.
pub const ARENA_MISSION: &str = "Arena/Flat";
/// Vertices per side of the arena's map (16 m apart: 512 m across).
const ARENA_SIZE: usize = 33;

/// What stands in the arena, in placing order: the `n`th piece gets the
/// `n`th id of [`build_arena`](crate::build_arena)'s answer.
#[derive(Debug, Clone, Default)]
pub struct Arena {
    pub pieces: Vec<Piece>,
    /// The player clan's script, in the script assembler's source form
    /// over the demo's `varset.var` (engine handlers it lacks are added
    /// bare); none by default.
    pub player_script: Option<String>,
}

/// One placed object: what it is, whose, where (metres east and north of
/// the arena's centre, on the ground) and which way it faces (rad about
/// the up axis, 0 along the map's +Y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Piece {
    pub what: What,
    pub side: Side,
    pub at: [f32; 2],
    pub heading: f32,
}

/// The prototypes a piece can be: the demo's designs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// The first walking robot design (`Walker_Light`).
    Walker,
    /// The `n`th walking robot design (0 `Walker_Light`, 1 `Walker_Heavy`,
    /// 2 `Walker_Assault`; [`ROBOT_DESIGNS`] in all).
    Robot(usize),
    /// The player's hero (`UNITS\HERO\Hero.dat`), marked as the hero.
    Hero,
    /// The flying design, placed on the ground.
    Flyer,
    /// The first building design of a category.
    Building(BuildCategory),
    /// The ore transport (the flying design in the transports' folder).
    Transport,
}

/// The clan a piece belongs to (the demo's clan table: the player and the
/// enemy are hostile, the neutral friendly to both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Player,
    Enemy,
    Neutral,
}

impl Side {
    fn clan(self) -> u32 {
        match self {
            Side::Player => PLAYER,
            Side::Enemy => ENEMY,
            Side::Neutral => NEUTRAL,
        }
    }
}

impl Arena {
    /// Adds a piece facing +Y.
    pub fn with(mut self, what: What, side: Side, at: [f32; 2]) -> Self {
        self.pieces.push(Piece {
            what,
            side,
            at,
            heading: 0.0,
        });
        self
    }

    /// Gives the player clan the script `source`.
    pub fn with_player_script(mut self, source: &str) -> Self {
        self.player_script = Some(source.to_string());
        self
    }
}

/// Writes the arena's map and mission (the prototypes and root configs
/// are written by the caller) and returns its pieces' original ids.
pub fn write(install: &mut Install, units: &Units, arena: &Arena) -> Result<Vec<u32>> {
    let field = Field::flat(ARENA_SIZE);
    install.add("MAPS/Arena/Land.msh", field.land_msh()?)?;
    install.add("MAPS/Arena/Land.map", field.land_map()?)?;
    let [layer1, layer2] = Field::layer_tables()?;
    install.add("MAPS/Arena/Land1.wea", layer1)?;
    install.add("MAPS/Arena/Land2.wea", layer2)?;
    let centre = field.point(field.sites[0][0], field.sites[0][1]);
    let mut tma = Tma::new(b"MAPS\\Arena\\Land.msh".to_vec());
    tma.clans = (0..CLANS.len())
        .map(|i| mission::clan(i, (i != 0).then_some(centre)))
        .collect();
    // The pieces' yaws are their own; the placing stream only picks
    // building designs.
    let mut rng = Rng::new(ARENA_SEED);
    let mut objects = Objects::new();
    for piece in &arena.pieces {
        let (kind, path) = match piece.what {
            What::Walker => (ObjectKind::Unit, units.robots[0].clone()),
            What::Robot(n) => {
                let path = units.robots.get(n).ok_or_else(|| {
                    let expected = format!("a robot design below {}", units.robots.len());
                    FormatError::invalid("arena", n as u64, expected, format!("design {n}"))
                })?;
                (ObjectKind::Unit, path.clone())
            }
            What::Hero => (ObjectKind::Unit, units.hero.clone()),
            What::Flyer => (ObjectKind::Unit, units.flyer.clone()),
            What::Transport => (ObjectKind::Unit, units.transport.clone()),
            What::Building(category) => (ObjectKind::Building, units.building(category, &mut rng)),
        };
        let at = [centre[0] + piece.at[0], centre[1] + piece.at[1], centre[2]];
        let o = objects.place(&mut rng, kind, path, true, piece.side.clan(), at);
        o.orientation = [0.0, 0.0, piece.heading];
        match piece.what {
            What::Hero => {
                o.instance_name = b"Hero".to_vec();
                mission::mark_hero(o);
            }
            What::Building(category) => {
                mission::set_ore_capacity(o, mission::ore_capacity(Some(category)));
            }
            What::Transport => mission::set_ore_capacity(o, mission::ore_capacity(None)),
            _ => {}
        }
    }
    if let Some(source) = &arena.player_script {
        scripts::write_varset(install)?;
        let path = scripts::write_script(install, &scripts::varset()?, "scr_arena", source)?;
        tma.clans[PLAYER as usize].ai_script = path.into_bytes();
    }
    tma.objects = objects.list;
    let ids = tma.original_ids();
    install.add(
        format!("MISSIONS/{ARENA_MISSION}/data.tma"),
        tma.to_bytes()?,
    )?;
    install.add(
        "MISSIONS/dispatcher.ini",
        crlf(&[
            "[CAMPAIGNS]",
            "Campaign1=Arena",
            "",
            "[Arena]",
            "Mission1=Arena\\Flat",
            "",
            "[COMPLETE]",
            "Arena\\Flat=0",
        ]),
    )?;
    Ok(ids)
}

/// The seed of the arena's placing stream.
const ARENA_SEED: u64 = 0x4152_454E;
