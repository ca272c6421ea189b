//! Quicksave and quickload: F5 (or the pause menu's Save) saves the
//! running mission's session to the quick save file; F9 (or Load) loads
//! it: the mission loads anew and takes the saved state, and the player
//! has the hero where the save left it (the state is the saved one, tick
//! for tick). A missing or broken save, or one whose state is not of this
//! build's shape, is reported and the running game goes on untouched.
//! Needs the replay crate's `RecordPlugin` (the session) and
//! `LoadsPlugin`.

use bevy::prelude::*;
use iron3d_replay::{PendingLoad, Replay, save_now};
use iron3d_schedules::{GameClock, StateSave};
use iron3d_world::mission::{LoadedMission, MissionChange, MissionCommand, MissionRequest};
use std::path::PathBuf;

/// The quick save file and what its last use said.
#[derive(Resource, Debug, Clone)]
pub struct QuickSave {
    pub path: PathBuf,
    /// The last save's or load's outcome, for the pause menu.
    pub status: Option<String>,
}

impl QuickSave {
    /// `$XDG_DATA_HOME/iron3d/quick.ron` (else `~/.local/share/...`);
    /// `None` without a home.
    pub fn in_data_dir() -> Option<Self> {
        let base = std::env::var_os("XDG_DATA_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
        Some(Self {
            path: base.join("iron3d").join("quick.ron"),
            status: None,
        })
    }
}

/// A save or load asked for this frame (by key or menu).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct SaveRequest {
    pub save: bool,
    pub load: bool,
}

/// F5 saves, F9 loads.
pub(crate) fn keys(keys: Res<ButtonInput<KeyCode>>, mut request: ResMut<SaveRequest>) {
    request.save |= keys.just_pressed(KeyCode::F5);
    request.load |= keys.just_pressed(KeyCode::F9);
}

/// Carries out the frame's request.
pub(crate) fn apply(world: &mut World) {
    let request = std::mem::take(&mut *world.resource_mut::<SaveRequest>());
    let Some(quick) = world.get_resource::<QuickSave>().cloned() else {
        return;
    };
    if request.save {
        if let Some(dir) = quick.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let status = match save_now(world, &quick.path) {
            Ok(tick) => format!("saved at tick {tick}"),
            Err(e) => format!("not saved: {e}"),
        };
        world.resource_mut::<QuickSave>().status = Some(status);
    }
    if request.load {
        let status = match load(world, &quick.path) {
            Ok(tick) => format!("loading tick {tick}"),
            Err(e) => {
                warn!("quickload: {e}");
                format!("not loaded: {e}")
            }
        };
        world.resource_mut::<QuickSave>().status = Some(status);
    }
}

/// Asks the mission slot for the save's mission with its steps to play
/// again; its tick.
fn load(world: &mut World, path: &std::path::Path) -> Result<u64, String> {
    let save = Replay::load(path).map_err(|e| e.to_string())?;
    let step = world.resource::<GameClock>().timestep();
    if std::time::Duration::from_secs_f64(1.0 / save.rate) != step {
        return Err(format!(
            "made at {} steps a second, the game runs at {} (start it with --rate {})",
            save.rate,
            1.0 / step.as_secs_f64(),
            save.rate
        ));
    }
    // A state of another shape is refused while the game still runs.
    if let Some(state) = &save.state {
        StateSave::check(world, state).map_err(|e| e.to_string())?;
    }
    let loaded = world
        .get_resource::<LoadedMission>()
        .ok_or("no install is loaded")?
        .0
        .clone();
    let tick = save.end_tick;
    let request = MissionRequest {
        mission: Some(save.mission.clone()),
        ..loaded
    };
    world.insert_resource(PendingLoad::save(save));
    world
        .resource_mut::<MissionChange>()
        .request(MissionCommand::Load(request));
    Ok(tick)
}
