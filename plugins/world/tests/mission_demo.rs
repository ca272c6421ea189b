//! Mission loading on the generated demo install: parts mounted on their
//! sockets, and a broken texture reached through a placed object's material
//! stopping the load before registration with the whole chain.

use bevy::prelude::*;
use iron3d_demo::{self as demo, Scale};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::graph::{Graph, MATERIAL_LIB, TEXTURE_LIB};
use iron3d_formats::mat0::Mat0;
use iron3d_formats::source::Source;
use iron3d_formats::unitdat::PartClass;
use iron3d_formats::wear::Wear;
use iron3d_world::mission::*;
use std::path::Path;

mod common;
use common::{failed_load, load};

/// A headless app loading the first mission of the install at `dir`.
fn app(dir: &Path) -> App {
    headless_app(
        Some(MissionRequest {
            game_dir: dir.to_path_buf(),
            mission: None,
            mod_dirs: Vec::new(),
        }),
        1,
    )
}

fn demo_install() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    demo::build(&tmp.path().join("game"), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    tmp
}

/// The transform of `node` in the frame of `part`: the locals composed up
/// the node chain.
fn pose_in_part(world: &World, part: Entity, node: Entity) -> Transform {
    let mut pose = *world.get::<Transform>(node).unwrap();
    let mut at = world.get::<ChildOf>(node).unwrap().parent();
    while at != part {
        pose = world.get::<Transform>(at).unwrap().mul_transform(pose);
        at = world.get::<ChildOf>(at).unwrap().parent();
    }
    pose
}

/// The model node called `name` below `part`.
fn named_node(world: &mut World, part: Entity, name: &[u8]) -> Entity {
    let mut nodes = world.query::<(Entity, &ModelNode)>();
    let found: Vec<Entity> = nodes
        .iter(world)
        .filter(|(_, n)| n.name.as_deref() == Some(name))
        .map(|(e, _)| e)
        .collect();
    found
        .into_iter()
        .find(|&e| {
            let mut at = e;
            while let Some(parent) = world.get::<ChildOf>(at) {
                at = parent.parent();
                if at == part {
                    return true;
                }
            }
            false
        })
        .expect("the node is below the part")
}

