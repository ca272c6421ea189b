//! What stands on the ground, for the local path and the Wizard path of
//! tome VI's four levels.
//!
//! - **Trees and stones cut their footprint out of walkable areals**
//!   (openparkan docs/24-motion "Trees and stones cut areals", read): the
//!   footprint is the bottom face of the object's box, turned and scaled
//!   as placed (not a circle); an areal wholly inside one is no longer
//!   walkable, and the local path goes round the footprints in its way.
//!   Buildings do not cut areals.
//! - **The Wizard path** is a stand-in (the Wizard's own avoidance is not
//!   measured: in the original, collisions alone keep units off buildings
//!   and each other): every step a ground unit looks along its way to the
//!   next local point, up to [`LOOK_AHEAD`]; the first building, footprint
//!   or other ground unit it would run through, grown by its own radius and
//!   [`MARGIN`], gives it a corner to go by first, on the side it took
//!   last (so a row is followed, not zigzagged) or else the shorter one.
//!   With nothing in the way the Wizard path is cleared.

use crate::obstacle::Convex;
use crate::route::Route;
use bevy::prelude::*;
use iron3d_control::{Body, StaticBody};
use iron3d_formats::terrain::land_map::{GridFrame, LandMap};
use iron3d_formats::tma;
use iron3d_world::mission::{MissionArealMap, ObjectKind};
use iron3d_world::{ObjectRegistry, OriginalObjectId, PendingDelete};
use std::collections::{BTreeSet, HashMap};

/// m: how far ahead a unit looks for what is in its way.
// STAND-IN: 30 m (the Wizard's own avoidance is not measured; in the
// original collisions alone keep units apart, docs/24 "Obstacle
// avoidance"); settled by reading the Wizard's look-ahead in
// `Behavior.dll`.
pub const LOOK_AHEAD: f32 = 30.0;
/// m: the room a unit keeps from what it goes round, besides its radius
/// (the original keeps a footprint contour grown by 1.5 to classify
/// points: docs/24-motion).
pub const MARGIN: f32 = 1.5;
/// m: the side of a cell of the units' grid.
const CELL: f32 = 32.0;
/// Corners a local path puts in one leg at most.
const DETOURS_PER_LEG: usize = 8;

/// One static thing on the ground.
#[derive(Debug, Clone, PartialEq)]
pub struct Footprint {
    pub id: OriginalObjectId,
    pub outline: Convex,
}

/// The footprints of the mission's trees, stones and buildings, and the
/// areals the trees and stones cut away; rebuilt when a static body comes
/// or goes.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Footprints {
    /// Trees and stones.
    pub cutting: Vec<Footprint>,
    pub buildings: Vec<Footprint>,
    /// Areals wholly inside a tree's or stone's footprint.
    pub cut: BTreeSet<u32>,
}

impl Footprints {
    /// Whether map point `p` is walkable: on a walkable areal that no tree
    /// or stone cut away, outside every tree's and stone's footprint.
    pub fn walkable(&self, map: &LandMap, areal: Option<u32>, p: Vec2) -> bool {
        areal.is_some_and(|a| {
            map.areals[a as usize].is_walkable()
                && !self.cut.contains(&a)
                && !self.cutting.iter().any(|f| f.outline.contains(p))
        })
    }

    /// The local path from `from` through `points`, going round the tree
    /// and stone footprints in the way (grown by `radius`); a point inside
    /// one, or inside a building's (where no unit can stand: buildings do
    /// not cut areals, so a path over their areals crosses them), that is
    /// not the goal is left out.
    pub fn local_path(&self, from: Vec2, points: &[Vec2], radius: f32) -> Vec<Vec2> {
        let grow = |f: &Footprint| f.outline.inflated(radius);
        let grown: Vec<Convex> = self.cutting.iter().map(grow).collect();
        let buildings: Vec<Convex> = self.buildings.iter().map(grow).collect();
        let mut out = Vec::with_capacity(points.len());
        let mut last = from;
        for (i, &point) in points.iter().enumerate() {
            let goal = i + 1 == points.len();
            if !goal && grown.iter().chain(&buildings).any(|g| g.contains(point)) {
                continue;
            }
            for _ in 0..DETOURS_PER_LEG {
                let Some((corner, _)) =
                    first_in_way(&grown, last, point).and_then(|g| g.detour(last, point, None))
                else {
                    break;
                };
                out.push(corner);
                last = corner;
            }
            out.push(point);
            last = point;
        }
        out
    }
}

