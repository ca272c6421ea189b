//! Where each part of a unit sits (docs/facts.md "Unit DAT attachment"): a
//! turret or gun is mounted on a node (a socket) of its parent part's model,
//! named by its unit DAT record's attachment word; its root node takes the
//! socket's rest pose. Every other part sits at its parent part's origin.

use super::components::{BodyBounds, NodeRef, PhysicalFace, PhysicalModel, z_up_to_y_up};
use super::load::{NodePlan, PartPlan};
use bevy::prelude::*;
use iron3d_formats::unitdat::PartClass;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether a part's attachment word indexes a node of its parent part's
/// model (a socket): true for turrets and guns. For the other classes
/// (armour, internal parts, ammunition) it is the index of a slot of the
/// parent's controller, not a node.
pub fn mounts_on_node(class: Option<PartClass>) -> bool {
    matches!(class, Some(PartClass::Turret | PartClass::Gun))
}

/// The transform of a mounted part in its parent part's frame: the
/// socket's rest pose in the parent model (the node locals composed from the
/// model root down to the socket) with the part's own model root undone,
/// `socket * own_root^-1`, so the part's root node lands on the socket.
pub fn mount_transform(socket: Transform, own_root: Transform) -> Transform {
    socket.mul_transform(inverse(own_root))
}

/// The transform undoing `t`.
pub(crate) fn inverse(t: Transform) -> Transform {
    Transform::from_matrix(t.to_matrix().inverse())
}

/// A node's rest-pose local transform, in Bevy's frame.
pub(crate) fn node_local(node: &NodePlan) -> Transform {
    z_up_to_y_up(
        node.local.translation.into(),
        Quat::from_array(node.local.rotation).normalize(),
        Vec3::ONE,
    )
}

/// The rest pose of node `index` in its model's frame: the locals composed
/// from the root down (a parent always precedes its child).
pub(crate) fn model_pose(nodes: &[NodePlan], index: usize) -> Option<Transform> {
    let mut pose = node_local(nodes.get(index)?);
    let mut at = nodes[index].parent;
    while let Some(p) = at {
        pose = node_local(&nodes[p]).mul_transform(pose);
        at = nodes[p].parent;
    }
    Some(pose)
}

/// Each part's transform in the placed object's frame, and the socket node
/// it is mounted on, in part-tree order. A socket index outside the parent's
/// model (or a parent without a model) leaves the part at its parent's
/// origin.
pub(crate) fn part_frames(
    parts: &[PartPlan],
    models: &BTreeMap<Vec<u8>, Arc<Vec<NodePlan>>>,
) -> Vec<(Transform, Option<usize>)> {
    let model = |part: &PartPlan| models.get(&part.key.to_ascii_uppercase());
    let mut frames: Vec<(Transform, Option<usize>)> = Vec::with_capacity(parts.len());
    for part in parts {
        // Depth-first order: a parent is always an earlier record.
        let Some((parent, &(base, _))) =
            part.parent.and_then(|q| Some((&parts[q], frames.get(q)?)))
        else {
            frames.push((Transform::IDENTITY, None));
            continue;
        };
        let socket = usize::try_from(part.attachment)
            .ok()
            .filter(|_| mounts_on_node(part.class))
            .and_then(|a| Some((a, model_pose(model(parent)?, a)?)));
        frames.push(match socket {
            Some((index, pose)) => {
                let own_root = model(part)
                    .and_then(|nodes| nodes.first())
                    .map_or(Transform::IDENTITY, node_local);
                (
                    base.mul_transform(mount_transform(pose, own_root)),
                    Some(index),
                )
            }
            None => (base, None),
        });
    }
    frames
}

/// Every model node of an object with its transform into the object's
/// frame: the node's rest pose through its part's frame (`frames` from
/// [`part_frames`]), parts in order, nodes by index.
fn object_nodes<'a>(
    parts: &'a [PartPlan],
    models: &'a BTreeMap<Vec<u8>, Arc<Vec<NodePlan>>>,
    frames: &'a [(Transform, Option<usize>)],
) -> impl Iterator<Item = (NodeRef, &'a NodePlan, Transform)> + 'a {
    parts
        .iter()
        .zip(frames)
        .enumerate()
        .flat_map(move |(p, (part, (frame, _)))| {
            let nodes = models
                .get(&part.key.to_ascii_uppercase())
                .map_or(&[][..], |m| &m[..]);
            nodes.iter().enumerate().filter_map(move |(index, node)| {
                let at = NodeRef {
                    part: p,
                    node: index,
                };
                Some((at, node, frame.mul_transform(model_pose(nodes, index)?)))
            })
        })
}

/// A node-frame (Z-up) point in Bevy's axes.
pub fn node_to_bevy([x, y, z]: [f32; 3]) -> Vec3 {
    Vec3::new(x, z, -y)
}

/// A node-frame (Z-up) point in the object frame `to_object` leads to.
fn to_object_point(to_object: &Transform, point: [f32; 3]) -> Vec3 {
    to_object.transform_point(node_to_bevy(point))
}

/// The box around an object's level-0 geometry in its own frame: the
/// corners of every node's slot box, through the node's rest pose and its
/// part's frame (`frames` from [`part_frames`]).
pub(crate) fn body_bounds(
    parts: &[PartPlan],
    models: &BTreeMap<Vec<u8>, Arc<Vec<NodePlan>>>,
    frames: &[(Transform, Option<usize>)],
) -> Option<BodyBounds> {
    let mut corners = Vec::new();
    for (_, node, to_object) in object_nodes(parts, models, frames) {
        let Some((min, max)) = node.bounds else {
            continue;
        };
        for k in 0..8 {
            let pick = |axis: usize| {
                if k >> axis & 1 == 0 {
                    min[axis]
                } else {
                    max[axis]
                }
            };
            corners.push(to_object_point(&to_object, [0, 1, 2].map(pick)));
        }
    }
    BodyBounds::around(corners)
}

/// The physical model of a static object: every node's level-0 triangles
/// in the object's frame (Bevy axes, before the placed scale) with their
/// flags; `None` when it has no geometry.
pub(crate) fn physical_model(
    parts: &[PartPlan],
    models: &BTreeMap<Vec<u8>, Arc<Vec<NodePlan>>>,
    frames: &[(Transform, Option<usize>)],
) -> Option<PhysicalModel> {
    let faces: Vec<PhysicalFace> = object_nodes(parts, models, frames)
        .flat_map(|(at, node, to_object)| {
            node.faces.iter().map(move |f| PhysicalFace {
                corners: f.corners.map(|c| to_object_point(&to_object, c)),
                batch_word: f.batch_word,
                tri_flags: f.tri_flags,
                node: at,
            })
        })
        .collect();
    (!faces.is_empty()).then_some(PhysicalModel(faces))
}
