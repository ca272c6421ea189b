//! `Texm`: the texture format of Iron3D (tome V "Texm", FACTS.md "Texm").
//!
//! Layout: a 32-byte header, a 1024-byte palette for the indexed format, the
//! mip chain (level `i` is `max(1, width >> i) x max(1, height >> i)` pixels),
//! then nothing or exactly one `Page` chunk of atlas rectangles.
//!
//! The reader keeps every header word raw (`flags4`, `flags5`, `unknown6`), the
//! fourth byte of 888 pixels and of palette entries, so [`Texm::to_bytes`] gives
//! back the input byte for byte. Decoding goes to RGBA8 with short channels
//! expanded by bit replication; the encoders ([`Texm::from_rgba`]) build every
//! format from RGBA8 with a box-filtered mip chain. Mip-skip is a load-time
//! choice ([`Texm::skipped`]), and palettes of `Palettes.lib` are chosen by the
//! texture name suffix ([`palette_slot`], [`PaletteLib`]).

pub mod info;
pub mod palette;

pub use info::TexmInfo;
pub use palette::{Palette, PaletteLib, PaletteSlot, palette_slot};

use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};

const FORMAT: &str = "Texm";
/// Size of the fixed header.
pub const HEADER_SIZE: usize = 32;
/// Size of the palette of the indexed format: 256 entries of B, G, R, X.
pub const PALETTE_SIZE: usize = 1024;
/// `flags5` bit: alpha surface, palette index 0 is transparent.
pub const FLAG5_ALPHA_SURFACE: u32 = 0x0100_0000;
/// `flags5` bit: a 32-step palette fade (kept raw, no effect on decoding).
pub const FLAG5_PALETTE_FADE: u32 = 0x0200_0000;
/// The value of `flags4` on mip-mapped retail textures (0 otherwise).
pub const FLAGS4_MIPMAPPED: u32 = 32;

/// Pixel format, stored as its decimal name in the header's `format` word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum PixelFormat {
    /// 0: one byte index into the palette that follows the header.
    Indexed8,
    /// 565: u16, R bits 11-15, G 5-10, B 0-4.
    Rgb565,
    /// 556: u16, R bits 11-15, G 6-10, B 0-5 (no retail sample).
    Rgb556,
    /// 4444: u16, A bits 12-15, R 8-11, G 4-7, B 0-3.
    Argb4444,
    /// 88: u16, A high byte, L low byte (no retail sample).
    La88,
    /// 888: u32 XRGB, memory B, G, R, X (X kept).
    Xrgb888,
    /// 8888: u32 ARGB, memory B, G, R, A.
    Argb8888,
}

impl PixelFormat {
    /// Every format, in the order of FACTS.md.
    pub const ALL: [PixelFormat; 7] = [
        PixelFormat::Argb8888,
        PixelFormat::Xrgb888,
        PixelFormat::Rgb565,
        PixelFormat::Argb4444,
        PixelFormat::Rgb556,
        PixelFormat::La88,
        PixelFormat::Indexed8,
    ];

    /// The format of a header `format` word.
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0 => Self::Indexed8,
            565 => Self::Rgb565,
            556 => Self::Rgb556,
            4444 => Self::Argb4444,
            88 => Self::La88,
            888 => Self::Xrgb888,
            8888 => Self::Argb8888,
            _ => return None,
        })
    }

    /// The header `format` word.
    pub fn code(self) -> u32 {
        match self {
            Self::Indexed8 => 0,
            Self::Rgb565 => 565,
            Self::Rgb556 => 556,
            Self::Argb4444 => 4444,
            Self::La88 => 88,
            Self::Xrgb888 => 888,
            Self::Argb8888 => 8888,
        }
    }

    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            Self::Indexed8 => 1,
            Self::Rgb565 | Self::Rgb556 | Self::Argb4444 | Self::La88 => 2,
            Self::Xrgb888 | Self::Argb8888 => 4,
        }
    }
}

/// Expands a 4-bit channel to 8 bits (`v * 17`).
pub fn expand4(v: u16) -> u8 {
    (v as u8 & 0x0f) * 17
}

