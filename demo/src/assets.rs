//! Demo install assets: models, WEAR tables, materials, textures,
//! lightmaps, palettes, effects, sounds, fonts, sprites and the prototype
//! registry (`objects.rlb`) that ties them together.
//!
//! Every name a file references resolves: registry -> `*.msh`/`*.wea` in
//! `system.rlb`/`static.rlb` (and a moving kind's `*.ctl` controller) -> WEAR rows -> `Material.lib` -> phase
//! textures in `Textures.lib`; WEAR `LIGHTMAPS` rows -> `LightMap.lib`;
//! effect commands -> `sounds.lib`, `Material.lib`. Content comes from integer noise and `+ - * / sqrt` on
//! f32 only ([`noise`]), so one seed gives the same bytes everywhere.

mod effects;
mod glyphs;
pub(crate) mod ground;
mod hud_art;
mod interface;
mod kinds;
mod materials;
mod models;
mod noise;
mod sounds;
mod textures;
mod weapons;

use super::{Install, Scale};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{self, NewEntry};
use iron3d_formats::archive::rsli::{self, Method, NewRsliEntry};
use iron3d_formats::error::Result;
use iron3d_formats::fixed::FixedName;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::FXID_TYPE_ID;
use iron3d_formats::mat0::MAT0_TYPE_ID;
use iron3d_formats::msh::Msh;
use iron3d_formats::proto::base::Base;
use iron3d_formats::proto::ctld::{
    ACTION_EFFECT_AT_POINT, ACTION_EFFECT_OFF, ACTION_EFFECT_ON, ACTION_EFFECT_START, Action,
    CLASS_ENGINE, CLASS_FIGHT_SHIELD, CLASS_RADAR, CONTACT_DESTROYED, CONTACT_INTACT, CONTACT_SIZE,
    CTLD_TYPE_ID, Component, ControlMode, ControlParams, Ctld, GROUP_AT_LOAD, GROUP_CRITICAL,
    GROUP_RECOVERED, HALF_CONE, RUNS_IF_ANY, STATE_ANCHOR, STATE_BASE, STATE_BY_VELOCITY,
    STATE_GROUND_CONTACT, StateContact, StateRecord,
};
use iron3d_formats::proto::ctpt::{CTPT_TYPE_ID, ControlPoint, Ctpt};
use iron3d_formats::proto::ndpr::{GEAR_LEFT, GEAR_RIGHT, NDPR_TYPE_ID, Ndpr, NodeDamage};
use iron3d_formats::proto::tfnt::{Glyph, Tfnt};
use iron3d_formats::registry::{ObjectRef, REGISTRY_ARCHIVE, Registry};
use iron3d_formats::texm::{FLAG5_ALPHA_SURFACE, PixelFormat, Texm};
use iron3d_formats::wear::{WEAR_TYPE_ID, Wear, WearRow};
use kinds::{KINDS, Kind};
use noise::{Rng, hash3};
use textures::{Look, TexSpec};

/// Every prototype key written to `objects.rlb`, with its role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    pub prototypes: Vec<Proto>,
}

/// One prototype key of `objects.rlb`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proto {
    pub key: String,
    pub role: Role,
}

/// What a prototype is for the world generator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    Chassis,
    Turret,
    Gun,
    Ammo,
    /// An internal part fitted into a chassis's slot.
    Engine,
    Building,
    Fortification,
    Tree,
    Rock,
    Sun,
    /// A round a gun fires (a `BULL` prototype).
    Round,
}

/// The index of the node called `name` in the model of the base kind
/// `base` (a fortification uses its parent's model): the socket a unit DAT
/// record's attachment names. Variants share their base kind's node tree.
pub fn socket(base: &str, name: &str) -> Option<usize> {
    let base = if base == kinds::FORT {
        kinds::FORT_PARENT
    } else {
        base
    };
    kinds::tree(base, 0).1.iter().position(|n| *n == name)
}

/// The prototype key of the small engine of mark `mark` (0 to 3; higher
/// marks are clamped), which fits a chassis's [`ENGINE_SLOT_INDEX`].
pub fn engine_key(mark: usize) -> &'static str {
    kinds::ENGINES[mark.min(kinds::ENGINES.len() - 1)].key
}

/// The component index of a chassis controller's engine slot (its first).
pub const ENGINE_SLOT_INDEX: i32 = 0;

/// Generated variants of every kind at retail scale (B_FACTORY_000 ...).
pub const RETAIL_VARIANTS: u32 = 48;

/// NRes type ids of the entries written here.
const MESH_TYPE_ID: u32 = u32::from_le_bytes(*b"MESH");
const TEXM_TYPE_ID: u32 = u32::from_le_bytes(*b"Texm");
const BASE_TYPE_ID: u32 = u32::from_le_bytes(*b"BASE");
const PAL_TYPE_ID: u32 = u32::from_le_bytes(*b"PAL ");

