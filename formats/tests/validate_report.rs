//! `validate` over hand-built installs: per-family counts, zero errors on a
//! clean install, and progress up to the total.

mod graph_support;

use graph_support::{CLEAN, Knobs, install};
use iron3d_formats::validate::validate;

fn quiet(_: iron3d_formats::validate::Progress) {}

#[test]
fn clean_install_counts_every_family_with_zero_errors() {
    let dir = install(Knobs::default());
    let report = validate(dir.path(), &mut quiet).unwrap();
    assert_eq!(report.errors, 0, "{report:#?}");
    assert_eq!(report.warnings, 0, "{report:#?}");
    assert_eq!(report.files, 8);
    let f = |name: &str| report.families.get(name).cloned().unwrap_or_default();
    assert_eq!(f("archive").files, 6);
    assert_eq!(f("archive").variants.get("NRes"), Some(&6));
    assert_eq!(f("MSH").entries, 3);
    assert_eq!(f("WEAR").entries, 3);
    assert_eq!(f("MAT0").entries, 4);
    assert_eq!(f("Texm").entries, 5);
    assert_eq!(f("Texm").variants.get("Argb8888"), Some(&5));
    assert_eq!(f("FXID").entries, 1);
    assert_eq!(f("FXID").variants.get("opcode 1"), Some(&1));
    assert_eq!(f("TMA").entries, 5);
    assert_eq!(f("unit DAT").entries, 2);
    assert_eq!(f("objects.rlb").entries, 6);
    assert_eq!(report.missions.len(), 1);
    assert_eq!(report.missions[0].totals, CLEAN);
    assert_eq!(report.reachability, CLEAN);
}

#[test]
fn progress_reaches_the_total() {
    let dir = install(Knobs::default());
    let mut last = (0, 0);
    validate(dir.path(), &mut |p| last = (p.done, p.total)).unwrap();
    assert_eq!(last.0, last.1);
    assert_eq!(last.1, 8 + 1 + 1);
}
