//! What `iron3d terrain info` and `iron3d map route` print, and their exit
//! codes.

#[path = "../formats/tests/support/areals.rs"]
mod areals;
mod common;

use areals::unit_squares_in_a_row;
use common::{Out, iron3d, run};
use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield, land_map_from_polygons};
use std::path::Path;

/// Runs `iron3d <args> <file> <rest>` in a directory holding `data` as
/// `file`, so that the output names the file as given.
fn run_on(file: &str, data: &[u8], args: &[&str], rest: &[String]) -> Out {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), data).unwrap();
    run(iron3d()
        .current_dir(dir.path())
        .args(args)
        .arg(file)
        .args(rest))
}

/// `iron3d terrain info <file> [--json]` on the bytes `data` of `file`.
fn terrain_info_command(file: &str, data: &[u8], json: bool) -> Out {
    let json = if json {
        vec!["--json".to_string()]
    } else {
        Vec::new()
    };
    run_on(file, data, &["terrain", "info"], &json)
}

/// `iron3d terrain info <LAND.MSH> [--json]`.
fn run_terrain_info(path: &Path, json: bool) -> Out {
    let mut cmd = iron3d();
    cmd.args(["terrain", "info"]).arg(path);
    if json {
        cmd.arg("--json");
    }
    run(&mut cmd)
}

/// The coordinates of a route as arguments.
fn points(from: [f32; 2], to: [f32; 2]) -> Vec<String> {
    [from[0], from[1], to[0], to[1]]
        .iter()
        .map(f32::to_string)
        .collect()
}

/// `iron3d map route <file> <x1> <y1> <x2> <y2>` on the bytes `data` of
/// `file`.
fn map_route_command(file: &str, data: &[u8], from: [f32; 2], to: [f32; 2]) -> Out {
    run_on(file, data, &["map", "route"], &points(from, to))
}

/// `iron3d map route <LAND.MAP> <x1> <y1> <x2> <y2>`.
fn run_map_route(path: &Path, from: [f32; 2], to: [f32; 2]) -> Out {
    run(iron3d()
        .args(["map", "route"])
        .arg(path)
        .args(points(from, to)))
}

fn land_bytes() -> Vec<u8> {
    let heights = (0..12).map(|i| i as f32).collect();
    let mut land = land_from_heightfield(&Heightfield {
        cols: 4,
        rows: 3,
        origin: [10.0, 20.0],
        spacing: 5.0,
        heights,
        block: 2,
    })
    .unwrap();
    land.faces[0].flags = 0x0020_0040 | 0x0000_0080 | 0x8000_0000;
    land.faces[1].flags = 0x0000_0040;
    land.to_bytes().unwrap()
}

#[test]
fn terrain_info_text_lists_streams_counts_bounds_and_masks() {
    let out = terrain_info_command("Land.msh", &land_bytes(), false);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    let text = out.stdout;
    for line in [
        "  type  1 'Land': 2 x 38 bytes, attr2 0",
        "  type  2 'Land': 2 x 68 bytes, attr2 0",
        "  type 21 'Land': 12 x 28 bytes, attr2 0",
        "vertices 12, faces 12",
        "faces per level of detail: LOD 0: 12",
        "bounds: x 10 .. 25, y 20 .. 30, z (up) 0 .. 11",
        "stream 14: present",
        "face masks: 3 distinct",
        "  full bits: 0x00000040 x2, 0x00000080 x1, 0x00200000 x1, 0x80000000 x1",
        "  compactMain16 bits: 0x2000 x2, 0x8000 x1",
        "  compactMaterial6 bits: 0x20 x1",
        "  faces with bits outside both tables: 1",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
    let stream_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  type")).collect();
    let types: Vec<&str> = stream_lines.iter().map(|l| l[7..9].trim()).collect();
    assert_eq!(types, ["1", "2", "3", "4", "5", "18", "14", "11", "21"]);
}

#[test]
fn terrain_info_json_is_machine_readable() {
    let out = terrain_info_command("Land.msh", &land_bytes(), true);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["faces"], 12);
    assert_eq!(v["streams"][8]["type_id"], 21);
    assert_eq!(v["masks"]["main16_bits"][0]["bit"], "0x2000");
    assert_eq!(v["bounds_max"][0], 25.0);
}

#[test]
fn terrain_info_reports_a_bad_file_with_exit_1() {
    let mut bytes = land_bytes();
    bytes.truncate(100);
    let out = terrain_info_command("Land.msh", &bytes, false);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("error: Land.msh: "),
        "{}",
        out.stderr
    );
    let missing = run_terrain_info(Path::new("/nonexistent/Land.msh"), false);
    assert_eq!(missing.code, 1);
}

fn map_bytes() -> Vec<u8> {
    let shapes = unit_squares_in_a_row(&[0.0, 1.0, 2.0, 4.0]);
    land_map_from_polygons(&shapes, [5, 1])
        .unwrap()
        .to_bytes()
        .unwrap()
}

#[test]
fn map_route_prints_areals_and_crossed_edges() {
    let out = map_route_command("Land.map", &map_bytes(), [0.5, 0.5], [2.5, 0.5]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "areals: 0 1 2\ncrossed edges: 2\n  areal 0 edge 1 -> areal 1 edge 3\n  areal 1 edge 1 -> areal 2 edge 3\nlength: 2.000\n"
    );
}

#[test]
fn map_route_exits_1_when_unreachable_or_outside() {
    let out = map_route_command("Land.map", &map_bytes(), [0.5, 0.5], [4.5, 0.5]);
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("areal 3 cannot be reached from areal 0"),
        "{}",
        out.stderr
    );
    let out = map_route_command("Land.map", &map_bytes(), [3.5, 0.5], [0.5, 0.5]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("the start point lies in no areal"),
        "{}",
        out.stderr
    );
    let out = run_map_route(Path::new("/nonexistent/Land.map"), [0.0; 2], [0.0; 2]);
    assert_eq!(out.code, 1);
}
