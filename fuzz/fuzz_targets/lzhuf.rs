#![no_main]
//! LZHUF: the first two bytes are the unpacked size; decoding never panics,
//! and encode -> decode round-trips the input.
use iron3d_formats::archive::lzhuf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let [a, b, rest @ ..] = data {
        let size = u16::from_le_bytes([*a, *b]) as usize;
        if let Ok(out) = lzhuf::decode(rest, size) {
            assert_eq!(out.len(), size);
        }
    }
    assert_eq!(
        lzhuf::decode(&lzhuf::encode(data), data.len()).unwrap(),
        data
    );
});
