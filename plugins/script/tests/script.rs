//! Mission scripts on the demo install, headless at the fixed step: the
//! clans' SuperAIs run their scripts on game time, the player's `Mission`
//! handler drives the objectives and the outcome, the enemy's problems
//! send units, and a fault is contained.

use bevy::prelude::*;
use iron3d_behavior::{BehaviorPlugin, InsertMode, OrderKind, OrderPacket, OrderTarget, Orders};
use iron3d_combat::CombatPlugin;
use iron3d_control::ControlPlugin;
use iron3d_demo as demo;
use iron3d_formats::script::asm::assemble;
use iron3d_formats::script::dis;
use iron3d_formats::script::fml::FormulaSet;
use iron3d_formats::script::scr::Script;
use iron3d_formats::script::varset::{Value as VarValue, Varset};
use iron3d_formats::tma::MissionPath;
use iron3d_schedules::GameClock;
use iron3d_script::*;
use iron3d_world::mission::{Destroyed, MissionPaths, MissionRequest};
use iron3d_world::test_support::{
    Side, What, demo_install, running_mission_test_app, running_test_app,
};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOutbox};
use std::path::{Path, PathBuf};

fn scripts(dir: &Path) -> PathBuf {
    dir.join("game/MISSIONS/SCRIPTS")
}

fn varset(dir: &Path) -> Varset {
    Varset::parse(&std::fs::read(scripts(dir).join("varset.var")).unwrap()).unwrap()
}

/// Replaces the first mission's player script with `source`.
fn player_script(dir: &Path, source: &str) {
    let (script, formulas) = assemble(source, &varset(dir)).unwrap();
    std::fs::write(
        scripts(dir).join("scr_pl_1.scr"),
        script.to_bytes().unwrap(),
    )
    .unwrap();
    std::fs::write(scripts(dir).join("scr_pl_1.fml"), formulas.to_bytes()).unwrap();
}

/// The first demo mission with every simulation plugin, ambiguities denied.
fn app(dir: &Path) -> App {
    running_test_app(
        dir.join("game"),
        (ControlPlugin, BehaviorPlugin, CombatPlugin, ScriptPlugin),
    )
}

fn progress(app: &App) -> &Progress {
    app.world().resource::<Progress>()
}

fn player(app: &App) -> &Brain {
    let brains = app.world().resource::<Brains>();
    &brains.list[brains.player.expect("a player brain")]
}

fn tick(app: &App) -> u64 {
    app.world().resource::<GameClock>().tick()
}

/// The demo's second mission in `tmp`'s install, running with `plugins`.
fn second_mission<M>(tmp: &tempfile::TempDir, plugins: impl bevy::app::Plugins<M>) -> App {
    let request = MissionRequest {
        mission: Some("Campaign.00/Mission.02".into()),
        ..MissionRequest::first_of(tmp.path().join("game"))
    };
    running_mission_test_app(request, plugins)
}

/// No script faulted and no unimplemented slot was reached.
fn no_script_errors(app: &App) {
    let errors = &app.world().resource::<ScriptErrors>().list;
    assert!(errors.is_empty(), "{errors:?}");
}

/// Steps until `done` or `limit` steps.
fn run_until(app: &mut App, limit: usize, done: impl Fn(&App) -> bool) {
    for _ in 0..limit {
        if done(app) {
            return;
        }
        app.update();
    }
    assert!(done(app), "not within {limit} steps");
}

/// The messages' and the briefing's texts are the install's dialogue:
/// `DATA/TextRes.cfg` names bound to `TextRes.dll` strings; a name it does
/// not bind (the opening's mission name) stays as written. Script reads
/// them in the mission load.
#[test]
fn messages_and_briefing_lines_are_read_through_textres() {
    let tmp = demo_install();
    let app = app(tmp.path());
    let scripts = app.world().resource::<MissionScripts>();
    assert_eq!(scripts.faults, Vec::<String>::new());
    let messages: Vec<&str> = scripts.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        messages,
        [
            "Внимание: противник у базы",
            "Objective complete",
            "Mission failed"
        ]
    );
    let lines: Vec<&str> = scripts.briefing.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(
        lines,
        [
            "Mission.01",
            "Захватите базу противника",
            "Захватите базу противника",
            ""
        ]
    );
}

