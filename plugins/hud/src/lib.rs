//! The player's HUD (GAMEPLAY §8; openparkan `docs/35-hud.md`): the
//! weapons list, the message box, the radar, the own and target panels,
//! the reticle, the objectives screen (F12, and the mission's first 7 s)
//! and the outcome panel.
//!
//! | step | where | what |
//! |---|---|---|
//! | install | `Startup` | the install's interface fonts ([`fonts`]), `iron3d.dll` strings ([`texts`]) and interface sprites ([`art`]) |
//! | model | `PostUpdate`, `Phase::PublishRenderSnapshot` | the frame's [`HudModel`] from the published hero, objects and mission progress ([`model`]) |
//! | briefing | `OnEnter(MissionPhase::Running)`, then `PostUpdate`, `Phase::PublishRenderSnapshot` after the player's view | the `briefing.cfg` flight with the clock stopped, until its end or Esc ([`briefing`]) |
//! | menu key | `PreUpdate`, `Phase::BuildInputSnapshot`, before the player's sample | Esc opens / closes the pause menu, which stops the game clock and takes the hero's input ([`menu`]) |
//! | main menu | `Update` while [`MainMenu`] exists and no mission is in the slot; drawn in `EguiPrimaryContextPass` | the install's missions by campaign; Up/Down/Enter or the mouse start one ([`main_menu`]) |
//! | resources | `PostUpdate`, `Phase::PublishRenderSnapshot`, after the model | the hero's clan's Ore and Energy rows, stepping toward the distributor's bars ([`resources`]) |
//! | objectives key | `PostUpdate`, `Phase::PublishRenderSnapshot` | F12 shows / hides the objectives screen |
//! | draw | bevy_egui's `EguiPrimaryContextPass` | the HUD on the 640×480 layout ([`draw`]), then the pause menu's window |
//!
//! Presentation only: it reads the world and never writes it; the pause
//! menu stops and starts the game clock, as the inspector's buttons do.

pub mod art;
pub mod briefing;
pub mod draw;
pub mod fonts;
pub mod main_menu;
pub mod menu;
pub mod model;
pub mod resources;
pub mod saves;
pub mod texts;

pub use art::InstallArt;
pub use briefing::{Briefing, PlayBriefing};
pub use fonts::{HudFont, InstallFonts};
pub use main_menu::MainMenu;
pub use menu::PauseMenu;
pub use model::{
    Contact, Gauges, GunRow, HudModel, Lamp, MessageBox, ObjectiveLine, Panel, Sender, Side,
};
pub use saves::{QuickSave, SaveRequest};
pub use texts::{InstallTexts, Word};

use bevy::prelude::*;
use bevy_egui::{EguiPlugin, EguiPrimaryContextPass};
use iron3d_input::ViewSystems;
use iron3d_player::{PlayerAction, PlayerInput, SampleInput};
use iron3d_schedules::Phase;
use iron3d_world::mission::MissionPhase;
use iron3d_world::mission::MissionScopeExt;
use leafwing_input_manager::plugin::InputManagerSystem;
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

/// The HUD's picture and its keys (F12, and Esc for the pause menu,
/// which stops the game clock, or to skip the briefing), the briefing's
/// flight, without drawing (headless tests add this
/// alone). Needs the player's input plugin.
pub struct HudModelPlugin;

impl Plugin for HudModelPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HudSettings>()
            .init_resource::<HudModel>()
            .init_resource::<InstallFonts>()
            .init_resource::<InstallTexts>()
            .init_resource::<InstallArt>()
            .init_resource::<SaveRequest>()
            .init_resource::<resources::ResourceBars>()
            .add_systems(Update, saves::keys.run_if(in_state(MissionPhase::Running)))
            .add_systems(Last, saves::apply.in_set(Phase::Maintenance))
            .add_systems(Startup, (fonts::read, texts::read, art::read))
            .init_mission_resource::<PauseMenu>()
            .init_mission_resource::<Briefing>()
            // The voices the briefing asks the audio output for.
            .init_mission_resource::<iron3d_audio::BriefingVoices>()
            .add_systems(OnEnter(MissionPhase::Running), briefing::start)
            .add_systems(
                PostUpdate,
                briefing::fly
                    .in_set(Phase::PublishRenderSnapshot)
                    .after(ViewSystems),
            )
            .add_systems(Update, main_menu::navigate.run_if(main_menu_shown))
            .add_systems(
                OnEnter(MissionPhase::Failed),
                main_menu::back_from_failure.run_if(resource_exists::<MainMenu>),
            )
            .add_systems(
                PreUpdate,
                menu::toggle_menu
                    .run_if(in_state(MissionPhase::Running))
                    .in_set(Phase::BuildInputSnapshot)
                    .after(InputManagerSystem::Update)
                    .before(SampleInput),
            )
            .add_systems(
                PostUpdate,
                ((model::take, resources::follow).chain(), toggle_objectives)
                    .in_set(Phase::PublishRenderSnapshot),
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
            .add_systems(
                EguiPrimaryContextPass,
                (
                    (draw::draw, menu::draw_menu)
                        .chain()
                        .run_if(in_state(MissionPhase::Running)),
                    main_menu::draw.run_if(main_menu_shown),
                ),
            );
    }
}

/// The main menu is up while the game has one and no mission is in the
/// slot.
fn main_menu_shown(menu: Option<Res<MainMenu>>, phase: Res<State<MissionPhase>>) -> bool {
    menu.is_some() && *phase.get() == MissionPhase::Idle
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
