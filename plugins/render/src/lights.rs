//! Point lights through a light manager (tome V "Свет, тени, атмосфера и
//! сортировка": `CLightManager` gives lights numeric ids and checks how
//! many there may be; `EmulatePointLights()` reproduces point lights;
//! an unknown light type is its own error).
//!
//! Each frame the effects hand the manager their lights
//! ([`FrameLights`]); the manager types each by its kind
//! ([`LightType::of_kind`]; an unknown one is reported once, with its
//! effect, and left out), keeps the point lights the emulation takes (not
//! flagged `0x20000000`; not `0x80000000`, which lights only its owner:
//! not applied yet), at most [`MAX_POINT_LIGHTS`] of them whose reach comes
//! nearest the eye, and gives each a numeric id it keeps while it shines.
//! They are drawn as Bevy point lights, which the legacy shader walks with
//! the original's emulation (openparkan `docs/11-effects.md`, "What a light
//! does to a surface"): within the range (a hard cut) it adds the light's
//! colour divided by its own length times that length × 0.25, held at 2;
//! the falloff across the disc of radius √(range² − d²) on the surface's
//! plane is ours, `(range² − r²) / (range² − d²)` (the engine's is a
//! texture no source reads). `EmulatePointLight=0` in `shade.cfg` turns
//! them off.

use crate::camera::MissionCamera;
use bevy::prelude::*;
use iron3d_formats::fxid::emitter::{LightType, UnknownLightType};
use iron3d_world::mission::ShadeSettings;
use std::collections::BTreeMap;

/// At most this many point lights shine at once (ours: the eight light
/// slots of the device `CShade` switches off, docs/11).
pub const MAX_POINT_LIGHTS: usize = 8;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<FrameLights>()
        .init_resource::<LightManager>();
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        app.add_systems(
            PostUpdate,
            place_lights
                .after(iron3d_schedules::Phase::PublishRenderSnapshot)
                .before(TransformSystems::Propagate),
        );
    }
}

/// A light an effect asks for this frame.
#[derive(Debug, Clone, PartialEq)]
pub struct LightRequest {
    /// The effect's key and the instance's serial and command: names the
    /// light while it lives.
    pub effect: String,
    pub serial: u64,
    pub command: usize,
    /// The command's raw kind (+4).
    pub kind: u32,
    /// Bevy world frame.
    pub position: Vec3,
    /// RGB (the emulation reads no alpha).
    pub colour: [f32; 3],
    pub range: f32,
}

/// The lights asked for this frame (filled by the effects before
/// [`Phase::PublishRenderSnapshot`](iron3d_schedules::Phase) ends).
#[derive(Resource, Debug, Default)]
pub struct FrameLights(pub Vec<LightRequest>);

/// A point light the manager lets shine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShiningLight {
    pub id: u32,
    pub position: Vec3,
    /// The colour over its length, and what the emulation scales it by.
    pub tint: Vec3,
    pub strength: f32,
    pub range: f32,
}

/// Why a light does not shine.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LightError {
    #[error("effect {effect}: command {command}: {cause}")]
    UnknownType {
        effect: String,
        command: usize,
        cause: UnknownLightType,
    },
}

/// The light manager: ids of the lights that shine, and the faults seen.
#[derive(Resource, Debug, Default)]
pub struct LightManager {
    /// (serial, command) → id, for the lights of the last frame.
    ids: BTreeMap<(u64, usize), u32>,
    /// Every distinct fault, in the order seen.
    pub faults: Vec<LightError>,
    /// Lights asked for and left out by the limit, last frame.
    pub over_limit: usize,
}

