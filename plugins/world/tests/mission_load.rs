//! Staged mission loading on a small install written with the formats
//! crate's builders: counts, hierarchies, determinism of the state hash and
//! failure before registration.

use bevy::prelude::*;
use iron3d_formats::archive::nres::{self, NewEntry};
use iron3d_formats::graph::{MESH_TYPE_ID, TEXM_TYPE_ID};
use iron3d_formats::mat0::{MAT0_TYPE_ID, Mat0, Phase};
use iron3d_formats::msh::{AnimKey24, Batch20, Msh, MshParts, NONE, Node38, Slot68};
use iron3d_formats::registry::{ObjectRef, Registry};
use iron3d_formats::terrain::build::{
    ArealShape, Heightfield, land_from_heightfield, land_map_from_polygons,
};
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};
use iron3d_formats::tma::{
    Clan, ClanType, MissionPath, ObjectKind as Kind, PlacedObject, Property, Tma,
};
use iron3d_formats::unitdat::{CLASS_ROBOT, PartClass, PartSpec, UnitDat};
use iron3d_formats::wear::{WEAR_TYPE_ID, Wear, WearRow};
use iron3d_schedules::{GameClock, SimStep, StateHash, deny_simulation_ambiguities};
use iron3d_world::mission::*;
use iron3d_world::*;
use std::path::Path;

mod common;
use common::{failed_load, load, phase};

/// How the test install differs from the plain one.
#[derive(Default, Clone)]
struct Variant {
    /// Moves placed object #i by this offset.
    shift: Option<(usize, [f32; 3])>,
    /// Leaves this entry out of `static.rlb`.
    drop_entry: Option<&'static str>,
}

/// A model of two nodes: `body` at the origin and `top` 2 units up (Z).
fn model() -> Vec<u8> {
    let node = |parent: u16, fallback: u16| {
        let mut slot_index = [NONE; 15];
        slot_index[0] = 0;
        Node38 {
            hdr0: 0,
            parent_or_link: parent,
            anim_map_start: NONE,
            fallback_key: fallback,
            slot_index,
        }
    };
    let key = |z: f32| AnimKey24 {
        position: [0.0, 0.0, z],
        time: 0.0,
        rotation_wxyz: [32767, 0, 0, 0],
    };
    let parts = MshParts {
        nodes: vec![node(NONE, 0), node(0, 1)],
        slots: vec![Slot68 {
            tri_start: 0,
            tri_count: 0,
            batch_start: 0,
            batch_count: 1,
            aabb_min: [-1.0; 3],
            aabb_max: [1.0; 3],
            sphere_center: [0.0; 3],
            sphere_radius: 1.75,
            opaque: [0; 5],
        }],
        positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0, 0, 127, 0]; 4],
        uv0: vec![[0, 0]; 4],
        indices: vec![0, 1, 2, 0, 2, 3],
        keys: vec![key(0.0), key(2.0)],
        batches: vec![Batch20 {
            batch_flags: 0,
            material_index_hi: 0,
            material_index: 0,
            lightmap_index: 0xFF,
            local_batch_index: 0,
            index_count: 6,
            index_start: 0,
            vertex_count: 4,
            base_vertex: 0,
        }],
        names: vec![Some(b"body".to_vec()), Some(b"top".to_vec())],
        ..MshParts::default()
    };
    Msh::build(parts).unwrap().to_bytes().unwrap()
}

/// An NRes archive of `(name, type id, payload)` entries, each with the
/// directory attributes `attrs`.
fn archive(items: &[(&str, u32, &[u8])], attrs: (u32, u32)) -> Vec<u8> {
    let entries: Vec<NewEntry> = items
        .iter()
        .map(|(name, type_id, payload)| NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: *type_id,
            attr1: attrs.0,
            attr2: attrs.1,
            attr3: 0,
            payload,
        })
        .collect();
    nres::build(&entries).unwrap()
}

