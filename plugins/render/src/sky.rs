//! The sky of the mission's `sky.ske` (openparkan `docs/10-sky.md`; tome V
//! "Свет, тени, атмосфера и сортировка"): its clock on game time, the two
//! keyframes around it lerped, and what that gives the frame: the dome's
//! vertex colours, the fog (its distances, its colour by the camera's
//! heading, the clear colour behind the scene), the main light (the sun's
//! or the moon's travel, the light's colour) and the scene colour (the
//! lit floor).
//!
//! - **Clock**: a keyframe stands at `(h × 3600 + m × 60) × day ÷ 86400`
//!   s into its section's day; sections play in turn; at load the clock
//!   stands at the file's start time.
//! - **Dome**: a cap of height 10000 and angle π/4 (radius 34142.1) in 5
//!   rings of 2^4 segments, drawn round the camera: the apex and ring 1
//!   take property 12, rings 2, 3 and 4 properties 8-11, 4-7 and 0-3 (a
//!   compass: property `k` at `k × 90°` from +y toward +x, lerped segment
//!   by segment), the rim the fog colour.
//! - **Bodies**: a start-body event (`sun`, else the moon) lives to the
//!   first stop at or after it in its section; at `f` of its life the light
//!   travels along `Rz(A) Rx(B) (cos θ, 0, −sin θ)`, `θ = (1.2 f − 0.1) π`,
//!   the sun at A 90°, B 30°, the moon at A 0°, B 50°.
//!
//! - **Lights**: the main light travels along the body's travel in slot
//!   19 × the light float, which the flare boosts toward five times itself
//!   (`lerp(c, 5c, flare × slot 17's alpha)`); the counter light shines
//!   back the other way in slot 21's colour.
//! - **Nebula**: `sky.wea` role 0 drawn under the dome at `(x / R, y / R)`,
//!   each dome vertex's alpha the share of its colour over it.
//!
//! Ours (docs/facts.md "The sky"): a section's last keyframe lerps toward
//! its first one of the next day; the dome is scaled into the camera's far
//! plane and drawn opaque, the nebula mixed under its colours in the same
//! draw; without a body neither light shines; the sun's or moon's sprite
//! (its `sky.wea` material) stands in front of it where the light comes
//! from, and its lens flare is drawn in front of the eye, hidden (and its
//! boost with it) by the terrain between the eye and the body.

use crate::draw::{DrawItemSource, RenderPhase};
use crate::material::{FLAG_NEBULA, LegacyMaterial};
use bevy::prelude::*;
use iron3d_formats::proto::ske::{
    ClockTime, EVENT_START_BODY, EVENT_START_RAIN, EVENT_START_SNOW, EVENT_STOP_BODY,
    EVENT_STOP_RAIN, EVENT_STOP_SNOW, FOG_UNIT, Keyframe, SLOT_APEX, SLOT_CLOUDS, SLOT_COUNTER,
    SLOT_FLARE, SLOT_FOG_END, SLOT_FOG_START, SLOT_LIGHT, SLOT_SCENE, SLOTS_HORIZON, SLOTS_RING_2,
    SLOTS_RING_3, Sky, spell,
};

/// The dome's height and cap angle.
pub const DOME_HEIGHT: f32 = 10_000.0;
pub const DOME_ANGLE: f32 = std::f32::consts::FRAC_PI_4;
/// Rings below the apex, and segments round (2^`AtmSkyDetail`, default 4).
pub const DOME_RINGS: usize = 5;
pub const DOME_SEGMENTS: usize = 16;

/// A colour as the file keeps it, 0..1 per channel (RGBA, sRGB).
pub type Rgba = [f32; 4];

/// What the sky gives the frame at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct SkyFrame {
    /// Properties 0-3, 4-7 and 8-11: the horizon, rings 3 and 2.
    pub horizon: [Rgba; 4],
    pub ring_3: [Rgba; 4],
    pub ring_2: [Rgba; 4],
    /// Property 12: the apex and ring 1.
    pub apex: Rgba,
    /// Fog start and end, m.
    pub fog: (f32, f32),
    /// The main light's colour (slot 19 × the keyframe's light float)
    /// and the counter light's (slot 21).
    pub light: [f32; 3],
    pub counter: [f32; 3],
    /// The scene colour (slot 20): the floor of what is lit.
    pub scene: [f32; 3],
    /// The clouds' colour (slot 18).
    pub clouds: Rgba,
    /// Slot 17's alpha: how much of its fivefold boost the flare gives
    /// the main light.
    pub flare_boost: f32,
    /// The body up, if one is.
    pub body: Option<Body>,
    /// Rain and snow under way, and the keyframes' weather intensity.
    pub weather: Weather,
}

/// The weather of a moment: which spells are under way (events 3 to 6)
/// and how strong (the keyframes' fourth float, lerped).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Weather {
    pub rain: bool,
    pub snow: bool,
    pub intensity: f32,
}

/// The sun or the moon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    pub sun: bool,
    /// The way its light travels, map frame (Z up).
    pub travel: Vec3,
    /// Its sprite's extents across and up (the keyframes' first two
    /// floats): extent 1 spans `2 × 0.1625` rad.
    pub extents: [f32; 2],
}

/// Half the angle a body's sprite of extent 1 spans, rad.
pub const BODY_HALF_ANGLE: f32 = 0.1625;

