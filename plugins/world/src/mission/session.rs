//! The mission slot: the app holds one mission at a time and can load
//! another, restart the one it has or go back to no mission (the main
//! menu) without restarting the process.
//!
//! A change is asked for through [`MissionChange`] and applied at the end
//! of a frame in which no load is in progress. Unloading despawns every
//! object hierarchy and every [`MissionScoped`] entity, empties the
//! registry, the world queue and the outbox, removes what the loader
//! published, rewinds the game clock to tick 0 and the random streams to
//! their seed, and runs what each plugin registered through
//! [`MissionScopeExt`]; the world is then as it was before the first load,
//! so a restarted mission runs tick for tick like a fresh one.

use super::{
    LoadProgress, MissionArealMap, MissionClans, MissionDescription, MissionEffects, MissionLand,
    MissionLoader, MissionObject, MissionPaths, MissionPhase, MissionRequest, MissionSky,
    ResourceGate, RngStreams, load::Loader, undo_construction,
};
use crate::{
    GmsgKind, ObjectRegistry, OriginalObjectId, Undeliverable, WorldMessage, WorldOutbox,
    WorldQueue,
};
use bevy::ecs::message::{Message, Messages};
use bevy::prelude::*;
use iron3d_schedules::{GameClock, Phase};

/// Marks an entity that belongs to the loaded mission outside the object
/// hierarchies (a round in flight, an effect instance, the ground, the
/// drawn terrain): unloading despawns it with its children.
#[derive(Component, Debug, Clone, Copy, Default, Reflect)]
#[reflect(Component)]
pub struct MissionScoped;

/// What the player asks of the mission slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissionCommand {
    /// Unload what is there and load this mission.
    Load(MissionRequest),
    /// Unload the mission and load it again from its files.
    Restart,
    /// Unload the mission: an empty world (the main menu).
    Unload,
}

/// The change waiting for the slot; a later request replaces an earlier
/// one not yet applied.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionChange(Option<MissionCommand>);

impl MissionChange {
    /// Asks for `command` at the end of the frame (or once the load in
    /// progress has ended).
    pub fn request(&mut self, command: MissionCommand) {
        self.0 = Some(command);
    }

    /// The change not yet applied.
    pub fn pending(&self) -> Option<&MissionCommand> {
        self.0.as_ref()
    }
}

/// The request of the mission in the slot (loading, running or failed).
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct LoadedMission(pub MissionRequest);

/// What plugins registered to run at an unload, in registration order.
#[derive(Resource, Default)]
struct UnloadHooks(Vec<fn(&mut World)>);

/// Registration of mission state held by a plugin, so an unload clears it.
pub trait MissionScopeExt {
    /// Initialises `R` and puts it back to its initial value at every
    /// unload: for resources that hold mission state.
    fn init_mission_resource<R: Resource + FromWorld>(&mut self) -> &mut Self;
    /// Removes `R` at every unload: for resources a load publishes.
    fn remove_on_unload<R: Resource>(&mut self) -> &mut Self;
    /// Runs `hook` at every unload, after the mission's entities are gone.
    fn on_unload(&mut self, hook: fn(&mut World)) -> &mut Self;
}

impl MissionScopeExt for App {
    fn init_mission_resource<R: Resource + FromWorld>(&mut self) -> &mut Self {
        self.init_resource::<R>().on_unload(|world| {
            world.remove_resource::<R>();
            world.init_resource::<R>();
        })
    }

    fn remove_on_unload<R: Resource>(&mut self) -> &mut Self {
        self.on_unload(|world| {
            world.remove_resource::<R>();
        })
    }

    fn on_unload(&mut self, hook: fn(&mut World)) -> &mut Self {
        self.world_mut()
            .get_resource_or_init::<UnloadHooks>()
            .0
            .push(hook);
        self
    }
}

