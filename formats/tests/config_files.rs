//! Text configs: `BuildDat.lst` structure rules and masks, and the files of
//! the install surface read through the one shared reader, byte-identical.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::config::blocks::{CompIni, ObjectConfig};
use iron3d_formats::config::builddat::*;
use iron3d_formats::config::ini::{self, Settings, Source, Value};
use iron3d_formats::config::text::TextConfig;
use iron3d_formats::error::Problem;
use support::expect_error;

/// A retail-shaped file: comments, blank lines, CRLF, Part 2 style paths,
/// one empty section.
fn builddat() -> Vec<u8> {
    let mut s = String::from("// building categories\r\n\r\n");
    for (i, c) in BuildCategory::ALL.iter().enumerate() {
        let n = if i == 3 { 0 } else { 1 + i % 3 };
        s.push_str(&format!("{} {n}\r\n", c.name()));
        for k in 0..n {
            s.push_str(&format!(
                "\"UNITS\\BUILDS\\AI\\{}\\B{k}.dat\" // unit {k}\r\n",
                c.name()
            ));
        }
        s.push_str("\r\n");
    }
    s.into_bytes()
}

#[test]
fn builddat_reads_twelve_sections_with_masks() {
    let data = builddat();
    let b = BuildDat::parse(&data, Mode::Strict).unwrap();
    assert_eq!(b.sections.len(), 12);
    assert!(b.quirks.is_empty());
    assert_eq!(b.to_bytes(), data);
    let generator = b.section(BuildCategory::Generator).unwrap();
    assert!(generator.paths.is_empty());
    let plant = b.section(BuildCategory::Plant).unwrap();
    assert_eq!(plant.paths.len(), 1);
    let hangar = b.section(BuildCategory::Hangar).unwrap();
    assert_eq!(hangar.paths[1].path, "UNITS\\BUILDS\\AI\\Hangar\\B1.dat");
    assert_eq!(BuildCategory::Generator.mask(), 0x8000_0002);
    assert_eq!(BuildCategory::TowerLarge.mask(), 0x8020_0000);
    assert_eq!(
        BuildCategory::from_mask(0x8001_0000),
        Some(BuildCategory::BunkerSmall)
    );
    assert_eq!(
        BuildCategory::from_name("maintELEPORT"),
        Some(BuildCategory::MainTeleport)
    );
    let masks: std::collections::BTreeSet<u32> =
        BuildCategory::ALL.iter().map(|c| c.mask()).collect();
    assert_eq!(masks.len(), 12);
}

#[test]
fn builddat_builder_output_parses() {
    let sections: Vec<_> = BuildCategory::ALL
        .iter()
        .map(|&c| (c, vec![format!("UNITS\\BUILDS\\{}.dat", c.name())]))
        .collect();
    let bytes = BuildDat::build(&sections);
    let b = BuildDat::parse(&bytes, Mode::Strict).unwrap();
    assert_eq!(
        b.section(BuildCategory::Mine).unwrap().paths[0].path,
        "UNITS\\BUILDS\\Mine.dat"
    );
}

fn replace(data: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(data.to_vec()).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1).into_bytes()
}

#[test]
fn builddat_structure_errors() {
    let data = builddat();
    let header = "BuildDat.lst: expected a section header `<CategoryName> <count>`, found ";
    let cases = [
        (
            "unknown name",
            replace(&data, "Storage 3", "Storagee 3"),
            484,
            "BuildDat.lst: expected one of the 12 category names, found line 21: \"Storagee\""
                .to_string(),
        ),
        (
            "duplicate",
            replace(&data, "Storage 3", "Mine 3"),
            484,
            "BuildDat.lst: expected each category once, found line 21: Mine again".into(),
        ),
        (
            "count too large",
            replace(&data, "Tower_Large 3", "Tower_Large 4"),
            1122,
            "BuildDat.lst: expected as many path lines as the header counts, \
             found end of file after 3 of 4"
                .into(),
        ),
        (
            "count not a number",
            replace(&data, "Plant 1", "Plant one"),
            629,
            "BuildDat.lst: expected a decimal path count, found line 26: \"one\"".into(),
        ),
        (
            "count too small",
            replace(&data, "Bunker_Large 3", "Bunker_Large 2"),
            326,
            format!("{header}line 13: Words([Token {{ raw: \"\\\"UNITS"),
        ),
        (
            "unquoted path",
            replace(
                &data,
                "\"UNITS\\BUILDS\\AI\\Mine\\B0.dat\"",
                "UNITS\\BUILDS\\AI\\Mine\\B0.dat",
            ),
            400,
            "BuildDat.lst: expected one quoted unit path, found line 18: Words(".into(),
        ),
        (
            "header with three words",
            replace(&data, "Hangar 2", "Hangar 2 x"),
            682,
            format!("{header}line 29: Words([Token {{ raw: \"Hangar\""),
        ),
        (
            "unterminated quote",
            replace(&data, "B0.dat\" // unit 0", "B0.dat // unit 0"),
            42,
            "BuildDat.lst: expected a closing '\"' on the line, \
             found \"\\\"UNITS\\\\BUILDS\\\\AI\\\\Bunker_Small\\\\B0.dat // unit 0\""
                .into(),
        ),
    ];
    for (what, bad, offset, needle) in cases {
        let e = expect_error(BuildDat::parse(&bad, Mode::Compatible), offset, &needle);
        // a bare buffer: no file or entry to name
        assert!(e.file.is_none() && e.entry.is_none(), "{what}: {e}");
    }
}

