//! `iron3d play --screenshot`, `--capture-frame` and `--bench-frames` under
//! a virtual X display. These tests are ignored by a plain `cargo test`
//! (they need a display); `.ci/test` runs them with `--ignored` inside
//! `xvfb-run`, and there a missing display fails them.

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};
use iron3d_demo as demo;
use iron3d_formats::archive::Mode;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::tma;
use iron3d_render::camera::CameraPose;
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

/// Fails the test when no display is named: a render test that cannot
/// render must not pass.
fn require_display() {
    let named = std::env::var("DISPLAY").is_ok_and(|d| !d.is_empty());
    assert!(
        named,
        "needs a display: DISPLAY is unset (run under xvfb-run, as .ci/test does)"
    );
}

/// Runs `iron3d ARGS`. A window that could not open the display at
/// start-up (Xvfb under load has refused a connection now and then:
/// winit's `XOpenDisplayFailed`, before anything ran) is started again,
/// up to [`DISPLAY_TRIES`] times; any other failure is the run's.
fn iron3d(args: &[&str]) -> Output {
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_iron3d"))
            .args(args)
            .env("XDG_CACHE_HOME", cache_home())
            // The bindings file of a windowed run goes here, not to the
            // user's config.
            .env("XDG_CONFIG_HOME", cache_home().join("config"))
            .output()
            .expect("run iron3d")
    };
    let refused = |o: &Output| {
        !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("XOpenDisplayFailed")
    };
    let mut out = run();
    for _ in 1..DISPLAY_TRIES {
        if !refused(&out) {
            break;
        }
        eprintln!("the display refused the window; starting it again");
        out = run();
    }
    out
}

/// How many times a run whose window could not open the display starts.
const DISPLAY_TRIES: usize = 3;

/// Takes a screenshot of the demo mission with `extra` arguments and
/// returns its RGB pixels, width and height.
fn screenshot(extra: &[&str]) -> (Vec<[u8; 3]>, u32, u32) {
    decode_png(&play_output("--screenshot", "shot.png", "5", extra))
}

