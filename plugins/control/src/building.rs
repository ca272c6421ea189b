//! Buildings and other static bodies as movers meet them (GAMEPLAY §2
//! "Collision"; the segment query of reference `msh.md`, "Type 7 и
//! сегментный запрос"): the level-0 faces of a static object's physical
//! model stop a mover's centre segment, and a stopped mover stays where its
//! step began. Floors (triangle flag 2) do not stop walkers: they are
//! ground, which walkers stand on; doorway quads (batch flag 8) and open
//! doors (triangle flag 0x10) let movers through; batches flagged 0x0200 and
//! triangles flagged 0x0024 are never tested.
//!
//! A destroyed node's faces (life 0, unless the model keeps it as a shell)
//! neither stop movers nor are stood on: the physical model is the visible
//! one, and a destroyed node is no longer drawn (a stand-in, docs/facts.md
//! "Stand-ins").
//!
//! A face stops a segment that crosses its plane from the side its normal
//! faces to the other (`dot(n, start − a) > 0`, `dot(n, end − a) ≤ 0`) at a
//! point inside it or on its edge; a batch flagged 0x0002 is tested the
//! other way too when the forward test does not cross.

use crate::body::{Body, MotionFlags, PhysicalState};
use crate::contact::TouchingPairs;
use crate::ground::GroundFaces;
use crate::motion::{StepStart, WALKABLE_NORMAL_Z};
use bevy::prelude::*;
use iron3d_formats::msh::{
    BATCH_DOORWAY, BATCH_TWO_SIDED, BATCH_UNTESTED, TRI_FLOOR, TRI_OPEN_DOOR, TRI_UNTESTED,
};
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::mission::{HitModel, NodeLife, NodeRef, PhysicalFace, PhysicalModel};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};
use std::collections::{BTreeMap, BTreeSet};

/// Grid cell size, m (seen from above).
const CELL: f32 = 8.0;

/// One face that may stop a segment, in the world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Wall {
    corners: [Vec3; 3],
    normal: Vec3,
    two_sided: bool,
    /// A floor: walkers pass it (they stand on it).
    floor: bool,
    owner: OriginalObjectId,
}

impl Wall {
    /// Whether the segment `start → end` crosses the face.
    fn stops(&self, start: Vec3, end: Vec3) -> bool {
        let a = self.corners[0];
        let (d0, d1) = (self.normal.dot(start - a), self.normal.dot(end - a));
        let forward = d0 > 0.0 && d1 <= 0.0;
        let backward = self.two_sided && d0 < 0.0 && d1 >= 0.0;
        if !(forward || backward) {
            return false;
        }
        let p = start + (end - start) * (d0 / (d0 - d1));
        // The corners wind counter-clockwise about the normal.
        (0..3).all(|k| {
            let (u, v) = (self.corners[k], self.corners[(k + 1) % 3]);
            (v - u).cross(p - u).dot(self.normal) >= 0.0
        })
    }
}

/// What a face of a physical model is to Control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FaceRole {
    /// Never tested: untested flags, doorways, open doors.
    Passable,
    /// Ground that flyers cannot pass.
    Floor,
    /// Stops every mover.
    Wall,
}

/// The role of a face by its batch word and triangle flags.
fn face_role(face: &PhysicalFace) -> FaceRole {
    let passable_batch = face.batch_word & (BATCH_UNTESTED | BATCH_DOORWAY) != 0;
    let passable_triangle = face.tri_flags & (TRI_UNTESTED | TRI_OPEN_DOOR) != 0;
    if passable_batch || passable_triangle {
        FaceRole::Passable
    } else if face.tri_flags & TRI_FLOOR != 0 {
        FaceRole::Floor
    } else {
        FaceRole::Wall
    }
}

/// The faces of every static object that may stop a mover, in the world
/// frame, with a grid over them.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BuildingFaces {
    walls: Vec<Wall>,
    /// Per cell (x, z), the walls whose box touches it, in order.
    cells: BTreeMap<(i32, i32), Vec<u32>>,
    /// The destroyed nodes whose faces were left out, per object.
    gone: BTreeMap<OriginalObjectId, BTreeSet<NodeRef>>,
}

/// The gone nodes of a static body ([`HitNode::gone`]): their faces
/// neither stop movers nor are stood on. Only a node with life can go.
///
/// [`HitNode::gone`]: iron3d_world::mission::HitNode::gone
// STAND-IN: a destroyed node's faces stop no mover and are not stood on,
// the physical model being the visible one (no layout of the original's
// own physical model is proven, tome VI `LoadPhysicalModel`); settled by
// driving a retail unit through a shot-off building part.
fn gone_nodes(life: Option<&NodeLife>, hits: Option<&HitModel>) -> BTreeSet<NodeRef> {
    let (Some(life), Some(hits)) = (life, hits) else {
        return BTreeSet::new();
    };
    hits.nodes
        .iter()
        .filter(|n| n.gone(life.of(n.node)))
        .map(|n| n.node)
        .collect()
}

