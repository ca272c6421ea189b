//! `iron3d model` and `iron3d texture` end to end: the binary on files built
//! with the formats crate's writers; exit codes 0 (ok), 1 (data error), 2
//! (usage).

use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::msh::{AnimKey24, Batch20, Msh, MshParts, NONE, Node38, Slot68};
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};
use std::process::Command;

fn iron3d(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .unwrap()
}

/// Exit code 0, with the stderr in the failure message otherwise.
fn assert_success(out: &std::process::Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn entry<'p>(name: &str, type_id: &[u8; 4], payload: &'p [u8]) -> NewEntry<'p> {
    NewEntry {
        name: name.as_bytes().to_vec(),
        type_id: u32::from_le_bytes(*type_id),
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload,
    }
}

/// One node drawing one triangle.
fn triangle_model() -> Vec<u8> {
    let mut slot_index = [NONE; 15];
    slot_index[0] = 0;
    Msh::build(MshParts {
        nodes: vec![Node38 {
            hdr0: 0,
            parent_or_link: NONE,
            anim_map_start: NONE,
            fallback_key: 0,
            slot_index,
        }],
        slots: vec![Slot68 {
            tri_start: 0,
            tri_count: 0,
            batch_start: 0,
            batch_count: 1,
            aabb_min: [0.0; 3],
            aabb_max: [1.0; 3],
            sphere_center: [0.5; 3],
            sphere_radius: 1.0,
            opaque: [0; 5],
        }],
        positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        normals: vec![[0, 0, 127, 0]; 3],
        uv0: vec![[0, 0], [1024, 0], [0, 1024]],
        indices: vec![0, 1, 2],
        keys: vec![AnimKey24 {
            position: [0.0; 3],
            time: 0.0,
            rotation_wxyz: [32767, 0, 0, 0],
        }],
        batches: vec![Batch20 {
            batch_flags: 0,
            material_index_hi: 0,
            material_index: 0,
            lightmap_index: 0xFF,
            local_batch_index: 0,
            index_count: 3,
            index_start: 0,
            vertex_count: 3,
            base_vertex: 0,
        }],
        ..MshParts::default()
    })
    .unwrap()
    .to_bytes()
    .unwrap()
}

#[test]
fn model_info_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let rlb = dir.path().join("objects.rlb");
    let model = triangle_model();
    std::fs::write(&rlb, build(&[entry("TRI.msh", b"MESH", &model)]).unwrap()).unwrap();
    let out = iron3d(&[
        "model".as_ref(),
        "info".as_ref(),
        rlb.as_os_str(),
        "tri.msh".as_ref(),
    ]);
    assert_success(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("validation: ok"));
    let out = iron3d(&[
        "model".as_ref(),
        "info".as_ref(),
        rlb.as_os_str(),
        "TRI.msh".as_ref(),
        "--json".as_ref(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["vertices"], 3);
    let glb = dir.path().join("tri.glb");
    let out = iron3d(&[
        "model".as_ref(),
        "export".as_ref(),
        rlb.as_os_str(),
        "TRI.msh".as_ref(),
        glb.as_os_str(),
    ]);
    assert_success(&out);
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
        bytes.len()
    );
    // Data error: missing entry.
    let out = iron3d(&[
        "model".as_ref(),
        "info".as_ref(),
        rlb.as_os_str(),
        "NOPE".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NOPE"));
    // Usage error.
    let out = iron3d(&["model".as_ref(), "info".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn texture_info_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("Textures.lib");
    let img = Rgba8Image {
        width: 4,
        height: 2,
        pixels: (0..32).collect(),
    };
    let tex = Texm::from_rgba(&img, PixelFormat::Argb8888, Mips::Full, None)
        .unwrap()
        .to_bytes()
        .unwrap();
    std::fs::write(&lib, build(&[entry("WALL", b"Texm", &tex)]).unwrap()).unwrap();
    let out = iron3d(&[
        "texture".as_ref(),
        "info".as_ref(),
        lib.as_os_str(),
        "wall".as_ref(),
    ]);
    assert_success(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("format: 8888"));
    let png = dir.path().join("wall.png");
    let out = iron3d(&[
        "texture".as_ref(),
        "export".as_ref(),
        lib.as_os_str(),
        "WALL".as_ref(),
        png.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let out = iron3d(&[
        "texture".as_ref(),
        "export".as_ref(),
        lib.as_os_str(),
        "WALL".as_ref(),
        png.as_os_str(),
        "--mip".as_ref(),
        "9".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
}
