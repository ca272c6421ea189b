//! The economy on the test arena: mines dig, transports carry, power
//! follows its generators' owners, and a bad profile fails the load.

use bevy::prelude::*;
use iron3d_economy::{Distributors, EconomyEvents, EconomyPlugin, Role, Stock};
use iron3d_formats::config::builddat::BuildCategory;
use iron3d_formats::config::profile::VarProfile;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{MissionRequest, ObjectClan, headless_app, update_until_loaded};
use iron3d_world::test_support::{
    ARENA_MISSION, Arena, Piece, Side, What, replace_entry, run_for_seconds, running_arena,
};

fn piece(what: What, side: Side, at: [f32; 2]) -> Piece {
    Piece {
        what,
        side,
        at,
        heading: 0.0,
    }
}

fn stock(app: &App, id: OriginalObjectId) -> Stock {
    let entity = app
        .world()
        .resource::<iron3d_world::ObjectRegistry>()
        .entity(id)
        .unwrap();
    *app.world()
        .get::<Stock>(entity)
        .expect("it is in the economy")
}

fn clan_of(app: &App, id: OriginalObjectId) -> u32 {
    let registry = app.world().resource::<iron3d_world::ObjectRegistry>();
    let entity = registry.entity(id).unwrap();
    app.world().get::<ObjectClan>(entity).unwrap().identity_raw
}

/// A player base: a generator, a mine, a storage 120 m from it and a
/// transport between them.
fn base() -> Arena {
    Arena {
        pieces: vec![
            piece(
                What::Building(BuildCategory::Generator),
                Side::Player,
                [0.0, 80.0],
            ),
            piece(
                What::Building(BuildCategory::Mine),
                Side::Player,
                [-60.0, 0.0],
            ),
            piece(
                What::Building(BuildCategory::Storage),
                Side::Player,
                [60.0, 0.0],
            ),
            piece(What::Transport, Side::Player, [0.0, -10.0]),
        ],
        ..Arena::default()
    }
}

#[test]
fn a_base_digs_carries_and_reports_its_mine() {
    let (_tmp, mut app, ids) = running_arena(&base(), EconomyPlugin);
    run_for_seconds(&mut app, 4);
    let (mine, storage, transport) = (
        stock(&app, ids[1]),
        stock(&app, ids[2]),
        stock(&app, ids[3]),
    );
    // The mine digs 50 a second while the transport takes 100 a second
    // from it into the storage: it never fills.
    assert!(mine.ore < 50.0, "{mine:?}");
    assert!(storage.ore > 100.0, "{storage:?}");
    let dug: f32 = app
        .world()
        .resource::<EconomyEvents>()
        .0
        .iter()
        .map(|e| e.amount)
        .sum();
    assert!(
        (mine.ore + storage.ore + transport.ore - dug).abs() < 1.0 + mine.dug,
        "ore is neither made nor lost: {dug} dug, {mine:?} {storage:?} {transport:?}"
    );
    // At most one `mined` a second, each naming the mine.
    let events = &app.world().resource::<EconomyEvents>().0;
    assert!((3..=4).contains(&events.len()), "{events:?}");
    assert!(events.iter().all(|e| e.object == ids[1].raw()));
    assert!(events.windows(2).all(|w| w[1].tick - w[0].tick >= 30));
    // The player's distributor holds the four, in the order they joined.
    let player = clan_of(&app, ids[0]);
    let d = &app.world().resource::<Distributors>().clans[&player];
    let members: Vec<u32> = ids.iter().map(|i| i.raw()).collect();
    assert_eq!(d.members, members);
    assert_eq!(d.power_available, 10.0);
    assert!((d.ore - mine.ore - storage.ore).abs() < 1e-3);
}

