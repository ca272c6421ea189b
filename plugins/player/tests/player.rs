//! The player on the demo install, headless at the fixed step, with
//! simulated devices: keys and mouse go through leafwing into the input
//! snapshot, and the hero moves, turns, strafes and fires by it.

use bevy::input::InputPlugin;
use bevy::input::keyboard::KeyboardFocusLost;
use bevy::prelude::*;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::{CombatEvents, CombatPlugin, EventKind, Manual, Weapons};
use iron3d_control::{Body, ControlPlugin, PhysicalState, Piloted};
use iron3d_player::bindings::scan_input;
use iron3d_player::view::{COCKPIT_FOV, NARROWEST_FOV, outer, vertical_fov};
use iron3d_player::*;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::Hero;
use iron3d_world::test_support::{demo_install, running_test_app};
use leafwing_input_manager::prelude::*;
use std::f32::consts::{FRAC_PI_2, TAU};
use std::path::Path;

/// The simulation the player drives, and simulated devices.
struct PilotedSimulation;

impl Plugin for PilotedSimulation {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            ControlPlugin,
            BehaviorPlugin,
            CombatPlugin,
            PlayerPlugin,
            InputPlugin,
            PlayerInputPlugin,
        ));
    }
}

/// The first demo mission with [`PilotedSimulation`].
fn app(dir: &Path) -> App {
    running_test_app(dir.join("game"), PilotedSimulation)
}

fn hero(app: &mut App) -> Entity {
    let mut heroes = app
        .world_mut()
        .query_filtered::<Entity, (With<Hero>, With<Piloted>)>();
    let list: Vec<Entity> = heroes.iter(app.world()).collect();
    assert_eq!(list.len(), 1, "one piloted hero");
    list[0]
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// The hull's heading about the up axis, rad (+ left).
fn heading(app: &App, hero: Entity) -> f32 {
    heading_of(app.world().get::<Transform>(hero).unwrap())
}

fn angle_gap(a: f32, b: f32) -> f32 {
    ((a - b + std::f32::consts::PI).rem_euclid(TAU) - std::f32::consts::PI).abs()
}

#[test]
fn w_walks_the_hero_forward_at_its_controllers_top_speed_and_release_stops_it() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    steps(&mut app, 5);
    let top = app.world().get::<Body>(hero).unwrap().limits.top_speed.y;
    assert!(top > 1.0, "the hero's live top speed {top}");
    let start = app.world().get::<Transform>(hero).unwrap().translation;
    KeyCode::KeyW.press(app.world_mut());
    // It reaches its top speed, then meets its bunker's wall (heroes start
    // in their bunker), where it stands with no speed toward it.
    let mut fastest = 0.0f32;
    for _ in 0..60 {
        steps(&mut app, 1);
        let state = *app.world().get::<PhysicalState>(hero).unwrap();
        let forward = app.world().get::<Transform>(hero).unwrap().rotation * Vec3::NEG_Z;
        fastest = fastest.max(state.linear_velocity.dot(forward));
    }
    let state = *app.world().get::<PhysicalState>(hero).unwrap();
    assert_eq!(state.requested, Vec3::Y, "W asks the full forward speed");
    let forward = app.world().get::<Transform>(hero).unwrap().rotation * Vec3::NEG_Z;
    assert!(
        (fastest - top).abs() < 1e-3,
        "forward speed {fastest} against top {top}"
    );
    let moved = app.world().get::<Transform>(hero).unwrap().translation - start;
    assert!(
        moved.dot(forward) > 0.5 * top,
        "moved {moved} along {forward}"
    );
    KeyCode::KeyW.release(app.world_mut());
    steps(&mut app, 60);
    let state = *app.world().get::<PhysicalState>(hero).unwrap();
    assert_eq!(state.requested, Vec3::ZERO);
    assert!(
        state.linear_velocity.length() < 1e-3,
        "stopped: {}",
        state.linear_velocity
    );
}

