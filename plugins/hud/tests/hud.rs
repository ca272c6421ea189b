//! The HUD's picture of the demo mission, headless: the hero's weapons
//! list, the radar's contacts by side, the panels, the message box and
//! the objectives and outcome from the mission's progress; the pause menu,
//! the briefing, the main menu and the mission slot they drive (restart,
//! back to the menu).

use bevy::input::InputPlugin;
use bevy::prelude::*;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::CombatPlugin;
use iron3d_control::ControlPlugin;
use iron3d_hud::model::{MESSAGE_LINES, RADAR_RANGE, message_box, radar_point};
use iron3d_hud::*;
use iron3d_player::{PlayerInputPlugin, PlayerPlugin};
use iron3d_script::{
    MessageEntry, MissionScripts, ObjectiveState, OutcomeResult, Progress, ScriptPlugin,
};
use iron3d_world::mission::{NodeLife, ShieldSpec};
use iron3d_world::test_support::{demo_install, running_test_app};
use leafwing_input_manager::prelude::*;

/// The simulation the HUD reads, simulated devices and the HUD's model.
struct Stack;

impl Plugin for Stack {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            ControlPlugin,
            BehaviorPlugin,
            CombatPlugin,
            iron3d_fx::FxPlugin,
            ScriptPlugin,
            PlayerPlugin,
            InputPlugin,
            PlayerInputPlugin,
            HudModelPlugin,
        ));
    }
}

fn app(dir: &std::path::Path) -> App {
    running_test_app(dir.join("game"), Stack)
}

fn model(app: &App) -> HudModel {
    app.world().resource::<HudModel>().clone()
}

#[test]
fn the_hud_lists_the_heros_guns_its_radar_contacts_and_the_mission() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let hud = model(&app);
    // The demo hero's laser (unlimited) and cannon, both selected (0 = all).
    assert_eq!(hud.guns.len(), 2);
    assert_eq!(hud.guns[0].key, 1);
    assert_eq!(hud.guns[0].rounds, None);
    assert!(hud.guns[1].rounds.is_some_and(|r| r > 0));
    assert!(hud.guns.iter().all(|g| g.selected && g.lamp == Lamp::Ready));
    assert!(hud.guns.iter().all(|g| (g.charge - 1.0).abs() < 1e-6));
    let own = hud.own.clone().expect("the hero's panel");
    assert_eq!(own.name, "Hero");
    assert_eq!(own.life, 1.0);
    assert!(!own.nodes.is_empty() && own.nodes.iter().all(|&l| l == 1.0));
    // The player's base is around the hero: own contacts, all on the disc.
    assert!(hud.contacts.iter().any(|c| c.side == Side::Own));
    assert!(hud.contacts.iter().all(|c| c.at.length() <= 1.0 + 1e-5));
    // Four objectives, open; shown at the start; no outcome yet.
    assert_eq!(hud.objectives.len(), 4);
    assert!(
        hud.objectives
            .iter()
            .all(|o| o.state == ObjectiveState::Open)
    );
    assert!(hud.objectives[..3].iter().all(|o| o.primary) && !hud.objectives[3].primary);
    assert!(hud.objectives_at_start);
    assert_eq!(hud.outcome, None);
    // The hero stands: no speed, a top speed from its controller.
    let gauges = hud.gauges.expect("the hero's gauges");
    assert_eq!(gauges.speed, 0);
    assert!(gauges.top > 0, "{gauges:?}");

    // Selecting the cannon marks its row alone.
    KeyCode::Digit2.press(app.world_mut());
    app.update();
    KeyCode::Digit2.release(app.world_mut());
    app.update();
    let hud = model(&app);
    assert_eq!(
        hud.guns.iter().map(|g| g.selected).collect::<Vec<_>>(),
        [false, true]
    );

    // The outcome shows once the progress has one; F12 toggles the screen.
    app.world_mut()
        .resource_mut::<Progress>()
        .end(OutcomeResult::Failed, 3);
    KeyCode::F12.press(app.world_mut());
    app.update();
    assert_eq!(model(&app).outcome, Some(OutcomeResult::Failed));
    assert!(app.world().resource::<HudSettings>().objectives);
    for _ in 0..7 * 30 {
        app.update();
    }
    assert!(!model(&app).objectives_at_start, "7 s on");
}

/// The own panel shows how full each of the hero's shield sectors is,
/// and nothing once its bubble is down.
#[test]
fn the_own_panel_shows_the_heros_shield_sectors() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    app.update();
    let own = model(&app).own.expect("the hero's panel");
    assert_eq!(own.shield, Some([1.0; 6]), "full at the start");
    let hero = app
        .world()
        .resource::<iron3d_world::ObjectRegistry>()
        .entity(iron3d_world::OriginalObjectId(own.id))
        .unwrap();
    let (max, deflector) = {
        let spec = app.world().get::<ShieldSpec>(hero).unwrap();
        (spec.sector_max, spec.deflector.unwrap())
    };
    app.world_mut()
        .get_mut::<iron3d_combat::Shield>(hero)
        .unwrap()
        .sectors[2] = max / 4.0;
    app.update();
    let sectors = model(&app).own.unwrap().shield.unwrap();
    assert!(
        (sectors[2] - 0.25).abs() < 0.05,
        "the left sector: {sectors:?}"
    );
    assert!(sectors.iter().enumerate().all(|(i, &s)| i == 2 || s == 1.0));
    // The deflector's node destroyed: the bubble is down.
    app.world_mut().get_mut::<NodeLife>(hero).unwrap().0[deflector.part][deflector.node] = 0.0;
    app.update();
    assert_eq!(model(&app).own.unwrap().shield, None);
}