/// The keyframes before and after `t` ms of a day of `day` ms, and how far
/// `t` is from the one to the other.
fn around<'a>(
    keys: &[(u64, &'a Keyframe)],
    day: u64,
    t: u64,
) -> Option<(&'a Keyframe, &'a Keyframe, f32)> {
    let next = keys.partition_point(|(at, _)| *at <= t);
    let (before_at, before) = match next {
        0 => {
            let (at, k) = keys.last()?;
            (*at as i64 - day as i64, *k)
        }
        i => (keys[i - 1].0 as i64, keys[i - 1].1),
    };
    let (after_at, after) = match keys.get(next) {
        Some((at, k)) => (*at as i64, *k),
        // STAND-IN: past a section's last keyframe, lerp toward its first
        // one a day later (docs/10 does not trace the engine's wrap);
        // settled by tracing the sky clock's wrap in `Terrain.dll`.
        None => {
            let (at, k) = keys.first()?;
            ((*at + day) as i64, *k)
        }
    };
    let span = (after_at - before_at).max(1) as f32;
    let f = ((t as i64 - before_at) as f32 / span).clamp(0.0, 1.0);
    Some((before, after, f))
}

fn lerp(a: f32, b: f32, f: f32) -> f32 {
    a + (b - a) * f
}

fn lerp_colour(a: &Keyframe, b: &Keyframe, slot: usize, f: f32) -> Rgba {
    let (x, y) = (a.colour(slot), b.colour(slot));
    std::array::from_fn(|i| lerp(f32::from(x[i]), f32::from(y[i]), f) / 255.0)
}

fn rgb([r, g, b, _]: Rgba) -> [f32; 3] {
    [r, g, b]
}

/// The body up at `t` ms of a section's day ([`spell`] of its start and
/// stop events).
fn body(keys: &[(u64, &Keyframe)], t: u64, extents: [f32; 2]) -> Option<Body> {
    let (f, key) = spell(keys, t, (EVENT_START_BODY, EVENT_STOP_BODY))?;
    let sun = key.names_sun();
    let (a, b) = if sun {
        (90f32.to_radians(), 30f32.to_radians())
    } else {
        (0.0, 50f32.to_radians())
    };
    let theta = (1.2 * f - 0.1) * std::f32::consts::PI;
    let (st, ct) = theta.sin_cos();
    let travel = Vec3::new(
        a.cos() * ct - a.sin() * b.sin() * st,
        a.sin() * ct + a.cos() * b.sin() * st,
        -b.cos() * st,
    );
    Some(Body {
        sun,
        travel,
        extents,
    })
}

/// The sky at `elapsed_ms` of game time (`start` replaces the file's
/// start time); `None` for a sky without a day or keyframes.
pub fn frame(sky: &Sky, start: Option<ClockTime>, elapsed_ms: u64) -> Option<SkyFrame> {
    let (s, t) = sky.position(start, elapsed_ms)?;
    let section = &sky.sections[s];
    let keys = section.timeline();
    let (a, b, f) = around(&keys, section.day_seconds() * 1000, t)?;
    let group = |slots: [usize; 4]| slots.map(|slot| lerp_colour(a, b, slot, f));
    let float = |slot| lerp(a.float_slot(slot), b.float_slot(slot), f) * FOG_UNIT;
    let strength = lerp(a.floats[2], b.floats[2], f);
    Some(SkyFrame {
        horizon: group(SLOTS_HORIZON),
        ring_3: group(SLOTS_RING_3),
        ring_2: group(SLOTS_RING_2),
        apex: lerp_colour(a, b, SLOT_APEX, f),
        fog: (float(SLOT_FOG_START), float(SLOT_FOG_END)),
        light: rgb(lerp_colour(a, b, SLOT_LIGHT, f)).map(|c| c * strength),
        counter: rgb(lerp_colour(a, b, SLOT_COUNTER, f)),
        scene: rgb(lerp_colour(a, b, SLOT_SCENE, f)),
        clouds: lerp_colour(a, b, SLOT_CLOUDS, f),
        flare_boost: lerp_colour(a, b, SLOT_FLARE, f)[3],
        body: body(&keys, t, [0, 1].map(|i| lerp(a.floats[i], b.floats[i], f))),
        weather: Weather {
            rain: spell(&keys, t, (EVENT_START_RAIN, EVENT_STOP_RAIN)).is_some(),
            snow: spell(&keys, t, (EVENT_START_SNOW, EVENT_STOP_SNOW)).is_some(),
            intensity: lerp(a.floats[3], b.floats[3], f),
        },
    })
}

/// A compass group's colour at `angle` rad from +y toward +x: property
/// `k` at `k × 90°`, lerped toward `k + 1`.
pub fn compass(group: &[Rgba; 4], angle: f32) -> Rgba {
    let quarter = angle.rem_euclid(std::f32::consts::TAU) / std::f32::consts::FRAC_PI_2;
    let k = (quarter.floor() as usize).min(3);
    let f = quarter - k as f32;
    std::array::from_fn(|i| lerp(group[k][i], group[(k + 1) % 4][i], f))
}

impl SkyFrame {
    /// The fog colour seen looking along `forward` (map frame): the
    /// horizon's compass colour at the view's heading, opaque.
    pub fn fog_colour(&self, forward: Vec3) -> Rgba {
        let [r, g, b, _] = compass(&self.horizon, forward.x.atan2(forward.y));
        [r, g, b, 1.0]
    }

    /// The body's two lights with the flare at `flare` (its strength,
    /// [`flare_strength`]): the main light along the body's travel, slot
    /// 19 × the light float boosted toward five times itself by `flare ×`
    /// slot 17's alpha, and the counter light (slot 21) shining back the
    /// other way. `None` without a body: then neither shines.
    pub fn body_lights(&self, flare: f32) -> Option<BodyLights> {
        let body = self.body?;
        let boost = 1.0 + 4.0 * flare * self.flare_boost;
        Some(BodyLights {
            travel: body.travel,
            main: self.light.map(|c| c * boost),
            counter: self.counter,
        })
    }
}

/// The lights a body gives: the main one travels along `travel` (map
/// frame), the counter light along `-travel`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyLights {
    pub travel: Vec3,
    pub main: [f32; 3],
    pub counter: [f32; 3],
}

/// The radius of the dome's sphere: 34142.1 for its height and angle.
pub fn dome_radius() -> f32 {
    DOME_HEIGHT / (2.0 * (DOME_ANGLE / 2.0).sin().powi(2))
}

/// The dome's radius at its rim (z 0): `R sin A`.
fn dome_rim() -> f32 {
    dome_radius() * DOME_ANGLE.sin()
}

/// The dome's points (map frame, Z up, round the origin), the apex first,
/// then ring by ring, segment by segment.
pub fn dome_points() -> Vec<Vec3> {
    cap_points(DOME_RINGS, DOME_SEGMENTS)
}

/// The dome's sphere cap cut into `rings` below the apex and `segments`
/// round: its points, the apex first, then ring by ring.
pub fn cap_points(rings: usize, segments: usize) -> Vec<Vec3> {
    let radius = dome_radius();
    let mut points = vec![Vec3::new(0.0, 0.0, DOME_HEIGHT)];
    for r in 1..=rings {
        let theta = r as f32 / rings as f32 * DOME_ANGLE;
        for j in 0..segments {
            let phi = j as f32 * std::f32::consts::TAU / segments as f32;
            points.push(Vec3::new(
                radius * theta.sin() * phi.sin(),
                radius * theta.sin() * phi.cos(),
                radius * theta.cos() + DOME_HEIGHT - radius,
            ));
        }
    }
    points
}

/// The dome's colours, in [`dome_points`] order, looking along `forward`.
pub fn dome_colours(frame: &SkyFrame, forward: Vec3) -> Vec<Rgba> {
    let mut colours = vec![frame.apex];
    let fog = frame.fog_colour(forward);
    for r in 1..=DOME_RINGS {
        for j in 0..DOME_SEGMENTS {
            let phi = j as f32 * std::f32::consts::TAU / DOME_SEGMENTS as f32;
            colours.push(match r {
                1 => frame.apex,
                2 => compass(&frame.ring_2, phi),
                3 => compass(&frame.ring_3, phi),
                4 => compass(&frame.horizon, phi),
                _ => fog,
            });
        }
    }
    colours
}

