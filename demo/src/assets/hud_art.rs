//! The interface's art as the game reads it (openparkan `docs/35-hud.md`):
//! `ui/ui.lib`, an NRes of 256 × 256 `Texm` pages; the `textures` resource
//! of `ui/game_resources.cfg` binding the pages' names to them by index;
//! `ui/compaund.cfg`, the compound controls' pieces (the weapons list's
//! rows, the message box's frame); `ui/hq.cfg`, the cockpit panels'
//! sprites. The panels', the radar's and the reticle's rectangles are the
//! ones the docs measure on the retail pages (the engine cuts the last
//! two in code); the pieces' places are the demo's own. The art is the
//! demo's: flat shapes from integer arithmetic, white where the HUD tints.

use super::{Entries, TEXM_TYPE_ID};
use crate::world::crlf;
use iron3d_formats::error::Result;
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};

/// Where the files go.
pub const UI_LIBRARY: &str = "ui/ui.lib";
pub const COMPOUND: &str = "ui/compaund.cfg";
pub const HQ: &str = "ui/hq.cfg";

const PAGE: u32 = 256;

/// `ui/ui.lib`'s pages in entry order, with the name the `textures`
/// resource binds each to (its index).
const PAGES: [(&str, &str); 5] = [
    ("ui_menu1.tex", "ui_menu"),
    ("ui_menu3.tex", "ui_menu3"),
    ("ui_tex6.tex", "page6"),
    ("ui_tex7.tex", "page7"),
    ("ui_tex9.tex", "page9"),
];
const UI_MENU: usize = 0;
const UI_MENU3: usize = 1;
const PAGE6: usize = 2;
const PAGE7: usize = 3;
const PAGE9: usize = 4;

/// How a rectangle of a page is painted.
#[derive(Clone, Copy)]
enum Art {
    /// A round lamp of this colour in a dark bezel.
    Lamp([u8; 3]),
    /// The charge bar's emitter, lit this bright.
    Emitter(u8),
    /// The translucent name bar (dark green at 20 %, lines along it).
    Ray,
    /// The bar's rounded end.
    RayEnd,
    /// An opaque text box.
    Body,
    /// A row's end cap.
    Ending,
    /// A thin divider.
    Separator,
    /// A frame's corner, an L along its top and left.
    Corner,
    /// A frame's edge, its outer line along the top.
    Edge,
    /// A 15 × 15 icon: a cross (life) or a diamond (energy).
    Cross,
    Diamond,
    /// A panel's translucent back with a border.
    Back,
    /// A grey band inside the ellipse of the rectangle (shield sectors,
    /// tinted by the HUD).
    Band,
    /// A grey arc down the rectangle (the life and energy gauges).
    Arc,
    /// The radar's right half: a disc about the left edge's point 69
    /// down, radius 64, a base under it.
    RadarHalf,
    /// A gauge's bar of segments (tinted orange).
    Segments,
    /// An arrowhead pointing up.
    Arrow,
    /// The altitude's and the speed's icons.
    Altitude,
    Speed,
    /// The view wedge's fan: the disc inscribed in the rectangle,
    /// translucent, more opaque outward.
    Fan,
    /// The reticle's circle, its corner arc (its top right corner toward
    /// the centre) and its ruler of ticks.
    Ring,
    CornerArc,
    Ruler,
}

/// A sprite a sheet names: its name, page, rectangle, `rotate`, and the
/// art painted there (`None`: another sprite's rectangle, turned).
struct Named {
    name: &'static str,
    page: usize,
    rect: [u32; 4],
    rotate: u32,
    art: Option<Art>,
}

const fn named(
    name: &'static str,
    page: usize,
    rect: [u32; 4],
    rotate: u32,
    art: Option<Art>,
) -> Named {
    Named {
        name,
        page,
        rect,
        rotate,
        art,
    }
}

