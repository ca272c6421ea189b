//! Combat on the demo install, headless at the fixed step: guns fire at
//! Behavior's targets, rounds strike nodes, explosions damage, and what is
//! destroyed is deleted through the World3D queue.

use bevy::prelude::*;
use iron3d_behavior::{BehaviorPlugin, Target};
use iron3d_combat::*;
use iron3d_control::{Body, ControlPlugin, MotionFlags, PhysicalState};
use iron3d_formats::unitdat::PartClass;
use iron3d_world::mission::*;
use iron3d_world::test_support::{delete_all_but, demo_install, running_test_app};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use std::path::Path;

/// The first demo mission with Control, Behavior and Combat, every
/// simulation system explicitly ordered.
fn app(dir: &Path) -> App {
    running_test_app(
        dir.join("game"),
        (ControlPlugin, BehaviorPlugin, CombatPlugin),
    )
}

fn entity(app: &App, id: OriginalObjectId) -> Entity {
    app.world().resource::<ObjectRegistry>().entity(id).unwrap()
}

/// Every armed unit of the demo fires the rounds its guns' controllers
/// name, as their `BULL` prototypes give them, from turrets with the
/// channels' rates and limits; a clip fitted into a cannon is its record.
#[test]
fn the_demo_units_carry_guns_that_fire_their_prototypes_rounds() {
    let tmp = demo_install();
    let app = app(tmp.path());
    let world = app.world();
    let mut rounds = std::collections::BTreeSet::new();
    let mut clipped = 0;
    for (_, e) in world.resource::<ObjectRegistry>().iter() {
        let Some(arms) = world.get::<Armament>(e) else {
            continue;
        };
        let parts: Vec<&UnitPartInfo> = world
            .get::<Children>(e)
            .unwrap()
            .iter()
            .filter_map(|c| world.get::<UnitPartInfo>(c))
            .collect();
        for g in &arms.guns {
            rounds.insert(g.round.key.clone());
            assert!(g.turret.is_some(), "every demo gun sits on a turret");
            assert_eq!(g.barrels.len(), 1);
            let laser = g.round.key == "RD_LASER";
            // A gun is a gun part's (no clip is a gun of its own); a clip
            // fitted into a cannon's slot is its record: 60 shells, not
            // the cannon's own 40.
            let class = |index: usize| parts.iter().find(|p| p.index == index).unwrap().class;
            assert_eq!(class(g.node.part), Some(PartClass::Gun));
            let clip = parts
                .iter()
                .any(|p| p.parent == Some(g.node.part) && p.class == Some(PartClass::Ammo));
            if !laser {
                assert_eq!(g.values.magazine, if clip { 60.0 } else { 40.0 });
                clipped += usize::from(clip);
            }
            // The laser: unlimited, 250 ms strokes; the cannon: 40 shells.
            assert_eq!(g.values.unlimited(), laser);
            assert_eq!(g.barrels[0].stroke_s, if laser { 0.25 } else { 0.5 });
            assert_eq!(
                (g.round.speed, g.round.range),
                if laser {
                    (10_000.0, 600.0)
                } else {
                    (350.0, 500.0)
                }
            );
            // Its hit is its node's explosion (named without an archive:
            // the round's own), its range end the named one.
            let RoundEnd::Explode(hit) = &g.round.on_hit else {
                panic!("{:?}", g.round.on_hit)
            };
            let key = g.round.key.to_ascii_lowercase();
            assert_eq!(hit.resource, format!("system.rlb::{key}_hit.exp"));
            assert_eq!(hit.kind, if laser { 2 } else { 3 });
            let RoundEnd::Explode(end) = &g.round.at_range else {
                panic!("{:?}", g.round.at_range)
            };
            assert_eq!(end.resource, format!("system.rlb::{key}_end.exp"));
        }
        for t in &arms.turrets {
            // Half the file's whole turn (6.28) a second; a quarter-turn
            // pitch from -10° to +80°.
            let half_turn = iron3d_formats::proto::ctld::WHOLE_TURN / 2.0;
            assert!((t.yaw.rate - half_turn).abs() < 1e-5 && t.yaw.limits.is_none());
            let (lo, hi) = t.pitch.limits.unwrap();
            assert!((lo.to_degrees() + 10.0).abs() < 0.1 && (hi.to_degrees() - 80.0).abs() < 0.1);
        }
    }
    assert_eq!(Vec::from_iter(rounds), ["RD_LASER", "RD_SHELL"]);
    assert!(clipped > 0, "the demo fits clips into cannons");
}

fn translation(app: &App, id: OriginalObjectId) -> Vec3 {
    app.world()
        .get::<Transform>(entity(app, id))
        .unwrap()
        .translation
}

fn walker_of(app: &App, clan: u32) -> OriginalObjectId {
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| {
            world.get::<Body>(e).is_some_and(|b| b.holds_ground)
                && world.get::<Armament>(e).is_some()
                && world
                    .get::<ObjectClan>(e)
                    .is_some_and(|c| c.identity_raw == clan)
        })
        .map(|(id, _)| id)
        .unwrap()
}

/// A player's and an enemy's armed walker, [`alone_apart`].
fn foes(app: &mut App, apart: f32) -> (OriginalObjectId, OriginalObjectId) {
    app.update();
    let (player, enemy) = (walker_of(app, 1), walker_of(app, 2));
    alone_apart(app, (player, enemy), apart);
    (player, enemy)
}

