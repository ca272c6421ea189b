//! Node38 animation (reference/msh.md, tome V "Иерархия и анимация"):
//! frame selection through the type 19 map, fallback keys, interpolation of
//! type 8 keys with a shortest-path quaternion blend, the one conjugation of
//! the sampled local rotation, parent-before-child composition, and the blend
//! of two animation states.
//!
//! Quaternions are `[x, y, z, w]` in plain `f32` arrays.

use super::Msh;
use super::streams::{AnimKey24, FORMAT, NONE, Node38};
use crate::error::{FormatError, Result};

/// A rigid transform: translation and rotation quaternion `[x, y, z, w]`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Pose {
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
}

impl Pose {
    /// No translation, no rotation.
    pub const IDENTITY: Pose = Pose {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };

    fn of_key(k: &AnimKey24) -> Pose {
        Pose {
            translation: k.position,
            rotation: k.rotation(),
        }
    }

    /// The pose with its rotation conjugated (x, y, z negated): the native
    /// local matrix is the transpose of the usual one (reference/msh.md).
    pub fn conjugated(self) -> Pose {
        let [x, y, z, w] = self.rotation;
        Pose {
            rotation: [-x, -y, -z, w],
            ..self
        }
    }

    /// `self ∘ child`: the parent rotates the child translation, translations
    /// add, rotations multiply.
    pub fn compose(&self, child: &Pose) -> Pose {
        let r = rotate(self.rotation, child.translation);
        Pose {
            translation: [
                self.translation[0] + r[0],
                self.translation[1] + r[1],
                self.translation[2] + r[2],
            ],
            rotation: quat_mul(self.rotation, child.rotation),
        }
    }
}

/// Hamilton product `a * b` of `[x, y, z, w]` quaternions.
pub fn quat_mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// Rotates `v` by the unit quaternion `q` (`q v q*`).
pub fn rotate(q: [f32; 4], v: [f32; 3]) -> [f32; 3] {
    let [x, y, z, w] = q;
    // t = 2 * cross(q.xyz, v); v' = v + w t + cross(q.xyz, t)
    let t = [
        2.0 * (y * v[2] - z * v[1]),
        2.0 * (z * v[0] - x * v[2]),
        2.0 * (x * v[1] - y * v[0]),
    ];
    [
        v[0] + w * t[0] + (y * t[2] - z * t[1]),
        v[1] + w * t[1] + (z * t[0] - x * t[2]),
        v[2] + w * t[2] + (x * t[1] - y * t[0]),
    ]
}

