//! FXID → [`Effect`]: the parsed effect (header and command list).

use crate::parsed::ParsedAsset;
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::error::FormatError;
use iron3d_formats::fxid::Fxid;

/// A loaded effect, e.g. `iron://effects.rlb/NAME.fxid`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Effect {
    pub fxid: Fxid,
}

impl ParsedAsset for Effect {
    const EXTENSIONS: &'static [&'static str] = &["fxid"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(Effect {
            fxid: Fxid::parse(bytes)?,
        })
    }
}
