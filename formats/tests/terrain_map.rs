//! Land.map: hand-built areal records (prefix, vertices, links, a polygon
//! block), the cell grid in file order and packed form, every reference
//! check, point lookup through the grid and A* routes.

#[path = "support/areals.rs"]
mod areals;
mod support;

use areals::square;
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::error::Problem;
use iron3d_formats::terrain::EntryMeta;
use iron3d_formats::terrain::build::{ArealShape, land_map_from_polygons};
use iron3d_formats::terrain::land_map::{
    ArealLocator, CellGrid, EdgeLink, LandMap, pack_cell, parse_payload, unpack_cell,
};
use iron3d_formats::terrain::route::{
    Crossing, Navigator, PLAN_JITTER, PLAN_NODE_LIMIT, RAND_MAX, RouteError,
};
use proptest::prelude::*;
use support::expect_error;

#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn f(&mut self, v: &[f32]) -> &mut Self {
        v.iter().for_each(|x| self.0.extend(x.to_le_bytes()));
        self
    }
    fn u(&mut self, v: &[u32]) -> &mut Self {
        v.iter().for_each(|x| self.0.extend(x.to_le_bytes()));
        self
    }
    fn i(&mut self, v: &[i32]) -> &mut Self {
        v.iter().for_each(|x| self.0.extend(x.to_le_bytes()));
        self
    }
    fn h(&mut self, v: &[u16]) -> &mut Self {
        v.iter().for_each(|x| self.0.extend(x.to_le_bytes()));
        self
    }
}

/// Areal prefix: anchor, reserved_12, area, normal, logic, r36, class, r44,
/// vertex count, poly count.
fn prefix(b: &mut Bytes, anchor: [f32; 2], area: f32, class: u32, verts: u32, polys: u32) {
    b.f(&[anchor[0], anchor[1], 0.0, 0.0, area, 0.0, 0.0, 1.0])
        .u(&[1, 0, class, 0, verts, polys]);
}

/// Three areals: two unit squares side by side (A0 = [0,1]x[0,1] with one
/// polygon block, A1 = [1,2]x[0,1]) sharing A0's edge 1 and A1's edge 3, and
/// a separate square A2 = [5,6]x[0,1]; then a 2 x 3 grid.
fn hand_payload() -> Vec<u8> {
    let mut b = Bytes::default();
    prefix(&mut b, [0.5, 0.5], 1.0, 7, 4, 1);
    b.f(&[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 0.]);
    b.i(&[-1, -1, 1, 3, -1, -1, -1, -1]); // boundary links
    b.i(&[-1, -1, 2, 0, -1, -1]); // polygon links
    b.u(&[2]).f(&[0.25, 0.25, 0.0, 0.75, 0.75, 0.0]); // one block of 2 points
    prefix(&mut b, [1.5, 0.5], 1.0, 8, 4, 0);
    b.f(&[1., 0., 0., 2., 0., 0., 2., 1., 0., 1., 1., 0.]);
    b.i(&[-1, -1, -1, -1, -1, -1, 0, 1]);
    prefix(&mut b, [5.5, 0.5], 1.0, 9, 4, 0);
    b.f(&[5., 0., 0., 6., 0., 0., 6., 1., 0., 5., 1., 0.]);
    b.i(&[-1, -1, -1, -1, -1, -1, -1, -1]);
    b.u(&[2, 3]);
    // x outer, y inner: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2)
    b.h(&[2, 0, 1])
        .h(&[1, 0])
        .h(&[0])
        .h(&[1, 2])
        .h(&[2, 2, 1])
        .h(&[1, 2]);
    b.0
}

fn map_entries(payload: &[u8], count: u32) -> Vec<(EntryMeta, &[u8])> {
    vec![(
        EntryMeta {
            name: b"ArealMap".to_vec(),
            type_id: 12,
            attr1: count,
            attr2: 0,
            attr3: 0,
        },
        payload,
    )]
}

