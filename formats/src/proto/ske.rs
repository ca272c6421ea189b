//! SKE (`sky.ske`): the sky's day cycle, in sections of keyframes (tome III
//! "TRF, ANI и SKE"; layout from openparkan `docs/10-sky.md`, "Layout",
//! read from the engine's loader and walked on all 29 shipped files).
//!
//! ```text
//! i32 magic (-1); i32 version (5); i32 sections
//! per section: i32 version (1); i32 keyframes; time end_of_day; time day_length;
//!              keyframes
//! time start; i32 unread; i32 flag
//!
//! time (32 bytes): u32 section; u32; u32; u32 hour (+12); u32 minute (+16); u32; 8 bytes
//! keyframe: i32 version (1..=3); time stamp; i32 event;
//!           slots[22] (20 in version 1): colours BGRA, slots 5 and 6 f32;
//!           6 x string (i32 length, bytes); f32[4];
//!           version 3: i32 n; n x string (effect names)
//! ```
//!
//! GAMEPLAY.md section 10's "124-byte header, 88-byte keyframes, day length
//! at +64/+68" is the same file read one keyframe out: the first 84 bytes
//! and the first keyframe's 40-byte preamble, then 22 slots of 4 bytes; the
//! day length's hour and minute are at +64 and +68 in both readings.
//! Every time keeps its 32 bytes; strings keep their bytes.

use crate::cursor::Cursor;
use crate::error::{FormatError, Result};

const FORMAT: &str = "SKE";
/// The file's first word.
pub const MAGIC: i32 = -1;
/// Bytes of a time.
pub const TIME_SIZE: usize = 32;
/// Slots of a version 2 or 3 keyframe (version 1 has 20).
pub const SLOTS: usize = 22;
/// The fewest bytes a keyframe takes (version 1, empty strings).
const KEYFRAME_MIN: usize = 4 + TIME_SIZE + 4 + 20 * 4 + 6 * 4 + 16;
/// The fewest bytes a section takes (no keyframes).
const SECTION_MIN: usize = 8 + 2 * TIME_SIZE;
/// Keyframe slot: the horizon's colours (properties 0-3), by compass.
pub const SLOTS_HORIZON: [usize; 4] = [2, 3, 1, 4];
/// Keyframe slots: the dome's third ring (properties 4-7).
pub const SLOTS_RING_3: [usize; 4] = [7, 10, 8, 9];
/// Keyframe slots: the dome's second ring (properties 8-11).
pub const SLOTS_RING_2: [usize; 4] = [11, 14, 12, 13];
/// Keyframe slot: the apex and first ring (property 12).
pub const SLOT_APEX: usize = 15;
/// Keyframe slots: fog start and end, f32 multiples of 700 m.
pub const SLOT_FOG_START: usize = 5;
pub const SLOT_FOG_END: usize = 6;
/// The distance a fog slot's unit stands for, m.
pub const FOG_UNIT: f32 = 700.0;
/// Keyframe slot: the flare's boost of the main light (its alpha).
pub const SLOT_FLARE: usize = 17;
/// Keyframe slot: the clouds' colour.
pub const SLOT_CLOUDS: usize = 18;
/// Keyframe slot: the main light's colour (and the weather's).
pub const SLOT_LIGHT: usize = 19;
/// Keyframe slot: the scene colour (the lit floor).
pub const SLOT_SCENE: usize = 20;
/// Keyframe slot: the counter light's colour.
pub const SLOT_COUNTER: usize = 21;
/// Event opcodes: start and stop a body (the sun, or the moon when the
/// keyframe's name is not `sun`), rain, snow and lightning.
pub const EVENT_START_BODY: i32 = 0;
pub const EVENT_STOP_BODY: i32 = 1;
pub const EVENT_START_RAIN: i32 = 3;
pub const EVENT_STOP_RAIN: i32 = 4;
pub const EVENT_START_SNOW: i32 = 5;
pub const EVENT_STOP_SNOW: i32 = 6;
pub const EVENT_START_LIGHTNING: i32 = 8;
pub const EVENT_STOP_LIGHTNING: i32 = 9;

