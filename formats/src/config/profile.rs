//! A behaviour profile: one binary `.var` entry of `behpsp.res` (an NRes
//! archive of 32, one per role; openparkan `docs/23-economy.md`, "The
//! pieces"). The building profiles carry the economy's figures by name
//! ([`ECONOMY_VARIABLES`]); Behavior binds each variable to its own field
//! by name, checking its type.
//!
//! Layout (docs/facts.md "Behaviour profiles"), little-endian:
//!
//! ```text
//! u32 count
//! count ×  u32 size        4, the size of a value
//!          u32 type        2 BOOL, 3 float, 5 DWORD (the script types)
//!          u32 0
//!          u32 name length
//!          u8[n] name      no terminator
//!          u32 0
//!          4 × value       value, default, minimum, maximum
//! ```
//!
//! The reader is lossless: the two reserved words and every value are
//! kept as stored (a type it does not know included), and
//! [`VarProfile::to_bytes`] writes the entry back byte-identical. The
//! payload must end with the last variable.

use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};
use crate::script::varset::VarType;

/// The format name errors carry.
pub const FORMAT: &str = "profile .var";

/// The archive of the profiles, at the install's root.
pub const ARCHIVE: &str = "behpsp.res";

/// The building-profile variables of the economy: the power a building
/// puts out and uses, the ore it uses and holds, and the rates ore moves
/// on and off it, per second.
pub const ECONOMY_VARIABLES: [&str; 6] = [
    "Transfer_Power_Out",
    "Use_Power",
    "Use_Ore",
    "Store_Ore_Maximum",
    "Transfer_Ore_OnBoard",
    "Transfer_Ore_OffBoard",
];

/// The bytes of a value.
const VALUE_SIZE: u32 = 4;
/// The fixed bytes of a variable around its name: five words before the
/// name ends and the reserved word and four values after it.
const FIXED: usize = 4 * 4 + 4 + 4 * 4;

/// One variable as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileVar {
    /// The stored value size (4).
    pub size: u32,
    /// The type word ([`VarType`] when known).
    pub type_word: u32,
    /// The two reserved words, before the name length and after the name.
    pub reserved: [u32; 2],
    pub name: Vec<u8>,
    /// Value, default, minimum and maximum, as stored.
    pub values: [[u8; 4]; 4],
}

/// A profile's value, typed by its variable's type word.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProfileValue {
    Bool(bool),
    Float(f32),
    Dword(u32),
    /// A type this reader does not type: the word as stored.
    Other {
        type_word: u32,
        word: u32,
    },
}

impl ProfileValue {
    /// The value as a number (a flag is 0 or 1).
    pub fn number(self) -> Option<f64> {
        match self {
            Self::Bool(b) => Some(f64::from(u8::from(b))),
            Self::Float(f) => Some(f64::from(f)),
            Self::Dword(d) => Some(f64::from(d)),
            Self::Other { .. } => None,
        }
    }
}

impl ProfileVar {
    /// A float variable `name` holding `value` (its default too), between
    /// 0 and `maximum`: what a profile's economy figures are.
    pub fn float(name: &str, value: f32, maximum: f32) -> Self {
        let word = |f: f32| f.to_le_bytes();
        Self {
            size: VALUE_SIZE,
            type_word: VarType::Float as u32,
            reserved: [0, 0],
            name: name.as_bytes().to_vec(),
            values: [word(value), word(value), word(0.0), word(maximum)],
        }
    }

    /// The variable's type, when it is one of the script types.
    pub fn var_type(&self) -> Option<VarType> {
        [VarType::Bool, VarType::Float, VarType::Dword]
            .into_iter()
            .find(|t| *t as u32 == self.type_word)
    }

    /// The name (ASCII in every profile; other bytes shown lossily).
    pub fn name(&self) -> String {
        String::from_utf8_lossy(&self.name).into_owned()
    }

    /// The value (`which` 0), default (1), minimum (2) or maximum (3),
    /// typed.
    pub fn value(&self, which: usize) -> ProfileValue {
        let word = u32::from_le_bytes(self.values[which]);
        match self.var_type() {
            Some(VarType::Bool) => ProfileValue::Bool(word != 0),
            Some(VarType::Float) => ProfileValue::Float(f32::from_bits(word)),
            Some(VarType::Dword) => ProfileValue::Dword(word),
            _ => ProfileValue::Other {
                type_word: self.type_word,
                word,
            },
        }
    }
}

/// A whole profile: its variables in stored order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarProfile {
    pub vars: Vec<ProfileVar>,
}

