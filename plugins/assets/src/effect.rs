//! FXID → [`Effect`]: the parsed effect (header and command list).

use crate::source::IronSource;
use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::error::FormatError;
use iron3d_formats::fxid::Fxid;
use std::sync::Arc;

/// A loaded effect, e.g. `iron://effects.rlb/NAME.fxid`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Effect {
    pub fxid: Fxid,
}

/// Loads FXID payloads (`*.fxid`; archive entries are addressed with that
/// extension, which selects this loader).
#[derive(TypePath)]
pub struct FxidLoader {
    pub source: Arc<IronSource>,
}

impl AssetLoader for FxidLoader {
    type Asset = Effect;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Effect, FormatError> {
        let path = load_context.path().path().to_path_buf();
        let bytes = crate::read_all(reader, &path).await?;
        let fxid = Fxid::parse(&bytes).map_err(|e| self.source.annotate(&path, e))?;
        Ok(Effect { fxid })
    }

    fn extensions(&self) -> &[&str] {
        &["fxid"]
    }
}
