//! `iron3d play` as a user runs it.

use std::process::{Command, Output};
use std::sync::OnceLock;

/// A cache directory of this test run: the embedded demo install is built
/// there, not in the user's cache.
fn cache_home() -> &'static std::path::Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temp cache"))
        .path()
}

fn iron3d(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(args)
        .env("XDG_CACHE_HOME", cache_home())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run iron3d")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn headless_play_prints_ticks_and_the_same_hash_every_run() {
    let a = iron3d(&["play", "--headless", "--ticks", "300"]);
    let b = iron3d(&["play", "--headless", "--ticks", "300"]);
    assert!(a.status.success(), "{a:?}");
    let out = stdout(&a);
    assert!(out.contains("ticks: 300"), "{out}");
    let hash = out
        .lines()
        .find(|l| l.starts_with("state hash: "))
        .expect("hash line");
    assert_eq!(hash.len(), "state hash: ".len() + 16);
    assert!(
        out.contains("mission: "),
        "the embedded demo mission is loaded: {out}"
    );
    assert_eq!(
        out.lines().last(),
        stdout(&b).lines().last(),
        "deterministic"
    );
    let cached = cache_home().join("iron3d").join(format!(
        "demo-{}-{}",
        iron3d_demo::GENERATOR_VERSION,
        iron3d_demo::DEFAULT_SEED
    ));
    assert!(
        cached.join("objects.rlb").is_file(),
        "embedded demo built in the cache"
    );

    let c = iron3d(&["play", "--headless", "--ticks", "301"]);
    assert_ne!(
        out.lines().last(),
        stdout(&c).lines().last(),
        "hash follows the state"
    );
}

