//! The demo's weapons in the original layout (openparkan
//! `docs/29-weapons.md`, `docs/30-turrets.md`): a gun part's controller is
//! one class-2 gun whose barrel is a section-2 channel with a muzzle point
//! in the gun's `.cpt` and whose `+0x6C` names its round in `objects.rlb`;
//! a turret's is one class-1 turret with a yaw and a pitch channel and its
//! `TurretCenter`, `TurretDirect` and `TargetDirect` points; a round
//! (`RD_*`) is a prototype with a model, a projectile controller (speed,
//! range at `+108`, its hit, edge and range groups), a one-node `.ndp`
//! whose explosion is its hit and a named `.exp` at the end of its range.

use super::files;
use iron3d_formats::error::Result;
use iron3d_formats::fixed::{FixedName, ResourceRef};
use iron3d_formats::proto::ctld::{
    ACTION_EXPLODE_NAMED, ACTION_KILL, ACTION_REMOVE, ACTION_STOP, Action, CHANNEL_INVERTS,
    CHANNEL_SIZE, CHANNEL_WRAPS, CLASS_DEFLECTOR, CLASS_GUN, CLASS_RADAR, CLASS_TURRET,
    CTLD_TYPE_ID, Channel, Component, ControlParams, Ctld, GROUP_AT_EDGE, GROUP_AT_RANGE,
    GROUP_ON_HIT, ROUND_STARTS_SELECTED, SHIELD_SECTORS, WHOLE_TURN,
};
use iron3d_formats::proto::ctpt::{CTPT_TYPE_ID, ControlPoint, Ctpt};
use iron3d_formats::proto::expl::{self, Expl};
use iron3d_formats::proto::ndpr::{NDPR_TYPE_ID, Ndpr, NodeDamage};

/// NRes type id of an explosion (`"EXPL"`).
const EXPL_TYPE_ID: u32 = u32::from_le_bytes(*b"EXPL");

/// A gun: the round it fires and its values 0-3, and its barrel's
/// channel rate (a stroke takes 1 ÷ rate s); the clip slot it names when it
/// takes clips.
struct GunDesign {
    round: &'static str,
    clip_slot: &'static str,
    magazine: f32,
    capacitor: f32,
    energy_per_shot: f32,
    interval_ms: f32,
    stroke_rate: f32,
}

/// The laser fires free-running beams (the shipped lasers' magazine −1,
/// a 250 ms stroke and 200 ms wait, as the hero's); the cannon explosive
/// shells, slower, 40 of its own and a slot for a clip of more.
fn gun_design(key: &str) -> Option<GunDesign> {
    match key {
        "GN_LASER" => Some(GunDesign {
            round: "RD_LASER",
            clip_slot: "",
            magazine: -1.0,
            capacitor: 20.0,
            energy_per_shot: 3.2,
            interval_ms: 200.0,
            stroke_rate: 4.0,
        }),
        "GN_CANNON" => Some(GunDesign {
            round: "RD_SHELL",
            clip_slot: "i_c01_l",
            magazine: 40.0,
            capacitor: 4.0,
            energy_per_shot: 0.5,
            interval_ms: 750.0,
            stroke_rate: 2.0,
        }),
        _ => None,
    }
}

/// An explosion: kind, damage, radius and the effect it plays.
#[derive(Debug, Clone, Copy)]
struct ExpDesign {
    kind: u32,
    damage: f32,
    radius: f32,
    effect: &'static str,
}

/// A round: its flight, how long it stays once stopped, its node's hit
/// points and its two explosions.
struct RoundDesign {
    key: &'static str,
    speed: f32,
    range: f32,
    linger_ms: i32,
    hit_points: f32,
    hit: ExpDesign,
    end: ExpDesign,
}

