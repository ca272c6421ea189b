//! Typed views of FXID command bodies: which emitter a type is and the
//! fields its class reads (openparkan `docs/11-effects.md`, "Emitter
//! types", "A channel is a (low, high, jitter, exponent) run", "A phase is
//! where its material's animation stands", "Type 1 is a light", "Type 2 is
//! a sound", "Bolts, streams and fades"). The bodies stay raw (a command
//! is lossless as read); these read and write fields in place. Offsets are
//! from the command word, as the measurements give them.

use super::Command;

/// What an emitter type does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmitterKind {
    /// Type 1: a light switched on inside its window.
    Light,
    /// Type 2: a sound, a one-shot or a loop.
    Sound,
    /// Types 3, 4, 9: one sprite that moves and grows over its window.
    Sprite,
    /// Type 5: sprites laid along the line from a start point to the effect.
    Bolt,
    /// Types 7, 10: a burst of particles.
    Burst,
    /// Type 8: particles emitted by interval into a ring.
    Stream,
}

impl EmitterKind {
    /// The kind of an opcode (`None` for 6, which no effect ships, and
    /// unknown ones).
    pub fn of(opcode: u8) -> Option<Self> {
        Some(match opcode {
            1 => Self::Light,
            2 => Self::Sound,
            3 | 4 | 9 => Self::Sprite,
            5 => Self::Bolt,
            7 | 10 => Self::Burst,
            8 => Self::Stream,
            _ => return None,
        })
    }
}

/// A range over a 0..1 parameter `x`: `low + (high - low) x^exponent` per
/// axis, the high end moved by a uniform in ± half of `jitter` when a
/// particle spawns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Channel {
    pub low: [f32; 3],
    pub high: [f32; 3],
    pub jitter: [f32; 3],
    pub exponent: [f32; 3],
}

impl Channel {
    /// The value at `x` (clamped to 0..1) with the high end moved by
    /// `shift`. An exponent of exactly 1 is taken straight.
    pub fn at(&self, x: f32, shift: [f32; 3]) -> [f32; 3] {
        let x = x.clamp(0.0, 1.0);
        std::array::from_fn(|i| {
            let k = straight_or_pow(x, self.exponent[i]);
            let high = self.high[i] + shift[i];
            self.low[i] + (high - self.low[i]) * k
        })
    }
}

/// A scalar range: `from + (to - from) x^exponent`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ramp {
    pub from: f32,
    pub to: f32,
    pub exponent: f32,
}

impl Ramp {
    /// The value at `x` (clamped to 0..1).
    pub fn at(&self, x: f32) -> f32 {
        let k = straight_or_pow(x.clamp(0.0, 1.0), self.exponent);
        self.from + (self.to - self.from) * k
    }

    /// The value at `x` (held at 0 below), not clamped above: a phase
    /// clocked in seconds runs on.
    pub fn at_unclamped(&self, x: f32) -> f32 {
        self.from + (self.to - self.from) * straight_or_pow(x.max(0.0), self.exponent)
    }
}

/// `x^e`, with an exponent of exactly 1 taken straight (as the engine
/// does: no `pow` rounding).
fn straight_or_pow(x: f32, e: f32) -> f32 {
    if e == 1.0 { x } else { x.powf(e) }
}

/// Offsets of a channel's four triples: low, high, jitter (none on
/// sprites), exponent.
type ChannelAt = (usize, usize, Option<usize>, usize);

impl Command {
    /// The f32 at `offset` from the command word (0 past the body, which
    /// the fixed size of a known opcode rules out for the offsets here).
    pub fn f32_at(&self, offset: usize) -> f32 {
        self.word_at(offset).map_or(0.0, f32::from_bits)
    }

    /// The u32 at `offset` from the command word (0 past the body).
    pub fn u32_at(&self, offset: usize) -> u32 {
        self.word_at(offset).unwrap_or(0)
    }

    fn word_at(&self, offset: usize) -> Option<u32> {
        let at = offset.checked_sub(4)?;
        let bytes = self.body.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    }

