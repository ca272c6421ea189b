#![no_main]
//! NRes: whatever parses (either mode) serves every payload and lookup, and
//! writes back byte-identical through the lossless editor.
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{Nres, NresEditor};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Compatible] {
        if let Ok(a) = Nres::parse(data, mode) {
            for (i, e) in a.entries().iter().enumerate() {
                let _ = a.payload(i);
                assert!(a.find(e.name()).is_some());
            }
            let _ = a.regions();
            assert_eq!(NresEditor::new(&a).to_bytes().unwrap(), data);
        }
    }
});