#[test]
fn the_message_box_shows_the_newest_message_for_twenty_seconds_under_its_sender() {
    use iron3d_formats::config::mission_text::Message;
    let table = vec![
        Message {
            index: 1,
            text: "M_ONE".into(),
            voice: None,
            info_system: false,
        },
        Message {
            index: 2,
            text: "M_TWO".into(),
            voice: None,
            info_system: true,
        },
    ];
    let entry = |tick: u64, kind: &str, value: u32, text: Option<&str>| MessageEntry {
        tick,
        kind: kind.into(),
        value,
        text: text.map(String::from),
        voice: None,
    };
    let mut progress = Progress {
        table,
        ..Default::default()
    };
    progress.messages = vec![
        entry(0, "MESSAGE_INFO", 1, Some("first")),
        entry(150, "MESSAGE_INFO", 2, Some("second")),
        // A record without a text makes no box.
        entry(300, "SYSTEM_MESSAGE", 1, None),
    ];
    let step = 1.0 / 30.0;
    let at = |p: &Progress, s: f64| message_box(p, s, step);
    // At 10 s (tick 300): the newest with a text, an info_system message.
    assert_eq!(
        at(&progress, 10.0),
        Some(MessageBox {
            from: Sender::Information,
            text: "second".into(),
        })
    );
    // 20 s after it came (tick 150, 5 s), the box is gone.
    assert!(at(&progress, 24.9).is_some());
    assert_eq!(at(&progress, 25.1), None);
    progress
        .messages
        .push(entry(900, "SYSTEM", 5039, Some("Building taken")));
    assert_eq!(at(&progress, 31.0).map(|m| m.from), Some(Sender::System));
    progress.messages.truncate(1);
    assert_eq!(at(&progress, 1.0).map(|m| m.from), Some(Sender::Training));
    assert_eq!(MESSAGE_LINES, 6);
}

#[test]
fn the_radar_turns_with_the_hero_and_ends_at_its_range() {
    let ahead = Vec3::NEG_Z;
    let p = radar_point(ahead, Vec3::new(0.0, 0.0, -250.0)).unwrap();
    assert!(
        (p - Vec2::new(0.0, 0.5)).length() < 1e-6,
        "ahead is up: {p}"
    );
    let p = radar_point(ahead, Vec3::new(100.0, 40.0, 0.0)).unwrap();
    assert!(
        (p - Vec2::new(0.2, 0.0)).length() < 1e-6,
        "right is right: {p}"
    );
    // Facing +X, a point at +X is ahead.
    let p = radar_point(Vec3::X, Vec3::new(RADAR_RANGE, 0.0, 0.0)).unwrap();
    assert!((p - Vec2::new(0.0, 1.0)).length() < 1e-6, "{p}");
    assert_eq!(
        radar_point(ahead, Vec3::new(RADAR_RANGE + 1.0, 0.0, 0.0)),
        None
    );
}

/// The radar's gauges (openparkan docs/35 "The altitude", "The speed",
/// "North and south"): the altitude is the map height above the water (or
/// above −1 without any), the speed and top speed in km/h, and north
/// stands up while the hero faces map north (Bevy's −Z) and on the left
/// while it faces east.
#[test]
fn the_radar_gauges_read_the_altitude_the_speed_and_north() {
    let at = Transform::from_xyz(10.0, 25.4, -3.0);
    let g = Gauges::of(&at, Vec3::new(3.0, 0.0, 4.0), 14.0, Some(-1.725));
    assert_eq!((g.altitude, g.speed, g.top), (27, 18, 50));
    assert!((g.north - Vec2::Y).length() < 1e-6, "{:?}", g.north);
    assert_eq!(Gauges::of(&at, Vec3::ZERO, 0.0, None).altitude, 26);
    let east = at.looking_to(Vec3::X, Vec3::Y);
    let g = Gauges::of(&east, Vec3::ZERO, 14.0, None);
    assert!((g.north - Vec2::NEG_X).length() < 1e-6, "{:?}", g.north);
}

#[test]
fn esc_pauses_the_game_under_the_menu_and_the_hero_takes_no_input() {
    use iron3d_control::PhysicalState;
    use iron3d_player::MenuOpen;
    use iron3d_schedules::GameClock;
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let tick = |app: &App| app.world().resource::<GameClock>().tick();
    let hero = app
        .world_mut()
        .query_filtered::<Entity, With<iron3d_player::Pilot>>()
        .single(app.world())
        .unwrap();
    app.update();
    let before = tick(&app);
    KeyCode::Escape.press(app.world_mut());
    app.update();
    KeyCode::Escape.release(app.world_mut());
    assert!(app.world().resource::<PauseMenu>().open);
    assert!(app.world().resource::<MenuOpen>().0);
    let paused_at = tick(&app);
    assert_eq!(paused_at, before, "no step in the frame the menu opened");
    KeyCode::KeyW.press(app.world_mut());
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        tick(&app),
        paused_at,
        "the game clock stands under the menu"
    );
    KeyCode::Escape.press(app.world_mut());
    app.update();
    KeyCode::Escape.release(app.world_mut());
    assert!(!app.world().resource::<PauseMenu>().open);
    app.update();
    assert!(tick(&app) > paused_at, "the clock runs again");
    // W was pressed under the menu: the hero took no press from it, but
    // the key is held now that the menu is closed.
    let state = app.world().get::<PhysicalState>(hero).unwrap();
    assert_eq!(state.requested, Vec3::Y);
    // A clock stopped before the menu stays stopped after it.
    app.world_mut().resource_mut::<GameClock>().pause();
    let mut menu = *app.world().resource::<PauseMenu>();
    let mut clock = app.world().resource::<GameClock>().clone();
    menu.open(&mut clock);
    menu.close(&mut clock);
    assert!(clock.is_paused());
}

