//! The HUD drawn with egui's painter on the original 640×480 layout
//! (GAMEPLAY §8), scaled to the window and centred: weapons list top
//! right, message box top, radar bottom middle, own and target panels in
//! the bottom corners, the reticle in the middle, the objectives screen
//! and the outcome panel over it (with Restart, and Missions when the
//! game has a main menu). Text in the install's `Tfnt` fonts when it has
//! them ([`crate::fonts`]), else egui's; plain shapes: the install's
//! interface sprites are not read yet.

use crate::HudSettings;
use crate::briefing::{Briefing, Shot};
use crate::fonts::{HudFont, InstallFonts};
use crate::main_menu::MainMenu;
use crate::model::{GunRow, HudModel, Lamp, ObjectiveLine, Panel, Side};
use crate::texts::{InstallTexts, Word};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, StrokeKind};
use iron3d_script::{ObjectiveState, OutcomeResult};
use iron3d_world::mission::{MissionChange, MissionCommand};
use std::sync::Arc;

/// The layout's size.
const LAYOUT: egui::Vec2 = egui::Vec2::new(640.0, 480.0);
/// The radar's centre and radius on the layout.
const RADAR: (Pos2, f32) = (Pos2::new(320.0, 420.0), 52.0);
/// One turn of the radar's sweep, s of real time.
const SWEEP_S: f32 = 2.0;

const GREEN: Color32 = Color32::from_rgb(80, 220, 90);
const RED: Color32 = Color32::from_rgb(230, 60, 50);
const AMBER: Color32 = Color32::from_rgb(240, 190, 60);
const GLASS: Color32 = Color32::from_rgba_premultiplied(0, 20, 10, 150);
const INK: Color32 = Color32::from_rgb(190, 240, 200);

/// Text of this layout size and over is a title, in `MENU_FONT`.
const TITLE_SIZE: f32 = 14.0;

/// The layout mapped onto the screen, with the install's fonts.
struct Layout {
    origin: Pos2,
    scale: f32,
    ink: Ink,
}

/// The install's fonts with their atlases on the GPU.
#[derive(Default, Clone)]
pub(crate) struct Ink {
    game: Option<(Arc<HudFont>, egui::TextureHandle)>,
    menu: Option<(Arc<HudFont>, egui::TextureHandle)>,
}

impl Ink {
    /// Uploads the atlases of `fonts` (once: the fonts are read at start).
    fn of(ctx: &egui::Context, fonts: &InstallFonts) -> Self {
        let upload = |font: &Option<Arc<HudFont>>| {
            let font = font.clone()?;
            let size = [font.atlas.width as usize, font.atlas.height as usize];
            let image = egui::ColorImage::from_rgba_unmultiplied(size, &font.atlas.pixels);
            let texture = ctx.load_texture(&font.name, image, egui::TextureOptions::NEAREST);
            Some((font, texture))
        };
        Self {
            game: upload(&fonts.game),
            menu: upload(&fonts.menu),
        }
    }
}

impl Layout {
    fn of(screen: Rect, ink: Ink) -> Self {
        let scale = (screen.width() / LAYOUT.x).min(screen.height() / LAYOUT.y);
        let origin = screen.center() - LAYOUT * scale / 2.0;
        Self { origin, scale, ink }
    }

    /// One line of text anchored at `at`: in the install's font (titles
    /// in `MENU_FONT`, else `GAME_FONT`) at its own pixel size scaled with
    /// the layout, else in egui's at `size` layout pixels.
    fn text(
        &self,
        p: &egui::Painter,
        at: Pos2,
        align: Align2,
        text: impl ToString,
        size: f32,
        colour: Color32,
    ) {
        let text = text.to_string();
        let ink = match size >= TITLE_SIZE {
            true => self.ink.menu.as_ref().or(self.ink.game.as_ref()),
            false => self.ink.game.as_ref(),
        };
        let Some((font, texture)) = ink else {
            p.text(
                at,
                align,
                text,
                FontId::monospace(size * self.scale),
                colour,
            );
            return;
        };
        let (glyphs, width) = font.layout(&text);
        let height = font.line_height();
        let line = align.anchor_size(at, egui::vec2(width, height) * self.scale);
        let mut mesh = egui::Mesh::with_texture(texture.id());
        for g in glyphs {
            let min = line.min + egui::vec2(g.x * self.scale, 0.0);
            let quad = Rect::from_min_size(min, egui::vec2(g.width, height) * self.scale);
            let uv = Rect::from_min_max(Pos2::new(g.uv[0], g.uv[1]), Pos2::new(g.uv[2], g.uv[3]));
            mesh.add_rect_with_uv(quad, uv, colour);
        }
        p.add(egui::Shape::mesh(mesh));
    }

