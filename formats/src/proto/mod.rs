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

use crate::cursor::Cursor;
use crate::error::{FormatError, Result};

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
