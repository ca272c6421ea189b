//! The player's HUD (GAMEPLAY §8; openparkan `docs/35-hud.md`): the
//! weapons list, the message box, the radar, the own and target panels,
//! the reticle, the objectives screen (F12, and the mission's first 7 s)
//! and the outcome panel.
//!
//! | step | where | what |
//! |---|---|---|
//! | model | `PostUpdate`, `Phase::PublishRenderSnapshot` | the frame's [`HudModel`] from the published hero, objects and mission progress ([`model`]) |
//! | objectives key | `PostUpdate`, `Phase::PublishRenderSnapshot` | F12 shows / hides the objectives screen |
//! | draw | bevy_egui's `EguiPrimaryContextPass` | the HUD on the 640×480 layout ([`draw`]) |
//!
//! Presentation only: it reads the world and never writes it.

pub mod draw;
pub mod model;

pub use model::{Contact, GunRow, HudModel, Lamp, ObjectiveLine, Panel, Side};

use bevy::prelude::*;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};
use iron3d_player::{PlayerAction, PlayerInput};
use iron3d_schedules::Phase;
use leafwing_input_manager::prelude::ActionState;

/// Whether the HUD and the objectives screen are shown.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HudSettings {
    pub shown: bool,
    pub objectives: bool,
}

impl Default for HudSettings {
    fn default() -> Self {
        Self {
            shown: true,
            objectives: false,
        }
    }
}

/// The HUD's picture and its keys, without drawing (headless tests add
/// this alone). Needs the player's input plugin.
pub struct HudModelPlugin;

impl Plugin for HudModelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HudSettings>()
            .init_resource::<HudModel>()
            .add_systems(
                PostUpdate,
                (model::take, toggle_objectives).in_set(Phase::PublishRenderSnapshot),
            );
    }
}

/// The HUD, drawn through bevy_egui (added here when nothing added it);
/// `shown: false` starts with it hidden.
pub struct HudPlugin {
    pub shown: bool,
}

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        app.add_plugins(HudModelPlugin)
            .insert_resource(HudSettings {
                shown: self.shown,
                objectives: false,
            })
            .add_systems(EguiPrimaryContextPass, draw::draw);
    }
}

/// F12 shows or hides the objectives screen.
fn toggle_objectives(
    actions: Query<&ActionState<PlayerAction>, With<PlayerInput>>,
    mut settings: ResMut<HudSettings>,
) {
    if actions
        .iter()
        .any(|a| a.just_pressed(&PlayerAction::Objectives))
    {
        settings.objectives = !settings.objectives;
    }
}
