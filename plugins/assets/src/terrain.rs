//! `Land.msh` → [`Terrain`] (the parsed container and its LOD 0 surface for
//! CPU height/normal/ray queries) and `Land.map` → [`ArealMap`] (areals and
//! cell grid, with the locator and route search built on demand).
//! Coordinates stay Z-up as stored; conversion to Bevy's Y-up belongs to the
//! consumers.

use crate::parsed::ParsedAsset;
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::terrain::land_map::{ArealLocator, LandMap};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::TerrainSurface;

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

/// `Land.msh`: request the asset type explicitly (`load::<Terrain>`), since
/// `*.msh` is also the model extension.
impl ParsedAsset for Terrain {
    const EXTENSIONS: &'static [&'static str] = &["msh"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        let land = LandMsh::parse(bytes, Mode::Compatible)?;
        let surface = TerrainSurface::build_lod0(&land);
        Ok(Terrain { land, surface })
    }
}

/// `Land.map` (`*.map`).
impl ParsedAsset for ArealMap {
    const EXTENSIONS: &'static [&'static str] = &["map"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(ArealMap {
            map: LandMap::parse(bytes, Mode::Compatible)?,
        })
    }
}
