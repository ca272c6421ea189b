//! NDPR (`*.ndp`): one damage record per model node (tome III "NDPR";
//! GAMEPLAY.md section 10).
//!
//! ```text
//! i32 count
//! count x { u32 flags; f32 hit_points; f32 density; char archive[32]; char explosion[32] }   76 bytes
//! ```

use super::{count_i32, read_count};
use crate::cursor::Cursor;
use crate::error::Result;
use crate::fixed::ResourceRef;

const FORMAT: &str = "NDPR";
/// NRes type id of a node damage table (`"NDPR"`).
pub const NDPR_TYPE_ID: u32 = u32::from_le_bytes(*b"NDPR");
/// Node flag: the node is part of the left running gear (a leg, wheel or
/// track), whose mean life scales a machine's drive (openparkan
/// `docs/24-motion.md`, "Running gear").
pub const GEAR_LEFT: u32 = 0x20;
/// Node flag: the right running gear.
pub const GEAR_RIGHT: u32 = 0x40;
/// Node flags a machine's critical-damage test counts as running gear
/// (openparkan `docs/13-control.md`, "Critical damage").
pub const RUNNING_GEAR: u32 = 0x70;
/// Bytes of one record.
pub const RECORD_SIZE: usize = 76;

/// One node's damage record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct NodeDamage {
    /// Consumer-inferred: 0x20 / 0x40 left / right running gear; other bits kept.
    pub flags: u32,
    /// Consumer-inferred: hit points (1e6 = indestructible).
    pub hit_points: f32,
    /// Consumer-inferred: density (times the node volume = mass).
    pub density: f32,
    /// Layout-confirmed: the `.exp` played when the node is destroyed; an
    /// empty archive resolves relative to the current context.
    pub explosion: ResourceRef,
}

/// A parsed NDPR resource.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ndpr {
    pub nodes: Vec<NodeDamage>,
}

impl Ndpr {
    /// Parses an NDPR payload (exact end).
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let count = read_count(&mut c, RECORD_SIZE, "node records")?;
        let mut nodes = Vec::with_capacity(count);
        for _ in 0..count {
            nodes.push(NodeDamage {
                flags: c.u32()?,
                hit_points: c.f32()?,
                density: c.f32()?,
                explosion: ResourceRef::read(&mut c)?,
            });
        }
        c.expect_end()?;
        Ok(Self { nodes })
    }

    /// Writes the payload (byte-identical for an unmodified parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = count_i32(FORMAT, self.nodes.len(), "node records")?.to_vec();
        for n in &self.nodes {
            out.extend(n.flags.to_le_bytes());
            out.extend(n.hit_points.to_le_bytes());
            out.extend(n.density.to_le_bytes());
            n.explosion.write(&mut out);
        }
        Ok(out)
    }
}
