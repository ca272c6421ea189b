//! Binary glTF 2.0 export of an MSH model: the Node38 hierarchy with each
//! node's fallback pose (engine-local: conjugated once), the geometry of each
//! node's slot for one state/LOD as one primitive per Batch20, UV0 (and UV1
//! as `TEXCOORD_1`), and optionally each batch material's texture embedded
//! as PNG (resolved through WEAR, MAT0 and `Textures.lib` by
//! [`resolve_materials`]).
//!
//! Coordinates are written as stored (no axis conversion). The JSON chunk is
//! built with serde_json; its maps are ordered, so the output is
//! deterministic.

use crate::archive::{Mode, nres::Nres};
use crate::error::{FormatError, Problem, Result};
use crate::gamedir::GameDir;
use crate::mat0::{Mat0, resolve_material};
use crate::msh::{Batch20, Msh, Nodes, Pose, decode_normal, decode_uv};
use crate::texm::{PaletteLib, Texm, png_bytes};
use crate::wear::Wear;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const FORMAT: &str = "glTF";
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;

/// The texture of one WEAR material, ready to embed.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportMaterial {
    /// The material (MAT0) name.
    pub name: String,
    /// The phase-0 texture as PNG bytes (`None`: untextured or not found).
    pub png: Option<Vec<u8>>,
}

/// What to export.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Native state (0..3) whose slots are exported.
    pub state: usize,
    /// Native LOD (0..5).
    pub lod: usize,
    /// Materials by `Batch20::material_index` (missing: a plain material).
    pub materials: BTreeMap<u8, ExportMaterial>,
}