/// `ui/compaund.cfg`'s pieces the HUD draws (row height 19, openparkan
/// docs/35 "The weapons list"; corners 8 × 8 and edges 47 × 5, "The
/// message box"): the demo places them along the top of `ui_menu`.
const PIECES: [Named; 23] = [
    named(
        "ccres_red_lamp",
        UI_MENU,
        [0, 0, 19, 19],
        0,
        Some(Art::Lamp([230, 40, 30])),
    ),
    named(
        "ccres_yellow1_lamp",
        UI_MENU,
        [19, 0, 19, 19],
        0,
        Some(Art::Lamp([230, 200, 40])),
    ),
    named(
        "ccres_yellow2_lamp",
        UI_MENU,
        [38, 0, 19, 19],
        0,
        Some(Art::Lamp([250, 240, 120])),
    ),
    named(
        "ccres_green_lamp",
        UI_MENU,
        [57, 0, 19, 19],
        0,
        Some(Art::Lamp([40, 230, 60])),
    ),
    named(
        "ccres_black_lamp",
        UI_MENU,
        [76, 0, 19, 19],
        0,
        Some(Art::Lamp([16, 16, 16])),
    ),
    named(
        "ccres_ray_emitter_off",
        UI_MENU,
        [95, 0, 10, 19],
        0,
        Some(Art::Emitter(0)),
    ),
    named(
        "ccres_ray_emitter_normal",
        UI_MENU,
        [105, 0, 10, 19],
        0,
        Some(Art::Emitter(1)),
    ),
    named(
        "ccres_ray_emitter_pressed",
        UI_MENU,
        [115, 0, 10, 19],
        0,
        Some(Art::Emitter(2)),
    ),
    named(
        "ccres_ray_ending",
        UI_MENU,
        [125, 0, 6, 19],
        0,
        Some(Art::RayEnd),
    ),
    named(
        "ccres_ray_body",
        UI_MENU,
        [131, 0, 16, 19],
        0,
        Some(Art::Ray),
    ),
    named(
        "ccres_body_stub",
        UI_MENU,
        [147, 0, 16, 19],
        0,
        Some(Art::Body),
    ),
    named(
        "ccres_body_text",
        UI_MENU,
        [163, 0, 16, 19],
        0,
        Some(Art::Body),
    ),
    named(
        "ccres_ending_stub",
        UI_MENU,
        [179, 0, 5, 19],
        0,
        Some(Art::Ending),
    ),
    named(
        "ccres_ending_text",
        UI_MENU,
        [184, 0, 5, 19],
        0,
        Some(Art::Ending),
    ),
    named(
        "ccres_separator_left_text",
        UI_MENU,
        [189, 0, 5, 19],
        0,
        Some(Art::Separator),
    ),
    named(
        "ccres_separator_double_text",
        UI_MENU,
        [194, 0, 5, 19],
        0,
        Some(Art::Separator),
    ),
    named(
        "ccres_frame_corner_1",
        UI_MENU,
        [0, 20, 8, 8],
        0,
        Some(Art::Corner),
    ),
    named("ccres_frame_corner_2", UI_MENU, [0, 20, 8, 8], 90, None),
    named("ccres_frame_corner_3", UI_MENU, [0, 20, 8, 8], 180, None),
    named("ccres_frame_corner_4", UI_MENU, [0, 20, 8, 8], 270, None),
    named(
        "ccres_frame_edge_h",
        UI_MENU,
        [8, 20, 47, 5],
        0,
        Some(Art::Edge),
    ),
    named("ccres_frame_edge_v", UI_MENU, [8, 20, 47, 5], 90, None),
    named(
        "ccres_lamp_text_ending_off",
        UI_MENU,
        [199, 0, 10, 19],
        0,
        Some(Art::Ending),
    ),
];

/// `ui/hq.cfg`'s panel sprites at the rectangles openparkan docs/35 ("The
/// sprites") measures.
const HQ_SPRITES: [Named; 9] = [
    named(
        "targeter_back",
        UI_MENU3,
        [0, 82, 150, 174],
        0,
        Some(Art::Back),
    ),
    named(
        "targeter_range",
        UI_MENU3,
        [0, 51, 39, 16],
        0,
        Some(Art::Body),
    ),
    named(
        "targeter_life",
        UI_MENU,
        [49, 94, 15, 15],
        0,
        Some(Art::Cross),
    ),
    named(
        "targeter_energy",
        UI_MENU,
        [113, 126, 15, 15],
        0,
        Some(Art::Diamond),
    ),
    named("left_shld", UI_MENU3, [192, 82, 26, 79], 0, Some(Art::Band)),
    named("frwd_shld", UI_MENU3, [185, 59, 61, 19], 0, Some(Art::Band)),
    named(
        "back_shld",
        UI_MENU3,
        [151, 194, 89, 29],
        0,
        Some(Art::Band),
    ),
    named("top_shld", UI_MENU3, [115, 59, 69, 19], 0, Some(Art::Band)),
    named(
        "bott_shld",
        UI_MENU3,
        [150, 224, 105, 31],
        0,
        Some(Art::Band),
    ),
];