/// The polygon of `polygons` that segment `a -> b` enters first, among
/// those `a` is not inside.
fn first_in_way(polygons: &[Convex], a: Vec2, b: Vec2) -> Option<&Convex> {
    polygons
        .iter()
        .filter(|p| !p.contains(a))
        .filter_map(|p| p.clip(a, b).map(|(enter, _)| (enter, p)))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, p)| p)
}

/// The bottom face of a static body's box as placed, in the map frame.
fn footprint(transform: &Transform, bounds: &iron3d_world::mission::BodyBounds) -> Convex {
    let corner = |x: f32, z: f32| {
        let p = transform.translation + transform.rotation * Vec3::new(x, bounds.min.y, z);
        Vec2::new(p.x, -p.z)
    };
    let (lo, hi) = (bounds.min, bounds.max);
    Convex::quad([
        corner(lo.x, lo.z),
        corner(hi.x, lo.z),
        corner(hi.x, hi.z),
        corner(lo.x, hi.z),
    ])
}

type Static<'a> = (&'a Transform, &'a StaticBody, &'a ObjectKind);

/// Rebuilds [`Footprints`] when a static body was attached or removed.
pub(crate) fn gather_footprints(
    added: Query<(), Added<StaticBody>>,
    mut removed: RemovedComponents<StaticBody>,
    registry: Res<ObjectRegistry>,
    statics: Query<Static, Without<PendingDelete>>,
    map: Option<Res<MissionArealMap>>,
    mut footprints: ResMut<Footprints>,
) {
    let gone = removed.read().count() > 0;
    if added.is_empty() && !gone && !map.as_ref().is_some_and(|m| m.is_changed()) {
        return;
    }
    let mut next = Footprints::default();
    for (id, entity) in registry.iter() {
        let Ok((transform, StaticBody(Some(bounds)), kind)) = statics.get(entity) else {
            continue;
        };
        let print = Footprint {
            id,
            outline: footprint(transform, bounds),
        };
        match kind.kind() {
            Some(tma::ObjectKind::Vegetation | tma::ObjectKind::Rock) => next.cutting.push(print),
            Some(tma::ObjectKind::Building) => next.buildings.push(print),
            _ => {}
        }
    }
    if let Some(map) = &map {
        next.cut = cut_areals(&map.map, &next.cutting);
    }
    footprints.set_if_neq(next);
}

/// The areals wholly inside one of `prints` (every vertex inside or on
/// its outline).
fn cut_areals(map: &LandMap, prints: &[Footprint]) -> BTreeSet<u32> {
    let Some(frame) = GridFrame::of(map) else {
        return BTreeSet::new();
    };
    let mut cut = BTreeSet::new();
    for print in prints {
        let (lo, hi) = print.outline.bounds();
        // The footprint's bounds clamped to the grid's.
        let cells = |p: Vec2| {
            let clamped = [0, 1].map(|k| (p[k] as f64).clamp(frame.min[k], frame.max[k]));
            frame.cell_of(clamped)
        };
        let (Some(a), Some(b)) = (cells(lo), cells(hi)) else {
            continue;
        };
        let grown = print.outline.inflated(1e-3);
        for x in a.0..=b.0 {
            for y in a.1..=b.1 {
                for &id in map.grid.cell(x, y) {
                    let inside = map.areals.get(id as usize).is_some_and(|areal| {
                        areal
                            .vertices
                            .iter()
                            .all(|v| grown.contains(Vec2::new(v[0], v[1])))
                    });
                    if inside {
                        cut.insert(id as u32);
                    }
                }
            }
        }
    }
    cut
}

/// The ground units of one step by grid cell, to find who is near a way.
pub(crate) struct UnitGrid {
    cells: HashMap<(i32, i32), Vec<usize>>,
    units: Vec<(OriginalObjectId, Vec2, f32)>,
}

impl UnitGrid {
    /// Every ground unit's id, map point and radius.
    pub fn new(units: Vec<(OriginalObjectId, Vec2, f32)>) -> Self {
        let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (i, (_, p, _)) in units.iter().enumerate() {
            cells.entry(cell(*p)).or_default().push(i);
        }
        Self { cells, units }
    }

