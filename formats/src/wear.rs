//! WEAR (type id `0x52414557`, usually `*.wea` beside a model): the text table
//! that turns a batch's positional material index into a MAT0 name, with an
//! optional `LIGHTMAPS` block (tome V, "WEAR").
//!
//! ```text
//! <wearCount>
//! <legacyId> <materialName>     x wearCount
//! <blank line>
//! LIGHTMAPS                     optional block
//! <lightmapCount>
//! <legacyId> <lightmapName>     x lightmapCount
//! ```
//!
//! The reader keeps every line with its own terminator (CRLF, LF or none on the
//! last line) and the exact text of each row, so [`Wear::to_bytes`] gives the
//! input back byte for byte; a row whose typed value was edited is re-written
//! as `<legacyId> <name>` and every other line stays as it was.
//!
//! Strictness: the blank line before `LIGHTMAPS` is part of the framing (the
//! original parser paths disagree without it). Strict mode requires it;
//! compatible mode accepts its absence as the named quirk
//! [`QUIRK_NO_BLANK_BEFORE_LIGHTMAPS`].

use crate::archive::Mode;
use crate::error::{FormatError, Problem, Result};

/// NRes type id of a WEAR entry (`"WEAR"` read as a little-endian u32).
pub const WEAR_TYPE_ID: u32 = 0x5241_4557;

/// Quirk name: `LIGHTMAPS` follows the last material row without a blank line.
pub const QUIRK_NO_BLANK_BEFORE_LIGHTMAPS: &str = "wear_no_blank_before_lightmaps";

const FORMAT: &str = "WEAR";
const LIGHTMAPS: &[u8] = b"LIGHTMAPS";

/// One row: a legacy id (kept, not used for selection) and a resource name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WearRow {
    /// The first token as written (usually a decimal number).
    #[serde(serialize_with = "serialize_lossy")]
    pub legacy_id: Vec<u8>,
    /// MAT0 name (material rows) or LightMap.lib texture name.
    #[serde(serialize_with = "serialize_lossy")]
    pub name: Vec<u8>,
}

impl WearRow {
    /// A row from text parts.
    pub fn new(legacy_id: impl Into<Vec<u8>>, name: impl Into<Vec<u8>>) -> Self {
        Self {
            legacy_id: legacy_id.into(),
            name: name.into(),
        }
    }

    /// The legacy id as a number, when it is one.
    pub fn legacy_number(&self) -> Option<i64> {
        std::str::from_utf8(&self.legacy_id).ok()?.parse().ok()
    }
}

/// What a stored line is, for the lossless writer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    MaterialCount,
    Material(usize),
    Lightmaps,
    LightmapCount,
    Lightmap(usize),
    /// Blank (whitespace-only) lines between sections and at the end.
    Blank,
}

/// A stored line: its text (without terminator), the terminator, the role,
/// and for rows the typed value the text was parsed into.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    text: Vec<u8>,
    eol: Vec<u8>,
    role: Role,
    parsed: Option<WearRow>,
}

/// A parsed WEAR table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Wear {
    /// Material rows in file order; a batch's material index selects by position.
    pub materials: Vec<WearRow>,
    /// The `LIGHTMAPS` block, if present.
    pub lightmaps: Option<Vec<WearRow>>,
    /// Named quirks accepted while reading (compatible mode only).
    pub quirks: Vec<&'static str>,
    #[serde(skip)]
    lines: Vec<Line>,
}

