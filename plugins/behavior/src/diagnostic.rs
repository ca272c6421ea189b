//! The error states of tome VI "Behavior" as diagnostics: each names the
//! tick, the unit by original id and its chain (mission -> object ->
//! prototype), the state and its cause. Behavior never hides one with a
//! teleport: the unit that hits one stays where it is and drops the order.

use bevy::prelude::*;
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{InstanceName, MissionDescription, PrototypeKey};
use std::fmt;

/// Tome VI's six error states, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ErrorState {
    /// The mission has no areal map (`Land.map`) to plan over.
    NoSystemMap,
    /// The mission has no terrain (`Land.msh`).
    NoTerrain,
    /// An active behaviour has no areal map: the unit belongs to no clan
    /// of the mission, whose areal map it would plan over.
    // STAND-IN: raised for a unit of no clan of the mission (tome VI has
    // Behavior get the map through the clan's context, and names the state
    // only); settled by reading where `Behavior.dll` raises state 3.
    NoArealMap,
    /// The unit stands off the areal map, or its goal cannot be reached.
    // STAND-IN: raised for a unit or goal off the areal map, in a
    // non-walkable areal or cut off (tome VI names the state only); settled
    // by reading where `Behavior.dll` raises state 4.
    NonReachable,
    /// The unit stands in a non-walkable areal and found no way out.
    LeavingNonWalkable,
    /// The path search gave up (its node limit: what keeps it from
    /// cycling).
    // STAND-IN: raised when the search hits its 2048-node limit (tome VI
    // names the state only; the limit is what stops a search running on);
    // settled by reading where `Behavior.dll` raises state 6.
    PathCycling,
}

impl ErrorState {
    /// Tome VI's number of the state, 1 to 6.
    pub fn number(self) -> u8 {
        match self {
            ErrorState::NoSystemMap => 1,
            ErrorState::NoTerrain => 2,
            ErrorState::NoArealMap => 3,
            ErrorState::NonReachable => 4,
            ErrorState::LeavingNonWalkable => 5,
            ErrorState::PathCycling => 6,
        }
    }

    /// What the state means, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            ErrorState::NoSystemMap => "no system map",
            ErrorState::NoTerrain => "no terrain",
            ErrorState::NoArealMap => "active behaviour without an areal map",
            ErrorState::NonReachable => "object in a non-reachable area",
            ErrorState::LeavingNonWalkable => "object leaving a non-walkable area",
            ErrorState::PathCycling => "path generator cycling",
        }
    }
}

/// One error state a unit ran into.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub tick: u64,
    pub object: OriginalObjectId,
    /// `mission 'M' -> object 0x... 'name' -> prototype 'key'`.
    pub chain: String,
    pub state: ErrorState,
    pub cause: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tick {}: {}: error state {} ({}): {}",
            self.tick,
            self.chain,
            self.state.number(),
            self.state.describe(),
            self.cause
        )
    }
}

/// Every diagnostic of the running mission, in the order they happened
/// (simulation output: the same run gives the same list).
#[derive(Resource, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BehaviorDiagnostics(pub Vec<Diagnostic>);

/// The chain of an object for a diagnostic.
pub(crate) fn object_chain(
    mission: Option<&MissionDescription>,
    id: OriginalObjectId,
    name: Option<&InstanceName>,
    key: Option<&PrototypeKey>,
) -> String {
    let mut chain = match mission {
        Some(m) => format!("mission '{}' -> ", m.name),
        None => String::new(),
    };
    chain += &format!("object {:#010x}", id.raw());
    if let Some(name) = name {
        chain += &format!(" '{}'", name.0);
    }
    if let Some(key) = key {
        chain += &format!(" -> prototype '{}'", String::from_utf8_lossy(&key.0));
    }
    chain
}

impl BehaviorDiagnostics {
    /// Records one (and logs it).
    pub(crate) fn report(&mut self, diagnostic: Diagnostic) {
        warn!("{diagnostic}");
        self.0.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_names_tick_chain_state_and_cause() {
        let d = Diagnostic {
            tick: 7,
            object: OriginalObjectId(0x2a),
            chain: object_chain(
                None,
                OriginalObjectId(0x2a),
                Some(&InstanceName("Scout".into())),
                Some(&PrototypeKey(b"R_L_01".to_vec())),
            ),
            state: ErrorState::NonReachable,
            cause: "areal 9 cannot be reached from areal 3".into(),
        };
        assert_eq!(
            d.to_string(),
            "tick 7: object 0x0000002a 'Scout' -> prototype 'R_L_01': error state 4 \
             (object in a non-reachable area): areal 9 cannot be reached from areal 3"
        );
        let numbers: Vec<u8> = [
            ErrorState::NoSystemMap,
            ErrorState::NoTerrain,
            ErrorState::NoArealMap,
            ErrorState::NonReachable,
            ErrorState::LeavingNonWalkable,
            ErrorState::PathCycling,
        ]
        .map(ErrorState::number)
        .to_vec();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
    }
}
