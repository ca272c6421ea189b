//! CPU surface queries over a `Land.msh`: height and normal at a ground
//! point, and the first face a ray hits. A uniform grid over the ground plane
//! (X/Y, Z up) lists the faces whose footprint overlaps each cell, so a query
//! visits only the faces of one cell (a ray: of the cells its footprint
//! crosses, nearest first), never the whole face list.

use super::geom::{cross3, dot3, normalize3, orient, sub3, widen3};
use super::land_msh::LandMsh;
use super::mask;

/// Which faces a query may return, by the full face mask: every `required`
/// bit set and no `forbidden` bit set (the runtime's filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FaceFilter {
    pub required: u32,
    pub forbidden: u32,
}

impl FaceFilter {
    /// Every face.
    pub const ANY: FaceFilter = FaceFilter {
        required: 0,
        forbidden: 0,
    };
}

/// A point on the surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceHit {
    /// The face (index into type 21).
    pub face: u32,
    /// The hit point.
    pub point: [f32; 3],
    /// Unit normal of the face's plane, pointing up (z >= 0).
    pub normal: [f32; 3],
    /// Ray parameter (`origin + t * dir`); 0 for a height query.
    pub t: f32,
}

/// The grid-accelerated surface of a set of faces.
#[derive(Debug, Clone)]
pub struct TerrainSurface {
    positions: Vec<[f32; 3]>,
    /// Per query face: vertex indices, mask, original face index.
    tris: Vec<([u32; 3], u32, u32)>,
    origin: [f64; 2],
    cell: [f64; 2],
    dims: [usize; 2],
    /// CSR lists: faces of cell `c` are `items[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

/// Aimed-for average number of faces per grid cell.
const FACES_PER_CELL: f64 = 2.0;
/// Average grid cells one face may cover before the grid is coarsened.
const MAX_CELLS_PER_FACE: u64 = 16;
/// Largest grid side.
const MAX_CELLS_PER_SIDE: usize = 2048;
/// Tolerance of the point-in-triangle test, relative to the triangle size.
const EDGE_EPSILON: f64 = 1e-9;

impl TerrainSurface {
    /// The surface of LOD 0 (the authored mesh of retail maps); every face
    /// when the node table selects none.
    pub fn build_lod0(land: &LandMsh) -> TerrainSurface {
        let faces = land.lod_faces(0);
        if faces.is_empty() {
            Self::build(land, 0..land.faces.len() as u32)
        } else {
            Self::build(land, faces)
        }
    }

    /// The surface of the given faces (indices into `land.faces`; indices out
    /// of range are skipped).
    pub fn build(land: &LandMsh, faces: impl IntoIterator<Item = u32>) -> TerrainSurface {
        let tris: Vec<([u32; 3], u32, u32)> = faces
            .into_iter()
            .filter_map(|f| {
                let face = land.faces.get(f as usize)?;
                Some((face.vertices.map(u32::from), face.flags, f))
            })
            .collect();
        let mut surface = TerrainSurface {
            positions: land.positions.clone(),
            tris,
            origin: [0.0; 2],
            cell: [1.0; 2],
            dims: [0, 0],
            starts: vec![0],
            items: Vec::new(),
        };
        surface.build_grid();
        surface
    }

    /// Number of faces the surface holds.
    pub fn face_count(&self) -> usize {
        self.tris.len()
    }

    /// Grid size (cells along X, Y).
    pub fn grid_dims(&self) -> [usize; 2] {
        self.dims
    }

    fn vertex(&self, i: u32) -> [f64; 3] {
        widen3(self.positions[i as usize])
    }

    fn footprint(&self, t: usize) -> ([f64; 2], [f64; 2]) {
        let v = self.tris[t].0.map(|i| self.vertex(i));
        let lo = [0, 1].map(|k| v[0][k].min(v[1][k]).min(v[2][k]));
        let hi = [0, 1].map(|k| v[0][k].max(v[1][k]).max(v[2][k]));
        (lo, hi)
    }