    /// Three f32 from `offset`.
    pub fn triple_at(&self, offset: usize) -> [f32; 3] {
        std::array::from_fn(|i| self.f32_at(offset + 4 * i))
    }

    /// Writes the f32 at `offset`; false (nothing written) past the body.
    pub fn set_f32(&mut self, offset: usize, value: f32) -> bool {
        let Some(at) = offset
            .checked_sub(4)
            .filter(|&at| at + 4 <= self.body.len())
        else {
            return false;
        };
        self.body[at..at + 4].copy_from_slice(&value.to_le_bytes());
        true
    }

    /// Writes three f32 from `offset`.
    pub fn set_triple(&mut self, offset: usize, value: [f32; 3]) -> bool {
        (0..3).all(|i| self.set_f32(offset + 4 * i, value[i]))
    }

    /// The emitter's kind.
    pub fn emitter(&self) -> Option<EmitterKind> {
        EmitterKind::of(self.opcode())
    }

    /// The `(low, high)` window of effect time the emitter works in.
    pub fn window(&self) -> Option<(f32, f32)> {
        let low = match self.opcode() {
            1 | 2 => 8,
            3 | 4 | 9 => 32,
            5 => 12,
            7 | 10 => 20,
            8 => 16,
            _ => return None,
        };
        Some((self.f32_at(low), self.f32_at(low + 4)))
    }

    fn channel(&self, (low, high, jitter, exponent): ChannelAt) -> Channel {
        Channel {
            low: self.triple_at(low),
            high: self.triple_at(high),
            jitter: jitter.map_or([0.0; 3], |j| self.triple_at(j)),
            exponent: self.triple_at(exponent),
        }
    }

    /// Where a sprite or particle stands (effect frame) over its progress
    /// or age.
    pub fn position_channel(&self) -> Option<Channel> {
        Some(self.channel(match self.opcode() {
            3 | 4 | 9 => (40, 52, None, 64),
            7 | 10 => (44, 56, Some(68), 80),
            8 => (88, 100, Some(112), 124),
            _ => return None,
        }))
    }

    /// A sprite's or particle's per-axis size over its progress or age.
    pub fn size_channel(&self) -> Option<Channel> {
        Some(self.channel(match self.opcode() {
            3 | 4 | 9 => (100, 112, None, 124),
            7 | 10 => (92, 104, Some(116), 128),
            8 => (136, 148, Some(160), 172),
            _ => return None,
        }))
    }

    /// The fade (the sprite's alpha; nothing is drawn at 0 or less).
    pub fn fade(&self) -> Option<Ramp> {
        let (from, to, exponent) = match self.opcode() {
            3 | 4 | 9 => (20, 24, Some(28)),
            7 | 10 => (8, 12, Some(16)),
            8 => (4, 8, Some(12)),
            5 => (4, 8, None),
            _ => return None,
        };
        Some(Ramp {
            from: self.f32_at(from),
            to: self.f32_at(to),
            exponent: exponent.map_or(1.0, |e| self.f32_at(e)),
        })
    }

    /// A sprite's or bolt's material phase: `(start, end, exponent)`; a
    /// negative start clocks it in seconds since the instance started.
    pub fn phase(&self) -> Option<Ramp> {
        match self.opcode() {
            3 | 4 | 9 => Some(Ramp {
                from: self.f32_at(8),
                to: self.f32_at(12),
                exponent: self.f32_at(16),
            }),
            5 => Some(Ramp {
                from: self.f32_at(40),
                to: self.f32_at(44),
                exponent: 1.0,
            }),
            _ => None,
        }
    }

    /// A particle's material phase rate (+32 of bursts and streams).
    pub fn particle_phase(&self) -> Option<f32> {
        matches!(self.opcode(), 7 | 8 | 10).then(|| self.f32_at(32))
    }

