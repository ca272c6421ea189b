//! CTPT (`*.cpt`): a model's named control points (`TurretCenter`,
//! `CameraCenter`, `TargetDirect`, `Sfx_1`, ...): marker positions and
//! directions in model space (tome III "CTPT"; GAMEPLAY.md section 10).
//!
//! ```text
//! i32 count
//! count x 36-byte records: u32 flags_raw; u32 link_raw; i32 node; f32 position[3]; f32 vector[3]
//! count x char name[32]
//! ```

use super::{count_i32, read_count};
use crate::cursor::{Cursor, put_f32s};
use crate::error::Result;
use crate::fixed::FixedName;

const FORMAT: &str = "CTPT";
/// NRes type id of a control point table (`"CTPT"`).
pub const CTPT_TYPE_ID: u32 = u32::from_le_bytes(*b"CTPT");
/// Bytes of one point record (without its name).
pub const RECORD_SIZE: usize = 36;

/// One control point.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ControlPoint {
    /// Opaque; usually 0, also 0x80000000 and a rare variant (tome III).
    pub flags_raw: u32,
    /// Opaque; GAMEPLAY.md names a "dies-with" link among the first words.
    pub link_raw: u32,
    /// Consumer-inferred: the model node the point moves with (the engine
    /// reads the node from the record's third word).
    pub node: i32,
    /// Consumer-inferred: position in node space.
    pub position: [f32; 3],
    /// Consumer-inferred: a direction vector.
    pub vector: [f32; 3],
    /// Layout-confirmed: the point's name.
    pub name: FixedName<32>,
}

/// A parsed CTPT resource.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ctpt {
    pub points: Vec<ControlPoint>,
}

impl Ctpt {
    /// Parses a CTPT payload (exact end).
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let count = read_count(&mut c, RECORD_SIZE + 32, "control points")?;
        let mut points = Vec::with_capacity(count);
        for _ in 0..count {
            points.push(ControlPoint {
                flags_raw: c.u32()?,
                link_raw: c.u32()?,
                node: c.i32()?,
                position: c.f32s()?,
                vector: c.f32s()?,
                name: FixedName::default(),
            });
        }
        for p in &mut points {
            p.name = FixedName::read(&mut c)?;
        }
        c.expect_end()?;
        Ok(Self { points })
    }

    /// The point named `name` (ASCII case-insensitive).
    pub fn find(&self, name: &[u8]) -> Option<&ControlPoint> {
        self.points
            .iter()
            .find(|p| p.name.name().eq_ignore_ascii_case(name))
    }

    /// Writes the payload (byte-identical for an unmodified parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = count_i32(FORMAT, self.points.len(), "control points")?.to_vec();
        for p in &self.points {
            out.extend(p.flags_raw.to_le_bytes());
            out.extend(p.link_raw.to_le_bytes());
            out.extend(p.node.to_le_bytes());
            put_f32s(&mut out, &p.position);
            put_f32s(&mut out, &p.vector);
        }
        for p in &self.points {
            out.extend_from_slice(&p.name.0);
        }
        Ok(out)
    }
}