mod briefing {
    use super::*;
    use iron3d_formats::config::briefing::{EdgeType, WaitType, Waypoint};
    use iron3d_hud::briefing::shot;
    use iron3d_player::MenuOpen;
    use iron3d_render::camera::MissionCamera;
    use iron3d_schedules::GameClock;
    use iron3d_world::mission::{MissionRequest, headless_app, update_until_loaded, z_up_to_y_up};

    fn stop(camera: [f32; 3], target: [f32; 3]) -> Waypoint {
        Waypoint {
            name: "W".into(),
            camera,
            target,
            edge: EdgeType::Linear,
            wait: WaitType::Continuous,
            edge_time: 2.0,
            waypoint_time: 0.0,
            rotate_time: 0.0,
            fade_time: 0.0,
            wait_for_time: false,
            text: "one".into(),
            sound: String::new(),
            fade_percent: 0.0,
            loop_index: -1,
        }
    }

    #[test]
    fn the_flight_runs_its_edges_dwells_orbits_and_fades() {
        let mut a = stop([0.0, 0.0, 10.0], [100.0, 0.0, 0.0]);
        a.fade_percent = 100.0;
        a.fade_time = 1.0;
        let mut b = stop([10.0, 0.0, 10.0], [0.0, 0.0, 0.0]);
        b.wait = WaitType::Flyaround;
        b.rotate_time = 4.0;
        b.waypoint_time = 4.0;
        b.wait_for_time = true;
        b.edge = EdgeType::Jump;
        b.text = "two".into();
        let c = stop([0.0, 50.0, 20.0], [0.0, 0.0, 0.0]);
        let flight = [a, b, c];
        let at = |t: f32| shot(&flight, t).expect("flying");
        // Out of black over the first edge's first second.
        assert_eq!(at(0.0).fade, 1.0);
        assert!((at(0.5).fade - 0.5).abs() < 1e-6);
        assert_eq!(at(1.0).fade, 0.0);
        // Linear: half-way at half the edge time.
        assert!((at(1.0).eye - Vec3::new(5.0, 0.0, 10.0)).length() < 1e-5);
        assert!((at(1.0).target - Vec3::new(50.0, 0.0, 0.0)).length() < 1e-4);
        // The dwell at b orbits its target a quarter turn a second.
        let quarter = at(3.0);
        assert!(
            (quarter.eye - Vec3::new(0.0, 10.0, 10.0)).length() < 1e-4,
            "{quarter:?}"
        );
        assert_eq!(quarter.text, "two");
        // Then a jump: held, black at half-way, cut to c.
        assert!((at(6.5).eye - Vec3::new(10.0, 0.0, 10.0)).length() < 1e-3);
        assert!((at(7.0).fade - 1.0).abs() < 1e-6);
        assert!((at(7.5).eye - Vec3::new(0.0, 50.0, 20.0)).length() < 1e-5);
        // The last stop holds its edge time, then it is over.
        assert_eq!(at(9.9).text, "one");
        assert_eq!(shot(&flight, 10.01), None);
        assert_eq!(shot(&[], 0.0), None);
    }

    /// A spline edge is a cubic Hermite from the velocity the phase before
    /// left (a linear edge: its speed on every axis) to the one it
    /// arrives with (into a stop that leaves by a spline: the two legs'
    /// mean direction at their mean speed; the last stop: at rest); its
    /// look-at eases in and out (docs/21).
    #[test]
    fn a_spline_edge_is_a_hermite_between_the_velocities_either_side() {
        let a = stop([0.0, 0.0, 10.0], [0.0, 0.0, 0.0]);
        let mut b = stop([10.0, 0.0, 10.0], [0.0, 0.0, 0.0]);
        b.edge = EdgeType::Spline;
        let mut c = stop([10.0, 10.0, 10.0], [0.0, 0.0, 0.0]);
        c.edge = EdgeType::Spline;
        let mut d = stop([10.0, 20.0, 10.0], [20.0, 0.0, 0.0]);
        d.edge = EdgeType::Spline;
        let flight = [a, b, c, d];
        let eye = |t: f32| shot(&flight, t).expect("flying").eye;
        let near = |p: Vec3, q: Vec3| (p - q).length() < 1e-3;
        // b to c (2 s from t = 2): tangents 2 × (5, 5, 5) and 2 × (0, 5, 0).
        assert!(near(eye(2.0), Vec3::new(10.0, 0.0, 10.0)));
        assert!(near(eye(3.0), Vec3::new(11.25, 5.0, 11.25)), "{}", eye(3.0));
        assert!(near(eye(3.9999), Vec3::new(10.0, 10.0, 10.0)));
        // c to d: from (0, 5, 0) to rest.
        assert!(near(eye(5.0), Vec3::new(10.0, 16.25, 10.0)), "{}", eye(5.0));
        // The look-at eases: a quarter of the way in time is 5/32 in place.
        let target = shot(&flight, 4.5).unwrap().target;
        assert!(
            near(target, Vec3::new(20.0 * 5.0 / 32.0, 0.0, 0.0)),
            "{target}"
        );
    }

