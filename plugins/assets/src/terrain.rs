//! `Land.msh` → [`Terrain`] (the parsed container, its LOD 0 surface for
//! CPU height/normal/ray queries, and its ground layers as render meshes)
//! and `Land.map` → [`ArealMap`] (areals and cell grid, with the locator and
//! route search built on demand).
//!
//! The ground is drawn in two layers (docs/facts.md "Terrain layers"): every
//! LOD-0 face has a layer-1 texture (an index into `Land1.wea` beside the
//! `Land.msh`) and may have a layer-2 texture (`Land2.wea`) blended over it
//! with alpha `1 - weight` (stream 14). [`Terrain::layers`] holds one mesh
//! per (layer, texture index), labelled `layer1/<index>` / `layer2/<index>`,
//! in Bevy's Y-up frame with UV0 from that layer's UV stream and the vertex
//! colour's alpha the layer's coverage, and the texture each resolves to:
//! the `Textures.lib` entry of that name, else the first entry named
//! `NAME.<suffix>` (retail `L04` is the member `L04.0`), else the
//! `Material.lib` entry of that name (retail `WATER`) with the texture of
//! every MAT0 phase (the renderer animates it; [`TerrainLayerMesh::texture`]
//! is phase 0's), else none (logged). The tables and textures are read as loader dependencies, so
//! editing a `.wea` or a texture reloads the terrain.
//! Coordinates of the parsed data stay Z-up as stored.

use crate::material::{
    MATERIAL_LIBRARY, TEXTURE_LIBRARY, find_in, iron_path, material, phase_textures,
    read_dependency,
};
use crate::parsed::ParsedAsset;
use crate::source::{EntryInfo, IronSource};
use bevy::asset::{AssetLoader, AssetPath, LoadContext, RenderAssetUsages, io::Reader};
use bevy::image::Image;
use bevy::log::warn;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use bevy::prelude::Handle;
use bevy::prelude::{Asset, TypePath};
use iron3d_formats::archive::Mode;
use iron3d_formats::error::FormatError;
use iron3d_formats::mat0::Mat0;
use iron3d_formats::terrain::land_map::{ArealLocator, LandMap};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::TerrainSurface;
use iron3d_formats::wear::Wear;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A ground layer of the terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GroundLayer {
    /// The base layer, on every face (`Land1.wea`, UV stream 5): opaque.
    One,
    /// The overlay (`Land2.wea`, UV stream 18): alpha `1 - weight`.
    Two,
}

impl GroundLayer {
    /// 1 or 2.
    pub fn number(self) -> u8 {
        match self {
            GroundLayer::One => 1,
            GroundLayer::Two => 2,
        }
    }

    /// The layer table's file name beside `Land.msh`.
    pub fn table_name(self) -> String {
        format!("Land{}.wea", self.number())
    }
}

/// The `Material.lib` entry a layer name resolved to: its MAT0 and the
/// texture of each of its phases.
#[derive(Debug, Clone)]
pub struct LayerMaterial {
    /// The entry's directory fields (its stored name seeds the phase clock).
    pub entry: EntryInfo,
    pub mat0: Arc<Mat0>,
    /// One per MAT0 phase (`None`: empty name or missing texture).
    pub textures: Vec<Option<Handle<Image>>>,
}

/// The faces of one (layer, texture index) as a render mesh, and the
/// texture that index resolves to.
#[derive(Debug, Clone)]
pub struct TerrainLayerMesh {
    pub layer: GroundLayer,
    /// The row of the layer table (the face's texture byte).
    pub index: u8,
    /// Water faces ([`TerrainFace28::is_water`]) of layer 1: drawn as
    /// water when reflections are on, else as their ground.
    ///
    /// [`TerrainFace28::is_water`]: iron3d_formats::terrain::land_msh::TerrainFace28::is_water
    pub water: bool,
    /// The row's name (`None`: no such row or no table).
    pub name: Option<String>,
    /// The texture (`None`: untextured); phase 0's of a material.
    pub texture: Option<Handle<Image>>,
    /// The material the name resolved to (`None`: a plain texture or
    /// nothing).
    pub material: Option<LayerMaterial>,
    /// How many faces the mesh draws.
    pub faces: usize,
    pub mesh: Handle<Mesh>,
}

