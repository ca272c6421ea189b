//! `behpsp.res`: the behaviour profiles of the buildings and the
//! transport, one `.var` entry per role (docs/facts.md "Behaviour
//! profiles"), with the figures openparkan measured on the retail archive.

use crate::assets::Entries;
use iron3d_formats::config::profile::BuildingProfile;
use iron3d_formats::error::Result;

/// Each role's entry and its power out, power used, ore used, ore held,
/// ore on board and ore off board.
const PROFILES: [(&str, [f32; 6]); 11] = [
    ("prof_generator.var", [10.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_mine.var", [0.0, 1.0, 0.0, 1000.0, 0.0, 1.0]),
    ("prof_storage.var", [0.0, 1.0, 0.0, 4000.0, 20.0, 1.0]),
    ("prof_plant.var", [0.0, 4.0, 5.0, 0.0, 100.0, 0.0]),
    ("prof_institute.var", [0.0, 3.0, 1.0, 0.0, 100.0, 0.0]),
    ("prof_trn.var", [0.0, 0.0, 0.0, 1000.0, 100.0, 100.0]),
    ("prof_tower.var", [0.0, 10.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_mast.var", [0.0, 10.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_angar.var", [0.0, 3.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_teleport.var", [0.0, 2.0, 0.0, 0.0, 0.0, 0.0]),
    ("prof_bunker.var", [0.07, 1.0, 0.0, 0.0, 0.0, 0.0]),
];

/// The archive's bytes.
pub fn archive() -> Result<Vec<u8>> {
    let mut entries = Entries::default();
    for (name, figures) in PROFILES {
        let profile = BuildingProfile::from_figures(figures).to_profile();
        entries.push(name, 0, profile.to_bytes());
    }
    entries.build()
}
