//! The engine end to end on a headless app (MinimalPlugins + SpinePlugin +
//! WorldPlugin + MissionPlugin, as `iron3d play --headless`):
//!
//! - load of the demo install's first mission and of the largest mission of
//!   the `--scale retail` install, with each loader phase's share (from
//!   `LoadProgress::timings`) and the peak heap (a counting allocator);
//! - time per simulation tick (one fixed step per `update()`) with the demo
//!   mission's objects and with a 900-object mission: the demo's first
//!   mission's placed objects repeated, shifted, up to 900, written with the
//!   formats crate's TMA writer beside the demo missions;
//! - load of the same two missions by the game without a window (the
//!   `iron://` asset source, the world and the renderer: the loader's checks
//!   and the renderer's asset loads of the same entries, until the mission
//!   runs with its scene's assets loaded);
//! - Control: one tick with 900 moving units (each walking and turning on
//!   the terrain, meeting the others) against the empty tick of the same
//!   engine in the same run;
//! - Behavior: one tick with 900 units of one clan walking to go orders
//!   across the map against the tick of the same units standing without
//!   orders, in the same run; the tick of the three clans' units mixed,
//!   engaging each other; and the planning of one global path (A* and
//!   waypoints);
//! - the base crossing: 50 walkers sent across a block of buildings in the
//!   test arena, the whole crossing against the same ticks of the same
//!   units standing, in the same run;
//! - headless run speed: game seconds simulated per wall second over a run
//!   of the demo mission at the default rate (the figure a replay verifier
//!   or a batch of headless runs cares about), as a multiple of real time,
//!   with Control alone and with every simulation plugin (the game as
//!   `iron3d play --headless` runs it);
//! - the replay verifier: `tests/replays/fight.ron` played back on the
//!   demo install with every checkpoint checked.
//!
//! `cargo bench --bench engine`

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_demo::{self as demo, Scale};
use iron3d_formats::archive::Mode;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::tma;
use iron3d_render::scene::SceneBuilt;
use iron3d_replay::{Playback, PlaybackPlugin, Replay};
use iron3d_schedules::SimulationRate;
use iron3d_world::mission::{
    LoadProgress, MissionPhase, MissionPlugin, MissionRequest, headless_app,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Placed objects of the tick benchmark's large mission.
const LARGE: usize = 900;
/// Units in the battle benchmark, and the ticks of the fight one sample
/// times.
const BATTLE: usize = 200;
const FIGHT_TICKS: u32 = 30;

/// Ticks of one headless run, and the fixed rate they are simulated at
/// (the default of `iron3d play`).
const RUN_TICKS: u32 = 300;
const RATE_HZ: f64 = 30.0;

/// A headless app with Control asked to load `mission` of the install at
/// `dir`.
fn app(dir: &Path, mission: &str) -> App {
    app_with(dir, mission, iron3d_control::ControlPlugin)
}

/// A headless app with `plugins` asked to load `mission` of the install at
/// `dir`, every schedule on one thread as the game's headless runs have
/// them (`iron3d::app::headless`).
fn app_with<M>(dir: &Path, mission: &str, plugins: impl bevy::app::Plugins<M>) -> App {
    let mut app = headless_app(
        Some(MissionRequest {
            game_dir: dir.to_path_buf(),
            mission: Some(mission.into()),
            mod_dirs: Vec::new(),
        }),
        1,
    );
    app.add_plugins(plugins);
    app.finish();
    app.cleanup();
    iron3d_schedules::run_on_one_thread(&mut app);
    app
}

/// The game without a window asked to load `mission` of the install at `dir`.
fn game_app(dir: &Path, mission: &str) -> App {
    let request = MissionRequest {
        game_dir: dir.to_path_buf(),
        mission: Some(mission.into()),
        mod_dirs: Vec::new(),
    };
    let mut app = iron3d_render::windowless_app(request, &[], false);
    app.finish();
    app.cleanup();
    app
}

/// Updates the windowless game until its scene is built (the asset loads
/// run on Bevy's IO threads meanwhile).
fn load_game(app: &mut App) {
    let start = std::time::Instant::now();
    while !app.world().contains_resource::<SceneBuilt>() {
        let phase = *app.world().resource::<State<MissionPhase>>().get();
        assert_ne!(
            phase,
            MissionPhase::Failed,
            "{:?}",
            app.world().resource::<LoadProgress>().error
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game did not load"
        );
        app.update();
    }
}

/// A load benchmark group: how its app is made and updated until loaded.
struct LoadBench {
    group: &'static str,
    make: fn(&Path, &str) -> App,
    load: fn(&mut App),
}

/// Updates until the mission runs; its progress.
fn load(app: &mut App) -> LoadProgress {
    for _ in 0..32 {
        app.update();
        let phase = *app.world().resource::<State<MissionPhase>>().get();
        let progress = app.world().resource::<LoadProgress>();
        match phase {
            MissionPhase::Running => return progress.clone(),
            MissionPhase::Failed => panic!("load failed: {:?}", progress.error),
            _ => {}
        }
    }
    panic!("loading did not finish");
}

/// The mission of the install with the most placed objects (the first of
/// equals), by its name below `MISSIONS`.
fn largest_mission(dir: &Path) -> String {
    let game = GameDir::open(dir).unwrap();
    let mut best = (0, String::new());
    for mission in game.missions().unwrap() {
        let data = std::fs::read(&mission.tma).unwrap();
        let objects = tma::parse(&data, Mode::Compatible).unwrap().objects.len();
        if objects > best.0 {
            best = (objects, mission.name.clone());
        }
    }
    best.1
}

/// Writes `MISSIONS/Bench/<name>/data.tma`: the install's first mission
/// with its placed objects replaced by what `objects` makes of them.
fn write_bench_mission(
    dir: &Path,
    name: &str,
    objects: impl FnOnce(Vec<tma::PlacedObject>) -> Vec<tma::PlacedObject>,
) -> String {
    let game = GameDir::open(dir).unwrap();
    let first = game.missions().unwrap().remove(0);
    let mut mission = tma::parse(&std::fs::read(&first.tma).unwrap(), Mode::Compatible).unwrap();
    mission.objects = objects(std::mem::take(&mut mission.objects));
    let out = dir.join("MISSIONS/Bench").join(name);
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("data.tma"), mission.to_bytes().unwrap()).unwrap();
    format!("Bench/{name}")
}

