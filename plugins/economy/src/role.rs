//! What a building or unit is to the economy: its role, which picks its
//! behaviour profile in `behpsp.res` by its Type word (openparkan
//! `docs/23-economy.md`: generators are Types `0x80000002` and the three
//! bunkers', mines and storages `0x80000004` and `0x80000008`; the entry
//! each Type reads is docs/facts.md "The economy's roles").

use bevy::prelude::*;
use iron3d_formats::config::builddat::BuildCategory;
use serde::{Deserialize, Serialize};

/// A role in the economy.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflect, Serialize, Deserialize,
)]
pub enum Role {
    Generator,
    Bunker,
    Mine,
    Storage,
    /// The factory (`prof_plant`: it constructs).
    Plant,
    Hangar,
    Mast,
    Teleport,
    MainTeleport,
    /// The research centre.
    Institute,
    Tower,
    /// A unit that carries ore between a mine and a storage.
    Transport,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 12] = [
        Role::Generator,
        Role::Bunker,
        Role::Mine,
        Role::Storage,
        Role::Plant,
        Role::Hangar,
        Role::Mast,
        Role::Teleport,
        Role::MainTeleport,
        Role::Institute,
        Role::Tower,
        Role::Transport,
    ];

    /// The building role of a Type word: a `BuildDat.lst` category's
    /// mask, or a mast's or a teleport's (which no category has).
    pub fn of_type(word: u32) -> Option<Role> {
        use BuildCategory::*;
        let Some(category) = BuildCategory::from_mask(word) else {
            return match word {
                0x8000_0080 => Some(Role::Mast),
                0x8000_0100 => Some(Role::Teleport),
                _ => None,
            };
        };
        Some(match category {
            Generator => Role::Generator,
            BunkerSmall | BunkerMedium | BunkerLarge => Role::Bunker,
            Mine => Role::Mine,
            Storage => Role::Storage,
            Plant => Role::Plant,
            Hangar => Role::Hangar,
            MainTeleport => Role::MainTeleport,
            Institute => Role::Institute,
            TowerMedium | TowerLarge => Role::Tower,
        })
    }

    /// The role of a unit by its unit file's path: a transport's lies in
    /// a `TRANSPRT` folder.
    // STAND-IN: what marks a unit as a transport in the engine is unread;
    // openparkan docs/23 finds every transport's path in
    // `UNITS\UNITS\TRANSPRT`. The transport's behaviour binding would
    // settle it.
    pub fn of_unit_path(path: &[u8]) -> Option<Role> {
        path.split(|b| *b == b'\\' || *b == b'/')
            .any(|folder| folder.eq_ignore_ascii_case(b"TRANSPRT"))
            .then_some(Role::Transport)
    }

    /// Its profile's entry in `behpsp.res`.
    pub fn profile_entry(self) -> &'static str {
        match self {
            Role::Generator => "prof_generator.var",
            Role::Bunker => "prof_bunker.var",
            Role::Mine => "prof_mine.var",
            Role::Storage => "prof_storage.var",
            Role::Plant => "prof_plant.var",
            Role::Hangar => "prof_angar.var",
            Role::Mast => "prof_mast.var",
            Role::Teleport => "prof_teleport.var",
            Role::MainTeleport => "prof_mtp.var",
            Role::Institute => "prof_institute.var",
            Role::Tower => "prof_tower.var",
            Role::Transport => "prof_trn.var",
        }
    }

    /// Its name in the report and the trace.
    pub fn name(self) -> &'static str {
        match self {
            Role::Generator => "generator",
            Role::Bunker => "bunker",
            Role::Mine => "mine",
            Role::Storage => "storage",
            Role::Plant => "plant",
            Role::Hangar => "hangar",
            Role::Mast => "mast",
            Role::Teleport => "teleport",
            Role::MainTeleport => "main_teleport",
            Role::Institute => "institute",
            Role::Tower => "tower",
            Role::Transport => "transport",
        }
    }

    /// Whether it gives power to its clan (the generators and bunkers).
    pub fn gives_power(self) -> bool {
        matches!(self, Role::Generator | Role::Bunker)
    }

    /// Whether it holds ore its clan draws (mines and storages).
    pub fn holds_ore(self) -> bool {
        matches!(self, Role::Mine | Role::Storage)
    }

    /// The ore it holds at most without a `MaximumOre` of its own.
    pub fn ore_most(self) -> f32 {
        use crate::constants::{MINE_MAX_ORE, STORAGE_MAX_ORE, TRANSPORT_MAX_ORE};
        match self {
            Role::Mine => MINE_MAX_ORE,
            Role::Storage => STORAGE_MAX_ORE,
            Role::Transport => TRANSPORT_MAX_ORE,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_paths_give_roles() {
        assert_eq!(Role::of_type(0x8000_0002), Some(Role::Generator));
        assert_eq!(Role::of_type(0x8002_0000), Some(Role::Bunker));
        assert_eq!(Role::of_type(0x8020_0000), Some(Role::Tower));
        assert_eq!(Role::of_type(0x1234), None);
        assert_eq!(
            Role::of_unit_path(b"UNITS\\UNITS\\Transprt\\trn01.dat"),
            Some(Role::Transport)
        );
        assert_eq!(Role::of_unit_path(b"UNITS\\UNITS\\WARBOTS\\w1.dat"), None);
        assert!(Role::Bunker.gives_power() && !Role::Plant.gives_power());
        assert!(Role::Storage.holds_ore() && !Role::Transport.holds_ore());
    }
}
