//! The ground as a unit walks it (openparkan `docs/24-motion.md` "Finding
//! the ground"; GAMEPLAY §2 "Ground contact"): a ground-bound body keeps
//! the face it stands on and, as it moves, walks from that face across the
//! shared edges to the face under its new place, at most 24 faces; only a
//! body that has no face (falling, just placed) or walks off its reach
//! searches the whole ground, through a grid of the faces over the map.
//!
//! The faces are `Land.msh`'s level-0 triangles in the world frame, with
//! the neighbours the file links across their edges.

use crate::terrain::GroundMesh;
use bevy::prelude::*;

/// Faces a body may walk across in one query.
const WALK_LIMIT: usize = 24;
/// Grid cells along the longer side of the map.
const GRID_CELLS: f32 = 256.0;
/// No neighbour across an edge.
pub(crate) const NONE: u32 = u32::MAX;

/// The terrain under a point: the height of the face found there, its
/// normal (world frame, facing up) and its index.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroundHit {
    pub height: f32,
    pub normal: Vec3,
    pub face: u32,
}

/// One ground face.
#[derive(Debug, Clone, PartialEq)]
struct Face {
    corners: [Vec3; 3],
    /// Facing up (y ≥ 0).
    normal: Vec3,
    /// The face across edge `k` (corners `k`, `k + 1`), or [`NONE`].
    neighbours: [u32; 3],
}

impl Face {
    fn new(corners: [Vec3; 3], neighbours: [u32; 3]) -> Self {
        let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
        let n = n.normalize_or_zero();
        Face {
            corners,
            normal: if n.y < 0.0 { -n } else { n },
            neighbours,
        }
    }

    /// The face's height at `(x, z)` when the point lies inside it seen
    /// from above; otherwise the edge it lies beyond (the farthest out).
    fn locate(&self, x: f32, z: f32) -> Result<f32, usize> {
        let [a, b, c] = self.corners;
        let area = cross(a, b, c);
        if area == 0.0 {
            // Seen edge-on from above: it holds no point; leave by edge 0.
            return Err(0);
        }
        let p = Vec3::new(x, 0.0, z);
        let sides = [cross(a, b, p), cross(b, c, p), cross(c, a, p)].map(|s| s / area);
        match (0..3)
            .filter(|&k| sides[k] < 0.0)
            .min_by(|&i, &j| sides[i].total_cmp(&sides[j]))
        {
            Some(edge) => Err(edge),
            // Barycentric weights of a, b, c: the side opposite each corner.
            None => Ok(sides[1] * a.y + sides[2] * b.y + sides[0] * c.y),
        }
    }
}

/// Where the segment from `from` to `to` crosses the triangle (either
/// side), as a fraction of the way (Möller–Trumbore).
pub fn crosses(corners: &[Vec3; 3], from: Vec3, to: Vec3) -> Option<f32> {
    let [a, b, c] = *corners;
    let d = to - from;
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = from - a;
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// Twice the signed area of `a, b, c` seen from above (the XZ plane).
fn cross(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x)
}

/// Ground queries of the mission's faces (none before the terrain is built).
#[derive(bevy::ecs::system::SystemParam)]
pub struct Ground<'w> {
    faces: Option<Res<'w, GroundFaces>>,
}

impl Ground<'_> {
    /// [`GroundFaces::below`].
    pub fn below(&self, from: Vec3, reach: f32) -> Option<GroundHit> {
        self.faces.as_ref()?.below(from, reach)
    }

    /// [`GroundFaces::walk`].
    pub fn walk(&self, face: Option<u32>, from: Vec3, reach: f32) -> Option<GroundHit> {
        self.faces.as_ref()?.walk(face, from, reach)
    }
}

/// The mission's ground faces, their neighbours and the search grid: the
/// land's faces, then the floors standing on it (buildings' walkable floor
/// faces, with no neighbours).
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct GroundFaces {
    faces: Vec<Face>,
    /// How many of `faces` are the land's.
    terrain: usize,
    /// Grid origin (x, z) and cell size.
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    /// Per cell, the faces whose box (seen from above) touches it.
    cells: Vec<Vec<u32>>,
}