/// The node `top` of the test model: the turret is mounted on the
/// chassis's, the gun on the turret's.
const TOP: i32 = 1;

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Objects of the test mission: one robot (unit DAT: chassis, turret with a
/// gun), two buildings by direct key and a sun (no geometry).
const PLACED: usize = 4;
/// Parts over all objects: 3 + 1 + 1 + 1.
const PARTS: usize = 6;

/// Writes the install: `objects.rlb`, `static.rlb`, `BuildDat.lst`, a unit
/// DAT and `MISSIONS/Test/{data.tma, Land.msh, Land.map}`.
fn install(dir: &Path, variant: &Variant) {
    let model = model();
    let wear = Wear::new(vec![WearRow::new("0", "HULL")], None)
        .to_bytes()
        .unwrap();
    let mut entries: Vec<(&str, u32, &[u8])> = vec![
        ("ch_walk.msh", MESH_TYPE_ID, &model),
        ("tr_light.msh", MESH_TYPE_ID, &model),
        ("house.msh", MESH_TYPE_ID, &model),
        ("common.wea", WEAR_TYPE_ID, &wear),
    ];
    entries.retain(|(name, _, _)| Some(*name) != variant.drop_entry);
    write(dir, "static.rlb", &archive(&entries, (0, 0)));
    // The WEAR row's material and its one textured phase.
    let mut hull = Mat0::new(3, 0);
    hull.phases.push(Phase::new([0; 18], b"hull.tex").unwrap());
    let attrs = hull.directory_attrs();
    let hull = hull.to_bytes().unwrap();
    write(
        dir,
        "Material.lib",
        &archive(&[("HULL", MAT0_TYPE_ID, &hull)], attrs),
    );
    let image = Rgba8Image {
        width: 2,
        height: 2,
        pixels: vec![0x80; 16],
    };
    let texture = Texm::from_rgba(&image, PixelFormat::Argb8888, Mips::None, None)
        .unwrap()
        .to_bytes()
        .unwrap();
    write(
        dir,
        "Textures.lib",
        &archive(&[("hull.tex", TEXM_TYPE_ID, &texture)], (0, 0)),
    );

    let r = |a: &str, b: &str| ObjectRef::new(a.as_bytes(), b.as_bytes()).unwrap();
    let registry = Registry::build(&[
        (b"GEOM".to_vec(), vec![r("static.rlb", "common.wea")]),
        (
            b"CH_WALK".to_vec(),
            vec![r("static.rlb", "ch_walk.msh"), r("objects.rlb", "GEOM")],
        ),
        (
            b"TR_LIGHT".to_vec(),
            vec![r("static.rlb", "tr_light.msh"), r("objects.rlb", "GEOM")],
        ),
        (b"GN_LASER".to_vec(), vec![r("objects.rlb", "TR_LIGHT")]),
        (
            b"B_HOUSE".to_vec(),
            vec![r("static.rlb", "house.msh"), r("objects.rlb", "GEOM")],
        ),
        (b"SUN".to_vec(), vec![]),
    ])
    .unwrap();
    write(dir, "objects.rlb", &registry);

    let part = |key: &str, class, attachment, children| PartSpec {
        key: key.into(),
        description: key.into(),
        class,
        attachment,
        children,
    };
    let unit = UnitDat::build(
        CLASS_ROBOT,
        &[part(
            "CH_WALK",
            PartClass::Chassis,
            -1,
            vec![part(
                "TR_LIGHT",
                PartClass::Turret,
                TOP,
                vec![part("GN_LASER", PartClass::Gun, TOP, vec![])],
            )],
        )],
    )
    .unwrap();
    write(dir, "UNITS/ROBOTS/Walker.dat", &unit.to_bytes());
    write(
        dir,
        "BuildDat.lst",
        b"// test\r\nBunker_Small 1\r\n\"UNITS\\ROBOTS\\Walker.dat\"\r\n",
    );

    let land = land_from_heightfield(&Heightfield {
        cols: 5,
        rows: 5,
        origin: [0.0, 0.0],
        spacing: 10.0,
        heights: vec![0.0; 25],
        block: 2,
    })
    .unwrap();
    write(dir, "MISSIONS/Test/Land.msh", &land.to_bytes().unwrap());
    let areal = ArealShape {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [40.0, 0.0, 0.0],
            [40.0, 40.0, 0.0],
            [0.0, 40.0, 0.0],
        ],
        logic_flag: 1,
        class_id: 0,
    };
    let map = land_map_from_polygons(&[areal], [2, 2]).unwrap();
    write(dir, "MISSIONS/Test/Land.map", &map.to_bytes().unwrap());

    let mut tma = Tma::new(b"MISSIONS\\Test\\Land".to_vec());
    tma.paths.push(MissionPath {
        id: 3,
        points: vec![[1.0, 1.0, 0.0], [20.0, 5.0, 0.0]],
    });
    tma.clans
        .push(Clan::new(b"Player".to_vec(), ClanType::Player));
    tma.clans
        .push(Clan::new(b"Enemy".to_vec(), ClanType::Enemy));
    let mut walker = PlacedObject::new(
        Kind::Unit,
        b"UNITS\\ROBOTS\\walker.DAT".to_vec(),
        [5.0, 6.0, 0.0],
    );
    walker.orientation = [0.0, 0.0, 1.0];
    walker.properties = vec![
        Property::int("ClanID", 1, 0, 10),
        Property::float("Life state", 1.0, 0.0, 1.0),
        Property::int("NOT USED", 0, 0, 0),
    ];
    let mut objects = vec![
        walker,
        PlacedObject::new(Kind::Building, b"B_HOUSE".to_vec(), [20.0, 20.0, 0.0]),
        PlacedObject::new(Kind::Building, b"b_house".to_vec(), [30.0, 10.0, 0.0]),
        PlacedObject::new(Kind::Building, b"SUN".to_vec(), [0.0, 0.0, 100.0]),
    ];
    objects[1].identity = 2;
    objects[1].properties = vec![Property::int("LogicalID", 0x0002_0001, 0, i32::MAX)];
    if let Some((i, d)) = variant.shift {
        for (p, d) in objects[i].position.iter_mut().zip(d) {
            *p += d;
        }
    }
    tma.objects = objects;
    write(dir, "MISSIONS/Test/data.tma", &tma.to_bytes().unwrap());
}

