//! What an object fights with and where it can be struck, assembled at
//! load: its guns and turrets from its parts' controllers (openparkan
//! `docs/29-weapons.md`, `docs/30-turrets.md`), the rounds they fire from
//! their `BULL` prototypes, and every node's geometry and full life
//! (`docs/26-damage.md`, "Hit points" and "The hit test").
//!
//! A clip (an `INTO` part fitted into its gun's slot) replaces the gun's
//! record, keeping its node: its magazine, and its round and barrels, are
//! the gun's (`docs/29-weapons.md`, "Three records make a weapon").
//!
//! The rules this crate states as its own (docs/facts.md, "Weapons at
//! load"): a gun belongs to the turret of its own part or of its part's
//! parent; a turret's pitch limits are its pitch channel's span on either
//! side of its initial value (level); the geometry rounds meet is the
//! construction pose.

use super::components::NodeRef;
use super::load::{NodePlan, PartPlan};
use super::mount;
use bevy::prelude::*;
use iron3d_formats::proto::ctld::{
    ACTION_EXPLODE_NAMED, ACTION_KILL, CHANNEL_WRAPS, CLASS_ARMOUR, CLASS_GUN, CLASS_SEEKER,
    CLASS_TURRET, Channel, Component, ControlMode, Ctld, FIRES_ALL_BARRELS, GROUP_AT_RANGE,
    GROUP_ON_HIT, GunValues,
};
use iron3d_formats::proto::ctpt::Ctpt;
use iron3d_formats::proto::expl::Expl;
use iron3d_formats::proto::ndpr::{Ndpr, RUNNING_GEAR};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Mesh node flag (`Node38` `+0`): a vital node, whose destruction kills
/// the object (`docs/26-damage.md`, "What a damaged node ... draw").
pub const NODE_VITAL: u16 = 0x200;
/// Mesh node flag: a node never hidden (a building's shell).
pub const NODE_NEVER_HIDDEN: u16 = 0x100;
/// Triangle flags a round flies through (`docs/29-weapons.md`, "What the
/// sight ray meets").
pub const ROUND_PASSES_TRIANGLES: u16 = 0x4 | 0x20;

/// An explosion (`.exp`) as the damage code reads it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Blast {
    /// `archive::entry` of the `.exp`.
    pub resource: String,
    /// 1 effect only, 2 a direct hit on the struck node, 3 a blast, 4
    /// shields only.
    pub kind: u32,
    pub damage: f32,
    /// m: a round's blast radius; a node's explosion's is a multiple of
    /// the node's bounding radius.
    pub radius: f32,
    /// The effect key of each of its 12 slots: 0 the effect, `s + 1` the
    /// effect on ground surface class `s` (openparkan `docs/11-effects.md`,
    /// "`.exp`"); `None` for an empty slot.
    pub effects: Vec<Option<String>>,
}

/// The surface class of machine and building skins (`mt`).
pub const SURFACE_MACHINE: usize = 5;

impl Blast {
    /// The explosion `expl` read as `resource` from archive `context`.
    pub(crate) fn of(resource: String, context: &[u8], expl: &Expl) -> Self {
        Self {
            resource,
            kind: expl.kind,
            damage: expl.damage,
            radius: expl.radius,
            effects: expl
                .effects
                .iter()
                .map(|r| super::effects::reference_key(context, r))
                .collect(),
        }
    }

    /// The effect it plays on surface class `surface` (its slot, else slot
    /// 0), or slot 0 without a surface.
    pub fn effect_on(&self, surface: Option<usize>) -> Option<&str> {
        surface
            .and_then(|s| self.effects.get(s + 1)?.as_deref())
            .or_else(|| self.effects.first()?.as_deref())
    }
}

/// A guided round's seeker (a class-17 component of its controller).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Seeker {
    /// rad: how far off its nose it sees.
    pub cone: f32,
    /// m: how near the target must be for it to steer.
    pub reach: f32,
    /// s: how long its gun holds the target before each shot.
    pub lock_s: f32,
}

/// What a round's hit or range group does.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum RoundEnd {
    /// Goes off with this explosion.
    Explode(Blast),
    /// Stops and is removed, no explosion.
    Vanish,
}

