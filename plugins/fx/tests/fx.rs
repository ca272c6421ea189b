//! Effects headless at the fixed step: on the demo install an explosion
//! plays its sound, emits its primitives and deletes itself at its end; in
//! the test arena a fight sets off muzzle effects on the shooters and
//! explosions where the rounds go off.

use bevy::prelude::*;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::{CombatEvents, CombatPlugin, EffectCue, EventKind};
use iron3d_control::{ControlPlugin, PhysicalState};
use iron3d_demo::{self as demo, Scale};
use iron3d_fx::*;
use iron3d_schedules::GameClock;
use iron3d_sound::{Bus, SoundEvent, SoundKind, Sounds};
use iron3d_world::mission::*;
use iron3d_world::test_support::{
    Arena, Side, What, delete_all_but, demo_install, running_arena, running_test_app,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};

fn app() -> (tempfile::TempDir, App) {
    let tmp = demo_install();
    let app = running_test_app(
        tmp.path().join("game"),
        (ControlPlugin, BehaviorPlugin, CombatPlugin, FxPlugin),
    );
    (tmp, app)
}

const EXPLODE: &str = "EFFECTS.RLB::FX_EXPLODE";

/// The sounds effects played (the ambience plays beside them).
fn effect_sounds(app: &App) -> Vec<SoundEvent> {
    let sounds = &app.world().resource::<Sounds>().0;
    sounds
        .iter()
        .filter(|s| s.bus == Bus::Effects)
        .cloned()
        .collect()
}

#[test]
fn an_explosion_plays_its_sound_draws_and_deletes_itself_at_its_end() {
    let (_tmp, mut app) = app();
    delete_all_but(&mut app, &[]);
    let at = Vec3::new(10.0, 50.0, -20.0);
    let template = app
        .world()
        .resource::<MissionEffects>()
        .effect(EXPLODE)
        .unwrap()
        .clone();
    let cue = EffectCue {
        effect: EXPLODE.into(),
        at,
        rotation: Quat::IDENTITY,
        scale: 2.0,
        on: None,
        node: None,
    };
    let now = app.world().resource::<GameClock>().elapsed().as_millis() as u64;
    let start_tick = app.world().resource::<GameClock>().tick();
    let made = instance::instance(0, &cue, template, now, 7, None);
    app.world_mut().resource_mut::<FxInstances>().0.push(made);
    // Its first update takes t = 0; the next (within 50 ms) crosses the
    // sound's trigger.
    app.update();
    app.update();
    let sounds = effect_sounds(&app);
    assert_eq!(sounds.len(), 1, "{sounds:?}");
    let s = &sounds[0];
    assert_eq!(
        (s.key.as_str(), s.kind, s.owner),
        ("SOUNDS.LIB::EXPLODE.WAV", SoundKind::Play, None)
    );
    assert_eq!((s.near, s.far), (20.0, 200.0));
    assert!(s.position.unwrap().distance(at) < 1e-4);
    assert!(
        (start_tick + 1..=start_tick + 2).contains(&s.tick),
        "{}",
        s.tick
    );
    // It draws its fireball, its fire and smoke particles, all near it.
    let explosion = |app: &App| {
        let all = &app.world().resource::<FxInstances>().0;
        all.iter().find(|i| i.effect == EXPLODE).cloned()
    };
    let inst = explosion(&app).unwrap();
    assert!(inst.t > 0.0 && inst.t < 0.1, "{}", inst.t);
    let drawn = emit(&inst);
    let materials: std::collections::BTreeSet<_> =
        drawn.iter().filter_map(|p| p.material.clone()).collect();
    assert_eq!(
        Vec::from_iter(materials),
        ["MATERIAL.LIB::M_FIRE", "MATERIAL.LIB::M_SMOKE"]
    );
    assert!(drawn.iter().any(|p| p.kind == PrimitiveKind::Light));
    assert!(drawn.iter().all(|p| p.position.distance(at) < 2.0 * 4.0));
    // 1.5 s (45 ticks at 30 Hz) later it has deleted itself, having
    // played its sound once.
    for _ in 0..46 {
        app.update();
    }
    assert!(explosion(&app).is_none());
    assert_eq!(effect_sounds(&app).len(), 1);
}