/// `player` and `enemy` alone on the map, the enemy put `apart` m east of
/// the player, a metre over the ground.
fn alone_apart(app: &mut App, (player, enemy): (OriginalObjectId, OriginalObjectId), apart: f32) {
    delete_all_but(app, &[player, enemy]);
    app.update();
    let e = entity(app, enemy);
    let at = translation(app, player) + Vec3::new(apart, 1.0, 0.0);
    app.world_mut().get_mut::<Transform>(e).unwrap().translation = at;
    app.world_mut().get_mut::<PhysicalState>(e).unwrap().flags = MotionFlags::default();
}

fn events(app: &App) -> Vec<CombatEvent> {
    app.world().resource::<CombatEvents>().0.clone()
}

/// Takes `id`'s shield away (its parts' figures and its sectors), for the
/// tests of what reaches the nodes.
fn unshield(app: &mut App, id: OriginalObjectId) {
    let e = entity(app, id);
    app.world_mut()
        .entity_mut(e)
        .remove::<(ShieldSpec, Shield)>();
}

/// The building nearest the unit `near`, with its world transform.
fn building_near(app: &App, near: OriginalObjectId) -> OriginalObjectId {
    let world = app.world();
    let here = translation(app, near);
    world
        .resource::<ObjectRegistry>()
        .iter()
        .filter(|&(_, e)| {
            world.get::<ObjectKind>(e).and_then(|k| k.kind())
                == Some(iron3d_formats::tma::ObjectKind::Building)
                && world
                    .get::<HitModel>(e)
                    .is_some_and(|m| m.nodes.iter().any(|n| n.max_life > 0.0))
        })
        .min_by(|a, b| {
            let d = |e: Entity| {
                world
                    .get::<Transform>(e)
                    .unwrap()
                    .translation
                    .distance(here)
            };
            d(a.1).total_cmp(&d(b.1))
        })
        .map(|(id, _)| id)
        .unwrap()
}

/// The world centre of node `index` of an object's hit model.
fn node_centre(app: &App, id: OriginalObjectId, index: usize) -> Vec3 {
    let e = entity(app, id);
    let model = app.world().get::<HitModel>(e).unwrap();
    let t = app.world().get::<Transform>(e).unwrap();
    t.transform_point(model.nodes[index].centre)
}

/// The demo's laser round, as the guns that fire it carry it.
fn laser(app: &App) -> std::sync::Arc<RoundSpec> {
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .filter_map(|(_, e)| world.get::<Armament>(e))
        .flat_map(|a| &a.guns)
        .find(|g| g.round.key == "RD_LASER")
        .map(|g| g.round.clone())
        .unwrap()
}

/// A laser round of `shooter` leaving `from` toward `to`.
fn shoot(
    app: &mut App,
    (shooter, spec): (OriginalObjectId, &std::sync::Arc<RoundSpec>),
    from: Vec3,
    to: Vec3,
) -> u64 {
    launch(app, shooter, spec.clone(), None, from, to - from)
}

fn launch(
    app: &mut App,
    owner: OriginalObjectId,
    spec: std::sync::Arc<RoundSpec>,
    target: Option<OriginalObjectId>,
    from: Vec3,
    direction: Vec3,
) -> u64 {
    let nose = direction.normalize();
    let mut serial = app.world_mut().resource_mut::<RoundSerial>();
    serial.0 += 1;
    let number = serial.0;
    app.world_mut().resource_mut::<Rounds>().0.push(Round {
        serial: number,
        owner,
        target,
        position: from,
        velocity: nose * spec.speed,
        nose,
        range_left: spec.range,
        ratio: 1.0,
        spent: 0.0,
        state: RoundState::Flying,
        spec,
    });
    number
}

fn life(app: &App, id: OriginalObjectId) -> NodeLife {
    app.world()
        .get::<NodeLife>(entity(app, id))
        .unwrap()
        .clone()
}

/// A round to fire, whom it is fired under and at whom.
type Shooting = (
    std::sync::Arc<RoundSpec>,
    OriginalObjectId,
    OriginalObjectId,
);

/// The demo's laser round, the player's first armed walker and the
/// building nearest it, alone on the map.
fn laser_walker_and_building(app: &mut App) -> Shooting {
    app.update();
    let beam = laser(app);
    let player = walker_of(app, 1);
    let building = building_near(app, player);
    delete_all_but(app, &[player, building]);
    app.update();
    (beam, player, building)
}

/// The hits of round `serial`.
fn hits_of(app: &App, serial: u64) -> Vec<CombatEvent> {
    events(app)
        .into_iter()
        .filter(|e| e.kind == EventKind::Hit && e.amount == serial as f32)
        .collect()
}

/// A laser round fired at a building's node takes exactly its explosion's
/// amount (the round's 49 hit points and the `.exp`'s 1) off the node it
/// strikes, and nothing off any other.
#[test]
fn a_round_fired_at_a_buildings_node_takes_exactly_its_damage_off_that_node() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (beam, player, building) = laser_walker_and_building(&mut app);
    let centre = node_centre(&app, building, 0);
    let before = life(&app, building);
    let from = centre + Vec3::new(40.0, 0.0, 25.0);
    let serial = shoot(&mut app, (player, &beam), from, centre);
    app.update();
    let hits = hits_of(&app, serial);
    assert_eq!(hits.len(), 1, "{:?}", events(&app));
    assert_eq!(hits[0].object, building.raw());
    assert_eq!(hits[0].by, Some(player.raw()));
    let struck = hits[0].node.unwrap();
    let model = app
        .world()
        .get::<HitModel>(entity(&app, building))
        .unwrap()
        .clone();
    let max = model.nodes[model.index(struck).unwrap()].max_life;
    let after = life(&app, building);
    for (p, part) in after.0.iter().enumerate() {
        for (n, &f) in part.iter().enumerate() {
            let was = before.0[p][n];
            if (p, n) == (struck.part, struck.node) {
                assert!((was - f - 50.0 / max).abs() < 1e-6, "{was} -> {f} of {max}");
            } else {
                assert_eq!(f, was, "node {p}/{n} untouched");
            }
        }
    }
    // The round stopped there and stays its controller's 3000 ms.
    let rounds = app.world().resource::<Rounds>().0.clone();
    let round = rounds.iter().find(|r| r.serial == serial).unwrap();
    let tick = app.world().resource::<iron3d_schedules::GameClock>().tick();
    assert_eq!(round.state, RoundState::Stopped { until: tick + 90 });
    for _ in 0..90 {
        app.update();
    }
    assert!(
        app.world()
            .resource::<Rounds>()
            .0
            .iter()
            .all(|r| r.serial != serial)
    );
}