    fn app(dir: &std::path::Path, play: bool) -> App {
        let mut app = headless_app(Some(MissionRequest::first_of(dir.join("game"))), 1);
        app.add_plugins(Stack).insert_resource(PlayBriefing(play));
        iron3d_schedules::deny_simulation_ambiguities(&mut app);
        app.world_mut().spawn((
            MissionCamera,
            Transform::default(),
            Projection::Perspective(PerspectiveProjection::default()),
        ));
        app.finish();
        app.cleanup();
        update_until_loaded(&mut app).expect("the mission loads");
        app
    }

    fn camera(app: &mut App) -> Transform {
        *app.world_mut()
            .query_filtered::<&Transform, With<MissionCamera>>()
            .single(app.world())
            .unwrap()
    }

    #[test]
    fn the_briefing_flies_with_the_clock_stopped_and_esc_hands_over_the_hero() {
        let tmp = demo_install();
        let mut app = app(tmp.path(), true);
        let waypoints = app.world().resource::<MissionScripts>().briefing.clone();
        assert_eq!(waypoints.len(), 4, "the demo's flight");
        app.update();
        assert!(app.world().resource::<Briefing>().active());
        assert!(
            app.world().resource::<MenuOpen>().0,
            "the keys are the briefing's"
        );
        // The camera is where the flight is.
        let elapsed = app.world().resource::<Briefing>().elapsed;
        assert!(elapsed > 0.0 && elapsed < 0.5, "{elapsed}");
        let now = shot(&waypoints, elapsed).unwrap();
        let eye = z_up_to_y_up(now.eye, Quat::IDENTITY, Vec3::ONE).translation;
        assert!(camera(&mut app).translation.distance(eye) < 1e-3);
        let start = Vec3::from_array(waypoints[0].camera);
        assert!(now.eye.distance(start) < 10.0, "near the first waypoint");
        for _ in 0..30 {
            app.update();
        }
        assert_eq!(
            app.world().resource::<GameClock>().tick(),
            0,
            "every object waits"
        );
        assert!(!app.world().resource::<PauseMenu>().open);
        KeyCode::Escape.press(app.world_mut());
        app.update();
        KeyCode::Escape.release(app.world_mut());
        app.update();
        assert!(!app.world().resource::<Briefing>().active(), "Esc skips it");
        assert!(
            app.world().resource::<iron3d_audio::BriefingVoices>().hush,
            "and hushes its voice"
        );
        assert!(
            !app.world().resource::<PauseMenu>().open,
            "and opens no menu"
        );
        assert!(!app.world().resource::<MenuOpen>().0);
        app.update();
        assert!(
            app.world().resource::<GameClock>().tick() > 0,
            "the game runs"
        );
        assert!(model(&app).objectives_at_start, "the objectives show");
    }

    #[test]
    fn the_briefing_ends_by_itself_and_runs_only_when_asked() {
        let tmp = demo_install();
        let mut app = app(tmp.path(), true);
        let mut frames = 0;
        // Each waypoint's voice is asked for as the flight arrives there
        // (the demo's first three speak), in order, once.
        let mut asked = Vec::new();
        while app.world().resource::<Briefing>().active() || frames == 0 {
            app.update();
            frames += 1;
            assert!(frames < 60 * 30, "the flight ends");
            let mut voices = app
                .world_mut()
                .resource_mut::<iron3d_audio::BriefingVoices>();
            for key in voices.start.drain(..) {
                asked.push((frames, key));
            }
            assert!(!voices.hush, "only Esc hushes");
        }
        let keys: Vec<&str> = asked.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "VOICES.LIB::B_OPEN.WAV",
                "VOICES.LIB::B_ROAD.WAV",
                "VOICES.LIB::B_ROUND.WAV"
            ]
        );
        // At the start, then as the camera reaches the second and third
        // waypoints, 2.5 s apart (30 frames a second).
        assert_eq!(asked[0].0, 1);
        assert!((70..80).contains(&(asked[1].0 - asked[0].0)), "{asked:?}");
        assert!((70..80).contains(&(asked[2].0 - asked[1].0)), "{asked:?}");
        // About 8 s of real time at the test's 30 frames a second.
        assert!((200..300).contains(&frames), "{frames} frames");
        app.update();
        assert!(app.world().resource::<GameClock>().tick() > 0);

        let mut app = super::briefing::app(tmp.path(), false);
        app.update();
        assert!(!app.world().resource::<Briefing>().active());
        assert!(app.world().resource::<GameClock>().tick() > 0);
    }
}

mod slot {
    use super::*;
    use bevy::ecs::resource::IsResource;
    use iron3d_schedules::{GameClock, StateHash};
    use iron3d_world::ObjectRegistry;
    use iron3d_world::mission::{
        MissionChange, MissionCommand, MissionPhase, MissionRequest, headless_app,
        update_until_loaded,
    };

