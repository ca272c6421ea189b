//! `objects.rlb`: prototype resolution (inheritance two levels deep, merge
//! order and origins, cycles, missing parents, the depth limit, the cache),
//! geometry status, and the lossless round trip.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{self, NewEntry, Nres};
use iron3d_formats::error::Problem;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::registry::*;
use std::sync::Arc;
use support::expect_error;

fn r(archive: &str, resource: &str) -> ResourceRef {
    ResourceRef::new(archive.as_bytes(), resource.as_bytes()).unwrap()
}

fn proto(key: &str, refs: Vec<ResourceRef>) -> (Vec<u8>, Vec<ResourceRef>) {
    (key.as_bytes().to_vec(), refs)
}

/// A fortification family: `fort_base` (model, materials) <- `fort_mid`
/// (adds a control file) <- `fort_top` (adds its BASE), plus a tower with two
/// meshes, a sun without geometry and a BASE-only prototype.
fn family() -> Vec<u8> {
    Registry::build(&[
        proto(
            "fort_base",
            vec![
                r("static.rlb", "fort.msh"),
                r("static.rlb", "fort.wea"),
                r("static.rlb", "fort.cpt"),
            ],
        ),
        proto(
            "fort_mid",
            vec![r("OBJECTS.RLB", "FORT_BASE"), r("static.rlb", "fort.ctl")],
        ),
        proto(
            "fort_top",
            vec![r("static.rlb", "top.bas"), r("objects.rlb", "fort_mid")],
        ),
        proto(
            "tower",
            vec![r("turrets.rlb", "a.MSH"), r("turrets.rlb", "b.msh")],
        ),
        proto("sun_01", vec![r("system.rlb", "sun.fx")]),
        proto(
            "bunker",
            vec![r("static.rlb", "bunk.BAS"), r("static.rlb", "bunk.wea")],
        ),
    ])
    .unwrap()
}

#[test]
fn two_level_inheritance_merges_in_place_with_origins() {
    let data = family();
    let reg = Registry::parse(&data, Mode::Strict).unwrap();
    let top = reg.resolve(b"FORT_TOP").unwrap();
    assert_eq!(
        top.chain,
        [
            b"fort_top".to_vec(),
            b"fort_mid".to_vec(),
            b"fort_base".to_vec()
        ]
    );
    let refs: Vec<_> = top
        .refs
        .iter()
        .map(|e| {
            (
                String::from_utf8_lossy(&e.resource).into_owned(),
                String::from_utf8_lossy(&e.origin).into_owned(),
                e.depth,
            )
        })
        .collect();
    assert_eq!(
        refs,
        [
            ("top.bas".into(), "fort_top".into(), 0),
            ("fort.msh".into(), "fort_base".into(), 2),
            ("fort.wea".into(), "fort_base".into(), 2),
            ("fort.cpt".into(), "fort_base".into(), 2),
            ("fort.ctl".into(), "fort_mid".into(), 1),
        ]
    );
    // The BASE is not the mesh even though it comes first.
    assert_eq!(top.mesh().unwrap().resource, b"fort.msh");
    assert_eq!(top.base().unwrap().resource, b"top.bas");
    assert_eq!(top.wear().unwrap().archive, b"static.rlb");
    assert!(matches!(top.geometry(), Geometry::Mesh(m) if m.resource == b"fort.msh"));
}

#[test]
fn first_msh_wins_and_status_covers_base_only_and_non_geometric() {
    let reg = Registry::parse(&family(), Mode::Strict).unwrap();
    let tower = reg.resolve(b"tower").unwrap();
    assert_eq!(tower.mesh().unwrap().resource, b"a.MSH");
    let sun = reg.resolve(b"sun_01").unwrap();
    assert_eq!(sun.geometry(), Geometry::NonGeometric);
    let bunker = reg.resolve(b"bunker").unwrap();
    assert_eq!(
        bunker.geometry(),
        Geometry::BaseStem {
            archive: b"static.rlb",
            mesh_name: b"bunk.msh".to_vec()
        }
    );
    assert!(bunker.mesh().is_none());
    assert_eq!(
        bunker.mesh_candidates(),
        [(&b"static.rlb"[..], b"bunk.msh".to_vec())]
    );
    let candidates: Vec<_> = tower
        .mesh_candidates()
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(candidates, [b"a.MSH".to_vec(), b"b.msh".to_vec()]);
    let top = reg.resolve(b"fort_top").unwrap();
    let candidates: Vec<_> = top.mesh_candidates().into_iter().map(|(_, n)| n).collect();
    assert_eq!(candidates, [b"fort.msh".to_vec(), b"top.msh".to_vec()]);
}

#[test]
fn results_are_cached_until_cleared() {
    let reg = Registry::parse(&family(), Mode::Strict).unwrap();
    let a = reg.resolve(b"fort_top").unwrap();
    let b = reg.resolve(b"Fort_Top").unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    // The parent was cached on the way.
    let mid = reg.resolve(b"fort_mid").unwrap();
    assert!(Arc::ptr_eq(&mid, &reg.resolve(b"fort_mid").unwrap()));
    reg.clear_cache();
    let c = reg.resolve(b"fort_top").unwrap();
    assert!(!Arc::ptr_eq(&a, &c));
    assert_eq!(a, c);
}

