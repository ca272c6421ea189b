//! Frame-counted outputs of a windowed run (`--screenshot`,
//! `--capture-frame`, `--bench-frames`): frames are counted once the scene
//! is built and the render world has no pipeline left compiling, each output
//! acts on its own frame, and the app exits once every requested output is
//! finished (code 1 when one failed).

use crate::scene::SceneBuilt;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp};
use iron3d_schedules::Phase;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Consecutive frames drawn with the scene built and every pipeline ready
/// (back to 0 whenever a pipeline is compiling again).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadyFrames(pub u32);

/// The outputs the run still has to finish before it exits.
#[derive(Resource, Debug, Default)]
pub struct PendingOutputs {
    pending: u32,
    failed: bool,
    exited: bool,
}

impl PendingOutputs {
    /// One output is finished; `ok == false` makes the exit code 1.
    pub fn finish(&mut self, ok: bool) {
        self.pending = self.pending.saturating_sub(1);
        self.failed |= !ok;
    }
}

/// The order of the output systems in `Last`: count the frame, let the
/// outputs act on it, exit when all are done.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum OutputSystems {
    Count,
    Act,
    Exit,
}

/// Set by the render world each frame: no pipeline is waiting to compile.
#[derive(Resource, Debug, Clone, Default)]
struct PipelinesReady(Arc<AtomicBool>);

/// Registers one output the run waits for; the first call installs the
/// frame counting and the exit.
pub fn register_output(app: &mut App) {
    if !app.world().contains_resource::<PendingOutputs>() {
        install_counting(app);
    }
    app.world_mut().resource_mut::<PendingOutputs>().pending += 1;
}

fn install_counting(app: &mut App) {
    let ready = PipelinesReady::default();
    app.init_resource::<PendingOutputs>()
        .init_resource::<ReadyFrames>()
        .insert_resource(ready.clone())
        .configure_sets(
            Last,
            (
                OutputSystems::Count,
                OutputSystems::Act,
                OutputSystems::Exit,
            )
                .chain()
                .after(bevy::diagnostic::update_frame_count)
                .in_set(Phase::EndFrameCallbacks),
        )
        .add_systems(
            Last,
            (
                count_ready_frames.in_set(OutputSystems::Count),
                exit_when_done.in_set(OutputSystems::Exit),
            ),
        );
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

/// Counts the ready frames after the scene is built.
fn count_ready_frames(
    mut frames: ResMut<ReadyFrames>,
    ready: Res<PipelinesReady>,
    built: Option<Res<SceneBuilt>>,
) {
    frames.0 = if built.is_some() && ready.0.load(Ordering::Relaxed) {
        frames.0 + 1
    } else {
        0
    };
}

/// Ends the app once no output is pending.
fn exit_when_done(mut outputs: ResMut<PendingOutputs>, mut exit: MessageWriter<AppExit>) {
    if outputs.pending > 0 || outputs.exited {
        return;
    }
    outputs.exited = true;
    exit.write(if outputs.failed {
        AppExit::from_code(1)
    } else {
        AppExit::Success
    });
}
