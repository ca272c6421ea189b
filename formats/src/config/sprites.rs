//! The interface's sprite sheets, `ui/compaund.cfg` (the compound
//! controls' pieces) and `ui/hq.cfg` (the panels' sprites) (openparkan
//! `docs/35-hud.md`, "Everything is drawn on a 640 × 480 screen" and "How
//! a sprite is loaded and drawn"): `object` blocks of the `mission.cfg`
//! kind ([`ObjectConfig`]), one a sprite, whose keys, in any case, are
//!
//! | key | what |
//! |---|---|
//! | `texture` | a page: a name the `textures` resource of `ui/game_resources.cfg` binds to a `Texm` of `ui/ui.lib` |
//! | `offset_x`, `offset_y` | the sprite's top left corner on the page, pixels |
//! | `width`, `height` | its size, pixels |
//! | `rotate` | optional: 0, 90, 180 or 270, turning the quad's corners by that many quarter turns |
//!
//! The engine looks its sprites up by name, so a sheet is read whole and a
//! sprite is typed only when asked for: a block the game never asks for
//! may hold anything, and a bad one fails alone.

use super::blocks::{ConfigObject, ObjectConfig};
use super::ui_resources::{self, GAME_RESOURCES, InstallPage};
use crate::error::{FormatError, Result};
use crate::source::Source;
use std::collections::BTreeMap;

/// The compound controls' pieces (`ccres_*`).
pub const COMPOUND: &str = "ui/compaund.cfg";
/// The cockpit panels' sprites (`targeter_*`, the shield sectors...).
pub const HQ: &str = "ui/hq.cfg";

const FORMAT: &str = "sprite sheet";

/// One sprite: a rectangle of a page, and how its quad's corners turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sprite {
    /// The page's name in the `textures` resource.
    pub texture: String,
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    /// Quarter turns, 0–3 (`rotate` / 90).
    pub turns: u8,
}

/// A sprite sheet as read: the blocks, kept byte-identical.
#[derive(Debug, Clone, PartialEq)]
pub struct SpriteSheet {
    pub config: ObjectConfig,
}

impl SpriteSheet {
    pub fn parse(data: &[u8]) -> Result<Self> {
        Ok(Self {
            config: ObjectConfig::parse(data, FORMAT)?,
        })
    }

    /// The file as read.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.config.text.to_bytes()
    }

    /// The sprite `name` (ASCII case-insensitive); `Ok(None)` when no block
    /// has the name, an error naming the block, its line and the key when
    /// the block is not a sprite.
    pub fn sprite(&self, name: &str) -> Result<Option<Sprite>> {
        let Some(object) = self.config.object(name) else {
            return Ok(None);
        };
        let offset = self
            .config
            .text
            .lines
            .get(object.line.saturating_sub(1))
            .map_or(0, |l| l.offset as u64);
        typed(object, offset).map(Some)
    }
}

/// The sprite a block describes; errors at `offset`, the block's line.
fn typed(object: &ConfigObject, offset: u64) -> Result<Sprite> {
    let fail = |key: &str, expected: &str, found: String| {
        FormatError::invalid(
            FORMAT,
            offset,
            format!("{key}: {expected}"),
            format!("sprite {:?} (line {}): {found}", object.name, object.line),
        )
    };
    let number = |key: &str| -> Result<u32> {
        let value = object
            .field(key)
            .ok_or_else(|| fail(key, "a number", "no such key".into()))?;
        value
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_EXTENT)
            .ok_or_else(|| fail(key, "a number of 0..=4096", format!("{value:?}")))
    };
    let texture = object
        .field("texture")
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .ok_or_else(|| fail("texture", "a page name", "none".into()))?;
    let turns = match object.field("rotate").map(str::trim) {
        None => 0,
        Some(angle) => match angle.parse::<u32>() {
            Ok(a @ (0 | 90 | 180 | 270)) => (a / 90) as u8,
            _ => return Err(fail("rotate", "0, 90, 180 or 270", format!("{angle:?}"))),
        },
    };
    Ok(Sprite {
        texture,
        x: number("offset_x")?,
        y: number("offset_y")?,
        width: number("width")?,
        height: number("height")?,
        turns,
    })
}

