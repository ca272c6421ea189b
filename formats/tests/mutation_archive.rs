//! Mutation test of the archive readers and codecs: thousands of corrupted
//! variants of valid archives and streams (truncation at every offset,
//! flipped bytes, words pushed out of range) must give `Ok` or `Err`, never a
//! panic, with peak heap bounded by the input size.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{self, NewEntry, Nres, NresEditor};
use iron3d_formats::archive::rsli::{self, Method, NewRsliEntry, Rsli, RsliEditor};
use iron3d_formats::archive::{deflate, lzhuf, lzss};
use support::{expect_error, variant};

fn text(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| b"the quick brown fox "[i % 20] ^ (i / 97) as u8)
        .collect()
}

/// Everything a caller may do with an NRes archive.
fn exercise_nres(data: &[u8]) -> Result<(), ()> {
    let mut failed = false;
    for mode in [Mode::Strict, Mode::Compatible] {
        match Nres::parse(data, mode) {
            Ok(a) => {
                for (i, e) in a.entries().iter().enumerate() {
                    let _ = a.payload(i);
                    let _ = a.find(e.name());
                }
                let _ = a.regions();
                let out = NresEditor::new(&a).to_bytes().map_err(|_| ())?;
                assert_eq!(out, data, "lossless rewrite of an accepted variant");
            }
            Err(_) => failed = true,
        }
    }
    if failed { Err(()) } else { Ok(()) }
}

/// The RsLi archive of the variant tests: one entry per method, then an
/// overlay trailer.
fn rsli_sample(data: &[u8]) -> Vec<u8> {
    let entries: Vec<NewRsliEntry> = Method::ALL
        .iter()
        .enumerate()
        .map(|(i, &method)| NewRsliEntry {
            name: format!("E{i}.BIN").into_bytes(),
            method,
            payload: &data[i * 20..],
        })
        .collect();
    let mut valid = rsli::build(&entries).unwrap();
    valid.extend_from_slice(b"AO\0\0\0\0");
    valid
}

/// Everything a caller may do with an RsLi archive.
fn exercise_rsli(data: &[u8]) -> Result<(), ()> {
    let mut failed = false;
    for mode in [Mode::Strict, Mode::Compatible] {
        match Rsli::parse_named(data, mode, "sprites.lib") {
            Ok(a) => {
                for (i, e) in a.entries().iter().enumerate() {
                    failed |= a.load(i).is_err();
                    let _ = a.find(e.name());
                }
                if let Ok(ed) = RsliEditor::new(&a) {
                    let out = ed.to_bytes().map_err(|_| ())?;
                    assert_eq!(out, data, "lossless rewrite of an accepted variant");
                }
            }
            Err(_) => failed = true,
        }
    }
    if failed { Err(()) } else { Ok(()) }
}

/// Heap allowed for an input of `len` bytes: the decoders may allocate up
/// to their format's output ratio (Deflate: 1032:1) of a payload.
fn budget(len: usize) -> usize {
    len * 1100 + (256 << 10)
}

#[test]
fn nres_variants_never_panic() {
    let payloads: Vec<Vec<u8>> = (0..6).map(|i| text(10 + i * 13)).collect();
    let entries: Vec<NewEntry> = payloads
        .iter()
        .enumerate()
        .map(|(i, p)| NewEntry {
            name: format!("Entry{i}.bin").into_bytes(),
            type_id: 0x6D786554,
            attr1: i as u32,
            attr2: 7,
            attr3: 9,
            payload: p,
        })
        .collect();
    let valid = nres::build(&entries).unwrap();
    exercise_nres(&valid).unwrap();
    let rejected = support::assert_robust(&valid, None, budget, exercise_nres);
    assert!(rejected > 0);
}

#[test]
fn rsli_variants_never_panic() {
    let valid = rsli_sample(&text(300));
    exercise_rsli(&valid).unwrap();
    let rejected = support::assert_robust(&valid, None, budget, exercise_rsli);
    assert!(rejected > 0);
}

#[test]
fn codec_streams_never_panic() {
    let data = text(3000);
    type Decoder = fn(&[u8], usize) -> iron3d_formats::error::Result<Vec<u8>>;
    let codecs: [(Vec<u8>, Decoder); 3] = [
        (lzss::encode(&data), lzss::decode),
        (lzhuf::encode(&data), lzhuf::decode),
        (deflate::encode(&data), deflate::decode),
    ];
    for (stream, decode) in codecs {
        assert_eq!(decode(&stream, data.len()).unwrap(), data);
        support::assert_robust(&stream, None, budget, |s| decode(s, data.len()));
        // sizes pushed out of range
        for unpacked in [
            0,
            1,
            data.len() - 1,
            data.len() + 1,
            usize::MAX / 2,
            usize::MAX,
        ] {
            let (peak, _) = support::peak_heap(|| decode(&stream, unpacked));
            assert!(
                peak <= budget(stream.len()),
                "peak {peak} for unpacked {unpacked}"
            );
        }
    }
}

#[test]
fn named_variants_fail_with_their_exact_error() {
    let valid = rsli_sample(&text(300));
    expect_error(
        Rsli::parse(&variant(&valid, "truncated at 20"), Mode::Strict),
        0,
        "RsLi: truncated: expected 32 more bytes, 20 available",
    );
    expect_error(
        Rsli::parse(&variant(&valid, "truncated at 200"), Mode::Strict),
        32,
        "RsLi: expected table rows: 7 x 32 bytes within the 168 remaining, found 224 bytes needed",
    );
    let stream = lzhuf::encode(&text(3000));
    expect_error(
        lzhuf::decode(&variant(&stream, "truncated at 100"), 3000),
        100,
        "LZHUF: truncated: expected 2609 more bytes, 0 available",
    );
}