/// A time of the sky's clock: 32 bytes, of which the section (`+0`), the
/// hour (`+12`) and the minute (`+16`) are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockTime(pub [u8; TIME_SIZE]);

impl ClockTime {
    /// A time of `hour:minute` in `section`, every other byte zero.
    pub fn new(section: u32, hour: u32, minute: u32) -> Self {
        let mut raw = [0u8; TIME_SIZE];
        raw[0..4].copy_from_slice(&section.to_le_bytes());
        raw[12..16].copy_from_slice(&hour.to_le_bytes());
        raw[16..20].copy_from_slice(&minute.to_le_bytes());
        Self(raw)
    }

    fn word(&self, at: usize) -> u32 {
        u32::from_le_bytes([self.0[at], self.0[at + 1], self.0[at + 2], self.0[at + 3]])
    }

    pub fn section(&self) -> u32 {
        self.word(0)
    }

    pub fn hour(&self) -> u32 {
        self.word(12)
    }

    pub fn minute(&self) -> u32 {
        self.word(16)
    }

    /// Minutes since midnight (`hour × 60 + minute`, saturating).
    pub fn minutes(&self) -> u64 {
        u64::from(self.hour()) * 60 + u64::from(self.minute())
    }
}

/// One keyframe.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyframe {
    /// 1, 2 or 3.
    pub version: i32,
    /// When it stands in its section's day.
    pub stamp: ClockTime,
    /// The event opcode (0..9; `EVENT_*`).
    pub event: i32,
    /// The slots as stored: [`SLOTS`] of them (20 in version 1).
    pub slots: Vec<[u8; 4]>,
    /// Six strings: the first names the body (`sun`, or the moon).
    pub strings: [Vec<u8>; 6],
    /// Sun width and height (its sprite's extents), the light's
    /// multiplier, the weather's intensity.
    pub floats: [f32; 4],
    /// Version 3: the effect names (rain's sound, lightning's effect).
    pub effects: Vec<Vec<u8>>,
}

impl Keyframe {
    /// A version 3 keyframe at `stamp` with event `event`, body name
    /// `name`, `slots` ([`SLOTS`] of them) and `floats`; its other strings
    /// and its effect list empty.
    pub fn new(
        stamp: ClockTime,
        (event, name): (i32, &[u8]),
        slots: Vec<[u8; 4]>,
        floats: [f32; 4],
    ) -> Self {
        Self {
            version: 3,
            stamp,
            event,
            slots,
            strings: [name.to_vec(), vec![], vec![], vec![], vec![], vec![]],
            floats,
            effects: Vec::new(),
        }
    }

    /// Slot `i` as RGBA (stored BGRA); a version 1 keyframe builds slots
    /// 20 and 21 as slot 19 × 0.3 (the engine's rule).
    pub fn colour(&self, i: usize) -> [u8; 4] {
        let bgra = match self.slots.get(i) {
            Some(s) => *s,
            None if self.version == 1 && i < SLOTS => {
                let [b, g, r, a] = self.slots.get(SLOT_LIGHT).copied().unwrap_or_default();
                let dim = |v: u8| (f32::from(v) * 0.3) as u8;
                [dim(b), dim(g), dim(r), a]
            }
            None => [0; 4],
        };
        [bgra[2], bgra[1], bgra[0], bgra[3]]
    }

    /// Slot `i` read as an f32 (slots 5 and 6).
    pub fn float_slot(&self, i: usize) -> f32 {
        self.slots.get(i).map_or(0.0, |s| f32::from_le_bytes(*s))
    }

    /// The body this keyframe starts or stops: its first string.
    pub fn name(&self) -> &[u8] {
        &self.strings[0]
    }

    /// Whether its body is the sun (else the moon).
    pub fn names_sun(&self) -> bool {
        self.name().eq_ignore_ascii_case(b"sun")
    }

