//! The input tables in the install's root (`hero.tbl`, `m1.tbl`, `m2.tbl`):
//! what a key or a mouse axis sends, and to which class of component
//! (openparkan `docs/14-controls.md`, "The table").
//!
//! The file is a [`TextConfig`]: blank lines and `//` comments anywhere;
//! every other line is a row of eleven words and a trailing `//` text:
//!
//! ```text
//! KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0 0 // OBJ_MOVE_LEFT
//! ```
//!
//! | word | meaning |
//! |---|---|
//! | 1 | `KEY` or `MOUSE` |
//! | 2, 3 | the chord: a modifier (`SCAN_NULL`: none) and the key, `SCAN_*` names |
//! | 4 | 1 on the press, 0 on the release |
//! | 5 | the `CICLS_*` class of component the command is aimed at |
//! | 6 | the `MCMD_*` command |
//! | 7 | its magnitude |
//! | 8 | an index: a weapon number or a channel |
//! | 9 | `0`, a `MAN_*` wrap flag or a `CIS_*` state |
//! | 10, 11 | a ramp and its time |
//!
//! The trailing text of a press row is mostly its `Command.dsc` identifier
//! without the `CMD_` prefix: the row's identity ([`InputRow::identity`]).
//! Names are kept as written: which names the engine knows is the reader's
//! user's business (the engine's resolvers, not the file's). A row of
//! another shape, a device other than `KEY`/`MOUSE`, a press word other
//! than 0/1 or a number that does not read is an error naming its line.

use super::text::{LineKind, TextConfig, Token};
use crate::error::{FormatError, Result};

/// Format name in errors.
pub const FORMAT: &str = "input table (.tbl)";
/// Words in a row.
pub const ROW_WORDS: usize = 11;
/// The modifier of a row without one.
pub const NO_MODIFIER: &str = "SCAN_NULL";

/// What sends a row's command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Device {
    Key,
    Mouse,
}

/// One row.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct InputRow {
    /// 1-based line.
    pub line: usize,
    pub device: Device,
    /// `SCAN_*` names: the modifier ([`NO_MODIFIER`] for none) and the key.
    pub modifier: String,
    pub key: String,
    /// Sent when the key goes down (else when it comes up).
    pub press: bool,
    /// `CICLS_*`.
    pub class: String,
    /// `MCMD_*`.
    pub command: String,
    pub magnitude: f32,
    pub index: i32,
    /// `0`, `MAN_*` or `CIS_*`, as written.
    pub flag: String,
    pub ramp: f32,
    pub ramp_time: i32,
    /// The trailing text, trimmed (`None` when the row has none).
    pub identity: Option<String>,
}

/// The parsed file: the lossless lines and the typed rows.
#[derive(Debug, Clone, PartialEq)]
pub struct InputTable {
    pub text: TextConfig,
    pub rows: Vec<InputRow>,
}

impl InputTable {
    /// Parses every row.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let text = TextConfig::parse(data, FORMAT)?;
        let mut rows = Vec::new();
        for line in &text.lines {
            let err = |expected: &str, found: &str| {
                FormatError::invalid(
                    FORMAT,
                    line.offset as u64,
                    format!("line {}: {expected}", line.number),
                    found,
                )
            };
            let words = match &line.kind {
                LineKind::Blank => continue,
                LineKind::Words(w) if w.len() == ROW_WORDS => w,
                other => {
                    return Err(err(
                        "a row of 11 words (device, modifier, key, press, class, command, magnitude, index, flag, ramp, ramp time)",
                        &describe(other),
                    ));
                }
            };
            let word = |i: usize| words[i].text.clone();
            let number = |i: usize, what: &str| -> Result<f32> {
                words[i]
                    .text
                    .parse::<f32>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| err(what, &words[i].raw))
            };
            let integer = |i: usize, what: &str| -> Result<i32> {
                words[i]
                    .text
                    .parse::<i32>()
                    .map_err(|_| err(what, &words[i].raw))
            };
            let device = match words[0].text.as_str() {
                "KEY" => Device::Key,
                "MOUSE" => Device::Mouse,
                _ => return Err(err("`KEY` or `MOUSE`", &words[0].raw)),
            };
            let press = match words[3].text.as_str() {
                "1" => true,
                "0" => false,
                _ => return Err(err("1 (press) or 0 (release)", &words[3].raw)),
            };
            rows.push(InputRow {
                line: line.number,
                device,
                modifier: word(1),
                key: word(2),
                press,
                class: word(4),
                command: word(5),
                magnitude: number(6, "a magnitude")?,
                index: integer(7, "an integer index")?,
                flag: word(8),
                ramp: number(9, "a ramp")?,
                ramp_time: integer(10, "an integer ramp time")?,
                identity: line
                    .comment
                    .as_deref()
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_owned),
            });
        }
        Ok(Self { text, rows })
    }

    /// The file as read, byte-identical.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.text.to_bytes()
    }
}

