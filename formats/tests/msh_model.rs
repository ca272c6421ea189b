//! MSH: hand-written containers, round trips, the range checks of tome V and
//! the reference, and animation sampling of a two-node model.

mod msh_support;
mod support;

use iron3d_formats::archive::{Mode, nres};
use iron3d_formats::error::Problem;
use iron3d_formats::msh::{Msh, NONE, Nodes, Pose, kind};
use msh_support::*;
use support::{entry_of, expect_error};

fn built() -> Msh {
    Msh::build(two_node_parts()).expect("valid two-node model")
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

/// A container written by hand: each stream's bytes spelled out from the
/// reference layouts, entries in a non-canonical order with extra streams.
fn hand_written() -> Vec<u8> {
    let mut node = Vec::new();
    for w in [0x0040u16, NONE, NONE, 0] {
        node.extend_from_slice(&w.to_le_bytes());
    }
    for i in 0..15u16 {
        node.extend_from_slice(&(if i == 0 { 0 } else { NONE }).to_le_bytes());
    }
    let mut slots = vec![0x11u8; 0x8C];
    for w in [0u16, 0, 0, 1] {
        slots.extend_from_slice(&w.to_le_bytes());
    }
    for f in [0.0f32, 0.0, 0.0, 1.0, 1.0, 0.0, 0.5, 0.5, 0.0, 0.75] {
        slots.extend_from_slice(&f.to_le_bytes());
    }
    for w in [9u32, 8, 7, 6, 5] {
        slots.extend_from_slice(&w.to_le_bytes());
    }
    let positions: Vec<u8> = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let normals = [0u8, 0, 127, 0x55, 0, 0, 127, 0xAA, 0x81, 0, 0, 0];
    let uv0: Vec<u8> = [0u16, 0, 1024, 0, 0, 2048]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let indices: Vec<u8> = [0u16, 1, 2].iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut batch = vec![0x02, 0x40, 0x34, 0x12, 3, 0xFF, 0, 0, 3, 0];
    batch.extend_from_slice(&0u32.to_le_bytes());
    batch.extend_from_slice(&3u16.to_le_bytes());
    batch.extend_from_slice(&0u32.to_le_bytes());
    let mut key = Vec::new();
    for f in [0.5f32, 0.25, 0.125, 0.0] {
        key.extend_from_slice(&f.to_le_bytes());
    }
    for w in [32767i16, 0, 0, 0] {
        key.extend_from_slice(&w.to_le_bytes());
    }
    let e = |name: &str, type_id, attr1, attr2, attr3, payload| nres::NewEntry {
        name: name.as_bytes().to_vec(),
        type_id,
        attr1,
        attr2,
        attr3,
        payload,
    };
    let service = [1u8, 2, 3, 4, 5];
    nres::build(&[
        e("m.17", 17, 1, 2, 3, &service),
        e("m.1", 1, 1, 0, 38, &node),
        e("m.2", 2, 1, 0, 68, &slots),
        e("m.3", 3, 3, 0, 12, &positions),
        e("m.4", 4, 3, 0, 4, &normals),
        e("m.5", 5, 3, 0, 4, &uv0),
        e("m.13", 13, 1, 0, 20, &batch),
        e("m.6", 6, 3, 0, 2, &indices),
        e("m.8", 8, 1, 0, 4, &key),
        e("m.9", 9, 0, 0, 0, &service),
    ])
    .unwrap()
}

#[test]
fn hand_written_container_decodes_every_field() {
    let data = hand_written();
    let m = Msh::load(&data, Mode::Strict).unwrap();
    let n = &m.nodes.node38()[0];
    assert_eq!(
        (n.hdr0, n.parent(), n.slot(0, 0), n.slot(0, 1)),
        (0x40, None, Some(0), None)
    );
    assert_eq!(m.slots.header, [0x11; 0x8C]);
    let s = &m.slots.slots[0];
    assert_eq!(
        (s.batch_count, s.aabb_max, s.sphere_radius, s.opaque),
        (1, [1.0, 1.0, 0.0], 0.75, [9, 8, 7, 6, 5])
    );
    assert_eq!(m.normals[0], [0, 0, 127, 0x55]);
    assert_eq!(m.normals[2][0], -127);
    assert_eq!(m.uv0[2], [0, 2048]);
    let b = &m.batches[0];
    assert_eq!(
        (
            b.batch_flags,
            b.material_index_hi,
            b.material_index,
            b.lightmap_index
        ),
        (0x4002, 0x1234, 3, 0xFF)
    );
    assert_eq!((b.index_count, b.vertex_count), (3, 3));
    assert_eq!(m.keys[0].rotation(), [0.0, 0.0, 0.0, 1.0]);
    assert!(m.triangles.is_none());
    // Entry order and raw streams are kept.
    let types: Vec<u32> = m.layout.iter().map(|e| e.entry.type_id).collect();
    assert_eq!(types, [17, 1, 2, 3, 4, 5, 13, 6, 8, 9]);
    assert_eq!(m.layout[0].raw.as_deref(), Some(&[1u8, 2, 3, 4, 5][..]));
    // Static node (no map): the fallback pose, conjugated once.
    let g = m.fallback_hierarchy().unwrap();
    assert_eq!(g[0].translation, [0.5, 0.25, 0.125]);
}

#[test]
fn unmodified_model_is_written_back_byte_identical() {
    let data = hand_written();
    let m = Msh::parse(&data, Mode::Strict).unwrap();
    assert_eq!(m.to_bytes().unwrap(), data);
    let built = built().to_bytes().unwrap();
    let again = Msh::load(&built, Mode::Strict).unwrap();
    assert_eq!(again.to_bytes().unwrap(), built);
    assert_eq!(again.nodes, built_nodes());
    assert_eq!(
        again.node_names().unwrap()[1].as_deref(),
        Some(&b"turret"[..])
    );
}

fn built_nodes() -> Nodes {
    Nodes::Node38(two_node_parts().nodes)
}

#[test]
fn an_edit_changes_only_its_stream() {
    let data = hand_written();
    let mut m = Msh::parse(&data, Mode::Strict).unwrap();
    m.positions[1] = [7.0, 0.0, 0.0];
    let out = m.to_bytes().unwrap();
    assert_eq!(out.len(), data.len());
    let back = Msh::load(&out, Mode::Strict).unwrap();
    assert_eq!(back.positions[1], [7.0, 0.0, 0.0]);
    assert_eq!(back.layout, m.layout);
    let diff = out.iter().zip(&data).filter(|(a, b)| a != b).count();
    assert!(diff <= 4, "{diff} bytes differ");
    // A renamed entry keeps its payload and place.
    m.layout[0].entry.name_field = nres::name_field(b"z.17").unwrap();
    let back = Msh::load(&m.to_bytes().unwrap(), Mode::Strict).unwrap();
    assert_eq!(back.layout[0].entry.name(), b"z.17");
    assert_eq!(back.layout[0].raw, m.layout[0].raw);
}

#[test]
fn node24_variant_is_carried_through() {
    let data = hand_written();
    let nres_view = nres::Nres::parse(&data, Mode::Strict).unwrap();
    let mut editor = nres::NresEditor::new(&nres_view);
    let i = nres_view.find_type(kind::NODES).unwrap();
    editor.set_attributes(i, 1, 2, 0, 24);
    editor.set_payload(i, vec![0x5Au8; 48]);
    let data = editor.to_bytes().unwrap();
    let m = Msh::load(&data, Mode::Strict).unwrap();
    assert!(matches!(&m.nodes, Nodes::Raw24(r) if r.len() == 2));
    assert_eq!(m.to_bytes().unwrap(), data);
    editor.set_payload(i, vec![0x5Au8; 50]);
    let e = expect_error(
        Msh::parse(&editor.to_bytes().unwrap(), Mode::Strict),
        0,
        "MSH: expected type 1 nodes (24-byte variant): a multiple of 24 bytes, found 50 bytes",
    );
    assert_eq!(entry_of(&e), Some((1, "m.1")));
}

#[test]
fn missing_required_stream_is_named() {
    let bytes = built().to_bytes().unwrap();
    let view = nres::Nres::parse(&bytes, Mode::Strict).unwrap();
    let entries: Vec<nres::NewEntry> = view
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.type_id != kind::INDICES)
        .map(|(i, e)| nres::NewEntry {
            name: e.name().to_vec(),
            type_id: e.type_id,
            attr1: e.attr1,
            attr2: e.attr2,
            attr3: e.attr3,
            payload: view.payload(i),
        })
        .collect();
    let err = Msh::parse(&nres::build(&entries).unwrap(), Mode::Strict).unwrap_err();
    assert!(err.to_string().contains("stream of type 6"), "{err}");
}

