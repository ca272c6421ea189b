//! TMA → [`Mission`]: the parsed mission description.

use crate::source::IronSource;
use bevy::asset::{AssetLoader, LoadContext, io::Reader};
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::tma::{self, Tma};
use std::sync::Arc;

/// A loaded `data.tma` (compatible mode: unknown section versions kept).
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Mission {
    pub tma: Tma,
}

/// Loads mission descriptions (`*.tma`).
#[derive(TypePath)]
pub struct TmaLoader {
    pub source: Arc<IronSource>,
}

impl AssetLoader for TmaLoader {
    type Asset = Mission;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<Mission, FormatError> {
        let path = load_context.path().path().to_path_buf();
        let bytes = crate::read_all(reader, &path).await?;
        let tma =
            tma::parse(&bytes, Mode::Compatible).map_err(|e| self.source.annotate(&path, e))?;
        Ok(Mission { tma })
    }

    fn extensions(&self) -> &[&str] {
        &["tma"]
    }
}