/// A loaded `Land.msh`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct Terrain {
    /// The parse the mission loader shares.
    pub land: Arc<LandMsh>,
    /// The LOD 0 faces, gridded for queries.
    pub surface: TerrainSurface,
    /// The ground layer meshes, by (layer, index, water): every layer-1
    /// group, then every layer-2 group. Empty without LOD-0 faces.
    pub layers: Vec<TerrainLayerMesh>,
    /// Where the water lies, when the terrain has water faces.
    pub water: Option<WaterSurface>,
}

/// The water of a terrain (openparkan `docs/03-terrain.md`, "The water
/// box"): the bounds of every LOD-0 water face at the water's level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterSurface {
    /// The level (map Z): the highest water vertex (retail lakes share
    /// one).
    pub level: f32,
    /// The box's corners on the map's ground plane (X/Y).
    pub min: [f32; 2],
    pub max: [f32; 2],
}

impl WaterSurface {
    /// The water faces of `land` (LOD 0), `None` without any.
    // STAND-IN: one box and level for every lake, the highest water vertex
    // (retail lakes share one level, docs/03 "The water box"; the
    // original's box per lake is not read); settled by a retail map with
    // two lakes at different levels, if one exists.
    pub fn of(land: &LandMsh) -> Option<Self> {
        let mut points = land
            .lod_faces(0)
            .into_iter()
            .filter_map(|f| land.faces.get(f as usize))
            .filter(|face| face.is_water())
            .flat_map(|face| face.vertices)
            .filter_map(|v| land.positions.get(usize::from(v)))
            .peekable();
        let first = **points.peek()?;
        let start = Self {
            level: first[2],
            min: [first[0], first[1]],
            max: [first[0], first[1]],
        };
        Some(points.fold(start, |w, p| Self {
            level: w.level.max(p[2]),
            min: [w.min[0].min(p[0]), w.min[1].min(p[1])],
            max: [w.max[0].max(p[0]), w.max[1].max(p[1])],
        }))
    }
}

impl Terrain {
    /// The terrain of a parsed `Land.msh`, without render meshes.
    pub fn new(land: Arc<LandMsh>) -> Terrain {
        let surface = TerrainSurface::build_lod0(&land);
        Terrain {
            water: WaterSurface::of(&land),
            land,
            surface,
            layers: Vec::new(),
        }
    }
}

/// The label of a layer mesh: `layer1/<index>` or `layer2/<index>`.
pub fn layer_label(layer: GroundLayer, index: u8) -> String {
    format!("layer{}/{index}", layer.number())
}

/// A loaded `Land.map`.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct ArealMap {
    pub map: LandMap,
}

impl ArealMap {
    /// Which areal holds a point.
    pub fn locator(&self) -> ArealLocator<'_> {
        ArealLocator::new(&self.map)
    }

    /// Route search over the map (builds its graph: reuse it for many
    /// queries).
    pub fn navigator(&self) -> Navigator<'_> {
        Navigator::new(&self.map)
    }
}

/// The original Z-up point `(x, y, z)` in Bevy's Y-up frame, `(x, z, -y)`
/// (the mapping of `iron3d_world::mission::z_up_to_y_up`).
pub fn y_up([x, y, z]: [f32; 3]) -> [f32; 3] {
    [x, z, -y]
}

/// A group of terrain faces: (layer, texture index, water).
pub type LayerKey = (GroundLayer, u8, bool);

