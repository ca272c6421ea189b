//! The face mask of `TerrainFace28` (its `flags` word) and the two compact
//! forms the runtime query API uses (tome IV, "Маски поверхности").
//!
//! `compactMain16` gathers single bits of the full mask; `compactMaterial6`
//! holds the material classes. Neither is a truncation of the low bits.
//! Full bits that neither table names are carried separately in
//! [`SurfaceMask::unmapped`], so `full -> compact -> full` is the identity.

use serde::Serialize;

/// `full -> compactMain16`: (full bit, compact bit), tome IV table.
pub const MAIN16_MAP: [(u32, u16); 15] = [
    (0x0000_0001, 0x0001),
    (0x0000_0008, 0x0002),
    (0x0000_0010, 0x0004),
    (0x0000_0020, 0x0008),
    (0x0000_1000, 0x0010),
    (0x0000_4000, 0x0020),
    (0x0000_0002, 0x0040),
    (0x0000_0400, 0x0080),
    (0x0000_0800, 0x0100),
    (0x0002_0000, 0x0200),
    (0x0000_2000, 0x0400),
    (0x0000_0200, 0x0800),
    (0x0000_0004, 0x1000),
    (0x0000_0040, 0x2000),
    (0x0020_0000, 0x8000),
];

/// `full -> compactMaterial6`: (full bit, compact bit), tome IV table.
pub const MATERIAL6_MAP: [(u32, u8); 6] = [
    (0x0000_0100, 0x01),
    (0x0000_8000, 0x02),
    (0x0001_0000, 0x04),
    (0x0004_0000, 0x08),
    (0x0008_0000, 0x10),
    (0x0000_0080, 0x20),
];

/// The full-mask bits covered by one of the two tables.
pub const MAPPED_FULL_BITS: u32 = {
    let mut bits = 0;
    let mut i = 0;
    while i < MAIN16_MAP.len() {
        bits |= MAIN16_MAP[i].0;
        i += 1;
    }
    let mut j = 0;
    while j < MATERIAL6_MAP.len() {
        bits |= MATERIAL6_MAP[j].0;
        j += 1;
    }
    bits
};

/// The two compact forms of a mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct CompactMask {
    /// `compactMain16`.
    pub main: u16,
    /// `compactMaterial6` (six low bits used).
    pub material: u8,
}

/// A full mask split losslessly: its compact forms plus the full bits that
/// have no compact bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SurfaceMask {
    pub compact: CompactMask,
    /// Full bits outside both tables, kept as they were.
    pub unmapped: u32,
}

/// `full -> compact`; bits outside both tables are dropped here (see
/// [`SurfaceMask::from_full`] for the lossless split).
pub fn full_to_compact(full: u32) -> CompactMask {
    let mut out = CompactMask::default();
    for (f, c) in MAIN16_MAP {
        if full & f != 0 {
            out.main |= c;
        }
    }
    for (f, c) in MATERIAL6_MAP {
        if full & f != 0 {
            out.material |= c;
        }
    }
    out
}

/// `compact -> full`, and the compact bits no table names (returned so a
/// caller never loses them silently: `0x4000` of `main`, bits 6..7 of
/// `material`).
pub fn compact_to_full(compact: CompactMask) -> (u32, CompactMask) {
    let mut full = 0;
    let mut rest = compact;
    for (f, c) in MAIN16_MAP {
        if compact.main & c != 0 {
            full |= f;
            rest.main &= !c;
        }
    }
    for (f, c) in MATERIAL6_MAP {
        if compact.material & c != 0 {
            full |= f;
            rest.material &= !c;
        }
    }
    (full, rest)
}

impl SurfaceMask {
    /// Splits a full mask.
    pub fn from_full(full: u32) -> Self {
        Self {
            compact: full_to_compact(full),
            unmapped: full & !MAPPED_FULL_BITS,
        }
    }

    /// The full mask again (identity on [`SurfaceMask::from_full`]).
    pub fn to_full(self) -> u32 {
        compact_to_full(self.compact).0 | self.unmapped
    }
}

/// The runtime face filter: every `required` bit set, no `forbidden` bit set.
pub fn matches(flags: u32, required: u32, forbidden: u32) -> bool {
    flags & required == required && flags & forbidden == 0
}
