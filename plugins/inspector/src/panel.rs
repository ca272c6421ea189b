//! The Iron3D panel: thin egui drawing over [`PanelModel`]; what the user
//! asks for comes back as [`PanelAction`]s, applied to the World by
//! [`apply_actions`].

use crate::economy::{ClanEconomyView, economy_view};
use crate::mission::{MissionView, mission_view};
use crate::model::{ObjectDetails, ObjectRow, filtered, id_text, object_details, object_rows};
use bevy::prelude::*;
use bevy_egui::egui;
use iron3d_audio::AudioControl;
use iron3d_input::SelectedObject;
use iron3d_schedules::GameClock;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::ResourceChain;
use std::sync::Arc;

/// The game clock as the panel shows it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ClockView {
    pub tick: u64,
    pub seconds: f64,
    pub paused: bool,
    /// The sound output's mute; `None` without an output.
    pub muted: Option<bool>,
}

/// One part's resource chain, as the mission loader published it.
#[derive(Debug, Clone, PartialEq)]
pub struct PartChain {
    /// The part's index in its unit DAT.
    pub part: usize,
    pub chain: Arc<ResourceChain>,
}

/// The resource chains of the selected object, gathered once per
/// selection.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub struct SelectionReport {
    /// The object the chains belong to.
    pub id: Option<OriginalObjectId>,
    /// One chain per part, in part order.
    pub chains: Vec<PartChain>,
}

/// Everything the panel draws, gathered from the World.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelModel {
    pub rows: Vec<ObjectRow>,
    pub selected: Option<OriginalObjectId>,
    pub details: Option<ObjectDetails>,
    pub clock: ClockView,
    pub mission: MissionView,
    pub economy: Vec<ClanEconomyView>,
}

/// The panel's model of the World now.
pub fn panel_model(world: &World) -> PanelModel {
    let selected = world.get_resource::<SelectedObject>().and_then(|s| s.0);
    PanelModel {
        rows: object_rows(world),
        selected,
        details: selected.and_then(|id| object_details(world, id)),
        clock: world
            .get_resource::<GameClock>()
            .map(|c| ClockView {
                tick: c.tick(),
                seconds: c.elapsed_secs_f64(),
                paused: c.is_paused(),
                muted: world.get_resource::<AudioControl>().map(|a| a.muted),
            })
            .unwrap_or_default(),
        mission: mission_view(world),
        economy: economy_view(world),
    }
}

/// A game-clock control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockCommand {
    Pause,
    Resume,
    /// One simulation tick while paused.
    Step,
}

/// Applies a clock control to the game clock.
pub fn apply_clock(clock: &mut GameClock, command: ClockCommand) {
    match command {
        ClockCommand::Pause => clock.pause(),
        ClockCommand::Resume => clock.resume(),
        ClockCommand::Step => clock.request_step(),
    }
}

/// What the user did in the panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelAction {
    Select(Option<OriginalObjectId>),
    Clock(ClockCommand),
    /// Mutes or unmutes the sound output.
    Mute(bool),
}

/// Applies the panel's actions to the World.
pub fn apply_actions(world: &mut World, actions: &[PanelAction]) {
    for action in actions {
        match *action {
            PanelAction::Select(id) => world.insert_resource(SelectedObject(id)),
            PanelAction::Clock(command) => {
                if let Some(mut clock) = world.get_resource_mut::<GameClock>() {
                    apply_clock(&mut clock, command);
                }
            }
            PanelAction::Mute(muted) => {
                if let Some(mut control) = world.get_resource_mut::<AudioControl>() {
                    control.muted = muted;
                }
            }
        }
    }
}

/// Draws the panel into `ui`; the object list scrolls within `list_height`.
pub fn draw_panel(
    ui: &mut egui::Ui,
    model: &PanelModel,
    report: &SelectionReport,
    filter: &mut String,
    list_height: f32,
) -> Vec<PanelAction> {
    let mut actions = Vec::new();
    clock_controls(ui, model.clock, &mut actions);
    if !model.mission.objectives.is_empty() || !model.mission.brains.is_empty() {
        ui.separator();
        draw_mission(ui, &model.mission);
        draw_economy(ui, &model.economy);
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Filter");
        ui.text_edit_singleline(filter);
    });
    let shown: Vec<&ObjectRow> = filtered(&model.rows, filter).collect();
    ui.label(format!("{} of {} objects", shown.len(), model.rows.len()));
    egui::ScrollArea::vertical()
        .id_salt("objects")
        .max_height(list_height)
        .show(ui, |ui| {
            for row in shown {
                let text = format!(
                    "{}  {}  {}  {}",
                    row.id_text(),
                    row.name,
                    row.kind,
                    row.clan
                );
                let selected = model.selected == Some(row.id);
                if ui.selectable_label(selected, text).clicked() {
                    actions.push(PanelAction::Select((!selected).then_some(row.id)));
                }
            }
        });
    if let Some(details) = &model.details {
        ui.separator();
        draw_details(ui, details, report);
    }
    actions
}

