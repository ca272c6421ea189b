//! Shadows as their own pass (tome V "Свет, тени, атмосфера и
//! сортировка"): buildings and robots throw shadows on the terrain, within
//! the count, detail and smoothing limits of the install's `shade.cfg`
//! (kept by name: [`ShadeSettings`]).
//!
//! How the original projects a caster needs a dynamic trace (tome V), so
//! the pass is ours (docs/facts.md): the scene light's shadow map, drawn by
//! Bevy's shadow pass from the sun before the main pass, holds the chosen
//! casters; only the terrain's shader reads it, and takes the sun's term
//! away where the map is occluded (`assets/shaders/legacy.wgsl`). The
//! settings map onto it so:
//! - `RobShadowsOn`: units cast; `BldShadowsOn`: every other placed
//!   object (buildings, vegetation, rocks) casts;
//! - `MaxShadowsQty`: at most that many objects cast, the nearest to the
//!   camera first (ties by original id);
//! - `RobShadowDetail` / `BldShadowDetail`: the map is 2048 texels × the
//!   larger detail of the kinds that cast, to a power of two in 512..=4096;
//! - `RobShadowSmooth` / `BldShadowSmooth`: Gaussian filtering when a kind
//!   that casts smooths, else 2×2 hardware filtering;
//! - the refresh masks and best-LOD flags are kept, not used: the map is
//!   drawn every frame, from the LOD on screen.
//!
//! Only opaque model batches cast; the terrain, the sky and effects never
//! do.

use crate::camera::MissionCamera;
use crate::draw::{DrawItemSource, DrawnBatch, RenderPhase, ShadowCaster};
use crate::shade::ShadeSettings;
use crate::sky::SceneLight;
use bevy::light::{
    CascadeShadowConfigBuilder, DirectionalLightShadowMap, NotShadowCaster, ShadowFilteringMethod,
};
use bevy::prelude::*;
use iron3d_formats::tma;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{MissionObject, ObjectKind};
use std::collections::BTreeSet;

pub(crate) fn plugin(app: &mut App) {
    if app.is_plugin_added::<bevy::pbr::PbrPlugin>() {
        app.add_systems(
            PostUpdate,
            cast_shadows.in_set(iron3d_schedules::Phase::PublishRenderSnapshot),
        );
    }
}

/// How the shadow pass runs, from the `shade.cfg` settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShadowPlan {
    /// Units cast.
    pub robots: bool,
    /// Every other placed object casts.
    pub buildings: bool,
    /// At most this many objects cast.
    pub most: usize,
    /// The map's side in texels.
    pub map_size: usize,
    /// Gaussian filtering (else 2×2 hardware).
    pub smooth: bool,
}

/// The map's side at detail 1.
// STAND-IN: 2048 texels at detail 1, held to 512..=4096 (the original
// projects each caster, which needs a dynamic trace, tome V); settled by
// tracing the shadow pass in `Terrain.dll` and what `*ShadowDetail`
// scales there.
const MAP_SIDE: f32 = 2048.0;

impl ShadowPlan {
    pub fn of(settings: &ShadeSettings) -> Self {
        let robots = settings.on("RobShadowsOn");
        let buildings = settings.on("BldShadowsOn");
        let detail = |on: bool, key: &str| {
            if on { settings.number(key) as f32 } else { 0.0 }
        };
        let detail = detail(robots, "RobShadowDetail").max(detail(buildings, "BldShadowDetail"));
        let side = (MAP_SIDE * detail).clamp(512.0, 4096.0) as usize;
        Self {
            robots,
            buildings,
            most: settings.number("MaxShadowsQty").max(0.0) as usize,
            map_size: side.next_power_of_two().min(4096),
            smooth: (robots && settings.on("RobShadowSmooth"))
                || (buildings && settings.on("BldShadowSmooth")),
        }
    }

    /// Whether any object may cast.
    pub fn enabled(&self) -> bool {
        (self.robots || self.buildings) && self.most > 0
    }

    /// Whether an object of `kind` casts.
    pub fn casts(&self, kind: Option<tma::ObjectKind>) -> bool {
        if kind == Some(tma::ObjectKind::Unit) {
            self.robots
        } else {
            self.buildings
        }
    }

    /// The original ids of the objects that cast, of `objects` (id, kind,
    /// position) seen from `eye`: the nearest that may, at most `most`.
    pub fn casters(
        &self,
        eye: Vec3,
        objects: impl IntoIterator<Item = (u32, Option<tma::ObjectKind>, Vec3)>,
    ) -> BTreeSet<u32> {
        let mut near: Vec<(f32, u32)> = objects
            .into_iter()
            .filter(|(_, kind, _)| self.casts(*kind))
            .map(|(id, _, at)| (at.distance_squared(eye), id))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.into_iter().take(self.most).map(|(_, id)| id).collect()
    }
}

/// The sun's cascades: two, to 1500 units (the demo's fog ends within it).
// STAND-IN: two cascades to 1500 units, Bevy's shadow map standing in for
// the original's per-caster projection; settled as `MAP_SIDE`.
fn cascades() -> bevy::light::CascadeShadowConfig {
    CascadeShadowConfigBuilder {
        num_cascades: 2,
        minimum_distance: 1.0,
        first_cascade_far_bound: 300.0,
        maximum_distance: 1500.0,
        overlap_proportion: 0.2,
    }
    .build()
}

