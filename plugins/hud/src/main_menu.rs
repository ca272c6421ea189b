//! The main menu (tome VI; GAMEPLAY §1): while no mission is in the slot
//! it lists the install's missions by campaign with the titles their
//! `descr` files give, and starts the chosen one through the mission slot
//! ([`MissionChange`]). A load that fails comes back here with its error.
//! Up and Down choose, Enter starts; a click chooses, a double click or
//! Start starts.

use bevy::app::AppExit;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use iron3d_formats::gamedir::{GameDir, Mission};
use iron3d_world::mission::{LoadProgress, MissionChange, MissionCommand, MissionRequest};
use std::path::PathBuf;

/// The main menu's missions and choice; present when the game started
/// without a mission.
#[derive(Resource, Debug, Clone)]
pub struct MainMenu {
    /// The install the missions are in.
    pub game_dir: PathBuf,
    /// The mod directories every mission is loaded with.
    pub mod_dirs: Vec<PathBuf>,
    /// The missions, by campaign then name.
    pub missions: Vec<Mission>,
    /// The chosen mission (an index into `missions`).
    pub selected: usize,
    /// Why the list is empty, or why the last mission did not load.
    pub error: Option<String>,
    /// Whether it was announced in the log (once, as it is first shown).
    announced: bool,
}

impl MainMenu {
    /// The menu of the install at `game_dir`; an install whose missions
    /// cannot be listed gives an empty menu with the error.
    pub fn of_install(game_dir: PathBuf, mod_dirs: Vec<PathBuf>) -> Self {
        let (missions, error) = match GameDir::open(&game_dir).and_then(|g| g.missions()) {
            Ok(mut missions) => {
                missions.sort_by(|a, b| (a.campaign(), &a.name).cmp(&(b.campaign(), &b.name)));
                (missions, None)
            }
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        Self {
            game_dir,
            mod_dirs,
            missions,
            selected: 0,
            error,
            announced: false,
        }
    }

    /// Moves the choice by `step`, staying in the list.
    pub fn choose(&mut self, step: isize) {
        let last = self.missions.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(step).min(last);
    }

    /// Asks the slot for the chosen mission.
    pub fn start(&mut self, change: &mut MissionChange) {
        let Some(mission) = self.missions.get(self.selected) else {
            return;
        };
        self.error = None;
        change.request(MissionCommand::Load(MissionRequest {
            game_dir: self.game_dir.clone(),
            mission: Some(mission.name.clone()),
            mod_dirs: self.mod_dirs.clone(),
        }));
    }
}

/// The name a mission is shown by: its title, else its directory.
fn shown_name(mission: &Mission) -> &str {
    mission
        .title
        .as_deref()
        .unwrap_or_else(|| mission.name.rsplit('/').next().unwrap_or(&mission.name))
}

/// Up and Down choose, Enter starts (while the menu is shown).
pub(crate) fn navigate(
    keys: Res<ButtonInput<KeyCode>>,
    mut menu: ResMut<MainMenu>,
    mut change: ResMut<MissionChange>,
) {
    let step = isize::from(keys.just_pressed(KeyCode::ArrowDown))
        - isize::from(keys.just_pressed(KeyCode::ArrowUp));
    if step != 0 {
        menu.choose(step);
        // Said, so a tool driving the menu knows the key was taken.
        if let Some(mission) = menu.missions.get(menu.selected) {
            info!("main menu: {} chosen", mission.name);
        }
    }
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]) {
        menu.start(&mut change);
    }
}

/// A failed load returns to the menu, which shows its error chain.
pub(crate) fn back_from_failure(
    progress: Res<LoadProgress>,
    mut menu: ResMut<MainMenu>,
    mut change: ResMut<MissionChange>,
) {
    let error = progress.error.as_ref().map(ToString::to_string);
    if let Some(error) = &error {
        warn!("the mission did not load: {error}");
    }
    menu.error = error;
    change.request(MissionCommand::Unload);
}

/// The menu's window.
pub(crate) fn draw(
    mut contexts: EguiContexts,
    mut menu: ResMut<MainMenu>,
    mut change: ResMut<MissionChange>,
    mut exit: MessageWriter<AppExit>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    if !menu.announced {
        // Tools driving the window wait for this line.
        info!("main menu: {} missions", menu.missions.len());
        menu.announced = true;
    }
    let mut start = false;
    egui::Window::new("Iron3D")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.heading("Missions");
            let mut campaign = None;
            let mut clicked = None;
            for (index, mission) in menu.missions.iter().enumerate() {
                if campaign != Some(mission.campaign()) {
                    campaign = Some(mission.campaign());
                    ui.separator();
                    ui.label(match mission.campaign() {
                        "" => "Single missions",
                        group => group,
                    });
                }
                let row = ui.selectable_label(index == menu.selected, shown_name(mission));
                if row.clicked() {
                    clicked = Some((index, false));
                }
                if row.double_clicked() {
                    clicked = Some((index, true));
                }
            }
            if let Some((index, go)) = clicked {
                menu.selected = index;
                start |= go;
            }
            if let Some(error) = &menu.error {
                ui.separator();
                ui.colored_label(egui::Color32::from_rgb(230, 60, 50), error);
            }
            ui.separator();
            ui.horizontal(|ui| {
                start |= ui
                    .add_enabled(!menu.missions.is_empty(), egui::Button::new("Start"))
                    .clicked();
                if ui.button("Quit").clicked() {
                    exit.write(AppExit::Success);
                }
            });
        });
    if start {
        menu.start(&mut change);
    }
}
