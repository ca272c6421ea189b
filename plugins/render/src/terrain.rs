//! The terrain mesh of a `Land.msh`: its LOD-0 faces in Bevy's Y-up frame,
//! shaded by a vertex colour from the height (tome IV "Land.msh"; the
//! layer textures of the faces are not drawn yet).

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use iron3d_formats::terrain::land_msh::LandMsh;

/// The original Z-up point `(x, y, z)` in Bevy's Y-up frame, `(x, z, -y)`
/// (the mapping of `iron3d_world::mission::z_up_to_y_up`).
pub fn y_up([x, y, z]: [f32; 3]) -> [f32; 3] {
    [x, z, -y]
}

/// Low ground colour (linear RGBA) of the height ramp.
const LOW: [f32; 3] = [0.22, 0.30, 0.12];
/// High ground colour of the height ramp.
const HIGH: [f32; 3] = [0.55, 0.48, 0.36];

/// The colour of a height between `low` and `high`: a ramp from green
/// lowland to brown highland.
fn height_colour(z: f32, low: f32, high: f32) -> [f32; 4] {
    let t = if high > low {
        ((z - low) / (high - low)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let [r, g, b] = [0, 1, 2].map(|k| LOW[k] + (HIGH[k] - LOW[k]) * t);
    [r, g, b, 1.0]
}

/// The mesh of the LOD-0 faces of `land`: every vertex (Y-up), its decoded
/// normal, a height colour, and three indices per face whose vertices all
/// exist (a face naming a missing vertex is left out). `None` when no face
/// remains.
pub fn terrain_mesh(land: &LandMsh) -> Option<Mesh> {
    let count = land.positions.len();
    let indices: Vec<u32> = land
        .lod_faces(0)
        .into_iter()
        .filter_map(|f| land.faces.get(f as usize))
        .filter(|face| face.vertices.iter().all(|&v| (v as usize) < count))
        .flat_map(|face| face.vertices.map(u32::from))
        .collect();
    if indices.is_empty() {
        return None;
    }
    let (low, high) = land
        .bounds()
        .map_or((0.0, 0.0), |(min, max)| (min[2], max[2]));
    let positions: Vec<[f32; 3]> = land.positions.iter().copied().map(y_up).collect();
    let normals: Vec<[f32; 3]> = (0..count)
        .map(|i| y_up(land.normal(i).unwrap_or([0.0, 0.0, 1.0])))
        .collect();
    let colours: Vec<[f32; 4]> = land
        .positions
        .iter()
        .map(|p| height_colour(p[2], low, high))
        .collect();
    Some(
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
        .with_inserted_indices(Indices::U32(indices)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::mesh::VertexAttributeValues;
    use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield};

    #[test]
    fn y_up_swaps_ground_plane_and_height() {
        assert_eq!(y_up([1.0, 2.0, 3.0]), [1.0, 3.0, -2.0]);
    }

    #[test]
    fn height_ramp_runs_from_low_to_high_colour() {
        assert_eq!(height_colour(0.0, 0.0, 10.0), [LOW[0], LOW[1], LOW[2], 1.0]);
        assert_eq!(
            height_colour(10.0, 0.0, 10.0),
            [HIGH[0], HIGH[1], HIGH[2], 1.0]
        );
        assert_eq!(height_colour(5.0, 5.0, 5.0)[0], LOW[0], "flat land");
    }

    /// A 3 x 3 heightfield rising along original +Y (north).
    fn slope() -> LandMsh {
        land_from_heightfield(&Heightfield {
            cols: 3,
            rows: 3,
            origin: [0.0, 0.0],
            spacing: 10.0,
            heights: vec![0.0, 0.0, 0.0, 5.0, 5.0, 5.0, 10.0, 10.0, 10.0],
            block: 2,
        })
        .unwrap()
    }

    #[test]
    fn terrain_mesh_has_every_lod0_face_in_y_up() {
        let land = slope();
        let mesh = terrain_mesh(&land).unwrap();
        assert_eq!(mesh.indices().unwrap().len(), 8 * 3, "2 x 2 quads");
        let Some(VertexAttributeValues::Float32x3(positions)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions");
        };
        // Original (x, y, z) = (0, 20, 10): north and high.
        assert!(positions.contains(&[0.0, 10.0, -20.0]), "{positions:?}");
        // Up-facing normals end up along +Y.
        let Some(VertexAttributeValues::Float32x3(normals)) =
            mesh.attribute(Mesh::ATTRIBUTE_NORMAL)
        else {
            panic!("normals");
        };
        assert!(normals.iter().all(|n| n[1] > 0.5), "{normals:?}");
        // Faces stay counter-clockwise seen from above (+Y) after the mapping.
        let idx: Vec<usize> = mesh.indices().unwrap().iter().collect();
        let p = |i: usize| bevy::math::Vec3::from(positions[idx[i]]);
        let n = (p(1) - p(0)).cross(p(2) - p(0));
        assert!(n.y > 0.0, "front face points up: {n}");
    }

    #[test]
    fn terrain_without_faces_gives_no_mesh() {
        let mut land = slope();
        land.faces.clear();
        assert!(terrain_mesh(&land).is_none());
    }
}
