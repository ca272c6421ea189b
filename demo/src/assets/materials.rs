//! The paints of the demo: MAT0 materials of `Material.lib` (several
//! phases; animation blocks in all four modes: a blinking lamp, scrolling
//! water, ping-pong camouflage, a one-shot fire and a random-offset smoke)
//! and the textures each phase names.

use super::textures::{Look, TexSpec};
use iron3d_formats::error::Result;
use iron3d_formats::mat0::{AnimBlock, AnimKey, Mat0, Phase};
use iron3d_formats::texm::PixelFormat;

/// A surface kind; a model's WEAR rows are a list of paints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Hull,
    Camo,
    Joint,
    Glass,
    Blink,
    Metal,
    Exhaust,
    Decal,
    Concrete,
    Roof,
    Water,
    Sign,
    Bark,
    Leaves,
    Rock,
    Fire,
    Laser,
    Smoke,
    Plate,
}

impl Paint {
    /// Every paint, in library order.
    pub const ALL: [Paint; 19] = [
        Paint::Hull,
        Paint::Camo,
        Paint::Joint,
        Paint::Glass,
        Paint::Blink,
        Paint::Metal,
        Paint::Exhaust,
        Paint::Decal,
        Paint::Concrete,
        Paint::Roof,
        Paint::Water,
        Paint::Sign,
        Paint::Bark,
        Paint::Leaves,
        Paint::Rock,
        Paint::Fire,
        Paint::Laser,
        Paint::Smoke,
        Paint::Plate,
    ];

    fn stem(self) -> &'static str {
        match self {
            Paint::Hull => "HULL",
            Paint::Camo => "CAMO",
            Paint::Joint => "JOINT",
            Paint::Glass => "GLASS",
            Paint::Blink => "BLINK",
            Paint::Metal => "METAL",
            Paint::Exhaust => "SOOT",
            Paint::Decal => "DECAL",
            Paint::Concrete => "CONCRETE",
            Paint::Roof => "ROOF",
            Paint::Water => "WATER",
            Paint::Sign => "SIGN",
            Paint::Bark => "BARK",
            Paint::Leaves => "LEAVES",
            Paint::Rock => "ROCK",
            Paint::Fire => "FIRE",
            Paint::Laser => "LASER",
            Paint::Smoke => "SMOKE",
            Paint::Plate => "PLATE",
        }
    }

    /// Whether generated variants get their own material and texture.
    fn varies(self) -> bool {
        matches!(
            self,
            Paint::Hull
                | Paint::Camo
                | Paint::Joint
                | Paint::Metal
                | Paint::Concrete
                | Paint::Roof
                | Paint::Bark
                | Paint::Leaves
                | Paint::Rock
                | Paint::Plate
        )
    }

    /// The material name of this paint for a variant (`None`: the base set).
    pub fn material(self, variant: Option<u32>) -> String {
        format!("M_{}{}", self.stem(), suffix(self, variant))
    }

    /// The textures this paint's phases name (before deduplication).
    fn own_texture(self, variant: Option<u32>) -> Option<TexSpec> {
        let tint = |base: [u8; 3]| match variant {
            None => base,
            Some(v) => base.map(|c| c.wrapping_add((v * 37 % 64) as u8)),
        };
        let (look, format) = match self {
            Paint::Hull => (Look::Panels(tint([120, 130, 110])), PixelFormat::Argb8888),
            Paint::Camo => (
                Look::Camo(tint([90, 110, 60]), [60, 70, 40]),
                PixelFormat::Xrgb888,
            ),
            Paint::Joint => (Look::Panels(tint([60, 60, 70])), PixelFormat::Rgb565),
            Paint::Plate => (Look::Panels(tint([100, 100, 120])), PixelFormat::Xrgb888),
            Paint::Metal => (Look::Grey(tint([170, 0, 0])[0]), PixelFormat::Rgb565),
            Paint::Concrete => (Look::Grey(tint([200, 0, 0])[0]), PixelFormat::Rgb565),
            Paint::Roof => (Look::Streaks(tint([140, 60, 50])), PixelFormat::Rgb556),
            Paint::Bark => (Look::Streaks(tint([100, 70, 40])), PixelFormat::Rgb556),
            Paint::Leaves => (Look::Leaves, PixelFormat::Argb8888),
            Paint::Rock => (Look::Grey(tint([150, 0, 0])[0]), PixelFormat::La88),
            Paint::Exhaust => (Look::Grey(60), PixelFormat::La88),
            Paint::Glass => (Look::Glow([120, 180, 255]), PixelFormat::Argb4444),
            Paint::Laser => (Look::Glow([255, 60, 40]), PixelFormat::Argb8888),
            Paint::Smoke => (Look::Glow([150, 150, 150]), PixelFormat::Argb4444),
            Paint::Fire => (Look::Explosion, PixelFormat::Argb4444),
            Paint::Blink | Paint::Decal | Paint::Water | Paint::Sign => return None,
        };
        Some(TexSpec {
            name: format!("T_{}{}", self.stem(), suffix(self, variant)),
            look,
            size: 64,
            format,
            mips: !matches!(self, Paint::Fire | Paint::Exhaust),
        })
    }

    /// The texture names of the phases, in phase order.
    fn phase_textures(self, variant: Option<u32>) -> Vec<String> {
        match self {
            Paint::Blink => vec![LAMP_ON.into(), LAMP_OFF.into()],
            Paint::Decal => vec![String::new()], // intentionally untextured
            Paint::Water => (0..WATER_FRAMES).map(water_name).collect(),
            Paint::Sign => vec![SIGN.into()],
            // Two phases of one texture (clean and worn; animated for camo,
            // fire and smoke).
            Paint::Hull | Paint::Plate | Paint::Camo | Paint::Fire | Paint::Smoke => {
                let t = self
                    .own_texture(variant)
                    .map(|t| t.name)
                    .unwrap_or_default();
                vec![t.clone(), t]
            }
            _ => self
                .own_texture(variant)
                .map(|t| vec![t.name])
                .unwrap_or_default(),
        }
    }

    /// (version, directory flags) of the material.
    fn version_flags(self) -> (u32, u32) {
        match self {
            Paint::Decal => (1, 0),
            Paint::Roof => (2, 0),
            Paint::Glass | Paint::Smoke => (3, 1 << 2),
            Paint::Leaves => (4, 2 << 2),
            Paint::Fire | Paint::Laser => (4, 3 << 2),
            Paint::Hull => (4, 2), // bump
            _ => (4, 0),
        }
    }

    /// The animation block of the paint, if it has one.
    fn animation(self) -> Option<Animation> {
        let (mode, mask, keys): (u32, u32, &'static [(u16, u16)]) = match self {
            Paint::Blink => (0, 0, &[(0, 0), (1, 400), (0, 800)]),
            Paint::Water => (
                0,
                0x3FFFF,
                &[(0, 0), (1, 250), (2, 500), (3, 750), (0, 1000)],
            ),
            Paint::Camo => (1, 0x7, &[(0, 0), (1, 2000)]),
            Paint::Fire => (2, 0xF, &[(0, 0), (1, 300)]),
            Paint::Smoke => (3, 0xF, &[(0, 0), (1, 600), (0, 1200)]),
            _ => return None,
        };
        Some(Animation { mode, mask, keys })
    }
}