/// The LOD-0 faces whose vertices all exist, grouped by (layer, texture
/// index, water): every face in its layer-1 group (water faces apart),
/// faces with a layer-2 texture also in that layer-2 group.
pub fn layer_groups(land: &LandMsh) -> BTreeMap<LayerKey, Vec<usize>> {
    let count = land.positions.len();
    let mut groups: BTreeMap<LayerKey, Vec<usize>> = BTreeMap::new();
    for f in land.lod_faces(0) {
        let Some(face) = land.faces.get(f as usize) else {
            continue;
        };
        if face.vertices.iter().any(|&v| v as usize >= count) {
            continue;
        }
        let f = f as usize;
        groups
            .entry((GroundLayer::One, face.layer1_texture(), face.is_water()))
            .or_default()
            .push(f);
        if let Some(t) = face.layer2_texture() {
            groups
                .entry((GroundLayer::Two, t, false))
                .or_default()
                .push(f);
        }
    }
    groups
}

/// The mesh of `faces` drawn in `layer`: their vertices only (Y-up), the
/// decoded normals, UV0 from the layer's stream, and a white vertex colour
/// whose alpha is the layer's coverage (1 on layer 1, `1 - weight` on
/// layer 2).
pub fn layer_mesh(land: &LandMsh, layer: GroundLayer, faces: &[usize]) -> Mesh {
    let mut remap = vec![u32::MAX; land.positions.len()];
    let mut used = Vec::new();
    let mut indices = Vec::with_capacity(faces.len() * 3);
    for &f in faces {
        for v in land.faces[f].vertices.map(usize::from) {
            if remap[v] == u32::MAX {
                remap[v] = used.len() as u32;
                used.push(v);
            }
            indices.push(remap[v]);
        }
    }
    let positions: Vec<[f32; 3]> = used.iter().map(|&v| y_up(land.positions[v])).collect();
    let normals: Vec<[f32; 3]> = used
        .iter()
        .map(|&v| y_up(land.normal(v).unwrap_or([0.0, 0.0, 1.0])))
        .collect();
    let (uvs, colours): (Vec<[f32; 2]>, Vec<[f32; 4]>) = used
        .iter()
        .map(|&v| match layer {
            GroundLayer::One => (land.layer1_uv(v).unwrap_or_default(), [1.0; 4]),
            GroundLayer::Two => {
                let alpha = 1.0 - land.layer1_weight(v);
                (
                    land.layer2_uv(v).unwrap_or_default(),
                    [1.0, 1.0, 1.0, alpha],
                )
            }
        })
        .unzip();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colours)
    .with_inserted_indices(Indices::U32(indices))
}

/// The path of `file` in the directory of `path` (same separator style,
/// same source).
fn sibling(path: &AssetPath<'_>, file: &str) -> AssetPath<'static> {
    let text = path.path().to_string_lossy();
    let dir = text.rfind(['/', '\\']).map_or("", |i| &text[..=i]);
    AssetPath::from_path_buf(PathBuf::from(format!("{dir}{file}")))
        .with_source(path.source().clone_owned())
}

/// The `Textures.lib` entry a layer name selects: that name, else the
/// first entry named `NAME.<suffix>` (directory order, ASCII
/// case-insensitive).
pub fn texture_entry<'a>(textures: &'a [EntryInfo], name: &str) -> Option<&'a EntryInfo> {
    let exact = find_in(textures)(name.as_bytes());
    exact.map(|i| &textures[i]).or_else(|| {
        textures.iter().find(|e| {
            let (stem, _) = e.name.rsplit_once('.').unwrap_or((&e.name, ""));
            e.name.len() > stem.len() && stem.eq_ignore_ascii_case(name)
        })
    })
}

/// Loads `Land.msh` as a [`Terrain`] with its layer meshes and textures.
#[derive(TypePath)]
pub struct TerrainLoader {
    pub source: Arc<IronSource>,
}

/// The directory of an archive of the install, empty when it is missing.
fn directory_or_empty(source: &IronSource, archive: &str) -> Result<Vec<EntryInfo>, FormatError> {
    Ok(source
        .archive_directory(Path::new(archive))?
        .unwrap_or_default())
}

