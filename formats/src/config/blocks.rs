//! Row- and block-shaped text configs: `Comp.ini` (one component per row)
//! and `mission.cfg` (`object <name>` ... `end` blocks). Both sit on the
//! shared [`TextConfig`], so the file is written back byte-identical.

use super::text::{Line, LineKind, TextConfig};
use crate::error::{FormatError, Result};

/// `Comp.ini`: rows `<CID> <DLL-name> <Function-name> [comment]`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompIni {
    pub text: TextConfig,
    pub components: Vec<Component>,
}

/// One component row.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Component {
    pub cid: u32,
    pub dll: String,
    pub function: String,
    /// Words after the function name, and/or the `//` comment.
    pub comment: Option<String>,
    pub line: usize,
}

/// The confirmed component table of tome VIII: what a missing row means.
pub const DEFAULT_COMPONENTS: &[(u32, &str, &str)] = &[
    (0, "terrain.dll", "LoadLandscape"),
    (1, "terrain.dll", "LoadBuilding"),
    (2, "terrain.dll", "LoadCamera"),
    (3, "animesh.dll", "LoadAgent"),
    (4, "animesh.dll", "LoadAgent"),
    (5, "terrain.dll", "CreateAtmosphere"),
    (6, "terrain.dll", "CreateShader"),
    (7, "misload.dll", "LoadResearch"),
];

impl CompIni {
    /// Parses the rows; section headers are allowed and ignored, any other
    /// shape (a `key=value`, a row without a numeric CID and two names) is an
    /// error.
    pub fn parse(data: &[u8]) -> Result<Self> {
        const FORMAT: &str = "Comp.ini";
        let text = TextConfig::parse(data, FORMAT)?;
        let mut components = Vec::new();
        for line in &text.lines {
            match &line.kind {
                LineKind::Blank | LineKind::Section(_) => {}
                LineKind::Words(w) if w.len() >= 3 && w[0].text.parse::<u32>().is_ok() => {
                    let rest: Vec<&str> = w[3..].iter().map(|t| t.raw.as_str()).collect();
                    let comment = match (rest.is_empty(), &line.comment) {
                        (true, c) => c.clone(),
                        (false, None) => Some(rest.join(" ")),
                        (false, Some(c)) => Some(format!("{} //{c}", rest.join(" "))),
                    };
                    components.push(Component {
                        cid: w[0].text.parse().unwrap_or_default(),
                        dll: w[1].text.clone(),
                        function: w[2].text.clone(),
                        comment,
                        line: line.number,
                    });
                }
                other => return Err(bad_line(FORMAT, line, "`<CID> <DLL> <Function>`", other)),
            }
        }
        Ok(Self { text, components })
    }

    /// The row of a CID (first one), or `None`.
    pub fn component(&self, cid: u32) -> Option<&Component> {
        self.components.iter().find(|c| c.cid == cid)
    }

    /// The effective `(dll, function)` of a CID and whether it came from the
    /// file (`true`) or the confirmed default table (`false`).
    pub fn effective(&self, cid: u32) -> Option<(&str, &str, bool)> {
        if let Some(c) = self.component(cid) {
            return Some((&c.dll, &c.function, true));
        }
        DEFAULT_COMPONENTS
            .iter()
            .find(|(id, _, _)| *id == cid)
            .map(|(_, dll, function)| (*dll, *function, false))
    }
}

/// `mission.cfg`: named resource objects.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectConfig {
    pub text: TextConfig,
    pub objects: Vec<ConfigObject>,
}

/// One `object <name>` ... `end` block.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConfigObject {
    pub name: String,
    pub line: usize,
    /// Fields in file order (repeats kept).
    pub fields: Vec<ConfigField>,
}

/// A field line: `key value...` or `key = value`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ConfigField {
    pub key: String,
    /// The rest of the line, quotes removed from a single quoted value.
    pub value: String,
    pub line: usize,
}