    /// Sizes the grid from the footprint of all faces and fills the cell
    /// lists by counting sort (two passes, no per-cell vectors).
    fn build_grid(&mut self) {
        let boxes: Vec<_> = (0..self.tris.len()).map(|t| self.footprint(t)).collect();
        let Some(&(mut lo, mut hi)) = boxes.first() else {
            return;
        };
        for (l, h) in &boxes {
            lo = [lo[0].min(l[0]), lo[1].min(l[1])];
            hi = [hi[0].max(h[0]), hi[1].max(h[1])];
        }
        let extent = [(hi[0] - lo[0]).max(1e-6), (hi[1] - lo[1]).max(1e-6)];
        let target = (boxes.len() as f64 / FACES_PER_CELL).max(1.0);
        let side = (extent[0] * extent[1] / target).sqrt();
        let mut dims =
            [0, 1].map(|k| ((extent[k] / side).ceil() as usize).clamp(1, MAX_CELLS_PER_SIDE));
        self.origin = lo;
        // Faces with huge footprints (hostile input) could make the lists
        // quadratic: coarsen the grid until they fit a linear budget.
        let budget = (boxes.len() as u64 + 64) * MAX_CELLS_PER_FACE;
        loop {
            self.cell = [extent[0] / dims[0] as f64, extent[1] / dims[1] as f64];
            self.dims = dims;
            let total: u64 = boxes.iter().map(|b| self.cells_covered(b)).sum();
            if total <= budget || dims == [1, 1] {
                break;
            }
            dims = dims.map(|d| d.div_ceil(2));
        }

        let mut counts = vec![0u32; dims[0] * dims[1] + 1];
        for b in &boxes {
            self.for_cells(b, |c| counts[c + 1] += 1);
        }
        for c in 1..counts.len() {
            counts[c] += counts[c - 1];
        }
        let mut fill = counts.clone();
        let mut items = vec![0u32; counts[counts.len() - 1] as usize];
        for (t, b) in boxes.iter().enumerate() {
            self.for_cells(b, |c| {
                items[fill[c] as usize] = t as u32;
                fill[c] += 1;
            });
        }
        self.starts = counts;
        self.items = items;
    }

    fn cells_covered(&self, (lo, hi): &([f64; 2], [f64; 2])) -> u64 {
        let (x0, y0) = self.cell_of([lo[0], lo[1]]);
        let (x1, y1) = self.cell_of([hi[0], hi[1]]);
        ((x1 - x0 + 1) * (y1 - y0 + 1)) as u64
    }

    fn for_cells(&self, (lo, hi): &([f64; 2], [f64; 2]), mut f: impl FnMut(usize)) {
        let (x0, y0) = self.cell_of([lo[0], lo[1]]);
        let (x1, y1) = self.cell_of([hi[0], hi[1]]);
        for x in x0..=x1 {
            for y in y0..=y1 {
                f(x * self.dims[1] + y);
            }
        }
    }

    /// The cell of a ground point, clamped to the grid.
    fn cell_of(&self, p: [f64; 2]) -> (usize, usize) {
        let k = |i: usize| {
            let v = ((p[i] - self.origin[i]) / self.cell[i]).floor();
            if v.is_nan() || v < 0.0 {
                0
            } else {
                (v as usize).min(self.dims[i] - 1)
            }
        };
        (k(0), k(1))
    }

    fn in_grid(&self, p: [f64; 2]) -> bool {
        (0..2).all(|k| {
            p[k] >= self.origin[k] && p[k] <= self.origin[k] + self.cell[k] * self.dims[k] as f64
        })
    }

