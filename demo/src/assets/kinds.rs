//! The prototype kinds of the demo and the node trees of their models
//! (Z up, metres). Retail-scale variants scale the same trees.

use super::Role;
use super::materials::Paint;
use super::models::{self, Anim, NodeSpec, Part, Prim};
use iron3d_formats::msh::TRI_FLOOR;

/// A geometric prototype kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kind {
    pub key: &'static str,
    pub role: Role,
    /// The archive holding its model and WEAR.
    pub archive: &'static str,
    /// The WEAR rows, in order.
    pub paints: &'static [Paint],
    /// Whether its WEAR has a `LIGHTMAPS` block (and the model UV1).
    pub lightmapped: bool,
    /// An effect of `effects.rlb` the prototype references.
    pub effect: Option<&'static str>,
    /// How it moves: a controller (`<stem>.ctl` beside its model); `None`
    /// for what never moves on its own (a static body).
    pub motion: Option<Motion>,
}

/// The controller parameters a moving kind authors (the rest keep the
/// engine's defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion {
    /// m/s per s (the file's value; the engine doubles it).
    pub acceleration: f32,
    /// m/s.
    pub top_speed: f32,
    /// rad/s.
    pub turn_rate: f32,
    /// ms before a destroyed unit is deleted.
    pub delete_delay_ms: i32,
    /// kg.
    pub payload_kg: f32,
    /// Contact points (feet) per controller state; 0: a flyer.
    pub feet: u8,
    /// m/s: a walker stands below this forward speed and runs above
    /// `run_above` (unused by a flyer's one state).
    pub stand_below: f32,
    pub run_above: f32,
    /// The engine factor of its moving states (0: it walks for free).
    pub moving_factor: f32,
    /// Its engine: a slot a fitted part fills, or one of its own.
    pub engine: EngineFit,
}

/// How a chassis's controller carries its engine (openparkan
/// `docs/28-chassis.md`, "A chassis declares its slots").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EngineFit {
    /// The labelled slot of drive 1 at power 20 a fitted engine replaces.
    Slot,
    /// An unlabelled engine of its own: drive and power a second.
    BuiltIn { drive: f32, power: f32 },
}

/// The walking chassis: a slow, heavy machine.
pub const WALKER_MOTION: Motion = Motion {
    acceleration: 4.0,
    top_speed: 8.0,
    turn_rate: 1.2,
    delete_delay_ms: 2000,
    payload_kg: 6000.0,
    feet: 2,
    stand_below: 0.6,
    run_above: 5.0,
    moving_factor: 1.0,
    engine: EngineFit::Slot,
};

/// The hover chassis: light and quick, no feet (it never falls).
pub const HOVER_MOTION: Motion = Motion {
    acceleration: 6.0,
    top_speed: 20.0,
    turn_rate: 1.5,
    delete_delay_ms: 1500,
    payload_kg: 4250.0,
    feet: 0,
    stand_below: 0.0,
    run_above: 0.0,
    moving_factor: 1.0,
    engine: EngineFit::Slot,
};

/// The hero chassis, with the figures openparkan measured on `r_h_02`
/// (`docs/24-motion.md`): 14 m/s, acceleration 70 (live 140), a yaw rate of
/// 25.12 rad/s, 10,000 t of payload (no limit), standing below 2 m/s and
/// running from 10, every state of engine factor 0, and a built-in engine
/// of power 0.1 instead of an engine slot.
pub const HERO_MOTION: Motion = Motion {
    acceleration: 70.0,
    top_speed: 14.0,
    turn_rate: 25.12,
    delete_delay_ms: 2000,
    payload_kg: 10_000_000.0,
    feet: 2,
    stand_below: 2.0,
    run_above: 10.0,
    moving_factor: 0.0,
    engine: EngineFit::BuiltIn {
        drive: 1.0,
        power: 0.1,
    },
};

use Paint::*;

const UNIT_PAINTS: &[Paint] = &[
    Hull, Camo, Joint, Glass, Metal, Blink, Decal, Exhaust, Plate,
];
const GUN_PAINTS: &[Paint] = &[
    Metal, Joint, Glass, Hull, Exhaust, Blink, Camo, Decal, Plate,
];
const AMMO_PAINTS: &[Paint] = &[Metal, Exhaust, Hull, Plate, Joint, Decal, Glass, Blink];

