//! How a source is heard from the listener (GAMEPLAY §7; openparkan
//! `docs/11-effects.md`, "How a sound is heard": the game takes
//! DirectSound's 3D path with rolloff 1): full volume within `near`, then
//! `near ÷ distance`, no further falloff past `far`; a one-shot past `far`
//! is not played (and stops when it goes there), a loop plays on.
//! Panning is a stand-in (below): the share of the direction to the source along
//! the listener's right (-1 left, +1 right), the quantity the game's
//! software path pans by.

use bevy::prelude::*;
use iron3d_sound::Listener;

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
    // STAND-IN: the pan is the share of the direction to the source along
    // the listener's right, -1..1 (the game leaves panning to DirectSound
    // 3D; its unused software path pans by −4000 × the same product);
    // settled by recording a retail source's left/right levels.
    let pan = if distance > 0.0 {
        offset.dot(listener.right) / distance
    } else {
        0.0
    };
    (gain(distance, near), pan.clamp(-1.0, 1.0))
}

/// Whether a one-shot at `position` is out of hearing: past `far`.
// STAND-IN: a one-shot past its far distance is not started, and stops
// when it goes there (docs/11 "How a sound is heard": the game stops
// it); settled by a retail one-shot started beyond its far distance.
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
