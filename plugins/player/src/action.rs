//! What the player can do, and the set of buttons a snapshot carries.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// The player's actions. Every variant but [`PlayerAction::Mouse`] is a
/// button; the mouse is the motion in counts (pixels).
#[derive(Actionlike, Debug, Clone, Copy, PartialEq, Eq, Hash, Reflect)]
pub enum PlayerAction {
    /// `MCMD_WALK_F`: walk forward at the full live top speed.
    WalkForward,
    /// `MCMD_WALK_B`: walk backward.
    WalkBack,
    /// `MCMD_LEFT` / `MCMD_RIGHT`: the hull turns to the side and walks;
    /// the turret keeps its heading.
    StrafeLeft,
    StrafeRight,
    /// `CMD_FIRE_SELECTED_CONT`: the selected weapon fires while held.
    FirePrimary,
    /// `CMD_FIRE_ALL`: every weapon fires while held.
    FireSecondary,
    /// `CMD_SELECT_ALL_WEAPON`, `CMD_SELECT_WEAPON_1`..`_4`, and the next
    /// weapon in turn.
    SelectAll,
    Weapon1,
    Weapon2,
    Weapon3,
    Weapon4,
    NextWeapon,
    /// Keypad cruise (`CMD_OBJ_SPEED_*`, `CMD_OBJ_STOP`): `*` full ahead,
    /// `/` stop, `+`/`-` ramp.
    CruiseFull,
    CruiseStop,
    CruiseMore,
    CruiseLess,
    /// The cockpit camera's field of view steps (presentation only).
    ZoomIn,
    ZoomOut,
    /// Cycles the cockpit and the outer camera's places (presentation).
    CycleCamera,
    /// The free/orbit debug camera on and off (presentation).
    DebugCamera,
    /// The objectives screen on and off (presentation).
    Objectives,
    /// The pause menu on and off.
    Menu,
    /// Mouse motion: x turns the hull, y pitches the turret.
    #[actionlike(DualAxis)]
    Mouse,
}

impl PlayerAction {
    /// Every button action, in the order of their bits in [`Buttons`].
    pub const BUTTONS: [PlayerAction; 22] = [
        PlayerAction::WalkForward,
        PlayerAction::WalkBack,
        PlayerAction::StrafeLeft,
        PlayerAction::StrafeRight,
        PlayerAction::FirePrimary,
        PlayerAction::FireSecondary,
        PlayerAction::SelectAll,
        PlayerAction::Weapon1,
        PlayerAction::Weapon2,
        PlayerAction::Weapon3,
        PlayerAction::Weapon4,
        PlayerAction::NextWeapon,
        PlayerAction::CruiseFull,
        PlayerAction::CruiseStop,
        PlayerAction::CruiseMore,
        PlayerAction::CruiseLess,
        PlayerAction::ZoomIn,
        PlayerAction::ZoomOut,
        PlayerAction::CycleCamera,
        PlayerAction::DebugCamera,
        PlayerAction::Objectives,
        PlayerAction::Menu,
    ];

    /// Its name in the bindings file (the variant's name).
    pub fn name(self) -> String {
        format!("{self:?}")
    }

    /// The action of a bindings-file name.
    pub fn named(name: &str) -> Option<Self> {
        Self::BUTTONS
            .into_iter()
            .chain([PlayerAction::Mouse])
            .find(|a| a.name() == name)
    }

    fn bit(self) -> u32 {
        Self::BUTTONS
            .iter()
            .position(|a| *a == self)
            .map_or(0, |i| 1 << i)
    }
}

/// A set of button actions (one bit each, [`PlayerAction::BUTTONS`]
/// order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Reflect)]
pub struct Buttons(pub u32);

impl Buttons {
    pub fn has(self, action: PlayerAction) -> bool {
        self.0 & action.bit() != 0
    }

    pub fn set(&mut self, action: PlayerAction, on: bool) {
        if on {
            self.0 |= action.bit();
        } else {
            self.0 &= !action.bit();
        }
    }

    /// The buttons `actions` holds or has just pressed (`held`), or has
    /// pressed since the last sample (`pressed`).
    pub fn of(actions: &ActionState<PlayerAction>, pressed: bool) -> Self {
        let mut set = Self::default();
        for action in PlayerAction::BUTTONS {
            let on = if pressed {
                actions.just_pressed(&action)
            } else {
                actions.pressed(&action)
            };
            set.set(action, on);
        }
        set
    }
}