    fn parse(c: &mut Cursor<'_>) -> Result<Self> {
        let at = c.pos();
        let version = c.i32()?;
        if !(1..=3).contains(&version) {
            return Err(c.invalid_at(at, "a keyframe version of 1, 2 or 3", version));
        }
        let stamp = ClockTime(c.array()?);
        let event = c.i32()?;
        let slot_count = if version == 1 { 20 } else { SLOTS };
        let slots = (0..slot_count)
            .map(|_| c.array())
            .collect::<Result<Vec<_>>>()?;
        let mut strings: [Vec<u8>; 6] = Default::default();
        for s in &mut strings {
            *s = string(c)?;
        }
        let floats = c.f32s()?;
        let mut effects = Vec::new();
        if version == 3 {
            let n = super::read_count(c, 4, "effect names")?;
            effects.reserve(n);
            for _ in 0..n {
                effects.push(string(c)?);
            }
        }
        Ok(Self {
            version,
            stamp,
            event,
            slots,
            strings,
            floats,
            effects,
        })
    }

    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        out.extend(self.version.to_le_bytes());
        out.extend(self.stamp.0);
        out.extend(self.event.to_le_bytes());
        for s in &self.slots {
            out.extend(s);
        }
        for s in &self.strings {
            put_string(out, s)?;
        }
        crate::cursor::put_f32s(out, &self.floats);
        if self.version == 3 {
            out.extend(super::count_i32(
                FORMAT,
                self.effects.len(),
                "effect names",
            )?);
            for e in &self.effects {
                put_string(out, e)?;
            }
        }
        Ok(())
    }
}

/// A string: an i32 length, then that many bytes.
fn string(c: &mut Cursor<'_>) -> Result<Vec<u8>> {
    let n = super::read_count(c, 1, "string bytes")?;
    Ok(c.bytes(n)?.to_vec())
}

fn put_string(out: &mut Vec<u8>, s: &[u8]) -> Result<()> {
    out.extend(super::count_i32(FORMAT, s.len(), "string bytes")?);
    out.extend(s);
    Ok(())
}

/// One section: a day of its own length.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// 1 on every shipped file.
    pub version: i32,
    /// 23:59 on every shipped file; never used.
    pub end_of_day: ClockTime,
    /// The day's length in real time (hours and minutes).
    pub day_length: ClockTime,
    pub keyframes: Vec<Keyframe>,
}

impl Section {
    /// The day's length in seconds of game time.
    pub fn day_seconds(&self) -> u64 {
        self.day_length.minutes() * 60
    }

    /// Its keyframes in time order (stable), each with its ms into the day
    /// (openparkan `docs/10-sky.md`, "How long a day lasts": a stamp's
    /// hour and minute are a share of the day's length).
    pub fn timeline(&self) -> Vec<(u64, &Keyframe)> {
        let day = self.day_seconds() * 1000;
        let mut keys: Vec<(u64, &Keyframe)> = self
            .keyframes
            .iter()
            .map(|k| (at_ms(&k.stamp, day), k))
            .collect();
        keys.sort_by_key(|(at, _)| *at);
        keys
    }
}

/// ms into a day of `day_ms` at which `time` stands.
fn at_ms(time: &ClockTime, day_ms: u64) -> u64 {
    time.minutes() * 60 * day_ms / 86_400
}

/// The spell of `start` and `stop` events under way at `t` ms of a
/// section's day (its [`Section::timeline`]): the last start at or before
/// it whose life (to the first stop at or after its start) has not ended;
/// how far through its life `t` is, and the starting keyframe.
pub fn spell<'a>(
    keys: &[(u64, &'a Keyframe)],
    t: u64,
    (start_event, stop_event): (i32, i32),
) -> Option<(f32, &'a Keyframe)> {
    let (start, key) = keys
        .iter()
        .rfind(|(at, k)| *at <= t && k.event == start_event)?;
    let stop = keys
        .iter()
        .find(|(at, k)| at >= start && k.event == stop_event)?
        .0;
    if t >= stop || stop <= *start {
        return None;
    }
    Some((((t - start) as f32 / (stop - start) as f32).min(1.0), *key))
}

/// A parsed SKE resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Sky {
    /// 5 on every shipped file.
    pub version: i32,
    pub sections: Vec<Section>,
    /// The clock's start: the sky stands at this time as the mission loads.
    pub start: ClockTime,
    /// Never read (0).
    pub unread: i32,
    /// Handed to the sky and never read (0 or 1).
    pub flag: i32,
}

