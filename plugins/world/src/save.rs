//! Save sections for state kept per object or in one resource: the
//! generic halves most subsystems register (`save_object_component`,
//! `save_resource`), and the world's own: which objects live, where, and
//! whose they are.

use crate::ObjectRegistry;
use crate::id::OriginalObjectId;
use crate::mission::Built;
use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use iron3d_schedules::{AppStateSaveExt, RawValue, check_as, from_section, to_section};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Registration of the common save sections on an [`App`].
pub trait AppSaveExt {
    /// A section of every live object's `C`, by original id.
    fn save_object_component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component<Mutability = Mutable> + Serialize + DeserializeOwned;

    /// [`save_object_component`](Self::save_object_component) for a
    /// component whose saved values are checked before anything is put
    /// back ([`SavedValue`]).
    fn save_checked_object_component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component<Mutability = Mutable> + Serialize + DeserializeOwned + SavedValue;

    /// A section of resource `R` whole.
    fn save_resource<R: Resource + Serialize + DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> &mut Self;
}

/// A value a save gives back, checked before it is: a save travels
/// between people and is untrusted, so a value the simulation could not
/// run on (a weapon past the guns, a node's life past whole) refuses the
/// save. (Every float of every section is checked finite before.)
pub trait SavedValue {
    /// Why the value cannot be put back, if it cannot.
    fn check_saved(&self) -> Result<(), String>;
}

/// The check of a [`SavedValue`] component's section: it reads, and every
/// object's value passes its check.
fn check_objects<C: DeserializeOwned + SavedValue>(state: &RawValue) -> Result<(), String> {
    let saved: Vec<(u32, C)> = from_section(state)?;
    for (id, value) in &saved {
        value
            .check_saved()
            .map_err(|e| format!("object {id:#010x}: {e}"))?;
    }
    Ok(())
}

impl AppSaveExt for App {
    fn save_object_component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component<Mutability = Mutable> + Serialize + DeserializeOwned,
    {
        self.add_state_save(
            name,
            save_objects::<C>,
            check_as::<Vec<(u32, C)>>,
            restore_objects::<C>,
        )
    }

    fn save_checked_object_component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component<Mutability = Mutable> + Serialize + DeserializeOwned + SavedValue,
    {
        self.add_state_save(
            name,
            save_objects::<C>,
            check_objects::<C>,
            restore_objects::<C>,
        )
    }

    fn save_resource<R: Resource + Serialize + DeserializeOwned>(
        &mut self,
        name: &'static str,
    ) -> &mut Self {
        self.add_state_save(
            name,
            save_resource::<R>,
            check_as::<R>,
            restore_resource::<R>,
        )
    }
}

/// Every live object's `C` in id order, as `(raw id, C)`.
pub fn save_objects<C: Component + Serialize>(world: &World) -> Result<Box<RawValue>, String> {
    let registry = world.resource::<ObjectRegistry>();
    let held: Vec<(u32, &C)> = registry
        .iter()
        .filter_map(|(id, entity)| world.get::<C>(entity).map(|c| (id.raw(), c)))
        .collect();
    to_section(&held)
}

/// Gives each saved object its `C` back and takes it from every other
/// live object (one that had none when saved has none now).
pub fn restore_objects<C>(world: &mut World, state: &RawValue) -> Result<(), String>
where
    C: Component<Mutability = Mutable> + DeserializeOwned,
{
    let saved: Vec<(u32, C)> = from_section(state)?;
    let entities = saved
        .iter()
        .map(|(id, _)| object(world, *id))
        .collect::<Result<Vec<_>, _>>()?;
    let live: Vec<Entity> = world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(_, e)| e)
        .collect();
    for entity in live {
        world.entity_mut(entity).remove::<C>();
    }
    for (entity, (_, component)) in entities.into_iter().zip(saved) {
        world.entity_mut(entity).insert(component);
    }
    Ok(())
}

/// The entity of the live object `raw`, or why a save cannot name it.
pub fn object(world: &World, raw: u32) -> Result<Entity, String> {
    world
        .resource::<ObjectRegistry>()
        .entity(OriginalObjectId(raw))
        .map_err(|e| e.to_string())
}

/// Resource `R` whole.
pub fn save_resource<R: Resource + Serialize>(world: &World) -> Result<Box<RawValue>, String> {
    match world.get_resource::<R>() {
        Some(resource) => to_section(resource),
        None => Err("not in the world".to_string()),
    }
}

/// Resource `R` put back whole.
pub fn restore_resource<R: Resource + DeserializeOwned>(
    world: &mut World,
    state: &RawValue,
) -> Result<(), String> {
    world.insert_resource(from_section::<R>(state)?);
    Ok(())
}

/// The world's own section: the live objects with their transforms, the
/// ids deleted in play, and the objects made in play (a save without them
/// has none).
#[derive(Serialize, serde::Deserialize)]
struct SavedObjects {
    live: Vec<(u32, Transform)>,
    deleted: Vec<u32>,
    #[serde(default)]
    built: Vec<(u32, Built)>,
}

/// The world's section reads, and every transform is one an object can
/// have: a scale without a zero, a unit rotation (every number is finite
/// already: the save's sections are checked for that first).
pub(crate) fn check_world_objects(state: &RawValue) -> Result<(), String> {
    let saved: SavedObjects = from_section(state)?;
    for (id, t) in &saved.live {
        let fit = if t.scale.cmpeq(Vec3::ZERO).any() {
            Err(format!("scale: {} has a zero", t.scale))
        } else if (t.rotation.length() - 1.0).abs() > 1e-3 {
            Err(format!("rotation: {} is not a unit quaternion", t.rotation))
        } else {
            Ok(())
        };
        fit.map_err(|e| format!("object {id:#010x}: {e}"))?;
    }
    Ok(())
}