/// The dome's triangles over [`dome_points`], wound to face its centre.
pub fn dome_triangles() -> Vec<u32> {
    cap_triangles(DOME_RINGS, DOME_SEGMENTS)
}

/// The triangles over [`cap_points`] of as many rings and segments,
/// wound to face the sphere's centre.
pub fn cap_triangles(rings: usize, segments: usize) -> Vec<u32> {
    let n = segments as u32;
    let at = |ring: u32, j: u32| 1 + (ring - 1) * n + j % n;
    let mut out = Vec::new();
    for j in 0..n {
        out.extend([0, at(1, j + 1), at(1, j)]);
    }
    for ring in 1..rings as u32 {
        for j in 0..n {
            let (a, b) = (at(ring, j), at(ring, j + 1));
            let (c, d) = (at(ring + 1, j), at(ring + 1, j + 1));
            out.extend([a, b, d, a, d, c]);
        }
    }
    out
}

/// The time of day the sky starts at instead of its file's (`--sky-time`):
/// presentation only, the simulation never reads the sky.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SkyStart(pub Option<ClockTime>);

/// The dome's entity.
#[derive(Component, Debug)]
#[require(Name::new("Sky dome"))]
pub struct SkyDome;

/// The sun's or moon's sprite.
#[derive(Component, Debug)]
#[require(Name::new("Sky body (sun or moon)"))]
pub struct SkyBody;

/// The sky of this frame, for what draws after the dome.
#[derive(Resource, Debug, Clone, Default)]
pub struct SkyNow(pub Option<SkyFrame>);

/// The share of the way to the dome the bodies stand at: near enough that
/// a body's flat sprite, up to 0.33 rad from its middle, stays in front
/// of the curved dome.
// STAND-IN: 0.5, the bodies' place (the original draws them in its own
// sky pass, which docs/10 does not place); settled by reading where the
// sun object puts its sprite (openparkan docs/10 "The dome").
const BODY_REACH: f32 = 0.5;

/// The scale that puts the dome's rim at [`DOME_REACH`] of the camera's
/// far plane.
pub(crate) fn dome_scale(projection: &Projection) -> f32 {
    let far = match projection {
        Projection::Perspective(p) => p.far,
        _ => 1000.0,
    };
    DOME_REACH * far / dome_rim()
}

/// How far the dome of `scale` is from its centre along `direction` (map
/// frame, unit, at or above the horizon): where the ray meets its sphere.
pub fn dome_distance(direction: Vec3, scale: f32) -> f32 {
    let radius = dome_radius();
    let centre = Vec3::new(0.0, 0.0, DOME_HEIGHT - radius) * scale;
    let along = direction.normalize_or_zero().dot(centre);
    along
        + (along * along - centre.length_squared() + (radius * scale).powi(2))
            .max(0.0)
            .sqrt()
}

/// Whether the atmosphere is drawn: the sky (dome, sun, moon, flare), the
/// fog and the shadows (on; the benchmark switches it off to compare).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Atmosphere {
    pub on: bool,
}

impl Default for Atmosphere {
    fn default() -> Self {
        Self { on: true }
    }
}

/// The scene's main light, which the sky turns and colours.
#[derive(Component, Debug)]
#[require(Name::new("Scene light"))]
pub struct SceneLight;

/// The counter light: the second directional light, shining back along
/// the main one's travel in slot 21's colour (dark without a sky).
#[derive(Component, Debug)]
#[require(Name::new("Counter light"))]
pub struct CounterLight;

