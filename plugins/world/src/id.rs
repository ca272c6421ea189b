//! Original object identity and the id <-> entity registry.

use bevy::prelude::*;
use iron3d_schedules::StateHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// The raw 32-bit object id of the original engine (tome II). Tome II
/// establishes the split into an owning player number (high 16 bits) and a
/// class-and-index word (low 16 bits); finer bits are not yet proven.
#[derive(
    Component,
    Reflect,
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[reflect(Component)]
#[serde(transparent)]
pub struct OriginalObjectId(pub u32);

impl OriginalObjectId {
    /// The raw value scripts, saves and the network use.
    pub fn raw(self) -> u32 {
        self.0
    }
    /// The owning player number.
    pub fn owner_player(self) -> u16 {
        (self.0 >> 16) as u16
    }
    /// The class-and-index word.
    pub fn class_and_index(self) -> u16 {
        self.0 as u16
    }
}

impl fmt::Display for OriginalObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "object 0x{:08x}", self.0)
    }
}

/// Why an id does not name a live object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchObject {
    pub id: OriginalObjectId,
    /// The id was registered once and its object has been deleted.
    pub was_deleted: bool,
}

impl fmt::Display for NoSuchObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = if self.was_deleted {
            "it was deleted"
        } else {
            "it was never registered"
        };
        write!(f, "no such object: {} ({why})", self.id)
    }
}

impl std::error::Error for NoSuchObject {}

/// Registration refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegisterError {
    /// Another live object has this id.
    Duplicate(OriginalObjectId),
    /// The entity is registered under another id.
    EntityTaken(Entity, OriginalObjectId),
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::Duplicate(id) => write!(f, "{id} is already registered"),
            RegisterError::EntityTaken(_, id) => {
                write!(f, "the entity is already registered as {id}")
            }
        }
    }
}

impl std::error::Error for RegisterError {}

/// Maps original ids to entities both ways. Ids are kept sorted, so every
/// traversal in id order is deterministic.
#[derive(Resource, Default, Debug)]
pub struct ObjectRegistry {
    by_id: BTreeMap<OriginalObjectId, Entity>,
    by_entity: HashMap<Entity, OriginalObjectId>,
    deleted: BTreeSet<OriginalObjectId>,
}

impl ObjectRegistry {
    /// Registers a live object.
    pub fn register(&mut self, id: OriginalObjectId, entity: Entity) -> Result<(), RegisterError> {
        if self.by_id.contains_key(&id) {
            return Err(RegisterError::Duplicate(id));
        }
        if let Some(&other) = self.by_entity.get(&entity) {
            return Err(RegisterError::EntityTaken(entity, other));
        }
        self.by_id.insert(id, entity);
        self.by_entity.insert(entity, id);
        self.deleted.remove(&id);
        Ok(())
    }

    /// Forgets a deleted object; later lookups report it as deleted.
    pub(crate) fn unregister(&mut self, id: OriginalObjectId) -> Option<Entity> {
        let entity = self.by_id.remove(&id)?;
        self.by_entity.remove(&entity);
        self.deleted.insert(id);
        Some(entity)
    }

    /// The entity of a live object.
    pub fn entity(&self, id: OriginalObjectId) -> Result<Entity, NoSuchObject> {
        self.by_id.get(&id).copied().ok_or_else(|| NoSuchObject {
            id,
            was_deleted: self.deleted.contains(&id),
        })
    }

    /// The original id of a registered entity.
    pub fn id(&self, entity: Entity) -> Option<OriginalObjectId> {
        self.by_entity.get(&entity).copied()
    }

    /// Live objects in id order.
    pub fn iter(&self) -> impl Iterator<Item = (OriginalObjectId, Entity)> + '_ {
        self.by_id.iter().map(|(&id, &e)| (id, e))
    }

    /// Deleted objects in id order.
    pub fn deleted(&self) -> impl Iterator<Item = OriginalObjectId> + '_ {
        self.deleted.iter().copied()
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether no object is registered.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.register_type::<OriginalObjectId>()
        .init_resource::<ObjectRegistry>();
}

/// State-hash contributor: live ids in order with their transforms and
/// owners.
pub(crate) fn hash_objects(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    hasher.write_u64(registry.len() as u64);
    for (id, entity) in registry.iter() {
        hasher.object(id.raw());
        match world.get::<Transform>(entity) {
            Some(t) => {
                hasher.field("translation");
                t.translation
                    .to_array()
                    .iter()
                    .for_each(|&v| hasher.write_f32(v));
                hasher.field("rotation");
                t.rotation
                    .to_array()
                    .iter()
                    .for_each(|&v| hasher.write_f32(v));
                hasher.field("scale");
                t.scale.to_array().iter().for_each(|&v| hasher.write_f32(v));
            }
            None => hasher.write_u8(0),
        }
        // The owner: captures change it.
        hasher.field("clan");
        match world.get::<crate::mission::ObjectClan>(entity) {
            Some(clan) => hasher.write_u32(clan.identity_raw),
            None => hasher.write_u8(0),
        }
    }
}
