//! Water (openparkan `docs/03-terrain.md`: "The reflection camera", "When
//! it draws", "The water box", "How a water face draws"; the settings are
//! `shade.cfg`'s, three of them written by `iron_3d.ini`).
//!
//! With `UseReflections` on, a reflection camera renders the world
//! (without the water) into a square texture, the largest power of two
//! not above the screen's smaller side, capped at 256: its eye the
//! camera's mirrored in the water's plane, `(x, y, 2h − z)`, looking
//! straight up through a window that is the water box; nothing below
//! `h − 0.5` is reflected (its near plane), and it sees 700 beyond the
//! water. Each water face then draws opaque: the reflection at its place
//! in the box, displaced by the bump map when `UseEMBMReflections` is on,
//! times its lit colour. The bump tiles `EMBMBumpTile` times across the
//! box and drifts one tile along its diagonal every `EMBMBumpMove` ms of
//! game time; its 32×32 texels hold `round(EMBMMaxVal × cos, sin 4π(i/32 +
//! j/32 − 1))` as signed bytes, scaled by `EMBMCoeff00` and `EMBMCoeff11`
//! (the shader computes them: `assets/shaders/legacy.wgsl`). With it off,
//! water draws its material like ground.
//!
//! Ours: the window's box and level are the terrain's
//! ([`WaterSurface`]: every lake shares one box, at the highest water
//! vertex); the lit colour is `WATER_M`'s diffuse (99, 212, 255) on every
//! water face (MAT0 phase colours are not decoded); the reflection is
//! rendered every frame while the eye is above the water; the reflection
//! of the original's `REFLECTION` mode (no EMBM) is the same shifted view
//! without the bump.

use crate::camera::MissionCamera;
use crate::material::{FLAG_WATER, LegacyMaterial};
use crate::shade::ShadeSettings;
use crate::terrain::{SceneTerrain, Terrain, TerrainLayer};
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraProjection, RenderTarget, SubCameraView};
use bevy::math::Vec3A;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use iron3d_assets::terrain::{Terrain as TerrainAsset, WaterSurface};
use iron3d_schedules::GameClock;
use iron3d_world::mission::MissionScoped;

/// The render layer only the player's camera sees: the water (the
/// reflection camera sees layer 0 alone).
pub const WATER_LAYER: usize = 1;

/// The reflection's largest side (REFLECTION_SHIFTED).
const MAX_SIDE: u32 = 256;
/// What the reflection sees beyond the water.
const REACH: f32 = 700.0;
/// Nothing this far below the level is reflected.
const CLIP_BELOW: f32 = 0.5;
/// `WATER_M`'s diffuse colour (openparkan docs/03-terrain.md).
// STAND-IN: `WATER_M`'s diffuse on every water face, whatever its own
// material (MAT0 phase colours are not decoded); settled by decoding the
// water materials' phase colours (openparkan docs/03 "How a water face
// draws").
const WATER_COLOUR: [u8; 3] = [99, 212, 255];

/// How the water draws, from the `shade.cfg` settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterPlan {
    /// `UseReflections`.
    pub reflect: bool,
    /// `UseEMBMReflections`: the bump displaces the reflection.
    pub bump: bool,
    /// `EMBMBumpTile`.
    pub tile: f32,
    /// `EMBMBumpMove`, ms.
    pub period_ms: u64,
    /// `EMBMCoeff00`, `EMBMCoeff11`.
    pub coeff: [f32; 2],
    /// `EMBMMaxVal`.
    pub max: f32,
}

impl WaterPlan {
    pub fn of(settings: &ShadeSettings) -> Self {
        Self {
            reflect: settings.on("UseReflections"),
            bump: settings.on("UseEMBMReflections"),
            tile: settings.number("EMBMBumpTile") as f32,
            period_ms: settings.number("EMBMBumpMove").max(1.0) as u64,
            coeff: [
                settings.number("EMBMCoeff00") as f32,
                settings.number("EMBMCoeff11") as f32,
            ],
            max: settings.number("EMBMMaxVal") as f32,
        }
    }

    /// The bump's drift at game time `ms`: its share of a period.
    pub fn drift(&self, ms: u64) -> f32 {
        (ms % self.period_ms) as f32 / self.period_ms as f32
    }
}

