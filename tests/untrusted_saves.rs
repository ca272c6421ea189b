//! Saves and replays are untrusted input: a sweep of mutations of a save
//! made on the demo install and of a kept replay, each read, put back and
//! played the way `iron3d play --load` and `iron3d replay --verify` do
//! (`iron3d::app::headless`). No mutation may panic or hang; each is
//! refused with the file named, or found to part from its checkpoints, or
//! plays. The mutations are structure-aware: a number of the document
//! (a rate, a tick, a position, a velocity, an index, a life...) becomes a
//! hostile one, or a few characters go.
//!
//! `IRON3D_SWEEP_CASES` sets how many mutations of each file run (default
//! [`DEFAULT_CASES`]); `IRON3D_SWEEP_SEED` starts another sequence.

use iron3d::app::{headless, run_headless};
use iron3d_demo::{self as demo, Scale};
use iron3d_replay::{Playback, PlaybackPlugin, RecordPlugin, Replay};
use iron3d_schedules::SimulationRate;
use iron3d_world::mission::{MissionPlugin, MissionRequest, update_until_loaded};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Mutations of each file in a plain test run.
const DEFAULT_CASES: usize = 300;

/// Ticks a mutated save or replay that loads is played on.
const PLAYED_TICKS: u64 = 35;

/// What numbers become.
const HOSTILE: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "1e300",
    "-1e300",
    "1e-300",
    "0",
    "0.0",
    "-1",
    "255",
    "99",
    "65536",
    "4294967295",
    "18446744073709551615",
    "3.5e38",
    "1.5",
];

/// SplitMix64: a deterministic sequence from one seed.
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The byte ranges of the document's numbers.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts = (bytes[i].is_ascii_digit() || bytes[i] == b'-')
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if !starts {
            i += 1;
            continue;
        }
        let end = i
            + 1
            + bytes[i + 1..]
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || b"+-.".contains(b)))
                .unwrap_or(bytes.len() - i - 1);
        if bytes[i..end].iter().any(u8::is_ascii_digit) {
            found.push((i, end));
        }
        i = end;
    }
    found
}

/// One mutation of `text`: mostly a number made hostile, sometimes a few
/// characters cut; with what was done.
fn mutate(text: &str, numbers: &[(usize, usize)], seq: &mut Sequence) -> (String, String) {
    if seq.below(8) == 0 {
        let at = seq.below(text.len());
        let len = 1 + seq.below(16);
        let end = (at + len).min(text.len());
        let (at, end) = (floor(text, at), floor(text, end));
        let what = format!("cut {:?} at byte {at}", &text[at..end]);
        return (format!("{}{}", &text[..at], &text[end..]), what);
    }
    let (start, end) = numbers[seq.below(numbers.len())];
    let value = HOSTILE[seq.below(HOSTILE.len())];
    let what = format!("{} at byte {start} became {value}", &text[start..end]);
    (format!("{}{value}{}", &text[..start], &text[end..]), what)
}

/// `at` moved back to a character boundary.
fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// How a mutated file fared.
#[derive(Debug, Default)]
struct Outcomes {
    refused_at_read: usize,
    no_such_mission: usize,
    refused_at_restore: usize,
    parted: usize,
    played: usize,
}

/// A mission on `game` playing `playback`.
fn playing(game: &Path, rate: f64, playback: PlaybackPlugin) -> bevy::app::App {
    let mission = MissionPlugin {
        request: Some(MissionRequest {
            game_dir: game.to_path_buf(),
            mission: Some(playback.replay.mission.clone()),
            mod_dirs: Vec::new(),
        }),
        seed: playback.replay.seed,
    };
    headless(SimulationRate(rate), mission, playback)
}

