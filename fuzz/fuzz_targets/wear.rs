#![no_main]
//! WEAR in both modes; a parsed table must write back byte-identical.
use iron3d_formats::archive::Mode;
use iron3d_formats::wear::Wear;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(w) = Wear::parse(data, mode) {
            assert_eq!(w.to_bytes().unwrap(), data);
        }
    }
});
