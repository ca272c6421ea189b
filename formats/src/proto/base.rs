//! BASE (`*.bas`, `fortif.rlb`): a building's ground plan (tome III "BASE").
//! The tome counts one polygon record per resource; the typed view reads
//! that record and keeps everything after it raw (openparkan reads it as the
//! ring's triangle/corner back-references and a second, outer ring):
//!
//! ```text
//! i32 marker (1 in retail); i32 count; f32 point[count + 1][3]   ring closed by repeating the first point
//! tail (opaque)
//! ```

use crate::cursor::{Cursor, put_f32s};
use crate::error::{FormatError, Result};

const FORMAT: &str = "BASE";

/// A parsed BASE resource.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Base {
    /// Opaque marker (1 on every retail ring).
    pub marker: i32,
    /// Layout-confirmed: `count + 1` points, the last repeating the first.
    pub points: Vec<[f32; 3]>,
    /// Opaque bytes after the polygon record.
    pub tail: Vec<u8>,
}

impl Base {
    /// Parses a BASE payload.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let marker = c.i32()?;
        let at = c.pos();
        let count = c.i32()?;
        if count < 0 {
            return Err(c.invalid_at(at, "a corner count >= 0", count));
        }
        let n = c.checked_count(count as u64 + 1, 12, "polygon points")?;
        let mut points = Vec::with_capacity(n);
        for _ in 0..n {
            points.push(c.f32s()?);
        }
        let tail = c.bytes(c.remaining())?.to_vec();
        Ok(Self {
            marker,
            points,
            tail,
        })
    }

    /// Corners (the stored count): points without the closing repeat.
    pub fn corners(&self) -> &[[f32; 3]] {
        &self.points[..self.points.len().saturating_sub(1)]
    }

    /// Writes the payload (byte-identical for an unmodified parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let count = self
            .points
            .len()
            .checked_sub(1)
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| FormatError::invalid(FORMAT, 4, "1..=2^31 points", self.points.len()))?;
        let mut out = Vec::with_capacity(8 + self.points.len() * 12 + self.tail.len());
        out.extend(self.marker.to_le_bytes());
        out.extend(count.to_le_bytes());
        for p in &self.points {
            put_f32s(&mut out, p);
        }
        out.extend_from_slice(&self.tail);
        Ok(out)
    }
}