/// Reads `path` as a save (its state put back) or a replay (from the
/// mission's start) and plays it a little, as the CLI does; the outcome,
/// or why it is not one of the allowed ones.
fn try_file(
    game: &Path,
    path: &Path,
    as_save: bool,
    outcomes: &mut Outcomes,
) -> Result<(), String> {
    let named = |e: &str| {
        e.contains(path.to_str().unwrap())
            .then_some(())
            .ok_or(format!("the error does not name the file: {e}"))
    };
    let replay = match Replay::load(path) {
        Ok(replay) => replay,
        Err(e) => {
            outcomes.refused_at_read += 1;
            return named(&e.to_string());
        }
    };
    let (rate, end) = (replay.rate, replay.end_tick);
    let playback = if as_save {
        PlaybackPlugin::load(replay).state_from(path.to_path_buf())
    } else {
        PlaybackPlugin::replay(replay)
    };
    let mut app = playing(game, rate, playback);
    // A mission name made into one the install lacks is refused as any
    // unknown mission is.
    if let Err(e) = update_until_loaded(&mut app) {
        let e = e.to_string();
        if !e.contains("missing: mission") {
            return Err(format!("the mission does not load: {e}"));
        }
        outcomes.no_such_mission += 1;
        return Ok(());
    }
    let restored = app.world().resource::<Playback>().restore_error.clone();
    if let Some(e) = restored {
        outcomes.refused_at_restore += 1;
        return named(&e);
    }
    let start = app.world().resource::<iron3d_schedules::GameClock>().tick();
    run_headless(
        &mut app,
        start + PLAYED_TICKS.min(end.max(1)),
        None,
        |_, _| {},
    );
    if app.world().resource::<Playback>().divergence.is_some() {
        outcomes.parted += 1;
    } else {
        outcomes.played += 1;
    }
    Ok(())
}

/// Runs `cases` mutations of `text` through [`try_file`]; every panic or
/// unnamed refusal is a failure, listed with its mutation.
fn sweep(game: &Path, dir: &Path, text: &str, as_save: bool, seed: u64, cases: usize) -> Outcomes {
    let numbers = numbers(text);
    assert!(numbers.len() > 100, "a document with its numbers");
    let mut seq = Sequence(seed);
    let mut outcomes = Outcomes::default();
    let mut failures = Vec::new();
    for case in 0..cases {
        let (mutated, what) = mutate(text, &numbers, &mut seq);
        let path = dir.join(format!("case{case}.ron"));
        std::fs::write(&path, &mutated).unwrap();
        let tried = catch_unwind(AssertUnwindSafe(|| {
            try_file(game, &path, as_save, &mut outcomes)
        }));
        match tried {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("case {case} ({what}): {e}")),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("no message");
                failures.push(format!("case {case} ({what}): panicked: {message}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    outcomes
}

fn cases() -> usize {
    std::env::var("IRON3D_SWEEP_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

fn seed() -> u64 {
    std::env::var("IRON3D_SWEEP_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

fn demo_install(dir: &Path) -> PathBuf {
    let game = dir.join("game");
    demo::build(&game, demo::DEFAULT_SEED, Scale::Demo).unwrap();
    game
}

#[test]
fn mutated_saves_are_refused_naming_the_file_or_load_and_play() {
    let tmp = tempfile::tempdir().unwrap();
    let game = demo_install(tmp.path());
    let save = tmp.path().join("save.ron");
    let record = RecordPlugin {
        path: None,
        rate: 30.0,
        saves: vec![(40, save.clone())],
        orders: Vec::new(),
    };
    let mission = MissionPlugin {
        request: Some(MissionRequest::first_of(game.clone())),
        seed: 0,
    };
    let mut app = headless(SimulationRate(30.0), mission, record);
    update_until_loaded(&mut app).unwrap();
    run_headless(&mut app, 41, None, |_, _| {});
    let text = std::fs::read_to_string(&save).expect("the save was written at tick 40");
    let outcomes = sweep(&game, tmp.path(), &text, true, seed(), cases());
    println!("saves: {outcomes:?}");
    // The sweep reaches every stage: the reader, the restore and play.
    assert!(outcomes.refused_at_read > 0 && outcomes.refused_at_restore > 0);
    assert!(outcomes.parted + outcomes.played > 0, "{outcomes:?}");
}

#[test]
fn mutated_replays_are_refused_naming_the_file_or_play() {
    let tmp = tempfile::tempdir().unwrap();
    let game = demo_install(tmp.path());
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/walk-and-fire.ron");
    let text = std::fs::read_to_string(kept).unwrap();
    let outcomes = sweep(&game, tmp.path(), &text, false, seed(), cases());
    println!("replays: {outcomes:?}");
    assert!(outcomes.refused_at_read > 0, "{outcomes:?}");
    assert!(outcomes.parted + outcomes.played > 0, "{outcomes:?}");
}
