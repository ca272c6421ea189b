//! Mutation test of the PE string-table reader (`iron3d.dll`,
//! `TextRes.dll`): thousands of corrupted variants of a valid DLL —
//! truncation at every offset, flipped bytes, words pushed out of range —
//! give an error or strings, never a panic, with peak heap linear in the
//! input; what reads writes back byte-identical.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::error::Problem;
use iron3d_formats::strings::StringDll;
use std::collections::BTreeMap;

fn sample() -> StringDll {
    let strings: BTreeMap<u32, String> = [
        (8, "Привет"),
        (1012, "MISSION ACCOMPLISHED"),
        (1013, "MISSION LOST"),
        (5094, "INF"),
    ]
    .into_iter()
    .map(|(id, t)| (id, t.to_string()))
    .collect();
    StringDll::build(&strings).unwrap()
}

#[test]
fn string_tables_survive_mutation() {
    let dll = sample();
    let valid = dll.to_bytes();
    // The headers, the tree and the blocks: every byte up to the padding.
    let used = valid.iter().rposition(|&b| b != 0).unwrap() + 1;
    let cuts: Vec<usize> = (0..used).collect();
    let rejected = support::assert_robust(
        valid,
        Some(&cuts),
        |len| 8 * len + 64 * 1024,
        |d| {
            let read = StringDll::parse(d)?;
            assert_eq!(read.to_bytes(), d, "read but not written back");
            Ok::<_, iron3d_formats::error::FormatError>(read)
        },
    );
    assert!(rejected > 100, "only {rejected} rejected");
}

#[test]
fn a_cut_file_is_truncated_where_it_ends() {
    let valid = sample().to_bytes().to_vec();
    let err = StringDll::parse(&valid[..0x3e]).unwrap_err();
    assert!(matches!(err.problem, Problem::Truncated { .. }), "{err}");
    assert_eq!(err.offset, 0x3c);
}