/// What a batch is, for the shadow pass.
type BatchItem = (
    Entity,
    &'static DrawItemSource,
    Has<NotShadowCaster>,
    Has<ShadowCaster>,
);

/// Each frame: the light's map on or off with its size and cascades, the
/// camera's filtering, and the batches of the chosen objects as casters.
#[allow(clippy::too_many_arguments)]
fn cast_shadows(
    mut commands: Commands,
    settings: Option<Res<ShadeSettings>>,
    mut light: Query<
        (
            Entity,
            &mut DirectionalLight,
            Has<bevy::light::CascadeShadowConfig>,
        ),
        With<SceneLight>,
    >,
    camera: Query<(Entity, &GlobalTransform, Option<&ShadowFilteringMethod>), With<MissionCamera>>,
    objects: Query<(&OriginalObjectId, &ObjectKind, &GlobalTransform), With<MissionObject>>,
    batches: Query<BatchItem, With<DrawnBatch>>,
    mut map: ResMut<DirectionalLightShadowMap>,
    atmosphere: Res<crate::sky::Atmosphere>,
) {
    let plan = settings
        .map(|s| ShadowPlan::of(&s))
        .filter(|_| atmosphere.on);
    let enabled = plan.is_some_and(|p| p.enabled());
    if let Ok((entity, mut sun, has_cascades)) = light.single_mut() {
        if sun.shadow_maps_enabled != enabled {
            sun.shadow_maps_enabled = enabled;
        }
        if !has_cascades {
            commands.entity(entity).insert(cascades());
        }
    }
    let Ok((eye_entity, eye, filtering)) = camera.single() else {
        return;
    };
    let chosen = match plan.filter(|p| p.enabled()) {
        Some(plan) => {
            if map.size != plan.map_size {
                map.size = plan.map_size;
            }
            let want = if plan.smooth {
                ShadowFilteringMethod::Gaussian
            } else {
                ShadowFilteringMethod::Hardware2x2
            };
            if filtering != Some(&want) {
                commands.entity(eye_entity).insert(want);
            }
            let objects = objects
                .iter()
                .map(|(id, kind, at)| (id.0, kind.kind(), at.translation()));
            plan.casters(eye.translation(), objects)
        }
        None => BTreeSet::new(),
    };
    for (entity, source, not_caster, caster) in &batches {
        let cast = source.render_phase == RenderPhase::OpaqueObjects
            && source.object.is_some_and(|id| chosen.contains(&id));
        if cast && (not_caster || !caster) {
            commands
                .entity(entity)
                .remove::<NotShadowCaster>()
                .insert(ShadowCaster);
        } else if !cast && (!not_caster || caster) {
            commands
                .entity(entity)
                .remove::<ShadowCaster>()
                .insert(NotShadowCaster);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::config::ini::{SHADE_CFG, Settings};
    use iron3d_formats::config::text::TextConfig;

    fn plan(text: &str) -> ShadowPlan {
        let cfg = TextConfig::parse(text.as_bytes(), "shade.cfg").unwrap();
        ShadowPlan::of(&ShadeSettings(Settings::resolve(&cfg, SHADE_CFG)))
    }

    #[test]
    fn the_compiled_defaults_shadow_robots_only_smoothly_at_2048() {
        let p = plan("");
        assert_eq!(
            p,
            ShadowPlan {
                robots: true,
                buildings: false,
                most: 20,
                map_size: 2048,
                smooth: true,
            }
        );
        assert!(p.casts(Some(tma::ObjectKind::Unit)));
        assert!(!p.casts(Some(tma::ObjectKind::Building)));
        assert!(!p.casts(None));
    }

    #[test]
    fn settings_pick_kinds_detail_and_smoothing() {
        let p = plan("RobShadowsOn=0\nBldShadowsOn=1\nBldShadowDetail=0.6\n");
        assert!(!p.robots && p.buildings);
        // 2048 × 0.6 = 1228.8: the next power of two.
        assert_eq!(p.map_size, 2048);
        // BldShadowSmooth defaults to 0.
        assert!(!p.smooth);
        assert_eq!(plan("RobShadowDetail=0.1\n").map_size, 512);
        assert_eq!(plan("RobShadowDetail=4\n").map_size, 4096);
        assert!(!plan("MaxShadowsQty=0\n").enabled());
        assert!(!plan("RobShadowsOn=0\n").enabled());
    }

    #[test]
    fn the_nearest_objects_that_may_cast_are_chosen_up_to_the_limit() {
        use tma::ObjectKind::{Building, Unit};
        let p = plan("BldShadowsOn=1\nMaxShadowsQty=2\n");
        let objects = [
            (7, Some(Unit), Vec3::new(30.0, 0.0, 0.0)),
            (3, Some(Building), Vec3::new(10.0, 0.0, 0.0)),
            (9, Some(Building), Vec3::new(-10.0, 0.0, 0.0)),
            (1, Some(Unit), Vec3::new(500.0, 0.0, 0.0)),
        ];
        // 3 and 9 are equally near: both, before 7.
        assert_eq!(p.casters(Vec3::ZERO, objects), BTreeSet::from([3, 9]));
        let robots_only = plan("MaxShadowsQty=5\n");
        assert_eq!(
            robots_only.casters(Vec3::ZERO, objects),
            BTreeSet::from([1, 7])
        );
    }
}
