//! Production on the test arena: a factory builds the install's design
//! with its three budgets and makes the robot, a unit of its clan with a
//! new original id, that stands and takes orders.

use bevy::prelude::*;
use iron3d_economy::{EconomyEvents, EconomyPlugin, Production};
use iron3d_formats::config::builddat::BuildCategory;
use iron3d_formats::order::{InsertMode, ORDER_BUILDING_CONSTRUCT, OrderPacket, OrderTarget};
use iron3d_world::mission::{Blueprints, Built, ObjectClan};
use iron3d_world::test_support::{Arena, Piece, Side, What, run_for_seconds, running_arena};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOutbox};

fn piece(what: What, at: [f32; 2]) -> Piece {
    Piece {
        what,
        side: Side::Player,
        at,
        heading: 0.0,
    }
}

fn factory_base() -> Arena {
    Arena {
        pieces: vec![
            piece(What::Building(BuildCategory::Plant), [0.0, 0.0]),
            piece(What::Building(BuildCategory::Generator), [0.0, 120.0]),
        ],
        ..Arena::default()
    }
}

fn build(app: &mut App, factory: OriginalObjectId, design: &str) {
    let packet = OrderPacket {
        code: ORDER_BUILDING_CONSTRUCT,
        target: OrderTarget::name(design).unwrap(),
        mode: InsertMode::End,
        parameter: -1,
    };
    app.world_mut().resource_mut::<WorldOutbox>().post(
        GmsgKind::Order,
        Some(factory),
        packet.to_bytes(),
    );
}

fn production(app: &App, id: OriginalObjectId) -> Production {
    let entity = app.world().resource::<ObjectRegistry>().entity(id).unwrap();
    app.world().get::<Production>(entity).unwrap().clone()
}

#[test]
fn a_factory_builds_a_free_robot_of_its_clan_with_a_new_id() {
    let (_tmp, mut app, ids) = running_arena(&factory_base(), EconomyPlugin);
    let designs: Vec<String> = app
        .world()
        .resource::<Blueprints>()
        .designs()
        .map(|d| d.name)
        .collect();
    assert_eq!(designs, ["Warbot"]);
    let factory = ids[0];
    assert_eq!(production(&app, factory).free, 2);
    build(&mut app, factory, "warbot");
    run_for_seconds(&mut app, 1);
    let task = production(&app, factory).task.expect("a build under way");
    // Free: 1 power, no ore, 20 s (sizes the table has no row for).
    assert_eq!(task.costs, [1.0, 0.0, 20.0]);
    assert!(task.free);
    // Started at the first distribution step after the order (0.2 s),
    // done at the step that collects its 20 s.
    run_for_seconds(&mut app, 21);
    let after = production(&app, factory);
    assert_eq!(after.task, None);
    assert_eq!(after.free, 1);
    let events = app.world().resource::<EconomyEvents>().0.clone();
    let built: Vec<_> = events.iter().filter(|e| e.made.is_some()).collect();
    assert_eq!(built.len(), 1, "{events:?}");
    let highest = ids.iter().map(|i| i.raw()).max().unwrap();
    let robot = OriginalObjectId(highest + 1);
    assert_eq!(built[0].made, Some(robot.raw()));
    let world = app.world();
    let entity = world.resource::<ObjectRegistry>().entity(robot).unwrap();
    let factory_entity = world.resource::<ObjectRegistry>().entity(factory).unwrap();
    assert_eq!(
        world.get::<ObjectClan>(entity).unwrap().identity_raw,
        world
            .get::<ObjectClan>(factory_entity)
            .unwrap()
            .identity_raw
    );
    assert_eq!(world.get::<Built>(entity).unwrap().design, "Warbot");
}

#[test]
fn a_stop_aborts_the_build_and_empties_the_queue() {
    let (_tmp, mut app, ids) = running_arena(&factory_base(), EconomyPlugin);
    let factory = ids[0];
    build(&mut app, factory, "Warbot");
    build(&mut app, factory, "Warbot");
    run_for_seconds(&mut app, 2);
    let busy = production(&app, factory);
    assert!(busy.task.is_some());
    assert_eq!(busy.queue.len(), 1);
    let stop = OrderPacket {
        code: iron3d_formats::order::ORDER_STOP,
        target: OrderTarget::None,
        mode: InsertMode::Replace,
        parameter: 0,
    };
    app.world_mut().resource_mut::<WorldOutbox>().post(
        GmsgKind::Order,
        Some(factory),
        stop.to_bytes(),
    );
    run_for_seconds(&mut app, 30);
    let idle = production(&app, factory);
    assert_eq!((idle.task, idle.queue.len(), idle.free), (None, 0, 2));
    let events = &app.world().resource::<EconomyEvents>().0;
    assert!(events.iter().all(|e| e.made.is_none()), "{events:?}");
}

#[test]
fn a_design_with_a_part_not_researched_is_refused_until_it_is() {
    use iron3d_economy::{ClanTrees, Trees};
    use iron3d_formats::research::RESEARCHED;
    let (_tmp, mut app, ids) = running_arena(&factory_base(), EconomyPlugin);
    let factory = ids[0];
    let world = app.world_mut();
    let clan = {
        let registry = world.resource::<ObjectRegistry>();
        let entity = registry.entity(factory).unwrap();
        world.get::<ObjectClan>(entity).unwrap().identity_raw
    };
    // The design's chassis, taken back out of the clan's researched items.
    let chassis = world
        .resource::<Blueprints>()
        .design("Warbot")
        .unwrap()
        .parts[0]
        .clone();
    let item = world.resource::<Trees>().0[&clan]
        .item_of_part(&chassis)
        .expect("the tree prices the chassis") as usize;
    let unresearch = |world: &mut World, researched: bool| {
        let mut trees = world.resource_mut::<ClanTrees>();
        let state = &mut trees.0.get_mut(&clan).unwrap().state[item];
        match researched {
            true => *state |= RESEARCHED,
            false => *state &= !RESEARCHED,
        }
    };
    unresearch(world, false);
    build(&mut app, factory, "Warbot");
    run_for_seconds(&mut app, 1);
    let refused = production(&app, factory);
    assert_eq!((refused.task, refused.queue.len()), (None, 0), "dropped");
    unresearch(app.world_mut(), true);
    build(&mut app, factory, "Warbot");
    run_for_seconds(&mut app, 2);
    assert!(
        production(&app, factory).task.is_some(),
        "researched, it builds"
    );
}
