//! The view: a camera pose in the original map frame (`--camera
//! x,y,z,yaw,pitch`), the default pose above the player's base, and the
//! light.

use bevy::prelude::*;
use iron3d_assets::terrain::y_up;
use iron3d_formats::tma::{Clan, ClanType};

/// A camera pose in the original Z-up map frame: the eye, the heading in
/// degrees counter-clockwise from the map's +X axis seen from above, and
/// the pitch in degrees (negative looks down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPose {
    pub position: [f32; 3],
    pub yaw: f32,
    pub pitch: f32,
}

/// Distance from the default camera to the point it looks at.
const DEFAULT_DISTANCE: f32 = 150.0;
/// Pitch of the default camera, degrees.
const DEFAULT_PITCH: f32 = -45.0;
/// Heading of the default camera: looking north (map +Y).
const DEFAULT_YAW: f32 = 90.0;

impl CameraPose {
    /// Parses `x,y,z,yaw,pitch` (five finite numbers).
    pub fn parse(text: &str) -> Result<Self, String> {
        let values: Vec<f32> = text
            .split(',')
            .map(|v| v.trim().parse::<f32>().map_err(|e| format!("'{v}': {e}")))
            .collect::<Result<_, _>>()?;
        let [x, y, z, yaw, pitch] = values[..] else {
            return Err(format!(
                "expected x,y,z,yaw,pitch (5 numbers), found {}",
                values.len()
            ));
        };
        if values.iter().any(|v| !v.is_finite()) {
            return Err("every value must be finite".into());
        }
        Ok(Self {
            position: [x, y, z],
            yaw,
            pitch,
        })
    }

    /// The default pose looking at `target` (map frame) from the south, at
    /// 45° down.
    pub fn looking_at(target: [f32; 3]) -> Self {
        let forward = Vec3::from(direction(DEFAULT_YAW, DEFAULT_PITCH));
        let eye = Vec3::from(target) - forward * DEFAULT_DISTANCE;
        Self {
            position: eye.into(),
            yaw: DEFAULT_YAW,
            pitch: DEFAULT_PITCH,
        }
    }

    /// The Bevy (Y-up) transform of the pose.
    pub fn transform(&self) -> Transform {
        let forward = Vec3::from(y_up(direction(self.yaw, self.pitch)));
        Transform::from_translation(y_up(self.position).into()).looking_to(forward, Vec3::Y)
    }
}

/// The unit view direction of a heading and pitch, map frame.
fn direction(yaw: f32, pitch: f32) -> [f32; 3] {
    let (yaw, pitch) = (yaw.to_radians(), pitch.to_radians());
    [
        pitch.cos() * yaw.cos(),
        pitch.cos() * yaw.sin(),
        pitch.sin(),
    ]
}

/// Where the default camera looks, map frame: the player clan's base
/// anchor (else the first clan's), at `ground` height; without clans, the
/// centre of the terrain bounds.
pub fn default_target(clans: &[Clan], bounds: Option<([f32; 3], [f32; 3])>) -> [f32; 3] {
    let (centre, ground) = bounds.map_or(([0.0; 2], 0.0), |(min, max)| {
        (
            [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0],
            (min[2] + max[2]) / 2.0,
        )
    });
    let base = clans
        .iter()
        .find(|c| c.clan_type() == Some(ClanType::Player))
        .or_else(|| clans.first())
        .map_or(centre, |c| c.base);
    [base[0], base[1], ground]
}

/// Marks the camera this plugin places.
#[derive(Component, Debug)]
#[require(Name::new("Mission camera"))]
pub struct MissionCamera;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() < 1e-4
    }

    #[test]
    fn parse_reads_five_numbers_and_rejects_others() {
        let pose = CameraPose::parse("1, 2,3,90,-45").unwrap();
        assert_eq!(pose.position, [1.0, 2.0, 3.0]);
        assert_eq!((pose.yaw, pose.pitch), (90.0, -45.0));
        assert!(
            CameraPose::parse("1,2,3,4")
                .unwrap_err()
                .contains("found 4")
        );
        assert!(CameraPose::parse("1,2,3,4,x").is_err());
        assert!(CameraPose::parse("1,2,3,4,inf").is_err());
    }

    #[test]
    fn pose_maps_to_y_up_and_looks_the_right_way() {
        // Looking north (map +Y) and straight ahead: Bevy -Z.
        let t = CameraPose::parse("10,20,30,90,0").unwrap().transform();
        assert!(close(t.translation, Vec3::new(10.0, 30.0, -20.0)));
        assert!(close(t.forward().into(), Vec3::NEG_Z), "{:?}", t.forward());
        // Pitch -90 looks straight down.
        let t = CameraPose::parse("0,0,100,0,-90").unwrap().transform();
        assert!(close(t.forward().into(), Vec3::NEG_Y));
    }

    #[test]
    fn default_pose_looks_at_its_target_from_above() {
        let target = [100.0, -50.0, 10.0];
        let t = CameraPose::looking_at(target).transform();
        let to_target = Vec3::from(y_up(target)) - t.translation;
        assert!((to_target.length() - DEFAULT_DISTANCE).abs() < 1e-2);
        assert!(close(to_target.normalize(), t.forward().into()));
        assert!(t.translation.y > 10.0, "above the target");
    }

    #[test]
    fn default_target_prefers_the_player_base() {
        let bounds = Some(([-100.0, -100.0, 0.0], [100.0, 300.0, 20.0]));
        assert_eq!(default_target(&[], bounds), [0.0, 100.0, 10.0]);
        let mut nature = Clan::new("Nature", ClanType::Nature);
        nature.base = [1.0, 2.0];
        let mut player = Clan::new("Player", ClanType::Player);
        player.base = [-336.0, -304.0];
        let clans = [nature.clone(), player];
        assert_eq!(default_target(&clans, bounds), [-336.0, -304.0, 10.0]);
        assert_eq!(default_target(&clans[..1], bounds), [1.0, 2.0, 10.0]);
    }
}