impl TerrainLoader {
    /// The names of a layer table beside the terrain (empty and logged
    /// when the table is missing).
    async fn table(
        &self,
        ctx: &mut LoadContext<'_>,
        layer: GroundLayer,
    ) -> Result<Vec<String>, FormatError> {
        let path = sibling(ctx.path(), &layer.table_name());
        let found = match read_dependency(ctx, &path).await? {
            Some(_) => self.source.read(path.path())?,
            None => None,
        };
        let Some(found) = found else {
            warn!(
                "terrain {}: no {path}: layer {} untextured",
                ctx.path(),
                layer.number()
            );
            return Ok(Vec::new());
        };
        let wear = found.parsed(0, |b| Wear::parse(b, Mode::Compatible))?;
        Ok(wear
            .materials
            .iter()
            .map(|row| String::from_utf8_lossy(&row.name).into_owned())
            .collect())
    }

    /// What a layer name resolves to (see the module docs): its texture
    /// and, for a `Material.lib` entry, that material; `(None, None)`
    /// (logged) when nothing matches.
    async fn resolve(
        &self,
        ctx: &mut LoadContext<'_>,
        name: &str,
        dirs: &Libraries,
        known: &mut BTreeMap<Vec<u8>, Option<Handle<Image>>>,
    ) -> Result<Resolved, FormatError> {
        if let Some(entry) = texture_entry(&dirs.textures, name) {
            let path = iron_path(TEXTURE_LIBRARY, &entry.name, ".texm");
            let texture = match read_dependency(ctx, &path).await? {
                Some(_) => Some(ctx.load::<Image>(path)),
                None => {
                    warn!(
                        "terrain {}: texture {} of {name} not found",
                        ctx.path(),
                        entry.name
                    );
                    None
                }
            };
            return Ok((texture, None));
        }
        if let Some(i) = find_in(&dirs.materials)(name.as_bytes()) {
            let entry = dirs.materials[i].clone();
            if let Some(mat0) = material(&self.source, ctx, &entry).await? {
                let textures = phase_textures(ctx, &entry.name, &mat0, known).await?;
                let first = textures.first().cloned().flatten();
                let material = LayerMaterial {
                    entry,
                    mat0,
                    textures,
                };
                return Ok((first, Some(material)));
            }
        }
        warn!(
            "terrain {}: layer texture {name} not found: untextured",
            ctx.path()
        );
        Ok((None, None))
    }
}

/// A layer name's texture and material.
type Resolved = (Option<Handle<Image>>, Option<LayerMaterial>);

/// The directories layer names are looked up in.
struct Libraries {
    textures: Vec<EntryInfo>,
    materials: Vec<EntryInfo>,
}

impl AssetLoader for TerrainLoader {
    type Asset = Terrain;
    type Settings = ();
    type Error = FormatError;

    async fn load(
        &self,
        _reader: &mut dyn Reader,
        _settings: &(),
        ctx: &mut LoadContext<'_>,
    ) -> Result<Terrain, FormatError> {
        let found = crate::found_input(&self.source, ctx)?;
        let land = found.parsed(0, |b| LandMsh::parse(b, Mode::Compatible))?;
        let mut terrain = Terrain::new(land);
        let groups = layer_groups(&terrain.land);
        if groups.is_empty() {
            return Ok(terrain);
        }
        let tables = [
            self.table(ctx, GroundLayer::One).await?,
            self.table(ctx, GroundLayer::Two).await?,
        ];
        let dirs = Libraries {
            textures: directory_or_empty(&self.source, TEXTURE_LIBRARY)?,
            materials: directory_or_empty(&self.source, MATERIAL_LIBRARY)?,
        };
        let mut known = BTreeMap::new();
        let mut resolved: BTreeMap<String, Resolved> = BTreeMap::new();
        for ((layer, index, water), faces) in groups {
            let table = &tables[usize::from(layer == GroundLayer::Two)];
            let name = table.get(index as usize).cloned();
            let (texture, material) = match &name {
                Some(n) => match resolved.get(&n.to_ascii_uppercase()) {
                    Some(found) => found.clone(),
                    None => {
                        let found = self.resolve(ctx, n, &dirs, &mut known).await?;
                        resolved.insert(n.to_ascii_uppercase(), found.clone());
                        found
                    }
                },
                None => {
                    warn!(
                        "terrain {}: no row {index} in {}: untextured",
                        ctx.path(),
                        layer.table_name()
                    );
                    (None, None)
                }
            };
            let mesh = layer_mesh(&terrain.land, layer, &faces);
            let label = match water {
                true => format!("water/{index}"),
                false => layer_label(layer, index),
            };
            terrain.layers.push(TerrainLayerMesh {
                layer,
                index,
                water,
                name,
                texture,
                material,
                faces: faces.len(),
                mesh: ctx.add_labeled_asset(label, mesh),
            });
        }
        Ok(terrain)
    }

