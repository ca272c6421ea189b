// Sample archives shared by the unit tests of `archive::tool` (through
// `include!`, so no inner attributes here) and the CLI tests of
// `iron3d archive` (through `#[path]`). The including module has `nres` and
// `NewEntry` in scope.

use super::{NewEntry, nres};

/// A two-entry NRes: `Tree01` (type `Texm`, attributes 1/2/3) and
/// `model.msh` (type `MESH`).
pub fn sample_nres() -> Vec<u8> {
    nres::build(&[
        NewEntry {
            name: b"Tree01".to_vec(),
            type_id: 0x6D786554,
            attr1: 1,
            attr2: 2,
            attr3: 3,
            payload: b"texture",
        },
        NewEntry {
            name: b"model.msh".to_vec(),
            type_id: 0x4853454D,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload: b"mesh!",
        },
    ])
    .expect("sample NRes")
}
