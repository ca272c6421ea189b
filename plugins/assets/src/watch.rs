//! Hot reload: a debounced watcher on the game and mod directories that
//! reports, as [`AssetSourceEvent::ModifiedAsset`], exactly the `iron://`
//! paths already read whose bytes changed (see [`IronSource::changed`]): a
//! rewritten archive reloads only its entries whose bytes differ, and a
//! loose override added to or removed from a mod directory reloads the entry
//! it shadows. The debounce window absorbs writes in progress and the
//! write-then-rename pattern of editors.

use crate::source::IronSource;
use bevy::asset::io::{AssetSourceEvent, AssetWatcher};
use bevy::log::{error, info};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The default debounce window.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// Keeps the debounced watchers of every layer root alive.
pub struct IronWatcher {
    _debouncers: Vec<Debouncer<RecommendedWatcher, RecommendedCache>>,
}

impl AssetWatcher for IronWatcher {}

impl IronWatcher {
    /// Watches every root of `source`; `None` (logged) when a root cannot
    /// be watched.
    pub fn new(
        source: Arc<IronSource>,
        sender: async_channel::Sender<AssetSourceEvent>,
        debounce: Duration,
    ) -> Option<Self> {
        let mut debouncers = Vec::new();
        for root in source.roots() {
            let (source, sender) = (source.clone(), sender.clone());
            let handler = move |result: DebounceEventResult| match result {
                Ok(events) => {
                    let touched: Vec<PathBuf> = events
                        .iter()
                        .flat_map(|e| e.paths.iter().cloned())
                        .collect();
                    for path in source.changed(&touched) {
                        info!("iron://{} changed on disk: reloading", path.display());
                        // The receiver lives as long as the asset server.
                        let _ = sender.send_blocking(AssetSourceEvent::ModifiedAsset(path));
                    }
                }
                Err(errors) => error!("iron:// watcher: {errors:?}"),
            };
            let mut debouncer = match new_debouncer(debounce, None, handler) {
                Ok(d) => d,
                Err(e) => {
                    error!("iron:// watcher not started: {e}");
                    return None;
                }
            };
            if let Err(e) = debouncer.watch(root, RecursiveMode::Recursive) {
                error!("iron:// cannot watch {}: {e}", root.display());
                return None;
            }
            debouncers.push(debouncer);
        }
        Some(Self {
            _debouncers: debouncers,
        })
    }
}
