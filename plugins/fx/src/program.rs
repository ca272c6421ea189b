//! Controllers' effect groups at run time (openparkan `docs/13-control.md`,
//! "Critical damage: block entries 6 and 7"; `docs/11-effects.md`,
//! "Starting, ending, switching"): block entry 0 runs for every object as
//! the mission starts running, entry 6 as a machine becomes critically
//! damaged (combat's `critical` event) and entry 7 as it recovers
//! (`recovered`), a state's group as the mover takes it and a state
//! contact's group as its foot lands (`iron3d_control::Gait::entered`,
//! `iron3d_control::Footing`; `docs/13-control.md`, "A footstep, end to
//! end"), each over the object's condition bits
//! ([`iron3d_formats::proto::ctld::running`]).
//!
//! The condition bits: byte 14 is the machine's critical damage (set
//! before entry 6 runs, cleared before entry 7); a stand-in (docs/facts.md
//! "Stand-ins"): the ground-surface bytes 0-10 and byte 15 are not tracked
//! and read clear.

use crate::instance::{FxInstance, Spawner};
use bevy::prelude::*;
use iron3d_combat::{Burning, EffectCue, EventKind};
use iron3d_control::{Footing, Gait};
use iron3d_formats::proto::ctld::{
    CONDITION_CRITICAL, GROUP_AT_LOAD, GROUP_CRITICAL, GROUP_RECOVERED, running,
};
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{Controller, EffectDoes, EffectGroup, EffectPrograms};

/// The condition bits of an object: byte 14 while it is critical.
// STAND-IN: the ground-surface bytes 0–10 and byte 15 read clear (the
// material class under the body, docs/24 "Ground and slope", is not
// tracked), so a retail step group plays its no-match step; settled by
// tracking the surface class under each mover.
pub fn conditions(critical: bool) -> u16 {
    u16::from(critical) << CONDITION_CRITICAL
}

/// Runs `group` of object `id` (its frame `frame`) over `conditions`.
pub(crate) fn run_group(
    spawner: &mut Spawner,
    id: OriginalObjectId,
    frame: &Transform,
    group: &EffectGroup,
    conditions: u16,
) {
    let now = spawner.now_ms();
    for (action, _) in group
        .actions
        .iter()
        .zip(running(&group.actions, conditions))
        .filter(|(_, runs)| *runs)
    {
        let held = |i: &FxInstance| i.owner == Some(id) && i.key == Some(action.key) && !i.stopping;
        if let EffectDoes::Make {
            effect: Some(effect),
            at,
        } = &action.does
        {
            // STAND-IN: a make under a key the object already holds keeps
            // the instance it has (docs/11 "Starting, ending, switching"
            // does not say); settled by reading action 3 in the effect
            // manager.
            if spawner.instances().iter().any(held) {
                continue;
            }
            let cue = EffectCue {
                effect: effect.clone(),
                at: frame.transform_point(*at),
                rotation: frame.rotation,
                scale: 1.0,
                on: Some(id.raw()),
                node: None,
            };
            if let Some(made) = spawner.play(&cue, Some(frame)) {
                made.key = Some(action.key);
            }
            continue;
        }
        let Some(inst) = spawner.instances().iter_mut().find(|i| held(i)) else {
            continue;
        };
        match action.does {
            EffectDoes::Delete => inst.stopping = true,
            EffectDoes::Start { mode } => inst.start(now, Some(mode)),
            EffectDoes::Restart => inst.restart = true,
            EffectDoes::Node(node) => inst.node = Some(node),
            EffectDoes::On => {
                inst.off = false;
                inst.commanded_ms = now;
            }
            EffectDoes::Off => inst.off = true,
            EffectDoes::Make { .. } | EffectDoes::Other => {}
        }
    }
}

/// Runs the groups combat's event `kind` on object `id` calls: entry 6 as
/// it becomes critical, 7 as it recovers.
pub(crate) fn on_event(
    spawner: &mut Spawner,
    id: OriginalObjectId,
    frame: &Transform,
    programs: &EffectPrograms,
    kind: EventKind,
) {
    let (entry, critical) = match kind {
        EventKind::Critical => (GROUP_CRITICAL, true),
        EventKind::Recovered => (GROUP_RECOVERED, false),
        _ => return,
    };
    for group in programs.of(entry) {
        run_group(spawner, id, frame, group, conditions(critical));
    }
}

/// Runs every object's block entry 0 as the mission starts running, in
/// original-id order.
// STAND-IN: entry 0 runs for every object as the mission starts running,
// in id order (docs/13 runs it "at load", before the clock); settled by
// reading when the loader runs block entry 0.
pub(crate) fn run_at_load(
    objects: Query<(&OriginalObjectId, &EffectPrograms, &Transform, Has<Burning>)>,
    mut spawner: Spawner,
) {
    let mut sorted: Vec<_> = objects.iter().collect();
    sorted.sort_by_key(|(id, ..)| **id);
    for (id, programs, frame, critical) in sorted {
        for group in programs.of(GROUP_AT_LOAD) {
            run_group(&mut spawner, *id, frame, group, conditions(critical));
        }
    }
}

/// What [`run_state_groups`] reads of a mover.
type StateGroupsOf = (
    &'static OriginalObjectId,
    &'static EffectPrograms,
    &'static Transform,
    &'static Gait,
    &'static Controller,
    Option<&'static Footing>,
    Has<Burning>,
);

/// Runs the groups the movers' states called this tick, in original-id
/// order: each state taken, as it was entered (`+0x90`), then each foot
/// that landed, in slot order.
pub(crate) fn run_state_groups(objects: Query<StateGroupsOf>, mut spawner: Spawner) {
    let mut called: Vec<_> = objects
        .iter()
        .filter(|(_, _, _, gait, _, footing, _)| {
            !gait.entered.is_empty() || footing.is_some_and(|f| !f.landed.is_empty())
        })
        .collect();
    called.sort_by_key(|(id, ..)| **id);
    for (id, programs, frame, gait, controller, footing, critical) in called {
        let entering = gait
            .entered
            .iter()
            .filter_map(|&s| usize::try_from(gait.graph.states[s].action_group).ok());
        let landing = footing.iter().flat_map(|f| &f.landed).map(|l| l.group);
        for group in entering.chain(landing) {
            if let Some(group) = programs.group(controller.part, group) {
                run_group(&mut spawner, *id, frame, group, conditions(critical));
            }
        }
    }
}