/// A blast takes the falloff formula's share off a node at three
/// distances: the whole amount inside R − r, ((R + r − d) / 2R)³ between,
/// nothing beyond R + r.
#[test]
fn a_blast_damages_by_the_falloff_at_three_distances() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let player = walker_of(&app, 1);
    delete_all_but(&mut app, &[player]);
    unshield(&mut app, player);
    app.update();
    let e = entity(&app, player);
    let model = app.world().get::<HitModel>(e).unwrap().clone();
    let index = 0;
    let (r, max) = (model.nodes[index].radius, model.nodes[index].max_life);
    let reach = 10.0;
    let amount = 30.0;
    for d in [reach - r - 0.5, reach, reach + r + 0.5] {
        app.world_mut().get_mut::<NodeLife>(e).unwrap().0[0][0] = 1.0;
        let point = node_centre(&app, player, index) + Vec3::new(0.0, d, 0.0);
        app.world_mut()
            .resource_mut::<HitQueue>()
            .0
            .push(PendingHit {
                point,
                blast: Blast {
                    resource: "test::blast.exp".into(),
                    kind: 3,
                    damage: amount,
                    radius: reach,
                    effects: Vec::new(),
                },
                amount,
                firer: None,
                struck: None,
            });
        app.update();
        let lost = (1.0 - life(&app, player).0[0][0]) * max;
        let want = falloff(amount, reach, r, d);
        assert!((lost - want).abs() < 1e-3, "at {d} m: {lost} vs {want}");
        match d {
            d if d < reach - r => assert_eq!(want, amount),
            d if d > reach + r => assert_eq!(want, 0.0),
            _ => assert!(0.0 < want && want < amount),
        }
    }
}

/// A unit whose node 0 dies is destroyed at once and deleted through the
/// World3D queue at the tick its controller's 2000 ms give (60 ticks at
/// 30 Hz); its id is then undeliverable.
#[test]
fn a_destroyed_unit_is_deleted_after_its_controllers_delay() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let player = walker_of(&app, 1);
    delete_all_but(&mut app, &[player]);
    app.update();
    let e = entity(&app, player);
    let delay = app
        .world()
        .get::<Controller>(e)
        .unwrap()
        .params
        .delete_delay_ms;
    assert_eq!(delay, 2000);
    let point = node_centre(&app, player, 0);
    app.world_mut()
        .resource_mut::<HitQueue>()
        .0
        .push(PendingHit {
            point,
            blast: Blast {
                resource: "test::hit.exp".into(),
                kind: 2,
                damage: 1e6,
                radius: 1.0,
                effects: Vec::new(),
            },
            amount: 1e6,
            firer: None,
            struck: Some((player, 0)),
        });
    app.update();
    let tick = app.world().resource::<iron3d_schedules::GameClock>().tick();
    let destroyed = *app.world().get::<Destroyed>(e).unwrap();
    assert_eq!(destroyed.tick, tick);
    assert_eq!(destroyed.delete_at, Some(tick + 60));
    let kinds: Vec<EventKind> = events(&app).iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&EventKind::Destroyed));
    // Everything hanging on node 0 went with it.
    assert!(life(&app, player).0.iter().flatten().all(|&f| f == 0.0));
    while app
        .world()
        .resource::<ObjectRegistry>()
        .entity(player)
        .is_ok()
    {
        app.update();
    }
    let gone = app.world().resource::<iron3d_schedules::GameClock>().tick();
    assert_eq!(gone, tick + 60);
    let err = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(player)
        .unwrap_err();
    assert!(err.was_deleted);
}

/// A destroyed node is hidden (its entity not drawn) and a round aimed at
/// it flies through where it was.
#[test]
fn a_destroyed_node_is_neither_drawn_nor_struck() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (beam, player, building) = laser_walker_and_building(&mut app);
    // The building's chimney (node 1) is destroyed.
    let e = entity(&app, building);
    app.world_mut().get_mut::<NodeLife>(e).unwrap().0[0][1] = 0.0;
    app.update();
    let part = app.world().get::<Children>(e).unwrap()[0];
    let node = app.world().get::<PartNodes>(part).unwrap().0[1];
    assert_eq!(
        app.world().get::<Visibility>(node),
        Some(&Visibility::Hidden)
    );
    assert_ne!(
        app.world()
            .get::<Visibility>(app.world().get::<PartNodes>(part).unwrap().0[0]),
        Some(&Visibility::Hidden)
    );
    // Shot at from the side, high enough to clear the hall: through.
    let centre = node_centre(&app, building, 1);
    let serial = shoot(
        &mut app,
        (player, &beam),
        centre + Vec3::new(-60.0, 0.0, 0.0),
        centre,
    );
    for _ in 0..2 {
        app.update();
    }
    let struck = hits_of(&app, serial);
    assert!(
        struck
            .iter()
            .all(|h| h.node != Some(NodeRef { part: 0, node: 1 })),
        "{struck:?}"
    );
}

