//! `--screenshot FILE.png --frames N`: once the scene is built and the
//! render world has no pipeline left compiling, N more frames are drawn,
//! then the primary window is captured with Bevy's screenshot API, saved
//! as an RGB PNG, and the app exits (code 1 when saving fails).

use crate::scene::SceneBuilt;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::render::{Render, RenderApp};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// Consecutive frames drawn with every pipeline ready.
    ready_frames: u32,
    requested: bool,
}

/// Set by the render world each frame: no pipeline is waiting to compile.
#[derive(Resource, Debug, Clone, Default)]
struct PipelinesReady(Arc<AtomicBool>);

/// Adds the capture systems for `request`.
pub fn add_screenshot(app: &mut App, request: &ScreenshotRequest) {
    let ready = PipelinesReady::default();
    app.insert_resource(ScreenshotPlan {
        path: request.path.clone(),
        frames: request.frames,
        ready_frames: 0,
        requested: false,
    })
    .insert_resource(ready.clone())
    .add_systems(Last, count_ready_frames);
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(ready)
            .add_systems(Render, watch_pipelines);
    }
}

/// Render world: publishes whether the pipeline cache is idle.
fn watch_pipelines(cache: Res<PipelineCache>, ready: Res<PipelinesReady>) {
    ready.0.store(
        cache.waiting_pipelines().next().is_none(),
        Ordering::Relaxed,
    );
}

/// Counts ready frames after the scene is built and asks for the capture
/// after the last one.
fn count_ready_frames(
    mut commands: Commands,
    mut plan: ResMut<ScreenshotPlan>,
    ready: Res<PipelinesReady>,
    built: Option<Res<SceneBuilt>>,
) {
    if plan.requested || built.is_none() {
        return;
    }
    if !ready.0.load(Ordering::Relaxed) {
        plan.ready_frames = 0;
        return;
    }
    plan.ready_frames += 1;
    if plan.ready_frames > plan.frames {
        plan.requested = true;
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_and_exit);
    }
}

/// Saves the captured image (alpha dropped) and ends the app.
fn save_and_exit(
    captured: On<ScreenshotCaptured>,
    plan: Res<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    let saved = captured
        .image
        .clone()
        .try_into_dynamic()
        .map_err(|e| e.to_string())
        .and_then(|image| image.to_rgb8().save(&plan.path).map_err(|e| e.to_string()));
    match saved {
        Ok(()) => {
            info!("screenshot saved to {}", plan.path.display());
            exit.write(AppExit::Success);
        }
        Err(e) => {
            eprintln!(
                "iron3d: cannot save the screenshot {}: {e}",
                plan.path.display()
            );
            exit.write(AppExit::from_code(1));
        }
    }
}