/// A round, read from the `BULL` prototype a gun names.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoundSpec {
    /// Its prototype key.
    pub key: String,
    /// m/s along its nose (its controller's top speed, y).
    pub speed: f32,
    /// m it flies before its range group runs (`.ctl` `+108`).
    pub range: f32,
    /// Falls at g = 10 (a controller mode other than 0).
    pub lobbed: bool,
    /// rad/s a seeker may turn it.
    pub turn_rate: f32,
    /// `.ctl` `+116`.
    pub flags: u32,
    /// ms it stays in the world once it has stopped (`+92`).
    pub linger_ms: i32,
    /// Its node 0's hit points: the life it loses when it goes off.
    pub hit_points: f32,
    pub on_hit: RoundEnd,
    pub at_range: RoundEnd,
    pub seeker: Option<Seeker>,
}

impl RoundSpec {
    /// Reads a round from its controller, its `.ndp` and the explosions
    /// they name (`explosion` reads one `.exp`, relative to the round's own
    /// archive when the name has none); an error names what is wrong.
    pub(crate) fn read(
        key: &[u8],
        ctld: &Ctld,
        ndp: Option<&Ndpr>,
        mut explosion: impl FnMut(&iron3d_formats::fixed::ResourceRef) -> Result<Blast, String>,
    ) -> Result<Self, String> {
        let control = ctld.control();
        let node0 = ndp.and_then(|d| d.nodes.first());
        // The first kill (node 0's own explosion) or named explosion of a
        // group; anything else (a removal, or no such action) vanishes.
        let mut end = |entry: usize| -> Result<RoundEnd, String> {
            let named = ctld
                .group_of(entry)
                .iter()
                .find_map(|action| match action.code() {
                    ACTION_KILL => Some(node0.map(|n| &n.explosion)),
                    ACTION_EXPLODE_NAMED => Some(Some(&action.resource)),
                    _ => None,
                });
            match named.flatten().filter(|r| !r.name.name().is_empty()) {
                Some(r) => Ok(RoundEnd::Explode(explosion(r)?)),
                None => Ok(RoundEnd::Vanish),
            }
        };
        let on_hit = end(GROUP_ON_HIT)?;
        let at_range = end(GROUP_AT_RANGE)?;
        let seeker = ctld
            .components
            .iter()
            .find(|k| k.type_id() == CLASS_SEEKER)
            .map(|k| Seeker {
                cone: k.value(0).unwrap_or(0.0),
                reach: k.value(1).unwrap_or(0.0),
                lock_s: k.value(2).unwrap_or(0.0) * 0.001,
            });
        Ok(Self {
            key: String::from_utf8_lossy(key).into_owned(),
            speed: control.top_speed[1],
            range: control.range,
            lobbed: control.mode != ControlMode::Plain,
            turn_rate: control.turn_rate[0],
            flags: control.flags_116,
            linger_ms: control.delete_delay_ms,
            hit_points: node0.map_or(0.0, |n| n.hit_points),
            on_hit,
            at_range,
            seeker,
        })
    }
}

/// One barrel of a gun: where its rounds leave, in the object's frame
/// (Bevy axes, before the placed scale), and its stroke.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Barrel {
    pub muzzle: Vec3,
    /// Unit.
    pub direction: Vec3,
    /// s: the whole stroke (the round leaves half-way).
    pub stroke_s: f32,
}

/// A gun (a class-2 component).
#[derive(Debug, Clone, PartialEq)]
pub struct GunSpec {
    /// The node it sits on (its life is the gun's).
    pub node: NodeRef,
    pub values: GunValues,
    pub all_barrels: bool,
    pub barrels: Vec<Barrel>,
    pub round: Arc<RoundSpec>,
    /// Its turret in [`Armament::turrets`].
    pub turret: Option<usize>,
    /// The effect key of its muzzle (its part's prototype's effect).
    pub effect: Option<String>,
}

/// A turning axis of a turret: rad/s, and its limits in rad from the
/// object's forward and level (`None`: it wraps).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AimAxis {
    pub rate: f32,
    pub limits: Option<(f32, f32)>,
    /// The node of the turret's part its channel animates.
    pub node: Option<usize>,
}