/// A sprite ready to draw: its page's index in [`InterfaceArt::pages`]
/// and where it lies on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub page: usize,
    pub sprite: Sprite,
}

/// The interface's sprites an install has, on their decoded pages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InterfaceArt {
    pub pages: Vec<InstallPage>,
    /// By name, in lower case.
    pub cuts: BTreeMap<String, Cut>,
    /// What could not be read; the rest is kept (a sprite that fails is
    /// drawn as the HUD's plain shape).
    pub faults: Vec<FormatError>,
}

impl InterfaceArt {
    /// Reads the sprites `named` (looked up in `ui/compaund.cfg`, then
    /// `ui/hq.cfg`) and the `fixed` ones (the sprites the engine cuts in
    /// code), with their pages, through `source`. A sheet, page or sprite
    /// that does not read is a fault beside the others; a name neither
    /// sheet has is one too when the install has a sheet.
    pub fn read(source: &Source, named: &[&str], fixed: &[(&str, Sprite)]) -> Self {
        let mut art = Self::default();
        let resources = ui_resources::read_configs(source, &[GAME_RESOURCES]);
        let mut install = Install {
            source,
            resources: art.kept(resources).unwrap_or_default(),
            pages: BTreeMap::new(),
        };
        let sheets = art.sheets(source);
        for &name in named {
            if let Some(sprite) = art.sheet_sprite(&sheets, name) {
                art.place(&mut install, name, sprite);
            }
        }
        for (name, sprite) in fixed {
            art.place(&mut install, name, sprite.clone());
        }
        art
    }

    /// The install's sheets that read.
    fn sheets(&mut self, source: &Source) -> Vec<(&'static str, SpriteSheet)> {
        let mut sheets = Vec::new();
        for file in [COMPOUND, HQ] {
            let read = source.read_legacy(file.as_bytes()).and_then(|found| {
                found
                    .map(|f| SpriteSheet::parse(f.bytes()).map_err(|e| e.in_file(file)))
                    .transpose()
            });
            if let Some(Some(sheet)) = self.kept(read) {
                sheets.push((file, sheet));
            }
        }
        sheets
    }

    /// The sprite `name` of the first sheet that has it; a fault when it
    /// does not type, or when no sheet has it (and there are sheets).
    fn sheet_sprite(&mut self, sheets: &[(&str, SpriteSheet)], name: &str) -> Option<Sprite> {
        let found = sheets
            .iter()
            .find_map(|(file, sheet)| sheet.sprite(name).map_err(|e| e.in_file(*file)).transpose());
        match (found, sheets.is_empty()) {
            (Some(sprite), _) => self.kept(sprite),
            (None, false) => {
                let what = format!("sprite {name:?} in {COMPOUND} or {HQ}");
                self.faults.push(FormatError::missing(FORMAT, what));
                None
            }
            (None, true) => None,
        }
    }

    /// Keeps `sprite` as `name` when its page reads and it lies on it.
    fn place(&mut self, install: &mut Install, name: &str, sprite: Sprite) {
        let Some(page) = self.page(install, &sprite.texture) else {
            return;
        };
        let image = &self.pages[page].image;
        let inside =
            sprite.x + sprite.width <= image.width && sprite.y + sprite.height <= image.height;
        if !inside {
            let found = format!(
                "{}x{} at ({}, {}) on a {}x{} page",
                sprite.width, sprite.height, sprite.x, sprite.y, image.width, image.height
            );
            let expected = format!("sprite {name:?} inside its page");
            let fault = FormatError::invalid(FORMAT, 0, expected, found);
            self.faults
                .push(fault.in_file(self.pages[page].name.clone()));
            return;
        }
        self.cuts
            .insert(name.to_ascii_lowercase(), Cut { page, sprite });
    }