#[test]
fn reads_the_hand_built_areals() {
    let payload = hand_payload();
    let map = LandMap::from_entries(&map_entries(&payload, 3)).unwrap();
    assert_eq!(map.areals.len(), 3);
    let a0 = &map.areals[0];
    assert_eq!(a0.anchor, [0.5, 0.5, 0.0]);
    assert_eq!(
        (a0.area_metric, a0.normal, a0.logic_flag, a0.class_id),
        (1.0, [0., 0., 1.], 1, 7)
    );
    assert_eq!(a0.vertices.len(), 4);
    assert_eq!(
        a0.links[1],
        EdgeLink {
            area_ref: 1,
            edge_ref: 3
        }
    );
    assert_eq!(a0.links[1].target(), Some((1, 3)));
    assert_eq!(a0.links[0].target(), None);
    assert_eq!(
        a0.polygon_links,
        vec![
            EdgeLink::NONE,
            EdgeLink {
                area_ref: 2,
                edge_ref: 0
            },
            EdgeLink::NONE
        ]
    );
    assert_eq!(a0.polygons.len(), 1);
    assert_eq!(
        a0.polygons[0].points,
        vec![[0.25, 0.25, 0.0], [0.75, 0.75, 0.0]]
    );
    assert_eq!(
        map.areals[1].links[3],
        EdgeLink {
            area_ref: 0,
            edge_ref: 1
        }
    );
    assert_eq!(a0.edge_midpoint(1), Some([1.0, 0.5]));
}

#[test]
fn grid_cells_are_read_x_outer_y_inner_into_the_packed_form() {
    let payload = hand_payload();
    let map = LandMap::from_entries(&map_entries(&payload, 3)).unwrap();
    let g = &map.grid;
    assert_eq!((g.cells_x, g.cells_y), (2, 3));
    assert_eq!(g.cell(0, 0), &[0, 1]);
    assert_eq!(g.cell(0, 1), &[0]);
    assert_eq!(g.cell(0, 2), &[] as &[u16]);
    assert_eq!(g.cell(1, 0), &[2]);
    assert_eq!(g.cell(1, 1), &[2, 1]);
    assert_eq!(g.cell(1, 2), &[2]);
    assert_eq!(g.cell(2, 0), &[] as &[u16]);
    assert_eq!(g.pool, vec![0, 1, 0, 2, 2, 1, 2]);
    // hit count in the high 10 bits, start in the low 22.
    assert_eq!(
        g.packed,
        vec![
            2 << 22,
            (1 << 22) | 2,
            3,
            (1 << 22) | 3,
            (2 << 22) | 4,
            (1 << 22) | 6
        ]
    );
    assert_eq!(g.max_hits(), 2);
}

#[test]
fn packed_cell_words_hold_10_and_22_bits() {
    assert_eq!(pack_cell(0x3F_FFFF, 1023, 0).unwrap(), 0xFFFF_FFFF);
    assert_eq!(unpack_cell(0xFFFF_FFFF), (0x3F_FFFF, 1023));
    assert_eq!(unpack_cell(pack_cell(5, 3, 0).unwrap()), (5, 3));
    let unpackable = "Land.map: expected a cell list the packed form holds \
                      (count <= 1023, start <= 4194303), found ";
    expect_error(
        pack_cell(0, 1024, 0),
        0,
        &format!("{unpackable}count 1024 at start 0"),
    );
    expect_error(
        pack_cell(0x40_0000, 1, 0),
        0,
        &format!("{unpackable}count 1 at start 4194304"),
    );
    let grid = CellGrid::from_lists(1, 2, &[vec![3, 4], vec![5]]).unwrap();
    assert_eq!(
        (grid.cell(0, 0), grid.cell(0, 1)),
        (&[3u16, 4][..], &[5u16][..])
    );
    expect_error(
        CellGrid::from_lists(2, 2, &[vec![]]),
        0,
        "Land.map: expected 2 x 2 cell lists (at least one), found 1",
    );
}

#[test]
fn round_trips_byte_identical() {
    let payload = hand_payload();
    let map = LandMap::from_entries(&map_entries(&payload, 3)).unwrap();
    assert_eq!(map.payload().unwrap(), payload);
    let file = map.to_bytes().unwrap();
    let again = LandMap::parse(&file, Mode::Strict).unwrap();
    assert_eq!(again, map);
    let nres = Nres::parse(&file, Mode::Strict).unwrap();
    assert_eq!(again.rewrite(&nres).unwrap(), file);
}