#[test]
fn mouse_motion_turns_the_hull_by_the_filtered_amount() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    steps(&mut app, 2);
    let before = heading(&app, hero);
    // 100 counts to the right in one frame.
    MouseMove::default().set_axis_pair(app.world_mut(), Vec2::new(100.0, 0.0));
    steps(&mut app, 1);
    // The first step passes 95 % of the counts (the filter's memory
    // holds the rest) and the hull turns at once: its turn rate allows.
    let first = 100.0 * 0.15 * 0.95 * 0.006 * TAU;
    let turned = angle_gap(heading(&app, hero), before);
    assert!(
        (turned - first).abs() < 1e-4,
        "first step {turned} against {first}"
    );
    steps(&mut app, 10);
    // Through the filter, 0.00565 rad a count, to the right (−).
    let whole = 100.0 * 0.15 * 0.006 * TAU;
    let after = heading(&app, hero);
    assert!(
        (angle_gap(after, before) - whole).abs() < 1e-4,
        "{before} -> {after}"
    );
    let signed = (after - before + std::f32::consts::PI).rem_euclid(TAU) - std::f32::consts::PI;
    assert!(signed < 0.0, "mouse right turns the nose right: {signed}");

    // Mouse up pitches the turret up, within its limits.
    let pitch = app.world().get::<Pilot>(hero).unwrap().pitch;
    MouseMove::default().set_axis_pair(app.world_mut(), Vec2::new(0.0, -50.0));
    steps(&mut app, 10);
    let now = app.world().get::<Pilot>(hero).unwrap().pitch;
    let expected = (pitch + 50.0 * 0.25 * 1.2 * 0.006).min(1.0);
    assert!(
        (now - expected).abs() < 1e-4,
        "pitch value {pitch} -> {now}, {expected}"
    );
    MouseMove::default().set_axis_pair(app.world_mut(), Vec2::new(0.0, -5000.0));
    steps(&mut app, 10);
    assert_eq!(
        app.world().get::<Pilot>(hero).unwrap().pitch,
        1.0,
        "held at the top limit"
    );
}

#[test]
fn strafe_turns_the_hull_to_the_side_and_the_turret_back() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    steps(&mut app, 2);
    let before = heading(&app, hero);
    KeyCode::KeyA.press(app.world_mut());
    steps(&mut app, 30);
    assert!((angle_gap(heading(&app, hero), before) - FRAC_PI_2).abs() < 1e-3);
    let manual = *app.world().get::<Manual>(hero).unwrap();
    assert!(
        (manual.yaw + FRAC_PI_2).abs() < 1e-3,
        "the turret turns back: {}",
        manual.yaw
    );
    let turret = app.world().get::<Weapons>(hero).unwrap().turrets[0];
    assert!(
        (turret.yaw + FRAC_PI_2).abs() < 1e-2,
        "turret yaw {}",
        turret.yaw
    );
    assert_eq!(
        app.world().get::<PhysicalState>(hero).unwrap().requested,
        Vec3::Y
    );
    KeyCode::KeyA.release(app.world_mut());
    steps(&mut app, 30);
    assert!(
        angle_gap(heading(&app, hero), before) < 1e-3,
        "the hull turns back"
    );
}

#[test]
fn fire_spends_a_round_of_the_selected_gun() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    let id = *app.world().get::<OriginalObjectId>(hero).unwrap();
    steps(&mut app, 2);
    let rounds = |app: &App| -> Vec<i32> {
        let w = app.world().get::<Weapons>(hero).unwrap();
        w.guns.iter().map(|g| g.rounds).collect()
    };
    let full = rounds(&app);
    assert_eq!(full.len(), 2, "laser and cannon");
    assert_eq!(full[0], -1, "the laser never runs out");
    assert!(full[1] > 0, "the cannon has a magazine");
    // Nothing fires until the trigger is pulled.
    steps(&mut app, 30);
    assert_eq!(rounds(&app), full);
    KeyCode::Digit2.press(app.world_mut());
    steps(&mut app, 1);
    KeyCode::Digit2.release(app.world_mut());
    assert_eq!(app.world().get::<Pilot>(hero).unwrap().weapon, 2);
    MouseButton::Left.press(app.world_mut());
    steps(&mut app, 60);
    MouseButton::Left.release(app.world_mut());
    steps(&mut app, 60);
    let now = rounds(&app);
    assert!(
        now[1] < full[1],
        "the cannon spent rounds: {full:?} -> {now:?}"
    );
    let shots: Vec<_> = app
        .world()
        .resource::<CombatEvents>()
        .0
        .iter()
        .filter(|e| e.kind == EventKind::Shot && e.object == id.raw())
        .collect();
    assert_eq!(shots.len() as i32, full[1] - now[1], "one shot a round");
    assert!(shots.iter().all(|s| s.node.is_some()));
}