/// The reflection's side for a screen of `size` pixels.
pub fn reflection_side(size: UVec2) -> u32 {
    let smaller = size.min_element().clamp(1, MAX_SIDE);
    1 << (31 - smaller.leading_zeros())
}

/// The reflection camera's projection: a perspective frustum looking up
/// from the mirrored eye whose window at the water is the water box
/// (camera space: right the map's +x, up its −y, looking along its +z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterProjection {
    /// The window at the near plane: left, right, bottom, top.
    pub window: [f32; 4],
    pub near: f32,
    pub far: f32,
}

impl WaterProjection {
    /// The frustum from `eye` (the mirrored eye, map frame) through the
    /// box of `water`; `None` when the eye is not below the clip plane
    /// (the player's eye is at or under the water).
    pub fn new(eye: Vec3, water: &WaterSurface) -> Option<Self> {
        let depth = water.level - eye.z;
        let near = depth - CLIP_BELOW;
        if near <= 0.1 {
            return None;
        }
        let scale = near / depth;
        let window = [
            (water.min[0] - eye.x) * scale,
            (water.max[0] - eye.x) * scale,
            (eye.y - water.max[1]) * scale,
            (eye.y - water.min[1]) * scale,
        ];
        Some(Self {
            window,
            near,
            far: depth + REACH,
        })
    }
}

impl Default for WaterProjection {
    fn default() -> Self {
        Self {
            window: [-1.0, 1.0, -1.0, 1.0],
            near: 1.0,
            far: REACH,
        }
    }
}

impl CameraProjection for WaterProjection {
    /// An off-axis perspective with reversed depth (near 1, far 0), as
    /// Bevy's views expect.
    fn get_clip_from_view(&self) -> Mat4 {
        let [l, r, b, t] = self.window;
        let (n, f) = (self.near, self.far);
        Mat4::from_cols(
            Vec4::new(2.0 * n / (r - l), 0.0, 0.0, 0.0),
            Vec4::new(0.0, 2.0 * n / (t - b), 0.0, 0.0),
            Vec4::new((r + l) / (r - l), (t + b) / (t - b), n / (f - n), -1.0),
            Vec4::new(0.0, 0.0, n * f / (f - n), 0.0),
        )
    }

    fn get_clip_from_view_for_sub(&self, _sub_view: &SubCameraView) -> Mat4 {
        self.get_clip_from_view()
    }

    fn update(&mut self, _width: f32, _height: f32) {}

    fn far(&self) -> f32 {
        self.far
    }

    fn get_frustum_corners(&self, z_near: f32, z_far: f32) -> [Vec3A; 8] {
        let [l, r, b, t] = self.window;
        let at = |z: f32| {
            let s = z.abs() / self.near;
            [
                Vec3A::new(r * s, b * s, z),
                Vec3A::new(r * s, t * s, z),
                Vec3A::new(l * s, t * s, z),
                Vec3A::new(l * s, b * s, z),
            ]
        };
        let (near, far) = (at(z_near), at(z_far));
        [
            near[0], near[1], near[2], near[3], far[0], far[1], far[2], far[3],
        ]
    }
}

/// Marks the reflection camera.
#[derive(Component, Debug)]
#[require(Name::new("Reflection camera"))]
pub struct ReflectionCamera;

/// The reflection's texture, once made.
#[derive(Resource, Debug, Clone)]
pub struct Reflection(pub Handle<Image>);

/// The map frame's point `p` in Bevy's frame.
fn to_bevy(p: Vec3) -> Vec3 {
    Vec3::from(iron3d_assets::terrain::y_up(p.to_array()))
}

/// The camera's turn: right the map's +x (Bevy +X), up the map's −y
/// (Bevy +Z), looking along the map's +z (Bevy +Y).
fn looking_up() -> Quat {
    Quat::from_mat3(&Mat3::from_cols(Vec3::X, Vec3::Z, Vec3::NEG_Y))
}

/// What the water's draw reads of the main camera.
type Eye = (
    &'static GlobalTransform,
    &'static Camera,
    Option<&'static DistanceFog>,
);

/// A terrain layer the water may draw, and whether it is on its render
/// layer yet.
type WaterLayer = (
    Entity,
    &'static TerrainLayer,
    &'static MeshMaterial3d<LegacyMaterial>,
    Has<RenderLayers>,
);