    fn at(&self, x: f32, y: f32) -> Pos2 {
        self.origin + egui::Vec2::new(x, y) * self.scale
    }

    fn rect(&self, x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect::from_min_size(self.at(x, y), egui::Vec2::new(w, h) * self.scale)
    }
}

/// Draws the HUD of this frame.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw(
    mut contexts: EguiContexts,
    model: Res<HudModel>,
    settings: Res<HudSettings>,
    briefing: Res<Briefing>,
    time: Res<Time<Real>>,
    mut change: ResMut<MissionChange>,
    main_menu: Option<Res<MainMenu>>,
    fonts: Res<InstallFonts>,
    texts: Res<InstallTexts>,
    mut ink: Local<Option<Ink>>,
) {
    if !settings.shown && briefing.shot.is_none() {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("iron3d-hud"),
    ));
    let ink = ink.get_or_insert_with(|| Ink::of(ctx, &fonts)).clone();
    let l = Layout::of(ctx.content_rect(), ink);
    if let Some(shot) = &briefing.shot {
        letterbox(&painter, &l, ctx.content_rect(), &briefing.title, shot);
        return;
    }
    weapons(&painter, &l, &model.guns, &texts);
    messages(&painter, &l, &model.messages);
    let sweep = (time.elapsed_secs() / SWEEP_S).fract() * std::f32::consts::TAU;
    radar(&painter, &l, &model, sweep);
    if let Some(own) = &model.own {
        panel(&painter, &l, own, 8.0, GREEN);
    }
    if let Some(target) = &model.target {
        panel(&painter, &l, target, 472.0, RED);
    }
    reticle(&painter, &l);
    if settings.objectives || model.objectives_at_start {
        objectives(&painter, &l, &model.objectives, &texts);
    }
    if let Some(outcome) = model.outcome {
        outcome_panel(&painter, &l, outcome, &texts);
        outcome_buttons(ctx, &l, &mut change, main_menu.is_some());
    }
}

fn weapons(p: &egui::Painter, l: &Layout, guns: &[GunRow], texts: &InstallTexts) {
    for (i, g) in guns.iter().enumerate() {
        let y = 8.0 + 18.0 * i as f32;
        p.rect_filled(l.rect(470.0, y, 162.0, 16.0), 2.0, GLASS);
        if g.selected {
            p.rect_stroke(
                l.rect(470.0, y, 162.0, 16.0),
                2.0,
                Stroke::new(1.0, INK),
                StrokeKind::Inside,
            );
        }
        l.text(
            p,
            l.at(476.0, y + 8.0),
            Align2::LEFT_CENTER,
            g.key,
            11.0,
            INK,
        );
        let lamp = match g.lamp {
            Lamp::Ready => GREEN,
            Lamp::Busy => AMBER,
            Lamp::Empty => RED,
        };
        p.circle_filled(l.at(496.0, y + 8.0), 4.0 * l.scale, lamp);
        // Unlimited rounds read INF (5094), as the original's list does.
        let rounds = g
            .rounds
            .map_or_else(|| texts.get(Word::Unlimited).to_string(), |r| r.to_string());
        l.text(
            p,
            l.at(540.0, y + 8.0),
            Align2::RIGHT_CENTER,
            rounds,
            11.0,
            INK,
        );
        p.rect_stroke(
            l.rect(550.0, y + 5.0, 76.0, 6.0),
            0.0,
            Stroke::new(1.0, INK),
            StrokeKind::Inside,
        );
        p.rect_filled(l.rect(550.0, y + 5.0, 76.0 * g.charge, 6.0), 0.0, GREEN);
    }
}

fn messages(p: &egui::Painter, l: &Layout, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    p.rect_filled(l.rect(8.0, 8.0, 450.0, 6.0 * 14.0 + 6.0), 2.0, GLASS);
    for (i, line) in lines.iter().enumerate() {
        let y = 11.0 + 14.0 * i as f32;
        l.text(p, l.at(14.0, y), Align2::LEFT_TOP, line, 11.0, INK);
    }
}

