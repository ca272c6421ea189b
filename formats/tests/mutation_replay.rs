//! Mutation test of the replay and save decoder: corrupted variants of a
//! kept replay (truncations, flipped bytes, words pushed out of range)
//! give an error or a replay, never a panic, with peak heap linear in the
//! input; what reads writes back to a document that reads the same. The
//! checks' errors name the field; a document of tiny list items is
//! refused within its memory budget.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::replay::{MAX_LIST_BYTES, Parse, Replay};

fn kept() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/replays/walk-and-fire.ron"
    );
    std::fs::read_to_string(path).unwrap()
}

/// The document's problem, when it is refused as a document.
fn problem(text: &str) -> String {
    match Replay::parse(text) {
        Err(Parse::Document(problem)) => problem,
        other => panic!("not refused as a document: {other:?}"),
    }
}

#[test]
fn replays_survive_mutation() {
    let valid = kept();
    // Every 13th cut: the document is 31 KB of text, each variant read
    // twice.
    let cuts: Vec<usize> = (0..valid.len()).step_by(13).collect();
    let rejected = support::assert_robust(
        valid.as_bytes(),
        Some(&cuts),
        |len| 32 * len + 256 * 1024,
        |d| {
            let text = std::str::from_utf8(d).map_err(|e| e.to_string())?;
            let read = Replay::parse(text).map_err(|e| format!("{e:?}"))?;
            let again = Replay::parse(&read.to_ron()).expect("written back, it reads");
            assert_eq!(again, read, "read but not written back the same");
            Ok::<_, String>(read)
        },
    );
    assert!(rejected > 2000, "only {rejected} rejected");
}

#[test]
fn each_check_names_its_field() {
    let valid = kept();
    let with = |from: &str, to: &str| {
        assert!(valid.contains(from), "{from}");
        valid.replacen(from, to, 1)
    };
    assert!(problem(&with("rate: 30.0", "rate: 0.0")).starts_with("rate: 0 is not"));
    assert!(problem(&with("rate: 30.0", "rate: NaN")).starts_with("rate: NaN is not"));
    assert!(
        problem(&with("end_tick: 306", "end_tick: 18446744073709551615"))
            .starts_with("end_tick: 18446744073709551615 is more than a day")
    );
    assert!(problem(&with("(tick: 63,", "(tick: 3,")).starts_with("steps[1]: tick 3"));
    assert!(
        problem(&with("mouse: (40.0, 0.0)", "mouse: (inf, 0.0)"))
            .starts_with("steps[2]: mouse counts and sensitivity must be finite")
    );
    assert!(matches!(
        Replay::parse(&with("version: 1", "version: 7")),
        Err(Parse::Version(7))
    ));
}

#[test]
fn tiny_list_items_are_refused_within_the_budget() {
    let valid = kept();
    let items = "\"\",".repeat(MAX_LIST_BYTES / size_of::<String>() + 1);
    let text = valid.replacen("subjects: [", &format!("subjects: [{items}"), 1);
    let (peak, refused) = support::peak_heap(|| problem(&text));
    assert!(
        refused.contains("the document's lists are longer than a recording holds"),
        "{refused}"
    );
    // The budget, the vector's growth past it, and little more.
    assert!(peak < 3 * MAX_LIST_BYTES, "peak heap {peak}");
}
