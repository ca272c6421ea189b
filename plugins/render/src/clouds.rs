//! The clouds (openparkan `docs/10-sky.md`, "The dome", "The three
//! layers", "How a keyframe reaches the sky"): the dome's cap again, its
//! origin 5000 below the camera, textured with the `sky.wea` role-2
//! material tiled three times across (`u, v = x / R × 3, y / R × 3`),
//! tinted by the keyframe's slot 18, blended by its material (depth test
//! on, no depth write), with a fog of its own from 5000 to 11380.7; drawn
//! only with `AtmCloudsOn` (`shade.cfg`).
//!
//! Ours: the cap is cut finer than the dome (16 rings of 32 segments) so
//! that the texture and the fog follow it; the fog fades the clouds out
//! (the sky behind them is the dome, whose rim is the fog's colour); the
//! cap is scaled with the dome ([`crate::sky`]) and stands apart from
//! the effects by its origin, high above the camera, so that Bevy's
//! back-to-front sort draws it before them.

use crate::camera::MissionCamera;
use crate::draw::{DrawItemSource, RenderPhase};
use crate::material::{FLAG_VERTEX_COLOURS, LegacyMaterial};
use crate::shade::ShadeSettings;
use crate::sky::{Atmosphere, CLOUD_ITEM, SkyDraw, SkyNow, cap_points, cap_triangles, dome_radius};
use bevy::prelude::*;
use iron3d_assets::material::EntryMaterial;
use iron3d_world::mission::MissionSky;

/// The `sky.wea` role of the clouds' material.
pub const CLOUD_ROLE: u32 = 2;
/// The cap's cuts.
// STAND-IN: 16 rings, finer than the dome's 5 so the texture and the fog
// follow the cap (docs/10 gives the original's cap, not how finely it is
// cut); settled by reading the clouds' vertex count in `Terrain.dll`.
const RINGS: usize = 16;
// STAND-IN: 32 segments round, for the same reason as `RINGS`; settled
// the same way.
const SEGMENTS: usize = 32;
/// The cap's origin below the camera.
const DROP: f32 = 5000.0;
/// Texture repeats across the sphere's radius.
const TILES: f32 = 3.0;
/// The clouds' own fog, start and end.
const FOG: (f32, f32) = (5000.0, 11380.7);

/// The clouds' entity.
#[derive(Component, Debug)]
#[require(Name::new("Sky clouds"))]
pub struct SkyClouds;

/// A cloud vertex: where it stands round the camera (map frame, unscaled),
/// its texture coordinates and how much the fog leaves of it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CloudVertex {
    pub at: Vec3,
    pub uv: [f32; 2],
    pub keep: f32,
}

/// The clouds' vertices, in [`cap_points`] order.
pub fn cloud_vertices() -> Vec<CloudVertex> {
    let radius = dome_radius();
    cap_points(RINGS, SEGMENTS)
        .into_iter()
        .map(|p| {
            let at = p - Vec3::Z * DROP;
            let fog = ((at.length() - FOG.0) / (FOG.1 - FOG.0)).clamp(0.0, 1.0);
            CloudVertex {
                at,
                uv: [at.x / radius * TILES, at.y / radius * TILES],
                keep: 1.0 - fog,
            }
        })
        .collect()
}

/// The clouds' mesh at `scale` (the dome's), its points relative to
/// `origin` (map frame, scaled).
fn cloud_mesh(scale: f32, origin: Vec3) -> Mesh {
    let vertices = cloud_vertices();
    let bevy = |v: &CloudVertex| crate::sky::to_bevy(v.at * scale - origin);
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_POSITION,
        vertices
            .iter()
            .map(|v| bevy(v).to_array())
            .collect::<Vec<_>>(),
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_NORMAL,
        vec![[0.0f32, -1.0, 0.0]; vertices.len()],
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_UV_0,
        vertices.iter().map(|v| v.uv).collect::<Vec<_>>(),
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_COLOR,
        vertices
            .iter()
            .map(|v| [1.0, 1.0, 1.0, v.keep])
            .collect::<Vec<_>>(),
    )
    .with_inserted_indices(bevy::mesh::Indices::U32(cap_triangles(RINGS, SEGMENTS)))
}

/// The clouds' material entry and the material made of it.
#[derive(Default)]
pub(crate) struct CloudSources {
    entry: Option<Handle<EntryMaterial>>,
    material: Option<Handle<LegacyMaterial>>,
}

/// What the clouds' draw reads and makes.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct CloudDraw<'w, 's> {
    commands: Commands<'w, 's>,
    now: Res<'w, SkyNow>,
    sky: Option<Res<'w, MissionSky>>,
    settings: Option<Res<'w, ShadeSettings>>,
    atmosphere: Res<'w, Atmosphere>,
    server: Res<'w, AssetServer>,
    entries: Res<'w, Assets<EntryMaterial>>,
    meshes: ResMut<'w, Assets<Mesh>>,
    legacy: ResMut<'w, Assets<LegacyMaterial>>,
    camera: Query<'w, 's, (&'static GlobalTransform, &'static Projection), With<MissionCamera>>,
    clouds: Query<'w, 's, (&'static mut Transform, &'static mut Visibility), With<SkyClouds>>,
    sources: Local<'s, CloudSources>,
}