    fn extensions(&self) -> &[&str] {
        &["msh"]
    }
}

/// `Land.map` (`*.map`).
impl ParsedAsset for ArealMap {
    const EXTENSIONS: &'static [&'static str] = &["map"];

    fn parse(bytes: &[u8]) -> Result<Self, FormatError> {
        Ok(ArealMap {
            map: LandMap::parse(bytes, Mode::Compatible)?,
        })
    }
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

    /// A 3 x 3 heightfield rising along original +Y (north): face 0 has
    /// layer 1 texture 2 and layer 2 texture 5, the others layer 1 texture 0;
    /// face 7 is water; vertex 1 has layer-1 weight 0.25.
    fn slope() -> LandMsh {
        let mut land = land_from_heightfield(&Heightfield {
            cols: 3,
            rows: 3,
            origin: [0.0, 0.0],
            spacing: 10.0,
            heights: vec![0.0, 0.0, 0.0, 5.0, 5.0, 5.0, 10.0, 10.0, 10.0],
            block: 2,
        })
        .unwrap();
        for face in &mut land.faces {
            face.set_layer_textures(0, None);
        }
        land.faces[0].set_layer_textures(2, Some(5));
        // The last face is water.
        land.faces[7].flags |= iron3d_formats::terrain::land_msh::WATER_FIELD1;
        let mut weights = vec![1.0; 9];
        weights[1] = 0.25;
        land.set_layer1_weights(&weights);
        land
    }

    /// A float attribute as rows of components.
    fn floats(mesh: &Mesh, id: bevy::mesh::MeshVertexAttribute) -> Vec<Vec<f32>> {
        match mesh.attribute(id).unwrap() {
            VertexAttributeValues::Float32x2(v) => v.iter().map(|a| a.to_vec()).collect(),
            VertexAttributeValues::Float32x3(v) => v.iter().map(|a| a.to_vec()).collect(),
            VertexAttributeValues::Float32x4(v) => v.iter().map(|a| a.to_vec()).collect(),
            other => panic!("unexpected attribute {other:?}"),
        }
    }

    #[test]
    fn faces_group_by_layer_and_texture_index() {
        let groups = layer_groups(&slope());
        let keys: Vec<_> = groups.keys().copied().collect();
        assert_eq!(
            keys,
            [
                (GroundLayer::One, 0, false),
                (GroundLayer::One, 0, true),
                (GroundLayer::One, 2, false),
                (GroundLayer::Two, 5, false)
            ]
        );
        assert_eq!(groups[&(GroundLayer::One, 0, false)].len(), 6);
        assert_eq!(groups[&(GroundLayer::One, 0, true)], [7]);
        assert_eq!(groups[&(GroundLayer::One, 2, false)], [0]);
        assert_eq!(groups[&(GroundLayer::Two, 5, false)], [0]);
        let mut land = slope();
        land.faces.clear();
        assert!(layer_groups(&land).is_empty());
    }

    #[test]
    fn the_water_box_bounds_the_water_faces_at_their_level() {
        let land = slope();
        let vertices = land.faces[7]
            .vertices
            .map(|v| land.positions[usize::from(v)]);
        let water = WaterSurface::of(&land).expect("face 7 is water");
        let level = vertices.iter().map(|p| p[2]).fold(f32::MIN, f32::max);
        assert_eq!(water.level, level);
        for p in vertices {
            assert!((0..2).all(|k| water.min[k] <= p[k] && p[k] <= water.max[k]));
        }
        assert!(vertices.iter().any(|p| p[0] == water.min[0]));
        assert!(vertices.iter().any(|p| p[1] == water.max[1]));
        let mut dry = land;
        dry.faces[7].flags = 0;
        assert_eq!(WaterSurface::of(&dry), None);
    }

    #[test]
    fn layer_one_mesh_is_opaque_y_up_with_stream_5_uvs() {
        let land = slope();
        let faces: Vec<usize> = (0..land.faces.len()).collect();
        let mesh = layer_mesh(&land, GroundLayer::One, &faces);
        assert_eq!(mesh.indices().unwrap().len(), 8 * 3, "2 x 2 quads");
        let positions = floats(&mesh, Mesh::ATTRIBUTE_POSITION);
        assert_eq!(positions.len(), 9);
        // Original (x, y, z) = (0, 20, 10): north and high.
        assert!(positions.contains(&vec![0.0, 10.0, -20.0]), "{positions:?}");
        let normals = floats(&mesh, Mesh::ATTRIBUTE_NORMAL);
        assert!(normals.iter().all(|n| n[1] > 0.5), "{normals:?}");
        let uvs = floats(&mesh, Mesh::ATTRIBUTE_UV_0);
        let colours = floats(&mesh, Mesh::ATTRIBUTE_COLOR);
        for (i, p) in positions.iter().enumerate() {
            // u = x / 50, v = (max y - y) / 50 with y = -z in Bevy's frame.
            let (u, v) = (uvs[i][0], uvs[i][1]);
            assert!((u - p[0] / 50.0).abs() < 0.01 && (v - (20.0 + p[2]) / 50.0).abs() < 0.01);
            assert_eq!(colours[i], [1.0; 4]);
        }
        // Faces stay counter-clockwise seen from above (+Y) after the mapping.
        let idx: Vec<usize> = mesh.indices().unwrap().iter().collect();
        let p = |i: usize| bevy::math::Vec3::from_slice(&positions[idx[i]]);
        let n = (p(1) - p(0)).cross(p(2) - p(0));
        assert!(n.y > 0.0, "front face points up: {n}");
    }

    #[test]
    fn layer_two_mesh_keeps_only_its_faces_with_alpha_one_minus_weight() {
        let land = slope();
        let mesh = layer_mesh(&land, GroundLayer::Two, &[0]);
        assert_eq!(mesh.indices().unwrap().len(), 3);
        let colours = floats(&mesh, Mesh::ATTRIBUTE_COLOR);
        assert_eq!(colours.len(), 3, "only the face's vertices");
        let vertices = land.faces[0].vertices.map(usize::from);
        for (k, v) in vertices.into_iter().enumerate() {
            assert_eq!(colours[k][3], 1.0 - land.layer1_weight(v));
        }
        assert!(
            colours.iter().any(|c| c[3] == 0.75),
            "vertex 1: weight 0.25"
        );
    }

    #[test]
    fn layer_names_select_the_entry_or_its_suffixed_member() {
        let entry = |name: &str| EntryInfo {
            name: name.into(),
            type_id: 0,
            attr1: 0,
            attr2: 0,
            attr3: 0,
        };
        let dir = [
            entry("L04X.0"),
            entry("l04.0"),
            entry("L04.1"),
            entry("GRASS"),
        ];
        assert_eq!(texture_entry(&dir, "L04").unwrap().name, "l04.0");
        assert_eq!(texture_entry(&dir, "grass").unwrap().name, "GRASS");
        assert!(texture_entry(&dir, "WATER").is_none());
        assert!(texture_entry(&dir, "L04X.").is_none());
    }

    #[test]
    fn tables_sit_beside_the_land_file() {
        let p = AssetPath::parse("iron://maps\\MAP01\\land.MSH");
        assert_eq!(
            sibling(&p, "Land1.wea").to_string(),
            "iron://maps\\MAP01\\Land1.wea"
        );
        let p = AssetPath::parse("iron://MAPS/Map01/Land.msh");
        assert_eq!(
            sibling(&p, "Land2.wea").to_string(),
            "iron://MAPS/Map01/Land2.wea"
        );
    }
}
