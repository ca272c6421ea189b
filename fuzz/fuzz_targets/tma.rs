#![no_main]
//! `data.tma` in both modes; a parsed file must write back byte-identical.
use iron3d_formats::archive::Mode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(t) = iron3d_formats::tma::parse(data, mode) {
            assert_eq!(t.to_bytes().ok().as_deref(), Some(data));
        }
    }
});