fn err(payload: &[u8], count: u32) -> (Problem, u64) {
    let e = parse_payload(count, payload).unwrap_err();
    (e.problem.clone(), e.offset)
}

#[test]
fn rejects_a_zero_areal_count_and_an_empty_grid() {
    assert!(matches!(err(&hand_payload(), 0).0, Problem::Invalid { .. }));
    let mut p = hand_payload();
    let grid_at = p.len() - 2 * (6 + 7) - 8;
    p[grid_at..grid_at + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(err(&p, 3).1, grid_at as u64);
}

#[test]
fn rejects_a_cell_id_past_the_areals() {
    let mut p = hand_payload();
    let last = p.len() - 2;
    p[last..].copy_from_slice(&3u16.to_le_bytes());
    assert_eq!(err(&p, 3).1, last as u64);
}

#[test]
fn rejects_links_to_missing_areals_or_edges() {
    // A0 link 1 = (1, 3) starts at 56 + 48 + 8.
    let at = 56 + 48 + 8;
    for (area, edge) in [(3, 0), (1, 4), (-1, 0), (0, -1), (-2, -2)] {
        let mut p = hand_payload();
        p[at..at + 4].copy_from_slice(&i32::to_le_bytes(area));
        p[at + 4..at + 8].copy_from_slice(&i32::to_le_bytes(edge));
        assert!(
            matches!(err(&p, 3).0, Problem::Invalid { .. }),
            "({area}, {edge})"
        );
    }
}

#[test]
fn rejects_trailing_and_missing_bytes() {
    let mut p = hand_payload();
    p.push(0);
    assert!(matches!(err(&p, 3).0, Problem::TrailingBytes { count: 1 }));
    let p = hand_payload();
    assert!(err(&p[..p.len() - 1], 3).0 != Problem::TrailingBytes { count: 0 });
    // One areal too many eats into the grid.
    expect_error(
        parse_payload(4, &p),
        492,
        "Land.map: truncated: expected 4 more bytes, 2 available",
    );
}

#[test]
fn rejects_more_hits_than_the_packed_form_holds() {
    let mut b = Bytes::default();
    prefix(&mut b, [0.5, 0.5], 1.0, 0, 3, 0);
    b.f(&[0., 0., 0., 1., 0., 0., 0., 1., 0.])
        .i(&[-1; 6])
        .u(&[1, 1])
        .h(&[1024])
        .h(&[0; 1024]);
    assert!(matches!(err(&b.0, 1).0, Problem::Invalid { .. }));
}

#[test]
fn needs_exactly_one_type_12_entry() {
    let payload = hand_payload();
    let mut entries = map_entries(&payload, 3);
    entries[0].0.type_id = 13;
    assert!(matches!(
        LandMap::from_entries(&entries).unwrap_err().problem,
        Problem::Missing { .. }
    ));
    let mut two = map_entries(&payload, 3);
    two.extend(map_entries(&payload, 3));
    assert_eq!(
        LandMap::from_entries(&two)
            .unwrap_err()
            .entry
            .as_ref()
            .map(|e| e.index),
        Some(1)
    );
    // Other entries are kept verbatim.
    let other = (
        EntryMeta {
            name: b"X".to_vec(),
            type_id: 5,
            attr1: 1,
            attr2: 2,
            attr3: 3,
        },
        &b"abc"[..],
    );
    let mut mixed = vec![other.clone()];
    mixed.extend(map_entries(&payload, 3));
    let map = LandMap::from_entries(&mixed).unwrap();
    assert_eq!(map.map_entry, 1);
    let out = map.to_entries().unwrap();
    assert_eq!((out[0].0.clone(), out[0].1.as_slice()), other);
    assert_eq!(out[1].1, payload);
}

#[test]
fn point_lookup_goes_through_the_grid() {
    let payload = hand_payload();
    let map = LandMap::from_entries(&map_entries(&payload, 3)).unwrap();
    let locate = ArealLocator::new(&map);
    // Frame [0,6] x [0,1]: cells 3 wide, 1/3 high.
    assert_eq!(locate.areal_at(0.5, 0.5), Some(0));
    assert_eq!(locate.areal_at(1.5, 0.2), Some(1));
    assert_eq!(locate.areal_at(5.5, 0.9), Some(2));
    // A1 contains (1.5, 0.5) but cell (0, 1) lists only A0.
    assert_eq!(locate.areal_at(1.5, 0.5), None);
    assert_eq!(locate.areal_at(3.0, 0.5), None); // in no areal
    assert_eq!(locate.areal_at(7.0, 0.5), None); // off the grid
    // On the shared edge: both contain it on their boundary, lowest id wins.
    assert_eq!(locate.areal_at(1.0, 0.1), Some(0));
}

/// A hand-made 3 x 3 grid of unit areals with the centre one removed (a
/// ring), plus an island far right.
fn ring() -> LandMap {
    let mut shapes = Vec::new();
    for y in 0..3 {
        for x in 0..3 {
            if (x, y) != (1, 1) {
                shapes.push(ArealShape {
                    vertices: square(x as f32, y as f32, 1.0),
                    logic_flag: 1,
                    class_id: 0,
                });
            }
        }
    }
    shapes.push(ArealShape {
        vertices: square(5.0, 0.0, 1.0),
        logic_flag: 1,
        class_id: 0,
    });
    land_map_from_polygons(&shapes, [8, 4]).unwrap()
}

#[test]
fn builder_links_shared_edges_both_ways() {
    let map = ring();
    // Areal 0 = (0,0), 1 = (1,0): A0 edge 1 (right) meets A1 edge 3 (left).
    assert_eq!(
        map.areals[0].links[1],
        EdgeLink {
            area_ref: 1,
            edge_ref: 3
        }
    );
    assert_eq!(
        map.areals[1].links[3],
        EdgeLink {
            area_ref: 0,
            edge_ref: 1
        }
    );
    assert_eq!(map.areals[0].area_metric, 1.0);
    assert_eq!(map.areals[0].anchor, [0.5, 0.5, 0.0]);
    let file = map.to_bytes().unwrap();
    assert_eq!(LandMap::parse(&file, Mode::Strict).unwrap(), map);
}

#[test]
fn a_star_goes_round_the_hole_and_reports_crossed_edges() {
    let map = ring();
    let nav = Navigator::new(&map);
    // From (0,1) [areal 3] to (2,1) [areal 4]: round the hole, either way is
    // 4 crossings; ties go to the lower id so the route is fixed.
    let route = nav.route([0.5, 1.5], [2.5, 1.5]).unwrap();
    assert_eq!(route.areals.len(), 5);
    assert_eq!(route.areals.first(), Some(&3));
    assert_eq!(route.areals.last(), Some(&4));
    assert_eq!(route.crossings.len(), 4);
    for (w, c) in route.areals.windows(2).zip(&route.crossings) {
        assert_eq!((c.from, c.to), (w[0], w[1]));
        let back = map.areals[c.to as usize].links[c.to_edge as usize];
        assert_eq!(
            back,
            EdgeLink {
                area_ref: c.from as i32,
                edge_ref: c.edge as i32
            }
        );
    }
    // Straight neighbours: one crossing, A0 right edge into A1 left edge.
    let route = nav.route([0.5, 0.5], [1.5, 0.5]).unwrap();
    assert_eq!(route.areals, vec![0, 1]);
    assert_eq!(
        route.crossings,
        vec![Crossing {
            from: 0,
            edge: 1,
            to: 1,
            to_edge: 3
        }]
    );
    assert!((route.cost - 1.0).abs() < 1e-9);
    // Same areal: no crossing.
    let route = nav.route([0.2, 0.2], [0.8, 0.8]).unwrap();
    assert_eq!((route.areals, route.crossings.len()), (vec![0], 0));
}

#[test]
fn a_star_reports_unreachable_and_outside() {
    let map = ring();
    let nav = Navigator::new(&map);
    assert_eq!(
        nav.route([0.5, 0.5], [5.5, 0.5]),
        Err(RouteError::Unreachable { from: 0, to: 8 })
    );
    assert_eq!(
        nav.route([1.5, 1.5], [0.5, 0.5]),
        Err(RouteError::StartOutside)
    );
    assert_eq!(
        nav.route([0.5, 0.5], [9.0, 0.5]),
        Err(RouteError::GoalOutside)
    );
    // Blocking the bottom row's middle forces the way over the top.
    let route = nav
        .route_where([0.5, 0.5], [2.5, 0.5], |a| a.vertices[0] != [1.0, 0.0, 0.0])
        .unwrap();
    assert_eq!(route.areals.len(), 7);
}

/// The 3 x 3 grid of side-`side` squares, the centre one with `centre_flag`
/// as its first flag word.
fn grid_with_centre(side: f32, centre_flag: u32) -> LandMap {
    let shapes: Vec<ArealShape> = (0..9)
        .map(|i| ArealShape {
            vertices: square((i % 3) as f32 * side, (i / 3) as f32 * side, side),
            logic_flag: if i == 4 { centre_flag } else { 1 },
            class_id: 0,
        })
        .collect();
    land_map_from_polygons(&shapes, [6, 6]).unwrap()
}

#[test]
fn behaviour_plans_cost_centre_distance_plus_one_compounded_by_the_draws() {
    let map = ring();
    let nav = Navigator::new(&map);
    // Round the hole: four steps of centre distance 1, each (g + 1 + 1).
    let calm = nav.plan([0.5, 1.5], [2.5, 1.5], |_| false, || 0).unwrap();
    assert_eq!(calm.crossings.len(), 4);
    assert_eq!(calm.cost, 8.0);
    // Every draw at RAND_MAX: each step's cost so far times 1.7.
    let wild = nav
        .plan([0.5, 1.5], [2.5, 1.5], |_| false, || RAND_MAX)
        .unwrap();
    let expected = (0..4).fold(0.0, |g: f64, _| (g + 2.0) * (1.0 + PLAN_JITTER));
    assert!((wild.cost - expected).abs() < 1e-9, "{}", wild.cost);
    // The same draws give the same path.
    let draws = |seed: u32| {
        let mut x = seed;
        move || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 16) & 0x7fff) as u16
        }
    };
    assert_eq!(
        nav.plan([0.5, 0.5], [2.5, 2.5], |_| false, draws(7)),
        nav.plan([0.5, 0.5], [2.5, 2.5], |_| false, draws(7))
    );
}

