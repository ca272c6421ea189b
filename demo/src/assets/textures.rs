//! Procedural textures in every Texm format (FACTS.md), from integer noise:
//! the diffuse textures of `Textures.lib`, lightmaps, palettes and the font
//! and sprite images.

use super::noise::{fractal, hash3, value_noise};
use iron3d_formats::error::Result;
use iron3d_formats::texm::{
    FLAG5_ALPHA_SURFACE, FLAG5_PALETTE_FADE, FLAGS4_MIPMAPPED, Mips, PageRect, Palette,
    PixelFormat, Rgba8Image, Texm, level_size,
};

/// What a texture shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Riveted panels tinted with an RGB colour.
    Panels([u8; 3]),
    /// Two-colour camouflage blotches.
    Camo([u8; 3], [u8; 3]),
    /// Rough grey surface of a brightness.
    Grey(u8),
    /// Vertical streaks (bark, roof sheets) of a colour.
    Streaks([u8; 3]),
    /// Leaf clusters with transparent gaps.
    Leaves,
    /// A round lamp, lit or not.
    Lamp(bool),
    /// A translucent glow ramp (glass, laser, smoke) of a colour.
    Glow([u8; 3]),
    /// Four explosion frames in a 2x2 atlas (with a `Page` chunk).
    Explosion,
    /// White cloud puffs over transparent sky (a tile).
    Clouds,
    /// Ground at three scales: patches of `base` and `dark` a tile
    /// across, clumps a sixteenth of it, grain per texel, and specks of
    /// `speck` (grass blades, pebbles).
    Ground {
        base: [u8; 3],
        dark: [u8; 3],
        speck: [u8; 3],
    },
    /// A rock face: strata bent by noise, cracks, lichen-dark hollows.
    Rock([u8; 3]),
    /// Night sky: violet and blue gas over black, scattered stars
    /// (opaque, as the retail RGB 565 nebulae).
    Nebula,
}

/// A texture of a library: its entry name and how to make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TexSpec {
    pub name: String,
    pub look: Look,
    pub size: u32,
    pub format: PixelFormat,
    pub mips: bool,
}

fn rgba_image(size: u32, mut pixel: impl FnMut(u32, u32) -> [u8; 4]) -> Rgba8Image {
    let mut pixels = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            pixels.extend(pixel(x, y));
        }
    }
    Rgba8Image {
        width: size,
        height: size,
        pixels,
    }
}

/// `c * k / 255` per channel.
fn shade(c: [u8; 3], k: u32) -> [u8; 3] {
    c.map(|v| (v as u32 * k.min(255) / 255) as u8)
}

fn opaque([r, g, b]: [u8; 3]) -> [u8; 4] {
    [r, g, b, 255]
}

/// Squared distance from `(x, y)` to the centre of a `size` cell, in pixels.
fn dist2(x: u32, y: u32, size: u32) -> u32 {
    let c = size as i32 / 2;
    let (dx, dy) = (x as i32 - c, y as i32 - c);
    (dx * dx + dy * dy) as u32
}

