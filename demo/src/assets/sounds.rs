//! Synthesised sounds at 22 050 Hz with integer maths only: phase
//! accumulators, a linear-feedback noise source and shift-based envelopes.
//! Written as PCM16 or MS ADPCM RIFF/WAVE.

use iron3d_formats::error::Result;
use iron3d_formats::sound::{encode_ms_adpcm, write_pcm16};

/// Sample rate of every sound (tome VI: all retail sounds).
pub const RATE: u32 = 22_050;
/// MS ADPCM block size (mono, 1012 samples per block).
const ADPCM_BLOCK: u16 = 512;

/// A tone generator: `phase` advances by `freq * 2^32 / RATE` per sample.
fn step(freq: u32) -> u32 {
    ((freq as u64) << 32).div_euclid(RATE as u64) as u32
}

/// Square wave of a phase, +-amp.
fn square(phase: u32, amp: i32) -> i32 {
    if phase < 0x8000_0000 { amp } else { -amp }
}

/// Sawtooth of a phase, +-32767 scaled by `amp / 32768`.
fn saw(phase: u32, amp: i32) -> i32 {
    ((phase >> 16) as i32 - 32768) * amp / 32768
}

/// A 32-bit xorshift noise source.
struct Noise(u32);

impl Noise {
    fn next(&mut self, amp: i32) -> i32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        ((x >> 16) as i32 - 32768) * amp / 32768
    }
}

fn clip(v: i32) -> i16 {
    v.clamp(-32768, 32767) as i16
}

/// Engine hum: 55 Hz saw plus 110 Hz square, slowly beating.
fn engine(seed: u32) -> Vec<i16> {
    let n = RATE as usize;
    let (mut a, mut b) = (seed, 0u32);
    (0..n)
        .map(|i| {
            a = a.wrapping_add(step(55));
            b = b.wrapping_add(step(111));
            let beat = 6000 + (i as i32 % 2205 - 1102).abs() * 4;
            clip(saw(a, 9000) + square(b, beat))
        })
        .collect()
}

/// A shot: a noise burst with a fast exponential decay.
fn shot(seed: u32) -> Vec<i16> {
    let mut noise = Noise(seed | 1);
    let mut env: i32 = 30000;
    (0..RATE as usize / 4)
        .map(|_| {
            env = env * 65000 / 65536;
            clip(noise.next(env))
        })
        .collect()
}

/// A laser: a square sweep from 2 kHz down to 400 Hz.
fn laser(seed: u32) -> Vec<i16> {
    let n = RATE as usize * 3 / 10;
    let mut phase = seed;
    (0..n)
        .map(|i| {
            let freq = 2000 - (1600 * i / n) as u32;
            phase = phase.wrapping_add(step(freq));
            clip(square(phase, 12000 * (n - i) as i32 / n as i32))
        })
        .collect()
}

/// An explosion: low-passed noise (one-pole, integer) with a slow decay.
fn explosion(seed: u32) -> Vec<i16> {
    let mut noise = Noise(seed ^ 0xDEAD_BEEF | 1);
    let (mut low, mut env) = (0i32, 32000i32);
    (0..RATE as usize * 6 / 5)
        .map(|_| {
            env = env * 65500 / 65536;
            low += (noise.next(32767) - low) / 8;
            clip(low * env / 16000)
        })
        .collect()
}

/// A footstep: a thud of low-passed noise, a fifth of a second, falling
/// fast.
fn step_thud(seed: u32) -> Vec<i16> {
    let mut noise = Noise(seed ^ 0x57E9_F00D | 1);
    let (mut low, mut env) = (0i32, 30000i32);
    (0..RATE as usize / 5)
        .map(|_| {
            env = env * 65000 / 65536;
            low += (noise.next(32767) - low) / 16;
            clip(low * env / 12000)
        })
        .collect()
}

/// The theme loop: a low two-tone drone under a slow swell, four seconds
/// that join end to start (every period is whole in the length).
fn drone(seed: u32) -> Vec<i16> {
    let n = RATE as usize * 4;
    let (mut a, mut b) = (seed, seed.rotate_left(16));
    (0..n)
        .map(|i| {
            a = a.wrapping_add(step(82));
            b = b.wrapping_add(step(123));
            let swell = 2500 + (i as i32 % (n as i32 / 2) - n as i32 / 4).abs() / 8;
            clip(saw(a, swell) + saw(b, swell / 2))
        })
        .collect()
}

