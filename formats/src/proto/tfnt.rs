//! `Tfnt` fonts (`gamefont.rlb`, FACTS.md): a 20-byte header, 256 glyphs and
//! an embedded Texm at byte 4116, kept here as raw bytes (the Texm reader is
//! `crate::texm`).
//!
//! ```text
//! char magic[4] = "Tfnt"; i32 cell_width; i32 height; f32 v_span; i32 spacing
//! 256 x { f32 u0; f32 u1; f32 v0; i32 advance }
//! Texm ...
//! ```

use crate::cursor::Cursor;
use crate::error::Result;

const FORMAT: &str = "Tfnt";
/// Number of glyphs.
pub const GLYPHS: usize = 256;
/// Offset of the embedded Texm.
pub const TEXM_OFFSET: usize = 4116;

/// One glyph: its horizontal texture span, top v and advance in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct Glyph {
    pub u0: f32,
    pub u1: f32,
    pub v0: f32,
    pub advance: i32,
}

/// A parsed font.
#[derive(Debug, Clone, PartialEq)]
pub struct Tfnt {
    pub cell_width: i32,
    pub height: i32,
    pub v_span: f32,
    pub spacing: i32,
    pub glyphs: Vec<Glyph>,
    /// The embedded Texm payload, raw (starts with `Texm`).
    pub texm: Vec<u8>,
}

impl Tfnt {
    /// Parses a font payload.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        c.expect_magic(b"Tfnt")?;
        let cell_width = c.i32()?;
        let height = c.i32()?;
        let v_span = c.f32()?;
        let spacing = c.i32()?;
        let mut glyphs = Vec::with_capacity(c.checked_count(GLYPHS as u64, 16, "glyphs")?);
        for _ in 0..GLYPHS {
            glyphs.push(Glyph {
                u0: c.f32()?,
                u1: c.f32()?,
                v0: c.f32()?,
                advance: c.i32()?,
            });
        }
        let mut texm = c.clone();
        texm.expect_magic(b"Texm")?;
        let texm = c.bytes(c.remaining())?.to_vec();
        Ok(Self {
            cell_width,
            height,
            v_span,
            spacing,
            glyphs,
            texm,
        })
    }

    /// Writes the payload; fails unless there are exactly 256 glyphs.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        if self.glyphs.len() != GLYPHS {
            return Err(crate::error::FormatError::invalid(
                FORMAT,
                20,
                "256 glyphs",
                self.glyphs.len(),
            ));
        }
        let mut out = Vec::with_capacity(TEXM_OFFSET + self.texm.len());
        out.extend_from_slice(b"Tfnt");
        out.extend(self.cell_width.to_le_bytes());
        out.extend(self.height.to_le_bytes());
        out.extend(self.v_span.to_le_bytes());
        out.extend(self.spacing.to_le_bytes());
        for g in &self.glyphs {
            out.extend(g.u0.to_le_bytes());
            out.extend(g.u1.to_le_bytes());
            out.extend(g.v0.to_le_bytes());
            out.extend(g.advance.to_le_bytes());
        }
        out.extend_from_slice(&self.texm);
        Ok(out)
    }
}
