// Sample archives shared by the unit tests of `archive::open` and
// `archive::extract` (through `include!`, so no inner attributes here) and
// the CLI tests of `iron3d archive` (through `#[path]`). The including module
// has `nres`, `NewEntry`, `rsli`, `Method` and `NewRsliEntry` in scope.

use super::{Method, NewEntry, NewRsliEntry, nres, rsli};

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

/// A four-entry RsLi, one entry per method: `FONT.TEX` (LZSS), `RAW.BIN`
/// (raw), `Z.DEF` (Deflate) and `H.HUF` (XOR + LZHUF).
pub fn sample_rsli() -> Vec<u8> {
    let text = b"font data font data font data".repeat(5);
    rsli::build(&[
        NewRsliEntry {
            name: b"FONT.TEX".to_vec(),
            method: Method::Lzss,
            payload: &text,
        },
        NewRsliEntry {
            name: b"RAW.BIN".to_vec(),
            method: Method::Raw,
            payload: b"raw",
        },
        NewRsliEntry {
            name: b"Z.DEF".to_vec(),
            method: Method::Deflate,
            payload: &text,
        },
        NewRsliEntry {
            name: b"H.HUF".to_vec(),
            method: Method::XorLzhuf,
            payload: &text,
        },
    ])
    .expect("sample RsLi")
}
