#![no_main]
//! Small prototype formats: the first byte picks the reader; whatever parses
//! writes back byte-identical.
use iron3d_formats::archive::Mode;
use iron3d_formats::proto::{base, ctld, ctpt, expl, ndpr, refs, ske, tfnt, trf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, d)) = data.split_first() else {
        return;
    };
    let back = match which % 9 {
        0 => ctpt::Ctpt::parse(d).map(|v| v.to_bytes().unwrap()),
        1 => ndpr::Ndpr::parse(d).map(|v| v.to_bytes().unwrap()),
        2 => expl::Expl::parse(d).map(|v| v.to_bytes()),
        3 => refs::ReferenceArray::parse(d).map(|v| v.to_bytes()),
        4 => base::Base::parse(d).map(|v| v.to_bytes().unwrap()),
        5 => ctld::Ctld::parse(d).map(|v| v.to_bytes().unwrap()),
        6 => ske::Sky::parse(d).map(|v| v.to_bytes().unwrap()),
        7 => tfnt::Tfnt::parse(d).map(|v| v.to_bytes().unwrap()),
        _ => trf::Trf::parse(d, Mode::Strict).map(|v| v.to_bytes()),
    };
    if let Ok(bytes) = back {
        assert_eq!(bytes, d);
    }
});