#[test]
fn turrets_and_guns_of_the_demo_sit_on_their_parents_sockets() {
    let tmp = demo_install();
    let mut app = app(&tmp.path().join("game"));
    assert_eq!(load(&mut app), MissionPhase::Running);
    let world = app.world_mut();
    let mut query = world.query::<(Entity, &UnitPartInfo, &Transform, &ChildOf)>();
    let parts: Vec<(Entity, UnitPartInfo, Transform, Entity)> = query
        .iter(world)
        .map(|(e, i, t, c)| (e, i.clone(), *t, c.parent()))
        .collect();
    let mut checked = [0usize; 2];
    for (e, info, transform, root) in &parts {
        // The parent part: the sibling of the same object with the parent's
        // part index.
        let Some((parent, parent_info, parent_transform, _)) = parts
            .iter()
            .find(|(_, p, _, r)| r == root && Some(p.index) == info.parent)
        else {
            continue;
        };
        // Walkers carry turrets on `mount`, the hero on its `head`, towers
        // and bunkers on `top`; guns sit on their turret's `head`.
        let (socket_name, slot) = match info.class {
            Some(PartClass::Turret) if parent_info.key.starts_with(b"CH_HERO") => (&b"head"[..], 0),
            Some(PartClass::Turret)
                if parent_info.key.starts_with(b"CH_WALKER")
                    || parent_info.key.starts_with(b"CH_HOVER") =>
            {
                (&b"mount"[..], 0)
            }
            Some(PartClass::Turret) => (&b"top"[..], 0),
            Some(PartClass::Gun) => (&b"head"[..], 1),
            _ => continue,
        };
        let socket = named_node(world, *parent, socket_name);
        let index = world.get::<ModelNode>(socket).unwrap().index;
        assert_eq!(info.socket, Some(index), "{info:?}");
        assert_eq!(info.attachment, index as i32);
        // The part's own root (ring / mount) is at its origin, so the part
        // takes the socket's pose.
        let expected = parent_transform.mul_transform(pose_in_part(world, *parent, socket));
        assert!(
            close(transform, &expected),
            "{info:?}: {transform:?} vs {expected:?}"
        );
        assert!(transform.translation.y > 0.0, "mounted above the ground");
        // What the part follows when the socket moves: that node entity.
        let mount = world.get::<SocketMount>(*e).expect("a socket mount");
        assert_eq!((mount.parent_part, mount.socket_node), (*parent, socket));
        assert_eq!(world.get::<PartNodes>(*parent).unwrap().0[index], socket);
        checked[slot] += 1;
    }
    // Each unit's chassis carries the model its controller's states play;
    // the walker's controller has its five states, each timed by a fixed
    // length (its pelvis only bobs: no stride).
    let mut units = world.query::<(&Controller, &Children)>();
    let mut seen = 0;
    for (controller, children) in units.iter(world) {
        let chassis: Vec<&UnitPartInfo> = children
            .iter()
            .filter(|&c| world.get::<AnimatedModel>(c).is_some())
            .filter_map(|c| world.get::<UnitPartInfo>(c))
            .collect();
        assert_eq!(chassis.len(), 1, "{}", controller.resource);
        assert_eq!(chassis[0].index, controller.part);
        if chassis[0].key.starts_with(b"CH_WALKER") {
            let states = &controller.states;
            assert_eq!(states.states.len(), 9);
            assert_eq!(states.costs.len(), 81);
            // Its contacts are its feet on its shins (`.cpt` nodes 2 and
            // 4): standing asks nothing of them, walking, running and
            // walking backward (two halves each) need both whole, limping
            // the left one gone.
            let need = |intact, node| ContactCondition {
                node: Some(node),
                intact,
            };
            let both = vec![need(true, 2), need(true, 4)];
            let limp = vec![need(false, 2), need(true, 4)];
            let mut expected = vec![vec![]];
            expected.extend(std::iter::repeat_n(both, 6));
            expected.extend(std::iter::repeat_n(limp, 2));
            assert_eq!(states.conditions, expected);
            // As feet: standing ends on both; each half of a stride ends
            // with one foot on the ground (within 0.1 of its rest height,
            // measured through the model) and the other lifted, the two
            // halves the other way round; each foot runs its own group.
            let down = |state: usize, slot: usize| {
                let lift = states.feet[state][slot].lift.expect("measured");
                assert_eq!(lift[0], lift[1]);
                lift[0].abs() <= 0.1
            };
            assert!(down(0, 0) && down(0, 1));
            for first in [1, 3, 5, 7] {
                assert!(down(first, 1) && !down(first, 0), "state {first}");
                assert!(down(first + 1, 0) && !down(first + 1, 1));
            }
            let groups: Vec<_> = states.feet[1].iter().map(|f| f.group).collect();
            assert!(groups[0].is_some() && groups[1].is_some() && groups[0] != groups[1]);
            assert!(
                states
                    .feet
                    .iter()
                    .flatten()
                    .all(|f| f.group == groups[f.slot])
            );
            assert!(states.states.iter().all(|s| s.length_ms > 0.0));
            assert!(states.strides.iter().flatten().all(|&s| s.abs() < 1e-4));
            seen += 1;
        }
    }
    assert!(seen > 0, "a walker");
    assert!(
        checked[0] > 0 && checked[1] > 0,
        "turrets and guns seen: {checked:?}"
    );
}

fn close(a: &Transform, b: &Transform) -> bool {
    (a.translation - b.translation).abs().max_element() < 1e-4
        && a.rotation.angle_between(b.rotation) < 1e-4
}

/// The texture of the first textured phase of the material of WEAR row 0 of
/// the first placed object's first part, in the first mission.
fn texture_of_first_object(root: &Path) -> (String, String) {
    let dir = GameDir::open(root).unwrap();
    let mission = dir.missions().unwrap().remove(0);
    let source = Source::new(root, &[]).unwrap();
    let graph = Graph::new(&source);
    let walked = graph.mission(&mission);
    assert!(walked.failures.is_empty(), "the demo is clean");
    let wear = walked.objects[0].components[0]
        .prototype
        .wear
        .clone()
        .unwrap();
    let (archive, entry) = wear.split_once("::").unwrap();
    let read = |archive: &[u8], entry: &[u8]| {
        let found = source.entry(archive, entry).unwrap().unwrap();
        let info = found.info.clone().unwrap();
        (found.bytes().to_vec(), info.attr1, info.attr2)
    };
    let (payload, _, _) = read(archive.as_bytes(), entry.as_bytes());
    let row = Wear::parse(&payload, Mode::Compatible).unwrap().materials[0]
        .name
        .clone();
    let (payload, attr1, attr2) = read(MATERIAL_LIB, &row);
    let material = Mat0::parse(&payload, attr1, attr2).unwrap();
    let texture = material
        .phases
        .iter()
        .map(|p| p.texture().to_vec())
        .find(|t| !t.is_empty())
        .unwrap();
    (
        String::from_utf8(row).unwrap(),
        String::from_utf8(texture).unwrap(),
    )
}

