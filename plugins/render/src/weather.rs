//! Rain and snow: the sky's weather spells (`sky.ske` events 3 and 4
//! start and stop rain, 5 and 6 snow; openparkan `docs/10-sky.md`, "The
//! ten opcodes") drawn with their `sky.wea` materials (role 8 the rain's
//! drop, 7 the snow's flake), as many as the keyframes' weather intensity
//! asks for.
//!
//! Ours (no source measures the particles): up to [`RAIN_DROPS`] streaks
//! or [`SNOW_FLAKES`] flakes at intensity 1, in a box [`REACH`] across and
//! [`HEIGHT`] tall round the eye, anchored in the world (a drop keeps its
//! place as the camera moves) and falling on game time; each a quad
//! turned to the eye about the vertical. Lightning (events 8 and 9, an
//! effect the keyframe names) and the rain's sound are not drawn or
//! played.

use crate::material::LegacyMaterial;
use crate::sky::{SkyDraw, SkySprites, Weather};
use bevy::camera::visibility::NoFrustumCulling;
use bevy::prelude::*;

/// `sky.wea` roles of the snow's flake and the rain's drop.
pub const SNOW_ROLE: u32 = 7;
pub const RAIN_ROLE: u32 = 8;

/// Particles at intensity 1.
// STAND-IN: 1500 drops, enough to read as rain (no source gives the
// count); settled by reading the rain's particle count in `Terrain.dll`
// or counting drops in a retail frame at intensity 1.
pub const RAIN_DROPS: usize = 1500;
// STAND-IN: 1000 flakes (no source gives the count); settled as
// `RAIN_DROPS`.
pub const SNOW_FLAKES: usize = 1000;

/// The box the particles fill round the eye: its side across and its
/// height, m.
// STAND-IN: 60 m across (no source gives the area); settled by reading
// the weather box in `Terrain.dll` (openparkan docs/10 "The ten opcodes").
pub const REACH: f32 = 60.0;
// STAND-IN: 30 m tall (no source gives it); settled as `REACH`.
pub const HEIGHT: f32 = 30.0;

/// Draw-item insertion ids of the weather in the atmosphere phase.
const RAIN_ITEM: u64 = 40;
const SNOW_ITEM: u64 = 41;

/// How one kind of weather falls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fall {
    pub role: u32,
    pub most: usize,
    /// m/s down.
    pub speed: f32,
    /// The quad's width and height, m.
    pub size: Vec2,
    /// How far a particle sways across, m.
    pub sway: f32,
    pub insertion: u64,
}

// STAND-IN: rain falls 14 m/s in 0.04 × 0.9 m streaks, no sway (no
// source gives speed or size); settled by reading the rain particle's
// update in `Terrain.dll`, or timing drops in a retail recording.
pub const RAIN: Fall = Fall {
    role: RAIN_ROLE,
    most: RAIN_DROPS,
    speed: 14.0,
    size: Vec2::new(0.04, 0.9),
    sway: 0.0,
    insertion: RAIN_ITEM,
};

// STAND-IN: snow falls 1.5 m/s in 0.15 m flakes swaying 0.6 m (no source
// gives them); settled as `RAIN`.
pub const SNOW: Fall = Fall {
    role: SNOW_ROLE,
    most: SNOW_FLAKES,
    speed: 1.5,
    size: Vec2::new(0.15, 0.15),
    sway: 0.6,
    insertion: SNOW_ITEM,
};

/// The falls under way in `weather` with their particle counts.
pub fn falls(weather: &Weather) -> Vec<(Fall, usize)> {
    let count = |fall: &Fall| (weather.intensity.clamp(0.0, 1.0) * fall.most as f32) as usize;
    [(weather.rain, RAIN), (weather.snow, SNOW)]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, fall)| (fall, count(&fall)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// A particle's share of the box along one axis, 0..1, from its index.
fn share(i: usize, axis: u32) -> f32 {
    let mut h = (i as u32).wrapping_mul(0x9E37_79B9) ^ axis.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    (h & 0xFFFF) as f32 / 65536.0
}

/// `v` wrapped into `centre ± span / 2`.
fn wrapped(v: f32, centre: f32, span: f32) -> f32 {
    centre + (v - centre + span / 2.0).rem_euclid(span) - span / 2.0
}

/// Where the `count` particles of `fall` stand at `seconds` of game time
/// round `eye` (map frame, Z up): each at its own place in a world grid
/// of boxes, fallen `speed × seconds`, swaying across.
pub fn particles(fall: &Fall, count: usize, eye: Vec3, seconds: f32) -> Vec<Vec3> {
    (0..count)
        .map(|i| {
            let [x, y, z] = [0, 1, 2].map(|axis| share(i, axis));
            let sway = fall.sway * (seconds * 0.7 + x * std::f32::consts::TAU).sin();
            Vec3::new(
                wrapped(x * REACH + sway, eye.x, REACH),
                wrapped(y * REACH, eye.y, REACH),
                wrapped(z * HEIGHT - fall.speed * seconds, eye.z, HEIGHT),
            )
        })
        .collect()
}

/// The quads of `points` (map frame) turned to `eye` about the vertical,
/// in Bevy's frame: positions, UVs and indices.
fn quads(points: &[Vec3], eye: Vec3, size: Vec2) -> (Vec<[f32; 3]>, Vec<[f32; 2]>, Vec<u32>) {
    let mut positions = Vec::with_capacity(points.len() * 4);
    let mut uvs = Vec::with_capacity(points.len() * 4);
    let mut indices = Vec::with_capacity(points.len() * 6);
    for p in points {
        let across = Vec3::new(eye.y - p.y, p.x - eye.x, 0.0).normalize_or(Vec3::X) * size.x / 2.0;
        let up = Vec3::Z * size.y / 2.0;
        let base = positions.len() as u32;
        for (corner, uv) in [
            (-across - up, [0.0, 1.0]),
            (across - up, [1.0, 1.0]),
            (across + up, [1.0, 0.0]),
            (-across + up, [0.0, 0.0]),
        ] {
            positions.push(crate::sky::to_bevy(*p + corner).to_array());
            uvs.push(uv);
        }
        indices.extend([0, 1, 2, 0, 2, 3].map(|k| base + k));
    }
    (positions, uvs, indices)
}

/// The mesh of one fall's particles.
fn fall_mesh(points: &[Vec3], eye: Vec3, size: Vec2) -> Mesh {
    let (positions, uvs, indices) = quads(points, eye, size);
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(bevy::mesh::Indices::U32(indices))
}

/// One fall's drawn particles (by its `sky.wea` role).
#[derive(Component, Debug)]
#[require(Name::new("Weather fall"))]
pub struct WeatherFall(pub u32);

/// Each frame: the falls under way rebuilt round the camera; the others
/// hidden.
pub(crate) fn plugin(app: &mut App) {
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        app.add_systems(PostUpdate, draw_weather.in_set(SkyDraw::Weather));
    }
}

