//! The HUD drawn with egui's painter on the original 640×480 layout
//! (GAMEPLAY §8; openparkan `docs/35-hud.md` for the places), scaled to
//! the window and centred: weapons list top right, message box top, radar
//! bottom middle, target and own panels in the bottom corners, the
//! reticle in the middle, the objectives screen and the outcome panel
//! over it (with Restart, and Missions when the game has a main menu).
//! Text in the install's `Tfnt` fonts when it has them ([`crate::fonts`]),
//! else egui's; shapes in the install's interface sprites
//! ([`crate::art`]), each a plain shape where the install lacks it.

use crate::HudSettings;
use crate::art::{InstallArt, piece};
use crate::briefing::{Briefing, Shot};
use crate::fonts::{HudFont, InstallFonts};
use crate::main_menu::MainMenu;
use crate::model::{
    Gauges, GunRow, HudModel, Lamp, MESSAGE_LINES, MessageBox, ObjectiveLine, Panel, RADAR_RANGE,
    Sender, Side,
};
use crate::resources::ResourceRows;
use crate::texts::{InstallTexts, Word};
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, StrokeKind};
use iron3d_formats::config::sprites::InterfaceArt;
use iron3d_script::{ObjectiveState, OutcomeResult};
use iron3d_world::mission::{MissionChange, MissionCommand};
use std::sync::Arc;

/// The layout's size.
const LAYOUT: egui::Vec2 = egui::Vec2::new(640.0, 480.0);
/// The radar's centre and the radius its contacts reach on the layout.
const RADAR_CENTRE: (f32, f32) = (320.0, 396.0);
const RADAR_R: f32 = 60.0;
/// The cockpit camera's field of view, rad (openparkan docs/35 "The view
/// wedge is the camera's field of view": 1.3 on every camera).
const VIEW_FOV: f32 = 1.3;
/// The sweep ring's period, s of real time (the hero's radar: 750 ms ×
/// 0.002, openparkan docs/35 "The sweep ring and its ping").
const SWEEP_S: f32 = 1.5;
/// A compound-control row's height and its name bar's width.
const ROW_H: f32 = 19.0;
const BAR_W: f32 = 120.0;

const GREEN: Color32 = Color32::from_rgb(80, 220, 90);
const RED: Color32 = Color32::from_rgb(230, 60, 50);
const AMBER: Color32 = Color32::from_rgb(240, 190, 60);
const GLASS: Color32 = Color32::from_rgba_premultiplied(0, 20, 10, 150);
const INK: Color32 = Color32::from_rgb(190, 240, 200);
/// The message box's text (`#dcdcdc`).
const MESSAGE_INK: Color32 = Color32::from_rgb(220, 220, 220);
/// Plain stand-ins for pieces the install lacks: a text box, a row's
/// ends, the translucent name bar.
const BODY: Color32 = Color32::from_rgb(20, 45, 25);
const EDGE: Color32 = Color32::from_rgb(90, 200, 110);
const RAY: Color32 = Color32::from_rgba_premultiplied(0, 20, 0, 51);
/// The lamps' stand-ins: red, yellow1, yellow2, green, black.
const LAMP_COLOURS: [Color32; 5] = [
    Color32::from_rgb(230, 40, 30),
    Color32::from_rgb(230, 200, 40),
    Color32::from_rgb(250, 240, 120),
    Color32::from_rgb(40, 230, 60),
    Color32::from_rgb(16, 16, 16),
];

/// Text of this layout size and over is a title, in `MENU_FONT`.
const TITLE_SIZE: f32 = 14.0;

/// The layout mapped onto the screen, with the install's fonts and
/// sprites.
struct Layout<'a> {
    origin: Pos2,
    scale: f32,
    ink: &'a Ink,
    pages: &'a Pages,
}

/// A sprite as drawn: its page's texture, its UVs `[u0, v0, u1, v1]`, its
/// quarter turns, its height in rows and one row's height in V.
struct SpriteUv {
    texture: egui::TextureId,
    uv: [f32; 4],
    turns: u8,
    rows: u32,
    row_v: f32,
}

/// The install's interface sprites with their pages on the GPU.
#[derive(Default)]
pub(crate) struct Pages {
    art: Arc<InterfaceArt>,
    textures: Vec<egui::TextureHandle>,
}