/// Expands a 5-bit channel to 8 bits (`(v << 3) | (v >> 2)`).
pub fn expand5(v: u16) -> u8 {
    let v = v as u8 & 0x1f;
    (v << 3) | (v >> 2)
}

/// Expands a 6-bit channel to 8 bits (`(v << 2) | (v >> 4)`).
pub fn expand6(v: u16) -> u8 {
    let v = v as u8 & 0x3f;
    (v << 2) | (v >> 4)
}

/// One atlas rectangle of a `Page` chunk, in pixels of the base level. Field
/// order is the stored order: x, width, y, height (all i16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PageRect {
    pub x: i16,
    pub width: i16,
    pub y: i16,
    pub height: i16,
}

impl PageRect {
    /// The rectangle in pixels of the level `skip` levels below the base
    /// (arithmetic shift right, like the loader's new base level).
    pub fn scaled(self, skip: u32) -> PageRect {
        let s = skip.min(15);
        PageRect {
            x: self.x >> s,
            width: self.width >> s,
            y: self.y >> s,
            height: self.height >> s,
        }
    }

    /// Normalised texture coordinates `[u0, v0, u1, v1]` over a base level of
    /// `width x height` (the runtime divides by `width << skip`, which is the
    /// stored base width, so the result does not depend on the mip-skip).
    pub fn uv(self, width: u32, height: u32) -> [f32; 4] {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        [
            self.x as f32 / w,
            self.y as f32 / h,
            (self.x as f32 + self.width as f32) / w,
            (self.y as f32 + self.height as f32) / h,
        ]
    }
}

/// An RGBA8 image, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba8Image {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// How the encoder builds the mip chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mips {
    /// Only the base level (`flags4` = 0).
    None,
    /// Down to 1x1 (`flags4` = 32).
    Full,
    /// This many levels, 1..=32 (`flags4` = 32 when more than one).
    Count(u32),
}

/// A parsed `Texm` payload. `levels.len()` is the stored mip count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texm {
    pub width: u32,
    pub height: u32,
    /// `+0x10`, raw (32 on mip-mapped retail textures, else 0).
    pub flags4: u32,
    /// `+0x14`, raw ([`FLAG5_ALPHA_SURFACE`], [`FLAG5_PALETTE_FADE`]).
    pub flags5: u32,
    /// `+0x18`, never read by the engine; kept raw.
    pub unknown6: u32,
    pub format: PixelFormat,
    /// The palette after the header: `Some` exactly for [`PixelFormat::Indexed8`].
    pub palette: Option<Palette>,
    /// Raw pixel bytes of each mip level, base level first.
    pub levels: Vec<Vec<u8>>,
    /// The `Page` chunk, when present.
    pub page: Option<Vec<PageRect>>,
}

/// Size of mip level `level` of a `width x height` texture.
pub fn level_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    let dim = |d: u32| d.checked_shr(level).unwrap_or(0).max(1);
    (dim(width), dim(height))
}

/// Byte size of a `width x height` level, with overflow checks.
fn level_bytes(width: u32, height: u32, format: PixelFormat, offset: usize) -> Result<usize> {
    (width as usize)
        .checked_mul(height as usize)
        .and_then(|n| n.checked_mul(format.bytes_per_pixel()))
        .ok_or_else(|| FormatError::overflow(FORMAT, offset as u64, "mip level size"))
}

