//! The effects drawn: every primitive the fx crate's running instances
//! emit ([`iron3d_fx::emit`]) is a quad
//! with its `Material.lib` entry through the legacy material (the entry's
//! MAT0 state and blend; the phase texture its animation stands at; its
//! alpha times the fade). Billboards face the camera; beams lie along
//! their axis and turn to it. Quads are pooled and hidden when unused.
//! Lights go to the renderer's light manager ([`crate::lights`]). Reads
//! the simulation only.
//!
//! The phase fraction picks `floor(fraction × phases)` of the entry's
//! phases (a stand-in, below).

use crate::camera::MissionCamera;
use crate::lights::{FrameLights, LightRequest};
use crate::material::LegacyMaterial;
use bevy::light::NotShadowCaster;
use bevy::prelude::*;
use iron3d_assets::material::EntryMaterial;
use iron3d_fx::{FxInstance, FxInstances, Primitive, PrimitiveKind, emit};
use iron3d_schedules::Phase;
use std::collections::HashMap;

/// Steps of the fade a shared material is made for.
const ALPHA_STEPS: f32 = 16.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FxDraw>().add_systems(
        PostUpdate,
        draw_effects
            .run_if(resource_exists::<FxInstances>)
            .in_set(Phase::PublishRenderSnapshot),
    );
}

/// A pooled effect quad.
#[derive(Component, Debug)]
#[require(Name::new("Effect quad"))]
struct FxQuad;

/// A shared material: entry, phase, fade step.
type MaterialKey = (String, usize, u8);

/// The drawing's state: the quad mesh, material sources and shared
/// materials, and the pool of quads.
#[derive(Resource, Default)]
struct FxDraw {
    quad: Option<Handle<Mesh>>,
    sources: HashMap<String, Handle<EntryMaterial>>,
    materials: HashMap<MaterialKey, Handle<LegacyMaterial>>,
    pool: Vec<Entity>,
}

/// The turn of a quad drawing `p` seen from `eye` (camera turn `view`).
fn facing(p: &Primitive, eye: Vec3, view: Quat) -> Quat {
    if p.kind != PrimitiveKind::Beam {
        return view;
    }
    let to_eye = (eye - p.position).reject_from_normalized(p.axis);
    let Some(z) = to_eye.try_normalize() else {
        return view;
    };
    Quat::from_mat3(&Mat3::from_cols(p.axis, z.cross(p.axis), z))
}

/// What the light manager is asked for `p`, a light of effect `effect`.
fn light_request(inst: &FxInstance, p: &Primitive) -> LightRequest {
    LightRequest {
        effect: inst.effect.clone(),
        owner: inst.owner.map(|id| id.0),
        serial: p.effect,
        command: p.command,
        kind: p.light_kind,
        position: p.position,
        colour: [p.colour[0], p.colour[1], p.colour[2]],
        range: p.range,
        attenuation: p.attenuation,
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_effects(
    mut commands: Commands,
    instances: Res<FxInstances>,
    server: Res<AssetServer>,
    entries: Res<Assets<EntryMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut legacy: ResMut<Assets<LegacyMaterial>>,
    mut draw: ResMut<FxDraw>,
    mut lights: ResMut<FrameLights>,
    camera: Query<&GlobalTransform, With<MissionCamera>>,
    mut quads: Query<
        (
            &mut Transform,
            &mut MeshMaterial3d<LegacyMaterial>,
            &mut Visibility,
        ),
        With<FxQuad>,
    >,
) {
    let Ok(eye) = camera.single().map(|c| c.compute_transform()) else {
        return;
    };
    let draw = &mut *draw;
    let quad = draw
        .quad
        .get_or_insert_with(|| meshes.add(Rectangle::new(1.0, 1.0)))
        .clone();
    let mut used = 0;
    for (inst, p) in instances
        .0
        .iter()
        .flat_map(|i| emit(i).into_iter().map(move |p| (i, p)))
    {
        if p.kind == PrimitiveKind::Light {
            lights.0.push(light_request(inst, &p));
            continue;
        }
        let Some(key) = p.material.as_deref() else {
            continue;
        };
        let Some(path) = crate::material::entry_path(key) else {
            continue;
        };
        let source = draw
            .sources
            .entry(key.to_owned())
            .or_insert_with(|| server.load(path));
        let Some(entry) = entries.get(&*source) else {
            continue;
        };
        let row = &entry.row;
        let phases = row.textures.len().max(1);
        // STAND-IN: the phase fraction picks `floor(fraction × phases)` of
        // the entry's phases (the engine interpolates the track's keys by
        // time, docs/11 "A phase is where its material's animation
        // stands"); settled by reading the track's key interpolation.
        let phase = ((p.phase * phases as f32) as usize).min(phases - 1);
        let step = (p.alpha * ALPHA_STEPS).round().clamp(1.0, ALPHA_STEPS) as u8;
        let material = draw
            .materials
            .entry((key.to_owned(), phase, step))
            .or_insert_with(|| {
                let fade = f32::from(step) / ALPHA_STEPS;
                legacy.add(LegacyMaterial::of_entry(row, phase, fade))
            })
            .clone();
        let transform = Transform::from_translation(p.position)
            .with_rotation(facing(&p, eye.translation, eye.rotation))
            .with_scale(p.size.extend(1.0));
        match draw.pool.get(used).and_then(|&e| quads.get_mut(e).ok()) {
            Some((mut at, mut drawn, mut visibility)) => {
                *at = transform;
                drawn.0 = material;
                visibility.set_if_neq(Visibility::Visible);
            }
            None if used >= draw.pool.len() => {
                let entity = commands
                    .spawn((
                        FxQuad,
                        Mesh3d(quad.clone()),
                        MeshMaterial3d(material),
                        transform,
                        Visibility::Visible,
                        NotShadowCaster,
                    ))
                    .id();
                draw.pool.push(entity);
            }
            // Spawned this frame: placed on the next.
            None => {}
        }
        used += 1;
    }
    for &entity in draw.pool.iter().skip(used) {
        if let Ok((_, _, mut visibility)) = quads.get_mut(entity) {
            visibility.set_if_neq(Visibility::Hidden);
        }
    }
}
