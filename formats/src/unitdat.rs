//! Unit DAT (`UNITS\...\*.dat`): the components of a composite unit (tome
//! III "Unit DAT", FACTS "Unit DAT" wins on the field names).
//!
//! ```text
//! u32 magic 0x0000F0F1
//! u32 class word (0x80000000 building, 0x01000000 robot, ...)
//! UnitPart records[(file_size - 8) / 112]
//! ```
//!
//! Each 112-byte record keeps its three 32-byte fields whole (bytes after the
//! NUL are data for the round trip; a description may fill all 32 bytes).
//! The records are a depth-first tree: each one is followed by its
//! `child_count` subtrees. [`UnitDat::tree`] computes that tree without
//! recursion; strict parsing requires it to be well formed, compatible mode
//! keeps the flat records when it is not (quirk [`QUIRK_BROKEN_TREE`]).

use crate::archive::Mode;
use crate::cursor::{Cursor, c_name};
use crate::error::{FormatError, Problem, Result};
use crate::fixed::fixed_field;

/// Format name in errors.
pub const FORMAT: &str = "unit DAT";
/// The magic word.
pub const MAGIC: u32 = 0x0000_F0F1;
/// Size of one part record.
pub const RECORD_SIZE: usize = 112;
/// Class word of buildings.
pub const CLASS_BUILDING: u32 = 0x8000_0000;
/// Class word of robots.
pub const CLASS_ROBOT: u32 = 0x0100_0000;
/// Compatible mode keeps records whose child counts do not form a tree.
pub const QUIRK_BROKEN_TREE: &str = "unitdat_broken_part_tree";

/// A whole unit file.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitDat {
    pub magic: u32,
    pub class_word: u32,
    /// Records in file (depth-first) order.
    pub parts: Vec<UnitPart>,
}

/// One 112-byte part record.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitPart {
    /// Archive of the prototype (`objects.rlb` in every known file).
    pub archive: [u8; 32],
    /// Prototype key in that archive.
    pub name: [u8; 32],
    /// 1 in every known file.
    pub flags: u32,
    /// -1 on the root; small indices elsewhere (raw).
    pub attachment: i32,
    /// CP1251 text; may fill all 32 bytes without a NUL.
    pub description: [u8; 32],
    /// Raw part class; see [`UnitPart::class`].
    pub part_class: u32,
    pub child_count: i32,
}

/// Typed view of [`UnitPart::part_class`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartClass {
    Chassis,
    Turret,
    Armour,
    Internal,
    Gun,
    Ammo,
}

impl PartClass {
    const ALL: [PartClass; 6] = [
        Self::Chassis,
        Self::Turret,
        Self::Armour,
        Self::Internal,
        Self::Gun,
        Self::Ammo,
    ];

    /// The stored word.
    pub fn raw(self) -> u32 {
        self as u32
    }
}

/// Where a record sits in the part tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeLink {
    /// Index of the parent record; `None` for a root.
    pub parent: Option<usize>,
    /// 0 for a root.
    pub depth: usize,
}

impl UnitPart {
    /// The archive name before its NUL.
    pub fn archive_name(&self) -> &[u8] {
        c_name(&self.archive)
    }

    /// The prototype key before its NUL.
    pub fn key(&self) -> &[u8] {
        c_name(&self.name)
    }

    /// The description before its NUL (all 32 bytes when there is none).
    pub fn description_bytes(&self) -> &[u8] {
        c_name(&self.description)
    }

    /// The description decoded as CP1251.
    pub fn description_text(&self) -> String {
        crate::config::decode_cp1251(self.description_bytes())
    }

    /// The part class, if the word is known.
    pub fn class(&self) -> Option<PartClass> {
        PartClass::ALL.get(self.part_class as usize).copied()
    }
}

