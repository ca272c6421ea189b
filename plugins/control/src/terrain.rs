//! The mission's ground for Control: the level-0 faces of `Land.msh` as
//! one static triangle mesh (its face flags kept beside it), and the map's
//! bounds for the edge rules.

use crate::backend;
use crate::ground::{GroundFaces, NONE};
use bevy::prelude::*;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_world::mission::{BodyBounds, MissionLand, MissionScopeExt, MissionScoped};
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
            .in_set(iron3d_schedules::SimStep::Attach),
    )
    .remove_on_unload::<GroundFaces>()
    .remove_on_unload::<MapBounds>();
}

/// The level-0 faces of a land in the world frame.
pub(crate) struct GroundMesh {
    /// Z-up vertices turned to Y-up (a rotation: the winding stays).
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    /// Each face's raw flags.
    pub flags: Vec<u32>,
    /// Each face's neighbours across its edges as the file links them,
    /// as indices of `triangles` ([`crate::ground::NONE`]: none, or a face
    /// left out).
    pub neighbours: Vec<[u32; 3]>,
}

/// The ground mesh of `land`'s level-0 faces. Faces naming a missing
/// vertex are left out.
pub(crate) fn ground_mesh(land: &LandMsh) -> GroundMesh {
    let vertices: Vec<Vec3> = land
        .positions
        .iter()
        .map(|&[x, y, z]| Vec3::new(x, z, -y))
        .collect();
    let mut kept = Vec::new();
    let mut index_of = vec![NONE; land.faces.len()];
    for f in land.lod_faces(0) {
        let Some(face) = land.faces.get(f as usize) else {
            continue;
        };
        if face
            .vertices
            .iter()
            .all(|&v| usize::from(v) < vertices.len())
        {
            index_of[f as usize] = kept.len() as u32;
            kept.push(face);
        }
    }
    let across = |n: u16| index_of.get(usize::from(n)).copied().unwrap_or(NONE);
    GroundMesh {
        triangles: kept.iter().map(|f| f.vertices.map(u32::from)).collect(),
        flags: kept.iter().map(|f| f.flags).collect(),
        neighbours: kept.iter().map(|f| f.neighbours.map(across)).collect(),
        vertices,
    }
}

/// Builds the ground of the mission's land, once per land published.
pub(crate) fn build_terrain(
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
    let mesh = ground_mesh(&land.0);
    commands.insert_resource(GroundFaces::new(&mesh));
    let Some(bounds) = BodyBounds::around(mesh.vertices.iter().copied()) else {
        commands.remove_resource::<MapBounds>();
        return;
    };
    commands.insert_resource(MapBounds {
        min: bounds.min,
        max: bounds.max,
    });
    if mesh.triangles.is_empty() {
        return;
    }
    commands.spawn((
        Name::new("terrain body"),
        MissionScoped,
        TerrainBody {
            land: land.0.clone(),
            face_flags: mesh.flags,
        },
        backend::terrain_bundle(mesh.vertices, mesh.triangles),
    ));
}