#[test]
fn a_press_is_an_edge_for_one_step_and_focus_loss_releases_the_keys() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    KeyCode::KeyQ.press(app.world_mut());
    steps(&mut app, 1);
    let step = *app.world().resource::<StepInput>();
    assert!(step.pressed.has(PlayerAction::NextWeapon) && step.held.has(PlayerAction::NextWeapon));
    steps(&mut app, 1);
    let step = *app.world().resource::<StepInput>();
    assert!(
        !step.pressed.has(PlayerAction::NextWeapon),
        "the edge does not repeat"
    );
    assert!(
        step.held.has(PlayerAction::NextWeapon),
        "the key is still held"
    );
    assert_eq!(
        app.world().get::<Pilot>(hero).unwrap().weapon,
        1,
        "one press, one step on"
    );

    KeyCode::KeyW.press(app.world_mut());
    steps(&mut app, 5);
    assert_eq!(
        app.world().get::<PhysicalState>(hero).unwrap().requested,
        Vec3::Y
    );
    app.world_mut().write_message(KeyboardFocusLost);
    steps(&mut app, 2);
    let step = *app.world().resource::<StepInput>();
    assert_eq!(
        step.held,
        Buttons::default(),
        "focus loss releases every key"
    );
    assert_eq!(
        app.world().get::<PhysicalState>(hero).unwrap().requested,
        Vec3::ZERO
    );
}

/// Waits out the bindings file's poll and steps a frame.
fn reread(app: &mut App) {
    std::thread::sleep(std::time::Duration::from_millis(600));
    steps(app, 2);
}

fn requested(app: &App, hero: Entity) -> Vec3 {
    app.world().get::<PhysicalState>(hero).unwrap().requested
}

#[test]
fn a_remapped_bindings_file_changes_which_key_walks_and_a_broken_one_keeps_the_last() {
    let tmp = demo_install();
    let path = tmp.path().join("config/iron3d/bindings.ron");
    let mut app = app(tmp.path());
    app.insert_resource(BindingsFile::new(&path));
    let hero = hero(&mut app);
    steps(&mut app, 1);
    // First run: the defaults are written, and read back the same.
    let text = std::fs::read_to_string(&path).expect("the file is written on the first run");
    assert_eq!(Bindings::from_ron(&text).unwrap(), Bindings::default());

    let mut remapped = Bindings::default();
    remapped.0[0] = (PlayerAction::WalkForward, vec![Input::Key(KeyCode::KeyI)]);
    std::fs::write(&path, remapped.to_ron()).unwrap();
    reread(&mut app);
    assert_eq!(app.world().resource::<BindingsFile>().error, None);
    KeyCode::KeyW.press(app.world_mut());
    steps(&mut app, 2);
    assert_eq!(requested(&app, hero), Vec3::ZERO, "W walks no more");
    KeyCode::KeyW.release(app.world_mut());
    KeyCode::KeyI.press(app.world_mut());
    steps(&mut app, 2);
    assert_eq!(requested(&app, hero), Vec3::Y, "I walks");
    KeyCode::KeyI.release(app.world_mut());

    std::fs::write(&path, "{ \"WalkForward\": [\"NoSuchKey\"] }").unwrap();
    reread(&mut app);
    let error = app.world().resource::<BindingsFile>().error.clone();
    let error = error.expect("a broken file is reported");
    assert!(error.contains("`NoSuchKey` is not an input"), "{error}");
    KeyCode::KeyI.press(app.world_mut());
    steps(&mut app, 2);
    assert_eq!(
        requested(&app, hero),
        Vec3::Y,
        "the last good bindings stay"
    );
    KeyCode::KeyI.release(app.world_mut());

    std::fs::write(&path, "{ \"WalkForward\": [").unwrap();
    reread(&mut app);
    let error = app
        .world()
        .resource::<BindingsFile>()
        .error
        .clone()
        .unwrap();
    assert!(error.contains("not a map of names"), "{error}");

    // A link to a device is refused unread, as any file that is not a
    // regular one.
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    reread(&mut app);
    let error = app.world().resource::<BindingsFile>().error.clone();
    let error = error.expect("a device is reported");
    assert!(error.contains("not a regular file"), "{error}");
}

