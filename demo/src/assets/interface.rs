//! The interface's fonts as the game reads them (openparkan
//! `docs/12-rsli.md`, `docs/20-resources.md`): `ui/font.lib`, an NRes of
//! `Tfnt` fonts; `ui/game_resources.cfg`, whose `fonts` descriptor binds
//! the fonts' names to the library's entries by index; and
//! `ui/menu_resources.cfg`, whose 640 × 480 font substitute names the
//! font the HUD's text (`GAME_FONT`) and titles (`MENU_FONT`) take; and
//! `iron3d.dll`, the engine's strings the HUD shows. The
//! letters are the demo's own ([`super::glyphs`]): white with a dark grey
//! shadow one pixel down and right, as the retail fonts draw.

use super::glyphs::{Rows, shape};
use super::{Entries, Install};
use crate::world::crlf;
use iron3d_formats::error::Result;
use iron3d_formats::proto::tfnt::{GLYPHS, Glyph, Tfnt};
use iron3d_formats::strings::{ENGINE_STRINGS, StringDll};
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};

/// Where the files go.
pub const FONT_LIBRARY: &str = "ui/font.lib";
pub const GAME_RESOURCES: &str = "ui/game_resources.cfg";
pub const MENU_RESOURCES: &str = "ui/menu_resources.cfg";

/// A font of the demo: its entry name, the name the `fonts` resource
/// binds, and the letters' pixel size.
struct FontSpec {
    entry: &'static str,
    bound_as: &'static str,
    role: &'static str,
    scale: u32,
}

/// `ui/font.lib`'s fonts in entry order.
const FONTS: [FontSpec; 2] = [
    FontSpec {
        entry: "gf_640.tft",
        bound_as: "GAME_FONT_640x480",
        role: "GAME_FONT",
        scale: 1,
    },
    FontSpec {
        entry: "mf_640.tft",
        bound_as: "MENU_FONT_640x480",
        role: "MENU_FONT",
        scale: 2,
    },
];

/// `iron3d.dll`'s strings the HUD shows, by the original's ids (openparkan
/// docs/34, docs/35), in the demo's own words.
const STRINGS: [(u32, &str); 19] = [
    (1012, "MISSION ACCOMPLISHED"),
    (1013, "MISSION LOST"),
    (1014, "done"),
    (1015, "open"),
    (1017, "%s closes this list"),
    (1027, "failed"),
    (1541, "Base computer:"),
    (3057, "Instructor:"),
    (3061, "Bonus objectives"),
    (3062, "Main objectives"),
    (3071, "LASER L-1"),
    (3072, "CANNON C-2"),
    (3073, "PLASMA P-3"),
    (3074, "ROCKETS R-4"),
    (5039, "Building taken"),
    (5092, "ORE"),
    (5093, "ENERGY"),
    (5094, "INF"),
    (6214, "Field report:"),
];

const WHITE: [u8; 4] = [255, 255, 255, 255];
const SHADOW: [u8; 4] = [64, 64, 64, 255];

/// Writes the font library, the two resource files and the engine's
/// strings.
pub fn write(install: &mut Install) -> Result<()> {
    let mut lib = Entries::default();
    for spec in &FONTS {
        lib.push(spec.entry, 0, font(spec.scale)?);
    }
    install.add(FONT_LIBRARY, lib.build()?)?;
    let textures = super::hud_art::write(install)?;
    install.add(GAME_RESOURCES, game_resources(&textures))?;
    install.add(MENU_RESOURCES, menu_resources())?;
    let strings = STRINGS
        .iter()
        .map(|&(id, text)| (id, text.to_string()))
        .collect();
    install.add(
        ENGINE_STRINGS,
        StringDll::build(&strings)?.to_bytes().to_vec(),
    )?;
    Ok(())
}

