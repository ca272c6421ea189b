//! The canonical simulation state hash (tome VII, deterministic replay).
//!
//! Each subsystem registers a contributor that feeds its authoritative state
//! in a canonical order (sorted original ids, never `Entity` bits, pointers
//! or GPU handles). The hash is FNV-1a 64 so that it is identical on every
//! machine and Rust version.
//!
//! A contributor also names what it writes: the object (or other subject)
//! and the field. The names never change the hash; a hasher made with
//! [`StateHasher::with_fields`] keeps a hash per subject and field as
//! well ([`StateHash::fields`]), so two runs that part can be compared
//! field by field.

use crate::GameClock;
use bevy::prelude::*;
use std::collections::BTreeMap;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

fn fnv(state: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *state ^= b as u64;
        *state = state.wrapping_mul(FNV_PRIME);
    }
}

/// What a hashed field belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Subject {
    /// The subsystem's own state (clock, random streams, lists, and the
    /// things without an original id: rounds, effect instances).
    World,
    /// A mission object by its original id.
    Object(u32),
}

impl std::fmt::Display for Subject {
    /// A fixed-width id, so that the names sort as the subjects do.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::World => write!(f, "world"),
            Subject::Object(raw) => write!(f, "object 0x{raw:08x}"),
        }
    }
}

pub use iron3d_formats::replay::FieldDigest;

/// A 64-bit hash folded to 16 bits (every bit counts).
fn fold(hash: u64) -> u16 {
    let half = (hash ^ hash >> 32) as u32;
    (half ^ half >> 16) as u16
}

/// The per-field hashes being gathered ([`StateHasher::with_fields`]).
#[derive(Debug, Clone)]
struct Leaves {
    section: &'static str,
    subject: Subject,
    field: String,
    /// The running hash of the field being written, and whether it has
    /// had bytes.
    current: u64,
    written: bool,
    done: BTreeMap<(Subject, String), u64>,
}

impl Leaves {
    fn key(&self) -> (Subject, String) {
        let path = if self.field.is_empty() {
            self.section.to_string()
        } else {
            format!("{}.{}", self.section, self.field)
        };
        (self.subject, path)
    }

    /// Puts the field written so far away and goes on with another
    /// (the same key again continues its hash).
    fn switch(&mut self, section: &'static str, subject: Subject, field: &str) {
        if self.written {
            let key = self.key();
            self.done.insert(key, self.current);
        }
        self.section = section;
        self.subject = subject;
        self.field.clear();
        self.field.push_str(field);
        let again = self.done.get(&self.key()).copied();
        self.written = again.is_some();
        self.current = again.unwrap_or(FNV_OFFSET);
    }
}

/// A stable 64-bit FNV-1a hasher.
#[derive(Debug, Clone)]
pub struct StateHasher {
    state: u64,
    leaves: Option<Box<Leaves>>,
}

impl Default for StateHasher {
    fn default() -> Self {
        Self {
            state: FNV_OFFSET,
            leaves: None,
        }
    }
}

impl StateHasher {
    /// A hasher that also keeps each field's own hash.
    pub fn with_fields() -> Self {
        Self {
            state: FNV_OFFSET,
            leaves: Some(Box::new(Leaves {
                section: "",
                subject: Subject::World,
                field: String::new(),
                current: FNV_OFFSET,
                written: false,
                done: BTreeMap::new(),
            })),
        }
    }

    pub fn write(&mut self, bytes: &[u8]) {
        fnv(&mut self.state, bytes);
        if let Some(leaves) = &mut self.leaves {
            fnv(&mut leaves.current, bytes);
            leaves.written = true;
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
        self.state
    }

    /// What follows belongs to the object `raw` (its id is hashed, as
    /// `write_u32` would).
    pub fn object(&mut self, raw: u32) {
        self.switch(Subject::Object(raw), "");
        self.write_u32(raw);
    }
    /// What follows is the field `name` of the current subject (nothing
    /// is hashed).
    pub fn field(&mut self, name: &str) {
        if let Some(leaves) = &self.leaves {
            let subject = leaves.subject;
            self.switch(subject, name);
        }
    }
    /// What follows is element `index` of the field `name` (nothing is
    /// hashed; the name is only made when fields are kept).
    pub fn field_at(&mut self, name: &str, index: usize) {
        if self.leaves.is_some() {
            self.field(&format!("{name}[{index}]"));
        }
    }

    fn switch(&mut self, subject: Subject, field: &str) {
        if let Some(leaves) = &mut self.leaves {
            leaves.switch(leaves.section, subject, field);
        }
    }

    /// Starts contributor `section`'s fields, owned by the world until it
    /// names a subject.
    fn begin(&mut self, section: &'static str) {
        if let Some(leaves) = &mut self.leaves {
            leaves.switch(section, Subject::World, "");
        }
    }

    /// Each field's own hash, by subject and path.
    fn into_fields(self) -> FieldDigest {
        let Some(mut leaves) = self.leaves else {
            return FieldDigest::new();
        };
        leaves.switch("", Subject::World, "");
        leaves
            .done
            .into_iter()
            .map(|((subject, path), hash)| ((subject.to_string(), path), fold(hash)))
            .collect()
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

    /// Each field's own hash ([`StateHasher::with_fields`]) over every
    /// contributor.
    pub fn fields(world: &World) -> FieldDigest {
        let mut hasher = StateHasher::with_fields();
        if let Some(registry) = world.get_resource::<StateHash>() {
            for (name, contribute) in &registry.contributors {
                hasher.begin(name);
                contribute(world, &mut hasher);
            }
        }
        hasher.into_fields()
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

    /// The same writes with and without names, and fields kept or not:
    /// the same hash; the fields split the writes by subject and name,
    /// and a field named again continues its own hash.
    #[test]
    fn names_never_change_the_hash_and_split_it_into_fields() {
        let plain = {
            let mut h = StateHasher::default();
            h.write_u64(7);
            h.write_u32(0x102);
            h.write_f32(1.5);
            h.write_u8(3);
            h.write_u32(0x102);
            h.write_u32(4);
            h.finish()
        };
        let named = |h: &mut StateHasher| {
            h.begin("things");
            h.write_u64(7);
            h.object(0x102);
            h.field("speed");
            h.write_f32(1.5);
            h.field_at("part", 2);
            h.write_u8(3);
            h.object(0x102);
            h.field("speed");
            h.write_u32(4);
        };
        let mut quiet = StateHasher::default();
        named(&mut quiet);
        assert_eq!(quiet.finish(), plain);
        let mut kept = StateHasher::with_fields();
        named(&mut kept);
        assert_eq!(kept.finish(), plain);
        let fields = kept.into_fields();
        let keys: Vec<(&str, &str)> = fields
            .keys()
            .map(|(s, p)| (s.as_str(), p.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ("object 0x00000102", "things"),
                ("object 0x00000102", "things.part[2]"),
                ("object 0x00000102", "things.speed"),
                ("world", "things"),
            ]
        );
        let speed = {
            let mut h = StateHasher::default();
            h.write_f32(1.5);
            h.write_u32(4);
            fold(h.finish())
        };
        let key = ("object 0x00000102".to_string(), "things.speed".to_string());
        assert_eq!(fields[&key], speed);

        // Each section's own state is its own field, whatever came before.
        let world = |first: u8| {
            let mut h = StateHasher::with_fields();
            h.begin("first");
            h.write_u8(first);
            h.begin("second");
            h.write_u8(5);
            h.into_fields()[&("world".to_string(), "second".to_string())]
        };
        assert_eq!(world(1), world(2));
    }
}
