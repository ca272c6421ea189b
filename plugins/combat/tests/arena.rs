//! Small Combat tests in the test arena: only the objects a test names,
//! on flat ground.

use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::{CombatEvents, CombatPlugin, EventKind};
use iron3d_control::ControlPlugin;
use iron3d_world::test_support::{Arena, Side, What, run_for_seconds, running_arena};

#[test]
fn two_hostile_walkers_60_m_apart_fight_until_one_is_destroyed() {
    let arena = Arena::default()
        .with(What::Walker, Side::Player, [0.0, -30.0])
        .with(What::Walker, Side::Enemy, [0.0, 30.0]);
    let (_tmp, mut app, ids) = running_arena(&arena, (ControlPlugin, BehaviorPlugin, CombatPlugin));
    let [player, enemy] = [ids[0].0, ids[1].0];
    run_for_seconds(&mut app, 10);
    let events = &app.world().resource::<CombatEvents>().0;
    let shots = |by| {
        events
            .iter()
            .filter(|e| e.kind == EventKind::Shot && e.object == by)
            .count()
    };
    assert!(
        shots(player) > 0 && shots(enemy) > 0,
        "both fire: {events:?}"
    );
    let destroyed: Vec<_> = events
        .iter()
        .filter(|e| e.kind == EventKind::Destroyed)
        .map(|e| (e.object, e.by))
        .collect();
    assert_eq!(
        destroyed.len(),
        1,
        "one of them is destroyed: {destroyed:?}"
    );
    let (dead, by) = destroyed[0];
    let killer = if dead == player { enemy } else { player };
    assert_eq!(by, Some(killer), "by the other one's rounds");
}
