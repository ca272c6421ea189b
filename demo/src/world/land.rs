//! Generated maps: a heightfield from integer hash noise with fixed-point
//! interpolation (heights in 1/256 world units, so every machine computes the
//! same bits), hills, a lake and flat build sites joined by flat roads; then
//! `Land.msh` (water faces masked, ground layers: grass, rock on steep faces,
//! sand on the shore, water, and a second layer of earth on the sites and
//! gravel on the roads, faded out by the layer-1 weight across the blend
//! ring), the layer tables `Land1.wea` / `Land2.wea`, and `Land.map` (one
//! square areal per cell, walkable where the cell has no water face and no
//! face steeper than the walk limit, a lake where it has water).

use super::Rng;
use crate::assets::ground;
use iron3d_formats::error::Result;
use iron3d_formats::terrain::build::{
    ArealShape, Heightfield, land_from_heightfield, land_map_from_polygons,
};

/// The face-mask bits of a water face, as retail water faces carry them:
/// field 0 bit 0x008 and field 1 bit 0x02 (openparkan `docs/03-terrain.md`).
pub const WATER_MASK: u32 = iron3d_formats::terrain::land_msh::WATER_FIELD0
    | iron3d_formats::terrain::land_msh::WATER_FIELD1;
/// Walk limit as a slope ratio `rise / run <= NUM / DEN`: tan(0.6 rad), the
/// controller's slope cone (GAMEPLAY.md "Controller").
pub const WALK_SLOPE_NUM: i64 = 684;
pub const WALK_SLOPE_DEN: i64 = 1000;
/// The class word of a lake areal (retail lakes read 240 or 242: all of
/// [`iron3d_formats::terrain::land_map::LAKE_CLASS_BITS`] set).
pub const LAKE_CLASS: u32 = 240;
/// Heightfield quads per side of one areal.
pub const AREAL_QUADS: usize = 2;
/// Heightfield quads per side of one terrain slot.
const SLOT_QUADS: usize = 8;
/// World units between heightfield vertices.
pub const SPACING: i64 = 16;
/// Fixed-point scale of heights.
const FIX: i64 = 256;
/// Ground level of build sites and roads, and the water level (world units).
pub const GROUND: i64 = 20;
pub const WATER_LEVEL: i64 = GROUND - 3;
/// Half-width of the flat part of a road, radius of a flat site (units and
/// buildings stand within 3 vertices of its centre, on flat areals), and the
/// width of the blend ring around them (world units).
const ROAD_RADIUS: i64 = 56;
const SITE_RADIUS: i64 = 96;
const FLAT_BLEND: i64 = 40;
/// Lattice step (vertices) and amplitude (world units) of the base noise.
const NOISE_STEP: i64 = 8;
/// The mesa: vertices per side and height, m (a side face rises
/// `MESA_HEIGHT` over at most one quad's [`SPACING`], steeper than 80°).
const MESA_SIDE: usize = 2;
const MESA_HEIGHT: i64 = 120;
const NOISE_AMPLITUDE: i64 = 10;
/// The areal grid of every map (retail: always 128 x 128).
pub const AREAL_GRID: [u32; 2] = [128; 2];

/// One generated map: its heights and what the missions need to know.
#[derive(Debug, Clone)]
pub struct Field {
    /// Vertices per side.
    pub size: usize,
    /// World position of vertex (0, 0).
    pub origin: i64,
    /// Heights, fixed point (1/256 units), row-major `[y * size + x]`.
    pub heights: Vec<i64>,
    /// Flatness weight 0..=256 of each vertex (256 on sites and roads).
    pub flat: Vec<i64>,
    /// The layer-2 texture of each vertex's flat ground: [`ground::SITE`]
    /// where the site weight is at least the road weight, else
    /// [`ground::ROAD`].
    pub paving: Vec<u8>,
    /// Build sites, as vertex coordinates (flat, walkable, joined by roads).
    pub sites: Vec<[usize; 2]>,
    /// Per areal cell (row-major, `cells` per side): walkable or not.
    pub walkable: Vec<bool>,
    pub cells: usize,
}

