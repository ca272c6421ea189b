#![no_main]
//! A behaviour profile (`behpsp.res` entry): a profile that reads writes
//! back to the same bytes.
use iron3d_formats::config::profile::VarProfile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(profile) = VarProfile::parse(data) {
        assert_eq!(profile.to_bytes(), data);
    }
});
