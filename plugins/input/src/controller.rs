//! The camera controller's pure maths, in Bevy's Y-up frame: heading
//! (yaw, about +Y, wrapped to `[-π, π)`), pitch (about the camera's right
//! axis, clamped short of straight up or down), the orbit eye around a
//! target and the free camera's flight step.

use bevy::prelude::*;
use std::f32::consts::{PI, TAU};

/// Largest pitch magnitude: 89°, so the view never flips over the pole.
pub const PITCH_LIMIT: f32 = 89.0 * PI / 180.0;

/// The heading wrapped to `[-π, π)`.
pub fn wrap_yaw(yaw: f32) -> f32 {
    (yaw + PI).rem_euclid(TAU) - PI
}

/// The pitch clamped to `[-PITCH_LIMIT, PITCH_LIMIT]`.
pub fn clamp_pitch(pitch: f32) -> f32 {
    pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT)
}

/// The camera rotation of a heading and pitch (no roll): yaw about +Y,
/// then pitch about the rotated +X. At (0, 0) the camera looks along -Z.
pub fn rotation(yaw: f32, pitch: f32) -> Quat {
    Quat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0)
}

/// Heading and pitch of a view direction (any length but zero), wrapped and
/// clamped.
pub fn angles_of_direction(direction: Vec3) -> (f32, f32) {
    let d = direction.normalize_or(Vec3::NEG_Z);
    let yaw = (-d.x).atan2(-d.z);
    let pitch = d.y.clamp(-1.0, 1.0).asin();
    (wrap_yaw(yaw), clamp_pitch(pitch))
}

/// Heading and pitch of a camera rotation (its forward direction).
pub fn angles_of(rotation: Quat) -> (f32, f32) {
    angles_of_direction(rotation * Vec3::NEG_Z)
}

/// Where an orbit camera at `distance` from `target` sits, looking at it
/// with this heading and pitch.
pub fn orbit_eye(target: Vec3, yaw: f32, pitch: f32, distance: f32) -> Vec3 {
    target + rotation(yaw, pitch) * Vec3::Z * distance
}

/// One flight step of the free camera: `planar.y` forward along the view,
/// `planar.x` to the right, `rise` up along world +Y, at `speed` units per
/// second for `seconds`.
pub fn free_step(
    eye: Vec3,
    yaw: f32,
    pitch: f32,
    planar: Vec2,
    rise: f32,
    speed: f32,
    seconds: f32,
) -> Vec3 {
    let rot = rotation(yaw, pitch);
    let velocity = rot * Vec3::NEG_Z * planar.y + rot * Vec3::X * planar.x + Vec3::Y * rise;
    eye + velocity * speed * seconds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() < 1e-4
    }

    #[test]
    fn yaw_wraps_into_one_turn() {
        assert!((wrap_yaw(0.5) - 0.5).abs() < 1e-6);
        assert!((wrap_yaw(PI + 0.25) - (-PI + 0.25)).abs() < 1e-5);
        assert!((wrap_yaw(-PI - 0.25) - (PI - 0.25)).abs() < 1e-5);
        assert!((wrap_yaw(10.0 * TAU + 1.0) - 1.0).abs() < 1e-4);
        assert!((-PI..PI).contains(&wrap_yaw(PI)));
    }

    #[test]
    fn pitch_clamps_short_of_the_poles() {
        assert_eq!(clamp_pitch(2.0), PITCH_LIMIT);
        assert_eq!(clamp_pitch(-2.0), -PITCH_LIMIT);
        assert_eq!(clamp_pitch(0.3), 0.3);
    }

    #[test]
    fn angles_round_trip_through_the_rotation() {
        for (yaw, pitch) in [(0.0, 0.0), (1.0, -0.5), (-2.5, 1.2), (3.0, -1.5)] {
            let (y, p) = angles_of(rotation(yaw, pitch));
            assert!(
                (y - yaw).abs() < 1e-4 && (p - pitch).abs() < 1e-4,
                "{y} {p}"
            );
        }
        // A camera placed with `looking_to` gives the same angles.
        let t = Transform::default().looking_to(Vec3::new(1.0, -1.0, 0.0), Vec3::Y);
        let (y, p) = angles_of(t.rotation);
        assert!(close(rotation(y, p) * Vec3::NEG_Z, *t.forward()));
    }

    #[test]
    fn orbit_eye_keeps_distance_and_looks_at_the_target() {
        let target = Vec3::new(10.0, 2.0, -4.0);
        for (yaw, pitch) in [(0.0, 0.0), (1.0, -0.7), (-3.0, 0.4)] {
            let eye = orbit_eye(target, yaw, pitch, 25.0);
            assert!(((eye - target).length() - 25.0).abs() < 1e-3);
            let forward = rotation(yaw, pitch) * Vec3::NEG_Z;
            assert!(close(forward, (target - eye).normalize()));
        }
        // Heading 0, pitch 0: behind the target along +Z.
        assert!(close(orbit_eye(Vec3::ZERO, 0.0, 0.0, 5.0), Vec3::Z * 5.0));
    }

    #[test]
    fn free_step_flies_along_the_view_and_strafes_right() {
        let eye = free_step(Vec3::ZERO, 0.0, 0.0, Vec2::Y, 0.0, 10.0, 0.5);
        assert!(close(eye, Vec3::new(0.0, 0.0, -5.0)));
        let eye = free_step(Vec3::ZERO, PI / 2.0, 0.0, Vec2::X, 1.0, 2.0, 1.0);
        // Heading +90° looks along -X; its right is -Z.
        assert!(close(eye, Vec3::new(0.0, 2.0, -2.0)), "{eye}");
    }
}