impl Field {
    /// Generates the heights of a map of `size` x `size` vertices.
    pub fn generate(size: usize, rng: &mut Rng) -> Field {
        let quads = (size - 1) as i64;
        let origin = -quads * SPACING / 2;
        let noise_seed = rng.next_u32();
        // Sites near the four corners, jittered; roads 0-1, 1-2, 2-3.
        let corner = |fx: i64, fy: i64, rng: &mut Rng| {
            let jitter = |rng: &mut Rng| rng.below(quads as u64 / 10 + 1) as i64;
            [
                (quads * fx / 100 + jitter(rng)) as usize,
                (quads * fy / 100 + jitter(rng)) as usize,
            ]
        };
        let sites = vec![
            corner(15, 15, rng),
            corner(75, 18, rng),
            corner(72, 75, rng),
            corner(18, 72, rng),
        ];
        let world = |v: [usize; 2]| {
            [
                origin + v[0] as i64 * SPACING,
                origin + v[1] as i64 * SPACING,
            ]
        };
        let site_points: Vec<[i64; 2]> = sites.iter().map(|&s| world(s)).collect();
        let lake = [
            origin + quads * SPACING / 2 + rng.below(33) as i64 - 16,
            origin + quads * SPACING / 2 + rng.below(33) as i64 - 16,
        ];
        let lake_radius = quads * SPACING / 11;
        let hills: Vec<([i64; 2], i64, i64)> = (0..5)
            .map(|_| {
                let span = (quads * SPACING) as u64;
                let c = [
                    origin + rng.below(span) as i64,
                    origin + rng.below(span) as i64,
                ];
                (c, 40 + rng.below(41) as i64, 90 + rng.below(61) as i64)
            })
            .filter(|&(c, _, r)| dist2(c, lake) >= (r + lake_radius) * (r + lake_radius))
            .collect();

        let mut heights = Vec::with_capacity(size * size);
        let mut flat = Vec::with_capacity(size * size);
        let mut paving = Vec::with_capacity(size * size);
        for y in 0..size {
            for x in 0..size {
                let p = world([x, y]);
                let mut h =
                    GROUND * FIX + value_noise(noise_seed, x as i64, y as i64) * NOISE_AMPLITUDE;
                for &(c, height, r) in &hills {
                    h += bump(dist2(p, c), height * FIX, r);
                }
                let d2 = dist2(p, lake);
                if d2 < lake_radius * lake_radius {
                    // A bowl 20 units deep at the centre.
                    h -= 20 * FIX * (lake_radius * lake_radius - d2) / (lake_radius * lake_radius);
                }
                let site = site_points.iter().map(|&s| dist2(p, s)).min();
                let road = site_points
                    .windows(2)
                    .map(|w| segment_dist2(p, w[0], w[1]))
                    .min();
                let site = flat_weight(site.unwrap_or(i64::MAX), SITE_RADIUS);
                let road = flat_weight(road.unwrap_or(i64::MAX), ROAD_RADIUS);
                let t = site.max(road);
                heights.push((GROUND * FIX * t + h * (FIX - t)) / FIX);
                flat.push(t);
                paving.push(if site >= road {
                    ground::SITE
                } else {
                    ground::ROAD
                });
            }
        }
        // A mesa off the roads, between the first and the last site: its
        // sides rise more than tan 80° per quad, too steep to climb.
        let mesa = [quads as usize * 12 / 100, quads as usize * 45 / 100];
        for dy in 0..MESA_SIDE {
            for dx in 0..MESA_SIDE {
                heights[(mesa[1] + dy) * size + mesa[0] + dx] += MESA_HEIGHT * FIX;
            }
        }
        Field {
            size,
            origin,
            heights,
            flat,
            paving,
            sites,
            walkable: Vec::new(),
            cells: (size - 1) / AREAL_QUADS,
        }
        .with_walkable()
    }

    /// A map of `size` x `size` vertices at ground level everywhere, all
    /// of it a build site's paving, its one site at the centre.
    pub fn flat(size: usize) -> Field {
        let quads = (size - 1) as i64;
        let vertices = size * size;
        Field {
            size,
            origin: -quads * SPACING / 2,
            heights: vec![GROUND * FIX; vertices],
            flat: vec![FIX; vertices],
            paving: vec![ground::SITE; vertices],
            sites: vec![[size / 2; 2]],
            walkable: Vec::new(),
            cells: (size - 1) / AREAL_QUADS,
        }
        .with_walkable()
    }