impl Texm {
    /// Parses a `Texm` payload strictly: positive size and mip count, known
    /// format, exact palette and mip chain sizes, nothing or one exact `Page`
    /// chunk after the chain.
    pub fn parse(data: &[u8]) -> Result<Texm> {
        let mut c = Cursor::new(data, FORMAT);
        c.expect_magic(b"Texm")?;
        let width = c.u32()?;
        let height = c.u32()?;
        let mip_count = c.u32()?;
        let flags4 = c.u32()?;
        let flags5 = c.u32()?;
        let unknown6 = c.u32()?;
        let format_code = c.u32()?;
        if width == 0 || height == 0 {
            return Err(c.invalid_at(4, "positive width and height", format!("{width}x{height}")));
        }
        let format = PixelFormat::from_code(format_code).ok_or_else(|| {
            c.invalid_at(
                0x1c,
                "format 0, 565, 556, 4444, 88, 888 or 8888",
                format_code,
            )
        })?;
        let palette = if format == PixelFormat::Indexed8 {
            Some(Palette::from_bytes(c.bytes(PALETTE_SIZE)?)?)
        } else {
            None
        };
        if mip_count == 0 {
            return Err(c.invalid_at(0x0c, "mip count of at least 1", 0));
        }
        // Each level holds at least one pixel: this bounds the loop and the
        // allocation of the level list by the bytes actually present.
        let levels_n = c.checked_count(mip_count as u64, format.bytes_per_pixel(), "mip levels")?;
        let mut levels = Vec::with_capacity(levels_n);
        for level in 0..mip_count {
            let (w, h) = level_size(width, height, level);
            let n = level_bytes(w, h, format, c.pos())?;
            levels.push(c.bytes(n)?.to_vec());
        }
        let page = if c.at_end() {
            None
        } else {
            Some(parse_page(&mut c)?)
        };
        c.expect_end()?;
        Ok(Texm {
            width,
            height,
            flags4,
            flags5,
            unknown6,
            format,
            palette,
            levels,
            page,
        })
    }

    /// Stored mip count.
    pub fn mip_count(&self) -> u32 {
        self.levels.len() as u32
    }