/// Orders given before the mission's first step (the command line's
/// `--order`s: raw original id, packet bytes), posted as the mission
/// starts running, before its first step, as a replay's start orders are;
/// taken once.
#[derive(Resource, Debug, Default, Clone)]
pub struct StartOrders(pub Vec<(u32, Vec<u8>)>);

fn post_start_orders(
    orders: Option<Res<StartOrders>>,
    mut outbox: ResMut<WorldOutbox>,
    mut commands: Commands,
) {
    let Some(orders) = orders else {
        return;
    };
    for (id, packet) in &orders.0 {
        outbox.post(GmsgKind::Order, Some(OriginalObjectId(*id)), packet.clone());
    }
    commands.remove_resource::<StartOrders>();
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MissionChange>()
        .register_type::<MissionScoped>()
        .add_systems(OnEnter(MissionPhase::Running), post_start_orders)
        .add_systems(
            Last,
            apply_change
                .run_if(|change: Res<MissionChange>| change.0.is_some())
                .in_set(Phase::EndFrameCallbacks),
        );
    // What the loader publishes (the world's own state is reset in
    // `unload`).
    app.remove_on_unload::<MissionDescription>()
        .remove_on_unload::<MissionLand>()
        .remove_on_unload::<MissionSky>()
        .remove_on_unload::<MissionArealMap>()
        .remove_on_unload::<MissionEffects>()
        .remove_on_unload::<super::Blueprints>()
        .register_type::<super::Built>();
}

/// Applies the waiting change once the slot is not loading.
fn apply_change(world: &mut World) {
    let phase = *world.resource::<State<MissionPhase>>().get();
    if !matches!(
        phase,
        MissionPhase::Idle | MissionPhase::Running | MissionPhase::Failed
    ) {
        return;
    }
    let Some(command) = world.resource_mut::<MissionChange>().0.take() else {
        return;
    };
    let request = match command {
        MissionCommand::Load(request) => Some(request),
        MissionCommand::Restart => world.get_resource::<LoadedMission>().map(|m| m.0.clone()),
        MissionCommand::Unload => None,
    };
    unload(world);
    let next = match request {
        Some(request) => {
            world.insert_resource(MissionLoader(Loader::new(request.clone())));
            world.insert_resource(LoadedMission(request));
            MissionPhase::Context
        }
        None => MissionPhase::Idle,
    };
    // Leaving and entering the same state runs its exit and enter
    // schedules again: a restart from a failed load retries it.
    world.resource_mut::<NextState<MissionPhase>>().set(next);
}

/// Takes the mission out of the world (see the module's documentation).
pub fn unload(world: &mut World) {
    undo_construction(world);
    let mut doomed: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<MissionObject>, With<MissionScoped>)>>()
        .iter(world)
        .collect();
    doomed.sort();
    for entity in doomed {
        // A scoped child of an object went with its root already.
        if let Ok(entity) = world.get_entity_mut(entity) {
            entity.despawn();
        }
    }
    world.remove_resource::<super::gate::AwaitingGate>();
    world.insert_resource(ResourceGate::default());
    world.insert_resource(ObjectRegistry::default());
    world.insert_resource(WorldQueue::default());
    world.insert_resource(WorldOutbox::default());
    clear_messages::<WorldMessage>(world);
    clear_messages::<Undeliverable>(world);
    world.insert_resource(LoadProgress::default());
    world.insert_resource(MissionPaths::default());
    world.insert_resource(MissionClans::default());
    world.remove_resource::<LoadedMission>();
    let seed = world.resource::<RngStreams>().seed();
    world.insert_resource(RngStreams::new(seed));
    world.resource_mut::<GameClock>().rewind();
    let hooks = std::mem::take(&mut world.resource_mut::<UnloadHooks>().0);
    for hook in &hooks {
        hook(world);
    }
    world.resource_mut::<UnloadHooks>().0 = hooks;
}

/// Drops the messages of type `M` not yet read.
fn clear_messages<M: Message>(world: &mut World) {
    if let Some(mut messages) = world.get_resource_mut::<Messages<M>>() {
        messages.clear();
    }
}