#[test]
fn the_demo_scripts_start_per_clan_and_the_enemy_sends_its_units_at_the_player() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let brains = app.world().resource::<Brains>();
    let clans: Vec<&str> = brains.list.iter().map(|b| b.clan_name.as_str()).collect();
    // The neutral and nature clans name no script: no brain, the mission runs.
    assert_eq!(clans, ["Player", "Enemy"]);
    assert!(progress(&app).hero.is_some());
    assert_eq!(progress(&app).objectives.len(), 4);

    let enemy_units = |app: &App| -> Vec<(u32, Vec3, Option<OrderKind>)> {
        let world = app.world();
        let registry = world.resource::<ObjectRegistry>();
        let mut out = Vec::new();
        for (id, e) in registry.iter() {
            let clan = world.get::<iron3d_world::mission::ObjectClan>(e).unwrap();
            if let (2, Some(orders)) = (clan.identity_raw, world.get::<Orders>(e)) {
                let at = world.get::<Transform>(e).unwrap().translation;
                out.push((id.raw(), at, orders.current().map(|o| o.kind)));
            }
        }
        out
    };
    let before = enemy_units(&app);
    assert!(!before.is_empty());
    assert!(before.iter().all(|u| u.2.is_none()), "{before:?}");
    // The first takt is 7 to 8 s in: Problems0 raises an attack on the
    // nearest enemy of the base, and its _Start sends every battle unit.
    run_until(&mut app, 9 * 30, |app| {
        enemy_units(app).iter().any(|u| u.2.is_some())
    });
    let attacking = enemy_units(&app);
    assert!(
        attacking.iter().all(|u| u.2 == Some(OrderKind::Attack)),
        "{attacking:?}"
    );
    let enemy = &app.world().resource::<Brains>().list[1];
    assert_eq!(enemy.seconds, 7);
    let attack = enemy
        .problems
        .iter()
        .find(|p| p.name == "PBM_ATTACK_UNIT")
        .unwrap();
    assert_eq!(Some(attack.state), enemy.word("ST_SOLVING"));
    assert!(!attack.groups[0].is_empty());
    for _ in 0..90 {
        app.update();
    }
    let moved = enemy_units(&app)
        .iter()
        .zip(&before)
        .filter(|(now, then)| now.1.distance(then.1) > 3.0)
        .count();
    assert!(moved > 0, "no enemy unit moved");
    no_script_errors(&app);
}

/// The second demo mission's enemy keeps two units on patrol along the
/// road path from its `Init` (reserved with function 51, ordered with
/// function 15); its problems' groups leave them be, and they walk the
/// road toward the neutral base.
#[test]
fn the_second_missions_enemy_keeps_two_units_on_patrol() {
    let tmp = demo_install();
    let mut app = second_mission(
        &tmp,
        (ControlPlugin, BehaviorPlugin, CombatPlugin, ScriptPlugin),
    );
    let patrols = |app: &App| -> Vec<(u32, Vec3, OrderTarget, i32)> {
        let world = app.world();
        let registry = world.resource::<ObjectRegistry>();
        let mut out = Vec::new();
        for (id, e) in registry.iter() {
            if let Some(o) = world.get::<Orders>(e).and_then(|o| o.current().copied())
                && o.kind == OrderKind::Patrol
            {
                let at = world.get::<Transform>(e).unwrap().translation;
                out.push((id.raw(), at, o.target, o.parameter));
            }
        }
        out
    };
    for _ in 0..3 {
        app.update();
    }
    let start = patrols(&app);
    assert_eq!(
        start.len(),
        2,
        "{start:?} {:?} {:?}",
        app.world().resource::<ScriptErrors>().list,
        app.world()
            .resource::<iron3d_behavior::BehaviorDiagnostics>()
    );
    let enemy = &app.world().resource::<Brains>().list[1];
    assert_eq!(enemy.clan_name, "Enemy");
    for &(id, _, target, path) in &start {
        assert!(enemy.reserved.contains(&id), "{id} reserved");
        assert_eq!((target, path), (OrderTarget::None, demo::ROAD_PATH));
    }
    // Past the first takt (7 to 8 s): the attack took the other units.
    for _ in 0..40 * 30 {
        app.update();
    }
    let now = patrols(&app);
    assert_eq!(
        now.iter().map(|p| p.0).collect::<Vec<_>>(),
        start.iter().map(|p| p.0).collect::<Vec<_>>(),
        "still on patrol"
    );
    for (now, then) in now.iter().zip(&start) {
        assert!(now.1.distance(then.1) > 20.0, "{} walks the road", now.0);
    }
    no_script_errors(&app);
}

const TIMER: &str = "handler Init
  dHintTime = fn59(d5)
  return
handler Mission
  dTemp = fn60(dHintTime)
  if dTemp == d1
    fn30(SYSTEM_MESSAGE, MISSION_COMPLETE)
  end
handler Problems0
  return
";

#[test]
fn a_timer_set_in_init_completes_the_mission_at_the_exact_tick() {
    let tmp = demo_install();
    player_script(tmp.path(), TIMER);
    let mut app = app(tmp.path());
    // The timer reads the clan's seconds clock, which only the takt moves
    // (7 s a takt): the first Mission run after the first takt completes.
    let mut expected = None;
    let mut last_run = None;
    for _ in 0..12 * 30 {
        app.update();
        let brains = app.world().resource::<Brains>();
        let ran = brains.next_mission_ms != last_run;
        last_run = brains.next_mission_ms;
        if ran && expected.is_none() && player(&app).seconds >= 5 {
            expected = Some(tick(&app));
        }
    }
    let expected = expected.expect("a Mission run after the takt");
    assert_eq!(
        progress(&app).outcome,
        Some((OutcomeResult::Complete, expected))
    );
    // Play goes on after the outcome, and the first one stands.
    assert!(tick(&app) > expected);
    assert_eq!(
        outcome_line(app.world()),
        format!("outcome: complete at tick {expected}")
    );
}

