//! Contacts between bodies: the push-out of step 6 and the
//! `GMSG_COLLISION_DETECTED` of step 8.
//!
//! Pairs are taken in the order of their two original ids (the lower id is
//! `a`, the normal points from `a` to `b`), never in the backend's order.
//! The push-out P (the deepest penetration along the normal, held to 4r of
//! the smaller mover) is shared by mass²: `b` moves `P·ma²/(ma²+mb²)`, `a`
//! moves `−P·mb²/(ma²+mb²)`; against a static body the mover takes it all.
//! A ground-bound body takes only the horizontal part, stretched to the
//! push's full length (at most ×4); velocity is kept (openparkan
//! `docs/24-motion.md`, "Collision between objects").
//!
//! A pair that starts touching posts one message, addressed to `a`, with
//! `b`'s raw id as its payload (u32 LE); it is delivered in the next tick's
//! dispatch step of the world queue, where a handler may delete either
//! object: the delete is deferred, and Control holds objects only by id.

use crate::backend::Contacts;
use crate::body::Body;
use bevy::prelude::*;
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, PendingDelete, WorldOutbox};
use std::collections::BTreeSet;

/// The pairs touching after this tick's push-out, by ids, and the ones
/// touching the tick before.
#[derive(Resource, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TouchingPairs {
    pub now: BTreeSet<(OriginalObjectId, OriginalObjectId)>,
    pub before: BTreeSet<(OriginalObjectId, OriginalObjectId)>,
}

/// How much longer than its horizontal part a ground-bound body's push may
/// be stretched.
const FLAT_STRETCH: f32 = 4.0;
/// Pushes are held to this many radii.
const PUSH_RADII: f32 = 4.0;

pub(crate) fn plugin(app: &mut App) {
    app.init_mission_resource::<TouchingPairs>().add_systems(
        FixedUpdate,
        post_new_pairs.in_set(iron3d_schedules::SimStep::Publish),
    );
}

/// A contact by ids.
struct Pair {
    a: (OriginalObjectId, Entity),
    b: (OriginalObjectId, Entity),
    normal: Vec3,
    depth: f32,
}

/// Step 6, bodies: the push-out of every touching pair, in id order.
pub(crate) fn push_apart(
    registry: Res<ObjectRegistry>,
    contacts: Contacts,
    mut bodies: Query<(&mut Transform, Option<&Body>), Without<PendingDelete>>,
    mut touching: ResMut<TouchingPairs>,
) {
    let mut pairs: Vec<Pair> = contacts
        .touching(|one, two| registry.id(one) < registry.id(two))
        .into_iter()
        .filter_map(|c| {
            Some(Pair {
                a: (registry.id(c.a)?, c.a),
                b: (registry.id(c.b)?, c.b),
                normal: c.normal,
                depth: c.depth,
            })
        })
        .collect();
    pairs.sort_by_key(|p| (p.a.0, p.b.0));
    touching.now.clear();
    for pair in pairs {
        let Ok([(mut ta, body_a), (mut tb, body_b)]) = bodies.get_many_mut([pair.a.1, pair.b.1])
        else {
            continue;
        };
        touching.now.insert((pair.a.0, pair.b.0));
        let (body_a, body_b) = (body_a.copied(), body_b.copied());
        let radius = [body_a, body_b]
            .iter()
            .flatten()
            .map(|b| b.radius)
            .fold(f32::INFINITY, f32::min);
        let push = pair.normal * pair.depth.min(PUSH_RADII * radius);
        let (share_a, share_b) = match (body_a, body_b) {
            (Some(a), Some(b)) => {
                let (ma, mb) = (a.mass * a.mass, b.mass * b.mass);
                (mb / (ma + mb), ma / (ma + mb))
            }
            (Some(_), None) => (1.0, 0.0),
            (None, Some(_)) => (0.0, 1.0),
            (None, None) => continue,
        };
        if let Some(a) = body_a {
            ta.translation += taken(-push * share_a, &a);
        }
        if let Some(b) = body_b {
            tb.translation += taken(push * share_b, &b);
        }
    }
}

/// The part of a push `p` a body takes: all of it for a flyer, the
/// stretched horizontal part for a ground-bound body.
fn taken(p: Vec3, body: &Body) -> Vec3 {
    if !body.holds_ground {
        return p;
    }
    let flat = Vec3::new(p.x, 0.0, p.z);
    let length = flat.length();
    if length == 0.0 {
        return Vec3::ZERO;
    }
    flat * (p.length() / length).min(FLAT_STRETCH)
}

/// Step 8: one message per pair that started touching this tick.
fn post_new_pairs(mut touching: ResMut<TouchingPairs>, mut outbox: ResMut<WorldOutbox>) {
    let touching = &mut *touching;
    for &(a, b) in touching.now.difference(&touching.before) {
        // STAND-IN: addressed to the lower id, the other's raw id as a u32
        // LE payload (tome VI step 8: the call site "requires dynamic
        // tracing"); settled by tracing `GMSG_COLLISION_DETECTED` in a
        // retail session.
        outbox.post(
            GmsgKind::CollisionDetected,
            Some(a),
            b.raw().to_le_bytes().to_vec(),
        );
    }
    touching.before.clone_from(&touching.now);
}

/// State-hash contributor: the pairs touching at the end of the last tick.
pub(crate) fn hash_touching(world: &World, hasher: &mut iron3d_schedules::StateHasher) {
    let Some(touching) = world.get_resource::<TouchingPairs>() else {
        return;
    };
    hasher.write_u64(touching.before.len() as u64);
    for (a, b) in &touching.before {
        hasher.write_u32(a.raw());
        hasher.write_u32(b.raw());
    }
}