/// Unit parts live in `system.rlb`, structures and nature in `static.rlb`.
pub const SYSTEM: &str = "system.rlb";
/// The WEAR rows of a round's model.
pub const ROUND_PAINTS: &[Paint] = AMMO_PAINTS;
pub const STATIC: &str = "static.rlb";

pub const KINDS: [Kind; 14] = [
    Kind {
        key: "CH_WALKER",
        role: Role::Chassis,
        archive: SYSTEM,
        paints: UNIT_PAINTS,
        lightmapped: false,
        effect: Some("FX_ENGINE"),
        motion: Some(WALKER_MOTION),
    },
    Kind {
        key: "CH_HOVER",
        role: Role::Chassis,
        archive: SYSTEM,
        paints: UNIT_PAINTS,
        lightmapped: false,
        effect: Some("FX_ENGINE"),
        motion: Some(HOVER_MOTION),
    },
    Kind {
        key: "CH_HERO",
        role: Role::Chassis,
        archive: SYSTEM,
        paints: UNIT_PAINTS,
        lightmapped: false,
        effect: None,
        motion: Some(HERO_MOTION),
    },
    Kind {
        key: "TR_LIGHT",
        role: Role::Turret,
        archive: SYSTEM,
        paints: UNIT_PAINTS,
        lightmapped: false,
        effect: None,
        motion: None,
    },
    Kind {
        key: "TR_HEAVY",
        role: Role::Turret,
        archive: SYSTEM,
        paints: UNIT_PAINTS,
        lightmapped: false,
        effect: None,
        motion: None,
    },
    Kind {
        key: "GN_LASER",
        role: Role::Gun,
        archive: SYSTEM,
        paints: GUN_PAINTS,
        lightmapped: false,
        effect: Some("FX_LASER"),
        motion: None,
    },
    Kind {
        key: "GN_CANNON",
        role: Role::Gun,
        archive: SYSTEM,
        paints: GUN_PAINTS,
        lightmapped: false,
        effect: Some("FX_CANNON"),
        motion: None,
    },
    Kind {
        key: "AM_SHELL",
        role: Role::Ammo,
        archive: SYSTEM,
        paints: AMMO_PAINTS,
        lightmapped: false,
        effect: Some("FX_EXPLODE"),
        motion: None,
    },
    Kind {
        key: "B_FACTORY",
        role: Role::Building,
        archive: STATIC,
        paints: &[
            Concrete, Roof, Metal, Glass, Blink, Water, Sign, Joint, Decal,
        ],
        lightmapped: true,
        effect: None,
        motion: None,
    },
    Kind {
        key: "B_TOWER",
        role: Role::Building,
        archive: STATIC,
        paints: &[Concrete, Roof, Metal, Glass, Blink, Sign, Joint, Hull],
        lightmapped: true,
        effect: None,
        motion: None,
    },
    Kind {
        key: "T_PINE",
        role: Role::Tree,
        archive: STATIC,
        paints: &[Bark, Leaves],
        lightmapped: false,
        effect: None,
        motion: None,
    },
    Kind {
        key: "T_OAK",
        role: Role::Tree,
        archive: STATIC,
        paints: &[Bark, Leaves],
        lightmapped: false,
        effect: None,
        motion: None,
    },
    Kind {
        key: "R_ROCK1",
        role: Role::Rock,
        archive: STATIC,
        paints: &[Rock],
        lightmapped: false,
        effect: None,
        motion: None,
    },
    Kind {
        key: "R_ROCK2",
        role: Role::Rock,
        archive: STATIC,
        paints: &[Rock, Metal],
        lightmapped: false,
        effect: None,
        motion: None,
    },
];

/// What a kind's `.ndp` carries: the design weight of its merged nodes
/// (the shipped densities were computed to hit round weights; openparkan
/// `docs/28-chassis.md`) and each node's hit points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Build {
    pub kg: f32,
    pub hit_points: f32,
    /// Whether its `_l` / `_r` nodes are running gear (a walker's legs).
    pub legs: bool,
}

/// The build of the kinds that carry a `.ndp`: the machines and their
/// mounted parts (the small walking and flying chassis' body weights),
/// and the buildings.
pub fn build_of(key: &str) -> Option<Build> {
    let (kg, hit_points, legs) = match key {
        "CH_WALKER" => (1375.0, 450.0, true),
        "CH_HOVER" => (1125.0, 190.0, false),
        "CH_HERO" => (800.0, 380.0, true),
        "TR_LIGHT" => (500.0, 200.0, false),
        "TR_HEAVY" => (1200.0, 400.0, false),
        "GN_LASER" => (150.0, 80.0, false),
        "GN_CANNON" => (300.0, 120.0, false),
        "B_FACTORY" => (40_000.0, 3000.0, false),
        "B_TOWER" => (25_000.0, 2000.0, false),
        _ => return None,
    };
    Some(Build {
        kg,
        hit_points,
        legs,
    })
}

