//! What a World3D object is, as components beside its
//! [`OriginalObjectId`](crate::OriginalObjectId) (tome II, tome IV
//! "PlacedObject и свойства"), and the one conversion from the original's
//! Z-up frame to Bevy's Y-up frame.

use bevy::prelude::*;
use iron3d_formats::msh::Msh;
use iron3d_formats::proto::ctld::{SHIELD_SECTORS, StateRecord};
use iron3d_formats::registry::Resolved;
use iron3d_formats::tma::{self, PlacedObject, Property, PropertyValue};
use iron3d_formats::unitdat::PartClass;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The object kind of a placed object (raw word kept; typed view beside).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectKind {
    pub raw: u32,
}

impl ObjectKind {
    /// Building, unit, vegetation or rock, when the word is known.
    pub fn kind(self) -> Option<tma::ObjectKind> {
        tma::ObjectKind::from_raw(self.raw)
    }
}

/// A placed object's name for people: the TMA instance name, or its
/// resource name when the record has none.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct InstanceName(pub String);

impl InstanceName {
    /// The name of `placed`.
    pub fn of(placed: &PlacedObject) -> Self {
        let name = match placed.instance_name.is_empty() {
            true => &placed.resource_name,
            false => &placed.instance_name,
        };
        Self(String::from_utf8_lossy(name).into_owned())
    }
}

/// The owning clan: the record's identity word (the clan index, as the
/// demo install and tome IV's `identity_or_clan_raw` read it) and the
/// `ClanID` property when the bag has an integer one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectClan {
    pub identity_raw: u32,
    pub clan_id: Option<i32>,
}

impl ObjectClan {
    /// The clan's name in the mission's clans (by the identity word), if
    /// it names one.
    pub fn name<'c>(&self, clans: &'c [iron3d_formats::tma::Clan]) -> Option<&'c [u8]> {
        clans
            .get(self.identity_raw as usize)
            .map(|c| c.name.as_slice())
    }
}

/// The ordered property bag: order, repeated names and raw values kept.
/// The player's hero ([`iron3d_formats::tma::Tma::hero`]): the unit the
/// player drives.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hero;

/// The difficulty ratio an object was given at load (openparkan
/// `docs/26-damage.md`, "The difficulty ratio", the original's property
/// 180): its nodes' life and maximum are scaled by it (its [`HitModel`]
/// was built so), and so is the damage of every round its guns fire. Only
/// warriors, HQs and heroes of clans not allied with the player's have one.
///
/// [`HitModel`]: super::HitModel
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
pub struct LevelRatio(pub f32);

#[derive(Component, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PropertyBag(pub Vec<Property>);

impl PropertyBag {
    /// The typed value of the first property of this name (ASCII
    /// case-insensitive).
    pub fn get(&self, name: &str) -> Option<PropertyValue> {
        self.0
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.as_bytes()))
            .map(Property::value)
    }

    /// The first property of this name when it is an integer.
    pub fn int(&self, name: &str) -> Option<i32> {
        match self.get(name)? {
            PropertyValue::Int { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The first property of this name when it is a float.
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.get(name)? {
            PropertyValue::Float { value, .. } => Some(value),
            _ => None,
        }
    }

    /// Sets the value of the first property of this name when it is an
    /// integer (its range and every other byte kept); false when there is
    /// none.
    pub fn set_int(&mut self, name: &str, value: i32) -> bool {
        let found = self
            .0
            .iter_mut()
            .find(|p| p.name.eq_ignore_ascii_case(name.as_bytes()))
            .filter(|p| matches!(p.value(), PropertyValue::Int { .. }));
        match found {
            Some(property) => {
                property.raw[4..8].copy_from_slice(&value.to_le_bytes());
                true
            }
            None => false,
        }
    }
}

/// The placed object's `resource_name` (a prototype key or a unit DAT path,
/// legacy spelling kept).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct PrototypeKey(pub Vec<u8>);

/// What moves an object (tome VI "CTLD и physical resources"): the
/// controller its root part's prototype references, as the loader read it
/// (the controllers of its other parts, turrets and guns, only bring their
/// components: every part of a unit shares one control system). An object
/// without one is a static body.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Controller {
    /// `archive::entry` of the CTLD resource.
    pub resource: String,
    /// The part whose prototype names it.
    pub part: usize,
    /// Its parameter block.
    pub params: iron3d_formats::proto::ctld::ControlParams,
    /// Whether it holds the body on the ground (contact points, or no
    /// states at all); a controller with states but no contacts flies
    /// ([`Ctld::holds_ground`]).
    ///
    /// [`Ctld::holds_ground`]: iron3d_formats::proto::ctld::Ctld::holds_ground
    pub holds_ground: bool,
    /// Its animation state graph (section 1), shared by every object using
    /// the same controller on the same model.
    pub states: Arc<ControllerStates>,
}