fn cell_of(p: Vec3) -> (i32, i32) {
    ((p.x / CELL).floor() as i32, (p.z / CELL).floor() as i32)
}

impl BuildingFaces {
    fn push(&mut self, wall: Wall) {
        let index = self.walls.len() as u32;
        let (lo, hi) = wall
            .corners
            .iter()
            .fold((wall.corners[0], wall.corners[0]), |(lo, hi), &c| {
                (lo.min(c), hi.max(c))
            });
        let ((x0, z0), (x1, z1)) = (cell_of(lo), cell_of(hi));
        for x in x0..=x1 {
            for z in z0..=z1 {
                self.cells.entry((x, z)).or_default().push(index);
            }
        }
        self.walls.push(wall);
    }

    /// How many faces may stop a mover.
    pub fn len(&self) -> usize {
        self.walls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.walls.is_empty()
    }

    /// The owner of the first face (in the order they were gathered) that
    /// stops the segment `start → end` of a mover (a walker passes floors).
    pub fn stop(&self, start: Vec3, end: Vec3, walker: bool) -> Option<OriginalObjectId> {
        let stops = |&w: &u32| {
            let wall = &self.walls[w as usize];
            !(walker && wall.floor) && wall.stops(start, end)
        };
        let (first, last) = (cell_of(start.min(end)), cell_of(start.max(end)));
        let hit = if first == last {
            // A step inside one cell (the usual case): its list is in order.
            self.cells.get(&first)?.iter().copied().find(|w| stops(w))
        } else {
            let ((x0, z0), (x1, z1)) = (first, last);
            let mut candidates: Vec<u32> = (x0..=x1)
                .flat_map(|x| (z0..=z1).map(move |z| (x, z)))
                .filter_map(|c| self.cells.get(&c))
                .flatten()
                .copied()
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            candidates.into_iter().find(stops)
        };
        hit.map(|w| self.walls[w as usize].owner)
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_mission_resource::<BuildingFaces>()
        .add_systems(
            FixedUpdate,
            gather_buildings
                .after(crate::terrain::build_terrain)
                .in_set(iron3d_schedules::SimStep::Attach),
        )
        .add_systems(
            FixedUpdate,
            stop_at_buildings
                .after(crate::contact::push_apart)
                .before(crate::motion::keep_inside_map)
                .in_set(iron3d_schedules::SimStep::Resolve),
        );
}

type StaticBody<'a> = (
    &'a PhysicalModel,
    &'a Transform,
    Option<&'a NodeLife>,
    Option<&'a HitModel>,
);

/// Gathers every static object's walls and floors, in id order, whenever a
/// physical model comes or goes, a node of one is destroyed (or mended) or
/// the ground is rebuilt: walls into [`BuildingFaces`], walkable floors
/// into the ground; a destroyed node's faces are left out.
fn gather_buildings(
    registry: Res<ObjectRegistry>,
    models: Query<StaticBody>,
    added: Query<(), Added<PhysicalModel>>,
    damaged: Query<(&OriginalObjectId, StaticBody), Changed<NodeLife>>,
    mut removed: RemovedComponents<PhysicalModel>,
    mut buildings: ResMut<BuildingFaces>,
    ground: Option<ResMut<GroundFaces>>,
) {
    let gone = removed.read().count() > 0;
    let new_ground = ground.as_ref().is_some_and(|g| g.is_added());
    let lost = damaged.iter().any(|(id, (_, _, life, hits))| {
        let now = gone_nodes(life, hits);
        buildings
            .gone
            .get(id)
            .map_or(!now.is_empty(), |was| *was != now)
    });
    if added.is_empty() && !gone && !new_ground && !lost {
        return;
    }
    let mut walls = BuildingFaces::default();
    let mut floors = Vec::new();
    for (id, entity) in registry.iter() {
        let Ok((model, transform, life, hits)) = models.get(entity) else {
            continue;
        };
        let destroyed = gone_nodes(life, hits);
        for face in &model.0 {
            let role = face_role(face);
            if role == FaceRole::Passable || destroyed.contains(&face.node) {
                continue;
            }
            let corners = face.corners.map(|c| transform.transform_point(c));
            let normal = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
            let Some(normal) = normal.try_normalize() else {
                continue;
            };
            let floor = role == FaceRole::Floor;
            if floor && normal.y.abs() > WALKABLE_NORMAL_Z {
                floors.push(corners);
            }
            walls.push(Wall {
                corners,
                normal,
                two_sided: face.batch_word & BATCH_TWO_SIDED != 0,
                floor,
                owner: id,
            });
        }
        if !destroyed.is_empty() {
            walls.gone.insert(id, destroyed);
        }
    }
    *buildings = walls;
    if let Some(mut ground) = ground {
        ground.set_floors(&floors);
    }
}