#[test]
fn a_captured_generator_moves_its_power_at_the_next_step() {
    let arena = Arena {
        pieces: vec![
            piece(
                What::Building(BuildCategory::Generator),
                Side::Neutral,
                [0.0, 0.0],
            ),
            piece(
                What::Building(BuildCategory::Generator),
                Side::Enemy,
                [100.0, 0.0],
            ),
            piece(
                What::Building(BuildCategory::Mine),
                Side::Player,
                [-100.0, 0.0],
            ),
        ],
        ..Arena::default()
    };
    let (_tmp, mut app, ids) = running_arena(&arena, EconomyPlugin);
    run_for_seconds(&mut app, 1);
    let (neutral, enemy, player) = (
        clan_of(&app, ids[0]),
        clan_of(&app, ids[1]),
        clan_of(&app, ids[2]),
    );
    let power = |app: &App, clan: u32| {
        let d = &app.world().resource::<Distributors>().clans[&clan];
        (d.power_available, d.energy_bar)
    };
    assert_eq!(power(&app, neutral), (10.0, 0.5));
    assert_eq!(power(&app, player).0, 0.0);
    // The player takes the neutral generator.
    let registry = app.world().resource::<iron3d_world::ObjectRegistry>();
    let generator = registry.entity(ids[0]).unwrap();
    app.world_mut()
        .get_mut::<ObjectClan>(generator)
        .unwrap()
        .identity_raw = player;
    for _ in 0..6 {
        app.update();
    }
    assert_eq!(power(&app, player).0, 10.0);
    assert_eq!(power(&app, neutral).0, 0.0);
    let distributors = app.world().resource::<Distributors>();
    assert_eq!(
        distributors.clans[&player].members,
        [ids[2].raw(), ids[0].raw()]
    );
    assert!(distributors.clans[&neutral].members.is_empty());
    assert_eq!(distributors.clans[&enemy].energy_bar, 0.5);
}

/// The arena mission of the install at `game` with the economy: its
/// load error.
fn fails_to_load(game: std::path::PathBuf) -> iron3d_world::mission::LoadError {
    let request = MissionRequest {
        game_dir: game,
        mission: Some(ARENA_MISSION.into()),
        mod_dirs: Vec::new(),
    };
    let mut app = headless_app(Some(request), 1);
    app.add_plugins(EconomyPlugin);
    update_until_loaded(&mut app).expect_err("the load fails")
}

#[test]
fn a_profile_with_a_negative_rate_fails_the_load_with_its_chain() {
    let (tmp, app, _) = running_arena(&base(), ());
    drop(app);
    let game = tmp.path().join("game");
    let mut mine = iron3d_formats::config::profile::BuildingProfile {
        use_power: 1.0,
        ..Default::default()
    }
    .to_profile();
    mine.vars[5] =
        iron3d_formats::config::profile::ProfileVar::float("Transfer_Ore_OffBoard", -1.0, 10.0);
    assert!(VarProfile::parse(&mine.to_bytes()).is_ok());
    replace_entry(&game, "behpsp.res::prof_mine.var", mine.to_bytes());
    let error = fails_to_load(game);
    assert_eq!(error.archive.as_deref(), Some("'behpsp.res'"));
    assert_eq!(error.entry.as_deref(), Some("'prof_mine.var'"));
    assert!(error.cause.contains("Transfer_Ore_OffBoard"), "{error}");
    assert!(error.cause.contains("0 or more"), "{error}");
}

#[test]
fn every_building_category_with_a_profile_joins_with_its_role() {
    let arena = Arena {
        pieces: [
            BuildCategory::Plant,
            BuildCategory::Institute,
            BuildCategory::BunkerSmall,
            BuildCategory::TowerLarge,
        ]
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            piece(
                What::Building(c),
                Side::Player,
                [i as f32 * 60.0 - 90.0, 0.0],
            )
        })
        .collect(),
        ..Arena::default()
    };
    let (_tmp, app, ids) = running_arena(&arena, EconomyPlugin);
    let registry = app.world().resource::<iron3d_world::ObjectRegistry>();
    let roles: Vec<Role> = ids
        .iter()
        .map(|id| {
            app.world()
                .get::<iron3d_economy::Building>(registry.entity(*id).unwrap())
                .unwrap()
                .role
        })
        .collect();
    assert_eq!(
        roles,
        [Role::Plant, Role::Institute, Role::Bunker, Role::Tower]
    );
}

/// Posts a research order for tree item `item` to the centre `centre`.
fn order_research(app: &mut App, centre: OriginalObjectId, item: i32) {
    use iron3d_formats::order::{InsertMode, ORDER_RESEARCH, OrderPacket, OrderTarget};
    let packet = OrderPacket {
        code: ORDER_RESEARCH,
        target: OrderTarget::None,
        mode: InsertMode::End,
        parameter: item,
    };
    app.world_mut()
        .resource_mut::<iron3d_world::WorldOutbox>()
        .post(
            iron3d_world::GmsgKind::Order,
            Some(centre),
            packet.to_bytes(),
        );
}