/// A small internal engine: its prototype key, drive (value 0), mass in kg
/// and power drawn a second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Engine {
    pub key: &'static str,
    pub drive: f32,
    pub kg: f32,
    pub power: f32,
}

/// The four marks of the small engine, as openparkan measured the shipped
/// `o_eng_l` family (`docs/24-motion.md`, "Load").
pub const ENGINES: [Engine; 4] = [
    Engine {
        key: "I_ENG_L_00",
        drive: 0.7,
        kg: 450.0,
        power: 0.75,
    },
    Engine {
        key: "I_ENG_L_01",
        drive: 0.8,
        kg: 675.0,
        power: 1.2,
    },
    Engine {
        key: "I_ENG_L_02",
        drive: 0.9,
        kg: 900.0,
        power: 1.5,
    },
    Engine {
        key: "I_ENG_L_03",
        drive: 1.0,
        kg: 1350.0,
        power: 1.85,
    },
];

/// The label of a chassis's engine slot (the small size letter).
pub const ENGINE_SLOT: &str = "i_eng_l";

/// The fortification: its registry entry names `B_TOWER` as parent.
pub const FORT: &str = "B_FORT";
pub const FORT_PARENT: &str = "B_TOWER";
/// The sun: no geometry, one effect.
pub const SUN: &str = "SUN";
/// The debris model the explosion effect spawns.
pub const DEBRIS: &str = "debris.msh";

fn part(prim: Prim, at: [f32; 3], size: [f32; 3], row: u8) -> Part {
    Part {
        prim,
        at,
        size,
        row,
        tri_flags: 0,
    }
}

/// `part` as a floor.
fn floor(part: Part) -> Part {
    Part {
        tri_flags: TRI_FLOOR,
        ..part
    }
}

fn node(parent: Option<u16>, offset: [f32; 3], anim: Anim, parts: Vec<Part>) -> NodeSpec {
    NodeSpec {
        parent,
        offset,
        parts,
        anim,
    }
}

const BOX: Prim = Prim::Box;

fn prism(sides: u32, top: f32) -> Prim {
    Prim::Prism { sides, top }
}

/// Two legs under node 0, `spread` either side of it, each a thigh and a
/// shin of `length`, half a stride apart (thigh swing and knee bend,
/// [`models::STRIDE_PHASE`]): the left one first (`thigh_l`, `shin_l`,
/// then `thigh_r`, `shin_r`). Node 0 sinks with them ([`Anim::Sink`]).
fn legs(nodes: &mut Vec<NodeSpec>, spread: f32, length: f32) {
    let width = 0.4 * length;
    nodes[0].anim = Anim::Sink(length);
    let left = models::STRIDE_PHASE;
    for (side, phase) in [(-1.0, left), (1.0, left + 0.5)] {
        let thigh = nodes.len() as u16;
        nodes.push(node(
            Some(0),
            [side * spread, 0.0, 0.0],
            Anim::Swing(phase),
            vec![part(BOX, [0.0, 0.0, -length], [width, width, length], 2)],
        ));
        nodes.push(node(
            Some(thigh),
            [0.0, 0.0, -length],
            Anim::Knee(phase),
            vec![
                part(
                    prism(6, 0.8),
                    [0.0, 0.0, -length],
                    [width, width, length],
                    1,
                ),
                part(
                    BOX,
                    [0.0, 0.2 * length, -length],
                    [0.6 * length, 0.9 * length, 0.15 * length],
                    4,
                ),
            ],
        ));
    }
}

