//! `BuildDat.lst`: the unit files of the 12 building categories (tome IV
//! "Категории зон объектов", FACTS "BuildDat.lst").
//!
//! The file is a [`TextConfig`]: blank lines and `//` comments anywhere; each
//! section is a header line `<CategoryName> <count>` followed by `count`
//! lines of one quoted unit path (`"UNITS\BUILDS\...\X.dat"`). An unknown
//! category name, a repeated one, a count that does not match the lines, or
//! a line of another shape is an error. The 32-bit masks belong to the
//! category names (an engine-side table, [`BuildCategory::mask`]), not to the
//! file. Strict mode also wants all 12 sections in the fixed order; compatible
//! mode accepts them in any order and any subset (quirk
//! [`QUIRK_LOOSE_SECTIONS`]).

use super::text::{LineKind, TextConfig, Token};
use crate::archive::Mode;
use crate::error::{FormatError, Problem, Result};

/// Format name in errors.
pub const FORMAT: &str = "BuildDat.lst";
/// Compatible mode accepts sections out of the fixed order or missing.
pub const QUIRK_LOOSE_SECTIONS: &str = "builddat_loose_sections";

/// A building category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum BuildCategory {
    BunkerSmall,
    BunkerMedium,
    BunkerLarge,
    Generator,
    Mine,
    Storage,
    Plant,
    Hangar,
    MainTeleport,
    Institute,
    TowerMedium,
    TowerLarge,
}

impl BuildCategory {
    /// All 12, in the fixed file order.
    pub const ALL: [BuildCategory; 12] = [
        Self::BunkerSmall,
        Self::BunkerMedium,
        Self::BunkerLarge,
        Self::Generator,
        Self::Mine,
        Self::Storage,
        Self::Plant,
        Self::Hangar,
        Self::MainTeleport,
        Self::Institute,
        Self::TowerMedium,
        Self::TowerLarge,
    ];

    /// The name in the file.
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// The engine's object-zone mask of this category.
    pub fn mask(self) -> u32 {
        self.entry().1
    }

    fn entry(self) -> (&'static str, u32) {
        match self {
            Self::BunkerSmall => ("Bunker_Small", 0x8001_0000),
            Self::BunkerMedium => ("Bunker_Medium", 0x8002_0000),
            Self::BunkerLarge => ("Bunker_Large", 0x8004_0000),
            Self::Generator => ("Generator", 0x8000_0002),
            Self::Mine => ("Mine", 0x8000_0004),
            Self::Storage => ("Storage", 0x8000_0008),
            Self::Plant => ("Plant", 0x8000_0010),
            Self::Hangar => ("Hangar", 0x8000_0040),
            Self::MainTeleport => ("MainTeleport", 0x8000_0200),
            Self::Institute => ("Institute", 0x8000_0400),
            Self::TowerMedium => ("Tower_Medium", 0x8010_0000),
            Self::TowerLarge => ("Tower_Large", 0x8020_0000),
        }
    }

    /// The category of a name (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The category whose mask is `mask`.
    pub fn from_mask(mask: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.mask() == mask)
    }
}

/// The parsed file: the lossless lines and the typed sections.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildDat {
    pub text: TextConfig,
    pub sections: Vec<BuildSection>,
    /// What compatible mode accepted (empty in strict mode).
    pub quirks: Vec<FormatError>,
}

/// One category and its unit paths, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildSection {
    pub category: BuildCategory,
    /// 1-based line of the header.
    pub line: usize,
    pub paths: Vec<BuildPath>,
}

/// A unit path as written (quotes removed, `\` kept).
#[derive(Debug, Clone, PartialEq)]
pub struct BuildPath {
    pub path: String,
    pub line: usize,
}

impl BuildDat {
    /// Parses and checks the structure.
    pub fn parse(data: &[u8], mode: Mode) -> Result<Self> {
        let text = TextConfig::parse(data, FORMAT)?;
        let mut sections: Vec<BuildSection> = Vec::new();
        let mut lines = text
            .lines
            .iter()
            .filter(|l| l.kind != LineKind::Blank)
            .peekable();
        while let Some(header) = lines.next() {
            let err = |expected: &str, found: String| {
                FormatError::invalid(FORMAT, header.offset as u64, expected, found)
            };
            let (name, count) = match &header.kind {
                LineKind::Words(w) if w.len() == 2 && !w[0].quoted => (&w[0].text, &w[1].text),
                other => {
                    return Err(err(
                        "a section header `<CategoryName> <count>`",
                        format!("line {}: {other:?}", header.number),
                    ));
                }
            };
            let category = BuildCategory::from_name(name).ok_or_else(|| {
                err(
                    "one of the 12 category names",
                    format!("line {}: {name:?}", header.number),
                )
            })?;
            if sections.iter().any(|s| s.category == category) {
                return Err(err(
                    "each category once",
                    format!("line {}: {name} again", header.number),
                ));
            }
            let count: usize = count.parse().map_err(|_| {
                err(
                    "a decimal path count",
                    format!("line {}: {count:?}", header.number),
                )
            })?;
            let mut paths = Vec::new();
            for _ in 0..count {
                let line = lines.next().ok_or_else(|| {
                    err(
                        "as many path lines as the header counts",
                        format!("end of file after {} of {count}", paths.len()),
                    )
                })?;
                match &line.kind {
                    LineKind::Words(w) if is_one_quoted(w) => paths.push(BuildPath {
                        path: w[0].text.clone(),
                        line: line.number,
                    }),
                    other => {
                        return Err(FormatError::invalid(
                            FORMAT,
                            line.offset as u64,
                            "one quoted unit path",
                            format!("line {}: {other:?}", line.number),
                        ));
                    }
                }
            }
            sections.push(BuildSection {
                category,
                line: header.number,
                paths,
            });
        }
        let in_order = sections.len() == 12
            && sections
                .iter()
                .zip(BuildCategory::ALL)
                .all(|(s, c)| s.category == c);
        let mut quirks = Vec::new();
        if !in_order {
            let found: Vec<_> = sections.iter().map(|s| s.category.name()).collect();
            let quirk = FormatError::new(
                FORMAT,
                0,
                Problem::Quirk {
                    name: QUIRK_LOOSE_SECTIONS,
                    detail: format!("the 12 categories in the fixed order, found {found:?}"),
                },
            );
            match mode {
                Mode::Strict => return Err(quirk),
                Mode::Compatible => quirks.push(quirk),
            }
        }
        Ok(Self {
            text,
            sections,
            quirks,
        })
    }

    /// The file back, byte-identical.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.text.to_bytes()
    }

    /// The section of a category.
    pub fn section(&self, category: BuildCategory) -> Option<&BuildSection> {
        self.sections.iter().find(|s| s.category == category)
    }

    /// Writes a new file (CRLF lines) from typed sections, in the given order.
    pub fn build(sections: &[(BuildCategory, Vec<String>)]) -> Vec<u8> {
        let mut out = String::new();
        for (category, paths) in sections {
            out.push_str(&format!("{} {}\r\n", category.name(), paths.len()));
            for p in paths {
                out.push_str(&format!("\"{p}\"\r\n"));
            }
        }
        out.into_bytes()
    }
}

fn is_one_quoted(words: &[Token]) -> bool {
    words.len() == 1 && words[0].quoted
}
