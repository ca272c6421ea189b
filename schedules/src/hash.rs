//! The canonical simulation state hash (tome VII, deterministic replay).
//!
//! Each subsystem registers a contributor that feeds its authoritative state
//! in a canonical order (sorted original ids, never `Entity` bits, pointers
//! or GPU handles). The hash is FNV-1a 64 so that it is identical on every
//! machine and Rust version.

use crate::GameClock;
use bevy::prelude::*;

/// A stable 64-bit FNV-1a hasher.
#[derive(Debug, Clone)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl StateHasher {
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    pub fn write_u8(&mut self, v: u8) {
        self.write(&[v]);
    }
    pub fn write_u32(&mut self, v: u32) {
        self.write(&v.to_le_bytes());
    }
    pub fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }
    /// Floats are hashed by their bits: the simulation is deterministic, so
    /// equal states have equal bits.
    pub fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }
    /// A labelled section, so that two contributors cannot alias.
    pub fn section(&mut self, name: &str) {
        self.write_u32(name.len() as u32);
        self.write(name.as_bytes());
    }
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A function that feeds one subsystem's state into the hash.
pub type HashContributor = fn(&World, &mut StateHasher);

/// The registered contributors, in registration order.
#[derive(Resource, Default)]
pub struct StateHash {
    contributors: Vec<(&'static str, HashContributor)>,
}

impl StateHash {
    /// The canonical state hash of `world` now.
    pub fn compute(world: &World) -> u64 {
        let mut hasher = StateHasher::default();
        if let Some(registry) = world.get_resource::<StateHash>() {
            for (name, contribute) in &registry.contributors {
                hasher.section(name);
                contribute(world, &mut hasher);
            }
        }
        hasher.finish()
    }

    /// Each contributor's own hash, by name in registration order: which
    /// subsystem's state differs when two whole hashes do.
    pub fn sections(world: &World) -> Vec<(&'static str, u64)> {
        let Some(registry) = world.get_resource::<StateHash>() else {
            return Vec::new();
        };
        registry
            .contributors
            .iter()
            .map(|(name, contribute)| {
                let mut hasher = StateHasher::default();
                contribute(world, &mut hasher);
                (*name, hasher.finish())
            })
            .collect()
    }
}

/// Registration of hash contributors on an [`App`].
pub trait AppStateHashExt {
    /// Adds a named contributor; names must be unique.
    fn add_state_hash(&mut self, name: &'static str, contributor: HashContributor) -> &mut Self;
}

impl AppStateHashExt for App {
    fn add_state_hash(&mut self, name: &'static str, contributor: HashContributor) -> &mut Self {
        let mut registry = self.world_mut().get_resource_or_init::<StateHash>();
        assert!(
            registry.contributors.iter().all(|(n, _)| *n != name),
            "state hash contributor {name} registered twice"
        );
        registry.contributors.push((name, contributor));
        self
    }
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<StateHash>()
        .add_state_hash("game_clock", |world, hasher| {
            world.resource::<GameClock>().hash_into(hasher);
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        let mut h = StateHasher::default();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = StateHasher::default();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
    }
}