/// A sun from the south-east, high, without shadows until the shadow plan
/// turns them on, a dark counter light and a soft ambient term.
pub fn spawn_light(commands: &mut Commands) {
    // The legacy shader reads the light's colour × illuminance and the
    // ambient colour × brightness as they are: a white sun and a 0.45
    // floor until a mission's sky sets them.
    // STAND-IN: without a sky, a white sun and a 0.45 ambient floor (the
    // spec gives no light values); settled by a retail mission's lighting
    // without a `sky.ske`, or the engine's defaults in `Terrain.dll`.
    commands.insert_resource(GlobalAmbientLight {
        color: Color::linear_rgb(0.45, 0.45, 0.45),
        brightness: 1.0,
        affects_lightmapped_meshes: true,
    });
    commands.spawn((
        SceneLight,
        DirectionalLight {
            illuminance: 1.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(200.0, 400.0, 150.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    // Dark until a mission's sky gives it slot 21's colour.
    commands.spawn((
        CounterLight,
        DirectionalLight {
            color: Color::BLACK,
            illuminance: 1.0,
            shadow_maps_enabled: false,
            ..default()
        },
        Transform::from_xyz(-200.0, -400.0, -150.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// The share of the camera's far plane the dome's rim stands at.
// STAND-IN: 0.9, so that one camera draws the dome (the original draws it
// in its own pass, near 700, far 50000); settled by giving the dome its
// own pass with the original's planes and comparing retail frames.
const DOME_REACH: f32 = 0.9;

/// The sky's drawing in `Phase::PublishRenderSnapshot`, in order: the
/// dome and nebula, the clouds (the clouds module), the sun, moon and
/// flare, the weather (the weather module).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SkyDraw {
    Dome,
    Clouds,
    Bodies,
    Weather,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SkyStart>()
        .init_resource::<SkyNow>()
        .init_resource::<FlareNow>()
        .init_resource::<Atmosphere>();
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        app.configure_sets(
            PostUpdate,
            (
                SkyDraw::Dome,
                SkyDraw::Clouds,
                SkyDraw::Bodies,
                SkyDraw::Weather,
            )
                .chain()
                .in_set(iron3d_schedules::Phase::PublishRenderSnapshot),
        )
        .add_systems(
            PostUpdate,
            (
                (update_sky, show_nebula).chain().in_set(SkyDraw::Dome),
                (draw_body, draw_flare).chain().in_set(SkyDraw::Bodies),
            ),
        );
    }
}

/// A map-frame (Z up) vector in Bevy's frame (Y up).
pub(crate) fn to_bevy(v: Vec3) -> Vec3 {
    Vec3::from(iron3d_assets::terrain::y_up(v.to_array()))
}

/// A Bevy-frame (Y up) vector in the map frame (Z up): [`to_bevy`] undone.
pub(crate) fn to_map(v: Vec3) -> Vec3 {
    Vec3::new(v.x, -v.z, v.y)
}

pub(crate) fn srgb([r, g, b, a]: Rgba) -> Color {
    Color::srgba(r, g, b, a)
}

/// The dome mesh: its points scaled by `scale`, white until coloured,
/// with the nebula's UVs ([`nebula_uv`]).
fn dome_mesh(scale: f32) -> Mesh {
    let uvs: Vec<[f32; 2]> = dome_points().into_iter().map(nebula_uv).collect();
    let points: Vec<[f32; 3]> = dome_points()
        .into_iter()
        .map(|p| to_bevy(p * scale).to_array())
        .collect();
    let normals: Vec<[f32; 3]> = points
        .iter()
        .map(|p| (-Vec3::from(*p)).normalize_or_zero().to_array())
        .collect();
    let white = vec![[1.0f32; 4]; points.len()];
    Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, points)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, white)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(bevy::mesh::Indices::U32(dome_triangles()))
}

/// The nebula's texture coordinates at dome point `p` (map frame): the
/// point seen straight down, in the dome's radii (`u = x / R`, `v = y /
/// R`; 0.707 at the rim).
pub fn nebula_uv(p: Vec3) -> [f32; 2] {
    [p.x / dome_radius(), p.y / dome_radius()]
}

/// The dome's fixed-function state: opaque, vertex-coloured, both sides,
/// textured when the nebula shows through it.
fn dome_state(textured: bool) -> crate::legacy::LegacyRenderState {
    crate::legacy::MaterialInputs {
        two_sided: true,
        ..crate::legacy::MaterialInputs::terrain_layer(false, textured)
    }
    .state()
}

/// The dome's material: unlit vertex colours (the nebula added by
/// [`show_nebula`]).
fn dome_material() -> LegacyMaterial {
    let mut material = LegacyMaterial::new(dome_state(false), None, None, 1.0).unlit();
    material.uniform.colour = Vec4::ONE;
    material
}

/// The `sky.wea` role of the nebula.
const NEBULA_ROLE: u32 = 0;

/// Where the nebula's material comes from: its key and entry.
type NebulaSource = Option<(String, Handle<iron3d_assets::material::EntryMaterial>)>;

/// The nebula (`sky.wea` role 0) behind the dome: once its material's
/// texture loads, the dome draws it at [`nebula_uv`] under its colours,
/// each vertex's alpha the share of its colour (openparkan
/// `docs/10-sky.md`, "The dome's alpha shows the nebula through": the
/// nebula is drawn first and the coloured dome blended over it).
fn show_nebula(
    sky: Option<Res<iron3d_world::mission::MissionSky>>,
    server: Res<AssetServer>,
    entries: Res<Assets<iron3d_assets::material::EntryMaterial>>,
    mut legacy: ResMut<Assets<LegacyMaterial>>,
    mut dome: Query<(&MeshMaterial3d<LegacyMaterial>, &mut DrawItemSource), With<SkyDome>>,
    mut source: Local<NebulaSource>,
) {
    let Some(name) = sky.as_ref().and_then(|s| s.materials.get(&NEBULA_ROLE)) else {
        return;
    };
    let Ok((material, mut item)) = dome.single_mut() else {
        return;
    };
    if legacy
        .get(&material.0)
        .is_none_or(|m| m.uniform.flags & FLAG_NEBULA != 0)
    {
        return;
    }
    if source.as_ref().is_none_or(|(key, _)| key != name) {
        let path = crate::material::entry_path(name).unwrap_or_default();
        *source = Some((name.clone(), server.load(path)));
    }
    let Some(entry) = source.as_ref().and_then(|(_, h)| entries.get(h)) else {
        return;
    };
    let Some(texture) = entry.row.textures.first().cloned().flatten() else {
        return;
    };
    let mut nebula = LegacyMaterial::new(dome_state(true), Some(texture), None, 1.0).unlit();
    nebula.uniform.flags |= FLAG_NEBULA;
    *item = DrawItemSource {
        render_phase: RenderPhase::Atmosphere,
        insertion: DOME_ITEM,
        ..crate::animate::draw_item(&nebula, 0, &server)
    };
    if let Some(mut made) = legacy.get_mut(&material.0) {
        *made = nebula;
    }
}

/// What the sky moves and colours of its dome.
type DomeItem = (
    &'static mut Transform,
    &'static Mesh3d,
    &'static mut Visibility,
);

/// A directional light the sky colours and turns.
type AimedLight = (&'static mut DirectionalLight, &'static mut Transform);

/// The scene's two directional lights, the ambient colour and the flare's
/// strength, which the sky sets each frame.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct SkyLights<'w, 's> {
    main: Query<'w, 's, AimedLight, (With<SceneLight>, Without<CounterLight>)>,
    counter: Query<'w, 's, AimedLight, (With<CounterLight>, Without<SceneLight>)>,
    ambient: ResMut<'w, GlobalAmbientLight>,
    flare: ResMut<'w, FlareNow>,
    settings: Option<Res<'w, crate::shade::ShadeSettings>>,
    scene: Option<Res<'w, crate::terrain::SceneTerrain>>,
    terrains: Res<'w, Assets<iron3d_assets::terrain::Terrain>>,
}

impl SkyLights<'_, '_> {
    /// The flare's strength for `frame` seen from `eye`: 0 with
    /// `LensFlareOn=0` or the atmosphere off, without a body, or with the
    /// terrain between the eye and the body ([`flare_occluded`], only
    /// looked for when the body would flare: the eye faces it).
    fn flare(&self, frame: &SkyFrame, eye: &GlobalTransform, atmosphere: bool) -> f32 {
        let on = atmosphere && self.settings.as_ref().is_none_or(|s| s.on("LensFlareOn"));
        let Some(body) = frame.body.filter(|_| on) else {
            return 0.0;
        };
        let strength = flare_strength(to_map(eye.forward().as_vec3()), body.travel);
        if strength == 0.0 {
            return 0.0;
        }
        let surface = self
            .scene
            .as_ref()
            .and_then(|s| self.terrains.get(&s.handle))
            .map(|t| &t.surface);
        if surface.is_some_and(|s| flare_occluded(s, to_map(eye.translation()), -body.travel)) {
            return 0.0;
        }
        strength
    }

    /// Sets the main and counter lights, the scene colour and the flare
    /// from `frame` seen from `eye`.
    fn set(&mut self, frame: &SkyFrame, eye: &GlobalTransform, atmosphere: bool) {
        self.flare.0 = self.flare(frame, eye, atmosphere);
        let lights = frame.body_lights(self.flare.0);
        // Without a body both go dark where they last pointed.
        let aim =
            |light: &mut DirectionalLight, at: &mut Transform, [r, g, b]: [f32; 3], travel| {
                light.color = Color::srgb(r, g, b);
                light.illuminance = 1.0;
                if lights.is_some() {
                    let travel = to_bevy(travel);
                    let up = if travel.y.abs() > 0.99 {
                        Vec3::X
                    } else {
                        Vec3::Y
                    };
                    *at = Transform::default().looking_to(travel, up);
                }
            };
        // STAND-IN: without a body up neither light shines (docs/10 does
        // not say); settled by reading what the sun object sets with no
        // body in `Terrain.dll`, or a retail night frame's lighting.
        let BodyLights {
            travel,
            main,
            counter,
        } = lights.unwrap_or(BodyLights {
            travel: Vec3::X,
            main: [0.0; 3],
            counter: [0.0; 3],
        });
        if let Ok((mut light, mut at)) = self.main.single_mut() {
            aim(&mut light, &mut at, main, travel);
        }
        if let Ok((mut light, mut at)) = self.counter.single_mut() {
            aim(&mut light, &mut at, counter, -travel);
        }
        let [r, g, b] = frame.scene;
        self.ambient.color = Color::srgb(r, g, b);
        self.ambient.brightness = 1.0;
    }
}

/// The flare's strength this frame (0 when it does not show).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct FlareNow(pub f32);

/// Sets the frame from the sky at the game time: the dome round the
/// camera, the clear colour and fog, the main and counter lights and the
/// scene colour.
#[allow(clippy::too_many_arguments)]
fn update_sky(
    mut commands: Commands,
    sky: Option<Res<iron3d_world::mission::MissionSky>>,
    start: Res<SkyStart>,
    clock: Res<iron3d_schedules::GameClock>,
    camera: Query<(Entity, &GlobalTransform, &Projection), With<crate::camera::MissionCamera>>,
    mut lights: SkyLights,
    mut dome: Query<DomeItem, (With<SkyDome>, Without<DirectionalLight>)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<LegacyMaterial>>,
    mut clear: ResMut<ClearColor>,
    mut now: ResMut<SkyNow>,
    atmosphere: Res<Atmosphere>,
) {
    now.0 = None;
    let Some(sky) = sky else { return };
    let Ok((eye_entity, eye, projection)) = camera.single() else {
        return;
    };
    let elapsed = clock.elapsed().as_millis() as u64;
    let Some(frame) = frame(&sky.sky, start.0, elapsed) else {
        return;
    };
    lights.set(&frame, eye, atmosphere.on);
    // Without the atmosphere the lights stay; the dome, fog and what
    // draws after the dome (clouds, bodies, flare: `now` stays empty) go.
    if !atmosphere.on {
        commands.entity(eye_entity).remove::<DistanceFog>();
        for (_, _, mut shown) in &mut dome {
            shown.set_if_neq(Visibility::Hidden);
        }
        return;
    }
    now.0 = Some(frame.clone());
    let map_forward = to_map(eye.forward().as_vec3());
    let fog = frame.fog_colour(map_forward);
    clear.0 = srgb(fog);
    commands.entity(eye_entity).insert(DistanceFog {
        color: srgb(fog),
        falloff: FogFalloff::Linear {
            start: frame.fog.0,
            end: frame.fog.1.max(frame.fog.0 + 1.0),
        },
        ..default()
    });
    let colours: Vec<[f32; 4]> = dome_colours(&frame, map_forward)
        .into_iter()
        .map(|c| srgb(c).to_linear().to_f32_array())
        .collect();
    match dome.single_mut() {
        Ok((mut at, mesh, mut shown)) => {
            shown.set_if_neq(Visibility::Visible);
            at.translation = eye.translation();
            if let Some(mut mesh) = meshes.get_mut(&mesh.0) {
                mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colours);
            }
        }
        Err(_) => {
            let mesh = dome_mesh(dome_scale(projection))
                .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours);
            commands.spawn((
                SkyDome,
                Mesh3d(meshes.add(mesh)),
                MeshMaterial3d(materials.add(dome_material())),
                Transform::from_translation(eye.translation()),
                bevy::light::NotShadowCaster,
                dome_item(),
            ));
        }
    }
}

/// What the sky's sprites draw with: the sky of this frame, its `sky.wea`
/// materials (loaded once by role), the camera and a quad.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct SkySprites<'w, 's> {
    pub(crate) commands: Commands<'w, 's>,
    pub(crate) now: Res<'w, SkyNow>,
    sky: Option<Res<'w, iron3d_world::mission::MissionSky>>,
    server: Res<'w, AssetServer>,
    entries: Res<'w, Assets<iron3d_assets::material::EntryMaterial>>,
    pub(crate) meshes: ResMut<'w, Assets<Mesh>>,
    legacy: ResMut<'w, Assets<LegacyMaterial>>,
    pub(crate) camera: Query<
        'w,
        's,
        (&'static GlobalTransform, &'static Projection),
        With<crate::camera::MissionCamera>,
    >,
    loaded: Local<'s, SpriteSources>,
}