impl Sky {
    /// Parses an SKE payload (exact end).
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let magic = c.i32()?;
        if magic != MAGIC {
            return Err(c.invalid_at(0, "the magic -1", magic));
        }
        let version = c.i32()?;
        let count = super::read_count(&mut c, SECTION_MIN, "sections")?;
        let mut sections = Vec::with_capacity(count);
        for _ in 0..count {
            let version = c.i32()?;
            let keyframes = super::read_count(&mut c, KEYFRAME_MIN, "keyframes")?;
            let end_of_day = ClockTime(c.array()?);
            let day_length = ClockTime(c.array()?);
            let keyframes = (0..keyframes)
                .map(|_| Keyframe::parse(&mut c))
                .collect::<Result<_>>()?;
            sections.push(Section {
                version,
                end_of_day,
                day_length,
                keyframes,
            });
        }
        let start = ClockTime(c.array()?);
        let unread = c.i32()?;
        let flag = c.i32()?;
        c.expect_end()?;
        Ok(Self {
            version,
            sections,
            start,
            unread,
            flag,
        })
    }

    /// The first section's day length in game seconds (0 without one).
    pub fn day_seconds(&self) -> u64 {
        self.sections.first().map_or(0, Section::day_seconds)
    }

    /// Where the sky stands `elapsed_ms` of game time after the load: its
    /// section and the ms into that section's day (`start` replaces the
    /// file's start time); the sections' days follow each other and wrap.
    /// `None` for a sky without a day.
    pub fn position(&self, start: Option<ClockTime>, elapsed_ms: u64) -> Option<(usize, u64)> {
        let days: Vec<u64> = self
            .sections
            .iter()
            .map(|s| s.day_seconds() * 1000)
            .collect();
        let cycle: u64 = days.iter().sum();
        if cycle == 0 {
            return None;
        }
        let start = start.unwrap_or(self.start);
        let first = (start.section() as usize).min(days.len() - 1);
        let from = days[..first].iter().sum::<u64>() + at_ms(&start, days[first]);
        let mut t = (from + elapsed_ms % cycle) % cycle;
        for (i, &day) in days.iter().enumerate() {
            if t < day {
                return Some((i, t));
            }
            t -= day;
        }
        None
    }

    /// Whether the sun is up `elapsed_ms` after the load: a body's spell
    /// ([`spell`] of events 0 and 1) is under way and its keyframe names
    /// the sun. `None` for a sky without a day.
    pub fn sun_up(&self, start: Option<ClockTime>, elapsed_ms: u64) -> Option<bool> {
        let (s, t) = self.position(start, elapsed_ms)?;
        let keys = self.sections[s].timeline();
        Some(
            spell(&keys, t, (EVENT_START_BODY, EVENT_STOP_BODY))
                .is_some_and(|(_, key)| key.names_sun()),
        )
    }

    /// Writes the payload (byte-identical for an unmodified parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = MAGIC.to_le_bytes().to_vec();
        out.extend(self.version.to_le_bytes());
        out.extend(super::count_i32(FORMAT, self.sections.len(), "sections")?);
        for s in &self.sections {
            out.extend(s.version.to_le_bytes());
            out.extend(super::count_i32(FORMAT, s.keyframes.len(), "keyframes")?);
            out.extend(s.end_of_day.0);
            out.extend(s.day_length.0);
            for k in &s.keyframes {
                if k.slots.len() != if k.version == 1 { 20 } else { SLOTS } {
                    return Err(FormatError::invalid(
                        FORMAT,
                        out.len() as u64,
                        "20 slots in a version 1 keyframe, 22 otherwise",
                        k.slots.len(),
                    ));
                }
                k.write(&mut out)?;
            }
        }
        out.extend(self.start.0);
        out.extend(self.unread.to_le_bytes());
        out.extend(self.flag.to_le_bytes());
        Ok(out)
    }
}
