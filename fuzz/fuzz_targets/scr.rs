#![no_main]
//! `.scr`: a script that reads writes back to the same bytes; its checks and
//! its disassembly never panic.
use iron3d_formats::script::scr::Script;
use iron3d_formats::script::{check_against, dis, varset::Varset};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(script) = Script::parse(data) {
        assert_eq!(script.to_bytes().unwrap(), data);
        let _ = script.check();
        let vars = Varset::parse(b"VAR( DWORD, d0, 0)\nVAR( float, fTemp, 1)\n").unwrap();
        let _ = check_against(&script, &vars, None);
        let _ = dis::listing(&script, Some(&vars), None).text();
    }
});
