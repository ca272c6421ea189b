//! WEAR + MAT0 → [`WearMaterials`]: a model's material table with every
//! row resolved to its `Material.lib` entry (WEAR name, then `DEFAULT`, then
//! entry 0), each MAT0 parsed with its directory `attr1`/`attr2`, and the
//! phase textures (`Textures.lib`) and WEAR `LIGHTMAPS` rows (`LightMap.lib`,
//! linear colour space) as `Image` handles.
//!
//! Hot reload: Bevy 0.19 reloads an asset when one of its *loader*
//! dependencies changes (`LoadContext::read_asset_bytes`), not when a plain
//! `LoadContext::load` dependency does. The loader therefore reads the bytes
//! of the MAT0 entry and of every texture it references through the asset
//! reader: rewriting a texture inside `Textures.lib` reloads that `Image`
//! and reloads (marks `AssetEvent::Modified`) every material table using it.

use crate::SOURCE_ID;
use crate::source::{EntryInfo, IronSource};
use crate::texture::{ColorSpace, TexmSettings};
use bevy::asset::io::AssetReaderError;
use bevy::asset::{AssetLoader, AssetPath, LoadContext, ReadAssetBytesError, io::Reader};
use bevy::image::Image;
use bevy::log::warn;
use bevy::prelude::{Asset, Handle, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::mat0::{
    Mat0, Resolution, ResolvedMaterial, lightmap_slot, parse_shared, resolve_material,
};
use iron3d_formats::wear::Wear;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The material library, at the install root.
pub const MATERIAL_LIBRARY: &str = "Material.lib";
/// The texture library of material phases.
pub const TEXTURE_LIBRARY: &str = "Textures.lib";
/// The lightmap library of WEAR `LIGHTMAPS` rows.
pub const LIGHTMAP_LIBRARY: &str = "LightMap.lib";

/// One WEAR material row, resolved.
#[derive(Debug, Clone)]
pub struct MaterialRow {
    /// The `Material.lib` entry the row resolved to, and by which rule.
    pub resolved: ResolvedMaterial,
    /// That entry's directory fields (its stored name, flags, version).
    pub entry: EntryInfo,
    pub mat0: Arc<Mat0>,
    /// The texture of each phase: `None` for an empty name (an untextured
    /// surface) or a texture missing from `Textures.lib` (logged).
    pub textures: Vec<Option<Handle<Image>>>,
}

/// One WEAR `LIGHTMAPS` row.
#[derive(Debug, Clone)]
pub struct LightmapRow {
    /// The `LightMap.lib` entry index, `-1` when the texture is missing.
    pub slot: i32,
    /// The lightmap (linear), `None` exactly when `slot` is `-1`.
    pub image: Option<Handle<Image>>,
}

/// A loaded WEAR table with its materials and lightmaps.
#[derive(Asset, TypePath, Debug)]
pub struct WearMaterials {
    pub wear: Arc<Wear>,
    /// One per WEAR material row, same order.
    pub materials: Vec<MaterialRow>,
    /// One per WEAR lightmap row (empty without a `LIGHTMAPS` block).
    pub lightmaps: Vec<LightmapRow>,
}

impl WearMaterials {
    /// The lightmap of a batch's lightmap index: `(-1, None)` for `0xFF`
    /// (never a row: at most 255 are kept), an index past the block, or a
    /// missing texture — never a substitute.
    pub fn lightmap(&self, index: u8) -> (i32, Option<&Handle<Image>>) {
        self.lightmaps
            .get(index as usize)
            .map_or((-1, None), |row| (row.slot, row.image.as_ref()))
    }
}

/// Loads WEAR tables (`*.wea`) and what they reference.
#[derive(TypePath)]
pub struct WearLoader {
    /// Archive directories (MAT0 attributes) and error origins.
    pub source: Arc<IronSource>,
}

/// `iron://<library>/<name><suffix>`, built without parsing (names may
/// hold `#`, Bevy's label separator).
pub(crate) fn iron_path(library: &str, name: &str, suffix: &str) -> AssetPath<'static> {
    AssetPath::from_path_buf(PathBuf::from(format!("{library}/{name}{suffix}")))
        .with_source(SOURCE_ID)
}

