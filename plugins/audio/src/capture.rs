//! A kira backend without a device: the mixer runs when asked and hands
//! back what it would have played. Tests check levels, positions and
//! states at the kira instances on it (tome VI: event lists and the
//! mixer's output, never a device's).

use kira::backend::{Backend, Renderer};

/// The capture backend's sample rate: the game's (every retail sound is
/// 22 050 Hz), so a sample frame is an output frame.
pub const CAPTURE_RATE: u32 = 22_050;

/// A backend whose output is pulled by [`CaptureBackend::render`].
pub struct CaptureBackend {
    renderer: Option<Renderer>,
}

impl CaptureBackend {
    /// Runs the mixer for `frames` stereo frames: interleaved left, right.
    /// Empty before the manager started it.
    pub fn render(&mut self, frames: usize) -> Vec<f32> {
        let Some(renderer) = &mut self.renderer else {
            return Vec::new();
        };
        let mut out = vec![0.0; frames * 2];
        renderer.on_start_processing();
        renderer.process(&mut out, 2);
        out
    }
}

impl Backend for CaptureBackend {
    type Settings = ();
    type Error = std::convert::Infallible;

    fn setup(_: (), _internal_buffer_size: usize) -> Result<(Self, u32), Self::Error> {
        Ok((Self { renderer: None }, CAPTURE_RATE))
    }

    fn start(&mut self, renderer: Renderer) -> Result<(), Self::Error> {
        self.renderer = Some(renderer);
        Ok(())
    }
}

/// The root-mean-square level of interleaved samples.
pub fn rms(samples: &[f32]) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|s| s * s).sum::<f32>() / samples.len() as f32).sqrt()
}