    /// The payload bytes (byte-identical to the parsed input).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.check()?;
        let mut out = Vec::new();
        out.extend_from_slice(b"Texm");
        for word in [
            self.width,
            self.height,
            self.mip_count(),
            self.flags4,
            self.flags5,
            self.unknown6,
            self.format.code(),
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        if let Some(p) = &self.palette {
            out.extend_from_slice(&p.to_bytes());
        }
        for level in &self.levels {
            out.extend_from_slice(level);
        }
        if let Some(rects) = &self.page {
            out.extend_from_slice(b"Page");
            out.extend_from_slice(&(rects.len() as u32).to_le_bytes());
            for r in rects {
                for v in [r.x, r.width, r.y, r.height] {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        Ok(out)
    }

    /// Checks the invariants the writer relies on (sizes, palette presence).
    fn check(&self) -> Result<()> {
        let bad = |what: &str, found: String| Err(FormatError::invalid(FORMAT, 0, what, found));
        if self.width == 0 || self.height == 0 {
            return bad(
                "positive width and height",
                format!("{}x{}", self.width, self.height),
            );
        }
        if self.levels.is_empty() || self.levels.len() > 32 {
            return bad("1..=32 mip levels", self.levels.len().to_string());
        }
        if self.palette.is_some() != (self.format == PixelFormat::Indexed8) {
            return bad(
                "a palette exactly for the indexed format",
                format!("{:?}", self.format),
            );
        }
        for (i, level) in self.levels.iter().enumerate() {
            let (w, h) = level_size(self.width, self.height, i as u32);
            let n = level_bytes(w, h, self.format, 0)?;
            if level.len() != n {
                return bad(
                    &format!("{n} bytes in mip level {i}"),
                    level.len().to_string(),
                );
            }
        }
        Ok(())
    }

    /// Size of mip level `level`.
    pub fn level_dims(&self, level: u32) -> (u32, u32) {
        level_size(self.width, self.height, level)
    }

    /// Decodes mip level `level` to RGBA8 with the texture's own palette.
    pub fn decode_level(&self, level: u32) -> Result<Rgba8Image> {
        self.decode_level_with(level, None)
    }

    /// Decodes mip level `level` to RGBA8; an indexed texture uses `palette`
    /// when given (a `Palettes.lib` palette chosen by name suffix), else its
    /// own.
    pub fn decode_level_with(&self, level: u32, palette: Option<&Palette>) -> Result<Rgba8Image> {
        let raw = self.levels.get(level as usize).ok_or_else(|| {
            FormatError::invalid(
                FORMAT,
                0,
                format!("a mip level below {}", self.levels.len()),
                level,
            )
        })?;
        let (width, height) = self.level_dims(level);
        let bpp = self.format.bytes_per_pixel();
        // Pre-sized output, one fixed-size chunk per pixel: no per-pixel
        // bounds checks or reallocation.
        let mut pixels = vec![0u8; raw.len() / bpp * 4];
        let out = pixels.chunks_exact_mut(4);
        match self.format {
            PixelFormat::Indexed8 => {
                let pal = palette
                    .or(self.palette.as_ref())
                    .ok_or_else(|| FormatError::missing(FORMAT, "palette of an indexed texture"))?;
                let transparent0 = self.flags5 & FLAG5_ALPHA_SURFACE != 0;
                for (px, &i) in out.zip(raw) {
                    px.copy_from_slice(&pal.rgba(i));
                    if transparent0 && i == 0 {
                        px[3] = 0;
                    }
                }
            }
            PixelFormat::Argb8888 | PixelFormat::Xrgb888 => {
                // B, G, R, A in memory -> R, G, B, A: swap bytes 0 and 2 of
                // the little-endian word; 888 forces alpha to 255.
                let alpha = if self.format == PixelFormat::Xrgb888 {
                    0xFF00_0000
                } else {
                    0
                };
                for (px, s) in out.zip(raw.chunks_exact(4)) {
                    let v = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                    let rgba = (v & 0xFF00_FF00) | ((v >> 16) & 0xFF) | ((v & 0xFF) << 16) | alpha;
                    px.copy_from_slice(&rgba.to_le_bytes());
                }
            }
            f => {
                for (px, s) in out.zip(raw.chunks_exact(2)) {
                    px.copy_from_slice(&decode16(f, u16::from_le_bytes([s[0], s[1]])));
                }
            }
        }
        Ok(Rgba8Image {
            width,
            height,
            pixels,
        })
    }

    /// The texture as the loader sees it after skipping `skip` top mip levels:
    /// new base size, fewer levels, `Page` rectangles scaled to the new base.
    /// `skip` must leave at least one level.
    pub fn skipped(&self, skip: u32) -> Result<Texm> {
        if skip as usize >= self.levels.len() {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("a mip-skip below the mip count {}", self.levels.len()),
                skip,
            ));
        }
        let (width, height) = self.level_dims(skip);
        Ok(Texm {
            width,
            height,
            levels: self.levels[skip as usize..].to_vec(),
            page: self
                .page
                .as_ref()
                .map(|rects| rects.iter().map(|r| r.scaled(skip)).collect()),
            palette: self.palette.clone(),
            ..*self
        })
    }

    /// Encodes an RGBA8 image as a texture of `format` with a box-filtered mip
    /// chain. The indexed format takes its palette from `palette`, or builds
    /// one from the image's colours (at most 256, else an error); pixels are
    /// matched to the nearest palette entry.
    pub fn from_rgba(
        image: &Rgba8Image,
        format: PixelFormat,
        mips: Mips,
        palette: Option<Palette>,
    ) -> Result<Texm> {
        let expected = (image.width as usize)
            .checked_mul(image.height as usize)
            .and_then(|n| n.checked_mul(4));
        if image.width == 0 || image.height == 0 || expected != Some(image.pixels.len()) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "a non-empty RGBA8 image of width x height x 4 bytes",
                format!(
                    "{}x{} with {} bytes",
                    image.width,
                    image.height,
                    image.pixels.len()
                ),
            ));
        }
        let full = 32 - image.width.max(image.height).leading_zeros();
        let count = match mips {
            Mips::None => 1,
            Mips::Full => full,
            Mips::Count(n) if (1..=32).contains(&n) => n,
            Mips::Count(n) => {
                return Err(FormatError::invalid(FORMAT, 0, "1..=32 mip levels", n));
            }
        };
        let palette = match (format, palette) {
            (PixelFormat::Indexed8, Some(p)) => Some(p),
            (PixelFormat::Indexed8, None) => Some(palette_of(image)?),
            _ => None,
        };
        let mut levels = Vec::with_capacity(count as usize);
        let mut current = image.clone();
        for level in 0..count {
            if level > 0 {
                current = downsample(&current);
            }
            levels.push(encode_pixels(&current.pixels, format, palette.as_ref()));
        }
        Ok(Texm {
            width: image.width,
            height: image.height,
            flags4: if count > 1 { FLAGS4_MIPMAPPED } else { 0 },
            flags5: 0,
            unknown6: 0,
            format,
            palette,
            levels,
            page: None,
        })
    }
}

