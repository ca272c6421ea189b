#![no_main]
//! `objects.rlb`: parse, then resolve every prototype (cycles, depth limit).
use iron3d_formats::archive::Mode;
use iron3d_formats::registry::Registry;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(reg) = Registry::parse(data, mode) {
            for p in &reg.prototypes {
                if let Ok(r) = reg.resolve(&p.key) {
                    let _ = r.geometry();
                }
            }
        }
    }
});