/// Overwrites the `Texm` magic of `name` in `Textures.lib`.
fn corrupt_texture(root: &Path, name: &str) {
    let path = GameDir::open(root).unwrap().resolve(TEXTURE_LIB).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let start = {
        let nres = Nres::parse(&bytes, Mode::Compatible).unwrap();
        let index = nres.find(name.as_bytes()).unwrap();
        nres.payload(index).as_ptr().addr() - bytes.as_ptr().addr()
    };
    bytes[start..start + 4].copy_from_slice(b"XXXX");
    std::fs::write(&path, bytes).unwrap();
}

#[test]
fn a_corrupt_texture_of_a_placed_objects_material_fails_before_registration() {
    let tmp = demo_install();
    let root = tmp.path().join("game");
    let (material, texture) = texture_of_first_object(&root);
    corrupt_texture(&root, &texture);

    let mut app = app(&root);
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Resources);
    assert!(error.object.as_deref().unwrap().starts_with("#0 "));
    assert!(error.prototype.is_some());
    assert_eq!(error.archive.as_deref(), Some("'Textures.lib'"));
    assert_eq!(error.entry, Some(format!("'{texture}'")));
    let text = error.to_string();
    for link in [
        "mission 'Campaign.00/Mission.01'".to_string(),
        format!("Material.lib::{material}"),
        "phase #".into(),
        "Texm".into(),
    ] {
        assert!(text.contains(&link), "{link} missing in: {text}");
    }
}

#[test]
fn the_loaded_mission_is_published_once_with_names_and_resource_chains() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let mut app = app(&game);
    assert_eq!(load(&mut app), MissionPhase::Running);
    let world = app.world_mut();

    // The mission as read: its files and every TMA record.
    let description = world.resource::<MissionDescription>().clone();
    let dir = GameDir::open(&game).unwrap();
    let mission = dir.mission(&description.name).unwrap();
    assert_eq!(description.files.tma, mission.tma);
    assert!(description.files.land_msh.is_file());
    assert!(description.files.land_map.is_file());
    let on_disk =
        iron3d_formats::tma::parse(&std::fs::read(&mission.tma).unwrap(), Mode::Compatible)
            .unwrap();
    assert_eq!(*description.tma, on_disk);

    // Every object root: `0xID instance (prototype)`, the TMA's names.
    let mut roots = world.query::<(
        &Name,
        &InstanceName,
        &MissionObject,
        &iron3d_world::OriginalObjectId,
    )>();
    let mut count = 0;
    for (name, instance, object, id) in roots.iter(world) {
        let record = &on_disk.objects[object.index.expect("placed")];
        let prototype = String::from_utf8_lossy(&record.resource_name);
        assert_eq!(
            name.as_str(),
            format!("{:#010x} {} ({prototype})", id.raw(), instance.0)
        );
        if !record.instance_name.is_empty() {
            assert_eq!(instance.0, String::from_utf8_lossy(&record.instance_name));
        }
        count += 1;
    }
    assert_eq!(count, on_disk.objects.len());

    // Every part: its name, and the resource chain the graph gives.
    let source = Source::new(dir.root(), &[]).unwrap();
    let graph = Graph::new(&source);
    let mut parts = world.query::<(&Name, &UnitPartInfo, &PartResources)>();
    let mut textured = 0;
    for (name, part, resources) in parts.iter(world) {
        let key = String::from_utf8_lossy(&part.key);
        assert!(
            name.as_str()
                .ends_with(&format!("part #{} {key}", part.index)),
            "{name}"
        );
        let node = graph.prototype(&part.key);
        assert_eq!(resources.0.key, node.key);
        assert_eq!(resources.0.mesh, node.mesh);
        assert_eq!(resources.0.wear, node.wear);
        assert_eq!(resources.0.materials, node.materials);
        assert!(resources.0.failures.is_empty());
        textured += usize::from(resources.0.materials.iter().any(|m| !m.textures.is_empty()));
    }
    assert!(textured > 0, "no part reaches a texture");
    let unnamed_parts = world
        .query_filtered::<Entity, (With<UnitPartInfo>, Without<PartResources>)>()
        .iter(world)
        .count();
    assert_eq!(unnamed_parts, 0, "a part without its resource chain");

    // Every model node: named after its part, with its index.
    let mut nodes = world.query::<(&Name, &ModelNode)>();
    let mut seen = 0;
    for (name, node) in nodes.iter(world) {
        assert!(
            name.as_str().contains(&format!(" node #{} ", node.index)),
            "{name}"
        );
        assert!(name.as_str().starts_with("0x"), "{name}");
        seen += 1;
    }
    assert_eq!(seen, world.resource::<LoadProgress>().nodes);
}