/// Reads the `Page` chunk at the cursor: magic, count, exactly count rects.
fn parse_page(c: &mut Cursor) -> Result<Vec<PageRect>> {
    c.expect_magic(b"Page")?;
    let count = c.u32()?;
    let n = c.checked_count(count as u64, 8, "Page rectangles")?;
    let mut rects = Vec::with_capacity(n);
    for _ in 0..n {
        rects.push(PageRect {
            x: c.i16()?,
            width: c.i16()?,
            y: c.i16()?,
            height: c.i16()?,
        });
    }
    Ok(rects)
}

/// Decodes one 16-bit pixel of a 16-bit format to RGBA8.
fn decode16(format: PixelFormat, v: u16) -> [u8; 4] {
    match format {
        PixelFormat::Rgb565 => [expand5(v >> 11), expand6(v >> 5), expand5(v), 255],
        PixelFormat::Rgb556 => [expand5(v >> 11), expand5(v >> 6), expand6(v), 255],
        PixelFormat::Argb4444 => [
            expand4(v >> 8),
            expand4(v >> 4),
            expand4(v),
            expand4(v >> 12),
        ],
        // La88 (the only other 16-bit format).
        _ => {
            let l = v as u8;
            [l, l, l, (v >> 8) as u8]
        }
    }
}

/// Encodes RGBA8 pixels to the stored bytes of `format` (truncating short
/// channels, which inverts bit replication exactly).
fn encode_pixels(rgba: &[u8], format: PixelFormat, palette: Option<&Palette>) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgba.len() / 4 * format.bytes_per_pixel());
    for px in rgba.chunks_exact(4) {
        let [r, g, b, a] = [px[0] as u16, px[1] as u16, px[2] as u16, px[3] as u16];
        let word = match format {
            PixelFormat::Indexed8 => {
                out.push(palette.map_or(0, |p| nearest(p, [px[0], px[1], px[2]])));
                continue;
            }
            PixelFormat::Argb8888 => {
                out.extend_from_slice(&[px[2], px[1], px[0], px[3]]);
                continue;
            }
            PixelFormat::Xrgb888 => {
                out.extend_from_slice(&[px[2], px[1], px[0], 0xff]);
                continue;
            }
            PixelFormat::Rgb565 => (r >> 3) << 11 | (g >> 2) << 5 | b >> 3,
            PixelFormat::Rgb556 => (r >> 3) << 11 | (g >> 3) << 6 | b >> 2,
            PixelFormat::Argb4444 => (a >> 4) << 12 | (r >> 4) << 8 | (g >> 4) << 4 | b >> 4,
            // Integer luma; exact for grey pixels (77 + 150 + 29 = 256).
            PixelFormat::La88 => a << 8 | (r * 77 + g * 150 + b * 29) >> 8,
        };
        out.extend_from_slice(&word.to_le_bytes());
    }
    out
}

/// The palette entry closest to `rgb` (squared distance, lowest index on ties).
fn nearest(palette: &Palette, rgb: [u8; 3]) -> u8 {
    let mut best = (u32::MAX, 0u8);
    for (i, e) in palette.0.iter().enumerate() {
        let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2) as u32;
        let dist = d(e[2], rgb[0]) + d(e[1], rgb[1]) + d(e[0], rgb[2]);
        if dist < best.0 {
            best = (dist, i as u8);
        }
    }
    best.1
}

/// A palette of the distinct colours of `image` in first-seen order.
fn palette_of(image: &Rgba8Image) -> Result<Palette> {
    let mut colours: Vec<[u8; 4]> = Vec::new();
    for px in image.pixels.chunks_exact(4) {
        let c = [px[0], px[1], px[2], 255];
        if !colours.contains(&c) {
            if colours.len() == 256 {
                return Err(FormatError::invalid(
                    FORMAT,
                    0,
                    "at most 256 distinct colours for an indexed texture without a palette",
                    "more",
                ));
            }
            colours.push(c);
        }
    }
    Palette::from_rgba(&colours)
}