/// A mission with no objectives (no `mission.cfg` at all) is not complete
/// because "every primary objective" of none is: an OBJECTIVE_COMPLETE
/// sent on the first step completes nothing, and the script's own
/// MISSION_COMPLETE, on its timer, decides.
#[test]
fn a_mission_without_objectives_completes_when_its_script_says_so() {
    let tmp = demo_install();
    let first = tmp.path().join("game/MISSIONS/Campaign.00/Mission.01");
    std::fs::remove_file(first.join("mission.cfg")).unwrap();
    player_script(
        tmp.path(),
        &TIMER.replace(
            "  return\nhandler Mission",
            "  fn30(OBJECTIVE_COMPLETE, d0)\n  return\nhandler Mission",
        ),
    );
    let mut app = app(tmp.path());
    assert!(progress(&app).objectives.is_empty());
    run_until(&mut app, 12 * 30, |app| progress(app).outcome.is_some());
    let (result, at) = progress(&app).outcome.unwrap();
    assert_eq!(result, OutcomeResult::Complete);
    // The first takt moves the seconds clock 7 s on, 7 to 8 s in.
    assert!(at > 7 * 30, "at tick {at}, not before the timer");
    assert!(
        progress(&app)
            .messages
            .iter()
            .any(|m| m.kind == "OBJECTIVE_COMPLETE"),
        "the objective's message was sent: {:?}",
        progress(&app).messages
    );
}

#[test]
fn the_hero_entering_a_route_completes_an_objective() {
    let tmp = demo_install();
    // A route of its own round a point 30 m from the hero: objective 2
    // completes when the hero's route report lists it there.
    player_script(
        tmp.path(),
        "handler Init
  return
handler Mission
  dTemp = fn32(dRoute, dHero)
  if dTemp == d1
    fn30(OBJECTIVE_COMPLETE, d2)
  end
handler Problems0
  return
",
    );
    let mut app = app(tmp.path());
    let hero = progress(&app).hero.unwrap();
    let entity = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(hero))
        .unwrap();
    let at = app.world().get::<Transform>(entity).unwrap().translation;
    let goal = [at.x + 30.0, -at.z];
    let corner = |dx: f32, dy: f32| [goal[0] + dx, goal[1] + dy, 0.0];
    let route = {
        let mut paths = app.world_mut().resource_mut::<MissionPaths>();
        paths.0.push(MissionPath {
            id: 900,
            points: vec![
                corner(-8.0, -8.0),
                corner(8.0, -8.0),
                corner(8.0, 8.0),
                corner(-8.0, 8.0),
            ],
        });
        paths.0.len() as u32 - 1
    };
    // The script names its route and hero through its variables.
    {
        let mut brains = app.world_mut().resource_mut::<Brains>();
        let p = brains.player.unwrap();
        let brain = &mut brains.list[p];
        for (name, value) in [("dRoute", route), ("dHero", hero)] {
            let i = brain.bundle.vars.index_of(name).unwrap();
            brain
                .vars
                .set(i, iron3d_script::vm::Value::Dword(value))
                .unwrap();
        }
    }
    app.update();
    assert_eq!(progress(&app).objectives[2].state, ObjectiveState::Open);
    app.world_mut().resource_mut::<WorldOutbox>().post(
        GmsgKind::Order,
        Some(OriginalObjectId(hero)),
        OrderPacket {
            code: 2,
            target: OrderTarget::Place([goal[0], goal[1], 0.0]),
            mode: InsertMode::Replace,
            parameter: 0,
        }
        .to_bytes(),
    );
    run_until(&mut app, 30 * 30, |app| {
        progress(app).objectives[2].state == ObjectiveState::Complete
    });
    let o = &progress(&app).objectives[2];
    assert!(o.tick.is_some_and(|t| t > 1));
    let m = progress(&app).messages.last().unwrap();
    assert_eq!((m.kind.as_str(), m.value), ("OBJECTIVE_COMPLETE", 2));
    // Only one of three primaries: the mission runs on.
    assert_eq!(progress(&app).outcome, None);
}