/// Each range check rejects a model that breaks it.
#[test]
fn range_checks_reject_each_violation() {
    type Edit = fn(&mut iron3d_formats::msh::MshParts);
    let cases: [(&str, Edit); 12] = [
        ("slot index", |p| p.nodes[1].slot_index[3] = 2),
        ("parent before", |p| p.nodes[0].parent_or_link = 1),
        ("parent before", |p| p.nodes[1].parent_or_link = 1),
        ("fallback key", |p| p.nodes[1].fallback_key = 6),
        ("frame map block", |p| p.nodes[1].anim_map_start = 4),
        ("increasing times", |p| p.keys[1].time = 0.0),
        ("triangles within", |p| p.slots[1].tri_count = 3),
        ("batches within", |p| p.slots[1].batch_count = 2),
        ("indices within", |p| p.batches[1].index_start = 1),
        ("base_vertex + index", |p| p.batches[1].base_vertex = 5),
        ("one record per vertex", |p| p.uv0.truncate(7)),
        ("one record per vertex", |p| p.normals.push([0; 4])),
    ];
    for (expected, edit) in cases {
        let mut parts = two_node_parts();
        edit(&mut parts);
        let err = Msh::build(parts).expect_err(expected);
        assert!(err.to_string().contains(expected), "{expected}: {err}");
    }
}

