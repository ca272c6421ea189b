//! Land.msh: hand-built stream vectors from the terrain reference, the
//! checks of every cross-table reference, lossless round trips, the mask
//! remaps and the surface queries.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::error::Problem;
use iron3d_formats::terrain::EntryMeta;
use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield};
use iron3d_formats::terrain::land_msh::{LandMsh, NO_INDEX, TerrainFace28};
use iron3d_formats::terrain::mask::{
    CompactMask, MAIN16_MAP, MATERIAL6_MAP, SurfaceMask, compact_to_full, full_to_compact,
};
use iron3d_formats::terrain::surface::{FaceFilter, TerrainSurface};
use proptest::prelude::*;
use support::{entry_of, expect_error};

fn meta(type_id: u32, attr1: u32, attr3: u32) -> EntryMeta {
    EntryMeta {
        name: b"Land".to_vec(),
        type_id,
        attr1,
        attr2: 0,
        attr3,
    }
}

fn le16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn lef32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A unit square (4 vertices, 2 faces that neighbour each other across the
/// diagonal), one slot holding both faces and one node selecting it at
/// state 0, LOD 0; streams in the retail order.
fn square_streams() -> Vec<(EntryMeta, Vec<u8>)> {
    let positions = lef32(&[0., 0., 0., 1., 0., 0., 1., 1., 1., 0., 1., 1.]);
    let packed = |n: usize, seed: u8| {
        (0..n * 4)
            .map(|i| seed.wrapping_add(i as u8))
            .collect::<Vec<u8>>()
    };
    let mut node = le16(&[0, 0xFFFF, 0, 0]);
    node.extend(le16(&[0; 1]));
    node.extend(le16(&[0xFFFF; 14]));
    let mut slots = vec![0xA5u8; 0x8C]; // header kept raw
    slots.extend(le16(&[0, 2, 0, 0]));
    slots.extend(lef32(&[0., 0., 0., 1., 1., 1., 0.5, 0.5, 0.5, 0.9]));
    slots.extend([7u8; 20]);
    let face = |flags: u32, v: [u16; 3], n: [u16; 3], tail: u8| {
        let mut f = flags.to_le_bytes().to_vec();
        f.extend([1, 0xFF, 0xFF, 0xFF]);
        f.extend(le16(&v));
        f.extend(le16(&n));
        f.extend([tail; 8]);
        f
    };
    let mut faces = face(0x0020_0040, [0, 1, 2], [NO_INDEX, NO_INDEX, 1], 0x11);
    faces.extend(face(0x8000_0001, [0, 2, 3], [0, NO_INDEX, NO_INDEX], 0x22));
    vec![
        (meta(1, 1, 38), node),
        (meta(2, 1, 68), slots),
        (meta(3, 4, 12), positions),
        (meta(4, 4, 4), packed(4, 10)),
        (meta(5, 4, 4), packed(4, 50)),
        (meta(18, 4, 4), packed(4, 90)),
        (meta(14, 4, 4), packed(4, 130)),
        (meta(11, 2, 4), packed(2, 170)),
        (meta(21, 2, 28), faces),
    ]
}

fn parse(streams: &[(EntryMeta, Vec<u8>)]) -> iron3d_formats::error::Result<LandMsh> {
    let view: Vec<(EntryMeta, &[u8])> = streams
        .iter()
        .map(|(m, p)| (m.clone(), p.as_slice()))
        .collect();
    LandMsh::from_entries(&view)
}

#[test]
fn reads_the_hand_built_square() {
    let land = parse(&square_streams()).unwrap();
    assert_eq!(land.positions.len(), 4);
    assert_eq!(land.positions[2], [1., 1., 1.]);
    assert_eq!(land.faces.len(), 2);
    assert_eq!(
        land.faces[0],
        TerrainFace28 {
            flags: 0x0020_0040,
            service: [1, 0xFF, 0xFF, 0xFF],
            vertices: [0, 1, 2],
            neighbours: [NO_INDEX, NO_INDEX, 1],
            tail: [0x11; 8],
        }
    );
    assert_eq!(land.faces[1].neighbours, [0, NO_INDEX, NO_INDEX]);
    assert_eq!(land.slots.len(), 1);
    assert_eq!((land.slots[0].tri_start, land.slots[0].tri_count), (0, 2));
    assert_eq!(land.slots[0].sphere_radius, 0.9);
    assert_eq!(land.slots[0].opaque, [0x0707_0707; 5]);
    assert_eq!(land.slot_header, vec![0xA5; 0x8C]);
    assert_eq!(land.nodes[0].slot(0, 0), Some(0));
    assert_eq!(land.nodes[0].slot(0, 1), None);
    assert_eq!(
        land.uv0[0],
        [u16::from_le_bytes([50, 51]), u16::from_le_bytes([52, 53])]
    );
    assert_eq!(land.lod_faces(0), vec![0, 1]);
    assert!(land.lod_faces(1).is_empty());
    assert!(land.aux14.is_some());
    assert_eq!(land.bounds(), Some(([0., 0., 0.], [1., 1., 1.])));
}

#[test]
fn streams_round_trip_byte_identical() {
    let streams = square_streams();
    let land = parse(&streams).unwrap();
    assert_eq!(land.to_entries().unwrap(), streams);
}

#[test]
fn container_round_trips_canonically_and_losslessly() {
    let land = parse(&square_streams()).unwrap();
    let file = land.to_bytes().unwrap();
    let again = LandMsh::parse(&file, Mode::Strict).unwrap();
    assert_eq!(again, land);
    assert_eq!(again.to_bytes().unwrap(), file);
    let nres = Nres::parse(&file, Mode::Strict).unwrap();
    assert_eq!(again.rewrite(&nres).unwrap(), file);
}

/// Face bytes +4/+5 are the layer texture indices, streams 5/18 the layer
/// UVs at 8.8 fixed point, stream 14 the f32 layer-1 weight; the typed
/// accessors read them without changing the bytes written back.
#[test]
fn layer_textures_uvs_and_weights_are_typed_and_lossless() {
    let mut streams = square_streams();
    // Face 1: layer 1 texture 3, layer 2 texture 7 (bytes +4, +5).
    streams[8].1[28 + 4] = 3;
    streams[8].1[28 + 5] = 7;
    // Vertex 1 UVs: layer 1 (1.5, 0.25), layer 2 (256 - 1/256, 2.0).
    streams[4].1[4..8].copy_from_slice(&le16(&[0x0180, 0x0040]));
    streams[5].1[4..8].copy_from_slice(&le16(&[0xFFFF, 0x0200]));
    // Vertex weights 1.0, 0.25, NaN, -7.0 (NaN reads as 1, -7 clamps to 0).
    streams[6].1 = lef32(&[1.0, 0.25, f32::NAN, -7.0]);
    let land = parse(&streams).unwrap();
    assert_eq!(land.faces[0].layer1_texture(), 1);
    assert_eq!(land.faces[0].layer2_texture(), None);
    assert_eq!(land.faces[1].layer1_texture(), 3);
    assert_eq!(land.faces[1].layer2_texture(), Some(7));
    assert_eq!(land.layer1_uv(1), Some([1.5, 0.25]));
    assert_eq!(land.layer2_uv(1), Some([255.996_1, 2.0]));
    assert_eq!(land.layer1_uv(4), None);
    let weights: Vec<f32> = (0..5).map(|i| land.layer1_weight(i)).collect();
    assert_eq!(weights, [1.0, 0.25, 1.0, 0.0, 1.0]);
    assert_eq!(land.to_entries().unwrap(), streams, "reading is lossless");

    let mut edited = land.clone();
    edited.faces[0].set_layer_textures(9, Some(2));
    assert_eq!(edited.faces[0].service, [9, 2, 0xFF, 0xFF]);
    edited.faces[1].set_layer_textures(4, None);
    assert_eq!(edited.faces[1].layer2_texture(), None);
    edited.set_layer1_weights(&[0.5; 4]);
    let again = parse(&edited.to_entries().unwrap()).unwrap();
    assert_eq!(again, edited);
    assert_eq!(again.layer1_weight(3), 0.5);
}

#[test]
fn weights_default_to_one_and_setting_them_adds_stream_14() {
    let streams: Vec<_> = square_streams()
        .into_iter()
        .filter(|(m, _)| m.type_id != 14)
        .collect();
    let mut land = parse(&streams).unwrap();
    assert_eq!(land.layer1_weight(0), 1.0);
    land.set_layer1_weights(&[0.0, 0.5, 1.0, 1.0]);
    let entries = land.to_entries().unwrap();
    let (meta, payload) = entries.last().unwrap();
    assert_eq!((meta.type_id, meta.attr1, meta.attr3), (14, 4, 4));
    assert_eq!(payload, &lef32(&[0.0, 0.5, 1.0, 1.0]));
    assert_eq!(parse(&entries).unwrap().layer1_weight(1), 0.5);
}

fn problem_of(streams: &[(EntryMeta, Vec<u8>)]) -> (Problem, u64, Option<usize>) {
    let e = parse(streams).unwrap_err();
    (
        e.problem.clone(),
        e.offset,
        e.entry.as_ref().map(|e| e.index),
    )
}

fn set_face_u16(streams: &mut [(EntryMeta, Vec<u8>)], face: usize, offset: usize, v: u16) {
    let at = face * 28 + offset;
    streams[8].1[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn rejects_a_vertex_index_past_the_positions() {
    let mut s = square_streams();
    set_face_u16(&mut s, 1, 0x0C, 4);
    let (p, offset, entry) = problem_of(&s);
    assert!(matches!(p, Problem::Invalid { .. }));
    assert_eq!((offset, entry), (28 + 0x0C, Some(8)));
}

#[test]
fn rejects_a_neighbour_past_the_faces_but_accepts_ffff() {
    let mut s = square_streams();
    set_face_u16(&mut s, 0, 0x0E, 2);
    let (_, offset, _) = problem_of(&s);
    assert_eq!(offset, 0x0E);
    set_face_u16(&mut s, 0, 0x0E, 0xFFFF);
    parse(&s).unwrap();
}

#[test]
fn rejects_attr1_and_attr3_that_disagree_with_the_payload() {
    let mut s = square_streams();
    s[2].0.attr1 = 5;
    assert!(matches!(problem_of(&s).0, Problem::Invalid { .. }));
    let mut s = square_streams();
    s[3].0.attr3 = 8;
    assert_eq!(problem_of(&s).2, Some(3));
    let mut s = square_streams();
    s[2].1.push(0); // 49 bytes of positions
    assert!(matches!(problem_of(&s).0, Problem::Invalid { .. }));
}

#[test]
fn slot_table_needs_its_header_and_whole_records() {
    let mut s = square_streams();
    s[1].1.truncate(0x8B);
    s[1].0.attr1 = 0;
    let e = expect_error(
        parse(&s),
        0,
        "Land.msh: expected a payload of at least 0x8c bytes, found 139",
    );
    assert_eq!(entry_of(&e), Some((1, "Land")));
    let mut s = square_streams();
    s[1].1.truncate(0x8C);
    s[1].0.attr1 = 0;
    let land = parse(&s).map(|l| l.slots.len());
    // No slot left for the node to select: its index 0 is out of range.
    let e = expect_error(
        land,
        8,
        "Land.msh: expected node 0 slot index 0xFFFF or below the slot count 0, found 0",
    );
    assert_eq!(entry_of(&e), Some((0, "Land")));
}

#[test]
fn rejects_a_slot_range_past_the_faces() {
    let mut s = square_streams();
    s[1].1[0x8C + 2..0x8C + 4].copy_from_slice(&3u16.to_le_bytes());
    let (_, offset, entry) = problem_of(&s);
    assert_eq!((offset, entry), (0x8C, Some(1)));
}

#[test]
fn rejects_a_node_slot_index_past_the_slots() {
    let mut s = square_streams();
    s[0].1[8..10].copy_from_slice(&1u16.to_le_bytes());
    let (_, offset, entry) = problem_of(&s);
    assert_eq!((offset, entry), (8, Some(0)));
}

#[test]
fn per_vertex_streams_must_match_the_vertex_count() {
    let mut s = square_streams();
    s[5].1.truncate(12);
    s[5].0.attr1 = 3;
    assert!(matches!(problem_of(&s).0, Problem::Invalid { .. }));
}

#[test]
fn every_required_stream_is_required_but_14_is_optional() {
    for skip in [0, 1, 2, 3, 4, 5, 7, 8] {
        let mut s = square_streams();
        let t = s.remove(skip).0.type_id;
        let (p, _, _) = problem_of(&s);
        assert!(matches!(p, Problem::Missing { .. }), "type {t}");
    }
    let mut s = square_streams();
    s.remove(6);
    let land = parse(&s).unwrap();
    assert_eq!(land.aux14, None);
    assert_eq!(land.to_entries().unwrap(), s);
}

#[test]
fn unknown_and_duplicate_entries_are_kept_verbatim() {
    let mut s = square_streams();
    s.insert(3, (meta(99, 7, 1), b"opaque".to_vec()));
    s.push((meta(3, 1, 12), vec![9; 12])); // a second type 3: not the one read
    let land = parse(&s).unwrap();
    assert_eq!(land.positions.len(), 4);
    assert_eq!(land.layout[3].payload.as_deref(), Some(&b"opaque"[..]));
    assert_eq!(land.to_entries().unwrap(), s);
}

#[test]
fn stream_order_is_kept() {
    let mut s = square_streams();
    s.reverse();
    let land = parse(&s).unwrap();
    assert_eq!(land.to_entries().unwrap(), s);
}

#[test]
fn mask_remap_of_every_listed_bit_both_ways() {
    for (full, main) in MAIN16_MAP {
        let c = full_to_compact(full);
        assert_eq!(c, CompactMask { main, material: 0 }, "full {full:#x}");
        assert_eq!(compact_to_full(c), (full, CompactMask::default()));
    }
    for (full, material) in MATERIAL6_MAP {
        let c = full_to_compact(full);
        assert_eq!(c, CompactMask { main: 0, material }, "full {full:#x}");
        assert_eq!(compact_to_full(c), (full, CompactMask::default()));
    }
    // The two rows the newer reference confirms.
    assert_eq!(full_to_compact(0x0020_0040).main, 0xA000);
    assert_eq!(full_to_compact(0x0008_0080).material, 0x30);
}

#[test]
fn mask_remap_keeps_unknown_bits() {
    let full = 0x8000_0000 | 0x0010_0000 | 0x0000_0001;
    let m = SurfaceMask::from_full(full);
    assert_eq!(m.unmapped, 0x8010_0000);
    assert_eq!(m.compact.main, 0x0001);
    assert_eq!(m.to_full(), full);
    // Compact bits without a full bit come back as the rest.
    let (f, rest) = compact_to_full(CompactMask {
        main: 0x4001,
        material: 0xC1,
    });
    assert_eq!(f, 0x0000_0101);
    assert_eq!(
        rest,
        CompactMask {
            main: 0x4000,
            material: 0xC0
        }
    );
}

proptest! {
    #[test]
    fn full_mask_split_is_lossless(full in any::<u32>()) {
        prop_assert_eq!(SurfaceMask::from_full(full).to_full(), full);
    }

    #[test]
    fn heightfields_round_trip(cols in 2usize..7, rows in 2usize..7, block in 1usize..4, seed in any::<u32>()) {
        let heights = (0..cols * rows).map(|i| (hash(seed, i as u32) % 1000) as f32 / 10.0).collect();
        let h = Heightfield { cols, rows, origin: [-5.0, 3.0], spacing: 2.5, heights, block };
        let land = land_from_heightfield(&h).unwrap();
        let file = land.to_bytes().unwrap();
        let again = LandMsh::parse(&file, Mode::Strict).unwrap();
        prop_assert_eq!(&again, &land);
        prop_assert_eq!(again.to_bytes().unwrap(), file);
    }
}

/// Integer hash noise (no platform float maths in generated content).
fn hash(seed: u32, i: u32) -> u32 {
    let mut x = seed ^ i.wrapping_mul(0x9E37_79B9);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^= x >> 13;
    x = x.wrapping_mul(0xC2B2_AE35);
    x ^ (x >> 16)
}

/// A 5 x 4 vertex slope z = 0.5 x, spacing 2.
fn slope() -> LandMsh {
    let (cols, rows) = (5, 4);
    let heights = (0..rows)
        .flat_map(|_| (0..cols).map(|x| 0.5 * 2.0 * x as f32))
        .collect();
    land_from_heightfield(&Heightfield {
        cols,
        rows,
        origin: [0.0, 0.0],
        spacing: 2.0,
        heights,
        block: 2,
    })
    .unwrap()
}

#[test]
fn heightfield_faces_link_mutually_and_fill_their_slots() {
    let land = slope();
    assert_eq!(land.faces.len(), 2 * 4 * 3);
    for (i, f) in land.faces.iter().enumerate() {
        for n in f.neighbours.iter().filter(|&&n| n != NO_INDEX) {
            assert!(land.faces[*n as usize].neighbours.contains(&(i as u16)));
        }
    }
    assert_eq!(land.lod_faces(0).len(), land.faces.len());
    let total: usize = land.slots.iter().map(|s| s.tri_count as usize).sum();
    assert_eq!(total, land.faces.len());
    assert_eq!(land.nodes.len(), land.slots.len());
}

#[test]
fn height_and_normal_on_a_known_slope() {
    let surface = TerrainSurface::build_lod0(&slope());
    for (x, y) in [(0.0, 0.0), (1.3, 2.7), (3.99, 5.5), (8.0, 6.0), (4.0, 4.0)] {
        let z = surface.height(x, y).unwrap();
        assert!((z - 0.5 * x).abs() < 1e-5, "({x}, {y}) -> {z}");
        let n = surface.normal(x, y).unwrap();
        let len = (1.0f32 + 0.25).sqrt();
        let expected = [-0.5 / len, 0.0, 1.0 / len];
        for k in 0..3 {
            assert!((n[k] - expected[k]).abs() < 1e-5, "{n:?}");
        }
    }
    assert_eq!(surface.height(-0.1, 1.0), None);
    assert_eq!(surface.height(4.0, 6.01), None);
}

#[test]
fn height_query_honours_the_face_filter() {
    let mut land = slope();
    for f in &mut land.faces {
        f.flags = 0x0002_0000; // compactMain16 0x0200
    }
    let surface = TerrainSurface::build_lod0(&land);
    let water = FaceFilter {
        required: 0x0002_0000,
        forbidden: 0,
    };
    let dry = FaceFilter {
        required: 0,
        forbidden: 0x0002_0000,
    };
    assert!(surface.height_at(2.0, 2.0, water).is_some());
    assert!(surface.height_at(2.0, 2.0, dry).is_none());
}

#[test]
fn ray_hits_the_slope_and_misses_beside_it() {
    let land = slope();
    let surface = TerrainSurface::build_lod0(&land);
    // Straight down onto (3, 1): z = 1.5.
    let hit = surface
        .raycast([3.0, 1.0, 100.0], [0.0, 0.0, -1.0], 1000.0, FaceFilter::ANY)
        .unwrap();
    assert!(
        (hit.point[2] - 1.5).abs() < 1e-5 && (hit.t - 98.5).abs() < 1e-4,
        "{hit:?}"
    );
    assert_eq!(
        surface.height_at(3.0, 1.0, FaceFilter::ANY).unwrap().face,
        hit.face
    );
    // A slanted ray from outside the map that comes down onto it.
    let hit = surface
        .raycast([-10.0, 3.0, 10.0], [1.0, 0.0, -0.5], 100.0, FaceFilter::ANY)
        .unwrap();
    // Ray z = 10 - 0.5 (x + 10) meets z = 0.5 x at x = 5.
    assert!((hit.point[0] - 5.0).abs() < 1e-4, "{hit:?}");
    // A horizontal ray above the highest point misses; so does one beside
    // the map and one too short to reach.
    assert!(
        surface
            .raycast([-1.0, 3.0, 10.0], [1.0, 0.0, 0.0], 100.0, FaceFilter::ANY)
            .is_none()
    );
    assert!(
        surface
            .raycast([3.0, 20.0, 10.0], [0.0, 0.0, -1.0], 100.0, FaceFilter::ANY)
            .is_none()
    );
    assert!(
        surface
            .raycast([3.0, 1.0, 100.0], [0.0, 0.0, -1.0], 90.0, FaceFilter::ANY)
            .is_none()
    );
}

#[test]
fn raycast_returns_the_nearest_hit_across_cells() {
    // A horizontal ray into a wall-like ridge: the first crossing wins.
    let (cols, rows) = (9, 3);
    let heights = (0..rows)
        .flat_map(|_| (0..cols).map(|x| if x == 4 { 10.0 } else { 0.0 }))
        .collect();
    let land = land_from_heightfield(&Heightfield {
        cols,
        rows,
        origin: [0.0, 0.0],
        spacing: 1.0,
        heights,
        block: 1,
    })
    .unwrap();
    let surface = TerrainSurface::build_lod0(&land);
    let hit = surface
        .raycast([0.5, 1.0, 5.0], [1.0, 0.0, 0.0], 100.0, FaceFilter::ANY)
        .unwrap();
    assert!((hit.point[0] - 3.5).abs() < 1e-5, "{hit:?}");
    let back = surface
        .raycast([7.5, 1.0, 5.0], [-1.0, 0.0, 0.0], 100.0, FaceFilter::ANY)
        .unwrap();
    assert!((back.point[0] - 4.5).abs() < 1e-5, "{back:?}");
}

#[test]
fn the_highest_face_wins_and_huge_faces_keep_the_grid_small() {
    // A flat bed at z = 0 and one huge "water" face at z = 2 over all of it.
    let (cols, rows) = (20, 20);
    let mut land = land_from_heightfield(&Heightfield {
        cols,
        rows,
        origin: [0.0, 0.0],
        spacing: 1.0,
        heights: vec![0.0; cols * rows],
        block: 4,
    })
    .unwrap();
    let base = land.positions.len() as u16;
    land.positions.extend([
        [-100.0, -100.0, 2.0],
        [100.0, -100.0, 2.0],
        [0.0, 100.0, 2.0],
    ]);
    land.normals.resize(land.positions.len(), [0; 4]);
    if let Some(aux) = land.aux14.as_mut() {
        aux.resize(land.positions.len(), [0; 4]);
    }
    land.uv0.resize(land.positions.len(), [0; 2]);
    land.uv1.resize(land.positions.len(), [0; 2]);
    let mut water = land.faces[0];
    water.vertices = [base, base + 1, base + 2];
    water.neighbours = [NO_INDEX; 3];
    water.flags = 0x0002_0000;
    land.faces.push(water);
    let water_face = land.faces.len() as u32 - 1;
    let surface = TerrainSurface::build(&land, 0..land.faces.len() as u32);
    let hit = surface.height_at(5.5, 5.5, FaceFilter::ANY).unwrap();
    assert_eq!((hit.face, hit.point[2]), (water_face, 2.0));
    let bed = surface
        .height_at(
            5.5,
            5.5,
            FaceFilter {
                required: 0,
                forbidden: 0x0002_0000,
            },
        )
        .unwrap();
    assert_eq!(bed.point[2], 0.0);
    // The huge face covers every cell once; the grid stays within the
    // linear budget of the number of faces.
    let [x, y] = surface.grid_dims();
    assert!(x * y <= 16 * (surface.face_count() + 64), "{x} x {y}");
    // And the extra face makes a valid file that round-trips.
    land.refresh_layout().unwrap();
    let file = land.to_bytes().unwrap();
    assert_eq!(LandMsh::parse(&file, Mode::Strict).unwrap(), land);
}
