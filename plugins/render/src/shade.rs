//! The renderer's settings file, `shade.cfg`, read by the renderer's own
//! reader in the mission load.

use bevy::prelude::*;
use iron3d_formats::config::ini::{SHADE_CFG, SHADE_FROM_GAME_INI, Settings};
use iron3d_world::mission::{LoadError, ReadContext};

/// The renderer's settings, at the install's root (optional; no retail
/// install ships one).
const SHADE_FILE: &str = "shade.cfg";
/// The game's settings file, which writes three of them.
const GAME_FILE: &str = "iron_3d.ini";

/// The install's `shade.cfg` render settings as the mission load resolved
/// them (with the keys `iron_3d.ini` writes): the renderer's shadows,
/// lights and water read them by name.
#[derive(Resource, Debug, Clone)]
pub struct ShadeSettings(pub Settings);

impl ShadeSettings {
    /// A setting's effective number: the file's, else its compiled
    /// default, which the resolution already gave every `SHADE_CFG` key
    /// (0 for a name the table does not have).
    pub fn number(&self, key: &str) -> f64 {
        self.0.number(key).unwrap_or_default()
    }

    /// A flag setting: on unless it is 0.
    pub fn on(&self, key: &str) -> bool {
        self.number(key) != 0.0
    }
}

/// The renderer's reader in the mission load (foundation phase, after
/// `iron_3d.ini`): publishes [`ShadeSettings`].
pub(crate) fn read_shade_cfg(world: &mut World, load: &ReadContext) -> Result<(), LoadError> {
    let mut settings = load.settings(SHADE_FILE, SHADE_CFG)?;
    if let Some(game_ini) = load.game_ini() {
        settings.written_by(game_ini, GAME_FILE, SHADE_FROM_GAME_INI);
    }
    world.insert_resource(ShadeSettings(settings));
    Ok(())
}