    /// The whole simulation with no mission asked for (the main menu's
    /// world), one step per update.
    fn idle_app() -> App {
        let mut app = headless_app(None, 1);
        app.add_plugins(Stack);
        iron3d_schedules::deny_simulation_ambiguities(&mut app);
        app.finish();
        app.cleanup();
        app.update();
        app
    }

    fn tick(app: &App) -> u64 {
        app.world().resource::<GameClock>().tick()
    }

    /// Runs to `ticks` and returns the state hash there.
    fn run_to(app: &mut App, ticks: u64) -> u64 {
        while tick(app) < ticks {
            app.update();
        }
        StateHash::compute(app.world())
    }

    fn change(app: &mut App, command: MissionCommand) {
        app.world_mut()
            .resource_mut::<MissionChange>()
            .request(command);
        update_until_loaded(app).expect("the mission loads");
    }

    fn phase(app: &App) -> MissionPhase {
        *app.world().resource::<State<MissionPhase>>().get()
    }

    #[test]
    fn a_restarted_mission_runs_tick_for_tick_like_a_fresh_one() {
        let tmp = demo_install();
        let mut app = app(tmp.path());
        let start = tick(&app);
        let fresh = run_to(&mut app, 90);
        // Play on, fight, spend rounds: then start again.
        KeyCode::KeyW.press(app.world_mut());
        run_to(&mut app, 200);
        KeyCode::KeyW.release(app.world_mut());
        app.update();
        change(&mut app, MissionCommand::Restart);
        assert_eq!(phase(&app), MissionPhase::Running);
        assert_eq!(tick(&app), start, "the clock starts again");
        assert!(!app.world().resource::<PauseMenu>().open);
        assert_eq!(run_to(&mut app, 90), fresh);
    }

    #[test]
    fn unloading_leaves_the_world_as_it_was_before_the_load() {
        let tmp = demo_install();
        let mut app = idle_app();
        // Resources are entities too: they are compared by name below.
        let entities = |app: &mut App| {
            app.world_mut()
                .query_filtered::<Entity, Without<IsResource>>()
                .iter(app.world())
                .count()
        };
        let resources = |app: &App| {
            let mut names: Vec<String> = app
                .world()
                .iter_resources()
                .map(|(info, _)| info.name().to_string())
                // Bevy's record of the last transition, there once one ran.
                .filter(|name| !name.contains("PreviousState<"))
                .collect();
            names.sort();
            names
        };
        let (before, kinds) = (entities(&mut app), resources(&app));
        let before_set: Vec<Entity> = app
            .world_mut()
            .query::<Entity>()
            .iter(app.world())
            .collect();
        let request = MissionRequest::first_of(tmp.path().join("game"));
        change(&mut app, MissionCommand::Load(request));
        assert_eq!(phase(&app), MissionPhase::Running);
        let loaded = app.world().resource::<ObjectRegistry>().len();
        assert!(loaded > 0 && entities(&mut app) > before + loaded);
        run_to(&mut app, 60);
        change(&mut app, MissionCommand::Unload);
        app.update();
        assert_eq!(phase(&app), MissionPhase::Idle);
        let left: Vec<String> = app
            .world_mut()
            .query_filtered::<Entity, Without<IsResource>>()
            .iter(app.world())
            .filter(|e| !before_set.contains(e))
            .map(|e| {
                let parts: Vec<String> = app
                    .world()
                    .inspect_entity(e)
                    .unwrap()
                    .map(|c| c.name().to_string())
                    .collect();
                format!("{e:?} {parts:?}")
            })
            .collect();
        assert_eq!(
            entities(&mut app),
            before,
            "every mission entity is gone: {left:#?}"
        );
        assert_eq!(resources(&app), kinds, "no mission resource is left");
        assert!(app.world().resource::<ObjectRegistry>().is_empty());
    }

    #[test]
    fn the_main_menu_lists_the_missions_by_campaign_and_starts_the_chosen_one() {
        let tmp = demo_install();
        let mut app = idle_app();
        let game = tmp.path().join("game");
        let menu = MainMenu::of_install(game.clone(), Vec::new());
        let listed: Vec<_> = menu
            .missions
            .iter()
            .map(|m| (m.campaign().to_string(), m.title.clone()))
            .collect();
        assert_eq!(
            listed,
            [
                ("Campaign.00".into(), Some("Operation Ridge Tower".into())),
                (
                    "Campaign.00".into(),
                    Some("Operation Generator Valley".into())
                ),
            ]
        );
        app.insert_resource(menu);
        app.update();
        KeyCode::ArrowDown.press(app.world_mut());
        app.update();
        KeyCode::ArrowDown.release(app.world_mut());
        KeyCode::Enter.press(app.world_mut());
        app.update();
        KeyCode::Enter.release(app.world_mut());
        update_until_loaded(&mut app).expect("the mission loads");
        assert_eq!(phase(&app), MissionPhase::Running);
        let progress = app
            .world()
            .resource::<iron3d_world::mission::LoadProgress>();
        assert_eq!(progress.mission, "Campaign.00/Mission.02");
        assert_eq!(progress.registered, progress.objects_total);

        // A mission that does not load comes back to the menu with its
        // error, the world empty again.
        std::fs::remove_file(game.join("MISSIONS/Campaign.00/Mission.01/data.tma")).unwrap();
        app.world_mut()
            .resource_scope(|world, mut menu: Mut<MainMenu>| {
                menu.selected = 0;
                menu.start(&mut world.resource_mut::<MissionChange>());
            });
        for _ in 0..16 {
            app.update();
        }
        assert_eq!(phase(&app), MissionPhase::Idle);
        let error = app.world().resource::<MainMenu>().error.clone();
        assert!(
            error.as_deref().is_some_and(|e| e.contains("Mission.01")),
            "{error:?}"
        );
        assert!(app.world().resource::<ObjectRegistry>().is_empty());
    }
}

