//! Case-insensitive resolution over a real directory tree shaped like a
//! retail install (mixed case, `\` in legacy paths), mission listing and
//! mission lookup.

use iron3d_formats::gamedir::GameDir;
use std::fs;
use std::path::Path;

fn touch(root: &Path, rel: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, b"x").unwrap();
}

fn install() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    touch(r, "Objects.RLB");
    touch(r, "UNITS/Builds/AI/Gen01.DAT");
    touch(r, "Missions/Tut_1/Data.tma");
    touch(r, "Missions/Tut_1/Land.msh");
    touch(r, "Missions/Tut_1/mission.cfg");
    touch(r, "Missions/Campaign/M01/DATA.TMA");
    touch(r, "Missions/Campaign/Tut_1/data.tma");
    touch(r, "Missions/NotAMission/readme.txt");
    touch(r, "Missions/dispatcher.ini");
    dir
}

#[test]
fn legacy_paths_resolve_in_any_case_with_either_separator() {
    let dir = install();
    let g = GameDir::open(dir.path()).unwrap();
    let want = dir.path().join("UNITS/Builds/AI/Gen01.DAT");
    assert_eq!(g.resolve(b"units\\builds\\ai\\gen01.dat").unwrap(), want);
    assert_eq!(g.resolve(b"UNITS/BUILDS/AI/GEN01.DAT").unwrap(), want);
    assert_eq!(
        g.resolve(b"UNITS\\Builds\\AI\\..\\AI\\Gen01.DAT").unwrap(),
        want
    );
    assert_eq!(
        g.resolve(b".\\UNITS\\\\Builds\\AI\\Gen01.DAT").unwrap(),
        want
    );
    assert_eq!(
        g.resolve(b"objects.rlb").unwrap(),
        dir.path().join("Objects.RLB")
    );
    let err = g.resolve(b"UNITS\\Robots\\r1.dat").unwrap_err();
    assert!(err.to_string().contains("Robots"), "{err}");
}

#[test]
fn the_exact_name_wins_over_a_case_variant() {
    let dir = install();
    touch(dir.path(), "objects.rlb");
    let g = GameDir::open(dir.path()).unwrap();
    assert_eq!(
        g.resolve(b"objects.rlb").unwrap(),
        dir.path().join("objects.rlb")
    );
    assert_eq!(
        g.resolve(b"Objects.RLB").unwrap(),
        dir.path().join("Objects.RLB")
    );
    // Neither spelling: the first in byte order ("O" < "o").
    assert_eq!(
        g.resolve(b"OBJECTS.RLB").unwrap(),
        dir.path().join("Objects.RLB")
    );
}

#[test]
fn mission_context_comes_before_the_root() {
    let dir = install();
    touch(dir.path(), "mission.cfg");
    let g = GameDir::open(dir.path()).unwrap();
    // A name below MISSIONS wins over a last-component match.
    assert_eq!(g.mission("tut_1").unwrap().name, "Tut_1");
    touch(dir.path(), "Missions/Other/M01/data.tma");
    // Listings are cached: a changed install is opened again.
    let g = GameDir::open(dir.path()).unwrap();
    let err = g.mission("m01").unwrap_err();
    assert!(err.to_string().contains("several"), "{err}");
    let m = g.mission("Campaign\\m01").unwrap();
    assert_eq!(m.name, "Campaign/M01");
    let tut = g
        .mission(dir.path().join("Missions/Tut_1").to_str().unwrap())
        .unwrap();
    assert_eq!(tut.name, "Tut_1");
    assert_eq!(
        g.resolve_in_mission(&tut.dir, b"MISSION.CFG").unwrap(),
        dir.path().join("Missions/Tut_1/mission.cfg")
    );
    assert_eq!(
        g.resolve_in_mission(&tut.dir, b"objects.rlb").unwrap(),
        dir.path().join("Objects.RLB")
    );
    assert_eq!(
        g.resolve_in_mission(&tut.dir, b"MISSIONS\\TUT_1\\LAND.MSH")
            .unwrap(),
        dir.path().join("Missions/Tut_1/Land.msh")
    );
}

#[test]
fn missions_are_listed_sorted_with_their_tma() {
    let dir = install();
    let g = GameDir::open(dir.path()).unwrap();
    let names: Vec<_> = g.missions().unwrap().into_iter().map(|m| m.name).collect();
    assert_eq!(names, ["Campaign/M01", "Campaign/Tut_1", "Tut_1"]);
    let m01 = g.mission("M01").unwrap();
    assert_eq!(m01.tma, dir.path().join("Missions/Campaign/M01/DATA.TMA"));
    let tma_file = g.mission(m01.tma.to_str().unwrap()).unwrap();
    assert_eq!(tma_file.dir, m01.dir);
    assert!(g.mission("NotAMission").is_err());
    assert!(
        g.mission("nothing")
            .unwrap_err()
            .to_string()
            .contains("Tut_1")
    );
    assert!(GameDir::open(dir.path().join("missing")).is_err());
}