/// Time mode 4 reads the barrel stroke of the gun whose node the cue
/// names (0 out of a stroke, 0.5 as the round leaves); 16 keeps that
/// value only as it rises (or at 0), 17 only as it falls (or at 1); a
/// node that is no gun's reads the gait's step.
#[test]
fn node_time_modes_follow_a_guns_barrel_stroke() {
    let (_tmp, mut app) = app();
    let unit = armed_unit_of(&mut app, 1);
    app.update();
    let world = app.world();
    let entity = world.resource::<ObjectRegistry>().entity(unit).unwrap();
    let armament = world.get::<Armament>(entity).unwrap().clone();
    let mut weapons = world.get::<iron3d_combat::Weapons>(entity).unwrap().clone();
    let transform = *world.get::<Transform>(entity).unwrap();
    let gun = &armament.guns[0];
    let stroke = f64::from(gun.barrels[weapons.guns[0].barrel].stroke_s);
    assert!(stroke > 0.0);
    let template = |mode: u32| {
        let mut fx = world
            .resource::<MissionEffects>()
            .effect(EXPLODE)
            .unwrap()
            .as_ref()
            .clone();
        fx.header.time_mode = mode;
        fx.header.flags = 0;
        fx.header.duration_seconds = 100.0;
        std::sync::Arc::new(fx)
    };
    let cue = EffectCue {
        effect: EXPLODE.into(),
        at: transform.translation,
        rotation: Quat::IDENTITY,
        scale: 1.0,
        on: Some(unit.raw()),
        node: Some(gun.node),
    };
    let mut made: Vec<FxInstance> = [4, 16, 17]
        .map(|mode| instance::instance(0, &cue, template(mode), 0, 7, None))
        .into();
    let gait = world.get::<iron3d_control::Gait>(entity).cloned();
    // The gun `f` of the way through its stroke (none: out of it) at 10 s
    // of game time, and the time an instance reads then.
    let now_ms = 10_000;
    let mut time_at =
        |inst: &mut FxInstance, f: Option<f64>, gait: Option<&iron3d_control::Gait>| {
            weapons.guns[0].phase = match f {
                Some(f) => iron3d_combat::GunPhase::Stroke {
                    start: 10.0 - f * stroke,
                    fired: false,
                },
                None => iron3d_combat::GunPhase::Idle,
            };
            let animation = (Some(&armament), Some(&weapons), gait);
            let owner = (&transform, None, None, None, None, animation);
            let now = gait.map_or(now_ms, |g| {
                ((g.step_start + g.step_length / 2.0) * 1000.0) as u64
            });
            instance::effect_time(inst, now, Some(&owner))
        };
    // At a quarter, at half, out of it (the barrel snaps back), at a tenth.
    let mut seen = Vec::new();
    for f in [Some(0.25), Some(0.5), None, Some(0.1)] {
        let times: Vec<f32> = made.iter_mut().map(|inst| time_at(inst, f, None)).collect();
        seen.push(times);
    }
    let near = |a: &[f32], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4);
    assert!(near(&seen[0], [0.25, 0.25, 0.0]), "{seen:?}");
    assert!(near(&seen[1], [0.5, 0.5, 0.0]), "{seen:?}");
    assert!(near(&seen[2], [0.0, 0.0, 0.0]), "{seen:?}");
    assert!(near(&seen[3], [0.1, 0.1, 0.0]), "{seen:?}");
    // Mode 17 keeps what falls: from 0.8 down to 0.3, not back up.
    let mut falling = instance::instance(0, &cue, template(17), 0, 7, None);
    falling.held = 1.0;
    for (f, want) in [(0.8, 0.8), (0.3, 0.3), (0.6, 0.3)] {
        let t = time_at(&mut falling, Some(f), None);
        assert!((t - want).abs() < 1e-4, "{f}: {t}");
    }
    // A node that is no gun's reads the step of the unit's gait, here
    // half-way through it.
    let gait = gait.expect("a walker's gait");
    let mut stepping =
        instance::instance(0, &EffectCue { node: None, ..cue }, template(4), 0, 7, None);
    let t = time_at(&mut stepping, None, Some(&gait));
    assert!((t - 0.5).abs() < 0.01, "{t} of a step {gait:?}");
}

/// The armed mover of clan `clan` with the lowest id.
fn armed_unit_of(app: &mut App, clan: u32) -> OriginalObjectId {
    let world = app.world_mut();
    let mut units = world.query::<(&OriginalObjectId, &ObjectClan, &Armament, &Controller)>();
    units
        .iter(world)
        .filter(|(_, c, ..)| c.identity_raw == clan)
        .map(|(id, ..)| *id)
        .min()
        .unwrap()
}