/// A MAT0 animation block: mode (header bits 0..2), interpolation mask
/// (bits 3..) and keys of (phase, time in ticks).
struct Animation {
    mode: u32,
    mask: u32,
    keys: &'static [(u16, u16)],
}

fn suffix(paint: Paint, variant: Option<u32>) -> String {
    match variant {
        Some(v) if paint.varies() => format!("_{v:03}"),
        _ => String::new(),
    }
}

/// Textures shared by every variant.
pub const LAMP_ON: &str = "T_LAMP_ON";
pub const LAMP_OFF: &str = "T_LAMP_OFF";
/// Indexed, palette from `Palettes.lib` slot `B` (name suffix `.B`).
pub const SIGN: &str = "T_SIGN.B";
/// Frames of the scrolling water.
pub const WATER_FRAMES: u32 = 4;

pub fn water_name(frame: u32) -> String {
    format!("T_WATER{frame}")
}

/// The lamp textures (ARGB 4444).
pub fn lamp_textures() -> Vec<TexSpec> {
    [(LAMP_ON, true), (LAMP_OFF, false)]
        .into_iter()
        .map(|(name, lit)| TexSpec {
            name: name.into(),
            look: Look::Lamp(lit),
            size: 32,
            format: PixelFormat::Argb4444,
            mips: true,
        })
        .collect()
}

/// The textures of the paints of one variant set (`None`: the base set),
/// without the shared specials (lamps, water, sign).
pub fn textures(variant: Option<u32>) -> Vec<TexSpec> {
    Paint::ALL
        .iter()
        .filter(|p| variant.is_none() || p.varies())
        .filter_map(|p| p.own_texture(variant))
        .collect()
}

/// The 18 phase parameter bytes: raw; generated as a colour, a level and
/// a phase-dependent intensity.
fn parameters(paint: Paint, phase: usize) -> [u8; 18] {
    let mut p = [0u8; 18];
    let k = paint as u8;
    p[..4].copy_from_slice(&[200 - k * 4, 200, 180 + k, 255]);
    p[4] = if phase.is_multiple_of(2) { 255 } else { 64 };
    p[8] = 128;
    p[12] = phase as u8;
    p
}

/// A `Material.lib` entry: name, directory attributes and MAT0 payload.
pub struct MaterialEntry {
    pub name: String,
    pub attr1: u32,
    pub attr2: u32,
    pub payload: Vec<u8>,
}