/// A node with two damage states (a demo building's hall) steps up a
/// stage at half its life: the
/// step is an event carrying the stage and the node's explosion effect,
/// the nodes hanging on it are destroyed, and the node is drawn in that
/// state; the next hit that leaves it in the same stage changes neither.
#[test]
fn a_node_steps_up_its_damage_stage_plays_its_explosion_and_drops_what_hangs_on_it() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (beam, player, building) = laser_walker_and_building(&mut app);
    let e = entity(&app, building);
    // The demo's hall (node 0) has two damage states, battered in both;
    // the chimney (node 1) hangs on it.
    let model = app.world().get::<HitModel>(e).unwrap().clone();
    assert_eq!(model.nodes[0].damage_states, 2);
    assert_eq!(model.nodes[1].parent, Some(0));
    let max = model.nodes[0].max_life;
    // A laser hit (50) takes the hall from just above half to below it.
    app.world_mut().get_mut::<NodeLife>(e).unwrap().0[0][0] = 0.5 + 30.0 / max;
    let hall = NodeRef { part: 0, node: 0 };
    let centre = node_centre(&app, building, 0);
    let from = centre + Vec3::new(40.0, 0.0, 25.0);
    let serial = shoot(&mut app, (player, &beam), from, centre);
    app.update();
    assert_eq!(
        hits_of(&app, serial)[0].node,
        Some(hall),
        "{:?}",
        events(&app)
    );
    let steps: Vec<CombatEvent> = events(&app)
        .into_iter()
        .filter(|e| e.kind == EventKind::Stage)
        .collect();
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(
        (steps[0].object, steps[0].node),
        (building.raw(), Some(hall))
    );
    assert_eq!(steps[0].amount, 1.0, "stage 2 − ceil(2 × 0.49)");
    let blast = model.nodes[0].explosion.as_deref().unwrap();
    let effects = app.world().resource::<MissionEffects>();
    let cue = steps[0].cue.as_ref().unwrap();
    assert_eq!(
        Some(cue.effect.as_str()),
        effects.blasts[blast].effect_on(None)
    );
    assert_eq!(cue.on, Some(building.raw()));
    // What hangs on the hall (the chimney first) went with the step; the
    // hall stands, drawn in state 1.
    let hanging: Vec<Option<NodeRef>> = model
        .nodes
        .iter()
        .filter(|n| std::iter::successors(n.parent, |&p| model.nodes[p].parent).any(|p| p == 0))
        .map(|n| Some(n.node))
        .collect();
    assert_eq!(hanging[0], Some(NodeRef { part: 0, node: 1 }));
    let destroyed: Vec<Option<NodeRef>> = events(&app)
        .iter()
        .filter(|e| e.kind == EventKind::NodeDestroyed)
        .map(|e| e.node)
        .collect();
    assert_eq!(destroyed, hanging);
    let lives = life(&app, building);
    assert_eq!(lives.0[0][1], 0.0);
    assert!((lives.0[0][0] - (0.5 - 20.0 / max)).abs() < 1e-6);
    let part = app.world().get::<Children>(e).unwrap()[0];
    let hall_entity = app.world().get::<PartNodes>(part).unwrap().0[0];
    assert_eq!(
        app.world().get::<NodeStage>(hall_entity),
        Some(&NodeStage(1))
    );
    assert!(app.world().get::<Destroyed>(e).is_none());
    // Another hit in the same stage: damage only.
    let serial = shoot(&mut app, (player, &beam), from, centre);
    app.update();
    assert_eq!(hits_of(&app, serial).len(), 1);
    let steps = events(&app)
        .iter()
        .filter(|e| e.kind == EventKind::Stage)
        .count();
    assert_eq!(steps, 1);
}

#[test]
fn a_nodes_stage_is_its_states_less_the_ceiling_of_its_share_of_them() {
    let node = |damage_states| HitNode {
        max_life: 100.0,
        damage_states,
        ..HitNode::default()
    };
    let two = node(2);
    let stages: Vec<u8> = [1.0, 0.51, 0.5, 0.01, 0.0]
        .iter()
        .map(|&l| two.stage(l))
        .collect();
    assert_eq!(stages, vec![0, 0, 1, 1, 2]);
    assert_eq!(node(1).stage(0.01), 0, "one state: only at 0");
    assert_eq!(node(1).stage(0.0), 1);
    assert_eq!(node(0).stage(0.0), 0);
}

/// An enemy walker alone on the map, its shield's sectors set to
/// `points`; the demo's laser and a player's id to fire it under.
fn shielded_enemy(app: &mut App, points: f32) -> Shooting {
    app.update();
    let beam = laser(app);
    let (player, enemy) = (walker_of(app, 1), walker_of(app, 2));
    delete_all_but(app, &[enemy]);
    app.update();
    let e = entity(app, enemy);
    app.world_mut().get_mut::<Shield>(e).unwrap().sectors = [points; SHIELD_SECTORS];
    (beam, player, enemy)
}

/// The sector of `id`'s shield a hit from `from` falls on.
fn sector_towards(app: &App, id: OriginalObjectId, from: Vec3) -> usize {
    let e = entity(app, id);
    let t = app.world().get::<Transform>(e).unwrap();
    let centre = t.transform_point(app.world().get::<HitModel>(e).unwrap().centre);
    ShieldSpec::sector(t.rotation.inverse() * (from - centre))
}

