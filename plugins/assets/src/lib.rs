//! The Iron3D data layer in Bevy.
//!
//! [`IronAssetsPlugin`] registers the `iron://` asset source (see
//! [`source`]) over a game directory and mod directories, its hot-reload
//! watcher ([`watch`]), and the format loaders: Texm → `Image`
//! ([`texture`]), MSH → [`model::Model`], TMA → [`mission::Mission`],
//! WEAR + MAT0 → [`material::WearMaterials`], FXID → [`effect::Effect`],
//! `Land.msh` (+ its `Land1.wea` / `Land2.wea` layer tables) →
//! [`terrain::Terrain`] with its ground layer meshes, `Land.map` →
//! [`terrain::ArealMap`],
//! RIFF/WAVE sound entries → `bevy_kira_audio::AudioSource` ([`sound`],
//! addressed `iron://sounds.lib/NAME.WAV.swav`), unit DAT → [`units::Unit`],
//! `objects.rlb` → [`units::PrototypeRegistry`].
//!
//! **Order matters**: add [`IronAssetsPlugin`] *before* `DefaultPlugins` /
//! `AssetPlugin`, because Bevy builds its asset sources when `AssetPlugin`
//! is built. The loaders are registered in [`Plugin::finish`], once the
//! `AssetServer` exists.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use iron3d_assets::IronAssetsPlugin;
//! App::new()
//!     .add_plugins(IronAssetsPlugin::new("/games/parkan").with_mod_dir("/mods/hires"))
//!     .add_plugins(DefaultPlugins);
//! ```
//! Then `asset_server.load::<Image>("iron://Textures.lib/T_GRASS.texm")`.
//!
//! Archive entry names have no extension; Bevy picks a loader by extension
//! when several load the same asset type (`Image` has PNG/KTX2 loaders too),
//! so address textures as `NAME.texm`: the source resolves `T_GRASS.texm`
//! to entry `T_GRASS`. Load failures carry the full [`FormatError`] line
//! (file, entry, offset, expectation) and also arrive as Bevy's
//! `UntypedAssetLoadFailedEvent` messages.

pub mod effect;
pub mod material;
pub mod mission;
pub mod model;
pub mod parsed;
pub mod sound;
pub mod source;
pub mod terrain;
pub mod texture;
pub mod units;
pub mod watch;

use bevy::asset::LoadContext;
use bevy::asset::io::AssetSourceBuilder;
use bevy::asset::io::Reader;
use bevy::image::Image;
use bevy::log::error;
use bevy::mesh::Mesh;
use bevy::prelude::*;
use bevy_kira_audio::AudioSource;
use effect::Effect;
use iron3d_formats::error::FormatError;
use material::{EntryMaterial, EntryMaterialLoader, WearLoader, WearMaterials};
use mission::Mission;
use model::{Model, MshLoader};
use parsed::ParsedLoader;
use source::{IronReader, IronSource};
use std::path::PathBuf;
use std::sync::Arc;
use terrain::{ArealMap, Terrain, TerrainLoader};
use texture::{TexmLoader, TexturePages};
use units::{PrototypeRegistry, Unit};
use watch::IronWatcher;

/// The id of the asset source: paths are `iron://...`.
pub const SOURCE_ID: &str = "iron";

/// Registers the `iron://` source and the loaders. Add it before
/// `DefaultPlugins` / `AssetPlugin`.
#[derive(Debug, Clone)]
pub struct IronAssetsPlugin {
    /// The install root.
    pub game_dir: PathBuf,
    /// Mod directories layered over the install; later ones win.
    pub mod_dirs: Vec<PathBuf>,
}

impl IronAssetsPlugin {
    /// A plugin over `game_dir` without mods.
    pub fn new(game_dir: impl Into<PathBuf>) -> Self {
        Self {
            game_dir: game_dir.into(),
            mod_dirs: Vec::new(),
        }
    }

    /// Adds a mod directory above the previous ones.
    pub fn with_mod_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.mod_dirs.push(dir.into());
        self
    }
}

