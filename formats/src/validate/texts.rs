//! The texts an install shows against the font that shows them: every
//! mission's objectives and messages (through the install's `TextRes`
//! names) in the HUD's text font, `GAME_FONT` at the 640 × 480 layout. A
//! character the font draws nothing for is a warning (family `font`): a
//! translator's or modder's text the game would show with gaps.

use super::{Collector, Severity};
use crate::config::blocks::ObjectConfig;
use crate::config::cp1251_byte;
use crate::config::mission_text;
use crate::config::text_res::TextRes;
use crate::config::ui_resources::{self, GAME_FONT, LAYOUT_SCREEN};
use crate::gamedir::Mission;
use crate::proto::tfnt::Tfnt;
use crate::source::Source;

/// The family of these findings.
const FAMILY: &str = "font";

/// Checks every mission's texts against the install's `GAME_FONT`; an
/// install that binds no font (or whose font does not read: the file pass
/// reports that) is not checked.
pub(super) fn check(c: &mut Collector, source: &Source, missions: &[Mission]) {
    let Ok(Some(font)) = ui_resources::read_font(source, GAME_FONT, LAYOUT_SCREEN) else {
        return;
    };
    let names = TextRes::read(source).ok().flatten();
    let resolve = |text: &str| names.as_ref().map_or(text, |n| n.resolve(text)).to_string();
    for mission in missions {
        // The mission's directory relative to the install's roots.
        let dir = std::path::Path::new("MISSIONS").join(&mission.name);
        let read = |file: &str| {
            let found = source.read_in_mission(&dir, file.as_bytes()).ok()??;
            ObjectConfig::parse(found.bytes(), "cfg").ok()
        };
        let mut texts: Vec<(String, String)> = Vec::new();
        if let Some(cfg) = read("mission.cfg") {
            let objectives = mission_text::objectives(&cfg);
            texts.extend(
                objectives
                    .iter()
                    .enumerate()
                    .map(|(i, o)| (format!("objective {i}"), resolve(&o.text))),
            );
        }
        if let Some(cfg) = read("messages.cfg") {
            texts.extend(
                mission_text::messages(&cfg)
                    .iter()
                    .map(|m| (format!("message {}", m.index), resolve(&m.text))),
            );
        }
        for (what, text) in texts {
            let lacking = undrawn(&font.font, &text);
            if !lacking.is_empty() {
                let file = format!("MISSIONS/{}", mission.name);
                let message = format!(
                    "{what} shows {lacking:?}, which {GAME_FONT} ({}) draws nothing for",
                    font.name
                );
                c.note(Severity::Warning, FAMILY, &file, message);
            }
        }
    }
}

/// The characters of `text` that `font` has no glyph for (an empty
/// texture span), each once, in order; spaces need none. A character code
/// page 1251 lacks has no glyph either.
pub fn undrawn(font: &Tfnt, text: &str) -> String {
    let mut lacking = String::new();
    for ch in text.chars().filter(|ch| !ch.is_whitespace()) {
        let drawn = cp1251_byte(ch)
            .and_then(|byte| font.glyphs.get(usize::from(byte)))
            .is_some_and(|g| g.u1 > g.u0);
        if !drawn && !lacking.contains(ch) {
            lacking.push(ch);
        }
    }
    lacking
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::tfnt::{GLYPHS, Glyph};

    /// A font that draws `drawn` only.
    fn font(drawn: &[u8]) -> Tfnt {
        let glyph = |code: usize| Glyph {
            u0: 0.0,
            u1: if drawn.contains(&(code as u8)) {
                0.1
            } else {
                0.0
            },
            v0: 0.0,
            advance: 4,
        };
        Tfnt {
            cell_width: 8,
            height: 7,
            v_span: 0.1,
            spacing: 1,
            glyphs: (0..GLYPHS).map(glyph).collect(),
            texm: Vec::new(),
        }
    }

    #[test]
    fn undrawn_names_each_character_the_font_lacks_once() {
        let latin = font(b"ABCabc:!");
        assert_eq!(undrawn(&latin, "Abc: cab!"), "");
        // Cyrillic `Ж` is 0xC6, `ы` 0xFB in CP1251; a character the code
        // page lacks (a CJK one) has no glyph.
        assert_eq!(undrawn(&latin, "Жы: ЖAы 字"), "Жы字");
        assert_eq!(undrawn(&font(&[0xC6, 0xFB, b':', b'A']), "Жы: ЖAы"), "");
    }
}
