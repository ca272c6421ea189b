//! Headless tests of World3D: identity, deferred deletion and messages.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_schedules::{SimStep, SpinePlugin, StateHash, deny_simulation_ambiguities};
use iron3d_world::*;

/// A spine + world app where every update runs exactly one tick.
fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SpinePlugin::default(), WorldPlugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    deny_simulation_ambiguities(&mut app);
    app.update();
    app
}

fn spawn_objects(app: &mut App, ids: &[u32]) {
    for &raw in ids {
        let id = OriginalObjectId(raw);
        let entity = app
            .world_mut()
            .spawn((id, Transform::from_xyz(raw as f32, 0.0, 0.0)))
            .id();
        app.world_mut()
            .resource_mut::<ObjectRegistry>()
            .register(id, entity)
            .unwrap();
    }
}

#[test]
fn ids_map_to_entities_both_ways_and_duplicates_are_refused() {
    let mut app = app();
    spawn_objects(&mut app, &[0x0001_0005, 7]);
    let registry = app.world().resource::<ObjectRegistry>();
    let e = registry.entity(OriginalObjectId(0x0001_0005)).unwrap();
    assert_eq!(registry.id(e), Some(OriginalObjectId(0x0001_0005)));
    assert_eq!(OriginalObjectId(0x0001_0005).owner_player(), 1);
    assert_eq!(OriginalObjectId(0x0001_0005).class_and_index(), 5);
    let ids: Vec<u32> = registry.iter().map(|(id, _)| id.raw()).collect();
    assert_eq!(ids, vec![7, 0x0001_0005], "iteration in id order");

    let other = app.world_mut().spawn_empty().id();
    let mut registry = app.world_mut().resource_mut::<ObjectRegistry>();
    assert_eq!(
        registry.register(OriginalObjectId(7), other),
        Err(RegisterError::Duplicate(OriginalObjectId(7)))
    );
    assert_eq!(
        registry.register(OriginalObjectId(8), e),
        Err(RegisterError::EntityTaken(e, OriginalObjectId(0x0001_0005)))
    );
    assert_eq!(
        registry.entity(OriginalObjectId(99)),
        Err(NoSuchObject {
            id: OriginalObjectId(99),
            was_deleted: false
        })
    );
}

/// Objects visited by the traversal probe, in order, per tick.
#[derive(Resource, Default)]
struct Visits(Vec<u32>);

/// A traversal that deletes object 2 when it reaches object 1.
fn traverse_and_delete(mut ops: WorldOps, mut visits: ResMut<Visits>) {
    assert!(ops.in_calculation());
    let ids: Vec<OriginalObjectId> = ops.registry().iter().map(|(id, _)| id).collect();
    for id in ids {
        visits.0.push(id.raw());
        if id.raw() == 1 {
            assert_eq!(ops.delete(OriginalObjectId(2)), Ok(DeleteOutcome::Deferred));
            assert_eq!(
                ops.delete(OriginalObjectId(2)),
                Ok(DeleteOutcome::AlreadyPending)
            );
        }
    }
}

#[test]
fn deletion_inside_the_world_queue_is_deferred_to_the_apply_phase() {
    let mut app = app();
    spawn_objects(&mut app, &[1, 2, 3]);
    let doomed = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(2))
        .unwrap();
    app.init_resource::<Visits>()
        .add_systems(FixedUpdate, traverse_and_delete.in_set(SimStep::Reap));
    app.update();

    assert_eq!(
        app.world().resource::<Visits>().0,
        vec![1, 2, 3],
        "traversal undisturbed"
    );
    assert!(
        app.world().get_entity(doomed).is_err(),
        "despawned after apply"
    );
    let registry = app.world().resource::<ObjectRegistry>();
    assert_eq!(
        registry.entity(OriginalObjectId(2)),
        Err(NoSuchObject {
            id: OriginalObjectId(2),
            was_deleted: true
        })
    );
    assert_eq!(registry.len(), 2);
    assert!(app.world().resource::<WorldQueue>().deferred().is_empty());
    assert!(!app.world().resource::<WorldQueue>().in_calculation());
}

#[derive(Resource, Default)]
struct Outcome(Option<Result<DeleteOutcome, NoSuchObject>>);

#[test]
fn deletion_outside_the_world_queue_is_immediate() {
    let mut app = app();
    spawn_objects(&mut app, &[5]);
    app.init_resource::<Outcome>().add_systems(
        Update,
        |mut ops: WorldOps, mut out: ResMut<Outcome>| {
            if out.0.is_none() {
                out.0 = Some(ops.delete(OriginalObjectId(5)));
                assert!(ops.entity(OriginalObjectId(5)).is_err(), "gone at once");
            }
        },
    );
    app.update();
    assert_eq!(
        app.world().resource::<Outcome>().0,
        Some(Ok(DeleteOutcome::Deleted))
    );
    assert!(app.world().resource::<ObjectRegistry>().is_empty());
}

#[derive(Resource, Default)]
struct Received(Vec<(u64, GmsgKind, Option<u32>)>, Vec<(u64, bool)>);

#[test]
fn messages_are_delivered_in_posting_order_and_never_to_a_deleted_object() {
    let mut app = app();
    spawn_objects(&mut app, &[10, 11]);
    app.init_resource::<Received>().add_systems(
        FixedUpdate,
        (|mut msgs: MessageReader<WorldMessage>,
          mut failed: MessageReader<Undeliverable>,
          mut got: ResMut<Received>| {
            for m in msgs.read() {
                got.0.push((m.seq, m.kind, m.target.map(|t| t.raw())));
            }
            for f in failed.read() {
                got.1.push((f.seq, f.reason.was_deleted));
            }
        })
        .in_set(SimStep::Reap),
    );
    // Object 11 is deleted before delivery (outside the pass: immediately).
    app.add_systems(Update, |mut ops: WorldOps, mut once: Local<bool>| {
        if !*once {
            *once = true;
            ops.delete(OriginalObjectId(11)).unwrap();
        }
    });
    app.update();
    {
        let mut outbox = app.world_mut().resource_mut::<WorldOutbox>();
        outbox.post(GmsgKind::TextForPlayer, None, b"hello".to_vec());
        outbox.post(GmsgKind::TakeObject, Some(OriginalObjectId(11)), vec![]);
        outbox.post(
            GmsgKind::CollisionDetected,
            Some(OriginalObjectId(10)),
            vec![1, 2],
        );
    }
    app.update();
    let got = app.world().resource::<Received>();
    assert_eq!(
        got.0,
        vec![
            (0, GmsgKind::TextForPlayer, None),
            (2, GmsgKind::CollisionDetected, Some(10))
        ]
    );
    assert_eq!(
        got.1,
        vec![(1, true)],
        "the deleted target is reported, not substituted"
    );
    assert_eq!(
        GmsgKind::CollisionDetected.name(),
        "GMSG_COLLISION_DETECTED"
    );
    assert!(!GmsgKind::CollisionDetected.is_networked());
}

#[test]
fn the_state_hash_covers_ids_and_transforms() {
    let hash_with = |x: f32| {
        let mut app = app();
        spawn_objects(&mut app, &[1, 2]);
        let e = app
            .world()
            .resource::<ObjectRegistry>()
            .entity(OriginalObjectId(2))
            .unwrap();
        app.world_mut()
            .get_mut::<Transform>(e)
            .unwrap()
            .translation
            .x = x;
        for _ in 0..5 {
            app.update();
        }
        StateHash::compute(app.world())
    };
    assert_eq!(hash_with(2.0), hash_with(2.0));
    assert_ne!(hash_with(2.0), hash_with(2.5));
}
