//! Terrain and areal map: `Land.msh` load plus surface grid build for
//! 300,000 vertices (ten 150 x 200 maps: 16-bit face indices cap one map at
//! 65,536 vertices, and the retail corpus totals 299,450), against a plain
//! copy of the same bytes; 1,000 height queries through the grid against a
//! linear scan over the faces; 1,000 A* routes on a 2,000-areal map.
//! All content comes from the builders, with integer-hash noise.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_formats::archive::Mode;
use iron3d_formats::terrain::build::{
    ArealShape, Heightfield, land_from_heightfield, land_map_from_polygons,
};
use iron3d_formats::terrain::land_map::LandMap;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::{FaceFilter, TerrainSurface};

/// Integer hash (lowbias32).
fn hash(seed: u32, i: u32) -> u32 {
    let mut x = seed ^ i.wrapping_mul(0x9E37_79B9);
    x ^= x >> 16;
    x = x.wrapping_mul(0x7FEB_352D);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846C_A68B);
    x ^ (x >> 16)
}

/// Value noise: hashed lattice every 8 vertices, bilinear in between (only
/// IEEE basic operations).
fn height(seed: u32, x: usize, y: usize) -> f32 {
    let lattice = |gx: usize, gy: usize| (hash(seed, (gx * 7919 + gy) as u32) % 4096) as f32 / 64.0;
    let (gx, gy) = (x / 8, y / 8);
    let (fx, fy) = ((x % 8) as f32 / 8.0, (y % 8) as f32 / 8.0);
    let top = lattice(gx, gy) * (1.0 - fx) + lattice(gx + 1, gy) * fx;
    let bottom = lattice(gx, gy + 1) * (1.0 - fx) + lattice(gx + 1, gy + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

const COLS: usize = 150;
const ROWS: usize = 200;
const SPACING: f32 = 10.0;

fn map_bytes(seed: u32) -> Vec<u8> {
    let heights = (0..ROWS)
        .flat_map(|y| (0..COLS).map(move |x| height(seed, x, y)))
        .collect();
    let h = Heightfield {
        cols: COLS,
        rows: ROWS,
        origin: [0.0, 0.0],
        spacing: SPACING,
        heights,
        block: 16,
    };
    land_from_heightfield(&h).unwrap().to_bytes().unwrap()
}

/// Query points inside the map, from the hash.
fn points(n: u32) -> Vec<[f32; 2]> {
    let span = [(COLS - 1) as f32 * SPACING, (ROWS - 1) as f32 * SPACING];
    (0..n)
        .map(|i| {
            [0, 1].map(|k| (hash(77 + k, i) % 1_000_000) as f32 / 1_000_000.0 * span[k as usize])
        })
        .collect()
}

/// The reference: every face tested (what the grid avoids).
fn linear_height(land: &LandMsh, x: f32, y: f32) -> Option<f32> {
    let (x, y) = (x as f64, y as f64);
    let mut best: Option<f64> = None;
    for f in &land.faces {
        let v = f
            .vertices
            .map(|i| land.positions[i as usize].map(f64::from));
        let d =
            (v[1][1] - v[2][1]) * (v[0][0] - v[2][0]) + (v[2][0] - v[1][0]) * (v[0][1] - v[2][1]);
        if d == 0.0 {
            continue;
        }
        let a = ((v[1][1] - v[2][1]) * (x - v[2][0]) + (v[2][0] - v[1][0]) * (y - v[2][1])) / d;
        let b = ((v[2][1] - v[0][1]) * (x - v[2][0]) + (v[0][0] - v[2][0]) * (y - v[2][1])) / d;
        let c = 1.0 - a - b;
        if a >= -1e-9 && b >= -1e-9 && c >= -1e-9 {
            let z = a * v[0][2] + b * v[1][2] + c * v[2][2];
            best = Some(best.map_or(z, |m| m.max(z)));
        }
    }
    best.map(|z| z as f32)
}

fn land_msh(c: &mut Criterion) {
    let maps: Vec<Vec<u8>> = (0..10).map(map_bytes).collect();
    let total: usize = maps.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("land_msh_300k_vertices");
    g.throughput(Throughput::Bytes(total as u64));
    g.sample_size(10);
    g.bench_function("copy_bytes_reference", |b| {
        b.iter(|| {
            maps.iter()
                .map(|m| black_box(m.clone()))
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            maps.iter()
                .map(|m| LandMsh::parse(black_box(m), Mode::Strict).unwrap())
                .collect::<Vec<_>>()
        })
    });
    g.bench_function("parse_and_grid", |b| {
        b.iter(|| {
            maps.iter()
                .map(|m| {
                    TerrainSurface::build_lod0(&LandMsh::parse(black_box(m), Mode::Strict).unwrap())
                })
                .collect::<Vec<_>>()
        })
    });
    g.finish();

    let land = LandMsh::parse(&maps[0], Mode::Strict).unwrap();
    let surface = TerrainSurface::build_lod0(&land);
    let pts = points(1000);
    for p in pts.iter().take(20) {
        assert_eq!(surface.height(p[0], p[1]), linear_height(&land, p[0], p[1]));
    }
    let mut g = c.benchmark_group("height_1000_queries");
    g.throughput(Throughput::Elements(pts.len() as u64));
    g.sample_size(10);
    g.bench_function("grid", |b| {
        b.iter(|| {
            pts.iter()
                .map(|p| surface.height_at(p[0], p[1], FaceFilter::ANY))
                .filter(Option::is_some)
                .count()
        })
    });
    g.bench_function("linear_scan_reference", |b| {
        b.iter(|| {
            pts.iter()
                .filter_map(|p| linear_height(&land, p[0], p[1]))
                .count()
        })
    });
    g.bench_function("raycast_grid", |b| {
        b.iter(|| {
            pts.iter()
                .filter_map(|p| {
                    surface.raycast(
                        [p[0], p[1], 500.0],
                        [0.3, 0.2, -1.0],
                        2000.0,
                        FaceFilter::ANY,
                    )
                })
                .count()
        })
    });
    g.finish();
}

/// Columns of 50 quads with hash-jittered shared corners; about one in eight
/// removed as obstacles, columns added until exactly 2,000 areals.
fn areal_map() -> LandMap {
    let corner = |x: usize, y: usize| -> [f32; 3] {
        let j = |k: u32| ((hash(k, (x * 1000 + y) as u32) % 1000) as f32 / 1000.0 - 0.5) * 4.0;
        [x as f32 * 20.0 + j(1), y as f32 * 20.0 + j(2), 0.0]
    };
    let mut shapes = Vec::new();
    let mut x = 0;
    while shapes.len() < 2000 {
        for y in 0..50 {
            if shapes.len() < 2000
                && (!(2..=60).contains(&x) || !hash(9, (x * 50 + y) as u32).is_multiple_of(8))
            {
                shapes.push(ArealShape {
                    vertices: vec![
                        corner(x, y),
                        corner(x + 1, y),
                        corner(x + 1, y + 1),
                        corner(x, y + 1),
                    ],
                    logic_flag: 1,
                    class_id: 0,
                });
            }
        }
        x += 1;
    }
    land_map_from_polygons(&shapes, [128, 128]).unwrap()
}

fn routes(c: &mut Criterion) {
    let map = areal_map();
    assert_eq!(map.areals.len(), 2000);
    let nav = Navigator::new(&map);
    let pairs: Vec<([f32; 2], [f32; 2])> = (0..1000u32)
        .map(|i| {
            let a = &map.areals[(hash(3, i) % 2000) as usize].anchor;
            let b = &map.areals[(hash(4, i) % 2000) as usize].anchor;
            ([a[0], a[1]], [b[0], b[1]])
        })
        .collect();
    let found = pairs
        .iter()
        .filter(|(a, b)| nav.route(*a, *b).is_ok())
        .count();
    println!(
        "A*: {found} of {} routes found on {} areals",
        pairs.len(),
        map.areals.len()
    );
    let mut g = c.benchmark_group("a_star_1000_routes_2000_areals");
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.sample_size(10);
    g.bench_function("route", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|(a, b)| nav.route(*a, *b).is_ok())
                .count()
        })
    });
    g.bench_function("locate_only_reference", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|(a, b)| {
                    nav.locator.areal_at(a[0], a[1]) == nav.locator.areal_at(b[0], b[1])
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, land_msh, routes);
criterion_main!(benches);