impl GroundFaces {
    /// The ground of a land's level-0 faces.
    pub(crate) fn new(mesh: &GroundMesh) -> Self {
        let vertices = &mesh.vertices;
        let faces: Vec<Face> = mesh
            .triangles
            .iter()
            .zip(&mesh.neighbours)
            .map(|(t, &neighbours)| Face::new(t.map(|i| vertices[i as usize]), neighbours))
            .collect();
        let (lo, hi) = vertices.iter().fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), v| (lo.min(v.xz()), hi.max(v.xz())),
        );
        let size = (hi - lo).max(Vec2::ONE);
        let cell = (size.max_element() / GRID_CELLS).max(1.0);
        let (columns, rows) = ((size.x / cell) as usize + 1, (size.y / cell) as usize + 1);
        let mut grid = Self {
            faces: Vec::new(),
            terrain: 0,
            origin: lo,
            cell,
            columns,
            rows,
            cells: vec![Vec::new(); columns * rows],
        };
        for face in faces {
            grid.push(face);
        }
        grid.terrain = grid.faces.len();
        grid
    }

    /// Adds a face to the list and to every cell its box (seen from above)
    /// touches.
    fn push(&mut self, face: Face) {
        let f = self.faces.len() as u32;
        let xz = face.corners.map(|c| c.xz());
        let (a, b) = (xz[0].min(xz[1]).min(xz[2]), xz[0].max(xz[1]).max(xz[2]));
        let ([c0, r0], [c1, r1]) = (self.cell_of(a), self.cell_of(b));
        for r in r0..=r1 {
            for c in c0..=c1 {
                self.cells[r * self.columns + c].push(f);
            }
        }
        self.faces.push(face);
    }

    /// Replaces the floors standing on the land (world frame).
    pub(crate) fn set_floors(&mut self, floors: &[[Vec3; 3]]) {
        let terrain = self.terrain as u32;
        for cell in &mut self.cells {
            cell.retain(|&f| f < terrain);
        }
        self.faces.truncate(self.terrain);
        for &corners in floors {
            self.push(Face::new(corners, [NONE; 3]));
        }
    }

    /// How many floors stand on the land.
    pub fn floors(&self) -> usize {
        self.faces.len() - self.terrain
    }

    /// A floor above `hit` under `from`, within `reach` below it: the
    /// highest (the lower index on a tie).
    fn floor_above(&self, hit: GroundHit, from: Vec3, reach: f32) -> GroundHit {
        if self.faces.len() == self.terrain {
            return hit;
        }
        let [c, r] = self.cell_of(from.xz());
        self.cells[r * self.columns + c]
            .iter()
            .filter(|&&f| f as usize >= self.terrain)
            .filter_map(|&f| {
                let height = self.faces[f as usize].locate(from.x, from.z).ok()?;
                let within = height > hit.height && height <= from.y && from.y - height <= reach;
                within.then_some((f, height))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map_or(hit, |(f, height)| self.hit(f, height))
    }

    /// The cell of `p` (x, z), held to the grid.
    fn cell_of(&self, p: Vec2) -> [usize; 2] {
        let at = ((p - self.origin) / self.cell).max(Vec2::ZERO);
        [
            (at.x as usize).min(self.columns - 1),
            (at.y as usize).min(self.rows - 1),
        ]
    }

    fn hit(&self, face: u32, height: f32) -> GroundHit {
        GroundHit {
            height,
            normal: self.faces[face as usize].normal,
            face,
        }
    }

    /// The first face a vertical ray from `from` down meets within
    /// `reach`: the highest face under the point not above it (the lower
    /// index on a tie).
    pub fn below(&self, from: Vec3, reach: f32) -> Option<GroundHit> {
        let [c, r] = self.cell_of(from.xz());
        self.cells[r * self.columns + c]
            .iter()
            .filter_map(|&f| {
                let height = self.faces[f as usize].locate(from.x, from.z).ok()?;
                (height <= from.y && from.y - height <= reach).then_some((f, height))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|(f, height)| self.hit(f, height))
    }

    /// The first land face the segment from `from` to `to` crosses (either
    /// side): the fraction of the way along it and the face. The cells the
    /// segment passes over, seen from above, are walked in order, so the
    /// search stops at the first cell holding a crossing.
    pub fn segment(&self, from: Vec3, to: Vec3) -> Option<(f32, u32)> {
        let terrain = self.terrain as u32;
        let mut best: Option<(f32, u32)> = None;
        for cell in self.cells_along(from.xz(), to.xz()) {
            for &f in self.cells[cell].iter().filter(|&&f| f < terrain) {
                let Some(t) = crosses(&self.faces[f as usize].corners, from, to) else {
                    continue;
                };
                if best.is_none_or(|(b, bf)| t < b || (t == b && f < bf)) {
                    best = Some((t, f));
                }
            }
            // A crossing found in this cell is nearer than any in a later
            // one only if it lies in this cell; faces span cells, so finish
            // the cell the crossing's point is in.
            if let Some((t, _)) = best {
                let at = from.lerp(to, t).xz();
                let [c, r] = self.cell_of(at);
                if r * self.columns + c == cell {
                    break;
                }
            }
        }
        best
    }

    /// The grid cells a segment passes over (x, z), in order from `a`.
    fn cells_along(&self, a: Vec2, b: Vec2) -> Vec<usize> {
        let [mut c, mut r] = self.cell_of(a);
        let [c1, r1] = self.cell_of(b);
        let d = b - a;
        let step = [d.x.signum() as isize, d.y.signum() as isize];
        let local = (a - self.origin) / self.cell;
        // Distance along the segment (0..1) to the next column and row
        // boundary, and between boundaries.
        let next = |p: f32, i: usize, s: isize, len: f32| {
            if s == 0 || len == 0.0 {
                f32::INFINITY
            } else {
                let edge = if s > 0 { i as f32 + 1.0 } else { i as f32 };
                ((edge - p) * self.cell / len).abs()
            }
        };
        let mut t = [
            next(local.x, c, step[0], d.x),
            next(local.y, r, step[1], d.y),
        ];
        let delta = [
            if d.x == 0.0 {
                f32::INFINITY
            } else {
                (self.cell / d.x).abs()
            },
            if d.y == 0.0 {
                f32::INFINITY
            } else {
                (self.cell / d.y).abs()
            },
        ];
        let mut cells = vec![r * self.columns + c];
        while (c, r) != (c1, r1) && cells.len() <= self.columns + self.rows {
            let axis = usize::from(t[1] < t[0]);
            let (i, limit) = if axis == 0 {
                (&mut c, self.columns)
            } else {
                (&mut r, self.rows)
            };
            let moved = i.checked_add_signed(step[axis]).filter(|&n| n < limit);
            let Some(moved) = moved else { break };
            *i = moved;
            t[axis] += delta[axis];
            cells.push(r * self.columns + c);
        }
        cells
    }

    /// The face under `from` reached by walking from `face` (at most 24
    /// faces), when it lies within `reach` below `from`, or a floor above
    /// it; otherwise [`GroundFaces::below`].
    pub fn walk(&self, face: Option<u32>, from: Vec3, reach: f32) -> Option<GroundHit> {
        let mut at = face.filter(|&f| (f as usize) < self.faces.len());
        for _ in 0..=WALK_LIMIT {
            let Some(f) = at else {
                break;
            };
            match self.faces[f as usize].locate(from.x, from.z) {
                Ok(height) if height <= from.y && from.y - height <= reach => {
                    return Some(self.floor_above(self.hit(f, height), from, reach));
                }
                Ok(_) => break,
                Err(edge) => {
                    let next = self.faces[f as usize].neighbours[edge];
                    at = (next != NONE).then_some(next);
                }
            }
        }
        self.below(from, reach)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::ground_mesh;
    use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield};

    /// A land of 4 × 4 unit squares, two faces each, rising 1 per x
    /// (world frame: x east, y up, z = −map y), its faces linked as the
    /// file links them.
    fn ramp() -> GroundFaces {
        let field = Heightfield {
            cols: 5,
            rows: 5,
            origin: [0.0, -4.0],
            spacing: 1.0,
            heights: (0..25).map(|i| (i % 5) as f32).collect(),
            block: 4,
        };
        GroundFaces::new(&ground_mesh(&land_from_heightfield(&field).unwrap()))
    }

    #[test]
    fn faces_take_the_files_neighbours() {
        let g = ramp();
        let linked = g
            .faces
            .iter()
            .flat_map(|f| f.neighbours)
            .filter(|&n| n != NONE)
            .count();
        // 16 diagonals and 2 × 3 × 4 square borders, each linked both ways.
        assert_eq!(linked, 2 * (16 + 24));
    }

    #[test]
    fn the_height_is_the_faces_plane_and_a_walk_finds_the_same_face() {
        let g = ramp();
        let hit = g.below(Vec3::new(2.25, 10.0, 1.5), 100.0).unwrap();
        assert!((hit.height - 2.25).abs() < 1e-5);
        assert!((hit.normal - Vec3::new(-1.0, 1.0, 0.0).normalize()).length() < 1e-5);
        // From the far corner the walk crosses faces to the same one.
        let start = g.below(Vec3::new(0.1, 10.0, 0.1), 100.0).unwrap();
        let walked = g
            .walk(Some(start.face), Vec3::new(2.25, 10.0, 1.5), 100.0)
            .unwrap();
        assert_eq!(walked, hit);
        // A point above its reach, or below the ground, finds nothing.
        assert_eq!(g.below(Vec3::new(2.25, 10.0, 1.5), 1.0), None);
        assert_eq!(g.below(Vec3::new(2.25, 2.0, 1.5), 100.0), None);
        // Off the ground: nothing, even walking.
        assert_eq!(
            g.walk(Some(start.face), Vec3::new(9.0, 10.0, 1.5), 100.0),
            None
        );
    }
}