    fn cell_faces(&self, x: usize, y: usize) -> &[u32] {
        let c = x * self.dims[1] + y;
        &self.items[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// The faces listed in cell (x, y) that pass `filter`, with their
    /// vertices.
    fn cell_candidates(
        &self,
        x: usize,
        y: usize,
        filter: FaceFilter,
    ) -> impl Iterator<Item = (u32, [[f64; 3]; 3])> + '_ {
        self.cell_faces(x, y).iter().filter_map(move |&t| {
            let (idx, flags, _) = self.tris[t as usize];
            mask::matches(flags, filter.required, filter.forbidden)
                .then(|| (t, idx.map(|i| self.vertex(i))))
        })
    }

    /// The hit on triangle `t` at `point`, ray parameter `t_param`.
    fn hit(&self, t: u32, point: [f32; 3], t_param: f32) -> SurfaceHit {
        SurfaceHit {
            face: self.tris[t as usize].2,
            point,
            normal: self.plane_normal(t),
            t: t_param,
        }
    }

    fn plane_normal(&self, t: u32) -> [f32; 3] {
        let v = self.tris[t as usize].0.map(|i| self.vertex(i));
        let n = normalize3(cross3(sub3(v[1], v[0]), sub3(v[2], v[0]))).unwrap_or([0.0, 0.0, 1.0]);
        let up = if n[2] < 0.0 { -1.0 } else { 1.0 };
        n.map(|c| (c * up) as f32)
    }

    /// The surface at ground point (x, y): the highest face of the filter
    /// whose footprint contains the point (water lies over its bed), `None`
    /// off the surface.
    pub fn height_at(&self, x: f32, y: f32, filter: FaceFilter) -> Option<SurfaceHit> {
        let p = [x as f64, y as f64];
        if self.dims[0] == 0 || !self.in_grid(p) {
            return None;
        }
        let (cx, cy) = self.cell_of(p);
        let mut best: Option<(f64, u32)> = None;
        for (t, v) in self.cell_candidates(cx, cy, filter) {
            let Some(z) = height_in_triangle(v, p) else {
                continue;
            };
            if best.is_none_or(|(bz, _)| z > bz) {
                best = Some((z, t));
            }
        }
        best.map(|(z, t)| self.hit(t, [x, y, z as f32], 0.0))
    }

    /// Height (Z) at ground point (x, y) over every face.
    pub fn height(&self, x: f32, y: f32) -> Option<f32> {
        self.height_at(x, y, FaceFilter::ANY).map(|h| h.point[2])
    }

    /// Unit surface normal at ground point (x, y) over every face.
    pub fn normal(&self, x: f32, y: f32) -> Option<[f32; 3]> {
        self.height_at(x, y, FaceFilter::ANY).map(|h| h.normal)
    }

    /// The first face the ray `origin + t * dir`, `0 <= t <= max_t`, hits
    /// (either side). Walks the grid cells under the ray nearest first.
    pub fn raycast(
        &self,
        origin: [f32; 3],
        dir: [f32; 3],
        max_t: f32,
        filter: FaceFilter,
    ) -> Option<SurfaceHit> {
        if self.dims[0] == 0 || max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        let o = widen3(origin);
        let d = widen3(dir);
        let (t_in, t_out) = self.clip_to_grid(o, d, max_t as f64)?;
        let start = [o[0] + d[0] * t_in, o[1] + d[1] * t_in];
        let (mut cx, mut cy) = self.cell_of(start);
        // Amanatides-Woo traversal of the ground-plane grid.
        let step = [d[0], d[1]].map(|v| {
            if v > 0.0 {
                1i64
            } else if v < 0.0 {
                -1
            } else {
                0
            }
        });
        let next_boundary = |k: usize, c: usize| -> f64 {
            if step[k] == 0 {
                return f64::INFINITY;
            }
            let edge =
                self.origin[k] + self.cell[k] * (c as f64 + if step[k] > 0 { 1.0 } else { 0.0 });
            (edge - o[k]) / d[k]
        };
        let delta = [0, 1].map(|k| {
            if step[k] == 0 {
                f64::INFINITY
            } else {
                self.cell[k] / d[k].abs()
            }
        });
        let mut t_next = [next_boundary(0, cx), next_boundary(1, cy)];
        let mut t_cell_in = t_in;
        for _ in 0..self.dims[0] + self.dims[1] + 2 {
            let t_cell_out = t_next[0].min(t_next[1]).min(t_out);
            let slack = 1e-7 * (1.0 + t_cell_out.abs());
            let mut best: Option<(f64, u32)> = None;
            for (t, v) in self.cell_candidates(cx, cy, filter) {
                let Some(hit_t) = ray_triangle(o, d, v) else {
                    continue;
                };
                let in_range = hit_t >= t_cell_in - slack
                    && hit_t <= t_cell_out + slack
                    && hit_t <= max_t as f64;
                if in_range && hit_t >= 0.0 && best.is_none_or(|(bt, _)| hit_t < bt) {
                    best = Some((hit_t, t));
                }
            }
            if let Some((t, tri)) = best {
                let point = [0, 1, 2].map(|k| (o[k] + d[k] * t) as f32);
                return Some(self.hit(tri, point, t as f32));
            }
            if t_cell_out >= t_out {
                return None;
            }
            t_cell_in = t_cell_out;
            let k = if t_next[0] <= t_next[1] { 0 } else { 1 };
            let c = if k == 0 { &mut cx } else { &mut cy };
            let moved = *c as i64 + step[k];
            if moved < 0 || moved >= self.dims[k] as i64 {
                return None;
            }
            *c = moved as usize;
            t_next[k] += delta[k];
        }
        None
    }

    /// The parameter range in which the ray is over the grid, clipped to
    /// `[0, max_t]`.
    fn clip_to_grid(&self, o: [f64; 3], d: [f64; 3], max_t: f64) -> Option<(f64, f64)> {
        let (mut t0, mut t1) = (0.0f64, max_t);
        for k in 0..2 {
            let lo = self.origin[k];
            let hi = lo + self.cell[k] * self.dims[k] as f64;
            if d[k] == 0.0 {
                if o[k] < lo || o[k] > hi {
                    return None;
                }
                continue;
            }
            let (a, b) = ((lo - o[k]) / d[k], (hi - o[k]) / d[k]);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// Height of the triangle's plane at ground point `p`, if `p` lies in the
/// triangle's footprint (edges included); `None` for vertical triangles.
fn height_in_triangle(v: [[f64; 3]; 3], p: [f64; 2]) -> Option<f64> {
    let g = v.map(|a| [a[0], a[1]]);
    let area = orient(g[0], g[1], g[2]);
    if area == 0.0 {
        return None;
    }
    let w0 = orient(g[1], g[2], p) / area;
    let w1 = orient(g[2], g[0], p) / area;
    let w2 = orient(g[0], g[1], p) / area;
    let eps = -EDGE_EPSILON;
    (w0 >= eps && w1 >= eps && w2 >= eps).then(|| w0 * v[0][2] + w1 * v[1][2] + w2 * v[2][2])
}

/// Moller-Trumbore, both sides: the ray parameter of the hit, if any.
fn ray_triangle(o: [f64; 3], d: [f64; 3], v: [[f64; 3]; 3]) -> Option<f64> {
    let e1 = sub3(v[1], v[0]);
    let e2 = sub3(v[2], v[0]);
    let p = cross3(d, e2);
    let det = dot3(e1, p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub3(o, v[0]);
    let u = dot3(s, p) * inv;
    if !(-EDGE_EPSILON..=1.0 + EDGE_EPSILON).contains(&u) {
        return None;
    }
    let q = cross3(s, e1);
    let w = dot3(d, q) * inv;
    if w < -EDGE_EPSILON || u + w > 1.0 + EDGE_EPSILON {
        return None;
    }
    Some(dot3(e2, q) * inv)
}