impl VarProfile {
    /// Reads one `.var` entry.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let count = c.u32()? as usize;
        // Every variable takes at least its fixed bytes: a count the
        // payload cannot hold is refused before anything is allocated.
        if count > c.remaining() / FIXED {
            return Err(c.invalid_at(
                0,
                format!(
                    "at most {} variables in {} bytes",
                    c.remaining() / FIXED,
                    data.len()
                ),
                count,
            ));
        }
        let mut vars = Vec::with_capacity(count);
        for _ in 0..count {
            vars.push(read_var(&mut c)?);
        }
        if !c.at_end() {
            return Err(c.error(Problem::TrailingBytes {
                count: c.remaining() as u64,
            }));
        }
        Ok(Self { vars })
    }

    /// The variable named `name` (ASCII case-insensitive, as the engine
    /// binds them).
    pub fn var(&self, name: &str) -> Option<&ProfileVar> {
        self.vars
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name.as_bytes()))
    }

    /// The value of the variable named `name` as a number.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.var(name).and_then(|v| v.value(0).number())
    }

    /// The economy's figures of a building profile ([`ECONOMY_VARIABLES`]):
    /// a variable the profile does not have is 0 (a role that neither
    /// makes, uses nor holds it); one that is not a number, not finite or
    /// negative is refused, naming it.
    pub fn building(&self) -> Result<BuildingProfile> {
        let mut figures = [0.0f32; 6];
        for (figure, name) in figures.iter_mut().zip(ECONOMY_VARIABLES) {
            let Some(var) = self.var(name) else { continue };
            let value = var.value(0).number().map(|n| n as f32);
            *figure = value
                .filter(|v| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| {
                    FormatError::new(
                        FORMAT,
                        0,
                        Problem::Invalid {
                            expected: format!("{name}: a finite number, 0 or more"),
                            found: format!("{:?}", var.value(0)),
                        },
                    )
                })?;
        }
        Ok(BuildingProfile::from_figures(figures))
    }

    /// The entry's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&(self.vars.len() as u32).to_le_bytes());
        for v in &self.vars {
            for word in [v.size, v.type_word, v.reserved[0], v.name.len() as u32] {
                out.extend_from_slice(&word.to_le_bytes());
            }
            out.extend_from_slice(&v.name);
            out.extend_from_slice(&v.reserved[1].to_le_bytes());
            for value in &v.values {
                out.extend_from_slice(value);
            }
        }
        out
    }
}

/// A building profile's economy ([`VarProfile::building`]), per second.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct BuildingProfile {
    /// `Transfer_Power_Out`: the power it gives.
    pub power_out: f32,
    /// `Use_Power`: the power it uses while it works.
    pub use_power: f32,
    /// `Use_Ore`: the ore it uses while it works.
    pub use_ore: f32,
    /// `Store_Ore_Maximum`: the ore it holds by its profile (the engine's
    /// capacities come from the behaviour constants and the mission's
    /// `MaximumOre` instead, docs/facts.md "The economy's constants").
    pub ore_maximum: f32,
    /// `Transfer_Ore_OnBoard`: the rate ore comes on board.
    pub ore_on_board: f32,
    /// `Transfer_Ore_OffBoard`: the rate ore leaves it.
    pub ore_off_board: f32,
}

impl BuildingProfile {
    /// A profile of the six figures in [`ECONOMY_VARIABLES`]' order.
    pub fn from_figures(figures: [f32; 6]) -> Self {
        let [power_out, use_power, use_ore, ore_maximum, on, off] = figures;
        Self {
            power_out,
            use_power,
            use_ore,
            ore_maximum,
            ore_on_board: on,
            ore_off_board: off,
        }
    }

    /// Its six figures in [`ECONOMY_VARIABLES`]' order.
    pub fn figures(&self) -> [f32; 6] {
        [
            self.power_out,
            self.use_power,
            self.use_ore,
            self.ore_maximum,
            self.ore_on_board,
            self.ore_off_board,
        ]
    }

    /// The profile as the six [`ECONOMY_VARIABLES`], in their order (what
    /// an install's writer stores).
    pub fn to_profile(&self) -> VarProfile {
        VarProfile {
            vars: ECONOMY_VARIABLES
                .iter()
                .zip(self.figures())
                .map(|(name, value)| ProfileVar::float(name, value, 10_000.0))
                .collect(),
        }
    }
}