#[test]
fn a_fight_sets_off_muzzle_effects_on_the_shooters_and_explosions_where_rounds_go_off() {
    // Two hostile walkers 60 m apart in the test arena, nothing else.
    let arena = Arena::default()
        .with(What::Walker, Side::Player, [0.0, -30.0])
        .with(What::Walker, Side::Enemy, [0.0, 30.0]);
    let (_tmp, mut app, ids) = running_arena(
        &arena,
        (ControlPlugin, BehaviorPlugin, CombatPlugin, FxPlugin),
    );
    let (player, enemy) = (ids[0], ids[1]);
    let mut muzzle = None;
    let mut explosion = None;
    for _ in 0..900 {
        app.update();
        let events = &app.world().resource::<CombatEvents>().0;
        let instances = &app.world().resource::<FxInstances>().0;
        for inst in instances {
            let shot_cue = events.iter().any(|ev| {
                ev.kind == EventKind::Shot
                    && ev.cue.as_ref().is_some_and(|c| c.effect == inst.effect)
            });
            if shot_cue && muzzle.is_none() {
                muzzle = Some(inst.clone());
            }
            if inst.effect == EXPLODE && explosion.is_none() && inst.updated_ms.is_some() {
                explosion = Some(inst.clone());
            }
        }
        if muzzle.is_some() && explosion.is_some() {
            break;
        }
    }
    let muzzle = muzzle.expect("a shot set off its gun's effect");
    // It hangs on its shooter and is one of the guns' muzzle effects.
    let shooter = muzzle
        .anchor
        .expect("a muzzle effect follows its gun")
        .object;
    assert!(shooter == player || shooter == enemy);
    assert!(["EFFECTS.RLB::FX_LASER", "EFFECTS.RLB::FX_CANNON"].contains(&muzzle.effect.as_str()));
    // Its shot sound belongs to the shooter.
    let sounds = app.world().resource::<Sounds>().0.clone();
    assert!(
        sounds.iter().any(|s| s.owner == Some(shooter.raw())
            && ["SOUNDS.LIB::LASER.WAV", "SOUNDS.LIB::SHOT.WAV"].contains(&s.key.as_str())),
        "{sounds:?}"
    );
    // An explosion lets go of what it struck after its first update.
    let explosion = explosion.expect("a round went off with its explosion's effect");
    assert!(explosion.anchor.is_none());
    let events = app.world().resource::<CombatEvents>().0.clone();
    assert!(events.iter().any(|ev| ev.kind == EventKind::Explosion));
}

/// The demo with the player clan's first armed unit alone in it (a
/// walker), its id and entity.
fn lone_unit() -> (tempfile::TempDir, App, OriginalObjectId, Entity) {
    let (tmp, mut app) = app();
    app.update();
    let unit = armed_unit_of(&mut app, 1);
    delete_all_but(&mut app, &[unit]);
    let entity = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(unit)
        .unwrap();
    (tmp, app, unit, entity)
}

#[test]
fn an_engine_loops_while_its_machine_moves_and_stops_when_it_stands() {
    let (_tmp, mut app, unit, entity) = lone_unit();
    assert!(app.world().get::<EngineEffect>(entity).is_some());
    let engine_events = |app: &App| -> Vec<SoundKind> {
        effect_sounds(app)
            .iter()
            .filter(|s| s.owner == Some(unit.raw()) && s.key == "SOUNDS.LIB::ENGINE.WAV")
            .map(|s| s.kind)
            .collect()
    };
    let ask = |app: &mut App, forward: f32| {
        let mut state = app.world_mut().get_mut::<PhysicalState>(entity).unwrap();
        state.requested = Vec3::new(0.0, 0.0, -forward);
    };
    // Asked to move: the engine's loop starts once and plays on.
    for _ in 0..20 {
        ask(&mut app, 1.0);
        app.update();
    }
    assert_eq!(engine_events(&app), vec![SoundKind::Loop]);
    // It stands: the loop stops with the engine effect.
    for _ in 0..60 {
        ask(&mut app, 0.0);
        app.update();
    }
    assert_eq!(engine_events(&app), vec![SoundKind::Loop, SoundKind::Stop]);
    let engines = app
        .world()
        .resource::<FxInstances>()
        .0
        .iter()
        .filter(|i| i.engine)
        .count();
    assert_eq!(engines, 0);
}