/// `count` bursts of `length` samples, each followed by as much silence;
/// `sample` makes the `i`th sample of a burst (and keeps its phase
/// across them).
fn bursts(count: usize, length: usize, mut sample: impl FnMut(usize) -> i16) -> Vec<i16> {
    let mut out = Vec::with_capacity(length * 2 * count);
    for _ in 0..count {
        out.extend((0..length).map(&mut sample));
        out.extend(std::iter::repeat_n(0, length));
    }
    out
}

/// A bird: `count` falling chirps from `freq`.
fn chirps(freq: u32, count: usize) -> Vec<i16> {
    let chirp = RATE as usize / 12;
    let mut phase = 0u32;
    bursts(count, chirp, |i| {
        phase = phase.wrapping_add(step(freq - (freq / 3) * i as u32 / chirp as u32));
        let env = (i.min(chirp - i).min(300) * 30) as i32;
        clip(square(phase, env))
    })
}

/// Crickets: `count` trills of a high square tone, each chirping on and
/// off twenty times a second.
fn crickets(freq: u32, count: usize) -> Vec<i16> {
    let mut phase = 0u32;
    bursts(count, RATE as usize / 2, |i| {
        phase = phase.wrapping_add(step(freq));
        let on = i % (RATE as usize / 20) < RATE as usize / 40;
        if on { clip(square(phase, 3000)) } else { 0 }
    })
}

/// Wind: low-passed noise rising and falling over two seconds.
fn wind(seed: u32) -> Vec<i16> {
    let mut noise = Noise(seed ^ 0x5EED_0001 | 1);
    let n = RATE as usize * 2;
    let mut low = 0i32;
    (0..n)
        .map(|i| {
            low += (noise.next(32767) - low) / 32;
            let env = (n as i32 / 2 - (i as i32 - n as i32 / 2).abs()) / 8;
            clip(low * env / 4000)
        })
        .collect()
}

/// Voice beeps: `count` square tones of `freq` with gaps.
fn beeps(freq: u32, count: usize) -> Vec<i16> {
    let tone = RATE as usize / 10;
    let mut phase = 0u32;
    bursts(count, tone, |i| {
        phase = phase.wrapping_add(step(freq));
        let env = (i.min(tone - i).min(200) * 50) as i32;
        clip(square(phase, env))
    })
}

fn pcm(samples: &[i16]) -> Result<Vec<u8>> {
    write_pcm16(RATE, 1, samples)
}

fn adpcm(samples: &[i16]) -> Result<Vec<u8>> {
    encode_ms_adpcm(RATE, 1, samples, ADPCM_BLOCK)
}

/// `sounds.lib`: `(name, payload)`, the effects' sounds, the
/// ambient theme and variations, and one empty
/// entry (retail Part 2 has `ALIEN_ME.WAV` of size 0).
pub fn sounds(seed: u32) -> Result<Vec<(String, Vec<u8>)>> {
    Ok(vec![
        ("ENGINE.WAV".into(), pcm(&engine(seed))?),
        ("SHOT.WAV".into(), adpcm(&shot(seed))?),
        ("LASER.WAV".into(), adpcm(&laser(seed))?),
        ("EXPLODE.WAV".into(), adpcm(&explosion(seed))?),
        ("STEP.WAV".into(), pcm(&step_thud(seed))?),
        ("ALIEN_ME.WAV".into(), Vec::new()),
        ("ATM_LOOP.WAV".into(), adpcm(&drone(seed))?),
        ("ATM_BIRD1.WAV".into(), pcm(&chirps(3200 + seed % 400, 3))?),
        (
            "ATM_BIRD2.WAV".into(),
            adpcm(&chirps(2400 + seed % 300, 5))?,
        ),
        ("ATM_WIND.WAV".into(), adpcm(&wind(seed))?),
        (
            "ATM_CRICKETS.WAV".into(),
            adpcm(&crickets(4200 + seed % 300, 3))?,
        ),
    ])
}

/// `voices.lib`: beeps standing in for voice lines, PCM and ADPCM: the
/// messages' and the outcomes', then the briefing's three lines.
pub fn voices(seed: u32) -> Result<Vec<(String, Vec<u8>)>> {
    let base = 600 + seed % 200;
    Ok(vec![
        ("V_ACK.WAV".into(), pcm(&beeps(base, 2))?),
        ("V_DONE.WAV".into(), adpcm(&beeps(base + 300, 3))?),
        ("V_FAIL.WAV".into(), adpcm(&beeps(base / 2, 1))?),
        ("B_OPEN.WAV".into(), pcm(&beeps(base + 100, 4))?),
        ("B_ROAD.WAV".into(), adpcm(&beeps(base + 200, 3))?),
        ("B_ROUND.WAV".into(), adpcm(&beeps(base + 400, 2))?),
    ])
}