/// The points stopped by shields, as the events give them.
fn shielded(app: &App) -> Vec<(u32, f32)> {
    events(app)
        .iter()
        .filter(|e| e.kind == EventKind::Shielded)
        .map(|e| (e.object, e.amount))
        .collect()
}

/// The demo's walkers carry a fight shield (150 a sector, 15 a second) on
/// the chassis and a 0.5 deflector on the turret; the enemy's sectors are
/// 0.7 of it (the difficulty ratio). A laser (50) fired at a shielded
/// walker meets its bubble on the sector facing the shot: the sector
/// stops up to 0.5 × its points and pays twice what it stops; a round
/// under that is spent on the bubble and strikes nothing, one over it
/// passes through with the rest and strikes a node for it.
#[test]
fn a_shield_stops_a_round_on_its_sector_and_a_stronger_one_passes_with_the_rest() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (beam, player, enemy) = shielded_enemy(&mut app, 105.0);
    let e = entity(&app, enemy);
    let spec = app.world().get::<ShieldSpec>(e).unwrap().clone();
    assert_eq!((spec.sector_max, spec.recharge), (150.0 * 0.7, 15.0));
    assert_eq!(spec.coefficients, [0.5; SHIELD_SECTORS]);
    let centre = node_centre(&app, enemy, 0);
    let from = centre + Vec3::new(60.0, 0.0, 0.0);
    let sector = sector_towards(&app, enemy, from);
    let before = life(&app, enemy);
    let whole = shoot(&mut app, (player, &beam), from, centre);
    app.update();
    assert_eq!(shielded(&app), vec![(enemy.raw(), 50.0)]);
    assert!(hits_of(&app, whole).is_empty(), "spent on the bubble");
    assert_eq!(life(&app, enemy), before);
    let sectors = app.world().get::<Shield>(e).unwrap().sectors;
    for (i, &points) in sectors.iter().enumerate() {
        assert_eq!(points, if i == sector { 5.0 } else { 105.0 }, "{i}");
    }
    // The round stopped where it entered the bubble.
    let rounds = app.world().resource::<Rounds>().0.clone();
    let round = rounds.iter().find(|r| r.serial == whole).unwrap();
    let model = app.world().get::<HitModel>(e).unwrap().clone();
    let t = *app.world().get::<Transform>(e).unwrap();
    let bubble = t.transform_point(model.centre).distance(round.position);
    assert!(
        (bubble - model.radius).abs() < 1e-3,
        "{bubble} vs {}",
        model.radius
    );
    // 40 points stop 20 of 50: the sector is emptied, the rest strikes.
    app.world_mut().get_mut::<Shield>(e).unwrap().sectors[sector] = 40.0;
    let through = shoot(&mut app, (player, &beam), from, centre);
    app.update();
    assert_eq!(shielded(&app)[1..], [(enemy.raw(), 20.0)]);
    assert_eq!(app.world().get::<Shield>(e).unwrap().sectors[sector], 0.0);
    let hit = hits_of(&app, through);
    assert_eq!(hit.len(), 1, "{:?}", events(&app));
    let damage: f32 = events(&app)
        .iter()
        .filter(|ev| ev.kind == EventKind::Damage && ev.object == enemy.raw())
        .map(|ev| ev.amount)
        .sum();
    let armour = app.world().get::<Armour>(e).copied();
    let want = armour.map_or(30.0, |a| a.keeps(30.0));
    assert!((damage - want).abs() < 1e-3, "{damage} vs {want}");
}

/// A blast meets a shield it crosses from outside: the sector facing it
/// stops its share and only the rest falls off over the nodes; kind 4
/// drains shields and never touches a node; a blast inside the bubble
/// meets no shield. A destroyed deflector drops the bubble: a laser then
/// strikes whole.
#[test]
fn a_blast_meets_the_shield_it_crosses_from_outside_and_a_dead_deflector_drops_it() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (beam, player, enemy) = shielded_enemy(&mut app, 100.0);
    let e = entity(&app, enemy);
    let model = app.world().get::<HitModel>(e).unwrap().clone();
    let t = *app.world().get::<Transform>(e).unwrap();
    let centre = t.transform_point(model.centre);
    let blast = |kind: u32, point: Vec3| PendingHit {
        point,
        blast: Blast {
            resource: "test::blast.exp".into(),
            kind,
            damage: 80.0,
            radius: 20.0,
            effects: Vec::new(),
        },
        amount: 80.0,
        firer: None,
        struck: None,
    };
    let queue = |app: &mut App, hit: PendingHit| {
        app.world_mut().resource_mut::<HitQueue>().0.push(hit);
        app.update();
    };
    let damage = |app: &App| -> f32 {
        events(app)
            .iter()
            .filter(|ev| ev.kind == EventKind::Damage)
            .map(|ev| ev.amount)
            .sum()
    };
    // From above, outside the bubble: the top sector stops 0.5 × 100.
    let above = centre + Vec3::new(0.0, model.radius + 5.0, 0.0);
    assert_eq!(sector_towards(&app, enemy, above), 4);
    queue(&mut app, blast(4, above));
    assert_eq!(shielded(&app), vec![(enemy.raw(), 50.0)]);
    assert_eq!(damage(&app), 0.0, "kind 4 strikes shields only");
    assert_eq!(app.world().get::<Shield>(e).unwrap().sectors[4], 0.0);
    // From inside the bubble: no sector meets it.
    queue(&mut app, blast(4, centre));
    assert_eq!(shielded(&app).len(), 1);
    // From the side, kind 3: 50 stopped, the nodes take the falloff of 30.
    let side = centre + Vec3::new(model.radius + 5.0, 0.0, 0.0);
    let sector = sector_towards(&app, enemy, side);
    queue(&mut app, blast(3, side));
    assert_eq!(shielded(&app)[1..], [(enemy.raw(), 50.0)]);
    assert_eq!(app.world().get::<Shield>(e).unwrap().sectors[sector], 0.0);
    let armour = app.world().get::<Armour>(e).copied();
    let want: f32 = model
        .nodes
        .iter()
        .filter(|n| n.max_life > 0.0)
        .map(|n| {
            let d = t.transform_point(n.centre).distance(side);
            let falls = falloff(30.0, 20.0, n.radius, d);
            armour.map_or(falls, |a| a.keeps(falls))
        })
        .sum();
    assert!(want > 0.0);
    let got = damage(&app);
    assert!((got - want).abs() < 1e-2, "{got} vs {want}");
    // The deflector (on the turret) destroyed: no bubble, though the
    // sectors are full.
    app.world_mut().get_mut::<Shield>(e).unwrap().sectors = [100.0; SHIELD_SECTORS];
    let deflector = app.world().get::<ShieldSpec>(e).unwrap().deflector.unwrap();
    app.world_mut().get_mut::<NodeLife>(e).unwrap().0[deflector.part][deflector.node] = 0.0;
    let hull = node_centre(&app, enemy, 0);
    let from = hull + Vec3::new(60.0, 0.0, 0.0);
    let serial = shoot(&mut app, (player, &beam), from, hull);
    app.update();
    assert_eq!(shielded(&app).len(), 2);
    assert_eq!(hits_of(&app, serial).len(), 1);
}