/// The demo's rounds: a laser beam (10,000 m/s, hitting one node directly
/// for its 49 hit points and 1, a puff at the end of its range) and an
/// explosive shell (350 m/s over 500 m, a blast of 1.5 m).
const ROUNDS: [RoundDesign; 2] = [
    RoundDesign {
        key: "RD_LASER",
        speed: 10_000.0,
        range: 600.0,
        linger_ms: 3000,
        hit_points: 49.0,
        hit: ExpDesign {
            kind: 2,
            damage: 1.0,
            radius: 1.0,
            effect: "FX_SPARK",
        },
        end: ExpDesign {
            kind: 1,
            damage: 0.0,
            radius: 1.0,
            effect: "FX_SPARK",
        },
    },
    RoundDesign {
        key: "RD_SHELL",
        speed: 350.0,
        range: 500.0,
        linger_ms: 0,
        hit_points: 79.0,
        hit: ExpDesign {
            kind: 3,
            damage: 20.0,
            radius: 1.5,
            effect: "FX_EXPLODE",
        },
        end: ExpDesign {
            kind: 3,
            damage: 20.0,
            radius: 1.5,
            effect: "FX_EXPLODE",
        },
    },
];

/// The round prototype keys the demo writes.
pub fn round_keys() -> impl Iterator<Item = &'static str> {
    ROUNDS.iter().map(|r| r.key)
}

/// The entries a part of kind `key` (stem `stem`) adds beside its model:
/// `(name, type id, payload)`; none for a kind that is no weapon.
pub fn part_files(key: &str, stem: &str) -> Result<Vec<(String, u32, Vec<u8>)>> {
    if let Some(gun) = gun_design(key) {
        return Ok(vec![
            (format!("{stem}.ctl"), CTLD_TYPE_ID, gun_controller(&gun)?),
            (format!("{stem}.cpt"), CTPT_TYPE_ID, points(&MUZZLE)?),
        ]);
    }
    if key == "AM_SHELL" {
        return Ok(vec![(
            format!("{stem}.ctl"),
            CTLD_TYPE_ID,
            clip_controller()?,
        )]);
    }
    if matches!(key, "TR_LIGHT" | "TR_HEAVY") {
        return Ok(vec![
            (format!("{stem}.ctl"), CTLD_TYPE_ID, turret_controller()?),
            (format!("{stem}.cpt"), CTPT_TYPE_ID, points(&SIGHT)?),
        ]);
    }
    let Some(round) = ROUNDS.iter().find(|r| r.key == key) else {
        return Ok(Vec::new());
    };
    let (hit, end) = (format!("{stem}_hit.exp"), format!("{stem}_end.exp"));
    Ok(vec![
        (
            format!("{stem}.ctl"),
            CTLD_TYPE_ID,
            round_controller(round, &end)?,
        ),
        (
            format!("{stem}.ndp"),
            NDPR_TYPE_ID,
            round_nodes(round, &hit)?,
        ),
        (hit, EXPL_TYPE_ID, explosion(&round.hit)?),
        (end, EXPL_TYPE_ID, explosion(&round.end)?),
    ])
}

/// Whether a part file is one of the prototype's references (the
/// explosions are named by the controller and the node table instead).
pub fn is_reference(name: &str) -> bool {
    !name.ends_with(".exp")
}