impl AimAxis {
    /// The axis a channel drives: rate × span a second; a wrapping
    /// channel has no limits, another turns from `-initial × span` to
    /// `(1 - initial) × span`.
    fn of(channel: &Channel) -> Self {
        let span = channel.span.abs();
        // STAND-IN: the initial value taken as level, so pitch runs from
        // `-initial × span` to `(1 - initial) × span` (docs/30 "Aiming and
        // the camera": the page's guess); settled by reading a retail
        // turret's pitch limits against its channel.
        let limits = (channel.flags & CHANNEL_WRAPS == 0)
            .then(|| (-channel.initial * span, (1.0 - channel.initial) * span));
        Self {
            rate: channel.rate.abs() * span,
            limits,
            node: usize::try_from(channel.node).ok(),
        }
    }
}

/// A turret (a class-1 component): its yaw and pitch axes and the point it
/// sights from (`TurretCenter`, or its node's origin), object frame.
#[derive(Debug, Clone, PartialEq)]
pub struct TurretSpec {
    pub node: NodeRef,
    pub centre: Vec3,
    /// Where its camera's eye is (`CameraCenter`), object frame, at rest.
    pub eye: Option<Vec3>,
    pub yaw: AimAxis,
    pub pitch: AimAxis,
}

/// An object's guns and turrets.
#[derive(Component, Debug, Clone, PartialEq, Default)]
pub struct Armament {
    pub guns: Vec<GunSpec>,
    pub turrets: Vec<TurretSpec>,
}

/// What an object's armour (its last class-27 component with a term)
/// keeps of a hit `d`: `min(d, lin d + sq d^2)`, never below zero
/// (`docs/26-damage.md`, "Armour").
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Armour {
    pub linear: f32,
    pub square: f32,
}

impl Armour {
    /// What a hit of `d` leaves.
    pub fn keeps(&self, d: f32) -> f32 {
        d.min(self.linear * d + self.square * d * d).max(0.0)
    }
}

/// One node a round or a blast can reach.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HitNode {
    pub node: NodeRef,
    /// Its bounding sphere, object frame (before the placed scale).
    pub centre: Vec3,
    pub radius: f32,
    /// Its level-0 triangles a round stops on, object frame.
    pub faces: Vec<[Vec3; 3]>,
    /// Full life: `.ndp` hit points × the object's volume scale.
    pub max_life: f32,
    pub vital: bool,
    pub never_hidden: bool,
    /// The node it goes with (its parent, or a mounted part's socket), by
    /// index in [`HitModel::nodes`].
    pub parent: Option<usize>,
    /// The `.exp` key of its node table row: what it sets off when it
    /// dies or steps up a damage stage ([`super::MissionEffects::blasts`]).
    pub explosion: Option<String>,
    /// Its damage states: the native model states past 0 it has geometry
    /// in (`Node38::damage_states`).
    pub damage_states: u8,
    /// Its `.ndp` row marks it running gear ([`RUNNING_GEAR`]).
    pub running_gear: bool,
}

/// Every node of an object that has life, in part then node order, and
/// the sphere round all of them (object frame).
#[derive(Component, Debug, Clone, PartialEq, Default)]
pub struct HitModel {
    pub nodes: Arc<Vec<HitNode>>,
    pub centre: Vec3,
    pub radius: f32,
}

impl HitNode {
    /// The damage stage of the node at life fraction `life` (openparkan
    /// `docs/26-damage.md`, "Damage stages"): `N − ceil(N × life)` of its
    /// `N` damage states, 0 at full life, `N` at 0.
    pub fn stage(&self, life: f32) -> u8 {
        let n = f32::from(self.damage_states);
        let reached = n - (n * life.clamp(0.0, 1.0)).ceil();
        reached as u8
    }

    /// Whether it is gone at life fraction `life`: destroyed (life 0) and
    /// not kept as a shell. A gone node is not drawn, struck or stood on.
    pub fn gone(&self, life: f32) -> bool {
        life <= 0.0 && !self.never_hidden
    }