/// Step 6, buildings: a mover whose centre segment this step crosses a
/// building's face goes back to where the step began, loses its velocity
/// along the step it could not take (it does not move, so it does not run
/// on at top speed against the wall) and touches that building.
fn stop_at_buildings(
    registry: Res<ObjectRegistry>,
    buildings: Res<BuildingFaces>,
    mut movers: Query<
        (&mut Transform, &mut PhysicalState, &Body, &StepStart),
        Without<PendingDelete>,
    >,
    mut touching: ResMut<TouchingPairs>,
) {
    if buildings.is_empty() {
        return;
    }
    for (id, entity) in registry.iter() {
        let Ok((mut transform, mut state, body, start)) = movers.get_mut(entity) else {
            continue;
        };
        let offset = transform.rotation * body.centre;
        let (from, to) = (start.start + offset, transform.translation + offset);
        if from == to {
            continue;
        }
        if let Some(owner) = buildings.stop(from, to, body.holds_ground) {
            transform.translation = start.start;
            // STAND-IN: the velocity into the wall is lost (reference
            // msh.md says nothing of velocity; kept whole, a walker against
            // a wall read its top speed); settled by a retail unit's speed
            // readout while it pushes into a building.
            let along = (to - from).normalize_or_zero();
            let into = state.linear_velocity.dot(along).max(0.0);
            state.linear_velocity -= along * into;
            state.flags.set(MotionFlags::BLOCKED, true);
            touching.now.insert((id.min(owner), id.max(owner)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(batch_word: u32, tri_flags: u16) -> PhysicalFace {
        PhysicalFace {
            corners: [Vec3::ZERO; 3],
            batch_word,
            tri_flags,
            node: NodeRef::default(),
        }
    }

    #[test]
    fn a_faces_flags_make_it_a_wall_a_floor_or_passable() {
        assert_eq!(face_role(&face(0, 0)), FaceRole::Wall);
        assert_eq!(face_role(&face(BATCH_TWO_SIDED, 0)), FaceRole::Wall);
        assert_eq!(face_role(&face(0, TRI_FLOOR)), FaceRole::Floor);
        for (batch, tri) in [
            (BATCH_DOORWAY, 0),
            (BATCH_UNTESTED, 0),
            (0, TRI_OPEN_DOOR),
            (0, 0x0004),
            (0, 0x0020),
            (BATCH_DOORWAY, TRI_FLOOR),
        ] {
            assert_eq!(face_role(&face(batch, tri)), FaceRole::Passable);
        }
    }

    /// A wall in the plane x = 0 facing +x, from z −1 to 1, y 0 to 2.
    fn wall(two_sided: bool, floor: bool) -> BuildingFaces {
        let mut faces = BuildingFaces::default();
        let id = OriginalObjectId(7);
        for corners in [
            [
                Vec3::new(0.0, 0.0, -1.0),
                Vec3::new(0.0, 2.0, 1.0),
                Vec3::new(0.0, 0.0, 1.0),
            ],
            [
                Vec3::new(0.0, 0.0, -1.0),
                Vec3::new(0.0, 2.0, -1.0),
                Vec3::new(0.0, 2.0, 1.0),
            ],
        ] {
            let normal = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
            faces.push(Wall {
                corners,
                normal: normal.normalize(),
                two_sided,
                floor,
                owner: id,
            });
        }
        faces
    }

    #[test]
    fn a_wall_stops_a_segment_crossing_it_from_its_front() {
        let faces = wall(false, false);
        assert!(faces.walls[0].normal.x > 0.0, "facing +x");
        let (front, back) = (Vec3::new(0.5, 1.0, 0.0), Vec3::new(-0.5, 1.0, 0.0));
        let id = Some(OriginalObjectId(7));
        assert_eq!(faces.stop(front, back, true), id);
        // Ending on the plane counts; the way back does not cross.
        assert_eq!(faces.stop(front, Vec3::new(0.0, 1.0, 0.0), true), id);
        assert_eq!(faces.stop(back, front, true), None);
        // Past its edge, above it, short of it: nothing.
        assert_eq!(
            faces.stop(front + Vec3::Z * 2.0, back + Vec3::Z * 2.0, true),
            None
        );
        assert_eq!(
            faces.stop(front + Vec3::Y * 2.5, back + Vec3::Y * 2.5, true),
            None
        );
        assert_eq!(faces.stop(front, Vec3::new(0.1, 1.0, 0.0), true), None);
        // Two-sided, it stops the way back too.
        assert_eq!(wall(true, false).stop(back, front, true), id);
    }

    #[test]
    fn a_floor_stops_flyers_but_not_walkers() {
        let faces = wall(false, true);
        let (front, back) = (Vec3::new(0.5, 1.0, 0.0), Vec3::new(-0.5, 1.0, 0.0));
        assert_eq!(faces.stop(front, back, true), None);
        assert_eq!(faces.stop(front, back, false), Some(OriginalObjectId(7)));
    }
}
