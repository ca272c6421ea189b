//! Slot selection by native state and camera distance. A node's slots are
//! `slot_index[state * 5 + lod]`, 3 native states by 5 LODs (reference
//! msh.md, "Node and slot selection"). Every distinct slot of every state
//! is spawned hidden; each frame a node shows the slot of its damage
//! stage ([`NodeStage`], combat) or its object's [`ModelState`] at the LOD
//! chosen by distance (tome V "Полный кадр":
//! "выбрать LOD по расстоянию и настройкам"), so a state change switches
//! the batches on the next update without respawning.
//!
//! The spec gives no distances. Rule used (docs/facts.md): with `r` the
//! bounding-sphere radius of the lowest LOD slot of the state's geometry,
//! LOD 0 is wanted nearer than [`LOD_NEAR`]` * r`, and each further LOD
//! doubles that distance (a halving of the projected size); the node shows
//! the highest LOD it has that is not above the wanted one (its lowest when
//! none is). A state in which the node's whole model has no geometry at
//! any LOD is drawn with state 0 (docs/facts.md).

use crate::camera::MissionCamera;
use crate::draw::DrawnBatch;
use bevy::prelude::*;
use iron3d_assets::model::{Model, ModelNode as MeshNode};
use iron3d_world::mission::{ModelState, NodeStage};

/// LOD 0 up to this many bounding radii from the camera.
// STAND-IN: 16 radii, each further LOD at double the distance (tome V says
// "LOD by distance and settings" without values); settled by reading the
// LOD choice in the retail renderer, or a retail frame's LOD switches.
pub const LOD_NEAR: f32 = 16.0;
/// LODs per native state in a node's slot table.
pub const LODS: usize = 5;
/// Smallest radius used (slots with a degenerate sphere).
const MIN_RADIUS: f32 = 0.5;

/// The `(lod, slot)` pairs of `state` a node has geometry for, by LOD.
pub fn lod_slots(node: &MeshNode, state: usize) -> Vec<(usize, usize)> {
    (0..LODS)
        .filter_map(|lod| {
            node.slots
                .get(state * LODS + lod)
                .copied()
                .flatten()
                .map(|s| (lod, s as usize))
        })
        .collect()
}

/// The native states `model` has geometry for at any LOD of any node.
pub fn model_states(model: &Model) -> [bool; ModelState::COUNT] {
    std::array::from_fn(|state| {
        model
            .nodes
            .iter()
            .any(|node| !lod_slots(node, state).is_empty())
    })
}

/// Per wanted native state, the one drawn given the states a model has
/// geometry in (`present`): itself, or state 0 when absent.
pub fn drawn_states(present: [bool; ModelState::COUNT]) -> [usize; ModelState::COUNT] {
    std::array::from_fn(|state| if present[state] { state } else { 0 })
}

/// The slots of one node in one native state, by LOD, and their reference
/// radius.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeLods {
    /// `(lod, slot)` pairs with geometry, LOD ascending.
    pub slots: Vec<(usize, usize)>,
    pub radius: f32,
}

impl NodeLods {
    /// The LODs of `slots` (from [`lod_slots`]) of `model`.
    pub fn of(model: &Model, slots: Vec<(usize, usize)>) -> Self {
        let radius = slots
            .first()
            .and_then(|&(_, s)| model.slots.get(s))
            .map_or(MIN_RADIUS, |s| s.sphere_radius.max(MIN_RADIUS));
        Self { slots, radius }
    }

    /// The LOD wanted at `distance`.
    pub fn wanted(&self, distance: f32) -> usize {
        let near = LOD_NEAR * self.radius;
        if distance < near {
            0
        } else {
            1 + (distance / near).log2().floor() as usize
        }
    }

    /// The `(lod, slot)` shown at `distance`.
    pub fn select(&self, distance: f32) -> Option<(usize, usize)> {
        let wanted = self.wanted(distance);
        self.slots
            .iter()
            .copied()
            .rfind(|&(lod, _)| lod <= wanted)
            .or_else(|| self.slots.first().copied())
    }
}

/// What a model node can show: per wanted native state, the slots of the
/// state drawn for it, and the object root whose [`ModelState`] picks one.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct NodeSlots {
    /// The placed object's root entity.
    pub object: Entity,
    /// Per wanted state, the native state drawn: itself when the model has
    /// geometry in it, state 0 otherwise.
    pub drawn: [usize; ModelState::COUNT],
    /// Per wanted state, the slots of its drawn state.
    pub states: [NodeLods; ModelState::COUNT],
}

impl NodeSlots {
    /// The slots of `node` of `model`, placed under `object`.
    pub fn of(model: &Model, node: &MeshNode, object: Entity) -> Self {
        let drawn = drawn_states(model_states(model));
        Self {
            object,
            drawn,
            states: drawn.map(|state| NodeLods::of(model, lod_slots(node, state))),
        }
    }