/// The shared resolver of the `iron://` source (also a resource, for
/// systems that need origins or the archive cache).
#[derive(Resource, Debug, Clone)]
pub struct IronSourceHandle(pub Arc<IronSource>);

impl Plugin for IronAssetsPlugin {
    fn build(&self, app: &mut App) {
        let source = match IronSource::new(&self.game_dir, &self.mod_dirs) {
            Ok(source) => Arc::new(source),
            Err(err) => {
                error!("iron:// asset source not registered: {err}");
                return;
            }
        };
        for (i, dir) in self.mod_dirs.iter().enumerate() {
            info!("iron:// mod layer {i} (later wins): {}", dir.display());
        }
        let (reader, watched) = (source.clone(), source.clone());
        app.register_asset_source(
            SOURCE_ID,
            AssetSourceBuilder::new(move || Box::new(IronReader(reader.clone()))).with_watcher(
                move |sender| {
                    let watcher = IronWatcher::new(watched.clone(), sender, watch::DEBOUNCE)?;
                    Some(Box::new(watcher) as Box<dyn bevy::asset::io::AssetWatcher>)
                },
            ),
        );
        app.insert_resource(IronSourceHandle(source));
    }

    fn finish(&self, app: &mut App) {
        let Some(source) = app.world().get_resource::<IronSourceHandle>().cloned() else {
            return;
        };
        if !app.world().contains_resource::<Assets<Image>>() {
            app.init_asset::<Image>();
        }
        if !app.world().contains_resource::<Assets<Mesh>>() {
            app.init_asset::<Mesh>();
        }
        // bevy_kira_audio's `AudioPlugin` (built before any `finish`) owns
        // the type when present; headless apps get it here.
        if !app.world().contains_resource::<Assets<AudioSource>>() {
            app.init_asset::<AudioSource>();
        }
        let source = source.0;
        app.init_asset::<TexturePages>()
            .init_asset::<Model>()
            .init_asset::<Mission>()
            .init_asset::<WearMaterials>()
            .init_asset::<EntryMaterial>()
            .init_asset::<Effect>()
            .init_asset::<Terrain>()
            .init_asset::<ArealMap>()
            .init_asset::<Unit>()
            .init_asset::<PrototypeRegistry>()
            .register_asset_loader(TexmLoader {
                source: source.clone(),
            })
            .register_asset_loader(MshLoader {
                source: source.clone(),
            })
            .register_asset_loader(ParsedLoader::<Mission>::new(source.clone()))
            .register_asset_loader(WearLoader {
                source: source.clone(),
            })
            .register_asset_loader(EntryMaterialLoader {
                source: source.clone(),
            })
            .register_asset_loader(ParsedLoader::<Effect>::new(source.clone()))
            .register_asset_loader(TerrainLoader {
                source: source.clone(),
            })
            .register_asset_loader(ParsedLoader::<ArealMap>::new(source.clone()))
            .register_asset_loader(ParsedLoader::<Unit>::new(source.clone()))
            .register_asset_loader(ParsedLoader::<PrototypeRegistry>::new(source.clone()))
            .register_asset_loader(ParsedLoader::<AudioSource>::new(source));
    }
}

/// What a loader was asked for, as the source finds it now (the loaders of
/// shared formats parse it with [`source::Found::parsed`], so the mission
/// loader's checks and the asset share one parse; Bevy's reader delivered
/// the same bytes for change tracking).
fn found_input(source: &IronSource, ctx: &LoadContext<'_>) -> Result<source::Found, FormatError> {
    let path = ctx.path().path();
    source.read(path)?.ok_or_else(|| {
        FormatError::missing("iron://", "the asset's path in the source")
            .in_file(path.display().to_string())
    })
}

/// A loader's whole input and the path it was asked for (the origin
/// errors name); I/O errors name that path.
async fn read_input(
    reader: &mut dyn Reader,
    ctx: &LoadContext<'_>,
) -> Result<(PathBuf, Vec<u8>), FormatError> {
    let path = ctx.path().path().to_path_buf();
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| FormatError::io(&path, &e))?;
    Ok((path, bytes))
}
