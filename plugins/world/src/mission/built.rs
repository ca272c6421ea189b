//! Objects made in play: a factory's robot. The install's designs (unit
//! DATs, openparkan `docs/38-designs.md`) are resolved and prepared with
//! the mission's placed objects, so that making one in play reads no file;
//! [`spawn_built`] makes one with a new original id and registers it at
//! once. Saves keep what was made ([`Built`]), and a save's objects made
//! in play are made again before their state is put back.

use super::load::{DesignPlan, Prepared};
use super::{Difficulty, ObjectSpec, spawn_object};
use crate::{ObjectRegistry, OriginalObjectId};
use bevy::prelude::*;
use iron3d_formats::tma::{ObjectKind, PlacedObject, Property};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The designs of the install, prepared at load, and what making one
/// needs.
#[derive(Resource)]
pub struct Blueprints {
    prepared: Arc<Prepared>,
    designs: Vec<DesignPlan>,
    difficulty: Difficulty,
}

/// A design as the economy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    /// Its name (the file's stem).
    pub name: String,
    /// Its unit file's Type word.
    pub unit_type: u32,
    /// Each part's prototype key, the chassis first.
    pub parts: Vec<Vec<u8>>,
}

impl Blueprints {
    pub(super) fn new(
        prepared: Arc<Prepared>,
        designs: Vec<DesignPlan>,
        difficulty: Difficulty,
    ) -> Self {
        Self {
            prepared,
            designs,
            difficulty,
        }
    }

    /// The designs in the order a factory offers them.
    pub fn designs(&self) -> impl Iterator<Item = Design> + '_ {
        self.designs.iter().map(Design::of)
    }

    /// The design named `name` (ASCII case-insensitive).
    pub fn design(&self, name: &str) -> Option<Design> {
        self.plan(name).map(Design::of)
    }

    fn plan(&self, name: &str) -> Option<&DesignPlan> {
        self.designs
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
    }
}

impl Design {
    fn of(plan: &DesignPlan) -> Self {
        Self {
            name: plan.name.clone(),
            unit_type: plan.unit_type,
            parts: plan.parts.iter().map(|p| p.key.clone()).collect(),
        }
    }
}

/// Marks an object made in play: the design it was made from, for which
/// clan, where (original Z-up frame) and turned how far about Z.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[reflect(Component)]
pub struct Built {
    pub design: String,
    pub clan: u32,
    pub position: [f32; 3],
    pub yaw: f32,
}

/// The id an object made now takes: one above every id the mission has
/// used, live or deleted (so an id never names two objects in one game;
/// deterministic, as the registry is simulation state).
pub fn next_id(registry: &ObjectRegistry) -> OriginalObjectId {
    let highest = registry
        .iter()
        .map(|(id, _)| id)
        .chain(registry.deleted())
        .map(OriginalObjectId::raw)
        .max()
        .unwrap_or(0);
    OriginalObjectId(highest.saturating_add(1))
}

/// Makes an object of design `design` for clan `clan` at `position`
/// (original Z-up frame), turned `yaw` radians about Z, with the next id
/// ([`next_id`]), registered at once; an error when the mission has no
/// such design.
pub fn spawn_built(
    world: &mut World,
    design: &str,
    clan: u32,
    position: [f32; 3],
    yaw: f32,
) -> Result<OriginalObjectId, String> {
    let id = next_id(world.resource::<ObjectRegistry>());
    let built = Built {
        design: design.to_string(),
        clan,
        position,
        yaw,
    };
    spawn_built_as(world, id, built)?;
    Ok(id)
}

/// [`spawn_built`] with a given id (a save's object made again).
pub(crate) fn spawn_built_as(
    world: &mut World,
    id: OriginalObjectId,
    built: Built,
) -> Result<Entity, String> {
    let blueprints = world
        .remove_resource::<Blueprints>()
        .ok_or("the mission prepared no designs")?;
    let made = make(world, &blueprints, id, built);
    world.insert_resource(blueprints);
    made
}

fn make(
    world: &mut World,
    blueprints: &Blueprints,
    id: OriginalObjectId,
    built: Built,
) -> Result<Entity, String> {
    let plan = blueprints
        .plan(&built.design)
        .ok_or_else(|| format!("the install has no design '{}'", built.design))?;
    let placed = record(plan, &built);
    let spec = ObjectSpec {
        placed: &placed,
        index: None,
        parts: &plan.parts,
        drive: plan.drive.as_ref(),
        level: blueprints.difficulty.of(&placed),
    };
    let root = spawn_object(world, &blueprints.prepared, &spec, id).root;
    world.entity_mut(root).insert(Built {
        design: plan.name.clone(),
        ..built
    });
    let registered = world.resource_mut::<ObjectRegistry>().register(id, root);
    if let Err(refused) = registered {
        world.despawn(root);
        return Err(refused.to_string());
    }
    Ok(root)
}

/// The record an object made in play carries, as if placed: a unit of
/// the design's file, of `clan`, with its Type.
// STAND-IN: the properties the engine's creation from a design gives a
// unit are not read (openparkan docs/36 names the call, not the bag);
// ours: its clan, its Type, whole and at full speed.
fn record(plan: &DesignPlan, built: &Built) -> PlacedObject {
    let clan = built.clan;
    let mut placed = PlacedObject::new(ObjectKind::Unit, plan.path.clone(), built.position);
    placed.identity = clan;
    placed.orientation = [0.0, 0.0, built.yaw];
    placed.instance_name = plan.name.clone().into_bytes();
    placed.properties = vec![
        Property::float("Life state", 1.0, 0.0, 1.0),
        Property::int("ClanID", clan as i32, 0, 16),
        Property::int("Type", plan.unit_type as i32, i32::MIN, i32::MAX),
        Property::float("MaxSpeedPercent", 100.0, 0.0, 100.0),
    ];
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_id_is_above_every_id_live_or_deleted() {
        let mut registry = ObjectRegistry::default();
        assert_eq!(next_id(&registry), OriginalObjectId(1));
        let mut world = World::new();
        for raw in [3, 9] {
            let entity = world.spawn_empty().id();
            registry.register(OriginalObjectId(raw), entity).unwrap();
        }
        assert_eq!(next_id(&registry), OriginalObjectId(10));
        registry.unregister(OriginalObjectId(9));
        assert_eq!(next_id(&registry), OriginalObjectId(10), "9 was deleted");
    }
}