    /// Every distinct slot the node can show, ascending.
    pub fn slots(&self) -> Vec<usize> {
        let mut slots: Vec<usize> = self
            .states
            .iter()
            .flat_map(|lods| lods.slots.iter().map(|&(_, slot)| slot))
            .collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// The `(lod, slot)` shown in `state` at `distance`.
    pub fn select(&self, state: ModelState, distance: f32) -> Option<(usize, usize)> {
        self.states[state.index()].select(distance)
    }
}

/// The native state a node is drawn in: its damage stage, or its
/// object's [`ModelState`] when that is further on.
pub fn node_state(object: Option<ModelState>, stage: Option<NodeStage>) -> ModelState {
    let object = object.unwrap_or_default();
    stage
        .and_then(|s| ModelState::new(s.0))
        .filter(|s| s.index() > object.index())
        .unwrap_or(object)
}

/// Shows each drawn batch whose slot is the one its node selects for its
/// state ([`node_state`]: its damage stage or its object's
/// [`ModelState`], state 0 without either) at the camera's distance, and
/// hides the others.
pub fn select_lods(
    cameras: Query<&GlobalTransform, With<MissionCamera>>,
    nodes: Query<(&NodeSlots, &GlobalTransform, Option<&NodeStage>)>,
    states: Query<&ModelState>,
    mut batches: Query<(&DrawnBatch, &ChildOf, &mut Visibility)>,
) {
    let Some(eye) = cameras.iter().next().map(|t| t.translation()) else {
        return;
    };
    for (batch, parent, mut visibility) in &mut batches {
        let Ok((slots, node, stage)) = nodes.get(parent.parent()) else {
            continue;
        };
        let state = node_state(states.get(slots.object).ok().copied(), stage.copied());
        let shown = slots
            .select(state, eye.distance(node.translation()))
            .is_some_and(|(_, slot)| slot == batch.slot);
        let wanted = if shown {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(wanted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LODs `lods`, each in the slot of the same number.
    fn lods(lods: &[usize], radius: f32) -> NodeLods {
        NodeLods {
            slots: lods.iter().map(|&l| (l, l)).collect(),
            radius,
        }
    }

    #[test]
    fn each_lod_doubles_the_distance() {
        let n = lods(&[0, 1, 2, 3, 4], 2.0);
        assert_eq!(n.wanted(0.0), 0);
        assert_eq!(n.wanted(31.9), 0);
        assert_eq!(n.wanted(32.0), 1);
        assert_eq!(n.wanted(63.9), 1);
        assert_eq!(n.wanted(64.0), 2);
        assert_eq!(n.wanted(1000.0), 5);
        assert_eq!(n.select(1000.0), Some((4, 4)), "the coarsest it has");
    }

    #[test]
    fn missing_lods_fall_back_to_the_nearest_finer_one() {
        let n = lods(&[1, 3], 1.0);
        assert_eq!(
            n.select(0.0),
            Some((1, 1)),
            "its lowest LOD when finer is wanted"
        );
        assert_eq!(n.select(40.0), Some((1, 1)));
        assert_eq!(n.select(70.0), Some((3, 3)));
        assert_eq!(lods(&[], 1.0).select(10.0), None);
    }

    #[test]
    fn slots_are_state_major() {
        let mut slots = [None; 15];
        slots[0] = Some(4);
        slots[1] = Some(5);
        slots[5] = Some(9);
        let node = MeshNode {
            name: None,
            parent: None,
            slots,
        };
        assert_eq!(lod_slots(&node, 0), vec![(0, 4), (1, 5)]);
        assert_eq!(lod_slots(&node, 1), vec![(0, 9)]);
        assert!(lod_slots(&node, 2).is_empty());
    }

    #[test]
    fn a_state_without_geometry_draws_state_zero() {
        assert_eq!(drawn_states([true, true, false]), [0, 1, 0]);
        assert_eq!(drawn_states([true, false, true]), [0, 0, 2]);
    }

    #[test]
    fn a_node_is_drawn_in_its_damage_stage_or_its_objects_state() {
        let state = |s| ModelState::new(s).unwrap();
        assert_eq!(node_state(None, None), state(0));
        assert_eq!(node_state(None, Some(NodeStage(2))), state(2));
        assert_eq!(node_state(Some(state(1)), Some(NodeStage(0))), state(1));
        assert_eq!(node_state(Some(state(1)), Some(NodeStage(2))), state(2));
        assert_eq!(
            node_state(None, Some(NodeStage(7))),
            state(0),
            "no such native state"
        );
    }

    #[test]
    fn a_node_shows_the_slot_of_its_objects_state() {
        let state0 = NodeLods {
            slots: vec![(0, 0), (1, 1)],
            radius: 1.0,
        };
        let node = NodeSlots {
            object: Entity::PLACEHOLDER,
            drawn: [0, 1, 0],
            states: [
                state0.clone(),
                NodeLods {
                    slots: vec![(0, 5)],
                    radius: 1.0,
                },
                state0,
            ],
        };
        let state = |s| ModelState::new(s).unwrap();
        assert_eq!(node.select(state(0), 0.0), Some((0, 0)));
        assert_eq!(node.select(state(0), 100.0), Some((1, 1)));
        assert_eq!(node.select(state(1), 0.0), Some((0, 5)));
        assert_eq!(node.select(state(2), 0.0), Some((0, 0)), "state 0's");
        assert_eq!(node.slots(), vec![0, 1, 5]);
    }
}