#[test]
fn an_objective_completes_and_then_regresses_with_objective_progress() {
    let tmp = demo_install();
    player_script(
        tmp.path(),
        "handler Init
  return
handler Mission
  if dObj1 == d0
    fn30(OBJECTIVE_COMPLETE, d1)
    dObj1 = d1
    return
  end
  if dObj1 == d1
    fn30(OBJECTIVE_PROGRESS, d1)
    dObj1 = d2
  end
handler Problems0
  return
",
    );
    let mut app = app(tmp.path());
    app.update();
    let o = progress(&app).objectives[1].clone();
    assert_eq!(o.state, ObjectiveState::Complete);
    let first = o.tick.unwrap();
    assert!(first <= tick(&app));
    for _ in 0..61 {
        app.update();
    }
    let o = progress(&app).objectives[1].clone();
    assert_eq!(o.state, ObjectiveState::Open);
    assert!(o.tick.is_some_and(|t| t > first + 50), "{o:?}");
    let kinds: Vec<&str> = progress(&app)
        .messages
        .iter()
        .map(|m| m.kind.as_str())
        .collect();
    assert_eq!(kinds, ["OBJECTIVE_COMPLETE", "OBJECTIVE_PROGRESS"]);
    assert_eq!(progress(&app).outcome, None);
}

#[test]
fn a_building_the_clan_takes_runs_its_fort_captured_handler() {
    let tmp = demo_install();
    player_script(
        tmp.path(),
        "handler Init
  return
handler Fort_Captured
  dGenerator = dCurrentSender
  fn30(OBJECTIVE_COMPLETE, d1)
handler Problems0
  return
",
    );
    let mut app = app(tmp.path());
    for _ in 0..3 {
        app.update();
    }
    assert!(progress(&app).messages.is_empty());
    // The neutral generator changes owner, as a capture gives it.
    let generator = {
        let world = app.world_mut();
        let mut q = world.query::<(
            &OriginalObjectId,
            &mut iron3d_world::mission::ObjectClan,
            &iron3d_world::mission::PropertyBag,
        )>();
        let mut found = None;
        for (id, mut clan, bag) in q.iter_mut(world) {
            let building = matches!(
                bag.get("Type"),
                Some(iron3d_formats::tma::PropertyValue::Int { value, .. }) if value as u32 == 0x8000_0000
            );
            if found.is_none() && building && clan.identity_raw == 3 {
                clan.identity_raw = 1;
                found = Some(id.raw());
            }
        }
        found.expect("a neutral building")
    };
    app.update();
    // The engine's System line (the demo's iron3d.dll string 5039) and the
    // voice of a building taken from a neutral clan, then the handler's
    // message.
    let m = &progress(&app).messages;
    assert_eq!(m.len(), 2, "{m:?}");
    assert_eq!(
        (
            m[0].kind.as_str(),
            m[0].value,
            m[0].text.as_deref(),
            m[0].tick
        ),
        ("SYSTEM", 5039, Some("Building taken"), tick(&app))
    );
    assert_eq!(
        (m[1].kind.as_str(), m[1].tick),
        ("OBJECTIVE_COMPLETE", tick(&app))
    );
    let voices = |app: &App| progress(app).voices.clone();
    assert_eq!(
        voices(&app)[0],
        VoiceCue::Interface("VOICE_NBUILD_CAPTURE".into())
    );
    let brain = player(&app);
    let i = brain.bundle.vars.index_of("dGenerator").unwrap();
    assert_eq!(brain.vars.bits()[i as usize], generator);
    // Once: the owner stays the player's.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(progress(&app).messages.len(), 2);
    // The enemy takes it: the player's clan hears the loss, no line.
    let heard = voices(&app).len();
    let world = app.world_mut();
    let entity = world
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(generator))
        .unwrap();
    world
        .get_mut::<iron3d_world::mission::ObjectClan>(entity)
        .unwrap()
        .identity_raw = 2;
    app.update();
    assert_eq!(progress(&app).messages.len(), 2);
    assert_eq!(
        voices(&app)[heard..],
        [VoiceCue::Interface("VOICE_BUILD_CAPTURE".into())]
    );
}

#[test]
fn killing_the_hero_fails_the_mission() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    for _ in 0..5 {
        app.update();
    }
    let hero = progress(&app).hero.unwrap();
    let entity = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(hero))
        .unwrap();
    let now = tick(&app);
    app.world_mut().entity_mut(entity).insert(Destroyed {
        tick: now,
        delete_at: None,
    });
    app.update();
    assert_eq!(
        progress(&app).outcome,
        Some((OutcomeResult::Failed, now + 1))
    );
    app.update();
    assert_eq!(
        outcome_line(app.world()),
        format!("outcome: failed at tick {}", now + 1)
    );
    // The failure is voiced once, as the install's interface binds it.
    let failures: Vec<(u64, String)> = app
        .world()
        .resource::<iron3d_sound::Sounds>()
        .0
        .iter()
        .filter(|s| s.source == "ui/game_resources.cfg VOICE_MISSION_FAIL")
        .map(|s| (s.tick, s.key.clone()))
        .collect();
    assert_eq!(failures, [(now + 1, "VOICES.LIB::V_FAIL.WAV".to_string())]);
}