impl Controller {
    /// Whether it has states to move in: a controller without any (the
    /// 212-byte floor) stands where gravity puts it, and every move asked
    /// of it is refused.
    pub fn can_move(&self) -> bool {
        !self.states.states.is_empty()
    }
}

/// One triangle of a static object's physical model: its corners in the
/// object's frame (Bevy axes, before the placed scale) and the flags of its
/// batch (`batch_flags | material_index_hi << 16`) and its type-7 record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhysicalFace {
    pub corners: [Vec3; 3],
    pub batch_word: u32,
    pub tri_flags: u16,
    /// The node it belongs to: a destroyed node's faces are no longer met.
    pub node: NodeRef,
}

/// What a static object collides with: the level-0 triangles of every node
/// of its parts, in the construction pose (see `docs/facts.md`, "Static
/// bodies"). Objects with a controller have none (they are spheres).
#[derive(Component, Debug, Clone, PartialEq)]
pub struct PhysicalModel(pub Vec<PhysicalFace>);

/// A model node of an object: its part (index in part-tree order) and the
/// node's index in that part's model.
#[derive(
    Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct NodeRef {
    pub part: usize,
    pub node: usize,
}

/// The effect a machine's engine plays while it moves: the `FXID` its
/// controller part's prototype names (our rule: docs/facts.md "Sound").
#[derive(Component, Reflect, Debug, Clone, PartialEq, Eq)]
pub struct EngineEffect(pub String);

/// An engine of a machine: its drive (value 0 of a class-5 component) and
/// the node whose life is its condition (`None`: always whole).
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
pub struct EngineRef {
    pub drive: f32,
    pub node: Option<NodeRef>,
}

/// An object's radar: the last class-8 component of its device list (only
/// one counts per control system; a turret's radar slot is a unit's or a
/// tower's), with the node whose life scales its sensitivities (`None`:
/// always whole).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
pub struct RadarRef {
    /// To mass, electronics and drive.
    pub sensitivity: [f32; 3],
    /// m.
    pub range: f32,
    /// ms a scan stays good.
    pub period_ms: f32,
    pub node: Option<NodeRef>,
}

/// An object's shield (openparkan `docs/26-damage.md`, "Shields"): the
/// last fight shield (class 9) and the last deflector (class 21) of its
/// device list (a machine's or a building's), fitted parts in their slots (a deflector part takes over
/// its turret's slot, `docs/30-turrets.md`). An object with only one of
/// the two has none. A node of `None` is always whole.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
pub struct ShieldSpec {
    /// The fight shield's node: the bubble stands while it lives, and its
    /// condition scales the recharge.
    pub node: Option<NodeRef>,
    /// A full sector's points: the fight shield's value 0 (× the object's
    /// difficulty ratio once placed).
    pub sector_max: f32,
    /// Points a second the sectors recharge at full condition (value 1).
    pub recharge: f32,
    /// The deflector's node: the bubble stands while it lives, and its
    /// condition scales what each sector stops.
    pub deflector: Option<NodeRef>,
    /// Per sector, the deflector's value: the share of the sector that
    /// stops damage; a stopped point costs the sector 1 ÷ it.
    pub coefficients: [f32; SHIELD_SECTORS],
}

impl ShieldSpec {
    /// The sector a hit from `local` (object frame, from the bubble's
    /// centre) falls on: its dominant axis in the node frame (Z up, +Y
    /// ahead): 0 +y, 1 −y, 2 −x, 3 +x, 4 +z (top), 5 −z (bottom). Ties go
    /// to x, then y.
    // STAND-IN: +y, the node frame's forward, is sector 0, the front (docs/26
    // "Shields" leaves the front open); settled by hitting a retail unit's
    // shield from ahead and reading which sector drops.
    pub fn sector(local: Vec3) -> usize {
        // Node frame from Bevy's: (x, −z, y).
        let (x, y, z) = (local.x, -local.z, local.y);
        if x.abs() >= y.abs() && x.abs() >= z.abs() {
            if x < 0.0 { 2 } else { 3 }
        } else if y.abs() >= z.abs() {
            if y >= 0.0 { 0 } else { 1 }
        } else if z >= 0.0 {
            4
        } else {
            5
        }
    }

