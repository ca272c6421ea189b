#![no_main]
//! LZSS: the first two bytes are the unpacked size; decoding never panics,
//! and encode -> decode round-trips the input.
use iron3d_formats::archive::lzss;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let [a, b, rest @ ..] = data {
        let size = u16::from_le_bytes([*a, *b]) as usize;
        if let Ok(out) = lzss::decode(rest, size) {
            assert_eq!(out.len(), size);
        }
    }
    assert_eq!(lzss::decode(&lzss::encode(data), data.len()).unwrap(), data);
});
