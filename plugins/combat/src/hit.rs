//! What a segment meets (openparkan `docs/26-damage.md`, "The hit test";
//! `docs/29-weapons.md`, "What the sight ray meets"): the land first, then
//! every object whose sphere the segment passes, through its nodes'
//! triangles; the nearest crossing wins (the lower id, then the lower node,
//! on a tie). A destroyed (hidden) node is not met. The geometry is each
//! object's construction pose under its transform.

use bevy::prelude::*;
use iron3d_control::{GroundFaces, crosses};
use iron3d_world::mission::{HitModel, NodeLife};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};

/// What a segment met.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Struck {
    /// A land face.
    Ground(u32),
    /// Node `index` (in its [`HitModel`]) of an object.
    Node {
        object: OriginalObjectId,
        index: usize,
    },
}

/// The nearest crossing: the fraction of the way and what it met.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub t: f32,
    pub struck: Struck,
}

/// The objects a segment can meet.
pub(crate) type Targets<'a> = (
    &'a Transform,
    &'a HitModel,
    Option<&'a NodeLife>,
    Has<PendingDelete>,
);

/// The nearest crossing of the segment `from` → `to` with the land and the
/// live nodes of every object but `skip`.
pub(crate) fn first_hit(
    from: Vec3,
    to: Vec3,
    skip: Option<OriginalObjectId>,
    ground: Option<&GroundFaces>,
    registry: &ObjectRegistry,
    objects: &Query<Targets>,
) -> Option<Hit> {
    let mut best = ground
        .and_then(|g| g.segment(from, to))
        .map(|(t, face)| Hit {
            t,
            struck: Struck::Ground(face),
        });
    for (id, entity) in registry.iter() {
        if Some(id) == skip {
            continue;
        }
        let Ok((transform, model, life, pending)) = objects.get(entity) else {
            continue;
        };
        if pending {
            continue;
        }
        if let Some(hit) = object_hit(from, to, id, transform, model, life)
            && best.is_none_or(|b| hit.t < b.t)
        {
            best = Some(hit);
        }
    }
    best
}

/// The nearest crossing of a segment with one object's live nodes.
fn object_hit(
    from: Vec3,
    to: Vec3,
    id: OriginalObjectId,
    transform: &Transform,
    model: &HitModel,
    life: Option<&NodeLife>,
) -> Option<Hit> {
    let (centre, radius) = model.sphere(transform);
    if !passes_sphere(from, to, centre, radius) {
        return None;
    }
    // Into the object's frame: the triangles stay as loaded.
    let to_local = transform.to_matrix().inverse();
    let (a, b) = (
        to_local.transform_point3(from),
        to_local.transform_point3(to),
    );
    let mut best: Option<(f32, usize)> = None;
    for (index, node) in model.nodes.iter().enumerate() {
        if node.faces.is_empty() || life.is_some_and(|l| l.of(node.node) <= 0.0) {
            continue;
        }
        if !passes_sphere(a, b, node.centre, node.radius) {
            continue;
        }
        for face in &node.faces {
            if let Some(t) = crosses(face, a, b)
                && best.is_none_or(|(bt, _)| t < bt)
            {
                best = Some((t, index));
            }
        }
    }
    best.map(|(t, index)| Hit {
        t,
        struck: Struck::Node { object: id, index },
    })
}

/// Whether the segment `a` → `b` comes within `radius` of `centre`.
pub(crate) fn passes_sphere(a: Vec3, b: Vec3, centre: Vec3, radius: f32) -> bool {
    let d = b - a;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((centre - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t).distance_squared(centre) <= radius * radius
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_passes_a_sphere_it_comes_within_its_radius_of() {
        let (a, b) = (Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0));
        assert!(passes_sphere(a, b, Vec3::new(5.0, 0.9, 0.0), 1.0));
        assert!(!passes_sphere(a, b, Vec3::new(5.0, 1.1, 0.0), 1.0));
        // Beyond the ends only the end points count.
        assert!(!passes_sphere(a, b, Vec3::new(11.5, 0.0, 0.0), 1.0));
        assert!(passes_sphere(a, b, Vec3::new(-0.5, 0.0, 0.0), 1.0));
    }
}