#[test]
fn behaviour_plans_only_over_walkable_areals() {
    let map = grid_with_centre(1.0, 0);
    let nav = Navigator::new(&map);
    // Left middle to right middle: every-areal routing crosses the centre,
    // the walker's plan goes round it.
    let direct = nav.route([0.5, 1.5], [2.5, 1.5]).unwrap();
    assert_eq!(direct.areals, vec![3, 4, 5]);
    let walked = nav.plan([0.5, 1.5], [2.5, 1.5], |_| false, || 0).unwrap();
    assert_eq!(walked.areals.len(), 5);
    assert!(!walked.areals.contains(&4), "{:?}", walked.areals);
    assert_eq!(
        nav.plan([1.5, 1.5], [0.5, 0.5], |_| false, || 0),
        Err(RouteError::StartNotWalkable { areal: 4 })
    );
    assert_eq!(
        nav.plan([0.5, 0.5], [1.5, 1.5], |_| false, || 0),
        Err(RouteError::GoalNotWalkable { areal: 4 })
    );
    assert!(!map.areals[4].is_walkable() && map.areals[0].is_walkable());
    // An areal cut away (by a tree or a stone) is gone round the same way.
    let open = grid_with_centre(1.0, 1);
    let nav = Navigator::new(&open);
    let cut = nav.plan([0.5, 1.5], [2.5, 1.5], |a| a == 4, || 0).unwrap();
    assert_eq!(cut.areals, walked.areals);
    assert_eq!(
        nav.plan([0.5, 0.5], [1.5, 1.5], |a| a == 4, || 0),
        Err(RouteError::GoalNotWalkable { areal: 4 })
    );
}