    /// The condition of `node` (of this shield): its life, whole for none.
    pub fn condition(life: &NodeLife, node: Option<NodeRef>) -> f32 {
        node.map_or(1.0, |n| life.of(n))
    }
}

/// What drives and loads a machine with a controller, assembled at load
/// (see the `drive` module of the loader): the inputs of its live limits.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
pub struct Drive {
    /// Every engine of the assembly, fitted parts in their slots.
    pub engines: Vec<EngineRef>,
    /// The running gear's nodes, left (`.ndp` 0x20) then right (0x40).
    pub gear: [Vec<NodeRef>; 2],
    /// kg: every merged node and every component.
    pub mass_kg: f32,
    /// kg: the root part's own nodes, which do not count against payload.
    pub own_kg: f32,
    /// kg: the controller's payload (file +124).
    pub payload_kg: f32,
}

impl Drive {
    /// E: the engines' drive times their condition, times the mean life of
    /// the two sides' running gear (a side without gear counts whole).
    pub fn engines(&self, life: &NodeLife) -> f32 {
        let side = |nodes: &[NodeRef]| {
            if nodes.is_empty() {
                1.0
            } else {
                nodes.iter().map(|&n| life.of(n)).sum::<f32>() / nodes.len() as f32
            }
        };
        let gear = (side(&self.gear[0]) + side(&self.gear[1])) / 2.0;
        let drive: f32 = self
            .engines
            .iter()
            .map(|e| e.drive * e.node.map_or(1.0, |n| life.of(n)))
            .sum();
        drive * gear
    }

    /// r: the spare payload over the payload, 1 empty and 0 full. A
    /// controller with no payload carries nothing, so it counts empty.
    pub fn spare(&self) -> f32 {
        if self.payload_kg > 0.0 {
            ((self.payload_kg + self.own_kg - self.mass_kg).max(0.0) / self.payload_kg).min(1.0)
        } else {
            // STAND-IN: no payload counts as carrying nothing, r = 1 (the
            // engine would divide by zero, docs/24 "Load"); settled by a
            // retail controller with payload 0 under the engine's limits.
            1.0
        }
    }
}

/// An object destroyed by damage: its node 0 or a vital node died at
/// `tick`. A machine is deleted through the World3D queue at `delete_at`
/// (its controller's `+92` ms later); a building stays as a shell (`None`)
/// that can still be struck (openparkan `docs/26-damage.md`, "What a damaged
/// node, a destroyed part and a dead unit draw").
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Destroyed {
    pub tick: u64,
    pub delete_at: Option<u64>,
}

/// Each node's remaining life as a fraction of its full life (1 whole, 0
/// destroyed), by part then node: the condition engines and running gear
/// drive with. Every node starts whole; damage writes it.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NodeLife(pub Vec<Vec<f32>>);

impl crate::save::SavedValue for NodeLife {
    /// Every node's life is a finite share of its full life, 0 to 1.
    fn check_saved(&self) -> Result<(), String> {
        let bad = self
            .0
            .iter()
            .flatten()
            .find(|l| !(l.is_finite() && (0.0..=1.0).contains(*l)));
        match bad {
            Some(l) => Err(format!("node life {l} is not a share from 0 to 1")),
            None => Ok(()),
        }
    }
}

impl NodeLife {
    /// The life of `node` (whole when the object has no such node).
    pub fn of(&self, node: NodeRef) -> f32 {
        self.0
            .get(node.part)
            .and_then(|p| p.get(node.node))
            .copied()
            .unwrap_or(1.0)
    }
}

/// A controller's animation state graph (section 1 of the CTLD), typed,
/// with every state's strides measured through the model of the part that
/// names the controller.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ControllerStates {
    pub states: Vec<StateRecord>,
    /// The file's transition costs, `states.len()²`, the row the
    /// destination (`costs[to * n + from]`).
    pub costs: Vec<f32>,
    /// Per state, how far node 0 (the body) moves over frame pair A and
    /// over pair B ([`Msh::node_travel`], its length); 0 without a model.
    ///
    /// [`Msh::node_travel`]: iron3d_formats::msh::Msh::node_travel
    pub strides: Vec<[f32; 2]>,
    /// Per state, what it asks of its contacts' nodes (contact flags 0x100
    /// and 0x200).
    pub conditions: Vec<Vec<ContactCondition>>,
    /// Per state, its contacts as feet, in slot order.
    pub feet: Vec<Vec<StateFoot>>,
}