/// A control point: name, node, position and direction (node frame, Z up).
type Point = (&'static str, i32, [f32; 3], [f32; 3]);

/// A gun's muzzle: the tip of its barrel (node 1, 1.6 m along +y).
const MUZZLE: [Point; 1] = [("muzzle", 1, [0.0, 1.6, 0.0], [0.0, 1.0, 0.0])];

/// A turret's sight on its yawing head (node 1): where it sights from,
/// where it faces, the sight's direction, and its camera's eye (at the
/// head's front, above the sight; the point before `TargetDirect`, as on
/// every shipped turret).
const SIGHT: [Point; 4] = [
    ("TurretCenter", 1, [0.0, 0.0, 0.3], [0.0, 1.0, 0.0]),
    ("TurretDirect", 1, [0.0, 0.7, 0.3], [0.0, 1.0, 0.0]),
    ("CameraCenter", 1, [0.0, 0.75, 0.7], [0.0, 1.0, 0.0]),
    ("TargetDirect", 1, [0.0, 0.0, 0.3], [0.0, 1.0, 0.0]),
];

fn points(list: &[Point]) -> Result<Vec<u8>> {
    let points = list
        .iter()
        .map(|&(name, node, position, vector)| {
            Ok(ControlPoint {
                flags_raw: 0,
                link_raw: 0,
                node,
                position,
                vector,
                name: FixedName::new(name.as_bytes())?,
            })
        })
        .collect::<Result<_>>()?;
    Ctpt { points }.to_bytes()
}

/// A channel record with `fields`, its frames zero.
fn channel(fields: Channel) -> [u8; CHANNEL_SIZE] {
    let mut record = [0u8; CHANNEL_SIZE];
    fields.write(&mut record);
    record
}

/// A gun's controller: the engine's defaults, one class-2 gun on its
/// barrel node, its barrel the channel of its muzzle point.
fn gun_controller(gun: &GunDesign) -> Result<Vec<u8>> {
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    ctld.channels.push(channel(Channel {
        node: 1,
        initial: 0.0,
        second_point: -1,
        point: 0,
        rate: gun.stroke_rate,
        span: 0.0,
        flags: 0,
    }));
    ctld.components
        .push(gun_record(gun, gun.clip_slot.as_bytes())?);
    ctld.to_bytes()
}

/// A gun's class-2 record on its barrel node: its values, its round, its
/// barrel channel 0 and `label` (a clip slot's, or none).
fn gun_record(gun: &GunDesign, label: &[u8]) -> Result<Component> {
    let mut record = Component::new(CLASS_GUN, 1, label);
    let values = [
        gun.magazine,
        gun.capacitor,
        gun.energy_per_shot,
        gun.interval_ms,
    ];
    for (i, v) in values.into_iter().enumerate() {
        record.set_value(i, v);
    }
    let round = ResourceRef::new(files::OBJECTS.as_bytes(), gun.round.as_bytes())?;
    record.set_emits(&round);
    record.entries = vec![0];
    Ok(record)
}

/// A clip of shells' controller: one class-2 record with the cannon's
/// energy, interval, round and barrel, 60 shells of its own and a weight
/// of 20 kg, as the shipped clips (`docs/29-weapons.md`, "Three records
/// make a weapon"). Fitted into the cannon's slot it replaces the cannon's
/// record.
fn clip_controller() -> Result<Vec<u8>> {
    let cannon = gun_design("GN_CANNON").expect("the cannon is a gun");
    let clip = GunDesign {
        magazine: CLIP_SHELLS,
        ..cannon
    };
    let mut record = gun_record(&clip, b"")?;
    record.set_mass(20.0);
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    ctld.components.push(record);
    ctld.to_bytes()
}

/// The shells a clip holds.
const CLIP_SHELLS: f32 = 60.0;

/// A turret's controller: one class-1 turret on its head (node 1) whose
/// entries are its yaw channel (a whole turn, wrapping, half a turn a
/// second, facing ahead at 0.5) and its pitch channel (a quarter turn, half
/// of it a second, level at 0.111: −10° to +80°, as 52 shipped turrets),
/// then a radar slot (0.5 to each signature, a scan good for 750 ms, as
/// every shipped turret's, at the demo's radar range) and a deflector of
/// 0.5 on every sector, as the shipped turrets carry (openparkan
/// `docs/30-turrets.md`, "A turret is a turret, a radar, a camera and a
/// deflector"). The radar is a tower's eyes, and a unit's (the last of its
/// device list).
fn turret_controller() -> Result<Vec<u8>> {
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    ctld.channels.push(channel(Channel {
        node: 1,
        initial: 0.5,
        second_point: 0,
        point: 1,
        rate: 0.5,
        span: WHOLE_TURN,
        flags: CHANNEL_WRAPS | CHANNEL_INVERTS,
    }));
    ctld.channels.push(channel(Channel {
        node: 1,
        initial: 0.111,
        second_point: -1,
        point: 3,
        rate: 0.5,
        span: std::f32::consts::FRAC_PI_2,
        flags: 0,
    }));
    let mut record = Component::new(CLASS_TURRET, 1, b"");
    record.entries = vec![0, 1];
    ctld.components.push(record);
    let mut radar = Component::new(CLASS_RADAR, 0, b"i_rdr_l");
    for (i, v) in [0.5, 0.5, 0.5, super::RADAR_RANGE, 750.0]
        .into_iter()
        .enumerate()
    {
        radar.set_value(i, v);
    }
    ctld.components.push(radar);
    let mut deflector = Component::new(CLASS_DEFLECTOR, 0, b"");
    (0..SHIELD_SECTORS).for_each(|i| deflector.set_value(i, 0.5));
    ctld.components.push(deflector);
    ctld.to_bytes()
}

/// A round's controller: its speed on every axis, its range, how long it
/// stays once stopped; on a hit it stops and is killed (its node's
/// explosion goes off), at the map's edge it stops and is removed, at the
/// end of its range it stops and explodes with `end`.
fn round_controller(round: &RoundDesign, end: &str) -> Result<Vec<u8>> {
    let control = ControlParams {
        top_speed: [round.speed; 3],
        range: round.range,
        delete_delay_ms: round.linger_ms,
        flags_116: ROUND_STARTS_SELECTED,
        ..ControlParams::ENGINE_DEFAULT
    };
    let mut ctld = Ctld::frame(&control);
    let none = ResourceRef::default();
    let end = ResourceRef::new(files::SYSTEM.as_bytes(), end.as_bytes())?;
    let groups = [
        (GROUP_ON_HIT, Action::new(ACTION_KILL, none)),
        (GROUP_AT_EDGE, Action::new(ACTION_REMOVE, none)),
        (GROUP_AT_RANGE, Action::new(ACTION_EXPLODE_NAMED, end)),
    ];
    for (entry, action) in groups {
        ctld.group_block[entry] = ctld.groups.len() as i32;
        ctld.groups
            .push(vec![Action::new(ACTION_STOP, none), action]);
    }
    ctld.to_bytes()
}

/// A round's node table: its one node's hit points, and its hit `.exp`
/// named without an archive (the round's own, as the shipped tables do).
fn round_nodes(round: &RoundDesign, hit: &str) -> Result<Vec<u8>> {
    Ndpr {
        nodes: vec![NodeDamage {
            flags: 0,
            hit_points: round.hit_points,
            density: 0.0,
            explosion: ResourceRef::new(b"", hit.as_bytes())?,
        }],
    }
    .to_bytes()
}

/// What a machine's or a building's node sets off as it dies or steps
/// up a damage stage: kind 1, the effect only (as the shipped building
/// and robot debris, openparkan `docs/26-damage.md`), `FX_EXPLODE` sized
/// by the node's radius: `(name, type id, payload)`.
pub fn node_explosion(name: String) -> Result<(String, u32, Vec<u8>)> {
    let design = ExpDesign {
        kind: 1,
        damage: 0.0,
        radius: 1.0,
        effect: "FX_EXPLODE",
    };
    Ok((name, EXPL_TYPE_ID, explosion(&design)?))
}

/// An explosion: its kind, damage and radius, and its effect in slot 0.
fn explosion(design: &ExpDesign) -> Result<Vec<u8>> {
    let mut effects = [ResourceRef::default(); expl::SLOTS];
    effects[0] = ResourceRef::new(files::EFFECTS.as_bytes(), design.effect.as_bytes())?;
    Ok(Expl {
        kind: design.kind,
        damage: design.damage,
        radius: design.radius,
        unknown: [1.0, 1.0],
        placement: 0,
        effects,
    }
    .to_bytes())
}