/// The art of the rectangles the engine cuts in code.
const PAINT: [(usize, [u32; 4], Art); 10] = [
    // The gauges' arc, cut in code (docs/35 "What is drawn, in order").
    (UI_MENU3, [151, 82, 40, 94], Art::Arc),
    // The radar's halves: the left one cut one pixel right of the right
    // one's and mirrored (docs/35 "The radar").
    (PAGE6, [155, 0, 100, 153], Art::RadarHalf),
    // The gauges' bar, the compass arrow, the gauges' icons and the view
    // wedge's fan (docs/35 "The radar").
    (PAGE6, [121, 0, 31, 105], Art::Segments),
    (PAGE6, [192, 154, 9, 11], Art::Arrow),
    (UI_MENU3, [215, 0, 15, 28], Art::Altitude),
    (UI_MENU3, [199, 0, 15, 28], Art::Speed),
    (PAGE7, [128, 0, 128, 128], Art::Fan),
    // The reticle's circle, corner arc and ruler (docs/35 "The reticle").
    (PAGE9, [77, 0, 64, 64], Art::Ring),
    (PAGE9, [54, 28, 23, 23], Art::CornerArc),
    (PAGE9, [168, 0, 82, 15], Art::Ruler),
];

/// Writes the pages, the two sheets; returns the `textures` descriptor's
/// lines for `ui/game_resources.cfg`.
pub fn write(install: &mut super::Install) -> Result<Vec<String>> {
    let mut pages: Vec<Rgba8Image> = PAGES
        .iter()
        .map(|_| Rgba8Image {
            width: PAGE,
            height: PAGE,
            pixels: vec![0; (PAGE * PAGE * 4) as usize],
        })
        .collect();
    let named = PIECES.iter().chain(&HQ_SPRITES);
    let sheets = named.filter_map(|s| Some((s.page, s.rect, s.art?)));
    for (page, rect, art) in sheets.chain(PAINT) {
        paint(&mut pages[page], rect, art);
    }
    let mut lib = Entries::default();
    for ((entry, _), image) in PAGES.iter().zip(&pages) {
        let texm = Texm::from_rgba(image, PixelFormat::Argb4444, Mips::None, None)?;
        lib.push(*entry, TEXM_TYPE_ID, texm.to_bytes()?);
    }
    install.add(UI_LIBRARY, lib.build()?)?;
    install.add(
        COMPOUND,
        sheet("the compound controls' pieces", &PIECES, false),
    )?;
    install.add(HQ, sheet("the cockpit panels' sprites", &HQ_SPRITES, true))?;
    let mut lines = vec![
        "object textures".to_string(),
        " desc = \"resource\"".into(),
        " library = \"ui\\ui.lib\"".into(),
        " libtype = \"multi\"".into(),
        " type = 1".into(),
    ];
    for (index, (_, bound_as)) in PAGES.iter().enumerate() {
        lines.push(format!(" {bound_as} = {index}"));
    }
    lines.push("end".into());
    Ok(lines)
}

