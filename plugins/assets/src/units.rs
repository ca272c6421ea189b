//! Unit DAT (`UNITS/.../*.dat`) → [`Unit`] and `objects.rlb` →
//! [`PrototypeRegistry`]: the part trees of composite units and the
//! prototype registry they name, parsed in compatible mode (the runtime's
//! mode: a unit whose child counts do not form a tree keeps its flat records,
//! quirk `unitdat_broken_part_tree`).

use crate::parsed::ParsedAsset;
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::registry::Registry;
use iron3d_formats::unitdat::UnitDat;

/// A loaded unit DAT, e.g. `iron://UNITS/ROBOTS/R_SCOUT.dat`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Unit {
    pub dat: UnitDat,
}

impl ParsedAsset for Unit {
    const EXTENSIONS: &'static [&'static str] = &["dat"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(Unit {
            dat: UnitDat::parse(bytes, Mode::Compatible)?,
        })
    }
}

/// The loaded prototype registry, `iron://objects.rlb` (request the type,
/// `load::<PrototypeRegistry>`: other `*.rlb` files are archives of other
/// contents). Resolutions are cached inside [`Registry`].
#[derive(Asset, TypePath, Debug)]
pub struct PrototypeRegistry {
    pub registry: Registry,
}

impl ParsedAsset for PrototypeRegistry {
    const EXTENSIONS: &'static [&'static str] = &["rlb"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(PrototypeRegistry {
            registry: Registry::parse(bytes, Mode::Compatible)?,
        })
    }
}
