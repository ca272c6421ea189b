//! The pause menu (tome VI; GAMEPLAY §1 "view modes": the game menu):
//! Esc opens it over the game and stops the game clock; Esc again or
//! Resume closes it and lets the clock run again (unless it was already
//! stopped before). Restart loads the mission again from its files;
//! Missions (when the game has a main menu) unloads it and goes back
//! there; Save and Load are the quicksave's ([`crate::saves`]). While it is open the hero takes no input
//! ([`MenuOpen`]). Its settings: the mouse sensitivity, the effects and
//! music volumes (in place of the install's), the mute, and
//! the bindings in use (to change them, edit the bindings file, which the
//! game re-reads); Quit ends the game.

use crate::briefing::Briefing;
use crate::main_menu::MainMenu;
use crate::saves::{QuickSave, SaveRequest};
use bevy::app::AppExit;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_audio::AudioControl;
use iron3d_player::{
    Bindings, BindingsFile, MenuOpen, MouseSensitivity, PlayerAction, PlayerInput,
};
use iron3d_schedules::GameClock;
use iron3d_sound::MissionSounds;
use iron3d_world::mission::{MissionChange, MissionCommand};
use leafwing_input_manager::prelude::ActionState;

/// The pause menu's state.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PauseMenu {
    pub open: bool,
    /// Whether closing lets the clock run (it ran when the menu opened).
    resume_clock: bool,
}

impl PauseMenu {
    /// Opens the menu and stops the clock.
    pub fn open(&mut self, clock: &mut GameClock) {
        if !self.open {
            self.open = true;
            self.resume_clock = !clock.is_paused();
            clock.pause();
        }
    }

    /// Closes the menu; the clock runs again if it ran before.
    pub fn close(&mut self, clock: &mut GameClock) {
        if self.open {
            self.open = false;
            if self.resume_clock {
                clock.resume();
            }
        }
    }
}

/// Esc skips a running briefing, else opens or closes the menu; the
/// hero's input follows the menu (the briefing holds it on its own).
pub(crate) fn toggle_menu(
    actions: Query<&ActionState<PlayerAction>, With<PlayerInput>>,
    mut menu: ResMut<PauseMenu>,
    mut briefing: ResMut<Briefing>,
    mut clock: ResMut<GameClock>,
    mut captured: ResMut<MenuOpen>,
) {
    if briefing.active() {
        if actions.iter().any(|a| a.just_pressed(&PlayerAction::Menu)) {
            briefing.skip();
        }
        return;
    }
    if actions.iter().any(|a| a.just_pressed(&PlayerAction::Menu)) {
        if menu.open {
            menu.close(&mut clock);
        } else {
            menu.open(&mut clock);
        }
    }
    if captured.0 != menu.open {
        captured.0 = menu.open;
    }
}

/// The menu's window.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_menu(
    mut contexts: EguiContexts,
    mut menu: ResMut<PauseMenu>,
    mut clock: ResMut<GameClock>,
    mut sensitivity: ResMut<MouseSensitivity>,
    audio: Option<ResMut<AudioControl>>,
    sounds: Option<Res<MissionSounds>>,
    bindings: Res<Bindings>,
    file: Option<Res<BindingsFile>>,
    mut exit: MessageWriter<AppExit>,
    mut change: ResMut<MissionChange>,
    main_menu: Option<Res<MainMenu>>,
    (quick, mut request): (Option<Res<QuickSave>>, ResMut<SaveRequest>),
) {
    if !menu.open {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let install_volumes = sounds.map(|s| s.volumes);
    let mut resume = false;
    egui::Window::new("Paused")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            resume = ui.button("Resume").clicked();
            if ui.button("Restart").clicked() {
                change.request(MissionCommand::Restart);
            }
            if main_menu.is_some() && ui.button("Missions").clicked() {
                change.request(MissionCommand::Unload);
            }
            if let Some(quick) = &quick {
                ui.horizontal(|ui| {
                    request.save |= ui.button("Save (F5)").clicked();
                    request.load |= ui.button("Load (F9)").clicked();
                });
                if let Some(status) = &quick.status {
                    ui.label(status);
                }
            }
            ui.separator();
            ui.label("Settings");
            let mut value = sensitivity.0;
            if ui
                .add(egui::Slider::new(&mut value, 0.1..=5.0).text("mouse sensitivity"))
                .changed()
            {
                sensitivity.0 = value;
            }
            if let Some(mut audio) = audio {
                // The install's volumes until the player sets their own.
                let mut volumes = audio.volumes.or(install_volumes).unwrap_or_default();
                let sfx =
                    ui.add(egui::Slider::new(&mut volumes.sfx, 0.0..=1.0).text("effects volume"));
                let music =
                    ui.add(egui::Slider::new(&mut volumes.music, 0.0..=1.0).text("music volume"));
                if sfx.changed() || music.changed() {
                    audio.volumes = Some(volumes);
                }
                let mut muted = audio.muted;
                if ui.checkbox(&mut muted, "mute").changed() {
                    audio.muted = muted;
                }
            }
            egui::CollapsingHeader::new("Bindings").show(ui, |ui| {
                if let Some(file) = &file {
                    ui.label(format!("from {}", file.path.display()));
                    if let Some(error) = &file.error {
                        ui.colored_label(egui::Color32::from_rgb(230, 60, 50), error);
                    }
                }
                egui::Grid::new("bindings").striped(true).show(ui, |ui| {
                    for (action, inputs) in &bindings.0 {
                        ui.label(action.name());
                        let names: Vec<String> = inputs.iter().map(|i| i.name()).collect();
                        ui.label(names.join(", "));
                        ui.end_row();
                    }
                });
            });
            ui.separator();
            if ui.button("Quit").clicked() {
                exit.write(AppExit::Success);
            }
        });
    if resume {
        menu.close(&mut clock);
    }
}
