//! Where the presentation hears the sound events from: written by the
//! audio output each frame from the camera, read by the trace.

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