/// The install's archive file names (mixed case as retail).
pub mod files {
    pub const OBJECTS: &str = "objects.rlb";
    pub const SYSTEM: &str = "system.rlb";
    pub const STATIC: &str = "static.rlb";
    pub const FORTIF: &str = "fortif.rlb";
    pub const EFFECTS: &str = "effects.rlb";
    pub const MATERIALS: &str = "Material.lib";
    pub const TEXTURES: &str = "Textures.lib";
    pub const LIGHTMAPS: &str = "LightMap.lib";
    pub const PALETTES: &str = "Palettes.lib";
    pub const SOUNDS: &str = "sounds.lib";
    pub const VOICES: &str = "voices.lib";
    pub const FONTS: &str = "gamefont.rlb";
    pub const SPRITES: &str = "sprites.lib";
}

/// NRes entries being collected: `(name, type_id, attr1, attr2, attr3, payload)`.
#[derive(Default)]
pub(crate) struct Entries(Vec<(String, u32, u32, u32, u32, Vec<u8>)>);

impl Entries {
    pub(crate) fn push(&mut self, name: impl Into<String>, type_id: u32, payload: Vec<u8>) {
        self.0.push((name.into(), type_id, 0, 0, 0, payload));
    }

    pub(crate) fn build(&self) -> Result<Vec<u8>> {
        let entries: Vec<NewEntry> = self
            .0
            .iter()
            .map(|(name, type_id, attr1, attr2, attr3, payload)| NewEntry {
                name: name.as_bytes().to_vec(),
                type_id: *type_id,
                attr1: *attr1,
                attr2: *attr2,
                attr3: *attr3,
                payload,
            })
            .collect();
        nres::build(&entries)
    }
}

fn rsli_archive(entries: &[(String, Vec<u8>)], method: Method) -> Result<Vec<u8>> {
    let rows: Vec<NewRsliEntry> = entries
        .iter()
        .map(|(name, payload)| NewRsliEntry {
            name: name.as_bytes().to_vec(),
            method,
            payload,
        })
        .collect();
    rsli::build(&rows)
}

/// A content seed for one named item: the install seed hashed with the name.
fn item_seed(seed: u64, name: &str) -> u32 {
    name.bytes()
        .fold(hash3(seed as u32, (seed >> 32) as i32, 0, 0), |h, b| {
            hash3(h, b as i32, 1, 2)
        })
}

/// `_017` for a retail variant, empty for the base set.
fn variant_suffix(variant: Option<u32>) -> String {
    variant.map_or(String::new(), |v| format!("_{v:03}"))
}

/// Writes every asset archive into `install` and returns the catalogue.
pub fn write(install: &mut Install, seed: u64, scale: Scale) -> Result<Catalog> {
    let variants: Vec<Option<u32>> = match scale {
        Scale::Demo => vec![None],
        Scale::Retail => std::iter::once(None)
            .chain((0..RETAIL_VARIANTS).map(Some))
            .collect(),
    };
    install.add(files::TEXTURES, texture_library(seed, &variants)?)?;
    install.add(files::MATERIALS, material_library(&variants)?)?;
    install.add(files::PALETTES, palette_library(seed)?)?;

    let mut rng = Rng::new(seed);
    let mut catalog = Catalog {
        prototypes: Vec::new(),
    };
    let mut registry: Vec<(Vec<u8>, Vec<ObjectRef>)> = Vec::new();
    let (mut system, mut statics, mut fortif, mut lightmaps) = (
        Entries::default(),
        Entries::default(),
        Entries::default(),
        Entries::default(),
    );
    for &variant in &variants {
        let sfx = variant_suffix(variant);
        let size = if variant.is_some() {
            rng.pick(0.8, 1.25, 20)
        } else {
            1.0
        };
        for kind in &KINDS {
            let key = format!("{}{sfx}", kind.key);
            let archive = if kind.archive == kinds::SYSTEM {
                &mut system
            } else {
                &mut statics
            };
            let refs = model_entries(archive, &mut lightmaps, kind, &key, variant, size, seed)?;
            registry.push((key.clone().into_bytes(), refs));
            catalog.prototypes.push(Proto {
                key,
                role: kind.role,
            });
        }
        // The fortification: parent B_TOWER (model, WEAR), own BASE.
        let key = format!("{}{sfx}", kinds::FORT);
        let base = format!("{}.bas", key.to_ascii_lowercase());
        fortif.push(&base, BASE_TYPE_ID, fort_base(size)?);
        registry.push((
            key.clone().into_bytes(),
            vec![
                ObjectRef::new(
                    REGISTRY_ARCHIVE,
                    format!("{}{sfx}", kinds::FORT_PARENT).as_bytes(),
                )?,
                ObjectRef::new(files::FORTIF.as_bytes(), base.as_bytes())?,
            ],
        ));
        catalog.prototypes.push(Proto {
            key,
            role: Role::Fortification,
        });
    }
    for engine in &kinds::ENGINES {
        let ctl_name = format!("{}.ctl", engine.key.to_ascii_lowercase());
        system.push(&ctl_name, CTLD_TYPE_ID, engine_controller(engine)?);
        registry.push((
            engine.key.into(),
            vec![ObjectRef::new(
                kinds::SYSTEM.as_bytes(),
                ctl_name.as_bytes(),
            )?],
        ));
        catalog.prototypes.push(Proto {
            key: engine.key.into(),
            role: Role::Engine,
        });
    }
    for key in weapons::round_keys() {
        let kind = Kind {
            key,
            role: Role::Round,
            archive: kinds::SYSTEM,
            paints: kinds::ROUND_PAINTS,
            lightmapped: false,
            effect: None,
            motion: None,
        };
        let refs = model_entries(&mut system, &mut lightmaps, &kind, key, None, 1.0, seed)?;
        registry.push((key.into(), refs));
        catalog.prototypes.push(Proto {
            key: key.into(),
            role: Role::Round,
        });
    }
    registry.push((
        kinds::SUN.into(),
        vec![ObjectRef::new(files::EFFECTS.as_bytes(), b"FX_SUN")?],
    ));
    catalog.prototypes.push(Proto {
        key: kinds::SUN.into(),
        role: Role::Sun,
    });

    let (debris, names) = kinds::tree("DEBRIS", item_seed(seed, kinds::DEBRIS));
    statics.push(
        kinds::DEBRIS,
        MESH_TYPE_ID,
        models::build(&debris, (false, false), &names)?,
    );

    install.add(files::OBJECTS, Registry::build(&registry)?)?;
    install.add(files::SYSTEM, system.build()?)?;
    install.add(files::STATIC, statics.build()?)?;
    install.add(files::FORTIF, fortif.build()?)?;
    install.add(files::LIGHTMAPS, lightmaps.build()?)?;
    install.add(files::EFFECTS, effect_library()?)?;
    write_sounds(install, seed)?;
    install.add(files::FONTS, font_library(seed)?)?;
    install.add(files::SPRITES, sprite_library(seed)?)?;
    interface::write(install)?;
    Ok(catalog)
}