/// Each frame: the clouds over the camera in the keyframe's colour, or
/// hidden (no sky, no role-2 material, `AtmCloudsOn=0`, the atmosphere
/// off).
pub(crate) fn plugin(app: &mut App) {
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        app.add_systems(PostUpdate, draw_clouds.in_set(SkyDraw::Clouds));
    }
}

fn draw_clouds(mut draw: CloudDraw) {
    let shown = draw.show();
    if !shown {
        for (_, mut visibility) in &mut draw.clouds {
            visibility.set_if_neq(Visibility::Hidden);
        }
    }
}

impl CloudDraw<'_, '_> {
    /// Places and tints the clouds; false when they are not drawn.
    fn show(&mut self) -> bool {
        let on = self.atmosphere.on && self.settings.as_ref().is_none_or(|s| s.on("AtmCloudsOn"));
        let (Some(frame), Some(sky)) = (self.now.0.clone(), self.sky.as_ref()) else {
            return false;
        };
        let Some(name) = sky.materials.get(&CLOUD_ROLE).filter(|_| on) else {
            return false;
        };
        let Ok((eye, projection)) = self.camera.single() else {
            return false;
        };
        let server = &self.server;
        let source = self.sources.entry.get_or_insert_with(|| {
            server.load(crate::material::entry_path(name).unwrap_or_default())
        });
        let Some(entry) = self.entries.get(&*source) else {
            return false;
        };
        let [r, g, b, _] = frame.clouds;
        let tint = Color::srgb(r, g, b).to_linear().to_vec3();
        let material = match &self.sources.material {
            Some(handle) => handle.clone(),
            None => {
                let mut made = LegacyMaterial::of_entry(&entry.row, 0, 1.0).unlit();
                made.uniform.flags |= FLAG_VERTEX_COLOURS;
                let handle = self.legacy.add(made);
                self.sources.material = Some(handle.clone());
                handle
            }
        };
        // Written only when the tint changed (the material is prepared
        // again on every write).
        let changed = self
            .legacy
            .get(&material)
            .is_some_and(|made| made.uniform.colour.truncate() != tint);
        if changed && let Some(mut made) = self.legacy.get_mut(&material) {
            let alpha = made.uniform.colour.w;
            made.uniform.colour = tint.extend(alpha);
        }
        let scale = crate::sky::dome_scale(projection);
        let origin = Vec3::Z * (crate::sky::DOME_HEIGHT - DROP) * scale;
        let at = eye.translation() + crate::sky::to_bevy(origin);
        match self.clouds.single_mut() {
            Ok((mut place, mut visibility)) => {
                place.translation = at;
                visibility.set_if_neq(Visibility::Visible);
            }
            Err(_) => {
                let item = DrawItemSource {
                    render_phase: RenderPhase::Atmosphere,
                    insertion: CLOUD_ITEM,
                    ..crate::animate::draw_item(
                        self.legacy.get(&material).expect("just made"),
                        0,
                        &self.server,
                    )
                };
                self.commands.spawn((
                    SkyClouds,
                    Mesh3d(self.meshes.add(cloud_mesh(scale, origin))),
                    MeshMaterial3d(material),
                    Transform::from_translation(at),
                    bevy::light::NotShadowCaster,
                    item,
                ));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clouds_hang_5000_under_the_dome_tile_three_times_and_fade_by_11380() {
        let vertices = cloud_vertices();
        assert_eq!(vertices.len(), 1 + RINGS * SEGMENTS);
        let apex = vertices[0];
        assert_eq!(apex.at, Vec3::new(0.0, 0.0, crate::sky::DOME_HEIGHT - DROP));
        assert_eq!(apex.uv, [0.0, 0.0]);
        // The apex is 5000 away: the fog has not begun.
        assert_eq!(apex.keep, 1.0);
        // The rim is far past the fog's end; its texture repeats about
        // 2.12 times from the middle.
        let rim = vertices[vertices.len() - SEGMENTS / 4];
        assert_eq!(rim.keep, 0.0);
        let reach = Vec2::from(rim.uv).length();
        assert!((reach - 2.121).abs() < 0.01, "{reach}");
        // The fade falls outward, ring by ring.
        let keeps: Vec<f32> = (0..RINGS)
            .map(|r| vertices[1 + r * SEGMENTS].keep)
            .collect();
        assert!(keeps.windows(2).all(|k| k[0] >= k[1]), "{keeps:?}");
        assert!(keeps[0] > 0.5 && keeps[0] < 1.0);
    }
}
