//! The mission dependency graph over hand-built installs: exact totals of a
//! clean install, one failure per edge with its whole chain, unreachable
//! broken registry entries kept apart from mission failures.

mod graph_support;

use graph_support::{CLEAN, Knobs, install};
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::graph::{ChainError, Edge, Graph, MissionGraph, Status, Totals};
use iron3d_formats::source::Source;

fn walk(k: Knobs) -> (MissionGraph, iron3d_formats::graph::Unreachable) {
    let dir = install(k);
    let game = GameDir::open(dir.path()).unwrap();
    let mission = game.mission("m1").unwrap();
    let source = Source::new(dir.path(), &[]).unwrap();
    let graph = Graph::new(&source);
    let m = graph.mission(&mission);
    let u = graph.unreachable();
    (m, u)
}

fn messages(failures: &[ChainError]) -> Vec<String> {
    failures.iter().map(ToString::to_string).collect()
}

#[test]
fn clean_install_has_exact_totals_and_no_failures() {
    let (m, u) = walk(Knobs::default());
    assert_eq!(m.failures, vec![], "{:#?}", messages(&m.failures));
    assert_eq!(m.totals, CLEAN);
    assert_eq!(m.objects.len(), 5);
    let tank = &m.objects[0];
    assert_eq!(tank.unit_file.as_deref(), Some("UNITS/TANK.DAT"));
    let keys: Vec<&str> = tank
        .components
        .iter()
        .map(|c| c.prototype.key.as_str())
        .collect();
    assert_eq!(keys, ["tank_body", "tank_gun"]);
    let fort = &m.objects[2].components[0].prototype;
    assert_eq!(fort.inheritance, ["fort", "tank_body"]);
    assert_eq!(fort.mesh.as_deref(), Some("static.rlb::tank.msh"));
    let tree = &m.objects[1].components[0].prototype;
    assert_eq!(
        tree.wear.as_deref(),
        Some("static.rlb::tree.wea"),
        "stem fallback"
    );
    assert_eq!(
        m.objects[3].components[0].prototype.status,
        Status::NonGeometric
    );
    assert_eq!(u.prototypes, 6);
    assert_eq!(u.reachable, 5);
    assert_eq!(u.checked, 1);
    assert!(u.failures.is_empty());
}

/// The single failure kind `edge` appears, and the first one prints `chain`.
fn first_failure(k: Knobs, edge: Edge) -> (MissionGraph, String) {
    let (m, _) = walk(k);
    assert!(!m.failures.is_empty(), "expected a failure");
    assert!(
        m.failures.iter().all(|f| f.edge == edge),
        "{:#?}",
        messages(&m.failures)
    );
    assert_eq!(m.totals.failures, m.failures.len() as u64);
    let first = m.failures[0].to_string();
    (m, first)
}

#[test]
fn missing_unit_dat_names_the_object_and_path() {
    let (m, first) = first_failure(
        Knobs {
            no_unit_dat: true,
            ..Knobs::default()
        },
        Edge::UnitDat,
    );
    assert!(
        first.starts_with(
            "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → unit DAT not found"
        ),
        "{first}"
    );
    assert_eq!(m.failures.len(), 2, "both placed tanks");
    assert_eq!(m.totals.components, 0);
}

#[test]
fn component_key_missing_in_registry() {
    let (m, first) = first_failure(
        Knobs {
            unknown_component: true,
            ..Knobs::default()
        },
        Edge::Prototype,
    );
    assert!(
        first.starts_with(
            "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #2 'Ghost' → prototype 'no_such_key' → "
        ),
        "{first}"
    );
    assert!(first.contains("no_such_key"), "{first}");
    assert_eq!(m.totals.components, 6);
}

#[test]
fn prototype_without_its_mesh() {
    let (m, first) = first_failure(
        Knobs {
            no_tank_mesh: true,
            ..Knobs::default()
        },
        Edge::Mesh,
    );
    assert_eq!(
        first,
        "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #0 'Hull' → prototype 'tank_body' → static.rlb::tank.msh → no entry 'tank.msh' in static.rlb"
    );
    // Both tanks and the fort (which inherits the model) fail.
    assert_eq!(m.failures.len(), 3);
    let fort = messages(&m.failures)[1].clone();
    assert!(
        fort.starts_with("mission M1 → object #2 'fort' → prototype 'fort' → static.rlb::tank.msh"),
        "{fort}"
    );
}

