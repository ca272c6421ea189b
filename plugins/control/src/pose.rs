//! What a mover's step shows (openparkan `docs/24-motion.md` "What the mesh
//! plays"): the nodes of its chassis model take the blend of the pose at
//! pair A's frame and at pair B's by the step's weight, and every part
//! mounted on a socket node follows that node as it moves, turrets carrying
//! their guns.
//!
//! Posing is presentation: it runs when the frame's snapshot is published
//! (`Phase::PublishRenderSnapshot`, before transforms propagate), derives
//! everything from [`Gait`] and the clock (both simulation state, hashed)
//! and feeds nothing back. A mover whose frame has not changed since it
//! was last posed is left alone.

use crate::gait::{Gait, GaitFrame};
use bevy::prelude::*;
use iron3d_formats::msh::Pose;
use iron3d_schedules::{GameClock, Phase};
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{AnimatedModel, PartNodes, SocketMount, UnitPartInfo, z_up_to_y_up};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        pose_movers
            .in_set(PoseMovers)
            .in_set(Phase::PublishRenderSnapshot),
    );
}

/// Where movers are posed in `Phase::PublishRenderSnapshot`: what turns a
/// mounted part's nodes afterwards (a turret's aim) runs after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PoseMovers;

/// The transforms posing writes: every entity's but a mover root's.
pub type PartTransforms<'w, 's> = Query<'w, 's, &'static mut Transform, Without<Gait>>;

/// The frame a mover was last posed at.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct PosedFrame(pub GaitFrame);

/// An engine-local node pose (Z up) as a Bevy local transform.
fn local_transform(pose: &Pose) -> Transform {
    z_up_to_y_up(
        pose.translation.into(),
        Quat::from_array(pose.rotation).normalize(),
        Vec3::ONE,
    )
}

/// Poses every mover with a gait whose frame changed (each on its own, in
/// any order): its animated part's nodes, then its socket-mounted parts in
/// part-tree order.
fn pose_movers(
    clock: Res<GameClock>,
    mut movers: Query<(
        Entity,
        &OriginalObjectId,
        &Gait,
        &Children,
        Option<&mut PosedFrame>,
    )>,
    animated: Query<(&AnimatedModel, &PartNodes)>,
    mounted: Query<(&SocketMount, &UnitPartInfo)>,
    parents: Query<&ChildOf>,
    mut transforms: PartTransforms,
    mut commands: Commands,
) {
    let now = clock.elapsed().as_secs_f64();
    for (entity, id, gait, children, posed) in &mut movers {
        let frame = gait.frame(now);
        match posed {
            Some(posed) if posed.0 == frame => continue,
            Some(mut posed) => posed.0 = frame,
            None => {
                commands.entity(entity).insert(PosedFrame(frame));
            }
        }
        for (model, nodes) in children.iter().filter_map(|c| animated.get(c).ok()) {
            match model.0.blended_locals(frame.a, frame.b, frame.weight) {
                Ok(locals) => {
                    for (&node, local) in nodes.0.iter().zip(&locals) {
                        if let Ok(mut transform) = transforms.get_mut(node) {
                            *transform = local_transform(local);
                        }
                    }
                }
                Err(e) => warn_once!(
                    "object {:#010x}: its model cannot play {frame:?}: {e}",
                    id.raw()
                ),
            }
        }
        follow_sockets(children, None, (&mounted, &parents), &mut transforms);
    }
}

/// Puts every part among `children` mounted on a socket node (of
/// `parent_part` only, when given) where its socket now is, in part-tree
/// order, so a part mounted on a part that just moved follows it.
pub fn follow_sockets(
    children: &Children,
    parent_part: Option<Entity>,
    (mounted, parents): (&Query<(&SocketMount, &UnitPartInfo)>, &Query<&ChildOf>),
    transforms: &mut PartTransforms,
) {
    let mut parts: Vec<(usize, Entity, SocketMount)> = children
        .iter()
        .filter_map(|c| mounted.get(c).ok().map(|(m, info)| (info.index, c, *m)))
        .filter(|(_, _, m)| parent_part.is_none_or(|p| m.parent_part == p))
        .collect();
    parts.sort_by_key(|p| p.0);
    for (_, part, mount) in parts {
        let Some(socket) = socket_pose(&mount, parents, transforms) else {
            continue;
        };
        if let Ok(mut transform) = transforms.get_mut(part) {
            *transform = socket.mul_transform(mount.own_root_inverse);
        }
    }
}

/// The socket node's pose in the object's frame: its parent part's
/// transform, then every node from that part down to the socket.
fn socket_pose(
    mount: &SocketMount,
    parents: &Query<&ChildOf>,
    transforms: &PartTransforms,
) -> Option<Transform> {
    let mut pose = Transform::IDENTITY;
    let mut at = mount.socket_node;
    while at != mount.parent_part {
        pose = transforms.get(at).ok()?.mul_transform(pose);
        at = parents.get(at).ok()?.parent();
    }
    Some(transforms.get(at).ok()?.mul_transform(pose))
}
