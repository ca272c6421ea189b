//! The distribution step's sharing formula (openparkan
//! `docs/23-economy.md`, "The sharing formula has two tiers" and "Every
//! building has the same priority", *read*): supply against demand in two
//! tiers set by each building's priority; with every priority equal, as
//! the engine only ever leaves them, both tiers collapse to one fraction,
//! [`share`].

/// The two tiers' fractions: `a` of the first tier's demand met, `b` of
/// the rest's, and `take` of the supply drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tiers {
    pub a: f32,
    pub b: f32,
    pub take: f32,
}

/// The tiers of `available` supply against `total` demand, of which
/// `first_tier` is the first tier's.
pub fn tiers(available: f32, first_tier: f32, total: f32) -> Tiers {
    if available <= first_tier {
        let a = if first_tier > 0.0 {
            available / first_tier
        } else {
            1.0
        };
        Tiers {
            a,
            b: 0.0,
            take: 1.0,
        }
    } else if available < total {
        let b = (available - first_tier) / (total - first_tier);
        Tiers {
            a: 1.0,
            b,
            take: 1.0,
        }
    } else {
        Tiers {
            a: 1.0,
            b: 1.0,
            take: total / available,
        }
    }
}

/// What a building wanting `want` at `priority` receives from `tiers`.
pub fn received(want: f32, priority: f32, tiers: Tiers) -> f32 {
    want * (priority * tiers.a + (1.0 - priority) * tiers.b)
}

/// The fraction of its want every consumer receives when all priorities
/// are equal: `min(1, available / total)` (nothing wanted: 0).
pub fn share(available: f32, total: f32) -> f32 {
    if total > 0.0 {
        (available / total).min(1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each want's part of `available`, by the collapsed formula.
    fn shares(available: f32, wants: &[f32]) -> Vec<f32> {
        let f = share(available, wants.iter().sum());
        wants.iter().map(|w| w * f).collect()
    }

    #[test]
    fn short_exact_and_surplus_supply() {
        // Short: every consumer gets the same fraction of its want.
        assert_eq!(shares(5.0, &[4.0, 6.0]), [2.0, 3.0]);
        // Exact: everyone is served.
        assert_eq!(shares(10.0, &[4.0, 6.0]), [4.0, 6.0]);
        // Surplus: served, and only what is wanted is drawn.
        assert_eq!(shares(20.0, &[4.0, 6.0]), [4.0, 6.0]);
        assert_eq!(tiers(20.0, 5.0, 10.0).take, 0.5);
        // Nothing wanted, nothing supplied.
        assert_eq!(shares(0.0, &[0.0]), [0.0]);
        assert_eq!(share(3.0, 0.0), 0.0);
    }

    #[test]
    fn equal_priorities_collapse_the_two_tiers() {
        let wants = [3.0f32, 1.0, 6.0, 2.5];
        let total: f32 = wants.iter().sum();
        let p = 1.0 / wants.len() as f32;
        for available in [0.0, 1.0, total * p, 5.0, total, 30.0] {
            let t = tiers(available, total * p, total);
            for w in wants {
                let two_tier = received(w, p, t);
                let collapsed = w * share(available, total);
                assert!(
                    (two_tier - collapsed).abs() < 1e-4,
                    "{available}: {two_tier} against {collapsed}"
                );
            }
        }
    }
}