    /// A burst's particle count: `+36 × +40` (as stored).
    // STAND-IN: `+36` and `+40` read as integer counts (docs/11 "Emitter
    // types" names the product, not the words' type); settled by reading
    // the burst's spawn loop in the effect manager.
    pub fn burst_count(&self) -> Option<(u32, u32)> {
        matches!(self.opcode(), 7 | 10).then(|| (self.u32_at(36), self.u32_at(40)))
    }

    /// A burst particle's life, in window progress (+28).
    pub fn burst_life(&self) -> Option<f32> {
        matches!(self.opcode(), 7 | 10).then(|| self.f32_at(28))
    }

    /// A stream's interval (s, lerped over the window: `+24 → +28`) and
    /// ring (+36: how many live at once, each living that many intervals).
    pub fn stream(&self) -> Option<(Ramp, u32)> {
        (self.opcode() == 8).then(|| {
            let interval = Ramp {
                from: self.f32_at(24),
                to: self.f32_at(28),
                exponent: 1.0,
            };
            (interval, self.u32_at(36))
        })
    }

    /// A bolt: its most sprites (+20), the length one sprite covers (+36)
    /// and its width at the two ends of its window (+24 → +28).
    pub fn bolt(&self) -> Option<(u32, f32, Ramp)> {
        (self.opcode() == 5).then(|| {
            let width = Ramp {
                from: self.f32_at(24),
                to: self.f32_at(28),
                exponent: 1.0,
            };
            (self.u32_at(20), self.f32_at(36), width)
        })
    }

    /// A light's colour (RGBA, `+64 → +80`), position (`+16 → +28`) and
    /// range (`+112 → +116`), each lerped over the window, and its three
    /// attenuation terms (`+124..+132`, constant).
    pub fn light(&self) -> Option<Light> {
        (self.opcode() == 1).then(|| Light {
            kind: self.u32_at(4),
            position: (self.triple_at(16), self.triple_at(28)),
            colour: (
                std::array::from_fn(|i| self.f32_at(64 + 4 * i)),
                std::array::from_fn(|i| self.f32_at(80 + 4 * i)),
            ),
            range: (self.f32_at(112), self.f32_at(116)),
            attenuation: self.triple_at(124),
        })
    }

    /// A sound: loop (+4 of 2 or 3) or one-shot, its trigger/window, its
    /// position (`+16 → +28`), near and far distances (+64, +68) and rate
    /// (`+72 → +76`).
    pub fn sound(&self) -> Option<Sound> {
        (self.opcode() == 2).then(|| Sound {
            looped: matches!(self.u32_at(4), 2 | 3),
            position: (self.triple_at(16), self.triple_at(28)),
            near: self.f32_at(64),
            far: self.f32_at(68),
            rate: (self.f32_at(72), self.f32_at(76)),
        })
    }
}

/// A type-1 light's fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light {
    pub kind: u32,
    pub position: ([f32; 3], [f32; 3]),
    pub colour: ([f32; 4], [f32; 4]),
    pub range: (f32, f32),
    /// `a0, a1, a2` of the falloff `a0 + a1 x + a2 x²`, `x = (range − d) /
    /// range` (retail: (0, 1, 0), (0, 1, 1) or (0, 0, 1)).
    pub attenuation: [f32; 3],
}

/// What a light's kind (+4) makes of it (openparkan `docs/11-effects.md`,
/// "Type 1 is a light": the record type and the manager's flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LightType {
    /// A point light (kinds 1, 2, 5, 6, 7).
    Point {
        /// Flag `0x80000000` (kinds 1 and 6): it lights only its owner.
        owner_only: bool,
        /// Flag `0x20000000` (kinds 6 and 7): the point-light emulation
        /// skips it.
        not_emulated: bool,
    },
    /// Kind 3.
    Directional,
    /// Kind 4.
    ParallelPoint,
}

/// A light kind no effect of the game uses: its own error (tome V: the
/// light manager reports an unknown light type distinctly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown light type {kind} (known: 1 to 7)")]
pub struct UnknownLightType {
    pub kind: u32,
}

