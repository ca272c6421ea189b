#![no_main]
//! MAT0: the first byte picks the version (attr2), the rest is the payload;
//! a parsed material writes back byte-identical and phase selection never
//! panics.
use iron3d_formats::mat0::Mat0;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&version, payload)) = data.split_first() else {
        return;
    };
    if let Ok(m) = Mat0::parse(payload, 0, (version % 8) as u32) {
        assert_eq!(m.to_bytes().unwrap(), payload);
        for block in 0..m.animations.len() {
            let _ = m.select_phase(block, u32::from(version) * 7919, u64::from(version));
        }
    }
});