/// A headless app asked to load the mission of `dir`.
fn app(dir: &Path, seed: u64) -> App {
    let mut app = headless_app(
        Some(MissionRequest {
            game_dir: dir.to_path_buf(),
            mission: Some("test".into()),
            mod_dirs: Vec::new(),
        }),
        seed,
    );
    deny_simulation_ambiguities(&mut app);
    app
}

fn hash_after(dir: &Path, ticks: u64) -> u64 {
    let mut app = app(dir, 1);
    assert_eq!(load(&mut app), MissionPhase::Running);
    let start = app.world().resource::<GameClock>().tick();
    while app.world().resource::<GameClock>().tick() < start + ticks {
        app.update();
    }
    StateHash::compute(app.world())
}

#[test]
fn every_placed_object_and_part_is_built_and_registered() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    let mut app = app(tmp.path(), 1);
    assert_eq!(load(&mut app), MissionPhase::Running);
    let world = app.world_mut();

    let progress = world.resource::<LoadProgress>().clone();
    assert!(progress.error.is_none());
    assert_eq!(progress.mission, "Test");
    assert_eq!(progress.objects_total, PLACED);
    assert_eq!(progress.registered, PLACED);
    assert_eq!(progress.parts, PARTS);
    assert_eq!(
        progress.nodes,
        2 * (PARTS - 1),
        "two nodes per model, sun none"
    );
    let phases: Vec<MissionPhase> = progress.timings.iter().map(|(p, _)| *p).collect();
    assert_eq!(phases, MissionPhase::LOADING);

    let registry = world.resource::<ObjectRegistry>();
    assert_eq!(registry.len(), PLACED);
    let ids: Vec<u32> = registry.iter().map(|(id, _)| id.raw()).collect();
    assert_eq!(
        ids,
        vec![1, 2, 3, 0x0002_0001],
        "explicit id kept, others assigned"
    );
    let walker = registry.entity(OriginalObjectId(1)).unwrap();

    assert_eq!(world.resource::<MissionPaths>().0[0].id, 3);
    assert_eq!(world.resource::<MissionClans>().0.len(), 2);

    let e = world.entity(walker);
    assert_eq!(e.get::<ObjectKind>().unwrap().kind(), Some(Kind::Unit));
    let bag = e.get::<PropertyBag>().unwrap();
    assert_eq!(bag.int("clanid"), Some(1));
    assert_eq!(bag.float("Life state"), Some(1.0));
    let names: Vec<&[u8]> = bag.0.iter().map(|p| &p.name[..]).collect();
    assert_eq!(
        names,
        [&b"ClanID"[..], b"Life state", b"NOT USED"],
        "order kept"
    );
    assert_eq!(e.get::<ObjectClan>().unwrap().clan_id, Some(1));
    assert_eq!(*e.get::<ObjectState>().unwrap(), ObjectState::default());
    assert_eq!(*e.get::<Locality>().unwrap(), Locality::Local);
    let t = e.get::<Transform>().unwrap();
    assert_eq!(
        t.translation,
        Vec3::new(5.0, 0.0, -6.0),
        "Z-up (5, 6, 0) is Y-up (5, 0, -6)"
    );

    // Parts in part-tree order, each with its resolved chain.
    let children: Vec<Entity> = e.get::<Children>().unwrap().iter().collect();
    let parts: Vec<(UnitPartInfo, Vec<Vec<u8>>)> = children
        .iter()
        .map(|&c| {
            let c = world.entity(c);
            (
                c.get::<UnitPartInfo>().unwrap().clone(),
                c.get::<PrototypeChain>().unwrap().0.chain.clone(),
            )
        })
        .collect();
    let keys: Vec<&[u8]> = parts.iter().map(|(p, _)| &p.key[..]).collect();
    assert_eq!(keys, [&b"CH_WALK"[..], b"TR_LIGHT", b"GN_LASER"]);
    assert_eq!(parts[1].0.parent, Some(0));
    assert_eq!(parts[2].0.parent, Some(1));
    assert_eq!(parts[2].0.class, Some(PartClass::Gun));
    assert_eq!(
        parts[2].1,
        vec![b"GN_LASER".to_vec(), b"TR_LIGHT".to_vec(), b"GEOM".to_vec()]
    );

    // The turret sits on the chassis model's `top` node (2 up), the gun on
    // the turret's (2 more): each part takes its socket's rest pose.
    let mounts: Vec<(Option<usize>, Vec3)> = children
        .iter()
        .zip(&parts)
        .map(|(&c, (info, _))| {
            let t = world.entity(c).get::<Transform>().unwrap();
            (info.socket, t.translation)
        })
        .collect();
    assert_eq!(
        mounts,
        [
            (None, Vec3::ZERO),
            (Some(1), Vec3::new(0.0, 2.0, 0.0)),
            (Some(1), Vec3::new(0.0, 4.0, 0.0)),
        ]
    );
    assert_eq!(parts[1].0.attachment, TOP);

    // Model nodes under the chassis: body, then top as its child, 2 up.
    let body = world.entity(children[0]).get::<Children>().unwrap()[0];
    let body = world.entity(body);
    assert_eq!(
        body.get::<ModelNode>().unwrap().name.as_deref(),
        Some(&b"body"[..])
    );
    let top = world.entity(body.get::<Children>().unwrap()[0]);
    assert_eq!(
        top.get::<ModelNode>().unwrap().name.as_deref(),
        Some(&b"top"[..])
    );
    assert_eq!(
        top.get::<Transform>().unwrap().translation,
        Vec3::new(0.0, 2.0, 0.0)
    );
}

