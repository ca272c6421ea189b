//! Case-insensitive resolution over a real directory tree shaped like a
//! retail install (mixed case, `\` in legacy paths), mission listing and
//! mission lookup.

mod support;

use iron3d_formats::gamedir::GameDir;
use std::fs;
use std::path::Path;
use support::expect_error;

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
    let e = expect_error(
        g.mission("NotAMission"),
        0,
        "game dir: missing: mission \"NotAMission\" \
         (known: Campaign/M01, Campaign/Tut_1, Tut_1)",
    );
    assert_eq!(e.file.as_deref(), dir.path().to_str());
    assert!(
        g.mission("nothing")
            .unwrap_err()
            .to_string()
            .contains("Tut_1")
    );
    let missing = dir.path().join("missing");
    let e = expect_error(
        GameDir::open(&missing),
        0,
        "game dir: missing: the game directory",
    );
    assert_eq!(e.file.as_deref(), missing.to_str());
}

/// A one-entry-per-name NRes archive with type id 7.
fn archive(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use iron3d_formats::archive::nres::{NewEntry, build};
    let list: Vec<NewEntry> = entries
        .iter()
        .map(|(name, payload)| NewEntry {
            name: name.as_bytes().to_vec(),
            type_id: 7,
            attr1: 1,
            attr2: 2,
            attr3: 0,
            payload,
        })
        .collect();
    build(&list).unwrap()
}

#[test]
fn mod_layers_win_for_files_and_entries_later_ones_first() {
    use iron3d_formats::graph::library::Libraries;
    let tmp = tempfile::tempdir().unwrap();
    let (root, low, high) = (
        tmp.path().join("game"),
        tmp.path().join("mod_low"),
        tmp.path().join("mod_high"),
    );
    touch(&root, "Missions/Tut_1/Data.tma");
    touch(&root, "Missions/Tut_1/Land.msh");
    fs::write(
        root.join("Textures.lib"),
        archive(&[("A", b"a0"), ("B", b"b0")]),
    )
    .unwrap();
    // The low mod: its own data.tma (another case), a loose entry
    // override and a new loose entry in a directory named like the archive.
    touch(&low, "missions/tut_1/DATA.TMA");
    fs::write(low.join("missions/tut_1/DATA.TMA"), b"low").unwrap();
    touch(&low, "textures.lib/a.texm");
    fs::write(low.join("textures.lib/a.texm"), b"a1").unwrap();
    touch(&low, "textures.lib/C.texm");
    // The high mod: an archive of the same name with one entry.
    fs::create_dir_all(&high).unwrap();
    fs::write(high.join("TEXTURES.LIB"), archive(&[("b", b"b2")])).unwrap();

    let g = GameDir::open(&root)
        .unwrap()
        .with_mods(&[low.clone(), high.clone()])
        .unwrap();
    let mission_dir = root.join("Missions/Tut_1");
    let tma = g.resolve_from(&mission_dir, b"data.tma").unwrap();
    assert_eq!(tma, low.join("missions/tut_1/DATA.TMA"));
    assert_eq!(
        g.missions().unwrap()[0].tma,
        tma,
        "the listed mission's TMA"
    );
    assert_eq!(g.relative(&tma), Some(Path::new("missions/tut_1/DATA.TMA")));
    // A file no mod has stays the install's; a directory is the install's.
    assert_eq!(
        g.resolve_from(&mission_dir, b"LAND.MSH").unwrap(),
        mission_dir.join("Land.msh")
    );
    assert_eq!(g.resolve(b"missions/TUT_1").unwrap(), mission_dir);
    assert_eq!(
        g.layers_of(b"textures.lib"),
        vec![
            root.join("Textures.lib"),
            low.join("textures.lib"),
            high.join("TEXTURES.LIB")
        ]
    );

    let libs = Libraries::new(&g);
    let lib = libs.get(b"TEXTURES.lib").unwrap();
    let payload = |name: &[u8]| lib.payload(lib.find(name).unwrap()).unwrap().to_vec();
    assert_eq!(payload(b"A"), b"a1", "the low mod's loose file");
    assert_eq!(payload(b"B"), b"b2", "the high mod's archive entry");
    assert_eq!(payload(b"C"), b"x", "a new loose entry, found by its stem");
    assert_eq!(payload(b"c.TEXM"), b"x", "and by its file name");
    let a = &lib.entries[lib.find(b"a").unwrap()];
    assert_eq!((a.type_id, a.attr1, a.attr2), (7, 1, 2), "fields kept");

    // Without the mods, the install alone.
    let plain = GameDir::open(&root).unwrap();
    assert_eq!(
        plain.resolve_from(&mission_dir, b"data.tma").unwrap(),
        mission_dir.join("Data.tma")
    );
    let libs = Libraries::new(&plain);
    let lib = libs.get(b"Textures.lib").unwrap();
    assert_eq!(lib.payload(lib.find(b"A").unwrap()).unwrap(), b"a0");
    assert!(lib.find(b"C").is_none());

    let missing = tmp.path().join("no_such_mod");
    let err = GameDir::open(&root)
        .unwrap()
        .with_mods(&[missing])
        .unwrap_err();
    assert!(
        err.file.as_deref().unwrap().ends_with("no_such_mod"),
        "{err}"
    );
    assert!(matches!(
        err.problem,
        iron3d_formats::error::Problem::Missing { .. }
    ));
}