impl ObjectConfig {
    /// Parses the blocks. A field outside a block, `object` inside a block,
    /// `end` without a block or a block without `end` is an error. Besides
    /// `//` comments, a line whose first word starts with `#` is a comment
    /// (openparkan `docs/04-missions.md`).
    pub fn parse(data: &[u8], format: &'static str) -> Result<Self> {
        let text = TextConfig::parse(data, format)?;
        let mut objects = Vec::new();
        let mut open: Option<ConfigObject> = None;
        for line in &text.lines {
            let (key, value) = match &line.kind {
                LineKind::Blank => continue,
                LineKind::Words(w) if w[0].raw.starts_with('#') => continue,
                LineKind::KeyValue { key, .. } if key.starts_with('#') => continue,
                LineKind::KeyValue { key, value } => (key.clone(), value.text.clone()),
                LineKind::Words(w) => {
                    let value = match &w[1..] {
                        [one] => one.text.clone(),
                        rest => rest
                            .iter()
                            .map(|t| t.raw.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                    };
                    (w[0].text.clone(), value)
                }
                other => return Err(bad_line(format, line, "an object block line", other)),
            };
            match (key.to_ascii_lowercase().as_str(), open.take()) {
                ("object", None) if !value.is_empty() => {
                    open = Some(ConfigObject {
                        name: value,
                        line: line.number,
                        fields: Vec::new(),
                    })
                }
                ("end", Some(block)) if value.is_empty() => objects.push(block),
                (k, Some(mut block)) if k != "object" && k != "end" => {
                    block.fields.push(ConfigField {
                        key,
                        value,
                        line: line.number,
                    });
                    open = Some(block);
                }
                _ => {
                    return Err(bad_line(
                        format,
                        line,
                        "`object <name>`, a field inside a block, or `end`",
                        &line.kind,
                    ));
                }
            }
        }
        if let Some(block) = open {
            return Err(FormatError::invalid(
                format,
                data.len() as u64,
                "`end` closing every object block",
                format!(
                    "end of file in object {:?} (line {})",
                    block.name, block.line
                ),
            ));
        }
        Ok(Self { text, objects })
    }

    /// The first object of this name (ASCII case-insensitive).
    pub fn object(&self, name: &str) -> Option<&ConfigObject> {
        self.objects
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

impl ConfigObject {
    /// The first field of this key (ASCII case-insensitive).
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.key.eq_ignore_ascii_case(key))
            .map(|f| f.value.as_str())
    }

    /// The numeric `type` field.
    pub fn type_id(&self) -> Option<i64> {
        self.field("type").and_then(|v| v.trim().parse().ok())
    }
}

fn bad_line(format: &'static str, line: &Line, expected: &str, kind: &LineKind) -> FormatError {
    FormatError::invalid(
        format,
        line.offset as u64,
        expected,
        format!("line {}: {kind:?}", line.number),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    #[test]
    fn comp_ini_rows_comments_and_defaults() {
        let src = b"// registry\r\n0 terrain.dll LoadLandscape\r\n3 animesh.dll LoadAgent  agents // x\r\n";
        let comp = CompIni::parse(src).unwrap();
        assert_eq!(comp.text.to_bytes(), src);
        assert_eq!(comp.components.len(), 2);
        assert_eq!(comp.components[1].comment.as_deref(), Some("agents // x"));
        assert_eq!(
            comp.effective(0),
            Some(("terrain.dll", "LoadLandscape", true))
        );
        assert_eq!(
            comp.effective(7),
            Some(("misload.dll", "LoadResearch", false))
        );
        assert_eq!(comp.effective(8), None);
        let row = "Comp.ini: expected `<CID> <DLL> <Function>`, found line 1: ";
        expect_error(
            CompIni::parse(b"X terrain.dll F\r\n"),
            0,
            &format!("{row}Words([Token {{ raw: \"X\""),
        );
        expect_error(
            CompIni::parse(b"A=1\r\n"),
            0,
            &format!("{row}KeyValue {{ key: \"A\""),
        );
    }

    #[test]
    fn mission_cfg_blocks() {
        let src = b"object music\r\n desc \"Ambient loop\"\r\n library sounds.lib\r\n libtype 1\r\n type 7\r\n volume = 0.5\r\n end\r\n\r\nobject other\r\nend\r\n";
        let cfg = ObjectConfig::parse(src, "mission.cfg").unwrap();
        assert_eq!(cfg.text.to_bytes(), src);
        let m = cfg.object("MUSIC").unwrap();
        assert_eq!(m.field("desc"), Some("Ambient loop"));
        assert_eq!(m.field("library"), Some("sounds.lib"));
        assert_eq!(m.type_id(), Some(7));
        assert_eq!(m.field("volume"), Some("0.5"));
        assert_eq!(cfg.objects[1].fields.len(), 0);
    }

    #[test]
    fn mission_cfg_broken_structure_is_an_error() {
        let line =
            "mission.cfg: expected `object <name>`, a field inside a block, or `end`, found ";
        for (bad, offset, needle) in [
            (
                &b"desc x\r\n"[..],
                0,
                format!("{line}line 1: Words([Token {{ raw: \"desc\""),
            ),
            (
                b"object a\r\nobject b\r\nend\r\n",
                10,
                format!("{line}line 2: Words([Token {{ raw: \"object\""),
            ),
            (
                b"end\r\n",
                0,
                format!("{line}line 1: Words([Token {{ raw: \"end\""),
            ),
            (
                b"object a\r\n desc x\r\n",
                19,
                "mission.cfg: expected `end` closing every object block, \
                 found end of file in object \"a\" (line 1)"
                    .into(),
            ),
            (
                b"object\r\nend\r\n",
                0,
                format!(
                    "{line}line 1: Words([Token {{ raw: \"object\", text: \"object\", quoted: false }}])"
                ),
            ),
            (
                b"[S]\r\n",
                0,
                "mission.cfg: expected an object block line, found line 1: Section(\"S\")".into(),
            ),
        ] {
            expect_error(ObjectConfig::parse(bad, "mission.cfg"), offset, &needle);
        }
    }
}
