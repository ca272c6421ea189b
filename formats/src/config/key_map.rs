//! The key maps in the install's root (`addition.man`, `hero.man`,
//! `table_1.man`, the `ui_*.man` and their `_d` defaults; openparkan
//! `docs/14-controls.md`, "The bindings", *measured*): a line per binding
//! of three words, the `Command.dsc` command, the modifier (`SCAN_NULL`:
//! none) and the key, `ScanCode.dsc` names:
//!
//! ```text
//! CMD_JAMES_MISSION_OBJ SCAN_NULL SCAN_F12
//! ```
//!
//! Blank lines are skipped; a line of another shape is an error naming its
//! line. The file is a [`TextConfig`] (kept byte-identical; `//` comments,
//! which no retail file has, are read as comments). The play key dispatcher
//! looks keys up in `addition.man` (`docs/40-command-mode.md`, "Input").

use super::text::{LineKind, TextConfig};
use crate::error::{FormatError, Result};

/// Format name in errors.
pub const FORMAT: &str = "key map (.man)";
/// The key map the game looks in-play keys up in.
pub const PLAY_KEYS: &str = "addition.man";

/// One binding.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KeyBinding {
    /// 1-based line.
    pub line: usize,
    /// `CMD_*`.
    pub command: String,
    /// `SCAN_*` names: the modifier (`SCAN_NULL` for none) and the key.
    pub modifier: String,
    pub key: String,
}

/// The parsed file: the lossless lines and the bindings.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyMap {
    pub text: TextConfig,
    pub bindings: Vec<KeyBinding>,
}

impl KeyMap {
    /// Parses every binding.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let text = TextConfig::parse(data, FORMAT)?;
        let mut bindings = Vec::new();
        for line in &text.lines {
            match &line.kind {
                LineKind::Blank => {}
                LineKind::Words(w) if w.len() == 3 => bindings.push(KeyBinding {
                    line: line.number,
                    command: w[0].text.clone(),
                    modifier: w[1].text.clone(),
                    key: w[2].text.clone(),
                }),
                _ => {
                    let raw = String::from_utf8_lossy(&line.raw).into_owned();
                    return Err(FormatError::invalid(
                        FORMAT,
                        line.offset as u64,
                        format!("line {}: a command, a modifier and a key", line.number),
                        raw.trim_end(),
                    ));
                }
            }
        }
        Ok(Self { text, bindings })
    }

    /// The file as read, byte-identical.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.text.to_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    #[test]
    fn bindings_read_their_three_names_and_write_back_identical() {
        let data = b"CMD_JAMES_MISSION_OBJ\tSCAN_NULL SCAN_F12\r\n\r\nCMD_CAMERA_CENTER SCAN_LSHIFT SCAN_RMOUSE\r\n";
        let map = KeyMap::parse(data).unwrap();
        assert_eq!(map.to_bytes(), data);
        let b: Vec<(usize, &str, &str, &str)> = map
            .bindings
            .iter()
            .map(|b| {
                (
                    b.line,
                    b.command.as_str(),
                    b.modifier.as_str(),
                    b.key.as_str(),
                )
            })
            .collect();
        assert_eq!(
            b,
            [
                (1, "CMD_JAMES_MISSION_OBJ", "SCAN_NULL", "SCAN_F12"),
                (3, "CMD_CAMERA_CENTER", "SCAN_LSHIFT", "SCAN_RMOUSE"),
            ]
        );
    }

    #[test]
    fn a_line_of_another_shape_is_an_error_naming_it() {
        let err =
            KeyMap::parse(b"CMD_PAGER SCAN_NULL SCAN_F2\r\nCMD_PAGER SCAN_F2\r\n").unwrap_err();
        assert_eq!(err.offset, 29);
        match &err.problem {
            Problem::Invalid { expected, found } => {
                assert!(expected.starts_with("line 2:"), "{expected}");
                assert_eq!(found, "CMD_PAGER SCAN_F2");
            }
            other => panic!("{other:?}"),
        }
    }
}