/// The node tree and node names of a kind; `seed` shapes the rocks.
pub fn tree(key: &str, seed: u32) -> (Vec<NodeSpec>, Vec<&'static str>) {
    match key {
        "CH_WALKER" => {
            let mut nodes = vec![node(
                None,
                [0.0, 0.0, 2.0],
                Anim::Still,
                vec![
                    part(BOX, [0.0, 0.0, 0.0], [1.6, 1.2, 0.8], 0),
                    part(BOX, [0.0, 0.6, 0.5], [0.4, 0.2, 0.2], 3),
                    part(BOX, [0.81, 0.0, 0.3], [0.02, 0.5, 0.3], 6),
                    part(BOX, [0.0, -0.61, 0.1], [1.2, 0.02, 0.6], 8),
                ],
            )];
            legs(&mut nodes, 0.9, 1.0);
            nodes.push(node(
                Some(0),
                [0.0, 0.0, 0.8],
                Anim::Still,
                vec![
                    part(BOX, [0.0, 0.0, 0.0], [0.8, 0.8, 0.2], 4),
                    part(BOX, [0.5, -0.5, 0.2], [0.1, 0.1, 0.1], 5),
                    part(prism(6, 1.0), [0.0, -0.7, 0.0], [0.2, 0.2, 0.6], 7),
                ],
            ));
            (
                nodes,
                vec!["pelvis", "thigh_l", "shin_l", "thigh_r", "shin_r", "mount"],
            )
        }
        "CH_HERO" => {
            // A man-sized machine: legs of 0.5 m, a torso with two arms
            // and a head above the pelvis.
            let mut nodes = vec![node(
                None,
                [0.0, 0.0, 1.0],
                Anim::Still,
                vec![part(BOX, [0.0, 0.0, 0.0], [0.6, 0.4, 0.3], 0)],
            )];
            legs(&mut nodes, 0.2, 0.5);
            let torso = nodes.len() as u16;
            nodes.push(node(
                Some(0),
                [0.0, 0.0, 0.15],
                Anim::Still,
                vec![
                    part(BOX, [0.0, 0.0, 0.4], [0.7, 0.45, 0.8], 0),
                    part(BOX, [0.0, 0.23, 0.5], [0.4, 0.02, 0.3], 3),
                ],
            ));
            for side in [-1.0, 1.0] {
                nodes.push(node(
                    Some(torso),
                    [side * 0.45, 0.0, 0.7],
                    Anim::Still,
                    vec![part(BOX, [0.0, 0.1, -0.3], [0.18, 0.18, 0.7], 4)],
                ));
            }
            nodes.push(node(
                Some(torso),
                [0.0, 0.0, 0.8],
                Anim::Still,
                vec![
                    part(BOX, [0.0, 0.0, 0.15], [0.3, 0.3, 0.3], 8),
                    part(BOX, [0.0, 0.16, 0.17], [0.22, 0.02, 0.08], 3),
                ],
            ));
            (
                nodes,
                vec![
                    "pelvis",
                    "thigh_l",
                    "shin_l",
                    "thigh_r",
                    "shin_r",
                    "torso",
                    "arm_left",
                    "arm_right",
                    "head",
                ],
            )
        }
        "CH_HOVER" => {
            let rotor = |side: f32| {
                node(
                    Some(0),
                    [side * 1.4, 0.0, 0.3],
                    Anim::Yaw,
                    vec![
                        part(prism(8, 1.0), [0.0, 0.0, 0.0], [0.9, 0.9, 0.1], 7),
                        part(BOX, [0.0, 0.0, -0.2], [0.15, 0.15, 0.4], 2),
                    ],
                )
            };
            let nodes = vec![
                node(
                    None,
                    [0.0, 0.0, 0.0],
                    Anim::Still,
                    vec![
                        part(BOX, [0.0, 0.0, 0.0], [1.8, 2.2, 0.6], 0),
                        part(BOX, [0.0, 0.9, 0.3], [0.6, 0.4, 0.3], 3),
                        part(BOX, [0.0, -1.1, 0.1], [1.0, 0.1, 0.3], 8),
                    ],
                ),
                rotor(-1.0),
                rotor(1.0),
                node(
                    Some(0),
                    [0.0, 0.0, 0.4],
                    Anim::Still,
                    vec![part(BOX, [0.0, 0.0, 0.0], [0.7, 0.7, 0.15], 4)],
                ),
            ];
            (nodes, vec!["hull", "rotor_l", "rotor_r", "mount"])
        }
        "TR_LIGHT" | "TR_HEAVY" => {
            let s = if key == "TR_HEAVY" { 1.4 } else { 1.0 };
            let nodes = vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![part(prism(8, 0.9), [0.0; 3], [1.2 * s, 1.2 * s, 0.3], 2)],
                ),
                node(
                    Some(0),
                    [0.0, 0.0, 0.3],
                    Anim::Yaw,
                    vec![
                        part(BOX, [0.0; 3], [1.0 * s, 1.4 * s, 0.6 * s], 0),
                        part(BOX, [0.0, -0.3, 0.6 * s], [0.4, 0.4, 0.1], 1),
                        part(BOX, [0.0, 0.7 * s, 0.3], [0.6, 0.05, 0.15], 3),
                        part(prism(4, 0.2), [-0.4, -0.5, 0.6 * s], [0.05, 0.05, 0.8], 4),
                        part(BOX, [0.4, -0.6, 0.6 * s], [0.08, 0.08, 0.08], 5),
                        part(BOX, [0.5 * s + 0.01, 0.0, 0.2], [0.02, 0.4, 0.2], 6),
                        part(prism(6, 1.0), [0.0, -0.75 * s, 0.1], [0.15, 0.15, 0.3], 7),
                        part(
                            BOX,
                            [-0.5 * s - 0.01, 0.0, 0.1],
                            [0.02, 1.0 * s, 0.4 * s],
                            8,
                        ),
                    ],
                ),
            ];
            (nodes, vec!["ring", "head"])
        }
        "GN_LASER" | "GN_CANNON" => {
            let laser = key == "GN_LASER";
            let nodes = vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![
                        part(BOX, [0.0; 3], [0.4, 0.5, 0.4], 1),
                        part(BOX, [0.0, 0.0, 0.4], [0.3, 0.4, 0.1], 3),
                        part(BOX, [0.21, 0.0, 0.1], [0.02, 0.3, 0.2], 6),
                        part(BOX, [-0.21, 0.0, 0.1], [0.02, 0.2, 0.1], 7),
                        part(BOX, [0.0, 0.26, 0.0], [0.5, 0.02, 0.5], 8),
                    ],
                ),
                node(
                    Some(0),
                    [0.0, 0.25, 0.2],
                    Anim::Recoil(if laser { 0.05 } else { 0.3 }),
                    vec![
                        part(BOX, [0.0, 0.75, 0.0], [0.15, 1.5, 0.15], 0),
                        part(
                            BOX,
                            [0.0, 1.55, 0.0],
                            [0.2, 0.1, 0.2],
                            if laser { 2 } else { 4 },
                        ),
                        part(BOX, [0.0, 0.2, 0.1], [0.05, 0.05, 0.05], 5),
                    ],
                ),
            ];
            (nodes, vec!["mount", "barrel"])
        }
        "RD_LASER" | "RD_SHELL" => {
            // A round's nose is its +y.
            let size = if key == "RD_LASER" {
                [0.05, 0.8, 0.05]
            } else {
                [0.12, 0.35, 0.12]
            };
            (
                vec![node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![part(BOX, [0.0; 3], size, 1)],
                )],
                vec!["round"],
            )
        }
        "AM_SHELL" => (
            vec![node(
                None,
                [0.0; 3],
                Anim::Still,
                vec![
                    part(prism(6, 1.0), [0.0; 3], [0.12, 0.12, 0.3], 0),
                    part(prism(6, 0.0), [0.0, 0.0, 0.3], [0.12, 0.12, 0.1], 1),
                    part(prism(6, 1.0), [0.0, 0.0, 0.05], [0.13, 0.13, 0.03], 2),
                    part(BOX, [0.0; 3], [0.25, 0.01, 0.08], 3),
                    part(prism(6, 1.0), [0.0, 0.0, 0.4], [0.03, 0.03, 0.02], 4),
                ],
            )],
            vec!["shell"],
        ),
        "B_FACTORY" => (
            vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![
                        part(BOX, [0.0; 3], [8.0, 6.0, 4.0], 0),
                        part(BOX, [0.0, 0.0, 4.0], [8.4, 6.4, 0.3], 1),
                        part(BOX, [0.0, -3.05, 0.0], [2.0, 0.1, 2.5], 2),
                        part(BOX, [0.0, 3.05, 2.5], [5.0, 0.1, 0.8], 3),
                        part(BOX, [-3.0, 4.0, 0.0], [2.0, 1.5, 0.1], 5),
                        part(BOX, [0.0, -3.1, 3.0], [3.0, 0.05, 0.6], 6),
                        part(BOX, [4.1, 0.0, 0.5], [0.2, 4.0, 0.3], 8),
                        // The loading dock before the door: a floor.
                        floor(part(BOX, [0.0, -5.0, 0.0], [5.0, 3.8, 0.5], 8)),
                    ],
                ),
                node(
                    Some(0),
                    [2.5, 1.5, 4.3],
                    Anim::Still,
                    vec![
                        part(prism(8, 0.8), [0.0; 3], [0.8, 0.8, 3.0], 2),
                        part(BOX, [0.0, 0.0, 3.0], [0.2, 0.2, 0.2], 4),
                    ],
                ),
                node(
                    Some(0),
                    [-2.0, -1.0, 4.3],
                    Anim::Yaw,
                    vec![
                        part(BOX, [0.0; 3], [2.0, 0.3, 0.1], 7),
                        part(BOX, [0.0; 3], [0.3, 2.0, 0.1], 7),
                    ],
                ),
            ],
            vec!["hall", "chimney", "fan"],
        ),
        "B_TOWER" => (
            vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![
                        part(prism(8, 0.7), [0.0; 3], [3.0, 3.0, 6.0], 0),
                        part(BOX, [0.0, -1.5, 0.0], [0.8, 0.2, 1.8], 2),
                        part(BOX, [0.0, -1.3, 3.5], [0.8, 0.2, 0.4], 3),
                        part(BOX, [0.0, -1.45, 2.2], [1.0, 0.05, 0.3], 5),
                    ],
                ),
                node(
                    Some(0),
                    [0.0, 0.0, 6.0],
                    Anim::Still,
                    vec![
                        part(BOX, [0.0; 3], [2.4, 2.4, 1.2], 1),
                        part(BOX, [1.1, 1.1, 1.2], [0.15, 0.15, 0.15], 4),
                        part(BOX, [0.0, 0.0, -0.1], [2.6, 2.6, 0.1], 7),
                    ],
                ),
                node(
                    Some(1),
                    [0.0, 0.0, 1.2],
                    Anim::Yaw,
                    vec![
                        part(prism(6, 1.0), [0.0; 3], [0.2, 0.2, 0.3], 2),
                        part(BOX, [0.0, 0.0, 0.3], [2.0, 0.2, 0.8], 6),
                    ],
                ),
            ],
            vec!["base", "top", "radar"],
        ),
        "T_PINE" => (
            vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![part(prism(6, 0.7), [0.0; 3], [0.5, 0.5, 3.0], 0)],
                ),
                node(
                    Some(0),
                    [0.0, 0.0, 1.5],
                    Anim::Still,
                    vec![
                        part(prism(8, 0.0), [0.0; 3], [3.0, 3.0, 3.0], 1),
                        part(prism(8, 0.0), [0.0, 0.0, 1.5], [2.2, 2.2, 2.5], 1),
                    ],
                ),
            ],
            vec!["trunk", "crown"],
        ),
        "T_OAK" => (
            vec![
                node(
                    None,
                    [0.0; 3],
                    Anim::Still,
                    vec![part(prism(7, 0.8), [0.0; 3], [0.7, 0.7, 2.5], 0)],
                ),
                node(
                    Some(0),
                    [0.0, 0.0, 2.2],
                    Anim::Still,
                    vec![part(Prim::Rock { seed }, [0.0; 3], [4.0, 4.0, 3.5], 1)],
                ),
            ],
            vec!["trunk", "crown"],
        ),
        "R_ROCK2" => (
            vec![node(
                None,
                [0.0; 3],
                Anim::Still,
                vec![
                    part(Prim::Rock { seed }, [0.0; 3], [2.4, 1.8, 1.4], 0),
                    part(
                        Prim::Rock { seed: seed ^ 1 },
                        [1.3, 0.4, 0.0],
                        [1.2, 1.0, 0.8],
                        0,
                    ),
                    part(BOX, [-0.6, -0.5, 0.0], [0.3, 0.3, 0.4], 1),
                ],
            )],
            vec!["rocks"],
        ),
        // R_ROCK1 and the explosion debris.
        _ => (
            vec![node(
                None,
                [0.0; 3],
                Anim::Still,
                vec![part(Prim::Rock { seed }, [0.0; 3], [2.0, 1.6, 1.2], 0)],
            )],
            vec!["rock"],
        ),
    }
}

/// The tree scaled by `s` (a retail-scale variant).
pub fn scaled(nodes: Vec<NodeSpec>, s: f32) -> Vec<NodeSpec> {
    nodes
        .into_iter()
        .map(|mut n| {
            n.offset = n.offset.map(|v| v * s);
            if let Anim::Sink(length) = n.anim {
                n.anim = Anim::Sink(length * s);
            }
            for p in &mut n.parts {
                p.at = p.at.map(|v| v * s);
                p.size = p.size.map(|v| v * s);
            }
            n
        })
        .collect()
}