/// The next mip level: each pixel is the rounded mean of its 2x2 source block
/// (clamped at the edge for odd sizes).
fn downsample(src: &Rgba8Image) -> Rgba8Image {
    let (w, h) = ((src.width / 2).max(1), (src.height / 2).max(1));
    let mut pixels = Vec::with_capacity(w as usize * h as usize * 4);
    let at = |x: u32, y: u32, ch: usize| {
        let (x, y) = (x.min(src.width - 1), y.min(src.height - 1));
        src.pixels[(y as usize * src.width as usize + x as usize) * 4 + ch] as u32
    };
    for y in 0..h {
        for x in 0..w {
            for ch in 0..4 {
                let sum = at(2 * x, 2 * y, ch)
                    + at(2 * x + 1, 2 * y, ch)
                    + at(2 * x, 2 * y + 1, ch)
                    + at(2 * x + 1, 2 * y + 1, ch);
                pixels.push(((sum + 2) / 4) as u8);
            }
        }
    }
    Rgba8Image {
        width: w,
        height: h,
        pixels,
    }
}

/// Writes an RGBA8 image as a PNG file's bytes.
pub fn png_bytes(image: &Rgba8Image) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, image.width, image.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let io = |e: png::EncodingError| {
            FormatError::new(
                "png",
                0,
                Problem::Io {
                    message: e.to_string(),
                },
            )
        };
        let mut w = enc.write_header().map_err(io)?;
        w.write_image_data(&image.pixels).map_err(io)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    fn header(w: u32, h: u32, mips: u32, format: u32) -> Vec<u8> {
        let mut v = b"Texm".to_vec();
        for x in [w, h, mips, 0, 0, 0, format] {
            v.extend_from_slice(&x.to_le_bytes());
        }
        v
    }

    #[test]
    fn channel_expansion_replicates_high_bits() {
        assert_eq!(expand5(0), 0);
        assert_eq!(expand5(0x1f), 255);
        assert_eq!(expand5(0b10000), 0b1000_0100);
        assert_eq!(expand6(0x3f), 255);
        assert_eq!(expand6(0b100000), 0b1000_0010);
        assert_eq!(expand4(0xf), 255);
        assert_eq!(expand4(0x8), 0x88);
    }

    #[test]
    fn mip_chain_sizes_clamp_to_one() {
        assert_eq!(level_size(8, 2, 0), (8, 2));
        assert_eq!(level_size(8, 2, 2), (2, 1));
        assert_eq!(level_size(8, 2, 40), (1, 1));
    }

    #[test]
    fn huge_mip_count_is_refused_before_looping() {
        let mut v = header(1, 1, u32::MAX, 8888);
        v.extend_from_slice(&[0; 4]);
        expect_error(
            Texm::parse(&v),
            32,
            "Texm: expected mip levels: 4294967295 x 4 bytes within the 4 remaining, \
             found 17179869180 bytes needed",
        );
    }

    #[test]
    fn palette_slots_cover_286_names() {
        assert_eq!(PaletteSlot::from_suffix(b"A").unwrap().index(), 0);
        assert_eq!(PaletteSlot::from_suffix(b"A0").unwrap().index(), 1);
        assert_eq!(PaletteSlot::from_suffix(b"z9").unwrap().index(), 285);
        assert_eq!(
            PaletteSlot::from_suffix(b"B3").unwrap().entry_name(),
            "B3.pal"
        );
        let refused = |suffix: &str| {
            format!(
                "palette: expected palette suffix: a letter A..Z, then nothing or one digit 0..9, \
                 found \"{suffix}\""
            )
        };
        for bad in ["", "AB", "1", "A10", "TEX", "_"] {
            expect_error(PaletteSlot::from_suffix(bad.as_bytes()), 0, &refused(bad));
        }
        assert_eq!(palette_slot(b"TREE").unwrap(), None);
        assert_eq!(
            palette_slot(b"TREE.C5").unwrap(),
            Some(PaletteSlot {
                letter: b'C',
                digit: Some(5)
            })
        );
        expect_error(palette_slot(b"TREE.TEX"), 0, &refused("TEX"));
    }

    #[test]
    fn page_rects_scale_with_mip_skip() {
        let r = PageRect {
            x: 64,
            width: 32,
            y: -8,
            height: 17,
        };
        assert_eq!(
            r.scaled(2),
            PageRect {
                x: 16,
                width: 8,
                y: -2,
                height: 4
            }
        );
        assert_eq!(r.uv(128, 64), [0.5, -0.125, 0.75, 0.140625]);
    }
}
