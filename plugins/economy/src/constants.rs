//! The economy's behaviour constants (openparkan `docs/23-economy.md`,
//! "The engine's constants", *measured*): `Behavior.dll` compiles them and
//! binds them by name; no file of an install names them, so the compiled
//! values are the ones the game runs with.

/// Ore a mine digs a second at an efficiency of 1.
pub const MINE_ORE_PER_SECOND: f32 = 50.0;
/// The ore a mine holds at most.
pub const MINE_MAX_ORE: f32 = 500.0;
/// The ore a storage holds at most.
pub const STORAGE_MAX_ORE: f32 = 4000.0;
/// The ore a transport carries at most.
pub const TRANSPORT_MAX_ORE: f32 = 2000.0;
/// Ore a transport takes on board a second.
pub const TRANSPORT_ORE_ON_BOARD_PER_SECOND: f32 = 100.0;
/// Ore a transport puts off board a second.
pub const TRANSPORT_ORE_OFF_BOARD_PER_SECOND: f32 = 100.0;
/// How near a building a transport loads or unloads.
pub const TRANSPORT_BUILDING_DIST: f32 = 80.0;
/// The ore a builder pays for a building.
pub const BUILDING_COST: f32 = 100.0;

/// The constants by their names in `Behavior.dll`, with their values.
pub const CONSTANTS: [(&str, f32); 8] = [
    ("Mine_OrePerSecond", MINE_ORE_PER_SECOND),
    ("Mine_MaxOre", MINE_MAX_ORE),
    ("Storage_MaxOre", STORAGE_MAX_ORE),
    ("Transport_MaxOre", TRANSPORT_MAX_ORE),
    (
        "Transport_OreOnBoardPerSecond",
        TRANSPORT_ORE_ON_BOARD_PER_SECOND,
    ),
    (
        "Transport_OreOffBoardPerSecond",
        TRANSPORT_ORE_OFF_BOARD_PER_SECOND,
    ),
    ("Transport_BuildingDist", TRANSPORT_BUILDING_DIST),
    ("Building_Cost", BUILDING_COST),
];

/// The value of the constant `name` (ASCII case-insensitive, as the
/// engine binds them).
pub fn constant(name: &str) -> Option<f32> {
    CONSTANTS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_read_by_name() {
        assert_eq!(constant("mine_maxore"), Some(500.0));
        assert_eq!(constant("Transport_BuildingDist"), Some(80.0));
        assert_eq!(constant("Mine_MinOre"), None);
    }
}
