//! Point lights through a light manager (tome V "Свет, тени, атмосфера и
//! сортировка": `CLightManager` gives lights numeric ids and checks how
//! many there may be; `EmulatePointLights()` reproduces point lights;
//! an unknown light type is its own error).
//!
//! Each frame the effects hand the manager their lights
//! ([`FrameLights`]); the manager types each by its kind
//! ([`LightType::of_kind`]; an unknown one is reported once, with its
//! effect, and left out), keeps the point lights (a light flagged
//! `0x80000000` lights only its owner's model, never the terrain, and
//! nothing without an owner), at most [`MAX_POINT_LIGHTS`] of them whose
//! reach comes nearest the eye, and gives each a numeric id it keeps while
//! it shines. They go to the legacy shader in one buffer every material
//! shares ([`POINT_LIGHTS`]), which lights the terrain and the model
//! batches the way the original's vertex lighter does (openparkan
//! `COMPLETED-QUESTIONS.md`, 2026-10-01, "Whether an object takes an
//! effect's light"; `docs/11-effects.md`, "Type 1 is a light"): nothing
//! past the range or turned away, else the light's colour × cos × `(a0 +
//! a1 x + a2 x²)`, `x = (range − d) / range`, added to the sky's lights
//! before the knee. A batch whose word carries `0x800` also takes the
//! emulation's disc (`docs/11-effects.md`, "What a light does to a
//! surface"): lights not flagged `0x20000000`, within the range (a hard
//! cut), add the colour divided by its own length times that length ×
//! 0.25, held at 2, across the disc of radius √(range² − d²) on the
//! surface's plane, with our falloff `(range² − r²) / (range² − d²)`;
//! `EmulatePointLight=0` in `shade.cfg` turns the discs off.

use crate::camera::MissionCamera;
use crate::material::POINT_LIGHTS;
use crate::shade::ShadeSettings;
use bevy::prelude::*;
use bevy::render::render_resource::ShaderType;
use bevy::render::storage::ShaderBuffer;
use iron3d_formats::fxid::emitter::{LightType, UnknownLightType};
use std::collections::BTreeMap;

/// At most this many point lights shine at once (the original gathers
/// every light that reaches a drawn object; every lit pixel walks the
/// list, which a software renderer pays for in a battle).
// STAND-IN: 8 lights, a cap the original does not have (docs/11 "What a
// light does to a surface"); settled by frame timings of a retail battle
// with every light kept, to see whether a cap is needed at all.
pub const MAX_POINT_LIGHTS: usize = 8;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<FrameLights>()
        .init_resource::<LightManager>();
    if let Some(mut buffers) = app.world_mut().get_resource_mut::<Assets<ShaderBuffer>>() {
        buffers
            .insert(
                &POINT_LIGHTS,
                ShaderBuffer::from(GpuPointLights::of_lights(&[], true)),
            )
            .expect("a uuid handle has no generation");
        app.add_systems(
            PostUpdate,
            place_lights
                .after(iron3d_schedules::Phase::PublishRenderSnapshot)
                .before(TransformSystems::Propagate),
        );
    }
}

/// The tag a drawn batch of object `object` carries (its `MeshTag`) and
/// an owner-only light names: the original id + 1; 0 for the terrain and
/// anything without an object.
pub fn owner_tag(object: Option<u32>) -> u32 {
    object.and_then(|id| id.checked_add(1)).unwrap_or(0)
}

