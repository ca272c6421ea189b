//! Input through leafwing-input-manager: camera actions bound to
//! keyboard and mouse, the player's view ([`view`]: the cockpit and outer
//! places), and the two debug cameras that drive the render plugin's
//! [`MissionCamera`](iron3d_render::camera::MissionCamera):
//!
//! - a free camera that flies along its view, and
//! - an orbit camera around the [`SelectedObject`] (or the point it looked
//!   at when the mode was switched).
//!
//! The camera moves on real time (`Time<Real>`), the world on game time:
//! pausing the [`GameClock`](iron3d_schedules::GameClock) freezes the
//! simulation, never the view. The heading wraps, the pitch clamps
//! ([`controller`]). The controller starts from whatever pose the camera
//! has (the scene builder's `CameraPose`) and re-reads it whenever another
//! system moves the camera.
//!
//! Default bindings (see [`camera::default_input_map`]):
//!
//! | action | keys |
//! |---|---|
//! | move | W/A/S/D or the arrow keys (orbit: turn around the target) |
//! | rise | E up, Q down (orbit: closer / farther) |
//! | look | mouse motion with the right button held |
//! | zoom | mouse wheel (free: fly forward; orbit: distance) |
//! | speed | Shift held: four times faster |
//! | switch mode | Tab: free <-> orbit |

pub mod camera;
pub mod controller;
pub mod view;

pub use camera::{CameraAction, CameraMode, CameraRig, CameraSettings, CameraSystems, DebugCamera};
pub use view::{PlayerViewPlugin, ViewSystems};

use bevy::prelude::*;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::MissionScopeExt;

/// The object the inspector (or a click) selected: the orbit camera's
/// target.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SelectedObject(pub Option<OriginalObjectId>);

/// Camera input. Needs the spine and the world plugin; the camera itself
/// is spawned by the render plugin (or by a test).
pub struct IronInputPlugin;

impl Plugin for IronInputPlugin {
    fn build(&self, app: &mut App) {
        app.init_mission_resource::<SelectedObject>()
            .add_plugins(PlayerViewPlugin);
        camera::plugin(app);
    }
}
