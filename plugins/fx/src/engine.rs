//! Engines: a machine's engine effect runs while it moves and ends when
//! it stands or dies, so its loop sounds by control state. The game starts
//! its `eng_rb_*` / `eng_rl_*` loops from its controllers' section-5 action
//! groups (openparkan `docs/11-effects.md`, `docs/13-control.md`); until
//! those groups run here, our rule is the controller part's effect
//! ([`EngineEffect`]) while the machine is asked to move or moves faster
//! than [`RUNNING_SPEED`].

use crate::instance::Spawner;
use bevy::prelude::*;
use iron3d_combat::EffectCue;
use iron3d_control::PhysicalState;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{Destroyed, EngineEffect};

/// m/s: a machine slower than this and asked for nothing stands.
// STAND-IN: 0.5 m/s, and the engine effect is the controller part's first
// `FXID` while the machine is asked to move or moves faster (the game
// starts its engine loops from section-5 action groups, docs/13, no doc
// says which control state); settled by running those groups.
pub const RUNNING_SPEED: f32 = 0.5;

/// Whether a machine's engine runs.
fn running(state: &PhysicalState, destroyed: bool) -> bool {
    !destroyed
        && (state.requested.length() > f32::EPSILON
            || state.linear_velocity.length() > RUNNING_SPEED)
}

/// Starts the engines of machines that began to move and ends those of
/// machines that stopped, in original-id order.
pub(crate) fn run_engines(
    machines: Query<(
        &OriginalObjectId,
        &EngineEffect,
        &PhysicalState,
        &Transform,
        Has<Destroyed>,
    )>,
    mut spawner: Spawner,
) {
    let mut sorted: Vec<_> = machines.iter().collect();
    sorted.sort_by_key(|(id, ..)| **id);
    for (id, effect, state, frame, destroyed) in sorted {
        let runs = running(state, destroyed);
        let engine = spawner
            .instances()
            .iter_mut()
            .find(|i| i.engine && !i.stopping && i.owner == Some(*id));
        match (runs, engine) {
            (false, Some(engine)) => engine.stopping = true,
            (true, None) => {
                let cue = EffectCue {
                    effect: effect.0.clone(),
                    at: frame.translation,
                    rotation: frame.rotation,
                    scale: 1.0,
                    on: Some(id.raw()),
                    node: None,
                };
                if let Some(engine) = spawner.play(&cue, Some(frame)) {
                    engine.engine = true;
                }
            }
            _ => {}
        }
    }
}