#[test]
fn a_handler_that_faults_is_stopped_and_reported_while_the_mission_goes_on() {
    let tmp = demo_install();
    player_script(
        tmp.path(),
        "handler Init
  return
handler Mission
  fn30(MESSAGE_INFO, d1)
  fDist = f1 / f0
  fn30(MESSAGE_INFO, d2)
handler Problems0
  fn43()
  fn43()
",
    );
    let mut app = app(tmp.path());
    // Two Mission runs and a takt.
    for _ in 0..9 * 30 {
        app.update();
    }
    let errors = &app.world().resource::<ScriptErrors>().list;
    let faults: Vec<&ScriptError> = errors
        .iter()
        .filter(|e| e.chain.contains("stopped"))
        .collect();
    assert!(faults.len() >= 4, "a fault each Mission run: {errors:#?}");
    assert_eq!(
        faults[0].chain,
        "mission Campaign.00/Mission.01 -> clan Player -> script MISSIONS\\SCRIPTS\\scr_pl_1 -> handler Mission node 1 -> formula 0 `f1 / f0`: division by zero (handler stopped)"
    );
    // An unimplemented slot is reported once per node, however often it runs.
    let unimplemented: Vec<&ScriptError> = errors
        .iter()
        .filter(|e| e.chain.contains("not implemented"))
        .collect();
    assert_eq!(unimplemented.len(), 2, "{errors:#?}");
    assert!(
        unimplemented[0].chain.ends_with(
            "handler Problems0 node 0 -> function 43 is not implemented: ERROR returned"
        )
    );
    // The node after the fault never ran; message 1 is voiced once, then
    // only noted.
    let m = &progress(&app).messages;
    assert!(m.iter().all(|m| m.value == 1), "{m:?}");
    assert!(m.len() >= 4);
    assert_eq!(m[0].voice.as_deref(), Some("V_ACK.WAV"));
    assert!(m[1..].iter().all(|m| m.voice.is_none()));
    // The voice joins the voices' queue once, as a sound event.
    let voices: Vec<&iron3d_sound::SoundEvent> = app
        .world()
        .resource::<iron3d_sound::Sounds>()
        .0
        .iter()
        .filter(|s| s.kind == iron3d_sound::SoundKind::Voice)
        .collect();
    assert_eq!(voices.len(), 1, "{voices:?}");
    assert_eq!(voices[0].key, "VOICES.LIB::V_ACK.WAV");
    assert_eq!(voices[0].bus, iron3d_sound::Bus::Voices);
    assert_eq!(voices[0].tick, m[0].tick);
    assert!(
        app.world()
            .resource::<iron3d_sound::SoundFaults>()
            .faults
            .is_empty()
    );
    // The enemy's script still runs: its takt came.
    assert_eq!(app.world().resource::<Brains>().list[1].seconds, 7);
}

/// The words the engine interprets get other values and every declaration
/// another place; the scripts are written again from their disassembly.
fn shuffle_varset(dir: &Path) {
    let old = varset(dir);
    let shifted = [
        "ERROR",
        "NONE",
        "TRUE",
        "FALSE",
        "SYSTEM_MESSAGE",
        "MESSAGE_INFO",
        "OBJECTIVE_COMPLETE",
        "OBJECTIVE_FAILED",
        "OBJECTIVE_PROGRESS",
        "CLAN_HERO_KILLED",
        "MISSION_COMPLETE",
        "MISSION_FAILED",
        "ORDER_ROBOT_STOP",
        "ORDER_ROBOT_GO",
        "ORDER_ROBOT_ATTACK",
        "ORDER_ROBOT_PATROL",
        "ORDER_ROBOT_CAPTURE",
        "INSERT_ORDER_END",
        "INSERT_ORDER_START",
        "INSERT_ORDER_REPLACE",
        "TARGET_BY_LOGIC_ID",
        "TARGET_BY_PLACE",
        "TARGET_NOT_DEFINED",
        "PBM_ATTACK_UNIT",
        "PBM_BASE_DEFENCE",
        "ST_SOLVING",
        "ST_SOLVED",
        "ST_UNSOLVED",
        "TAKE_ALL_BATTLE_UNITS",
    ];
    let decls: Vec<(iron3d_formats::script::varset::VarType, String, String)> = old
        .vars()
        .iter()
        .rev()
        .map(|v| {
            let value = match &v.default {
                VarValue::Float(f) => f.to_string(),
                d if shifted.contains(&v.name.as_str()) => (d.bits().wrapping_sub(100)).to_string(),
                d => d.bits().to_string(),
            };
            (v.ty, v.name.clone(), value)
        })
        .collect();
    let refs: Vec<_> = decls
        .iter()
        .map(|(t, n, v)| (*t, n.as_str(), v.as_str()))
        .collect();
    let new = Varset::build(&refs).unwrap();
    for entry in std::fs::read_dir(scripts(dir)).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "scr") {
            let script = Script::parse(&std::fs::read(&path).unwrap()).unwrap();
            let fml =
                FormulaSet::parse(&std::fs::read(path.with_extension("fml")).unwrap()).unwrap();
            let text = dis::listing(&script, Some(&old), Some(&fml)).text();
            let (script, fml) = assemble(&text, &new).unwrap();
            std::fs::write(&path, script.to_bytes().unwrap()).unwrap();
            std::fs::write(path.with_extension("fml"), fml.to_bytes()).unwrap();
        }
    }
    std::fs::write(scripts(dir).join("varset.var"), new.to_bytes()).unwrap();
}