impl LightManager {
    /// The lights of `requests` that shine this frame, seen from `eye`:
    /// typed, emulated point lights only, the [`MAX_POINT_LIGHTS`] whose
    /// reach comes nearest the eye (ties by serial and command), each
    /// keeping its id from the frame before or taking the lowest free one.
    pub fn frame(&mut self, requests: &[LightRequest], eye: Vec3) -> Vec<ShiningLight> {
        let mut points = Vec::new();
        for request in requests {
            match LightType::of_kind(request.kind) {
                Ok(LightType::Point {
                    owner_only: false,
                    not_emulated: false,
                }) => points.push(request),
                Ok(_) => {}
                Err(cause) => {
                    let fault = LightError::UnknownType {
                        effect: request.effect.clone(),
                        command: request.command,
                        cause,
                    };
                    if !self.faults.contains(&fault) {
                        error!("{fault}");
                        self.faults.push(fault);
                    }
                }
            }
        }
        let reach = |r: &LightRequest| r.position.distance(eye) - r.range;
        points.sort_by(|a, b| {
            reach(a)
                .total_cmp(&reach(b))
                .then((a.serial, a.command).cmp(&(b.serial, b.command)))
        });
        self.over_limit = points.len().saturating_sub(MAX_POINT_LIGHTS);
        points.truncate(MAX_POINT_LIGHTS);
        let previous = std::mem::take(&mut self.ids);
        for r in &points {
            if let Some(&id) = previous.get(&(r.serial, r.command)) {
                self.ids.insert((r.serial, r.command), id);
            }
        }
        for r in &points {
            let key = (r.serial, r.command);
            if !self.ids.contains_key(&key) {
                let free = (0..).find(|id| !self.ids.values().any(|v| v == id));
                self.ids.insert(key, free.expect("fewer ids than u32"));
            }
        }
        points
            .into_iter()
            .map(|r| {
                let colour = Vec3::from(r.colour).max(Vec3::ZERO);
                let length = colour.length();
                ShiningLight {
                    id: self.ids[&(r.serial, r.command)],
                    position: r.position,
                    tint: colour / length.max(f32::EPSILON),
                    strength: (length * 0.25).min(2.0),
                    range: r.range,
                }
            })
            .collect()
    }
}

/// A pooled Bevy point light, by the manager's id.
#[derive(Component, Debug)]
pub struct ManagedLight(pub u32);

/// Takes this frame's requests through the manager and shows the lights
/// that shine (one pooled point light per id; the rest switched off).
fn place_lights(
    mut commands: Commands,
    mut requests: ResMut<FrameLights>,
    mut manager: ResMut<LightManager>,
    settings: Option<Res<ShadeSettings>>,
    camera: Query<&GlobalTransform, With<MissionCamera>>,
    mut pool: Query<(
        &ManagedLight,
        &mut PointLight,
        &mut Transform,
        &mut Visibility,
    )>,
) {
    let requests = std::mem::take(&mut requests.0);
    let emulate = settings.is_none_or(|s| s.on("EmulatePointLight"));
    let eye = camera.single().map_or(Vec3::ZERO, |c| c.translation());
    let shining = if emulate {
        manager.frame(&requests, eye)
    } else {
        Vec::new()
    };
    if manager.over_limit > 0 {
        debug!(
            "{} point lights over the limit of {MAX_POINT_LIGHTS} left out",
            manager.over_limit
        );
    }
    let mut placed = [false; MAX_POINT_LIGHTS];
    for (managed, mut light, mut at, mut visibility) in &mut pool {
        match shining.iter().find(|l| l.id == managed.0) {
            Some(shine) => {
                *light = point_light(shine);
                at.translation = shine.position;
                visibility.set_if_neq(Visibility::Visible);
                placed[managed.0 as usize] = true;
            }
            None => {
                visibility.set_if_neq(Visibility::Hidden);
            }
        }
    }
    for shine in shining.iter().filter(|l| !placed[l.id as usize]) {
        commands.spawn((
            ManagedLight(shine.id),
            point_light(shine),
            Transform::from_translation(shine.position),
            Visibility::Visible,
        ));
    }
}

