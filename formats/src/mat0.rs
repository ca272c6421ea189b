//! MAT0 materials (type id `0x3054414D`, usually in `Material.lib`), phase
//! selection over material time, and the WEAR -> MAT0 / lightmap resolve
//! (tome V, "WEAR и MAT0"; prefix by version from FACTS.md).
//!
//! Payload, with the version taken from the directory `attr2`:
//!
//! ```text
//! u16 phase_count
//! u16 animation_block_count          < 20
//! u8  src_blend, u8 dst_blend        version >= 2 (else 255, 255)
//! u32 alpha (f32 bits)               version >= 3 (else 1.0)
//! u32 emissive (f32 bits)            version >= 4 (else 0.0)
//! phase_count x { u8 parameters[18]; char texture_name[16] }
//! animation_block_count x { u32 header; u16 key_count; key_count x { u16 k0, k1, k2 } }
//! ```
//!
//! The directory `attr1` carries flags: bits 2..5 render type, bit 1 bump.
//! Versions 5 and 6 read like version 4 (no later field is known).

use crate::archive::open::with_nres_entry;
use crate::cursor::{Cursor, c_name};
use crate::error::{FormatError, Problem, Result};
use crate::gamedir::GameDir;
use crate::wear::{Wear, serialize_lossy};
use std::path::Path;

/// NRes type id of a MAT0 entry (`"MAT0"` as a little-endian u32).
pub const MAT0_TYPE_ID: u32 = 0x3054_414D;
/// Bytes of one phase record.
pub const PHASE_SIZE: usize = 34;
/// Animation blocks are fewer than this.
pub const MAX_ANIMATION_BLOCKS: u16 = 20;
/// Name of the fallback material.
pub const DEFAULT_MATERIAL: &[u8] = b"DEFAULT";

const FORMAT: &str = "MAT0";
const ALPHA_DEFAULT: u32 = 0x3F80_0000; // 1.0f32
const BLEND_DEFAULT: u8 = 255;

/// One phase: raw parameters (kept raw even where partly understood) and a
/// 16-byte texture name field (an empty name is an intentionally untextured
/// surface).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Phase {
    pub parameters: [u8; 18],
    pub texture_field: [u8; 16],
}

impl Phase {
    /// A phase with the texture `name` (at most 16 bytes; the rest is NUL).
    pub fn new(parameters: [u8; 18], name: &[u8]) -> Result<Self> {
        Ok(Self {
            parameters,
            // A texture name may fill all 16 bytes (no terminator needed).
            texture_field: crate::fixed::fixed_field(name, 16, "name")?,
        })
    }

    /// Texture name: the bytes before the first NUL (all 16 when none).
    pub fn texture(&self) -> &[u8] {
        c_name(&self.texture_field)
    }
}

/// One key of an animation block; `k2` is always kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct AnimKey {
    /// Phase index of the key (the reading phase selection uses).
    pub k0: u16,
    /// Key time in material ticks (the reading phase selection uses).
    pub k1: u16,
    /// Raw, meaning unknown.
    pub k2: u16,
}

/// An animation block: a raw header (low 3 bits mode, the rest the
/// interpolation mask) and its keys.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AnimBlock {
    pub header: u32,
    pub keys: Vec<AnimKey>,
}

/// The four observed animation modes (header bits 0..2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum AnimMode {
    /// 0: wraps at the last key time.
    Loop,
    /// 1: runs forward to the last key time, then back.
    PingPong,
    /// 2: plays once and holds the last key.
    Clamp,
    /// 3: loops from a per-instance offset drawn from an explicit seed.
    RandomOffset,
}

impl AnimBlock {
    /// Numeric mode, header bits 0..2.
    pub fn mode_bits(&self) -> u8 {
        (self.header & 7) as u8
    }

    /// The observed mode, `None` for modes 4..7.
    pub fn mode(&self) -> Option<AnimMode> {
        match self.mode_bits() {
            0 => Some(AnimMode::Loop),
            1 => Some(AnimMode::PingPong),
            2 => Some(AnimMode::Clamp),
            3 => Some(AnimMode::RandomOffset),
            _ => None,
        }
    }