fn draw_weather(
    mut sky: SkySprites,
    clock: Res<iron3d_schedules::GameClock>,
    mut drawn: Query<(&WeatherFall, &Mesh3d, &mut Visibility)>,
    mut made: Local<std::collections::BTreeMap<u32, Handle<LegacyMaterial>>>,
) {
    let under_way = sky
        .now
        .0
        .as_ref()
        .map_or_else(Vec::new, |frame| falls(&frame.weather));
    let eye = sky.camera.single().map(|(eye, _)| eye.translation()).ok();
    let seconds = clock.elapsed().as_secs_f32();
    for (fall, _, mut shown) in &mut drawn {
        if eye.is_none() || !under_way.iter().any(|(f, _)| f.role == fall.0) {
            shown.set_if_neq(Visibility::Hidden);
        }
    }
    let Some(eye) = eye.map(crate::sky::to_map) else {
        return;
    };
    for (fall, count) in under_way {
        let Some(material) = sky.material(&mut *made, (fall.role, fall.role), |_| {}) else {
            continue;
        };
        let points = particles(&fall, count, eye, seconds);
        let mesh = fall_mesh(&points, eye, fall.size);
        match drawn.iter_mut().find(|(f, ..)| f.0 == fall.role) {
            Some((_, handle, mut shown)) => {
                if let Some(mut slot) = sky.meshes.get_mut(&handle.0) {
                    *slot = mesh;
                }
                shown.set_if_neq(Visibility::Visible);
            }
            None => {
                let item = sky.item(&material, fall.insertion);
                sky.commands.spawn((
                    WeatherFall(fall.role),
                    Mesh3d(sky.meshes.add(mesh)),
                    MeshMaterial3d(material),
                    Transform::IDENTITY,
                    // Rebuilt each frame: its first bounds would go stale.
                    NoFrustumCulling,
                    bevy::light::NotShadowCaster,
                    item,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weather_falls_as_many_as_its_intensity_asks_for() {
        let none = Weather::default();
        assert!(falls(&none).is_empty());
        let rain = Weather {
            rain: true,
            snow: false,
            intensity: 0.5,
        };
        assert_eq!(falls(&rain), [(RAIN, RAIN_DROPS / 2)]);
        // A spell at intensity 0 draws nothing.
        assert!(
            falls(&Weather {
                intensity: 0.0,
                ..rain
            })
            .is_empty()
        );
        let both = Weather {
            rain: true,
            snow: true,
            intensity: 2.0,
        };
        assert_eq!(falls(&both), [(RAIN, RAIN_DROPS), (SNOW, SNOW_FLAKES)]);
    }

    #[test]
    fn particles_fill_the_box_round_the_eye_and_fall_on_game_time() {
        let eye = Vec3::new(1000.0, -500.0, 40.0);
        let at = |s| particles(&RAIN, 200, eye, s);
        let (now, later) = (at(10.0), at(10.5));
        for p in &now {
            assert!((p.x - eye.x).abs() <= REACH / 2.0 && (p.y - eye.y).abs() <= REACH / 2.0);
            assert!((p.z - eye.z).abs() <= HEIGHT / 2.0);
        }
        // Half a second later each drop fell 7 m (or wrapped to the top).
        let fell = now
            .iter()
            .zip(&later)
            .filter(|(a, b)| (a.z - b.z - 7.0).abs() < 1e-3)
            .count();
        assert!(fell > 150, "{fell} of 200 fell 7 m");
        assert!(
            now.iter()
                .zip(&later)
                .all(|(a, b)| a.x == b.x && a.y == b.y)
        );
        // Anchored in the world: moving the eye a box along keeps the drops.
        let moved = particles(&RAIN, 200, eye + Vec3::X * REACH, 10.0);
        assert!(
            now.iter()
                .zip(&moved)
                .all(|(a, b)| (b.x - a.x - REACH).abs() < 1e-2 && a.y == b.y)
        );
        let (_, _, indices) = quads(&now, eye, RAIN.size);
        assert_eq!(indices.len(), 200 * 6);
    }
}