/// Accumulates the binary chunk and its buffer views/accessors.
struct Bin {
    data: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Bin {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let mut v =
            json!({ "buffer": 0, "byteOffset": self.data.len(), "byteLength": bytes.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.data.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    fn accessor(
        &mut self,
        view: usize,
        component: u32,
        count: usize,
        ty: &str,
        extra: Value,
    ) -> usize {
        let mut a =
            json!({ "bufferView": view, "componentType": component, "count": count, "type": ty });
        if let (Some(a), Value::Object(e)) = (a.as_object_mut(), extra) {
            a.extend(e);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn floats(
        &mut self,
        values: impl Iterator<Item = f32>,
        count: usize,
        ty: &str,
        extra: Value,
    ) -> usize {
        let bytes: Vec<u8> = values.flat_map(f32::to_le_bytes).collect();
        let view = self.view(&bytes, Some(ARRAY_BUFFER));
        self.accessor(view, FLOAT, count, ty, extra)
    }
}

/// A unit normal for glTF (zero vectors become +Z).
fn unit(n: [f32; 3]) -> [f32; 3] {
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        n.map(|v| v / len)
    } else {
        [0.0, 0.0, 1.0]
    }
}

/// The model as a GLB file. The model must pass [`Msh::validate`].
pub fn export_glb(msh: &Msh, options: &ExportOptions) -> Result<Vec<u8>> {
    msh.validate()?;
    let mut bin = Bin {
        data: Vec::new(),
        views: Vec::new(),
        accessors: Vec::new(),
    };
    let n = msh.positions.len();
    let finite = msh.positions.iter().flatten().all(|v| v.is_finite());
    let bounds = if finite && n > 0 {
        let lo = (0..3).map(|i| msh.positions.iter().map(|p| p[i]).fold(f32::MAX, f32::min));
        let hi = (0..3).map(|i| msh.positions.iter().map(|p| p[i]).fold(f32::MIN, f32::max));
        json!({ "min": lo.collect::<Vec<_>>(), "max": hi.collect::<Vec<_>>() })
    } else {
        json!({})
    };
    let mut attributes = serde_json::Map::new();
    attributes.insert(
        "POSITION".into(),
        json!(bin.floats(msh.positions.iter().flatten().copied(), n, "VEC3", bounds)),
    );
    attributes.insert(
        "NORMAL".into(),
        json!(bin.floats(
            msh.normals.iter().flat_map(|&p| unit(decode_normal(p))),
            n,
            "VEC3",
            json!({})
        )),
    );
    attributes.insert(
        "TEXCOORD_0".into(),
        json!(bin.floats(
            msh.uv0.iter().flat_map(|&u| decode_uv(u)),
            n,
            "VEC2",
            json!({})
        )),
    );
    if let Some(uv1) = &msh.uv1 {
        attributes.insert(
            "TEXCOORD_1".into(),
            json!(bin.floats(uv1.iter().flat_map(|&u| decode_uv(u)), n, "VEC2", json!({}))),
        );
    }

    // Materials and their images, in material index order.
    let used: std::collections::BTreeSet<u8> =
        msh.batches.iter().map(|b| b.material_index).collect();
    let (mut materials, mut textures, mut images) = (Vec::new(), Vec::new(), Vec::new());
    let mut material_of = BTreeMap::new();
    for &index in &used {
        let given = options.materials.get(&index);
        let mut pbr = json!({ "metallicFactor": 0.0, "roughnessFactor": 1.0 });
        if let Some(png) = given.and_then(|m| m.png.as_ref()) {
            let view = bin.view(png, None);
            images.push(json!({ "bufferView": view, "mimeType": "image/png" }));
            textures.push(json!({ "source": images.len() - 1, "sampler": 0 }));
            pbr["baseColorTexture"] = json!({ "index": textures.len() - 1 });
        }
        let name = given.map_or_else(|| format!("material {index}"), |m| m.name.clone());
        materials.push(json!({ "name": name, "pbrMetallicRoughness": pbr, "alphaMode": "MASK" }));
        material_of.insert(index, materials.len() - 1);
    }

    // One primitive per batch of a slot; indices are global (base_vertex added).
    let mut meshes = Vec::new();
    let primitive = |bin: &mut Bin, batches: &[Batch20]| -> Option<Value> {
        let mut prims = Vec::new();
        for b in batches {
            let idx = msh.batch_indices(b)?;
            let whole = idx.len() - idx.len() % 3;
            if whole == 0 {
                continue;
            }
            let words: Vec<u8> = idx[..whole]
                .iter()
                .flat_map(|&i| (b.base_vertex + i as u32).to_le_bytes())
                .collect();
            let view = bin.view(&words, Some(ELEMENT_ARRAY_BUFFER));
            let acc = bin.accessor(view, UNSIGNED_INT, whole, "SCALAR", json!({}));
            prims.push(json!({
                "attributes": attributes,
                "indices": acc,
                "material": material_of[&b.material_index],
                "mode": 4
            }));
        }
        (!prims.is_empty()).then(|| json!({ "primitives": prims }))
    };
    let slot_batches = |slot: usize| -> &[Batch20] {
        let s = &msh.slots.slots[slot];
        let start = s.batch_start as usize;
        &msh.batches[start..start + s.batch_count as usize]
    };

    let mut nodes = Vec::new();
    let mut roots = Vec::new();
    match &msh.nodes {
        Nodes::Node38(list) => {
            let names = msh.node_names();
            let locals = msh.local_poses(&vec![None; list.len()])?;
            let mut children: Vec<Vec<usize>> = vec![Vec::new(); list.len()];
            for (i, node) in list.iter().enumerate() {
                match node.parent() {
                    Some(p) => children[p].push(i),
                    None => roots.push(i),
                }
            }
            for (i, (node, pose)) in list.iter().zip(&locals).enumerate() {
                let name = names
                    .as_ref()
                    .and_then(|v| v.get(i).cloned().flatten())
                    .map_or_else(
                        || format!("node {i}"),
                        |b| String::from_utf8_lossy(&b).into_owned(),
                    );
                let mut v = json!({ "name": name });
                set_pose(&mut v, pose);
                if !children[i].is_empty() {
                    v["children"] = json!(children[i]);
                }
                if let Some(slot) = node.slot(options.state, options.lod)
                    && let Some(mesh) = primitive(&mut bin, slot_batches(slot as usize))
                {
                    meshes.push(mesh);
                    v["mesh"] = json!(meshes.len() - 1);
                }
                nodes.push(v);
            }
        }
        Nodes::Raw24(_) => {
            // Unknown node layout: all batches under one root.
            let mut v = json!({ "name": "model" });
            if let Some(mesh) = primitive(&mut bin, &msh.batches) {
                meshes.push(mesh);
                v["mesh"] = json!(0);
            }
            nodes.push(v);
            roots.push(0);
        }
    }

    let mut doc = json!({
        "asset": { "version": "2.0", "generator": "iron3d model export" },
        "scene": 0,
        "scenes": [{ "nodes": roots }],
        "nodes": nodes,
        "buffers": [{ "byteLength": bin.data.len() }],
        "bufferViews": bin.views,
        "accessors": bin.accessors,
    });
    if !meshes.is_empty() {
        doc["meshes"] = json!(meshes);
    }
    if !materials.is_empty() {
        doc["materials"] = json!(materials);
    }
    if !images.is_empty() {
        doc["images"] = json!(images);
        doc["textures"] = json!(textures);
        doc["samplers"] = json!([{ "wrapS": 10497, "wrapT": 10497 }]);
    }
    glb(&doc, bin.data)
}

/// Writes a node's TRS (omitting identity parts).
fn set_pose(v: &mut Value, pose: &Pose) {
    if pose.translation != [0.0; 3] && pose.translation.iter().all(|t| t.is_finite()) {
        v["translation"] = json!(pose.translation);
    }
    let q = pose.rotation;
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    if q != [0.0, 0.0, 0.0, 1.0] && len > 0.0 && len.is_finite() {
        v["rotation"] = json!(q.map(|c| c / len));
    }
}

/// Packs a JSON document and a binary chunk as GLB.
fn glb(doc: &Value, mut bin: Vec<u8>) -> Result<Vec<u8>> {
    let mut json = serde_json::to_vec(doc).map_err(|e| {
        FormatError::new(
            FORMAT,
            0,
            Problem::Io {
                message: e.to_string(),
            },
        )
    })?;
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let total = u32::try_from(total)
        .map_err(|_| FormatError::overflow(FORMAT, 0, "GLB larger than 4 GiB"))?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

/// Resolves the textures of the model's batch materials through an install:
/// the WEAR `<stem>.wea` in the model's archive, MAT0 entries of
/// `Material.lib` (name, then `DEFAULT`, then entry 0), the phase-0 texture
/// of `Textures.lib` (an indexed texture uses the `Palettes.lib` palette its
/// name suffix selects, when there is one). Returns the materials and the
/// problems met on the way (each a missing texture, not a failure).
pub fn resolve_materials(
    game: &GameDir,
    archive: &Nres,
    model_entry: &[u8],
    msh: &Msh,
) -> Result<(BTreeMap<u8, ExportMaterial>, Vec<String>)> {
    let stem = match model_entry.iter().rposition(|&b| b == b'.') {
        Some(dot) => &model_entry[..dot],
        None => model_entry,
    };
    let wea = [stem, b".wea"].concat();
    let wear_index = archive
        .find(&wea)
        .ok_or_else(|| FormatError::missing("WEAR", String::from_utf8_lossy(&wea)))?;
    let wear = Wear::parse(archive.payload(wear_index), Mode::Compatible)
        .map_err(|e| e.in_entry(wear_index, String::from_utf8_lossy(&wea)))?;
    let open = |name: &str| -> Result<Vec<u8>> {
        let path = game.resolve(name.as_bytes())?;
        crate::fsutil::read_file(&path)
    };
    let materials_bytes = open("Material.lib")?;
    let textures_bytes = open("Textures.lib")?;
    let palettes = open("Palettes.lib")
        .ok()
        .and_then(|b| PaletteLib::parse(&b, Mode::Compatible).ok());
    let materials =
        Nres::parse(&materials_bytes, Mode::Compatible).map_err(|e| e.in_file("Material.lib"))?;
    let textures =
        Nres::parse(&textures_bytes, Mode::Compatible).map_err(|e| e.in_file("Textures.lib"))?;

    let mut out = BTreeMap::new();
    let mut problems = Vec::new();
    let used: std::collections::BTreeSet<u8> =
        msh.batches.iter().map(|b| b.material_index).collect();
    for index in used {
        let resolved = resolve_material(&wear, index as usize, materials.len(), |n| {
            materials.find(n)
        })?;
        let entry = &materials.entries()[resolved.entry];
        let name = entry.display_name();
        let mat = match Mat0::parse(materials.payload(resolved.entry), entry.attr1, entry.attr2) {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("material {index} '{name}': {e}"));
                out.insert(index, ExportMaterial { name, png: None });
                continue;
            }
        };
        let texture = mat
            .phases
            .first()
            .map(|p| p.texture().to_vec())
            .unwrap_or_default();
        let png = if texture.is_empty() {
            None
        } else {
            match texture_png(&textures, &texture, palettes.as_ref()) {
                Ok(png) => Some(png),
                Err(e) => {
                    problems.push(format!(
                        "material {index} '{name}': texture {}: {e}",
                        String::from_utf8_lossy(&texture)
                    ));
                    None
                }
            }
        };
        out.insert(index, ExportMaterial { name, png });
    }
    Ok((out, problems))
}

/// The base level of texture `name` of a texture library as PNG.
fn texture_png(textures: &Nres, name: &[u8], palettes: Option<&PaletteLib>) -> Result<Vec<u8>> {
    let i = textures.find(name).ok_or_else(|| {
        FormatError::missing(
            "Texm",
            format!("{} in Textures.lib", String::from_utf8_lossy(name)),
        )
    })?;
    let texm = Texm::parse(textures.payload(i))?;
    let palette = match (&texm.palette, palettes) {
        (Some(_), Some(lib)) => lib.for_texture(name)?,
        _ => None,
    };
    png_bytes(&texm.decode_level_with(0, palette)?)
}