#[test]
fn the_hash_after_300_ticks_is_reproducible_and_follows_positions() {
    let a = tempfile::tempdir().unwrap();
    install(a.path(), &Variant::default());
    let first = hash_after(a.path(), 300);
    assert_eq!(first, hash_after(a.path(), 300), "same install, same hash");

    let b = tempfile::tempdir().unwrap();
    let moved = Variant {
        shift: Some((2, [0.5, 0.0, 0.0])),
        ..Variant::default()
    };
    install(b.path(), &moved);
    assert_ne!(first, hash_after(b.path(), 300), "one object moved");
}

#[test]
fn a_missing_reachable_model_fails_before_registration_with_the_chain() {
    let tmp = tempfile::tempdir().unwrap();
    install(
        tmp.path(),
        &Variant {
            drop_entry: Some("tr_light.msh"),
            ..Variant::default()
        },
    );
    let mut app = app(tmp.path(), 1);
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Resources);
    let text = error.to_string();
    for part in [
        "mission 'Test'",
        "object #0 'UNITS\\ROBOTS\\walker.DAT'",
        "prototype 'TR_LIGHT'",
        "archive 'static.rlb'",
        "entry 'tr_light.msh'",
        "no entry 'tr_light.msh' in static.rlb",
    ] {
        assert!(text.contains(part), "{part} missing in: {text}");
    }
    // The simulation never starts.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<GameClock>().tick(), 0);
}