#[test]
fn a_varset_with_the_names_in_another_order_and_other_values_gives_the_same_outcome() {
    let run = |shuffle: bool| {
        let tmp = demo_install();
        player_script(tmp.path(), TIMER);
        if shuffle {
            shuffle_varset(tmp.path());
        }
        let mut app = app(tmp.path());
        for _ in 0..10 * 30 {
            app.update();
        }
        let enemy = &app.world().resource::<Brains>().list[1];
        let problems: Vec<String> = enemy.problems.iter().map(|p| p.name.clone()).collect();
        let p = progress(&app);
        let messages: Vec<(String, u64)> = p
            .messages
            .iter()
            .map(|m| (m.kind.clone(), m.tick))
            .collect();
        (
            p.outcome,
            messages,
            problems,
            app.world().resource::<ScriptErrors>().list.len(),
        )
    };
    let plain = run(false);
    assert!(plain.0.is_some());
    assert!(
        plain.2.iter().any(|p| p == "PBM_ATTACK_UNIT"),
        "{:?}",
        plain.2
    );
    assert_eq!(run(true), plain);
}

/// In the test arena (the hero alone, no objectives), the player clan's
/// own script completes the mission by a timer its `Init` started: the
/// outcome comes from the script's message once the timer has run, not
/// before.
#[test]
fn in_the_arena_a_players_script_completes_the_mission_on_its_timer() {
    use iron3d_world::test_support::{Arena, Side, What, run_for_seconds, running_arena};
    let arena = Arena::default()
        .with(What::Hero, Side::Player, [0.0, 0.0])
        .with_player_script(TIMER);
    let (_tmp, mut app, _ids) = running_arena(&arena, ScriptPlugin);
    run_for_seconds(&mut app, 4);
    assert_eq!(app.world().resource::<Progress>().outcome, None);
    run_for_seconds(&mut app, 30);
    let (result, tick) = app
        .world()
        .resource::<Progress>()
        .outcome
        .expect("the script completed the mission");
    assert_eq!(result, OutcomeResult::Complete);
    let step = app.world().resource::<GameClock>().timestep();
    assert!(step.as_secs_f64() * tick as f64 >= 5.0, "at tick {tick}");
    no_script_errors(&app);
}

/// The player's script reads its clan's net power (3), and the ore its
/// buildings of a type hold (17) and have room for (16).
const ECONOMY: &str = "handler Init
  return
handler Mission
  fDist = fn3()
  fStrength = fn17(CLASS_BUILDING, RESOURCE_LEFT_ORE)
  ClanBaseX = fn16(CLASS_BUILDING, RESOURCE_LEFT_ORE)
  dTemp = fn17(CLASS_BUILDING, TRUE)
handler Problems0
  return
";

/// The player's hero and `pieces` on the test arena, the player's script
/// `source` (given the pieces' ids) assembled against the demo's varset
/// with the economy's words added, running with the economy for
/// `seconds`.
fn economy_arena(
    pieces: &[(What, Side, [f32; 2])],
    source: impl Fn(&[u32]) -> String,
    seconds: u64,
) -> (tempfile::TempDir, App) {
    use iron3d_world::test_support::{ARENA_MISSION, Arena, run_for_seconds};
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    let mut arena = Arena::default().with(What::Hero, Side::Player, [0.0, 0.0]);
    for &(what, side, at) in pieces {
        arena = arena.with(what, side, at);
    }
    let ids = demo::build_arena(&game, &arena.with_player_script(TIMER)).unwrap();
    // The economy's words, by their names in the script's varset; the
    // player's script assembled against it.
    let dir = game.join("MISSIONS/SCRIPTS");
    let mut text = std::fs::read(dir.join("varset.var")).unwrap();
    for word in ["RESOURCE_LEFT_ORE, 7", "FREE_UNITS, 1", "ALL_UNITS, 2"] {
        text.extend_from_slice(format!("VAR( DWORD, {word})\r\n").as_bytes());
    }
    std::fs::write(dir.join("varset.var"), &text).unwrap();
    let (script, formulas) = assemble(&source(&ids), &Varset::parse(&text).unwrap()).unwrap();
    std::fs::write(dir.join("scr_arena.scr"), script.to_bytes().unwrap()).unwrap();
    std::fs::write(dir.join("scr_arena.fml"), formulas.to_bytes()).unwrap();
    let request = MissionRequest {
        game_dir: game,
        mission: Some(ARENA_MISSION.into()),
        mod_dirs: Vec::new(),
    };
    let plugins = (
        ControlPlugin,
        BehaviorPlugin,
        iron3d_economy::EconomyPlugin,
        ScriptPlugin,
    );
    let mut app = running_mission_test_app(request, plugins);
    run_for_seconds(&mut app, seconds);
    (tmp, app)
}