    /// The units with a cell in the box `lo..hi`, but `not`.
    fn near(&self, lo: Vec2, hi: Vec2, not: OriginalObjectId) -> impl Iterator<Item = (Vec2, f32)> {
        let (a, b) = (cell(lo - Vec2::splat(CELL)), cell(hi + Vec2::splat(CELL)));
        (a.0..=b.0)
            .flat_map(move |x| (a.1..=b.1).map(move |y| (x, y)))
            .filter_map(|c| self.cells.get(&c))
            .flatten()
            .map(|&i| self.units[i])
            .filter(move |(id, _, _)| *id != not)
            .map(|(_, p, r)| (p, r))
    }
}

fn cell(p: Vec2) -> (i32, i32) {
    ((p.x / CELL).floor() as i32, (p.y / CELL).floor() as i32)
}

/// What the Wizard of one unit looks at.
pub(crate) struct Surroundings<'a> {
    pub footprints: &'a Footprints,
    pub units: &'a UnitGrid,
    pub map: Option<&'a MissionArealMap>,
}

impl Surroundings<'_> {
    /// The Wizard's step for unit `id` of `radius` at `here` going for
    /// `next`: sets or clears the route's Wizard point.
    // STAND-IN: the corner of the first building, tree or stone footprint or
    // ground unit (an octagon round its sphere) in the way, grown by the
    // radius and 1.5, on the side taken last, else the shorter (the
    // Wizard's own avoidance is not measured); settled by reading the
    // Wizard in `Behavior.dll`, or watching retail units pass a row of
    // buildings.
    pub fn steer_round(
        &self,
        route: &mut Route,
        id: OriginalObjectId,
        radius: f32,
        here: Vec2,
        next: Vec2,
    ) {
        let to = next - here;
        let ahead = here + to.clamp_length_max(LOOK_AHEAD);
        let grow = radius + MARGIN;
        // Only units whose grown circle reaches the way ahead.
        let reach = |p: Vec2, r: f32| {
            crate::route::segment_distance(p.into(), here.into(), ahead.into()) < r + grow
        };
        let polygons = self.obstacles(id, grow, (here.min(ahead), here.max(ahead)), reach);
        let corner = first_in_way(&polygons, here, ahead)
            .and_then(|p| p.detour(here, next, route.wizard_side))
            .filter(|(corner, _)| self.walkable(*corner));
        match corner {
            Some((corner, right)) => {
                route.wizard = Some(corner.into());
                route.wizard_side = Some(right);
            }
            None => route.clear_wizard_path(),
        }
    }

    /// The buildings', trees', stones' and other ground units' outlines
    /// (but `id`'s) with bounds in the box `lo..hi`, grown by `grow`: a
    /// unit's as an octagon round its sphere, when `keep` takes its
    /// centre and radius.
    fn obstacles(
        &self,
        id: OriginalObjectId,
        grow: f32,
        (lo, hi): (Vec2, Vec2),
        keep: impl Fn(Vec2, f32) -> bool,
    ) -> Vec<Convex> {
        let mut polygons: Vec<Convex> = self
            .footprints
            .buildings
            .iter()
            .chain(&self.footprints.cutting)
            .filter(|f| overlaps(f.outline.bounds(), (lo, hi), grow))
            .map(|f| f.outline.inflated(grow))
            .collect();
        polygons.extend(
            self.units
                .near(lo, hi, id)
                .filter(|&(p, r)| keep(p, r))
                .map(|(p, r)| Convex::octagon(p, r + grow)),
        );
        polygons
    }

    /// Whether unit `id` of `radius` at `here` has come as near `goal` as
    /// it can: `goal` lies under a building, a tree, a stone or another
    /// ground unit, and `here` is within `reach` of that one's outline
    /// grown by the radius and [`MARGIN`].
    // STAND-IN: a go to a place something stands on is done at the edge of
    // what stands there (docs/31 "What each package does" has the go task
    // done within 30 of its place, measured on ground that is free; the
    // engine keeps the corridor radius); settled by reading the go task's
    // done test with its place taken.
    pub fn as_near_as_can_be(
        &self,
        id: OriginalObjectId,
        radius: f32,
        (here, goal): (Vec2, Vec2),
        reach: f32,
    ) -> bool {
        let grow = radius + MARGIN;
        let covers = |p: Vec2, r: f32| p.distance(goal) < r + grow;
        self.obstacles(id, grow, (goal, goal), covers)
            .iter()
            .any(|p| p.contains(goal) && p.inflated(reach).contains(here))
    }

    /// Whether map point `p` is walkable (anywhere, without a map).
    pub fn walkable(&self, p: Vec2) -> bool {
        self.map.is_none_or(|m| {
            let areal = m.navigator().locator.areal_at(p.x, p.y);
            self.footprints.walkable(&m.map, areal, p)
        })
    }
}