    /// Interpolation mask: header bits 3..31 (which parameters blend).
    pub fn mask(&self) -> u32 {
        self.header >> 3
    }
}

/// The selected phase pair at a material time: blend `from` towards `to`
/// with weight `num / den` (`num == 0` means `from` alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PhaseSample {
    pub from: usize,
    pub to: usize,
    pub num: u32,
    pub den: u32,
    /// The local time inside the block after the mode was applied.
    pub local_time: u32,
}

impl PhaseSample {
    /// The blend weight of `to` as a float.
    pub fn weight(&self) -> f32 {
        if self.den == 0 {
            0.0
        } else {
            self.num as f32 / self.den as f32
        }
    }
}

/// A parsed MAT0 material.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Mat0 {
    /// Payload version, the directory `attr2`.
    pub version: u32,
    /// Directory `attr1`, kept raw (see [`Mat0::render_type`], [`Mat0::bump`]).
    pub flags: u32,
    /// Source blend (version >= 2, else 255).
    pub src_blend: u8,
    /// Destination blend (version >= 2, else 255).
    pub dst_blend: u8,
    /// Alpha as raw f32 bits (version >= 3, else 1.0).
    pub alpha_raw: u32,
    /// Emissive as raw f32 bits (version >= 4, else 0.0).
    pub emissive_raw: u32,
    pub phases: Vec<Phase>,
    pub animations: Vec<AnimBlock>,
}

/// The MAT0 of `found`, parsed with its directory fields `attr1` (flags)
/// and `attr2` (version), once per version of the file and pair of fields
/// (shared by every reader of the [`crate::source::Source`]).
pub fn parse_shared(
    found: &crate::source::Found,
    attr1: u32,
    attr2: u32,
) -> Result<std::sync::Arc<Mat0>> {
    let variant = u64::from(attr1) << 32 | u64::from(attr2);
    found.parsed(variant, |b| Mat0::parse(b, attr1, attr2))
}

impl Mat0 {
    /// A material of `version` with the defaults of tome V for the fields the
    /// version lacks.
    pub fn new(version: u32, flags: u32) -> Self {
        Self {
            version,
            flags,
            src_blend: BLEND_DEFAULT,
            dst_blend: BLEND_DEFAULT,
            alpha_raw: ALPHA_DEFAULT,
            emissive_raw: 0,
            phases: Vec::new(),
            animations: Vec::new(),
        }
    }

