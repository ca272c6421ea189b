//! The order packet (openparkan `docs/31-packages.md`; docs/facts.md
//! "Orders"): what travels through the World3D queue to one unit.
//!
//! The fields are the original's: the order number, the target kind
//! (`TARGET_BY_LOGIC_ID` 0x201, `_BY_PLACE` 0x202, `_NOT_DEFINED` 0x204,
//! `_BY_NAME` 0x205),
//! the insert mode (to the end 1, to the start 2, replace 3) and the
//! order's parameter (a mask, a count or −1 as each order reads it). Their
//! byte layout is the engine's own (no source gives one), little-endian:
//!
//! | offset | field |
//! |---|---|
//! | 0 | order number, u32 |
//! | 4 | target kind, u32 |
//! | 8 | insert mode, u32 |
//! | 12 | parameter, i32 |
//! | 16 | by logic id: the object's original id, u32; by place: x, y, z, f32 (map frame, Z up); by name: 32 bytes, the name NUL-padded; not defined: nothing |
//!
//! The payload ends exactly there.

use crate::cursor::Cursor;
use crate::error::{FormatError, Result};

/// The format name errors carry.
pub const FORMAT: &str = "order packet";

/// `TARGET_BY_LOGIC_ID`, `TARGET_BY_PLACE`, `TARGET_NOT_DEFINED`.
/// The research order (14): a research centre appends the item of its
/// clan's tree the parameter names to its queue (openparkan
/// `docs/16-research.md`, "Researching").
pub const ORDER_RESEARCH: u32 = 14;

/// The stop order (1, `ORDER_ROBOT_STOP`): a unit stops; a factory aborts
/// its build (openparkan `docs/36-factory.md`, "What the controls do").
pub const ORDER_STOP: u32 = 1;

/// The build order (12, `ORDER_BUILDING_CONSTRUCT`): a factory builds the
/// design its target names (openparkan `docs/36-factory.md`,
/// "Production").
pub const ORDER_BUILDING_CONSTRUCT: u32 = 12;

pub const TARGET_BY_LOGIC_ID: u32 = 0x201;
pub const TARGET_BY_PLACE: u32 = 0x202;
pub const TARGET_NOT_DEFINED: u32 = 0x204;
pub const TARGET_BY_NAME: u32 = 0x205;

/// The bytes a name target holds (NUL-padded).
pub const NAME_TARGET_LEN: usize = 32;

/// What an order is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum OrderTarget {
    /// `TARGET_NOT_DEFINED`.
    None,
    /// `TARGET_BY_LOGIC_ID`: an object by its raw original id.
    Object(u32),
    /// `TARGET_BY_PLACE`: a point in the map frame (Z up).
    Place([f32; 3]),
    /// `TARGET_BY_NAME`: a name (a design's), NUL-padded.
    Name([u8; NAME_TARGET_LEN]),
}

impl OrderTarget {
    /// The target kind word.
    pub fn kind(&self) -> u32 {
        match self {
            OrderTarget::None => TARGET_NOT_DEFINED,
            OrderTarget::Object(_) => TARGET_BY_LOGIC_ID,
            OrderTarget::Place(_) => TARGET_BY_PLACE,
            OrderTarget::Name(_) => TARGET_BY_NAME,
        }
    }

    /// A name target; none for a name of more bytes than it holds (the
    /// last one stays NUL) or holding a NUL.
    pub fn name(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        if bytes.len() >= NAME_TARGET_LEN || bytes.contains(&0) {
            return None;
        }
        let mut name = [0; NAME_TARGET_LEN];
        name[..bytes.len()].copy_from_slice(bytes);
        Some(OrderTarget::Name(name))
    }

    /// The name a name target holds (Latin-1, up to its first NUL).
    pub fn name_text(&self) -> Option<String> {
        let OrderTarget::Name(bytes) = self else {
            return None;
        };
        let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
        Some(bytes[..end].iter().map(|b| char::from(*b)).collect())
    }
}

/// Where a new order goes in the unit's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertMode {
    /// 1: after every order it has.
    End = 1,
    /// 2: before them (it becomes what the unit does now).
    Start = 2,
    /// 3: instead of them.
    Replace = 3,
}

/// An order packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrderPacket {
    pub code: u32,
    pub target: OrderTarget,
    pub mode: InsertMode,
    pub parameter: i32,
}