#[test]
fn bindings_name_every_action_and_refuse_what_they_cannot_bind() {
    let defaults = Bindings::default();
    assert_eq!(defaults.0.len(), PlayerAction::BUTTONS.len() + 1);
    assert_eq!(Bindings::from_ron(&defaults.to_ron()).unwrap(), defaults);
    let err = Bindings::from_ron("{ \"Jump\": [\"Space\"] }").unwrap_err();
    assert_eq!(err, "`Jump` is not an action");
    let err = Bindings::from_ron("{ \"Mouse\": [\"KeyW\"] }").unwrap_err();
    assert_eq!(err, "`Mouse` cannot be bound to `KeyW`");
    let err = Bindings::from_ron("{ \"FirePrimary\": [\"MouseMotion\"] }").unwrap_err();
    assert_eq!(err, "`FirePrimary` cannot be bound to `MouseMotion`");
    let ok = Bindings::from_ron("{ \"FirePrimary\": [\"MouseRight\", \"Space\"] }").unwrap();
    assert_eq!(
        ok.0,
        [(
            PlayerAction::FirePrimary,
            vec![Input::Mouse(MouseButton::Right), Input::Key(KeyCode::Space)]
        )]
    );
}

/// The inputs `bindings` give `action`.
fn inputs_of(bindings: &Bindings, action: PlayerAction) -> Vec<Input> {
    bindings
        .0
        .iter()
        .find(|(a, _)| *a == action)
        .map(|(_, i)| i.clone())
        .unwrap_or_default()
}

/// The demo install's `hero.tbl` gives the code's defaults; a mod's
/// `hero.tbl` laid over the install rebinds what its press rows bind (by
/// command, or by the row's identity), keeps the rest, and reports the
/// rows it cannot take with their lines.
#[test]
fn the_installs_hero_table_sets_the_bindings_before_the_players_file() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    assert_eq!(Bindings::of_install(&game, &[]), Bindings::default());

    let table = "// a mod's pilot\r\n\
KEY SCAN_NULL SCAN_UP 1 CICLS_UNKNOWN MCMD_WALK_F 1.0 0 0 0.0 0 // walk\r\n\
KEY SCAN_NULL SCAN_UP 0 CICLS_UNKNOWN MCMD_WALK_F 0.0 0 0 0.0 0\r\n\
KEY SCAN_NULL SCAN_W 1 CICLS_UNKNOWN MCMD_WALK_F 1.0 0 0 0.0 0\r\n\
KEY SCAN_NULL SCAN_G_9 1 CICLS_MULTIGUN MCMD_STATE 1.0 0 0 0.0 0 // FIRE_SELECTED_CONT\r\n\
KEY SCAN_LSHIFT SCAN_F 1 CICLS_MULTIGUN MCMD_SELECT 1.0 2 0 0.0 0 // SELECT_WEAPON_2\r\n\
KEY SCAN_NULL SCAN_WHEEL 1 CICLS_MULTIGUN MCMD_SELECT 1.0 3 0 0.0 0\r\n";
    let table = iron3d_formats::config::input_table::InputTable::parse(table.as_bytes()).unwrap();
    let (bindings, problems) = Bindings::default().with_table(&table);
    use PlayerAction as A;
    assert_eq!(
        inputs_of(&bindings, A::WalkForward),
        [Input::Key(KeyCode::ArrowUp), Input::Key(KeyCode::KeyW)]
    );
    assert_eq!(
        inputs_of(&bindings, A::FirePrimary),
        [Input::Key(KeyCode::Numpad9)]
    );
    assert_eq!(
        problems,
        [
            "line 6: Weapon2: the chord SCAN_LSHIFT + SCAN_F is not bound here",
            "line 7: Weapon3: SCAN_WHEEL has no input here",
        ]
    );
    // What the table does not take keeps its default.
    for action in [A::WalkBack, A::Weapon2, A::Weapon3, A::Menu] {
        assert_eq!(
            inputs_of(&bindings, action),
            inputs_of(&Bindings::default(), action)
        );
    }
    // Through the install's layers: a mod directory's table wins.
    let mods = tempfile::tempdir().unwrap();
    std::fs::write(mods.path().join("HERO.TBL"), table.to_bytes()).unwrap();
    let layered = Bindings::of_install(&game, &[mods.path().to_path_buf()]);
    assert_eq!(layered, bindings);
}