/// Reads a dependency's bytes through the asset reader (making it a loader
/// dependency); `Ok(None)` when the source has no such path.
pub(crate) async fn read_dependency(
    ctx: &mut LoadContext<'_>,
    path: &AssetPath<'static>,
) -> Result<Option<Vec<u8>>, FormatError> {
    match ctx.read_asset_bytes(path.clone()).await {
        Ok(bytes) => Ok(Some(bytes)),
        Err(ReadAssetBytesError::AssetReaderError(AssetReaderError::NotFound(_))) => Ok(None),
        Err(e) => Err(FormatError::io(
            path.path(),
            &std::io::Error::other(e.to_string()),
        )),
    }
}

/// The directory of `library`, an error naming it when the install lacks it.
pub(crate) fn library(source: &IronSource, library: &str) -> Result<Vec<EntryInfo>, FormatError> {
    source
        .archive_directory(Path::new(library))?
        .ok_or_else(|| FormatError::missing("NRes", format!("{library} in the install")))
}

/// The MAT0 of `Material.lib` entry `entry`, read as a loader dependency
/// (a rewrite reloads the asset) and parsed with its directory fields once
/// (shared with the mission loader's checks); `None` when the source lacks
/// it.
pub(crate) async fn material(
    source: &IronSource,
    ctx: &mut LoadContext<'_>,
    entry: &EntryInfo,
) -> Result<Option<Arc<Mat0>>, FormatError> {
    let path = iron_path(MATERIAL_LIBRARY, &entry.name, "");
    if read_dependency(ctx, &path).await?.is_none() {
        return Ok(None);
    }
    let Some(found) = source.read(path.path())? else {
        return Ok(None);
    };
    parse_shared(&found, entry.attr1, entry.attr2).map(Some)
}

/// The first entry named `name` (ASCII case-insensitive), directory order.
pub(crate) fn find_in(dir: &[EntryInfo]) -> impl Fn(&[u8]) -> Option<usize> + '_ {
    |name| {
        dir.iter()
            .position(|e| e.name.as_bytes().eq_ignore_ascii_case(name))
    }
}

/// The texture of every phase of `mat0` (the material entry `owner`),
/// read as loader dependencies: `None` for an empty name (an untextured
/// surface) or a texture missing from `Textures.lib` (logged). Textures
/// already requested are shared through `known`.
pub(crate) async fn phase_textures(
    ctx: &mut LoadContext<'_>,
    owner: &str,
    mat0: &Mat0,
    known: &mut BTreeMap<Vec<u8>, Option<Handle<Image>>>,
) -> Result<Vec<Option<Handle<Image>>>, FormatError> {
    let mut handles = Vec::with_capacity(mat0.phases.len());
    for phase in &mat0.phases {
        let name = phase.texture();
        if name.is_empty() {
            handles.push(None);
            continue;
        }
        if let Some(handle) = known.get(name) {
            handles.push(handle.clone());
            continue;
        }
        let text = String::from_utf8_lossy(name).into_owned();
        let path = iron_path(TEXTURE_LIBRARY, &text, ".texm");
        let handle = match read_dependency(ctx, &path).await? {
            Some(_) => Some(ctx.load::<Image>(path)),
            None => {
                warn!("material {owner}: texture {text} not found");
                None
            }
        };
        known.insert(name.to_vec(), handle.clone());
        handles.push(handle);
    }
    Ok(handles)
}

impl WearLoader {
    /// Resolves, reads and parses material row `row` of `wear`; textures
    /// already requested are shared through `textures`.
    async fn material_row(
        &self,
        ctx: &mut LoadContext<'_>,
        wear: &Wear,
        row: usize,
        materials: &[EntryInfo],
        textures: &mut BTreeMap<Vec<u8>, Option<Handle<Image>>>,
    ) -> Result<MaterialRow, FormatError> {
        let resolved = resolve_material(wear, row, materials.len(), find_in(materials))?;
        let entry = materials[resolved.entry].clone();
        let mat0 = material(&self.source, ctx, &entry).await?.ok_or_else(|| {
            FormatError::missing("MAT0", format!("{MATERIAL_LIBRARY} entry {}", entry.name))
        })?;
        let handles = phase_textures(ctx, &entry.name, &mat0, textures).await?;
        Ok(MaterialRow {
            resolved,
            entry,
            mat0,
            textures: handles,
        })
    }