    /// The field with its areal cells' walkability worked out.
    fn with_walkable(mut self) -> Field {
        let cells = self.cells;
        self.walkable = (0..cells * cells)
            .map(|c| self.cell_is_walkable(c % cells, c / cells))
            .collect();
        self
    }

    fn h(&self, x: usize, y: usize) -> i64 {
        self.heights[y * self.size + x]
    }

    /// World height of vertex (x, y).
    pub fn height(&self, x: usize, y: usize) -> f32 {
        self.h(x, y) as f32 / FIX as f32
    }

    /// World ground position of vertex (x, y).
    pub fn point(&self, x: usize, y: usize) -> [f32; 3] {
        [
            (self.origin + x as i64 * SPACING) as f32,
            (self.origin + y as i64 * SPACING) as f32,
            self.height(x, y),
        ]
    }

    /// The two faces of quad (x, y), as the heightfield writer splits it:
    /// (a, b, c) and (a, c, d) with a = (x, y), b = (x+1, y), c = (x+1, y+1),
    /// d = (x, y+1). Returns (water, steep) of each.
    fn quad_faces(&self, x: usize, y: usize) -> [(bool, bool); 2] {
        let [a, b, c, d] = [
            self.h(x, y),
            self.h(x + 1, y),
            self.h(x + 1, y + 1),
            self.h(x, y + 1),
        ];
        let face = |v: [i64; 3], gx: i64, gy: i64| (is_water(v), is_steep(gx, gy));
        [face([a, b, c], b - a, c - b), face([a, c, d], c - d, d - a)]
    }

    /// Whether areal cell (cx, cy) has no water face and no steep face.
    fn cell_is_walkable(&self, cx: usize, cy: usize) -> bool {
        !self.cell_has(cx, cy, |(water, steep)| water || steep)
    }

    /// Whether any face of areal cell (cx, cy) is one `test` takes, given
    /// its (water, steep).
    fn cell_has(&self, cx: usize, cy: usize, test: impl Fn((bool, bool)) -> bool) -> bool {
        (0..AREAL_QUADS * AREAL_QUADS).any(|i| {
            let (x, y) = (
                cx * AREAL_QUADS + i % AREAL_QUADS,
                cy * AREAL_QUADS + i / AREAL_QUADS,
            );
            self.quad_faces(x, y).into_iter().any(&test)
        })
    }

    /// Whether the walkable areal cell under vertex (x, y) exists.
    pub fn vertex_walkable(&self, x: usize, y: usize) -> bool {
        let (cx, cy) = (x / AREAL_QUADS, y / AREAL_QUADS);
        cx < self.cells && cy < self.cells && self.walkable[cy * self.cells + cx]
    }

    /// `Land.msh` of this field: lakes at the water's level, their faces
    /// masked with [`WATER_MASK`].
    pub fn land_msh(&self) -> Result<Vec<u8>> {
        let h = Heightfield {
            cols: self.size,
            rows: self.size,
            origin: [self.origin as f32; 2],
            spacing: SPACING as f32,
            heights: (0..self.size * self.size)
                .map(|i| surface(self.heights[i]) as f32 / FIX as f32)
                .collect(),
            block: SLOT_QUADS,
        };
        let mut land = land_from_heightfield(&h)?;
        let mut weights = vec![1.0f32; land.positions.len()];
        for face in &mut land.faces {
            let vertices = face.vertices.map(usize::from);
            if is_water_surface(vertices.map(|i| self.heights[i])) {
                face.flags |= WATER_MASK;
            }
            let paving = self.face_paving(vertices);
            face.set_layer_textures(self.face_layer1(vertices), paving);
            if paving.is_some() {
                for i in vertices {
                    weights[i] = (FIX - self.flat[i]) as f32 / FIX as f32;
                }
            }
        }
        land.set_layer1_weights(&weights);
        land.to_bytes()
    }

    /// `Land1.wea` and `Land2.wea` of every map.
    pub fn layer_tables() -> Result<[Vec<u8>; 2]> {
        Ok([
            ground::table(&ground::LAYER1)?,
            ground::table(&ground::LAYER2)?,
        ])
    }