/// The HUD started (no mission) over the install at `game` with `mods`.
fn hud_over(game: &std::path::Path, mods: &[std::path::PathBuf]) -> App {
    let source = iron3d_formats::source::Source::new(game, mods).unwrap();
    let mut app = iron3d_world::mission::headless_app(None, 1);
    app.add_plugins(Stack)
        .insert_resource(iron3d_assets::IronSourceHandle(std::sync::Arc::new(source)));
    app.finish();
    app.cleanup();
    app.update();
    app
}

mod sprites {
    use super::*;

    /// The HUD over the install at `game` with `mods`: its sprites.
    fn art_of(game: &std::path::Path, mods: &[std::path::PathBuf]) -> InstallArt {
        let app = hud_over(game, mods);
        app.world().resource::<InstallArt>().clone()
    }

    /// The HUD draws with the install's interface sprites: every one it
    /// asks for reads from the demo's pages; a mod's sheet that breaks one
    /// fails that one alone, reported, and the HUD draws its plain shape
    /// there; an install without the sheets has none and no faults.
    #[test]
    fn the_hud_takes_the_installs_interface_sprites() {
        let tmp = demo_install();
        let game = tmp.path().join("game");
        let art = art_of(&game, &[]);
        assert_eq!(art.0.faults, vec![]);
        let missing: Vec<&str> = iron3d_hud::art::wanted()
            .into_iter()
            .filter(|name| art.0.cut(name).is_none())
            .collect();
        assert_eq!(missing, Vec::<&str>::new());
        let names: Vec<&str> = art.0.pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names.len(),
            5,
            "ui_menu, ui_menu3, page6, page7 and page9 of ui.lib: {names:?}"
        );

        let modded = tmp.path().join("mod");
        std::fs::create_dir_all(modded.join("ui")).unwrap();
        let hq = std::fs::read_to_string(game.join("ui/hq.cfg")).unwrap();
        let broken = hq.replacen(" WIDTH = 150\r\n", " WIDTH = wide\r\n", 1);
        assert_ne!(hq, broken);
        std::fs::write(modded.join("ui/hq.cfg"), broken).unwrap();
        let art = art_of(&game, std::slice::from_ref(&modded));
        let faults: Vec<String> = art.0.faults.iter().map(|f| f.to_string()).collect();
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert!(faults[0].contains("\"targeter_back\""), "{}", faults[0]);
        assert!(faults[0].contains("width: a number"), "{}", faults[0]);
        assert!(art.0.cut("targeter_back").is_none());
        assert_eq!(art.0.cuts.len(), iron3d_hud::art::wanted().len() - 1);

        for file in ["ui/hq.cfg", "ui/compaund.cfg"] {
            std::fs::remove_file(game.join(file)).unwrap();
        }
        let art = art_of(&game, &[]);
        assert_eq!(art.0.faults, vec![]);
        assert!(art.0.cut("targeter_back").is_none());
        assert!(art.0.cut("reticle circle").is_some(), "cut in code");
    }
}

mod fonts {
    use super::*;

    #[test]
    fn the_hud_takes_the_installs_game_and_menu_fonts_and_lays_text_out_in_them() {
        let tmp = demo_install();
        let app = hud_over(&tmp.path().join("game"), &[]);
        let fonts = app.world().resource::<InstallFonts>().clone();
        assert_eq!(fonts.error, None);
        // The 640 x 480 substitutes, bound by index in ui\font.lib.
        let game = fonts.game.expect("GAME_FONT");
        let menu = fonts.menu.expect("MENU_FONT");
        assert_eq!(game.name, "ui\\font.lib/gf_640.tft");
        assert_eq!(menu.name, "ui\\font.lib/mf_640.tft");
        assert_eq!((game.line_height(), menu.line_height()), (8.0, 16.0));
        assert_eq!((game.atlas.width, game.atlas.height), (128, 128));
        // A letter is drawn advance + 1 wide, Cyrillic as Latin (the demo
        // draws CP1251's Cyrillic, as its Russian messages need); the pen
        // moves advance + spacing; a letter the font leaves undrawn (`@`)
        // only moves it half a line; one CP1251 lacks is `?`.
        let (glyphs, end) = game.layout("A1 Ж@é");
        let x: Vec<f32> = glyphs.iter().map(|g| g.x).collect();
        assert_eq!(x, [0.0, 7.0, 14.0, 21.0, 33.0]);
        assert!(glyphs.iter().all(|g| g.width == 7.0));
        assert_eq!(end, 40.0);
        let zhe = game.font.glyphs[0xC6];
        assert_eq!(glyphs[3].uv[0], zhe.u0);
        assert!(zhe.u1 > zhe.u0, "Ж is drawn");
        let question = game.font.glyphs[usize::from(b'?')];
        assert_eq!(glyphs[4].uv[0], question.u0);
        let a = game.font.glyphs[usize::from(b'A')];
        assert_eq!(glyphs[0].uv, [a.u0, a.v0, a.u1, a.v0 + game.font.v_span]);
        // The letter's pixels are in the atlas where its glyph says.
        let (u, v) = ((a.u0 * 128.0) as u32, (a.v0 * 128.0) as u32);
        let alpha = |x: u32, y: u32| game.atlas.pixels[((y * 128 + x) * 4 + 3) as usize];
        assert_eq!(alpha(u + 2, v), 255, "the top of the A");
        assert_eq!(alpha(u, v), 0);
    }
}

