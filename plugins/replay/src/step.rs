//! A recorded step ([`Step`], the file's raw numbers) and the player's
//! input snapshot it records.

use crate::Step;
use iron3d_player::{Buttons, StepInput};

/// The record of `input` at `tick`.
pub fn step_of(tick: u64, input: &StepInput) -> Step {
    Step {
        tick,
        held: input.held.0,
        pressed: input.pressed.0,
        mouse: input.mouse.to_array(),
        sensitivity: input.sensitivity,
    }
}

/// The step input `step` records.
pub fn input_of(step: &Step) -> StepInput {
    StepInput {
        held: Buttons(step.held),
        pressed: Buttons(step.pressed),
        mouse: step.mouse.into(),
        sensitivity: step.sensitivity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_player::PlayerAction;

    #[test]
    fn an_idle_step_is_the_default_input_and_a_record_reads_back() {
        assert_eq!(input_of(&Step::IDLE), StepInput::default());
        let mut input = StepInput::default();
        input.held.set(PlayerAction::WalkForward, true);
        input.pressed.set(PlayerAction::Weapon1, true);
        input.mouse = bevy::math::Vec2::new(3.0, -1.0);
        input.sensitivity = 0.5;
        assert_eq!(input_of(&step_of(7, &input)), input);
        assert_eq!(step_of(7, &input).tick, 7);
    }
}
