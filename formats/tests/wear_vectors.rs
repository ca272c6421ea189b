//! WEAR: hand-written vectors from tome V, lossless round trips, the
//! `LIGHTMAPS` framing rule and its compatible-mode quirk.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::error::Problem;
use iron3d_formats::wear::{QUIRK_NO_BLANK_BEFORE_LIGHTMAPS, Wear, WearRow};
use proptest::prelude::*;
use support::expect_error;

const RETAIL_LIKE: &[u8] =
    b"3\r\n0 TREE_BARK\r\n1 LEAVES\r\n7 DEFAULT\r\n\r\nLIGHTMAPS\r\n2\r\n0 LM_TREE01\r\n1 LM_TREE02\r\n";

#[test]
fn reads_material_rows_and_lightmaps() {
    let w = Wear::parse(RETAIL_LIKE, Mode::Strict).unwrap();
    assert_eq!(w.materials.len(), 3);
    assert_eq!(w.material(1), Some(&b"LEAVES"[..]));
    assert_eq!(w.materials[2].legacy_number(), Some(7));
    assert_eq!(w.lightmap(1), Some(&b"LM_TREE02"[..]));
    assert_eq!(w.lightmap(2), None);
    assert_eq!(w.lightmap(0xFF), None);
    assert!(w.quirks.is_empty());
}

#[test]
fn round_trip_is_byte_identical_for_crlf_lf_and_no_final_newline() {
    for input in [
        RETAIL_LIKE,
        b"1\n0 A\n".as_slice(),
        b"2\r\n0 A\r\n1 B".as_slice(),
        b" 2 \r\n0\tA\r\n1   B  \r\n\r\n\r\n".as_slice(),
        b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n0\r\n".as_slice(),
    ] {
        let w = Wear::parse(input, Mode::Strict).unwrap();
        assert_eq!(
            w.to_bytes().unwrap(),
            input,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn editing_one_row_rewrites_only_that_line() {
    let input = b"2\r\n0   A\r\n1\tB\r\n";
    let mut w = Wear::parse(input, Mode::Strict).unwrap();
    w.materials[1].name = b"C".to_vec();
    assert_eq!(w.to_bytes().unwrap(), b"2\r\n0   A\r\n1 C\r\n");
}

#[test]
fn adding_rows_writes_canonically() {
    let mut w = Wear::parse(b"1\n0 A\n", Mode::Strict).unwrap();
    w.materials.push(WearRow::new("1", "B"));
    assert_eq!(w.to_bytes().unwrap(), b"2\r\n0 A\r\n1 B\r\n");
}

#[test]
fn builder_writes_the_blank_separator_before_lightmaps() {
    let w = Wear::new(
        vec![WearRow::new("0", "HULL")],
        Some(vec![WearRow::new("0", "LM_HULL")]),
    );
    let bytes = w.to_bytes().unwrap();
    assert_eq!(bytes, b"1\r\n0 HULL\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_HULL\r\n");
    assert_eq!(
        Wear::parse(&bytes, Mode::Strict).unwrap().lightmaps,
        w.lightmaps
    );
}

#[test]
fn missing_blank_line_is_a_named_quirk() {
    let input = b"1\r\n0 A\r\nLIGHTMAPS\r\n1\r\n0 LM\r\n";
    let err = Wear::parse(input, Mode::Strict).unwrap_err();
    assert!(
        matches!(err.problem, Problem::Quirk { name, .. } if name == QUIRK_NO_BLANK_BEFORE_LIGHTMAPS)
    );
    assert_eq!(err.offset, 8);
    let w = Wear::parse(input, Mode::Compatible).unwrap();
    assert_eq!(w.quirks, vec![QUIRK_NO_BLANK_BEFORE_LIGHTMAPS]);
    assert_eq!(w.lightmap(0), Some(&b"LM"[..]));
    assert_eq!(w.to_bytes().unwrap(), input);
}

#[test]
fn malformed_tables_are_errors_with_offsets() {
    let cases: &[(&[u8], u64)] = &[
        (b"", 0),
        (b"x\r\n", 0),
        (b"2\r\n0 A\r\n", 0),   // fewer rows than counted
        (b"1\r\n0\r\n", 3),     // row without a name
        (b"1\r\n0 A B\r\n", 3), // extra token
        (b"1\r\n0 A\r\n\r\nJUNK\r\n", 10),
        (b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n", 0),
        (b"1\r\n0 A\r\n\r\nLIGHTMAPS\r\n0\r\nLIGHTMAPS\r\n0\r\n", 24),
    ];
    for (input, offset) in cases {
        let err = Wear::parse(input, Mode::Compatible).unwrap_err();
        assert_eq!(
            err.offset,
            *offset,
            "{:?}: {err}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn writer_refuses_names_that_would_not_read_back() {
    let w = Wear::new(vec![WearRow::new("0", "TWO WORDS")], None);
    expect_error(
        w.to_bytes(),
        0,
        "WEAR: expected a non-empty name without whitespace, found \"TWO WORDS\"",
    );
}

fn token() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::char::range('!', '~'), 1..12)
        .prop_map(|cs| cs.into_iter().collect::<String>().into_bytes())
}

fn rows() -> impl Strategy<Value = Vec<WearRow>> {
    proptest::collection::vec(
        (token(), token()).prop_map(|(a, b)| WearRow::new(a, b)),
        0..8,
    )
}

proptest! {
    #[test]
    fn built_tables_read_back(materials in rows(), lightmaps in proptest::option::of(rows())) {
        // A name "LIGHTMAPS" in a row is fine: rows are counted.
        let w = Wear::new(materials, lightmaps);
        let bytes = w.to_bytes().unwrap();
        let back = Wear::parse(&bytes, Mode::Strict).unwrap();
        prop_assert_eq!(&back.materials, &w.materials);
        prop_assert_eq!(&back.lightmaps, &w.lightmaps);
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}
