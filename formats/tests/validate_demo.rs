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

#[test]
fn every_demo_mission_reaches_its_clans_scripts_and_a_broken_script_is_reported() {
    use iron3d_formats::script::scr::Script;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    for m in &report.missions {
        let clans: Vec<&str> = m.scripts.iter().map(|s| s.clan.as_str()).collect();
        assert_eq!(clans, ["Player", "Enemy"], "{m:?}");
        for s in &m.scripts {
            assert!(s.handlers.is_some_and(|h| h >= 9), "{s:?}");
            assert!(
                s.file
                    .as_deref()
                    .is_some_and(|f| f.starts_with("MISSIONS/SCRIPTS/")),
                "{s:?}"
            );
        }
    }
    let scripts = 2 * report.missions.len() as u64;
    assert_eq!(report.families["SCR"].files, scripts);
    assert_eq!(report.families["FML"].files, scripts);
    assert_eq!(report.families["varset.var"].files, 1);
    assert_eq!(
        report.families["SCR"].variants["function table 73"],
        scripts
    );

    // An operand past the variables, another table length, a missing .fml.
    let scripts_dir = root.join("MISSIONS/SCRIPTS");
    let mut pl = Script::parse(&std::fs::read(scripts_dir.join("scr_pl_1.scr")).unwrap()).unwrap();
    let (h, n) = (1, 0); // Mission's first node: dTemp = fn52(dHero)
    pl.handlers[h].nodes[n].operands[0] = 9999;
    std::fs::write(scripts_dir.join("scr_pl_1.scr"), pl.to_bytes().unwrap()).unwrap();
    let mut en = Script::parse(&std::fs::read(scripts_dir.join("scr_en_1.scr")).unwrap()).unwrap();
    en.table_len = 72;
    std::fs::write(scripts_dir.join("scr_en_1.scr"), en.to_bytes().unwrap()).unwrap();
    std::fs::remove_file(scripts_dir.join("scr_en_2.fml")).unwrap();
    // A script no mission names is checked against its directory too.
    std::fs::write(scripts_dir.join("ORPHAN.SCR"), pl.to_bytes().unwrap()).unwrap();
    std::fs::copy(
        scripts_dir.join("scr_pl_1.fml"),
        scripts_dir.join("orphan.fml"),
    )
    .unwrap();
    let broken = validate(&root, &mut |_| {}).unwrap();
    let errors: Vec<String> = broken
        .diagnostics
        .iter()
        .map(|d| format!("{} {} {}", d.family, d.file, d.message))
        .collect();
    let has = |want: &str| errors.iter().any(|e| e.contains(want));
    assert!(
        has("SCR MISSIONS/SCRIPTS/scr_pl_1.scr SCR: expected node 0: argument: one of the"),
        "{errors:#?}"
    );
    assert!(
        has(
            "SCR MISSIONS/SCRIPTS/scr_en_1.scr SCR: version mismatch: expected a function table of 73, found 72"
        ),
        "{errors:#?}"
    );
    assert!(
        has(
            "mission script MISSIONS/Campaign.00/Mission.02/data.tma mission script: expected clan Enemy's script MISSIONS\\SCRIPTS\\scr_en_2 readable"
        ),
        "{errors:#?}"
    );
    assert!(
        has("SCR MISSIONS/SCRIPTS/ORPHAN.SCR SCR: expected node 0: argument: one of the"),
        "{errors:#?}"
    );
    assert_eq!(broken.errors, 4, "{errors:#?}");
    let m2 = &broken.missions[1];
    assert!(
        m2.scripts[1].error.is_some() && m2.scripts[1].handlers.is_none(),
        "{m2:?}"
    );
}

/// Every diagnostic of validating `root`, as `family message`.
fn diagnostics(root: &std::path::Path) -> Vec<String> {
    let report = validate(root, &mut |_| {}).unwrap();
    report
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.family, d.message))
        .collect()
}

#[test]
fn a_briefing_waypoint_that_does_not_read_is_reported_with_its_object() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let missions = root.join("MISSIONS");
    let briefing = std::fs::read_dir(&missions)
        .unwrap()
        .flat_map(|c| std::fs::read_dir(c.unwrap().path()).into_iter().flatten())
        .map(|m| m.unwrap().path().join("briefing.cfg"))
        .find(|p| p.exists())
        .expect("a demo mission with a briefing");
    let text = std::fs::read_to_string(&briefing).unwrap();
    std::fs::write(
        &briefing,
        text.replacen("EdgeTime = 2.50", "EdgeTime = soon", 1),
    )
    .unwrap();
    let errors = diagnostics(&root);
    assert!(
        errors.iter().any(|e| e.starts_with("briefing ")
            && e.contains("object WayPoint0 (line 2): EdgeTime a number")),
        "{errors:#?}"
    );
}

#[test]
fn the_demo_hero_table_validates_and_a_broken_row_is_reported_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    assert_eq!(report.families["input table"].files, 1);
    let table = root.join("hero.tbl");
    let text = std::fs::read_to_string(&table).unwrap();
    std::fs::write(
        &table,
        text.replacen("MCMD_WALK_F    1.0", "MCMD_WALK_F    fast", 1),
    )
    .unwrap();
    let errors = diagnostics(&root);
    assert!(
        errors.iter().any(|e| e.starts_with("input table ")
            && e.contains("line 3: a magnitude, found fast")),
        "{errors:#?}"
    );
}

#[test]
fn the_demo_skies_validate_and_a_bad_keyframe_is_reported_with_its_offset() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    build(&root, DEFAULT_SEED, Scale::Demo).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    let missions = iron3d_formats::gamedir::GameDir::open(&root)
        .unwrap()
        .missions()
        .unwrap();
    let sky = &report.families["sky"];
    assert_eq!(sky.files as usize, missions.len());
    assert_eq!(sky.errors, 0);
    // The first keyframe's version (file offset 84) set to 9.
    let path = missions[0].dir.join("sky.ske");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[84] = 9;
    std::fs::write(&path, bytes).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    let found = report.diagnostics.iter().find(|d| d.family == "sky");
    let found = found.expect("the broken sky is reported");
    assert_eq!(found.offset, 84);
    assert!(found.file.ends_with("sky.ske"), "{}", found.file);
    assert_eq!(
        found.message,
        "SKE: expected a keyframe version of 1, 2 or 3, found 9"
    );
}
