//! Small prototype formats of tome III ("Вспомогательные форматы") and the
//! `Tfnt` font: lossless readers with typed views where the layout is proven
//! and raw bytes elsewhere. Every reader checks the exact end of its payload
//! and every writer gives an unmodified parse back byte-identical.
//!
//! Layouts beyond the tome come from `spec/GAMEPLAY.md` section 10 (measured
//! by the openparkan project on retail data); each field's doc names its
//! status: *layout-confirmed* (framing proven on the corpus),
//! *consumer-inferred* (meaning read from the engine or data) or *opaque*.

pub mod base;
pub mod ctld;
pub mod ctpt;
pub mod expl;
pub mod ndpr;
pub mod opaque;
pub mod refs;
pub mod ske;
pub mod tfnt;
pub mod trf;

use crate::cursor::{Cursor, c_name, show_bytes};
use crate::error::{FormatError, Result};

/// A fixed-size name field: the text is the bytes before the first NUL; the
/// tail after it is kept for lossless output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedName<const N: usize>(pub [u8; N]);

impl<const N: usize> FixedName<N> {
    /// A field holding `name` followed by NULs, with room for the
    /// terminator (`name.len() < N`).
    pub fn new(name: &[u8]) -> Result<Self> {
        fixed_field(name, N - 1).map(Self)
    }

    /// The bytes before the first NUL.
    pub fn name(&self) -> &[u8] {
        c_name(&self.0)
    }

    /// The name as text (lossy UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(self.name()).into_owned()
    }

    /// Reads the field.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self(c.array()?))
    }
}

impl<const N: usize> Default for FixedName<N> {
    fn default() -> Self {
        Self([0; N])
    }
}

impl<const N: usize> serde::Serialize for FixedName<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

/// A NUL-padded `N`-byte field holding `name` (at most `max` bytes, no NUL).
pub fn fixed_field<const N: usize>(name: &[u8], max: usize) -> Result<[u8; N]> {
    if name.len() > max.min(N) || name.contains(&0) {
        return Err(FormatError::invalid(
            "name",
            0,
            format!("a name of at most {} bytes without NUL", max.min(N)),
            show_bytes(name),
        ));
    }
    let mut field = [0u8; N];
    field[..name.len()].copy_from_slice(name);
    Ok(field)
}

/// `{ char archive[32]; char name[32]; }`: a resource reference (FXID
/// commands, NDPR, EXPL, reference arrays, CTLD). Compared ASCII
/// case-insensitively by consumers; the tails after the NULs are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct ResourceRef {
    pub archive: FixedName<32>,
    pub name: FixedName<32>,
}

impl ResourceRef {
    /// Bytes of one reference.
    pub const SIZE: usize = 64;

    /// A reference from two names.
    pub fn new(archive: &[u8], name: &[u8]) -> Result<Self> {
        Ok(Self {
            archive: FixedName::new(archive)?,
            name: FixedName::new(name)?,
        })
    }

    /// Reads 64 bytes.
    pub fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            archive: FixedName::read(c)?,
            name: FixedName::read(c)?,
        })
    }

    /// From exactly 64 bytes.
    pub fn from_bytes(bytes: &[u8; 64]) -> Self {
        let mut archive = [0u8; 32];
        let mut name = [0u8; 32];
        archive.copy_from_slice(&bytes[..32]);
        name.copy_from_slice(&bytes[32..]);
        Self {
            archive: FixedName(archive),
            name: FixedName(name),
        }
    }

    /// Appends the 64 bytes.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.archive.0);
        out.extend_from_slice(&self.name.0);
    }

    /// Both names empty (an unused slot).
    pub fn is_empty(&self) -> bool {
        self.archive.name().is_empty() && self.name.name().is_empty()
    }
}

/// Reads a little-endian element count stored as i32/u32 and proves that
/// `count * elem` bytes follow (the only way a count sizes an allocation).
pub(crate) fn read_count(c: &mut Cursor<'_>, elem: usize, what: &str) -> Result<usize> {
    let at = c.pos();
    let raw = c.i32()?;
    if raw < 0 {
        return Err(c.invalid_at(at, format!("{what}: a count >= 0"), raw));
    }
    c.checked_count(raw as u64, elem, what)
}

/// A count as the i32 the formats store.
pub(crate) fn count_i32(format: &'static str, n: usize, what: &str) -> Result<[u8; 4]> {
    i32::try_from(n)
        .map(i32::to_le_bytes)
        .map_err(|_| FormatError::invalid(format, 0, format!("{what} within i32"), n))
}

/// Reads `N` little-endian f32.
pub(crate) fn read_f32s<const N: usize>(c: &mut Cursor<'_>) -> Result<[f32; N]> {
    let mut out = [0f32; N];
    for v in &mut out {
        *v = c.f32()?;
    }
    Ok(out)
}

/// Appends f32 values (bit-exact).
pub(crate) fn write_f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}