/// `Bench/Large`: the first mission's placed objects repeated, each copy
/// shifted 1 unit along X, up to `count`.
fn write_large_mission(dir: &Path, count: usize) -> String {
    write_bench_mission(dir, "Large", |source| {
        (0..count)
            .map(|i| {
                let mut object = source[i % source.len()].clone();
                object.position[0] += (i / source.len()) as f32;
                object
            })
            .collect()
    })
}

/// `Bench/Units900`: the first mission's units repeated up to `count`, on
/// a square grid 20 m apart around the map's middle, 150 m up (they fall,
/// land and walk).
fn write_units_mission(dir: &Path, count: usize) -> String {
    write_grid_mission(dir, "Units900", count, None)
}

/// `Bench/<name>`: the units of [`write_units_mission`], all of clan
/// `clan` (their identity word) when given.
fn write_grid_mission(dir: &Path, name: &str, count: usize, clan: Option<u32>) -> String {
    write_bench_mission(dir, name, |source| {
        let units: Vec<_> = source
            .into_iter()
            .filter(|o| o.kind() == Some(tma::ObjectKind::Unit))
            .collect();
        let side = (count as f64).sqrt().ceil() as usize;
        let half = side as f32 / 2.0;
        (0..count)
            .map(|i| {
                let mut object = units[i % units.len()].clone();
                let (gx, gy) = ((i % side) as f32, (i / side) as f32);
                object.position = [(gx - half) * 20.0, (gy - half) * 20.0, 150.0];
                if let Some(clan) = clan {
                    object.identity = clan;
                }
                object
            })
            .collect()
    })
}

