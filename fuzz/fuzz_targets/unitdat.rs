#![no_main]
//! Unit DAT in both modes; a parsed file must write back byte-identical.
use iron3d_formats::archive::Mode;
use iron3d_formats::unitdat::UnitDat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(dat) = UnitDat::parse(data, mode) {
            let _ = dat.tree();
            assert_eq!(dat.to_bytes(), data);
        }
    }
});
