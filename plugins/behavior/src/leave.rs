//! The escape, `ORDER_ROBOT_LEAVE` (openparkan `docs/31-packages.md`, "The
//! escape", read; docs/facts.md "The escape"): a unit with no target for
//! it walks to a random place of walkable ground near it, at least 100
//! inside the map, searched in widening squares (400 tries within 150,
//! then 300 within 300, 200 within 400 and 200 within 1,000); aimed at a
//! building, to a place 20 to 70 beyond the building's bounding circle at
//! a random angle (200 tries). No place found: it cannot leave (the order
//! ends). A unit whose capture of a building fired is given one ([`crate::capture`]).

use crate::obstacle::Convex;
use bevy::prelude::*;
use iron3d_world::mission::{RngStreams, fraction};

/// The stream the escape's places are drawn from.
pub const LEAVE_STREAM: &str = "behavior_leave";
/// Tries and half-widths of the squares a place is searched in, in turn.
const STAGES: [(u32, f32); 4] = [(400, 150.0), (300, 300.0), (200, 400.0), (200, 1000.0)];
/// Tries round a building, and how far beyond its bounding circle.
const OUT_TRIES: u32 = 200;
const OUT_NEAR: f32 = 20.0;
const OUT_FAR: f32 = 70.0;

/// A place for the escape of a unit at `here`: out of `building` when it
/// is aimed at one, else near it; `fits` says whether a place may be used
/// (on walkable ground inside the map). `None`: it cannot leave.
pub(crate) fn way_out(
    here: Vec2,
    building: Option<&Convex>,
    rng: &mut RngStreams,
    fits: impl Fn(Vec2) -> bool,
) -> Option<Vec2> {
    let mut draw = || fraction(rng.next_u64(LEAVE_STREAM)) as f32;
    match building {
        Some(outline) => {
            let middle = outline.0.iter().sum::<Vec2>() / outline.0.len().max(1) as f32;
            // STAND-IN: the bounding sphere is the circle round the
            // footprint's middle through its farthest corner (docs/31 "The
            // escape" names the building's bounding sphere, which our
            // footprints do not carry); settled by the model's own sphere.
            let reach = outline
                .0
                .iter()
                .map(|c| c.distance(middle))
                .fold(0.0, f32::max);
            (0..OUT_TRIES).find_map(|_| {
                let angle = draw() * std::f32::consts::TAU;
                let out = reach + OUT_NEAR + draw() * (OUT_FAR - OUT_NEAR);
                Some(middle + Vec2::from_angle(angle) * out).filter(|&p| fits(p))
            })
        }
        None => STAGES.iter().find_map(|&(tries, half)| {
            (0..tries).find_map(|_| {
                let mut offset = || (2.0 * draw() - 1.0) * half;
                Some(here + Vec2::new(offset(), offset())).filter(|&p| fits(p))
            })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_searched_in_widening_squares() {
        let mut rng = RngStreams::new(7);
        let here = Vec2::new(1000.0, 1000.0);
        // Anywhere: the first square, within 150 along each axis.
        let p = way_out(here, None, &mut rng, |_| true).unwrap();
        assert!((p - here).abs().max_element() <= 150.0, "{p}");
        // Only beyond 320 east: the first two squares cannot give it.
        let p = way_out(here, None, &mut rng, |p| p.x > here.x + 320.0).unwrap();
        assert!((p - here).abs().max_element() <= 1000.0, "{p}");
        assert!(p.x > here.x + 320.0);
        assert_eq!(
            way_out(here, None, &mut rng, |_| false),
            None,
            "cannot leave"
        );
    }

    #[test]
    fn out_of_a_building_is_twenty_to_seventy_beyond_its_circle() {
        let mut rng = RngStreams::new(7);
        let square = Convex::quad([
            Vec2::new(-10.0, -10.0),
            Vec2::new(10.0, -10.0),
            Vec2::new(10.0, 10.0),
            Vec2::new(-10.0, 10.0),
        ]);
        let reach = Vec2::new(10.0, 10.0).length();
        for _ in 0..20 {
            let p = way_out(Vec2::ZERO, Some(&square), &mut rng, |_| true).unwrap();
            let out = p.length() - reach;
            assert!((20.0..=70.0).contains(&out), "{out}");
        }
    }
}
