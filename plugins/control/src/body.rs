//! Bodies: what each object collides as, and the physical state of the
//! ones that move.
//!
//! Rules (docs/facts.md "Control"):
//! - An object whose root carries a [`Controller`] is a mover: a sphere
//!   around its level-0 geometry ([`BodyBounds`]), centred on the box,
//!   radius half its diagonal, held to 7.5 when under 20 (openparkan
//!   `docs/24-motion.md`). Ground-bound movers stand on their origin (the
//!   foot point of their models).
//! - Every other object is a static body: the box of its level-0
//!   geometry. The original's separate physical model
//!   (`LoadPhysicalModel`) has no proven layout yet, so the visible model's
//!   own slot boxes stand for it.

use crate::backend::{self, Shape};
use crate::motion::StepStart;
use bevy::prelude::*;
use iron3d_formats::proto::ctld::{ControlMode, ControlParams};
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{BodyBounds, Controller, Drive, NodeLife};
use iron3d_world::{ObjectRegistry, PendingDelete};

/// The state bits of a mover.
#[derive(
    Reflect, Debug, Clone, Copy, PartialEq, Eq, Default, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct MotionFlags(pub u32);

impl MotionFlags {
    /// Standing on a walkable face.
    pub const ON_GROUND: u32 = 1;
    /// In the air under gravity.
    pub const FALLING: u32 = 2;
    /// Its controller has no ground contact: it never falls.
    pub const FLYER: u32 = 4;
    /// Its last move was stopped (a cliff, no ground ahead).
    pub const BLOCKED: u32 = 8;
    /// Inside the soft band of the map edge.
    pub const AT_EDGE: u32 = 16;

    pub fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
    pub fn set(&mut self, bit: u32, on: bool) {
        if on {
            self.0 |= bit;
        } else {
            self.0 &= !bit;
        }
    }
}

/// The one input and output of Control for a moving object (tome VI
/// `PhysicalState`): velocities in the world frame (Bevy axes, m/s and
/// rad/s), the request in the body's own axes as the original counts them
/// (`x` right, `y` forward, `z` up, each -1..1; `turn` -1..1, + turns the
/// nose left), and the state bits. The transform is the object's own.
/// Behavior and the player write only `requested` and `turn`.
#[derive(
    Component, Reflect, Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct PhysicalState {
    pub linear_velocity: Vec3,
    pub angular_velocity: Vec3,
    pub requested: Vec3,
    pub turn: f32,
    pub flags: MotionFlags,
    /// The normal of the face it stands on (world frame), `Y` off ground.
    pub ground_normal: Vec3,
    /// The ground face it stands on (an index of [`GroundFaces`]); `None`
    /// off the ground.
    ///
    /// [`GroundFaces`]: crate::GroundFaces
    pub face: Option<u32>,
}

/// A mover's real velocity over the last step ([`StepStart::real_velocity`])
/// in the map frame (Z up), as reports and the inspector print it (the
/// axis swap of `z_up_to_y_up` undone; no negative zeros); none for an
/// object that is not a mover.
pub fn map_velocity(world: &World, entity: Entity) -> Option<[f32; 3]> {
    let state = world.get::<PhysicalState>(entity)?;
    let now = world.get::<Transform>(entity)?.translation;
    let v = match (
        world.get::<StepStart>(entity),
        world.get_resource::<GameClock>(),
    ) {
        (Some(step), Some(clock)) => step.real_velocity(state, now, clock.timestep().as_secs_f32()),
        _ => state.linear_velocity,
    };
    // Adding +0 turns -0 into +0.
    Some([v.x, -v.z, v.y].map(|c| c + 0.0))
}

/// A body a person drives (the player's hero): its [`PhysicalState`]
/// request comes from the player's input alone; Behavior neither steers
/// it nor gives it targets.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component)]
pub struct Piloted;

