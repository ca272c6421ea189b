//! The one boundary to the collision backend, avian3d 0.7: its plugins run
//! in [`BackendSchedule`], which [`SimStep::Collide`](iron3d_schedules::SimStep::Collide)
//! runs once per simulation tick (so avian never steps on its own clock),
//! with its transform sync turned off: Control writes each body's
//! `Position`/`Rotation` from the object's `Transform` itself, and avian
//! moves nothing (every body is kinematic or static, with no velocity of its
//! own: motion is the controller's). What Control takes back is plain data:
//! [`Contact`]s. No avian type leaves this module.

use avian3d::collider_tree::ColliderTreeOptimization;
use avian3d::collision::collider::contact_query::contact;
use avian3d::physics_transform::PhysicsTransformConfig;
use avian3d::prelude::*;
use bevy::app::PluginGroupBuilder;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

/// The schedule avian's plugins live in, run from Control's backend step.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BackendSchedule;

/// The collision layers of tome VI's categories.
#[derive(PhysicsLayer, Clone, Copy, Debug, Default)]
pub enum Layer {
    #[default]
    Terrain,
    Buildings,
    Units,
    /// Rounds in flight (the combat issue).
    Rounds,
}

pub(crate) fn plugin(app: &mut App) {
    // Read while the plugins build: set first.
    app.insert_resource(PhysicsTransformConfig {
        propagate_before_physics: false,
        transform_to_position: false,
        position_to_transform: false,
        transform_to_collider_scale: false,
    })
    .init_schedule(BackendSchedule)
    .edit_schedule(BackendSchedule, |schedule| {
        schedule.set_executor(SingleThreadedExecutor::new());
    })
    .add_plugins(collision_plugins())
    .insert_resource(Gravity(Vec3::ZERO))
    // The collider trees are optimised on the step's own thread: the same
    // work as avian's async task, without waking a pool thread and
    // blocking on it every tick (a third of a headless run's time).
    .insert_resource(ColliderTreeOptimization {
        use_async_tasks: false,
        ..default()
    })
    .add_systems(
        FixedUpdate,
        (unscale_new_colliders, step_backend)
            .chain()
            .in_set(iron3d_schedules::SimStep::Collide),
    );
}

/// The part of avian3d Control uses: collider bounds and their tree, the
/// broad and narrow phase, and the transforms they read. Its solver,
/// integrator, joints, sleeping, continuous detection, spatial queries and
/// interpolation are left out (bodies are moved by Control, not by forces;
/// the combat issue adds spatial queries back when rounds cast rays). The
/// solver's schedule plugin stays for the order of avian's step sets alone:
/// without it the collision systems' order is ambiguous and avian's
/// schedule refuses to build.
fn collision_plugins() -> PluginGroupBuilder {
    let schedule = BackendSchedule;
    PluginGroupBuilder::start::<PhysicsPlugins>()
        .add(PhysicsSchedulePlugin::new(schedule.clone()))
        .add(MassPropertyPlugin::new(schedule.clone()))
        .add(ColliderHierarchyPlugin)
        .add(ColliderTransformPlugin::new(schedule.clone()))
        .add(ColliderBackendPlugin::<Collider>::new(schedule.clone()))
        .add(ColliderTreePlugin::<Collider>::default())
        .add(NarrowPhasePlugin::<Collider>::default())
        .add(BroadPhaseCorePlugin)
        .add(BvhBroadPhasePlugin::<()>::default())
        .add(SolverSchedulePlugin)
        .add(PhysicsTransformPlugin::new(schedule))
}

/// Avian scales a collider by its entity's global scale when it is
/// inserted; Control's shapes are already in world size (the placed scale
/// applied), so a new or replaced collider is set back to scale 1 before
/// its first step (a sphere scaled even by a rounding error off 1 would
/// become a polyhedron).
fn unscale_new_colliders(mut colliders: Query<&mut Collider, Changed<Collider>>) {
    for mut collider in &mut colliders {
        if collider.scale() != Vec3::ONE {
            collider.set_scale(Vec3::ONE, 10);
        }
    }
}

/// Runs avian's schedule once: bounds, broad phase, narrow phase.
fn step_backend(world: &mut World) {
    world.run_schedule(BackendSchedule);
}

/// What a body collides as.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A sphere around `centre` (object frame).
    Sphere { centre: Vec3, radius: f32 },
    /// A box between `min` and `max` (object frame).
    Box { min: Vec3, max: Vec3 },
}

/// Where a body's collider sits in its object's frame: the backend places
/// the shape at the object's transform applied to this point.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct ShapeOffset(Vec3);

