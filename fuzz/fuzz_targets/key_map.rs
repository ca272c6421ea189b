#![no_main]
//! Key maps (`.man`): a file that reads writes back byte-identical.
use iron3d_formats::config::key_map::KeyMap;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = KeyMap::parse(data) {
        assert_eq!(map.to_bytes(), data);
    }
});
