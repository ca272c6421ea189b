#![no_main]
//! Texm: whatever parses decodes every level and writes back byte-identical.
use iron3d_formats::texm::Texm;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = Texm::parse(data) {
        for level in 0..t.mip_count() {
            let _ = t.decode_level(level);
        }
        let _ = t.skipped(t.mip_count() - 1);
        assert_eq!(t.to_bytes().unwrap(), data);
    }
});