impl OrderPacket {
    /// The payload bytes.
    // STAND-IN: three u32 LE words, the i32 parameter, then the target
    // (no source gives the packet's bytes, and tome VI names no world
    // message for orders); settled by capturing an order packet in a
    // retail session (openparkan docs/31).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = [self.code, self.target.kind(), self.mode as u32]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        out.extend(self.parameter.to_le_bytes());
        match self.target {
            OrderTarget::None => {}
            OrderTarget::Object(id) => out.extend(id.to_le_bytes()),
            OrderTarget::Place(p) => out.extend(p.iter().flat_map(|c| c.to_le_bytes())),
            OrderTarget::Name(name) => out.extend(name),
        }
        out
    }

    /// Reads a payload: every field there, nothing after them.
    pub fn parse(payload: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(payload, FORMAT);
        let code = c.u32()?;
        let kind = c.u32()?;
        let mode_at = c.pos();
        let mode = match c.u32()? {
            1 => InsertMode::End,
            2 => InsertMode::Start,
            3 => InsertMode::Replace,
            other => {
                return Err(FormatError::invalid(
                    FORMAT,
                    mode_at as u64,
                    "an insert mode (1, 2 or 3)",
                    other,
                ));
            }
        };
        let parameter = c.i32()?;
        let target = match kind {
            TARGET_NOT_DEFINED => OrderTarget::None,
            TARGET_BY_LOGIC_ID => OrderTarget::Object(c.u32()?),
            TARGET_BY_PLACE => OrderTarget::Place(c.f32s::<3>()?),
            TARGET_BY_NAME => {
                let mut name = [0; NAME_TARGET_LEN];
                name.copy_from_slice(c.bytes(NAME_TARGET_LEN)?);
                OrderTarget::Name(name)
            }
            other => {
                return Err(FormatError::invalid(
                    FORMAT,
                    4,
                    "a target kind (0x201, 0x202, 0x204 or 0x205)",
                    format_args!("{other:#x}"),
                ));
            }
        };
        c.expect_end()?;
        Ok(Self {
            code,
            target,
            mode,
            parameter,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    fn place() -> OrderPacket {
        OrderPacket {
            code: 2,
            target: OrderTarget::Place([1.0, 2.0, 3.0]),
            mode: InsertMode::Replace,
            parameter: -1,
        }
    }

    #[test]
    fn packets_round_trip_byte_for_byte_for_each_target_kind() {
        for target in [
            OrderTarget::None,
            OrderTarget::Object(0x8000_0012),
            OrderTarget::Place([1.5, -2.0, 30.0]),
            OrderTarget::name("Warbot").unwrap(),
        ] {
            let packet = OrderPacket {
                code: 2,
                target,
                mode: InsertMode::Start,
                parameter: 50,
            };
            let bytes = packet.to_bytes();
            let back = OrderPacket::parse(&bytes).unwrap();
            assert_eq!(back, packet);
            assert_eq!(back.to_bytes(), bytes);
        }
    }

    #[test]
    fn a_name_target_holds_a_short_name_without_nul() {
        let target = OrderTarget::name("Warbot").unwrap();
        assert_eq!(target.kind(), TARGET_BY_NAME);
        assert_eq!(target.name_text().as_deref(), Some("Warbot"));
        assert_eq!(OrderTarget::name(&"x".repeat(NAME_TARGET_LEN)), None);
        assert_eq!(OrderTarget::name("a\0b"), None);
        assert_eq!(OrderTarget::Object(1).name_text(), None);
    }

    #[test]
    fn a_bad_packet_names_what_is_wrong_and_where() {
        let good = place().to_bytes();
        let e = OrderPacket::parse(&good[..20]).unwrap_err();
        assert_eq!(e.offset, 20);
        assert!(
            matches!(e.problem, Problem::Truncated { needed: 4, .. }),
            "{e}"
        );
        let mut long = good.clone();
        long.push(0);
        let e = OrderPacket::parse(&long).unwrap_err();
        assert_eq!(
            (e.offset, &e.problem),
            (28, &Problem::TrailingBytes { count: 1 })
        );
        let mut target = good.clone();
        target[4] = 0x03;
        let e = OrderPacket::parse(&target).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(
            matches!(&e.problem, Problem::Invalid { found, .. } if found == "0x203"),
            "{e}"
        );
        let mut mode = good;
        mode[8] = 7;
        let e = OrderPacket::parse(&mode).unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(
            matches!(&e.problem, Problem::Invalid { found, .. } if found == "7"),
            "{e}"
        );
    }

    /// Every cut of a good packet is a truncation; every single-byte change
    /// is an error or a packet that writes back to the same bytes.
    #[test]
    fn mutated_packets_are_errors_or_round_trip() {
        for good in [
            place().to_bytes(),
            OrderPacket {
                code: 1,
                target: OrderTarget::Object(7),
                mode: InsertMode::End,
                parameter: 0,
            }
            .to_bytes(),
            OrderPacket {
                code: ORDER_BUILDING_CONSTRUCT,
                target: OrderTarget::name("LFW-X").unwrap(),
                mode: InsertMode::End,
                parameter: -1,
            }
            .to_bytes(),
        ] {
            for cut in 0..good.len() {
                let e = OrderPacket::parse(&good[..cut]).unwrap_err();
                assert!(matches!(e.problem, Problem::Truncated { .. }), "{e}");
            }
            for i in 0..good.len() {
                for b in [0u8, 1, 2, 3, 0x80, 0xff] {
                    let mut m = good.clone();
                    m[i] = b;
                    if let Ok(p) = OrderPacket::parse(&m) {
                        assert_eq!(p.to_bytes(), m);
                    }
                }
            }
        }
    }
}