/// Asks every mover to walk forward and turn (flyers also climb a little),
/// then runs `ticks` so that they have landed and meet: how many movers
/// there are, and how many of them then move faster than 0.5 m/s.
fn set_units_moving(app: &mut App, ticks: u32) -> (usize, usize) {
    let world = app.world_mut();
    let mut movers = world.query::<&mut iron3d_control::PhysicalState>();
    let mut n = 0;
    for mut state in movers.iter_mut(world) {
        state.requested = Vec3::new(0.0, 1.0, 0.05);
        state.turn = 0.2;
        n += 1;
    }
    for _ in 0..ticks {
        app.update();
    }
    let world = app.world_mut();
    let moving = world
        .query::<&iron3d_control::PhysicalState>()
        .iter(world)
        .filter(|s| s.linear_velocity.length() > 0.5)
        .count();
    (n, moving)
}

/// A headless app with Control and Behavior asked to load `mission`.
fn behavior_app(dir: &Path, mission: &str) -> App {
    app_with(
        dir,
        mission,
        (
            iron3d_control::ControlPlugin,
            iron3d_behavior::BehaviorPlugin,
        ),
    )
}

/// Runs `ticks` (the units land and stand).
fn settle(app: &mut App, ticks: u32) {
    for _ in 0..ticks {
        app.update();
    }
}

/// Sends every ground unit to the mirror of where it stands through the
/// map's middle, and returns each (from, to) pair (map frame).
fn order_across(app: &mut App) -> Vec<([f32; 2], [f32; 2])> {
    use iron3d_behavior::{InsertMode, OrderPacket, OrderTarget};
    let world = app.world_mut();
    let mut units = world.query::<(
        &iron3d_world::OriginalObjectId,
        &Transform,
        &iron3d_control::Body,
    )>();
    let mut sends: Vec<_> = units
        .iter(world)
        .filter(|(_, _, body)| body.holds_ground)
        .map(|(id, t, _)| (*id, [t.translation.x, -t.translation.z]))
        .collect();
    sends.sort_by_key(|(id, _)| *id);
    let mut outbox = world.resource_mut::<iron3d_world::WorldOutbox>();
    sends
        .into_iter()
        .map(|(id, from)| {
            let to = [-from[0], -from[1]];
            let packet = OrderPacket {
                code: 2,
                target: OrderTarget::Place([to[0], to[1], 0.0]),
                mode: InsertMode::Replace,
                parameter: 0,
            };
            outbox.post(iron3d_world::GmsgKind::Order, Some(id), packet.to_bytes());
            (from, to)
        })
        .collect()
}

/// Walkers in the base crossing, in columns of [`CROSSING_ROWS`].
const CROSSING_UNITS: usize = 50;
const CROSSING_ROWS: usize = 10;
/// Most ticks a crossing may take (four minutes of game time: the slowest
/// design crosses its 340 m in about two).
const CROSSING_CAP: u32 = 7200;

/// The base crossing in the test arena: a 3 × 3 block of buildings 60 m
/// apart round the middle, and [`CROSSING_UNITS`] walkers of the player
/// in a block west of it (columns 10 m apart, rows 12 m apart).
fn crossing_arena() -> iron3d_demo::Arena {
    use iron3d_demo::{Side, What};
    use iron3d_formats::config::builddat::BuildCategory;
    let mut arena = iron3d_demo::Arena::default();
    for (k, category) in BuildCategory::ALL.into_iter().take(9).enumerate() {
        let at = [60.0 * (k % 3) as f32 - 60.0, 60.0 * (k / 3) as f32 - 60.0];
        arena = arena.with(What::Building(category), Side::Player, at);
    }
    for i in 0..CROSSING_UNITS {
        let (column, row) = ((i / CROSSING_ROWS) as f32, (i % CROSSING_ROWS) as f32);
        let at = [-170.0 + 10.0 * column, 12.0 * row - 54.0];
        arena = arena.with(
            What::Robot(i % iron3d_demo::ROBOT_DESIGNS),
            Side::Player,
            at,
        );
    }
    arena
}

