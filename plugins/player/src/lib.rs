//! The player (tome VI "Ввод, камера и управление"; GAMEPLAY §2 "Input"):
//! the devices sampled into one input snapshot a frame, each fixed step's
//! share of it, and the hero driven by it.
//!
//! | step | where | what |
//! |---|---|---|
//! | bindings | `PreUpdate`, `Phase::CollectPlatformEvents` | the bindings file written on the first run, re-read when it changes ([`bindings`]) |
//! | sample | `PreUpdate`, `Phase::BuildInputSnapshot`, after leafwing's update | the frame's action state joins the pending snapshot ([`snapshot`]) |
//! | take | [`SimStep::TakeInput`] | the step takes its input; presses and mouse counts are spent |
//! | adopt | `OnEnter(MissionPhase::Running)` (a paused game too) | the mission's hero becomes the player's (piloted: Behavior leaves it) |
//! | drive | [`SimStep::Pilot`] | the hero's request, turn, turret aim and trigger ([`pilot`]) |
//! | view | (the input crate places the camera) | the view's mode, zoom and easing, the cockpit and outer places from the published hero ([`view`]) |
//!
//! [`PlayerPlugin`] is the simulation half and runs headless too (with no
//! devices the hero stands); [`PlayerInputPlugin`] adds the devices.

pub mod action;
pub mod bindings;
pub mod pilot;
pub mod snapshot;
pub mod view;

pub use action::{Buttons, PlayerAction};
pub use bindings::{Bindings, BindingsFile, Input};
pub use pilot::{MouseSensitivity, Pilot};
pub use snapshot::{MenuOpen, PendingInput, PlayerInput, StepInput};
pub use view::{PlayerView, ViewMode};

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, Phase, SimStep};
use iron3d_world::mission::MissionPhase;
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::save::AppSaveExt;
use leafwing_input_manager::plugin::{InputManagerPlugin, InputManagerSystem};

/// Where the frame's action state is sampled, in
/// `Phase::BuildInputSnapshot` (whatever gates the input runs before).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SampleInput;

/// The simulation half: the step's input, the hero adopted and driven.
/// Needs the spine, the World3D, mission, Control and Combat plugins.
pub struct PlayerPlugin;

impl Plugin for PlayerPlugin {
    fn build(&self, app: &mut App) {
        app.init_mission_resource::<PendingInput>()
            .init_mission_resource::<StepInput>()
            .init_resource::<MouseSensitivity>()
            .register_type::<Pilot>()
            // Each fixed step takes its input from the snapshot (a
            // replay's playback overrides it in the next step).
            .add_systems(FixedUpdate, snapshot::take.in_set(SimStep::TakeInput))
            .add_systems(OnEnter(MissionPhase::Running), pilot::adopt_hero)
            .add_systems(FixedUpdate, pilot::drive.in_set(SimStep::Pilot))
            .add_state_hash("player", pilot::hash_pilots)
            .save_checked_object_component::<pilot::Pilot>("player");
    }
}

/// The device half: leafwing's action state for [`PlayerAction`] on one
/// [`PlayerInput`] entity, its bindings (the file's when a
/// [`BindingsFile`] resource names one), the frame's sample, and the
/// player's view state ([`view`]; the input crate's `PlayerViewPlugin`
/// puts the camera there). Needs Bevy's input plugin.
pub struct PlayerInputPlugin;

impl Plugin for PlayerInputPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(InputManagerPlugin::<PlayerAction>::default())
            .configure_sets(
                PreUpdate,
                InputManagerSystem::Update.in_set(Phase::BuildInputSnapshot),
            )
            .init_resource::<Bindings>()
            .init_mission_resource::<MenuOpen>()
            .add_systems(Startup, spawn_input)
            .init_resource::<PlayerView>()
            .register_type::<PlayerView>()
            .add_systems(
                PreUpdate,
                bindings::watch_file.in_set(Phase::CollectPlatformEvents),
            )
            .add_systems(
                PreUpdate,
                snapshot::sample
                    .in_set(SampleInput)
                    .in_set(Phase::BuildInputSnapshot)
                    .after(InputManagerSystem::Update),
            );
    }
}

fn spawn_input(mut commands: Commands, bindings: Res<Bindings>) {
    commands.spawn((Name::new("Player input"), PlayerInput, bindings.input_map()));
}
