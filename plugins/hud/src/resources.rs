//! The Ore and Energy rows (openparkan `docs/23-economy.md`, "What the HUD
//! shows"): the player clan's bars from its distributor, each shown
//! value stepping one point toward its target every 0.05 s, a bar at 0
//! flashing on a half-second timer.

use crate::model::HudModel;
use bevy::prelude::*;
use iron3d_economy::Distributors;
use iron3d_world::mission::{Hero, ObjectClan};

/// Seconds between two one-point steps of a shown value.
pub const STEP_S: f32 = 0.05;
/// Seconds a flashing bar stays lit, then dark.
pub const FLASH_S: f32 = 0.5;

/// One row as drawn: its percentage and whether it is lit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResourceRow {
    pub percent: u8,
    pub lit: bool,
}

/// The two rows, while the player's clan has buildings in the economy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResourceRows {
    pub ore: ResourceRow,
    pub energy: ResourceRow,
}

/// The shown values and their timers (presentation state: the
/// simulation never reads it).
#[derive(Resource, Debug, Clone, Default)]
pub struct ResourceBars {
    /// Shown percentages, Ore then Energy; none before the first target.
    shown: Option<[u8; 2]>,
    /// Time toward the next step, and the flash's clock.
    step: f32,
    flash: f32,
}

impl ResourceBars {
    /// Moves the shown values toward `targets` (percent) over `dt`
    /// seconds; the first targets are shown at once.
    pub fn advance(&mut self, targets: [u8; 2], dt: f32) -> ResourceRows {
        let shown = self.shown.get_or_insert(targets);
        // Whole steps in the time gathered (a hair of rounding forgiven).
        self.step += dt;
        let steps = (self.step / STEP_S + 1e-3).floor();
        self.step = (self.step - steps * STEP_S).max(0.0);
        let steps = steps.min(100.0) as u8;
        for (value, target) in shown.iter_mut().zip(targets) {
            *value = match (*value).cmp(&target) {
                std::cmp::Ordering::Less => (*value + steps).min(target),
                std::cmp::Ordering::Greater => value.saturating_sub(steps).max(target),
                std::cmp::Ordering::Equal => *value,
            };
        }
        self.flash = (self.flash + dt) % (2.0 * FLASH_S);
        let dark = self.flash >= FLASH_S;
        let row = |percent: u8| ResourceRow {
            percent,
            lit: percent > 0 || !dark,
        };
        ResourceRows {
            ore: row(shown[0]),
            energy: row(shown[1]),
        }
    }
}

/// A bar's 0..1 value as a whole percentage.
fn percent(bar: f32) -> u8 {
    (bar.clamp(0.0, 1.0) * 100.0).round() as u8
}

/// The frame's rows of the hero's clan, after the model is taken.
pub(crate) fn follow(
    time: Res<Time>,
    distributors: Option<Res<Distributors>>,
    heroes: Query<&ObjectClan, With<Hero>>,
    mut bars: ResMut<ResourceBars>,
    mut model: ResMut<HudModel>,
) {
    let clan = heroes.iter().next().map(|c| c.identity_raw);
    let distributor = clan.and_then(|c| distributors.as_deref()?.clans.get(&c));
    model.resources = match distributor.filter(|d| !d.members.is_empty()) {
        Some(d) => {
            let targets = [percent(d.ore_bar), percent(d.energy_bar)];
            Some(bars.advance(targets, time.delta_secs()))
        }
        None => {
            *bars = ResourceBars::default();
            None
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_values_step_one_point_every_twentieth_of_a_second() {
        let mut bars = ResourceBars::default();
        let first = bars.advance([11, 33], 0.0);
        assert_eq!((first.ore.percent, first.energy.percent), (11, 33));
        // A second later: 20 steps toward 100 and 0.
        let rows = bars.advance([100, 0], 1.0);
        assert_eq!((rows.ore.percent, rows.energy.percent), (31, 13));
        let rows = bars.advance([100, 0], 1.0);
        assert_eq!((rows.ore.percent, rows.energy.percent), (51, 0));
    }

    #[test]
    fn a_bar_at_zero_flashes_every_half_second() {
        let mut bars = ResourceBars::default();
        let lit: Vec<bool> = (0..8)
            .map(|_| bars.advance([0, 40], 0.25).ore.lit)
            .collect();
        assert_eq!(lit, [true, false, false, true, true, false, false, true]);
        assert!(bars.advance([0, 40], 0.25).energy.lit);
    }
}
