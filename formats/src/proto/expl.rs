//! EXPL (`*.exp`): what a hit or an explosion sets off (tome III "EXPL";
//! GAMEPLAY.md section 10). The tome's "version" 1/2/3 (26/54/64 of the 144
//! retail resources) is the first word, which the damage code reads as the
//! kind (1 effect only, 2 direct hit, 3 blast, 4 shields only); every kind
//! has the same 792-byte layout:
//!
//! ```text
//! u32 kind; f32 damage; f32 radius; f32 unknown[2]; i32 placement;
//! 12 x { char archive[32]; char name[32] }   slot 0 the effect, 1..11 by surface struck
//! ```

use crate::cursor::{Cursor, put_f32s};
use crate::error::Result;
use crate::fixed::ResourceRef;

const FORMAT: &str = "EXPL";
/// Size of every EXPL payload.
pub const SIZE: usize = 792;
/// Effect slots.
pub const SLOTS: usize = 12;

/// A parsed EXPL resource.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Expl {
    /// Layout-confirmed: 1..=4 (the tome's version field).
    pub kind: u32,
    /// Consumer-inferred: damage.
    pub damage: f32,
    /// Consumer-inferred: blast radius (a multiple of the node's radius).
    pub radius: f32,
    /// Opaque (1.0, 1.0 in retail).
    pub unknown: [f32; 2],
    /// Consumer-inferred: 7 = at the point of impact, 0 otherwise.
    pub placement: i32,
    /// Slot 0 the effect, slots 1..11 the effect per ground surface.
    pub effects: [ResourceRef; SLOTS],
}

impl Expl {
    /// Parses an EXPL payload: exactly 792 bytes, kind 1..=4.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let kind = c.u32()?;
        if !(1..=4).contains(&kind) {
            return Err(c.invalid_at(0, "kind (version) 1..=4", kind));
        }
        let damage = c.f32()?;
        let radius = c.f32()?;
        let unknown = c.f32s()?;
        let placement = c.i32()?;
        let mut effects = [ResourceRef::default(); SLOTS];
        for e in &mut effects {
            *e = ResourceRef::read(&mut c)?;
        }
        c.expect_end()?;
        Ok(Self {
            kind,
            damage,
            radius,
            unknown,
            placement,
            effects,
        })
    }

    /// Writes the payload (byte-identical for an unmodified parse).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(SIZE);
        out.extend(self.kind.to_le_bytes());
        out.extend(self.damage.to_le_bytes());
        out.extend(self.radius.to_le_bytes());
        put_f32s(&mut out, &self.unknown);
        out.extend(self.placement.to_le_bytes());
        for e in &self.effects {
            e.write(&mut out);
        }
        out
    }
}
