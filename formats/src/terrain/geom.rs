//! Small geometry helpers shared by the terrain queries, the areal lookup,
//! the route costs and the builders. Only IEEE basic operations and `sqrt`
//! (correctly rounded everywhere), so results are the same on every platform.

/// Axis-aligned bounds of points, `None` when there are none.
pub fn bounds3(points: &[[f32; 3]]) -> Option<([f32; 3], [f32; 3])> {
    let first = *points.first()?;
    Some(points.iter().fold((first, first), |(lo, hi), p| {
        (
            [0, 1, 2].map(|k| lo[k].min(p[k])),
            [0, 1, 2].map(|k| hi[k].max(p[k])),
        )
    }))
}

/// Euclidean distance between two ground points.
pub fn dist2(a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (a[0] - b[0], a[1] - b[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Twice the signed area of triangle (a, b, p) in the ground plane:
/// positive when p is left of a->b.
pub fn orient(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

/// Where a ground point lies relative to a polygon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inside {
    Outside,
    /// On an edge or a vertex.
    Boundary,
    Interior,
}

/// Point-in-polygon by the crossing number, with the boundary reported
/// separately (works for convex and concave simple polygons, either winding).
pub fn point_in_polygon(poly: &[[f64; 2]], p: [f64; 2]) -> Inside {
    let n = poly.len();
    if n < 3 {
        return Inside::Outside;
    }
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if on_segment(a, b, p) {
            return Inside::Boundary;
        }
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    if inside {
        Inside::Interior
    } else {
        Inside::Outside
    }
}

fn on_segment(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    let scale = (b[0] - a[0]).abs() + (b[1] - a[1]).abs();
    orient(a, b, p).abs() <= 1e-9 * scale * scale.max(1.0)
        && p[0] >= a[0].min(b[0]) - 1e-9
        && p[0] <= a[0].max(b[0]) + 1e-9
        && p[1] >= a[1].min(b[1]) - 1e-9
        && p[1] <= a[1].max(b[1]) + 1e-9
}

/// Absolute shoelace area of a ground polygon.
pub fn polygon_area(poly: &[[f64; 2]]) -> f64 {
    let n = poly.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    twice.abs() / 2.0
}

pub fn sub3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `v / |v|`, or `None` for a zero vector.
pub fn normalize3(v: [f64; 3]) -> Option<[f64; 3]> {
    let len = dot3(v, v).sqrt();
    (len > 0.0).then(|| [v[0] / len, v[1] / len, v[2] / len])
}

pub fn widen3(p: [f32; 3]) -> [f64; 3] {
    [p[0] as f64, p[1] as f64, p[2] as f64]
}