/// The crossing arena loaded with Control and Behavior and settled, its
/// walkers sent across when `go`.
fn crossing_app(dir: &Path, go: bool) -> App {
    let mut app = behavior_app(dir, iron3d_demo::ARENA_MISSION);
    load(&mut app);
    settle(&mut app, 30);
    if go {
        order_across(&mut app);
    }
    app
}

/// Runs the crossing until every walker's order is over (or
/// [`CROSSING_CAP`]): the ticks it took, how many arrived and how many
/// were reported (a diagnostic) instead.
fn cross(app: &mut App) -> (u32, usize, usize) {
    let going = |app: &mut App| {
        let world = app.world_mut();
        let mut orders = world.query::<&iron3d_behavior::Orders>();
        orders.iter(world).filter(|o| !o.0.is_empty()).count()
    };
    // The orders were posted: the first tick takes them.
    app.update();
    let mut ticks = 1;
    assert_eq!(going(app), CROSSING_UNITS, "every walker took its order");
    while ticks < CROSSING_CAP && going(app) > 0 {
        app.update();
        ticks += 1;
    }
    let reported = app
        .world()
        .resource::<iron3d_behavior::BehaviorDiagnostics>()
        .0
        .len();
    (ticks, CROSSING_UNITS - going(app) - reported, reported)
}

/// The base crossing: the whole crossing timed against the same number of
/// ticks of the same walkers standing without orders.
fn bench_crossing(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("arena");
    iron3d_demo::build_arena(&dir, &crossing_arena()).unwrap();
    let (ticks, arrived, reported) = cross(&mut crossing_app(&dir, true));
    println!(
        "base_crossing: {CROSSING_UNITS} walkers across a block of 9 buildings: {arrived} \
         arrived, {reported} gave up with a diagnostic, {} still on their way after {ticks} \
         ticks ({:.1} s of game time)",
        CROSSING_UNITS - arrived - reported,
        f64::from(ticks) / RATE_HZ
    );
    let mut group = c.benchmark_group("base_crossing");
    group.sample_size(10);
    let dir = dir.as_path();
    let run = |go: bool| {
        move |b: &mut criterion::Bencher| {
            b.iter_batched_ref(
                || crossing_app(dir, go),
                |app| {
                    for _ in 0..ticks {
                        app.update();
                    }
                },
                criterion::BatchSize::PerIteration,
            )
        }
    };
    group.bench_function(format!("units_50_go_{ticks}_ticks"), run(true));
    group.bench_function(format!("units_50_standing_{ticks}_ticks"), run(false));
    group.finish();
}

/// One load of `mission`: its progress and the heap peak above the heap in
/// use before it.
fn measured_load(dir: &Path, mission: &str) -> (LoadProgress, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut app = app(dir, mission);
    let progress = load(&mut app);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(app);
    (progress, peak)
}

/// Prints the mean wall time of each loader phase over `runs` loads, with
/// its share, the object/part/node counts and the heap peak.
fn report_phases(label: &str, dir: &Path, mission: &str, runs: u32) {
    let mut sums: Vec<(MissionPhase, Duration)> = Vec::new();
    let mut peak = 0;
    let mut last = LoadProgress::default();
    for _ in 0..runs {
        let (progress, p) = measured_load(dir, mission);
        peak = peak.max(p);
        for (i, (phase, d)) in progress.timings.iter().enumerate() {
            match sums.get_mut(i) {
                Some(s) => s.1 += *d,
                None => sums.push((*phase, *d)),
            }
        }
        last = progress;
    }
    let total: Duration = sums.iter().map(|(_, d)| *d).sum::<Duration>() / runs;
    println!(
        "{label}: mission {} ({} objects, {} parts, {} nodes), {runs} loads: \
         phases total {total:.2?}, heap peak {:.1} MiB",
        last.mission,
        last.objects_total,
        last.parts,
        last.nodes,
        peak as f64 / (1024.0 * 1024.0)
    );
    for (phase, sum) in sums {
        let mean = sum / runs;
        let share = 100.0 * mean.as_secs_f64() / total.as_secs_f64().max(1e-12);
        println!("  {phase:?}: {mean:.2?} ({share:.1}%)");
    }
}