    /// The index of the page `texture`, read once (a page that does not
    /// read is one fault, and `None` for every sprite on it).
    fn page(&mut self, install: &mut Install, texture: &str) -> Option<usize> {
        if let Some(page) = install.pages.get(texture) {
            return *page;
        }
        let read =
            ui_resources::read_page(install.source, &install.resources, texture).and_then(|p| {
                p.ok_or_else(|| {
                    let what = format!("page {texture:?} in `textures`");
                    FormatError::missing("ui resources", what).in_file(GAME_RESOURCES)
                })
            });
        let page = self.kept(read).map(|p| {
            self.pages.push(p);
            self.pages.len() - 1
        });
        install.pages.insert(texture.to_string(), page);
        page
    }

    /// The sprite `name` (lower case), when it read.
    pub fn cut(&self, name: &str) -> Option<&Cut> {
        self.cuts.get(name)
    }

    /// `Some` of a success; a failure is kept as a fault.
    fn kept<T>(&mut self, read: Result<T>) -> Option<T> {
        read.map_err(|e| self.faults.push(e)).ok()
    }
}

/// Where [`InterfaceArt::read`] reads pages from, and the pages it has
/// tried (by `texture`; `None` when it did not read).
struct Install<'a> {
    source: &'a Source,
    resources: Vec<ObjectConfig>,
    pages: BTreeMap<String, Option<usize>>,
}

/// The largest offset or size a sprite may give (pages are 256 × 256 in
/// the retail install; a larger page still fits).
const MAX_EXTENT: u32 = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    const SHEET: &str = "// the panels\r\nobject targeter_back\r\n TEXTURE = \"ui_menu3\"\r\n \
        OFFSET_X = 0\r\n OFFSET_Y = 82\r\n WIDTH = 150\r\n HEIGHT = 174\r\nend\r\n\
        object ccres_frame_edge_v\r\n texture = ui_menu\r\n offset_x = 8\r\n offset_y = 40\r\n \
        width = 47\r\n height = 5\r\n rotate = 90\r\nend\r\n\
        object broken\r\n texture = ui_menu\r\n offset_x = -1\r\nend\r\n\
        object skewed\r\n texture = ui_menu\r\n offset_x = 1\r\n offset_y = 1\r\n width = 1\r\n \
        height = 1\r\n rotate = 45\r\nend\r\n";

    #[test]
    fn sprites_read_by_name_in_any_case_and_the_file_writes_back() {
        let sheet = SpriteSheet::parse(SHEET.as_bytes()).unwrap();
        assert_eq!(sheet.to_bytes(), SHEET.as_bytes());
        assert_eq!(
            sheet.sprite("TARGETER_BACK").unwrap(),
            Some(Sprite {
                texture: "ui_menu3".into(),
                x: 0,
                y: 82,
                width: 150,
                height: 174,
                turns: 0,
            })
        );
        assert_eq!(
            sheet.sprite("ccres_frame_edge_v").unwrap().unwrap().turns,
            1
        );
        assert_eq!(sheet.sprite("ccres_frame_corner_1").unwrap(), None);
    }

    #[test]
    fn a_bad_sprite_fails_alone_naming_its_key() {
        let sheet = SpriteSheet::parse(SHEET.as_bytes()).unwrap();
        let expected_of = |name: &str| match sheet.sprite(name).unwrap_err().problem.clone() {
            Problem::Invalid { expected, found } => (expected, found),
            other => panic!("{other:?}"),
        };
        let (expected, found) = expected_of("broken");
        assert_eq!(expected, "offset_x: a number of 0..=4096");
        assert!(found.contains("\"broken\" (line 17)"), "{found}");
        let at = SHEET.find("object broken").unwrap() as u64;
        assert_eq!(sheet.sprite("broken").unwrap_err().offset, at);
        assert_eq!(expected_of("skewed").0, "rotate: 0, 90, 180 or 270");
        assert!(sheet.sprite("targeter_back").is_ok());
    }
}