    /// The lightmap rows of `wear` (at most 255: index `0xFF` means none).
    async fn lightmap_rows(
        &self,
        ctx: &mut LoadContext<'_>,
        wear: &Wear,
    ) -> Result<Vec<LightmapRow>, FormatError> {
        let count = wear.lightmaps.as_ref().map_or(0, Vec::len).min(255);
        if count == 0 {
            return Ok(Vec::new());
        }
        let dir = self
            .source
            .archive_directory(Path::new(LIGHTMAP_LIBRARY))?
            .unwrap_or_default();
        let mut rows = Vec::with_capacity(count);
        for index in 0..count as u8 {
            let slot = lightmap_slot(wear, index, find_in(&dir));
            let image = match usize::try_from(slot).ok().and_then(|s| dir.get(s)) {
                Some(entry) => {
                    let path = iron_path(LIGHTMAP_LIBRARY, &entry.name, ".texm");
                    read_dependency(ctx, &path).await?.map(|_| {
                        ctx.load_builder()
                            .with_settings(|s: &mut TexmSettings| {
                                s.color_space = ColorSpace::Linear
                            })
                            .load::<Image>(path)
                    })
                }
                None => None,
            };
            let slot = if image.is_some() { slot } else { -1 };
            rows.push(LightmapRow { slot, image });
        }
        Ok(rows)
    }
}

impl AssetLoader for WearLoader {
    type Asset = WearMaterials;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        _settings: &(),
        ctx: &mut LoadContext<'_>,
    ) -> Result<WearMaterials, FormatError> {
        let found = crate::found_input(&self.source, ctx)?;
        let wear = found.parsed(0, |b| Wear::parse(b, Mode::Compatible))?;
        let materials = library(&self.source, MATERIAL_LIBRARY)?;
        let mut textures = BTreeMap::new();
        let mut rows = Vec::with_capacity(wear.materials.len());
        for row in 0..wear.materials.len() {
            rows.push(
                self.material_row(ctx, &wear, row, &materials, &mut textures)
                    .await?,
            );
        }
        let lightmaps = self.lightmap_rows(ctx, &wear).await?;
        Ok(WearMaterials {
            wear,
            materials: rows,
            lightmaps,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["wea"]
    }
}

/// One `Material.lib` entry with its phase textures, as an effect draws it
/// (`iron://Material.lib/NAME.mat0`: the source resolves `NAME.mat0` to
/// entry `NAME`).
#[derive(Asset, TypePath, Debug)]
pub struct EntryMaterial {
    pub row: MaterialRow,
}

/// Loads [`EntryMaterial`]s (`*.mat0`) and their textures.
#[derive(TypePath)]
pub struct EntryMaterialLoader {
    pub source: Arc<IronSource>,
}

impl AssetLoader for EntryMaterialLoader {
    type Asset = EntryMaterial;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        _settings: &(),
        ctx: &mut LoadContext<'_>,
    ) -> Result<EntryMaterial, FormatError> {
        let path = ctx.path().path().to_path_buf();
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let materials = library(&self.source, MATERIAL_LIBRARY)?;
        let missing = || {
            FormatError::missing("MAT0", format!("{MATERIAL_LIBRARY} entry {name:?}"))
                .in_file(path.display().to_string())
        };
        let index = name
            .as_deref()
            .and_then(|n| find_in(&materials)(n.as_bytes()))
            .ok_or_else(missing)?;
        let entry = materials[index].clone();
        let mat0 = material(&self.source, ctx, &entry)
            .await?
            .ok_or_else(missing)?;
        let textures = phase_textures(ctx, &entry.name, &mat0, &mut BTreeMap::new()).await?;
        Ok(EntryMaterial {
            row: MaterialRow {
                resolved: ResolvedMaterial {
                    entry: index,
                    via: Resolution::Named,
                },
                entry,
                mat0,
                textures,
            },
        })
    }

    fn extensions(&self) -> &[&str] {
        &["mat0"]
    }
}
