#![no_main]
//! A research tree (`.trf`): a tree that reads writes back to the same
//! bytes.
use iron3d_formats::research::ResearchTree;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(tree) = ResearchTree::parse(data) {
        assert_eq!(tree.to_bytes().unwrap(), data);
    }
});