    /// Parses a MAT0 payload; `attr1`/`attr2` come from its directory entry.
    pub fn parse(data: &[u8], attr1: u32, attr2: u32) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let phase_count = c.u16()?;
        let block_count_at = c.pos();
        let block_count = c.u16()?;
        if block_count >= MAX_ANIMATION_BLOCKS {
            return Err(c.invalid_at(
                block_count_at,
                format!("animation block count < {MAX_ANIMATION_BLOCKS}"),
                block_count,
            ));
        }
        let mut m = Mat0::new(attr2, attr1);
        if attr2 >= 2 {
            m.src_blend = c.u8()?;
            m.dst_blend = c.u8()?;
        }
        if attr2 >= 3 {
            m.alpha_raw = c.u32()?;
        }
        if attr2 >= 4 {
            m.emissive_raw = c.u32()?;
        }
        let phase_count = c.checked_count(phase_count as u64, PHASE_SIZE, "phases")?;
        m.phases.reserve_exact(phase_count);
        for _ in 0..phase_count {
            m.phases.push(Phase {
                parameters: c.array()?,
                texture_field: c.array()?,
            });
        }
        for _ in 0..block_count {
            let header = c.u32()?;
            let key_count = c.u16()?;
            let key_count = c.checked_count(key_count as u64, 6, "animation keys")?;
            let mut keys = Vec::with_capacity(key_count);
            for _ in 0..key_count {
                keys.push(AnimKey {
                    k0: c.u16()?,
                    k1: c.u16()?,
                    k2: c.u16()?,
                });
            }
            m.animations.push(AnimBlock { header, keys });
        }
        c.expect_end()?;
        Ok(m)
    }

    /// Render type: directory `attr1` bits 2..5.
    pub fn render_type(&self) -> u32 {
        (self.flags >> 2) & 0xF
    }

    /// Bump flag: directory `attr1` bit 1.
    pub fn bump(&self) -> bool {
        self.flags & 2 != 0
    }

    /// Alpha as a float.
    pub fn alpha(&self) -> f32 {
        f32::from_bits(self.alpha_raw)
    }

    /// Emissive as a float.
    pub fn emissive(&self) -> f32 {
        f32::from_bits(self.emissive_raw)
    }

    /// The directory attributes to store with the payload: (`attr1`, `attr2`).
    pub fn directory_attrs(&self) -> (u32, u32) {
        (self.flags, self.version)
    }

    /// Writes the payload. Byte-identical to the input for a parsed material;
    /// fails when a field the version cannot store differs from its default,
    /// or a count does not fit its field.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let v = self.version;
        let absent = |present_from: u32, differs: bool, what: &str| {
            if v < present_from && differs {
                Err(FormatError::invalid(
                    FORMAT,
                    0,
                    format!(
                        "{what} at its default for version {v} (stored from version {present_from})"
                    ),
                    "a changed value",
                ))
            } else {
                Ok(())
            }
        };
        absent(
            2,
            self.src_blend != BLEND_DEFAULT || self.dst_blend != BLEND_DEFAULT,
            "blend modes",
        )?;
        absent(3, self.alpha_raw != ALPHA_DEFAULT, "alpha")?;
        absent(4, self.emissive_raw != 0, "emissive")?;
        let phase_count = count_u16(self.phases.len(), "phases")?;
        if self.animations.len() >= MAX_ANIMATION_BLOCKS as usize {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("fewer than {MAX_ANIMATION_BLOCKS} animation blocks"),
                self.animations.len(),
            ));
        }
        let mut out = Vec::with_capacity(14 + self.phases.len() * PHASE_SIZE);
        out.extend(phase_count.to_le_bytes());
        out.extend((self.animations.len() as u16).to_le_bytes());
        if v >= 2 {
            out.extend([self.src_blend, self.dst_blend]);
        }
        if v >= 3 {
            out.extend(self.alpha_raw.to_le_bytes());
        }
        if v >= 4 {
            out.extend(self.emissive_raw.to_le_bytes());
        }
        for p in &self.phases {
            out.extend(p.parameters);
            out.extend(p.texture_field);
        }
        for b in &self.animations {
            out.extend(b.header.to_le_bytes());
            out.extend(count_u16(b.keys.len(), "animation keys")?.to_le_bytes());
            for k in &b.keys {
                out.extend(k.k0.to_le_bytes());
                out.extend(k.k1.to_le_bytes());
                out.extend(k.k2.to_le_bytes());
            }
        }
        Ok(out)
    }

    /// The phase pair of animation block `block` at material time `time`
    /// (ticks, the unit of the key times). `seed` only matters for the
    /// random-offset mode: the same seed gives the same offset. A material
    /// without animation blocks always shows phase 0.
    ///
    /// Reading used (tome V leaves the boundary cases to runtime parity): key
    /// `i` starts at time `k1`, shows phase `k0` and blends towards key
    /// `i + 1`; the block's period is the last key's time.
    pub fn select_phase(&self, block: usize, time: u32, seed: u64) -> Result<PhaseSample> {
        if self.phases.is_empty() {
            return Err(FormatError::missing(FORMAT, "a phase to select"));
        }
        let Some(b) = self.animations.get(block) else {
            if self.animations.is_empty() {
                return Ok(PhaseSample {
                    from: 0,
                    to: 0,
                    num: 0,
                    den: 1,
                    local_time: 0,
                });
            }
            return Err(FormatError::missing(
                FORMAT,
                format!("animation block {block}"),
            ));
        };
        let Some(last) = b.keys.last() else {
            return Err(FormatError::missing(
                FORMAT,
                format!("keys in animation block {block}"),
            ));
        };
        for w in b.keys.windows(2) {
            if w[1].k1 < w[0].k1 {
                return Err(FormatError::invalid(
                    FORMAT,
                    0,
                    "non-decreasing key times",
                    format!("{} after {}", w[1].k1, w[0].k1),
                ));
            }
        }
        if let Some(k) = b.keys.iter().find(|k| k.k0 as usize >= self.phases.len()) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("key phase index < {}", self.phases.len()),
                k.k0,
            ));
        }
        let period = last.k1 as u32;
        let mode = b.mode().ok_or_else(|| {
            FormatError::new(
                FORMAT,
                0,
                Problem::Unsupported {
                    what: format!("animation mode {}", b.mode_bits()),
                },
            )
        })?;
        let local = local_time(mode, time, period, seed);
        let i = b
            .keys
            .iter()
            .rposition(|k| k.k1 as u32 <= local)
            .unwrap_or(0);
        let key = b.keys[i];
        let sample = match b.keys.get(i + 1) {
            Some(next) if local >= key.k1 as u32 => PhaseSample {
                from: key.k0 as usize,
                to: next.k0 as usize,
                num: local - key.k1 as u32,
                den: (next.k1 - key.k1) as u32,
                local_time: local,
            },
            _ => PhaseSample {
                from: key.k0 as usize,
                to: key.k0 as usize,
                num: 0,
                den: 1,
                local_time: local,
            },
        };
        Ok(sample)
    }
}

