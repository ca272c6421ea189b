//! SKE (`sky.ske`): the sky's day cycle (tome III "TRF, ANI и SKE";
//! GAMEPLAY.md section 10): a 124-byte header and 88-byte keyframes. The day
//! length is at header +64 (hours) and +68 (minutes). Header and keyframes
//! are kept raw; the keyframe count follows from the payload size.

use crate::cursor::Cursor;
use crate::error::{FormatError, Result};

const FORMAT: &str = "SKE";
/// Header bytes.
pub const HEADER_SIZE: usize = 124;
/// Keyframe bytes.
pub const KEYFRAME_SIZE: usize = 88;

/// A parsed SKE resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sky {
    pub header: [u8; HEADER_SIZE],
    pub keyframes: Vec<[u8; KEYFRAME_SIZE]>,
}

impl Sky {
    /// Parses an SKE payload: header then whole keyframes.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let header = c.array()?;
        if !c.remaining().is_multiple_of(KEYFRAME_SIZE) {
            return Err(FormatError::invalid(
                FORMAT,
                HEADER_SIZE as u64,
                format!("whole {KEYFRAME_SIZE}-byte keyframes after the header"),
                format!("{} bytes", c.remaining()),
            ));
        }
        let mut keyframes = Vec::with_capacity(c.remaining() / KEYFRAME_SIZE);
        while !c.at_end() {
            keyframes.push(c.array()?);
        }
        Ok(Self { header, keyframes })
    }

    /// Day length words at +64 (hours) and +68 (minutes), raw.
    pub fn day_length_raw(&self) -> (u32, u32) {
        let word = |at: usize| {
            u32::from_le_bytes([
                self.header[at],
                self.header[at + 1],
                self.header[at + 2],
                self.header[at + 3],
            ])
        };
        (word(64), word(68))
    }

    /// Writes the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.header.to_vec();
        for k in &self.keyframes {
            out.extend_from_slice(k);
        }
        out
    }
}