/// The sprites' material entries by role, and their quad.
#[derive(Default)]
struct SpriteSources {
    entries: std::collections::BTreeMap<u32, Handle<iron3d_assets::material::EntryMaterial>>,
    quad: Option<Handle<Mesh>>,
}

/// A sprite: where it stands and its material.
type SpriteItem = (
    &'static mut Transform,
    &'static mut MeshMaterial3d<LegacyMaterial>,
    &'static mut Visibility,
    &'static mut DrawItemSource,
);

/// Draw-item insertion ids of the atmosphere phase: the dome, the clouds,
/// then the bodies' sprites, then the flare's.
const DOME_ITEM: u64 = 0;
pub(crate) const CLOUD_ITEM: u64 = 1;
const BODY_ITEMS: u64 = 2;
const FLARE_ITEMS: u64 = 16;

/// The dome's draw item before the nebula shows: untextured,
/// vertex-coloured, unlit.
fn dome_item() -> DrawItemSource {
    DrawItemSource {
        object: None,
        node: None,
        slot: None,
        batch: None,
        material_phase: 0,
        texture: None,
        lightmap: None,
        render_phase: RenderPhase::Atmosphere,
        pipeline_key: dome_state(false).pipeline_key(),
        insertion: DOME_ITEM,
    }
}

impl SkySprites<'_, '_> {
    /// The unlit material `made` keeps under `key`, made (tinted by
    /// `tint`) from the entry of `sky.wea` role `role` once it is loaded;
    /// `None` before, or without such a role.
    pub(crate) fn material<K: Ord>(
        &mut self,
        made: &mut std::collections::BTreeMap<K, Handle<LegacyMaterial>>,
        (role, key): (u32, K),
        tint: impl FnOnce(&mut LegacyMaterial),
    ) -> Option<Handle<LegacyMaterial>> {
        let name = self.sky.as_ref()?.materials.get(&role)?;
        let server = &self.server;
        let source =
            self.loaded.entries.entry(role).or_insert_with(|| {
                server.load(crate::material::entry_path(name).unwrap_or_default())
            });
        let entry = self.entries.get(&*source)?;
        let legacy = &mut self.legacy;
        Some(
            made.entry(key)
                .or_insert_with(|| {
                    let mut m = LegacyMaterial::of_entry(&entry.row, 0, 1.0).unlit();
                    tint(&mut m);
                    legacy.add(m)
                })
                .clone(),
        )
    }

