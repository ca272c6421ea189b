//! Memory on hostile saves and replays: documents built to take the most
//! memory a file within the size limit can ask for (lists of tiny items,
//! one huge string, a save's state section of millions of values, tens
//! of thousands of state sections) are refused or played with the
//! process's peak memory under [`PEAK_LIMIT_KB`], as a plain replay's is.
//! The peak is the largest resident size of any `iron3d` this test
//! started (the kernel's figure for waited-for children), so this file
//! holds this one test alone.

use std::path::Path;
use std::process::{Command, Output};

/// The most resident memory an `iron3d` run may take, KiB.
const PEAK_LIMIT_KB: i64 = 200 * 1024;

/// What a replay or save file may hold, bytes (`MAX_FILE_BYTES`).
const FILE_LIMIT: usize = iron3d_replay::MAX_FILE_BYTES as usize;

/// A header of the demo install's first mission, at `rate` and `end`.
fn header(rate: u32, end: u64) -> String {
    format!(
        "(version: 1, engine: \"0.1.0\", mission: \"Campaign.00/Mission.01\", \
         install: \"089c4693d2cc281f\", seed: 0, rate: {rate}.0, end_tick: {end}, orders: [], "
    )
}

/// `count` copies of `item`, as many as fit in a file with room for the
/// rest of the document.
fn repeated(item: &str, count: usize) -> String {
    item.repeat(count.min((FILE_LIMIT - 1024) / item.len()))
}

/// A document as big as a file may be, with `lists` bytes of list
/// elements in memory where `count` items are asked.
fn documents() -> Vec<(&'static str, String, &'static [&'static str], &'static str)> {
    let replay = ["replay", "--headless", "--verify"].as_slice();
    let load = ["play", "--headless", "--ticks", "40", "--load"].as_slice();
    let no_state = "steps: [], checkpoints: [(tick: 30, hash: 0, sections: [])]";
    vec![
        (
            "subjects past the budget",
            format!(
                "{}steps: [], subjects: [{}], checkpoints: [])",
                header(30, 100),
                repeated("\"\",", usize::MAX)
            ),
            replay,
            "the document's lists are longer than a recording holds",
        ),
        (
            "subjects within the budget",
            format!(
                "{}steps: [], subjects: [{}], checkpoints: [(tick: 30, hash: 0, sections: [])])",
                header(30, 100),
                repeated("\"\",", (16 << 20) / 24 - 2000)
            ),
            replay,
            "the run parts from the recording by tick 30",
        ),
        (
            "checkpoint sections within the budget",
            format!(
                "{}steps: [], checkpoints: [(tick: 30, hash: 0, sections: [{}])])",
                header(30, 100),
                repeated("(\"\",0),", (16 << 20) / 32 - 2000)
            ),
            replay,
            "the run parts from the recording by tick 30",
        ),
        (
            "a change of a whole file",
            format!(
                "{}steps: [], checkpoints: [(tick: 30, hash: 0, sections: [], changes: \"{}\")])",
                header(30, 100),
                repeated("x", usize::MAX)
            ),
            replay,
            "bad change \"xxxx",
        ),
        (
            "a state section of millions of values",
            format!(
                "{}{no_state}, state: Some([(name: \"world\", state: [{}])]))",
                header(30, 30),
                repeated("0,", usize::MAX)
            ),
            load,
            "state does not load",
        ),
        (
            "state sections within the budget",
            format!(
                "{}{no_state}, state: Some([{}]))",
                header(30, 30),
                repeated("(name:\"\",state:0),", (16 << 20) / 40 - 2000)
            ),
            load,
            "state does not load",
        ),
        (
            "a file past the limit",
            " ".repeat(FILE_LIMIT + 1),
            replay,
            "more than the",
        ),
    ]
}

/// `iron3d ARGS FILE` with its own demo cache.
fn iron3d(args: &[&str], file: &Path, cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .arg(file)
        .env("XDG_CACHE_HOME", cache)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run iron3d")
}

/// The largest resident size of the children waited for, KiB.
fn children_peak_kb() -> i64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss
}

#[test]
fn hostile_saves_and_replays_stay_within_memory() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    for (i, (what, text, args, says)) in documents().into_iter().enumerate() {
        assert!(text.len() <= FILE_LIMIT + 1, "{what}: {} bytes", text.len());
        let file = dir.path().join(format!("hostile-{i}.ron"));
        std::fs::write(&file, text).unwrap();
        let o = iron3d(args, &file, &cache);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        let said = err
            .lines()
            .find(|l| l.starts_with("iron3d: "))
            .unwrap_or("");
        assert!(said.contains(says), "{what}: {said}");
        assert!(
            said.len() < 1000,
            "{what}: a message of {} bytes",
            said.len()
        );
        let peak = children_peak_kb();
        assert!(peak < PEAK_LIMIT_KB, "{what}: peak {peak} KiB");
        println!("{what}: refused or parted; peak so far {peak} KiB");
    }
}