#[test]
fn a_missing_unit_file_names_the_object_and_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    std::fs::remove_file(tmp.path().join("UNITS/ROBOTS/Walker.dat")).unwrap();
    let mut app = app(tmp.path(), 1);
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Prototypes);
    assert_eq!(
        error.object.as_deref(),
        Some("#0 'UNITS\\ROBOTS\\walker.DAT'")
    );
}

#[test]
fn without_a_mission_the_world_simulates_empty() {
    let mut app = headless_app(None, 0);
    deny_simulation_ambiguities(&mut app);
    app.update();
    let start = app.world().resource::<GameClock>().tick();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(phase(&app), MissionPhase::Idle);
    assert_eq!(app.world().resource::<GameClock>().tick(), start + 3);
}

/// Deletes the walker (id 1) once, from inside the world-queue traversal.
fn delete_walker_once(mut ops: WorldOps, mut done: Local<bool>, parts: Query<&UnitPartInfo>) {
    if *done || ops.registry().is_empty() {
        return;
    }
    *done = true;
    assert_eq!(ops.delete(OriginalObjectId(1)), Ok(DeleteOutcome::Deferred));
    assert!(
        ops.entity(OriginalObjectId(1)).is_ok(),
        "still there during the pass"
    );
    assert_eq!(parts.iter().count(), PARTS, "the traversal sees every part");
}

#[test]
fn a_loaded_object_deleted_in_the_queue_goes_with_its_parts_after_apply() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    let mut app = app(tmp.path(), 1);
    app.add_systems(FixedUpdate, delete_walker_once.in_set(SimStep::Reap));
    assert_eq!(load(&mut app), MissionPhase::Running);
    app.update();
    let world = app.world_mut();
    assert_eq!(
        world
            .resource::<ObjectRegistry>()
            .entity(OriginalObjectId(1)),
        Err(NoSuchObject {
            id: OriginalObjectId(1),
            was_deleted: true
        })
    );
    assert_eq!(world.resource::<ObjectRegistry>().len(), PLACED - 1);
    let mut parts = world.query::<&UnitPartInfo>();
    assert_eq!(
        parts.iter(world).count(),
        PARTS - 3,
        "the walker's three parts went with it"
    );
    let mut nodes = world.query::<&ModelNode>();
    assert_eq!(nodes.iter(world).count(), 2 * (PARTS - 1) - 6);
}