/// A building of `category` for `side` at `at`, a piece of the arena.
fn building(
    category: iron3d_formats::config::builddat::BuildCategory,
    side: Side,
    at: [f32; 2],
) -> (What, Side, [f32; 2]) {
    (What::Building(category), side, at)
}

/// The player's variable `name`'s bits.
fn bits(app: &App, name: &str) -> u32 {
    let brain = player(app);
    let i = brain.bundle.vars.index_of(name).unwrap();
    brain.vars.bits()[i as usize]
}

#[test]
fn the_economy_functions_read_the_clan_s_power_and_ore() {
    use iron3d_economy::Distributors;
    use iron3d_formats::config::builddat::BuildCategory;
    let base = [
        building(BuildCategory::Generator, Side::Player, [0.0, 80.0]),
        building(BuildCategory::Mine, Side::Player, [80.0, 0.0]),
    ];
    let (_tmp, app) = economy_arena(&base, |_| ECONOMY.to_string(), 5);
    let var = |name: &str| f32::from_bits(bits(&app, name));
    let distributors = app.world().resource::<Distributors>();
    let player_clan = distributors
        .clans
        .get(&player(&app).clan)
        .expect("its economy");
    let net = player_clan.power_available - player_clan.power_demand;
    assert!(net > 0.0, "{net}");
    assert_eq!(var("fDist"), net);
    // The mine digs 50 a second to its 500: the last Mission run, at 4 s,
    // saw 4 s of digging.
    let (ore, room) = (var("fStrength"), var("ClanBaseX"));
    assert!((100.0..=200.0).contains(&ore), "{ore}");
    assert_eq!(ore + room, 500.0, "the mine's capacity");
    // A resource the engine does not know answers ERROR.
    assert_eq!(bits(&app, "dTemp"), u32::MAX);
    no_script_errors(&app);
}

/// Function 66 answers an object's Type word and writes a generator's
/// and a factory's figure; 38 the clan's units' strength (1 each); 34
/// the clan's own objects of exactly a Type.
#[test]
fn the_units_functions_read_types_roles_and_strength() {
    use iron3d_formats::config::builddat::BuildCategory;
    use iron3d_formats::unitdat::CLASS_BUILDING;
    let base = [
        building(BuildCategory::Generator, Side::Player, [0.0, 80.0]),
        building(BuildCategory::Mine, Side::Player, [80.0, 0.0]),
        building(BuildCategory::Plant, Side::Player, [-80.0, 0.0]),
    ];
    let source = |ids: &[u32]| {
        format!(
            "handler Init
  dGenerator = {}
  dFactory = {}
  dX = {}
  return
handler Mission
  dT = fn66(dGenerator, fDist)
  dT = fn66(dFactory, fStrength)
  dObj1 = fn66(dX, ClanBaseY)
  ClanBaseX = fn38(PLAYER_CLAN, ALL_UNITS)
  dTemp = fn34(CLASS_BUILDING)
  dGroup = fn38(PLAYER_CLAN, d5)
handler Problems0
  return
",
            ids[1], ids[3], ids[2]
        )
    };
    let (_tmp, app) = economy_arena(&base, source, 3);
    let float = |name: &str| f32::from_bits(bits(&app, name));
    assert_eq!(bits(&app, "dT"), CLASS_BUILDING, "the factory's Type");
    assert_eq!((float("fDist"), float("fStrength")), (0.04, 0.05));
    assert_eq!(
        (bits(&app, "dObj1"), float("ClanBaseY")),
        (CLASS_BUILDING, 0.0),
        "a mine"
    );
    assert_eq!(float("ClanBaseX"), 1.0, "the hero alone");
    assert_eq!(bits(&app, "dTemp"), 3, "its three buildings");
    assert_eq!(bits(&app, "dGroup"), u32::MAX, "neither free nor all");
    no_script_errors(&app);
}

