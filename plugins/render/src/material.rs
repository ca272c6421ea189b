//! Batch materials: WEAR row -> MAT0 entry of `Material.lib` (name, then
//! `DEFAULT`, then entry 0, tome V) -> the Texm of its phase 0 in
//! `Textures.lib` -> a `StandardMaterial` with that base colour texture.
//! Materials are shared per texture name.

use crate::install::InstallFiles;
use bevy::prelude::*;
use iron3d_assets::texture::{TexmSettings, texm_to_image};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::mat0::{Mat0, resolve_material};
use iron3d_formats::texm::Texm;
use iron3d_formats::wear::Wear;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The material library of the install.
const MATERIAL_LIB: &[u8] = b"Material.lib";
/// The texture library of the install.
const TEXTURE_LIB: &[u8] = b"Textures.lib";

/// The phase-0 texture name of WEAR material row `index`, empty for an
/// untextured material.
pub fn phase0_texture(wear: &Wear, index: usize, library: &Nres) -> Result<Vec<u8>, String> {
    let resolved = resolve_material(wear, index, library.len(), |n| library.find(n))
        .map_err(|e| e.to_string())?;
    let entry = &library.entries()[resolved.entry];
    let mat = Mat0::parse(library.payload(resolved.entry), entry.attr1, entry.attr2)
        .map_err(|e| e.in_entry(resolved.entry, entry.display_name()).to_string())?;
    Ok(mat
        .phases
        .first()
        .map(|p| p.texture().to_vec())
        .unwrap_or_default())
}

/// A surface drawn from both sides (the legacy cull mode is not mapped
/// yet), lit, with an optional base colour texture.
fn surface(texture: Option<Handle<Image>>) -> StandardMaterial {
    StandardMaterial {
        base_color: if texture.is_some() {
            Color::WHITE
        } else {
            Color::srgb(0.6, 0.6, 0.6)
        },
        base_color_texture: texture,
        perceptual_roughness: 0.9,
        cull_mode: None,
        double_sided: true,
        ..default()
    }
}

/// The libraries and the materials made so far, by texture name.
pub struct MaterialCache {
    materials: Arc<Vec<u8>>,
    textures: Arc<Vec<u8>>,
    by_texture: BTreeMap<Vec<u8>, Handle<StandardMaterial>>,
}

impl MaterialCache {
    /// Reads `Material.lib` and `Textures.lib` of the install.
    pub fn open(files: &mut InstallFiles) -> Result<Self, String> {
        Ok(Self {
            materials: files.archive(MATERIAL_LIB)?,
            textures: files.archive(TEXTURE_LIB)?,
            by_texture: BTreeMap::new(),
        })
    }

    /// The material of WEAR row `index`: its phase-0 texture, or a plain
    /// grey surface when the row resolves to no usable texture (the reason
    /// is logged once per texture name).
    pub fn batch_material(
        &mut self,
        wear: Option<&Wear>,
        index: usize,
        images: &mut Assets<Image>,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        let name = match (wear, Nres::parse(&self.materials, Mode::Compatible)) {
            (Some(wear), Ok(library)) => {
                phase0_texture(wear, index, &library).unwrap_or_else(|e| {
                    warn!("material row {index}: {e}");
                    Vec::new()
                })
            }
            (None, _) => Vec::new(),
            (_, Err(e)) => {
                warn!("Material.lib: {e}");
                Vec::new()
            }
        };
        if let Some(handle) = self.by_texture.get(&name) {
            return handle.clone();
        }
        let texture = if name.is_empty() {
            None
        } else {
            match self.texture_image(&name) {
                Ok(image) => Some(images.add(image)),
                Err(e) => {
                    warn!("texture '{}': {e}", String::from_utf8_lossy(&name));
                    None
                }
            }
        };
        let handle = materials.add(surface(texture));
        self.by_texture.insert(name, handle.clone());
        handle
    }

    /// The texture `name` of `Textures.lib` with its mip chain.
    fn texture_image(&self, name: &[u8]) -> Result<Image, String> {
        let library = Nres::parse(&self.textures, Mode::Compatible).map_err(|e| e.to_string())?;
        let index = library
            .find(name)
            .ok_or_else(|| "not in Textures.lib".to_string())?;
        let texm = Texm::parse(library.payload(index)).map_err(|e| e.to_string())?;
        texm_to_image(&texm, &TexmSettings::default()).map_err(|e| e.to_string())
    }
}