    /// Whether its death kills the object: node 0 or a vital node.
    pub fn fatal(&self) -> bool {
        self.vital || self.node == NodeRef { part: 0, node: 0 }
    }
}

/// Presentation: the damage stage a node of a placed model is drawn in
/// (the native state of its slots), set from its object's life
/// ([`HitNode::stage`]). A node without one is drawn in its object's
/// [`super::ModelState`].
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeStage(pub u8);

impl HitModel {
    /// The sphere round all its nodes under `transform` (world frame):
    /// its centre and its radius at the placed scale's largest axis.
    pub fn sphere(&self, transform: &Transform) -> (Vec3, f32) {
        let scale = transform.scale.abs().max_element();
        (transform.transform_point(self.centre), self.radius * scale)
    }

    /// The index of `node` in [`HitModel::nodes`].
    pub fn index(&self, node: NodeRef) -> Option<usize> {
        self.nodes.iter().position(|n| n.node == node)
    }
}

/// What one part brings: its plan, model nodes, controller, control points
/// and node table.
pub(crate) struct PartArms<'a> {
    pub plan: &'a PartPlan,
    pub nodes: &'a [NodePlan],
    pub ctld: Option<&'a Ctld>,
    pub points: Option<&'a Ctpt>,
    pub damage: Option<&'a Ndpr>,
    /// The effect key of the part's prototype.
    pub effect: Option<&'a str>,
    /// The `.exp` key of each node table row.
    pub explosions: &'a [Option<String>],
}

/// A node-frame (Z-up) direction in the object frame `to_object` leads to.
fn to_object_vector(to_object: &Transform, [x, y, z]: [f32; 3]) -> Vec3 {
    to_object.rotation * Vec3::new(x, z, -y)
}

/// The pose of a part's node in the object's frame (the part's origin
/// for a node it does not have).
fn pose(poses: &[Vec<Transform>], frames: &[(Transform, Option<usize>)], at: NodeRef) -> Transform {
    poses
        .get(at.part)
        .and_then(|p| p.get(at.node))
        .copied()
        .or_else(|| frames.get(at.part).map(|f| f.0))
        .unwrap_or_default()
}

