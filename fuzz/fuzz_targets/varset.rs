#![no_main]
//! `varset.var`: a file that reads writes back to the same bytes.
use iron3d_formats::script::varset::Varset;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(vars) = Varset::parse(data) {
        assert_eq!(vars.to_bytes(), data);
        for (i, v) in vars.vars().iter().enumerate() {
            assert!(vars.index_of(&v.name).is_some_and(|first| first as usize <= i));
        }
    }
});