/// Applies a mode to material time; all integer arithmetic (deterministic).
fn local_time(mode: AnimMode, time: u32, period: u32, seed: u64) -> u32 {
    if period == 0 {
        return 0;
    }
    match mode {
        AnimMode::Loop => time % period,
        AnimMode::PingPong => {
            let m = (time as u64) % (2 * period as u64);
            (if m > period as u64 {
                2 * period as u64 - m
            } else {
                m
            }) as u32
        }
        AnimMode::Clamp => time.min(period),
        AnimMode::RandomOffset => {
            let offset = splitmix64(seed) % period as u64;
            ((time as u64 + offset) % period as u64) as u32
        }
    }
}

/// SplitMix64 finaliser: a fixed, platform-independent seed -> offset map.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn count_u16(n: usize, what: &str) -> Result<u16> {
    u16::try_from(n)
        .map_err(|_| FormatError::invalid(FORMAT, 0, format!("at most 65535 {what}"), n))
}

/// Which step of the material fallback chain gave the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Resolution {
    /// The WEAR name exists in the library.
    Named,
    /// The WEAR name is missing (or the row is), `DEFAULT` exists.
    Default,
    /// Neither exists: the library's entry 0.
    FirstEntry,
}

/// The library entry a WEAR material resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedMaterial {
    pub entry: usize,
    pub via: Resolution,
}

/// Resolves a batch's material: the WEAR row's name, then `DEFAULT`, then
/// entry 0 of the library (tome V). `find` looks a name up in the material
/// library (ASCII case-insensitive, e.g. [`Nres::find`]); `entry_count` is
/// the library's number of entries.
pub fn resolve_material(
    wear: &Wear,
    material_index: usize,
    entry_count: usize,
    find: impl Fn(&[u8]) -> Option<usize>,
) -> Result<ResolvedMaterial> {
    if let Some(entry) = wear.material(material_index).and_then(&find) {
        return Ok(ResolvedMaterial {
            entry,
            via: Resolution::Named,
        });
    }
    if let Some(entry) = find(DEFAULT_MATERIAL) {
        return Ok(ResolvedMaterial {
            entry,
            via: Resolution::Default,
        });
    }
    if entry_count > 0 {
        return Ok(ResolvedMaterial {
            entry: 0,
            via: Resolution::FirstEntry,
        });
    }
    Err(FormatError::missing(
        FORMAT,
        "any material: the library is empty",
    ))
}

/// The lightmap slot of a batch: the `LightMap.lib` entry of WEAR lightmap
/// row `lightmap_index`, or `-1` when the index is `0xFF`, past the block,
/// the block is absent or the texture is missing. Never a substitute texture.
pub fn lightmap_slot(
    wear: &Wear,
    lightmap_index: u8,
    find: impl Fn(&[u8]) -> Option<usize>,
) -> i32 {
    wear.lightmap(lightmap_index)
        .and_then(find)
        .and_then(|i| i32::try_from(i).ok())
        .unwrap_or(-1)
}

/// One phase as shown by `material info`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhaseInfo {
    pub index: usize,
    #[serde(serialize_with = "serialize_lossy")]
    pub texture: Vec<u8>,
    /// The 18 parameter bytes in hex.
    pub parameters: String,
}

