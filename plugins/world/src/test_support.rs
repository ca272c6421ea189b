//! Helpers for the subsystems' tests (the `test-support` feature, which
//! only dev-dependencies turn on): the test arena (only the objects a test
//! names, on flat ground) or the demo install in a temporary directory,
//! a mission running headless with a test's plugins, game time run on,
//! and a world pruned to the objects a test watches.

use crate::mission::{MissionRequest, headless_app, update_until_loaded};
use crate::{OriginalObjectId, WorldOps};
use bevy::prelude::*;
use iron3d_demo::{self as demo, Scale};
pub use iron3d_demo::{ARENA_MISSION, Arena, Piece, ROBOT_DESIGNS, Side, What};
use iron3d_schedules::GameClock;

/// A temporary directory holding the demo install (default seed, demo
/// scale) in its `game` folder; the install goes with the directory.
pub fn demo_install() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    demo::build(&tmp.path().join("game"), demo::DEFAULT_SEED, Scale::Demo)
        .expect("the demo install builds");
    tmp
}

/// The test arena holding `arena`'s pieces and nothing else, running
/// headless with `plugins` (as [`running_mission_test_app`]), and the
/// pieces' original ids in order. The directory holds the install.
pub fn running_arena<M>(
    arena: &Arena,
    plugins: impl bevy::app::Plugins<M>,
) -> (tempfile::TempDir, App, Vec<OriginalObjectId>) {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let game = tmp.path().join("game");
    let ids = demo::build_arena(&game, arena).expect("the arena builds");
    let request = MissionRequest {
        game_dir: game,
        mission: Some(ARENA_MISSION.into()),
        mod_dirs: Vec::new(),
    };
    let app = running_mission_test_app(request, plugins);
    (tmp, app, ids.into_iter().map(OriginalObjectId).collect())
}

/// Updates `app` until `secs` whole seconds of game time have passed.
pub fn run_for_seconds(app: &mut App, secs: u64) {
    while app.world().resource::<GameClock>().elapsed().as_secs() < secs {
        app.update();
    }
}

/// The first mission of the install at `game_dir` running headless, with
/// seed 1 and `plugins` beside the engine's, every simulation ambiguity
/// denied, on one thread (as `iron3d play --headless`): the app the
/// subsystems' tests drive. Panics when the mission does not load.
pub fn running_test_app<M>(
    game_dir: std::path::PathBuf,
    plugins: impl bevy::app::Plugins<M>,
) -> App {
    running_mission_test_app(MissionRequest::first_of(game_dir), plugins)
}

/// [`running_test_app`] for the mission `request` names.
pub fn running_mission_test_app<M>(
    request: MissionRequest,
    plugins: impl bevy::app::Plugins<M>,
) -> App {
    let mut app = headless_app(Some(request), 1);
    app.add_plugins(plugins);
    iron3d_schedules::deny_simulation_ambiguities(&mut app);
    app.finish();
    app.cleanup();
    iron3d_schedules::run_on_one_thread(&mut app);
    let progress = update_until_loaded(&mut app).expect("the mission loads");
    assert_eq!(progress.registered, progress.objects_total);
    app
}

/// Deletes every object but `keep` through the World3D queue (outside the
/// calculation: at once): tests keep only the objects they watch.
pub fn delete_all_but(app: &mut App, keep: &[OriginalObjectId]) {
    use bevy::ecs::system::RunSystemOnce;
    let keep = keep.to_vec();
    app.world_mut()
        .run_system_once(move |mut ops: WorldOps| {
            let all: Vec<_> = ops.registry().iter().map(|(id, _)| id).collect();
            for id in all.into_iter().filter(|id| !keep.contains(id)) {
                ops.delete(id).expect("a registered object can be deleted");
            }
        })
        .expect("the delete system runs");
}

/// [`running_arena`] with the controller file of the `piece`th piece
/// replaced by `controller` (a file no writer of ours produces, where the
/// piece's prototype already points).
pub fn running_arena_with_controller<M>(
    arena: &Arena,
    piece: usize,
    controller: Vec<u8>,
    plugins: impl bevy::app::Plugins<M>,
) -> (tempfile::TempDir, App, Vec<OriginalObjectId>) {
    let (tmp, app, ids) = running_arena(arena, ());
    let entity = app
        .world()
        .resource::<crate::ObjectRegistry>()
        .entity(ids[piece]);
    let resource = entity
        .ok()
        .and_then(|e| app.world().get::<crate::mission::Controller>(e))
        .expect("the piece has a controller")
        .resource
        .clone();
    drop(app);
    let game = tmp.path().join("game");
    replace_entry(&game, &resource, controller);
    let request = MissionRequest {
        game_dir: game,
        mission: Some(ARENA_MISSION.into()),
        mod_dirs: Vec::new(),
    };
    let app = running_mission_test_app(request, plugins);
    (tmp, app, ids)
}

/// Replaces the payload of the entry `resource` (`ARCHIVE::entry`, as a
/// [`Controller`](crate::mission::Controller) names it) in the install at
/// `game_dir` with `bytes`.
pub fn replace_entry(game_dir: &std::path::Path, resource: &str, bytes: Vec<u8>) {
    use iron3d_formats::archive::nres::{Nres, NresEditor};
    use iron3d_formats::gamedir::GameDir;
    let (archive, entry) = resource
        .split_once("::")
        .expect("a resource names its archive and entry");
    let game = GameDir::open(game_dir).expect("an install");
    let path = game
        .resolve(archive.as_bytes())
        .expect("the archive exists");
    let data = std::fs::read(&path).expect("the archive reads");
    let nres =
        Nres::parse(&data, iron3d_formats::archive::Mode::Compatible).expect("an NRes archive");
    let index = nres.find(entry.as_bytes()).expect("the entry exists");
    let mut editor = NresEditor::new(&nres);
    editor.set_payload(index, bytes);
    let rebuilt = editor.to_bytes().expect("the archive rebuilds");
    iron3d_formats::fsutil::write_atomic(&path, &rebuilt).expect("the archive is written");
}
