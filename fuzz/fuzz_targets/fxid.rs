#![no_main]
//! FXID: a parsed effect writes back byte-identical.
use iron3d_formats::fxid::Fxid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(fx) = Fxid::parse(data) {
        assert_eq!(fx.to_bytes().unwrap(), data);
        for c in &fx.commands {
            let _ = c.resource();
        }
    }
});