#[test]
fn sampling_follows_the_frame_map_fallbacks_and_interpolation() {
    let m = built();
    // t = 1: frame round_even(0.5) = 0; root keys 0 -> 1 halfway.
    let p = m.sample_source_local(0, Some(1.0)).unwrap();
    assert!(close(&p.translation, &[1.0, 0.0, 0.0]));
    let (s8, c8) = (
        (std::f32::consts::PI / 8.0).sin(),
        (std::f32::consts::PI / 8.0).cos(),
    );
    assert!(close(&p.rotation, &[0.0, 0.0, s8, c8]), "{p:?}");
    // Child: key 4 is stored with the opposite sign; the blend takes the
    // short way (45 degrees, not 135).
    let c = m.sample_source_local(1, Some(1.0)).unwrap();
    assert!(close(&c.rotation, &[0.0, 0.0, s8, c8]), "{c:?}");
    // t = 2: frame round_even(1.5) = 2; root map -> key 1 whose time is 2:
    // the key itself.
    let p = m.sample_source_local(0, Some(2.0)).unwrap();
    assert!(close(&p.translation, &[2.0, 0.0, 0.0]));
    // t = 1.6: frame 1; the child's map word 9 >= fallback 5: fallback key.
    let c = m.sample_source_local(1, Some(1.6)).unwrap();
    assert!(close(&c.translation, &[0.0, 3.0, 0.0]));
    // t = 5: frame 4 >= frame count 3: fallback.
    let p = m.sample_source_local(0, Some(5.0)).unwrap();
    assert!(close(&p.translation, &[5.0, 5.0, 5.0]));
    // None: fallback.
    assert_eq!(m.sample_source_local(0, None).unwrap(), p);
    // Bad times are errors.
    let bad_time = "MSH: expected a finite, non-negative animation time, found ";
    expect_error(
        m.sample_source_local(0, Some(-0.1)),
        0,
        &format!("{bad_time}-0.1"),
    );
    expect_error(
        m.sample_source_local(0, Some(f32::NAN)),
        0,
        &format!("{bad_time}NaN"),
    );
}