    /// The layer-1 texture of a face: water on the water's surface, rock
    /// on faces steeper than the walk limit, sand within 2 units above the
    /// water line, grass elsewhere.
    fn face_layer1(&self, vertices: [usize; 3]) -> u8 {
        // The writer's faces are (a, b, c) and (a, c, d) of quad a = (x, y).
        let (x, y) = (vertices[0] % self.size, vertices[0] / self.size);
        let half = usize::from(vertices[1] != vertices[0] + 1);
        let (_, steep) = self.quad_faces(x, y)[half];
        if is_water_surface(vertices.map(|i| self.heights[i])) {
            ground::WATER
        } else if steep {
            ground::ROCK
        } else if vertices
            .iter()
            .any(|&i| self.heights[i] < (WATER_LEVEL + 2) * FIX)
        {
            ground::SAND
        } else {
            ground::GRASS
        }
    }

    /// The layer-2 texture of a face: the paving of its flattest vertex
    /// when any of its vertices lies on flattened ground, else none.
    fn face_paving(&self, vertices: [usize; 3]) -> Option<u8> {
        let flattest = vertices.into_iter().max_by_key(|&i| (self.flat[i], i))?;
        (self.flat[flattest] > 0).then(|| self.paving[flattest])
    }

    /// `Land.map` of this field: one square areal per cell, tiling the map
    /// as retail maps do. A walkable cell has the retail words 1, 0, 1, 0
    /// (first flag word 1, class 1); a cell with water is a lake (flag 0,
    /// class [`LAKE_CLASS`]); a steep cell is not walkable (flag 0, class 1).
    pub fn land_map(&self) -> Result<Vec<u8>> {
        let mut shapes = Vec::new();
        for cy in 0..self.cells {
            for cx in 0..self.cells {
                let (x0, y0) = (cx * AREAL_QUADS, cy * AREAL_QUADS);
                let (x1, y1) = (x0 + AREAL_QUADS, y0 + AREAL_QUADS);
                let (logic_flag, class_id) = if self.walkable[cy * self.cells + cx] {
                    (1, 1)
                } else if self.cell_has(cx, cy, |(water, _)| water) {
                    (0, LAKE_CLASS)
                } else {
                    (0, 1)
                };
                shapes.push(ArealShape {
                    vertices: vec![
                        self.point(x0, y0),
                        self.point(x1, y0),
                        self.point(x1, y1),
                        self.point(x0, y1),
                    ],
                    logic_flag,
                    class_id,
                });
            }
        }
        land_map_from_polygons(&shapes, AREAL_GRID)?.to_bytes()
    }
}

fn is_water(v: [i64; 3]) -> bool {
    v.iter().any(|&h| h < WATER_LEVEL * FIX)
}

/// A vertex's height on the written surface: the water's level over a
/// lake's bed, so that the lake's faces lie flat as retail water faces do
/// (one Z per lake, openparkan `docs/03-terrain.md`; the demo writes no
/// bed below it). The areal map keeps the bed's heights.
fn surface(h: i64) -> i64 {
    h.max(WATER_LEVEL * FIX)
}

/// A face of the water's surface: every vertex at or below the level.
fn is_water_surface(v: [i64; 3]) -> bool {
    v.iter().all(|&h| h <= WATER_LEVEL * FIX)
}

/// Steeper than the walk limit: |gradient| / spacing > NUM / DEN.
fn is_steep(gx: i64, gy: i64) -> bool {
    let run = SPACING * FIX * WALK_SLOPE_NUM;
    (gx * gx + gy * gy) * WALK_SLOPE_DEN * WALK_SLOPE_DEN > run * run
}

fn dist2(a: [i64; 2], b: [i64; 2]) -> i64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    dx * dx + dy * dy
}

/// Squared distance from `p` to the segment `a`-`b` (rounded down).
fn segment_dist2(p: [i64; 2], a: [i64; 2], b: [i64; 2]) -> i64 {
    let ab = [b[0] - a[0], b[1] - a[1]];
    let ap = [p[0] - a[0], p[1] - a[1]];
    let len2 = ab[0] * ab[0] + ab[1] * ab[1];
    let dot = ap[0] * ab[0] + ap[1] * ab[1];
    if len2 == 0 || dot <= 0 {
        return dist2(p, a);
    }
    if dot >= len2 {
        return dist2(p, b);
    }
    let cross = ap[0] * ab[1] - ap[1] * ab[0];
    cross * cross / len2
}