/// One contact of a state as a foot (openparkan `docs/13-control.md`, "A
/// footstep, end to end"): where its point stands when the state ends and
/// what runs as it lands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateFoot {
    /// The contact's slot among the state's contacts (the same foot in
    /// every state).
    pub slot: usize,
    /// The node its control point sits on (`None`: the `.cpt` has no such
    /// point).
    pub node: Option<usize>,
    /// The section-5 group run as it lands (`+8`; `None` for -1).
    pub group: Option<usize>,
    /// How far the point stands above its rest height at the last frame
    /// of pair A and of pair B (`None`: no model or no such point).
    pub lift: Option<[f32; 2]>,
}

/// What a state asks of the node under one of its contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContactCondition {
    /// The node of the controller's part the contact's control point sits
    /// on (`None`: its `.cpt` has no such point, so the node is never
    /// destroyed).
    pub node: Option<usize>,
    /// True: the node must be intact (0x100); false: destroyed (0x200).
    pub intact: bool,
}

/// The animated model of the part a controller moves (its chassis): the
/// MSH whose node animation follows the control state.
#[derive(Component, Debug, Clone)]
pub struct AnimatedModel(pub Arc<Msh>);

/// A part mounted on a socket node of its parent part's model: the
/// entities its transform follows and its own model root's rest pose
/// undone (`socket × own_root⁻¹`, as the loader mounts it).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct SocketMount {
    pub parent_part: Entity,
    pub socket_node: Entity,
    /// The inverse of the part's own root node's rest pose.
    pub own_root_inverse: Transform,
}

/// The model-node entities of a part, by node index.
#[derive(Component, Debug, Clone, PartialEq, Eq, Default)]
pub struct PartNodes(pub Vec<Entity>);

/// The box around an object's level-0 geometry (every part's nodes'
/// state-0, LOD-0 slot boxes, in the construction pose) in the object's
/// own frame, Bevy axes, before the placed scale. Objects without geometry
/// have none.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct BodyBounds {
    pub min: Vec3,
    pub max: Vec3,
}

impl BodyBounds {
    /// The smallest box around `points`, none when there are none.
    pub fn around(points: impl IntoIterator<Item = Vec3>) -> Option<Self> {
        points.into_iter().fold(None, |b: Option<Self>, p| {
            Some(match b {
                None => Self { min: p, max: p },
                Some(b) => Self {
                    min: b.min.min(p),
                    max: b.max.max(p),
                },
            })
        })
    }
}

/// A part's resolved prototype: its key, the parent chain (nearest first)
/// and the effective references of `objects.rlb`.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct PrototypeChain(pub Arc<Resolved>);

/// The transform as the TMA stores it, in the original Z-up frame.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct PlacedTransform {
    pub position: [f32; 3],
    /// Radians, applied Rz * Ry * Rx.
    pub orientation: [f32; 3],
    pub scale: [f32; 3],
}

impl PlacedTransform {
    /// The placed transform of a TMA record: only scenery (vegetation and
    /// rock) takes the record's scale; a building or a unit is built at
    /// its model's own size (openparkan `docs/04-missions.md`, "Only
    /// scenery is scaled").
    pub fn of(placed: &PlacedObject) -> Self {
        let scenery = matches!(
            placed.kind(),
            Some(tma::ObjectKind::Vegetation | tma::ObjectKind::Rock)
        );
        Self {
            position: placed.position,
            orientation: placed.orientation,
            scale: if scenery { placed.scale } else { [1.0; 3] },
        }
    }

    /// The Bevy transform: rotation Rz * Ry * Rx, then scale, then
    /// translation (FACTS), converted to Y-up.
    pub fn to_bevy(&self) -> Transform {
        let [x, y, z] = self.orientation;
        let rotation =
            Quat::from_rotation_z(z) * Quat::from_rotation_y(y) * Quat::from_rotation_x(x);
        z_up_to_y_up(self.position.into(), rotation, self.scale.into())
    }
}

/// The one conversion from the original's Z-up frame (ground plane X/Y) to
/// Bevy's Y-up frame: the change of basis `(x, y, z) -> (x, z, -y)` (a
/// rotation of -90° about X, so handedness is kept) conjugates the whole
/// transform, `M' = C M C^-1`. Every level of a hierarchy goes through it,
/// so parent/child composition is unchanged.
pub fn z_up_to_y_up(translation: Vec3, rotation: Quat, scale: Vec3) -> Transform {
    let c = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    Transform {
        translation: Vec3::new(translation.x, translation.z, -translation.y),
        rotation: (c * rotation * c.inverse()).normalize(),
        // Scale is along the object's own axes: the same axis swap.
        scale: Vec3::new(scale.x, scale.z, scale.y),
    }
}

