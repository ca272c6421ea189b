#![no_main]
//! RsLi: parse in both modes (as sprites.lib, so the named quirk is
//! reachable), decode every row, look every name up, rewrite losslessly.
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::rsli::{Rsli, RsliEditor};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(a) = Rsli::parse_named(data, mode, "sprites.lib") {
            for (i, e) in a.entries().iter().enumerate() {
                let _ = a.load(i);
                let _ = a.find(e.name());
            }
            if let Ok(ed) = RsliEditor::new(&a) {
                assert_eq!(ed.to_bytes().unwrap(), data);
            }
        }
    }
});
