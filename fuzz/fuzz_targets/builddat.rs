#![no_main]
//! `BuildDat.lst` in both modes; a parsed file must write back byte-identical.
use iron3d_formats::archive::Mode;
use iron3d_formats::config::builddat::BuildDat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(b) = BuildDat::parse(data, mode) {
            assert_eq!(b.to_bytes(), data);
        }
    }
});
