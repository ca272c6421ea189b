//! `--screenshot FILE.png --frames N`: once N ready frames are drawn (see
//! [`crate::output`]), the primary window is captured with Bevy's
//! screenshot API and saved as an opaque PNG, written atomically (a
//! temporary file renamed over `FILE.png`, so a reader never sees half an
//! image); a failed save makes the exit code 1.

use crate::output::{OutputSystems, PendingOutputs, ReadyFrames, register_output};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use iron3d_formats::fsutil::write_atomic;
use iron3d_formats::texm::{Rgba8Image, png_bytes};
use std::path::PathBuf;

/// Where to save the capture and how many ready frames to draw first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
    pub frames: u32,
}

/// The capture in progress.
#[derive(Resource, Debug)]
struct ScreenshotPlan {
    path: PathBuf,
    frames: u32,
    requested: bool,
}

/// Adds the capture systems for `request`.
pub fn add_screenshot(app: &mut App, request: &ScreenshotRequest) {
    register_output(app);
    app.insert_resource(ScreenshotPlan {
        path: request.path.clone(),
        frames: request.frames,
        requested: false,
    })
    .add_systems(Last, request_screenshot.in_set(OutputSystems::Act));
}

/// Asks for the capture after the last of the ready frames.
fn request_screenshot(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    ready: Res<ReadyFrames>,
) {
    if plan.requested || ready.0 <= plan.frames {
        return;
    }
    plan.requested = true;
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_screenshot);
}

/// Saves the captured image (alpha made opaque).
fn save_screenshot(
    captured: On<ScreenshotCaptured>,
    plan: Res<ScreenshotPlan>,
    mut outputs: ResMut<PendingOutputs>,
) {
    let saved = captured
        .image
        .clone()
        .try_into_dynamic()
        .map_err(|e| e.to_string())
        .and_then(|image| {
            let mut rgba = image.to_rgba8();
            rgba.pixels_mut().for_each(|p| p.0[3] = u8::MAX);
            let image = Rgba8Image {
                width: rgba.width(),
                height: rgba.height(),
                pixels: rgba.into_raw(),
            };
            png_bytes(&image)
                .and_then(|bytes| write_atomic(&plan.path, &bytes))
                .map_err(|e| e.to_string())
        });
    match &saved {
        Ok(()) => info!("screenshot saved to {}", plan.path.display()),
        Err(e) => eprintln!(
            "iron3d: cannot save the screenshot {}: {e}",
            plan.path.display()
        ),
    }
    outputs.finish(saved.is_ok());
}
