//! A building's part in the economy: what it is ([`Building`], from the
//! data) and what it holds ([`Stock`], simulation state in the state hash
//! and saves).

use crate::role::Role;
use bevy::prelude::*;
use iron3d_formats::config::profile::BuildingProfile;
use iron3d_world::save::SavedValue;
use serde::{Deserialize, Serialize};

/// Seconds of its own use a building's charge holds.
// STAND-IN: a building's batteries are the class-19 components of its
// controller (openparkan docs/23); their capacities are not read yet, so
// every building holds one second of its `Use_Power`.
pub const CHARGE_SECONDS: f32 = 1.0;

/// The least efficiency a mine digs at (below it the engine logs `BAD
/// KPD` and stops: openparkan docs/23, "Efficiency is a building's size").
pub const LEAST_KPD: f32 = 0.1;

/// A building (or transport) in the economy: its role and profile.
#[derive(Component, Debug, Clone, Copy, PartialEq, Reflect)]
#[reflect(Component)]
pub struct Building {
    pub role: Role,
    #[reflect(ignore)]
    pub profile: BuildingProfile,
    /// Its efficiency (KPD) when intact.
    // STAND-IN: the engine's KPD is the first value of the building's
    // class-26 control component (1 on every building but the larger
    // research centres, factories and core mines: openparkan docs/23);
    // it is not read from the controller yet, so every building is 1.
    pub kpd: f32,
}

impl Building {
    /// A building of `role` with `profile`.
    pub fn new(role: Role, profile: BuildingProfile) -> Self {
        Self {
            role,
            profile,
            kpd: 1.0,
        }
    }

    /// The charge it holds at most.
    pub fn capacity(&self) -> f32 {
        self.profile.use_power * CHARGE_SECONDS
    }
}

/// What a building holds and what it was given at its clan's last
/// distribution step.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default, Reflect, Serialize, Deserialize)]
#[reflect(Component)]
pub struct Stock {
    /// Ore held, and the most it holds (0: it holds none).
    pub ore: f32,
    pub ore_most: f32,
    /// Its charge of power.
    pub charge: f32,
    /// The power it uses a second while it works (0 when idle).
    pub usage: f32,
    /// The share of its use its charge served at the last step (1 when
    /// it used none): what its work was scaled by.
    pub level: f32,
    /// Ore a task of it asks for, and the ore it was given so far.
    pub ore_wanted: f32,
    pub ore_received: f32,
    /// Power it lacked and was given at the last step.
    pub power_wanted: f32,
    pub power_received: f32,
    /// Ore a mine dug since its last `mined` event.
    pub dug: f32,
}

impl Stock {
    /// A building's stock as it is placed: charged, holding no ore, at
    /// most `ore_most`.
    pub fn charged(building: &Building, ore_most: f32) -> Self {
        Self {
            ore_most,
            charge: building.capacity(),
            level: 1.0,
            ..Self::default()
        }
    }

    /// The ore it has room for.
    pub fn room(&self) -> f32 {
        (self.ore_most - self.ore).max(0.0)
    }

    /// Every figure, in the hash's order.
    pub fn figures(&self) -> [f32; 10] {
        [
            self.ore,
            self.ore_most,
            self.charge,
            self.usage,
            self.level,
            self.ore_wanted,
            self.ore_received,
            self.power_wanted,
            self.power_received,
            self.dug,
        ]
    }
}

impl SavedValue for Stock {
    fn check_saved(&self) -> Result<(), String> {
        if self.figures().iter().any(|f| *f < 0.0) {
            return Err(format!("a stock figure below 0: {self:?}"));
        }
        if self.ore > self.ore_most && self.ore_most > 0.0 || self.level > 1.0 {
            return Err(format!("ore past its most or a level past 1: {self:?}"));
        }
        Ok(())
    }
}