#[test]
fn builddat_order_and_missing_sections_are_a_strict_quirk() {
    let data = BuildDat::build(&[
        (BuildCategory::Mine, vec!["a.dat".into()]),
        (BuildCategory::BunkerSmall, vec![]),
    ]);
    let err = BuildDat::parse(&data, Mode::Strict).unwrap_err();
    assert!(matches!(
        err.problem,
        Problem::Quirk {
            name: QUIRK_LOOSE_SECTIONS,
            ..
        }
    ));
    let b = BuildDat::parse(&data, Mode::Compatible).unwrap();
    assert!(matches!(
        b.quirks[0].problem,
        Problem::Quirk {
            name: QUIRK_LOOSE_SECTIONS,
            ..
        }
    ));
    assert_eq!(b.sections[0].category, BuildCategory::Mine);
    assert!(b.section(BuildCategory::Plant).is_none());
}

#[test]
fn iron_3d_ini_keeps_unknown_keys_and_provenance() {
    let src = "[CS]\r\nDISPLAY_WIDTH=1024\r\nDISPLAY_HEIGHT=768\r\nFORCE_CD_SOUND=\"D:\\\\Music\"\r\nSFX_VOLUME=80\r\n\
               [MULTIPLAYER]\r\nIP=127.0.0.1\r\n[LEVEL_RATIO]\r\nEASY=0.5\r\n";
    let cfg = TextConfig::parse(src.as_bytes(), "iron_3d.ini").unwrap();
    assert_eq!(cfg.to_bytes(), src.as_bytes());
    let s = Settings::resolve(&cfg, ini::IRON_3D_INI);
    assert_eq!(
        s.get("DISPLAY_WIDTH").unwrap().effective,
        Some(Value::Int(1024))
    );
    assert_eq!(s.get("SUBTITLES").unwrap().source, Source::Default);
    assert_eq!(
        s.get("SFX_VOLUME").unwrap().source,
        Source::File { line: 5 }
    );
    assert_eq!(
        s.get("FORCE_CD_SOUND").unwrap().effective,
        Some(Value::Text("D:\\\\Music".into()))
    );
    let unknown: Vec<_> = s.unknown.iter().map(|u| u.key.as_str()).collect();
    assert_eq!(unknown, ["IP"]);
    assert_eq!(
        cfg.sections().collect::<Vec<_>>(),
        ["CS", "MULTIPLAYER", "LEVEL_RATIO"]
    );
}

#[test]
fn game_level_picks_the_difficulty_ratio() {
    let ratio = |text: &str| {
        let cfg = TextConfig::parse(text.as_bytes(), "iron_3d.ini").unwrap();
        ini::level_ratio(&Settings::resolve(&cfg, ini::IRON_3D_INI))
    };
    let ratios = "[LEVEL_RATIO]\r\nEASY=0.25\r\nMEDIUM=0.6\r\nHARD=0.9\r\n";
    // No GAME_LEVEL: the shipped 1, medium; no [LEVEL_RATIO]: the shipped ratios.
    assert_eq!(ratio(""), 0.7);
    assert_eq!(ratio("[CS]\r\nGAME_LEVEL=0\r\n"), 0.5);
    assert_eq!(ratio(&format!("[CS]\r\nGAME_LEVEL=0\r\n{ratios}")), 0.25);
    assert_eq!(ratio(&format!("[CS]\r\nGAME_LEVEL=1\r\n{ratios}")), 0.6);
    // Anything but 0 and 1 is hard.
    assert_eq!(ratio(&format!("[CS]\r\nGAME_LEVEL=7\r\n{ratios}")), 0.9);
    assert_eq!(ratio(&format!("GAME_LEVEL=2\r\n{ratios}")), 0.9);
    // A ratio that is no positive number is its default.
    assert_eq!(
        ratio("[CS]\r\nGAME_LEVEL=0\r\n[LEVEL_RATIO]\r\nEASY=-1\r\n"),
        0.5
    );
    assert_eq!(ratio("GAME_LEVEL=2\r\n[LEVEL_RATIO]\r\nHARD=x\r\n"), 1.0);
}

