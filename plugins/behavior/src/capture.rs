//! Capturing a building (openparkan `docs/27-ownership.md`, "Capture", and
//! `docs/31-packages.md`, the capture-building task; GAMEPLAY §4
//! "Capture"): the unit walks to the building's pod and stands there; the
//! pod opens at its rate and fires after 0.9 ÷ rate seconds if the same
//! unit is still in it; the building then changes owner to the unit's
//! clan, and the order is over. A building of the unit's own clan is not
//! captured.
//!
//! Ours, for what our data lack: the pod is a hall-way vertex of the
//! building's model (stream 17 of `fortif.rlb` models) that the engine
//! does not read yet, and the demo's buildings have none, so the unit's
//! place is the building's door, the point of its footprint grown by the
//! unit's radius and [`crate::wizard::MARGIN`] nearest to the unit, and
//! the zone is the corridor radius round it, entered at no more than 2 m/s
//! (the speed a place counts a unit at); the rate is [`POD_RATE`], the
//! mines', stores' and towers' (1.8 s).

use bevy::prelude::*;
use iron3d_world::mission::{ObjectClan, PropertyBag};
use iron3d_world::{ObjectRegistry, OriginalObjectId};

/// The pod's rate a second (the building's pod item; see the module).
pub const POD_RATE: f32 = 0.5;
/// m/s: the fastest a unit may be going to count as standing at the door.
pub const STANDING_SPEED: f32 = 2.0;

/// Seconds from standing at the door to the capture.
pub fn capture_seconds() -> f32 {
    0.9 / POD_RATE
}

/// Buildings changing owner this step: (building, its new clan's index).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Seizures(pub Vec<(OriginalObjectId, u32)>);

/// Gives each seized building to its new clan (the identity word and the
/// `ClanID` property), in the order they fell.
pub(crate) fn seize(
    mut seizures: ResMut<Seizures>,
    registry: Res<ObjectRegistry>,
    mut buildings: Query<(&mut ObjectClan, Option<&mut PropertyBag>)>,
) {
    for (building, clan) in seizures.0.drain(..) {
        let Some((mut owner, bag)) = registry
            .entity(building)
            .ok()
            .and_then(|e| buildings.get_mut(e).ok())
        else {
            continue;
        };
        owner.identity_raw = clan;
        if owner.clan_id.is_some() {
            owner.clan_id = Some(clan as i32);
        }
        if let Some(mut bag) = bag {
            bag.set_int("ClanID", clan as i32);
        }
        info!(
            "building {:#010x} is captured by clan {clan}",
            building.raw()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_at_rate_half_fires_after_1_8_seconds() {
        assert!((capture_seconds() - 1.8).abs() < 1e-6);
    }
}