/// Preparation work of another plugin, faked: on entering the resources
/// phase it holds the gate (and notes how many planned objects it saw),
/// then, after `frames` updates, releases it or reports `fail`.
#[derive(Resource, Default)]
struct FakeBlocker {
    frames: u32,
    fail: Option<GateFailure>,
    planned_seen: usize,
}

fn hold_gate(
    mut gate: ResMut<ResourceGate>,
    planned: Res<PlannedObjects>,
    mut fake: ResMut<FakeBlocker>,
) {
    gate.hold("fake asset");
    fake.planned_seen = planned.0.len();
}

fn count_down(mut gate: ResMut<ResourceGate>, mut fake: ResMut<FakeBlocker>) {
    if fake.frames > 0 {
        fake.frames -= 1;
        return;
    }
    match fake.fail.take() {
        Some(failure) => gate.fail(failure),
        None => assert!(gate.release("fake asset")),
    }
}

/// The test mission's app with the fake blocker.
fn blocked_app(dir: &Path, blocker: FakeBlocker) -> App {
    let mut app = app(dir, 1);
    app.insert_resource(blocker)
        .add_systems(OnEnter(MissionPhase::Resources), hold_gate)
        .add_systems(Update, count_down.run_if(in_state(MissionPhase::Resources)));
    app
}

/// Updates until the mission runs; how many updates that took, checking
/// that nothing is built or registered while resources are prepared.
fn updates_to_run(app: &mut App) -> usize {
    for updates in 1..64 {
        app.update();
        match phase(app) {
            MissionPhase::Running => return updates,
            MissionPhase::Resources => {
                let world = app.world_mut();
                assert!(world.resource::<ObjectRegistry>().is_empty());
                let mut built = world.query_filtered::<Entity, With<MissionObject>>();
                assert_eq!(built.iter(world).count(), 0, "built while preparing");
            }
            MissionPhase::Failed => panic!("{:?}", app.world().resource::<LoadProgress>().error),
            _ => {}
        }
    }
    panic!("loading did not finish: {:?}", phase(app));
}

#[test]
fn resource_preparation_waits_for_the_gate_then_builds_everything() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    let mut plain = app(tmp.path(), 1);
    let plain_updates = updates_to_run(&mut plain);
    assert_eq!(plain.world().resource::<LoadProgress>().waited_frames, 0);

    const HELD: u32 = 5;
    let mut app = blocked_app(
        tmp.path(),
        FakeBlocker {
            frames: HELD,
            ..default()
        },
    );
    let updates = updates_to_run(&mut app);
    assert!(
        updates >= plain_updates + HELD as usize,
        "{updates} updates, {plain_updates} without the blocker"
    );
    let world = app.world_mut();
    assert_eq!(world.resource::<FakeBlocker>().planned_seen, PLACED);
    let progress = world.resource::<LoadProgress>().clone();
    assert!(progress.waited_frames >= HELD, "{progress:?}");
    assert_eq!(progress.registered, PLACED);
    let phases: Vec<MissionPhase> = progress.timings.iter().map(|(p, _)| *p).collect();
    assert_eq!(phases, MissionPhase::LOADING);
    assert_eq!(world.resource::<ResourceGate>().pending().count(), 0);
    assert!(
        !world.contains_resource::<PlannedObjects>(),
        "dropped once built"
    );
    // Waiting changes no state: the hash matches the unblocked load's.
    assert_eq!(StateHash::compute(world), StateHash::compute(plain.world()));
}