impl Pages {
    /// Uploads the pages of `art` (once: the sprites are read at start).
    fn of(ctx: &egui::Context, art: &InstallArt) -> Self {
        let textures = art
            .0
            .pages
            .iter()
            .map(|page| {
                let image = &page.image;
                let size = [image.width as usize, image.height as usize];
                let pixels = egui::ColorImage::from_rgba_unmultiplied(size, &image.pixels);
                ctx.load_texture(&page.name, pixels, egui::TextureOptions::NEAREST)
            })
            .collect();
        Self {
            art: art.0.clone(),
            textures,
        }
    }
}

/// The install's fonts with their atlases on the GPU.
#[derive(Default)]
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

impl<'a> Layout<'a> {
    fn of(screen: Rect, ink: &'a Ink, pages: &'a Pages) -> Self {
        let scale = (screen.width() / LAYOUT.x).min(screen.height() / LAYOUT.y);
        let origin = screen.center() - LAYOUT * scale / 2.0;
        Self {
            origin,
            scale,
            ink,
            pages,
        }
    }

    /// Draws the sprite `name` on the quad `[x0, y0, x1, y1]` tinted by
    /// `colour`: corner `(x0, y0)` takes the sprite's top left, so a quad
    /// given `x1 < x0` draws it mirrored, and the sprite's quarter turns
    /// move its corners round clockwise. `false` (nothing drawn) when the
    /// install lacks it.
    fn sprite(&self, p: &egui::Painter, name: &str, corners: [f32; 4], colour: Color32) -> bool {
        self.sprite_from(p, name, 0, corners, colour)
    }

    /// Draws every one of `quads` it can; whether it drew them all.
    fn sprites(&self, p: &egui::Painter, quads: &[(&str, [f32; 4])], colour: Color32) -> bool {
        let drawn = quads
            .iter()
            .filter(|(name, corners)| self.sprite(p, name, *corners, colour))
            .count();
        drawn == quads.len()
    }

    /// [`Self::sprite`] of the sprite less its top `skip` rows.
    fn sprite_from(
        &self,
        p: &egui::Painter,
        name: &str,
        skip: u32,
        [x0, y0, x1, y1]: [f32; 4],
        colour: Color32,
    ) -> bool {
        let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
        self.sprite_on(p, name, skip, corners, colour)
    }

    /// Draws the sprite `name` less its top `skip` rows on four corners
    /// (its top left, top right, bottom right, bottom left before its
    /// quarter turns).
    fn sprite_on(
        &self,
        p: &egui::Painter,
        name: &str,
        skip: u32,
        corners: [(f32, f32); 4],
        colour: Color32,
    ) -> bool {
        let Some(cut) = self.cut(name) else {
            return false;
        };
        let [u0, v0, u1, v1] = cut.uv;
        let h = skip.min(cut.rows) as f32 * cut.row_v;
        let uv = [(u0, v0 + h), (u1, v0 + h), (u1, v1), (u0, v1)];
        let mut mesh = egui::Mesh::with_texture(cut.texture);
        for (k, (x, y)) in corners.into_iter().enumerate() {
            let (u, v) = uv[(k + 4 - usize::from(cut.turns % 4)) % 4];
            mesh.vertices.push(egui::epaint::Vertex {
                pos: self.at(x, y),
                uv: Pos2::new(u, v),
                color: colour,
            });
        }
        mesh.indices.extend([0, 1, 2, 0, 2, 3]);
        p.add(egui::Shape::mesh(mesh));
        true
    }

    /// The sprite `name` on its page's texture.
    fn cut(&self, name: &str) -> Option<SpriteUv> {
        let cut = self.pages.art.cut(name)?;
        let texture = self.pages.textures.get(cut.page)?;
        let image = &self.pages.art.pages[cut.page].image;
        let s = &cut.sprite;
        let (w, h) = (image.width as f32, image.height as f32);
        Some(SpriteUv {
            texture: texture.id(),
            // Half a texel in at the near edges, as the original cuts them.
            uv: [
                (s.x as f32 + 0.5) / w,
                (s.y as f32 + 0.5) / h,
                (s.x + s.width) as f32 / w,
                (s.y + s.height) as f32 / h,
            ],
            turns: s.turns,
            rows: s.height,
            row_v: 1.0 / h,
        })
    }