impl Wear {
    /// A table built from typed rows; written canonically with CRLF line ends
    /// and the blank separator before `LIGHTMAPS`.
    pub fn new(materials: Vec<WearRow>, lightmaps: Option<Vec<WearRow>>) -> Self {
        Self {
            materials,
            lightmaps,
            quirks: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Parses a WEAR payload.
    pub fn parse(data: &[u8], mode: Mode) -> Result<Self> {
        let mut lines = split_lines(data).into_iter().peekable();
        let mut out = Vec::new();
        let mut quirks = Vec::new();

        let (offset, text, eol) = lines
            .next()
            .ok_or_else(|| FormatError::missing(FORMAT, "material count line"))?;
        let count = parse_count(text, offset, "material count")?;
        out.push(line(text, eol, Role::MaterialCount, None));
        let materials = read_rows(&mut lines, count, offset, &mut out, Role::Material)?;

        let mut blanks_after_rows = 0usize;
        let mut lightmaps = None;
        while let Some((offset, text, eol)) = lines.next() {
            if is_blank(text) {
                blanks_after_rows += 1;
                out.push(line(text, eol, Role::Blank, None));
                continue;
            }
            if text != LIGHTMAPS || lightmaps.is_some() {
                return Err(FormatError::invalid(
                    FORMAT,
                    offset as u64,
                    "blank lines or the LIGHTMAPS block after the material rows",
                    crate::cursor::show_bytes(text),
                ));
            }
            if blanks_after_rows == 0 {
                match mode {
                    Mode::Strict => {
                        return Err(FormatError::new(
                            FORMAT,
                            offset as u64,
                            Problem::Quirk {
                                name: QUIRK_NO_BLANK_BEFORE_LIGHTMAPS,
                                detail: "LIGHTMAPS without the blank separator line".into(),
                            },
                        ));
                    }
                    Mode::Compatible => quirks.push(QUIRK_NO_BLANK_BEFORE_LIGHTMAPS),
                }
            }
            out.push(line(text, eol, Role::Lightmaps, None));
            let (count_offset, count_text, count_eol) = lines
                .next()
                .ok_or_else(|| FormatError::missing(FORMAT, "lightmap count line"))?;
            let count = parse_count(count_text, count_offset, "lightmap count")?;
            out.push(line(count_text, count_eol, Role::LightmapCount, None));
            lightmaps = Some(read_rows(
                &mut lines,
                count,
                count_offset,
                &mut out,
                Role::Lightmap,
            )?);
        }
        Ok(Self {
            materials,
            lightmaps,
            quirks,
            lines: out,
        })
    }

    /// The material name of a batch's material index (WEAR row).
    pub fn material(&self, index: usize) -> Option<&[u8]> {
        self.materials.get(index).map(|r| r.name.as_slice())
    }

    /// The lightmap name of a batch's lightmap index, `None` for `0xFF`
    /// ("no lightmap"), an index past the block, or no block at all.
    pub fn lightmap(&self, index: u8) -> Option<&[u8]> {
        if index == 0xFF {
            return None;
        }
        self.lightmaps
            .as_ref()?
            .get(index as usize)
            .map(|r| r.name.as_slice())
    }

    /// Writes the table. Unmodified input comes back byte-identical; edited
    /// rows are re-written, counts follow the row lists, and everything else
    /// keeps its stored bytes. Fails if a name or id contains whitespace or is
    /// empty (it would not read back).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        for row in self.materials.iter().chain(self.lightmaps.iter().flatten()) {
            check_token(&row.legacy_id, "legacy id")?;
            check_token(&row.name, "name")?;
        }
        if self.lines_match_shape() {
            Ok(self.write_lossless())
        } else {
            Ok(self.write_canonical())
        }
    }

    /// Whether the stored lines still describe the same row counts and
    /// presence of the lightmap block (edits of values are fine).
    fn lines_match_shape(&self) -> bool {
        if self.lines.is_empty() {
            return false;
        }
        let count = |pred: fn(&Role) -> bool| self.lines.iter().filter(|l| pred(&l.role)).count();
        let has_block = self.lines.iter().any(|l| l.role == Role::Lightmaps);
        count(|r| matches!(r, Role::Material(_))) == self.materials.len()
            && has_block == self.lightmaps.is_some()
            && count(|r| matches!(r, Role::Lightmap(_)))
                == self.lightmaps.as_ref().map_or(0, Vec::len)
    }

    fn write_lossless(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for l in &self.lines {
            let current = match l.role {
                Role::Material(i) => self.materials.get(i),
                Role::Lightmap(i) => self.lightmaps.as_ref().and_then(|v| v.get(i)),
                _ => None,
            };
            match (current, &l.parsed) {
                (Some(now), Some(was)) if now != was => out.extend(row_text(now)),
                _ => out.extend_from_slice(&l.text),
            }
            out.extend_from_slice(&l.eol);
        }
        out
    }