    /// The atmosphere-phase draw item of a sprite drawn with `material`.
    pub(crate) fn item(&self, material: &Handle<LegacyMaterial>, insertion: u64) -> DrawItemSource {
        let base = match self.legacy.get(material) {
            Some(m) => crate::animate::draw_item(m, 0, &self.server),
            None => dome_item(),
        };
        DrawItemSource {
            render_phase: RenderPhase::Atmosphere,
            insertion,
            ..base
        }
    }

    /// Shows `placed` in the sprites `pool` holds, spawning (with
    /// `marker`, their items numbered from `first`) those it lacks, and
    /// hides the rest.
    fn show<M: Component>(
        &mut self,
        placed: &[(Transform, Handle<LegacyMaterial>)],
        pool: &mut Vec<Entity>,
        sprites: &mut Query<SpriteItem, With<M>>,
        (marker, first): (impl Fn(usize) -> M, u64),
    ) {
        let meshes = &mut self.meshes;
        let quad = self
            .loaded
            .quad
            .get_or_insert_with(|| meshes.add(Rectangle::new(1.0, 1.0)))
            .clone();
        for (i, (at, material)) in placed.iter().enumerate() {
            match pool.get(i).and_then(|&e| sprites.get_mut(e).ok()) {
                Some((mut place, mut drawn, mut visibility, mut source)) => {
                    *place = *at;
                    if drawn.0 != *material {
                        drawn.0 = material.clone();
                        *source = self.item(material, first + i as u64);
                    }
                    visibility.set_if_neq(Visibility::Visible);
                }
                None if i >= pool.len() => {
                    let source = self.item(material, first + i as u64);
                    let entity = self
                        .commands
                        .spawn((
                            marker(i),
                            Mesh3d(quad.clone()),
                            MeshMaterial3d(material.clone()),
                            *at,
                            Visibility::Visible,
                            bevy::light::NotShadowCaster,
                            source,
                        ))
                        .id();
                    pool.push(entity);
                }
                // Spawned this frame: placed on the next.
                None => {}
            }
        }
        for &entity in pool.iter().skip(placed.len()) {
            if let Ok((_, _, mut visibility, _)) = sprites.get_mut(entity) {
                visibility.set_if_neq(Visibility::Hidden);
            }
        }
    }
}

/// The sun's or moon's sprite (its `sky.wea` material, role 3 or 4) where
/// its light comes from, facing the camera, `2 × 0.1625` rad by its
/// extents, unlit and unfogged; the terrain in front of it hides it.
fn draw_body(
    mut sky: SkySprites,
    mut sprite: Query<SpriteItem, With<SkyBody>>,
    mut made: Local<std::collections::BTreeMap<u32, Handle<LegacyMaterial>>>,
    mut pool: Local<Vec<Entity>>,
) {
    let shown = (|| {
        let body = sky.now.0.as_ref()?.body?;
        let role = if body.sun {
            iron3d_world::mission::SKY_SUN
        } else {
            iron3d_world::mission::SKY_MOON
        };
        let material = sky.material(&mut *made, (role, role), |_| {})?;
        let (eye, projection) = sky.camera.single().ok()?;
        let reach = BODY_REACH * dome_distance(-body.travel, dome_scale(projection));
        let [across, up] = body
            .extents
            .map(|e| 2.0 * reach * (e * BODY_HALF_ANGLE).tan());
        let at = Transform::from_translation(eye.translation() - to_bevy(body.travel) * reach)
            .with_rotation(eye.compute_transform().rotation)
            .with_scale(Vec3::new(across, up, 1.0));
        Some((at, material))
    })();
    let placed = Vec::from_iter(shown);
    sky.show(&placed, &mut pool, &mut sprite, (|_| SkyBody, BODY_ITEMS));
}

/// The lens flare's twelve sprites (openparkan `docs/10-sky.md`, "The
/// lens flare"): where each stands on the line from the body's screen
/// point (1) through the screen's centre (0), its size (× a quarter of
/// half the viewport's width), its ARGB colour and its texture (0: `sky.wea`
/// role 5, 1: role 6).
pub const FLARE: [(f32, f32, u32, usize); 12] = [
    (1.2, 0.2, 0xFFB0_90A3, 0),
    (0.7, 0.3, 0xFF5A_58BB, 0),
    (0.5, 0.2, 0x9630_BE52, 1),
    (0.2, 0.1, 0x96C9_3432, 1),
    (0.0, 0.1, 0xFF30_BE52, 0),
    (-0.2, 0.3, 0x9696_9664, 1),
    (-0.3, 0.3, 0xFFB0_90A3, 0),
    (-0.5, 0.7, 0xFF7C_6BC9, 0),
    (-0.6, 0.4, 0x9630_6452, 1),
    (-0.8, 1.0, 0xFF0B_17B9, 0),
    (-1.0, 0.3, 0xFFB6_26B1, 0),
    (-1.1, 0.2, 0xFF7C_C5C9, 0),
];

/// How strong the flare of a body whose light travels along `travel` is
/// when the camera looks along `forward` (both map frame): 0 beyond 15°
/// off the view's axis, `(1 − angle ÷ 15°)²` within, times the body's
/// height (`−travel.z`) ramped from 0.5 to 0.866; 0 when that is under
/// 0.1 before the height.
pub fn flare_strength(forward: Vec3, travel: Vec3) -> f32 {
    let angle = forward.angle_between(-travel).to_degrees();
    let aim = (1.0 - angle / 15.0).max(0.0).powi(2);
    if aim < 0.1 {
        return 0.0;
    }
    aim * ((-travel.z - 0.5) / (0.866 - 0.5)).clamp(0.0, 1.0)
}

/// One flare sprite.
#[derive(Component, Debug)]
#[require(Name::new("Lens flare sprite"))]
pub struct SkyFlare(pub usize);

/// Steps the flare's strength is drawn in (one material each).
// STAND-IN: 16 steps, a material per step instead of a per-sprite alpha
// (docs/10 gives a continuous alpha); settled by a retail frame of a
// fading flare showing no banding at 16 steps.
const FLARE_STEPS: f32 = 16.0;

/// Where the flare sprites stand in front of the eye, m.
// STAND-IN: 1 m, any depth in front of the scene (the original draws the
// flare in screen space, docs/10 "The lens flare"); settled by reading
// the flare's draw call (its z) in `Terrain.dll`.
const FLARE_DEPTH: f32 = 1.0;