/// Adds a prototype's model and WEAR (and lightmap) and returns its
/// registry references.
fn model_entries(
    archive: &mut Entries,
    lightmaps: &mut Entries,
    kind: &Kind,
    key: &str,
    variant: Option<u32>,
    size: f32,
    seed: u64,
) -> Result<Vec<ObjectRef>> {
    let stem = key.to_ascii_lowercase();
    let (nodes, names) = kinds::tree(kind.key, item_seed(seed, key));
    // A building's nodes have a battered look for their damage stages.
    let battered = kind.role == Role::Building;
    let nodes = kinds::scaled(nodes, size);
    let msh = models::build(&nodes, (kind.lightmapped, battered), &names)?;
    let explosion = format!("{stem}_node.exp");
    let damage = kinds::build_of(kind.key)
        .map(|build| damage_table(&msh, (kind.role, build), &names, &explosion))
        .transpose()?;
    let rows = kind
        .paints
        .iter()
        .enumerate()
        .map(|(i, p)| WearRow::new(i.to_string(), p.material(variant)))
        .collect();
    let lightmap_rows = if kind.lightmapped {
        let name = format!("LM_{key}");
        lightmaps.push(
            &name,
            TEXM_TYPE_ID,
            textures::lightmap(32, item_seed(seed, &name))?,
        );
        Some(vec![WearRow::new("0", name)])
    } else {
        None
    };
    let (msh_name, wea_name) = (format!("{stem}.msh"), format!("{stem}.wea"));
    archive.push(&msh_name, MESH_TYPE_ID, msh);
    archive.push(
        &wea_name,
        WEAR_TYPE_ID,
        Wear::new(rows, lightmap_rows).to_bytes()?,
    );
    let mut refs = vec![
        ObjectRef::new(kind.archive.as_bytes(), msh_name.as_bytes())?,
        ObjectRef::new(kind.archive.as_bytes(), wea_name.as_bytes())?,
    ];
    if let Some(fx) = kind.effect {
        refs.push(ObjectRef::new(files::EFFECTS.as_bytes(), fx.as_bytes())?);
    }
    if let Some(ndp) = damage {
        let ndp_name = format!("{stem}.ndp");
        archive.push(&ndp_name, NDPR_TYPE_ID, ndp);
        let (name, type_id, payload) = weapons::node_explosion(explosion)?;
        archive.push(&name, type_id, payload);
        refs.push(ObjectRef::new(
            kind.archive.as_bytes(),
            ndp_name.as_bytes(),
        )?);
    }
    if let Some(motion) = kind.motion {
        let ctl_name = format!("{stem}.ctl");
        archive.push(&ctl_name, CTLD_TYPE_ID, controller(&motion)?);
        refs.push(ObjectRef::new(
            kind.archive.as_bytes(),
            ctl_name.as_bytes(),
        )?);
        // The feet its states' contacts name and where it smokes.
        let cpt_name = format!("{stem}.cpt");
        archive.push(
            &cpt_name,
            CTPT_TYPE_ID,
            chassis_points(&names, &nodes, &motion)?,
        );
        refs.push(ObjectRef::new(
            kind.archive.as_bytes(),
            cpt_name.as_bytes(),
        )?);
    }
    for (name, type_id, payload) in weapons::part_files(kind.key, &stem)? {
        if weapons::is_reference(&name) {
            refs.push(ObjectRef::new(kind.archive.as_bytes(), name.as_bytes())?);
        }
        archive.push(name, type_id, payload);
    }
    Ok(refs)
}