#[test]
fn play_without_a_display_names_headless_and_exits_2() {
    let o = iron3d(&["play"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("--headless"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        iron3d(&["play", "--headless"]).status.code(),
        Some(2),
        "--ticks required"
    );
    assert_eq!(iron3d(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(iron3d(&["play", "--rate", "0"]).status.code(), Some(2));
    let windowed_report = iron3d(&["play", "--report", "x.json"]);
    assert_eq!(
        windowed_report.status.code(),
        Some(2),
        "a windowed report needs --ticks"
    );
    assert!(String::from_utf8_lossy(&windowed_report.stderr).contains("needs --ticks N"));
}

/// A demo install (built by `iron3d demo build`) in a temporary directory.
fn demo_install() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("game");
    let o = iron3d(&["demo", "build", dir.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{o:?}");
    tmp
}

fn game_dir(tmp: &tempfile::TempDir) -> String {
    tmp.path().join("game").to_string_lossy().into_owned()
}

/// The placed objects of a mission's `data.tma`.
fn placed_objects(game: &str, mission: &str) -> iron3d_formats::tma::Tma {
    let dir = iron3d_formats::gamedir::GameDir::open(game).expect("game dir");
    let m = dir.mission(mission).expect("mission");
    let bytes = std::fs::read(&m.tma).expect("read tma");
    iron3d_formats::tma::parse(&bytes, iron3d_formats::archive::Mode::Compatible).expect("tma")
}

/// Components the mission should build: every part of each unit DAT, one
/// per direct prototype key.
fn expected_parts(game: &str, mission: &str, tma: &iron3d_formats::tma::Tma) -> usize {
    use iron3d_formats::tma::ResourceRef;
    let dir = iron3d_formats::gamedir::GameDir::open(game).expect("game dir");
    let m = dir.mission(mission).expect("mission");
    tma.objects
        .iter()
        .map(|o| match o.resource() {
            ResourceRef::Prototype(_) => 1,
            ResourceRef::UnitDat(path) => {
                let file = dir.resolve_in_mission(&m.dir, path).expect("unit file");
                let bytes = std::fs::read(file).expect("read unit");
                iron3d_formats::unitdat::UnitDat::parse(
                    &bytes,
                    iron3d_formats::archive::Mode::Compatible,
                )
                .expect("unit")
                .parts
                .len()
            }
        })
        .sum()
}

fn value<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {out}"))
}

#[test]
fn list_missions_names_the_missions_of_the_install() {
    let tmp = demo_install();
    let o = iron3d(&["play", "--game-dir", &game_dir(&tmp), "--list-missions"]);
    assert!(o.status.success(), "{o:?}");
    let out = stdout(&o);
    assert!(out.lines().count() >= 1, "{out}");
    assert!(
        out.lines().all(|l| !l.is_empty() && !l.contains('\\')),
        "{out}"
    );
}

#[test]
fn a_demo_mission_loads_runs_and_hashes_deterministically() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    let mission = stdout(&iron3d(&["play", "--game-dir", &game, "--list-missions"]))
        .lines()
        .next()
        .expect("a mission")
        .to_string();
    let args = [
        "play",
        "--game-dir",
        &game,
        "--mission",
        &mission,
        "--headless",
        "--ticks",
        "300",
        "--hash-every",
        "100",
        "--seed",
        "7",
    ];
    let a = iron3d(&args);
    assert!(a.status.success(), "{a:?}");
    let out = stdout(&a);
    let tma = placed_objects(&game, &mission);
    let objects = value(&out, "objects: ");
    assert!(
        objects.starts_with(&format!("{} (", tma.objects.len())),
        "registered == placed: {out}"
    );
    assert!(
        objects.contains(&format!(
            "(parts {},",
            expected_parts(&game, &mission, &tma)
        )),
        "every unit-DAT part is built: {out}"
    );
    for phase in [
        "Context",
        "Foundation",
        "Description",
        "Prototypes",
        "Resources",
        "Construction",
        "Registration",
    ] {
        assert!(out.contains(&format!("load {phase}: ")), "{phase}: {out}");
    }
    assert!(
        out.contains("tick 100: hash ") && out.contains("tick 200: hash "),
        "{out}"
    );
    assert!(out.contains("ticks: 300"), "{out}");
    let hash = value(&out, "state hash: ").to_string();
    let again = stdout(&iron3d(&args));
    assert_eq!(value(&again, "state hash: "), hash, "same run, same hash");
    assert_ne!(
        value(
            &stdout(&iron3d(&[&args[..11], &["8"]].concat())),
            "state hash: "
        ),
        hash,
        "the seed is part of the state"
    );

    // One placed object moved: another hash.
    let mut moved = tma.clone();
    moved.objects[0].position[0] += 1.0;
    let dir = iron3d_formats::gamedir::GameDir::open(&game).expect("game dir");
    let path = dir.mission(&mission).expect("mission").tma;
    std::fs::write(&path, moved.to_bytes().expect("tma bytes")).expect("write tma");
    let out = stdout(&iron3d(&args));
    assert_ne!(
        value(&out, "state hash: "),
        hash,
        "position is part of the state"
    );
}

#[test]
fn a_missing_reachable_archive_fails_before_the_first_tick_with_its_chain() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    std::fs::remove_file(tmp.path().join("game/static.rlb")).expect("remove static.rlb");
    let o = iron3d(&["play", "--game-dir", &game, "--headless", "--ticks", "10"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    for link in [
        "mission '",
        "(Resources)",
        "-> object #",
        "-> prototype '",
        "-> archive 'static.rlb'",
        "-> entry '",
    ] {
        assert!(err.contains(link), "{link} missing: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(!stdout(&o).contains("ticks:"), "no tick ran");
}

#[test]
fn a_mod_dir_changes_what_a_headless_run_loads() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    let mission = iron3d_formats::gamedir::GameDir::open(&game)
        .expect("game dir")
        .missions()
        .expect("missions")
        .remove(0);
    let run = |extra: &[&str]| {
        let mut args = vec!["play", "--game-dir", &game, "--headless", "--ticks", "3"];
        args.extend_from_slice(extra);
        let o = iron3d(&args);
        assert!(o.status.success(), "{o:?}");
        stdout(&o)
    };
    let plain = run(&[]);

    // The mod's data.tma keeps only the first placed object.
    let mut tma = placed_objects(&game, &mission.name);
    tma.objects.truncate(1);
    let modded = tmp.path().join("mod");
    let rel = mission.dir.strip_prefix(&game).expect("below the install");
    std::fs::create_dir_all(modded.join(rel)).expect("mod dirs");
    std::fs::write(
        modded.join(rel).join("data.tma"),
        tma.to_bytes().expect("tma bytes"),
    )
    .expect("write the mod's tma");
    let out = run(&["--mod-dir", modded.to_str().expect("utf-8 path")]);
    assert!(value(&out, "objects: ").starts_with("1 "), "{out}");
    assert!(!value(&plain, "objects: ").starts_with("1 "), "{plain}");
    assert_ne!(
        value(&out, "state hash: "),
        value(&plain, "state hash: "),
        "the modded mission simulates other objects"
    );
}

/// A headless run of `ticks` with `orders` (each an `--order` value) that
/// writes its report under `tmp`: what it printed, and the report.
fn headless_report(
    tmp: &tempfile::TempDir,
    ticks: &str,
    orders: &[&str],
) -> (std::process::Output, serde_json::Value) {
    let game = game_dir(tmp);
    let path = tmp
        .path()
        .join(format!("report-{ticks}-{}.json", orders.len()));
    let path_text = path.to_string_lossy().into_owned();
    let mut args = vec![
        "play",
        "--game-dir",
        &game,
        "--headless",
        "--ticks",
        ticks,
        "--report",
        &path_text,
    ];
    args.extend(orders.iter().flat_map(|o| ["--order", o]));
    let out = iron3d(&args);
    assert!(out.status.success(), "{out:?}");
    let report = std::fs::read(&path).expect("report written");
    (out, serde_json::from_slice(&report).expect("JSON"))
}

/// `--report FILE.json`: the end state of the run, every documented field,
/// one object per placed record sorted by id, at its placed position.
#[test]
fn the_headless_report_holds_the_end_state_of_every_object() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    let (out, report) = headless_report(&tmp, "30", &[]);
    let printed = stdout(&out);
    let mission = report["mission"].as_str().expect("mission");
    assert!(
        printed.contains(&format!("mission: {mission}")),
        "{printed}"
    );
    assert_eq!(report["ticks"], 30);
    let game_time = report["game_time_s"].as_f64().unwrap();
    assert!(
        (game_time - 1.0).abs() < 1e-6,
        "30 ticks at 30 Hz: {game_time}"
    );
    let hash = report["state_hash"].as_str().unwrap();
    assert!(
        printed.contains(&format!("state hash: {hash}")),
        "{printed}"
    );

    let objects = report["objects"].as_array().unwrap();
    let tma = placed_objects(&game, mission);
    assert_eq!(objects.len(), tma.objects.len());
    let ids: Vec<u64> = objects.iter().map(|o| o["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "sorted by id: {ids:?}");
    // Without requests nothing moves sideways: each object is found by its
    // placed x, y. Static bodies keep their height; the walker the demo
    // drops from 25 m fell 5t² = 5 m in the second; the rest stand.
    let vec3 = |v: &serde_json::Value| -> [f64; 3] {
        let a: Vec<f64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        [a[0], a[1], a[2]]
    };
    // Within a millimetre (the JSON holds each f32's shortest decimal).
    let at = |o: &serde_json::Value, p: [f32; 3]| {
        let q = vec3(&o["position"]);
        (0..2).all(|k| (q[k] - f64::from(p[k])).abs() < 1e-3)
    };
    for placed in &tma.objects {
        let o = objects
            .iter()
            .find(|o| at(o, placed.position))
            .unwrap_or_else(|| panic!("{placed:?} moved"));
        let (z, vz) = (vec3(&o["position"])[2], vec3(&o["velocity"])[2]);
        let placed_z = f64::from(placed.position[2]);
        assert_eq!(o["alive"], true, "{o}");
        if placed.instance_name == b"Dropped walker" {
            assert!((z - (placed_z - 5.0)).abs() < 1e-3, "fell 5 m: {o}");
            assert!((vz + 10.0).abs() < 1e-3, "at 10 m/s: {o}");
            assert_eq!(o["on_ground"], false, "{o}");
        } else if o["controller"].is_null() {
            assert!((z - placed_z).abs() < 1e-3, "a static body stays: {o}");
            assert_eq!(o["on_ground"], false, "{o}");
        } else {
            assert!(z <= placed_z + 1e-3, "{o}");
        }
    }
    assert!(
        objects.iter().any(|o| o["on_ground"] == true),
        "units stand on the ground"
    );
    assert!(
        objects
            .iter()
            .any(|o| o["clan"] == "Enemy" && o["shield"].is_array()),
        "the enemy's robots are shielded"
    );
    for o in objects {
        for field in [
            "logical_id",
            "clan",
            "prototype",
            "heading_deg",
            "controller",
            "velocity",
            "on_ground",
            "alive",
            "control_state",
            "mass_kg",
            "top_speed",
            "order",
            "target",
            "life",
            "level_ratio",
            "shield",
        ] {
            assert!(o.get(field).is_some(), "{field} missing in {o}");
        }
        // The demo plays medium: the enemy's robots (warriors) took 0.7,
        // the player's clan and every building nothing.
        let enemy_robot = o["clan"] == "Enemy" && !o["controller"].is_null();
        let expected = if enemy_robot {
            serde_json::json!(0.7)
        } else if o["clan"] == "Player" || o["controller"].is_null() {
            serde_json::Value::Null
        } else {
            o["level_ratio"].clone()
        };
        assert_eq!(o["level_ratio"], expected, "{o}");
        // The demo's armed robots carry a shield (a chassis's fight shield,
        // a turret's deflector): 150 a sector, times the ratio, all six
        // full; buildings none.
        if o["controller"].is_null() {
            assert!(o["shield"].is_null(), "{o}");
        } else if let Some(sectors) = o["shield"].as_array() {
            let full = 150.0 * o["level_ratio"].as_f64().unwrap_or(1.0);
            assert_eq!(sectors.len(), 6, "{o}");
            assert!(
                sectors
                    .iter()
                    .all(|s| (s.as_f64().unwrap() - full).abs() < 1e-3),
                "{o}"
            );
        }
        // Nothing has fought yet: every node whole.
        let life = o["life"].as_array().unwrap();
        assert!(
            life.iter()
                .flat_map(|p| p.as_array().unwrap())
                .all(|f| f.as_f64() == Some(1.0)),
            "{o}"
        );
        // A unit plays a state of its controller (the demo's all have
        // states), weighs something and has a live top speed within its
        // controller's; a static body has none of them.
        for field in ["control_state", "mass_kg", "top_speed"] {
            assert_eq!(o["controller"].is_null(), o[field].is_null(), "{o}");
        }
        if let (Some(kg), Some(top)) = (o["mass_kg"].as_f64(), o["top_speed"].as_f64()) {
            assert!(kg >= 800.0 && top > 0.0 && top <= 20.0, "{o}");
        }
        let heading = o["heading_deg"].as_f64().unwrap();
        assert!((0.0..360.0).contains(&heading), "{o}");
    }
    let controllers: Vec<_> = objects.iter().map(|o| o["controller"].as_str()).collect();
    assert!(
        controllers
            .iter()
            .any(|c| c.is_some_and(|c| c.ends_with(".ctl"))),
        "a unit"
    );
    assert!(controllers.iter().any(Option::is_none), "a static body");
    assert!(objects.iter().any(|o| o["clan"].is_string()), "a clan name");
    // No fight yet; the neutral mine reports what it dug, once a second.
    let events = report["events"].as_array().unwrap();
    assert!(events.iter().all(|e| e["kind"] == "mined"), "{events:?}");
    let clans = report["clans"].as_array().unwrap();
    let mines: Vec<&serde_json::Value> = clans
        .iter()
        .flat_map(|c| c["buildings"].as_array().unwrap())
        .filter(|b| b["role"] == "mine")
        .collect();
    assert!(
        events
            .iter()
            .all(|e| mines.iter().any(|m| m["id"] == e["object"]))
    );
    assert!(
        clans.iter().any(|c| c["power_available"] == 10.0),
        "{clans:?}"
    );
    assert_eq!(report["rounds"], 0);

    let bad = iron3d(&[
        "play",
        "--game-dir",
        &game,
        "--headless",
        "--ticks",
        "1",
        "--report",
        &tmp.path().join("no/such/dir/r.json").to_string_lossy(),
    ]);
    assert_eq!(bad.status.code(), Some(1), "{bad:?}");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("cannot write the report"),
        "{bad:?}"
    );
}

/// Two of the player's walkers sent at the enemy's base meet its units,
/// which fire at them: the report lists the shots, hits, damage, what
/// shields stopped and the destroyed walker, which is gone (or no longer alive) at the end.
#[test]
fn the_report_lists_what_a_fight_did() {
    let tmp = demo_install();
    let (_, report) = headless_report(&tmp, "4000", &["6 GO 200 300", "7 GO 200 300"]);
    let events = report["events"].as_array().unwrap();
    let of = |kind: &'static str| events.iter().filter(move |e| e["kind"] == kind);
    assert!(
        of("shot").count() > 0 && of("hit").count() > 0,
        "{events:?}"
    );
    for e in of("damage") {
        assert!(
            e["amount"].as_f64().unwrap() > 0.0 && e["node"].is_array(),
            "{e}"
        );
        assert!(e["by"].is_u64(), "{e}");
    }
    // The robots' shields stopped some of it, on no node.
    assert!(of("shielded").count() > 0, "{events:?}");
    for e in of("shielded") {
        assert!(
            e["amount"].as_f64().unwrap() > 0.0 && e["node"].is_null(),
            "{e}"
        );
    }
    let destroyed: Vec<u64> = of("destroyed")
        .map(|e| e["object"].as_u64().unwrap())
        .collect();
    assert!(!destroyed.is_empty(), "{events:?}");
    let ticks: Vec<u64> = events.iter().map(|e| e["tick"].as_u64().unwrap()).collect();
    assert!(
        ticks.windows(2).all(|w| w[0] <= w[1]),
        "in the order they happened"
    );
    for id in destroyed {
        let left = report["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"].as_u64() == Some(id));
        assert!(left.is_none_or(|o| o["alive"] == false), "{left:?}");
    }
    // Rounds went off; the shots and explosions played their effects'
    // sounds, a muzzle's owned by its shooter.
    assert!(of("explosion").count() > 0, "{events:?}");
    let sounds = report["sounds"].as_array().unwrap();
    let shooters: Vec<&serde_json::Value> = of("shot").map(|e| &e["object"]).collect();
    let played = |key: &'static str| {
        sounds
            .iter()
            .filter(move |s| s["key"] == key && s["kind"] == "play")
    };
    assert!(played("SOUNDS.LIB::EXPLODE.WAV").count() > 0, "{sounds:?}");
    let ticks: Vec<u64> = sounds.iter().map(|s| s["tick"].as_u64().unwrap()).collect();
    assert!(
        ticks.windows(2).all(|w| w[0] <= w[1]),
        "in the order they played"
    );
    let shot_sounds: Vec<_> = played("SOUNDS.LIB::LASER.WAV")
        .chain(played("SOUNDS.LIB::SHOT.WAV"))
        .collect();
    assert!(!shot_sounds.is_empty(), "{sounds:?}");
    assert!(
        shot_sounds.iter().all(|s| shooters.contains(&&s["owner"])),
        "{shot_sounds:?} {shooters:?}"
    );
    // The two walkers sent off stepped: their feet landed in turn, each
    // landing's step effect played its thud, owned by the walker.
    for walker in [6, 7] {
        let steps = played("SOUNDS.LIB::STEP.WAV")
            .filter(|s| s["owner"] == walker)
            .count();
        assert!(steps >= 10, "walker {walker}: {steps} steps");
    }
    assert_eq!(report["effect_faults"], serde_json::json!([]));
    assert!(report["effects"].is_u64());
}

/// `--order "ID GO X Y"` gives a unit an order at tick 0: the report shows
/// it while it walks and none once the unit stands at the place; a bad
/// order is a usage error.
#[test]
fn a_headless_order_walks_a_unit_to_the_place() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    let report = |ticks: &str, order: Option<String>| -> serde_json::Value {
        let orders: Vec<&str> = order.iter().map(String::as_str).collect();
        headless_report(&tmp, ticks, &orders).1
    };
    let before = report("1", None);
    let unit = before["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["on_ground"] == true)
        .expect("a unit on the ground");
    assert!(unit["order"].is_null(), "{unit}");
    assert_eq!(unit["path_revision"], 0, "{unit}");
    assert!(unit["routes"].is_array(), "{unit}");
    assert!(unit["areal"].is_u64(), "it stands on the areal map: {unit}");
    assert_eq!(before["behavior_diagnostics"], serde_json::json!([]));
    let id = unit["id"].as_u64().unwrap();
    let position = |o: &serde_json::Value| -> Vec<f64> {
        let p = o["position"].as_array().unwrap();
        p.iter().map(|v| v.as_f64().unwrap()).collect()
    };
    let p = position(unit);
    let (gx, gy) = (p[0] + 15.0, p[1] + 4.0);
    let order = format!("{id:#x} GO {gx} {gy}");
    let find = |r: &serde_json::Value| {
        r["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"].as_u64() == Some(id))
            .unwrap()
            .clone()
    };
    let walking = find(&report("30", Some(order.clone())));
    assert_eq!(walking["order"], "ORDER_ROBOT_GO", "{walking}");
    assert!(walking["target"].is_null(), "a place, not an object");
    assert_eq!(walking["path_revision"], 1, "one path planned: {walking}");
    let there = find(&report("600", Some(order)));
    assert!(there["order"].is_null(), "done: {there}");
    let q = position(&there);
    let off = ((q[0] - gx).powi(2) + (q[1] - gy).powi(2)).sqrt();
    assert!(off <= 6.0, "{off} m from the place: {there}");

    // A place off the map cannot be reached: a diagnostic, and it stays.
    let stuck = report("30", Some(format!("{id:#x} GO 99999 99999")));
    let diagnostics = stuck["behavior_diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(
        (d["object"].as_u64(), d["state"].as_u64()),
        (Some(id), Some(4)),
        "{d}"
    );
    assert!(d["chain"].as_str().unwrap().starts_with("mission '"), "{d}");
    assert!(d["cause"].as_str().unwrap().contains("no areal"), "{d}");
    let q = position(&find(&stuck));
    assert!(
        (q[0] - p[0]).abs() < 0.5 && (q[1] - p[1]).abs() < 0.5,
        "stayed: {q:?}"
    );

    let bad = iron3d(&[
        "play",
        "--game-dir",
        &game,
        "--headless",
        "--ticks",
        "1",
        "--order",
        "12 SEARCH 3",
    ]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("unknown order"),
        "{bad:?}"
    );
}

/// An effect that cannot be read does not stop the mission: the report
/// names it with what named it and the cause; an `--effect` the mission
/// does not read is a fault too, and one it reads plays (its sound).
#[test]
fn unreadable_and_unknown_effects_are_reported_and_the_mission_plays_on() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    let modded = tmp.path().join("mod");
    std::fs::create_dir_all(modded.join("effects.rlb")).unwrap();
    // The lasers' hit effect: only their explosions name it.
    std::fs::write(modded.join("effects.rlb").join("FX_SPARK"), b"no effect").unwrap();
    let path = tmp.path().join("faults.json");
    let args = [
        "play",
        "--game-dir",
        &game,
        "--headless",
        "--ticks",
        "5",
        "--mod-dir",
        modded.to_str().unwrap(),
        "--effect",
        "FX_NOPE 0,0,10",
        "--effect",
        "FX_LASER -10,20,30",
        "--report",
        path.to_str().unwrap(),
    ];
    let out = iron3d(&args);
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let faults: Vec<&str> = report["effect_faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let unreadable = faults
        .iter()
        .find(|f| f.contains("EFFECTS.RLB::FX_SPARK"))
        .unwrap_or_else(|| panic!("{faults:?}"));
    // Named by the lasers' explosions, failing as an FXID.
    assert!(unreadable.contains(".exp -> "), "{unreadable}");
    assert!(unreadable.contains("FXID"), "{unreadable}");
    assert!(
        faults
            .iter()
            .any(|f| f.contains("EFFECTS.RLB::FX_NOPE") && f.contains("not read at load")),
        "{faults:?}"
    );
    let sounds = report["sounds"].as_array().unwrap();
    let laser: Vec<_> = sounds
        .iter()
        .filter(|s| s["key"] == "SOUNDS.LIB::LASER.WAV")
        .collect();
    assert_eq!(laser.len(), 1, "{sounds:?}");
    assert!(laser[0]["owner"].is_null());
    let at: Vec<f64> = laser[0]["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    for (got, want) in at.iter().zip([-10.0, 20.0, 30.0]) {
        assert!((got - want).abs() < 1e-3, "{at:?}");
    }
}

#[test]
fn the_report_lists_the_ambience_and_sounds_that_played_nothing() {
    let tmp = demo_install();
    let game = game_dir(&tmp);
    // A mod empties the laser's sound, the way retail ships ALIEN_ME.WAV.
    let modded = tmp.path().join("mod");
    std::fs::create_dir_all(modded.join("sounds.lib")).unwrap();
    std::fs::write(modded.join("sounds.lib").join("LASER.WAV"), b"").unwrap();
    let run = |name: &str| -> serde_json::Value {
        let path = tmp.path().join(name);
        let args = [
            "play",
            "--game-dir",
            &game,
            "--headless",
            "--ticks",
            "400",
            "--mod-dir",
            modded.to_str().unwrap(),
            "--effect",
            "FX_LASER -10,20,30",
            "--report",
            path.to_str().unwrap(),
        ];
        let out = iron3d(&args);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
    };
    let report = run("first.json");
    let sounds = report["sounds"].as_array().unwrap();
    let theme = &sounds[0];
    assert_eq!(theme["key"], "SOUNDS.LIB::ATM_LOOP.WAV");
    assert_eq!(
        (&theme["kind"], &theme["bus"], &theme["source"]),
        (
            &serde_json::json!("loop"),
            &serde_json::json!("ambience"),
            &serde_json::json!("mission.cfg THEME")
        )
    );
    assert!(theme["position"].is_null() && theme["owner"].is_null());
    let variations = sounds
        .iter()
        .filter(|s| s["source"] == "mission.cfg variation")
        .count();
    assert_eq!(
        variations, 2,
        "400 ticks at 30 Hz: one at once, one 10..19 s on"
    );
    assert!(sounds.iter().all(|s| s["key"] != "SOUNDS.LIB::LASER.WAV"));
    // The effect at tick 1, then each enemy unit's laser once it opens
    // fire (the enemy's script sends them at the player): each chain once.
    let faults = report["sound_faults"].as_array().unwrap();
    assert!(
        faults
            .iter()
            .all(|f| f["key"] == "SOUNDS.LIB::LASER.WAV" && f["outcome"] == "entry_empty"),
        "{faults:?}"
    );
    let chains: std::collections::BTreeSet<&str> = faults
        .iter()
        .map(|f| f["chain"].as_str().unwrap())
        .collect();
    assert_eq!(chains.len(), faults.len(), "{faults:?}");
    assert_eq!(faults[0]["tick"], 1);
    let chain = faults[0]["chain"].as_str().unwrap();
    assert!(
        chain.ends_with(
            "-> no object -> EFFECTS.RLB::FX_LASER -> SOUNDS.LIB::LASER.WAV -> entry_empty: a zero-length payload"
        ),
        "{chain}"
    );
    // The same run gives the same list.
    assert_eq!(run("second.json")["sounds"], report["sounds"]);
}

/// The replays kept as regression tests (`tests/replays/`): each plays
/// back on the demo install to every checkpoint it recorded. A change to
/// the simulation shows here; re-record the replay
/// (docs/book/src/replays-and-saves.md, "The kept replays") when the
/// change is meant, and say why in the commit.
#[test]
fn the_kept_replays_verify_on_the_demo_install() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let mut kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    kept.sort();
    assert!(!kept.is_empty());
    for replay in kept {
        let o = iron3d(&["replay", replay.to_str().unwrap(), "--headless", "--verify"]);
        let out = stdout(&o);
        assert!(
            o.status.success(),
            "{}: {out}{}",
            replay.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        let line = out.lines().find(|l| l.starts_with("replay: ")).unwrap();
        let (reached, of) = line["replay: ".len()..]
            .trim_end_matches(" reached")
            .split_once(" checkpoints of ")
            .unwrap();
        assert_eq!(reached, of, "{}", replay.display());
    }
}

/// The text of the kept replay `name` and the report of its playback,
/// which verified.
fn kept_replay_verified(name: &str) -> (String, serde_json::Value) {
    let kept = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/replays")
        .join(name);
    let text = std::fs::read_to_string(&kept).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let o = iron3d(&[
        "replay",
        kept.to_str().unwrap(),
        "--headless",
        "--verify",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    (text, report)
}

/// The kept script-driven run (`tests/replays/script-run.ron`): the demo's
/// second mission with no input at all. The enemy clan's script sends its
/// robots at the player's base and two along the road on patrol, and has
/// its factory build two warbots that it sends too; the player's units
/// destroy every one of them (the enemy at medium difficulty), and the
/// player's `Mission` handler completes the bonus objective: the same tick
/// on every run.
#[test]
fn the_kept_script_driven_run_is_decided_by_the_scripts() {
    let (text, report) = kept_replay_verified("script-run.ron");
    assert!(text.contains("steps: [],"), "no input recorded");
    assert_eq!(report["outcome"]["result"], "running");
    let bonus = &report["objectives"][3];
    assert_eq!(
        (&bonus["text"], &bonus["state"], &bonus["tick"]),
        (
            &serde_json::json!("Leave the enemy no robot"),
            &serde_json::json!("complete"),
            &serde_json::json!(7501)
        ),
        "{}",
        report["objectives"]
    );
    // No robot of the enemy's clan is left: the last fell just before.
    let enemy_robots = report["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| {
            o["clan"] == "Enemy"
                && o["alive"] == true
                && o["prototype"].as_str().unwrap().contains("ROBOTS")
        })
        .count();
    assert_eq!(enemy_robots, 0);
    let destroyed: Vec<&serde_json::Value> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "destroyed")
        .collect();
    assert_eq!(destroyed.last().unwrap()["tick"], 7443);
    let built = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "built")
        .count();
    assert_eq!(built, 2, "the enemy's two free warbots");
    // The player's script gave its hint on the way, then the objective.
    assert_eq!(report["messages"][0]["kind"], "MESSAGE_INFO");
    assert_eq!(report["messages"][1]["kind"], "OBJECTIVE_COMPLETE");
    assert_eq!(report["messages"][1]["tick"], 7501);
    assert!(report["script_errors"].as_array().unwrap().is_empty());
}

/// The kept won game (`tests/replays/won.ron`): the demo's first mission
/// won by the player's recorded input alone, no orders given. The hero
/// waits out the enemy's attack on the base, walks round to the enemy's
/// tower and shoots it down, takes the neutral generator and reaches the
/// free build site; the player's `Mission` handler completes the mission.
#[test]
fn the_kept_won_replay_completes_the_demo_mission() {
    let (text, report) = kept_replay_verified("won.ron");
    assert!(text.contains("orders: [],"), "input only");
    assert_eq!(
        report["outcome"]["result"], "complete",
        "{}",
        report["outcome"]
    );
    let objectives = report["objectives"].as_array().unwrap();
    for o in objectives.iter().filter(|o| o["primary"] == true) {
        assert_eq!(o["state"], "complete", "{o}");
        assert!(o["tick"].as_u64().unwrap() <= report["outcome"]["tick"].as_u64().unwrap());
    }
    assert_eq!(
        objectives.iter().filter(|o| o["primary"] == true).count(),
        3
    );
    assert!(report["script_errors"].as_array().unwrap().is_empty());
    // Each objective completed is voiced, the last one followed by the
    // mission's own voice, as `ui/game_resources.cfg` binds them.
    let voices: Vec<(u64, &str, &str)> = report["sounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "voice" && s["source"] != "messages.cfg message 1")
        .map(|s| {
            let source = s["source"].as_str().unwrap();
            (
                s["tick"].as_u64().unwrap(),
                s["key"].as_str().unwrap(),
                source,
            )
        })
        .collect();
    let end = report["outcome"]["tick"].as_u64().unwrap();
    // The generator taken from the neutral clan: the System line 5039 and
    // its voice (queued behind any voice playing).
    let (taken, voices): (Vec<_>, Vec<_>) = voices
        .into_iter()
        .partition(|v| v.2.ends_with(" VOICE_NBUILD_CAPTURE"));
    let line: Vec<&serde_json::Value> = report["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "SYSTEM")
        .collect();
    assert_eq!(line.len(), 1, "{line:?}");
    assert_eq!(
        (&line[0]["value"], &line[0]["text"]),
        (
            &serde_json::json!(5039),
            &serde_json::json!("Building taken")
        )
    );
    assert_eq!(taken.len(), 1, "{taken:?}");
    assert!(taken[0].0 >= line[0]["tick"].as_u64().unwrap());
    let (obj, mission) = ("VOICES.LIB::V_ACK.WAV", "VOICES.LIB::V_DONE.WAV");
    assert_eq!(voices.len(), 5, "{voices:?}");
    assert!(
        voices[..4]
            .iter()
            .all(|v| v.1 == obj && v.2.ends_with(" VOICE_OBJ_COMPLETE"))
    );
    assert_eq!(
        voices[4],
        (end, mission, "ui/game_resources.cfg VOICE_MISSION_COMPLETE")
    );
    assert_eq!(voices[3].0, end, "the last objective's, first");
}

/// `replay OLD --headless --rerecord OUT` succeeds and writes `kept`.
fn rerecords_as_kept(old: &std::path::Path, out: &std::path::Path, kept: &str) {
    let _ = std::fs::remove_file(out);
    let o = iron3d(&[
        "replay",
        old.to_str().unwrap(),
        "--headless",
        "--rerecord",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(out).unwrap(), kept);
}

/// `--rerecord` after a meant change: the replay's input played again
/// gives this build's checkpoints; here the kept file with a checkpoint
/// spoiled (as an older build would have left it) comes back as kept, and
/// so does one recorded on another install (after a change of the demo
/// install), which a plain replay refuses.
#[test]
fn a_rerecorded_replay_takes_this_builds_checkpoints_and_keeps_its_input() {
    let kept =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/walk-and-fire.ron");
    let text = std::fs::read_to_string(kept).unwrap();
    let (head, rest) = text.split_once("(tick: 30, hash: ").unwrap();
    let (_, tail) = rest.split_once(',').unwrap();
    let spoiled = format!("{head}(tick: 30, hash: 1,{tail}");
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.ron");
    let out = dir.path().join("new.ron");
    std::fs::write(&old, &spoiled).unwrap();
    let o = iron3d(&["replay", old.to_str().unwrap(), "--headless", "--verify"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("parts from the recording by tick 30"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    rerecords_as_kept(&old, &out, &text);
    let (head, rest) = spoiled.split_once("install: \"").unwrap();
    let (_, tail) = rest.split_once('"').unwrap();
    std::fs::write(&old, format!("{head}install: \"0123456789abcdef\"{tail}")).unwrap();
    let o = iron3d(&["replay", old.to_str().unwrap(), "--headless"]);
    assert_eq!(o.status.code(), Some(1));
    let refused = String::from_utf8_lossy(&o.stderr);
    assert!(refused.contains("recorded on another install (its data.tma 0123456789abcdef"));
    rerecords_as_kept(&old, &out, &text);
}

/// A kept replay perturbed by hand (the mouse turn at tick 86 doubled):
/// `--verify` names the first checkpoint after it and, field by field,
/// the hero's turn.
#[test]
fn a_perturbed_replay_names_the_tick_object_and_field_that_part() {
    let kept =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/walk-and-fire.ron");
    let text = std::fs::read_to_string(kept).unwrap();
    let turn = "(tick: 86, held: 17, pressed: 0, mouse: (40.0, 0.0)";
    assert!(text.contains(turn));
    let dir = tempfile::tempdir().unwrap();
    let perturbed = dir.path().join("perturbed.ron");
    std::fs::write(
        &perturbed,
        text.replace(turn, &turn.replace("40.0", "80.0")),
    )
    .unwrap();
    let o = iron3d(&[
        "replay",
        perturbed.to_str().unwrap(),
        "--headless",
        "--verify",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("parts from the recording by tick 93"), "{err}");
    // The verification stops at the checkpoint that differs (tick 93),
    // not at the replay's end (306).
    let out = stdout(&o);
    assert!(out.contains("ticks: 93\n"), "{out}");
    assert!(out.contains("replay: 3 checkpoints of 10 reached"), "{out}");
    let (_, fields) = err.split_once("; fields: object 0x").expect("fields named");
    let (hero, _) = fields.split_once(' ').unwrap();
    // The hero's turn, its body's motion and the pilot's mouse filter.
    for field in [
        "world_objects.rotation",
        "control.linear_velocity",
        "player.filter.x",
    ] {
        assert!(err.contains(&format!("object 0x{hero} {field}")), "{err}");
    }
}

#[test]
fn a_broken_newer_or_foreign_replay_is_refused_with_its_reason() {
    let kept =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/walk-and-fire.ron");
    let text = std::fs::read_to_string(kept).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let refused = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, body).unwrap();
        let o = iron3d(&["replay", path.to_str().unwrap(), "--headless", "--verify"]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = refused("cut.ron", &text[..text.len() / 3]);
    assert!(err.contains("not a replay"), "{err}");
    let err = refused("newer.ron", &text.replacen("version: 1", "version: 9", 1));
    assert!(err.contains("replay layout version 9"), "{err}");
    let (head, _) = text.split_once("install: \"").unwrap();
    let foreign = format!(
        "{head}install: \"0000000000000000{}",
        &text[head.len() + 26..]
    );
    let err = refused("foreign.ron", &foreign);
    assert!(err.contains("recorded on another install"), "{err}");
}

/// The trace `path` a finished run wrote (renamed from its temporary
/// name: nothing else is left beside it).
fn written_trace(path: &std::path::Path) -> iron3d_replay::TraceLines {
    let dir = path.parent().unwrap();
    let left = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".part")
        })
        .count();
    assert_eq!(left, 0, "a temporary file is left in {}", dir.display());
    iron3d_replay::TraceLines::read(path).unwrap()
}

/// The trace of the kept replay `name` played back headless into `dir`.
fn replay_trace(name: &str, dir: &std::path::Path) -> iron3d_replay::TraceLines {
    let kept = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/replays")
        .join(name);
    let path = dir.join(name).with_extension("jsonl");
    let o = iron3d(&[
        "replay",
        kept.to_str().unwrap(),
        "--headless",
        "--trace",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    written_trace(&path)
}

#[test]
fn a_trace_is_written_by_play_and_by_replay_with_every_line_on_a_channel() {
    let dir = tempfile::tempdir().unwrap();
    let played = dir.path().join("play.jsonl");
    let o = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        "400",
        "--trace",
        played.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines = written_trace(&played);
    assert!(
        lines
            .0
            .iter()
            .all(|l| l["tick"].as_u64().is_some_and(|t| t <= 400))
    );
    let on = |channel: &str| lines.on(channel);
    assert!(!on("control").is_empty());
    assert!(on("input").is_empty(), "no one played");
    // The enemy's units take their script's orders: each plans a path
    // (its local points end at its goal), goes round things on the
    // Wizard's points and crosses areals.
    let paths = on("path");
    assert!(!paths.is_empty());
    for path in paths {
        assert_eq!(
            path["points"].as_array().unwrap().last(),
            Some(&path["goal"])
        );
        assert!(!path["areals"].as_array().unwrap().is_empty(), "{path}");
    }
    // Each Wizard line says what the unit asks of Control then.
    let wizards = on("wizard");
    assert!(!wizards.is_empty());
    for w in wizards {
        assert_eq!(
            w["requested"]["speed"].as_array().map(Vec::len),
            Some(3),
            "{w}"
        );
        assert!(w["requested"]["turn"].is_number(), "{w}");
    }
    assert!(on("areal").len() > on("path").len());
    // The queue's lines name their dispatch phase.
    let queue = on("queue");
    assert!(!queue.is_empty());
    assert!(queue.iter().all(|l| l["phase"] == "dispatch"), "{queue:?}");

    let lines = replay_trace("walk-and-fire.ron", dir.path());
    let channels: std::collections::BTreeSet<&str> = lines
        .0
        .iter()
        .filter_map(|l| l["channel"].as_str())
        .collect();
    for channel in ["input", "control", "sound"] {
        assert!(channels.contains(channel), "{channels:?}");
    }
    let walked = lines.on("input")[0];
    assert_eq!(walked["held"][0], "WalkForward");

    // The script-driven run's destroyed robots are deleted through the
    // World3D queue: asked for in the calculation pass, applied in the
    // phase after it, one line each.
    let deleted: Vec<u64> = replay_trace("script-run.ron", dir.path())
        .on("queue")
        .into_iter()
        .filter(|l| l["phase"] == "apply_deferred_operations")
        .inspect(|l| assert_eq!(l["deferred_deletion"], true, "{l}"))
        .map(|l| l["object"].as_u64().unwrap())
        .collect();
    let unique: std::collections::BTreeSet<&u64> = deleted.iter().collect();
    assert!(
        deleted.len() >= 5 && unique.len() == deleted.len(),
        "{deleted:?}"
    );
}

/// The `tick K: hash H` lines of a run, and its last state hash.
fn hashes(o: &Output) -> Vec<String> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    stdout(o)
        .lines()
        .filter(|l| l.starts_with("tick ") || l.starts_with("state hash: "))
        .map(String::from)
        .collect()
}

/// The lines of `whole` (a run's hashes) after tick `after`.
fn after_tick(whole: &[String], after: u64) -> Vec<String> {
    whole
        .iter()
        .filter(|l| {
            l.strip_prefix("tick ")
                .and_then(|l| l.split(':').next())
                .is_none_or(|t| t.parse::<u64>().unwrap() > after)
        })
        .cloned()
        .collect()
}

/// The RON of a save's state section.
fn saved_section(save: &str, name: &str) -> String {
    let save = iron3d_replay::Replay::load(std::path::Path::new(save)).unwrap();
    let state = save.state.expect("a save holds the state");
    let section = state.iter().find(|s| s.name == name).expect(name);
    section.state.get_ron().to_string()
}

/// `name` in `dir`: a save of the first demo mission made at `tick` by a
/// headless run of as many ticks; its path and text.
fn save_made_at(dir: &std::path::Path, name: &str, tick: &str) -> (std::path::PathBuf, String) {
    let save = dir.join(name);
    let o = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        tick,
        "--save-at",
        tick,
        save.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&save).unwrap();
    (save, text)
}

#[test]
fn a_save_loads_and_the_run_goes_on_with_the_uninterrupted_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let kept = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/fight.ron");
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (during, after) = (at("fight-2405.ron"), at("fight-2600.ron"));
    // The fight (its input ends at 2,400; rounds still fly), saved twice
    // on the way to 2,700, the state hash of every tick printed.
    let whole = iron3d(&[
        "play",
        "--headless",
        "--load",
        kept.to_str().unwrap(),
        "--ticks",
        "2700",
        "--hash-every",
        "1",
        "--save-at",
        "2405",
        &during,
        "--save-at",
        "2600",
        &after,
    ]);
    let whole = hashes(&whole);
    assert!(
        saved_section(&during, "combat_rounds").contains("serial:"),
        "rounds in flight at the first save"
    );
    for (save, tick) in [(&during, 2405), (&after, 2600)] {
        let loaded = iron3d(&[
            "play",
            "--headless",
            "--load",
            save,
            "--ticks",
            "2700",
            "--hash-every",
            "1",
        ]);
        // The loaded run starts from the save's state (its steps are not
        // played again) and goes on: the hash of every tick after the
        // save point is the uninterrupted run's.
        let loaded = hashes(&loaded);
        assert_eq!(loaded, after_tick(&whole, tick + 1), "{save}");
        assert!(loaded.len() > 90, "{save}: {}", loaded.len());
    }
    // A save made by a loaded session holds the whole session: loaded in
    // turn, it goes on the same way.
    let again = at("again-2650.ron");
    let o = iron3d(&[
        "play",
        "--headless",
        "--load",
        &during,
        "--ticks",
        "2650",
        "--save-at",
        "2650",
        &again,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let resaved = iron3d_replay::Replay::load(std::path::Path::new(&again)).unwrap();
    let kept_replay = iron3d_replay::Replay::load(&kept).unwrap();
    // The fight's input, then the live input's (the keys let go).
    let fight = kept_replay.steps.len();
    assert_eq!(resaved.steps[..fight], kept_replay.steps[..]);
    assert_eq!(resaved.steps[fight].held, 0);
    assert_eq!(resaved.end_tick, 2650);
    let loaded = iron3d(&[
        "play",
        "--headless",
        "--load",
        &again,
        "--ticks",
        "2700",
        "--hash-every",
        "1",
    ]);
    assert_eq!(hashes(&loaded), after_tick(&whole, 2651));
    // The scripted mission with no input, saved early and while the
    // enemy's problems are under way, goes on the same way too.
    let (early, busy) = (at("script-150.ron"), at("script-1500.ron"));
    let scripted = ["--mission", "Campaign.00/Mission.02", "--ticks", "1700"];
    let plain = hashes(&iron3d(
        &[
            &["play", "--headless", "--hash-every", "1"][..],
            &scripted,
            &["--save-at", "150", &early, "--save-at", "1500", &busy],
        ]
        .concat(),
    ));
    assert!(saved_section(&busy, "script_brains").contains("),started:true"));
    for (save, tick) in [(&early, 150), (&busy, 1500)] {
        let loaded = hashes(&iron3d(&[
            "play",
            "--headless",
            "--load",
            save,
            "--ticks",
            "1700",
            "--hash-every",
            "1",
        ]));
        assert_eq!(loaded, after_tick(&plain, tick + 1), "{save}");
    }
}

/// Each kept replay, saved on the way at ticks chosen in the thick of it
/// and played again from each save's state: every checkpoint after it is
/// the recording's (`replay --from SAVE --verify`). The fight's saves
/// hold rounds in flight; the scripted run's, problems the clans'
/// handlers have started and their variables; the won mission's last
/// one comes a minute before it is won, which is reached from it.
#[test]
fn the_kept_replays_go_on_from_saves_made_on_the_way() {
    let dir = tempfile::tempdir().unwrap();
    let kept = |name: &str| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
        path.join(name).to_str().unwrap().to_string()
    };
    let cases: [(&str, &[u64]); 3] = [
        ("fight.ron", &[600, 1205, 1800]),
        ("script-run.ron", &[1500, 3000, 4790]),
        ("won.ron", &[5000, 6061]),
    ];
    for (replay, ticks) in cases {
        let saves: Vec<String> = ticks
            .iter()
            .map(|t| {
                dir.path()
                    .join(format!("{replay}-{t}"))
                    .to_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        let mut args = vec![
            "replay".to_string(),
            kept(replay),
            "--headless".into(),
            "--verify".into(),
        ];
        for (t, save) in ticks.iter().zip(&saves) {
            args.extend(["--save-at".to_string(), t.to_string(), save.clone()]);
        }
        let o = iron3d(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let all = stdout(&o);
        let reached = all
            .lines()
            .find(|l| l.contains("checkpoints of"))
            .unwrap()
            .to_string();
        for save in &saves {
            let o = iron3d(&[
                "replay",
                &kept(replay),
                "--headless",
                "--verify",
                "--from",
                save,
            ]);
            assert!(
                o.status.success(),
                "{save}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let out = stdout(&o);
            assert!(out.contains(&reached), "{save}: {out}");
            let last = |s: &str| {
                s.lines()
                    .find(|l| l.starts_with("state hash"))
                    .map(String::from)
            };
            assert_eq!(last(&out), last(&all), "{save}");
        }
        match replay {
            "fight.ron" => assert!(
                saves
                    .iter()
                    .any(|s| saved_section(s, "combat_rounds").contains("serial:")),
                "rounds in flight"
            ),
            "script-run.ron" => assert!(
                saves[..2]
                    .iter()
                    .all(|s| saved_section(s, "script_brains").contains("),started:true")),
                "problems under way"
            ),
            // The won mission's end (tick 7861) is among the checkpoints
            // after its last save: its progress is in the state hash. Its
            // save at 5,000 is the figure of a save's size in
            // docs/book/src/replays-and-saves.md, "The layout".
            _ => {
                let size = std::fs::metadata(&saves[0]).unwrap().len();
                assert!(size < 3_000_000, "{size} bytes");
            }
        }
    }
}

#[test]
fn a_broken_or_newer_save_is_refused_and_a_save_past_the_run_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    // Loads `body` as a save: the exit code is 1 and stderr says why.
    let refused = |body: &str| {
        std::fs::write(&path, body).unwrap();
        let o = iron3d(&[
            "play",
            "--headless",
            "--load",
            path.to_str().unwrap(),
            "--ticks",
            "30",
        ]);
        assert_eq!(o.status.code(), Some(1), "{body}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = refused("(version: 1, engine");
    assert!(
        err.contains("cannot load the save") && err.contains("not a replay"),
        "{err}"
    );
    assert!(refused("(version: 7)").contains("replay layout version 7"));
    // A save whose state does not fit this build: a section of another
    // shape, one this build does not have.
    let (_, text) = save_made_at(dir.path(), "good.ron", "20");
    let reshaped = text.replace(
        r#"(name: "player", state: ["#,
        r#"(name: "player", state: [7,"#,
    );
    let err = refused(&reshaped);
    assert!(
        err.contains("the save's state does not load: ")
            && err.contains("broken.ron: state section player:"),
        "{err}"
    );
    // One that reads but does not fit the mission: a unit saved with one
    // gun less than its armament has (a save from before a mod).
    let two_guns = "guns:[(rounds:60,charge:4.0,phase:Idle,barrel:0,lock:0.0),(rounds:40";
    assert!(text.contains(two_guns));
    let err = refused(&text.replacen(two_guns, "guns:[(rounds:40", 1));
    assert!(
        err.contains(
            "state section combat_weapons: object 0x00000002: the guns saved are not its armament's"
        ),
        "{err}"
    );
    // One that reads and fits but is not what the save's own checkpoint
    // says: no step runs on it.
    let edited = text.replace("theme_started:true", "theme_started:false");
    assert_ne!(edited, text);
    let err = refused(&edited);
    assert!(
        err.contains("the state put back is not the one saved")
            && err.contains("differing: ambient"),
        "{err}"
    );
    let unknown = text.replace(r#"(name: "ambient","#, r#"(name: "weather","#);
    let err = refused(&unknown);
    assert!(
        err.contains("state section weather: not a section of this build"),
        "{err}"
    );
    let late = dir.path().join("late.ron");
    let o = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        "20",
        "--save-at",
        "50",
        late.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the run ended before tick 50"));
    assert!(!late.exists());
}

/// A headless run of `ticks` ticks with a report: the report and the
/// peak resident memory of the process in KiB (`VmHWM`, read from /proc
/// while it runs; its output goes to files, so nothing blocks it).
fn run_with_peak_memory(dir: &std::path::Path, ticks: &str) -> (serde_json::Value, u64) {
    let report = dir.join(format!("{ticks}.json"));
    let log = |name: &str| std::fs::File::create(dir.join(format!("{ticks}.{name}"))).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_iron3d"))
        .args(["play", "--headless", "--ticks", ticks, "--report"])
        .arg(&report)
        .env("XDG_CACHE_HOME", cache_home())
        .env_remove("DISPLAY")
        .stdout(log("out"))
        .stderr(log("err"))
        .spawn()
        .expect("run iron3d");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let exit = loop {
        let hwm = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        });
        peak = peak.max(hwm.unwrap_or(0));
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(exit.success(), "{ticks} ticks: {exit}");
    let report = serde_json::from_slice(&std::fs::read(report).unwrap()).unwrap();
    (report, peak)
}

/// 36,000 ticks (20 minutes of game time) of the demo mission hold no
/// more entities, objects, rounds or effect instances than its first
/// 3,600, and take no more memory beyond what the logs the report keeps
/// (every combat event and sound) add.
#[test]
fn a_long_run_keeps_the_missions_footprint() {
    let dir = tempfile::tempdir().unwrap();
    let (short, short_peak) = run_with_peak_memory(dir.path(), "3600");
    let (long, long_peak) = run_with_peak_memory(dir.path(), "36000");
    let count = |r: &serde_json::Value, field: &str| match &r[field] {
        serde_json::Value::Array(list) => list.len() as u64,
        n => n.as_u64().unwrap(),
    };
    println!(
        "3,600 ticks: {} entities, {} objects, {} rounds, {} effects, {} events, {} sounds, {short_peak} KiB",
        count(&short, "entities"),
        count(&short, "objects"),
        count(&short, "rounds"),
        count(&short, "effects"),
        count(&short, "events"),
        count(&short, "sounds"),
    );
    println!(
        "36,000 ticks: {} entities, {} objects, {} rounds, {} effects, {} events, {} sounds, {long_peak} KiB",
        count(&long, "entities"),
        count(&long, "objects"),
        count(&long, "rounds"),
        count(&long, "effects"),
        count(&long, "events"),
        count(&long, "sounds"),
    );
    assert_eq!(long["ticks"], 36000);
    for field in ["entities", "objects", "rounds", "effects"] {
        assert!(
            count(&long, field) <= count(&short, field),
            "{field}: {} after 36,000 ticks, {} after 3,600",
            count(&long, field),
            count(&short, field)
        );
    }
    assert!(count(&short, "entities") > count(&short, "objects"));
    // The report's logs, at a generous 1 KiB an entry, and a tenth for
    // the allocator's own slack.
    let logs = count(&long, "events") + count(&long, "sounds");
    assert!(
        long_peak <= short_peak + short_peak / 10 + logs,
        "{long_peak} KiB after 36,000 ticks, {short_peak} KiB after 3,600, {logs} log entries"
    );
}

/// A headless run records the same replay file as the window's: its
/// orders among the header's, a checkpoint every 30 ticks and at its last
/// tick; the replay verifies to that tick and the run's own hash.
#[test]
fn a_headless_run_records_a_replay_that_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.ron");
    let path = file.to_str().unwrap();
    let args = [
        "play",
        "--headless",
        "--ticks",
        "95",
        "--order",
        "9 GO -300 -330",
    ];
    let run = iron3d(&[&args[..], &["--record", path]].concat());
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let hash = stdout(&run)
        .lines()
        .find_map(|l| l.strip_prefix("state hash: ").map(str::to_string))
        .expect("the run's hash");
    let replay = iron3d_replay::Replay::load(&file).expect("a replay file");
    assert_eq!(replay.end_tick, 95);
    assert_eq!(replay.orders.len(), 1, "the order is the session's");
    let ticks: Vec<u64> = replay.checkpoints.iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [30, 60, 90, 95]);
    let verified = iron3d(&["replay", path, "--headless", "--verify"]);
    let out = stdout(&verified);
    assert!(verified.status.success(), "{out}");
    assert!(out.contains("replay: 4 checkpoints of 4 reached"), "{out}");
    assert!(out.contains(&format!("state hash: {hash}")), "{out}");
    // Unwritable: the run fails and says so.
    let bad = iron3d(&[&args[..], &["--record", "/nonexistent/dir/run.ron"]].concat());
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not written"));
}

/// `--verify` verifies every checkpoint or fails: a replay with no
/// checkpoints verifies nothing and exits 1 saying so before it plays
/// (one that ends before its checkpoints is refused as it is read).
#[test]
fn a_verification_that_reaches_no_checkpoint_fails() {
    let kept =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/walk-and-fire.ron");
    let mut bare = iron3d_replay::Replay::load(&kept).unwrap();
    bare.checkpoints.clear();
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.ron");
    bare.save(&cut).unwrap();
    let o = iron3d(&["replay", cut.to_str().unwrap(), "--headless", "--verify"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("replay: not verified: 0 checkpoints of 0 reached (it holds none)"),
        "{err}"
    );
    assert!(stdout(&o).is_empty(), "nothing played: {}", stdout(&o));
}

/// The text of the kept replay `name`.
fn kept_text(name: &str) -> String {
    let kept = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    std::fs::read_to_string(kept.join(name)).unwrap()
}

/// `iron3d play --headless --ticks 60 --load FILE` failing with exit 1;
/// its stderr.
fn fails_to_load(path: &std::path::Path) -> String {
    fails(&[
        "play",
        "--headless",
        "--ticks",
        "60",
        "--load",
        path.to_str().unwrap(),
    ])
}

/// `iron3d ARGS` failing with exit 1; its stderr.
fn fails(args: &[&str]) -> String {
    let o = iron3d(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    err
}

/// A replay's numbers are checked as it is read: a rate the game cannot
/// run at, an end past a day of game time, checkpoints out of tick order
/// are refused with the field named, before anything runs.
#[test]
fn impossible_numbers_in_a_replay_are_refused_naming_the_field() {
    let text = kept_text("walk-and-fire.ron");
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "rate: 30.0,",
            "rate: 0.0,",
            "rate: 0 is not a simulation rate",
        ),
        (
            "rate: 30.0,",
            "rate: -1.0,",
            "rate: -1 is not a simulation rate",
        ),
        ("rate: 30.0,", "rate: 1e300,", "is not a simulation rate"),
        ("rate: 30.0,", "rate: 1e-300,", "is not a simulation rate"),
        (
            "rate: 30.0,",
            "rate: inf,",
            "rate: inf is not a simulation rate",
        ),
        (
            "rate: 30.0,",
            "rate: NaN,",
            "rate: NaN is not a simulation rate",
        ),
        (
            "end_tick: 306,",
            "end_tick: 18446744073709551615,",
            "end_tick: 18446744073709551615 is more than a day of game time",
        ),
        (
            "(tick: 62, hash",
            "(tick: 20, hash",
            "checkpoints[1]: tick 20 is not after tick 30",
        ),
    ];
    for (i, (from, to, says)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.ron"));
        assert!(text.contains(from));
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let err = fails(&["replay", path.to_str().unwrap(), "--headless", "--verify"]);
        assert!(
            err.contains(says) && err.contains(path.to_str().unwrap()),
            "{to}: {err}"
        );
    }
}

/// A save is checked as a replay is, its state must come with the
/// checkpoint of its tick and be of that tick, and it loads only on the
/// install it was made on and in a run that reaches its tick.
#[test]
fn a_save_without_its_checkpoint_or_of_another_tick_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (save, text) = save_made_at(dir.path(), "s.ron", "40");
    let far = dir.path().join("far.ron");
    let clock = "(name: \"game_clock\", state: (tick:40,";
    assert!(text.contains(clock));
    std::fs::write(
        &far,
        text.replacen(clock, &clock.replace("40", "18446744073709551615"), 1),
    )
    .unwrap();
    let err = fails_to_load(&far);
    assert!(
        err.contains(
            "game_clock: the state is of tick 18446744073709551615, which has no checkpoint"
        ),
        "{err}"
    );
    let mut unchecked = iron3d_replay::Replay::load(&save).unwrap();
    unchecked.checkpoints.clear();
    let bare = dir.path().join("bare.ron");
    unchecked.save(&bare).unwrap();
    let err = fails_to_load(&bare);
    assert!(
        err.contains("checkpoints: a save needs the checkpoint of its tick 40"),
        "{err}"
    );
    // Made on another install (as a replay is refused), or asked to end
    // before its own tick.
    let (head, _) = text.split_once("install: \"").unwrap();
    let foreign = dir.path().join("foreign.ron");
    let other = format!(
        "{head}install: \"0000000000000000{}",
        &text[head.len() + 26..]
    );
    std::fs::write(&foreign, other).unwrap();
    let err = fails_to_load(&foreign);
    assert!(
        err.contains("foreign.ron: the save was made on another install"),
        "{err}"
    );
    let o = iron3d(&[
        "play",
        "--headless",
        "--ticks",
        "30",
        "--load",
        save.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--ticks 30 ends before the save's tick 40"),
        "{err}"
    );
}

/// A device, a directory or an oversized file is never read as a save or
/// a replay.
#[test]
fn a_device_or_a_directory_is_not_read_as_a_save_or_replay() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for path in ["/dev/zero", d] {
        let err = fails(&["replay", path, "--headless"]);
        assert!(
            err.contains(path) && err.contains("not a regular file"),
            "{err}"
        );
        let err = fails(&["play", "--headless", "--ticks", "10", "--load", path]);
        assert!(
            err.contains(path) && err.contains("not a regular file"),
            "{err}"
        );
    }
}

/// Outputs are written whole under a fresh name and renamed: a target
/// that is a directory or a link, or whose directory is missing, fails
/// the run naming it, and nothing else changes.
#[test]
fn an_output_that_cannot_be_written_fails_the_run_and_touches_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, b"kept").unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let missing = dir.path().join("no/such/t.jsonl");
    for target in [&sub, &link, &missing] {
        let t = target.to_str().unwrap();
        for flag in ["--trace", "--report"] {
            let err = fails(&["play", "--headless", "--ticks", "5", flag, t]);
            assert!(err.contains(t), "{flag} {t}: {err}");
        }
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"kept");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["link.jsonl", "sub", "victim"],
        "no temporary file is left"
    );
}

/// An order names objects of the mission of the kinds it needs and takes
/// exactly its arguments; anything else exits 2 naming the order.
#[test]
fn an_order_for_no_such_object_or_of_the_wrong_kind_or_arguments_exits_2() {
    let cases = [
        (
            "999999 GO 1 2",
            "--order for object 0xf423f: no object 0xf423f in the mission",
        ),
        (
            "6 FOLLOW 999999",
            "no object 0xf423f in the mission to go after",
        ),
        ("6 CAPTURE 7", "object 0x7 is not a building to capture"),
        (
            "1 GO 1 2",
            "object 0x1 takes no orders (it has no controller)",
        ),
        ("6 GO 100 120 130", "wrong arguments for GO"),
        ("6 LEAVE 1 2", "wrong arguments for LEAVE"),
        ("6 GO 1e39 0", "\"1e39\" is not a finite number of metres"),
    ];
    for (order, says) in cases {
        let o = iron3d(&["play", "--headless", "--ticks", "5", "--order", order]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{order}: {err}");
        assert!(err.contains(says), "{order}: {err}");
    }
}

/// A `--mod-dir` that is not a directory is named as the mod directory it
/// was meant to be.
#[test]
fn a_mod_dir_that_is_a_file_is_named_as_the_mod_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let f = file.to_str().unwrap();
    let err = fails(&["play", "--headless", "--ticks", "5", "--mod-dir", f]);
    assert!(err.contains(f) && err.contains("a mod directory"), "{err}");
}

/// `text` with the first number after `key` in save section `section`
/// replaced by `value`.
fn edit_number(text: &str, section: &str, key: &str, value: &str) -> String {
    let start = text
        .find(&format!("(name: \"{section}\", state: "))
        .unwrap_or_else(|| panic!("no section {section}"));
    let at = start + text[start..].find(key).unwrap_or_else(|| panic!("{key}"));
    let number = at
        + key.len()
        + text[at + key.len()..]
            .find(|c: char| c.is_ascii_digit() || c == '-')
            .unwrap();
    let end = number
        + text[number..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
            .unwrap();
    format!("{}{value}{}", &text[..number], &text[end..])
}

/// A save's values are checked before any is put back: a number the
/// simulation cannot hold anywhere in the state, a transform no object
/// has, a gun past a unit's guns, a node's life past whole, an objective
/// the mission lacks; each refuses the save naming its section, object
/// and field, even with the checkpoints intact.
#[test]
fn impossible_values_in_a_save_are_refused_naming_section_object_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text) = save_made_at(dir.path(), "s.ron", "40");
    let cases = [
        (
            "world_objects",
            "translation:",
            "NaN",
            "state section world_objects: .live[0][1].translation[0]: NaN is not a finite number",
        ),
        (
            "world_objects",
            "scale:",
            "0.0",
            "state section world_objects: object 0x00000001: scale: [0, 1, 1] has a zero",
        ),
        (
            "world_objects",
            "rotation:",
            "3.0",
            "is not a unit quaternion",
        ),
        (
            "control",
            "linear_velocity:",
            "1e300",
            ".linear_velocity[0]: 1e300 is not a finite number",
        ),
        (
            "control",
            "turn:",
            "-inf",
            ".turn: -inf is not a finite number",
        ),
        (
            "player",
            "weapon:",
            "255",
            "state section player: object 0x00000016: weapon: 255 is past the 64 guns a unit may have",
        ),
        (
            "node_life",
            "[[",
            "2.0",
            "state section node_life: object 0x00000001: node life 2 is not a share from 0 to 1",
        ),
        (
            "script_progress",
            "index:",
            "99",
            "state section script_progress: objectives[0]: objective 99",
        ),
    ];
    for (i, (section, key, value, says)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.ron"));
        std::fs::write(&path, edit_number(&text, section, key, value)).unwrap();
        let err = fails_to_load(&path);
        assert!(
            err.contains(says) && err.contains(path.to_str().unwrap()),
            "{section} {key} {value}: {err}"
        );
    }
}
