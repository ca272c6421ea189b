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
//!
//! The bindings before the file (what its first writing holds) are the
//! code's defaults with the install's `hero.tbl`, then its `addition.man`,
//! laid over them ([`Bindings::of_install`]): each action the table's
//! press rows or the key map's bindings bind takes their keys instead of
//! the default ones.

use crate::action::PlayerAction;
use bevy::prelude::*;
use bevy::reflect::FromReflect;
use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
use iron3d_formats::config::input_table::{InputRow, InputTable, NO_MODIFIER};
use iron3d_formats::config::key_map::{KeyMap, PLAY_KEYS};
use iron3d_formats::source::Source;
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
    /// keypad cruise).
    // STAND-IN: the other keys (mouse buttons fire, 0–4 and Q the weapons,
    // Z/X zoom, C and F4 the cameras, F12 objectives, Esc the menu) are
    // ours, GAMEPLAY §2 naming only those; settled by the retail
    // `hero.tbl` and `*.man` rows, which are laid over these at load.
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

/// The action a press row of an input table (`hero.tbl`) binds, by its
/// identity (the `Command.dsc` name without `CMD_`, openparkan
/// `docs/14-controls.md`) or else by its class and command.
fn table_action(row: &InputRow) -> Option<PlayerAction> {
    use PlayerAction as A;
    let by_identity = match row.identity.as_deref().unwrap_or_default() {
        "FIRE_SELECTED_CONT" => Some(A::FirePrimary),
        "FIRE_ALL" => Some(A::FireSecondary),
        "SELECT_ALL_WEAPON" => Some(A::SelectAll),
        "SELECT_WEAPON_1" => Some(A::Weapon1),
        "SELECT_WEAPON_2" => Some(A::Weapon2),
        "SELECT_WEAPON_3" => Some(A::Weapon3),
        "SELECT_WEAPON_4" => Some(A::Weapon4),
        "OBJ_SPEED_MAX" => Some(A::CruiseFull),
        "OBJ_STOP" => Some(A::CruiseStop),
        "OBJ_SPEED_MORE" => Some(A::CruiseMore),
        "OBJ_SPEED_LESS" => Some(A::CruiseLess),
        _ => None,
    };
    by_identity.or(match (row.class.as_str(), row.command.as_str()) {
        (_, "MCMD_WALK_F") => Some(A::WalkForward),
        (_, "MCMD_WALK_B") => Some(A::WalkBack),
        ("CICLS_UNKNOWN", "MCMD_LEFT") => Some(A::StrafeLeft),
        ("CICLS_UNKNOWN", "MCMD_RIGHT") => Some(A::StrafeRight),
        ("CICLS_MULTIGUN", "MCMD_SELECT_NEXT") => Some(A::NextWeapon),
        ("CICLS_MULTIGUN", "MCMD_SELECT") => match row.index {
            0 => Some(A::SelectAll),
            1 => Some(A::Weapon1),
            2 => Some(A::Weapon2),
            3 => Some(A::Weapon3),
            4 => Some(A::Weapon4),
            _ => None,
        },
        _ => None,
    })
}

/// The input of a `SCAN_*` name (`ScanCode.dsc`'s identifiers, IBM PC set-1
/// keys). Attested names (openparkan `docs/14-controls.md`, `docs/26`):
/// `SCAN_A`, `SCAN_G`, `SCAN_W_1`, `SCAN_ESC`, `SCAN_LSHIFT`, `SCAN_F1`,
/// `SCAN_G_PLUS`, `SCAN_LMOUSE`; the rest follow their families' spelling:
/// letters, `SCAN_W_0`..`9` the number row, `SCAN_F1`..`F12`, `SCAN_G_*`
/// the keypad.
// STAND-IN: the names docs/14 and docs/26 do not attest are spelt by their
// families; settled by the retail `ScanCode.dsc`'s identifiers.
pub fn scan_input(name: &str) -> Option<Input> {
    use KeyCode::*;
    let rest = name.strip_prefix("SCAN_")?;
    const LETTERS: [KeyCode; 26] = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ];
    const PAD: [KeyCode; 10] = [
        Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8, Numpad9,
    ];
    const F: [KeyCode; 12] = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12];
    let digit = |s: &str| s.parse::<usize>().ok().filter(|&d| d < 10 && s.len() == 1);
    let key = match rest.as_bytes() {
        [c @ b'A'..=b'Z'] => LETTERS[usize::from(c - b'A')],
        _ if rest.starts_with("W_") => DIGITS[digit(&rest[2..])?],
        _ if rest.starts_with("F") && rest.len() > 1 => {
            *F.get(rest[1..].parse::<usize>().ok()?.checked_sub(1)?)?
        }
        _ => match rest {
            "ESC" => Escape,
            "LSHIFT" => ShiftLeft,
            "RSHIFT" => ShiftRight,
            "SPACE" => Space,
            "TAB" => Tab,
            "ENTER" => Enter,
            "UP" => ArrowUp,
            "DOWN" => ArrowDown,
            "LEFT" => ArrowLeft,
            "RIGHT" => ArrowRight,
            "G_PLUS" => NumpadAdd,
            "G_MINUS" => NumpadSubtract,
            "G_STAR" => NumpadMultiply,
            "G_SLASH" => NumpadDivide,
            "LMOUSE" => return Some(Input::Mouse(MouseButton::Left)),
            "RMOUSE" => return Some(Input::Mouse(MouseButton::Right)),
            "MMOUSE" => return Some(Input::Mouse(MouseButton::Middle)),
            _ if rest.starts_with("G_") => PAD[digit(&rest[2..])?],
            _ => return None,
        },
    };
    Some(Input::Key(key))
}