#[test]
fn a_broken_model_in_a_mod_directory_fails_the_loaders_own_checks() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let mut plain = app(&game);
    assert_eq!(load(&mut plain), MissionPhase::Running);
    let world = plain.world_mut();
    let mesh = world
        .query::<&PartResources>()
        .iter(world)
        .find_map(|r| r.0.mesh.clone())
        .expect("a part with a model");
    let (archive, entry) = mesh.split_once("::").unwrap();
    let source = Source::new(&game, &[]).unwrap();
    let found = source.entry(archive.as_bytes(), entry.as_bytes()).unwrap();
    let whole = found.unwrap().bytes().to_vec();

    // The mod replaces the entry with half of it (a loose file in a
    // directory named like the archive).
    let modded = tmp.path().join("mod");
    let loose = modded.join(archive.replace('\\', "/")).join(entry);
    std::fs::create_dir_all(loose.parent().unwrap()).unwrap();
    std::fs::write(&loose, &whole[..whole.len() / 2]).unwrap();
    let mut app = headless_app(
        Some(MissionRequest {
            game_dir: game.clone(),
            mission: None,
            mod_dirs: vec![modded],
        }),
        1,
    );
    let error = failed_load(&mut app);
    assert_eq!(error.phase, MissionPhase::Resources, "{error}");
    assert_eq!(error.archive, Some(format!("'{archive}'")), "{error}");
    assert_eq!(error.entry, Some(format!("'{entry}'")), "{error}");
    assert!(error.cause.contains("NRes"), "{error}");
    let world = app.world_mut();
    assert!(world.resource::<iron3d_world::ObjectRegistry>().is_empty());
}

/// Every demo unit moves by the controller its chassis names, read into
/// typed parameters; structures and nature name none (static bodies).
#[test]
fn units_carry_the_controller_their_chassis_names_and_structures_none() {
    let tmp = demo_install();
    let mut app = app(&tmp.path().join("game"));
    assert_eq!(load(&mut app), MissionPhase::Running);
    let world = app.world_mut();
    let mut roots = world.query::<(Entity, &MissionObject, Option<&Controller>)>();
    let roots: Vec<_> = roots.iter(world).map(|(e, _, c)| (e, c.cloned())).collect();
    let (mut moving, mut still) = (0, 0);
    for (root, controller) in roots {
        let mut parts: Vec<(usize, Vec<u8>)> = world
            .query::<(&UnitPartInfo, &ChildOf)>()
            .iter(world)
            .filter(|(_, parent)| parent.parent() == root)
            .map(|(p, _)| (p.index, p.key.clone()))
            .collect();
        parts.sort();
        let parts: Vec<Vec<u8>> = parts.into_iter().map(|(_, key)| key).collect();
        let chassis = parts.iter().position(|k| {
            [&b"CH_WALKER"[..], b"CH_HOVER", b"CH_HERO"]
                .iter()
                .any(|c| k.starts_with(c))
        });
        match (chassis, controller) {
            (Some(part), Some(c)) => {
                moving += 1;
                assert_eq!(c.part, part);
                assert!(c.resource.ends_with(".ctl"), "{}", c.resource);
                // The walker's figures, the hero's, or the hover's (no
                // ground contact).
                let hovers = parts[part].starts_with(b"CH_HOVER");
                assert_eq!(c.holds_ground, !hovers);
                let (top, accel, turn, delay, payload) = if hovers {
                    (20.0, 6.0, 1.5, 1500, 4250.0)
                } else if parts[part].starts_with(b"CH_HERO") {
                    (14.0, 70.0, 25.12, 2000, 10_000_000.0)
                } else {
                    (8.0, 4.0, 1.2, 2000, 6000.0)
                };
                assert_eq!(c.params.top_speed, [top; 3]);
                assert_eq!(c.params.acceleration, [accel; 3]);
                assert_eq!(c.params.turn_rate, [turn; 3]);
                assert_eq!(
                    (c.params.delete_delay_ms, c.params.payload_kg),
                    (delay, payload)
                );
            }
            (None, None) => still += 1,
            (walker, controller) => panic!("parts {parts:?}: {walker:?} vs {controller:?}"),
        }
    }
    assert!(
        moving > 0 && still > 0,
        "{moving} units, {still} static bodies"
    );
}

