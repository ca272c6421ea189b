//! Palettes: the 256-entry palette of indexed textures and the palettes of
//! `Palettes.lib`, chosen by texture name suffix (26 letters x 11 variants =
//! 286 slots).

use super::{PALETTE_SIZE, Texm};
use crate::archive::{Mode, nres::Nres};
use crate::error::{FormatError, Problem, Result};

/// A 256-entry palette, entries as stored: B, G, R, X (X kept raw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette(pub [[u8; 4]; 256]);

impl Palette {
    /// Reads a palette from exactly 1024 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        if bytes.len() != PALETTE_SIZE {
            return Err(FormatError::invalid(
                "palette",
                0,
                "256 entries of 4 bytes (1024 bytes)",
                format!("{} bytes", bytes.len()),
            ));
        }
        let mut out = [[0u8; 4]; 256];
        for (entry, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            entry.copy_from_slice(chunk);
        }
        Ok(Self(out))
    }

    /// The 1024 stored bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flatten().copied().collect()
    }

    /// A palette from RGBA colours (unused entries black); X is stored as 0.
    pub fn from_rgba(colours: &[[u8; 4]]) -> Result<Self> {
        if colours.len() > 256 {
            return Err(FormatError::invalid(
                "palette",
                0,
                "at most 256 colours",
                colours.len(),
            ));
        }
        let mut out = [[0u8; 4]; 256];
        for (entry, c) in out.iter_mut().zip(colours) {
            *entry = [c[2], c[1], c[0], 0];
        }
        Ok(Self(out))
    }

    /// Entry `index` as opaque RGBA.
    pub fn rgba(&self, index: u8) -> [u8; 4] {
        let [b, g, r, _] = self.0[index as usize];
        [r, g, b, 255]
    }
}

/// A palette slot of `Palettes.lib`: letter `A..Z` and an optional digit.
/// There are 26 x 11 = 286 slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PaletteSlot {
    /// `b'A'..=b'Z'`.
    pub letter: u8,
    /// `None` for the plain letter, else `0..=9`.
    pub digit: Option<u8>,
}

impl PaletteSlot {
    /// Number of palette slots.
    pub const COUNT: usize = 26 * 11;

    /// Slot number 0..286: `letter * 11 + (0 | 1 + digit)`.
    pub fn index(self) -> usize {
        (self.letter - b'A') as usize * 11 + self.digit.map_or(0, |d| d as usize + 1)
    }

    /// The slot of a suffix such as `A`, `a7` or `Z9`.
    pub fn from_suffix(suffix: &[u8]) -> Result<PaletteSlot> {
        let slot = match suffix {
            [l] if l.is_ascii_alphabetic() => Some((l.to_ascii_uppercase(), None)),
            [l, d] if l.is_ascii_alphabetic() && d.is_ascii_digit() => {
                Some((l.to_ascii_uppercase(), Some(d - b'0')))
            }
            _ => None,
        };
        slot.map(|(letter, digit)| PaletteSlot { letter, digit })
            .ok_or_else(|| {
                FormatError::new(
                    "palette",
                    0,
                    Problem::Invalid {
                        expected: "palette suffix: a letter A..Z, then nothing or one digit 0..9"
                            .into(),
                        found: crate::cursor::show_bytes(suffix),
                    },
                )
            })
    }

    /// The entry name in `Palettes.lib`: `<letter>[<digit>].pal`.
    pub fn entry_name(self) -> String {
        let mut name = String::from(self.letter as char);
        if let Some(d) = self.digit {
            name.push((b'0' + d) as char);
        }
        name.push_str(".pal");
        name
    }
}

/// The palette slot a texture name selects: the text after its last `.`.
/// A name without a dot selects none (the texture's own palette is used);
/// a suffix that is not a letter plus an optional digit is an error.
// STAND-IN: the suffix after the last `.` picks the slot, inferred from
// the lightmap `NAME.A1` pattern (unverified on retail); settled by a
// retail texture whose suffix names a palette it is drawn with.
pub fn palette_slot(texture_name: &[u8]) -> Result<Option<PaletteSlot>> {
    match texture_name.iter().rposition(|&b| b == b'.') {
        None => Ok(None),
        Some(dot) => PaletteSlot::from_suffix(&texture_name[dot + 1..]).map(Some),
    }
}

/// The palettes of `Palettes.lib` (an NRes archive of `<slot>.pal` entries),
/// indexed by slot. An entry's payload is a raw 1024-byte palette (B, G, R, X)
/// or an indexed `Texm` whose palette is used; absent slots are `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct PaletteLib {
    pub slots: Vec<Option<Palette>>,
}

impl PaletteLib {
    /// Loads every slot present in the archive bytes.
    pub fn parse(archive: &[u8], mode: Mode) -> Result<PaletteLib> {
        let nres = Nres::parse(archive, mode)?;
        let mut slots = vec![None; PaletteSlot::COUNT];
        for (letter, row) in (b'A'..=b'Z').zip(slots.chunks_mut(11)) {
            for (k, slot) in row.iter_mut().enumerate() {
                let ps = PaletteSlot {
                    letter,
                    digit: k.checked_sub(1).map(|d| d as u8),
                };
                if let Some(i) = nres.find(ps.entry_name().as_bytes()) {
                    let name = ps.entry_name();
                    *slot =
                        Some(palette_payload(nres.payload(i)).map_err(|e| e.in_entry(i, name))?);
                }
            }
        }
        Ok(PaletteLib { slots })
    }

    /// The palette a texture name selects: `Ok(None)` when the name has no
    /// suffix, an error for an invalid suffix or a slot the library lacks.
    pub fn for_texture(&self, texture_name: &[u8]) -> Result<Option<&Palette>> {
        let Some(slot) = palette_slot(texture_name)? else {
            return Ok(None);
        };
        self.slots
            .get(slot.index())
            .and_then(Option::as_ref)
            .map(Some)
            .ok_or_else(|| {
                FormatError::missing("palette", format!("{} in Palettes.lib", slot.entry_name()))
            })
    }
}

/// A palette from a `.pal` payload (raw 1024 bytes or an indexed Texm).
fn palette_payload(bytes: &[u8]) -> Result<Palette> {
    if bytes.starts_with(b"Texm") {
        return Texm::parse(bytes)?
            .palette
            .ok_or_else(|| FormatError::missing("palette", "palette in a non-indexed Texm"));
    }
    Palette::from_bytes(bytes)
}