/// The live limits of a controller (GAMEPLAY §2 "Live limits"): `E` the
/// engines' drive times condition, `r` the spare payload over the payload.
/// Per body axis (`x` right, `y` forward, `z` up).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub struct LiveLimits {
    /// m/s per s: twice the file's acceleration.
    pub acceleration: Vec3,
    /// m/s: top × ground factor × E × (1 + r) / 2, capped at the file's top.
    pub top_speed: Vec3,
    /// rad/s: turn × E × (1.5 r + 0.5).
    pub turn_rate: Vec3,
}

/// Every shipped surface has ground speed factor 1.
const GROUND_FACTOR: f32 = 1.0;

impl LiveLimits {
    /// The limits of `params` for drive `engines` (E) and spare payload
    /// ratio `spare` (r, held to 0..1).
    pub fn new(params: &ControlParams, engines: f32, spare: f32) -> Self {
        let r = spare.clamp(0.0, 1.0);
        let top = Vec3::from(params.top_speed);
        Self {
            acceleration: Vec3::from(params.acceleration) * 2.0,
            top_speed: (top * GROUND_FACTOR * engines * (1.0 + r) / 2.0).min(top),
            turn_rate: Vec3::from(params.turn_rate) * engines * (1.5 * r + 0.5),
        }
    }
}

/// A mover's body.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Collision sphere centre in the object's frame.
    pub centre: Vec3,
    pub radius: f32,
    /// kg, for sharing push-outs.
    pub mass: f32,
    /// False for flyers.
    pub holds_ground: bool,
    /// False when its controller has no states to move in: the integrator
    /// refuses its requests ([`Controller::can_move`]).
    pub can_move: bool,
    pub limits: LiveLimits,
    pub brakes_on_slopes: bool,
    /// rad.
    pub slope_cone: f32,
}

/// An object that never moves on its own but collides (`None`: no
/// geometry, nothing to collide with).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct StaticBody(pub Option<BodyBounds>);

/// The radius of a mover whose model has no geometry.
// STAND-IN: 0.5 m, any small sphere (no source: every retail mover has
// geometry); settled by a retail controller on a geometry-less model.
const BARE_RADIUS: f32 = 0.5;
/// Radii under [`RADIUS_KEPT`] are held to at most this.
const RADIUS_HELD: f32 = 7.5;
const RADIUS_KEPT: f32 = 20.0;
/// The least mass a body shares push-outs by: a machine whose nodes carry
/// no density still pushes like a kilogram, not like nothing.
// STAND-IN: 1 kg, so that two massless bodies still share a push-out
// (docs/24 "Collision between objects" divides by the masses); settled by
// a retail pair of bodies without density colliding.
const LEAST_MASS: f32 = 1.0;

impl LiveLimits {
    /// The live limits of `controller` driven by `drive` at the condition
    /// `life` (GAMEPLAY §2 "Live limits").
    pub fn of(controller: &Controller, drive: &Drive, life: &NodeLife) -> Self {
        Self::new(&controller.params, drive.engines(life), drive.spare())
    }
}

impl Body {
    /// The body of a controller over `bounds` (already scaled), weighing
    /// and driven as `drive` says at the condition `life`.
    pub fn new(
        controller: &Controller,
        drive: &Drive,
        life: &NodeLife,
        bounds: Option<BodyBounds>,
    ) -> Self {
        let (centre, radius) = match bounds {
            Some(b) => {
                let size = b.max - b.min;
                // STAND-IN: one sphere round the box of every level-0 slot
                // box (docs/24 "Finding the ground" joins one sphere per
                // node box); settled by comparing our radii with the
                // page's measured ones (hero 2.18).
                let r = size.length() / 2.0;
                let r = if r < RADIUS_KEPT {
                    r.min(RADIUS_HELD)
                } else {
                    r
                };
                ((b.min + b.max) / 2.0, r.max(0.01))
            }
            None => (Vec3::ZERO, BARE_RADIUS),
        };
        let params = &controller.params;
        Self {
            centre,
            radius,
            mass: drive.mass_kg.max(LEAST_MASS),
            holds_ground: controller.holds_ground,
            can_move: controller.can_move(),
            limits: LiveLimits::of(controller, drive, life),
            brakes_on_slopes: params.mode == ControlMode::BrakeOnSlopes,
            slope_cone: params.slope_cone,
        }
    }
}