/// The design weight the demo gives a mounted part's merged nodes, kg.
fn mounted_kg(key: &[u8]) -> f32 {
    [
        (&b"TR_LIGHT"[..], 500.0),
        (b"TR_HEAVY", 1200.0),
        (b"GN_LASER", 150.0),
        (b"GN_CANNON", 300.0),
    ]
    .iter()
    .find(|(k, _)| key.starts_with(k))
    .map_or(0.0, |&(_, kg)| kg)
}

/// Every demo unit's drive is assembled from its parts: the engine it fits
/// replaces its chassis's slot (keeping the slot's node), its chassis and
/// mounted parts weigh their nodes' density × volume and its clips their
/// records' mass, the walker's legs are its running gear, and every node
/// starts whole.
#[test]
fn each_unit_is_driven_by_its_fitted_engine_and_weighs_its_parts() {
    let tmp = demo_install();
    let mut app = app(&tmp.path().join("game"));
    assert_eq!(load(&mut app), MissionPhase::Running);
    let world = app.world_mut();
    let mut roots = world.query::<(Entity, &Drive, &NodeLife, &Controller)>();
    let roots: Vec<_> = roots
        .iter(world)
        .map(|(e, d, l, c)| (e, d.clone(), l.clone(), c.clone()))
        .collect();
    assert!(!roots.is_empty());
    // (drive, kg) of the four small engine marks.
    let marks = [(0.7, 450.0), (0.8, 675.0), (0.9, 900.0), (1.0, 1350.0)];
    let mut drives = std::collections::BTreeSet::new();
    for (root, drive, life, controller) in roots {
        let mut parts: Vec<(UnitPartInfo, usize)> = world
            .query::<(&UnitPartInfo, &PartNodes, &ChildOf)>()
            .iter(world)
            .filter(|(_, _, parent)| parent.parent() == root)
            .map(|(p, n, _)| (p.clone(), n.0.len()))
            .collect();
        parts.sort_by_key(|(p, _)| p.index);
        let hero = parts[0].0.key == b"CH_HERO";
        let engine = parts.iter().find(|(p, _)| p.key.starts_with(b"I_ENG_L_0"));
        // A robot fits an engine mark into its slot; the hero has its own
        // engine of drive 1 and fits none.
        let (fitted, engine_kg) = match engine {
            Some((part, _)) => {
                assert_eq!(
                    (part.class, part.attachment),
                    (Some(PartClass::Internal), 0)
                );
                let mark = usize::from(part.key[9] - b'0');
                drives.insert(mark);
                marks[mark]
            }
            None => {
                assert!(hero, "{:?} fits no engine", parts[0].0.key);
                (1.0, 0.0)
            }
        };
        assert_eq!(
            drive.engines,
            [EngineRef {
                drive: fitted,
                node: Some(NodeRef { part: 0, node: 0 }),
            }],
            "the fitted engine in the slot, on the slot's node"
        );
        let walks = !parts[0].0.key.starts_with(b"CH_HOVER");
        let own = match parts[0].0.key.get(..7) {
            Some(b"CH_WALK") => 1375.0,
            Some(b"CH_HERO") => 800.0,
            _ => 1125.0,
        };
        assert!((drive.own_kg - own).abs() < 0.05, "{}", drive.own_kg);
        // A mounted part weighs its nodes but its root (not merged).
        let mounted: f32 = parts
            .iter()
            .filter(|(_, nodes)| *nodes > 1)
            .map(|(p, _)| mounted_kg(&p.key))
            .sum();
        // A clip fitted into its cannon weighs its record's 20 kg.
        let clips = parts
            .iter()
            .filter(|(p, _)| p.class == Some(PartClass::Ammo))
            .count();
        let expected = own + engine_kg + mounted + 20.0 * clips as f32;
        assert!(
            (drive.mass_kg - expected).abs() < 0.1,
            "{} vs {expected}",
            drive.mass_kg
        );
        assert_eq!(drive.payload_kg, controller.params.payload_kg);
        let gear = |nodes: [usize; 2]| nodes.map(|node| NodeRef { part: 0, node }).to_vec();
        if walks {
            // thigh_l, shin_l; thigh_r, shin_r.
            assert_eq!(drive.gear, [gear([1, 2]), gear([3, 4])]);
        } else {
            assert_eq!(drive.gear, [Vec::new(), Vec::new()]);
        }
        let lengths: Vec<usize> = parts.iter().map(|(_, n)| *n).collect();
        assert_eq!(life.0.iter().map(Vec::len).collect::<Vec<_>>(), lengths);
        assert!(life.0.iter().flatten().all(|&f| f == 1.0));
        assert_eq!(drive.engines(&life), fitted, "whole: E is the drive");
    }
    assert!(drives.len() > 1, "marks {drives:?}");
}