/// 256 within `radius`, 0 beyond the blend ring, linear in d² between.
fn flat_weight(d2: i64, radius: i64) -> i64 {
    let (inner, outer) = (radius * radius, (radius + FLAT_BLEND).pow(2));
    if d2 <= inner {
        FIX
    } else if d2 >= outer {
        0
    } else {
        FIX * (outer - d2) / (outer - inner)
    }
}

/// A round hill `height * (1 - d²/r²)²`, fixed point.
fn bump(d2: i64, height: i64, r: i64) -> i64 {
    let r2 = r * r;
    if d2 >= r2 {
        return 0;
    }
    let q = r2 - d2;
    height * q / r2 * q / r2
}

/// A 32-bit coordinate hash.
fn hash(seed: u32, x: i64, y: i64) -> u32 {
    let mut h = seed ^ (x as u32).wrapping_mul(0x27D4_EB2D) ^ (y as u32).wrapping_mul(0x1656_67B1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^ (h >> 16)
}

/// Value noise in 0..=256 at vertex (x, y): lattice values every
/// [`NOISE_STEP`] vertices, smoothstep-interpolated in fixed point.
fn value_noise(seed: u32, x: i64, y: i64) -> i64 {
    let (lx, ly) = (x.div_euclid(NOISE_STEP), y.div_euclid(NOISE_STEP));
    let smooth = |f: i64| {
        let t = f * FIX / NOISE_STEP;
        t * t * (3 * FIX - 2 * t) / (FIX * FIX)
    };
    let (tx, ty) = (
        smooth(x.rem_euclid(NOISE_STEP)),
        smooth(y.rem_euclid(NOISE_STEP)),
    );
    let v = |dx: i64, dy: i64| (hash(seed, lx + dx, ly + dy) & 0xFF) as i64;
    let lerp = |a: i64, b: i64, t: i64| a + (b - a) * t / FIX;
    lerp(lerp(v(0, 0), v(1, 0), tx), lerp(v(0, 1), v(1, 1), tx), ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_point_helpers() {
        assert_eq!(flat_weight(0, ROAD_RADIUS), 256);
        assert_eq!(flat_weight(i64::MAX / 4, SITE_RADIUS), 0);
        assert_eq!(segment_dist2([5, 3], [0, 0], [10, 0]), 9);
        assert_eq!(segment_dist2([-3, 4], [0, 0], [10, 0]), 25);
        assert_eq!(bump(0, 100, 10), 100);
        assert!(!is_steep(0, 0));
        assert!(is_steep(SPACING * FIX, 0));
        assert!((0..64).all(|i| (0..=256).contains(&value_noise(7, i, i * 3))));
    }

    /// For many seeds: a lake, some blocked ground, and the four build
    /// sites on walkable cells joined through walkable cells.
    #[test]
    fn sites_are_walkable_and_connected_for_many_seeds() {
        for seed in 0..32 {
            let size = if seed % 2 == 0 { 65 } else { 77 };
            let f = Field::generate(size, &mut Rng::new(seed));
            let n = f.cells;
            let cell = |v: [usize; 2]| (v[1] / AREAL_QUADS) * n + v[0] / AREAL_QUADS;
            let mut seen = vec![false; f.walkable.len()];
            let start = cell(f.sites[0]);
            assert!(f.walkable[start], "seed {seed}");
            seen[start] = true;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                let (x, y) = (c % n, c / n);
                let next = [
                    (x + 1 < n).then(|| c + 1),
                    (x > 0).then(|| c - 1),
                    (y + 1 < n).then(|| c + n),
                    (y > 0).then(|| c - n),
                ];
                for d in next.into_iter().flatten() {
                    if f.walkable[d] && !seen[d] {
                        seen[d] = true;
                        stack.push(d);
                    }
                }
            }
            assert!(f.sites.iter().all(|&s| seen[cell(s)]), "seed {seed}");
            assert!(f.walkable.iter().any(|w| !w), "seed {seed}");
            let q = size - 1;
            let water = (0..q * q).any(|i| f.quad_faces(i % q, i / q)[0].0);
            assert!(water, "seed {seed}: a lake");
        }
    }
}