/// A kind's node table: one record per model node, with the density that
/// makes its merged nodes weigh the build's weight (a mounted part's node 0
/// is not merged), a walker's `_l` / `_r` legs flagged as the left and
/// right running gear (its thighs and shins), and every node setting off
/// `explosion` (an entry of the kind's own archive).
fn damage_table(
    msh: &[u8],
    (role, build): (Role, kinds::Build),
    names: &[&str],
    explosion: &str,
) -> Result<Vec<u8>> {
    let model = Msh::parse(msh, Mode::Strict)?;
    let volumes: Vec<f32> = model
        .nodes
        .node38()
        .iter()
        .map(|node| {
            node.slot(0, 0)
                .and_then(|s| model.slots.slots.get(usize::from(s)))
                .map_or(0.0, |slot| slot.volume())
        })
        .collect();
    let merged_from = usize::from(matches!(role, Role::Turret | Role::Gun));
    let merged: f32 = volumes.iter().skip(merged_from).sum();
    let density = if merged > 0.0 { build.kg / merged } else { 0.0 };
    let nodes = (0..volumes.len())
        .map(|n| {
            let name = names.get(n).copied().unwrap_or_default();
            let side = ["thigh_", "shin_"]
                .iter()
                .find_map(|leg| name.strip_prefix(leg));
            let flags = match (build.legs, side) {
                (true, Some("l")) => GEAR_LEFT,
                (true, Some("r")) => GEAR_RIGHT,
                _ => 0,
            };
            Ok(NodeDamage {
                flags,
                hit_points: build.hit_points,
                density,
                explosion: ResourceRef::new(b"", explosion.as_bytes())?,
            })
        })
        .collect::<Result<_>>()?;
    Ndpr { nodes }.to_bytes()
}

/// A chassis's control points: a walker's left and right foot
/// ([`FOOT_POINTS`]) at the bottom of its shins (`shin_l`, `shin_r`: as
/// far below the knee as the knee is below the hip), then [`SMOKE_POINT`]
/// at the back of its body (node 0).
fn chassis_points(
    names: &[&str],
    nodes: &[models::NodeSpec],
    motion: &kinds::Motion,
) -> Result<Vec<u8>> {
    let at = |name: &str, node: i32, position: [f32; 3]| -> Result<ControlPoint> {
        Ok(ControlPoint {
            flags_raw: 0,
            link_raw: 0,
            node,
            position,
            vector: [0.0, 0.0, -1.0],
            name: FixedName::new(name.as_bytes())?,
        })
    };
    let feet = FOOT_POINTS.iter().zip(["shin_l", "shin_r"]);
    let mut points = feet
        .take(usize::from(motion.feet))
        .map(|(point, shin)| {
            let node = names.iter().position(|n| *n == shin);
            let knee = node
                .and_then(|n| nodes.get(n))
                .map_or(-1.0, |n| n.offset[2]);
            at(point, node.map_or(-1, |n| n as i32), [0.0, 0.0, knee])
        })
        .collect::<Result<Vec<_>>>()?;
    points.push(at(SMOKE_POINT, 0, [0.0, -0.4, 0.4])?);
    Ctpt { points }.to_bytes()
}

/// The control point a chassis smokes and burns at.
const SMOKE_POINT: &str = "smoke";
/// The id its burning effect is made under.
const BURN_EFFECT_ID: i32 = 1;
/// The id a walker's foot `k` makes its step effect under: this plus `k`.
const STEP_EFFECT_ID: i32 = 2;
/// The time mode a landing foot starts its step in: once through.
const STEP_TIME_MODE: i32 = 1;

