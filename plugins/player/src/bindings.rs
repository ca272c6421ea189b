//! Remappable bindings: defaults in code, a RON file in the user's config
//! directory (`$XDG_CONFIG_HOME/iron3d/bindings.ron`, else
//! `$HOME/.config/iron3d/bindings.ron`) written on the first run, re-read
//! when it changes; a file that does not read is reported and the bindings
//! in use are kept.
//!
//! The file maps each action's name to its inputs:
//!
//! ```ron
//! {
//!     "WalkForward": ["KeyW", "ArrowUp"],
//!     "FirePrimary": ["MouseLeft"],
//!     "Mouse": ["MouseMotion"],
//! }
//! ```
//!
//! Keys are Bevy's `KeyCode` names (`KeyW`, `Digit1`, `NumpadAdd`,
//! `F5`, ...), mouse buttons `MouseLeft`, `MouseRight`, `MouseMiddle`,
//! `MouseBack`, `MouseForward`; `Mouse` takes `MouseMotion` (or nothing).
//! An action the file leaves out keeps no binding.

use crate::action::PlayerAction;
use bevy::prelude::*;
use bevy::reflect::FromReflect;
use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
use leafwing_input_manager::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// One input a binding names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Key(KeyCode),
    Mouse(MouseButton),
    MouseMotion,
}

const MOUSE_BUTTONS: [(&str, MouseButton); 5] = [
    ("MouseLeft", MouseButton::Left),
    ("MouseRight", MouseButton::Right),
    ("MouseMiddle", MouseButton::Middle),
    ("MouseBack", MouseButton::Back),
    ("MouseForward", MouseButton::Forward),
];

impl Input {
    /// The input of a bindings-file name.
    pub fn named(name: &str) -> Option<Self> {
        if name == "MouseMotion" {
            return Some(Input::MouseMotion);
        }
        if let Some((_, b)) = MOUSE_BUTTONS.iter().find(|(n, _)| *n == name) {
            return Some(Input::Mouse(*b));
        }
        // A key by its variant's name (unit variants only).
        KeyCode::from_reflect(&DynamicEnum::new(name, DynamicVariant::Unit)).map(Input::Key)
    }

    pub fn name(self) -> String {
        match self {
            Input::Key(k) => format!("{k:?}"),
            Input::Mouse(b) => MOUSE_BUTTONS
                .iter()
                .find(|(_, m)| *m == b)
                .map_or_else(|| format!("{b:?}"), |(n, _)| n.to_string()),
            Input::MouseMotion => "MouseMotion".to_string(),
        }
    }
}

/// Every action's inputs, in [`PlayerAction::BUTTONS`] order then the
/// mouse.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Bindings(pub Vec<(PlayerAction, Vec<Input>)>);

impl Default for Bindings {
    /// The hero's defaults (GAMEPLAY §2 "Input": W/S walk, A/D strafe, the
    /// keypad cruise; the rest ours).
    fn default() -> Self {
        use KeyCode::*;
        use PlayerAction as A;
        let key = |k| Input::Key(k);
        Self(vec![
            (A::WalkForward, vec![key(KeyW)]),
            (A::WalkBack, vec![key(KeyS)]),
            (A::StrafeLeft, vec![key(KeyA)]),
            (A::StrafeRight, vec![key(KeyD)]),
            (A::FirePrimary, vec![Input::Mouse(MouseButton::Left)]),
            (A::FireSecondary, vec![Input::Mouse(MouseButton::Right)]),
            (A::SelectAll, vec![key(Digit0)]),
            (A::Weapon1, vec![key(Digit1)]),
            (A::Weapon2, vec![key(Digit2)]),
            (A::Weapon3, vec![key(Digit3)]),
            (A::Weapon4, vec![key(Digit4)]),
            (A::NextWeapon, vec![key(KeyQ)]),
            (A::CruiseFull, vec![key(NumpadMultiply)]),
            (A::CruiseStop, vec![key(NumpadDivide)]),
            (A::CruiseMore, vec![key(NumpadAdd)]),
            (A::CruiseLess, vec![key(NumpadSubtract)]),
            (A::ZoomIn, vec![key(KeyZ)]),
            (A::ZoomOut, vec![key(KeyX)]),
            (A::CycleCamera, vec![key(KeyC)]),
            (A::DebugCamera, vec![key(F4)]),
            (A::Objectives, vec![key(F12)]),
            (A::Menu, vec![key(Escape)]),
            (A::Mouse, vec![Input::MouseMotion]),
        ])
    }
}

impl Bindings {
    /// The file's text for these bindings.
    pub fn to_ron(&self) -> String {
        let map: BTreeMap<String, Vec<String>> = self
            .0
            .iter()
            .map(|(a, inputs)| (a.name(), inputs.iter().map(|i| i.name()).collect()))
            .collect();
        let config = ron::ser::PrettyConfig::default();
        ron::ser::to_string_pretty(&map, config).unwrap_or_default()
    }

