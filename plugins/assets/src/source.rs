//! The `iron://` asset source: the Bevy reader over the game's one path
//! space, [`Source`] (the install with its mod layers; its rules are in
//! `iron3d_formats::source`). The mission loader reads through the same
//! [`Source`] (see [`crate::IronSourceHandle`]), so a parse of an entry is
//! shared between the loader's checks and the loaders of this crate.

use bevy::asset::io::{AssetReader, AssetReaderError, PathStream, Reader, VecReader};
use bevy::log::{debug, info};
use iron3d_formats::error::FormatError;
pub use iron3d_formats::source::{ARCHIVE_EXTENSIONS, EntryInfo, Found, Origin, Source};
use std::path::Path;
use std::sync::Arc;

/// The resolver behind the `iron://` source (shared by the reader, the
/// watcher, the loaders and the mission loader).
pub type IronSource = Source;

/// The Bevy [`AssetReader`] of the `iron://` source.
#[derive(Debug, Clone)]
pub struct IronReader(pub Arc<IronSource>);

fn reader_error(err: FormatError) -> AssetReaderError {
    AssetReaderError::Io(Arc::new(std::io::Error::other(err.to_string())))
}

impl AssetReader for IronReader {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        match self.0.deliver(path) {
            Ok(Some(found)) => {
                if self.0.is_override(&found.origin) {
                    info!(
                        "iron://{} -> {} (mod override)",
                        path.display(),
                        found.origin
                    );
                } else {
                    debug!("iron://{} -> {}", path.display(), found.origin);
                }
                Ok(VecReader::new(found.bytes().to_vec()))
            }
            Ok(None) => Err(AssetReaderError::NotFound(path.to_path_buf())),
            Err(err) => Err(reader_error(err)),
        }
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        // Meta files are not part of the original data: always the defaults.
        Err::<VecReader, _>(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn read_directory<'a>(
        &'a self,
        path: &'a Path,
    ) -> Result<Box<PathStream>, AssetReaderError> {
        Err(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn is_directory<'a>(&'a self, path: &'a Path) -> Result<bool, AssetReaderError> {
        Ok(self.0.is_dir(path))
    }
}
