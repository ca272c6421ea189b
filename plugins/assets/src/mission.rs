//! TMA → [`Mission`]: the parsed mission description.

use crate::parsed::ParsedAsset;
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::tma::{self, Tma};

/// A loaded `data.tma` (compatible mode: unknown section versions kept).
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Mission {
    pub tma: Tma,
}

impl ParsedAsset for Mission {
    const EXTENSIONS: &'static [&'static str] = &["tma"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(Mission {
            tma: tma::parse(bytes, Mode::Compatible)?,
        })
    }
}