#[test]
fn a_cycle_is_an_error_naming_the_path() {
    let data = Registry::build(&[
        proto("a", vec![r("objects.rlb", "b")]),
        proto("b", vec![r("objects.rlb", "c")]),
        proto("c", vec![r("objects.rlb", "A"), r("x.rlb", "c.msh")]),
        proto("self", vec![r("objects.rlb", "self")]),
    ])
    .unwrap();
    let reg = Registry::parse(&data, Mode::Strict).unwrap();
    let err = reg.resolve(b"a").unwrap_err();
    match &err.problem {
        Problem::Invalid { expected, found } => {
            assert_eq!(expected, "acyclic prototype inheritance");
            assert_eq!(found, "cycle a -> b -> c -> a");
        }
        other => panic!("{other:?}"),
    }
    expect_error(
        reg.resolve(b"self"),
        0,
        "objects.rlb: expected acyclic prototype inheritance, found cycle self -> self",
    );
}

#[test]
fn a_missing_parent_is_a_broken_reference_not_a_status() {
    let data = Registry::build(&[proto(
        "orphan",
        vec![r("objects.rlb", "ghost"), r("s.rlb", "o.msh")],
    )])
    .unwrap();
    let reg = Registry::parse(&data, Mode::Strict).unwrap();
    let err = reg.resolve(b"orphan").unwrap_err();
    assert!(matches!(&err.problem, Problem::Missing { what } if what.contains("ghost")));
    assert_eq!(err.entry.as_ref().unwrap().index, 0);
    let err = reg.resolve(b"nobody").unwrap_err();
    assert!(matches!(err.problem, Problem::Missing { .. }));
}

#[test]
fn the_depth_limit_stops_long_chains() {
    let n = MAX_DEPTH + 2;
    let protos: Vec<_> = (0..n)
        .map(|i| {
            let refs = if i + 1 < n {
                vec![r("objects.rlb", &format!("p{}", i + 1))]
            } else {
                vec![r("s.rlb", "m.msh")]
            };
            proto(&format!("p{i}"), refs)
        })
        .collect();
    let reg = Registry::parse(&Registry::build(&protos).unwrap(), Mode::Strict).unwrap();
    let err = reg.resolve(b"p0").unwrap_err();
    assert!(matches!(&err.problem, Problem::Invalid { expected, .. } if expected.contains("deep")));
    // A chain of exactly MAX_DEPTH prototypes resolves.
    let ok = reg
        .resolve(format!("p{}", n - MAX_DEPTH).as_bytes())
        .unwrap();
    assert_eq!(ok.chain.len(), MAX_DEPTH);
}

#[test]
fn payloads_must_be_whole_references() {
    let bad = [0u8; 65];
    let data = nres::build(&[NewEntry {
        name: b"broken".to_vec(),
        type_id: 0,
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload: &bad,
    }])
    .unwrap();
    let err = Registry::parse(&data, Mode::Strict).unwrap_err();
    assert_eq!(err.entry.as_ref().map(|e| e.name.as_str()), Some("broken"));
    expect_error(
        Registry::parse(b"not an archive", Mode::Compatible),
        0,
        "NRes: bad magic: expected \"NRes\", found \"not \"",
    );
}

#[test]
fn round_trip_keeps_name_tails_and_edits_only_one_payload() {
    let mut refs = vec![r("static.rlb", "m.msh")];
    refs[0].name.0[10..14].copy_from_slice(b"JUNK");
    let data = Registry::build(&[proto("x", refs), proto("y", vec![r("a.rlb", "y.msh")])]).unwrap();
    let original = Nres::parse(&data, Mode::Strict).unwrap();
    let mut reg = Registry::parse(&data, Mode::Strict).unwrap();
    assert_eq!(&reg.prototypes[0].refs[0].name.0[10..14], b"JUNK");
    assert_eq!(reg.to_bytes(&original).unwrap(), data);
    reg.prototypes[1].refs.push(r("a.rlb", "y.wea"));
    let edited = reg.to_bytes(&original).unwrap();
    let back = Registry::parse(&edited, Mode::Strict).unwrap();
    assert_eq!(back.prototypes[1].refs.len(), 2);
    assert_eq!(back.prototypes[0], reg.prototypes[0]);
}

#[test]
fn duplicate_keys_resolve_to_the_first_in_directory_order() {
    let data = Registry::build(&[
        proto("dup", vec![r("a.rlb", "first.msh")]),
        proto("DUP", vec![r("a.rlb", "second.msh")]),
    ])
    .unwrap();
    let reg = Registry::parse(&data, Mode::Compatible).unwrap();
    assert_eq!(
        reg.resolve(b"dup").unwrap().mesh().unwrap().resource,
        b"first.msh"
    );
}
