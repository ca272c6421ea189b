//! The camera rig in a headless app fed simulated keyboard input: it moves
//! on real time while the game clock is paused, starts from (and re-reads)
//! the pose another system gives the camera, and switches to an orbit
//! around the selected object.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use iron3d_input::{CameraMode, CameraRig, CameraSettings, IronInputPlugin, SelectedObject};
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::{GameClock, SpinePlugin, deny_simulation_ambiguities};
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldPlugin};
use leafwing_input_manager::prelude::*;
use std::time::Duration;

/// Real time per frame.
const FRAME: Duration = Duration::from_millis(50);

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        InputPlugin,
        TransformPlugin,
        SpinePlugin::default(),
        WorldPlugin,
        IronInputPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    deny_simulation_ambiguities(&mut app);
    app
}

fn spawn_camera(app: &mut App, transform: Transform) -> Entity {
    app.world_mut()
        .spawn((MissionCamera, transform, GlobalTransform::default()))
        .id()
}

fn camera(app: &App, entity: Entity) -> Transform {
    *app.world().get::<Transform>(entity).unwrap()
}

fn rig(app: &App, entity: Entity) -> CameraRig {
    app.world().get::<CameraRig>(entity).unwrap().clone()
}

/// Runs `frames` updates and returns the real seconds they covered.
fn run(app: &mut App, frames: usize) -> f32 {
    (0..frames)
        .map(|_| {
            app.update();
            app.world().resource::<Time<Real>>().delta_secs()
        })
        .sum()
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() < 1e-3
}

#[test]
fn the_free_camera_flies_on_real_time_while_the_game_is_paused() {
    let mut app = app();
    let start = Transform::from_xyz(0.0, 50.0, 0.0).looking_to(Vec3::NEG_Z, Vec3::Y);
    let cam = spawn_camera(&mut app, start);
    run(&mut app, 2);
    assert_eq!(camera(&app, cam), start, "no input: the pose is kept");

    app.world_mut().resource_mut::<GameClock>().pause();
    run(&mut app, 1);
    let tick = app.world().resource::<GameClock>().tick();
    let before = camera(&app, cam).translation;

    KeyCode::KeyW.press(app.world_mut());
    let seconds = run(&mut app, 10);
    assert!(seconds > 0.0);
    let speed = app.world().resource::<CameraSettings>().move_speed;
    let after = camera(&app, cam).translation;
    assert!(
        close(after, before + Vec3::NEG_Z * speed * seconds),
        "{before} -> {after} over {seconds} s"
    );
    assert_eq!(
        app.world().resource::<GameClock>().tick(),
        tick,
        "the game clock stayed paused"
    );

    // Shift makes it faster; releasing W stops it.
    ModifierKey::Shift.press(app.world_mut());
    let seconds = run(&mut app, 4);
    let fast = camera(&app, cam).translation;
    let factor = app.world().resource::<CameraSettings>().fast_factor;
    assert!(close(fast, after + Vec3::NEG_Z * speed * factor * seconds));
    KeyCode::KeyW.release(app.world_mut());
    run(&mut app, 3);
    let stopped = camera(&app, cam).translation;
    run(&mut app, 3);
    assert_eq!(camera(&app, cam).translation, stopped);
}

#[test]
fn the_rig_starts_from_and_follows_a_pose_placed_by_another_system() {
    let mut app = app();
    let cam = spawn_camera(&mut app, Transform::from_xyz(0.0, 200.0, 200.0));
    run(&mut app, 2);
    // The scene builder places the camera later (entering `Running`).
    let pose = Transform::from_xyz(-30.0, 80.0, 40.0).looking_at(Vec3::ZERO, Vec3::Y);
    *app.world_mut().get_mut::<Transform>(cam).unwrap() = pose;
    run(&mut app, 2);
    let now = camera(&app, cam);
    assert!(close(now.translation, pose.translation));
    assert!(close(*now.forward(), *pose.forward()));
    assert!(close(rig(&app, cam).forward(), *pose.forward()));
}

#[test]
fn switch_mode_orbits_the_selected_object() {
    let mut app = app();
    let target = Vec3::new(10.0, 0.0, -40.0);
    let object = app
        .world_mut()
        .spawn((OriginalObjectId(7), Transform::from_translation(target)))
        .id();
    app.world_mut()
        .resource_mut::<ObjectRegistry>()
        .register(OriginalObjectId(7), object)
        .unwrap();
    app.insert_resource(SelectedObject(Some(OriginalObjectId(7))));
    let eye = Vec3::new(0.0, 30.0, 0.0);
    let cam = spawn_camera(&mut app, Transform::from_translation(eye));
    run(&mut app, 2);
    assert_eq!(rig(&app, cam).mode, CameraMode::Free);

    KeyCode::Tab.press(app.world_mut());
    run(&mut app, 1);
    KeyCode::Tab.release(app.world_mut());
    run(&mut app, 1);
    let orbit = rig(&app, cam);
    assert_eq!(orbit.mode, CameraMode::Orbit);
    let now = camera(&app, cam);
    let distance = (target - eye).length();
    assert!(close(now.translation, eye), "the eye stays where it was");
    assert!(close(*now.forward(), (target - eye).normalize()));
    assert!((orbit.distance - distance).abs() < 1e-3);

    // D carries the eye around the target at the same distance.
    KeyCode::KeyD.press(app.world_mut());
    let seconds = run(&mut app, 6);
    KeyCode::KeyD.release(app.world_mut());
    run(&mut app, 1);
    let turned = rig(&app, cam);
    let now = camera(&app, cam);
    assert!(((now.translation - target).length() - distance).abs() < 1e-2);
    assert!(close(
        *now.forward(),
        (target - now.translation).normalize()
    ));
    let rate = app.world().resource::<CameraSettings>().orbit_rate;
    let turn = iron3d_input::controller::wrap_yaw(turned.yaw - orbit.yaw);
    assert!(
        (turn - rate * seconds).abs() < 1e-3,
        "{turn} vs {}",
        rate * seconds
    );

    // Tab again: back to free flight from the orbit pose.
    KeyCode::Tab.press(app.world_mut());
    run(&mut app, 1);
    assert_eq!(rig(&app, cam).mode, CameraMode::Free);
    assert!(close(camera(&app, cam).translation, now.translation));
}
