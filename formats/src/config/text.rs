//! The one reader of the engine's line-oriented text files (`*.ini`,
//! `*.cfg`, `Comp.ini`, `BuildDat.lst`).
//!
//! Every line is kept as its raw bytes (terminator included, `\r\n` or `\n`)
//! so [`TextConfig::to_bytes`] gives the file back byte-identical, and is
//! classified once: blank, `//` comment, `[section]`, `key = value`, or a row
//! of whitespace-separated words. Double-quoted strings are one token (no
//! escapes: legacy paths are full of `\`), and `//` inside quotes is text.
//! Text is decoded as CP1251 for the typed view only.

use super::decode_cp1251;
use crate::error::{FormatError, Result};

/// A whole text file, line by line.
#[derive(Debug, Clone, PartialEq)]
pub struct TextConfig {
    pub lines: Vec<Line>,
}

/// One line: the raw bytes and what they say.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// Offset of the line's first byte in the file.
    pub offset: usize,
    /// The line as stored, terminator included.
    pub raw: Vec<u8>,
    pub kind: LineKind,
    /// The `//` comment at the end of the line, without the slashes.
    pub comment: Option<String>,
}

/// What a line says once its comment is stripped.
#[derive(Debug, Clone, PartialEq)]
pub enum LineKind {
    /// Nothing, or only a comment.
    Blank,
    /// `[NAME]`.
    Section(String),
    /// `key = value` (first `=` outside quotes).
    KeyValue { key: String, value: Token },
    /// Whitespace-separated words.
    Words(Vec<Token>),
}

/// A value or word: its text as written and its meaning.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// As written (quotes included).
    pub raw: String,
    /// Quotes removed.
    pub text: String,
    pub quoted: bool,
}

impl TextConfig {
    /// Splits and classifies `data`; `format` names the file kind in errors.
    /// An unterminated quoted string is an error in a row of words; in a
    /// `key = value` line the value is kept as written (not quoted), as the
    /// Windows profile reader does.
    pub fn parse(data: &[u8], format: &'static str) -> Result<Self> {
        let mut lines = Vec::new();
        let mut offset = 0;
        for (i, raw) in data.split_inclusive(|&b| b == b'\n').enumerate() {
            let body = raw.strip_suffix(b"\n").unwrap_or(raw);
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            let (kind, comment) = classify(&decode_cp1251(body))
                .map_err(|what| FormatError::invalid(format, offset as u64, what, show(body)))?;
            lines.push(Line {
                number: i + 1,
                offset,
                raw: raw.to_vec(),
                kind,
                comment,
            });
            offset += raw.len();
        }
        Ok(Self { lines })
    }

    /// The file back, byte-identical to what was parsed.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.lines
            .iter()
            .flat_map(|l| l.raw.iter().copied())
            .collect()
    }

    /// Key/value lines with the section they are in (`""` before the first
    /// section header), in file order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str, &Token, &Line)> {
        let mut section = "";
        self.lines.iter().filter_map(move |line| match &line.kind {
            LineKind::Section(s) => {
                section = s;
                None
            }
            LineKind::KeyValue { key, value } => Some((section, key.as_str(), value, line)),
            _ => None,
        })
    }

    /// Section names in file order.
    pub fn sections(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().filter_map(|l| match &l.kind {
            LineKind::Section(s) => Some(s.as_str()),
            _ => None,
        })
    }

    /// The first value of `key` in `section` (both ASCII case-insensitive;
    /// `None` matches any section), as Windows profile lookup does.
    pub fn get(&self, section: Option<&str>, key: &str) -> Option<(&Token, &Line)> {
        self.entries()
            .find(|(s, k, _, _)| {
                k.eq_ignore_ascii_case(key)
                    && section.is_none_or(|want| s.eq_ignore_ascii_case(want))
            })
            .map(|(_, _, v, l)| (v, l))
    }
}

/// Shows a line for an error message.
fn show(body: &[u8]) -> String {
    format!("{:?}", decode_cp1251(body))
}

/// Classifies one line (terminator removed).
fn classify(text: &str) -> std::result::Result<(LineKind, Option<String>), String> {
    let (code, comment) = split_comment(text);
    let code = code.trim();
    let kind = if code.is_empty() {
        LineKind::Blank
    } else if let Some(name) = code.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        LineKind::Section(name.trim().to_string())
    } else if let Some(eq) = find_outside_quotes(code, '=') {
        LineKind::KeyValue {
            key: code[..eq].trim().to_string(),
            value: token(code[eq + 1..].trim()),
        }
    } else {
        LineKind::Words(words(code)?)
    };
    Ok((kind, comment))
}

