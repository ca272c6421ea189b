//! `iron3d play --screenshot` under a virtual X display (`.ci/test` runs
//! the suite inside `xvfb-run`; with no display these tests say so and
//! skip).

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};
use iron3d_formats::archive::Mode;
use iron3d_formats::demo;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::tma;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

/// A cache directory of this test run: the embedded demo install is built
/// there, not in the user's cache.
fn cache_home() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp cache"))
        .path()
}

/// Whether a display is named; prints why a test is skipped when not.
fn have_display(test: &str) -> bool {
    let named = std::env::var("DISPLAY").is_ok_and(|d| !d.is_empty());
    if !named {
        println!("{test}: skipped, DISPLAY is unset (run under xvfb-run)");
    }
    named
}

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .env("XDG_CACHE_HOME", cache_home())
        .output()
        .expect("run iron3d")
}

/// Takes a screenshot of the demo mission with `extra` arguments and
/// returns its RGB pixels, width and height.
fn screenshot(extra: &[&str]) -> (Vec<[u8; 3]>, u32, u32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shot.png");
    let mut args = vec![
        "play",
        "--screenshot",
        path.to_str().unwrap(),
        "--frames",
        "5",
    ];
    args.extend_from_slice(extra);
    let out = iron3d(&args);
    assert!(
        out.status.success(),
        "status {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&path).expect("the PNG is written");
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .expect("a PNG");
    let rgb = image.try_into_dynamic().expect("RGB image").to_rgb8();
    let (w, h) = rgb.dimensions();
    (rgb.pixels().map(|p| p.0).collect(), w, h)
}

/// The sky colour as the PNG stores it (8-bit sRGB).
fn clear_colour() -> [u8; 3] {
    let c = iron3d_render::CLEAR_COLOUR.to_srgba();
    [c.red, c.green, c.blue].map(|v| (v * 255.0).round() as u8)
}

/// Whether `p` is the clear colour (within rounding of the swap chain).
fn is_sky(p: [u8; 3]) -> bool {
    let sky = clear_colour();
    (0..3).all(|k| p[k].abs_diff(sky[k]) <= 3)
}

/// Share of the pixels of rows `rows` that are the clear colour.
fn sky_share(pixels: &[[u8; 3]], w: u32, rows: std::ops::Range<u32>) -> f64 {
    let band: Vec<[u8; 3]> = rows
        .flat_map(|y| (0..w).map(move |x| (y * w + x) as usize))
        .map(|i| pixels[i])
        .collect();
    band.iter().filter(|&&p| is_sky(p)).count() as f64 / band.len() as f64
}

#[test]
fn screenshot_shows_terrain_below_and_is_not_uniform() {
    if !have_display("screenshot_shows_terrain_below_and_is_not_uniform") {
        return;
    }
    let (pixels, w, h) = screenshot(&[]);
    assert!(w >= 320 && h >= 200, "{w} x {h}");
    let distinct: std::collections::BTreeSet<[u8; 3]> = pixels.iter().copied().collect();
    assert!(distinct.len() > 50, "{} colours", distinct.len());
    let lower = sky_share(&pixels, w, h * 2 / 3..h);
    assert!(
        lower < 0.05,
        "the terrain fills the lower third ({lower:.3} sky)"
    );
}

#[test]
fn camera_override_looking_up_sees_the_sky() {
    if !have_display("camera_override_looking_up_sees_the_sky") {
        return;
    }
    // Above the player base, pitched 80° up: nothing but sky.
    let (pixels, w, h) = screenshot(&["--camera", "-336,-304,300,90,80"]);
    let all = sky_share(&pixels, w, 0..h);
    assert!(all > 0.95, "{all:.3} of the frame is sky");
}

/// The demo install written to a fresh directory, with its first
/// mission's `data.tma` path and parsed description.
fn demo_install() -> (tempfile::TempDir, std::path::PathBuf, tma::Tma) {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, demo::Scale::Demo).unwrap();
    let missions = GameDir::open(dir.path()).unwrap().missions().unwrap();
    let path = missions[0].tma.clone();
    let tma = tma::parse(&std::fs::read(&path).unwrap(), Mode::Compatible).unwrap();
    (dir, path, tma)
}

/// Share of the pixels of the `size` x `size` square at the frame centre
/// that differ between two frames of `w` pixels per row.
fn centre_difference(a: &[[u8; 3]], b: &[[u8; 3]], w: u32, h: u32, size: u32) -> f64 {
    let (x0, y0) = ((w - size) / 2, (h - size) / 2);
    let differ = (y0..y0 + size)
        .flat_map(|y| (x0..x0 + size).map(move |x| (y * w + x) as usize))
        .filter(|&i| (0..3).any(|k| a[i][k].abs_diff(b[i][k]) > 8))
        .count();
    differ as f64 / f64::from(size * size)
}

#[test]
fn deleting_a_placed_building_changes_the_pixels_where_it_stood() {
    if !have_display("deleting_a_placed_building_changes_the_pixels_where_it_stood") {
        return;
    }
    let (dir, tma_path, mut mission) = demo_install();
    let index = mission
        .objects
        .iter()
        .position(|o| tma::ObjectKind::from_raw(o.raw_kind) == Some(tma::ObjectKind::Building))
        .expect("the demo mission places a building");
    let [x, y, z] = mission.objects[index].position;
    // 40 units south and 30 up, looking north at the building: it is at the
    // centre of the frame (pitch -atan(30 / 40)).
    let pitch = -(30.0f32 / 40.0).atan().to_degrees();
    let camera = format!("{x},{},{},90,{pitch}", y - 40.0, z + 30.0);
    let game_dir = dir.path().to_str().unwrap();
    let args = ["--game-dir", game_dir, "--camera", &camera];
    let (with, w, h) = screenshot(&args);

    mission.objects.remove(index);
    std::fs::write(&tma_path, mission.to_bytes().unwrap()).unwrap();
    let (without, w2, h2) = screenshot(&args);
    assert_eq!((w, h), (w2, h2));
    let changed = centre_difference(&with, &without, w, h, 40);
    assert!(changed > 0.5, "{changed:.3} of the centre changed");
}

#[test]
fn malformed_camera_is_a_usage_error() {
    let out = iron3d(&["play", "--camera", "1,2,3", "--screenshot", "x.png"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("x,y,z,yaw,pitch"), "{err}");
}

#[test]
fn frames_without_screenshot_is_a_usage_error() {
    assert_eq!(iron3d(&["play", "--frames", "3"]).status.code(), Some(2));
}
