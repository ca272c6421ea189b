//! The mission's ground for Control: the level-0 faces of `Land.msh` as
//! one static triangle mesh (its face flags kept beside it), and the map's
//! bounds for the edge rules.

use crate::backend;
use crate::ground::GroundFaces;
use bevy::prelude::*;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_world::mission::{BodyBounds, MissionLand};
use std::sync::Arc;

/// The map's extent in the world frame (Bevy axes: ground plane X/Z, up
/// Y), from the terrain's vertices.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MapBounds {
    pub min: Vec3,
    pub max: Vec3,
}

/// Marks the terrain's body: the land it was built from, and the raw
/// flags of its faces in the order of the triangle mesh (the surface bits
/// the tomes describe).
#[derive(Component, Debug, Clone)]
pub struct TerrainBody {
    pub land: Arc<LandMsh>,
    pub face_flags: Vec<u32>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        build_terrain
            .run_if(resource_exists::<MissionLand>)
            .in_set(crate::ControlStep::Attach),
    );
}

/// The triangles of the level-0 faces in the world frame (Z-up vertices
/// turned to Y-up; the turn is a rotation, so the winding stays), with
/// each face's flags. Faces naming a missing vertex are left out.
pub(crate) fn ground_mesh(land: &LandMsh) -> (Vec<Vec3>, Vec<[u32; 3]>, Vec<u32>) {
    let vertices: Vec<Vec3> = land
        .positions
        .iter()
        .map(|&[x, y, z]| Vec3::new(x, z, -y))
        .collect();
    let mut triangles = Vec::new();
    let mut flags = Vec::new();
    for f in land.lod_faces(0) {
        let Some(face) = land.faces.get(f as usize) else {
            continue;
        };
        let [a, b, c] = face.vertices.map(u32::from);
        if [a, b, c].iter().all(|&v| (v as usize) < vertices.len()) {
            triangles.push([a, b, c]);
            flags.push(face.flags);
        }
    }
    (vertices, triangles, flags)
}

/// Builds the ground of the mission's land, once per land published.
fn build_terrain(
    land: Res<MissionLand>,
    old: Query<(Entity, &TerrainBody)>,
    mut commands: Commands,
) {
    if old.iter().any(|(_, t)| Arc::ptr_eq(&t.land, &land.0)) {
        return;
    }
    for (entity, _) in &old {
        commands.entity(entity).despawn();
    }
    let (vertices, triangles, face_flags) = ground_mesh(&land.0);
    commands.insert_resource(GroundFaces::new(&vertices, &triangles));
    let Some(bounds) = BodyBounds::around(vertices.iter().copied()) else {
        commands.remove_resource::<MapBounds>();
        return;
    };
    commands.insert_resource(MapBounds {
        min: bounds.min,
        max: bounds.max,
    });
    if triangles.is_empty() {
        return;
    }
    commands.spawn((
        Name::new("terrain body"),
        TerrainBody {
            land: land.0.clone(),
            face_flags,
        },
        backend::terrain_bundle(vertices, triangles),
    ));
}