/// The RGBA image of a look.
pub fn render(look: Look, size: u32, seed: u32) -> Rgba8Image {
    rgba_image(size, |x, y| {
        let n = fractal(seed, x, y, size);
        match look {
            Look::Panels(tint) => {
                let panel = size / 4;
                let seam = x % panel == 0 || y % panel == 0;
                let rivet = (x % panel == 3 || x % panel == panel - 3) && y % panel == 3;
                let k = if seam {
                    110
                } else if rivet {
                    255
                } else {
                    170 + n / 3
                };
                opaque(shade(tint, k))
            }
            Look::Camo(a, b) => opaque(shade(if n > 128 { a } else { b }, 200 + n / 5)),
            Look::Grey(level) => {
                let v = (level as u32 * (128 + n) / 255).min(255) as u8;
                opaque([v, v, v])
            }
            Look::Streaks(c) => {
                let streak = hash3(seed, x as i32, 0, 1) & 63;
                opaque(shade(c, 150 + streak + n / 4))
            }
            Look::Leaves => {
                let blob = fractal(seed ^ 0xA5A5, x, y, size);
                let alpha = if blob > 120 { 255 } else { 0 };
                [20 + (n / 6) as u8, 90 + (n / 3) as u8, 25, alpha]
            }
            Look::Lamp(lit) => {
                let r = size * size / 9;
                let inside = dist2(x, y, size) < r;
                match (inside, lit) {
                    (true, true) => [255, 240, 160, 255],
                    (true, false) => [90, 70, 40, 255],
                    _ => [40, 40, 45, 255],
                }
            }
            Look::Glow(c) => {
                let d = dist2(x, y, size).min(size * size / 4);
                let a = 255 - d * 255 / (size * size / 4);
                let [r, g, b] = shade(c, 160 + n / 3);
                [r, g, b, a as u8]
            }
            Look::Clouds => {
                // A soft ramp: puffs thin out over a wide band.
                let puff = n.saturating_sub(90) * 255 / 120;
                [255, 255, 255, puff.min(255) as u8]
            }
            Look::Ground { base, dark, speck } => ground(seed, x, y, size, [base, dark, speck]),
            Look::Rock(c) => rock(seed, x, y, size, c),
            Look::Nebula => {
                let gas = n.saturating_sub(110);
                let star = hash3(seed, x as i32, y as i32, 7).is_multiple_of(149);
                if star {
                    [190, 190, 215, 255]
                } else {
                    [
                        (6 + gas * 3 / 4).min(255) as u8,
                        (6 + gas / 4).min(255) as u8,
                        (18 + gas).min(255) as u8,
                        255,
                    ]
                }
            }
            Look::Explosion => {
                let half = size / 2;
                let frame = (y / half) * 2 + x / half;
                let d = dist2(x % half, y % half, half);
                let radius = half * half / 16 * (frame + 1);
                let heat = 255u32.saturating_sub(d * 255 / radius.max(1));
                let k = heat * (192 + n / 4) / 255;
                [
                    k.min(255) as u8,
                    (k * 3 / 4) as u8,
                    (k / 4) as u8,
                    heat as u8,
                ]
            }
        }
    })
}

/// `a` to `b` by `k` in 0..=255, per channel.
fn mix(a: [u8; 3], b: [u8; 3], k: u32) -> [u8; 3] {
    let k = k.min(255);
    std::array::from_fn(|i| ((u32::from(a[i]) * (255 - k) + u32::from(b[i]) * k) / 255) as u8)
}

/// A [`Look::Ground`] texel.
fn ground(seed: u32, x: u32, y: u32, size: u32, [base, dark, speck]: [[u8; 3]; 3]) -> [u8; 4] {
    let patches = value_noise(seed ^ 0x1234, x, y, (size / 2).max(1), 2);
    let clumps = value_noise(seed ^ 0x4321, x, y, (size / 16).max(1), 16);
    let grain = hash3(seed, x as i32, y as i32, 3) & 0x3F;
    let soil = mix(base, dark, (patches * 3 + clumps) / 4 * 3 / 2);
    let lit = 200 + grain;
    if hash3(seed, x as i32, y as i32, 5).is_multiple_of(23) && clumps > 100 {
        return opaque(shade(speck, lit));
    }
    opaque(shade(soil, lit))
}

/// A [`Look::Rock`] texel: eight layers across y bent by noise, each
/// its own shade, with dark seams between them and a few cracks down.
fn rock(seed: u32, x: u32, y: u32, size: u32, c: [u8; 3]) -> [u8; 4] {
    let size = size.max(8);
    let bend = value_noise(seed ^ 0x7777, x, y, size / 4, 4);
    let layer_at = y * 8 + bend * size / 64;
    let layer = layer_at / size;
    let band = 140 + hash3(seed, layer as i32, 0, 9) % 90;
    let seam = layer_at % size < size / 12;
    let crack_x = hash3(seed, layer as i32, 1, 13) % size;
    let crack = x.abs_diff(crack_x) < 2 && hash3(seed, layer as i32, 2, 17).is_multiple_of(3);
    let grain = value_noise(seed ^ 0x2468, x, y, 2, size / 2) / 6;
    let k = if seam || crack { 80 } else { band + grain };
    opaque(shade(c, k))
}

/// The 2x2 frame rectangles of the explosion atlas.
pub fn explosion_page(size: u32) -> Vec<PageRect> {
    let h = (size / 2) as i16;
    (0..4)
        .map(|i| PageRect {
            x: (i % 2) * h,
            width: h,
            y: (i / 2) * h,
            height: h,
        })
        .collect()
}

