//! What stands in a unit's way on the ground, as convex polygons in the map
//! frame (x, y): tree and stone footprints, building footprints and other
//! units. A way is blocked when its segment runs through a polygon's
//! inside (touching the outline is not); it goes round by one of the two
//! corners the polygon shows the start of the way.

use bevy::math::Vec2;

/// A convex polygon, counter-clockwise (any start).
#[derive(Debug, Clone, PartialEq)]
pub struct Convex(pub Vec<Vec2>);

/// Segments shorter than this inside a polygon do not count as running
/// through it (m).
const GRAZE: f32 = 1e-3;
/// How far outside its polygon a detour corner is put (m), so the ways
/// from and to it only touch the outline.
const CLEARANCE: f32 = 0.05;

impl Convex {
    /// The box footprint of four corners in any order round the box:
    /// counter-clockwise.
    pub fn quad(mut corners: [Vec2; 4]) -> Self {
        let centre = corners.iter().copied().sum::<Vec2>() / 4.0;
        corners.sort_by(|a, b| {
            let (a, b) = (*a - centre, *b - centre);
            a.y.atan2(a.x).total_cmp(&b.y.atan2(b.x))
        });
        Self(corners.to_vec())
    }

    /// The regular octagon whose inscribed circle has radius `r` round
    /// `centre` (a unit, as something to go round).
    pub fn octagon(centre: Vec2, r: f32) -> Self {
        let out = r / (std::f32::consts::PI / 8.0).cos();
        Self(
            (0..8)
                .map(|i| {
                    let a = std::f32::consts::FRAC_PI_4 * i as f32 + std::f32::consts::PI / 8.0;
                    centre + out * Vec2::new(a.cos(), a.sin())
                })
                .collect(),
        )
    }

    /// The polygon grown by `r` on every side (each edge moved out by `r`,
    /// corners where the moved edges meet).
    pub fn inflated(&self, r: f32) -> Self {
        let n = self.0.len();
        let normal = |i: usize| {
            let d = self.0[(i + 1) % n] - self.0[i];
            Vec2::new(d.y, -d.x).normalize_or_zero()
        };
        Self(
            (0..n)
                .map(|i| {
                    let (a, b) = (normal((i + n - 1) % n), normal(i));
                    let k = 1.0 + a.dot(b);
                    let push = if k > 1e-3 { (a + b) * (r / k) } else { b * r };
                    self.0[i] + push
                })
                .collect(),
        )
    }

    /// Axis-aligned bounds.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        self.0.iter().fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        )
    }

    /// Whether `p` lies strictly inside.
    pub fn contains(&self, p: Vec2) -> bool {
        let n = self.0.len();
        n >= 3 && (0..n).all(|i| (self.0[(i + 1) % n] - self.0[i]).perp_dot(p - self.0[i]) > 0.0)
    }

    /// Where segment `a -> b` runs inside: the parameters (0..1) it enters
    /// and leaves at, `None` when it does not (or only grazes it).
    pub fn clip(&self, a: Vec2, b: Vec2) -> Option<(f32, f32)> {
        let n = self.0.len();
        if n < 3 {
            return None;
        }
        let d = b - a;
        let (mut enter, mut leave) = (0.0f32, 1.0f32);
        for i in 0..n {
            let (p, q) = (self.0[i], self.0[(i + 1) % n]);
            let edge = q - p;
            // Inside is left of every edge: edge × (x − p) > 0.
            let at_a = edge.perp_dot(a - p);
            let along = edge.perp_dot(d);
            if along == 0.0 {
                if at_a <= 0.0 {
                    return None;
                }
                continue;
            }
            let t = -at_a / along;
            if along > 0.0 {
                enter = enter.max(t);
            } else {
                leave = leave.min(t);
            }
            if enter >= leave {
                return None;
            }
        }
        ((leave - enter) * d.length() > GRAZE).then_some((enter, leave))
    }

    /// The point of the outline nearest to `p`.
    pub fn nearest_on_outline(&self, p: Vec2) -> Vec2 {
        let n = self.0.len();
        (0..n)
            .map(|i| nearest_on_segment(p, self.0[i], self.0[(i + 1) % n]))
            .min_by(|x, y| x.distance_squared(p).total_cmp(&y.distance_squared(p)))
            .unwrap_or(p)
    }

    /// The corners the polygon shows from `a` (outside it): the two whose
    /// neighbours lie on one side of the line from `a`, right one first.
    fn silhouette(&self, a: Vec2) -> Option<(Vec2, Vec2)> {
        let n = self.0.len();
        let side = |v: Vec2, w: Vec2| (v - a).perp_dot(w - a);
        let (mut right, mut left) = (None, None);
        for i in 0..n {
            let v = self.0[i];
            let (prev, next) = (self.0[(i + n - 1) % n], self.0[(i + 1) % n]);
            let (sp, sn) = (side(v, prev), side(v, next));
            if sp >= 0.0 && sn >= 0.0 {
                right = right.or(Some(v));
            } else if sp <= 0.0 && sn <= 0.0 {
                left = left.or(Some(v));
            }
        }
        Some((right?, left?))
    }

    /// The corner to go by from `a` to `b` round the polygon, put just
    /// outside it: on `side` (true: the right of the way) when given, else
    /// the one that makes the way shorter (the right one on a tie). `None`
    /// when `a` is inside.
    pub fn detour(&self, a: Vec2, b: Vec2, side: Option<bool>) -> Option<(Vec2, bool)> {
        if self.contains(a) {
            return None;
        }
        let (right, left) = self.silhouette(a)?;
        let via = |v: Vec2| a.distance(v) + v.distance(b);
        let take_right = side.unwrap_or(via(right) <= via(left));
        let corner = if take_right { right } else { left };
        let centre = self.0.iter().copied().sum::<Vec2>() / self.0.len() as f32;
        let out = (corner - centre).normalize_or_zero() * CLEARANCE;
        Some((corner + out, take_right))
    }
}

