//! Footsteps (openparkan `docs/13-control.md`, "A footstep, end to end";
//! `COMPLETED-QUESTIONS.md`: a contact's flags are worked out each time a
//! state is taken): a contact is down while the state playing ends with
//! its point within [`DOWN_WITHIN`] of its rest height (the blend of the
//! two pairs' last frames by the step's weight). Once a tick, after the
//! gait steps, a contact that is down and was not planted lands, and its
//! section-5 group runs (the effects plugin carries it out); one that is
//! no longer down lifts. A contact on a destroyed node is skipped. So one
//! step sounds each time the machine takes a state ending on that foot
//! after one that did not.
//!
//! The planted bits are simulation state (hashed with the gait); the
//! landings are this tick's output.

use crate::gait::Gait;
use bevy::prelude::*;
use iron3d_world::mission::{Controller, NodeLife, NodeRef, StateFoot};
use iron3d_world::{ObjectRegistry, PendingDelete};

/// m: how near its rest height a contact's point must end a state to be
/// down.
pub const DOWN_WITHIN: f32 = 0.1;

/// A mover's feet.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Footing {
    /// Bit `k`: contact slot `k` is planted.
    pub planted: u32,
    /// The contacts that landed this tick, in slot order.
    pub landed: Vec<Landing>,
}

/// A contact that landed: the section-5 group it runs (of the mover's
/// controller).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landing {
    pub slot: usize,
    pub group: usize,
}

impl Footing {
    /// A mover's feet as it is placed: every contact down in its first
    /// state is planted already (it stands; no step sounds as it loads).
    // STAND-IN: the first state's down contacts start planted (docs/13 "A
    // footstep, end to end" does not say what a mission's first tick
    // hears); settled by listening to a retail mission's first second.
    pub fn standing(gait: &Gait) -> Self {
        let planted = gait.graph.feet[gait.current]
            .iter()
            .filter(|foot| down(foot, gait.q))
            .fold(0, |bits, foot| bits | bit(foot.slot));
        Self {
            planted,
            landed: Vec::new(),
        }
    }
}

/// Whether `foot` ends its state down at blend weight `q`.
// STAND-IN: a state's height is the blend by q of the heights at the last
// frames of pair A and pair B, measured at load (the game poses the mesh
// at the state's last pose); settled by comparing with the live record's
// heights in a retail session (openparkan docs/13).
fn down(foot: &StateFoot, q: f32) -> bool {
    foot.lift
        .is_some_and(|[a, b]| ((1.0 - q) * a + q * b).abs() <= DOWN_WITHIN)
}

/// The planted bit of `slot` (slots past 31 have none).
fn bit(slot: usize) -> u32 {
    1u32.checked_shl(slot as u32).unwrap_or(0)
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        place_feet
            .in_set(iron3d_schedules::SimStep::Animate)
            .after(crate::gait::advance_gaits),
    );
}

/// Every mover's ground-contact pass, in id order.
fn place_feet(
    registry: Res<ObjectRegistry>,
    mut movers: Query<
        (&Gait, &Controller, Option<&NodeLife>, &mut Footing),
        Without<PendingDelete>,
    >,
) {
    for (_, entity) in registry.iter() {
        let Ok((gait, controller, life, mut footing)) = movers.get_mut(entity) else {
            continue;
        };
        let part = controller.part;
        let destroyed = |node| life.is_some_and(|l| l.of(NodeRef { part, node }) <= 0.0);
        let footing = &mut *footing;
        footing.landed.clear();
        for foot in &gait.graph.feet[gait.current] {
            if foot.node.is_some_and(destroyed) || bit(foot.slot) == 0 {
                continue;
            }
            let planted = footing.planted & bit(foot.slot) != 0;
            match (planted, down(foot, gait.q)) {
                (false, true) => {
                    footing.planted |= bit(foot.slot);
                    if let Some(group) = foot.group {
                        footing.landed.push(Landing {
                            slot: foot.slot,
                            group,
                        });
                    }
                }
                (true, false) => footing.planted &= !bit(foot.slot),
                _ => {}
            }
        }
    }
}
