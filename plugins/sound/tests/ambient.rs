//! The simulation's sound on the demo install, headless at the fixed step:
//! the theme loops from the first tick, variations play on the first tick
//! and then every 10..19 s, never twice in a row; the same run gives the
//! same list; a retail-style empty entry plays nothing and is a fault with
//! its chain.

use bevy::prelude::*;
use iron3d_schedules::GameClock;
use iron3d_sound::*;
use iron3d_world::test_support::{demo_install, run_for_seconds, running_test_app};
use std::path::Path;

fn sounds(app: &App) -> Vec<SoundEvent> {
    app.world().resource::<Sounds>().0.clone()
}

#[test]
fn the_theme_loops_and_variations_come_every_10_to_19_seconds() {
    let tmp = demo_install();
    let mut app = running_test_app(tmp.path().join("game"), SoundPlugin);
    run_for_seconds(&mut app, 120);
    let events = sounds(&app);
    let theme = &events[0];
    assert_eq!(
        (theme.key.as_str(), theme.kind, theme.bus, theme.position),
        (
            "SOUNDS.LIB::ATM_LOOP.WAV",
            SoundKind::Loop,
            Bus::Ambience,
            None
        )
    );
    let variations: Vec<&SoundEvent> = events
        .iter()
        .filter(|e| e.source == "mission.cfg variation")
        .collect();
    assert_eq!(variations[0].tick, theme.tick, "one on the first tick");
    let step = app.world().resource::<GameClock>().timestep();
    for pair in variations.windows(2) {
        let gap = step.as_secs_f64() * (pair[1].tick - pair[0].tick) as f64;
        assert!((10.0 - 1e-6..20.0).contains(&gap), "{gap} s");
        assert_ne!(pair[0].key, pair[1].key, "never twice in a row");
    }
    assert!(variations.len() >= 6, "{}", variations.len());
    assert!(
        events.iter().filter(|e| e.kind == SoundKind::Loop).count() == 1,
        "the theme starts once"
    );
    assert!(app.world().resource::<SoundFaults>().faults.is_empty());
}

#[test]
fn an_empty_entry_plays_nothing_and_reports_entry_empty_with_its_chain() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    // A mod whose mission.cfg names the retail-style empty entry as theme.
    let mission_dir = first_mission_dir(&game);
    let cfg = std::fs::read_to_string(mission_dir.join("mission.cfg")).unwrap();
    let broken = cfg.replace("ATM_LOOP.WAV", "ALIEN_ME.WAV");
    assert_ne!(broken, cfg);
    std::fs::write(mission_dir.join("mission.cfg"), broken).unwrap();
    let mut app = running_test_app(game, SoundPlugin);
    run_for_seconds(&mut app, 2);
    let loaded = app.world().resource::<MissionSounds>();
    assert!(
        loaded
            .faults
            .iter()
            .any(|f| f.contains("ALIEN_ME.WAV: entry_empty")),
        "{:?}",
        loaded.faults
    );
    assert!(sounds(&app).iter().all(|e| !e.key.contains("ALIEN_ME")));
    let faults = app.world().resource::<SoundFaults>().faults.clone();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].outcome, "entry_empty");
    assert_eq!(faults[0].key, "SOUNDS.LIB::ALIEN_ME.WAV");
    assert!(
        faults[0].chain.starts_with("mission '")
            && faults[0]
                .chain
                .ends_with("-> no object -> mission.cfg THEME -> SOUNDS.LIB::ALIEN_ME.WAV -> entry_empty: a zero-length payload"),
        "{}",
        faults[0].chain
    );
    // The variations play on.
    assert!(
        sounds(&app)
            .iter()
            .any(|e| e.source == "mission.cfg variation")
    );
}

/// The directory of the mission the test app loads first.
fn first_mission_dir(game: &Path) -> std::path::PathBuf {
    let game_dir = iron3d_formats::gamedir::GameDir::open(game).unwrap();
    game_dir.missions().unwrap().remove(0).dir
}

/// Day and night (openparkan `docs/34-progression.md`, "Ambient sound"):
/// the demo names day and night variations; with its sky's clock set to
/// start at 14:00, half an hour before its sun sets (18.75 s of its 900 s
/// day), the day list plays until sunset and the night list after.
#[test]
fn the_night_list_plays_once_the_sun_is_down() {
    use iron3d_formats::proto::ske::{ClockTime, Sky};
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let sky_file = first_mission_dir(&game).join("sky.ske");
    let mut sky = Sky::parse(&std::fs::read(&sky_file).unwrap()).unwrap();
    sky.start = ClockTime::new(0, 14, 0);
    std::fs::write(&sky_file, sky.to_bytes().unwrap()).unwrap();
    let mut app = running_test_app(game, SoundPlugin);
    run_for_seconds(&mut app, 90);
    let loaded = app.world().resource::<MissionSounds>().ambient.clone();
    let [default, day, night] = &loaded.variations;
    assert!(default.is_empty(), "{default:?}");
    let sunset_ms = 18_750;
    let (mut by_day, mut by_night) = (0, 0);
    let step = app.world().resource::<GameClock>().timestep();
    for v in sounds(&app)
        .iter()
        .filter(|e| e.source == "mission.cfg variation")
    {
        let at_ms = step.as_millis() as u64 * v.tick;
        if at_ms < sunset_ms {
            assert!(day.contains(&v.key), "{} at {at_ms} ms", v.key);
            by_day += 1;
        } else {
            assert!(night.contains(&v.key), "{} at {at_ms} ms", v.key);
            by_night += 1;
        }
    }
    assert!(
        by_day >= 1 && by_night >= 3,
        "{by_day} by day, {by_night} by night"
    );
    assert!(
        sounds(&app)
            .iter()
            .any(|e| e.key == "SOUNDS.LIB::ATM_CRICKETS.WAV"),
        "crickets at night"
    );
}

/// A mission without a `mission.cfg` (the test arena has none) names no
/// theme and no variations: nothing plays on the ambience bus, and that
/// is no fault.
#[test]
fn a_mission_without_mission_cfg_plays_no_ambience_and_reports_nothing() {
    use iron3d_world::test_support::{Arena, Side, What, running_arena};
    let arena = Arena::default().with(What::Walker, Side::Player, [0.0, 0.0]);
    let (_tmp, mut app, _ids) = running_arena(&arena, SoundPlugin);
    run_for_seconds(&mut app, 30);
    let ambience: Vec<SoundEvent> = sounds(&app)
        .into_iter()
        .filter(|e| e.bus == Bus::Ambience)
        .collect();
    assert!(ambience.is_empty(), "{ambience:?}");
    assert!(app.world().resource::<SoundFaults>().faults.is_empty());
}