/// The point of segment `a -> b` nearest to `p`.
pub fn nearest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + t * ab
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(lo: Vec2, side: f32) -> Convex {
        Convex::quad([
            lo + Vec2::new(side, side),
            lo,
            lo + Vec2::new(side, 0.0),
            lo + Vec2::new(0.0, side),
        ])
    }

    #[test]
    fn corners_are_put_in_order_and_grown_on_every_side() {
        let sq = square(Vec2::ZERO, 2.0);
        assert!(sq.contains(Vec2::new(1.0, 1.0)));
        assert!(
            !sq.contains(Vec2::new(2.0, 1.0)),
            "the outline is not inside"
        );
        let big = sq.inflated(1.0);
        let (lo, hi) = big.bounds();
        assert!(
            (lo - Vec2::splat(-1.0)).length() < 1e-5 && (hi - Vec2::splat(3.0)).length() < 1e-5
        );
        let oct = Convex::octagon(Vec2::new(5.0, 5.0), 2.0);
        assert!(oct.contains(Vec2::new(6.99, 5.0)) && !oct.contains(Vec2::new(7.01, 5.0)));
    }

    #[test]
    fn a_way_through_the_inside_is_clipped_and_a_graze_is_not() {
        let sq = square(Vec2::ZERO, 2.0);
        let (enter, leave) = sq.clip(Vec2::new(-1.0, 1.0), Vec2::new(3.0, 1.0)).unwrap();
        assert!((enter - 0.25).abs() < 1e-6 && (leave - 0.75).abs() < 1e-6);
        assert_eq!(sq.clip(Vec2::new(-1.0, 2.0), Vec2::new(3.0, 2.0)), None);
        assert_eq!(sq.clip(Vec2::new(-1.0, 3.0), Vec2::new(3.0, 3.0)), None);
        assert_eq!(sq.clip(Vec2::new(-3.0, 1.0), Vec2::new(-1.0, 1.0)), None);
    }

    #[test]
    fn the_detour_takes_the_nearer_corner_or_the_side_kept() {
        let sq = square(Vec2::new(-1.0, -1.0), 2.0);
        // Going +x just below the middle: round the bottom (the right).
        let (a, b) = (Vec2::new(-5.0, -0.2), Vec2::new(5.0, -0.2));
        let (corner, right) = sq.detour(a, b, None).unwrap();
        assert!(right);
        assert!(corner.y < -1.0 && corner.x < 0.0, "{corner}");
        assert_eq!(sq.clip(a, corner), None, "the way to the corner is clear");
        // Kept on the left, it goes round the top.
        let (corner, right) = sq.detour(a, b, Some(false)).unwrap();
        assert!(!right && corner.y > 1.0, "{corner}");
        assert_eq!(sq.detour(Vec2::ZERO, b, None), None, "from inside: none");
        assert_eq!(
            sq.nearest_on_outline(Vec2::new(5.0, 0.5)),
            Vec2::new(1.0, 0.5)
        );
        assert_eq!(
            sq.nearest_on_outline(Vec2::new(4.0, 4.0)),
            Vec2::new(1.0, 1.0)
        );
    }
}