/// A sheet's text: a block a sprite (`upper` spells the keys in upper
/// case, as `hq.cfg`'s blocks do).
fn sheet(what: &str, sprites: &[Named], upper: bool) -> Vec<u8> {
    let key = |k: &str| match upper {
        true => k.to_ascii_uppercase(),
        false => k.to_string(),
    };
    let mut lines = vec![format!("// Iron3D demo: {what}")];
    for s in sprites {
        let [x, y, w, h] = s.rect;
        lines.push(format!("object {}", s.name));
        lines.push(format!(" {} = \"{}\"", key("texture"), PAGES[s.page].1));
        for (k, v) in [
            ("offset_x", x),
            ("offset_y", y),
            ("width", w),
            ("height", h),
        ] {
            lines.push(format!(" {} = {v}", key(k)));
        }
        if s.rotate != 0 {
            lines.push(format!(" {} = {}", key("rotate"), s.rotate));
        }
        lines.push("end".into());
    }
    crlf(&lines.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Paints `art` over `rect` of `page`.
fn paint(page: &mut Rgba8Image, [x0, y0, w, h]: [u32; 4], art: Art) {
    for v in 0..h {
        for u in 0..w {
            let at = (((y0 + v) * page.width + x0 + u) * 4) as usize;
            page.pixels[at..at + 4]
                .copy_from_slice(&pixel(art, u as i32, v as i32, w as i32, h as i32));
        }
    }
}

const CLEAR: [u8; 4] = [0, 0, 0, 0];
const LINE: [u8; 4] = [90, 200, 110, 255];
const DARK: [u8; 4] = [20, 45, 25, 255];
const GREY: [u8; 4] = [220, 220, 220, 230];

/// The colour of `art` at `(u, v)` of its `w × h` rectangle.
fn pixel(art: Art, u: i32, v: i32, w: i32, h: i32) -> [u8; 4] {
    let edge = v == 0 || v == h - 1;
    match art {
        Art::Lamp([r, g, b]) => {
            let d = (2 * u + 1 - w).pow(2) + (2 * v + 1 - h).pow(2);
            match d {
                d if d <= 4 * 36 => [r, g, b, 255],
                d if d <= 4 * 56 => [110, 110, 110, 255],
                _ => [40, 40, 40, 255],
            }
        }
        Art::Emitter(level) => match u {
            5..=7 => [0, 120 + 60 * level, 60 * level, 255],
            _ if edge => LINE,
            _ => DARK,
        },
        Art::Ray if v == 1 || v == h - 2 => [0, 160, 0, 140],
        Art::Ray => [0, 102, 0, 51],
        Art::RayEnd => {
            // A cap rounding off to the left.
            let dy = (2 * v + 1 - h).abs();
            match (w - u) * 2 * h >= w * dy {
                true => [0, 102, 0, 51],
                false => CLEAR,
            }
        }
        Art::Body if edge => LINE,
        Art::Body => DARK,
        Art::Ending => LINE,
        Art::Separator if u == w / 2 => LINE,
        Art::Separator => DARK,
        Art::Corner if u < 2 || v < 2 => LINE,
        Art::Corner => [0, 80, 0, 128],
        Art::Edge if v < 2 => LINE,
        Art::Edge => [0, 80, 0, 128],
        Art::Cross if (6..=8).contains(&u) || (6..=8).contains(&v) => [255, 255, 255, 255],
        Art::Diamond if (u - 7).abs() + (v - 7).abs() <= 6 => [255, 255, 255, 255],
        Art::Cross | Art::Diamond => CLEAR,
        Art::Back if u < 2 || v < 2 || u >= w - 2 || v >= h - 2 => LINE,
        Art::Back => [0, 40, 20, 110],
        Art::Band => {
            // Inside the ellipse of the rectangle, outside one 60 % its size.
            let (a, b) = (w * w, h * h);
            let (x, y) = ((2 * u + 1 - w).pow(2), (2 * v + 1 - h).pow(2));
            let inside = |k: i32| 100 * (x * b + y * a) <= k * a * b;
            match inside(100) && !inside(36) {
                true => GREY,
                false => CLEAR,
            }
        }
        Art::Arc => {
            // A band 6 wide bowing right: x = 4 + (v − h/2)² / 80.
            let centre = 4 + (2 * v - h).pow(2) / 320;
            match (u - centre).abs() <= 3 {
                true => GREY,
                false => CLEAR,
            }
        }
        Art::RadarHalf => {
            let d = u * u + (v - 69).pow(2);
            match d {
                d if within(d, 59, 61) => [255, 255, 255, 255],
                d if within(d, 29, 30) => [255, 255, 255, 120],
                d if within(d, 62, 64) => [120, 120, 120, 220],
                d if d < 62 * 62 => [20, 60, 30, 150],
                _ if v >= 110 && u < 92 => [20, 40, 25, 200],
                _ => CLEAR,
            }
        }
        Art::Segments if v % 4 != 3 && (4..w - 4).contains(&u) => [255, 255, 255, 230],
        Art::Arrow if (2 * u + 1 - w).abs() * h <= (v + 1) * w => [255, 255, 255, 255],
        // A post with arrowheads at both ends.
        Art::Altitude if (u - 7).abs() <= 1 || (u - 7).abs() <= v.min(h - 1 - v).min(6) => {
            [255, 255, 255, 255]
        }
        // Bars shortening upward.
        Art::Speed if v % 5 < 3 && u <= 2 + v / 2 => [255, 255, 255, 255],
        Art::Segments | Art::Arrow | Art::Altitude | Art::Speed => CLEAR,
        Art::Fan => {
            let d2 = (2 * u + 1 - w).pow(2) + (2 * v + 1 - h).pow(2);
            match d2 <= w * w {
                true => [150, 255, 150, 30 + (90 * d2 / (w * w)) as u8],
                false => CLEAR,
            }
        }
        Art::Ring => {
            let d = (2 * u + 1 - w).pow(2) + (2 * v + 1 - h).pow(2);
            let gap = (2 * u + 1 - w).abs() < 6 || (2 * v + 1 - h).abs() < 6;
            match within(d, 58, 62) && !gap {
                true => [255, 255, 255, 255],
                false => CLEAR,
            }
        }
        Art::CornerArc => {
            // A stretch of the circle of radius 39 about the reticle's
            // centre, which lies 20 beyond the top right corner.
            let d = (u - w - 20).pow(2) + (v + 20).pow(2);
            match within(d, 38, 40) {
                true => [255, 255, 255, 255],
                false => CLEAR,
            }
        }
        Art::Ruler => {
            let tick = u % 8 == 0 && (v >= 5 || (u % 32 == 0 && v >= 1));
            match tick || v == h - 1 {
                true => [255, 255, 255, 255],
                false => CLEAR,
            }
        }
    }
}

/// Whether a squared distance `d` lies between the radii `inner` and
/// `outer`.
fn within(d: i32, inner: i32, outer: i32) -> bool {
    (inner * inner..=outer * outer).contains(&d)
}