/// Function 35 picks the enemy building to capture: a generator before a
/// factory, and of two generators the one its clan holds less; 37 the
/// clan's own building with the fewest enemies near it.
#[test]
fn the_places_functions_pick_the_least_defended_buildings() {
    use iron3d_formats::config::builddat::BuildCategory;
    let pieces = [
        // The enemy: a factory alone, a generator with two walkers by it,
        // a generator with none.
        building(BuildCategory::Plant, Side::Enemy, [300.0, 0.0]),
        building(BuildCategory::Generator, Side::Enemy, [300.0, 200.0]),
        (What::Walker, Side::Enemy, [320.0, 200.0]),
        (What::Walker, Side::Enemy, [280.0, 200.0]),
        building(BuildCategory::Generator, Side::Enemy, [300.0, -200.0]),
        // The player's: a mine by the walkers, a storage far from them.
        building(BuildCategory::Mine, Side::Player, [200.0, 200.0]),
        building(BuildCategory::Storage, Side::Player, [-300.0, -300.0]),
    ];
    let source = |_: &[u32]| {
        "handler Init
  return
handler Mission
  fDist = f9 * f9 + f9 + f9
  dT = fn35(fDist, fStrength)
  dX = fn37(ClanBaseX)
handler Problems0
  return
"
        .to_string()
    };
    let (_tmp, app) = economy_arena(&pieces, source, 3);
    let hero = 1;
    let ids: Vec<u32> = (hero + 1..).take(pieces.len()).collect();
    let float = |name: &str| f32::from_bits(bits(&app, name));
    assert_eq!((bits(&app, "dT"), float("fStrength")), (ids[4], 0.0));
    assert_eq!((bits(&app, "dX"), float("ClanBaseX")), (ids[6], 0.0));
    no_script_errors(&app);
}

/// The second mission's enemy builds warbots in its factory, unattended:
/// its script orders a build every 30 of its seconds (five takts) while
/// it has fewer than ten robots; the robots are its own, and its attacks
/// take them.
#[test]
fn the_second_missions_enemy_builds_warbots_and_sends_them() {
    use iron3d_economy::{EconomyEvents, EconomyPlugin};
    use iron3d_world::mission::{Built, ObjectClan};
    let tmp = demo_install();
    let plugins = (
        ControlPlugin,
        BehaviorPlugin,
        CombatPlugin,
        ScriptPlugin,
        EconomyPlugin,
    );
    let mut app = second_mission(&tmp, plugins);
    let built = |app: &mut App| -> Vec<(u32, u32, Option<OrderKind>)> {
        let world = app.world_mut();
        let mut q = world.query::<(&OriginalObjectId, &ObjectClan, &Built, Option<&Orders>)>();
        q.iter(world)
            .map(|(id, clan, _, orders)| {
                let order = orders.and_then(|o| o.current()).map(|o| o.kind);
                (id.raw(), clan.identity_raw, order)
            })
            .collect()
    };
    for _ in 0..40 * 30 {
        app.update();
    }
    // The first, ordered at the first takt (7 to 8 s), is a free build of
    // 20 s.
    let made = built(&mut app);
    assert_eq!(made.len(), 1, "{made:?}");
    let events = &app.world().resource::<EconomyEvents>().0;
    let first = events.iter().find(|e| e.made.is_some()).unwrap();
    assert!((27 * 30..29 * 30).contains(&first.tick), "{first:?}");
    for _ in 0..80 * 30 {
        app.update();
    }
    // The second free one; the third waits for ore its clan has not.
    let made = built(&mut app);
    assert_eq!(made.len(), 2, "{made:?}");
    assert!(made.iter().all(|(_, clan, _)| *clan == 2), "{made:?}");
    assert!(
        made.iter()
            .any(|(_, _, order)| *order == Some(OrderKind::Attack)),
        "{made:?}"
    );
    no_script_errors(&app);
}

/// Function 40 answers the mineral place to mine: the mission's one found
/// lode (none of the demo's buildings stands on it), with the enemy units
/// within 500 of it as its strength.
#[test]
fn the_mineral_place_is_the_found_lode_no_building_claims() {
    use iron3d_world::mission::{MissionDescription, ObjectClan, ObjectKind};
    let tmp = demo_install();
    player_script(
        tmp.path(),
        "handler Init
  return
handler Mission
  dT = fn40(ClanBaseX, ClanBaseY, fDist)
handler Problems0
  return
",
    );
    let mut app = app(tmp.path());
    for _ in 0..3 {
        app.update();
    }
    let world = app.world_mut();
    let lodes = world.resource::<MissionDescription>().tma.lodes.clone();
    let found: Vec<_> = lodes.iter().filter(|l| l.found != 0).collect();
    assert_eq!(found.len(), 1, "{lodes:?}");
    let [x, y, _] = found[0].position;
    let mut units = world.query::<(&ObjectClan, &ObjectKind, &Transform)>();
    let near = units
        .iter(world)
        .filter(|(clan, kind, _)| {
            clan.identity_raw == 2 && kind.kind() == Some(iron3d_formats::tma::ObjectKind::Unit)
        })
        .filter(|(_, _, t)| Vec2::new(t.translation.x - x, -t.translation.z - y).length() <= 500.0)
        .count();
    assert_eq!(bits(&app, "dT"), 1);
    assert_eq!(
        ["ClanBaseX", "ClanBaseY", "fDist"].map(|v| f32::from_bits(bits(&app, v))),
        [x, y, near as f32]
    );
}
