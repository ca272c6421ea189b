//! The camera rig: actions, bindings, the free and orbit modes, and the
//! system that moves the [`MissionCamera`] by real time.

use crate::SelectedObject;
use crate::controller::{
    angles_of, angles_of_direction, clamp_pitch, free_step, orbit_eye, rotation, wrap_yaw,
};
use bevy::prelude::*;
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::Phase;
use iron3d_world::ObjectRegistry;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;

/// What the player can do with the camera.
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum CameraAction {
    /// Free: fly forward/back (y) and strafe (x). Orbit: turn around the
    /// target.
    #[actionlike(DualAxis)]
    Move,
    /// Free: up/down. Orbit: closer (+) / farther (-).
    #[actionlike(Axis)]
    Rise,
    /// Turn the view (mouse motion, in pixels).
    #[actionlike(DualAxis)]
    Look,
    /// Wheel notches: free flies forward, orbit changes the distance.
    #[actionlike(Axis)]
    Zoom,
    /// Held: faster movement.
    Speed,
    /// Free <-> orbit.
    SwitchMode,
}

/// The default keyboard and mouse bindings.
pub fn default_input_map() -> InputMap<CameraAction> {
    InputMap::default()
        .with_dual_axis(CameraAction::Move, VirtualDPad::wasd())
        .with_dual_axis(CameraAction::Move, VirtualDPad::arrow_keys())
        .with_axis(
            CameraAction::Rise,
            VirtualAxis::new(KeyCode::KeyQ, KeyCode::KeyE),
        )
        .with_dual_axis(
            CameraAction::Look,
            DualAxislikeChord::new(MouseButton::Right, MouseMove::default()),
        )
        .with_axis(CameraAction::Zoom, MouseScrollAxis::Y)
        .with(CameraAction::Speed, ModifierKey::Shift)
        .with(CameraAction::SwitchMode, KeyCode::Tab)
}

/// Which camera drives the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
pub enum CameraMode {
    #[default]
    Free,
    Orbit,
}

/// Speeds and limits of the cameras (real time).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Reflect)]
pub struct CameraSettings {
    /// Free flight, units per second.
    pub move_speed: f32,
    /// Factor while [`CameraAction::Speed`] is held.
    pub fast_factor: f32,
    /// Radians per pixel of mouse motion.
    pub look_sensitivity: f32,
    /// Orbit turn by the move keys, radians per second.
    pub orbit_rate: f32,
    /// Free: units flown per wheel notch. Orbit: fraction of the distance
    /// per notch.
    pub zoom_step: f32,
    pub min_distance: f32,
    pub max_distance: f32,
    /// Orbit distance when switching to orbit with nothing selected.
    pub default_distance: f32,
}

impl Default for CameraSettings {
    fn default() -> Self {
        Self {
            move_speed: 60.0,
            fast_factor: 4.0,
            look_sensitivity: 0.005,
            orbit_rate: 1.5,
            zoom_step: 0.1,
            min_distance: 2.0,
            max_distance: 4000.0,
            default_distance: 150.0,
        }
    }
}

/// The controller state on the camera entity.
#[derive(Component, Debug, Clone, PartialEq, Reflect)]
pub struct CameraRig {
    pub mode: CameraMode,
    /// Heading, radians, `[-π, π)`.
    pub yaw: f32,
    /// Pitch, radians, clamped.
    pub pitch: f32,
    /// The eye (free mode; in orbit mode derived from the target).
    pub eye: Vec3,
    /// Orbit: the point looked at when nothing is selected.
    pub focus: Vec3,
    /// Orbit distance.
    pub distance: f32,
    /// The transform this rig wrote last; any other value means another
    /// system placed the camera and the rig re-reads it.
    written: Option<Transform>,
}

impl CameraRig {
    /// A rig taking over a camera at `transform`.
    pub fn from_transform(transform: &Transform, distance: f32) -> Self {
        let mut rig = Self {
            mode: CameraMode::Free,
            yaw: 0.0,
            pitch: 0.0,
            eye: Vec3::ZERO,
            focus: Vec3::ZERO,
            distance,
            written: None,
        };
        rig.adopt(transform);
        rig
    }

    /// Takes the pose of `transform` (eye and angles) as its own.
    fn adopt(&mut self, transform: &Transform) {
        (self.yaw, self.pitch) = angles_of(transform.rotation);
        self.eye = transform.translation;
        self.focus = self.eye + self.forward() * self.distance;
        self.written = Some(*transform);
    }

    /// The view direction.
    pub fn forward(&self) -> Vec3 {
        rotation(self.yaw, self.pitch) * Vec3::NEG_Z
    }

    /// Switches mode. Entering orbit turns the view to `target` (or keeps
    /// looking at the point ahead at the orbit distance) from where the eye
    /// is; leaving it keeps eye and angles.
    pub fn switch_mode(&mut self, target: Option<Vec3>, settings: &CameraSettings) {
        match self.mode {
            CameraMode::Free => {
                let focus = target.unwrap_or(self.eye + self.forward() * self.distance);
                let offset = focus - self.eye;
                if offset.length() > f32::EPSILON {
                    (self.yaw, self.pitch) = angles_of_direction(offset);
                    self.distance = offset
                        .length()
                        .clamp(settings.min_distance, settings.max_distance);
                }
                self.focus = focus;
                self.mode = CameraMode::Orbit;
            }
            CameraMode::Orbit => self.mode = CameraMode::Free,
        }
    }