/// The materials of one variant set.
pub fn materials(variant: Option<u32>) -> Result<Vec<MaterialEntry>> {
    let mut out = Vec::new();
    for paint in Paint::ALL {
        if variant.is_some() && !paint.varies() {
            continue;
        }
        out.push(material(paint, paint.material(variant), variant)?);
    }
    Ok(out)
}

/// The `DEFAULT` material of the fallback chain.
pub fn default_material() -> Result<MaterialEntry> {
    material(Paint::Metal, "DEFAULT".into(), None)
}

fn material(paint: Paint, name: String, variant: Option<u32>) -> Result<MaterialEntry> {
    let (version, flags) = paint.version_flags();
    let mut m = Mat0::new(version, flags);
    if version >= 2 {
        (m.src_blend, m.dst_blend) = (5, 6);
    }
    if version >= 3 && matches!(paint, Paint::Glass | Paint::Smoke) {
        m.alpha_raw = 0.5f32.to_bits();
    }
    if paint == Paint::Blink {
        m.emissive_raw = 1.0f32.to_bits();
    }
    for (i, tex) in paint.phase_textures(variant).iter().enumerate() {
        m.phases
            .push(Phase::new(parameters(paint, i), tex.as_bytes())?);
    }
    if let Some(a) = paint.animation() {
        m.animations.push(AnimBlock {
            header: a.mode | a.mask << 3,
            keys: a
                .keys
                .iter()
                .map(|&(k0, k1)| AnimKey { k0, k1, k2: 0 })
                .collect(),
        });
    }
    let (attr1, attr2) = m.directory_attrs();
    Ok(MaterialEntry {
        name,
        attr1,
        attr2,
        payload: m.to_bytes()?,
    })
}

/// A sky material: material, texture, its look, (source, destination)
/// blend.
pub type SkySprite = (&'static str, &'static str, Look, (u8, u8));

/// The sky's materials (`sky.wea` roles 3 to 6: the sun, the moon, the
/// flare's two; role 2 the clouds, role 0 the nebula, 7 the snow's flake
/// and 8 the rain's drop): material, texture
/// (the sprites round glows fading to transparent, the clouds a tile of
/// puffs, the nebula stars and gas), its look and its blend (SRCALPHA /
/// INVSRCALPHA for the bodies, the clouds and the nebula, SRCALPHA / ONE
/// for the flare, as the retail sky materials).
pub const SKY_SPRITES: [SkySprite; 8] = [
    ("ENV_SUN", "T_SUN", Look::Glow([255, 236, 190]), (5, 6)),
    ("ENV_MOON", "T_MOON", Look::Glow([205, 215, 255]), (5, 6)),
    (
        "ENV_FLARE1",
        "T_FLARE1",
        Look::Glow([255, 255, 255]),
        (5, 2),
    ),
    (
        "ENV_FLARE2",
        "T_FLARE2",
        Look::Glow([210, 225, 255]),
        (5, 2),
    ),
    ("ENV_CLOUDS", "T_CLOUDS", Look::Clouds, (5, 6)),
    ("ENV_NEBULA", "T_NEBULA", Look::Nebula, (5, 6)),
    ("ENV_SNOW", "T_SNOW", Look::Glow([255, 255, 255]), (5, 6)),
    ("ENV_RAIN", "T_RAIN", Look::Glow([190, 200, 220]), (5, 6)),
];

/// The sky materials' textures.
pub fn sky_textures() -> Vec<TexSpec> {
    SKY_SPRITES
        .iter()
        .map(|&(_, texture, look, _)| TexSpec {
            name: texture.into(),
            look,
            // The clouds and the nebula stretch over thousands of units:
            // more texels; the nebula has no alpha (RGB 565, as retail).
            size: match look {
                Look::Nebula => 256,
                Look::Clouds => 128,
                _ => 64,
            },
            format: if look == Look::Nebula {
                PixelFormat::Rgb565
            } else {
                PixelFormat::Argb8888
            },
            mips: true,
        })
        .collect()
}

/// The sky sprites' materials: one phase, blended as [`SKY_SPRITES`] says.
pub fn sky_materials() -> Result<Vec<MaterialEntry>> {
    SKY_SPRITES
        .iter()
        .map(|&(name, texture, _, blend)| {
            let mut m = Mat0::new(3, 1 << 2);
            (m.src_blend, m.dst_blend) = blend;
            let mut parameters = [0u8; 18];
            parameters[..5].copy_from_slice(&[255; 5]);
            m.phases.push(Phase::new(parameters, texture.as_bytes())?);
            let (attr1, attr2) = m.directory_attrs();
            Ok(MaterialEntry {
                name: name.into(),
                attr1,
                attr2,
                payload: m.to_bytes()?,
            })
        })
        .collect()
}
