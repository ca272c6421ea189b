//! Effects at run time (tome V "FXID: система эффектов", tome VII "Этап
//! 4"; GAMEPLAY §7; openparkan `docs/11-effects.md`): what combat sets off
//! (muzzles, explosions, dying nodes) runs as `FXID` instances in the
//! simulation and plays its sounds as events; the renderer draws what the
//! instances emit ([`emit::emit`]) as billboards with their materials.
//!
//! | step | where | what |
//! |---|---|---|
//! | load | `OnEnter(MissionPhase::Running)` | every object's controllers' load groups (block entry 0) make their effects ([`program`]) |
//! | spawn | [`SimStep::Effects`] | an instance for every effect cue of the tick's combat events ([`instance`]); a `critical` / `recovered` event runs the machine's controllers' groups 6 / 7 ([`program`]) |
//! | engines | [`SimStep::Effects`] | a machine's engine effect starts as it moves and ends as it stands ([`engine`]) |
//! | states | [`SimStep::React`] | a state taken runs its group, a foot that landed its contact's ([`program`]) |
//! | update | [`SimStep::Effects`] | due instances (every 100 ms) follow their object, take their time, play their sounds, end ([`instance`], [`sound`]) |
//!
//! Instances, the cursor over combat events and their generators are in
//! the state hash (`fx_instances`); the sound events they play
//! (`iron3d_sound::Sounds`) are simulation output like combat's events.

pub mod emit;
pub mod engine;
pub mod instance;
pub mod program;
pub mod rand;
pub mod sound;

pub use emit::{Primitive, PrimitiveKind, emit};
pub use instance::{FxCursor, FxFaults, FxInstance, FxInstances, effect_time};

use bevy::prelude::*;
use iron3d_combat::EffectCue;
use iron3d_schedules::{AppStateHashExt, AppStateSaveExt, SimStep, check_as};
use iron3d_sound::SoundPlugin;
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::mission::{MissionPhase, effect_key, node_to_bevy};
use iron3d_world::save::{AppSaveExt, save_resource};

/// The effect library effects are named in.
pub const EFFECT_LIBRARY: &str = "effects.rlb";

/// Effects played where the mission starts, as it starts running: each
/// an `effects.rlb` name and a map-frame point (Z up). The command line's
/// `--effect`, for modders looking at an effect and for tests; an effect
/// the mission did not read at load is a fault, like any other.
#[derive(Resource, Debug, Default, Clone)]
pub struct StartEffects(pub Vec<(String, [f32; 3])>);

/// The effects plugin. Needs the spine, the World3D, mission and combat
/// plugins.
pub struct FxPlugin;

impl Plugin for FxPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<SoundPlugin>() {
            app.add_plugins(SoundPlugin);
        }
        app.init_mission_resource::<FxInstances>()
            .init_mission_resource::<FxCursor>()
            .init_mission_resource::<FxFaults>()
            .add_systems(
                FixedUpdate,
                (instance::spawn, engine::run_engines, instance::update)
                    .chain()
                    .in_set(SimStep::Effects),
            )
            .add_systems(
                FixedUpdate,
                program::run_state_groups.in_set(SimStep::React),
            )
            .add_systems(
                OnEnter(MissionPhase::Running),
                (start_effects, program::run_at_load).chain(),
            )
            .add_state_hash("fx_instances", instance::hash_instances)
            .add_state_save(
                "fx_instances",
                save_resource::<FxInstances>,
                check_as::<FxInstances>,
                instance::restore_instances,
            )
            .save_resource::<instance::FxCursor>("fx_cursor")
            .save_resource::<instance::FxFaults>("fx_faults");
    }
}

/// Plays the [`StartEffects`] as the mission starts running.
fn start_effects(start: Option<Res<StartEffects>>, mut spawner: instance::Spawner) {
    for (name, at) in start.iter().flat_map(|s| &s.0) {
        let cue = EffectCue {
            effect: effect_key(EFFECT_LIBRARY.as_bytes(), name.as_bytes()),
            at: node_to_bevy(*at),
            rotation: Quat::IDENTITY,
            scale: 1.0,
            on: None,
            node: None,
        };
        spawner.play(&cue, None);
    }
}
