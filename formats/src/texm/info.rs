//! A summary of a texture: format, size, mips, flags and Page rectangles.

use super::{FLAG5_ALPHA_SURFACE, FLAG5_PALETTE_FADE, PageRect, PixelFormat, Texm};

/// A summary of a texture (`iron3d texture info`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TexmInfo {
    pub format: PixelFormat,
    pub format_code: u32,
    pub width: u32,
    pub height: u32,
    pub mip_count: u32,
    pub mip_sizes: Vec<[u32; 2]>,
    pub flags4: u32,
    pub flags5: u32,
    pub unknown6: u32,
    pub alpha_surface: bool,
    pub palette_fade: bool,
    pub page: Option<Vec<PageRect>>,
}

impl Texm {
    /// The summary of the texture.
    pub fn info(&self) -> TexmInfo {
        TexmInfo {
            format: self.format,
            format_code: self.format.code(),
            width: self.width,
            height: self.height,
            mip_count: self.mip_count(),
            mip_sizes: (0..self.mip_count())
                .map(|i| {
                    let (w, h) = self.level_dims(i);
                    [w, h]
                })
                .collect(),
            flags4: self.flags4,
            flags5: self.flags5,
            unknown6: self.unknown6,
            alpha_surface: self.flags5 & FLAG5_ALPHA_SURFACE != 0,
            palette_fade: self.flags5 & FLAG5_PALETTE_FADE != 0,
            page: self.page.clone(),
        }
    }
}