/// A 256-entry ramp palette between two colours (entries B, G, R, X).
pub fn ramp_palette(from: [u8; 3], to: [u8; 3]) -> Palette {
    let mut entries = [[0u8; 4]; 256];
    for (i, e) in entries.iter_mut().enumerate() {
        let mix = |a: u8, b: u8| ((a as u32 * (255 - i as u32) + b as u32 * i as u32) / 255) as u8;
        *e = [
            mix(from[2], to[2]),
            mix(from[1], to[1]),
            mix(from[0], to[0]),
            0,
        ];
    }
    Palette(entries)
}

/// An indexed texture: palette indices from noise (scrolled by `shift`
/// pixels, so successive frames of water move), a full mip chain sampled
/// from the base pattern.
pub fn indexed(size: u32, seed: u32, shift: u32, palette: Palette, flags5: u32) -> Texm {
    let count = 32 - size.leading_zeros();
    let levels = (0..count)
        .map(|level| {
            let (w, h) = level_size(size, size, level);
            let mut out = Vec::with_capacity((w * h) as usize);
            for y in 0..h {
                for x in 0..w {
                    let (sx, sy) = ((x << level) + shift, y << level);
                    out.push(fractal(seed, sx % size, sy % size, size) as u8);
                }
            }
            out
        })
        .collect();
    Texm {
        width: size,
        height: size,
        flags4: FLAGS4_MIPMAPPED,
        flags5,
        unknown6: 0,
        format: PixelFormat::Indexed8,
        palette: Some(palette),
        levels,
        page: None,
    }
}

/// Encodes a spec as a Texm payload.
pub fn encode(spec: &TexSpec, seed: u32) -> Result<Vec<u8>> {
    let image = render(spec.look, spec.size, seed);
    let mips = if spec.mips { Mips::Full } else { Mips::None };
    let mut texm = Texm::from_rgba(&image, spec.format, mips, None)?;
    if matches!(spec.look, Look::Leaves | Look::Glow(_) | Look::Clouds) {
        texm.flags5 |= FLAG5_ALPHA_SURFACE;
    }
    if spec.look == Look::Explosion {
        texm.page = Some(explosion_page(spec.size));
    }
    texm.to_bytes()
}

/// The water frames: indexed textures with their own palette (a 32-step
/// palette fade flagged), scrolled by a quarter tile per frame.
pub fn water_frame(size: u32, seed: u32, frame: u32) -> Result<Vec<u8>> {
    let palette = ramp_palette([10, 30, 90], [120, 190, 255]);
    indexed(size, seed, frame * size / 4, palette, FLAG5_PALETTE_FADE).to_bytes()
}

/// A lightmap: soft light from one corner with noise occlusion (RGB 565).
pub fn lightmap(size: u32, seed: u32) -> Result<Vec<u8>> {
    let image = rgba_image(size, |x, y| {
        let fall = 255 - (x + y) * 96 / (2 * size);
        let v = (fall * (200 + fractal(seed, x, y, size) / 5) / 255) as u8;
        [v, v, (v as u32 * 7 / 8) as u8, 255]
    });
    Texm::from_rgba(&image, PixelFormat::Rgb565, Mips::Count(2), None)?.to_bytes()
}

/// The font atlas: 16 x 16 cells of `cell` pixels, glyph shapes from a
/// hash of the character code (ARGB 4444, white on transparent).
pub fn font_atlas(cell: u32, seed: u32) -> Result<Texm> {
    let size = cell * 16;
    let image = rgba_image(size, |x, y| {
        let code = (y / cell) * 16 + x / cell;
        let (cx, cy) = (x % cell * 4 / cell, y % cell * 4 / cell);
        let on = code > 32 && (hash3(seed, code as i32, 0, 0) >> (cy * 4 + cx)) & 1 == 1;
        let margin = x % cell == 0 || y % cell == 0;
        if on && !margin {
            [255, 255, 255, 255]
        } else {
            [255, 255, 255, 0]
        }
    });
    Texm::from_rgba(&image, PixelFormat::Argb4444, Mips::None, None)
}
