//! The synthetic demo install, at both scales, validates with zero errors
//! and zero reachability failures, and the report is the same twice.

use iron3d_demo::{DEFAULT_SEED, Scale, build};
use iron3d_formats::validate::validate;

#[test]
fn demo_install_validates_with_zero_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    assert_eq!(report.errors, 0, "{report:#?}");
    assert!(!report.missions.is_empty());
    assert!(report.reachability.prototypes > 0);
    assert_eq!(report.reachability.failures, 0);
    let again = validate(&root, &mut |_| {}).unwrap();
    assert_eq!(report, again);
}

#[test]
fn retail_scale_install_validates_at_part_2_graph_size() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("retail");
    build(&root, DEFAULT_SEED, Scale::Retail).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    assert_eq!(report.errors, 0, "{report:#?}");
    assert_eq!(report.warnings, 0, "{report:#?}");
    let reach = &report.reachability;
    assert_eq!(reach.failures, 0);
    assert!((850..=1050).contains(&reach.objects), "{reach:?}");
    assert!(reach.prototypes >= 5_000, "{reach:?}");
    assert!(reach.material_slots >= 30_000, "{reach:?}");
    assert!(reach.textures >= 40_000, "{reach:?}");
    assert!(report.missions.len() >= 30);
}