mod texts {
    use super::*;
    use iron3d_formats::strings::StringDll;

    /// The HUD started over the install at `game` with `mods`: its texts.
    fn texts_of(game: &std::path::Path, mods: &[std::path::PathBuf]) -> InstallTexts {
        let app = hud_over(game, mods);
        app.world().resource::<InstallTexts>().clone()
    }

    /// The HUD's words come from the install's `iron3d.dll` by the
    /// original's string ids; a mod's DLL replaces them; an install
    /// without the file keeps the engine's words; a file that does not
    /// read is reported and changes nothing.
    #[test]
    fn the_huds_words_are_the_installs_iron3d_dll_strings() {
        let tmp = demo_install();
        let game = tmp.path().join("game");
        let texts = texts_of(&game, &[]);
        assert_eq!(texts.error, None);
        assert_eq!(texts.get(Word::MissionComplete), "MISSION ACCOMPLISHED");
        assert_eq!(texts.get(Word::PrimaryObjectives), "Main objectives");
        assert_eq!(texts.get(Word::Unlimited), "INF");
        assert!(
            Word::ALL
                .iter()
                .all(|w| texts.strings.contains_key(&w.id()))
        );

        let modded = tmp.path().join("mod");
        std::fs::create_dir_all(&modded).unwrap();
        let strings = [(1013, "ВСЁ ПРОПАЛО".to_string())].into_iter().collect();
        let dll = StringDll::build(&strings).unwrap();
        std::fs::write(modded.join("IRON3D.DLL"), dll.to_bytes()).unwrap();
        let texts = texts_of(&game, std::slice::from_ref(&modded));
        assert_eq!(texts.get(Word::MissionFailed), "ВСЁ ПРОПАЛО");
        assert_eq!(
            texts.get(Word::MissionComplete),
            Word::MissionComplete.fallback(),
            "an id the mod's file lacks"
        );

        std::fs::write(modded.join("IRON3D.DLL"), b"MZ but no more").unwrap();
        let texts = texts_of(&game, std::slice::from_ref(&modded));
        assert!(
            texts
                .error
                .as_deref()
                .is_some_and(|e| e.contains("IRON3D.DLL")),
            "{:?}",
            texts.error
        );
        assert_eq!(
            texts.get(Word::MissionFailed),
            Word::MissionFailed.fallback()
        );

        std::fs::remove_file(game.join("iron3d.dll")).unwrap();
        std::fs::remove_dir_all(&modded).unwrap();
        let texts = texts_of(&game, &[]);
        assert_eq!((texts.error.as_deref(), texts.strings.len()), (None, 0));
        assert_eq!(texts.get(Word::Unlimited), "INF");
    }
}

mod quick {
    use super::*;
    use iron3d_replay::{LoadsPlugin, Playback, RecordPlugin, Replay};
    use iron3d_schedules::{GameClock, StateHash};
    use iron3d_world::mission::{MissionPhase, MissionRequest, headless_app, update_until_loaded};

    fn tick(app: &App) -> u64 {
        app.world().resource::<GameClock>().tick()
    }

    fn tap(app: &mut App, key: KeyCode) {
        key.press(app.world_mut());
        app.update();
        key.release(app.world_mut());
    }

    fn status(app: &App) -> String {
        let quick = app.world().resource::<QuickSave>();
        quick.status.clone().unwrap_or_default()
    }

