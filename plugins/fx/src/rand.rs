//! The engine's house generator (openparkan `docs/11-effects.md`, "The
//! generator"): a 32-bit state read as two 16-bit halves, stepped
//! `lo = (lo << 1) ^ hi; hi = (hi >> 1) ^ lo`, drawing the new `hi`. The
//! engine shares seven module-wide states seeded from the clock; ours is
//! one per instance (and per particle), seeded from the game's `fx` RNG
//! stream, so an effect seed gives the same particles every run.

/// One generator state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HouseRng(u32);

impl HouseRng {
    /// A generator at `state` (0 is a fixed point that draws only 0).
    pub fn new(state: u32) -> Self {
        Self(state)
    }

    /// The state.
    pub fn state(self) -> u32 {
        self.0
    }

    /// The next 16-bit number.
    pub fn next16(&mut self) -> u16 {
        let (mut lo, mut hi) = (self.0 as u16, (self.0 >> 16) as u16);
        lo = (lo << 1) ^ hi;
        hi = (hi >> 1) ^ lo;
        self.0 = u32::from(lo) | u32::from(hi) << 16;
        hi
    }

    /// A uniform in ± half of `v`: `rand16 × v / 65536 − v / 2`.
    pub fn spread(&mut self, v: f32) -> f32 {
        f32::from(self.next16()) * v / 65536.0 - v / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_is_the_engines_and_zero_is_a_fixed_point() {
        // lo = 1 << 1 ^ 0 = 2, hi = 0 >> 1 ^ 2 = 2.
        let mut r = HouseRng::new(1);
        assert_eq!(r.next16(), 2);
        assert_eq!(r.state(), 0x0002_0002);
        let mut zero = HouseRng::new(0);
        assert!((0..10).all(|_| zero.next16() == 0));
        // The spread stays within ± half of its width.
        let mut r = HouseRng::new(0x1234_5678);
        assert!((0..1000).all(|_| r.spread(2.0).abs() <= 1.0));
    }
}