impl UnitDat {
    /// Parses a unit file: magic, class word, then whole records to the end.
    pub fn parse(data: &[u8], mode: Mode) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let at = c.pos();
        let magic = c.u32()?;
        if magic != MAGIC {
            return Err(FormatError::new(
                FORMAT,
                at as u64,
                Problem::BadMagic {
                    expected: format!("{MAGIC:#010x}"),
                    found: format!("{magic:#010x}"),
                },
            ));
        }
        let class_word = c.u32()?;
        if !c.remaining().is_multiple_of(RECORD_SIZE) {
            return Err(c.invalid_at(
                c.pos(),
                format!("a whole number of {RECORD_SIZE}-byte records"),
                format!("{} bytes", c.remaining()),
            ));
        }
        let n = c.checked_count((c.remaining() / RECORD_SIZE) as u64, RECORD_SIZE, "parts")?;
        let mut parts = Vec::with_capacity(n);
        for _ in 0..n {
            parts.push(UnitPart {
                archive: c.array()?,
                name: c.array()?,
                flags: c.u32()?,
                attachment: c.i32()?,
                description: c.array()?,
                part_class: c.u32()?,
                child_count: c.i32()?,
            });
        }
        c.expect_end()?;
        let dat = Self {
            magic,
            class_word,
            parts,
        };
        if matches!(mode, Mode::Strict) {
            dat.tree()?;
        }
        Ok(dat)
    }

    /// The records back, byte-identical for an unmodified file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + self.parts.len() * RECORD_SIZE);
        out.extend_from_slice(&self.magic.to_le_bytes());
        out.extend_from_slice(&self.class_word.to_le_bytes());
        for p in &self.parts {
            out.extend_from_slice(&p.archive);
            out.extend_from_slice(&p.name);
            out.extend_from_slice(&p.flags.to_le_bytes());
            out.extend_from_slice(&p.attachment.to_le_bytes());
            out.extend_from_slice(&p.description);
            out.extend_from_slice(&p.part_class.to_le_bytes());
            out.extend_from_slice(&p.child_count.to_le_bytes());
        }
        out
    }

    /// The depth-first part tree: one [`TreeLink`] per record. The records
    /// are a sequence of root subtrees; a negative child count, or one that
    /// needs more records than follow, is an error (quirk
    /// [`QUIRK_BROKEN_TREE`]).
    pub fn tree(&self) -> Result<Vec<TreeLink>> {
        let mut links: Vec<TreeLink> = Vec::with_capacity(self.parts.len());
        // Open parents with the number of children they still expect.
        let mut open: Vec<(usize, usize)> = Vec::new();
        for (i, part) in self.parts.iter().enumerate() {
            let children = usize::try_from(part.child_count)
                .map_err(|_| broken(i, format!("child count {} is negative", part.child_count)))?;
            let parent = open.last_mut().map(|(index, left)| {
                *left -= 1;
                *index
            });
            let depth = parent.map_or(0, |p: usize| links[p].depth + 1);
            links.push(TreeLink { parent, depth });
            while open.last().is_some_and(|&(_, left)| left == 0) {
                open.pop();
            }
            if children > 0 {
                open.push((i, children));
            }
        }
        if let Some(&(index, left)) = open.last() {
            return Err(broken(
                index,
                format!("{left} more child records than the file has"),
            ));
        }
        Ok(links)
    }

    /// What compatible mode accepted: the broken-tree quirk, if any.
    pub fn quirks(&self) -> Vec<FormatError> {
        self.tree().err().into_iter().collect()
    }

    /// Indices of the children of record `index`, in order.
    pub fn children(links: &[TreeLink], index: usize) -> Vec<usize> {
        (0..links.len())
            .filter(|&i| links[i].parent == Some(index))
            .collect()
    }

    /// The prototype keys of every part, depth-first (the component list of
    /// the placed unit).
    pub fn component_keys(&self) -> Vec<&[u8]> {
        self.parts.iter().map(|p| p.key()).collect()
    }

    /// Builds a unit file from typed part trees (roots in order).
    pub fn build(class_word: u32, roots: &[PartSpec]) -> Result<Self> {
        let mut parts = Vec::new();
        // Depth-first without recursion: a stack of subtrees still to write.
        let mut stack: Vec<&PartSpec> = roots.iter().rev().collect();
        while let Some(spec) = stack.pop() {
            let child_count = i32::try_from(spec.children.len())
                .map_err(|_| FormatError::overflow(FORMAT, 0, "part child count"))?;
            parts.push(UnitPart {
                archive: fixed_field(b"objects.rlb", 31, FORMAT)?,
                name: fixed_field(spec.key.as_bytes(), 31, FORMAT)?,
                flags: 1,
                attachment: spec.attachment,
                description: description_field(&spec.description)?,
                part_class: spec.class.raw(),
                child_count,
            });
            stack.extend(spec.children.iter().rev());
        }
        Ok(Self {
            magic: MAGIC,
            class_word,
            parts,
        })
    }
}

/// A part of a unit to build.
#[derive(Debug, Clone, PartialEq)]
pub struct PartSpec {
    /// Prototype key in `objects.rlb`.
    pub key: String,
    pub description: String,
    pub class: PartClass,
    /// -1 for a root.
    pub attachment: i32,
    pub children: Vec<PartSpec>,
}

fn broken(index: usize, detail: String) -> FormatError {
    FormatError::new(
        FORMAT,
        (8 + index * RECORD_SIZE) as u64,
        Problem::Quirk {
            name: QUIRK_BROKEN_TREE,
            detail: format!("part #{index}: {detail}"),
        },
    )
}

/// A description field: CP1251, up to all 32 bytes (no NUL needed).
fn description_field(text: &str) -> Result<[u8; 32]> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1251.encode(text);
    if unmappable || bytes.len() > 32 || bytes.contains(&0) {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            "a description of at most 32 CP1251 bytes",
            format!("{text:?}"),
        ));
    }
    let mut out = [0u8; 32];
    out[..bytes.len()].copy_from_slice(&bytes);
    Ok(out)
}
