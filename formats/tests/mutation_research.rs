//! Mutation test of the research-tree reader (`.trf`): truncations at
//! every offset, flipped bytes and words pushed out of range give an
//! error or a tree, never a panic, with peak heap linear in the input;
//! what reads writes back byte-identical.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::research::{NewItem, ResearchTree, TechItem};

/// A tree of four items, the last two needing the first ones.
fn sample() -> Vec<u8> {
    let item = |code: &str, prerequisites: &[u32]| NewItem {
        record: TechItem {
            role: 2,
            size: 2,
            level: 1,
            ..TechItem::costing(12, [12.0, 35.0], [5.0, 12.0])
        },
        code: code.into(),
        name: format!("{code} long name"),
        part_id: format!("e_{code}"),
        prerequisites: prerequisites.to_vec(),
    };
    let items = [
        item("A", &[]),
        item("B", &[]),
        item("C", &[0]),
        item("D", &[0, 2]),
    ];
    ResearchTree::build(&items, &[7, 5, 4, 4]).unwrap()
}

#[test]
fn research_trees_survive_mutation() {
    let valid = sample();
    let tree = ResearchTree::parse(&valid).unwrap();
    assert_eq!(tree.prerequisites[3], [0, 2]);
    let rejected = support::assert_robust(
        &valid,
        None,
        |len| 8 * len + 64 * 1024,
        |d| {
            let read = ResearchTree::parse(d)?;
            assert_eq!(read.to_bytes()?, d, "read but not written back");
            Ok::<_, iron3d_formats::error::FormatError>(read)
        },
    );
    assert!(rejected > 200, "only {rejected} rejected");
}
