#![no_main]
//! PE string tables: a file that reads writes back byte-identical, and
//! its strings build a DLL that reads back to the same strings.
use iron3d_formats::strings::StringDll;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(dll) = StringDll::parse(data) {
        assert_eq!(dll.to_bytes(), data);
        if let Ok(built) = StringDll::build(&dll.strings) {
            assert_eq!(built.strings, dll.strings);
        }
    }
});