#[test]
fn a_failure_reported_to_the_gate_fails_the_load_with_its_chain() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    let mut app = blocked_app(
        tmp.path(),
        FakeBlocker {
            frames: 2,
            fail: Some(GateFailure {
                object: Some("#1 'LIGHT'".into()),
                prototype: Some("'TR_LIGHT'".into()),
                archive: Some("'static.rlb'".into()),
                entry: Some("'tr_light.msh'".into()),
                cause: "the asset loader refused it".into(),
            }),
            ..default()
        },
    );
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Resources);
    assert_eq!(
        error.to_string(),
        "mission 'Test' (Resources) -> object #1 'LIGHT' -> prototype 'TR_LIGHT' \
         -> archive 'static.rlb' -> entry 'tr_light.msh': the asset loader refused it"
    );
    let world = app.world();
    assert_eq!(world.resource::<ResourceGate>().pending().count(), 0);
    assert!(!world.contains_resource::<PlannedObjects>());
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<GameClock>().tick(), 0);
    assert_eq!(phase(&app), MissionPhase::Failed);
}

/// A design: a unit file of `chassis` alone.
fn design(chassis: &str) -> Vec<u8> {
    let spec = PartSpec {
        key: chassis.into(),
        description: chassis.into(),
        class: PartClass::Chassis,
        attachment: -1,
        children: Vec::new(),
    };
    UnitDat::build(CLASS_ROBOT, &[spec]).unwrap().to_bytes()
}

#[test]
fn the_install_s_designs_are_prepared_and_made_with_new_ids() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    write(
        tmp.path(),
        "UNITS/UNITS/PREBLD/Scout.dat",
        &design("CH_WALK"),
    );
    write(tmp.path(), "UNITS/Saved.dat", &design("CH_WALK"));
    // What the factory and the designer write for themselves is no design.
    write(tmp.path(), "UNITS/bld_unit_12.dat", &design("CH_WALK"));
    write(tmp.path(), "UNITS/temp_unit.dat", &design("CH_WALK"));
    let mut app = app(tmp.path(), 1);
    assert_eq!(load(&mut app), MissionPhase::Running);
    let names: Vec<String> = app
        .world()
        .resource::<Blueprints>()
        .designs()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, ["Scout", "Saved"]);
    let placed = app.world().resource::<ObjectRegistry>().len() as u32;
    let world = app.world_mut();
    let id = spawn_built(world, "scout", 1, [5.0, 6.0, 0.0], 0.5).unwrap();
    let highest = world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(id, _)| id.raw())
        .filter(|raw| *raw != id.raw())
        .max()
        .unwrap();
    assert_eq!(id.raw(), highest + 1);
    assert_eq!(world.resource::<ObjectRegistry>().len() as u32, placed + 1);
    let entity = world.resource::<ObjectRegistry>().entity(id).unwrap();
    let root = world.entity(entity);
    assert_eq!(
        root.get::<MissionObject>(),
        Some(&MissionObject { index: None })
    );
    assert_eq!(root.get::<ObjectClan>().unwrap().identity_raw, 1);
    assert_eq!(root.get::<Built>().unwrap().design, "Scout");
    assert_eq!(
        root.get::<PlacedTransform>().unwrap().position,
        [5.0, 6.0, 0.0]
    );
    assert_eq!(root.get::<Children>().map(|c| c.len()), Some(1), "its part");
    let next = spawn_built(world, "Saved", 1, [0.0; 3], 0.0).unwrap();
    assert_eq!(next.raw(), id.raw() + 1);
    let e = spawn_built(world, "Nothing", 1, [0.0; 3], 0.0).unwrap_err();
    assert!(e.contains("no design 'Nothing'"), "{e}");
}

#[test]
fn a_design_naming_a_missing_chassis_fails_the_load_with_its_chain() {
    let tmp = tempfile::tempdir().unwrap();
    install(tmp.path(), &Variant::default());
    write(
        tmp.path(),
        "UNITS/UNITS/PREBLD/Broken.dat",
        &design("CH_NONE"),
    );
    let mut app = app(tmp.path(), 1);
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Prototypes);
    assert_eq!(error.object.as_deref(), Some("design 'Broken'"));
    assert_eq!(error.prototype.as_deref(), Some("'CH_NONE'"));
    assert_eq!(error.archive.as_deref(), Some("'objects.rlb'"));
}
