//! Texm → [`Image`] with its full mip chain, and the `Page` atlas rectangles
//! as the labelled sub-asset `pages`.

use crate::source::IronSource;
use bevy::asset::{AssetLoader, LoadContext, RenderAssetUsages, io::Reader};
use bevy::image::{Image, ImageAddressMode, ImageFilterMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::{Asset, TypePath};
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use iron3d_formats::error::FormatError;
use iron3d_formats::texm::{PageRect, Texm};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The label of the [`TexturePages`] sub-asset.
pub const PAGES_LABEL: &str = "pages";

/// How texels are interpreted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ColorSpace {
    /// Colour maps (the default): RGBA8 sRGB.
    #[default]
    Srgb,
    /// Lightmaps and data textures: RGBA8 linear.
    Linear,
}

/// Settings of [`TexmLoader`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TexmSettings {
    pub color_space: ColorSpace,
    /// Mip levels dropped from the top (the original's texture-quality
    /// setting); clamped so that at least one level remains.
    pub mip_skip: u32,
}

/// The `Page` rectangles of a texture, in pixels of the stored base level.
#[derive(Asset, TypePath, Debug, Clone, PartialEq)]
pub struct TexturePages {
    /// Stored base size (before any mip-skip), the divisor of [`PageRect::uv`].
    pub width: u32,
    pub height: u32,
    pub rects: Vec<PageRect>,
}

impl TexturePages {
    /// Normalised `[u0, v0, u1, v1]` of each rectangle.
    pub fn uvs(&self) -> Vec<[f32; 4]> {
        self.rects
            .iter()
            .map(|r| r.uv(self.width, self.height))
            .collect()
    }
}

/// Loads Texm payloads (`*.texm`, or any `iron://` path loaded as [`Image`]
/// when no other image loader is registered).
#[derive(TypePath)]
pub struct TexmLoader {
    /// Names the file and entry of the bytes in errors.
    pub source: Arc<IronSource>,
}

/// Decodes `texm` (after `settings.mip_skip`) into an [`Image`] holding every
/// mip level, base first, as RGBA8.
pub fn texm_to_image(texm: &Texm, settings: &TexmSettings) -> Result<Image, FormatError> {
    let skip = settings.mip_skip.min(texm.mip_count().saturating_sub(1));
    let texm = if skip > 0 {
        texm.skipped(skip)?
    } else {
        texm.clone()
    };
    let mut data = Vec::new();
    for level in 0..texm.mip_count() {
        data.extend_from_slice(&texm.decode_level(level)?.pixels);
    }
    let format = match settings.color_space {
        ColorSpace::Srgb => TextureFormat::Rgba8UnormSrgb,
        ColorSpace::Linear => TextureFormat::Rgba8Unorm,
    };
    let size = Extent3d {
        width: texm.width,
        height: texm.height,
        depth_or_array_layers: 1,
    };
    let mut image = Image::new_uninit(
        size,
        TextureDimension::D2,
        format,
        RenderAssetUsages::default(),
    );
    image.texture_descriptor.mip_level_count = texm.mip_count();
    image.data = Some(data);
    image.sampler = ImageSampler::Descriptor(wrapping_sampler());
    Ok(image)
}

/// How the fixed-function pipeline samples a texture by default
/// (`D3DTADDRESS_WRAP`, bilinear with mips): coordinates past 0..1 repeat
/// the texture, as the terrain's (a tile every 50 units) and the clouds'
/// (three across the sky) need.
// STAND-IN: every Texm image wraps with bilinear mips, the fixed-function
// default (no source gives the engine's sampler states); settled by
// reading `SetTextureStageState` calls in `Ngi32.dll` (tome V "Ngi32").
pub fn wrapping_sampler() -> ImageSamplerDescriptor {
    ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        mag_filter: ImageFilterMode::Linear,
        min_filter: ImageFilterMode::Linear,
        mipmap_filter: ImageFilterMode::Linear,
        ..ImageSamplerDescriptor::default()
    }
}

impl AssetLoader for TexmLoader {
    type Asset = Image;
    type Settings = TexmSettings;
    type Error = FormatError;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        settings: &TexmSettings,
        load_context: &mut LoadContext<'_>,
    ) -> Result<Image, FormatError> {
        let found = crate::found_input(&self.source, load_context)?;
        let annotate = |err: FormatError| found.origin.annotate(err);
        let texm = found.parsed(0, Texm::parse)?;
        let image = texm_to_image(&texm, settings).map_err(annotate)?;
        if let Some(rects) = &texm.page {
            load_context.add_labeled_asset(
                PAGES_LABEL.to_string(),
                TexturePages {
                    width: texm.width,
                    height: texm.height,
                    rects: rects.clone(),
                },
            );
        }
        Ok(image)
    }

    fn extensions(&self) -> &[&str] {
        &["texm"]
    }
}
