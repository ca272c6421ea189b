//! Deterministic integer noise and fixed maths for the demo content: no
//! platform `libm` call anywhere (only `+ - * /` and `sqrt` on f32, which
//! IEEE 754 defines exactly), so every machine writes the same bytes.

/// A 32-bit hash of a seed and three coordinates (avalanche finaliser).
pub fn hash3(seed: u32, x: i32, y: i32, z: i32) -> u32 {
    let mut h = seed ^ 0x9E37_79B9;
    for v in [x, y, z] {
        h = (h ^ v as u32).wrapping_mul(0x85EB_CA6B);
        h ^= h >> 13;
        h = h.wrapping_mul(0xC2B2_AE35);
        h ^= h >> 16;
    }
    h
}

/// Value noise in 0..=255 at `(x, y)` in pixels, lattice spacing `cell`
/// (a power of two), bilinear interpolation in 8-bit fixed point; wraps
/// with period `wrap` cells so textures tile.
pub fn value_noise(seed: u32, x: u32, y: u32, cell: u32, wrap: u32) -> u32 {
    let shift = cell.trailing_zeros();
    let (cx, cy) = (x >> shift, y >> shift);
    let (fx, fy) = (
        ((x & (cell - 1)) << 8) >> shift,
        ((y & (cell - 1)) << 8) >> shift,
    );
    let at = |i: u32, j: u32| hash3(seed, (i % wrap) as i32, (j % wrap) as i32, 0) & 0xFF;
    let top = at(cx, cy) * (256 - fx) + at(cx + 1, cy) * fx;
    let bottom = at(cx, cy + 1) * (256 - fx) + at(cx + 1, cy + 1) * fx;
    (top * (256 - fy) + bottom * fy) >> 16
}

/// Two octaves of [`value_noise`] over a `size`-pixel tile, 0..=255.
pub fn fractal(seed: u32, x: u32, y: u32, size: u32) -> u32 {
    let coarse = (size / 4).max(1);
    let fine = (size / 16).max(1);
    let a = value_noise(seed, x, y, coarse, size / coarse);
    let b = value_noise(seed ^ 0x5555, x, y, fine, size / fine);
    (a * 3 + b) / 4
}

/// A small deterministic generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() >> 32) % n as u64) as u32
    }

    /// `lo + k/steps * (hi - lo)` for a random `k` in `0..=steps`: a float
    /// from integer choices only.
    pub fn pick(&mut self, lo: f32, hi: f32, steps: u32) -> f32 {
        lo + (hi - lo) * self.below(steps + 1) as f32 / steps as f32
    }
}

/// Sine of `turns` full turns (any value), from a polynomial on plain f32
/// operations: reduced to [-1/4, 1/4] turn, then a degree-9 odd Taylor
/// series (error below 4e-6).
pub fn sin_turns(turns: f32) -> f32 {
    // Reduce to [-0.5, 0.5) turn with integer truncation, no libm.
    let mut t = turns - (turns as i64) as f32;
    if t >= 0.5 {
        t -= 1.0;
    } else if t < -0.5 {
        t += 1.0;
    }
    // sin(pi - x) = sin(x): fold into [-1/4, 1/4].
    if t > 0.25 {
        t = 0.5 - t;
    } else if t < -0.25 {
        t = -0.5 - t;
    }
    let x = t * std::f32::consts::TAU;
    let x2 = x * x;
    x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))))
}

/// Cosine of `turns` full turns.
pub fn cos_turns(turns: f32) -> f32 {
    sin_turns(turns + 0.25)
}

/// A quaternion `[x, y, z, w]` of a rotation by `turns` about a unit axis.
pub fn axis_turns(axis: [f32; 3], turns: f32) -> [f32; 4] {
    let (s, c) = (sin_turns(turns / 2.0), cos_turns(turns / 2.0));
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// A quaternion as type 8 stores it: W, X, Y, Z in i16 / 32767
/// (truncated, deterministic).
pub fn quat_i16(q: [f32; 4]) -> [i16; 4] {
    [q[3], q[0], q[1], q[2]].map(|v| (v * 32767.0) as i16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sine_polynomial_is_close() {
        for (t, want) in [
            (0.0, 0.0),
            (0.25, 1.0),
            (0.5, 0.0),
            (0.75, -1.0),
            (1.125, std::f32::consts::FRAC_1_SQRT_2),
        ] {
            assert!((sin_turns(t) - want).abs() < 1e-4, "{t}");
        }
        assert!((cos_turns(0.0) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn noise_is_deterministic_and_tiles() {
        assert_eq!(value_noise(7, 3, 5, 8, 4), value_noise(7, 3, 5, 8, 4));
        assert_eq!(value_noise(7, 0, 9, 8, 4), value_noise(7, 32, 9, 8, 4));
        assert_ne!(hash3(1, 2, 3, 4), hash3(2, 2, 3, 4));
    }
}