/// A chassis's effect groups (openparkan `docs/13-control.md`, "Critical
/// damage", "A footstep, end to end"): at load it makes `FX_BURN` at
/// [`SMOKE_POINT`] (the effect starts switched off) and `FX_STEP` at each
/// foot; critical damage switches the burning on, unless the machine
/// stands in a liquid bed (condition byte 7, as the retail hero's smoke);
/// recovering switches it off. Then one group per foot, which its state
/// contacts run as it lands: it starts the foot's step once through (as
/// the retail hero's). Returns the landing groups' indices, foot by foot.
fn effect_groups(ctld: &mut Ctld, feet: u8) -> Result<Vec<i32>> {
    let burn = ResourceRef::new(b"effects.rlb", b"FX_BURN")?;
    let step = ResourceRef::new(b"effects.rlb", b"FX_STEP")?;
    let none = ResourceRef::default();
    let liquid_bed = 1 << 7;
    let smoke = i32::from(feet);
    let mut at_load = vec![Action::with_args(
        ACTION_EFFECT_AT_POINT,
        [smoke, 0, 0, BURN_EFFECT_ID],
        burn,
    )];
    for foot in 0..i32::from(feet) {
        at_load.push(Action::with_args(
            ACTION_EFFECT_AT_POINT,
            [foot, 0, 0, STEP_EFFECT_ID + foot],
            step,
        ));
    }
    let blocks = [
        (GROUP_AT_LOAD, at_load),
        (
            GROUP_CRITICAL,
            vec![
                Action::with_args(ACTION_EFFECT_ON, [BURN_EFFECT_ID, 0, 0, 0], none).with_test(
                    RUNS_IF_ANY,
                    liquid_bed,
                    liquid_bed,
                ),
            ],
        ),
        (
            GROUP_RECOVERED,
            vec![Action::with_args(
                ACTION_EFFECT_OFF,
                [BURN_EFFECT_ID, 0, 0, 0],
                none,
            )],
        ),
    ];
    for (entry, group) in blocks {
        ctld.group_block[entry] = ctld.groups.len() as i32;
        ctld.groups.push(group);
    }
    let mut landings = Vec::new();
    for foot in 0..i32::from(feet) {
        landings.push(ctld.groups.len() as i32);
        ctld.groups.push(vec![Action::with_args(
            ACTION_EFFECT_START,
            [STEP_EFFECT_ID + foot, STEP_TIME_MODE, 0, 0],
            none,
        )]);
    }
    Ok(landings)
}

/// The names of a walker's foot points, in `.cpt` order: a state's first
/// contact is the left foot, its second the right.
const FOOT_POINTS: [&str; 2] = ["foot_l", "foot_r"];

/// An internal engine's controller: the smallest shipped shape with one
/// class-5 component, the engine the part fits into its slot.
fn engine_controller(engine: &kinds::Engine) -> Result<Vec<u8>> {
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    let mut record = Component::new(CLASS_ENGINE, 0, b"");
    record.set_value(0, engine.drive);
    record.set_mass(engine.kg);
    record.set_power(engine.power);
    ctld.components.push(record);
    ctld.to_bytes()
}

/// A chassis's built-in radar on its body node: the figures of the shipped
/// radar parts (sensitivities 0.05, 0.7 and 25, a scan good for 750 ms)
/// at a small MK3 part's range (openparkan `docs/25-sensors.md`).
fn radar() -> Component {
    let mut radar = Component::new(CLASS_RADAR, 0, b"");
    for (i, v) in [0.05, 0.7, 25.0, RADAR_RANGE, 750.0]
        .into_iter()
        .enumerate()
    {
        radar.set_value(i, v);
    }
    radar.set_power(0.1);
    radar
}

/// A chassis's fight shield on its body node, three values as every
/// shipped one: 150 points a sector, 15 recharged a second, 2 charge a
/// point (within the shipped chassis' 100-1,000, 10-100 and 2; openparkan
/// `docs/26-damage.md`, "Shields"). It stands with a turret's deflector.
fn fight_shield() -> Component {
    let mut shield = Component::new(CLASS_FIGHT_SHIELD, 0, b"");
    for (i, v) in [150.0, 15.0, 2.0].into_iter().enumerate() {
        shield.set_value(i, v);
    }
    shield
}

/// m: the range of the demo's radars.
pub const RADAR_RANGE: f32 = 400.0;

/// A controller in the original layout: the engine's defaults with the
/// kind's motion (the triples equal on every axis, as most shipped files
/// have them) and its animation state graph ([`gait`]). A walker's states
/// carry its feet as contact points and the ground-contact flag, and it
/// brakes on slopes (mode 2, cone 0.6 rad, as the shipped walkers); a
/// flyer's have neither (mode 0). Both keep the hull upright (state bits
/// 0xC0).
fn controller(motion: &kinds::Motion) -> Result<Vec<u8>> {
    let walks = motion.feet > 0;
    let control = ControlParams {
        acceleration: [motion.acceleration; 3],
        top_speed: [motion.top_speed; 3],
        turn_rate: [motion.turn_rate; 3],
        delete_delay_ms: motion.delete_delay_ms,
        payload_kg: motion.payload_kg,
        mode: if walks {
            ControlMode::BrakeOnSlopes
        } else {
            ControlMode::Plain
        },
        slope_cone: if walks { WALKER_SLOPE_CONE } else { HALF_CONE },
        ..ControlParams::ENGINE_DEFAULT
    };
    let mut ctld = Ctld::frame(&control);
    // The chassis declares its engine slot with the shipped default (drive
    // 1 at power 20), which the fitted engine replaces, or carries its own.
    let (label, drive, power) = match motion.engine {
        kinds::EngineFit::Slot => (kinds::ENGINE_SLOT.as_bytes(), 1.0, 20.0),
        kinds::EngineFit::BuiltIn { drive, power } => (&b""[..], drive, power),
    };
    let mut engine = Component::new(CLASS_ENGINE, 0, label);
    engine.set_value(0, drive);
    engine.set_power(power);
    ctld.components.push(engine);
    ctld.components.push(radar());
    ctld.components.push(fight_shield());
    let landings = effect_groups(&mut ctld, motion.feet)?;
    let states = gait(motion);
    ctld.contacts_per_state = i32::from(motion.feet);
    ctld.states = states
        .iter()
        .map(|state| {
            let mut record = vec![0u8; STATE_BASE + CONTACT_SIZE * landings.len()];
            state.record.write(&mut record);
            for (k, (&flags, &group)) in state.needs.iter().zip(&landings).enumerate() {
                let contact = StateContact {
                    point: k as i32,
                    flags,
                    group,
                    gap: 0,
                };
                let at = STATE_BASE + CONTACT_SIZE * k;
                record[at..at + CONTACT_SIZE].copy_from_slice(&contact.to_bytes());
            }
            record
        })
        .collect();
    let n = states.len();
    ctld.costs = (0..n * n)
        .map(|at| transition_cost(&states, at / n, at % n))
        .collect();
    ctld.to_bytes()
}

