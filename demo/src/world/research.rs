//! The demo's research tree, `MISSIONS/SCRIPTS/demo.trf`, which every
//! fighting clan's record names: a research centre, a factory and a
//! chassis granted, a laser open to research, and a cannon and a plasma
//! gun behind it (docs/facts.md "Research trees").

use iron3d_formats::error::Result;
use iron3d_formats::research::{AVAILABLE, IN_TREE, NewItem, RESEARCHED, ResearchTree, TechItem};
use iron3d_formats::unitdat::PartClass;

/// The tree's path in the install and as the clans' records name it.
pub const TREE_FILE: &str = "MISSIONS/SCRIPTS/demo.trf";
pub const TREE_NAME: &str = "MISSIONS\\SCRIPTS\\demo.trf";

/// Short code, name, part id, research energy and ore, build energy and
/// ore, kind (8 building, 12 weapon, 9 chassis), prerequisites, state.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    [f32; 4],
    u8,
    &'static [u32],
    u8,
);

const GRANTED: u8 = IN_TREE | RESEARCHED | AVAILABLE;
const OPEN: u8 = IN_TREE | AVAILABLE;

const ITEMS: [Row; 6] = [
    (
        "RC-17",
        "Research Centre RC-17",
        "b_inst",
        [20.0, 120.0, 20.0, 1250.0],
        8,
        &[],
        GRANTED,
    ),
    (
        "FB-17S",
        "Factory FB-17S",
        "b_fact",
        [20.0, 120.0, 20.0, 1250.0],
        8,
        &[],
        GRANTED,
    ),
    (
        "L-12w",
        "Light chassis L-12w",
        "ch_walk",
        [0.0, 0.0, 25.0, 95.0],
        9,
        &[],
        GRANTED,
    ),
    (
        "LAS-1",
        "Laser LAS-1",
        "w_laser",
        [12.0, 35.0, 6.0, 15.0],
        12,
        &[0],
        OPEN,
    ),
    (
        "CAN-2",
        "Cannon CAN-2",
        "w_cannon",
        [20.0, 60.0, 10.0, 30.0],
        12,
        &[3],
        IN_TREE,
    ),
    (
        "PLS-3",
        "Plasma gun PLS-3",
        "w_plasma",
        [30.0, 90.0, 15.0, 45.0],
        12,
        &[3, 4],
        IN_TREE,
    ),
];

/// The build costs (energy, ore) of a prebuilt design's part, by class,
/// and its kind byte.
fn part_costs(class: PartClass) -> ([f32; 2], u8) {
    match class {
        PartClass::Chassis => ([25.0, 95.0], 9),
        PartClass::Gun => ([6.0, 15.0], 12),
        _ => ([2.0, 5.0], 10),
    }
}

/// The tree's bytes: [`ITEMS`], then one granted item per distinct part
/// of the prebuilt design (`design_parts`, key and class), which prices
/// it.
pub fn tree(design_parts: &[(String, PartClass)]) -> Result<Vec<u8>> {
    let mut parts: Vec<&(String, PartClass)> = Vec::new();
    for part in design_parts {
        if !parts.iter().any(|p| p.0.eq_ignore_ascii_case(&part.0)) {
            parts.push(part);
        }
    }
    let granted = parts.iter().map(|(key, class)| {
        let (build, kind) = part_costs(*class);
        NewItem {
            record: TechItem::costing(kind, [0.0, 0.0], build),
            code: key.clone(),
            name: format!("Part {key}"),
            part_id: key.clone(),
            prerequisites: Vec::new(),
        }
    });
    let items: Vec<NewItem> = ITEMS
        .iter()
        .map(|(code, name, part, costs, kind, needs, _)| NewItem {
            record: TechItem {
                size: 2,
                ..TechItem::costing(*kind, [costs[0], costs[1]], [costs[2], costs[3]])
            },
            code: (*code).into(),
            name: (*name).into(),
            part_id: (*part).into(),
            prerequisites: needs.to_vec(),
        })
        .chain(granted)
        .collect();
    let state: Vec<u8> = ITEMS
        .iter()
        .map(|row| row.6)
        .chain(parts.iter().map(|_| GRANTED))
        .collect();
    ResearchTree::build(&items, &state)
}
