#![no_main]
//! RIFF/WAVE: a parsed file writes back byte-identical; decoding (PCM, MS
//! ADPCM) gives samples or an error.
use iron3d_formats::sound::{Wave, classify};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(w) = Wave::parse(data) {
        assert_eq!(w.to_bytes().unwrap(), data);
        let _ = w.decode();
    }
    let _ = classify(Some(data));
});