/// Every node of every part in the object's frame (construction pose).
pub(crate) fn part_poses(
    parts: &[PartArms<'_>],
    frames: &[(Transform, Option<usize>)],
) -> Vec<Vec<Transform>> {
    parts
        .iter()
        .zip(frames)
        .map(|(part, (frame, _))| {
            (0..part.nodes.len())
                .map(|n| frame.mul_transform(mount::model_pose(part.nodes, n).unwrap_or_default()))
                .collect()
        })
        .collect()
}

/// A control point of a part in the object's frame: its position and
/// direction (unit; its node's +y when it stores none).
pub(crate) fn point(
    part: &PartArms<'_>,
    p: usize,
    index: i32,
    poses: &[Vec<Transform>],
    frames: &[(Transform, Option<usize>)],
) -> Option<(Vec3, Vec3)> {
    let cp = part.points?.points.get(usize::try_from(index).ok()?)?;
    let node = usize::try_from(cp.node).unwrap_or(0);
    let to_object = pose(poses, frames, NodeRef { part: p, node });
    let at = to_object.transform_point(mount::node_to_bevy(cp.position));
    let direction = to_object_vector(&to_object, cp.vector)
        .try_normalize()
        .unwrap_or_else(|| to_object_vector(&to_object, [0.0, 1.0, 0.0]).normalize_or_zero());
    Some((at, direction))
}

/// The index of the control point called `name` in a part's `.cpt`.
fn named_point(part: &PartArms<'_>, name: &str) -> Option<i32> {
    let points = part.points?;
    points
        .points
        .iter()
        .position(|p| p.name.name().eq_ignore_ascii_case(name.as_bytes()))
        .map(|i| i as i32)
}

/// The guns and turrets of an object's parts (`components`: each part's
/// records, clips fitted into their guns' slots; `rounds`: each gun's round
/// by its upper-cased prototype key; a gun whose round was not read is
/// left out), and every node's hit geometry, its full life scaled by
/// `life_scale` (the object's volume scale × its difficulty ratio).
pub(crate) fn assemble(
    parts: &[PartArms<'_>],
    components: &[Vec<Component>],
    frames: &[(Transform, Option<usize>)],
    rounds: &BTreeMap<Vec<u8>, Arc<RoundSpec>>,
    life_scale: f32,
) -> (Armament, HitModel) {
    let poses = part_poses(parts, frames);
    let mut armament = Armament::default();
    // Each part's turret in `armament.turrets`.
    let mut turret_of: Vec<Option<usize>> = vec![None; parts.len()];
    for (p, part) in parts.iter().enumerate() {
        let Some(ctld) = part.ctld else { continue };
        for k in components[p].iter().filter(|k| k.type_id() == CLASS_TURRET) {
            let channel = |i: usize| k.entries.get(i).and_then(|&c| ctld.channel(c as usize));
            let (Some(yaw), Some(pitch)) = (channel(0), channel(1)) else {
                continue;
            };
            let node = NodeRef {
                part: p,
                node: usize::try_from(k.node()).unwrap_or(0),
            };
            let centre = named_point(part, "TurretCenter")
                .and_then(|i| point(part, p, i, &poses, frames))
                .map_or_else(|| pose(&poses, frames, node).translation, |(at, _)| at);
            let eye = named_point(part, "CameraCenter")
                .and_then(|i| point(part, p, i, &poses, frames))
                .map(|(at, _)| at);
            turret_of[p] = Some(armament.turrets.len());
            armament.turrets.push(TurretSpec {
                node,
                centre,
                eye,
                yaw: AimAxis::of(&yaw),
                pitch: AimAxis::of(&pitch),
            });
        }
    }
    for (p, part) in parts.iter().enumerate() {
        let Some(ctld) = part.ctld else { continue };
        for k in components[p].iter().filter(|k| k.type_id() == CLASS_GUN) {
            let Some(round) = rounds.get(&k.emits().name.name().to_ascii_uppercase()) else {
                continue;
            };
            let node = NodeRef {
                part: p,
                node: usize::try_from(k.node()).unwrap_or(0),
            };
            let barrels = k
                .entries
                .iter()
                .filter_map(|&c| ctld.channel(usize::try_from(c).ok()?))
                .map(|channel| {
                    let (muzzle, direction) = point(part, p, channel.point, &poses, frames)
                        .unwrap_or_else(|| {
                            let at = pose(&poses, frames, node);
                            (at.translation, at.rotation * Vec3::NEG_Z)
                        });
                    Barrel {
                        muzzle,
                        direction,
                        stroke_s: if channel.rate > 0.0 {
                            1.0 / channel.rate
                        } else {
                            0.0
                        },
                    }
                })
                .collect();
            // STAND-IN: a gun belongs to its own part's turret or its parent
            // part's (instead of the follower channels, docs/30, not read);
            // settled by reading the gun's follower channels.
            let turret = turret_of[p].or_else(|| turret_of.get(part.plan.parent?).copied()?);
            armament.guns.push(GunSpec {
                node,
                values: k.gun(),
                all_barrels: k.flags() & FIRES_ALL_BARRELS != 0,
                barrels,
                round: round.clone(),
                turret,
                effect: part.effect.map(str::to_owned),
            });
        }
    }
    (armament, hit_model(parts, &poses, frames, life_scale))
}

/// The armour of an object's parts: the last class-27 component (in part
/// order) whose linear or square term is set.
pub(crate) fn armour(parts: &[PartArms<'_>]) -> Option<Armour> {
    parts
        .iter()
        .filter_map(|p| p.ctld)
        .flat_map(|c| &c.components)
        .filter(|k| k.type_id() == CLASS_ARMOUR)
        // STAND-IN: the terms are the record's values 1 and 2 (docs/26
        // "Armour" gives `+4`, `+8` of the armour object, not of the
        // record); settled by matching those offsets to the record's values.
        .map(|k| Armour {
            linear: k.value(1).unwrap_or(0.0),
            square: k.value(2).unwrap_or(0.0),
        })
        .rfind(|a| a.linear != 0.0 || a.square != 0.0)
}

/// Every node of the parts with a model, with its geometry and full life.
// STAND-IN: the geometry rounds meet is the construction pose; animated
// poses are presentation (docs/26 "The hit test" does not say which pose);
// settled by shooting a retail walker mid-stride where its legs were.
fn hit_model(
    parts: &[PartArms<'_>],
    poses: &[Vec<Transform>],
    frames: &[(Transform, Option<usize>)],
    life_scale: f32,
) -> HitModel {
    let mut nodes: Vec<HitNode> = Vec::new();
    // Each part's first node in `nodes`.
    let mut first: Vec<usize> = Vec::with_capacity(parts.len());
    for (p, part) in parts.iter().enumerate() {
        first.push(nodes.len());
        for (n, plan) in part.nodes.iter().enumerate() {
            let to_object = poses[p][n];
            let faces: Vec<[Vec3; 3]> = plan
                .faces
                .iter()
                .filter(|f| f.tri_flags & ROUND_PASSES_TRIANGLES == 0)
                .map(|f| {
                    f.corners
                        .map(|c| to_object.transform_point(mount::node_to_bevy(c)))
                })
                .collect();
            let (centre, radius) = bounding_sphere(faces.iter().flatten().copied());
            // A part's root hangs on its socket, or on its parent part's
            // root when it is not mounted on a node.
            // STAND-IN: a part not mounted on a node hangs on its parent
            // part's node 0 (docs/26 names the nodes that hang, not this
            // case); settled by shooting off a retail part's parent root.
            let socket = match (n, part.plan.parent) {
                (0, Some(q)) => {
                    let s = frames.get(p).and_then(|f| f.1).unwrap_or(0);
                    first.get(q).map(|&f| f + s).filter(|&i| i < nodes.len())
                }
                _ => None,
            };
            let row = part.damage.and_then(|d| d.nodes.get(n));
            let hit_points = row.map_or(0.0, |r| r.hit_points);
            nodes.push(HitNode {
                node: NodeRef { part: p, node: n },
                centre,
                radius,
                faces,
                max_life: hit_points * life_scale,
                vital: plan.flags & NODE_VITAL != 0,
                never_hidden: plan.flags & NODE_NEVER_HIDDEN != 0,
                parent: plan.parent.map(|q| first[p] + q).or(socket),
                explosion: part.explosions.get(n).cloned().flatten(),
                damage_states: plan.damage_states,
                running_gear: row.is_some_and(|r| r.flags & RUNNING_GEAR != 0),
            });
        }
    }
    let (centre, radius) = bounding_sphere(nodes.iter().filter(|n| n.radius > 0.0).flat_map(|n| {
        [
            n.centre - Vec3::splat(n.radius),
            n.centre + Vec3::splat(n.radius),
        ]
    }));
    HitModel {
        nodes: Arc::new(nodes),
        centre,
        radius,
    }
}

/// The sphere round the box of `points`: its middle and half diagonal
/// (radius 0 without points).
fn bounding_sphere(points: impl Iterator<Item = Vec3>) -> (Vec3, f32) {
    let (lo, hi) = points.fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
    if lo.x > hi.x {
        return (Vec3::ZERO, 0.0);
    }
    ((lo + hi) / 2.0, (hi - lo).length() / 2.0)
}

/// Reads every `.exp` a round names through `read` (archive and entry) and
/// the explosion's key: `archive::entry`; an empty archive is `context`'s.
pub(crate) fn explosion_reader<'a>(
    context: &'a [u8],
    mut read: impl FnMut(&[u8], &[u8]) -> Result<Arc<Expl>, String> + 'a,
) -> impl FnMut(&iron3d_formats::fixed::ResourceRef) -> Result<Blast, String> + 'a {
    move |r| {
        let archive = match r.archive.name() {
            [] => context,
            a => a,
        };
        let name = r.name.name();
        let key = format!(
            "{}::{}",
            String::from_utf8_lossy(archive),
            String::from_utf8_lossy(name)
        );
        let expl = read(archive, name).map_err(|e| format!("explosion {key}: {e}"))?;
        Ok(Blast::of(key, archive, &expl))
    }
}