/// A controller a prototype names that no longer parses fails the mission
/// with its chain (object, prototype, archive, entry, cause), never a
/// default body.
#[test]
fn a_malformed_controller_fails_the_mission_with_its_chain() {
    a_truncated_entry_fails_the_mission("ctl", "CTLD");
}

/// So does the walker's node table (`.ndp`), which its mass is read from.
#[test]
fn a_malformed_node_table_fails_the_mission_with_its_chain() {
    a_truncated_entry_fails_the_mission("ndp", "NDPR");
}

/// Cuts the walker's entry of extension `ext` to 100 bytes in a mod and
/// checks the load fails with the whole chain and a `format` cause.
fn a_truncated_entry_fails_the_mission(ext: &str, format: &str) {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let source = Source::new(&game, &[]).unwrap();
    let registry = iron3d_formats::graph::registry(&source).unwrap();
    let walker = registry.resolve(b"CH_WALKER").unwrap();
    let ctl = walker.first_with(ext).expect("the walker names it");
    let (archive, entry) = (
        String::from_utf8_lossy(&ctl.archive).into_owned(),
        String::from_utf8_lossy(&ctl.resource).into_owned(),
    );
    let whole = source.entry(&ctl.archive, &ctl.resource).unwrap().unwrap();
    let modded = tmp.path().join("mod");
    let loose = modded.join(&archive).join(&entry);
    std::fs::create_dir_all(loose.parent().unwrap()).unwrap();
    std::fs::write(&loose, &whole.bytes()[..100]).unwrap();
    let (mut app, error) = failed_load_with_mod(game, modded);
    assert_eq!(error.phase, MissionPhase::Resources, "{error}");
    assert!(error.object.is_some(), "{error}");
    assert_eq!(error.prototype.as_deref(), Some("'CH_WALKER'"), "{error}");
    assert_eq!(error.archive, Some(format!("'{archive}'")), "{error}");
    assert_eq!(error.entry, Some(format!("'{entry}'")), "{error}");
    assert!(error.cause.contains(format), "{error}");
    let world = app.world_mut();
    assert!(world.resource::<iron3d_world::ObjectRegistry>().is_empty());
}

/// The demo mission's `sky.ske` is read and published; a sky a mod cuts
/// short fails the mission in its context phase with the file and cause.
#[test]
fn the_missions_sky_is_published_and_a_malformed_one_fails_the_load() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let mut app = app(&game);
    load(&mut app);
    let sky = app.world().resource::<MissionSky>().sky.clone();
    assert_eq!(sky.day_seconds(), 900);
    let materials = &app.world().resource::<MissionSky>().materials;
    let sun = materials.get(&SKY_SUN).expect("sky.wea names the sun");
    assert!(sun.eq_ignore_ascii_case("Material.lib::ENV_SUN"), "{sun}");
    assert!(sky.sections[0].keyframes.len() >= 2);
    let mission = GameDir::open(&game).unwrap().missions().unwrap().remove(0);
    let modded = tmp.path().join("mod");
    let rel = mission.dir.strip_prefix(&game).unwrap();
    std::fs::create_dir_all(modded.join(rel)).unwrap();
    std::fs::write(modded.join(rel).join("sky.ske"), [0xFF; 20]).unwrap();
    let (_, error) = failed_load_with_mod(game, modded);
    assert_eq!(error.phase, MissionPhase::Context, "{error}");
    assert_eq!(error.entry.as_deref(), Some("'sky.ske'"), "{error}");
    assert!(error.cause.contains("SKE"), "{error}");
}

/// Loads the first mission of `game` with mod directory `modded` over it,
/// which must fail: the app and the error.
fn failed_load_with_mod(game: std::path::PathBuf, modded: std::path::PathBuf) -> (App, LoadError) {
    let mut app = headless_app(
        Some(MissionRequest {
            game_dir: game,
            mission: None,
            mod_dirs: vec![modded],
        }),
        1,
    );
    let error = failed_load(&mut app);
    (app, error)
}
