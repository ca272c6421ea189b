//! Named deterministic random streams (tome VII, deterministic replay):
//! each subsystem draws from its own stream, so adding draws in one does not
//! shift another. Streams are SplitMix64 seeded from the game seed and the
//! stream name; their states are part of the canonical state hash.

use bevy::prelude::*;
use iron3d_schedules::StateHasher;
use std::collections::BTreeMap;

/// The game seed and every named stream created so far.
#[derive(Resource, Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RngStreams {
    seed: u64,
    streams: BTreeMap<String, u64>,
}

impl RngStreams {
    /// No streams yet; each one starts from `seed` and its name.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            streams: BTreeMap::new(),
        }
    }

    /// The game seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The next value of the named stream (created on first use).
    pub fn next_u64(&mut self, stream: &str) -> u64 {
        let seed = self.seed;
        let state = self
            .streams
            .entry(stream.to_string())
            .or_insert_with(|| seed ^ name_hash(stream));
        splitmix(state)
    }

    /// Streams and their states, in name order.
    pub fn states(&self) -> impl Iterator<Item = (&str, u64)> {
        self.streams.iter().map(|(n, &s)| (n.as_str(), s))
    }
}

/// A private sequence of draws from one seed, the streams' generator: for
/// a subsystem that must draw the same values again later (a patrol's loop
/// point, from the loop's seed drawn from a stream), without keeping them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws(pub u64);

impl Draws {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        splitmix(&mut self.0)
    }

    /// The next value as a fraction in [0, 1).
    pub fn unit(&mut self) -> f32 {
        fraction(self.next_u64()) as f32
    }
}

/// A drawn value as a fraction in [0, 1): its top 24 bits.
pub fn fraction(value: u64) -> f64 {
    (value >> 40) as f64 / (1u64 << 24) as f64
}

/// One SplitMix64 step of `state`.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a stream name (stable on every machine).
fn name_hash(name: &str) -> u64 {
    let mut h = StateHasher::default();
    h.write(name.as_bytes());
    h.finish()
}

/// State-hash contributor: the seed, then each stream by name.
pub(crate) fn hash_streams(world: &World, hasher: &mut StateHasher) {
    let Some(rng) = world.get_resource::<RngStreams>() else {
        return;
    };
    hasher.write_u64(rng.seed);
    hasher.write_u64(rng.streams.len() as u64);
    for (name, state) in rng.states() {
        hasher.field(name);
        hasher.section(name);
        hasher.write_u64(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_independent_and_reproducible() {
        let mut a = RngStreams::new(7);
        let mut b = RngStreams::new(7);
        let first = a.next_u64("ai");
        b.next_u64("weather");
        assert_eq!(b.next_u64("ai"), first, "another stream does not shift ai");
        assert_ne!(a.next_u64("ai"), first);
        assert_ne!(RngStreams::new(8).next_u64("ai"), first, "seed matters");
    }
}