/// How far the flare's occlusion test looks toward the body.
// STAND-IN: 5000, the occlusion ray's length (tome V names the test, no
// source describes it); settled by tracing the flare's visibility test
// in `Terrain.dll` (openparkan docs/10).
const FLARE_OCCLUSION_REACH: f32 = 5000.0;

/// The flare's occlusion test (tome V names one; no source describes
/// it: a stand-in, docs/facts.md "Stand-ins"): whether the terrain
/// stands between the eye and the body, the ray from `eye` along `toward`
/// (map frame) meeting a face within [`FLARE_OCCLUSION_REACH`].
pub fn flare_occluded(
    surface: &iron3d_formats::terrain::surface::TerrainSurface,
    eye: Vec3,
    toward: Vec3,
) -> bool {
    surface
        .raycast(
            eye.to_array(),
            toward.normalize_or_zero().to_array(),
            FLARE_OCCLUSION_REACH,
            iron3d_formats::terrain::surface::FaceFilter::ANY,
        )
        .is_some()
}

/// The lens flare of the body up: [`FLARE`]'s sprites at [`FLARE_DEPTH`]
/// in front of the eye along the line from the body's screen point
/// through the centre, their alpha times the flare's strength this frame
/// ([`FlareNow`], which the occlusion test and `LensFlareOn` hold at 0).
fn draw_flare(
    mut sky: SkySprites,
    flare: Res<FlareNow>,
    mut sprites: Query<SpriteItem, With<SkyFlare>>,
    mut made: Local<std::collections::BTreeMap<(usize, u8), Handle<LegacyMaterial>>>,
    mut pool: Local<Vec<Entity>>,
) {
    let placed = (|| {
        let body = sky.now.0.as_ref()?.body?;
        let (eye, Projection::Perspective(lens)) = sky.camera.single().ok()? else {
            return None;
        };
        let (eye, lens) = (eye.compute_transform(), lens.clone());
        let turn = eye.rotation;
        let step = (flare.0 * FLARE_STEPS).round();
        if step < 1.0 {
            return None;
        }
        // The body's point in the view, as a share of the half-extents.
        let seen = turn.inverse() * -to_bevy(body.travel);
        let half_y = (lens.fov / 2.0).tan();
        let half_x = half_y * lens.aspect_ratio;
        let sun = Vec2::new(seen.x / (-seen.z * half_x), seen.y / (-seen.z * half_y));
        let mut out = Vec::with_capacity(FLARE.len());
        for (i, &(along, size, argb, texture)) in FLARE.iter().enumerate() {
            let role = iron3d_world::mission::SKY_FLARE[texture];
            let material = sky.material(&mut *made, (role, (i, step as u8)), |m| {
                let [a, r, g, b] = argb.to_be_bytes();
                let colour = Color::srgb_u8(r, g, b).to_linear();
                let alpha = f32::from(a) / 255.0 * step / FLARE_STEPS;
                m.uniform.colour = Vec4::new(colour.red, colour.green, colour.blue, alpha);
            })?;
            let point = sun * along;
            let local = Vec3::new(point.x * half_x, point.y * half_y, -1.0) * FLARE_DEPTH;
            let width = 2.0 * 0.25 * size * half_x * FLARE_DEPTH;
            let at = Transform::from_translation(eye.translation + turn * local)
                .with_rotation(turn)
                .with_scale(Vec3::new(width, width, 1.0));
            out.push((at, material));
        }
        Some(out)
    })();
    sky.show(
        &placed.unwrap_or_default(),
        &mut pool,
        &mut sprites,
        (SkyFlare, FLARE_ITEMS),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::proto::ske::{Keyframe, SLOTS, Section};

    /// A keyframe at `hour:00` whose every colour slot is `grey` and whose
    /// light strength is 1, with a body event.
    fn key(hour: u32, grey: u8, event: i32, name: &str) -> Keyframe {
        let mut slots = vec![[grey, grey, grey, 255]; SLOTS];
        slots[SLOT_FOG_START] = 0f32.to_le_bytes();
        slots[SLOT_FOG_END] = (f32::from(grey) / 100.0).to_le_bytes();
        Keyframe::new(
            ClockTime::new(0, hour, 0),
            (event, name.as_bytes()),
            slots,
            [2.2, 2.0, 1.0, 0.0],
        )
    }

    /// A 2400 s day (40 minutes) starting at 06:00: the sun from 06:00 to
    /// 18:00, grey 0 at 06:00, 100 at 12:00, 50 at 18:00.
    fn sky() -> Sky {
        Sky {
            version: 5,
            sections: vec![Section {
                version: 1,
                end_of_day: ClockTime::new(0, 23, 59),
                day_length: ClockTime::new(0, 0, 40),
                keyframes: vec![
                    key(18, 50, EVENT_STOP_BODY, "sun"),
                    key(6, 0, EVENT_START_BODY, "sun"),
                    key(12, 100, 2, ""),
                ],
            }],
            start: ClockTime::new(0, 6, 0),
            unread: 0,
            flag: 0,
        }
    }

    #[test]
    fn keyframes_lerp_in_time_order_and_wrap_to_the_next_day() {
        let sky = sky();
        let grey = |ms| frame(&sky, None, ms).unwrap().apex[0] * 255.0;
        assert!((grey(0) - 0.0).abs() < 1e-3);
        // 09:00 is halfway from 06:00 (0) to 12:00 (100).
        assert!((grey(300_000) - 50.0).abs() < 1e-3);
        assert!((grey(600_000) - 100.0).abs() < 1e-3);
        // 00:00 is halfway from 18:00 (50) to the next 06:00 (0).
        let midnight = ClockTime::new(0, 0, 0);
        let f = frame(&sky, Some(midnight), 0).unwrap();
        assert!((f.apex[0] * 255.0 - 25.0).abs() < 1e-3);
        // Fog: slot 6 × 700 m.
        assert!((f.fog.1 - 0.25 * 700.0).abs() < 1e-2);
        // The light is slot 19 × the strength; no body at midnight.
        assert!(f.body.is_none());
    }

    #[test]
    fn the_sun_crosses_the_sky_on_its_arc() {
        let sky = sky();
        let travel = |hour| {
            frame(&sky, Some(ClockTime::new(0, hour, 0)), 0)
                .unwrap()
                .body
                .unwrap()
                .travel
        };
        let close = |a: Vec3, b: Vec3| (a - b).length() < 1e-3;
        // θ = (1.2 f − 0.1) π, A 90°, B 30°: at f 1/12 (07:00) the light
        // travels level along +y, at noon it falls at cos 30° from the
        // vertical, at f 11/12 (17:00) it travels level along −y.
        assert!(close(travel(7), Vec3::Y), "{}", travel(7));
        let (s, c) = 30f32.to_radians().sin_cos();
        assert!(close(travel(12), Vec3::new(-s, 0.0, -c)), "{}", travel(12));
        assert!(close(travel(17), Vec3::NEG_Y), "{}", travel(17));
        assert!(
            frame(&sky, Some(ClockTime::new(0, 19, 0)), 0)
                .unwrap()
                .body
                .is_none()
        );
    }

    #[test]
    fn the_body_gives_the_main_light_boosted_by_the_flare_and_the_counter_light() {
        let sky = sky();
        let mut noon = frame(&sky, Some(ClockTime::new(0, 12, 0)), 0).unwrap();
        let plain = noon.body_lights(0.0).unwrap();
        assert_eq!(plain.main, noon.light);
        assert_eq!(plain.counter, noon.counter);
        assert_eq!(plain.travel, noon.body.unwrap().travel);
        // Slot 17's alpha is 255 here: the flare at full strength makes the
        // main light five times itself, at half three times; the counter
        // light keeps its colour.
        assert_eq!(noon.flare_boost, 1.0);
        let full = noon.body_lights(1.0).unwrap();
        assert_eq!(full.main, noon.light.map(|c| c * 5.0));
        assert_eq!(full.counter, noon.counter);
        assert_eq!(
            noon.body_lights(0.5).unwrap().main,
            noon.light.map(|c| c * 3.0)
        );
        // A slot 17 of alpha 0 gives no boost.
        noon.flare_boost = 0.0;
        assert_eq!(noon.body_lights(1.0).unwrap().main, noon.light);
        // Without a body neither light shines.
        let night = frame(&sky, Some(ClockTime::new(0, 19, 0)), 0).unwrap();
        assert_eq!(night.body_lights(1.0), None);
    }

    #[test]
    fn rain_falls_from_its_start_to_its_stop_as_strong_as_the_keyframes_say() {
        let mut sky = sky();
        let weather = |hour: u32, intensity: f32, event: i32| {
            let mut k = key(hour, 80, event, "");
            k.floats[3] = intensity;
            k
        };
        sky.sections[0].keyframes.extend([
            weather(8, 0.2, EVENT_START_RAIN),
            weather(9, 1.0, 2),
            weather(10, 0.0, EVENT_STOP_RAIN),
        ]);
        let at = |hour, minute| {
            frame(&sky, Some(ClockTime::new(0, hour, minute)), 0)
                .unwrap()
                .weather
        };
        let half_past_eight = at(8, 30);
        assert!(half_past_eight.rain && !half_past_eight.snow);
        assert!((half_past_eight.intensity - 0.6).abs() < 1e-6);
        assert!(at(9, 59).rain);
        assert_eq!(at(10, 30), Weather::default());
        assert!(!at(7, 0).rain);
    }

    #[test]
    fn the_flare_is_hidden_behind_the_terrain() {
        use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield};
        // A ridge 100 high along y = 50, flat ground elsewhere.
        let heights = (0..25)
            .map(|i| if i / 5 == 2 { 100.0 } else { 0.0 })
            .collect();
        let land = land_from_heightfield(&Heightfield {
            cols: 5,
            rows: 5,
            origin: [0.0, 0.0],
            spacing: 25.0,
            heights,
            block: 4,
        })
        .unwrap();
        let surface = iron3d_formats::terrain::surface::TerrainSurface::build_lod0(&land);
        let eye = Vec3::new(50.0, 5.0, 10.0);
        // Low toward +y: the ridge is in the way; high, or away: clear.
        assert!(flare_occluded(&surface, eye, Vec3::new(0.0, 1.0, 0.2)));
        assert!(!flare_occluded(&surface, eye, Vec3::new(0.0, 1.0, 3.0)));
        assert!(!flare_occluded(&surface, eye, Vec3::new(0.0, -1.0, 0.2)));
    }

    #[test]
    fn the_flare_wants_the_body_near_the_views_axis_and_high() {
        // The sun at its noon height (cos 30°), looked straight at: full.
        let (s, c) = 30f32.to_radians().sin_cos();
        let travel = Vec3::new(-s, 0.0, -c);
        assert!((flare_strength(-travel, travel) - 1.0).abs() < 1e-3);
        // 7.5° off the axis: a quarter; 15° or more: none.
        let off = |deg: f32| Quat::from_rotation_y(deg.to_radians()) * -travel;
        assert!((flare_strength(off(7.5), travel) - 0.25).abs() < 1e-3);
        assert_eq!(flare_strength(off(15.0), travel), 0.0);
        // The moon's highest (cos 50°): 0.39 of it.
        let (s, c) = 50f32.to_radians().sin_cos();
        let moon = Vec3::new(0.0, -s, -c);
        assert!((flare_strength(-moon, moon) - 0.39).abs() < 0.01);
    }

    #[test]
    fn the_dome_has_an_apex_five_rings_and_the_fog_at_its_rim() {
        let points = dome_points();
        assert_eq!(points.len(), 1 + DOME_RINGS * DOME_SEGMENTS);
        assert_eq!(points[0], Vec3::new(0.0, 0.0, DOME_HEIGHT));
        let rim = points.last().unwrap();
        assert!(rim.z.abs() < 0.5, "the rim stands at z 0: {rim}");
        assert!((rim.truncate().length() - 24_142.1).abs() < 1.0);
        assert!((dome_rim() - rim.truncate().length()).abs() < 0.5);
        // The nebula's UVs: the apex at 0, the rim 0.707 out.
        assert_eq!(nebula_uv(points[0]), [0.0, 0.0]);
        assert!(
            (Vec2::from(nebula_uv(*rim)).length() - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-3
        );
        let triangles = dome_triangles();
        assert_eq!(
            triangles.len(),
            3 * DOME_SEGMENTS * (1 + 2 * (DOME_RINGS - 1))
        );
        assert!(triangles.iter().all(|&i| (i as usize) < points.len()));
        // A compass group lerps from property k to k + 1 over a quarter.
        let group = [[0.0; 4], [1.0; 4], [0.0; 4], [0.0; 4]];
        assert_eq!(compass(&group, 0.0)[0], 0.0);
        assert!((compass(&group, std::f32::consts::FRAC_PI_4)[0] - 0.5).abs() < 1e-6);
        assert!((compass(&group, std::f32::consts::FRAC_PI_2)[0] - 1.0).abs() < 1e-6);
        // Straight up the dome is its height away, level its rim.
        assert!((dome_distance(Vec3::Z, 1.0) - DOME_HEIGHT).abs() < 0.5);
        assert!((dome_distance(Vec3::X, 1.0) - rim.length()).abs() < 0.5);
        let f = frame(&sky(), None, 300_000).unwrap();
        let colours = dome_colours(&f, Vec3::Y);
        assert_eq!(colours.len(), points.len());
        assert_eq!(*colours.last().unwrap(), f.fog_colour(Vec3::Y));
    }
}
