//! Control's part of a save: each mover's physical state, its place in
//! its gait graph and its planted feet, and the pairs touching. What
//! Control derives from the mission (bodies, ground and building faces,
//! the backend's colliders) is built again by its first step after the
//! load, around the saved state.

use crate::body::PhysicalState;
use crate::contact::TouchingPairs;
use crate::footing::Footing;
use crate::gait::{Gait, GaitGraph};
use bevy::prelude::*;
use iron3d_schedules::{AppStateSaveExt, RawValue, check_as, from_section, to_section};
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::Controller;
use iron3d_world::save::{AppSaveExt, object};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

pub(crate) fn plugin(app: &mut App) {
    app.save_object_component::<PhysicalState>("control")
        .save_resource::<TouchingPairs>("control_contacts")
        .add_state_save(
            "control_gait",
            save_gaits,
            check_as::<Vec<(u32, SavedGait)>>,
            restore_gaits,
        );
}

/// A mover's gait without its graph (its controller's, built again).
#[derive(Serialize, Deserialize)]
struct SavedGait {
    current: usize,
    queue: VecDeque<usize>,
    step_start: f64,
    step_length: f64,
    previous_q: f32,
    q: f32,
    uses: Vec<i32>,
    planted: u32,
}

fn save_gaits(world: &World) -> Result<Box<RawValue>, String> {
    let registry = world.resource::<ObjectRegistry>();
    let gaits: Vec<(u32, SavedGait)> = registry
        .iter()
        .filter_map(|(id, entity)| {
            let gait = world.get::<Gait>(entity)?;
            let planted = world.get::<Footing>(entity).map_or(0, |f| f.planted);
            Some((
                id.raw(),
                SavedGait {
                    current: gait.current,
                    queue: gait.queue.clone(),
                    step_start: gait.step_start,
                    step_length: gait.step_length,
                    previous_q: gait.previous_q,
                    q: gait.q,
                    uses: gait.uses.clone(),
                    planted,
                },
            ))
        })
        .collect();
    to_section(&gaits)
}

/// Each saved mover's gait on the graph of its controller's states (the
/// first step gives the others theirs, as at a mission's start).
fn restore_gaits(world: &mut World, state: &RawValue) -> Result<(), String> {
    let saved: Vec<(u32, SavedGait)> = from_section(state)?;
    for (id, gait) in saved {
        let entity = object(world, id)?;
        let controller = world
            .get::<Controller>(entity)
            .ok_or_else(|| format!("object 0x{id:08x} has a gait and no controller"))?;
        let graph = GaitGraph::new(&controller.states)
            .ok_or_else(|| format!("object 0x{id:08x}: its controller has no states"))?;
        let states = graph.states.len();
        let fits = |s: &usize| *s < states;
        if !fits(&gait.current) || !gait.queue.iter().all(fits) || gait.uses.len() != states {
            return Err(format!(
                "object 0x{id:08x}: the gait names states its controller's {states} do not have"
            ));
        }
        let restored = Gait {
            graph: Arc::new(graph),
            current: gait.current,
            queue: gait.queue,
            step_start: gait.step_start,
            step_length: gait.step_length,
            previous_q: gait.previous_q,
            q: gait.q,
            uses: gait.uses,
            entered: Vec::new(),
        };
        let footing = Footing {
            planted: gait.planted,
            landed: Vec::new(),
        };
        world.entity_mut(entity).insert((restored, footing));
    }
    Ok(())
}