/// On each 250 ms power tick a shield recharges 15 × 0.25 points, shared
/// among its sectors by what each lacks; full sectors take nothing.
#[test]
fn a_shield_recharges_on_the_power_tick_by_what_each_sector_lacks() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (_, _, enemy) = shielded_enemy(&mut app, 105.0);
    let e = entity(&app, enemy);
    let start = [105.0, 55.0, 80.0, 105.0, 105.0, 105.0];
    app.world_mut().get_mut::<Shield>(e).unwrap().sectors = start;
    let sectors = |app: &App| app.world().get::<Shield>(e).unwrap().sectors;
    let mut steps = 0;
    while sectors(&app) == start {
        app.update();
        steps += 1;
        assert!(steps <= 8, "a power tick within 250 ms");
    }
    // 3.75 points: two thirds to the sector lacking 50, a third to 25.
    let now = sectors(&app);
    assert!(
        (now[1] - 57.5).abs() < 1e-4 && (now[2] - 81.25).abs() < 1e-4,
        "{now:?}"
    );
    assert_eq!([now[0], now[3], now[4], now[5]], [105.0; 4]);
    // The next tick: 2.5 of the 3.75 to the sector lacking 47.5 of 71.25.
    let (was, mut steps) = (now, 0);
    while sectors(&app) == was {
        app.update();
        steps += 1;
        assert!(steps <= 8, "a power tick within 250 ms");
    }
    assert!(
        (sectors(&app)[1] - 60.0).abs() < 1e-4,
        "{:?}",
        sectors(&app)
    );
}

/// The turret part of `id`'s first turret and a part mounted on it (its
/// gun).
fn turret_and_gun(app: &App, id: OriginalObjectId) -> (Entity, Entity) {
    let world = app.world();
    let e = entity(app, id);
    let index = world.get::<Armament>(e).unwrap().turrets[0].node.part;
    let children = world.get::<Children>(e).unwrap();
    let turret = children
        .iter()
        .find(|&c| {
            world
                .get::<UnitPartInfo>(c)
                .is_some_and(|i| i.index == index)
        })
        .unwrap();
    let gun = children
        .iter()
        .find(|&c| {
            world
                .get::<SocketMount>(c)
                .is_some_and(|m| m.parent_part == turret)
        })
        .unwrap();
    (turret, gun)
}

/// A turret is drawn turned to its aim and carries its gun: between two
/// frames the gun part turns, in the turret's frame, by exactly what the
/// aim turned (yaw about the up axis, pitch about the side axis), while
/// the turret swings round to a foe put east of it.
#[test]
fn a_turret_is_drawn_turned_to_its_aim_and_carries_its_guns() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let (player, _) = foes(&mut app, 80.0);
    app.update();
    let e = entity(&app, player);
    let (turret, gun) = turret_and_gun(&app, player);
    let drawn = |app: &App| {
        let world = app.world();
        let aim = world.get::<Weapons>(e).unwrap().turrets[0];
        let part = world.get::<Transform>(turret).unwrap();
        let on_turret = part.rotation.inverse() * world.get::<Transform>(gun).unwrap().rotation;
        let turn = Quat::from_rotation_y(aim.yaw) * Quat::from_rotation_x(aim.pitch);
        (aim.yaw, turn, on_turret)
    };
    let (yaw_before, turn_before, gun_before) = drawn(&app);
    for _ in 0..30 {
        app.update();
    }
    let (yaw_after, turn_after, gun_after) = drawn(&app);
    assert!(
        (yaw_after - yaw_before).abs() > 0.5,
        "{yaw_before} -> {yaw_after}"
    );
    let aimed = turn_after * turn_before.inverse();
    let shown = gun_after * gun_before.inverse();
    assert!(shown.angle_between(aimed) < 1e-3, "{shown:?} vs {aimed:?}");
}