#[test]
fn wear_naming_unknown_mat0() {
    let (_, first) = first_failure(
        Knobs {
            unknown_material: true,
            ..Knobs::default()
        },
        Edge::Material,
    );
    assert_eq!(
        first,
        "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #0 'Hull' → prototype 'tank_body' → static.rlb::tank.wea → Material.lib::NoSuchMat → no entry 'NoSuchMat' in Material.lib"
    );
}

#[test]
fn mat0_phase_naming_missing_texture() {
    let (_, first) = first_failure(
        Knobs {
            missing_texture: true,
            ..Knobs::default()
        },
        Edge::Texture,
    );
    assert_eq!(
        first,
        "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #0 'Hull' → prototype 'tank_body' → static.rlb::tank.wea → Material.lib::Hull → phase #0 → Textures.lib::NOTEX → no entry 'NOTEX' in Textures.lib"
    );
}

#[test]
fn wear_lightmap_naming_missing_texture() {
    let (m, first) = first_failure(
        Knobs {
            missing_lightmap: true,
            ..Knobs::default()
        },
        Edge::Lightmap,
    );
    assert_eq!(
        first,
        "mission M1 → object #0 'tank1' → unit 'UNITS\\TANK.DAT' → component #0 'Hull' → prototype 'tank_body' → static.rlb::tank.wea → LightMap.lib::LM_NONE → no entry 'LM_NONE' in LightMap.lib"
    );
    assert_eq!(
        m.totals.lightmaps, CLEAN.lightmaps,
        "requests still counted"
    );
}

#[test]
fn unreachable_broken_entry_is_not_a_mission_failure() {
    let (m, u) = walk(Knobs {
        broken_unreachable: true,
        ..Knobs::default()
    });
    assert!(m.failures.is_empty(), "{:#?}", messages(&m.failures));
    assert_eq!(m.totals, CLEAN);
    assert_eq!(
        messages(&u.failures),
        [
            "registry objects.rlb → prototype 'ruin' → static.rlb::ruin.msh → no entry 'ruin.msh' in static.rlb"
        ]
    );
}

#[test]
fn walking_twice_gives_the_same_graph() {
    let dir = install(Knobs {
        unknown_material: true,
        ..Knobs::default()
    });
    let run = || {
        let game = GameDir::open(dir.path()).unwrap();
        let mission = game.mission("M1").unwrap();
        Graph::new(&Source::new(dir.path(), &[]).unwrap()).mission(&mission)
    };
    assert_eq!(run(), run());
}

#[test]
fn totals_add_up() {
    let mut t = Totals::default();
    t += CLEAN;
    t += CLEAN;
    assert_eq!(t.prototypes, 2 * CLEAN.prototypes);
}

#[test]
fn inheritance_cycle_and_missing_parent_are_prototype_failures() {
    use graph_support::r;
    use iron3d_formats::registry::Registry;
    let dir = install(Knobs::default());
    let registry = Registry::build(&[
        (
            b"tank_body".to_vec(),
            vec![r("static.rlb", "tank.msh"), r("static.rlb", "tank.wea")],
        ),
        (
            b"tank_gun".to_vec(),
            vec![r("static.rlb", "gun.msh"), r("static.rlb", "gun.wea")],
        ),
        (b"tree".to_vec(), vec![r("objects.rlb", "tree")]),
        (b"fort".to_vec(), vec![r("objects.rlb", "gone")]),
        (b"sun_01".to_vec(), vec![]),
    ])
    .unwrap();
    std::fs::write(dir.path().join("objects.rlb"), registry).unwrap();
    let game = GameDir::open(dir.path()).unwrap();
    let source = Source::new(dir.path(), &[]).unwrap();
    let m = Graph::new(&source).mission(&game.mission("M1").unwrap());
    let text = messages(&m.failures);
    assert_eq!(text.len(), 2, "{text:#?}");
    assert!(m.failures.iter().all(|f| f.edge == Edge::Prototype));
    assert!(
        text[0].starts_with("mission M1 → object #1 'Tree' → prototype 'tree' → ")
            && text[0].contains("cycle"),
        "{}",
        text[0]
    );
    assert!(
        text[1].starts_with("mission M1 → object #2 'fort' → prototype 'fort' → ")
            && text[1].contains("gone"),
        "{}",
        text[1]
    );
}
