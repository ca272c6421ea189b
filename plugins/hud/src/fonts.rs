//! The install's interface fonts (openparkan `docs/12-rsli.md`): the HUD's
//! text in `GAME_FONT`, its titles in `MENU_FONT`, as the 640 × 480 font
//! substitute of `ui/menu_resources.cfg` and the `fonts` descriptor of
//! `ui/game_resources.cfg` bind them to `Tfnt`s of `ui/font.lib`
//! ([`iron3d_formats::config::ui_resources`]). Read once as the HUD starts,
//! through the game's one `Source`; an install without them (or whose
//! files do not read: the error is logged and kept) draws with egui's
//! font.
//!
//! A glyph is a quad `advance + 1` wide and `height + 1` tall at the pen,
//! its texture span `u0..u1` across and `v0..v0 + v_span` down; the pen
//! moves `advance + spacing`. Text is CP1251 bytes, one glyph each.

use bevy::prelude::*;
use iron3d_assets::IronSourceHandle;
use iron3d_formats::config::ui_resources::{self, GAME_FONT, LAYOUT_SCREEN, MENU_FONT};
use iron3d_formats::proto::tfnt::Tfnt;
use iron3d_formats::texm::{Rgba8Image, Texm};
use std::sync::Arc;

/// The install's fonts for the HUD.
#[derive(Resource, Debug, Clone, Default)]
pub struct InstallFonts {
    /// `GAME_FONT`: the HUD's text.
    pub game: Option<Arc<HudFont>>,
    /// `MENU_FONT`: titles.
    pub menu: Option<Arc<HudFont>>,
    /// Why a font the install binds could not be read.
    pub error: Option<String>,
}

/// A font with its atlas decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct HudFont {
    /// `library/entry`.
    pub name: String,
    pub font: Tfnt,
    pub atlas: Rgba8Image,
}

/// One glyph of a line, in font pixels from the line's start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedGlyph {
    pub x: f32,
    pub width: f32,
    /// `[u0, v0, u1, v1]`.
    pub uv: [f32; 4],
}

impl HudFont {
    /// A line's height in font pixels.
    pub fn line_height(&self) -> f32 {
        (self.font.height + 1) as f32
    }

    /// The glyphs of `text` (one line) and the pen's end.
    pub fn layout(&self, text: &str) -> (Vec<PlacedGlyph>, f32) {
        let mut pen = 0.0;
        let mut glyphs = Vec::with_capacity(text.len());
        for byte in text.chars().map(cp1251) {
            let g = self.font.glyphs[usize::from(byte)];
            if g.u1 > g.u0 {
                glyphs.push(PlacedGlyph {
                    x: pen,
                    width: (g.advance + 1) as f32,
                    uv: [g.u0, g.v0, g.u1, g.v0 + self.font.v_span],
                });
            }
            pen += (g.advance + self.font.spacing) as f32;
        }
        (glyphs, pen)
    }
}

/// Reads `GAME_FONT` and `MENU_FONT` through the game's source.
pub(crate) fn read(source: Option<Res<IronSourceHandle>>, mut fonts: ResMut<InstallFonts>) {
    let Some(source) = source else { return };
    let mut read_one = |role: &str| -> Option<Arc<HudFont>> {
        let outcome = ui_resources::read_font(&source.0, role, LAYOUT_SCREEN).and_then(|f| {
            f.map(|f| {
                let atlas = Texm::parse(&f.font.texm)?.decode_level(0)?;
                Ok(Arc::new(HudFont {
                    name: f.name,
                    font: f.font,
                    atlas,
                }))
            })
            .transpose()
        });
        match outcome {
            Ok(font) => {
                if let Some(font) = &font {
                    info!("hud: {role} is {}", font.name);
                }
                font
            }
            Err(e) => {
                warn!("hud: {role} did not read, egui's font stands in: {e}");
                fonts.error = Some(format!("{role}: {e}"));
                None
            }
        }
    };
    let (game, menu) = (read_one(GAME_FONT), read_one(MENU_FONT));
    fonts.game = game;
    fonts.menu = menu;
}

/// A character's CP1251 byte; `?` for one the code page lacks.
fn cp1251(c: char) -> u8 {
    iron3d_formats::config::cp1251_byte(c).unwrap_or(b'?')
}
