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
    use iron3d_formats::source::{Origin, Source};
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

    let source = Source::new(&root, &[low.clone(), high.clone()]).unwrap();
    let mission = Path::new("Missions/Tut_1");
    let tma = source
        .read_in_mission(mission, b"data.tma")
        .unwrap()
        .unwrap();
    assert_eq!(
        tma.origin,
        Origin::Loose(low.join("missions/tut_1/DATA.TMA"))
    );
    assert_eq!(tma.bytes(), b"low");
    assert!(source.is_override(&tma.origin));
    assert_eq!(
        source.relative(tma.origin.file()),
        Some(Path::new("missions/tut_1/DATA.TMA"))
    );
    // A file no mod has stays the install's; a directory is one anywhere.
    let land = source
        .read_in_mission(mission, b"LAND.MSH")
        .unwrap()
        .unwrap();
    assert_eq!(
        land.origin,
        Origin::Loose(root.join("Missions/Tut_1/Land.msh"))
    );
    assert!(source.is_dir(Path::new("missions/TUT_1")));
    let archive = Path::new("textures.lib");
    assert!(
        source.is_file(archive) && source.is_dir(archive),
        "an archive, and a mod's directory of entries"
    );

    let payload = |name: &[u8]| source.entry(b"TEXTURES.lib", name).unwrap().unwrap();
    assert_eq!(payload(b"A").bytes(), b"a1", "the low mod's loose file");
    assert_eq!(payload(b"B").bytes(), b"b2", "the high mod's archive entry");
    assert_eq!(
        payload(b"C").bytes(),
        b"x",
        "a new loose entry, found by its stem"
    );
    assert_eq!(payload(b"c.TEXM").bytes(), b"x", "and by its file name");
    let a = payload(b"a").info.unwrap();
    assert_eq!((a.type_id, a.attr1, a.attr2), (7, 1, 2), "fields kept");
    assert_eq!(payload(b"C").info, None, "a new entry has no fields");

    // Without the mods, the install alone.
    let plain = Source::new(&root, &[]).unwrap();
    let tma = plain
        .read_in_mission(mission, b"data.tma")
        .unwrap()
        .unwrap();
    assert_eq!(
        tma.origin,
        Origin::Loose(root.join("Missions/Tut_1/Data.tma"))
    );
    assert_eq!(
        plain.entry(b"Textures.lib", b"A").unwrap().unwrap().bytes(),
        b"a0"
    );
    assert!(plain.entry(b"Textures.lib", b"C").unwrap().is_none());

    let missing = tmp.path().join("no_such_mod");
    let err = Source::new(&root, &[missing]).unwrap_err();
    assert!(
        err.file.as_deref().unwrap().ends_with("no_such_mod"),
        "{err}"
    );
    assert!(matches!(
        err.problem,
        iron3d_formats::error::Problem::Missing { .. }
    ));
}

#[test]
fn a_mission_takes_its_menu_title_from_descr_and_its_campaign_from_its_path() {
    let dir = install();
    let r = dir.path();
    // CP1251 "Миссия" after blank lines, CRLF; the second line is not the
    // title.
    fs::write(
        r.join("Missions/Campaign/M01/DESCR"),
        b"\r\n  \r\n  \xcc\xe8\xf1\xf1\xe8\xff one \r\nsecond line\r\n",
    )
    .unwrap();
    fs::write(r.join("Missions/Tut_1/descr"), b"   \r\n").unwrap();
    let g = GameDir::open(r).unwrap();
    let missions = g.missions().unwrap();
    let shown: Vec<_> = missions
        .iter()
        .map(|m| (m.campaign(), m.title.as_deref()))
        .collect();
    assert_eq!(
        shown,
        [
            ("Campaign", Some("Миссия one")),
            ("Campaign", None),
            ("", None),
        ]
    );
}