/// A light an effect asks for this frame.
#[derive(Debug, Clone, PartialEq)]
pub struct LightRequest {
    /// The effect's key and the instance's serial and command: names the
    /// light while it lives.
    pub effect: String,
    pub serial: u64,
    pub command: usize,
    /// The object the effect belongs to, if any.
    pub owner: Option<u32>,
    /// The command's raw kind (+4).
    pub kind: u32,
    /// Bevy world frame.
    pub position: Vec3,
    /// RGB (the lighter reads no alpha).
    pub colour: [f32; 3],
    pub range: f32,
    /// `a0, a1, a2`.
    pub attenuation: [f32; 3],
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
    pub colour: Vec3,
    pub range: f32,
    pub attenuation: [f32; 3],
    /// [`owner_tag`] of the only object it lights; 0: it lights all.
    pub owner: u32,
    /// Whether a batch's disc emulation takes it (not `0x20000000`).
    pub disc: bool,
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
    /// typed, point lights only (an owner-only light needs its owner),
    /// the [`MAX_POINT_LIGHTS`] whose reach comes nearest the eye (ties by
    /// serial and command), each keeping its id from the frame before or
    /// taking the lowest free one.
    pub fn frame(&mut self, requests: &[LightRequest], eye: Vec3) -> Vec<ShiningLight> {
        let mut points = Vec::new();
        for request in requests {
            match LightType::of_kind(request.kind) {
                Ok(LightType::Point {
                    owner_only,
                    not_emulated,
                }) => {
                    let owner = if owner_only {
                        match owner_tag(request.owner) {
                            // STAND-IN: an owner-only light without an owner
                            // lights nothing (docs/11 "Whether an object
                            // takes an effect's light" tests the owner, not
                            // its absence); settled by a retail owner-only
                            // effect played without an object.
                            0 => continue,
                            tag => tag,
                        }
                    } else {
                        0
                    };
                    points.push((request, owner, !not_emulated));
                }
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
        points.sort_by(|(a, ..), (b, ..)| {
            reach(a)
                .total_cmp(&reach(b))
                .then((a.serial, a.command).cmp(&(b.serial, b.command)))
        });
        self.over_limit = points.len().saturating_sub(MAX_POINT_LIGHTS);
        points.truncate(MAX_POINT_LIGHTS);
        let previous = std::mem::take(&mut self.ids);
        for (r, ..) in &points {
            if let Some(&id) = previous.get(&(r.serial, r.command)) {
                self.ids.insert((r.serial, r.command), id);
            }
        }
        for (r, ..) in &points {
            let key = (r.serial, r.command);
            if !self.ids.contains_key(&key) {
                let free = (0..).find(|id| !self.ids.values().any(|v| v == id));
                self.ids.insert(key, free.expect("fewer ids than u32"));
            }
        }
        points
            .into_iter()
            .map(|(r, owner, disc)| ShiningLight {
                id: self.ids[&(r.serial, r.command)],
                position: r.position,
                colour: Vec3::from(r.colour).max(Vec3::ZERO),
                range: r.range,
                attenuation: r.attenuation,
                owner,
                disc,
            })
            .collect()
    }
}

/// One light as the shader reads it (`PointLight` in legacy.wgsl).
#[derive(Debug, Clone, Copy, Default, PartialEq, ShaderType)]
pub struct GpuPointLight {
    pub position: Vec3,
    pub range: f32,
    pub colour: Vec3,
    /// [`owner_tag`], 0 for every surface.
    pub owner: u32,
    pub attenuation: Vec3,
    /// Bit 0: the discs take it.
    pub disc: u32,
}

/// The buffer's contents: how many lights, then a fixed array (its size
/// never changes, so the one GPU buffer is rewritten in place).
#[derive(Debug, Clone, PartialEq, ShaderType)]
pub struct GpuPointLights {
    pub count: u32,
    pub items: [GpuPointLight; MAX_POINT_LIGHTS],
}

impl GpuPointLights {
    /// The buffer of `shining` (the emulation's discs off unless `discs`).
    fn of_lights(shining: &[ShiningLight], discs: bool) -> Self {
        let mut items = [GpuPointLight::default(); MAX_POINT_LIGHTS];
        for (slot, l) in items.iter_mut().zip(shining) {
            *slot = GpuPointLight {
                position: l.position,
                range: l.range,
                colour: l.colour,
                owner: l.owner,
                attenuation: Vec3::from(l.attenuation),
                disc: u32::from(discs && l.disc),
            };
        }
        Self {
            count: shining.len().min(MAX_POINT_LIGHTS) as u32,
            items,
        }
    }
}

/// Takes this frame's requests through the manager and writes the lights
/// that shine into [`POINT_LIGHTS`] when they differ from the last frame's
/// (`written`), so an unchanged buffer is not uploaded again.
fn place_lights(
    mut requests: ResMut<FrameLights>,
    mut manager: ResMut<LightManager>,
    settings: Option<Res<ShadeSettings>>,
    camera: Query<&GlobalTransform, With<MissionCamera>>,
    mut buffers: ResMut<Assets<ShaderBuffer>>,
    mut written: Local<Option<GpuPointLights>>,
) {
    let requests = std::mem::take(&mut requests.0);
    let discs = settings.is_none_or(|s| s.on("EmulatePointLight"));
    let eye = camera.single().map_or(Vec3::ZERO, |c| c.translation());
    let shining = manager.frame(&requests, eye);
    if manager.over_limit > 0 {
        debug!(
            "{} point lights over the limit of {MAX_POINT_LIGHTS} left out",
            manager.over_limit
        );
    }
    let lights = GpuPointLights::of_lights(&shining, discs);
    if written.as_ref() == Some(&lights) {
        return;
    }
    if let Some(mut buffer) = buffers.get_mut(&POINT_LIGHTS) {
        buffer.set_data(lights.clone());
        *written = Some(lights);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(serial: u64, kind: u32, x: f32, owner: Option<u32>) -> LightRequest {
        LightRequest {
            effect: "EFFECTS.LIB::FIRE".into(),
            serial,
            command: 0,
            owner,
            kind,
            position: Vec3::new(x, 0.0, 0.0),
            colour: [3.0, 2.0, -1.0],
            range: 10.0,
            attenuation: [0.0, 1.0, 0.0],
        }
    }

    #[test]
    fn an_unknown_light_type_is_its_own_error_reported_once_and_left_out() {
        let mut manager = LightManager::default();
        let asked = [request(1, 9, 0.0, None), request(2, 5, 0.0, None)];
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
    fn point_lights_shine_owner_only_ones_on_their_owner_and_discs_without_0x20000000() {
        let mut manager = LightManager::default();
        // Kinds 3 (directional) and 4 (parallel point) do not shine, nor
        // an owner-only light (kind 1) without an owner.
        let asked = [
            request(1, 1, 0.0, Some(7)),
            request(2, 6, 0.0, Some(7)),
            request(3, 7, 0.0, Some(7)),
            request(4, 2, 0.0, None),
            request(5, 3, 0.0, Some(7)),
            request(6, 4, 0.0, Some(7)),
            request(7, 1, 0.0, None),
        ];
        let shining = manager.frame(&asked, Vec3::ZERO);
        let seen: Vec<(u32, bool)> = shining.iter().map(|l| (l.owner, l.disc)).collect();
        assert_eq!(seen, [(8, true), (8, false), (0, false), (0, true)]);
        // The colour is kept (no negative light) with its terms.
        assert_eq!(shining[0].colour, Vec3::new(3.0, 2.0, 0.0));
        assert_eq!(shining[0].attenuation, [0.0, 1.0, 0.0]);
        assert_eq!(owner_tag(Some(7)), 8);
        assert_eq!(owner_tag(None), 0);
        assert_eq!(owner_tag(Some(u32::MAX)), 0);
        // The buffer the shader reads: the count, and the discs only
        // while `EmulatePointLight` allows them.
        let on = GpuPointLights::of_lights(&shining, true);
        assert_eq!(on.count, 4);
        assert_eq!(on.items[0].disc, 1);
        assert_eq!(on.items[1].disc, 0);
        assert_eq!(on.items[0].owner, 8);
        assert_eq!(on.items[4], GpuPointLight::default());
        let off = GpuPointLights::of_lights(&shining, false);
        assert!(off.items.iter().all(|l| l.disc == 0));
    }

    #[test]
    fn the_limit_keeps_the_nearest_reach_and_ids_stay_with_their_lights() {
        let mut manager = LightManager::default();
        let n = MAX_POINT_LIGHTS as u64 + 4;
        let asked: Vec<_> = (0..n)
            .map(|i| request(i, 5, 100.0 - i as f32, None))
            .collect();
        let first = manager.frame(&asked, Vec3::ZERO);
        assert_eq!(first.len(), MAX_POINT_LIGHTS);
        assert_eq!(manager.over_limit, 4);
        // The nearest (serials n-1 down to 4) take ids 0.. in that order.
        let by_position: Vec<(f32, u32)> = first.iter().map(|l| (l.position.x, l.id)).collect();
        let nearest = 100.0 - (n - 1) as f32;
        assert_eq!(by_position[0], (nearest, 0));
        assert_eq!(
            by_position[MAX_POINT_LIGHTS - 1],
            (96.0, MAX_POINT_LIGHTS as u32 - 1)
        );
        // The nearest goes out: its id is free for the newcomer; the
        // others keep theirs.
        let mut next: Vec<_> = asked[..n as usize - 1].to_vec();
        next.push(request(100, 5, 0.0, None));
        let second = manager.frame(&next, Vec3::ZERO);
        let id_of = |x: f32| second.iter().find(|l| l.position.x == x).unwrap().id;
        assert_eq!(id_of(0.0), 0);
        assert_eq!(id_of(nearest + 1.0), 1);
        assert_eq!(id_of(96.0), MAX_POINT_LIGHTS as u32 - 1);
        let mut ids: Vec<u32> = second.iter().map(|l| l.id).collect();
        ids.sort();
        assert_eq!(ids, (0..MAX_POINT_LIGHTS as u32).collect::<Vec<_>>());
    }
}