/// A line that is not a row, for errors.
fn describe(kind: &LineKind) -> String {
    match kind {
        LineKind::Blank => "nothing".into(),
        LineKind::Section(s) => format!("a section [{s}]"),
        LineKind::KeyValue { key, .. } => format!("a `{key} = ...` line"),
        LineKind::Words(w) => format!(
            "{} words ({})",
            w.len(),
            w.iter()
                .map(|t: &Token| t.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    const TABLE: &[u8] = b"// the pilot on foot\r\n\
KEY   SCAN_NULL SCAN_A  1  CICLS_UNKNOWN  MCMD_LEFT   1.0  0  0            0.0  0     // OBJ_MOVE_LEFT\r\n\
KEY   SCAN_NULL SCAN_A  0  CICLS_UNKNOWN  MCMD_LEFT   0.0  0  0            0.0  0\r\n\
\r\n\
MOUSE SCAN_LSHIFT SCAN_MOUSE_X 1 CICLS_CAMERA MCMD_ANGLE_X 0.1 1 MAN_WRAP  0.0  0     // CAMERA_LEFT\r\n\
KEY   SCAN_NULL SCAN_G_PLUS 1 CICLS_UNKNOWN MCMD_FORWARD   1.0 0 0         0.05 1000  // OBJ_SPEED_MORE\r\n";

    #[test]
    fn rows_read_their_eleven_words_and_identity() {
        let t = InputTable::parse(TABLE).unwrap();
        assert_eq!(t.rows.len(), 4);
        let r = &t.rows[0];
        assert_eq!(
            (
                r.line,
                r.device,
                r.modifier.as_str(),
                r.key.as_str(),
                r.press
            ),
            (2, Device::Key, NO_MODIFIER, "SCAN_A", true)
        );
        assert_eq!(
            (r.class.as_str(), r.command.as_str()),
            ("CICLS_UNKNOWN", "MCMD_LEFT")
        );
        assert_eq!(r.identity.as_deref(), Some("OBJ_MOVE_LEFT"));
        assert!(!t.rows[1].press);
        assert_eq!(t.rows[1].identity, None);
        let mouse = &t.rows[2];
        assert_eq!(mouse.device, Device::Mouse);
        assert_eq!((mouse.magnitude, mouse.index), (0.1, 1));
        assert_eq!(mouse.flag, "MAN_WRAP");
        let ramp = &t.rows[3];
        assert_eq!((ramp.ramp, ramp.ramp_time), (0.05, 1000));
        assert_eq!(t.to_bytes(), TABLE, "byte-identical");
    }

    #[test]
    fn a_malformed_row_names_its_line() {
        let cases: [(&[u8], u64, &str); 6] = [
            (
                b"KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0\r\n",
                0,
                "expected line 1: a row of 11 words (device, modifier, key, press, class, command, magnitude, index, flag, ramp, ramp time), found 10 words (KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0)",
            ),
            (
                b"// c\r\nPAD SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0 0\r\n",
                6,
                "expected line 2: `KEY` or `MOUSE`, found PAD",
            ),
            (
                b"KEY SCAN_NULL SCAN_A 2 CICLS_UNKNOWN MCMD_LEFT 1.0 0 0 0.0 0\r\n",
                0,
                "expected line 1: 1 (press) or 0 (release), found 2",
            ),
            (
                b"KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT fast 0 0 0.0 0\r\n",
                0,
                "expected line 1: a magnitude, found fast",
            ),
            (
                b"KEY SCAN_NULL SCAN_A 1 CICLS_UNKNOWN MCMD_LEFT 1.0 0.5 0 0.0 0\r\n",
                0,
                "expected line 1: an integer index, found 0.5",
            ),
            (
                b"[KEYS]\r\n",
                0,
                "expected line 1: a row of 11 words (device, modifier, key, press, class, command, magnitude, index, flag, ramp, ramp time), found a section [KEYS]",
            ),
        ];
        for (data, offset, message) in cases {
            expect_error(
                InputTable::parse(data),
                offset,
                &format!("{FORMAT}: {message}"),
            );
        }
    }
}
