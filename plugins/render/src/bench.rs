//! `--bench-frames N`: after the warm-up ready frames (see
//! [`crate::output`]), times N more frames with vsync off and the app
//! updating continuously, then prints frames per second, wall and process
//! CPU time per frame and the mission camera's draw-item count; then
//! switches the atmosphere off ([`crate::sky::Atmosphere`]: no sky, fog or
//! shadows), warms up as many frames again and times N more from the same
//! camera, printed the same way after `atmosphere off: `.

use crate::camera::MissionCamera;
use crate::capture::FrameDrawItems;
use crate::output::{OutputSystems, PendingOutputs, ReadyFrames, register_output};
use bevy::prelude::*;
use bevy::window::{PresentMode, PrimaryWindow};
use bevy::winit::WinitSettings;
use std::io::Write;
use std::time::{Duration, Instant};

/// How many frames to time, after how many ready warm-up frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchRequest {
    pub frames: u32,
    pub warmup: u32,
}

/// The clocks at the start of the timed frames.
#[derive(Debug, Clone, Copy)]
struct Mark {
    wall: Instant,
    cpu: Option<Duration>,
    ready_frame: u32,
}

impl Mark {
    fn now(ready_frame: u32) -> Self {
        Self {
            wall: Instant::now(),
            cpu: process_cpu_time(),
            ready_frame,
        }
    }
}

/// The benchmark in progress.
#[derive(Resource, Debug)]
struct BenchPlan {
    request: BenchRequest,
    /// The ready frame the current pass began at.
    pass_from: u32,
    start: Option<Mark>,
    /// The first pass's figures (atmosphere on), once timed.
    on: Option<BenchReport>,
    done: bool,
}

/// What the timed frames measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchReport {
    pub frames: u32,
    pub wall: Duration,
    /// CPU time of the whole process (every thread), when the platform
    /// reports it.
    pub cpu: Option<Duration>,
    pub draw_items: usize,
}

impl BenchReport {
    /// The report as printed: one `name: value` line per figure.
    pub fn lines(&self) -> String {
        let frames = f64::from(self.frames);
        let wall = self.wall.as_secs_f64();
        let cpu = self.cpu.map_or("unavailable".to_string(), |cpu| {
            format!("{:.2} ms", cpu.as_secs_f64() * 1000.0 / frames)
        });
        format!(
            "bench frames: {}\nbench seconds: {wall:.3}\nframes per second: {:.1}\n\
             wall time per frame: {:.2} ms\nCPU time per frame: {cpu}\ndraw items: {}\n",
            self.frames,
            frames / wall,
            wall * 1000.0 / frames,
            self.draw_items
        )
    }
}

/// Adds the benchmark systems for `request`.
pub fn add_bench(app: &mut App, request: BenchRequest) {
    register_output(app);
    app.insert_resource(WinitSettings::continuous())
        .insert_resource(BenchPlan {
            request,
            pass_from: 0,
            start: None,
            on: None,
            done: false,
        })
        .add_systems(Startup, disable_vsync)
        .add_systems(Last, time_frames.in_set(OutputSystems::Act));
}

/// The frame rate is not capped by the display.
fn disable_vsync(mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    for mut window in &mut windows {
        window.present_mode = PresentMode::AutoNoVsync;
    }
}

/// Starts the clocks after the warm-up, restarts them when pipelines
/// compile again, and reports after the timed frames of both passes.
fn time_frames(
    mut plan: ResMut<BenchPlan>,
    ready: Res<ReadyFrames>,
    shared: Res<FrameDrawItems>,
    camera: Query<Entity, With<MissionCamera>>,
    mut atmosphere: ResMut<crate::sky::Atmosphere>,
    mut outputs: ResMut<PendingOutputs>,
) {
    if plan.done {
        return;
    }
    if ready.0 < plan.pass_from {
        // Pipelines compiled again: the count started over.
        plan.pass_from = 0;
    }
    if ready.0 <= plan.pass_from + plan.request.warmup {
        plan.start = None;
        return;
    }
    let Some(start) = plan.start else {
        plan.start = Some(Mark::now(ready.0));
        return;
    };
    let frames = ready.0 - start.ready_frame;
    if frames < plan.request.frames {
        return;
    }
    let report = BenchReport {
        frames,
        wall: start.wall.elapsed(),
        cpu: process_cpu_time()
            .zip(start.cpu)
            .map(|(end, start)| end.saturating_sub(start)),
        draw_items: camera
            .iter()
            .find_map(|camera| shared.latest(camera))
            .map_or(0, |list| list.items.len()),
    };
    let Some(on) = plan.on else {
        plan.on = Some(report);
        plan.pass_from = ready.0;
        plan.start = None;
        atmosphere.on = false;
        return;
    };
    let off: String = report
        .lines()
        .lines()
        .map(|line| format!("atmosphere off: {line}\n"))
        .collect();
    let _ = std::io::stdout().write_all((on.lines() + &off).as_bytes());
    plan.done = true;
    outputs.finish(true);
}

/// CPU time used so far by every thread of the process.
#[cfg(unix)]
fn process_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable timespec for the call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    (status == 0).then(|| Duration::new(time.tv_sec as u64, time.tv_nsec as u32))
}

/// CPU time is not measured on this platform.
#[cfg(not(unix))]
fn process_cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_divides_by_the_frames() {
        let report = BenchReport {
            frames: 200,
            wall: Duration::from_secs(4),
            cpu: Some(Duration::from_secs(6)),
            draw_items: 17,
        };
        let text = report.lines();
        assert!(text.contains("frames per second: 50.0\n"), "{text}");
        assert!(text.contains("wall time per frame: 20.00 ms\n"), "{text}");
        assert!(text.contains("CPU time per frame: 30.00 ms\n"), "{text}");
        assert!(text.contains("draw items: 17\n"), "{text}");
    }

    #[test]
    fn process_cpu_time_advances_with_work() {
        let Some(before) = process_cpu_time() else {
            return;
        };
        let mut x = 0u64;
        for i in 0..5_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(process_cpu_time().unwrap() > before, "{x}");
    }
}