#[test]
fn a_research_centre_researches_with_its_budgets_and_opens_what_it_unlocks() {
    let arena = Arena {
        pieces: vec![
            piece(
                What::Building(BuildCategory::Institute),
                Side::Player,
                [0.0, 0.0],
            ),
            piece(
                What::Building(BuildCategory::Generator),
                Side::Player,
                [0.0, 90.0],
            ),
            piece(
                What::Building(BuildCategory::Mine),
                Side::Player,
                [90.0, 0.0],
            ),
        ],
        ..Arena::default()
    };
    let (_tmp, mut app, ids) = running_arena(&arena, EconomyPlugin);
    let player = clan_of(&app, ids[0]);
    // The demo tree: item 3 (LAS-1, 12 energy and 35 ore) is open; item 4
    // (CAN-2) needs it; an item not open is skipped.
    order_research(&mut app, ids[0], 4);
    order_research(&mut app, ids[0], 3);
    run_for_seconds(&mut app, 10);
    let research = |app: &App| {
        let registry = app.world().resource::<iron3d_world::ObjectRegistry>();
        let e = registry.entity(ids[0]).unwrap();
        app.world()
            .get::<iron3d_economy::Research>(e)
            .unwrap()
            .clone()
    };
    let task = research(&app).task.expect("researching LAS-1");
    assert_eq!((task.item, task.costs), (3, [12.0, 35.0, 2.0]));
    // Power and time are in (3 a second); ore comes at 1 a second.
    assert!(
        task.collected[0] >= 12.0 && task.collected[2] >= 2.0,
        "{task:?}"
    );
    assert!(
        task.collected[1] > 5.0 && task.collected[1] < 12.0,
        "{task:?}"
    );
    let tree = |app: &App| app.world().resource::<iron3d_economy::ClanTrees>().0[&player].clone();
    let progress = tree(&app).progress[3];
    assert!(
        (progress - task.collected[1] / 35.0).abs() < 1e-4,
        "{progress}"
    );
    run_for_seconds(&mut app, 45);
    let state = tree(&app);
    assert!(state.researched(3));
    assert_eq!(state.state[4] & 1, 1, "CAN-2 is open");
    assert!(!state.researched(4));
    assert_eq!(research(&app).task, None);
    let events = &app.world().resource::<EconomyEvents>().0;
    let researched: Vec<_> = events
        .iter()
        .filter(|e| e.kind == iron3d_economy::EconomyEventKind::Researched)
        .map(|e| (e.object, e.amount))
        .collect();
    assert_eq!(researched, [(ids[0].raw(), 3.0)]);
}

#[test]
fn a_free_research_costs_nothing_but_its_time() {
    let arena = Arena {
        pieces: vec![piece(
            What::Building(BuildCategory::Institute),
            Side::Player,
            [0.0, 0.0],
        )],
        ..Arena::default()
    };
    let (_tmp, mut app, ids) = running_arena(&arena, EconomyPlugin);
    let registry = app.world().resource::<iron3d_world::ObjectRegistry>();
    let centre = registry.entity(ids[0]).unwrap();
    app.world_mut()
        .get_mut::<iron3d_economy::Research>(centre)
        .unwrap()
        .free = 1;
    order_research(&mut app, ids[0], 3);
    // No generator, no mine: only the 2 s of time to spend.
    run_for_seconds(&mut app, 3);
    let player = clan_of(&app, ids[0]);
    let trees = app.world().resource::<iron3d_economy::ClanTrees>();
    assert!(trees.0[&player].researched(3));
    let research = app.world().get::<iron3d_economy::Research>(centre).unwrap();
    assert_eq!((research.free, research.task), (0, None));
}

#[test]
fn a_research_tree_cut_short_fails_the_load_with_its_chain() {
    let (tmp, app, _) = running_arena(&base(), ());
    drop(app);
    let game = tmp.path().join("game");
    let tree = game.join("MISSIONS/SCRIPTS/demo.trf");
    let bytes = std::fs::read(&tree).unwrap();
    std::fs::write(&tree, &bytes[..bytes.len() - 70]).unwrap();
    let error = fails_to_load(game);
    assert_eq!(
        error.archive.as_deref(),
        Some("'MISSIONS\\SCRIPTS\\demo.trf'")
    );
    assert!(error.cause.starts_with("clan 'Player': "), "{error}");
    assert!(error.cause.contains("NRes"), "{error}");
}