    /// Bindings from a file's text; the first name that is not an action
    /// or an input (or an input the action cannot take) is the error.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        let map: BTreeMap<String, Vec<String>> =
            ron::from_str(text).map_err(|e| format!("not a map of names: {e}"))?;
        let mut list: Vec<(PlayerAction, Vec<Input>)> = Vec::new();
        for (action_name, inputs) in &map {
            let action = PlayerAction::named(action_name)
                .ok_or_else(|| format!("`{action_name}` is not an action"))?;
            let inputs = inputs
                .iter()
                .map(|name| {
                    let input = Input::named(name)
                        .ok_or_else(|| format!("`{action_name}`: `{name}` is not an input"))?;
                    let motion = matches!(input, Input::MouseMotion);
                    if motion != (action == PlayerAction::Mouse) {
                        return Err(format!("`{action_name}` cannot be bound to `{name}`"));
                    }
                    Ok(input)
                })
                .collect::<Result<Vec<_>, String>>()?;
            list.push((action, inputs));
        }
        let order = |a: &PlayerAction| {
            PlayerAction::BUTTONS
                .iter()
                .position(|b| b == a)
                .unwrap_or(PlayerAction::BUTTONS.len())
        };
        list.sort_by_key(|(a, _)| order(a));
        Ok(Self(list))
    }

    /// The leafwing input map of these bindings.
    pub fn input_map(&self) -> InputMap<PlayerAction> {
        let mut map = InputMap::default();
        for (action, inputs) in &self.0 {
            for input in inputs {
                match *input {
                    Input::Key(k) => {
                        map.insert(*action, k);
                    }
                    Input::Mouse(b) => {
                        map.insert(*action, b);
                    }
                    Input::MouseMotion => {
                        map.insert_dual_axis(*action, MouseMove::default());
                    }
                }
            }
        }
        map
    }
}

/// The user's bindings file and what became of its last reading.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct BindingsFile {
    pub path: PathBuf,
    /// The modification time last read (`None`: not read yet).
    pub read_at: Option<SystemTime>,
    /// Why the file in place is not in use (the bindings before it are).
    pub error: Option<String>,
}

impl BindingsFile {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            read_at: None,
            error: None,
        }
    }

    /// The file in the user's config directory, when one is known.
    pub fn in_config_dir() -> Option<Self> {
        let dir = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".config")))?;
        Some(Self::new(dir.join("iron3d").join("bindings.ron")))
    }

    /// Writes `bindings` as the file when there is none (write, then
    /// rename). A failure is reported and the game goes on.
    fn write_first(&mut self, bindings: &Bindings) {
        if self.path.exists() {
            return;
        }
        let written = self
            .path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                iron3d_formats::fsutil::write_atomic(&self.path, bindings.to_ron().as_bytes())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            warn!("bindings: could not write {}: {e}", self.path.display());
        }
    }

    /// The file's bindings when it changed since the last reading; a file
    /// that does not read sets [`BindingsFile::error`] and gives nothing.
    fn changed(&mut self) -> Option<Bindings> {
        let modified = std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok()?;
        if self.read_at == Some(modified) {
            return None;
        }
        self.read_at = Some(modified);
        let read = std::fs::read_to_string(&self.path)
            .map_err(|e| e.to_string())
            .and_then(|text| Bindings::from_ron(&text));
        match read {
            Ok(bindings) => {
                self.error = None;
                info!("bindings: read {}", self.path.display());
                Some(bindings)
            }
            Err(e) => {
                let e = format!("{}: {e}; the previous bindings stay", self.path.display());
                error!("bindings: {e}");
                self.error = Some(e);
                None
            }
        }
    }
}

/// Wall-clock time between looks at the bindings file (the file is the
/// user's, outside the game: the wall clock, not the game's, paces it).
const POLL: Duration = Duration::from_millis(500);

/// Writes the file on the first run, then reads it whenever it changes
/// and puts its bindings in use.
pub(crate) fn watch_file(
    mut last: Local<Option<Instant>>,
    file: Option<ResMut<BindingsFile>>,
    mut bindings: ResMut<Bindings>,
    mut maps: Query<&mut InputMap<PlayerAction>>,
) {
    let Some(mut file) = file else { return };
    if last.is_some_and(|t| t.elapsed() < POLL) {
        return;
    }
    *last = Some(Instant::now());
    if file.read_at.is_none() {
        file.write_first(&bindings);
    }
    if let Some(read) = file.changed() {
        *bindings = read;
        for mut map in &mut maps {
            *map = bindings.input_map();
        }
    }
}
