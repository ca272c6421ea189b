//! The player's view on the mission camera, on the first demo mission:
//! the cockpit eye on the hero's turret looking along its aim, zoom, the
//! outer place eased in, and F4 handing the camera to the debug cameras.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use iron3d_behavior::BehaviorPlugin;
use iron3d_combat::{CombatPlugin, Weapons};
use iron3d_control::{Body, ControlPlugin, PhysicalState, Piloted};
use iron3d_input::PlayerViewPlugin;
use iron3d_player::view::{COCKPIT_FOV, outer};
use iron3d_player::*;
use iron3d_render::camera::MissionCamera;
use iron3d_world::mission::{Armament, Hero};
use iron3d_world::test_support::{demo_install, running_test_app};
use leafwing_input_manager::prelude::*;

/// The first demo mission with the simulation, simulated devices and the
/// player's view (without the debug cameras' own keys).
fn app() -> (tempfile::TempDir, App) {
    let tmp = demo_install();
    let app = running_test_app(
        tmp.path().join("game"),
        (
            ControlPlugin,
            BehaviorPlugin,
            CombatPlugin,
            PlayerPlugin,
            InputPlugin,
            PlayerInputPlugin,
            PlayerViewPlugin,
        ),
    );
    (tmp, app)
}

fn hero(app: &mut App) -> Entity {
    let mut heroes = app
        .world_mut()
        .query_filtered::<Entity, (With<Hero>, With<Piloted>)>();
    heroes.single(app.world()).expect("one piloted hero")
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

fn requested(app: &App, hero: Entity) -> Vec3 {
    app.world().get::<PhysicalState>(hero).unwrap().requested
}

/// A mission camera as the render plugin spawns it (a perspective
/// projection at 16:9).
fn spawn_camera(app: &mut App) -> Entity {
    let projection = Projection::Perspective(PerspectiveProjection {
        aspect_ratio: 16.0 / 9.0,
        ..default()
    });
    app.world_mut()
        .spawn((MissionCamera, Transform::default(), projection))
        .id()
}

fn camera(app: &App, camera: Entity) -> (Transform, f32) {
    let t = *app.world().get::<Transform>(camera).unwrap();
    let Projection::Perspective(p) = app.world().get::<Projection>(camera).unwrap() else {
        panic!("a perspective camera");
    };
    (t, p.fov)
}

#[test]
fn the_cockpit_camera_sits_on_the_turret_and_looks_along_its_aim() {
    let (_tmp, mut app) = app();
    let hero = hero(&mut app);
    // The render plugin gives every object root a visibility.
    app.world_mut()
        .entity_mut(hero)
        .insert(Visibility::Inherited);
    let cam = spawn_camera(&mut app);
    steps(&mut app, 2);
    let (t, fov) = camera(&app, cam);
    let transform = *app.world().get::<Transform>(hero).unwrap();
    let armament = app.world().get::<Armament>(hero).unwrap();
    let turret = &armament.turrets[0];
    let eye = turret.eye.expect("the demo turret has a CameraCenter");
    let aim = app.world().get::<Weapons>(hero).unwrap().turrets[0];
    let expected = transform
        .transform_point(turret.centre + Quat::from_rotation_y(aim.yaw) * (eye - turret.centre));
    assert!(
        t.translation.distance(expected) < 1e-4,
        "{t:?} vs {expected}"
    );
    let look = t.rotation * Vec3::NEG_Z;
    assert!(look.angle_between(transform.rotation * aim.direction()) < 1e-4);
    // Horizontal 1.3 rad at 16:9.
    let horizontal = 2.0 * ((fov / 2.0).tan() * 16.0 / 9.0).atan();
    assert!((horizontal - COCKPIT_FOV).abs() < 1e-4, "{horizontal}");
    assert_eq!(
        app.world().get::<Visibility>(hero),
        Some(&Visibility::Hidden)
    );

    // Zoom narrows the view by 0.1 a step.
    KeyCode::KeyZ.press(app.world_mut());
    steps(&mut app, 1);
    KeyCode::KeyZ.release(app.world_mut());
    steps(&mut app, 1);
    let (_, fov) = camera(&app, cam);
    let horizontal = 2.0 * ((fov / 2.0).tan() * 16.0 / 9.0).atan();
    assert!((horizontal - 1.2).abs() < 1e-4, "{horizontal}");

    // The outer camera eases to its first place behind and above.
    KeyCode::KeyC.press(app.world_mut());
    steps(&mut app, 1);
    KeyCode::KeyC.release(app.world_mut());
    assert_eq!(
        app.world().resource::<PlayerView>().mode,
        ViewMode::Outer(0)
    );
    steps(&mut app, 40);
    let (t, _) = camera(&app, cam);
    let transform = *app.world().get::<Transform>(hero).unwrap();
    let radius = app.world().get::<Body>(hero).unwrap().radius;
    assert!(
        t.translation
            .distance(outer(&transform, radius, 0).translation)
            < 1e-3
    );
    let back = transform.rotation * Vec3::Z;
    assert!(
        (t.translation - transform.translation).dot(back) > 0.0,
        "behind"
    );
    assert_eq!(
        app.world().get::<Visibility>(hero),
        Some(&Visibility::Inherited)
    );

    // F4: the debug camera has the view and the keys; the hero stands.
    KeyCode::F4.press(app.world_mut());
    steps(&mut app, 1);
    KeyCode::F4.release(app.world_mut());
    assert_eq!(app.world().resource::<PlayerView>().mode, ViewMode::Debug);
    let before = camera(&app, cam).0;
    KeyCode::KeyW.press(app.world_mut());
    steps(&mut app, 5);
    assert_eq!(
        camera(&app, cam).0,
        before,
        "the player view leaves the camera"
    );
    assert_eq!(requested(&app, hero), Vec3::ZERO, "W is the debug camera's");
}
