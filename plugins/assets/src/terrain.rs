//! `Land.msh` → [`Terrain`] (the parsed container and its LOD 0 surface for
//! CPU height/normal/ray queries) and `Land.map` → [`ArealMap`] (areals and
//! cell grid, with the locator and route search built on demand).
//! Coordinates stay Z-up as stored; conversion to Bevy's Y-up belongs to the
//! consumers.

use crate::source::IronSource;
use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::terrain::land_map::{ArealLocator, LandMap};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::TerrainSurface;
use std::sync::Arc;

/// A loaded `Land.msh`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Terrain {
    pub land: LandMsh,
    /// The LOD 0 faces, gridded for queries.
    pub surface: TerrainSurface,
}

/// A loaded `Land.map`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct ArealMap {
    pub map: LandMap,
}

impl ArealMap {
    /// Which areal holds a point.
    pub fn locator(&self) -> ArealLocator<'_> {
        ArealLocator::new(&self.map)
    }

    /// Route search over the map (builds its graph: reuse it for many
    /// queries).
    pub fn navigator(&self) -> Navigator<'_> {
        Navigator::new(&self.map)
    }
}

/// Loads `Land.msh` as [`Terrain`]: request the asset type explicitly
/// (`load::<Terrain>`), since `*.msh` is also the model extension.
#[derive(TypePath)]
pub struct LandMshLoader {
    pub source: Arc<IronSource>,
}

/// Loads `Land.map` (`*.map`) as [`ArealMap`].
#[derive(TypePath)]
pub struct LandMapLoader {
    pub source: Arc<IronSource>,
}

impl AssetLoader for LandMshLoader {
    type Asset = Terrain;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Terrain, FormatError> {
        let path = load_context.path().path().to_path_buf();
        let bytes = crate::read_all(reader, &path).await?;
        let land =
            LandMsh::parse(&bytes, Mode::Compatible).map_err(|e| self.source.annotate(&path, e))?;
        let surface = TerrainSurface::build_lod0(&land);
        Ok(Terrain { land, surface })
    }

    fn extensions(&self) -> &[&str] {
        &["msh"]
    }
}

impl AssetLoader for LandMapLoader {
    type Asset = ArealMap;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<ArealMap, FormatError> {
        let path = load_context.path().path().to_path_buf();
        let bytes = crate::read_all(reader, &path).await?;
        let map =
            LandMap::parse(&bytes, Mode::Compatible).map_err(|e| self.source.annotate(&path, e))?;
        Ok(ArealMap { map })
    }

    fn extensions(&self) -> &[&str] {
        &["map"]
    }
}