    #[test]
    fn f5_saves_the_session_and_f9_loads_it_back_to_the_saved_state() {
        let tmp = demo_install();
        let path = tmp.path().join("saves").join("quick.ron");
        let mut app = headless_app(Some(MissionRequest::first_of(tmp.path().join("game"))), 1);
        app.add_plugins((
            Stack,
            RecordPlugin {
                rate: 30.0,
                ..default()
            },
            LoadsPlugin,
        ))
        .insert_resource(QuickSave {
            path: path.clone(),
            status: None,
        });
        iron3d_schedules::deny_simulation_ambiguities(&mut app);
        app.finish();
        app.cleanup();
        update_until_loaded(&mut app).expect("the mission loads");
        KeyCode::KeyW.press(app.world_mut());
        while tick(&app) < 90 {
            app.update();
        }
        // Saved from a stopped clock (the pause menu's Save): the same
        // state as running.
        app.world_mut().resource_mut::<GameClock>().pause();
        tap(&mut app, KeyCode::F5);
        app.world_mut().resource_mut::<GameClock>().resume();
        let saved = Replay::load(&path).expect("F5 wrote the quick save");
        assert_eq!(saved.end_tick, tick(&app));
        assert_eq!(status(&app), format!("saved at tick {}", saved.end_tick));
        let saved_hash = saved.checkpoints.last().unwrap().hash;
        assert_eq!(saved_hash, StateHash::compute(app.world()));
        // Play on, then load: the mission loads anew and takes the saved
        // state at once, as its first frame runs.
        while tick(&app) < 150 {
            app.update();
        }
        KeyCode::KeyW.release(app.world_mut());
        tap(&mut app, KeyCode::F9);
        update_until_loaded(&mut app).expect("the save's mission loads");
        let playback = app.world().resource::<Playback>();
        assert!(playback.restores_state && !playback.loading(tick(&app)));
        assert!(tick(&app) >= saved.end_tick, "from the save's tick");
        assert_eq!(playback.divergence, None);
        assert_eq!(playback.checked, saved.checkpoints.len());
        let at_save = playback.reached.checkpoints.last().unwrap();
        assert_eq!((at_save.tick, at_save.hash), (saved.end_tick, saved_hash));
        // A save whose state names an object the mission lacks (here the
        // hero's id edited by hand) is found out only once its mission is
        // loaded anew: it loads by playing its steps again instead, fast,
        // to the same state.
        let mut edited = saved.clone();
        let state = edited.state.as_mut().unwrap();
        let pilots = state.iter_mut().find(|s| s.name == "player").unwrap();
        let ron = pilots.state.get_ron();
        let moved = format!("[(99999{}", &ron[ron.find(',').unwrap()..]);
        pilots.state = iron3d_schedules::RawValue::from_boxed_ron(moved.into()).unwrap();
        edited.save(&path).unwrap();
        tap(&mut app, KeyCode::F9);
        update_until_loaded(&mut app).expect("the save's mission loads");
        let mut frames = 0;
        while app.world().resource::<Playback>().loading(tick(&app)) {
            app.update();
            frames += 1;
        }
        assert!(
            frames > 0 && frames * 3 < saved.end_tick,
            "played again fast: {frames} frames"
        );
        let playback = app.world().resource::<Playback>();
        assert!(!playback.restores_state);
        assert_eq!(playback.divergence, None);
        let at_save = playback.reached.checkpoints.last().unwrap();
        assert_eq!((at_save.tick, at_save.hash), (saved.end_tick, saved_hash));
        // Then the live input at the clock's own pace.
        let before = tick(&app);
        app.update();
        assert_eq!(tick(&app), before + 1);
        assert_eq!(app.world().resource::<GameClock>().scale(), 1.0);

        // A broken save, one made at another rate, or one whose state is
        // of another shape, leaves the running game as it is.
        let broken = tmp.path().join("broken.ron");
        std::fs::write(&broken, "(version: 1, broken").unwrap();
        let other_rate = tmp.path().join("rate.ron");
        let mut faster = saved.clone();
        faster.rate = 60.0;
        faster.save(&other_rate).unwrap();
        let reshaped = tmp.path().join("reshaped.ron");
        let mut edited = saved;
        let state = edited.state.as_mut().unwrap();
        let shields = state
            .iter_mut()
            .find(|s| s.name == "combat_shields")
            .unwrap();
        shields.state = iron3d_schedules::RawValue::from_rust(&"no shields").unwrap();
        edited.save(&reshaped).unwrap();
        for (file, said) in [
            (broken, "not a replay"),
            (other_rate, "made at 60 steps a second, the game runs at 30"),
            (reshaped, "state section combat_shields: "),
        ] {
            std::fs::copy(&file, &path).unwrap();
            let before = tick(&app);
            tap(&mut app, KeyCode::F9);
            app.update();
            let status = status(&app);
            assert!(
                status.starts_with("not loaded:") && status.contains(said),
                "{status}"
            );
            assert_eq!(
                *app.world().resource::<State<MissionPhase>>().get(),
                MissionPhase::Running
            );
            assert!(tick(&app) > before, "the game went on");
        }
    }
}

/// The Ore and Energy rows follow the hero's clan's distributor: none
/// without buildings in the economy; with a generator and a mine, the
/// mine's draw keeps Energy near 90% while the Ore row climbs.
#[test]
fn the_resource_rows_follow_the_heros_clan() {
    use iron3d_formats::config::builddat::BuildCategory;
    use iron3d_world::test_support::{
        Arena, Piece, Side as Clan, What, run_for_seconds, running_arena,
    };
    let piece = |what, at| Piece {
        what,
        side: Clan::Player,
        at,
        heading: 0.0,
    };
    let arena = Arena {
        pieces: vec![
            piece(What::Hero, [0.0, -60.0]),
            piece(What::Building(BuildCategory::Generator), [-60.0, 60.0]),
            piece(What::Building(BuildCategory::Mine), [60.0, 60.0]),
        ],
        ..Arena::default()
    };
    let (_tmp, mut app, _ids) = running_arena(&arena, (Stack, iron3d_economy::EconomyPlugin));
    run_for_seconds(&mut app, 1);
    let first = model(&app).resources.expect("the rows");
    run_for_seconds(&mut app, 4);
    let rows = model(&app).resources.expect("the rows");
    assert!(
        (85..=100).contains(&rows.energy.percent),
        "{first:?} {rows:?}"
    );
    assert!(rows.ore.percent > first.ore.percent, "{first:?} {rows:?}");
    assert!(rows.ore.lit && rows.energy.lit);
    let (_tmp, mut bare, _) = running_arena(
        &Arena {
            pieces: vec![piece(What::Hero, [0.0, 0.0])],
            ..Arena::default()
        },
        (Stack, iron3d_economy::EconomyPlugin),
    );
    run_for_seconds(&mut bare, 1);
    assert_eq!(model(&bare).resources, None);
}