/// The install's `addition.man` (the keys the game looks up in play) lays
/// the objectives screen and the game menu over the bindings: the demo's
/// gives the defaults; a retail-like one puts the menu on F3 and Esc
/// (`CMD_GAME_MENU`, `CMD_ROLLBACK_STATE`), keeps what it does not bind,
/// reports what it cannot take; a broken one changes nothing.
#[test]
fn the_installs_play_keys_map_lays_its_commands_over_the_bindings() {
    use iron3d_formats::config::key_map::KeyMap;
    let tmp = demo_install();
    let game = tmp.path().join("game");
    assert!(game.join("addition.man").exists());
    assert_eq!(Bindings::of_install(&game, &[]), Bindings::default());
    let map = "CMD_GAME_MENU SCAN_NULL SCAN_F3\r\n\
CMD_ROLLBACK_STATE SCAN_NULL SCAN_ESC\r\n\
CMD_JAMES_MISSION_OBJ SCAN_LSHIFT SCAN_F12\r\n\
CMD_QUICK_SAVE SCAN_NULL SCAN_F7\r\n";
    let (bindings, problems) =
        Bindings::default().with_key_map(&KeyMap::parse(map.as_bytes()).unwrap());
    use PlayerAction as A;
    assert_eq!(
        inputs_of(&bindings, A::Menu),
        [Input::Key(KeyCode::F3), Input::Key(KeyCode::Escape)]
    );
    assert_eq!(
        inputs_of(&bindings, A::Objectives),
        inputs_of(&Bindings::default(), A::Objectives)
    );
    assert_eq!(
        problems,
        ["line 3: Objectives: the chord SCAN_LSHIFT + SCAN_F12 is not bound here"]
    );
    // Through the install's layers: a mod's key map wins, a broken one
    // leaves the bindings before it.
    let mods = tempfile::tempdir().unwrap();
    std::fs::write(mods.path().join("ADDITION.MAN"), map).unwrap();
    let layered = Bindings::of_install(&game, &[mods.path().to_path_buf()]);
    assert_eq!(layered, bindings);
    std::fs::write(
        mods.path().join("ADDITION.MAN"),
        "CMD_GAME_MENU SCAN_F3\r\n",
    )
    .unwrap();
    let broken = Bindings::of_install(&game, &[mods.path().to_path_buf()]);
    assert_eq!(broken, Bindings::default());
}

#[test]
fn scan_names_map_to_the_keys_of_their_families() {
    let key = |name| scan_input(name);
    assert_eq!(key("SCAN_A"), Some(Input::Key(KeyCode::KeyA)));
    assert_eq!(key("SCAN_Z"), Some(Input::Key(KeyCode::KeyZ)));
    assert_eq!(key("SCAN_W_1"), Some(Input::Key(KeyCode::Digit1)));
    assert_eq!(key("SCAN_F12"), Some(Input::Key(KeyCode::F12)));
    assert_eq!(key("SCAN_ESC"), Some(Input::Key(KeyCode::Escape)));
    assert_eq!(key("SCAN_G_PLUS"), Some(Input::Key(KeyCode::NumpadAdd)));
    assert_eq!(key("SCAN_G_0"), Some(Input::Key(KeyCode::Numpad0)));
    assert_eq!(key("SCAN_LMOUSE"), Some(Input::Mouse(MouseButton::Left)));
    for unknown in [
        "SCAN_F13",
        "SCAN_F0",
        "SCAN_W_10",
        "SCAN_MOUSE_X",
        "SCAN_NULL",
        "A",
    ] {
        assert_eq!(key(unknown), None, "{unknown}");
    }
}

#[test]
fn without_input_the_hero_stands_and_behavior_leaves_it_alone() {
    let tmp = demo_install();
    let mut app = app(tmp.path());
    let hero = hero(&mut app);
    let start = app.world().get::<Transform>(hero).unwrap().translation;
    steps(&mut app, 600);
    let state = app.world().get::<PhysicalState>(hero).unwrap();
    assert_eq!(state.requested, Vec3::ZERO);
    let orders = app.world().get::<iron3d_behavior::Orders>(hero).unwrap();
    assert!(
        orders.current().is_none(),
        "no engagement for a piloted unit"
    );
    let moved = app.world().get::<Transform>(hero).unwrap().translation - start;
    assert!(
        Vec2::new(moved.x, moved.z).length() < 0.5,
        "it stands: {moved}"
    );
}