#[test]
fn hierarchy_conjugates_once_then_composes_parent_first() {
    let m = built();
    let g = m.sampled_hierarchy(1.0).unwrap();
    // Root: conjugate of +45 degrees about z.
    let (s8, c8) = (
        (std::f32::consts::PI / 8.0).sin(),
        (std::f32::consts::PI / 8.0).cos(),
    );
    assert!(close(&g[0].rotation, &[0.0, 0.0, -s8, c8]), "{:?}", g[0]);
    // Child: (0, 1, 0) rotated by -45 degrees, plus (1, 0, 0); -90 degrees.
    assert!(close(&g[1].translation, &[1.0 + S, S, 0.0]), "{:?}", g[1]);
    assert!(close(&g[1].rotation, &[0.0, 0.0, -S, S]), "{:?}", g[1]);
    // Fallback hierarchy: root (5, 5, 5), child + (0, 3, 0).
    let f = m.fallback_hierarchy().unwrap();
    assert!(close(&f[1].translation, &[5.0, 8.0, 5.0]));
}

#[test]
fn pose_blend_between_two_states() {
    let m = built();
    let a = m.sampled_hierarchy(0.0).unwrap();
    let b = m.sampled_hierarchy(2.0).unwrap();
    assert_eq!(m.blended_hierarchy(0.0, 2.0, 0.0).unwrap(), a);
    let end = m.blended_hierarchy(0.0, 2.0, 1.0).unwrap();
    for (x, y) in end.iter().zip(&b) {
        // Same rotation (q and -q are one rotation: the blend took the short way).
        let dot: f32 = (0..4).map(|i| x.rotation[i] * y.rotation[i]).sum();
        assert!(
            close(&x.translation, &y.translation) && (dot.abs() - 1.0).abs() < 1e-4,
            "{x:?} {y:?}"
        );
    }
    let mid = m.blended_hierarchy(0.0, 2.0, 0.5).unwrap();
    assert!(close(&mid[0].translation, &[1.0, 0.0, 0.0]));
    // A side that cannot be sampled is replaced by the other.
    let one = m.blended_hierarchy(2.0, f32::NAN, 0.5).unwrap();
    assert_eq!(one, b);
    assert_eq!(Pose::IDENTITY.conjugated(), Pose::IDENTITY);
}

#[test]
fn node_travel_is_the_translation_between_two_times() {
    let m = built();
    // The root moves x 0 -> 2 from t 0 to t 2; half of it by t 1.
    assert!(close(
        &m.node_travel(0, 0.0, 2.0).unwrap(),
        &[2.0, 0.0, 0.0]
    ));
    assert!(close(
        &m.node_travel(0, 2.0, 1.0).unwrap(),
        &[-1.0, 0.0, 0.0]
    ));
    // The child only turns: no travel.
    assert!(close(&m.node_travel(1, 0.0, 1.0).unwrap(), &[0.0; 3]));
    let missing = m.node_travel(7, 0.0, 1.0).unwrap_err();
    assert!(
        matches!(&missing.problem, Problem::Missing { what } if what.contains("#7")),
        "{missing}"
    );
    // The blended locals are what the hierarchy composes.
    let locals = m.blended_locals(0.0, 2.0, 0.5).unwrap();
    assert_eq!(
        m.hierarchy(&locals).unwrap(),
        m.blended_hierarchy(0.0, 2.0, 0.5).unwrap()
    );
}

#[test]
fn big_model_builds_and_round_trips() {
    let m = Msh::build(big_parts(10_000)).unwrap();
    let bytes = m.to_bytes().unwrap();
    let back = Msh::load(&bytes, Mode::Strict).unwrap();
    assert_eq!(back.positions.len(), 10_000);
    assert_eq!(back.to_bytes().unwrap(), bytes);
}