/// Footsteps: a walker's load group makes a step effect on each foot,
/// time held at 0; as a foot lands its contact's group starts that foot's
/// step once through, which plays its thud at t = 0.1, owned by the walker
/// and beside it, at the emitter's rate; standing, no thud.
#[test]
fn a_walkers_landing_feet_start_their_steps_and_the_thuds_play() {
    const STEP: &str = "SOUNDS.LIB::STEP.WAV";
    let (_tmp, mut app, unit, entity) = lone_unit();
    let steps_made = app
        .world()
        .resource::<FxInstances>()
        .0
        .iter()
        .filter(|i| i.owner == Some(unit) && i.effect == "EFFECTS.RLB::FX_STEP")
        .count();
    assert_eq!(steps_made, 2, "one step effect a foot");
    let thuds = |app: &App| -> Vec<SoundEvent> {
        effect_sounds(app)
            .into_iter()
            .filter(|s| s.key == STEP)
            .collect()
    };
    for _ in 0..30 {
        app.update();
    }
    assert!(thuds(&app).is_empty(), "standing: no steps");
    let mut landings = 0;
    for _ in 0..90 {
        let mut state = app.world_mut().get_mut::<PhysicalState>(entity).unwrap();
        state.requested = Vec3::new(0.0, 0.3, 0.0);
        app.update();
        landings += app
            .world()
            .get::<iron3d_control::Footing>(entity)
            .unwrap()
            .landed
            .len();
    }
    let heard = thuds(&app);
    assert!(landings >= 4, "{landings} landings");
    // Each landing's thud, but the last one's (its step has not reached
    // t = 0.1 yet) at most.
    assert!(
        heard.len() + 1 >= landings && heard.len() <= landings,
        "{} of {landings}",
        heard.len()
    );
    let at = app.world().get::<Transform>(entity).unwrap().translation;
    for thud in &heard {
        assert_eq!(
            (thud.owner, thud.kind, thud.rate),
            (Some(unit.raw()), SoundKind::Play, 1.0)
        );
        assert!(thud.position.unwrap().distance(at) < 30.0, "{thud:?}");
    }
}

/// A state's own group (`+0x90`) runs each time the mover takes the
/// state: a mod whose walker controller has its standing state run the
/// left foot's landing group (which starts that foot's step) makes every
/// standing walker thud once a standing step (250 ms), where the demo's
/// stand silent (see the test above).
#[test]
fn a_state_runs_its_group_each_time_it_is_taken() {
    use iron3d_formats::proto::ctld::Ctld;
    use iron3d_formats::source::Source;
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    demo::build(&game, demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let source = Source::new(&game, &[]).unwrap();
    let registry = iron3d_formats::graph::registry(&source).unwrap();
    let walker = registry.resolve(b"CH_WALKER").unwrap();
    let ctl = walker.first_with("ctl").expect("the walker's controller");
    let found = source.entry(&ctl.archive, &ctl.resource).unwrap().unwrap();
    let mut ctld = Ctld::parse(found.bytes()).unwrap();
    let mut stand = ctld.state(0).unwrap();
    stand.action_group = ctld.contacts(0)[0].group;
    stand.write(&mut ctld.states[0]);
    let archive = String::from_utf8_lossy(&ctl.archive).into_owned();
    let entry = String::from_utf8_lossy(&ctl.resource).into_owned();
    let loose = tmp.path().join("mod").join(&archive).join(&entry);
    std::fs::create_dir_all(loose.parent().unwrap()).unwrap();
    std::fs::write(&loose, ctld.to_bytes().unwrap()).unwrap();
    let mut request = MissionRequest::first_of(game);
    request.mod_dirs = vec![tmp.path().join("mod")];
    let mut app = headless_app(Some(request), 1);
    // No Behavior: nobody sends the walkers anywhere.
    app.add_plugins((ControlPlugin, CombatPlugin, FxPlugin));
    iron3d_schedules::deny_simulation_ambiguities(&mut app);
    app.finish();
    app.cleanup();
    update_until_loaded(&mut app).expect("the mission loads");
    let key = format!("{archive}::{entry}").to_ascii_uppercase();
    let world = app.world_mut();
    let walkers: Vec<u32> = world
        .query::<(&OriginalObjectId, &Controller)>()
        .iter(world)
        .filter(|(_, c)| c.resource.to_ascii_uppercase() == key)
        .map(|(id, _)| id.raw())
        .collect();
    assert!(!walkers.is_empty(), "walkers of {key}");
    let first = app
        .world()
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(walkers[0]))
        .unwrap();
    for _ in 0..60 {
        app.update();
        let world = app.world();
        let speed = world
            .get::<PhysicalState>(first)
            .unwrap()
            .linear_velocity
            .length();
        assert!(speed < 0.1, "it stands: {speed} m/s");
        let landed = &world.get::<iron3d_control::Footing>(first).unwrap().landed;
        assert!(landed.is_empty(), "no foot lands");
    }
    let thuds = |owner: u32| {
        effect_sounds(&app)
            .iter()
            .filter(|s| s.key == "SOUNDS.LIB::STEP.WAV" && s.owner == Some(owner))
            .count()
    };
    // Two seconds: a thud for each of the first standing walker's eight
    // standing steps but the last (its step not yet at t = 0.1), at least.
    assert!(thuds(walkers[0]) >= 6, "{}", thuds(walkers[0]));
}

