//! One mod directory, seen alike by the three readers of the mission: the
//! world's loader, the renderer's assets and the inspector's panel. The
//! mod overrides one prototype's model and material table (loose files in
//! directories named like their archives) and the mission's `data.tma`
//! (an instance name changed).

#[path = "../../render/tests/game/mod.rs"]
mod game;

use bevy::prelude::*;
use iron3d_demo::{self as demo, Scale};
use iron3d_formats::archive::Mode;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::tma;
use iron3d_inspector::model::{object_details, object_rows};
use iron3d_render::draw::DrawnBatch;
use iron3d_render::scene::SceneBuilt;
use iron3d_world::mission::{
    InstanceName, MissionDescription, MissionObject, MissionPhase, MissionRequest, ModelNode,
    PartResources, PrototypeChain, ResourceChain, UnitPartInfo, headless_app,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The instance name the mod gives the first placed object.
const RENAMED: &str = "MODDED-0";

/// `archive::entry` of a chain link, split.
fn split(link: &str) -> (String, String) {
    let (archive, entry) = link.split_once("::").expect("archive::entry");
    (archive.replace('\\', "/"), entry.to_string())
}

/// One geometric prototype of the mission: its key, model and material
/// table links, and how many model nodes its parts have.
#[derive(Debug, Clone)]
struct Shape {
    key: Vec<u8>,
    mesh: String,
    wear: String,
    nodes: usize,
}

/// The mission's geometric prototypes with their node counts, from a
/// plain headless load.
fn shapes(game: &Path) -> Vec<Shape> {
    let request = MissionRequest {
        game_dir: game.to_path_buf(),
        mission: None,
        mod_dirs: Vec::new(),
    };
    let mut app = headless_app(Some(request), 0);
    run_to_running(&mut app);
    let world = app.world_mut();
    let mut parts = world.query::<(Entity, &UnitPartInfo, &PartResources)>();
    let found: Vec<(Entity, Vec<u8>, Arc<ResourceChain>)> = parts
        .iter(world)
        .map(|(e, p, r)| (e, p.key.clone(), r.0.clone()))
        .collect();
    let mut shapes: Vec<Shape> = Vec::new();
    for (entity, key, chain) in found {
        let (Some(mesh), Some(wear)) = (chain.mesh.clone(), chain.wear.clone()) else {
            continue;
        };
        if shapes.iter().any(|s| s.key.eq_ignore_ascii_case(&key)) {
            continue;
        }
        let nodes = nodes_below(world, entity);
        shapes.push(Shape {
            key,
            mesh,
            wear,
            nodes,
        });
    }
    shapes
}

/// The batches drawn below a part entity: (node index, slot, batch),
/// sorted.
fn drawn_under(world: &mut World, part: Entity) -> Vec<(usize, usize, usize)> {
    let mut drawn = world.query::<(&DrawnBatch, &ChildOf)>();
    let mut found: Vec<(usize, usize, usize)> = drawn
        .iter(world)
        .filter_map(|(batch, node)| {
            let node = node.parent();
            let index = world.get::<ModelNode>(node)?.index;
            let mut at = node;
            while let Some(up) = world.get::<ChildOf>(at) {
                at = up.parent();
                if at == part {
                    return Some((index, batch.slot, batch.batch));
                }
            }
            None
        })
        .collect();
    found.sort();
    found
}

/// The model nodes below a part entity.
fn nodes_below(world: &World, part: Entity) -> usize {
    let mut count = 0;
    let mut pending = vec![part];
    while let Some(at) = pending.pop() {
        for child in world.get::<Children>(at).into_iter().flatten() {
            count += usize::from(world.get::<ModelNode>(*child).is_some());
            pending.push(*child);
        }
    }
    count
}

fn run_to_running(app: &mut App) {
    for _ in 0..400 {
        if *app.world().resource::<State<MissionPhase>>().get() == MissionPhase::Running {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("the mission did not run");
}

/// Writes the mod: `target`'s model and WEAR entries replaced by those of
/// `source` (loose files in archive-named directories), and the mission's
/// TMA with the first object renamed.
fn write_mod(game: &Path, modded: &Path, target: &Shape, source: &Shape) {
    let dir = GameDir::open(game).unwrap();
    let install = iron3d_formats::source::Source::new(game, &[]).unwrap();
    for (to, from) in [(&target.mesh, &source.mesh), (&target.wear, &source.wear)] {
        let (archive, entry) = split(to);
        let (from_archive, from_entry) = split(from);
        let found = install.entry(from_archive.as_bytes(), from_entry.as_bytes());
        let found = found.unwrap().unwrap();
        let payload = found.bytes();
        let out = modded.join(&archive).join(&entry);
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(out, payload).unwrap();
    }
    let mission = dir.missions().unwrap().remove(0);
    let mut tma = tma::parse(&std::fs::read(&mission.tma).unwrap(), Mode::Strict).unwrap();
    tma.objects[0].instance_name = RENAMED.as_bytes().to_vec();
    let rel = mission.dir.strip_prefix(game).unwrap();
    std::fs::create_dir_all(modded.join(rel)).unwrap();
    std::fs::write(modded.join(rel).join("data.tma"), tma.to_bytes().unwrap()).unwrap();
}

#[test]
fn a_mod_overriding_a_model_and_a_tma_field_is_seen_by_world_renderer_and_inspector() {
    let tmp = tempfile::tempdir().unwrap();
    let (game, modded) = (tmp.path().join("game"), tmp.path().join("mod"));
    demo::build(&game, demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let shapes = shapes(&game);
    let (target, source) = shapes
        .iter()
        .find_map(|t| {
            let s = shapes
                .iter()
                .find(|s| s.nodes != t.nodes && s.mesh != t.mesh)?;
            Some((t.clone(), s.clone()))
        })
        .expect("two prototypes whose models differ in node count");
    write_mod(&game, &modded, &target, &source);

    let mut app = {
        let mods = std::slice::from_ref(&modded);
        game::windowless_game(&game, mods, mods, false)
    };
    for _ in 0..400 {
        if app.world().contains_resource::<SceneBuilt>() {
            break;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    let phase = *app.world().resource::<State<MissionPhase>>().get();
    assert_eq!(phase, MissionPhase::Running);
    assert!(app.world().contains_resource::<SceneBuilt>());
    let world = app.world_mut();

    // The world: the TMA of the mod, and the mod's model under every part
    // of the target prototype.
    let description = world.resource::<MissionDescription>().clone();
    assert!(
        description.files.tma.starts_with(&modded),
        "{:?}",
        description.files
    );
    let mut roots = world.query::<(&MissionObject, &InstanceName, &OriginalObjectId)>();
    let (_, name, first) = roots
        .iter(world)
        .find(|(o, _, _)| o.index == Some(0))
        .map(|(o, n, id)| (o.index, n.clone(), *id))
        .unwrap();
    assert_eq!(name.0, RENAMED);
    let mut parts = world.query::<(Entity, &UnitPartInfo, &PrototypeChain, &ChildOf)>();
    let targets: Vec<(Entity, PrototypeChain, Entity)> = parts
        .iter(world)
        .filter(|(_, p, _, _)| p.key.eq_ignore_ascii_case(&target.key))
        .map(|(e, _, c, root)| (e, c.clone(), root.parent()))
        .collect();
    assert!(!targets.is_empty());
    for (part, _, _) in &targets {
        assert_eq!(
            nodes_below(world, *part),
            source.nodes,
            "the mod's model nodes"
        );
    }

    // The renderer: each part of the target prototype draws what a part
    // of the source prototype (whose model the mod copied) draws.
    let drawn_target = drawn_under(world, targets[0].0);
    let source_part = parts
        .iter(world)
        .find(|(_, p, _, _)| p.key.eq_ignore_ascii_case(&source.key))
        .map(|(e, _, _, _)| e)
        .unwrap();
    let drawn_source = drawn_under(world, source_part);
    assert!(
        !drawn_target.is_empty(),
        "no batch drawn under the modded model"
    );
    assert_eq!(
        drawn_target, drawn_source,
        "drawn batches (node, slot, batch)"
    );

    // The inspector: the renamed object, and the mod's nodes in the part
    // tree of an object with the target prototype.
    let rows = object_rows(world);
    let row = rows.iter().find(|r| r.id == first).unwrap();
    assert_eq!(row.name, RENAMED);
    let owner = world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|(_, e)| *e == targets[0].2)
        .map(|(id, _)| id)
        .unwrap();
    let details = object_details(world, owner).unwrap();
    let part = details
        .parts
        .iter()
        .find(|p| p.key.as_bytes().eq_ignore_ascii_case(&target.key))
        .unwrap();
    assert_eq!(part.nodes.len(), source.nodes);
}