#[test]
fn info_reports_streams_nodes_and_validation() {
    let m = built();
    let info = m.info();
    assert_eq!(info.node_count, 2);
    assert_eq!(info.nodes[1].parent, Some(0));
    assert_eq!(info.nodes[1].name.as_deref(), Some("turret"));
    assert_eq!(info.animation.animated_nodes, 2);
    assert_eq!(info.validation, None);
    let json = serde_json::to_value(&info).unwrap();
    assert_eq!(json["animation"]["frame_count"], 3);
}

proptest::proptest! {
    /// Any stream values (float bit patterns included) survive build, write,
    /// load and write again bit for bit.
    #[test]
    fn streams_round_trip_bit_for_bit(
        bits in proptest::collection::vec(proptest::prelude::any::<u32>(), 3..60),
        extra in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
    ) {
        let n = bits.len() / 3;
        let mut parts = big_parts(3);
        parts.positions = bits.chunks_exact(3).map(|c| c.iter().map(|&b| f32::from_bits(b)).collect::<Vec<_>>().try_into().unwrap()).collect();
        parts.normals = bits[..n].iter().map(|b| b.to_le_bytes().map(|x| x as i8)).collect();
        parts.uv0 = bits[..n].iter().map(|&b| [b as u16, (b >> 16) as u16]).collect();
        parts.uv1 = Some(parts.uv0.iter().rev().copied().collect());
        parts.indices = bits.iter().take(n / 3 * 3).map(|&b| (b % n as u32) as u16).collect();
        parts.batches[0].index_count = parts.indices.len() as u16;
        parts.slots[0].sphere_radius = f32::from_bits(bits[0]);
        parts.extra = vec![iron3d_formats::msh::RawStream { type_id: 15, payload: extra, ..Default::default() }];
        let bytes = Msh::build(parts).unwrap().to_bytes().unwrap();
        let back = Msh::load(&bytes, Mode::Strict).unwrap();
        proptest::prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        let back_bits: Vec<u32> = back.positions.iter().flatten().map(|f| f.to_bits()).collect();
        proptest::prop_assert_eq!(&back_bits[..], &bits[..n * 3]);
    }
}

#[test]
fn slot_faces_walk_the_descriptor_cursor_batch_by_batch() {
    // Slot 1 (the child) draws the upper quad: two triangles whose
    // descriptors follow slot 1's tri_start (2); its batch carries a
    // doorway flag and a high selector.
    let mut parts = two_node_parts();
    parts.batches[1].batch_flags = 0x0008;
    parts.batches[1].material_index_hi = 0x0001;
    let tris = parts.triangles.as_mut().unwrap();
    tris[2].tri_flags = 0x0002;
    tris[3].tri_flags = 0x0010;
    let msh = Msh::build(parts).unwrap();
    let faces = msh.slot_faces(1);
    assert_eq!(faces.len(), 2);
    assert_eq!(
        faces[0].corners,
        [[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]]
    );
    assert_eq!(faces[1].corners[2], [0.0, 1.0, 1.0]);
    assert_eq!(
        (faces[0].batch_word, faces[0].tri_flags),
        (0x0001_0008, 0x2)
    );
    assert_eq!(faces[1].tri_flags, 0x10);
    // Slot 0 reads descriptors 0 and 1, unflagged; no slot 2.
    assert!(
        msh.slot_faces(0)
            .iter()
            .all(|f| f.tri_flags == 0 && f.batch_word == 0)
    );
    assert!(msh.slot_faces(2).is_empty());
    // Without type 7 the flags are 0 and the triangles are the same.
    let mut bare = two_node_parts();
    bare.triangles = None;
    let bare = Msh::build(bare).unwrap();
    assert_eq!(bare.slot_faces(1)[0].corners, faces[0].corners);
    assert_eq!(bare.slot_faces(1)[0].tri_flags, 0);
}
