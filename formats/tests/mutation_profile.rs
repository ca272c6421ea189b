//! Mutation test of the behaviour-profile reader (`behpsp.res` entries):
//! truncations at every offset, flipped bytes and words pushed out of
//! range give an error or a profile, never a panic, with peak heap linear
//! in the input; what reads writes back byte-identical.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::config::profile::{ECONOMY_VARIABLES, ProfileVar, VarProfile};
use iron3d_formats::script::varset::VarType;

/// A building profile with the economy's six variables as floats.
fn sample() -> VarProfile {
    let float = |name: &str, value: f32| ProfileVar {
        size: 4,
        type_word: VarType::Float as u32,
        reserved: [0, 0],
        name: name.as_bytes().to_vec(),
        values: [value, value, 0.0, 10_000.0].map(f32::to_le_bytes),
    };
    let figures = [0.0, 4.0, 5.0, 0.0, 100.0, 0.0];
    VarProfile {
        vars: ECONOMY_VARIABLES
            .iter()
            .zip(figures)
            .map(|(name, value)| float(name, value))
            .collect(),
    }
}

#[test]
fn profiles_survive_mutation() {
    let valid = sample().to_bytes();
    assert_eq!(
        VarProfile::parse(&valid).unwrap().number("Use_Ore"),
        Some(5.0)
    );
    let rejected = support::assert_robust(
        &valid,
        None,
        |len| 4 * len + 16 * 1024,
        |d| {
            let read = VarProfile::parse(d)?;
            assert_eq!(read.to_bytes(), d, "read but not written back");
            Ok::<_, iron3d_formats::error::FormatError>(read)
        },
    );
    assert!(rejected > 200, "only {rejected} rejected");
}