/// One state of a demo controller: its record, the flags of its two foot
/// contacts, and the state whose stride it ends when it is a second half.
struct GaitState {
    record: StateRecord,
    needs: [u32; 2],
    second_half_of: Option<usize>,
}

/// A cost the planner reads as no edge (docs/facts.md "Control states").
const NO_EDGE: f32 = 1_000_000.0;

/// What a step within a stride costs, against one for a step to another
/// state: the cycle through a stride's two halves stays the cheapest way
/// back to its anchor once the planner scales the costs by the gaps
/// between the states' boxes.
const WITHIN_STRIDE: f32 = 0.1;

/// The cost from state `from` to state `to`: a second half is entered only
/// from its first, and goes back to it within the stride; a first half
/// never plays itself again (its stride goes on through its second half)
/// while a whole-cycle anchor does, free; every other step costs one.
fn transition_cost(states: &[GaitState], to: usize, from: usize) -> f32 {
    let has_second_half = |i| states.iter().any(|s| s.second_half_of == Some(i));
    match states[to].second_half_of {
        Some(first) if first == from => WITHIN_STRIDE,
        Some(_) => NO_EDGE,
        None if to == from && has_second_half(to) => NO_EDGE,
        None if to == from => 0.0,
        None if states[from].second_half_of == Some(to) => WITHIN_STRIDE,
        None => 1.0,
    }
}

/// The state graph of a kind's controller, each state with the flags of
/// its two foot contacts. A walker stands within ± its standing speed
/// forward (its rest pose, [`models::REST_FRAME`]; 0.6 m/s, the hero 2)
/// on any legs, walks to its running speed (5, the hero 10), runs above
/// and walks backward (the cycle reversed) on both legs, and limps
/// (slowly) once its left leg is gone. Each stride is two states of half
/// the model's cycle (frames 0 to [`models::FRAMES`]), an anchor and its
/// second half, each ending with one foot lifted and the other down, so
/// each lands in turn. A flyer has one state that always applies (its
/// rotors turn).
fn gait(motion: &kinds::Motion) -> Vec<GaitState> {
    let whole = models::FRAMES as f32;
    let moving = |length_ms: f32, frames: [f32; 2], vy: [f32; 2]| StateRecord {
        box_flags: FORWARD_BOX,
        mode: STATE_ANCHOR | STATE_BY_VELOCITY | UPRIGHT | STATE_GROUND_CONTACT,
        frames_a: frames,
        frames_b: frames,
        length_ms,
        velocity: [[-f32::MAX, vy[0], -f32::MAX], [f32::MAX, vy[1], f32::MAX]],
        engine_factor: motion.moving_factor,
        ..StateRecord::IDLE
    };
    let alone = |record, needs| GaitState {
        record,
        needs,
        second_half_of: None,
    };
    if motion.feet == 0 {
        let rotors = StateRecord {
            mode: STATE_ANCHOR | UPRIGHT,
            frames_a: [0.0, whole],
            frames_b: [0.0, whole],
            length_ms: 500.0,
            engine_factor: 1.0,
            ..StateRecord::IDLE
        };
        return vec![alone(rotors, [0; 2])];
    }
    let top = motion.top_speed + 1.0;
    let rest = models::REST_FRAME as f32;
    let stand = StateRecord {
        mode: STATE_ANCHOR | UPRIGHT | STATE_GROUND_CONTACT,
        length_ms: 250.0,
        engine_factor: 0.0,
        ..moving(0.0, [rest; 2], [-motion.stand_below, motion.stand_below])
    };
    let both = [CONTACT_INTACT; 2];
    let half = whole / 2.0;
    // (half a stride's length, first half's frames, forward speeds, needs)
    let strides = [
        (
            320.0,
            [0.0, half],
            [motion.stand_below, motion.run_above],
            both,
        ),
        (200.0, [0.0, half], [motion.run_above, top], both),
        (400.0, [whole, half], [-top, -motion.stand_below], both),
        (
            450.0,
            [0.0, half],
            [motion.stand_below, top],
            [CONTACT_DESTROYED, CONTACT_INTACT],
        ),
    ];
    let mut states = vec![alone(stand, [0; 2])];
    for (length_ms, [from, to], speeds, needs) in strides {
        let first = moving(length_ms, [from, to], speeds);
        let second = StateRecord {
            mode: first.mode & !STATE_ANCHOR,
            ..moving(length_ms, [to, 2.0 * to - from], speeds)
        };
        states.push(alone(first, needs));
        states.push(GaitState {
            record: second,
            needs,
            second_half_of: Some(states.len() - 1),
        });
    }
    states
}