    /// A triangle of the fan about the centre of the sprite `name`: its
    /// apex at `(x, y)`, its far corners `radius` away at `angles` (rad,
    /// counter-clockwise from the right, y up), taking the same angles on
    /// the fan's circle (the sprite's inscribed one).
    fn fan(
        &self,
        p: &egui::Painter,
        name: &str,
        (x, y): (f32, f32),
        radius: f32,
        angles: [f32; 2],
    ) -> bool {
        let Some(cut) = self.cut(name) else {
            return false;
        };
        let [u0, v0, u1, v1] = cut.uv;
        let (cu, cv, r) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0, (u1 - u0) / 2.0);
        let mut mesh = egui::Mesh::with_texture(cut.texture);
        let mut vertex = |at: (f32, f32), uv: (f32, f32)| {
            mesh.vertices.push(egui::epaint::Vertex {
                pos: self.at(at.0, at.1),
                uv: Pos2::new(uv.0, uv.1),
                color: Color32::WHITE,
            });
        };
        vertex((x, y), (cu, cv));
        for a in angles {
            let (sin, cos) = a.sin_cos();
            vertex(
                (x + radius * cos, y - radius * sin),
                (cu + r * cos, cv - r * sin),
            );
        }
        mesh.indices.extend([0, 1, 2]);
        p.add(egui::Shape::mesh(mesh));
        true
    }

    /// A line's height at `size` (the install's font's own), layout px.
    fn line_height(&self, size: f32) -> f32 {
        match &self.ink.game {
            Some((font, _)) => font.line_height(),
            None => size,
        }
    }

    /// How wide `text` is at `size`, layout px.
    fn width(&self, text: &str, size: f32) -> f32 {
        match &self.ink.game {
            Some((font, _)) => font.layout(text).1,
            None => 0.6 * size * text.chars().count() as f32,
        }
    }

    /// `text` in at most `max` lines no wider than `width` at `size`
    /// ([`wrap_clipped`]).
    fn wrap(&self, text: &str, width: f32, size: f32, max: usize) -> Vec<String> {
        wrap_clipped(text, width, max, |t| self.width(t, size))
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
    art: Res<InstallArt>,
    mut ink: Local<Option<(Ink, Pages)>>,
) {
    if !settings.shown && briefing.shot.is_none() {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("iron3d-hud"),
    ));
    let (ink, pages) = ink.get_or_insert_with(|| (Ink::of(ctx, &fonts), Pages::of(ctx, &art)));
    let l = Layout::of(ctx.content_rect(), ink, pages);
    if let Some(shot) = &briefing.shot {
        letterbox(&painter, &l, ctx.content_rect(), &briefing.title, shot);
        return;
    }
    weapons(&painter, &l, &model.guns, &texts);
    messages(&painter, &l, model.message.as_ref(), &texts);
    radar(
        &painter,
        &l,
        &model,
        (time.elapsed_secs() / SWEEP_S).fract(),
    );
    if let Some(target) = &model.target {
        panel(&painter, &l, target, false);
    }
    if let Some(own) = &model.own {
        panel(&painter, &l, own, true);
    }
    reticle(&painter, &l);
    if let Some(rows) = &model.resources {
        resources(&painter, &l, rows, &texts);
    }
    if settings.objectives || model.objectives_at_start {
        objectives(&painter, &l, &model.objectives, &texts);
    }
    if let Some(outcome) = model.outcome {
        outcome_panel(&painter, &l, outcome, &texts);
        outcome_buttons(ctx, &l, &mut change, main_menu.is_some());
    }
}

/// The spans `(left, right)` of pieces `widths` wide drawn with a pen
/// running right to left from `x` (openparkan docs/35 "A row is built
/// with a pen"): a piece `w` wide covers `pen − w − 1` to `pen`, mirrored,
/// and the pen moves back by `w`.
fn pen_spans(x: f32, widths: impl IntoIterator<Item = f32>) -> Vec<(f32, f32)> {
    let mut pen = x;
    widths
        .into_iter()
        .map(|w| {
            let span = (pen - w - 1.0, pen);
            pen -= w;
            span
        })
        .collect()
}