/// The bounds under the object's placed scale.
fn scaled(bounds: BodyBounds, scale: Vec3) -> BodyBounds {
    let (a, b) = (bounds.min * scale, bounds.max * scale);
    BodyBounds {
        min: a.min(b),
        max: a.max(b),
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.register_type::<PhysicalState>().add_systems(
        FixedUpdate,
        (attach_bodies, refresh_limits)
            .chain()
            .in_set(iron3d_schedules::SimStep::Attach),
    );
}

type Refreshed<'a> = (&'a Controller, &'a Drive, &'a NodeLife, &'a mut Body);
type DriveChanged = Or<(Changed<Drive>, Changed<NodeLife>)>;

/// Recomputes the live limits of every mover whose condition or drive
/// changed (damage, a part coming off). Each body's limits depend on its
/// own object only, so the order does not matter.
fn refresh_limits(mut movers: Query<Refreshed, DriveChanged>) {
    for (controller, drive, life, mut body) in &mut movers {
        let limits = LiveLimits::of(controller, drive, life);
        body.set_if_neq(Body { limits, ..*body });
    }
}

type Attachable<'a> = (
    &'a Transform,
    Option<(&'a Controller, &'a Drive, &'a NodeLife)>,
    Option<Ref<'a, BodyBounds>>,
    Has<Body>,
    Has<StaticBody>,
    Has<PendingDelete>,
);

/// Gives every registered object without one its body, in id order, and
/// rebuilds the body of one whose geometry changed (a part lost or
/// swapped): a mover keeps its physical state.
fn attach_bodies(
    registry: Res<ObjectRegistry>,
    objects: Query<Attachable>,
    mut commands: Commands,
) {
    for (id, entity) in registry.iter() {
        let Ok((transform, controller, bounds, has_body, has_static, pending)) =
            objects.get(entity)
        else {
            continue;
        };
        let changed = bounds.as_ref().is_some_and(|b| b.is_changed());
        if pending || ((has_body || has_static) && !changed) {
            continue;
        }
        let bounds = bounds.map(|b| scaled(*b, transform.scale));
        match controller {
            Some((controller, drive, life)) => {
                let body = Body::new(controller, drive, life, bounds);
                if !body.can_move && !has_body {
                    warn!(
                        "object {:#010x}: controller {} has no states: it stands where \
                         gravity puts it and refuses every move asked of it",
                        id.raw(),
                        controller.resource
                    );
                }
                let shape = Shape::Sphere {
                    centre: body.centre,
                    radius: body.radius,
                };
                backend::attach(&mut commands, entity, transform, shape, true);
                let mut entity = commands.entity(entity);
                entity.insert(body);
                if !has_body {
                    let mut state = PhysicalState::default();
                    state.flags.set(MotionFlags::FLYER, !body.holds_ground);
                    state.ground_normal = Vec3::Y;
                    // A loaded save's state stays.
                    let step = StepStart::at(transform.translation);
                    entity.insert_if_new((state, step));
                }
            }
            None => {
                if let Some(b) = bounds {
                    let shape = Shape::Box {
                        min: b.min,
                        max: b.max,
                    };
                    backend::attach(&mut commands, entity, transform, shape, false);
                }
                commands.entity(entity).insert(StaticBody(bounds));
            }
        }
    }
}

/// State-hash contributor: every mover's physical state in id order.
pub(crate) fn hash_bodies(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(state) = world.get::<PhysicalState>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        let vectors = [
            ("linear_velocity", state.linear_velocity),
            ("angular_velocity", state.angular_velocity),
            ("requested", state.requested),
            ("ground_normal", state.ground_normal),
        ];
        for (name, v) in vectors {
            hasher.field(name);
            v.to_array().iter().for_each(|&c| hasher.write_f32(c));
        }
        hasher.field("turn");
        hasher.write_f32(state.turn);
        hasher.field("flags");
        hasher.write_u32(state.flags.0);
        hasher.field("face");
        hasher.write_u32(state.face.unwrap_or(u32::MAX));
    }
}