pub(crate) fn save_world_objects(world: &World) -> Result<Box<RawValue>, String> {
    let registry = world.resource::<ObjectRegistry>();
    let live = registry
        .iter()
        .map(|(id, entity)| {
            let transform = world.get::<Transform>(entity).copied().unwrap_or_default();
            (id.raw(), transform)
        })
        .collect();
    let deleted = registry.deleted().map(OriginalObjectId::raw).collect();
    let built = registry
        .iter()
        .filter_map(|(id, entity)| Some((id.raw(), world.get::<Built>(entity)?.clone())))
        .collect();
    to_section(&SavedObjects {
        live,
        deleted,
        built,
    })
}

/// The mission as loaded anew has every object it placed: the objects
/// made in play are made again from their designs, those deleted by the
/// save's tick are deleted again (with their parts), the rest take their
/// saved place. An object the save has and the mission does not, or one
/// made from a design the install lacks, refuses the save.
pub(crate) fn restore_world_objects(world: &mut World, state: &RawValue) -> Result<(), String> {
    let saved: SavedObjects = from_section(state)?;
    for (raw, built) in saved.built {
        let id = OriginalObjectId(raw);
        if world.resource::<ObjectRegistry>().entity(id).is_ok() {
            return Err(format!("{id}: made in play, and the mission placed it"));
        }
        crate::mission::spawn_built_as(world, id, built).map_err(|e| format!("{id}: {e}"))?;
    }
    let placed = saved
        .live
        .iter()
        .map(|(id, transform)| Ok((object(world, *id)?, *transform)))
        .collect::<Result<Vec<_>, String>>()?;
    for raw in saved.deleted {
        let mut registry = world.resource_mut::<ObjectRegistry>();
        if let Some(entity) = registry.unregister(OriginalObjectId(raw)) {
            world.entity_mut(entity).despawn();
        }
    }
    for (entity, transform) in placed {
        world.entity_mut(entity).insert(transform);
    }
    Ok(())
}

/// `#[serde(with = "iron3d_world::save::shared")]`: a shared value
/// (`Arc<T>`) written by value; read back, it is its own.
pub mod shared {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<T: Serialize, S: Serializer>(value: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        T::serialize(value, s)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
    struct Heat(u32);

    /// Three objects, 1 and 2 hot.
    fn world() -> (World, [Entity; 3]) {
        let mut world = World::new();
        world.init_resource::<ObjectRegistry>();
        let entities = [
            world.spawn((Transform::default(), Heat(10))).id(),
            world.spawn((Transform::default(), Heat(20))).id(),
            world.spawn(Transform::default()).id(),
        ];
        let mut registry = world.resource_mut::<ObjectRegistry>();
        for (i, &e) in entities.iter().enumerate() {
            registry
                .register(OriginalObjectId(i as u32 + 1), e)
                .unwrap();
        }
        (world, entities)
    }

    /// A component goes back to the objects that had it, by id, and
    /// leaves the ones that had none; an id the mission lacks refuses it.
    #[test]
    fn an_objects_component_goes_back_by_id_and_only_there() {
        let (made, _) = world();
        let saved = save_objects::<Heat>(&made).unwrap();
        assert_eq!(saved.get_ron(), "[(1,(10)),(2,(20))]");

        let (mut fresh, [one, two, three]) = world();
        fresh.entity_mut(one).remove::<Heat>();
        fresh.entity_mut(three).insert(Heat(5));
        restore_objects::<Heat>(&mut fresh, &saved).unwrap();
        assert_eq!(fresh.get::<Heat>(one), Some(&Heat(10)));
        assert_eq!(fresh.get::<Heat>(two), Some(&Heat(20)));
        assert_eq!(fresh.get::<Heat>(three), None);

        let stranger = RawValue::from_rust(&vec![(9u32, Heat(1))]).unwrap();
        let err = restore_objects::<Heat>(&mut fresh, &stranger).unwrap_err();
        assert_eq!(
            err,
            "no such object: object 0x00000009 (it was never registered)"
        );
        assert_eq!(fresh.get::<Heat>(two), Some(&Heat(20)), "untouched");
    }

    /// The objects deleted by the save's tick go again, with their ids
    /// remembered as deleted; the others take their saved place.
    #[test]
    fn objects_deleted_in_play_are_deleted_again_and_the_rest_placed() {
        let (mut made, [_, two, _]) = world();
        made.get_mut::<Transform>(two).unwrap().translation = Vec3::new(1.0, 2.0, 3.0);
        let entity = made
            .resource_mut::<ObjectRegistry>()
            .unregister(OriginalObjectId(3));
        made.despawn(entity.unwrap());
        let saved = save_world_objects(&made).unwrap();

        let (mut fresh, [_, two, three]) = world();
        restore_world_objects(&mut fresh, &saved).unwrap();
        let registry = fresh.resource::<ObjectRegistry>();
        assert_eq!(registry.len(), 2);
        assert_eq!(
            registry.deleted().collect::<Vec<_>>(),
            [OriginalObjectId(3)]
        );
        assert!(fresh.get_entity(three).is_err());
        assert_eq!(
            fresh.get::<Transform>(two).unwrap().translation,
            Vec3::new(1.0, 2.0, 3.0)
        );
    }
}