/// Sets every running-gear node of `unit` to `gear` and every other node
/// to `rest` (fractions of their life).
fn set_life(app: &mut App, unit: Entity, gear: f32, rest: f32) {
    let model = app.world().get::<HitModel>(unit).unwrap().clone();
    let mut life = app.world_mut().get_mut::<NodeLife>(unit).unwrap();
    for node in model.nodes.iter() {
        life.0[node.node.part][node.node.node] = if node.running_gear { gear } else { rest };
    }
}

/// A chassis controller's load group makes its burning effect switched
/// off at its smoke point; critical damage (under 20 % of its life, or
/// its running gear gone) switches it on, and it burns at
/// one minus the machine's life; recovering switches it off again.
#[test]
fn a_critically_damaged_machine_burns_with_its_controllers_effect() {
    const BURN: &str = "EFFECTS.RLB::FX_BURN";
    let (_tmp, mut app, unit, entity) = lone_unit();
    app.update();
    let burn = |app: &App| -> FxInstance {
        let all = &app.world().resource::<FxInstances>().0;
        let mine: Vec<_> = all
            .iter()
            .filter(|i| i.effect == BURN && i.owner == Some(unit))
            .collect();
        assert_eq!(mine.len(), 1, "one burning effect per machine");
        mine[0].clone()
    };
    let programs = app.world().get::<EffectPrograms>(entity).unwrap().clone();
    assert_eq!(programs.of(6).count(), 1);
    // Made at load under its key (id 1 of part 0), switched off: it draws
    // nothing.
    let idle = burn(&app);
    assert_eq!((idle.key, idle.off), (Some(1), true));
    assert!(emit(&idle).is_empty());
    let frame = *app.world().get::<Transform>(entity).unwrap();
    let events_of = |app: &App, kind| {
        app.world()
            .resource::<CombatEvents>()
            .0
            .iter()
            .filter(|e| e.kind == kind && e.object == unit.raw())
            .count()
    };
    // Critical: it is switched on and burns, fire and smoke over the
    // machine, its time one minus the machine's life (± the jitter).
    set_life(&mut app, entity, 0.0, 0.15);
    for _ in 0..6 {
        app.update();
    }
    assert_eq!(events_of(&app, EventKind::Critical), 1);
    let lit = burn(&app);
    assert!(!lit.off);
    let model = app.world().get::<HitModel>(entity).unwrap().clone();
    let life = app.world().get::<NodeLife>(entity).unwrap().clone();
    let whole: f32 = model.nodes.iter().map(|n| n.max_life).sum();
    let left: f32 = model
        .nodes
        .iter()
        .map(|n| life.of(n.node) * n.max_life)
        .sum();
    assert!(
        (lit.t - (1.0 - left / whole)).abs() <= 0.05 + 0.02,
        "t {} at life {}",
        lit.t,
        left / whole
    );
    let drawn = emit(&lit);
    let materials: std::collections::BTreeSet<_> =
        drawn.iter().filter_map(|p| p.material.clone()).collect();
    assert_eq!(
        Vec::from_iter(materials),
        ["MATERIAL.LIB::M_FIRE", "MATERIAL.LIB::M_SMOKE"]
    );
    assert!(
        drawn
            .iter()
            .all(|p| p.position.distance(frame.translation) < 8.0),
        "{drawn:?}"
    );
    // Repaired: it recovers and the effect is switched off, kept for the
    // next time.
    set_life(&mut app, entity, 1.0, 1.0);
    for _ in 0..6 {
        app.update();
    }
    assert_eq!(events_of(&app, EventKind::Recovered), 1);
    let out = burn(&app);
    assert!(out.off && emit(&out).is_empty());
}