/// One animation block as shown by `material info`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AnimInfo {
    pub header: u32,
    pub mode: u8,
    pub mode_name: Option<AnimMode>,
    pub mask: u32,
    pub keys: Vec<AnimKey>,
}

/// What `iron3d material info` prints.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MaterialInfo {
    pub library: String,
    pub entry: usize,
    #[serde(serialize_with = "serialize_lossy")]
    pub name: Vec<u8>,
    pub version: u32,
    pub flags: u32,
    pub render_type: u32,
    pub bump: bool,
    pub src_blend: u8,
    pub dst_blend: u8,
    pub alpha: f32,
    pub emissive: f32,
    pub phases: Vec<PhaseInfo>,
    pub animations: Vec<AnimInfo>,
    /// Distinct non-empty texture names in phase order.
    pub textures: Vec<String>,
}

impl MaterialInfo {
    /// Builds the report of a parsed material.
    pub fn new(library: String, entry: usize, name: &[u8], m: &Mat0) -> Self {
        let mut textures: Vec<String> = Vec::new();
        for p in &m.phases {
            let t = String::from_utf8_lossy(p.texture()).into_owned();
            if !t.is_empty() && !textures.contains(&t) {
                textures.push(t);
            }
        }
        Self {
            library,
            entry,
            name: name.to_vec(),
            version: m.version,
            flags: m.flags,
            render_type: m.render_type(),
            bump: m.bump(),
            src_blend: m.src_blend,
            dst_blend: m.dst_blend,
            alpha: m.alpha(),
            emissive: m.emissive(),
            phases: m
                .phases
                .iter()
                .enumerate()
                .map(|(index, p)| PhaseInfo {
                    index,
                    texture: p.texture().to_vec(),
                    parameters: p.parameters.iter().map(|b| format!("{b:02x}")).collect(),
                })
                .collect(),
            animations: m
                .animations
                .iter()
                .map(|b| AnimInfo {
                    header: b.header,
                    mode: b.mode_bits(),
                    mode_name: b.mode(),
                    mask: b.mask(),
                    keys: b.keys.clone(),
                })
                .collect(),
            textures,
        }
    }
}

/// `material info`: the MAT0 entry `name` (ASCII case-insensitive) of the
/// `Material.lib` of the install at `game_dir` (path resolved
/// case-insensitively).
pub fn material_info(game_dir: &Path, name: &str) -> Result<MaterialInfo> {
    let library = GameDir::open(game_dir)?.resolve(b"Material.lib")?;
    with_nres_entry(&library, name, |nres, index, payload| {
        let entry = &nres.entries()[index];
        check_type(entry.type_id, MAT0_TYPE_ID, FORMAT)?;
        let m = Mat0::parse(payload, entry.attr1, entry.attr2)?;
        Ok(MaterialInfo::new(
            library.display().to_string(),
            index,
            entry.name(),
            &m,
        ))
    })
}

/// Fails unless an entry's type id is `expected` (`format` names it).
pub(crate) fn check_type(found: u32, expected: u32, format: &'static str) -> Result<()> {
    if found == expected {
        return Ok(());
    }
    Err(FormatError::invalid(
        format,
        0,
        format!("entry type 0x{expected:08x} ({format})"),
        format!("0x{found:08x}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ping_pong_reflects_and_clamp_holds() {
        assert_eq!(local_time(AnimMode::PingPong, 15, 10, 0), 5);
        assert_eq!(local_time(AnimMode::PingPong, 20, 10, 0), 0);
        assert_eq!(local_time(AnimMode::Clamp, 99, 10, 0), 10);
        assert_eq!(local_time(AnimMode::Loop, 25, 10, 0), 5);
        assert_eq!(local_time(AnimMode::Loop, 25, 0, 0), 0);
    }

    #[test]
    fn random_offset_depends_on_seed_only() {
        let a = local_time(AnimMode::RandomOffset, 3, 1000, 42);
        assert_eq!(a, local_time(AnimMode::RandomOffset, 3, 1000, 42));
        assert_eq!(
            (a + 1) % 1000,
            local_time(AnimMode::RandomOffset, 4, 1000, 42)
        );
    }
}