fn dot4(a: [f32; 4], b: [f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// Shortest-path quaternion blend from `a` (weight 0) to `b` (weight 1):
/// `b` is negated when the two lie in opposite hemispheres, then spherical
/// interpolation (linear interpolation when nearly parallel). The decoded
/// keys are only nearly unit length; like the keys themselves, the result is
/// not renormalised (tome V: no unconditional normalisation without parity
/// evidence).
pub fn quat_blend(a: [f32; 4], b: [f32; 4], weight: f32) -> [f32; 4] {
    let mut d = dot4(a, b);
    let b = if d < 0.0 {
        d = -d;
        b.map(|v| -v)
    } else {
        b
    };
    let (wa, wb) = if d > 0.9995 {
        (1.0 - weight, weight)
    } else {
        let theta = d.min(1.0).acos();
        let s = theta.sin();
        (
            ((1.0 - weight) * theta).sin() / s,
            (weight * theta).sin() / s,
        )
    };
    [0, 1, 2, 3].map(|i| wa * a[i] + wb * b[i])
}

/// Blends two poses: translation linearly, rotation by [`quat_blend`]. When
/// one side is missing (invalid), the other is used.
pub fn blend_pose(a: Option<Pose>, b: Option<Pose>, weight: f32) -> Option<Pose> {
    match (a, b) {
        (Some(a), Some(b)) => Some(Pose {
            translation: [0, 1, 2]
                .map(|i| a.translation[i] + (b.translation[i] - a.translation[i]) * weight),
            rotation: quat_blend(a.rotation, b.rotation, weight),
        }),
        (a, b) => a.or(b),
    }
}

/// The type 19 frame of an animation time: `time - 0.5` rounded to the
/// nearest integer, ties to even (the portable form of the x87 path).
pub fn frame_of_time(time: f32) -> i64 {
    (time - 0.5).round_ties_even() as i64
}

/// Which key a node samples at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyChoice {
    /// The fallback key, without interpolation.
    Fallback(usize),
    /// A mapped key, interpolated towards the next key.
    Mapped(usize),
}

impl Msh {
    /// The key node `node` uses at `time` (`None`: the fallback key).
    pub fn key_choice(&self, node: &Node38, time: Option<f32>) -> KeyChoice {
        let fallback = KeyChoice::Fallback(node.fallback_key as usize);
        let Some(time) = time else { return fallback };
        let frame = frame_of_time(time);
        if node.anim_map_start == NONE || frame < 0 || frame >= self.frame_count as i64 {
            return fallback;
        }
        let at = node.anim_map_start as usize + frame as usize;
        match self.frame_map.get(at) {
            Some(&k) if k < node.fallback_key => KeyChoice::Mapped(k as usize),
            _ => fallback,
        }
    }

    /// The source-local pose of node `index` at `time` (`None`: the fallback
    /// key), before the conjugation. Times must be finite and non-negative.
    /// A model without type 8 keys has identity poses.
    pub fn sample_source_local(&self, index: usize, time: Option<f32>) -> Result<Pose> {
        let node = self
            .nodes
            .node38()
            .get(index)
            .ok_or_else(|| FormatError::missing(FORMAT, format!("Node38 #{index}")))?;
        if let Some(t) = time
            && !(t.is_finite() && t >= 0.0)
        {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "a finite, non-negative animation time",
                t,
            ));
        }
        if self.keys.is_empty() {
            return Ok(Pose::IDENTITY);
        }
        let key = |i: usize| {
            self.keys.get(i).ok_or_else(|| {
                FormatError::invalid(
                    FORMAT,
                    0,
                    format!("a key index below the key count {}", self.keys.len()),
                    i,
                )
            })
        };
        match self.key_choice(node, time) {
            KeyChoice::Fallback(k) => Ok(Pose::of_key(key(k)?)),
            KeyChoice::Mapped(k) => {
                let (k0, k1) = (key(k)?, key(k + 1)?);
                let t = time.unwrap_or(0.0);
                if t == k0.time {
                    return Ok(Pose::of_key(k0));
                }
                if t == k1.time {
                    return Ok(Pose::of_key(k1));
                }
                let alpha = (t - k0.time) / (k1.time - k0.time);
                let pose = blend_pose(Some(Pose::of_key(k0)), Some(Pose::of_key(k1)), alpha);
                Ok(pose.unwrap_or(Pose::IDENTITY))
            }
        }
    }

    /// Engine-local poses of every node, one optional time per node (`None`:
    /// fallback key): sampled, then conjugated once.
    pub fn local_poses(&self, times: &[Option<f32>]) -> Result<Vec<Pose>> {
        let n = self.nodes.node38().len();
        if times.len() != n {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("one time per node ({n})"),
                times.len(),
            ));
        }
        (0..n)
            .map(|i| Ok(self.sample_source_local(i, times[i])?.conjugated()))
            .collect()
    }

    /// Composes engine-local poses into global ones, parents first. A parent
    /// that is not before its child is an error (no invented hierarchy).
    pub fn hierarchy(&self, locals: &[Pose]) -> Result<Vec<Pose>> {
        let nodes = self.nodes.node38();
        let mut out: Vec<Pose> = Vec::with_capacity(locals.len());
        for (i, (node, local)) in nodes.iter().zip(locals).enumerate() {
            let global = match node.parent() {
                None => *local,
                Some(p) if p < i => out[p].compose(local),
                Some(p) => {
                    return Err(FormatError::invalid(
                        FORMAT,
                        0,
                        format!("Node38 #{i}: a parent before the child"),
                        p,
                    ));
                }
            };
            out.push(global);
        }
        Ok(out)
    }

    /// Global poses of every node at their fallback keys.
    pub fn fallback_hierarchy(&self) -> Result<Vec<Pose>> {
        let n = self.nodes.node38().len();
        self.hierarchy(&self.local_poses(&vec![None; n])?)
    }

    /// Global poses with every node sampled at `time`.
    pub fn sampled_hierarchy(&self, time: f32) -> Result<Vec<Pose>> {
        let n = self.nodes.node38().len();
        self.hierarchy(&self.local_poses(&vec![Some(time); n])?)
    }

    /// Global poses of a blend between two animation states: each node is
    /// sampled at `time_a` and `time_b`, the local poses are blended with
    /// `weight` (a side that fails to sample is replaced by the other), then
    /// composed.
    pub fn blended_hierarchy(&self, time_a: f32, time_b: f32, weight: f32) -> Result<Vec<Pose>> {
        self.hierarchy(&self.blended_locals(time_a, time_b, weight)?)
    }

    /// The engine-local poses of [`Msh::blended_hierarchy`], before they
    /// are composed.
    pub fn blended_locals(&self, time_a: f32, time_b: f32, weight: f32) -> Result<Vec<Pose>> {
        let n = self.nodes.node38().len();
        let mut locals = Vec::with_capacity(n);
        for i in 0..n {
            let a = self.sample_source_local(i, Some(time_a));
            let b = self.sample_source_local(i, Some(time_b));
            let blended =
                match blend_pose(a.as_ref().ok().copied(), b.as_ref().ok().copied(), weight) {
                    Some(p) => p,
                    None => {
                        return Err(a
                            .err()
                            .unwrap_or_else(|| FormatError::missing(FORMAT, "pose")));
                    }
                };
            locals.push(blended.conjugated());
        }
        Ok(locals)
    }

    /// How far node `index` moves between animation times `from` and `to`
    /// (its source-local translation at `to` minus at `from`): a state's
    /// stride when `index` is 0, the body (openparkan `docs/24-motion.md`).
    pub fn node_travel(&self, index: usize, from: f32, to: f32) -> Result<[f32; 3]> {
        let a = self.sample_source_local(index, Some(from))?.translation;
        let b = self.sample_source_local(index, Some(to))?.translation;
        Ok(std::array::from_fn(|k| b[k] - a[k]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn frame_rounds_half_down_to_even() {
        assert_eq!(frame_of_time(0.0), 0); // -0.5 -> -0
        assert_eq!(frame_of_time(1.0), 0); // 0.5 -> 0 (even)
        assert_eq!(frame_of_time(1.01), 1);
        assert_eq!(frame_of_time(2.0), 2); // 1.5 -> 2 (even)
        assert_eq!(frame_of_time(3.0), 2); // 2.5 -> 2 (even)
        assert_eq!(frame_of_time(3.4), 3);
    }

    #[test]
    fn blend_takes_the_short_way() {
        let a = [0.0, 0.0, 0.0, 1.0];
        let half = std::f32::consts::FRAC_1_SQRT_2;
        // 90 degrees about z, given with the negated sign.
        let b = [0.0, 0.0, -half, -half];
        let m = quat_blend(a, b, 0.5);
        let s = (std::f32::consts::PI / 8.0).sin();
        let c = (std::f32::consts::PI / 8.0).cos();
        assert!(close(&m, &[0.0, 0.0, s, c]), "{m:?}");
    }

    #[test]
    fn compose_rotates_child_translation() {
        let half = std::f32::consts::FRAC_1_SQRT_2;
        let parent = Pose {
            translation: [1.0, 0.0, 0.0],
            rotation: [0.0, 0.0, half, half], // +90 about z
        };
        let child = Pose {
            translation: [1.0, 0.0, 0.0],
            rotation: [0.0, 0.0, half, half],
        };
        let g = parent.compose(&child);
        assert!(close(&g.translation, &[1.0, 1.0, 0.0]), "{g:?}");
        assert!(close(&g.rotation, &[0.0, 0.0, 1.0, 0.0]), "{g:?}");
    }

    #[test]
    fn blend_pose_uses_the_valid_side() {
        let p = Pose::IDENTITY;
        assert_eq!(blend_pose(None, Some(p), 0.3), Some(p));
        assert_eq!(blend_pose(Some(p), None, 0.3), Some(p));
        assert_eq!(blend_pose(None, None, 0.3), None);
    }
}