/// A `Tfnt` of the demo's letters at `scale` pixels per letter pixel: a
/// 16 × 16 atlas of cells 8 × scale wide and 8 × scale high (a letter, its
/// shadow and a free row and column).
fn font(scale: u32) -> Result<Vec<u8>> {
    let cell = 8 * scale;
    let size = cell * 16;
    let mut atlas = Rgba8Image {
        width: size,
        height: size,
        pixels: vec![0; (size * size * 4) as usize],
    };
    let glyphs = (0..GLYPHS as u32)
        .map(|code| {
            let (cx, cy) = (code % 16 * cell, code / 16 * cell);
            let u0 = cx as f32 / size as f32;
            let v0 = cy as f32 / size as f32;
            match u8::try_from(code).ok().and_then(shape) {
                Some(rows) => {
                    draw(&mut atlas, cx, cy, scale, &rows);
                    // The letter and its shadow.
                    let advance = (6 * scale) as i32;
                    Glyph {
                        u0,
                        u1: u0 + advance as f32 / size as f32,
                        v0,
                        advance,
                    }
                }
                // Undrawn: an empty cell half a line wide.
                None => Glyph {
                    u0,
                    u1: u0,
                    v0,
                    advance: (cell / 2) as i32,
                },
            }
        })
        .collect();
    Tfnt {
        cell_width: cell as i32,
        height: (cell - 1) as i32,
        v_span: cell as f32 / size as f32,
        spacing: 1,
        glyphs,
        texm: Texm::from_rgba(&atlas, PixelFormat::Argb4444, Mips::None, None)?.to_bytes()?,
    }
    .to_bytes()
}

/// Draws a letter's shadow, then the letter, into the cell at (cx, cy).
fn draw(atlas: &mut Rgba8Image, cx: u32, cy: u32, scale: u32, rows: &Rows) {
    for (offset, colour) in [(scale, SHADOW), (0, WHITE)] {
        for (y, row) in rows.iter().enumerate() {
            for x in 0..5u32 {
                if row >> (4 - x) & 1 == 0 {
                    continue;
                }
                for (dx, dy) in (0..scale).flat_map(|dx| (0..scale).map(move |dy| (dx, dy))) {
                    let px = cx + x * scale + dx + offset;
                    let py = cy + y as u32 * scale + dy + offset;
                    let at = ((py * atlas.width + px) * 4) as usize;
                    atlas.pixels[at..at + 4].copy_from_slice(&colour);
                }
            }
        }
    }
}

/// `ui/game_resources.cfg`: the `fonts` descriptor, by index, the
/// interface voices (objectives and outcomes, openparkan
/// `docs/34-progression.md`) bound to the demo's voice beeps by name,
/// and the interface's pages (`textures`, [`super::hud_art`]).
fn game_resources(textures: &[String]) -> Vec<u8> {
    let mut lines = vec![
        "// Iron3D demo: the game's interface resources".to_string(),
        "object fonts".into(),
        " desc = \"resource\"".into(),
        " library = \"ui\\font.lib\"".into(),
        " libtype = \"multi\"".into(),
        " type = 2".into(),
    ];
    for (index, spec) in FONTS.iter().enumerate() {
        lines.push(format!(" {} = {index}", spec.bound_as));
    }
    lines.push("end".into());
    lines.extend(
        [
            "",
            "object interface_voices",
            " desc = \"resource\"",
            " library = \"voices.lib\"",
            " libtype = \"multi\"",
            " type = 4",
            " VOICE_OBJ_COMPLETE = \"V_ACK.WAV\"",
            " VOICE_MISSION_COMPLETE = \"V_DONE.WAV\"",
            " VOICE_MISSION_FAIL = \"V_FAIL.WAV\"",
            " VOICE_NBUILD_CAPTURE = \"V_ACK.WAV\"",
            " VOICE_EBUILD_CAPTURE = \"V_DONE.WAV\"",
            " VOICE_BUILD_CAPTURE = \"V_FAIL.WAV\"",
            "end",
            "",
        ]
        .map(String::from),
    );
    lines.extend_from_slice(textures);
    crlf(&lines.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `ui/menu_resources.cfg`: the 640 × 480 font substitute.
fn menu_resources() -> Vec<u8> {
    let mut lines = vec![
        "// Iron3D demo: the menus' font substitutes".to_string(),
        "object font_substitute_640".into(),
        " desc = \"font-substitute\"".into(),
        " dimension_x = \"640\"".into(),
        " dimension_y = \"480\"".into(),
    ];
    for spec in &FONTS {
        lines.push(format!(" {} = \"{}\"", spec.role, spec.bound_as));
    }
    lines.push("end".into());
    crlf(&lines.iter().map(String::as_str).collect::<Vec<_>>())
}