/// Whether bounds `a` grown by `grow` overlap bounds `b`.
fn overlaps(a: (Vec2, Vec2), b: (Vec2, Vec2), grow: f32) -> bool {
    a.0.x - grow <= b.1.x && b.0.x <= a.1.x + grow && a.0.y - grow <= b.1.y && b.0.y <= a.1.y + grow
}

/// Every ground unit of the step, for [`UnitGrid`].
pub(crate) fn ground_units(
    registry: &ObjectRegistry,
    units: &Query<(&Transform, &Body), Without<PendingDelete>>,
) -> UnitGrid {
    UnitGrid::new(
        registry
            .iter()
            .filter_map(|(id, e)| {
                let (t, body) = units.get(e).ok()?;
                body.holds_ground.then(|| {
                    (
                        id,
                        Vec2::new(t.translation.x, -t.translation.z),
                        body.radius,
                    )
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::terrain::build::{ArealShape, land_map_from_polygons};

    fn tree(lo: Vec2, side: f32) -> Footprint {
        Footprint {
            id: OriginalObjectId(1),
            outline: Convex::quad([
                lo,
                lo + Vec2::new(side, 0.0),
                lo + Vec2::splat(side),
                lo + Vec2::new(0.0, side),
            ]),
        }
    }

    #[test]
    fn the_local_path_goes_round_tree_footprints_and_drops_points_under_them() {
        let prints = Footprints {
            cutting: vec![tree(Vec2::new(10.0, -2.0), 4.0)],
            ..Footprints::default()
        };
        let (from, goal) = (Vec2::ZERO, Vec2::new(30.0, 0.0));
        // An edge point under the canopy is left out; the goal is kept.
        let path = prints.local_path(from, &[Vec2::new(12.0, 0.0), goal], 1.0);
        assert_eq!(path.last(), Some(&goal));
        assert!(path.len() >= 2, "{path:?}");
        let grown = prints.cutting[0].outline.inflated(1.0);
        let mut last = from;
        for &p in &path {
            assert_eq!(
                grown.clip(last, p),
                None,
                "{last} -> {p} runs under the tree"
            );
            last = p;
        }
        // Nothing in the way: the points as they were.
        let clear = prints.local_path(from, &[Vec2::new(0.0, 30.0)], 1.0);
        assert_eq!(clear, [Vec2::new(0.0, 30.0)]);
    }

    #[test]
    fn an_areal_wholly_under_a_footprint_is_cut_and_no_longer_walkable() {
        let shapes: Vec<ArealShape> = (0..4)
            .map(|i| ArealShape {
                vertices: [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
                    .map(|[x, y]| [x + 10.0 * i as f32, y, 0.0])
                    .to_vec(),
                logic_flag: 1,
                class_id: 1,
            })
            .collect();
        let map = land_map_from_polygons(&shapes, [8, 2]).unwrap();
        // Covers areal 1 (10..20) wholly and areal 2 in part.
        let prints = vec![tree(Vec2::new(9.0, -1.0), 14.0)];
        let cut = cut_areals(&map, &prints);
        assert_eq!(cut, BTreeSet::from([1]));
        let footprints = Footprints {
            cutting: prints,
            cut,
            ..Footprints::default()
        };
        assert!(!footprints.walkable(&map, Some(1), Vec2::new(15.0, 5.0)));
        assert!(
            !footprints.walkable(&map, Some(2), Vec2::new(21.0, 5.0)),
            "under it"
        );
        assert!(footprints.walkable(&map, Some(2), Vec2::new(25.0, 5.0)));
        assert!(!footprints.walkable(&map, None, Vec2::new(50.0, 5.0)));
    }
}