impl LightType {
    /// The type of light kind `kind`.
    pub fn of_kind(kind: u32) -> Result<Self, UnknownLightType> {
        let point = |owner_only, not_emulated| LightType::Point {
            owner_only,
            not_emulated,
        };
        Ok(match kind {
            1 => point(true, false),
            2 | 5 => point(false, false),
            3 => LightType::Directional,
            4 => LightType::ParallelPoint,
            6 => point(true, true),
            7 => point(false, true),
            _ => return Err(UnknownLightType { kind }),
        })
    }
}

/// A type-2 sound's fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sound {
    pub looped: bool,
    pub position: ([f32; 3], [f32; 3]),
    pub near: f32,
    pub far: f32,
    pub rate: (f32, f32),
}

#[cfg(test)]
mod tests {
    #[test]
    fn light_kinds_map_to_types_and_flags_and_others_are_unknown() {
        use super::{LightType, UnknownLightType};
        let point = |owner_only, not_emulated| LightType::Point {
            owner_only,
            not_emulated,
        };
        assert_eq!(LightType::of_kind(5), Ok(point(false, false)));
        assert_eq!(LightType::of_kind(1), Ok(point(true, false)));
        assert_eq!(LightType::of_kind(6), Ok(point(true, true)));
        assert_eq!(LightType::of_kind(7), Ok(point(false, true)));
        assert_eq!(LightType::of_kind(3), Ok(LightType::Directional));
        assert_eq!(LightType::of_kind(4), Ok(LightType::ParallelPoint));
        assert_eq!(LightType::of_kind(0), Err(UnknownLightType { kind: 0 }));
        assert_eq!(
            LightType::of_kind(9).unwrap_err().to_string(),
            "unknown light type 9 (known: 1 to 7)"
        );
    }

    use super::*;

    #[test]
    fn fields_read_back_where_they_were_written() {
        let mut sprite = Command::new(3, true).unwrap();
        assert!(sprite.set_f32(32, 0.1) && sprite.set_f32(36, 0.6));
        assert!(sprite.set_triple(52, [0.0, 0.0, 2.0]));
        assert!(sprite.set_triple(64, [1.0, 1.0, 2.0]));
        assert_eq!(sprite.window(), Some((0.1, 0.6)));
        let position = sprite.position_channel().unwrap();
        assert_eq!(position.high, [0.0, 0.0, 2.0]);
        // z rises as x², the others stay at zero.
        assert_eq!(position.at(0.5, [0.0; 3]), [0.0, 0.0, 0.5]);
        // Past the body nothing is written and zero is read.
        assert!(!sprite.set_f32(200, 1.0));
        assert_eq!(sprite.f32_at(200), 0.0);
        assert_eq!(Command::new(6, true).unwrap().window(), None);
    }

    #[test]
    fn a_light_reads_its_kind_range_and_attenuation_terms() {
        let mut light = Command::new(1, true).unwrap();
        assert!(light.set_f32(4, f32::from_bits(6)));
        assert!(light.set_f32(112, 30.0) && light.set_f32(116, 3.0));
        assert!(light.set_triple(124, [0.0, 1.0, 1.0]));
        let read = light.light().unwrap();
        assert_eq!(read.kind, 6);
        assert_eq!(read.range, (30.0, 3.0));
        assert_eq!(read.attenuation, [0.0, 1.0, 1.0]);
        assert_eq!(Command::new(3, true).unwrap().light(), None);
    }

    #[test]
    fn a_ramp_takes_exponent_one_straight_and_clamps_its_parameter() {
        let fade = Ramp {
            from: 1.0,
            to: 0.0,
            exponent: 1.0,
        };
        assert_eq!(fade.at(0.25), 0.75);
        assert_eq!(fade.at(2.0), 0.0);
        let held = Ramp {
            exponent: 0.0,
            ..fade
        };
        // x^0 puts the value at its far end from the start.
        assert_eq!(held.at(0.1), 0.0);
    }
}