/// Gives `entity` (an object root at `transform`) a body of `shape`: a
/// kinematic unit that collides with units, or a static building that
/// collides with rounds (units meet its faces in `building`). Called again, it
/// replaces the shape. Bodies never sleep: Control moves them every tick.
pub fn attach(
    commands: &mut Commands,
    entity: Entity,
    transform: &Transform,
    shape: Shape,
    mover: bool,
) {
    let (collider, offset) = match shape {
        Shape::Sphere { centre, radius } => (Collider::sphere(radius), centre),
        Shape::Box { min, max } => {
            let size = (max - min).max(Vec3::splat(0.01));
            (Collider::cuboid(size.x, size.y, size.z), (min + max) / 2.0)
        }
    };
    // Units push units; a building stops a unit's centre segment through
    // its faces (`building`), not through the backend, so its shape is
    // for rounds.
    let (body, layers) = if mover {
        (
            RigidBody::Kinematic,
            CollisionLayers::new(Layer::Units, [Layer::Units]),
        )
    } else {
        (
            RigidBody::Static,
            CollisionLayers::new(Layer::Buildings, [Layer::Rounds]),
        )
    };
    let offset = ShapeOffset(offset);
    commands.entity(entity).insert((
        body,
        collider,
        layers,
        SleepingDisabled,
        offset,
        pose(transform, offset).0,
        pose(transform, offset).1,
    ));
}

/// The backend pose of a shape at `offset` in an object at `transform`.
fn pose(transform: &Transform, offset: ShapeOffset) -> (Position, Rotation) {
    (
        Position(transform.translation + transform.rotation * offset.0),
        Rotation(transform.rotation),
    )
}

/// The static ground: one triangle mesh (world frame) on the terrain
/// layer, for rounds; units find the ground by walking its faces
/// ([`crate::ground`]), and it is in no contact pair.
pub fn terrain_bundle(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> impl Bundle {
    (
        RigidBody::Static,
        Collider::trimesh(vertices, triangles),
        CollisionLayers::new(Layer::Terrain, [Layer::Rounds]),
        Position(Vec3::ZERO),
        Rotation(Quat::IDENTITY),
        // Avian sizes a collider by its entity's scale: without a
        // transform the mesh would collapse to a point.
        Transform::IDENTITY,
    )
}

/// Moves a body to its object's transform for the next backend step.
#[derive(bevy::ecs::system::SystemParam)]
pub struct BodyPoses<'w, 's> {
    poses: Query<
        'w,
        's,
        (
            &'static mut Position,
            &'static mut Rotation,
            &'static ShapeOffset,
        ),
    >,
}

impl BodyPoses<'_, '_> {
    pub fn set(&mut self, entity: Entity, transform: &Transform) {
        if let Ok((mut position, mut rotation, &offset)) = self.poses.get_mut(entity) {
            (*position, *rotation) = pose(transform, offset);
        }
    }
}

/// A touching pair of bodies as the backend found it: `normal` points from
/// `a` to `b`, `depth` is the deepest penetration (> 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    pub a: Entity,
    pub b: Entity,
    pub normal: Vec3,
    pub depth: f32,
}

/// The touching pairs of the last backend step, in the backend's order
/// (callers sort them by original id). The backend lists the pairs whose
/// bounds overlap; each pair's contact is computed here again with the
/// bodies in the caller's order, so that it does not depend on which body
/// the backend took first when the pair appeared (a matter of history: a
/// run resumed from a save would see other firsts). The backend's own
/// manifolds go unread; its narrow phase still keeps the list of pairs
/// (it drops the ones whose bounds parted).
#[derive(bevy::ecs::system::SystemParam)]
pub struct Contacts<'w, 's> {
    collisions: Collisions<'w>,
    shapes: Query<'w, 's, (&'static Collider, &'static Position, &'static Rotation)>,
}

impl Contacts<'_, '_> {
    /// Every touching pair, `a` the body `first` puts first.
    pub fn touching(&self, first: impl Fn(Entity, Entity) -> bool) -> Vec<Contact> {
        let graph = self.collisions.graph();
        graph
            .iter_active()
            .chain(graph.iter_sleeping())
            .filter_map(|pair| {
                let one = pair.body1.unwrap_or(pair.collider1);
                let two = pair.body2.unwrap_or(pair.collider2);
                let (a, b) = if first(one, two) {
                    (one, two)
                } else {
                    (two, one)
                };
                let [(shape_a, pos_a, rot_a), (shape_b, pos_b, rot_b)] =
                    self.shapes.get_many([a, b]).ok()?;
                let found = contact(shape_a, *pos_a, *rot_a, shape_b, *pos_b, *rot_b, 0.0);
                let touch = found.ok().flatten()?;
                (touch.penetration > 0.0).then(|| Contact {
                    a,
                    b,
                    normal: touch.global_normal1(rot_a),
                    depth: touch.penetration,
                })
            })
            .collect()
    }
}
