//! What a turret's aim shows (presentation; openparkan `docs/30-turrets.md`,
//! "Aiming and the camera"): the node its yaw channel animates turns about
//! the turret's up axis by the aim's yaw, the node its pitch channel
//! animates about the turret's side axis by the pitch (one node taking both
//! turns by the pitch, then the yaw), and the parts mounted on the turret's
//! nodes, its guns, follow.
//!
//! A stand-in (docs/facts.md "Stand-ins"): the original plays the node's
//! own animation frames at the channel's value; here the node's rest pose
//! is turned by the angle, in its part's frame. A turret on an animated
//! part (a chassis's own) is left to the part's animation. It runs when
//! the frame's snapshot is published, after the movers are posed, reads
//! the aim (simulation state) and feeds nothing back.

use crate::gun::Weapons;
use bevy::prelude::*;
use iron3d_control::pose::{PartTransforms, PoseMovers, follow_sockets};
use iron3d_schedules::Phase;
use iron3d_world::mission::{
    AimAxis, AnimatedModel, Armament, PartNodes, SocketMount, TurretSpec, UnitPartInfo,
};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PostUpdate,
        pose_turrets
            .after(PoseMovers)
            .in_set(Phase::PublishRenderSnapshot),
    );
}

/// A node a turret turns: its entity, its rest pose and the rotation from
/// its part's frame to its parent's, at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Joint {
    node: Entity,
    rest: Transform,
    frame: Quat,
}

impl Joint {
    /// The node's pose turned by `turn` (in its part's frame) about its
    /// own origin.
    fn turned(&self, turn: Quat) -> Transform {
        let rotation = self.frame.inverse() * turn * self.frame * self.rest.rotation;
        Transform {
            rotation: rotation.normalize(),
            ..self.rest
        }
    }
}

/// What one turret turns.
#[derive(Debug, Clone, PartialEq)]
struct Rig {
    part: Entity,
    yaw: Option<Joint>,
    /// `None` when the pitch channel animates the yaw node (or none).
    pitch: Option<Joint>,
    /// The yaw and pitch last shown.
    shown: Option<(f32, f32)>,
}

/// An armed object's turrets as drawn, built the first time they are
/// posed; `None` for a turret that is not drawn turning.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct TurretRigs(Vec<Option<Rig>>);

type Armed<'a> = (
    Entity,
    &'a Armament,
    &'a Weapons,
    &'a Children,
    Option<&'a mut TurretRigs>,
);

type PartView<'a> = (&'a UnitPartInfo, &'a PartNodes, Has<AnimatedModel>);

/// Turns every turret whose aim changed since it was last drawn, and
/// carries its guns along.
// STAND-IN: the node's rest pose turned by the aim's angle (the original
// plays the node's frames `first + v × (last − first)`, docs/30 "Aiming and
// the camera"); settled by playing the channel's frames and comparing.
fn pose_turrets(
    mut armed: Query<Armed>,
    parts: Query<PartView>,
    mounted: Query<(&SocketMount, &UnitPartInfo)>,
    parents: Query<&ChildOf>,
    mut transforms: PartTransforms,
    mut commands: Commands,
) {
    for (entity, armament, weapons, children, rigs) in &mut armed {
        let Some(mut rigs) = rigs else {
            let rigs = armament
                .turrets
                .iter()
                .map(|spec| rig(spec, children, &parts, &parents, &transforms))
                .collect();
            commands.entity(entity).insert(TurretRigs(rigs));
            continue;
        };
        for (rig, aim) in rigs.0.iter_mut().zip(&weapons.turrets) {
            let Some(rig) = rig else { continue };
            let now = (aim.yaw, aim.pitch);
            if rig.shown == Some(now) {
                continue;
            }
            rig.shown = Some(now);
            let pitch = Quat::from_rotation_x(aim.pitch);
            let turns = match (rig.yaw, rig.pitch) {
                (Some(y), Some(p)) => [Some((y, Quat::from_rotation_y(aim.yaw))), Some((p, pitch))],
                (Some(y), None) => [Some((y, aim.turn())), None],
                (None, p) => [p.map(|p| (p, pitch)), None],
            };
            for (joint, turn) in turns.into_iter().flatten() {
                if let Ok(mut transform) = transforms.get_mut(joint.node) {
                    *transform = joint.turned(turn);
                }
            }
            follow_sockets(
                children,
                Some(rig.part),
                (&mounted, &parents),
                &mut transforms,
            );
        }
    }
}

/// The rig of turret `spec` among an object's `children`: its part's nodes
/// its channels animate, at rest; `None` on an animated part or without
/// such nodes.
fn rig(
    spec: &TurretSpec,
    children: &Children,
    parts: &Query<PartView>,
    parents: &Query<&ChildOf>,
    transforms: &PartTransforms,
) -> Option<Rig> {
    let (part, nodes) = children.iter().find_map(|c| {
        let (info, nodes, animated) = parts.get(c).ok()?;
        (info.index == spec.node.part && !animated).then_some((c, nodes))
    })?;
    let joint = |axis: &AimAxis| -> Option<Joint> {
        let node = *nodes.0.get(axis.node?)?;
        let rest = *transforms.get(node).ok()?;
        let mut frame = Quat::IDENTITY;
        let mut at = parents.get(node).ok()?.parent();
        while at != part {
            frame = transforms.get(at).ok()?.rotation * frame;
            at = parents.get(at).ok()?.parent();
        }
        Some(Joint { node, rest, frame })
    };
    let yaw = joint(&spec.yaw);
    let pitch = joint(&spec.pitch).filter(|p| yaw.is_none_or(|y| y.node != p.node));
    (yaw.is_some() || pitch.is_some()).then_some(Rig {
        part,
        yaw,
        pitch,
        shown: None,
    })
}