    /// One frame of input over `seconds` of real time.
    pub fn apply(&mut self, input: &CameraInput, settings: &CameraSettings, seconds: f32) {
        let speed = if input.fast {
            settings.move_speed * settings.fast_factor
        } else {
            settings.move_speed
        };
        let look = input.look * settings.look_sensitivity;
        match self.mode {
            CameraMode::Free => {
                self.turn(-look.x, -look.y);
                self.eye =
                    free_step(
                        self.eye,
                        self.yaw,
                        self.pitch,
                        input.planar,
                        input.rise,
                        speed,
                        seconds,
                    ) + self.forward() * input.zoom * settings.zoom_step * settings.move_speed;
            }
            CameraMode::Orbit => {
                let keys = input.planar * settings.orbit_rate * seconds;
                // A/D carry the eye left/right around the target, W/S over it.
                self.turn(-look.x + keys.x, -look.y - keys.y);
                let scale = (1.0 - settings.zoom_step).powf(input.zoom)
                    * (1.0 - input.rise * seconds).max(0.1);
                self.distance =
                    (self.distance * scale).clamp(settings.min_distance, settings.max_distance);
                self.eye = orbit_eye(self.focus, self.yaw, self.pitch, self.distance);
            }
        }
    }

    fn turn(&mut self, yaw: f32, pitch: f32) {
        self.yaw = wrap_yaw(self.yaw + yaw);
        self.pitch = clamp_pitch(self.pitch + pitch);
    }

    /// The camera transform of the rig.
    pub fn transform(&self) -> Transform {
        Transform::from_translation(self.eye).with_rotation(rotation(self.yaw, self.pitch))
    }
}

/// One frame's camera input, read from the action state.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CameraInput {
    pub planar: Vec2,
    pub rise: f32,
    pub look: Vec2,
    pub zoom: f32,
    pub fast: bool,
}

impl CameraInput {
    /// Whether nothing asks the camera to move.
    pub fn is_idle(&self) -> bool {
        self.planar == Vec2::ZERO && self.rise == 0.0 && self.look == Vec2::ZERO && self.zoom == 0.0
    }

    /// The camera input of an action state.
    pub fn read(actions: &ActionState<CameraAction>) -> Self {
        Self {
            planar: actions.clamped_axis_pair(&CameraAction::Move),
            rise: actions.clamped_value(&CameraAction::Rise),
            look: actions.axis_pair(&CameraAction::Look),
            zoom: actions.value(&CameraAction::Zoom),
            fast: actions.pressed(&CameraAction::Speed),
        }
    }
}

/// The action states (this frame's input snapshot of the camera) are
/// updated in [`Phase::BuildInputSnapshot`]; the rig moves the camera in
/// [`Phase::PublishRenderSnapshot`], before transforms propagate.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<CameraAction>::default())
        .configure_sets(
            PreUpdate,
            InputManagerSystem::Update.in_set(Phase::BuildInputSnapshot),
        )
        .init_resource::<CameraSettings>()
        .init_resource::<DebugCamera>()
        .register_type::<CameraRig>()
        .add_systems(
            PostUpdate,
            (attach_rig, drive_camera.run_if(debug_camera_on))
                .chain()
                .in_set(CameraSystems)
                .in_set(Phase::PublishRenderSnapshot),
        );
}

/// The debug cameras' systems in `Phase::PublishRenderSnapshot`: another
/// view that places the camera runs after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CameraSystems;

/// Whether the free and orbit cameras drive the view (true until a
/// player view takes it: see the player plugin's cockpit and outer
/// cameras).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Reflect)]
pub struct DebugCamera(pub bool);

impl Default for DebugCamera {
    fn default() -> Self {
        Self(true)
    }
}

fn debug_camera_on(debug: Res<DebugCamera>) -> bool {
    debug.0
}

/// Gives a new mission camera its rig and bindings, starting from its
/// current pose.
/// Mission cameras that have no rig yet.
type UnriggedCameras<'w, 's> =
    Query<'w, 's, (Entity, &'static Transform), (With<MissionCamera>, Without<CameraRig>)>;

fn attach_rig(mut commands: Commands, settings: Res<CameraSettings>, cameras: UnriggedCameras) {
    for (entity, transform) in &cameras {
        commands.entity(entity).insert((
            CameraRig::from_transform(transform, settings.default_distance),
            default_input_map(),
        ));
    }
}

/// The world position of the selected object, when it is alive.
fn selected_position(
    selected: &SelectedObject,
    registry: &ObjectRegistry,
    positions: &Query<&GlobalTransform>,
) -> Option<Vec3> {
    let entity = registry.entity(selected.0?).ok()?;
    positions.get(entity).ok().map(GlobalTransform::translation)
}

/// Moves each rigged camera by this frame's input over real time.
fn drive_camera(
    time: Res<Time<Real>>,
    settings: Res<CameraSettings>,
    selected: Res<SelectedObject>,
    registry: Res<ObjectRegistry>,
    positions: Query<&GlobalTransform>,
    mut cameras: Query<(&mut Transform, &mut CameraRig, &ActionState<CameraAction>)>,
) {
    let target = selected_position(&selected, &registry, &positions);
    for (mut transform, mut rig, actions) in &mut cameras {
        if rig.written != Some(*transform) {
            rig.adopt(&transform);
        }
        let switched = actions.just_pressed(&CameraAction::SwitchMode);
        if switched {
            rig.switch_mode(target, &settings);
        }
        let input = CameraInput::read(actions);
        if rig.mode == CameraMode::Free && !switched && input.is_idle() {
            continue; // an idle free camera keeps its pose bit for bit
        }
        if let (CameraMode::Orbit, Some(target)) = (rig.mode, target) {
            rig.focus = target;
        }
        rig.apply(&input, &settings, time.delta_secs());
        let next = rig.transform();
        if *transform != next {
            *transform = next;
        }
        rig.written = Some(next);
    }
}