#[test]
fn behaviour_plans_give_up_after_2048_areals() {
    let strip = |n: usize| {
        let xs: Vec<f32> = (0..n).map(|x| x as f32).collect();
        land_map_from_polygons(&areals::unit_squares_in_a_row(&xs), [64, 1]).unwrap()
    };
    let far = |n: usize| [n as f32 - 0.5, 0.5];
    // A strip of 2048 areals is searched to its end; one more is too many.
    let fits = strip(PLAN_NODE_LIMIT);
    let route = Navigator::new(&fits).plan([0.5, 0.5], far(PLAN_NODE_LIMIT), |_| false, || 0);
    assert_eq!(route.map(|r| r.areals.len()), Ok(PLAN_NODE_LIMIT));
    let long = strip(PLAN_NODE_LIMIT + 1);
    assert_eq!(
        Navigator::new(&long).plan([0.5, 0.5], far(PLAN_NODE_LIMIT + 1), |_| false, || 0),
        Err(RouteError::GaveUp {
            taken: PLAN_NODE_LIMIT
        })
    );
}

#[test]
fn waypoints_lie_where_the_line_to_the_goal_crosses_each_edge_or_near_an_end() {
    let map = grid_with_centre(10.0, 0);
    let nav = Navigator::new(&map);
    // Bottom row, left to right: the line y = 5 crosses both edges.
    let (from, to) = ([5.0, 5.0], [25.0, 5.0]);
    let route = nav.plan(from, to, |_| false, || 0).unwrap();
    assert_eq!(
        nav.waypoints(&route, from, to),
        vec![[10.0, 5.0], [20.0, 5.0], [25.0, 5.0]]
    );
    // Along the bottom, 1 off the row's lower side: each crossing is moved
    // 3 in from the edge's end (the body does not cut the corner).
    let (from, to) = ([5.0, 1.0], [25.0, 1.0]);
    let route = nav.plan(from, to, |_| false, || 0).unwrap();
    assert_eq!(
        nav.waypoints(&route, from, to),
        vec![[10.0, 3.0], [20.0, 3.0], [25.0, 1.0]]
    );
    // Left middle to right middle round the non-walkable centre: the line
    // to the goal misses the first edge (it runs through the centre), so
    // the point is that edge's end nearer the way, moved 3 along it.
    let (from, to) = ([5.0, 15.0], [25.0, 15.0]);
    let route = nav.plan(from, to, |_| false, || 0).unwrap();
    let points = nav.waypoints(&route, from, to);
    assert_eq!(points.len(), 5);
    assert_eq!(points.last(), Some(&[25.0, 15.0]));
    // Ties go to the lower id: down through areal 0, whose top edge runs
    // (0, 10)..(10, 10); of its ends moved in, (7, 10) is nearer the goal.
    assert_eq!(route.areals, vec![3, 0, 1, 2, 5]);
    assert_eq!(points[0], [7.0, 10.0]);
}

proptest! {
    #[test]
    fn generated_maps_round_trip_and_locate_every_anchor(cols in 1usize..6, rows in 1usize..6, cells in 1u32..9) {
        let shapes: Vec<ArealShape> = (0..rows)
            .flat_map(|y| (0..cols).map(move |x| (x, y)))
            .map(|(x, y)| ArealShape { vertices: square(x as f32 * 2.0, y as f32 * 2.0, 2.0), logic_flag: 0, class_id: 0 })
            .collect();
        let map = land_map_from_polygons(&shapes, [cells, cells + 1]).unwrap();
        let file = map.to_bytes().unwrap();
        let again = LandMap::parse(&file, Mode::Strict).unwrap();
        prop_assert_eq!(&again, &map);
        prop_assert_eq!(again.to_bytes().unwrap(), file);
        let locate = ArealLocator::new(&map);
        for (i, a) in map.areals.iter().enumerate() {
            prop_assert_eq!(locate.areal_at(a.anchor[0], a.anchor[1]), Some(i as u32));
        }
    }
}