/// Active and visible state (every loaded object starts both).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectState {
    pub active: bool,
    pub visible: bool,
}

impl Default for ObjectState {
    fn default() -> Self {
        Self {
            active: true,
            visible: true,
        }
    }
}

/// The native visual state of an object's models: the MSH node slots are
/// `slot_index[state * 5 + lod]`, 3 states by 5 LODs (reference msh.md,
/// "Node and slot selection"); the demo install reads state 1 as
/// "damaged". Every loaded object starts in state 0. It is what the
/// renderer shows, not simulation state, so it stays out of the state
/// hash (docs/facts.md, "Rendering").
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ModelState(u8);

impl ModelState {
    /// How many native states a node has slots for.
    pub const COUNT: usize = 3;

    /// State `state`, when it is one of the [`Self::COUNT`] native states.
    pub fn new(state: u8) -> Option<Self> {
        (usize::from(state) < Self::COUNT).then_some(Self(state))
    }

    /// The state as an index (`0..COUNT`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Whether this machine owns the object or mirrors a remote one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Locality {
    #[default]
    Local,
    Mirror,
}

/// Marks the root of an object of the loaded mission: placed, or made in
/// play.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissionObject {
    /// Index of the record in the TMA; none for an object made in play.
    pub index: Option<usize>,
}

/// A component of a placed object: a unit-DAT part, or the one part of an
/// object placed by a direct prototype key.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct UnitPartInfo {
    /// Depth-first index in the unit DAT (0 for a direct key).
    pub index: usize,
    /// Parent part index in the part tree.
    pub parent: Option<usize>,
    pub key: Vec<u8>,
    pub class: Option<PartClass>,
    /// The record's raw attachment word (-1 on the root).
    pub attachment: i32,
    /// The node of the parent part's model this part is mounted on, when
    /// [`mounts_on_node`](super::mounts_on_node) says the attachment names one and it exists.
    pub socket: Option<usize>,
}

/// A node of a part's model, with its rest-pose local transform.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct ModelNode {
    pub index: usize,
    pub name: Option<Vec<u8>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() < 1e-5
    }

    #[test]
    fn an_integer_property_is_set_in_place_keeping_its_range() {
        let mut bag = PropertyBag(vec![
            Property::float("ClanID", 1.0, 0.0, 9.0),
            Property::int("clanid", 1, 0, 16),
        ]);
        assert!(!PropertyBag(vec![Property::float("ClanID", 1.0, 0.0, 9.0)]).set_int("ClanID", 2));
        // The first of the name is a float: no integer to set.
        assert!(!bag.set_int("ClanID", 3));
        bag.0.remove(0);
        assert!(bag.set_int("ClanID", 3));
        assert_eq!(bag.0[0], Property::int("clanid", 3, 0, 16));
    }

    #[test]
    fn model_states_are_the_three_native_ones() {
        assert_eq!(ModelState::default().index(), 0);
        assert_eq!(ModelState::new(2).map(ModelState::index), Some(2));
        assert_eq!(ModelState::new(3), None);
    }

    #[test]
    fn only_scenery_takes_the_records_scale() {
        let scaled = |kind| {
            let mut placed = PlacedObject::new(kind, b"X".to_vec(), [0.0; 3]);
            placed.scale = [3.0; 3];
            PlacedTransform::of(&placed).scale
        };
        assert_eq!(scaled(tma::ObjectKind::Vegetation), [3.0; 3]);
        assert_eq!(scaled(tma::ObjectKind::Rock), [3.0; 3]);
        assert_eq!(scaled(tma::ObjectKind::Building), [1.0; 3]);
        assert_eq!(scaled(tma::ObjectKind::Unit), [1.0; 3]);
    }

    #[test]
    fn z_up_maps_up_to_y_and_keeps_composition() {
        let t = PlacedTransform {
            position: [1.0, 2.0, 3.0],
            orientation: [0.0, 0.0, std::f32::consts::FRAC_PI_2],
            scale: [1.0, 2.0, 3.0],
        }
        .to_bevy();
        assert!(close(t.translation, Vec3::new(1.0, 3.0, -2.0)));
        assert!(close(t.scale, Vec3::new(1.0, 3.0, 2.0)));
        // A yaw about original Z is a rotation about Bevy Y.
        assert!(close(t.rotation * Vec3::X, Vec3::new(0.0, 0.0, -1.0)));
        // Original +X rotated 90° about Z is original +Y = Bevy -Z.
        let point = t.transform_point(Vec3::X);
        assert!(close(point, Vec3::new(1.0, 3.0, -3.0)));
    }
}
