//! `iron3d terrain info` and `iron3d map route` as a user runs them, on
//! files written by the terrain builders.

#[path = "../formats/tests/support/areals.rs"]
mod areals;

use areals::unit_squares_in_a_row;
use iron3d_formats::terrain::build::{Heightfield, land_from_heightfield, land_map_from_polygons};
use std::process::{Command, Output};

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .output()
        .expect("run iron3d")
}

fn files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let heights = (0..9).map(|i| i as f32).collect();
    let land = land_from_heightfield(&Heightfield {
        cols: 3,
        rows: 3,
        origin: [0.0, 0.0],
        spacing: 1.0,
        heights,
        block: 1,
    })
    .expect("land");
    std::fs::write(dir.path().join("Land.msh"), land.to_bytes().expect("msh")).expect("write");
    // Three unit squares in a row at x = -1, 0, 1 and an island at x = 5.
    let shapes = unit_squares_in_a_row(&[-1.0, 0.0, 1.0, 5.0]);
    let map = land_map_from_polygons(&shapes, [7, 1]).expect("map");
    std::fs::write(
        dir.path().join("Land.map"),
        map.to_bytes().expect("map bytes"),
    )
    .expect("write");
    dir
}

fn path(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path()
        .join(name)
        .to_str()
        .expect("utf-8 path")
        .to_string()
}

#[test]
fn terrain_info_prints_text_and_json() {
    let dir = files();
    let msh = path(&dir, "Land.msh");
    let text = iron3d(&["terrain", "info", &msh]);
    assert!(text.status.success(), "{text:?}");
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(out.contains("vertices 9, faces 8"), "{out}");
    let json = iron3d(&["terrain", "info", &msh, "--json"]);
    assert!(json.status.success(), "{json:?}");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["slots"], 4);
}

#[test]
fn terrain_info_fails_with_1_on_a_bad_file() {
    let dir = files();
    let bad = path(&dir, "Land.map"); // not a terrain
    let out = iron3d(&["terrain", "info", &bad]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("missing"),
        "{out:?}"
    );
}

#[test]
fn map_route_prints_areals_and_edges_with_negative_coordinates() {
    let dir = files();
    let map = path(&dir, "Land.map");
    let out = iron3d(&["map", "route", &map, "-0.5", "0.5", "1.5", "0.5"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("areals: 0 1 2\ncrossed edges: 2\n"),
        "{text}"
    );
}

#[test]
fn map_route_exits_1_when_unreachable_or_outside_and_2_on_usage() {
    let dir = files();
    let map = path(&dir, "Land.map");
    let out = iron3d(&["map", "route", &map, "0.5", "0.5", "5.5", "0.5"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot be reached"),
        "{out:?}"
    );
    let out = iron3d(&["map", "route", &map, "3.5", "0.5", "0.5", "0.5"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = iron3d(&["map", "route", &map, "0.5"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
