//! The engine's configs, text but for the behaviour profiles (tome VIII "Файловая поверхность", tome IV
//! `BuildDat.lst`), all on one lossless line reader ([`text::TextConfig`]):
//!
//! | file | reader |
//! |---|---|
//! | `iron_3d.ini`, `Behavior.ini`, `ArealMap.ini`, `MISSIONS/dispatcher.ini` | [`ini::Settings`] with the key tables of [`ini`] |
//! | `Comp.ini` | [`blocks::CompIni`] |
//! | `mission.cfg` | [`blocks::ObjectConfig`] |
//! | `mission.cfg` ambient sound | [`ambient::Ambient`] |
//! | `mission.cfg` objectives, `messages.cfg` messages | [`mission_text`] |
//! | `briefing.cfg` | [`blocks::ObjectConfig`], its waypoints typed by [`briefing::waypoints`] |
//! | `BuildDat.lst` | [`builddat::BuildDat`] |
//! | `hero.tbl`, `m1.tbl`, `m2.tbl` | [`input_table::InputTable`] |
//! | `addition.man` and the other key maps | [`key_map::KeyMap`] |
//! | `ui/game_resources.cfg`, `ui/menu_resources.cfg` | [`blocks::ObjectConfig`], resource bindings and font substitutes by [`ui_resources`] |
//! | `ui/compaund.cfg`, `ui/hq.cfg` | [`sprites::SpriteSheet`], the interface's sprites on the pages [`ui_resources::read_page`] reads |
//! | `DATA/TextRes.cfg` | [`blocks::ObjectConfig`], the dialogue's names bound to `TextRes.dll` strings by [`text_res`] |
//! | `behpsp.res` entries (binary `.var` behaviour profiles) | [`profile::VarProfile`] |

pub mod ambient;
pub mod blocks;
pub mod briefing;
pub mod builddat;
pub mod ini;
pub mod input_table;
pub mod key_map;
pub mod mission_text;
pub mod profile;
pub mod sprites;
pub mod text;
pub mod text_res;
pub mod ui_resources;

/// A character's code page 1251 byte, when the code page has it.
pub fn cp1251_byte(ch: char) -> Option<u8> {
    let mut utf8 = [0; 4];
    match encoding_rs::WINDOWS_1251.encode(ch.encode_utf8(&mut utf8)) {
        (bytes, _, false) if bytes.len() == 1 => Some(bytes[0]),
        _ => None,
    }
}

/// Decodes legacy ANSI text (CP1251, the game's code page) for display.
pub fn decode_cp1251(bytes: &[u8]) -> String {
    encoding_rs::WINDOWS_1251
        .decode_without_bom_handling(bytes)
        .0
        .into_owned()
}