/// One variable at the cursor.
fn read_var(c: &mut Cursor) -> Result<ProfileVar> {
    let at = c.pos();
    let size = c.u32()?;
    if size != VALUE_SIZE {
        return Err(c.invalid_at(at, "a value size of 4", size));
    }
    let type_word = c.u32()?;
    let reserved0 = c.u32()?;
    let length_at = c.pos();
    let length = c.u32()? as usize;
    if length > c.remaining() {
        return Err(FormatError::new(
            FORMAT,
            length_at as u64,
            Problem::Truncated {
                needed: length as u64,
                available: c.remaining() as u64,
            },
        ));
    }
    let name = c.bytes(length)?.to_vec();
    let reserved1 = c.u32()?;
    let mut values = [[0; 4]; 4];
    for value in &mut values {
        *value = c.array()?;
    }
    Ok(ProfileVar {
        size,
        type_word,
        reserved: [reserved0, reserved1],
        name,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A float variable `name` with `value` (default the same, 0 to 1000).
    fn float(name: &str, value: f32) -> ProfileVar {
        ProfileVar::float(name, value, 1000.0)
    }

    #[test]
    fn a_building_profile_reads_its_six_figures_by_name() {
        let plant = BuildingProfile {
            use_power: 4.0,
            use_ore: 5.0,
            ore_on_board: 100.0,
            ..BuildingProfile::default()
        };
        let bytes = plant.to_profile().to_bytes();
        assert_eq!(
            VarProfile::parse(&bytes).unwrap().building().unwrap(),
            plant
        );
        // A variable it lacks is 0; others are ignored.
        let partial = VarProfile {
            vars: vec![float("Other", 3.0), float("transfer_power_out", 10.0)],
        };
        let generator = partial.building().unwrap();
        assert_eq!((generator.power_out, generator.use_power), (10.0, 0.0));
    }

    #[test]
    fn a_negative_or_untyped_figure_is_refused_by_name() {
        let negative = VarProfile {
            vars: vec![float("Transfer_Ore_OffBoard", -1.0)],
        };
        let e = negative.building().unwrap_err();
        assert!(matches!(e.problem, Problem::Invalid { .. }), "{e}");
        assert!(e.to_string().contains("Transfer_Ore_OffBoard"), "{e}");
        let mut odd = float("Use_Power", 1.0);
        odd.type_word = 9;
        let e = VarProfile { vars: vec![odd] }.building().unwrap_err();
        assert!(e.to_string().contains("Use_Power"), "{e}");
        let nan = VarProfile {
            vars: vec![float("Use_Ore", f32::NAN)],
        };
        assert!(nan.building().unwrap_err().to_string().contains("Use_Ore"));
    }

    #[test]
    fn a_profile_reads_typed_and_writes_back_byte_identical() {
        let mut flag = float("Enabled", 0.0);
        flag.type_word = VarType::Bool as u32;
        flag.values[0] = 1u32.to_le_bytes();
        let mut odd = float("Odd", 0.0);
        odd.type_word = 9;
        odd.reserved = [7, 8];
        let profile = VarProfile {
            vars: vec![float("Transfer_Power_Out", 10.0), flag, odd],
        };
        let bytes = profile.to_bytes();
        let read = VarProfile::parse(&bytes).unwrap();
        assert_eq!(read, profile);
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(read.number("transfer_power_out"), Some(10.0));
        assert_eq!(
            read.var("Enabled").unwrap().value(0),
            ProfileValue::Bool(true)
        );
        assert_eq!(
            read.var("Odd").unwrap().value(0),
            ProfileValue::Other {
                type_word: 9,
                word: 0
            }
        );
        assert_eq!(read.number("Odd"), None);
    }

    #[test]
    fn a_bad_profile_says_where_and_what() {
        let bytes = VarProfile {
            vars: vec![float("Use_Ore", 5.0)],
        }
        .to_bytes();
        let mut extra = bytes.clone();
        extra.push(0);
        let e = VarProfile::parse(&extra).unwrap_err();
        assert_eq!(e.problem, Problem::TrailingBytes { count: 1 });
        let mut huge = bytes.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = VarProfile::parse(&huge).unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(matches!(e.problem, Problem::Invalid { .. }), "{e}");
        let mut sized = bytes.clone();
        sized[4] = 8;
        let e = VarProfile::parse(&sized).unwrap_err();
        assert_eq!(
            (e.offset, e.to_string().contains("a value size of 4")),
            (4, true)
        );
        let mut named = bytes;
        named[16..20].copy_from_slice(&1000u32.to_le_bytes());
        let e = VarProfile::parse(&named).unwrap_err();
        assert_eq!(e.offset, 16);
        assert!(
            matches!(e.problem, Problem::Truncated { needed: 1000, .. }),
            "{e}"
        );
    }
}