/// Splits off a `//` comment that is not inside quotes (after an
/// unterminated quote the rest of the line is code).
fn split_comment(text: &str) -> (&str, Option<String>) {
    let mut in_quotes = false;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => in_quotes = !in_quotes,
            b'/' if !in_quotes && bytes.get(i + 1) == Some(&b'/') => {
                return (&text[..i], Some(text[i + 2..].to_string()));
            }
            _ => {}
        }
    }
    (text, None)
}

/// The byte index of `ch` outside double quotes.
fn find_outside_quotes(text: &str, ch: char) -> Option<usize> {
    let mut in_quotes = false;
    text.char_indices().find_map(|(i, c)| {
        if c == '"' {
            in_quotes = !in_quotes;
        }
        (c == ch && !in_quotes).then_some(i)
    })
}

/// A value: quoted when it is exactly one `"..."` string.
fn token(raw: &str) -> Token {
    let quoted = raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"');
    let text = if quoted { &raw[1..raw.len() - 1] } else { raw };
    Token {
        raw: raw.to_string(),
        text: text.to_string(),
        quoted,
    }
}

/// Whitespace-separated words; a quoted string is one word.
fn words(code: &str) -> std::result::Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut rest = code.trim_start();
    while !rest.is_empty() {
        let end = if let Some(after) = rest.strip_prefix('"') {
            let close = after
                .find('"')
                .ok_or_else(|| "a closing '\"' on the line".to_string())?;
            close + 2
        } else {
            rest.find(char::is_whitespace).unwrap_or(rest.len())
        };
        out.push(token(&rest[..end]));
        rest = rest[end..].trim_start();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_every_line_kind_and_round_trips() {
        let src = b"// head\r\n[CS]\r\nDISPLAY_WIDTH = 640 // px\r\nPATH=\"C:\\\\a//b\"\r\n\r\n0 terrain.dll LoadLandscape  // comment\nobject \"x y\"\nlast";
        let cfg = TextConfig::parse(src, "ini").unwrap();
        assert_eq!(cfg.to_bytes(), src);
        let kinds: Vec<_> = cfg.lines.iter().map(|l| &l.kind).collect();
        assert_eq!(kinds[0], &LineKind::Blank);
        assert_eq!(cfg.lines[0].comment.as_deref(), Some(" head"));
        assert_eq!(kinds[1], &LineKind::Section("CS".into()));
        let (v, line) = cfg.get(Some("cs"), "display_width").unwrap();
        assert_eq!((v.text.as_str(), line.number), ("640", 3));
        assert_eq!(cfg.lines[2].comment.as_deref(), Some(" px"));
        let (v, _) = cfg.get(None, "PATH").unwrap();
        assert!(v.quoted);
        assert_eq!(v.text, "C:\\\\a//b");
        match &cfg.lines[5].kind {
            LineKind::Words(w) => assert_eq!(w.len(), 3),
            other => panic!("{other:?}"),
        }
        match &cfg.lines[6].kind {
            LineKind::Words(w) => assert_eq!((w[1].text.as_str(), w[1].quoted), ("x y", true)),
            other => panic!("{other:?}"),
        }
        assert_eq!(cfg.lines[7].raw, b"last");
    }

    #[test]
    fn unterminated_quote_errors_in_words_and_stays_raw_in_values() {
        let err = TextConfig::parse(b"a=1\nobject \"open\n", "cfg").unwrap_err();
        assert_eq!(err.offset, 4);
        let cfg = TextConfig::parse(b"LOGIN=\"open // not a comment\n", "ini").unwrap();
        let (v, _) = cfg.get(None, "login").unwrap();
        assert_eq!(
            (v.text.as_str(), v.quoted),
            ("\"open // not a comment", false)
        );
        assert_eq!(cfg.lines[0].comment, None);
    }

    #[test]
    fn cp1251_text_is_decoded_for_the_view_only() {
        let src = b"LOGIN=\xcf\xf0\xe8\xe2\xe5\xf2\r\n";
        let cfg = TextConfig::parse(src, "ini").unwrap();
        assert_eq!(cfg.get(None, "login").unwrap().0.text, "Привет");
        assert_eq!(cfg.to_bytes(), src);
    }
}