/// An enemy building that carries guns (the demo's tower) fires at a
/// hostile walker its radar sees: the walker is its target, its turret
/// turns to it and its gun's shots are listed.
#[test]
fn an_armed_building_fires_at_the_nearest_hostile_its_radar_sees() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let world = app.world();
    let tower = world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| {
            world.get::<Armament>(e).is_some()
                && world.get::<Controller>(e).is_none()
                && world
                    .get::<ObjectClan>(e)
                    .is_some_and(|c| c.identity_raw == 2)
        })
        .map(|(id, _)| id)
        .expect("an armed enemy building");
    assert!(
        world.get::<RadarRef>(entity(&app, tower)).is_some(),
        "its turret's radar"
    );
    let player = walker_of(&app, 1);
    alone_apart(&mut app, (tower, player), 150.0);
    let shot = (0..30 * 10).find_map(|_| {
        app.update();
        events(&app)
            .into_iter()
            .find(|e| e.kind == EventKind::Shot && e.object == tower.raw())
    });
    assert!(shot.is_some(), "the tower fires");
    let e = entity(&app, tower);
    assert_eq!(app.world().get::<Target>(e), Some(&Target(Some(player))));
    let aim = app.world().get::<Weapons>(e).unwrap().turrets[0];
    assert!(aim.error < 0.1, "on its target: {aim:?}");
}

/// A guided round launched off its target's bearing turns onto it and
/// strikes it (its shield taken away); the same round without its seeker
/// flies past.
#[test]
fn a_guided_round_turns_onto_its_target() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let laser = laser(&app);
    let (player, enemy) = foes(&mut app, 80.0);
    unshield(&mut app, enemy);
    let guided = std::sync::Arc::new(RoundSpec {
        key: "TEST_MISSILE".into(),
        speed: 60.0,
        turn_rate: 1.5,
        seeker: Some(Seeker {
            cone: 0.9,
            reach: 500.0,
            lock_s: 0.0,
        }),
        ..(*laser).clone()
    });
    let unguided = std::sync::Arc::new(RoundSpec {
        seeker: None,
        ..(*guided).clone()
    });
    let from = translation(&app, player) + Vec3::new(0.0, 6.0, 0.0);
    let to = node_centre(&app, enemy, 0);
    // 0.35 rad to the left of the bearing, level.
    let off = Quat::from_rotation_y(0.35) * (to - from).with_y(0.0);
    let hunted = launch(&mut app, player, guided, Some(enemy), from, off);
    let straight = launch(&mut app, player, unguided, Some(enemy), from, off);
    for _ in 0..90 {
        app.update();
    }
    let struck = |serial: u64| {
        hits_of(&app, serial)
            .iter()
            .any(|e| e.object == enemy.raw())
    };
    assert!(struck(hunted), "the guided round strikes its target");
    assert!(!struck(straight), "the unguided one flies past");
}

/// The fight of a headless app with `seed`: two hostile walkers put 150 m
/// apart fire at each other until one is destroyed; its events and the
/// state hash at the end.
fn fight(dir: &Path, seed: u64) -> (Vec<CombatEvent>, u64, u64) {
    let request = MissionRequest::first_of(dir.join("game"));
    let mut app = headless_app(Some(request), seed);
    app.add_plugins((ControlPlugin, BehaviorPlugin, CombatPlugin));
    iron3d_schedules::deny_simulation_ambiguities(&mut app);
    app.finish();
    app.cleanup();
    update_until_loaded(&mut app).unwrap();
    let (player, enemy) = foes(&mut app, 150.0);
    for _ in 0..30 * 40 {
        app.update();
        let world = app.world();
        if [player, enemy].iter().any(|&id| {
            world
                .resource::<ObjectRegistry>()
                .entity(id)
                .map_or(true, |e| world.get::<Destroyed>(e).is_some())
        }) {
            break;
        }
    }
    let tick = app.world().resource::<iron3d_schedules::GameClock>().tick();
    (
        events(&app),
        iron3d_schedules::StateHash::compute(app.world()),
        tick,
    )
}

/// Two hostile walkers fight to a deterministic end: both fire, rounds
/// strike, one is destroyed; the same seed gives the same fight and hash,
/// another seed another fight.
#[test]
fn two_foes_fight_to_a_deterministic_end() {
    let tmp = demo_install();
    let (events, hash, tick) = fight(tmp.path(), 1);
    let count = |k: EventKind| events.iter().filter(|e| e.kind == k).count();
    assert!(count(EventKind::Shot) > 2 && count(EventKind::Hit) > 0);
    assert!(count(EventKind::Damage) > 0);
    assert_eq!(count(EventKind::Destroyed), 1, "ended at tick {tick}");
    let shooters: std::collections::BTreeSet<u32> = events
        .iter()
        .filter(|e| e.kind == EventKind::Shot)
        .map(|e| e.object)
        .collect();
    assert_eq!(shooters.len(), 2, "both fire");
    let again = fight(tmp.path(), 1);
    assert_eq!((&again.0, again.1, again.2), (&events, hash, tick));
    let other = fight(tmp.path(), 2);
    assert_ne!(
        (other.0, other.1),
        (events, hash),
        "another seed, another fight"
    );
}

/// Each object's node maxima by id, and the difficulty ratio it took.
fn lives_and_ratios(app: &App) -> Vec<(OriginalObjectId, u32, Option<f32>, Vec<f32>)> {
    let world = app.world();
    world
        .resource::<ObjectRegistry>()
        .iter()
        .filter_map(|(id, e)| {
            let model = world.get::<HitModel>(e)?;
            Some((
                id,
                world.get::<ObjectClan>(e)?.identity_raw,
                world.get::<LevelRatio>(e).map(|r| r.0),
                model.nodes.iter().map(|n| n.max_life).collect(),
            ))
        })
        .collect()
}

