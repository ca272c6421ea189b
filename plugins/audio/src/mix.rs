//! How a source is heard from the listener (GAMEPLAY §7; openparkan
//! `docs/11-effects.md`, "How a sound is heard": the game takes
//! DirectSound's 3D path with rolloff 1): full volume within `near`, then
//! `near ÷ distance`, no further falloff past `far`; a one-shot past `far`
//! is not played (and stops when it goes there), a loop plays on.
//! Panning is our rule: the share of the direction to the source along
//! the listener's right (-1 left, +1 right), the quantity the game's
//! software path pans by.

use bevy::prelude::*;

/// Where the sound is heard from: the camera's frame of the frame being
/// drawn.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct Listener {
    pub position: Vec3,
    /// Unit vector to the listener's right.
    pub right: Vec3,
}

impl Default for Listener {
    fn default() -> Self {
        Self::from_transform(&GlobalTransform::IDENTITY)
    }
}

impl Listener {
    /// The listener of a camera (Bevy's camera looks down its -Z, right is
    /// +X).
    pub fn from_transform(frame: &GlobalTransform) -> Self {
        Self {
            position: frame.translation(),
            right: frame.right().as_vec3(),
        }
    }
}

/// The gain of a source `distance` away: 1 within `near`, else
/// `near ÷ distance`.
pub fn gain(distance: f32, near: f32) -> f32 {
    if distance <= near || distance <= 0.0 {
        1.0
    } else {
        (near / distance).max(0.0)
    }
}

/// How a source at `position` is heard: `(gain, pan)`, `None` for a sound
/// without a place (full volume, centred).
pub fn heard(listener: &Listener, position: Option<Vec3>, near: f32) -> (f32, f32) {
    let Some(position) = position else {
        return (1.0, 0.0);
    };
    let offset = position - listener.position;
    let distance = offset.length();
    let pan = if distance > 0.0 {
        offset.dot(listener.right) / distance
    } else {
        0.0
    };
    (gain(distance, near), pan.clamp(-1.0, 1.0))
}

/// Whether a one-shot at `position` is out of hearing: past `far`.
pub fn beyond_far(listener: &Listener, position: Option<Vec3>, far: f32) -> bool {
    position.is_some_and(|p| p.distance(listener.position) > far)
}

/// A linear gain in kira's decibels (silence at or below -60 dB).
pub fn decibels(gain: f32) -> f32 {
    if gain <= 0.001 {
        -60.0
    } else {
        20.0 * gain.log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_within_near_then_near_over_distance() {
        assert_eq!(gain(5.0, 10.0), 1.0);
        assert_eq!(gain(10.0, 10.0), 1.0);
        assert_eq!(gain(20.0, 10.0), 0.5);
        assert_eq!(gain(40.0, 10.0), 0.25);
        assert!((decibels(0.5) + 6.0206).abs() < 1e-3);
        assert_eq!(decibels(0.0), -60.0);
    }

    #[test]
    fn pan_follows_the_listeners_right() {
        let listener = Listener::default();
        let (g, right) = heard(&listener, Some(Vec3::new(20.0, 0.0, 0.0)), 10.0);
        assert_eq!((g, right), (0.5, 1.0));
        let (_, left) = heard(&listener, Some(Vec3::new(-3.0, 0.0, 0.0)), 10.0);
        assert_eq!(left, -1.0);
        let (_, ahead) = heard(&listener, Some(Vec3::new(0.0, 0.0, -30.0)), 10.0);
        assert_eq!(ahead, 0.0);
        assert_eq!(heard(&listener, None, 10.0), (1.0, 0.0));
        assert!(beyond_far(
            &listener,
            Some(Vec3::new(0.0, 0.0, 101.0)),
            100.0
        ));
        assert!(!beyond_far(
            &listener,
            Some(Vec3::new(0.0, 0.0, 99.0)),
            100.0
        ));
        assert!(!beyond_far(&listener, None, 100.0));
    }
}