fn radar(p: &egui::Painter, l: &Layout, model: &HudModel, sweep: f32) {
    let (centre, radius) = (l.at(RADAR.0.x, RADAR.0.y), RADAR.1 * l.scale);
    p.circle_filled(centre, radius, GLASS);
    p.circle_stroke(centre, radius, Stroke::new(1.0, INK));
    p.circle_stroke(centre, radius / 2.0, Stroke::new(0.5, INK));
    let tip = centre + egui::Vec2::new(sweep.sin(), -sweep.cos()) * radius;
    p.line_segment([centre, tip], Stroke::new(1.0, GREEN));
    for c in &model.contacts {
        let colour = match c.side {
            Side::Own => GREEN,
            Side::Hostile => RED,
            Side::Other => AMBER,
        };
        let at = centre + egui::Vec2::new(c.at.x, -c.at.y) * radius;
        p.circle_filled(at, 2.5 * l.scale, colour);
    }
    p.circle_filled(centre, 2.0 * l.scale, INK);
}

fn panel(p: &egui::Painter, l: &Layout, panel: &Panel, x: f32, colour: Color32) {
    let y = 400.0;
    p.rect_filled(l.rect(x, y, 160.0, 72.0), 2.0, GLASS);
    l.text(
        p,
        l.at(x + 6.0, y + 4.0),
        Align2::LEFT_TOP,
        &panel.name,
        10.0,
        INK,
    );
    p.rect_stroke(
        l.rect(x + 6.0, y + 20.0, 148.0, 8.0),
        0.0,
        Stroke::new(1.0, INK),
        StrokeKind::Inside,
    );
    p.rect_filled(
        l.rect(x + 6.0, y + 20.0, 148.0 * panel.life.clamp(0.0, 1.0), 8.0),
        0.0,
        colour,
    );
    for (i, life) in panel.nodes.iter().take(24).enumerate() {
        let (col, row) = ((i % 12) as f32, (i / 12) as f32);
        p.rect_filled(
            l.rect(x + 6.0 + col * 12.5, y + 34.0 + row * 11.0, 10.0, 9.0),
            1.0,
            part_tint(*life),
        );
    }
    if let Some(sectors) = &panel.shield {
        shield_sectors(p, l, sectors, (x + 6.0, y + 58.0));
    }
}

/// A part's tint at `life` (0–1): `(0.5, 0, 0) + life × (−0.5, 0.5, 0)`,
/// dark red when destroyed to dark green when whole (openparkan
/// `docs/35-hud.md`, the panels' parts of the unit).
fn part_tint(life: f32) -> Color32 {
    let life = life.clamp(0.0, 1.0);
    let channel = |v: f32| (255.0 * v).round() as u8;
    Color32::from_rgb(channel(0.5 - 0.5 * life), channel(0.5 * life), 0)
}

/// A shield sector's tint at `fill` (0–1): red when empty, green when
/// full (openparkan `docs/35-hud.md`: `(255 − v, v, 0)`, `v = 255 × fill`).
fn sector_tint(fill: f32) -> Color32 {
    let v = (255.0 * fill.clamp(0.0, 1.0)).round() as u8;
    Color32::from_rgb(255 - v, v, 0)
}

/// A shield's six sectors in a row (front, back, left, right, top,
/// bottom), each a frame filled as far as the sector is, in its tint.
fn shield_sectors(p: &egui::Painter, l: &Layout, sectors: &[f32], (x, y): (f32, f32)) {
    const LETTERS: [&str; 6] = ["F", "B", "L", "R", "T", "D"];
    for (i, (fill, letter)) in sectors.iter().zip(LETTERS).enumerate() {
        let left = x + i as f32 * 25.0;
        l.text(p, l.at(left, y), Align2::LEFT_TOP, letter, 8.0, INK);
        let (bar_x, width) = (left + 7.0, 16.0);
        p.rect_stroke(
            l.rect(bar_x, y + 1.0, width, 6.0),
            0.0,
            Stroke::new(1.0, INK),
            StrokeKind::Inside,
        );
        p.rect_filled(
            l.rect(bar_x, y + 1.0, width * fill.clamp(0.0, 1.0), 6.0),
            0.0,
            sector_tint(*fill),
        );
    }
}

fn reticle(p: &egui::Painter, l: &Layout) {
    let c = l.at(320.0, 240.0);
    let s = 6.0 * l.scale;
    let stroke = Stroke::new(1.5, GREEN);
    for d in [
        egui::vec2(1.0, 0.0),
        egui::vec2(-1.0, 0.0),
        egui::vec2(0.0, 1.0),
        egui::vec2(0.0, -1.0),
    ] {
        p.line_segment([c + d * s, c + d * s * 2.5], stroke);
    }
}

