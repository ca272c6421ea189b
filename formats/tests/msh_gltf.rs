//! glTF export: the GLB is read back with a small parser (header, chunks,
//! accessors) and checked against the model.

mod msh_support;
mod support;

use iron3d_formats::gltf::{ExportMaterial, ExportOptions, export_glb};
use iron3d_formats::msh::Msh;
use iron3d_formats::texm::{Rgba8Image, png_bytes};
use msh_support::*;
use serde_json::Value;
use support::expect_error;

/// A parsed GLB: the JSON document and the binary chunk.
struct Glb {
    doc: Value,
    bin: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn read_glb(b: &[u8]) -> Glb {
    assert_eq!(&b[0..4], b"glTF");
    assert_eq!(u32_at(b, 4), 2);
    assert_eq!(u32_at(b, 8) as usize, b.len());
    let json_len = u32_at(b, 12) as usize;
    assert_eq!(&b[16..20], b"JSON");
    assert_eq!(json_len % 4, 0);
    let doc = serde_json::from_slice(&b[20..20 + json_len]).unwrap();
    let at = 20 + json_len;
    let bin_len = u32_at(b, at) as usize;
    assert_eq!(&b[at + 4..at + 8], b"BIN\0");
    assert_eq!(at + 8 + bin_len, b.len());
    Glb {
        doc,
        bin: b[at + 8..].to_vec(),
    }
}

impl Glb {
    /// The bytes of accessor `i` (tightly packed views only).
    fn accessor_bytes(&self, i: usize) -> &[u8] {
        let a = &self.doc["accessors"][i];
        let v = &self.doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
        let off = v["byteOffset"].as_u64().unwrap() as usize;
        let len = v["byteLength"].as_u64().unwrap() as usize;
        &self.bin[off..off + len]
    }
    fn floats(&self, i: usize) -> Vec<f32> {
        self.accessor_bytes(i)
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
    fn u32s(&self, i: usize) -> Vec<u32> {
        self.accessor_bytes(i)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}

#[test]
fn export_keeps_hierarchy_geometry_and_uvs() {
    let m = Msh::build(two_node_parts()).unwrap();
    let glb = read_glb(&export_glb(&m, &ExportOptions::default()).unwrap());
    let d = &glb.doc;
    assert_eq!(d["asset"]["version"], "2.0");
    assert_eq!(d["scenes"][0]["nodes"], serde_json::json!([0]));
    assert_eq!(d["nodes"][0]["name"], "body");
    assert_eq!(d["nodes"][0]["children"], serde_json::json!([1]));
    assert_eq!(d["nodes"][1]["name"], "turret");
    // Fallback poses: root (5, 5, 5), child (0, 3, 0).
    assert_eq!(
        d["nodes"][0]["translation"],
        serde_json::json!([5.0, 5.0, 5.0])
    );
    assert_eq!(
        d["nodes"][1]["translation"],
        serde_json::json!([0.0, 3.0, 0.0])
    );
    let prim = &d["meshes"][d["nodes"][1]["mesh"].as_u64().unwrap() as usize]["primitives"][0];
    let pos = glb.floats(prim["attributes"]["POSITION"].as_u64().unwrap() as usize);
    assert_eq!(pos.len(), 24);
    assert_eq!(&pos[12..15], &[0.0, 0.0, 1.0]);
    let acc = &d["accessors"][prim["attributes"]["POSITION"].as_u64().unwrap() as usize];
    assert_eq!(acc["max"], serde_json::json!([1.0, 1.0, 1.0]));
    let uv = glb.floats(prim["attributes"]["TEXCOORD_0"].as_u64().unwrap() as usize);
    assert_eq!(&uv[10..12], &[0.5, 0.0]);
    let nrm = glb.floats(prim["attributes"]["NORMAL"].as_u64().unwrap() as usize);
    assert_eq!(&nrm[0..3], &[0.0, 0.0, 1.0]);
    // The child's batch: indices with base_vertex 4 added.
    assert_eq!(
        glb.u32s(prim["indices"].as_u64().unwrap() as usize),
        [4, 5, 6, 4, 6, 7]
    );
    assert_eq!(d["materials"].as_array().unwrap().len(), 2);
}

#[test]
fn export_embeds_given_textures() {
    let m = Msh::build(two_node_parts()).unwrap();
    let png = png_bytes(&Rgba8Image {
        width: 1,
        height: 1,
        pixels: vec![1, 2, 3, 4],
    })
    .unwrap();
    let mut options = ExportOptions::default();
    options.materials.insert(
        1,
        ExportMaterial {
            name: "METAL".into(),
            png: Some(png.clone()),
        },
    );
    let glb = read_glb(&export_glb(&m, &options).unwrap());
    let d = &glb.doc;
    assert_eq!(d["materials"][1]["name"], "METAL");
    assert_eq!(
        d["materials"][1]["pbrMetallicRoughness"]["baseColorTexture"]["index"],
        0
    );
    assert_eq!(d["images"][0]["mimeType"], "image/png");
    let view = &d["bufferViews"][d["images"][0]["bufferView"].as_u64().unwrap() as usize];
    let off = view["byteOffset"].as_u64().unwrap() as usize;
    assert_eq!(&glb.bin[off..off + png.len()], &png[..]);
}

#[test]
fn export_refuses_an_invalid_model() {
    let mut m = Msh::build(two_node_parts()).unwrap();
    m.batches[0].base_vertex = 100;
    expect_error(
        export_glb(&m, &ExportOptions::default()),
        0,
        "MSH: expected batch #0: base_vertex + index below the vertex count 8, found 100",
    );
}