/// The state box switched on the forward velocity only (bit 1, y).
const FORWARD_BOX: u32 = 0x2;

/// State bits keeping the hull upright (righting about x and y).
const UPRIGHT: u32 = 0xC0;
/// The slope cone of the shipped mode-2 controllers, rad.
const WALKER_SLOPE_CONE: f32 = 0.6;

/// A fortification's ground plan: a closed square ring.
fn fort_base(size: f32) -> Result<Vec<u8>> {
    let h = 2.0 * size;
    let ring = [
        [-h, -h, 0.0],
        [h, -h, 0.0],
        [h, h, 0.0],
        [-h, h, 0.0],
        [-h, -h, 0.0],
    ];
    Base {
        marker: 1,
        points: ring.to_vec(),
        tail: Vec::new(),
    }
    .to_bytes()
}

/// `Textures.lib`: the paints' textures of every variant set, the lamps,
/// the ground layers ([`ground`]), the water frames (indexed, own palette) and the sign (indexed, palette
/// slot B of `Palettes.lib`).
fn texture_library(seed: u64, variants: &[Option<u32>]) -> Result<Vec<u8>> {
    let mut lib = Entries::default();
    for &variant in variants {
        for mut spec in materials::textures(variant) {
            if variant.is_some() {
                spec.size = 32; // retail-scale variants: smaller, same formats
            }
            let payload = textures::encode(&spec, item_seed(seed, &spec.name))?;
            lib.push(spec.name, TEXM_TYPE_ID, payload);
        }
    }
    for spec in materials::lamp_textures()
        .into_iter()
        .chain(materials::sky_textures())
        .chain(ground::textures())
    {
        let payload = textures::encode(&spec, item_seed(seed, &spec.name))?;
        lib.push(spec.name, TEXM_TYPE_ID, payload);
    }
    for frame in 0..materials::WATER_FRAMES {
        let payload = textures::water_frame(64, item_seed(seed, "water"), frame)?;
        lib.push(materials::water_name(frame), TEXM_TYPE_ID, payload);
    }
    let sign = textures::indexed(
        32,
        item_seed(seed, materials::SIGN),
        0,
        textures::ramp_palette([0, 0, 0], [255, 220, 0]),
        FLAG5_ALPHA_SURFACE,
    );
    lib.push(materials::SIGN, TEXM_TYPE_ID, sign.to_bytes()?);
    lib.build()
}

/// `Material.lib`: `DEFAULT` and the materials of every variant set
/// (directory attr1 = flags, attr2 = version).
fn material_library(variants: &[Option<u32>]) -> Result<Vec<u8>> {
    let mut lib = Entries::default();
    let mut add = |m: materials::MaterialEntry| {
        lib.0
            .push((m.name, MAT0_TYPE_ID, m.attr1, m.attr2, 0, m.payload));
    };
    add(materials::default_material()?);
    materials::sky_materials()?.into_iter().for_each(&mut add);
    for &variant in variants {
        materials::materials(variant)?
            .into_iter()
            .for_each(&mut add);
    }
    lib.build()
}

/// `Palettes.lib`: slot A as a raw palette, slot B as an indexed Texm.
fn palette_library(seed: u64) -> Result<Vec<u8>> {
    let mut lib = Entries::default();
    lib.push(
        "A.pal",
        PAL_TYPE_ID,
        textures::ramp_palette([0, 40, 0], [200, 255, 120]).to_bytes(),
    );
    let b = textures::indexed(
        8,
        item_seed(seed, "B.pal"),
        0,
        textures::ramp_palette([40, 0, 0], [255, 90, 40]),
        0,
    );
    lib.push("B.pal", PAL_TYPE_ID, b.to_bytes()?);
    lib.build()
}

/// `effects.rlb` (FXID attributes as retail: 0, 0, 1).
fn effect_library() -> Result<Vec<u8>> {
    let mut lib = Entries::default();
    let (a1, a2, a3) = effects::ATTRS;
    for (name, payload) in effects::effects()? {
        lib.0.push((name, FXID_TYPE_ID, a1, a2, a3, payload));
    }
    lib.build()
}

/// `sounds.lib` and `voices.lib` (type id 0).
fn write_sounds(install: &mut Install, seed: u64) -> Result<()> {
    let s = seed as u32 ^ (seed >> 32) as u32;
    for (file, list) in [
        (files::SOUNDS, sounds::sounds(s)?),
        (files::VOICES, sounds::voices(s)?),
    ] {
        let mut lib = Entries::default();
        for (name, payload) in list {
            lib.push(name, 0, payload);
        }
        install.add(file, lib.build()?)?;
    }
    Ok(())
}

