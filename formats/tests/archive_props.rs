//! Property tests of the archive layer: random archives built by the
//! canonical writers read back to the same entries (every RsLi method), the
//! lossless writers reproduce them byte for byte, and the codecs round-trip.

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{self, NewEntry, Nres, NresEditor};
use iron3d_formats::archive::rsli::{self, Method, NewRsliEntry, Rsli, RsliEditor};
use iron3d_formats::archive::{deflate, lzhuf, lzss};
use proptest::prelude::*;

/// Payloads with runs and repeats, so the LZ codecs find matches.
fn payload() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600),
        proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b' ')], 0..3000),
        (proptest::collection::vec(any::<u8>(), 1..40), 1..80usize)
            .prop_map(|(unit, n)| unit.repeat(n)),
    ]
}

fn name(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            b'a'..=b'z',
            b'A'..=b'Z',
            b'0'..=b'9',
            Just(b'.'),
            Just(b'_')
        ],
        1..=max,
    )
}

fn method() -> impl Strategy<Value = Method> {
    proptest::sample::select(Method::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn nres_build_read_compare(entries in proptest::collection::vec((name(35), any::<[u32; 4]>(), payload()), 0..12)) {
        let news: Vec<NewEntry> = entries
            .iter()
            .map(|(n, a, p)| NewEntry { name: n.clone(), type_id: a[0], attr1: a[1], attr2: a[2], attr3: a[3], payload: p })
            .collect();
        let bytes = nres::build(&news).unwrap();
        let archive = Nres::parse(&bytes, Mode::Strict).unwrap();
        prop_assert_eq!(archive.len(), news.len());
        for (i, n) in news.iter().enumerate() {
            let e = &archive.entries()[i];
            prop_assert_eq!(e.name(), n.name.as_slice());
            prop_assert_eq!((e.type_id, e.attr1, e.attr2, e.attr3), (n.type_id, n.attr1, n.attr2, n.attr3));
            prop_assert_eq!(archive.payload(i), n.payload);
            prop_assert_eq!(e.data_offset % 8, 0);
            let first = news.iter().position(|m| m.name.eq_ignore_ascii_case(&n.name));
            prop_assert_eq!(archive.find(&n.name.to_ascii_uppercase()), first);
        }
        prop_assert_eq!(NresEditor::new(&archive).to_bytes().unwrap(), bytes);
    }

    #[test]
    fn rsli_build_read_compare(entries in proptest::collection::vec((name(12), method(), payload()), 0..8)) {
        let news: Vec<NewRsliEntry> =
            entries.iter().map(|(n, m, p)| NewRsliEntry { name: n.clone(), method: *m, payload: p }).collect();
        let bytes = rsli::build(&news).unwrap();
        let archive = Rsli::parse(&bytes, Mode::Strict).unwrap();
        prop_assert_eq!(archive.len(), news.len());
        for (i, n) in news.iter().enumerate() {
            let upper = n.name.to_ascii_uppercase();
            prop_assert_eq!(archive.entries()[i].name(), upper.as_slice());
            prop_assert_eq!(archive.method(i), n.method);
            prop_assert_eq!(archive.load(i).unwrap(), n.payload);
            let found = archive.find(&n.name).unwrap();
            prop_assert!(archive.entries()[found].name().eq_ignore_ascii_case(&n.name));
        }
        prop_assert_eq!(RsliEditor::new(&archive).unwrap().to_bytes().unwrap(), bytes);
    }

    #[test]
    fn rsli_lossless_edit_keeps_other_rows(entries in proptest::collection::vec((name(12), method(), payload()), 1..6), new in payload(), pick in any::<prop::sample::Index>()) {
        let news: Vec<NewRsliEntry> =
            entries.iter().map(|(n, m, p)| NewRsliEntry { name: n.clone(), method: *m, payload: p }).collect();
        let bytes = rsli::build(&news).unwrap();
        let archive = Rsli::parse(&bytes, Mode::Strict).unwrap();
        let k = pick.index(news.len());
        let mut ed = RsliEditor::new(&archive).unwrap();
        ed.set_payload(k, &new).unwrap();
        let out = ed.to_bytes().unwrap();
        let edited = Rsli::parse(&out, Mode::Strict).unwrap();
        for (i, n) in news.iter().enumerate() {
            let expect: &[u8] = if i == k { &new } else { n.payload };
            prop_assert_eq!(edited.load(i).unwrap(), expect);
            if i != k {
                prop_assert_eq!(edited.stored(i), archive.stored(i));
            }
        }
    }

    #[test]
    fn codecs_round_trip(data in payload()) {
        prop_assert_eq!(lzss::decode(&lzss::encode(&data), data.len()).unwrap(), data.clone());
        prop_assert_eq!(lzhuf::decode(&lzhuf::encode(&data), data.len()).unwrap(), data.clone());
        prop_assert_eq!(deflate::decode(&deflate::encode(&data), data.len()).unwrap(), data);
    }
}