/// Each frame with reflections on: the reflection camera at the mirrored
/// eye and the water layers drawn with its texture, the bump's drift of
/// the game time and the water box.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draw_water(
    mut commands: Commands,
    settings: Option<Res<ShadeSettings>>,
    clock: Res<GameClock>,
    scene: Option<Res<SceneTerrain>>,
    terrains: Res<Assets<TerrainAsset>>,
    reflection: Option<Res<Reflection>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<LegacyMaterial>>,
    eye: Query<Eye, (With<MissionCamera>, Without<ReflectionCamera>)>,
    layers: Query<WaterLayer, With<Terrain>>,
    mut camera: Query<
        (Entity, &mut Transform, &mut Projection, &mut Camera),
        With<ReflectionCamera>,
    >,
) {
    let plan = settings.map(|s| WaterPlan::of(&s));
    let water = scene
        .and_then(|s| terrains.get(&s.handle))
        .and_then(|t| t.water);
    let (Some(plan), Some(water)) = (plan.filter(|p| p.reflect), water) else {
        return;
    };
    let Ok((eye, view, fog)) = eye.single() else {
        return;
    };
    let Some(image) = reflection.map(|r| r.0.clone()) else {
        let side = reflection_side(
            view.physical_target_size()
                .unwrap_or(UVec2::splat(MAX_SIDE)),
        );
        let image = images.add(Image::new_target_texture(
            side,
            side,
            TextureFormat::Rgba8UnormSrgb,
            None,
        ));
        commands.insert_resource(Reflection(image.clone()));
        commands.spawn((
            ReflectionCamera,
            MissionScoped,
            Camera3d::default(),
            Camera {
                order: -1,
                ..default()
            },
            RenderTarget::Image(image.into()),
            Projection::custom(WaterProjection::default()),
            Transform::from_rotation(looking_up()),
            RenderLayers::layer(0),
        ));
        return;
    };
    let map_eye = crate::sky::to_map(eye.translation());
    let mirrored = Vec3::new(map_eye.x, map_eye.y, 2.0 * water.level - map_eye.z);
    if let Ok((entity, mut at, mut projection, mut reflecting)) = camera.single_mut() {
        let frustum = WaterProjection::new(mirrored, &water);
        reflecting.is_active = frustum.is_some();
        if let Some(frustum) = frustum {
            *projection = Projection::custom(frustum);
            *at = Transform::from_translation(to_bevy(mirrored)).with_rotation(looking_up());
        }
        match fog {
            Some(fog) => commands.entity(entity).insert(fog.clone()),
            None => commands.entity(entity).remove::<DistanceFog>(),
        };
    }
    let size = [water.max[0] - water.min[0], water.max[1] - water.min[1]].map(|s| s.max(1e-3));
    let drift = plan.drift(clock.elapsed().as_millis() as u64);
    for (entity, layer, handle, layered) in &layers {
        if !layer.water {
            continue;
        }
        if !layered {
            commands
                .entity(entity)
                .insert(RenderLayers::layer(WATER_LAYER));
        }
        let Some(current) = materials.get(&handle.0) else {
            continue;
        };
        let [r, g, b] = WATER_COLOUR.map(|c| f32::from(c) / 255.0);
        let mut uniform = current.uniform;
        uniform.flags |= FLAG_WATER;
        uniform.colour = Color::srgb(r, g, b).to_linear().to_vec4().with_w(1.0);
        // STAND-IN: the reflection at `((x − x0)/(x1 − x0), (y − y0)/(y1 −
        // y0))` of the box (the original's UV set 1 names the same place
        // with its axes swapped and flipped, docs/03 "How a water face
        // draws"); settled by a retail reflection of an asymmetric shore.
        uniform.water = Vec4::new(water.min[0], water.min[1], 1.0 / size[0], 1.0 / size[1]);
        uniform.bump = if plan.bump {
            Vec4::new(plan.tile, drift, plan.coeff[0], plan.coeff[1])
        } else {
            Vec4::ZERO
        };
        uniform.bump_max = plan.max;
        // Written only when it changed (a paused game's water stands), so
        // the material is not prepared again every frame.
        let same = current.uniform == uniform && current.lightmap.as_ref() == Some(&image);
        if !same && let Some(mut material) = materials.get_mut(&handle.0) {
            material.uniform = uniform;
            material.lightmap = Some(image.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lake() -> WaterSurface {
        WaterSurface {
            level: 10.0,
            min: [100.0, 200.0],
            max: [140.0, 260.0],
        }
    }

    #[test]
    fn the_reflection_is_the_largest_power_of_two_within_the_screen_up_to_256() {
        assert_eq!(reflection_side(UVec2::new(1280, 720)), 256);
        assert_eq!(reflection_side(UVec2::new(640, 200)), 128);
        assert_eq!(reflection_side(UVec2::new(100, 100)), 64);
    }

    #[test]
    fn the_bump_drifts_one_tile_per_period_of_game_time() {
        let settings = ShadeSettings(iron3d_formats::config::ini::Settings::resolve(
            &iron3d_formats::config::text::TextConfig::parse(b"", "shade.cfg").unwrap(),
            iron3d_formats::config::ini::SHADE_CFG,
        ));
        let plan = WaterPlan::of(&settings);
        // The compiled defaults: reflections on, no EMBM, 100 tiles, 10 s.
        assert!(plan.reflect && !plan.bump);
        assert_eq!((plan.tile, plan.period_ms, plan.max), (100.0, 10_000, 64.0));
        assert_eq!(plan.drift(2_500), 0.25);
        assert_eq!(plan.drift(12_500), 0.25);
    }

    /// Where a map point lands in the reflection (texture u, v: 0 at the
    /// left and top), through the projection from `eye`.
    fn texel(projection: &WaterProjection, eye: Vec3, p: Vec3) -> Vec2 {
        let view = Transform::from_translation(to_bevy(eye)).with_rotation(looking_up());
        let clip =
            projection.get_clip_from_view() * view.to_matrix().inverse() * to_bevy(p).extend(1.0);
        let ndc = clip.truncate() / clip.w;
        Vec2::new((ndc.x + 1.0) / 2.0, (1.0 - ndc.y) / 2.0)
    }

    #[test]
    fn the_window_maps_the_water_box_onto_the_texture_as_the_shader_reads_it() {
        let water = lake();
        let eye = Vec3::new(90.0, 180.0, 40.0);
        let mirrored = Vec3::new(eye.x, eye.y, 2.0 * water.level - eye.z);
        let projection = WaterProjection::new(mirrored, &water).unwrap();
        // The shader's u = (x − x0) / width, v = (y − y0) / height.
        for (x, y) in [(100.0, 200.0), (140.0, 260.0), (110.0, 245.0)] {
            let at = texel(&projection, mirrored, Vec3::new(x, y, water.level));
            let want = Vec2::new((x - 100.0) / 40.0, (y - 200.0) / 60.0);
            assert!((at - want).length() < 1e-3, "{x},{y}: {at} against {want}");
        }
        // A point above the water is seen where the water mirrors it: the
        // line from the mirrored eye through it crosses the plane there.
        let high = Vec3::new(130.0, 250.0, 30.0);
        let t = (water.level - mirrored.z) / (high.z - mirrored.z);
        let crossing = mirrored + (high - mirrored) * t;
        let want = Vec2::new((crossing.x - 100.0) / 40.0, (crossing.y - 200.0) / 60.0);
        assert!((texel(&projection, mirrored, high) - want).length() < 1e-3);
        // Its depth lies between the planes (reversed: near 1, far 0).
        let view = Transform::from_translation(to_bevy(mirrored)).with_rotation(looking_up());
        let clip = projection.get_clip_from_view()
            * view.to_matrix().inverse()
            * to_bevy(high).extend(1.0);
        assert!((0.0..1.0).contains(&(clip.z / clip.w)));
    }

    #[test]
    fn an_eye_at_or_under_the_water_reflects_nothing() {
        let water = lake();
        let mirrored = |z: f32| Vec3::new(0.0, 0.0, 2.0 * water.level - z);
        assert!(WaterProjection::new(mirrored(10.3), &water).is_none());
        assert!(WaterProjection::new(mirrored(5.0), &water).is_none());
        assert!(WaterProjection::new(mirrored(12.0), &water).is_some());
    }
}