#[test]
fn dispatcher_and_arealmap_keep_everything() {
    let cfg = TextConfig::parse(b"[COMPLETE]\nTut_1=1\nTut_2=0\n", "dispatcher.ini").unwrap();
    let s = Settings::resolve(&cfg, ini::DISPATCHER_INI);
    assert_eq!(s.unknown.len(), 2);
    assert_eq!(s.unknown[1].section, "COMPLETE");
    let cfg =
        TextConfig::parse(b"ShowAreals=1\nEdgeUp=0.25\nLogAreals=1\n", "ArealMap.ini").unwrap();
    let s = Settings::resolve(&cfg, ini::AREALMAP_INI);
    assert_eq!(s.get("EdgeUp").unwrap().effective, Some(Value::Float(0.25)));
    assert_eq!(s.get("RunBehDebug").unwrap().source, Source::Unset);
    assert_eq!(s.unknown[0].key, "LogAreals");
}

#[test]
fn comp_ini_and_mission_cfg_round_trip() {
    let comp = b"// CID DLL Function\r\n0 terrain.dll LoadLandscape // land\r\n5 terrain.dll CreateAtmosphere\r\n";
    let c = CompIni::parse(comp).unwrap();
    assert_eq!(c.text.to_bytes(), comp);
    assert_eq!(
        c.effective(5),
        Some(("terrain.dll", "CreateAtmosphere", true))
    );
    assert_eq!(c.effective(1), Some(("terrain.dll", "LoadBuilding", false)));
    let mission = "object amb_music\r\n\tdesc \"Ambient music\"\r\n\tlibrary music.lib\r\n\tlibtype 2\r\n\ttype 3\r\n\tloop 1\r\n\tvariation \"amb 2\"\r\nend\r\n";
    let m = ObjectConfig::parse(mission.as_bytes(), "mission.cfg").unwrap();
    assert_eq!(m.text.to_bytes(), mission.as_bytes());
    let o = m.object("amb_music").unwrap();
    assert_eq!(
        (o.field("desc"), o.field("libtype"), o.type_id()),
        (Some("Ambient music"), Some("2"), Some(3))
    );
    assert_eq!(o.field("variation"), Some("amb 2"));
    // briefing.cfg / messages.cfg: lossless through the generic reader.
    let briefing = b"// briefing\r\npage 1\r\ntext \"\xca\xe0\xef\xe8\xf2\xe0\xed\"\r\n";
    assert_eq!(
        TextConfig::parse(briefing, "briefing.cfg")
            .unwrap()
            .to_bytes(),
        briefing
    );
}