    fn write_canonical(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut put = |text: &[u8]| {
            out.extend_from_slice(text);
            out.extend_from_slice(b"\r\n");
        };
        put(self.materials.len().to_string().as_bytes());
        for row in &self.materials {
            put(&row_text(row));
        }
        if let Some(lightmaps) = &self.lightmaps {
            put(b"");
            put(LIGHTMAPS);
            put(lightmaps.len().to_string().as_bytes());
            for row in lightmaps {
                put(&row_text(row));
            }
        }
        out
    }
}

fn line(text: &[u8], eol: &[u8], role: Role, parsed: Option<WearRow>) -> Line {
    Line {
        text: text.to_vec(),
        eol: eol.to_vec(),
        role,
        parsed,
    }
}

fn row_text(row: &WearRow) -> Vec<u8> {
    let mut t = row.legacy_id.clone();
    t.push(b' ');
    t.extend_from_slice(&row.name);
    t
}

fn check_token(token: &[u8], what: &str) -> Result<()> {
    if token.is_empty() || token.iter().any(|b| b.is_ascii_whitespace()) {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("a non-empty {what} without whitespace"),
            crate::cursor::show_bytes(token),
        ));
    }
    Ok(())
}

fn read_rows<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a [u8], &'a [u8])>,
    count: usize,
    count_offset: usize,
    out: &mut Vec<Line>,
    role: fn(usize) -> Role,
) -> Result<Vec<WearRow>> {
    // A row takes at least two bytes ("0 x" minus terminator), so the count
    // is bounded by the data before anything is allocated per row.
    let mut rows = Vec::new();
    for i in 0..count {
        let (offset, text, eol) = lines.next().ok_or_else(|| {
            FormatError::invalid(
                FORMAT,
                count_offset as u64,
                format!("{count} rows after the count line"),
                format!("{i} rows before the end"),
            )
        })?;
        let row = parse_row(text, offset)?;
        out.push(line(text, eol, role(i), Some(row.clone())));
        rows.push(row);
    }
    Ok(rows)
}

/// Splits into (offset, text, terminator); the terminator is `\r\n`, `\n` or
/// empty on an unterminated last line. A final empty "line" after the last
/// terminator is not produced.
fn split_lines(data: &[u8]) -> Vec<(usize, &[u8], &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let rest = &data[start..];
        let (text_len, eol_len) = match rest.iter().position(|&b| b == b'\n') {
            Some(nl) if nl > 0 && rest[nl - 1] == b'\r' => (nl - 1, 2),
            Some(nl) => (nl, 1),
            None => (rest.len(), 0),
        };
        out.push((
            start,
            &rest[..text_len],
            &rest[text_len..text_len + eol_len],
        ));
        start += text_len + eol_len;
    }
    out
}

fn is_blank(text: &[u8]) -> bool {
    text.iter().all(|b| b.is_ascii_whitespace())
}

fn parse_count(text: &[u8], offset: usize, what: &str) -> Result<usize> {
    std::str::from_utf8(text)
        .ok()
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|t| t.parse::<usize>().ok())
        .ok_or_else(|| {
            FormatError::invalid(
                FORMAT,
                offset as u64,
                format!("{what}: a decimal number"),
                crate::cursor::show_bytes(text),
            )
        })
}

fn parse_row(text: &[u8], offset: usize) -> Result<WearRow> {
    let mut tokens = text
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty());
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(id), Some(name), None) => Ok(WearRow::new(id, name)),
        _ => Err(FormatError::invalid(
            FORMAT,
            offset as u64,
            "a row `<legacyId> <name>`",
            crate::cursor::show_bytes(text),
        )),
    }
}

/// Serialises bytes as text (lossy UTF-8) for JSON output.
pub(crate) fn serialize_lossy<S: serde::Serializer>(
    bytes: &[u8],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_mixed_terminators() {
        let l = split_lines(b"a\r\nb\nc");
        assert_eq!(l.len(), 3);
        assert_eq!((l[0].1, l[0].2), (&b"a"[..], &b"\r\n"[..]));
        assert_eq!((l[1].1, l[1].2), (&b"b"[..], &b"\n"[..]));
        assert_eq!((l[2].0, l[2].1, l[2].2), (5, &b"c"[..], &b""[..]));
    }
}