/// The installs, built once per bench run in a temporary directory.
struct Installs {
    _tmp: tempfile::TempDir,
    demo: PathBuf,
    retail: PathBuf,
}

fn installs() -> Installs {
    let tmp = tempfile::tempdir().unwrap();
    let demo = tmp.path().join("demo");
    let retail = tmp.path().join("retail");
    demo::build(&demo, demo::DEFAULT_SEED, Scale::Demo).unwrap();
    demo::build(&retail, demo::DEFAULT_SEED, Scale::Retail).unwrap();
    Installs {
        _tmp: tmp,
        demo,
        retail,
    }
}

fn benches(c: &mut Criterion) {
    let installs = installs();
    let demo_mission = GameDir::open(&installs.demo).unwrap().missions().unwrap()[0]
        .name
        .clone();
    let retail_mission = largest_mission(&installs.retail);
    let large = write_large_mission(&installs.demo, LARGE);
    let units = write_units_mission(&installs.demo, LARGE);
    // The player's clan (identity 1) alone: no unit sees a hostile, so
    // none engages and only the go orders move them.
    let one_clan = write_grid_mission(&installs.demo, "Units900OneClan", LARGE, Some(1));

    report_phases("demo", &installs.demo, &demo_mission, 10);
    report_phases("retail largest", &installs.retail, &retail_mission, 10);
    report_phases("900 objects", &installs.demo, &large, 5);

    // The headless loader alone, then the game without a window (the
    // loader and the renderer reading the same entries).
    let loaders = [
        LoadBench {
            group: "mission_load",
            make: app,
            load: |a| {
                load(a);
            },
        },
        LoadBench {
            group: "game_load",
            make: game_app,
            load: load_game,
        },
    ];
    for LoadBench {
        group,
        make,
        load: run_load,
    } in loaders
    {
        let mut group = c.benchmark_group(group);
        group.sample_size(10);
        for (name, dir, mission) in [
            ("demo", &installs.demo, &demo_mission),
            ("retail_largest", &installs.retail, &retail_mission),
        ] {
            group.bench_function(name, |b| {
                b.iter_with_large_drop(|| {
                    let mut app = make(dir, mission);
                    run_load(&mut app);
                    app
                })
            });
        }
        group.finish();
    }

    let mut group = c.benchmark_group("tick");
    for (name, mission) in [("demo_mission", &demo_mission), ("objects_900", &large)] {
        let mut app = app(&installs.demo, mission);
        let progress = load(&mut app);
        println!("tick {name}: {} objects", progress.registered);
        group.bench_function(name, |b| b.iter(|| app.update()));
    }
    group.finish();

    // Control: the empty engine tick (no mission), then 900 moving units.
    let mut group = c.benchmark_group("control_tick");
    let mut empty = headless_app(None, 1);
    empty.add_plugins(iron3d_control::ControlPlugin);
    empty.finish();
    empty.cleanup();
    iron3d_schedules::run_on_one_thread(&mut empty);
    empty.update();
    group.bench_function("empty", |b| b.iter(|| empty.update()));
    let mut moving = app(&installs.demo, &units);
    load(&mut moving);
    let (n, walking) = set_units_moving(&mut moving, 200);
    println!(
        "control_tick units_900_moving: {n} moving units, {walking} of them faster than 0.5 m/s"
    );
    group.bench_function("units_900_moving", |b| b.iter(|| moving.update()));
    group.finish();

    // Behavior: 900 units of one clan walking to go orders across the map
    // (round the lake, round each other) against the same units standing
    // without orders, in the same run; the three clans' units mixed, who
    // engage each other; then one global path planned on its own.
    let mut group = c.benchmark_group("behavior_tick");
    let mut idle = behavior_app(&installs.demo, &one_clan);
    load(&mut idle);
    settle(&mut idle, 200);
    group.bench_function("units_900_no_orders", |b| b.iter(|| idle.update()));
    let mut fighting = behavior_app(&installs.demo, &units);
    load(&mut fighting);
    settle(&mut fighting, 200);
    group.bench_function("units_900_mixed_clans_engaging", |b| {
        b.iter(|| fighting.update())
    });
    let mut going = behavior_app(&installs.demo, &one_clan);
    load(&mut going);
    settle(&mut going, 200);
    let pairs = order_across(&mut going);
    let start = std::time::Instant::now();
    going.update();
    going.update();
    let planning = start.elapsed();
    let world = going.world_mut();
    let planned = world
        .query::<&iron3d_behavior::Route>()
        .iter(world)
        .filter(|r| r.revision > 0)
        .count();
    let failed = world
        .resource::<iron3d_behavior::BehaviorDiagnostics>()
        .0
        .len();
    println!(
        "behavior_tick units_900_go: {} go orders, {planned} routes planned, {failed} \
         diagnostics; the two ticks that take and plan them: {:.1} ms",
        pairs.len(),
        planning.as_secs_f64() * 1e3
    );
    settle(&mut going, 30);
    group.bench_function("units_900_go", |b| b.iter(|| going.update()));
    group.finish();

    // Combat: 200 units of the demo's clans mixed on the 20 m grid, landed
    // and fighting (guns, rounds, damage, effects): each sample times the
    // same 30 ticks of the fight from the same start (a fresh app, settled
    // 200 ticks, set up outside the timing), against the same units under
    // Control and Behavior alone (the reference, same run).
    let battle = write_grid_mission(&installs.demo, "Battle200", BATTLE, None);
    let start = |combat: bool| {
        let mut app = if combat {
            app_with(
                &installs.demo,
                &battle,
                (
                    iron3d_control::ControlPlugin,
                    iron3d_behavior::BehaviorPlugin,
                    iron3d_combat::CombatPlugin,
                    iron3d_fx::FxPlugin,
                ),
            )
        } else {
            behavior_app(&installs.demo, &battle)
        };
        load(&mut app);
        settle(&mut app, 200);
        app
    };
    let mut shown = start(true);
    print_battle("at the start", &shown);
    settle(&mut shown, FIGHT_TICKS);
    print_battle(&format!("{FIGHT_TICKS} ticks later"), &shown);
    let mut group = c.benchmark_group("combat_tick");
    group.sample_size(10);
    for (name, combat) in [
        ("units_200_behavior_only", false),
        ("units_200_battle", true),
    ] {
        group.bench_function(format!("{name}_{FIGHT_TICKS}_ticks"), |b| {
            b.iter_batched_ref(
                || start(combat),
                |app| settle(app, FIGHT_TICKS),
                criterion::BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    let mut group = c.benchmark_group("behavior_route");
    let map = going
        .world()
        .resource::<iron3d_world::mission::MissionArealMap>()
        .clone();
    let nav = map.navigator();
    let (mut k, mut draw) = (0usize, 1u32);
    group.bench_function("plan_one_route", |b| {
        b.iter(|| {
            let (from, to) = pairs[k % pairs.len()];
            k += 1;
            let rand = || {
                draw = draw.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                ((draw >> 16) & 0x7fff) as u16
            };
            nav.plan(from, to, |_| false, rand)
                .map(|route| nav.waypoints(&route, from, to).len())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("headless_run");
    group.sample_size(10);
    // Control alone on the demo mission and on 900 objects, then the game
    // as `iron3d play --headless` runs it: every simulation plugin, every
    // schedule on one thread.
    let runs = [
        ("demo_mission", app(&installs.demo, &demo_mission)),
        ("objects_900", app(&installs.demo, &large)),
        (
            "demo_mission_every_system",
            engine_app(&installs.demo, &demo_mission),
        ),
        // The reference: the same on Bevy's multi-threaded executor.
        ("demo_mission_every_system_multi_threaded", {
            let mut app = engine_app(&installs.demo, &demo_mission);
            for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
                schedule.set_executor(bevy::ecs::schedule::MultiThreadedExecutor::new());
            }
            app
        }),
    ];
    for (name, mut app) in runs {
        load(&mut app);
        let start = std::time::Instant::now();
        run(&mut app);
        let wall = start.elapsed().as_secs_f64();
        let game = f64::from(RUN_TICKS) / RATE_HZ;
        println!(
            "headless run {name}: {RUN_TICKS} ticks ({game:.1} s of game time) in {:.1} ms \
             = {:.0}x real time",
            wall * 1e3,
            game / wall.max(1e-9)
        );
        group.bench_function(format!("{name}_{RUN_TICKS}_ticks"), |b| {
            b.iter(|| run(&mut app))
        });
    }
    group.finish();

    // The replay verifier on the kept fight: the mission loaded, its
    // ticks played back with the recorded input, every checkpoint checked.
    let fight = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays/fight.ron");
    let fight = Replay::load(&fight).unwrap();
    let mut group = c.benchmark_group("replay_verify");
    group.sample_size(10);
    let start = std::time::Instant::now();
    let checked = verify(&installs.demo, &fight);
    let wall = start.elapsed().as_secs_f64();
    let game = fight.end_tick as f64 / fight.rate;
    println!(
        "replay verify fight: {} ticks ({game:.1} s of game time, {checked} checkpoints) \
         in {:.1} ms = {:.0}x real time",
        fight.end_tick,
        wall * 1e3,
        game / wall.max(1e-9)
    );
    group.bench_function(format!("fight_{}_ticks", fight.end_tick), |b| {
        b.iter(|| verify(&installs.demo, &fight))
    });
    group.finish();
}

/// The game as `iron3d play --headless` runs it (every simulation plugin)
/// asked to load `mission` of the install at `dir`.
fn engine_app(dir: &Path, mission: &str) -> App {
    let request = MissionRequest {
        game_dir: dir.to_path_buf(),
        mission: Some(mission.into()),
        mod_dirs: Vec::new(),
    };
    iron3d::app::headless(
        SimulationRate(RATE_HZ),
        MissionPlugin {
            request: Some(request),
            seed: 1,
        },
        (),
    )
}

/// `iron3d replay FILE --headless --verify` on the install at `dir`: the
/// checkpoints it checked (all, or it panics with the divergence).
fn verify(dir: &Path, replay: &Replay) -> usize {
    let request = MissionRequest {
        game_dir: dir.to_path_buf(),
        mission: Some(replay.mission.clone()),
        mod_dirs: Vec::new(),
    };
    let mission = MissionPlugin {
        request: Some(request),
        seed: replay.seed,
    };
    let playback = PlaybackPlugin::replay(replay.clone());
    let mut app = iron3d::app::headless(SimulationRate(replay.rate), mission, playback);
    load(&mut app);
    iron3d::app::run_headless(&mut app, replay.end_tick, None, |_, _| {});
    let playback = app.world().resource::<Playback>();
    assert_eq!(playback.divergence, None);
    assert_eq!(playback.checked, replay.checkpoints.len());
    playback.checked
}

/// Prints how far the 200-unit battle has gone: rounds in flight, effect
/// instances, shots and destroyed objects so far, units left.
fn print_battle(when: &str, app: &App) {
    let world = app.world();
    let events = &world.resource::<iron3d_combat::CombatEvents>().0;
    let count = |kind| events.iter().filter(|e| e.kind == kind).count();
    println!(
        "combat_tick units_200_battle {when}: tick {}, {} rounds in flight, {} effect \
         instances, {} shots and {} destroyed so far, {} objects registered",
        world.resource::<iron3d_schedules::GameClock>().tick(),
        world.resource::<iron3d_combat::Rounds>().0.len(),
        world.resource::<iron3d_fx::FxInstances>().0.len(),
        count(iron3d_combat::EventKind::Shot),
        count(iron3d_combat::EventKind::Destroyed),
        world
            .resource::<iron3d_world::ObjectRegistry>()
            .iter()
            .count(),
    );
}

/// One headless run: [`RUN_TICKS`] fixed steps.
fn run(app: &mut App) {
    for _ in 0..RUN_TICKS {
        app.update();
    }
}

criterion_group!(mission, benches, bench_crossing);
criterion_main!(mission);