/// A `Tfnt` font over a 16 x 16 cell atlas.
fn font(cell: u32, seed: u32) -> Result<Vec<u8>> {
    let atlas = textures::font_atlas(cell, seed)?;
    let size = (cell * 16) as f32;
    let glyphs = (0..256u32)
        .map(|c| {
            let advance = (cell - 2 + hash3(seed, c as i32, 1, 1) % 3) as i32;
            let u0 = ((c % 16) * cell) as f32 / size;
            Glyph {
                u0,
                u1: u0 + advance as f32 / size,
                v0: ((c / 16) * cell) as f32 / size,
                advance,
            }
        })
        .collect();
    Tfnt {
        cell_width: cell as i32,
        height: cell as i32,
        v_span: 1.0 / 16.0,
        spacing: 1,
        glyphs,
        texm: atlas.to_bytes()?,
    }
    .to_bytes()
}

/// `gamefont.rlb`: RsLi, LZSS (method 0x040), two fonts.
fn font_library(seed: u64) -> Result<Vec<u8>> {
    let fonts = vec![
        (
            "GAMEFONT.FNT".to_string(),
            font(8, item_seed(seed, "GAMEFONT"))?,
        ),
        ("SMALL.FNT".to_string(), font(6, item_seed(seed, "SMALL"))?),
    ];
    rsli_archive(&fonts, Method::Lzss)
}

/// `sprites.lib`: RsLi, raw Deflate (method 0x100), Texm sprites.
fn sprite_library(seed: u64) -> Result<Vec<u8>> {
    let spec = |name: &str, look, size, format, mips| TexSpec {
        name: name.into(),
        look,
        size,
        format,
        mips,
    };
    let mut sprites = Vec::new();
    for s in [
        spec(
            "SPARK.TEX",
            Look::Glow([255, 200, 80]),
            32,
            PixelFormat::Argb8888,
            true,
        ),
        spec(
            "CURSOR.TEX",
            Look::Lamp(true),
            32,
            PixelFormat::Argb4444,
            false,
        ),
    ] {
        let payload = textures::encode(&s, item_seed(seed, &s.name))?;
        sprites.push((s.name, payload));
    }
    let interface: Texm = textures::indexed(
        64,
        item_seed(seed, "INTERF8"),
        0,
        textures::ramp_palette([20, 20, 30], [180, 200, 255]),
        0,
    );
    sprites.push(("INTERF8.TEX".into(), interface.to_bytes()?));
    rsli_archive(&sprites, Method::Deflate)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(scale: Scale) -> Catalog {
        write(&mut Install::default(), 1, scale).unwrap()
    }

    #[test]
    fn the_demo_catalogue_has_the_contract_keys() {
        let keys: Vec<(String, Role)> = catalog(Scale::Demo)
            .prototypes
            .into_iter()
            .map(|p| (p.key, p.role))
            .collect();
        let expected = [
            ("CH_WALKER", Role::Chassis),
            ("CH_HOVER", Role::Chassis),
            ("CH_HERO", Role::Chassis),
            ("TR_LIGHT", Role::Turret),
            ("TR_HEAVY", Role::Turret),
            ("GN_LASER", Role::Gun),
            ("GN_CANNON", Role::Gun),
            ("AM_SHELL", Role::Ammo),
            ("B_FACTORY", Role::Building),
            ("B_TOWER", Role::Building),
            ("T_PINE", Role::Tree),
            ("T_OAK", Role::Tree),
            ("R_ROCK1", Role::Rock),
            ("R_ROCK2", Role::Rock),
            ("B_FORT", Role::Fortification),
            ("I_ENG_L_00", Role::Engine),
            ("I_ENG_L_01", Role::Engine),
            ("I_ENG_L_02", Role::Engine),
            ("I_ENG_L_03", Role::Engine),
            ("RD_LASER", Role::Round),
            ("RD_SHELL", Role::Round),
            ("SUN", Role::Sun),
        ];
        let expected: Vec<(String, Role)> =
            expected.iter().map(|(k, r)| (k.to_string(), *r)).collect();
        assert_eq!(keys, expected);
    }

    #[test]
    fn the_retail_catalogue_adds_variants_of_every_kind() {
        let c = catalog(Scale::Retail);
        // The base set (with the sun, four engines and two rounds), then 15
        // kinds per variant.
        assert_eq!(c.prototypes.len(), 22 + 15 * RETAIL_VARIANTS as usize);
        let find = |k: &str| c.prototypes.iter().find(|p| p.key == k).map(|p| p.role);
        assert_eq!(find("B_FACTORY_017"), Some(Role::Building));
        assert_eq!(find("B_FORT_047"), Some(Role::Fortification));
        assert_eq!(find("GN_CANNON_000"), Some(Role::Gun));
    }
}