/// The install's `GAME_LEVEL` picks the `[LEVEL_RATIO]` (openparkan
/// `docs/26-damage.md`): the demo's 1 gives the enemy clan's warriors 0.7
/// of the life `GAME_LEVEL=2` (hard, 1.0) gives them, the player's clan and
/// the buildings the same life at both; the rounds an enemy's guns fire
/// carry the ratio, and a laser of theirs takes 0.7 × 50 off a node of
/// the player's walker (its shield taken away).
#[test]
fn the_difficulty_ratio_scales_enemy_warriors_life_and_hits() {
    let tmp = demo_install();
    let mut medium = app(tmp.path());
    let ini = tmp.path().join("game/iron_3d.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    assert!(text.contains("GAME_LEVEL=1\r\n"), "the demo plays medium");
    std::fs::write(&ini, text.replace("GAME_LEVEL=1", "GAME_LEVEL=2")).unwrap();
    let hard = lives_and_ratios(&app(tmp.path()));
    let scaled = lives_and_ratios(&medium);
    assert_eq!(scaled.len(), hard.len());
    let mut enemies = 0;
    for ((id, clan, ratio, lives), (id2, _, hard_ratio, hard_lives)) in scaled.iter().zip(&hard) {
        assert_eq!(id, id2);
        let kind = medium
            .world()
            .get::<ObjectKind>(entity(&medium, *id))
            .unwrap()
            .kind();
        let unit = kind == Some(iron3d_formats::tma::ObjectKind::Unit);
        match clan {
            1 => assert_eq!(ratio, &None, "{id:?}: the player's clan keeps its life"),
            2 if unit => {
                assert_eq!((*ratio, *hard_ratio), (Some(0.7), Some(1.0)), "{id:?}");
                enemies += 1;
            }
            _ if !unit => assert_eq!(ratio, &None, "{id:?}: buildings are no warriors"),
            _ => {}
        }
        let factor = ratio.unwrap_or(1.0) / hard_ratio.unwrap_or(1.0);
        for (l, h) in lives.iter().zip(hard_lives) {
            assert!((l - h * factor).abs() < 1e-3, "{id:?}: {l} against {h}");
        }
    }
    assert!(enemies > 0);
    // A laser walker of the enemy's against the player's walker.
    medium.update();
    let world = medium.world();
    let laser_walker = world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| {
            world
                .get::<ObjectClan>(e)
                .is_some_and(|c| c.identity_raw == 2)
                && world.get::<Body>(e).is_some_and(|b| b.holds_ground)
                && world.get::<Armament>(e).is_some_and(|a| {
                    !a.guns.is_empty() && a.guns.iter().all(|g| g.round.key == "RD_LASER")
                })
        })
        .map(|(id, _)| id)
        .expect("an enemy walker with lasers only");
    let player = walker_of(&medium, 1);
    alone_apart(&mut medium, (player, laser_walker), 150.0);
    unshield(&mut medium, player);
    let mut ratios = std::collections::BTreeMap::new();
    let first_damage = (0..30 * 20).find_map(|_| {
        medium.update();
        for r in &medium.world().resource::<Rounds>().0 {
            ratios.insert(r.owner, r.ratio);
        }
        events(&medium)
            .into_iter()
            .find(|e| e.kind == EventKind::Damage && e.by == Some(laser_walker.raw()))
    });
    assert_eq!(ratios.get(&laser_walker), Some(&0.7));
    assert_eq!(ratios.get(&player).copied().unwrap_or(1.0), 1.0);
    let damage = first_damage.expect("the enemy's laser strikes");
    assert_eq!(damage.object, player.raw());
    assert!((damage.amount - 35.0).abs() < 1e-3, "{damage:?}");
}

/// A round whose hit explosion is malformed fails the mission with its
/// chain: the object, the gun's prototype, the round in `objects.rlb` and
/// the `.exp` with the reader's cause; never a round that does nothing.
#[test]
fn a_malformed_round_explosion_fails_the_mission_with_its_chain() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let modded = tmp.path().join("mod");
    let loose = modded.join("system.rlb").join("rd_laser_hit.exp");
    std::fs::create_dir_all(loose.parent().unwrap()).unwrap();
    std::fs::write(&loose, [2u8, 0, 0, 0, 0, 0]).unwrap();
    let request = MissionRequest {
        game_dir: game,
        mission: None,
        mod_dirs: vec![modded],
    };
    let mut app = headless_app(Some(request), 1);
    app.add_plugins((ControlPlugin, BehaviorPlugin, CombatPlugin));
    app.finish();
    app.cleanup();
    let error = update_until_loaded(&mut app).unwrap_err();
    assert_eq!(error.phase, MissionPhase::Resources, "{error}");
    assert!(error.object.is_some(), "{error}");
    assert!(
        error
            .prototype
            .as_deref()
            .is_some_and(|p| p.starts_with("'GN_LASER")),
        "{error}"
    );
    assert_eq!(error.archive.as_deref(), Some("'objects.rlb'"), "{error}");
    assert_eq!(error.entry.as_deref(), Some("'RD_LASER'"), "{error}");
    assert!(
        error
            .cause
            .contains("explosion system.rlb::rd_laser_hit.exp")
            && error.cause.contains("EXPL"),
        "{error}"
    );
    assert!(app.world().resource::<ObjectRegistry>().is_empty());
}