/// The Bevy light the shader reads: its premultiplied colour (Bevy
/// divides the intensity by 4π) is the tint × strength.
fn point_light(shine: &ShiningLight) -> PointLight {
    PointLight {
        color: Color::linear_rgb(shine.tint.x, shine.tint.y, shine.tint.z),
        intensity: shine.strength * 4.0 * std::f32::consts::PI,
        range: shine.range,
        radius: 0.0,
        shadow_maps_enabled: false,
        ..default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(serial: u64, kind: u32, x: f32, colour: [f32; 3]) -> LightRequest {
        LightRequest {
            effect: "EFFECTS.LIB::FIRE".into(),
            serial,
            command: 0,
            kind,
            position: Vec3::new(x, 0.0, 0.0),
            colour,
            range: 10.0,
        }
    }

    #[test]
    fn an_unknown_light_type_is_its_own_error_reported_once_and_left_out() {
        let mut manager = LightManager::default();
        let asked = [request(1, 9, 0.0, [1.0; 3]), request(2, 5, 0.0, [1.0; 3])];
        for _ in 0..2 {
            let shining = manager.frame(&asked, Vec3::ZERO);
            assert_eq!(shining.len(), 1);
        }
        assert_eq!(
            manager.faults,
            [LightError::UnknownType {
                effect: "EFFECTS.LIB::FIRE".into(),
                command: 0,
                cause: UnknownLightType { kind: 9 },
            }]
        );
        assert_eq!(
            manager.faults[0].to_string(),
            "effect EFFECTS.LIB::FIRE: command 0: unknown light type 9 (known: 1 to 7)"
        );
    }

    #[test]
    fn only_emulated_point_lights_shine_with_the_colours_length_as_strength() {
        let mut manager = LightManager::default();
        // Kinds 1 (its owner only), 3 (directional), 4, 6 and 7 (not
        // emulated) do not shine; kind 2 does.
        let asked: Vec<_> = [1, 3, 4, 6, 7, 2]
            .into_iter()
            .map(|kind| request(u64::from(kind), kind, 0.0, [3.0, 2.0, 0.0]))
            .collect();
        let shining = manager.frame(&asked, Vec3::ZERO);
        assert_eq!(shining.len(), 1);
        let light = shining[0];
        let length = 13.0f32.sqrt();
        assert!((light.tint - Vec3::new(3.0, 2.0, 0.0) / length).length() < 1e-6);
        assert!((light.strength - length * 0.25).abs() < 1e-6);
        // Held at 2.
        let bright = manager.frame(&[request(9, 5, 0.0, [20.0, 0.0, 0.0])], Vec3::ZERO);
        assert_eq!(bright[0].strength, 2.0);
    }

    #[test]
    fn the_limit_keeps_the_nearest_reach_and_ids_stay_with_their_lights() {
        let mut manager = LightManager::default();
        let asked: Vec<_> = (0..12)
            .map(|i| request(i, 5, 100.0 - i as f32, [1.0; 3]))
            .collect();
        let first = manager.frame(&asked, Vec3::ZERO);
        assert_eq!(first.len(), MAX_POINT_LIGHTS);
        assert_eq!(manager.over_limit, 4);
        // Serials 11 down to 4 are nearest; ids 0..8 in that order.
        let by_position: Vec<(f32, u32)> = first.iter().map(|l| (l.position.x, l.id)).collect();
        assert_eq!(by_position[0], (89.0, 0));
        assert_eq!(by_position[7], (96.0, 7));
        // Serial 11 goes out: its id is free for the newcomer; the others
        // keep theirs.
        let mut next: Vec<_> = asked[..11].to_vec();
        next.push(request(20, 5, 50.0, [1.0; 3]));
        let second = manager.frame(&next, Vec3::ZERO);
        let id_of = |x: f32| second.iter().find(|l| l.position.x == x).unwrap().id;
        assert_eq!(id_of(50.0), 0);
        assert_eq!(id_of(90.0), 1);
        assert_eq!(id_of(96.0), 7);
        let mut ids: Vec<u32> = second.iter().map(|l| l.id).collect();
        ids.sort();
        assert_eq!(ids, (0..8).collect::<Vec<_>>());
    }
}