/// `DATA/TextRes.cfg` binds names to `TextRes.dll` string ids: a bound
/// name reads its string (names in any case, a later line winning), a
/// name it does not bind or whose id the DLL lacks is shown as written;
/// an install without the file has none; a descriptor whose DLL is
/// missing is an error naming it.
#[test]
fn textres_names_resolve_to_the_dlls_strings() {
    use iron3d_formats::config::text_res::TextRes;
    use iron3d_formats::source::Source as Files;
    use iron3d_formats::strings::StringDll;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("DATA");
    std::fs::create_dir_all(&data).unwrap();
    assert!(
        TextRes::read(&Files::new(tmp.path(), &[]).unwrap())
            .unwrap()
            .is_none()
    );
    let cfg = "object text_resources\r\n desc = \"resource\"\r\n library = \"data\\TextRes.dll\"\r\n libtype = \"multi\"\r\n type = 6\r\n T01_T01 = 8\r\n GONE = 9\r\n T01_T02 = 10\r\n t01_t02 = 11\r\nend\r\n";
    std::fs::write(data.join("TextRes.cfg"), cfg).unwrap();
    let err = TextRes::read(&Files::new(tmp.path(), &[]).unwrap()).unwrap_err();
    assert!(
        matches!(&err.problem, Problem::Missing { what } if what.contains("TextRes.dll")),
        "{err}"
    );
    let strings = [
        (8, "Привет".to_string()),
        (11, "Later".to_string()),
        (10, "Earlier".to_string()),
    ]
    .into_iter()
    .collect();
    let dll = StringDll::build(&strings).unwrap();
    std::fs::write(data.join("TEXTRES.DLL"), dll.to_bytes()).unwrap();
    let texts = TextRes::read(&Files::new(tmp.path(), &[]).unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(texts.text("T01_T01"), Some("Привет"));
    assert_eq!(texts.resolve("t01_t01"), "Привет");
    assert_eq!(texts.resolve("T01_T02"), "Later", "the later line");
    assert_eq!(texts.text("GONE"), None, "an id the DLL lacks");
    assert_eq!(texts.resolve("Mission.01"), "Mission.01", "as written");
}

/// The demo's interface sprites read from their pages through the
/// `textures` resource, each holding art; a modder's broken piece, a
/// piece off its page and an unbound page are faults beside the rest.
#[test]
fn interface_sprites_read_from_their_pages_and_a_bad_one_fails_alone() {
    use iron3d_formats::config::sprites::InterfaceArt;
    use iron3d_formats::source::Source as Files;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("demo");
    iron3d_demo::build(&root, iron3d_demo::DEFAULT_SEED, iron3d_demo::Scale::Demo).unwrap();
    let named = [
        "ccres_green_lamp",
        "ccres_ray_body",
        "ccres_frame_edge_v",
        "CCRES_FRAME_CORNER_3",
        "targeter_back",
        "frwd_shld",
    ];
    let art = InterfaceArt::read(
        &Files::new(&root, &[]).unwrap(),
        &named,
        &[("ring", ring_of())],
    );
    assert_eq!(art.faults, vec![]);
    assert_eq!(art.cuts.len(), 7);
    for (name, cut) in &art.cuts {
        let image = &art.pages[cut.page].image;
        let s = &cut.sprite;
        let opaque = (s.y..s.y + s.height)
            .flat_map(|y| (s.x..s.x + s.width).map(move |x| (x, y)))
            .any(|(x, y)| image.pixels[((y * image.width + x) * 4 + 3) as usize] > 0);
        assert!(opaque, "{name} holds no art");
    }
    assert_eq!(art.cut("ccres_frame_edge_v").unwrap().sprite.turns, 1);
    assert_eq!(art.cut("ccres_frame_corner_3").unwrap().sprite.turns, 2);
    let back = art.cut("targeter_back").unwrap();
    assert_eq!(art.pages[back.page].name, "ui\\ui.lib/ui_menu3.tex");
    assert_eq!(
        [
            back.sprite.x,
            back.sprite.y,
            back.sprite.width,
            back.sprite.height
        ],
        [0, 82, 150, 174]
    );

    // A modder turns a lamp by 45°, pushes the name bar off its page and
    // unbinds the reticle's page.
    let edit = |file: &str, from: &str, to: &str| {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file}: {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "ui/compaund.cfg",
        "object ccres_green_lamp\r\n",
        "object ccres_green_lamp\r\n rotate = 45\r\n",
    );
    edit(
        "ui/compaund.cfg",
        " offset_x = 131\r\n",
        " offset_x = 250\r\n",
    );
    edit("ui/game_resources.cfg", " page9 = 4\r\n", "");
    let art = InterfaceArt::read(
        &Files::new(&root, &[]).unwrap(),
        &named,
        &[("ring", ring_of())],
    );
    let problems: Vec<String> = art.faults.iter().map(|f| f.to_string()).collect();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(
        problems[0].contains("rotate: 0, 90, 180 or 270"),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].starts_with("ui/compaund.cfg"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].contains("\"ccres_ray_body\" inside its page"),
        "{}",
        problems[1]
    );
    assert!(
        matches!(&art.faults[2].problem, Problem::Missing { what } if what == "page \"page9\" in `textures`"),
        "{}",
        problems[2]
    );
    assert_eq!(art.cuts.len(), 4, "the rest are kept");
    assert!(art.cut("targeter_back").is_some());
}

/// The reticle's circle, cut in code from `page9`.
fn ring_of() -> iron3d_formats::config::sprites::Sprite {
    iron3d_formats::config::sprites::Sprite {
        texture: "page9".into(),
        x: 77,
        y: 0,
        width: 64,
        height: 64,
        turns: 0,
    }
}
