//! The input snapshot: the devices are sampled once a frame (in
//! `Phase::BuildInputSnapshot`) into [`PendingInput`]; each fixed step
//! takes it as its [`StepInput`], the only outside input the simulation
//! reads. A press is an edge for exactly one step (the first after it),
//! mouse counts are spent by the step that takes them, and what is held
//! is held for every step until it is released. Focus loss releases
//! every key (Bevy's keyboard input does; the snapshot then holds
//! nothing).

use crate::action::{Buttons, PlayerAction};
use crate::pilot::MouseSensitivity;
use crate::view::{PlayerView, ViewMode};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// What the frames since the last fixed step sampled.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Default)]
pub struct PendingInput {
    pub held: Buttons,
    /// Pressed since the last step took them.
    pub pressed: Buttons,
    /// Mouse counts since the last step took them (x right, y down).
    pub mouse: Vec2,
}

/// One fixed step's input: everything from outside the simulation the
/// step reads (a replay records and plays back exactly this).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct StepInput {
    pub held: Buttons,
    pub pressed: Buttons,
    pub mouse: Vec2,
    /// The player's mouse sensitivity when the step took its input.
    pub sensitivity: f32,
}

impl Default for StepInput {
    /// Nothing held or pressed, no mouse, sensitivity 1.
    fn default() -> Self {
        Self {
            held: Buttons::default(),
            pressed: Buttons::default(),
            mouse: Vec2::ZERO,
            sensitivity: 1.0,
        }
    }
}

impl PendingInput {
    /// Adds one frame's action state.
    pub fn sample(&mut self, actions: &ActionState<PlayerAction>) {
        self.held = Buttons::of(actions, false);
        self.pressed.0 |= Buttons::of(actions, true).0;
        self.mouse += actions.axis_pair(&PlayerAction::Mouse);
    }

    /// The next step's input at `sensitivity`; edges and counts are
    /// spent.
    pub fn take(&mut self, sensitivity: f32) -> StepInput {
        let step = StepInput {
            held: self.held,
            pressed: self.pressed,
            mouse: self.mouse,
            sensitivity,
        };
        self.pressed = Buttons::default();
        self.mouse = Vec2::ZERO;
        step
    }
}

/// Whether a menu has the keys and the mouse (the hero gets none).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MenuOpen(pub bool);

/// The frame's sample of the player's action state; while the debug
/// camera has the view (its keys are the camera's), a menu is open, or the
/// action state is disabled (the inspector has the keyboard), the hero
/// gets nothing held.
pub(crate) fn sample(
    mut pending: ResMut<PendingInput>,
    view: Option<Res<PlayerView>>,
    menu: Option<Res<MenuOpen>>,
    actions: Query<&ActionState<PlayerAction>, With<PlayerInput>>,
) {
    let debug = view.is_some_and(|v| v.mode == ViewMode::Debug);
    let menu = menu.is_some_and(|m| m.0);
    for state in &actions {
        if debug || menu || state.disabled() {
            pending.held = Buttons::default();
        } else {
            pending.sample(state);
        }
    }
}

/// The step's input, taken at the start of the step.
pub(crate) fn take(
    mut pending: ResMut<PendingInput>,
    mut step: ResMut<StepInput>,
    sensitivity: Res<MouseSensitivity>,
) {
    *step = pending.take(sensitivity.0);
}

/// The entity that carries the player's input map and action state.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct PlayerInput;