#[test]
fn the_view_cycles_its_places_and_zoom_stays_within_its_steps() {
    let mut view = PlayerView::default();
    let at = Transform::default();
    let mut seen = vec![view.mode];
    for _ in 0..5 {
        view.cycle(at);
        seen.push(view.mode);
    }
    use ViewMode::*;
    assert_eq!(
        seen,
        [Cockpit, Outer(0), Outer(1), Outer(2), Outer(3), Cockpit]
    );
    assert!(
        (vertical_fov(COCKPIT_FOV, 4.0 / 3.0) - 2.0 * (0.65f32.tan() * 0.75).atan()).abs() < 1e-6
    );
    let mut zoomed = PlayerView::default();
    for _ in 0..20 {
        zoomed.zoom(true);
    }
    assert!(
        (zoomed.fov() - NARROWEST_FOV).abs() < 1e-6,
        "{}",
        zoomed.fov()
    );
    zoomed.zoom(false);
    assert!((zoomed.fov() - 0.3).abs() < 1e-6);
    view.toggle_debug();
    view.cycle(at);
    assert_eq!(view.mode, Debug, "the debug camera does not cycle");
    // Ahead places look back at the hero.
    let hero = Transform::from_xyz(10.0, 0.0, 5.0);
    let ahead = outer(&hero, 2.0, 2);
    assert!((ahead.translation - hero.translation).dot(Vec3::NEG_Z) > 0.0);
    assert!((ahead.rotation * Vec3::NEG_Z).dot(Vec3::Z) > 0.0);
}

/// One step of `Pilot::step` with `held` held and `pressed` just pressed.
fn pilot_step(pilot: &mut Pilot, held: &[PlayerAction], pressed: &[PlayerAction], dt: f32) -> Vec3 {
    let mut input = StepInput::default();
    for &a in held {
        input.held.set(a, true);
    }
    for &a in pressed {
        input.pressed.set(a, true);
        input.held.set(a, true);
    }
    pilot.step(&input, 1.0, 2, dt).0
}

#[test]
fn the_keypad_cruise_drives_the_hull_when_no_walk_key_does() {
    use PlayerAction::*;
    let mut pilot = Pilot::new(None);
    assert_eq!(
        pilot_step(&mut pilot, &[], &[CruiseFull], 0.1),
        Vec3::Y,
        "* full ahead"
    );
    assert_eq!(pilot_step(&mut pilot, &[], &[], 0.1), Vec3::Y, "it holds");
    // `-` held for 2 s takes 0.05 a second off.
    for _ in 0..20 {
        pilot_step(&mut pilot, &[CruiseLess], &[], 0.1);
    }
    assert!((pilot.cruise - 0.9).abs() < 1e-5, "{}", pilot.cruise);
    // A walk key wins over the cruise; letting go gives it back.
    assert_eq!(pilot_step(&mut pilot, &[WalkBack], &[], 0.1), Vec3::NEG_Y);
    assert!((pilot_step(&mut pilot, &[], &[], 0.1).y - 0.9).abs() < 1e-5);
    assert_eq!(
        pilot_step(&mut pilot, &[], &[CruiseStop], 0.1),
        Vec3::ZERO,
        "/ stops"
    );
    // Weapon keys past the guns it has select nothing; the next key cycles.
    pilot_step(&mut pilot, &[], &[Weapon4], 0.1);
    assert_eq!(pilot.weapon, 0);
    pilot_step(&mut pilot, &[], &[NextWeapon], 0.1);
    pilot_step(&mut pilot, &[], &[NextWeapon], 0.1);
    pilot_step(&mut pilot, &[], &[NextWeapon], 0.1);
    assert_eq!(pilot.weapon, 1, "0 -> 1 -> 2 -> 1");
}

/// In the test arena (the hero alone on flat ground, no bunker around
/// it), W walks the hero straight ahead and nothing else moves it.
#[test]
fn in_the_arena_w_walks_the_lone_hero_straight_ahead() {
    use iron3d_world::test_support::{Arena, Side, What, running_arena};
    let arena = Arena::default().with(What::Hero, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, _ids) = running_arena(&arena, PilotedSimulation);
    let hero = hero(&mut app);
    steps(&mut app, 5);
    let start = *app.world().get::<Transform>(hero).unwrap();
    let forward = start.rotation * Vec3::NEG_Z;
    KeyCode::KeyW.press(app.world_mut());
    steps(&mut app, 60);
    let end = app.world().get::<Transform>(hero).unwrap().translation;
    let moved = end - start.translation;
    let ahead = moved.dot(forward);
    let aside = (moved - forward * ahead).with_y(0.0).length();
    assert!(ahead > 3.0, "two seconds of walking: {ahead} m ahead");
    assert!(aside < 0.05 * ahead, "straight ahead: {aside} m aside");
    assert!(
        angle_gap(heading(&app, hero), heading_of(&start)) < 0.01,
        "no turn"
    );
}

/// The heading of `transform` about the up axis, rad (+ left).
fn heading_of(transform: &Transform) -> f32 {
    let forward = transform.rotation * Vec3::NEG_Z;
    (-forward.x).atan2(-forward.z)
}