/// The objectives screen: the primary objectives under their header, then
/// the additional ones, each with its state, and how to close it.
fn objectives(p: &egui::Painter, l: &Layout, lines: &[ObjectiveLine], texts: &InstallTexts) {
    let (primary, additional): (Vec<&ObjectiveLine>, Vec<&ObjectiveLine>) =
        lines.iter().partition(|o| o.primary);
    let sections = [
        (Word::PrimaryObjectives, primary),
        (Word::AdditionalObjectives, additional),
    ];
    let rows: usize = sections.iter().map(|(_, l)| 1 + l.len()).sum();
    let h = 30.0 + 16.0 * rows as f32;
    p.rect_filled(l.rect(120.0, 120.0, 400.0, h), 4.0, GLASS);
    let mut y = 128.0;
    for (header, section) in sections {
        l.text(
            p,
            l.at(320.0, y),
            Align2::CENTER_TOP,
            texts.get(header),
            12.0,
            INK,
        );
        y += 16.0;
        for o in section {
            let (state, colour) = match o.state {
                ObjectiveState::Open => (Word::InProgress, INK),
                ObjectiveState::Complete => (Word::Complete, GREEN),
                ObjectiveState::Failed => (Word::Failed, RED),
            };
            let line = format!("{}: {}", o.text, texts.get(state));
            l.text(p, l.at(130.0, y), Align2::LEFT_TOP, line, 10.0, colour);
            y += 16.0;
        }
    }
    let close = texts.get(Word::PressToClose).replacen("%s", "F12", 1);
    l.text(
        p,
        l.at(320.0, y + 4.0),
        Align2::CENTER_TOP,
        close,
        10.0,
        INK,
    );
}

fn outcome_panel(p: &egui::Painter, l: &Layout, outcome: OutcomeResult, texts: &InstallTexts) {
    let (word, colour) = match outcome {
        OutcomeResult::Complete => (Word::MissionComplete, GREEN),
        OutcomeResult::Failed => (Word::MissionFailed, RED),
    };
    let text = texts.get(word);
    p.rect_filled(l.rect(170.0, 300.0, 300.0, 44.0), 4.0, GLASS);
    p.rect_stroke(
        l.rect(170.0, 300.0, 300.0, 44.0),
        4.0,
        Stroke::new(2.0, colour),
        StrokeKind::Inside,
    );
    l.text(
        p,
        l.at(320.0, 322.0),
        Align2::CENTER_CENTER,
        text,
        18.0,
        colour,
    );
}

/// Under the outcome panel: play the mission again, or (when the game
/// has a main menu) go back to it.
fn outcome_buttons(ctx: &egui::Context, l: &Layout, change: &mut MissionChange, menu: bool) {
    egui::Area::new(egui::Id::new("iron3d-outcome"))
        .fixed_pos(l.at(250.0, 350.0))
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Restart").clicked() {
                    change.request(MissionCommand::Restart);
                }
                if menu && ui.button("Missions").clicked() {
                    change.request(MissionCommand::Unload);
                }
            });
        });
}

/// The briefing's frame: its fade over the picture, black bars above
/// and below (y 0–75 and 405–480 of the layout, across the whole
/// window), the title in the top bar and the subtitle in the bottom one.
fn letterbox(p: &egui::Painter, l: &Layout, screen: Rect, title: &str, shot: &Shot) {
    let alpha = (shot.fade.clamp(0.0, 1.0) * 255.0) as u8;
    p.rect_filled(screen, 0.0, Color32::from_black_alpha(alpha));
    let top = Rect::from_x_y_ranges(screen.x_range(), screen.top()..=l.at(0.0, 75.0).y);
    let bottom = Rect::from_x_y_ranges(screen.x_range(), l.at(0.0, 405.0).y..=screen.bottom());
    p.rect_filled(top, 0.0, Color32::BLACK);
    p.rect_filled(bottom, 0.0, Color32::BLACK);
    l.text(
        p,
        l.at(320.0, 38.0),
        Align2::CENTER_CENTER,
        title,
        16.0,
        INK,
    );
    l.text(
        p,
        l.at(320.0, 442.0),
        Align2::CENTER_CENTER,
        &shot.text,
        12.0,
        INK,
    );
}
