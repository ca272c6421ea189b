//! Assets that are one payload parsed by a formats-crate reader, and the one
//! loader that serves them all.

use crate::source::IronSource;
use bevy::asset::{Asset, AssetLoader, LoadContext, io::Reader};
use bevy::reflect::TypePath;
use iron3d_formats::error::FormatError;
use std::marker::PhantomData;
use std::sync::Arc;

/// An asset built from the bytes of one file or archive entry.
pub trait ParsedAsset: Asset + Sized {
    /// Extensions that select the loader (archive entries are addressed
    /// with them, e.g. `iron://effects.rlb/FX_LASER.fxid`).
    const EXTENSIONS: &'static [&'static str];

    /// Parses the payload.
    fn parse(bytes: &[u8]) -> Result<Self, FormatError>;
}

/// Loads a [`ParsedAsset`]; errors carry the file and entry they came from.
#[derive(TypePath)]
pub struct ParsedLoader<A: ParsedAsset> {
    source: Arc<IronSource>,
    asset: PhantomData<fn() -> A>,
}

impl<A: ParsedAsset> ParsedLoader<A> {
    pub fn new(source: Arc<IronSource>) -> Self {
        Self {
            source,
            asset: PhantomData,
        }
    }
}

impl<A: ParsedAsset> AssetLoader for ParsedLoader<A> {
    type Asset = A;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<A, FormatError> {
        let (path, bytes) = crate::read_input(reader, load_context).await?;
        A::parse(&bytes).map_err(|e| self.source.annotate(&path, e))
    }

    fn extensions(&self) -> &[&str] {
        A::EXTENSIONS
    }
}
