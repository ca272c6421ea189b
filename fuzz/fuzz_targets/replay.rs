#![no_main]
//! A replay or save document. Structure-aware: half the mutations of a
//! document that reads change one of the numbers its checks guard (the
//! rate, the end, a step's or checkpoint's tick, a mouse count, a field
//! change) to a value at or past the edge of what it may hold; the rest
//! are libFuzzer's own. A document that reads writes back to one that
//! reads as the same replay.
use iron3d_formats::replay::Replay;
use libfuzzer_sys::{fuzz_mutator, fuzz_target, fuzzer_mutate};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(replay) = Replay::parse(text) {
        let again = Replay::parse(&replay.to_ron()).expect("a replay read writes back readable");
        assert_eq!(again, replay);
    }
});

fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let read = std::str::from_utf8(&data[..size])
        .ok()
        .and_then(|text| Replay::parse(text).ok());
    match read {
        Some(mut replay) if seed % 2 == 0 => {
            change_a_number(&mut replay, seed / 2);
            let text = replay.to_ron();
            if text.len() > max_size {
                return fuzzer_mutate(data, size, max_size);
            }
            data[..text.len()].copy_from_slice(text.as_bytes());
            text.len()
        }
        _ => fuzzer_mutate(data, size, max_size),
    }
});

/// Numbers at and past the edges of what a replay may hold.
const EDGES: [f64; 10] = [
    0.0,
    -1.0,
    0.5,
    1.0,
    1000.0,
    1000.5,
    1e300,
    f64::NAN,
    f64::INFINITY,
    -0.0,
];
const TICKS: [u64; 7] = [0, 1, 30, 31, 86_400_000, 86_400_001, u64::MAX];

/// Changes one number of `replay`, chosen by `seed`.
fn change_a_number(replay: &mut Replay, seed: u32) {
    let pick = (seed >> 4) as usize;
    let edge = EDGES[pick % EDGES.len()];
    let tick = TICKS[pick % TICKS.len()];
    let steps = replay.steps.len().max(1);
    let points = replay.checkpoints.len().max(1);
    match seed % 10 {
        0 => replay.rate = edge,
        1 => replay.end_tick = tick,
        2 => replay.steps.get_mut(pick % steps).map_or((), |s| s.tick = tick),
        3 => replay
            .steps
            .get_mut(pick % steps)
            .map_or((), |s| s.mouse[pick % 2] = edge as f32),
        4 => replay
            .steps
            .get_mut(pick % steps)
            .map_or((), |s| s.sensitivity = edge as f32),
        5 => replay
            .checkpoints
            .get_mut(pick % points)
            .map_or((), |c| c.tick = tick),
        6 if !replay.checkpoints.is_empty() => {
            replay.checkpoints.remove(pick % points);
        }
        7 => replay.checkpoints.get_mut(pick % points).map_or((), |c| {
            c.changes = format!("{:x}.{:x}={:04x}", pick % 300, pick % 40, pick)
        }),
        8 => replay.state = None,
        _ => replay.version = (pick % 3) as u32,
    }
}