impl Bindings {
    /// These bindings with the press rows of an input table laid over
    /// them: every action the table binds takes the table's inputs (in
    /// row order) instead of its own. Returns what of the table could not
    /// be taken, a sentence per row (a chord, a key with no input here).
    pub fn with_table(self, table: &InputTable) -> (Self, Vec<String>) {
        self.lay(table.rows.iter().filter(|r| r.press).filter_map(|row| {
            Some(Laid {
                line: row.line,
                action: table_action(row)?,
                modifier: &row.modifier,
                key: &row.key,
            })
        }))
    }

    /// These bindings with a key map's (`addition.man`) bindings of the
    /// commands the game carries laid over them, as
    /// [`Bindings::with_table`] lays a table's.
    pub fn with_key_map(self, map: &KeyMap) -> (Self, Vec<String>) {
        self.lay(map.bindings.iter().filter_map(|b| {
            Some(Laid {
                line: b.line,
                action: command_action(&b.command)?,
                modifier: &b.modifier,
                key: &b.key,
            })
        }))
    }

    /// Every action `rows` bind takes their inputs (in order) instead of
    /// its own; a chord or a key with no input here is a sentence of the
    /// answer.
    fn lay<'a>(mut self, rows: impl Iterator<Item = Laid<'a>>) -> (Self, Vec<String>) {
        let mut taken: BTreeMap<usize, Vec<Input>> = BTreeMap::new();
        let mut problems = Vec::new();
        for row in rows {
            let refuse = |why: String| format!("line {}: {}: {why}", row.line, row.action.name());
            if row.modifier != NO_MODIFIER {
                problems.push(refuse(format!(
                    "the chord {} + {} is not bound here",
                    row.modifier, row.key
                )));
                continue;
            }
            match scan_input(row.key) {
                Some(input) => {
                    let slot = self.0.iter().position(|(a, _)| *a == row.action);
                    if let Some(i) = slot {
                        let inputs = taken.entry(i).or_default();
                        if !inputs.contains(&input) {
                            inputs.push(input);
                        }
                    }
                }
                _ => problems.push(refuse(format!("{} has no input here", row.key))),
            }
        }
        for (i, inputs) in taken {
            self.0[i].1 = inputs;
        }
        (self, problems)
    }

    /// The code's defaults with the install's `hero.tbl`, then its
    /// `addition.man`, laid over them ([`Bindings::with_table`],
    /// [`Bindings::with_key_map`]), read through the install's layers (mod
    /// directories first). An install without them gives the defaults; a
    /// file that does not read, or bindings that cannot be taken, are
    /// logged with the file and line, and the rest stays.
    pub fn of_install(game_dir: &Path, mod_dirs: &[PathBuf]) -> Self {
        let source = match Source::new(game_dir, mod_dirs) {
            Ok(source) => source,
            Err(e) => {
                error!(
                    "bindings: {}: {e}; the default bindings stay",
                    game_dir.display()
                );
                return Self::default();
            }
        };
        let bindings = layer(Self::default(), &source, HERO_TABLE, |b, data| {
            Ok(b.with_table(&InputTable::parse(data)?))
        });
        layer(bindings, &source, PLAY_KEYS, |b, data| {
            Ok(b.with_key_map(&KeyMap::parse(data)?))
        })
    }
}

/// `bindings` with the install's `file` laid over them by `lay`; as they
/// were when the install has no such file or it does not read (logged).
fn layer(
    bindings: Bindings,
    source: &Source,
    file: &str,
    lay: impl FnOnce(Bindings, &[u8]) -> iron3d_formats::error::Result<(Bindings, Vec<String>)>,
) -> Bindings {
    let game_dir = source.game_dir().display();
    let found = match source.read_legacy(file.as_bytes()) {
        Ok(Some(found)) => found,
        Ok(None) => return bindings,
        Err(e) => {
            error!("bindings: {game_dir} -> {file}: {e}; the bindings before it stay");
            return bindings;
        }
    };
    match lay(bindings.clone(), found.bytes()) {
        Ok((laid, problems)) => {
            for problem in problems {
                warn!("bindings: {game_dir} -> {file} {problem}");
            }
            laid
        }
        Err(e) => {
            error!("bindings: {game_dir} -> {file}: {e}; the bindings before it stay");
            bindings
        }
    }
}

/// One binding an install's file gives an action: its line and its chord.
struct Laid<'a> {
    line: usize,
    action: PlayerAction,
    modifier: &'a str,
    key: &'a str,
}

/// The action a key map's command binds (openparkan `docs/40-command-mode.md`,
/// "Input"): the objectives screen, and the game menu (our pause menu),
/// which Esc's `CMD_ROLLBACK_STATE` (leave the machine or the mode) opens
/// and closes too.
// STAND-IN: `CMD_ROLLBACK_STATE` opens and closes our pause menu, the game
// having no other mode to leave here (docs/40 "Input"); settled when the
// machine and the modes it would leave exist.
fn command_action(command: &str) -> Option<PlayerAction> {
    match command {
        "CMD_JAMES_MISSION_OBJ" => Some(PlayerAction::Objectives),
        "CMD_GAME_MENU" | "CMD_ROLLBACK_STATE" => Some(PlayerAction::Menu),
        _ => None,
    }
}

/// The pilot's input table in the install's root.
pub const HERO_TABLE: &str = "hero.tbl";

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
        let read = iron3d_formats::fsutil::read_bounded(&self.path, MAX_BINDINGS_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|bytes| String::from_utf8(bytes).map_err(|e| e.to_string()))
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
/// The most bytes a bindings file may have (a full one is a few
/// kilobytes).
const MAX_BINDINGS_BYTES: u64 = 1 << 20;

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
