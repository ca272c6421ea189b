#![no_main]
//! The input tables (`hero.tbl`); a parsed file must write back
//! byte-identical.
use iron3d_formats::config::input_table::InputTable;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = InputTable::parse(data) {
        assert_eq!(t.to_bytes(), data);
    }
});