/// A weapons row's pieces from the right, with their widths and plain
/// stand-ins (docs/35 "The weapons list"): the end, the key's box, the
/// lamp (`lamp` of [`piece::LAMPS`]), the rounds' box, the separator,
/// the emitter, the name bar, its end.
fn weapon_row(lamp: usize) -> [(&'static str, f32, Color32); 8] {
    use piece::*;
    [
        (ENDING_TEXT, 5.0, EDGE),
        (BODY_TEXT, 12.0, BODY),
        (LAMPS[lamp], 19.0, LAMP_COLOURS[lamp]),
        (BODY_TEXT, 24.0, BODY),
        (SEPARATOR_LEFT, 5.0, EDGE),
        (RAY_EMITTER_OFF, 10.0, EDGE),
        (RAY_BODY, BAR_W, RAY),
        (RAY_ENDING, 6.0, RAY),
    ]
}

/// The weapons list, a row a gun from the top right (openparkan docs/35
/// "The weapons list"): the key, the lamp, the rounds, the name over the
/// charge bar.
fn weapons(p: &egui::Painter, l: &Layout, guns: &[GunRow], texts: &InstallTexts) {
    for (i, g) in guns.iter().enumerate() {
        let y = ROW_H * i as f32;
        let lamp = match (g.selected, g.lamp) {
            (false, _) => 4,
            (true, Lamp::Ready) => 3,
            (true, Lamp::Busy) => 1,
            (true, Lamp::Empty) => 0,
        };
        let row = weapon_row(lamp);
        let spans = pen_spans(640.0, row.iter().map(|(_, w, _)| *w));
        for ((name, _, plain), &(left, right)) in row.iter().zip(&spans) {
            if !l.sprite(p, name, [right, y, left, y + ROW_H], Color32::WHITE) {
                p.rect_filled(l.rect(left, y, right - left, ROW_H), 0.0, *plain);
            }
        }
        let (key, rounds, bar) = (spans[1], spans[3], spans[6]);
        let label = |(left, right): (f32, f32), text: &str| {
            let at = l.at((left + right) / 2.0, y + ROW_H / 2.0);
            l.text(p, at, Align2::CENTER_CENTER, text, 10.0, Color32::WHITE);
        };
        label(key, &g.key.to_string());
        // Unlimited rounds read INF (5094), as the original's list does.
        let count = g.rounds.map_or_else(
            || texts.get(Word::Unlimited).to_string(),
            |r| format!("{r:4}"),
        );
        label(rounds, &count);
        let percent = (g.charge.clamp(0.0, 1.0) * 100.0).round();
        if percent > 0.0 {
            let fill = match percent {
                p if p < 20.0 => Color32::from_rgba_unmultiplied(128, 0, 0, 128),
                p if p < 80.0 => Color32::from_rgba_unmultiplied(128, 128, 0, 128),
                _ => Color32::from_rgba_unmultiplied(0, 128, 0, 128),
            };
            let (from, to) = (bar.1 - BAR_W * percent / 100.0, bar.1 - 2.0);
            let rect = l.rect(from, y + 3.0, (to - from).max(0.0), ROW_H - 6.0);
            p.rect_filled(rect, 0.0, fill);
        }
        label(bar, texts.get(Word::HeroGun(i)));
    }
}

/// The message box at the top (openparkan docs/35 "The message box"): x
/// 230, 182 wide, its sender's header, then the text in at most six
/// lines, in a frame of pieces round a translucent green. (The original's
/// footer, pointing a truncated text to the history screen, is left out:
/// there is no history screen.)
fn messages(p: &egui::Painter, l: &Layout, message: Option<&MessageBox>, texts: &InstallTexts) {
    let Some(message) = message else { return };
    let (x0, y0, width) = (230.0, 0.0, 182.0);
    let size = 10.0;
    let step = (l.line_height(size) + 2.0).round();
    let lines = l.wrap(&message.text, width - 10.0, size, MESSAGE_LINES);
    // The header's line and a half, the text's lines, 16 of margins.
    let x1 = x0 + width;
    let y1 = y0 + (lines.len() as f32 + 1.0) * step + (step / 2.0).floor() + 16.0;
    p.rect_filled(
        l.rect(x0 + 5.0, y0 + 5.0, width - 10.0, y1 - y0 - 10.0),
        0.0,
        Color32::from_rgba_unmultiplied(0, 128, 0, 128),
    );
    frame(p, l, [x0, y0, x1, y1]);
    let header = texts.get(match message.from {
        Sender::System => Word::FromSystem,
        Sender::Training => Word::FromTraining,
        Sender::Information => Word::FromInformation,
    });
    let at = l.at(x0 + 8.0, y0 + 9.0);
    l.text(p, at, Align2::LEFT_TOP, header, size, Color32::WHITE);
    for (i, line) in lines.iter().enumerate() {
        let at = l.at(x0 + 8.0, y0 + 9.0 + step * (1.5 + i as f32));
        l.text(p, at, Align2::LEFT_TOP, line, size, MESSAGE_INK);
    }
}

/// `text` broken at spaces into lines no wider than `width` by `width_of`
/// (a word wider than that alone on its line), at most `max` of them: a
/// longer text keeps `max` lines, the last losing words from its end until
/// it and `...` fit 0.95 of the width, then ending in `...` (openparkan
/// docs/35 "The text").
fn wrap_clipped(text: &str, width: f32, max: usize, width_of: impl Fn(&str) -> f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if width_of(&format!("{line} {word}")) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > max {
        lines.truncate(max);
        if let Some(last) = lines.last_mut() {
            let mut words: Vec<&str> = last.split(' ').collect();
            while words.len() > 1 && width_of(&format!("{}...", words.join(" "))) > 0.95 * width {
                words.pop();
            }
            *last = format!("{}...", words.join(" "));
        }
    }
    lines
}

/// A frame of corners and edges round `[x0, y0, x1, y1]` (openparkan
/// docs/35 "The message box": the corners 8 × 8, the edges as thick as
/// their art, each side's outer line outward).
fn frame(p: &egui::Painter, l: &Layout, [x0, y0, x1, y1]: [f32; 4]) {
    use piece::*;
    let corners = [
        [x0, y0, x0 + 8.0, y0 + 8.0],
        [x1 - 8.0, y0, x1, y0 + 8.0],
        [x1 - 8.0, y1 - 8.0, x1, y1],
        [x0, y1 - 8.0, x0 + 8.0, y1],
    ];
    let edges = [
        (FRAME_EDGE_H, [x0 + 8.0, y0, x1 - 7.0, y0 + 5.0]),
        (FRAME_EDGE_H, [x0 + 8.0, y1, x1 - 7.0, y1 - 5.0]),
        (FRAME_EDGE_V, [x0 + 5.0, y0 + 8.0, x0, y1 - 7.0]),
        (FRAME_EDGE_V, [x1 - 5.0, y0 + 8.0, x1, y1 - 7.0]),
    ];
    let quads: Vec<(&str, [f32; 4])> = FRAME_CORNERS
        .into_iter()
        .zip(corners)
        .chain(edges)
        .collect();
    let drawn = l.sprites(p, &quads, Color32::WHITE);
    if !drawn {
        let rect = Rect::from_min_max(l.at(x0, y0), l.at(x1, y1));
        p.rect_stroke(rect, 0.0, Stroke::new(1.0, INK), StrokeKind::Inside);
    }
}

/// The radar (openparkan docs/35 "The radar"): its disc about (320, 396)
/// from one half's art drawn twice, the sweep ring growing to the disc's
/// 60 units over a period, the contacts in their side's colour, the range
/// figure under it.
fn radar(p: &egui::Painter, l: &Layout, model: &HudModel, sweep: f32) {
    use piece::*;
    let (cx, cy) = RADAR_CENTRE;
    let centre = l.at(cx, cy);
    let left = l.sprite(p, RADAR_LEFT, [cx, 327.0, 221.0, 480.0], Color32::WHITE);
    let right = l.sprite(p, RADAR_RIGHT, [cx, 327.0, 421.0, 480.0], Color32::WHITE);
    if !(left && right) {
        p.circle_filled(centre, RADAR_R * l.scale, GLASS);
        p.circle_stroke(centre, RADAR_R * l.scale, Stroke::new(1.0, INK));
    }
    if let Some(g) = &model.gauges {
        gauges(p, l, g);
    }
    // The view wedge always points up: its far corners at ± half the
    // cockpit camera's field of view from up, 75 out.
    let half = VIEW_FOV / 2.0;
    let up = std::f32::consts::FRAC_PI_2;
    l.fan(p, VIEW_FAN, RADAR_CENTRE, 75.0, [up - half, up + half]);
    if let Some(g) = &model.gauges {
        compass(p, l, g.north);
    }
    let ring = Color32::from_rgba_unmultiplied(0, 155, 0, 140);
    p.circle_stroke(
        centre,
        (RADAR_R * sweep).floor() * l.scale,
        Stroke::new(1.0, ring),
    );
    for c in &model.contacts {
        let colour = match c.side {
            Side::Own => GREEN,
            Side::Hostile => RED,
            Side::Other => AMBER,
        };
        let at = centre + egui::Vec2::new(c.at.x, -c.at.y) * RADAR_R * l.scale;
        let half = (3.0 * l.scale).floor() / 2.0;
        p.rect_filled(
            Rect::from_center_size(at, egui::Vec2::splat(2.0 * half)),
            0.0,
            colour,
        );
    }
    let range = format!("{}", RADAR_RANGE.round());
    let at = l.at(303.0 + 37.0 / 2.0, 467.0);
    l.text(
        p,
        at,
        Align2::CENTER_TOP,
        range,
        10.0,
        Color32::from_rgb(0, 255, 0),
    );
}

/// The radar's two gauges (openparkan docs/35 "The altitude", "The
/// speed"): each an icon, a bar filling from the bottom (its art cut `e`
/// rows down) and its figure; the altitude full 100 m above the water and
/// empty 100 m below, the speed full at the top speed.
fn gauges(p: &egui::Painter, l: &Layout, g: &Gauges) {
    use piece::*;
    let orange = Color32::from_rgb(255, 180, 80);
    let altitude = ((g.altitude + 100) * 100 / 200).clamp(0, 100);
    let speed = match g.top {
        top if top > 0 => (g.speed * 100 / top).clamp(0, 100),
        _ => 0,
    };
    let gauges = [
        (
            ALTITUDE_ICON,
            230.0,
            altitude,
            (271.0, 240.0),
            g.altitude,
            226.0,
        ),
        (SPEED_ICON, 396.0, speed, (370.0, 401.0), g.speed, 388.0),
    ];
    for (icon, icon_x, percent, (x0, x1), figure, figure_x) in gauges {
        l.sprite(
            p,
            icon,
            [icon_x, 383.0, icon_x + 15.0, 411.0],
            Color32::WHITE,
        );
        let e = (100 - percent) * 105 / 100;
        let top = 347.0 + e as f32;
        if !l.sprite_from(p, GAUGE_BAR, e as u32, [x0, top, x1, 452.0], orange) {
            let rect = Rect::from_two_pos(l.at(x0, top), l.at(x1, 452.0));
            p.rect_filled(rect.shrink2(egui::vec2(10.0 * l.scale, 0.0)), 0.0, orange);
        }
        let at = l.at(figure_x + 14.0, 446.0);
        let text = figure.to_string();
        l.text(p, at, Align2::CENTER_TOP, text, 9.0, Color32::WHITE);
    }
}

/// The Ore and Energy rows (openparkan docs/23, "What the HUD shows"):
/// each its label, a bar filled to its percentage and the percentage
/// beside it; a row at 0 flashes.
// STAND-IN: the original shows them top right in strategic control,
// where the weapons list is not; their rectangles and art are not
// measured. Here: plain bars in the gauges' orange at the top left,
// clear of the weapons list and the message box.
fn resources(p: &egui::Painter, l: &Layout, rows: &ResourceRows, texts: &InstallTexts) {
    let orange = Color32::from_rgb(255, 180, 80);
    let lines = [
        (Word::Ore, rows.ore, 8.0),
        (Word::Energy, rows.energy, 24.0),
    ];
    for (word, row, y) in lines {
        if !row.lit {
            continue;
        }
        l.text(
            p,
            l.at(62.0, y),
            Align2::RIGHT_TOP,
            texts.get(word),
            9.0,
            Color32::WHITE,
        );
        let outline = l.rect(68.0, y + 1.0, 100.0, 9.0);
        p.rect_stroke(outline, 0.0, Stroke::new(1.0, INK), StrokeKind::Inside);
        let fill = l.rect(69.0, y + 2.0, 98.0 * f32::from(row.percent) / 100.0, 7.0);
        p.rect_filled(fill, 0.0, orange);
        let text = format!("{}%", row.percent);
        l.text(
            p,
            l.at(174.0, y),
            Align2::LEFT_TOP,
            text,
            9.0,
            Color32::WHITE,
        );
    }
}

/// North (blue) and south (red) on the radar's ring (openparkan docs/35
/// "North and south"): the arrow's top row 68 out and its bottom row 56
/// out, each ± 5° about its direction, so it points outward; `north` on
/// the disc, forward up.
fn compass(p: &egui::Painter, l: &Layout, north: Vec2) {
    let (cx, cy) = RADAR_CENTRE;
    // Clockwise from up.
    let bearing = north.x.atan2(north.y);
    let marks = [
        (bearing, Color32::from_rgb(10, 10, 225)),
        (
            bearing + std::f32::consts::PI,
            Color32::from_rgb(225, 10, 10),
        ),
    ];
    let at = |r: f32, a: f32| (cx + r * a.sin(), cy - r * a.cos());
    let spread = 5f32.to_radians();
    for (a, colour) in marks {
        let (left, right) = (a - spread, a + spread);
        let corners = [
            at(68.0, left),
            at(68.0, right),
            at(56.0, right),
            at(56.0, left),
        ];
        if !l.sprite_on(p, piece::COMPASS_ARROW, 0, corners, colour) {
            let (outer, inner) = (at(68.0, a), at(56.0, a));
            let line = [l.at(outer.0, outer.1), l.at(inner.0, inner.1)];
            p.line_segment(line, Stroke::new(2.0, colour));
        }
    }
}

/// A unit's panel in a bottom corner (openparkan docs/35 "The target
/// panel and the player's own unit"): the target's on the left, the
/// hero's on the right (the same art mirrored, 490 to the right), each
/// with its parts' tints where the original shows the unit, its shield
/// sectors round them, its life arc, and its name.
fn panel(p: &egui::Painter, l: &Layout, panel: &Panel, own: bool) {
    use piece::*;
    // Across: a target panel's x, or the own panel's mirror of it.
    let x = |v: f32| if own { 640.0 - v } else { v };
    if !l.sprite(
        p,
        TARGETER_BACK,
        [x(0.0), 306.0, x(150.0), 480.0],
        Color32::WHITE,
    ) {
        let rect = Rect::from_two_pos(l.at(x(0.0), 306.0), l.at(x(150.0), 480.0));
        p.rect_filled(rect, 2.0, GLASS);
    }
    let life_icon = if own {
        [496.0, 411.0, 511.0, 426.0]
    } else {
        [129.0, 411.0, 144.0, 426.0]
    };
    l.sprite(p, TARGETER_LIFE, life_icon, Color32::WHITE);
    // The parts, in the middle of the unit view's square (9, 315)–(137,
    // 443).
    let view_left = x(9.0).min(x(137.0));
    for (i, life) in panel.nodes.iter().take(36).enumerate() {
        let (col, row) = ((i % 6) as f32, (i / 6) as f32);
        let rect = l.rect(view_left + 34.0 + col * 10.0, 346.0 + row * 10.0, 8.0, 8.0);
        p.rect_filled(rect, 1.0, part_tint(*life));
    }
    if let Some(sectors) = &panel.shield {
        shield_sectors(p, l, sectors, if own { 491.0 } else { 0.0 });
    }
    // The life arc: its art cut from the top as life falls.
    let percent = (panel.life.clamp(0.0, 1.0) * 100.0).round() as u32;
    let cut = (94 * (100 - percent) / 100) as f32;
    let arc = Color32::from_rgb(0x19, 0xff, 0xaf);
    let corners = match own {
        false => [149.0, 314.0 + cut, 109.0, 408.0],
        true => [491.0, 314.0 + cut, 531.0, 408.0],
    };
    if !l.sprite_from(p, GAUGE_ARC, cut as u32, corners, arc) {
        let left = corners[0].min(corners[2]);
        p.rect_filled(
            l.rect(left + 17.0, corners[1], 6.0, 408.0 - corners[1]),
            0.0,
            arc,
        );
    }
    let name_colour = Color32::from_rgb(200, 200, 200);
    let at = l.at(x(4.0).min(x(142.0)) + 69.0, 460.0);
    l.text(p, at, Align2::CENTER_TOP, &panel.name, 10.0, name_colour);
    if let Some(distance) = panel.distance {
        if !l.sprite(
            p,
            TARGETER_RANGE,
            [108.0, 440.0, 147.0, 456.0],
            Color32::WHITE,
        ) {
            p.rect_filled(l.rect(108.0, 440.0, 39.0, 16.0), 0.0, BODY);
        }
        let at = l.at(112.0 + 31.0 / 2.0, 444.0);
        let text = format!("{}", distance.round());
        l.text(
            p,
            at,
            Align2::CENTER_TOP,
            text,
            9.0,
            Color32::from_rgb(0, 255, 0),
        );
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

/// The six shield sectors round the unit view, each its grey art tinted
/// by how full it is (openparkan docs/35 "Shields: six sectors"), `dx`
/// right of the target panel's places.
fn shield_sectors(p: &egui::Painter, l: &Layout, sectors: &[f32], dx: f32) {
    const PLACES: [[f32; 4]; 6] = [
        [44.0, 321.0, 105.0, 340.0],
        [30.0, 409.0, 119.0, 438.0],
        [16.0, 334.0, 42.0, 413.0],
        [133.0, 334.0, 107.0, 413.0],
        [40.0, 308.0, 109.0, 327.0],
        [22.0, 420.0, 127.0, 451.0],
    ];
    for ((fill, name), [x0, y0, x1, y1]) in sectors.iter().zip(piece::SHIELDS).zip(PLACES) {
        let corners = [x0 + dx, y0, x1 + dx, y1];
        if !l.sprite(p, name, corners, sector_tint(*fill)) {
            let rect = Rect::from_two_pos(l.at(corners[0], y0), l.at(corners[2], y1));
            p.rect_stroke(
                rect.shrink(rect.size().min_elem() / 3.0),
                0.0,
                Stroke::new(2.0, sector_tint(*fill)),
                StrokeKind::Inside,
            );
        }
    }
}

/// The reticle about the screen's centre, green (openparkan docs/35 "The
/// reticle"): the circle, the corner arcs mirrored into four corners, the
/// tick strips either side.
fn reticle(p: &egui::Painter, l: &Layout) {
    use piece::*;
    let green = Color32::from_rgb(55, 255, 55);
    let quads = [
        (RETICLE_CIRCLE, [288.0, 208.0, 352.0, 272.0]),
        (RETICLE_ARC, [279.0, 260.0, 300.0, 281.0]),
        (RETICLE_ARC, [279.0, 220.0, 300.0, 199.0]),
        (RETICLE_ARC, [361.0, 260.0, 340.0, 281.0]),
        (RETICLE_ARC, [361.0, 220.0, 340.0, 199.0]),
        (RETICLE_RULER, [232.0, 233.0, 314.0, 248.0]),
        (RETICLE_RULER, [408.0, 233.0, 326.0, 248.0]),
    ];
    let drawn = l.sprites(p, &quads, green);
    if !drawn {
        let c = l.at(320.0, 240.0);
        let s = 6.0 * l.scale;
        let stroke = Stroke::new(1.5, green);
        for d in [
            egui::vec2(1.0, 0.0),
            egui::vec2(-1.0, 0.0),
            egui::vec2(0.0, 1.0),
            egui::vec2(0.0, -1.0),
        ] {
            p.line_segment([c + d * s, c + d * s * 2.5], stroke);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A message wraps at the box's width; past six lines the sixth ends
    /// in `...` within 0.95 of the width.
    #[test]
    fn a_long_message_keeps_six_lines_ending_in_dots() {
        let width_of = |t: &str| t.chars().count() as f32;
        let text = "one two three four five six seven eight nine ten eleven twelve thirteen";
        assert_eq!(
            wrap_clipped(text, 9.0, 6, width_of),
            [
                "one two",
                "three",
                "four five",
                "six seven",
                "eight",
                "nine..."
            ]
        );
        assert_eq!(
            wrap_clipped("a bb ccc", 20.0, 6, width_of),
            ["a bb ccc"],
            "a short one as it is"
        );
        assert_eq!(wrap_clipped("", 20.0, 6, width_of), Vec::<String>::new());
    }

    /// A weapons row spans what openparkan docs/35 derives on the 640 × 480
    /// screen: 634–640, 622–635, 603–623, 579–604, 574–580, 564–575,
    /// 444–565, 438–445.
    #[test]
    fn a_weapons_row_lies_where_the_original_draws_it() {
        let widths = weapon_row(0).map(|(_, w, _)| w);
        let spans = pen_spans(640.0, widths);
        assert_eq!(
            spans,
            [
                (634.0, 640.0),
                (622.0, 635.0),
                (603.0, 623.0),
                (579.0, 604.0),
                (574.0, 580.0),
                (564.0, 575.0),
                (444.0, 565.0),
                (438.0, 445.0),
            ]
        );
    }
}