/// The RGB pixels, width and height of a PNG.
fn decode_png(bytes: &[u8]) -> (Vec<[u8; 3]>, u32, u32) {
    let image = Image::from_buffer(
        bytes,
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

/// The distinct colours of rows `rows`.
fn colours(pixels: &[[u8; 3]], w: u32, rows: std::ops::Range<u32>) -> usize {
    rows.flat_map(|y| (0..w).map(move |x| pixels[(y * w + x) as usize]))
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// The sum of the three channels of pixel `(x, y)` of a `w`-wide frame.
fn channel_sum(pixels: &[[u8; 3]], w: u32, x: u32, y: u32) -> i32 {
    pixels[(y * w + x) as usize]
        .iter()
        .map(|&c| i32::from(c))
        .sum()
}

/// The mean brightness (sum of the three channels) of `pixels`.
fn brightness(pixels: &[[u8; 3]]) -> f64 {
    let sum: f64 = pixels
        .iter()
        .map(|p| p.iter().map(|&c| f64::from(c)).sum::<f64>())
        .sum();
    sum / pixels.len() as f64
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn screenshot_shows_terrain_below_and_is_not_uniform() {
    require_display();
    let (pixels, w, h) = screenshot(&[]);
    assert!(w >= 320 && h >= 200, "{w} x {h}");
    let distinct = colours(&pixels, w, 0..h);
    assert!(distinct > 50, "{distinct} colours");
    // The textured terrain fills the lower third: many colours, where the
    // dome's gradient has few.
    let lower = colours(&pixels, w, h * 2 / 3..h);
    assert!(lower > 50, "{lower} colours in the lower third");
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn looking_up_sees_the_sky_dome_change_over_the_day() {
    require_display();
    // Above the player base, pitched 80° up: nothing but the dome, at the
    // demo sky's noon and at night (`--sky-time`), with the nebula behind.
    let up = ["--camera", "-336,-304,300,90,80", "--no-hud"];
    let (noon, w, h) = screenshot(&[&up[..], &["--sky-time", "07:30"]].concat());
    let (night, ..) = screenshot(&[&up[..], &["--sky-time", "20:00"]].concat());
    // The dome is a gradient, not one colour: its rings and compass points
    // differ.
    let shades = colours(&noon, w, 0..h);
    assert!(shades > 8, "{shades} colours in the noon sky");
    // Noon's sky is bright and mostly blue (the sun's glow takes a
    // corner of the view), the night's dark.
    let (day, dark) = (brightness(&noon), brightness(&night));
    assert!(day > dark + 150.0, "noon {day:.0} against night {dark:.0}");
    let blue = noon.iter().filter(|p| p[2] > p[0] && p[2] > 150).count();
    assert!(
        blue * 3 > noon.len() * 2,
        "{blue} of {} pixels blue",
        noon.len()
    );
    // At night the top of the dome is open (its alpha 0): the nebula's
    // stars show through, points far brighter than the sky 8 pixels
    // around them; by day the dome's colours cover them (the sun's glow
    // is smooth).
    let stars = |pixels: &[[u8; 3]]| {
        let sum = |x, y| channel_sum(pixels, w, x, y);
        let mut count = 0;
        for y in 8..h - 8 {
            for x in 8..w - 8 {
                let around = (sum(x - 8, y) + sum(x + 8, y) + sum(x, y - 8) + sum(x, y + 8)) / 4;
                count += usize::from(sum(x, y) > around + 150);
            }
        }
        count
    };
    let (at_night, by_day) = (stars(&night), stars(&noon));
    assert!(at_night > 200, "{at_night} star pixels at night");
    assert!(by_day < at_night / 20, "{by_day} star pixels by day");
}

/// Fog: looking level over the ground at the demo sky's 07:30, the ground
/// approaches the fog colour (the horizon's colour in the direction the
/// camera looks) with distance: rows nearer the horizon keep less of
/// their distance from it than the same rows drawn without fog.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn fog_draws_distant_ground_toward_the_fog_colour() {
    require_display();
    let sky = demo_sky();
    let time = iron3d_formats::proto::ske::ClockTime::new(0, 7, 30);
    let frame = iron3d_render::sky::frame(&sky, Some(time), 0).unwrap();
    // Heading 90° looks along the map's +y.
    let fog = frame
        .fog_colour(bevy::math::Vec3::Y)
        .map(|c| f64::from(c) * 255.0);
    let view = [
        "--camera",
        "-336,-304,45,90,-4",
        "--no-hud",
        "--paused",
        "--sky-time",
        "07:30",
    ];
    let (fogged, w, h) = screenshot(&view);
    // The same ground without fog (and without sky or shadows): how far
    // each band was from the fog colour before the fog.
    let (clear, ..) = screenshot(&[&view[..], &["--no-atmosphere"]].concat());
    let off_fog = |pixels: &[[u8; 3]], rows: std::ops::Range<f64>| {
        let rows = (rows.start * f64::from(h)) as u32..(rows.end * f64::from(h)) as u32;
        let band: Vec<f64> = rows
            .flat_map(|y| (0..w).map(move |x| (y * w + x) as usize))
            .map(|i| {
                let p = pixels[i].map(f64::from);
                (0..3).map(|k| (p[k] - fog[k]).abs()).sum::<f64>()
            })
            .collect();
        band.iter().sum::<f64>() / band.len() as f64
    };
    // What the fog leaves of each band's distance from its colour: rows
    // at the bottom, between, and just below the horizon.
    let kept = |rows: std::ops::Range<f64>| {
        off_fog(&fogged, rows.clone()) / off_fog(&clear, rows).max(1.0)
    };
    let (near, middle, far) = (kept(0.9..1.0), kept(0.55..0.6), kept(0.47..0.49));
    let shares = format!("near {near:.2}, middle {middle:.2}, far {far:.2} off {fog:?}");
    assert!(near > middle && middle > far, "{shares}");
    assert!(
        far < near * 0.75,
        "the far ground keeps a quarter less: {shares}"
    );
}

/// The sun: looking where its light comes from at the demo sky's 07:30,
/// its sprite makes the middle of the view brighter than the dome round
/// it.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_sun_shines_where_its_light_comes_from() {
    require_display();
    let sky = demo_sky();
    let time = iron3d_formats::proto::ske::ClockTime::new(0, 7, 30);
    let body = iron3d_render::sky::frame(&sky, Some(time), 0)
        .unwrap()
        .body
        .expect("the sun is up at 07:30");
    assert!(body.sun);
    let to_sun = -body.travel;
    let yaw = to_sun.y.atan2(to_sun.x).to_degrees();
    let pitch = to_sun.z.asin().to_degrees();
    let camera = format!("-336,-304,60,{yaw},{pitch}");
    let (pixels, w, h) = screenshot(&["--camera", &camera, "--no-hud", "--sky-time", "07:30"]);
    let pixels = &pixels;
    let patch = |cx: u32, cy: u32| {
        let at: Vec<[u8; 3]> = (cy - 8..cy + 8)
            .flat_map(|y| (cx - 8..cx + 8).map(move |x| pixels[(y * w + x) as usize]))
            .collect();
        brightness(&at)
    };
    let (centre, corner) = (patch(w / 2, h / 2), patch(12, 12));
    assert!(
        centre > corner + 100.0,
        "the sun's middle {centre:.0} against the dome's corner {corner:.0}"
    );
}

/// The first demo mission's sky.
fn demo_sky() -> iron3d_formats::proto::ske::Sky {
    let (_tmp, tma, _) = demo_install();
    let bytes = std::fs::read(tma.with_file_name("sky.ske")).unwrap();
    iron3d_formats::proto::ske::Sky::parse(&bytes).unwrap()
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
    let differ = centre(w, h, size)
        .filter(|&i| (0..3).any(|k| a[i][k].abs_diff(b[i][k]) > 8))
        .count();
    differ as f64 / f64::from(size * size)
}

/// The indices of the `size`×`size` pixels at the centre of a `w`×`h`
/// frame.
fn centre(w: u32, h: u32, size: u32) -> impl Iterator<Item = usize> {
    let (x0, y0) = ((w - size) / 2, (h - size) / 2);
    (y0..y0 + size).flat_map(move |y| (x0..x0 + size).map(move |x| (y * w + x) as usize))
}

/// Share of the pixels of a region of the 640×480 HUD layout (scaled to
/// the frame and centred, as the HUD draws it) that differ between two
/// frames.
fn layout_difference(a: &[[u8; 3]], b: &[[u8; 3]], w: u32, h: u32, region: [f32; 4]) -> f64 {
    let scale = (w as f32 / 640.0).min(h as f32 / 480.0);
    let (ox, oy) = (
        (w as f32 - 640.0 * scale) / 2.0,
        (h as f32 - 480.0 * scale) / 2.0,
    );
    let [x, y, rw, rh] = region.map(|v| v * scale);
    let (x0, y0) = ((ox + x) as u32, (oy + y) as u32);
    let (x1, y1) = ((x0 + rw as u32).min(w), (y0 + rh as u32).min(h));
    let pixels: Vec<usize> = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (y * w + x) as usize))
        .collect();
    let differ = pixels
        .iter()
        .filter(|&&i| (0..3).any(|k| a[i][k].abs_diff(b[i][k]) > 8))
        .count();
    differ as f64 / pixels.len().max(1) as f64
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_hud_draws_its_weapons_list_and_radar_over_the_cockpit_view() {
    require_display();
    let (hud, w, h) = screenshot(&["--paused"]);
    let (bare, ..) = screenshot(&["--paused", "--no-hud"]);
    // The weapons list (top right) and the radar (bottom middle) of the
    // original 640×480 layout.
    let weapons = layout_difference(&hud, &bare, w, h, [470.0, 8.0, 162.0, 34.0]);
    let radar = layout_difference(&hud, &bare, w, h, [272.0, 372.0, 96.0, 96.0]);
    assert!(
        weapons > 0.3,
        "weapons list: {weapons:.3} of its pixels differ"
    );
    assert!(radar > 0.3, "radar: {radar:.3} of its pixels differ");
    // At the left edge, clear of every panel (the objectives screen shows
    // in the middle at the start), the view is the same.
    let clear = layout_difference(&hud, &bare, w, h, [20.0, 250.0, 90.0, 100.0]);
    assert!(clear < 0.02, "the open view: {clear:.3} differ");
}

/// The HUD is drawn in the install's interface sprites: with the sheets
/// gone (each sprite falls back to its plain shape) the reticle and the
/// radar's disc look otherwise, and the view round them does not change.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_hud_is_drawn_in_the_installs_interface_sprites() {
    require_display();
    let (dir, ..) = demo_install();
    let game_dir = dir.path().to_str().unwrap();
    let args = ["--game-dir", game_dir, "--paused"];
    let (art, w, h) = screenshot(&args);
    for sheet in ["ui/compaund.cfg", "ui/hq.cfg", "ui/ui.lib"] {
        std::fs::remove_file(dir.path().join(sheet)).unwrap();
    }
    let (plain, ..) = screenshot(&args);
    // The reticle's circle, arcs and tick strips (docs/35 "The reticle"),
    // and the radar's disc with the base under it.
    let reticle = layout_difference(&art, &plain, w, h, [232.0, 199.0, 176.0, 82.0]);
    let radar = layout_difference(&art, &plain, w, h, [221.0, 327.0, 200.0, 153.0]);
    assert!(reticle > 0.03, "reticle: {reticle:.3} of its pixels differ");
    assert!(radar > 0.3, "radar: {radar:.3} of its pixels differ");
    let clear = layout_difference(&art, &plain, w, h, [20.0, 250.0, 90.0, 100.0]);
    assert!(clear < 0.02, "the open view: {clear:.3} differ");
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn deleting_a_placed_building_changes_the_pixels_where_it_stood() {
    require_display();
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
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn an_explosion_changes_the_pixels_where_it_plays() {
    require_display();
    let (dir, _, mission) = demo_install();
    let building = first_building(&mission);
    // The explosion 30 m south of the building and 6 m up; the camera 12 m
    // south of it and 9 m up, looking north at it (the frame's centre).
    let [x, y, z] = building.position;
    let (ey, ez) = (y - 30.0, z + 6.0);
    let pitch = -(9.0f32 / 12.0).atan().to_degrees();
    let camera = format!("{x},{},{},90,{pitch}", ey - 12.0, ez + 9.0);
    let effect = format!("FX_EXPLODE {x},{ey},{ez}");
    let game_dir = dir.path().to_str().unwrap();
    let quiet = ["--game-dir", game_dir, "--camera", &camera, "--paused"];
    let (without, w, h) = screenshot(&quiet);
    let loud = [&quiet[..], &["--effect", &effect]].concat();
    let (with, w2, h2) = screenshot(&loud);
    assert_eq!((w, h), (w2, h2));
    let changed = centre_difference(&with, &without, w, h, 30);
    assert!(changed > 0.2, "{changed:.3} of the centre changed");
}

/// Point lights on models: at night an explosion's light behind the
/// camera (its sprites out of view) brightens the wall of the building
/// the camera looks at.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn an_effects_light_brightens_the_building_wall_in_front_of_it() {
    require_display();
    let (dir, _, mission) = demo_install();
    let [x, y, z] = first_building(&mission).position;
    // The camera 16 m south of the building, 3 m up, looking level north
    // at it; the explosion (its light reaching 40 m at first) 4 m behind
    // the camera.
    let camera = format!("{x},{},{},90,0", y - 16.0, z + 3.0);
    let lamp = format!("FX_EXPLODE {x},{},{}", y - 20.0, z + 3.0);
    let game_dir = dir.path().to_str().unwrap();
    let night = [
        "--game-dir",
        game_dir,
        "--camera",
        &camera,
        "--paused",
        "--no-hud",
        "--sky-time",
        "21:00",
    ];
    let (dark, w, h) = screenshot(&night);
    let (lit, ..) = screenshot(&[&night[..], &["--effect", &lamp]].concat());
    let wall =
        |pixels: &[[u8; 3]]| -> Vec<[u8; 3]> { centre(w, h, 40).map(|i| pixels[i]).collect() };
    let (before, after) = (brightness(&wall(&dark)), brightness(&wall(&lit)));
    assert!(
        after > before + 60.0,
        "the wall: {before:.0} dark, {after:.0} lit"
    );
}

/// Weather: the demo sky's shower (rain from 12:45 to 13:45, heaviest at
/// 13:15) draws streaks, thin bright lines against what is 3 pixels to
/// their sides; the same view before it has almost none.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn rain_falls_during_the_demo_skys_shower() {
    require_display();
    let view = ["--camera", "-336,-304,40,90,5", "--no-hud", "--paused"];
    let (wet, w, h) = screenshot(&[&view[..], &["--sky-time", "13:15"]].concat());
    let (dry, ..) = screenshot(&[&view[..], &["--sky-time", "12:30"]].concat());
    let streaks = |pixels: &[[u8; 3]]| {
        let sum = |x, y| channel_sum(pixels, w, x, y);
        (0..h)
            .flat_map(|y| (3..w - 3).map(move |x| (x, y)))
            .filter(|&(x, y)| sum(x, y) > sum(x - 3, y).max(sum(x + 3, y)) + 40)
            .count()
    };
    let (during, before) = (streaks(&wet), streaks(&dry));
    assert!(
        during > 1000 && during > 4 * before,
        "{during} streak pixels in the shower, {before} before it"
    );
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

/// Runs `iron3d play OUTPUT FILE --frames FRAMES` with `extra` arguments,
/// expects success and returns the bytes of the file written.
fn play_output(output: &str, file: &str, frames: &str, extra: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    let mut args = vec!["play", output, path.to_str().unwrap(), "--frames", frames];
    args.extend_from_slice(extra);
    let out = iron3d(&args);
    assert!(
        out.status.success(),
        "status {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{file} is written: {e}"))
}

/// The draw-item list `iron3d play --capture-frame` writes with `extra`
/// arguments.
fn capture_frame(extra: &[&str]) -> Vec<u8> {
    play_output("--capture-frame", "frame.json", "2", extra)
}

/// A drawn entity: its stable insertion id, then object raw id, node,
/// slot and batch (`None`s: the terrain).
type BatchKey = (
    u64,
    Option<u32>,
    Option<usize>,
    Option<usize>,
    Option<usize>,
);

fn batch_key(source: &iron3d_render::draw::DrawItemSource) -> BatchKey {
    (
        source.insertion,
        source.object,
        source.node,
        source.slot,
        source.batch,
    )
}

/// Every shown drawn entity of the mission's scene seen from `pose` (LODs
/// are chosen by camera distance) with its world-space bounds (min, max),
/// from a windowless build of the scene on the main world: no renderer, no
/// visibility system.
fn drawn_bounds(game_dir: &Path, pose: CameraPose) -> Vec<(BatchKey, [bevy::math::Vec3; 2])> {
    use bevy::camera::primitives::MeshAabb;
    use bevy::prelude::*;
    use iron3d_render::draw::DrawItemSource;
    use iron3d_render::scene::SceneBuilt;
    use iron3d_world::mission::{MissionPlugin, MissionRequest};
    let mut app = App::new();
    app.add_plugins(iron3d_assets::IronAssetsPlugin::new(game_dir))
        .add_plugins((MinimalPlugins, AssetPlugin::default(), TransformPlugin))
        .add_plugins((
            iron3d_schedules::SpinePlugin::default(),
            iron3d_world::WorldPlugin,
            MissionPlugin {
                request: Some(MissionRequest {
                    game_dir: game_dir.to_path_buf(),
                    mission: None,
                    mod_dirs: Vec::new(),
                }),
                seed: 0,
            },
            iron3d_render::IronRenderPlugin {
                scene: true,
                camera: Some(pose),
                ..default()
            },
        ));
    app.finish();
    app.cleanup();
    for _ in 0..400 {
        if app.world().contains_resource::<SceneBuilt>() {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // Propagate the transforms of the built scene and choose the LODs.
    app.update();
    app.update();
    let world = app.world_mut();
    let hidden = |world: &World, mut entity: Entity| loop {
        if world.get::<Visibility>(entity) == Some(&Visibility::Hidden) {
            return true;
        }
        match world.get::<ChildOf>(entity) {
            Some(parent) => entity = parent.parent(),
            None => return false,
        }
    };
    let drawn: Vec<(Entity, BatchKey, Handle<Mesh>, GlobalTransform)> = world
        .query::<(Entity, &DrawItemSource, &Mesh3d, &GlobalTransform)>()
        .iter(world)
        .map(|(e, s, m, t)| (e, batch_key(s), m.0.clone(), *t))
        .collect();
    let meshes = world.resource::<Assets<Mesh>>();
    drawn
        .into_iter()
        .filter(|(entity, ..)| !hidden(world, *entity))
        .map(|(_, key, mesh, transform)| {
            let aabb = meshes
                .get(&mesh)
                .and_then(Mesh::compute_aabb)
                .expect("a loaded mesh with positions");
            let (min, max) = (Vec3::from(aabb.min()), Vec3::from(aabb.max()));
            let corners = box_corners([min, max]).map(|c| transform.transform_point(c));
            let lo = corners.iter().fold(Vec3::MAX, |lo, c| lo.min(*c));
            let hi = corners.iter().fold(Vec3::MIN, |hi, c| hi.max(*c));
            (key, [lo, hi])
        })
        .collect()
}

/// The eight corners of the box `[min, max]`.
fn box_corners([lo, hi]: [bevy::math::Vec3; 2]) -> [bevy::math::Vec3; 8] {
    std::array::from_fn(|i| {
        let pick = |axis: usize| {
            if i >> axis & 1 == 1 {
                hi[axis]
            } else {
                lo[axis]
            }
        };
        bevy::math::Vec3::new(pick(0), pick(1), pick(2))
    })
}

/// The six planes of the view frustum of `pose` (Bevy's default
/// perspective: 45° vertical field of view, near 0.1, far 1000) at
/// `aspect`, normalised, pointing inwards.
fn frustum_planes(pose: &CameraPose, aspect: f32) -> [bevy::math::Vec4; 6] {
    use bevy::math::{Mat4, Vec4};
    let view_from_world = pose.transform().to_matrix().inverse();
    let clip =
        Mat4::perspective_rh(std::f32::consts::FRAC_PI_4, aspect, 0.1, 1000.0) * view_from_world;
    let [r0, r1, r2, r3] = [clip.row(0), clip.row(1), clip.row(2), clip.row(3)];
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p: Vec4| p / p.truncate().length())
}

/// Whether the box is inside every plane by `margin`, outside one plane by
/// `margin`, or neither.
fn classify(
    planes: &[bevy::math::Vec4; 6],
    bounds: [bevy::math::Vec3; 2],
    margin: f32,
) -> Option<bool> {
    let corners = box_corners(bounds);
    let distances = |p: &bevy::math::Vec4| corners.map(|c| p.dot(c.extend(1.0)));
    if planes
        .iter()
        .all(|p| distances(p).iter().all(|&d| d >= margin))
    {
        Some(true)
    } else if planes
        .iter()
        .any(|p| distances(p).iter().all(|&d| d <= -margin))
    {
        Some(false)
    } else {
        None
    }
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn frame_capture_lists_the_terrain_and_the_objects_in_the_frustum_in_a_stable_order() {
    require_display();
    let (dir, _, mission) = demo_install();
    // South of the player base, looking north and down at it: the base is
    // in view, the other sites are not.
    let player = mission
        .clans
        .iter()
        .find(|c| c.clan_type() == Some(tma::ClanType::Player))
        .expect("a player clan");
    let top = mission
        .objects
        .iter()
        .map(|o| o.position[2])
        .fold(f32::MIN, f32::max);
    let [bx, by] = player.base;
    let camera = format!("{bx},{},{},90,-35", by - 100.0, top + 60.0);
    let pose = CameraPose::parse(&camera).unwrap();
    let game_dir = dir.path().to_str().unwrap();
    // Paused: every run captures game time 0 (the same material phases).
    let args = ["--game-dir", game_dir, "--camera", &camera, "--paused"];

    let first = capture_frame(&args);
    let second = capture_frame(&args);
    assert!(first == second, "two runs capture byte-identical lists");

    let json: serde_json::Value = serde_json::from_slice(&first).unwrap();
    let viewport = &json["camera"]["viewport"];
    let aspect = viewport[2].as_f64().unwrap() / viewport[3].as_f64().unwrap();
    let world_from_view: Vec<f32> =
        serde_json::from_value(json["camera"]["world_from_view"].clone()).unwrap();
    let expected_camera = pose.transform().to_matrix().to_cols_array();
    assert!(
        world_from_view
            .iter()
            .zip(expected_camera)
            .all(|(a, b)| (a - b).abs() < 1e-3),
        "{world_from_view:?}"
    );
    let all = json["items"].as_array().unwrap();
    // The drawn entities: the shadow phase draws some of them again, the
    // atmosphere is the sky's own (see the test after this one).
    let items: Vec<&serde_json::Value> = all
        .iter()
        .filter(|i| !["Shadows", "Atmosphere"].contains(&i["render_phase"].as_str().unwrap()))
        .collect();
    let listed: std::collections::BTreeSet<BatchKey> = items
        .iter()
        .map(|i| {
            serde_json::from_value::<BatchKey>(serde_json::json!([
                i["insertion"],
                i["object"],
                i["node"],
                i["slot"],
                i["batch"]
            ]))
            .unwrap()
        })
        .collect();
    assert_eq!(listed.len(), items.len(), "one item per drawn entity");
    assert_eq!(
        items[0]["render_phase"], "OpaqueTerrain",
        "the terrain comes first"
    );
    assert!(
        listed.iter().any(|k| k.1.is_none() && k.2.is_none()),
        "the terrain is listed"
    );
    // Sorted by sort key.
    let keys: Vec<[u64; 3]> = all
        .iter()
        .map(|i| serde_json::from_value(i["sort_key"].clone()).unwrap())
        .collect();
    assert!(
        keys.windows(2).all(|k| k[0] <= k[1]),
        "drawing order follows the sort key"
    );

    let planes = frustum_planes(&pose, aspect as f32);
    let (mut inside, mut outside) = (0, 0);
    for (key, bounds) in drawn_bounds(dir.path(), pose) {
        match classify(&planes, bounds, 0.5) {
            Some(true) => {
                inside += 1;
                assert!(
                    listed.contains(&key),
                    "{key:?} is inside the frustum but not listed"
                );
            }
            Some(false) => {
                outside += 1;
                assert!(
                    !listed.contains(&key),
                    "{key:?} is outside the frustum but listed"
                );
            }
            None => {}
        }
    }
    println!(
        "{inside} drawn entities inside the frustum, {outside} outside, {} listed",
        listed.len()
    );
    assert!(
        inside > 0 && outside > 0,
        "{inside} batches inside, {outside} outside"
    );
}

/// The arguments of a view of the install at `game_dir` from `camera`
/// at the demo sky's 10:00, without the HUD.
fn at_ten<'a>(game_dir: &'a str, camera: &'a str) -> [&'a str; 7] {
    [
        "--game-dir",
        game_dir,
        "--camera",
        camera,
        "--no-hud",
        "--sky-time",
        "10:00",
    ]
}

/// The first building the demo mission places.
fn first_building(mission: &tma::Tma) -> &tma::PlacedObject {
    mission
        .objects
        .iter()
        .find(|o| tma::ObjectKind::from_raw(o.raw_kind) == Some(tma::ObjectKind::Building))
        .expect("the demo mission places a building")
}

/// The demo install with `shade.cfg` holding `settings` at its root.
fn with_shade_cfg(dir: &Path, settings: &str) {
    std::fs::write(dir.join("shade.cfg"), settings).unwrap();
}

/// Where a camera 60 units south and 40 up of the demo mission's first
/// building looks at it (at the frame's centre).
fn facing_a_building(mission: &tma::Tma) -> String {
    let building = first_building(mission);
    let [x, y, z] = building.position;
    let pitch = -(40.0f32 / 60.0).atan().to_degrees();
    format!("{x},{},{},90,{pitch}", y - 60.0, z + 40.0)
}

/// Shadows: with `BldShadowsOn=1` in `shade.cfg` the building at the
/// centre throws a shadow on the ground beside it; the same shot with
/// shadows off (robots' too) differs there, and only by being darker.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_building_shadow_darkens_the_ground_beside_it_and_shade_cfg_turns_it_off() {
    require_display();
    let (dir, _, mission) = demo_install();
    let camera = facing_a_building(&mission);
    let game_dir = dir.path().to_str().unwrap();
    let args = [&at_ten(game_dir, &camera)[..], &["--paused"]].concat();
    with_shade_cfg(dir.path(), "RobShadowsOn=0\r\nBldShadowsOn=1\r\n");
    let (on, w, h) = screenshot(&args);
    with_shade_cfg(dir.path(), "RobShadowsOn=0\r\nBldShadowsOn=0\r\n");
    let (off, ..) = screenshot(&args);
    let sum = |p: [u8; 3]| p.iter().map(|&c| i32::from(c)).sum::<i32>();
    // The central half of the frame, round the building.
    let centre: Vec<usize> = (h / 4..h * 3 / 4)
        .flat_map(|y| (w / 4..w * 3 / 4).map(move |x| (y * w + x) as usize))
        .collect();
    let darker = centre
        .iter()
        .filter(|&&i| sum(on[i]) + 24 < sum(off[i]))
        .count();
    let lighter = (0..on.len())
        .filter(|&i| sum(on[i]) > sum(off[i]) + 24)
        .count();
    let share = darker as f64 / centre.len() as f64;
    assert!(share > 0.01, "{share:.4} of the middle is in shadow");
    assert!(
        lighter * 50 < darker,
        "shadows only darken: {lighter} pixels lighter, {darker} darker"
    );
}

/// The first demo mission's lake: its level and the centre of its water
/// faces (map frame).
fn demo_lake(dir: &Path, mission: &tma::Tma) -> (f32, [f32; 2]) {
    let land_path = String::from_utf8_lossy(&mission.land_path).replace('\\', "/");
    let bytes = std::fs::read(dir.join(land_path)).unwrap();
    let land = iron3d_formats::terrain::land_msh::LandMsh::parse(&bytes, Mode::Compatible).unwrap();
    let points: Vec<[f32; 3]> = land
        .faces
        .iter()
        .filter(|f| f.is_water())
        .flat_map(|f| f.vertices.map(|v| land.positions[usize::from(v)]))
        .collect();
    assert!(!points.is_empty(), "the demo map has a lake");
    let n = points.len() as f32;
    let centre = [0, 1].map(|k| points.iter().map(|p| p[k]).sum::<f32>() / n);
    (points[0][2], centre)
}

/// Water: looking down at the demo's lake, the water's pixels change
/// between two game times (the bump drifts over the reflection), and the
/// reflection changes them against the same water drawn as ground
/// (`REFLECTIONS=0` in `iron_3d.ini`).
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_lake_reflects_and_its_water_moves_with_game_time() {
    require_display();
    let (dir, _, mission) = demo_install();
    let (level, [x, y]) = demo_lake(dir.path(), &mission);
    // 30 south of the lake's middle and 25 above it, looking at it.
    let pitch = -(25.0f32 / 30.0).atan().to_degrees();
    let camera = format!("{x},{},{},90,{pitch}", y - 30.0, level + 25.0);
    println!("looking at the lake from {camera}");
    let game_dir = dir.path().to_str().unwrap();
    let args = at_ten(game_dir, &camera);
    let shot = |frames: &str| {
        let bytes = play_output("--screenshot", "shot.png", frames, &args);
        decode_png(&bytes)
    };
    let (early, w, h) = shot("3");
    let (late, ..) = shot("45");
    let moved = centre_difference(&early, &late, w, h, 80);
    assert!(
        moved > 0.2,
        "{moved:.3} of the lake changed between the two times"
    );
    let ini = dir.path().join("iron_3d.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    std::fs::write(&ini, text.replace("REFLECTIONS=1", "REFLECTIONS=0")).unwrap();
    let (ground, ..) = screenshot(&[&args[..], &["--paused"]].concat());
    let (reflecting, ..) = {
        std::fs::write(&ini, &text).unwrap();
        screenshot(&[&args[..], &["--paused"]].concat())
    };
    let changed = centre_difference(&ground, &reflecting, w, h, 80);
    assert!(
        changed > 0.5,
        "{changed:.3} of the lake differs with reflections"
    );
}

/// The frame capture lists the shadow phase (the batches drawn into the
/// sun's map, after the terrain's material passes and before the
/// alpha-tested draws) and, last, the atmosphere: the dome first, then
/// the clouds when they are in view, then the sun's sprite.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn frame_capture_lists_the_shadow_and_atmosphere_phases_in_order() {
    require_display();
    let (dir, _, mission) = demo_install();
    let sky = demo_sky();
    // An hour the sun stands low (8° to 25° up), so that one view holds
    // the ground, the building and the sun's sprite.
    let (hour, body) = (0..24)
        .find_map(|hour| {
            let time = iron3d_formats::proto::ske::ClockTime::new(0, hour, 0);
            let body = iron3d_render::sky::frame(&sky, Some(time), 0)?.body?;
            let up = (-body.travel.z).asin().to_degrees();
            (body.sun && (8.0..25.0).contains(&up)).then_some((hour, body))
        })
        .expect("the demo sun stands low some hour");
    let sky_time = format!("{hour:02}:00");
    // Looking from the building toward the sun, 60 up and 150 back.
    let building = first_building(&mission);
    let to_sun = -body.travel;
    let flat = bevy::math::Vec2::new(to_sun.x, to_sun.y).normalize();
    let [x, y, z] = building.position;
    let yaw = flat.y.atan2(flat.x).to_degrees();
    let sun_pitch = to_sun.z.asin().to_degrees();
    let camera = format!(
        "{},{},{},{yaw},{}",
        x - flat.x * 150.0,
        y - flat.y * 150.0,
        z + 60.0,
        sun_pitch - 12.0
    );
    let game_dir = dir.path().to_str().unwrap();
    with_shade_cfg(dir.path(), "BldShadowsOn=1\r\n");
    let args = [
        "--game-dir",
        game_dir,
        "--camera",
        &camera,
        "--paused",
        "--sky-time",
        &sky_time,
    ];
    let json: serde_json::Value = serde_json::from_slice(&capture_frame(&args)).unwrap();
    let items = json["items"].as_array().unwrap();
    let phase = |i: &serde_json::Value| i["render_phase"].as_str().unwrap().to_owned();
    let mut phases: Vec<String> = items.iter().map(phase).collect();
    phases.dedup();
    let at = |name: &str| phases.iter().position(|p| p == name);
    let (shadows, atmosphere) = (at("Shadows"), at("Atmosphere"));
    assert!(
        shadows.is_some() && atmosphere == Some(phases.len() - 1),
        "sun pitch {sun_pitch:.1}: phases {phases:?}"
    );
    for (before, after) in [("OpaqueObjects", "Shadows"), ("Shadows", "Transparent")] {
        if let (Some(a), Some(b)) = (at(before), at(after)) {
            assert!(a < b, "{before} before {after}: {phases:?}");
        }
    }
    // Each shadow item is a drawn batch of a placed object.
    let casters: Vec<&serde_json::Value> = items.iter().filter(|i| phase(i) == "Shadows").collect();
    for caster in &casters {
        assert!(
            caster["object"].is_u64() && caster["batch"].is_u64(),
            "{caster}"
        );
        assert!(
            items
                .iter()
                .any(|i| phase(i) == "OpaqueObjects" && i["insertion"] == caster["insertion"]),
            "the caster {caster} is drawn too"
        );
    }
    let sky_items: Vec<(u64, bool)> = items
        .iter()
        .filter(|i| phase(i) == "Atmosphere")
        .map(|i| (i["insertion"].as_u64().unwrap(), i["texture"].is_string()))
        .collect();
    assert_eq!(
        sky_items[0],
        (0, true),
        "the dome first, the nebula's texture under it: {sky_items:?}"
    );
    assert!(
        sky_items
            .iter()
            .any(|&(insertion, textured)| insertion == 2 && textured),
        "the sun's textured sprite: {sky_items:?}"
    );
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn bench_frames_prints_its_figures() {
    require_display();
    let out = iron3d(&["play", "--bench-frames", "5", "--frames", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let figure = |name: &str| -> f64 {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in {text}"));
        line.trim().trim_end_matches(" ms").parse().unwrap()
    };
    assert!(figure("bench frames:") >= 5.0);
    assert!(figure("frames per second:") > 0.0);
    assert!(figure("CPU time per frame:") > 0.0);
    assert!(figure("draw items:") > 1.0, "the terrain and some batches");
    // The second pass, same camera, without the sky, fog and shadows: the
    // dome and the shadow casters are no longer drawn.
    assert!(figure("atmosphere off: bench frames:") >= 5.0);
    assert!(figure("atmosphere off: wall time per frame:") > 0.0);
    assert!(figure("atmosphere off: draw items:") < figure("draw items:"));
}

#[test]
fn capture_and_bench_conflict_with_headless() {
    let out = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        "1",
        "--capture-frame",
        "x.json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--capture-frame conflicts with --headless"
    );
    let out = iron3d(&["play", "--headless", "--ticks", "1", "--bench-frames", "3"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--bench-frames conflicts with --headless"
    );
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn screenshot_and_frame_capture_together_write_both_before_exiting() {
    require_display();
    let dir = tempfile::tempdir().unwrap();
    let (png, json) = (dir.path().join("a.png"), dir.path().join("a.json"));
    let out = iron3d(&[
        "play",
        "--screenshot",
        png.to_str().unwrap(),
        "--capture-frame",
        json.to_str().unwrap(),
        "--frames",
        "1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let list: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(list["items"].as_array().is_some_and(|i| !i.is_empty()));
}

/// A windowed run of `ticks` ticks with ALSA configured by `alsa_conf`:
/// its stderr and the state hash line it printed, with the tick it
/// printed.
fn windowed_run(alsa_conf: &str, ticks: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("alsa.conf");
    std::fs::write(&conf, alsa_conf).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(["play", "--ticks", ticks])
        .env("XDG_CACHE_HOME", cache_home())
        .env("ALSA_CONFIG_PATH", &conf)
        .output()
        .expect("run iron3d");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = |prefix: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` in {stdout}"))
            .to_string()
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (stderr, line("ticks: "), line("state hash: "))
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_game_plays_sound_on_a_device_and_the_same_game_without_one() {
    require_display();
    // ALSA's null device stands in for a sound card; an empty ALSA
    // configuration has no device at all.
    let (heard, ticks, hash) = windowed_run("pcm.!default {\n type null\n}\n", "60");
    assert!(
        heard.contains("sound: playing on the audio device"),
        "{heard}"
    );
    let (silent, silent_ticks, silent_hash) = windowed_run("", "60");
    assert!(
        silent.contains("sound is off: the audio device did not open"),
        "{silent}"
    );
    // Either way the simulation is the headless one at the same tick.
    for (ticks, hash) in [(ticks, hash), (silent_ticks, silent_hash)] {
        let headless = iron3d(&["play", "--headless", "--ticks", &ticks]);
        let stdout = String::from_utf8_lossy(&headless.stdout);
        assert!(
            stdout.contains(&format!("state hash: {hash}")),
            "{ticks}: {stdout}"
        );
    }
}

/// A windowed run's trace carries the camera's state each frame it moves
/// (tome VI: mode, target, angles, matrices, viewport) and the sound
/// listener's, which follows the camera's frame.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_windowed_trace_carries_the_camera_and_the_listener() {
    require_display();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.jsonl");
    let out = iron3d(&["play", "--ticks", "60", "--trace", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = iron3d_replay::TraceLines::read(&path).unwrap();
    let on = |channel: &str| lines.on(channel);
    let cameras = on("camera");
    assert!(!cameras.is_empty());
    // Once the mission runs, the cockpit camera sits on the hero.
    assert!(cameras.iter().any(|c| c["target"].is_u64()), "{cameras:?}");
    for c in &cameras {
        assert_eq!(c["mode"], "Cockpit", "{c}");
        assert!(c["yaw"].is_number() && c["pitch"].is_number(), "{c}");
        for matrix in ["world_from_view", "clip_from_view"] {
            assert_eq!(c[matrix].as_array().map(Vec::len), Some(16), "{c}");
        }
        assert_eq!(c["viewport"].as_array().map(Vec::len), Some(2), "{c}");
    }
    // The listener stands where the camera last stood.
    let listeners = on("listener");
    assert!(!listeners.is_empty());
    let near = |a: &serde_json::Value, b: &serde_json::Value| {
        (0..3).all(|i| (a[i].as_f64().unwrap() - b[i].as_f64().unwrap()).abs() < 1e-3)
    };
    let last = listeners.last().unwrap();
    assert!(
        cameras.iter().any(|c| near(&c["eye"], &last["position"])),
        "{last}"
    );
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_windowed_run_reports_the_sounds_and_state_of_the_headless_run() {
    require_display();
    let dir = tempfile::tempdir().unwrap();
    let report = |name: &str, args: &[&str]| -> (String, serde_json::Value) {
        let path = dir.path().join(name);
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        all.extend(["--report", path.to_str().unwrap()]);
        let out = iron3d(&all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        (stdout, json)
    };
    let (_, windowed) = report("windowed.json", &["--ticks", "400"]);
    let ticks = windowed["ticks"].as_u64().unwrap().to_string();
    let (_, headless) = report("headless.json", &["--headless", "--ticks", &ticks]);
    assert_eq!(windowed["state_hash"], headless["state_hash"]);
    assert_eq!(windowed["sounds"], headless["sounds"]);
    assert!(windowed["sounds"].as_array().unwrap().len() >= 3);
}

/// `play --load` in a window: the save's steps play again fast, then the
/// run goes on; at its end it is the uninterrupted headless run.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_save_loads_in_the_window_and_goes_on_as_the_uninterrupted_run() {
    require_display();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("save.ron");
    let report = dir.path().join("windowed.json");
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let out = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        "240",
        "--save-at",
        "240",
        &path(&save),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = iron3d(&[
        "play",
        "--load",
        &path(&save),
        "--ticks",
        "300",
        "--report",
        &path(&report),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let windowed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let ticks = windowed["ticks"].as_u64().unwrap();
    assert!(ticks >= 300, "{ticks}");
    let headless = iron3d(&["play", "--headless", "--ticks", &ticks.to_string()]);
    let stdout = String::from_utf8_lossy(&headless.stdout);
    let hash = windowed["state_hash"].as_str().unwrap();
    assert!(stdout.contains(&format!("state hash: {hash}")), "{stdout}");
}

/// The watched replay seeks with its keys: the kept fight (80 s of game
/// time) seeks on, back (the mission loads anew) and on to its end, and
/// every checkpoint is checked on the way.
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_watched_replay_seeks_with_its_keys_and_checks_every_checkpoint() {
    use std::io::Read;
    use std::process::Stdio;
    require_display();
    let display = OwnDisplay::start();
    let fight = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/fight.ron");
    let args = [std::ffi::OsStr::new("replay"), fight.as_os_str()];
    let mut child = display.game(&args, Stdio::piped());
    let log = GameLog::of(&mut child);
    let playing = log.wait_for(|l| l.contains("replay: playing"), Game::LIMIT);
    let end_tick = playing
        .as_deref()
        .and_then(|l| {
            l.split_once(" (")?
                .1
                .split_once(" ticks")?
                .0
                .parse::<u64>()
                .ok()
        })
        .expect("the replay starts and says its length");
    display.focus_game();
    // Each key waits for the game to take the one before: a seek on is
    // said at once; a seek back loads the mission anew and says so when
    // the replay plays again.
    let seek_on = |display: &OwnDisplay| {
        display.press("Next");
        log.wait_for(|l| l.contains("replay: seeking on to tick"), KEY_LIMIT)
    };
    assert!(seek_on(&display).is_some(), "PageDown seeks on");
    display.press("Prior");
    assert!(
        log.wait_for(|l| l.contains("replay: seeking back to tick"), KEY_LIMIT)
            .is_some(),
        "PageUp seeks back"
    );
    assert!(
        log.wait_for(|l| l.contains("replay: playing"), Game::LIMIT)
            .is_some(),
        "the replay plays again from the mission's start"
    );
    // On to the end, a key at a time (a key the game missed is pressed
    // again).
    let at_end = format!("replay: seeking on to tick {end_tick}");
    let reached =
        (0..4 * end_tick / 30).any(|_| seek_on(&display).is_some_and(|l| l.contains(&at_end)));
    assert!(reached, "PageDown seeks on to the end");
    let status = child.wait().unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert!(status.success(), "{stdout}{:#?}", log.rest());
    assert!(
        stdout.contains("replay: 78 checkpoints of 78 reached"),
        "{stdout}"
    );
    assert!(!stdout.contains("parts from the recording"), "{stdout}");
}

/// How long a game may take to answer a key on a loaded machine.
const KEY_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// A game's log, line by line on a channel, so a test can wait for the
/// line it needs before its next key or click.
struct GameLog(std::sync::mpsc::Receiver<String>);

impl GameLog {
    /// Reads the standard error of `child` (taken from it).
    fn of(child: &mut std::process::Child) -> Self {
        use std::io::{BufRead, BufReader};
        let stderr = child.stderr.take().expect("the game's stderr is piped");
        let (line, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = line.send(l);
            }
        });
        Self(lines)
    }

    /// The first line from now on that `wanted` takes, within `limit`.
    fn wait_for(
        &self,
        wanted: impl Fn(&str) -> bool,
        limit: std::time::Duration,
    ) -> Option<String> {
        let until = std::time::Instant::now() + limit;
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match self.0.recv_timeout(left) {
                Ok(l) if wanted(&l) => return Some(l),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    }

    /// The lines not read yet, once the game has ended.
    fn rest(&self) -> Vec<String> {
        self.0.try_iter().collect()
    }
}

/// The outcome panel's Restart: the kept won game (`tests/replays/won.ron`)
/// loaded in the window completes the demo's first mission at tick 7,861;
/// the outcome panel shows, and a click on Restart under it loads the
/// mission again from its files (a new run starts).
#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_outcome_panel_restarts_the_mission() {
    use std::process::Stdio;
    require_display();
    let display = OwnDisplay::start();
    let won = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/won.ron");
    let args = [
        std::ffi::OsStr::new("play"),
        "--load".as_ref(),
        won.as_os_str(),
    ];
    let mut child = display.game(&args, Stdio::null());
    let log = GameLog::of(&mut child);
    let wait_for = |what: &str, limit: std::time::Duration| {
        log.wait_for(|l| l.contains(what), limit).is_some()
    };
    let won = wait_for("mission: Complete at tick 7861", Game::LIMIT);
    assert!(won, "the mission is won in the window");
    // Restart sits at (250, 350) of the 640x480 layout, which fills the
    // 1280x720 window's height: 1.5 pixels a layout pixel, 160 from the
    // left. The panel shows on a frame after the outcome, which may be
    // slow to come on a loaded machine: the click repeats until the new
    // run starts.
    let again = (0..10).any(|_| {
        display.xdotool(&[
            "search",
            "--sync",
            "--name",
            "Iron3D",
            "mousemove",
            "--window",
            "%1",
            "560",
            "535",
        ]);
        display.xdotool(&["click", "1"]);
        wait_for(
            "replay: recording Campaign.00/Mission.01",
            std::time::Duration::from_secs(5),
        )
    });
    assert!(again, "a new run of the mission starts");
}

/// An X server of one test's own (`Xvfb`), so no other test's window
/// takes the keys it types; stopped when dropped.
struct OwnDisplay {
    server: std::process::Child,
    name: String,
}

impl OwnDisplay {
    fn start() -> Self {
        use std::io::{BufRead, BufReader};
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x720x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb (installed by .ci/setup)");
        let mut number = String::new();
        BufReader::new(server.stdout.take().unwrap())
            .read_line(&mut number)
            .unwrap();
        let name = format!(":{}", number.trim());
        assert!(name.len() > 1, "Xvfb named no display");
        Self { server, name }
    }

    /// `iron3d` with `args` on this display (the test's cache and
    /// config), its log piped and its stdout as `stdout` says.
    fn game(&self, args: &[&std::ffi::OsStr], stdout: std::process::Stdio) -> Game {
        let child = Command::new(env!("CARGO_BIN_EXE_iron3d"))
            .args(args)
            .env("DISPLAY", &self.name)
            .env("XDG_CACHE_HOME", cache_home())
            .env("XDG_CONFIG_HOME", cache_home().join("config"))
            .stdout(stdout)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run iron3d");
        Game::watched(child)
    }

    /// Gives the game's window the keyboard (waiting for it to map).
    fn focus_game(&self) {
        self.xdotool(&[
            "search",
            "--sync",
            "--name",
            "Iron3D",
            "windowfocus",
            "--sync",
        ]);
    }

    /// Sends `xdotool` a command on this display.
    fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.name)
            .status()
            .expect("xdotool (installed by .ci/setup)");
        assert!(status.success(), "xdotool {args:?}");
    }

    /// Presses and releases `key` in the focused window, held long enough
    /// for a frame to see it.
    fn press(&self, key: &str) {
        self.xdotool(&["keydown", key]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.xdotool(&["keyup", key]);
    }
}

impl Drop for OwnDisplay {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// A game on a test's own display, killed once it outlives
/// [`Game::LIMIT`]: a key or a click the game never saw fails its test
/// (the game's log ends) instead of holding the run for ever. Dropping it
/// ends the game.
struct Game {
    child: std::process::Child,
    watchdog: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Game {
    /// Longer than any of these games takes on a loaded two-core machine
    /// under lavapipe.
    const LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

    fn watched(child: std::process::Child) -> Self {
        let pid = child.id().to_string();
        let (done, ended) = std::sync::mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = ended.recv_timeout(Self::LIMIT)
            {
                eprintln!("the game outlived {:?}: killed", Self::LIMIT);
                let _ = Command::new("kill").arg(&pid).status();
            }
        });
        Self {
            child,
            watchdog: Some((done, watchdog)),
        }
    }
}

impl std::ops::Deref for Game {
    type Target = std::process::Child;
    fn deref(&self) -> &Self::Target {
        &self.child
    }
}

impl std::ops::DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.child
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        if let Some((done, watchdog)) = self.watchdog.take() {
            drop(done);
            let _ = watchdog.join();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn the_main_menu_starts_the_chosen_mission_and_esc_skips_its_briefing() {
    use std::io::Read;
    use std::process::Stdio;
    require_display();
    let display = OwnDisplay::start();
    let args = ["play", "--menu", "--ticks", "30"].map(std::ffi::OsStr::new);
    let mut child = display.game(&args, Stdio::piped());
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    // The log, line by line, until the game says what the test waits for.
    let log = GameLog::of(&mut child);
    let wait_for = |what: &str| {
        log.wait_for(|l| l.contains(what), Game::LIMIT)
            .unwrap_or_else(|| panic!("the game did not log `{what}`"))
    };
    assert!(wait_for("main menu: ").ends_with("main menu: 2 missions"));
    display.focus_game();
    // The second mission of the list (each key once the game took the
    // one before).
    display.press("Down");
    wait_for("main menu: Campaign.00/Mission.02 chosen");
    display.press("Return");
    assert!(wait_for("briefing: ").ends_with("briefing: 4 waypoints"));
    display.press("Escape");
    let status = child.wait().unwrap();
    let out = reader.join().unwrap();
    assert!(status.success(), "{out}");
    assert!(out.contains("mission: Campaign.00/Mission.02"), "{out}");
    // The chosen mission, briefing skipped, runs as it does headless (to
    // the tick the window stopped at: a frame may run more than one).
    let line = |prefix: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` in {out}"))
    };
    let (ticks, hash) = (line("ticks: "), line("state hash: "));
    assert!(ticks.parse::<u64>().unwrap() >= 30, "{out}");
    let headless = iron3d(&[
        "play",
        "--headless",
        "--mission",
        "Campaign.00/Mission.02",
        "--ticks",
        ticks,
    ]);
    assert!(
        String::from_utf8_lossy(&headless.stdout).contains(&format!("state hash: {hash}")),
        "{hash}"
    );
}

#[test]
#[ignore = "needs a display: run under xvfb-run with --ignored, as .ci/test does"]
fn a_recorded_window_session_replays_headless_and_a_changed_step_is_reported() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    require_display();
    let display = OwnDisplay::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("session.ron");
    let args = [
        "play",
        "--mission",
        "Campaign.00/Mission.01",
        "--ticks",
        "120",
        "--record",
    ]
    .map(std::ffi::OsStr::new);
    let mut child = display.game(&[&args[..], &[file.as_os_str()]].concat(), Stdio::null());
    let mut log = BufReader::new(child.stderr.take().unwrap()).lines();
    let started = log
        .by_ref()
        .map_while(Result::ok)
        .any(|l| l.contains("replay: recording"));
    assert!(started, "the recording starts with the mission");
    display.focus_game();
    // The hero walks until the run ends.
    display.xdotool(&["keydown", "w"]);
    let drain = std::thread::spawn(move || log.map_while(Result::ok).collect::<Vec<_>>());
    let status = child.wait().unwrap();
    display.xdotool(&["keyup", "w"]);
    let lines = drain.join().unwrap();
    assert!(status.success(), "{lines:#?}");
    let text = std::fs::read_to_string(&file).expect("the replay was written");
    assert!(text.contains("held: 1,"), "the walk was recorded: {text}");

    let replay =
        |path: &Path| iron3d(&["replay", path.to_str().unwrap(), "--headless", "--verify"]);
    let out = replay(&file);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reached = stdout
        .lines()
        .find_map(|l| l.strip_prefix("replay: "))
        .expect("the checkpoint line");
    let (got, of) = reached
        .strip_suffix(" reached")
        .and_then(|r| r.split_once(" checkpoints of "))
        .expect("N checkpoints of M reached");
    assert_eq!(got, of, "{stdout}");
    assert!(got.parse::<u32>().unwrap() >= 3, "{stdout}");

    // The walk released at its first step: the run parts by the first
    // checkpoint after it.
    let changed = dir.path().join("changed.ron");
    std::fs::write(&changed, text.replacen("held: 1,", "held: 0,", 1)).unwrap();
    let out = replay(&changed);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("parts from the recording by tick"), "{err}");
    assert!(err.contains("world_objects"), "{err}");
}
