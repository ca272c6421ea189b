//! Fixed-size NUL-padded name fields and the 64-byte `(archive, name)`
//! resource reference that many formats store.

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
        fixed_field(name, N - 1, "name").map(Self)
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

/// A NUL-padded `N`-byte field holding `name` (at most `max` bytes, no NUL
/// inside); `format` names the format in the error.
pub fn fixed_field<const N: usize>(
    name: &[u8],
    max: usize,
    format: &'static str,
) -> Result<[u8; N]> {
    if name.len() > max.min(N) || name.contains(&0) {
        return Err(FormatError::invalid(
            format,
            0,
            format!("a name of at most {} bytes without NUL", max.min(N)),
            show_bytes(name),
        ));
    }
    let mut field = [0u8; N];
    field[..name.len()].copy_from_slice(name);
    Ok(field)
}

/// `{ char archive[32]; char name[32]; }`: a resource reference (registry
/// prototypes, FXID commands, NDPR, EXPL, reference arrays, CTLD). Compared
/// ASCII case-insensitively by consumers; the tails after the NULs are kept.
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

    /// The bytes of consecutive references.
    pub fn list_bytes(refs: &[Self]) -> Vec<u8> {
        let mut out = Vec::with_capacity(refs.len() * Self::SIZE);
        for r in refs {
            r.write(&mut out);
        }
        out
    }

    /// Both names empty (an unused slot).
    pub fn is_empty(&self) -> bool {
        self.archive.name().is_empty() && self.name.name().is_empty()
    }
}