/// The Mission section: outcome, objectives and latest messages open; each
/// SuperAI's problems and variables folded.
fn draw_mission(ui: &mut egui::Ui, mission: &MissionView) {
    egui::CollapsingHeader::new("Mission")
        .default_open(true)
        .show(ui, |ui| {
            ui.label(&mission.outcome);
            for o in &mission.objectives {
                ui.label(o);
            }
            for m in &mission.messages {
                ui.label(m);
            }
            if mission.errors > 0 {
                ui.label(format!("script errors: {}", mission.errors));
            }
            for brain in &mission.brains {
                egui::CollapsingHeader::new(&brain.title).show(ui, |ui| {
                    for p in &brain.problems {
                        ui.label(p);
                    }
                    egui::CollapsingHeader::new(format!("Variables ({})", brain.variables.len()))
                        .show(ui, |ui| {
                            for v in &brain.variables {
                                ui.label(v);
                            }
                        });
                });
            }
        });
}

/// The Economy section: a clan a fold, its title its totals, its
/// buildings and researches inside.
fn draw_economy(ui: &mut egui::Ui, clans: &[ClanEconomyView]) {
    if clans.is_empty() {
        return;
    }
    egui::CollapsingHeader::new("Economy").show(ui, |ui| {
        for clan in clans {
            egui::CollapsingHeader::new(&clan.title).show(ui, |ui| {
                for line in clan
                    .buildings
                    .iter()
                    .chain(&clan.research)
                    .chain(&clan.builds)
                {
                    ui.label(line);
                }
            });
        }
    });
}

fn clock_controls(ui: &mut egui::Ui, clock: ClockView, actions: &mut Vec<PanelAction>) {
    ui.horizontal(|ui| {
        ui.label(format!("tick {} ({:.2} s)", clock.tick, clock.seconds));
        let (label, command) = if clock.paused {
            ("Resume", ClockCommand::Resume)
        } else {
            ("Pause", ClockCommand::Pause)
        };
        if ui.button(label).clicked() {
            actions.push(PanelAction::Clock(command));
        }
        if ui
            .add_enabled(clock.paused, egui::Button::new("Step"))
            .clicked()
        {
            actions.push(PanelAction::Clock(ClockCommand::Step));
        }
        if let Some(mut muted) = clock.muted
            && ui.checkbox(&mut muted, "Mute").changed()
        {
            actions.push(PanelAction::Mute(muted));
        }
    });
}

fn draw_details(ui: &mut egui::Ui, details: &ObjectDetails, report: &SelectionReport) {
    ui.heading(format!("{} {}", id_text(details.row.id), details.row.name));
    ui.label(format!(
        "{}, {}, resource {}",
        details.row.kind, details.row.clan, details.resource
    ));
    ui.label(match &details.controller {
        Some(controller) => format!("controller {controller}"),
        None => "static body (no controller)".into(),
    });
    if let Some(motion) = &details.motion {
        ui.label(motion);
    }
    if let Some(shield) = &details.shield {
        ui.label(shield);
    }
    for sound in &details.sounds {
        ui.label(format!("sound {sound}"));
    }
    egui::CollapsingHeader::new(format!("Trace ({})", details.trace.len()))
        .default_open(false)
        .show(ui, |ui| {
            for line in &details.trace {
                ui.monospace(line);
            }
        });
    egui::CollapsingHeader::new(format!("Properties ({})", details.properties.len()))
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("properties").striped(true).show(ui, |ui| {
                for p in &details.properties {
                    ui.label(&p.name);
                    ui.label(&p.kind);
                    ui.label(&p.value);
                    ui.end_row();
                }
            });
        });
    egui::CollapsingHeader::new("Prototype chain")
        .default_open(true)
        .show(ui, |ui| match report.id == Some(details.row.id) {
            true => report.chains.iter().for_each(|c| draw_chain(ui, c)),
            false => {
                ui.label("reading...");
            }
        });
    egui::CollapsingHeader::new(format!("Part tree ({})", details.parts.len()))
        .default_open(true)
        .show(ui, |ui| {
            for part in &details.parts {
                let indent = "    ".repeat(part.depth);
                let class = part.class.as_deref().unwrap_or("-");
                ui.label(format!("{indent}#{} {} [{class}]", part.index, part.key));
                for (depth, node) in &part.nodes {
                    ui.weak(format!("{indent}    {}{node}", "  ".repeat(*depth)));
                }
            }
        });
}

fn draw_chain(ui: &mut egui::Ui, part: &PartChain) {
    let chain = &part.chain;
    egui::CollapsingHeader::new(format!("part #{} {}", part.part, chain.key))
        .id_salt(("chain", part.part))
        .default_open(true)
        .show(ui, |ui| {
            ui.label(format!("inheritance: {}", chain.inheritance.join(" → ")));
            for r in &chain.refs {
                ui.weak(r);
            }
            let none = || "-".to_owned();
            ui.label(format!("MSH {}", chain.mesh.clone().unwrap_or_else(none)));
            ui.label(format!("WEAR {}", chain.wear.clone().unwrap_or_else(none)));
            for m in &chain.materials {
                ui.label(format!("  row {} → MAT0 {}", m.row, m.material));
                for (phase, texture) in &m.textures {
                    ui.label(format!("    phase #{phase} → Texm {texture}"));
                }
                if let Some(e) = &m.error {
                    ui.colored_label(egui::Color32::RED, format!("    {e}"));
                }
            }
            for l in &chain.lightmaps {
                ui.label(format!("  lightmap → Texm {l}"));
            }
            for fx in &chain.effects {
                ui.label(format!("  FXID {fx}"));
            }
            for f in &chain.failures {
                ui.colored_label(egui::Color32::RED, f);
            }
        });
}
