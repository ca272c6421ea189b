//! The Iron3D panel over the demo install's first mission, headless: the
//! model lists every registered object, an egui pass of the panel draws
//! every id, the selected object's properties, chain and part tree are
//! shown, the filter narrows the list, the clock controls pause and step
//! the game clock, and a hit on a model node selects its object.
//!
//! With the input and inspector plugins added (no window, no renderer): the
//! simulation schedule gains no system and stays free of ambiguities, F3
//! toggles the inspector, and a picked click on a drawn batch selects its
//! object unless the pointer is over an egui window, also when the click
//! comes from mouse input through bevy_picking's pipeline.

use bevy::app::PluginsState;
use bevy::camera::NormalizedRenderTarget;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::input::InputPlugin;
use bevy::picking::PickingSystems;
use bevy::picking::backend::{HitData, PointerHits};
use bevy::picking::events::{Click, Pointer};
use bevy::picking::pointer::{
    Location, PointerAction, PointerButton, PointerId, PointerInput, PointerLocation,
};
use bevy::prelude::*;
use bevy::shader::Shader;
use bevy::time::TimeUpdateStrategy;
use bevy::window::ExitCondition;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContext, EguiContextSettings, egui};
use iron3d_behavior::{OrderKind, OrderTarget};
use iron3d_control::ControlPlugin;
use iron3d_demo::{self as demo, Scale};
use iron3d_input::{CameraAction, IronInputPlugin, SelectedObject};
use iron3d_inspector::model::{id_text, owning_object};
use iron3d_inspector::panel::{
    ClockCommand, PanelAction, PanelModel, SelectionReport, apply_actions, draw_panel, panel_model,
};
use iron3d_inspector::{InspectorPlugin, InspectorState, selection_report};
use iron3d_render::camera::MissionCamera;
use iron3d_schedules::{GameClock, Phase, SpinePlugin, deny_simulation_ambiguities};
use iron3d_world::mission::{
    LoadProgress, MissionPhase, MissionPlugin, MissionRequest, ModelNode, NodeStage, PartNodes,
    PropertyBag,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldPlugin};
use leafwing_input_manager::prelude::*;
use std::path::Path;
use std::time::Duration;

/// The demo install in a temporary directory and an app that runs its
/// first mission.
fn demo_app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let app = loaded(dir.path());
    (dir, app)
}

/// A headless app with the demo mission loaded.
fn loaded(dir: &Path) -> App {
    let mut app = mission_app(dir);
    app.init_resource::<SelectedObject>();
    run_to_running(&mut app);
    app
}

/// A headless app that will load the install's first mission.
fn mission_app(dir: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SpinePlugin::default(),
        WorldPlugin,
        MissionPlugin {
            request: Some(MissionRequest {
                game_dir: dir.to_path_buf(),
                mission: None,
                mod_dirs: Vec::new(),
            }),
            seed: 0,
        },
        ControlPlugin,
        iron3d_behavior::BehaviorPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// Updates until the mission runs.
fn run_to_running(app: &mut App) {
    if app.plugins_state() == PluginsState::Ready {
        app.finish();
        app.cleanup();
    }
    for _ in 0..64 {
        if *app.world().resource::<State<MissionPhase>>().get() == MissionPhase::Running {
            break;
        }
        app.update();
    }
    assert_eq!(
        *app.world().resource::<State<MissionPhase>>().get(),
        MissionPhase::Running
    );
}

/// The registered objects' ids, in id order.
fn registered(world: &World) -> Vec<OriginalObjectId> {
    world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(id, _)| id)
        .collect()
}

/// Every text an egui pass of the panel painted.
fn painted_text(model: &PanelModel, report: &SelectionReport, filter: &mut String) -> Vec<String> {
    let ctx = egui::Context::default();
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(2000.0, 100_000.0),
        )),
        ..Default::default()
    };
    let output = ctx.run_ui(input, |ui| {
        draw_panel(ui, model, report, filter, f32::INFINITY);
    });
    let mut texts = Vec::new();
    for clipped in output.shapes {
        collect_text(&clipped.shape, &mut texts);
    }
    texts
}

fn collect_text(shape: &egui::Shape, out: &mut Vec<String>) {
    match shape {
        egui::Shape::Text(text) => out.push(text.galley.text().to_owned()),
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect_text(s, out)),
        _ => {}
    }
}

fn shown(texts: &[String], needle: &str) -> bool {
    texts.iter().any(|t| t.contains(needle))
}

#[test]
fn the_panel_lists_every_registered_object_and_details_the_selection() {
    let (_dir, mut app) = demo_app();
    // One tick: Control gives every object its body.
    app.update();
    let world = app.world_mut();
    let ids = registered(world);
    assert!(!ids.is_empty());
    assert_eq!(
        ids.len(),
        world.resource::<LoadProgress>().objects_total,
        "every placed object is registered"
    );

    // The model: every registered object, in id order, named and typed.
    let model = panel_model(world);
    let listed: Vec<OriginalObjectId> = model.rows.iter().map(|r| r.id).collect();
    assert_eq!(listed, ids);
    assert!(model.rows.iter().all(|r| !r.name.is_empty()));
    assert!(model.rows.iter().any(|r| r.kind == "building"));
    assert!(model.rows.iter().any(|r| r.kind == "unit"));

    // The drawn panel: every id appears.
    let texts = painted_text(&model, &SelectionReport::default(), &mut String::new());
    for id in &ids {
        assert!(shown(&texts, &id_text(*id)), "{} not drawn", id_text(*id));
    }

    // The filter narrows the list to matching rows.
    let mut filter = "building".to_owned();
    let texts = painted_text(&model, &SelectionReport::default(), &mut filter);
    for row in &model.rows {
        assert_eq!(
            shown(&texts, &row.id_text()),
            row.kind == "building",
            "{row:?}"
        );
    }

    // Select the first object with a textured chain: properties in file
    // order, the chain down to MAT0 and Texm, the part tree.
    let (selected, report) = ids
        .iter()
        .map(|&id| (id, selection_report(world, Some(id))))
        .find(|(_, r)| {
            r.chains
                .iter()
                .any(|p| p.chain.materials.iter().any(|m| !m.textures.is_empty()))
        })
        .expect("an object with a MAT0 -> Texm chain");
    apply_actions(world, &[PanelAction::Select(Some(selected))]);
    assert_eq!(world.resource::<SelectedObject>().0, Some(selected));
    let model = panel_model(world);
    let details = model.details.as_ref().expect("details of the selection");
    let entity = world.resource::<ObjectRegistry>().entity(selected).unwrap();
    let bag = world.get::<PropertyBag>(entity).unwrap();
    let names: Vec<String> = details.properties.iter().map(|p| p.name.clone()).collect();
    let in_file: Vec<String> = bag
        .0
        .iter()
        .map(|p| String::from_utf8_lossy(&p.name).into_owned())
        .collect();
    assert_eq!(names, in_file);
    assert!(!details.parts.is_empty());
    let chains: Vec<_> = report.chains.iter().map(|c| &c.chain).collect();
    assert_eq!(chains.len(), details.parts.len(), "one chain per part");
    assert!(chains.iter().all(|c| c.failures.is_empty()), "{chains:?}");
    assert!(chains.iter().any(|c| c.mesh.is_some() && c.wear.is_some()));

    let texts = painted_text(&model, &report, &mut String::new());
    let controller = match &details.controller {
        Some(c) => format!("controller {c}"),
        None => "static body (no controller)".into(),
    };
    assert!(shown(&texts, &controller), "{controller}");
    // A unit's controller: where it is and its figures.
    let unit = model
        .rows
        .iter()
        .find(|r| r.kind == "unit")
        .expect("a unit")
        .id;
    apply_actions(world, &[PanelAction::Select(Some(unit))]);
    let unit_model = panel_model(world);
    let text = unit_model.details.as_ref().unwrap().controller.clone();
    let text = text.expect("the unit's controller");
    assert!(
        text.contains(".ctl (part #") && text.contains("top speed 8 m/s"),
        "{text}"
    );
    // Its shield: six full sectors (no combat in this app), standing.
    let shield = unit_model.details.as_ref().unwrap().shield.clone();
    let shield = shield.expect("the demo unit's shield");
    assert!(
        shield.starts_with("shield front ")
            && shield.contains(", bottom ")
            && !shield.ends_with("(down)"),
        "{shield}"
    );
    // And how it moves: standing, its body.
    let motion = panel_model(world).details.unwrap().motion;
    let motion = motion.expect("the unit's motion");
    assert!(
        motion.starts_with("velocity [0.00, 0.00, 0.00] m/s, on the ground")
            && motion.contains("body radius")
            && motion.contains(" engine(s), spare payload ")
            && motion.contains(", state 0 of 9 (frames 2→2, step 250 ms)")
            && motion.contains(", no order, areal ")
            && motion.contains(", path revision 0, ")
            && motion.ends_with(" friendly in sight"),
        "{motion}"
    );
    let texts_unit = painted_text(&panel_model(world), &report, &mut String::new());
    assert!(shown(&texts_unit, &motion), "{motion} not drawn");
    apply_actions(world, &[PanelAction::Select(Some(selected))]);
    for p in &details.properties {
        assert!(shown(&texts, &p.name), "property {} not drawn", p.name);
    }
    let texture = chains
        .iter()
        .flat_map(|c| &c.materials)
        .flat_map(|m| &m.textures)
        .map(|(_, t)| t.clone())
        .next()
        .unwrap();
    assert!(texture.starts_with("Textures.lib::"), "{texture}");
    assert!(shown(&texts, &texture), "{texture} not drawn");
    assert!(shown(&texts, "MAT0 Material.lib::"));
    assert!(shown(
        &texts,
        &format!("#{} {}", details.parts[0].index, details.parts[0].key)
    ));
}

/// A node drawn in a damage stage says so in the selection's part tree.
#[test]
fn the_part_tree_names_a_nodes_damage_stage() {
    let (_dir, mut app) = demo_app();
    let world = app.world_mut();
    let id = registered(world)[0];
    let entity = world.resource::<ObjectRegistry>().entity(id).unwrap();
    let part = world.get::<Children>(entity).unwrap()[0];
    let node = world.get::<PartNodes>(part).unwrap().0[0];
    world.entity_mut(node).insert(NodeStage(2));
    world.insert_resource(SelectedObject(Some(id)));
    let details = panel_model(world).details.unwrap();
    let nodes = &details.parts[0].nodes;
    assert!(nodes[0].1.ends_with(" (damage stage 2)"), "{nodes:?}");
    assert!(nodes[1..].iter().all(|(_, n)| !n.contains("damage stage")));
}

/// The windowed game traces always: the selected object's recent trace
/// lines are its timeline in the panel, newest first.
#[test]
fn the_selection_shows_its_recent_trace_as_a_timeline() {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut app = mission_app(dir.path());
    app.add_plugins(iron3d_replay::TracePlugin { path: None })
        .init_resource::<SelectedObject>();
    run_to_running(&mut app);
    for _ in 0..30 {
        app.update();
    }
    let world = app.world_mut();
    // The walker dropped from the air has fallen: control lines.
    let ids = registered(world);
    let trace = world.resource::<iron3d_replay::Trace>();
    let moved = *ids
        .iter()
        .find(|id| trace.recent(id.raw()).any(|e| e.channel == "control"))
        .expect("an object that moved");
    apply_actions(world, &[PanelAction::Select(Some(moved))]);
    let model = panel_model(world);
    let details = model.details.as_ref().unwrap();
    assert!(!details.trace.is_empty());
    assert!(details.trace.len() <= iron3d_replay::trace::RECENT);
    let ticks: Vec<u64> = details
        .trace
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        ticks.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {ticks:?}"
    );
    let raw = moved.raw().to_string();
    assert!(
        details.trace.iter().all(|l| l.contains(&raw)),
        "{details:?}"
    );
    let texts = painted_text(&model, &SelectionReport::default(), &mut String::new());
    let header = format!("Trace ({})", details.trace.len());
    assert!(shown(&texts, &header), "{header}");
}

#[test]
fn clock_controls_pause_step_and_resume_the_game_clock() {
    let (_dir, mut app) = demo_app();
    let tick = |app: &App| app.world().resource::<GameClock>().tick();

    apply_actions(app.world_mut(), &[PanelAction::Clock(ClockCommand::Pause)]);
    assert!(app.world().resource::<GameClock>().is_paused());
    let paused_at = tick(&app);
    (0..5).for_each(|_| app.update());
    assert_eq!(tick(&app), paused_at, "no tick while paused");
    assert!(panel_model(app.world()).clock.paused);

    apply_actions(app.world_mut(), &[PanelAction::Clock(ClockCommand::Step)]);
    (0..5).for_each(|_| app.update());
    assert_eq!(tick(&app), paused_at + 1, "one step, one tick");

    apply_actions(app.world_mut(), &[PanelAction::Clock(ClockCommand::Resume)]);
    (0..5).for_each(|_| app.update());
    assert!(tick(&app) > paused_at + 1, "running again");
    assert!(!panel_model(app.world()).clock.paused);
}

#[test]
fn a_hit_on_a_model_node_belongs_to_its_object() {
    let (_dir, mut app) = demo_app();
    let world = app.world_mut();
    let nodes: Vec<Entity> = world
        .query_filtered::<Entity, With<ModelNode>>()
        .iter(world)
        .collect();
    assert!(!nodes.is_empty());
    let registry = world.resource::<ObjectRegistry>();
    for node in nodes {
        let id = owning_object(
            node,
            |e| world.get::<OriginalObjectId>(e).copied(),
            |e| world.get::<ChildOf>(e).map(ChildOf::parent),
        )
        .expect("every node hangs under an object");
        let root = registry.entity(id).unwrap();
        let mut at = node;
        while let Some(parent) = world.get::<ChildOf>(at) {
            at = parent.parent();
        }
        assert_eq!(at, root);
    }
    let loose = world.spawn_empty().id();
    assert_eq!(
        owning_object(
            loose,
            |e| world.get::<OriginalObjectId>(e).copied(),
            |e| world.get::<ChildOf>(e).map(ChildOf::parent),
        ),
        None
    );
}

/// The demo mission's app with the input and inspector plugins, the
/// simulation schedule denying ambiguities (not yet updated).
fn inspector_app(dir: &Path) -> App {
    let mut app = mission_app(dir);
    // What `DefaultPlugins` would give bevy_egui and picking, without a
    // window or renderer: window messages, pointer picking, the asset
    // server and the asset types they touch.
    app.add_plugins((
        WindowPlugin {
            primary_window: None,
            exit_condition: ExitCondition::DontExit,
            ..default()
        },
        DefaultPickingPlugins,
        AssetPlugin::default(),
    ))
    .init_asset::<Shader>()
    .init_asset::<Image>()
    .init_asset::<Mesh>();
    app.add_plugins((
        InputPlugin,
        IronInputPlugin,
        InspectorPlugin { open: false },
    ));
    deny_simulation_ambiguities(&mut app);
    app
}

/// The demo install and the inspector app running its first mission.
fn running_inspector() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut app = inspector_app(dir.path());
    run_to_running(&mut app);
    (dir, app)
}

fn fixed_systems(app: &mut App) -> usize {
    app.get_schedule_mut(FixedUpdate).unwrap().systems_len()
}

#[test]
fn input_and_inspector_stay_out_of_the_simulation_schedule() {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut bare = mission_app(dir.path());
    let mut app = inspector_app(dir.path());
    assert_eq!(
        fixed_systems(&mut app),
        fixed_systems(&mut bare),
        "no input or inspector system in FixedUpdate"
    );
    // The simulation schedule builds with ambiguities denied (a conflict
    // would panic here) and ticks while the mission loads and runs.
    run_to_running(&mut app);
    let tick = app.world().resource::<GameClock>().tick();
    (0..3).for_each(|_| app.update());
    assert!(app.world().resource::<GameClock>().tick() > tick);

    // Where the frame phases put the input and the inspector.
    let snapshot = systems_in(&app, PreUpdate, Phase::BuildInputSnapshot);
    for system in [
        "update_action_state<CameraAction>",
        "toggle_on_f3",
        "select_on_click",
        "gate_camera_input",
    ] {
        assert!(
            snapshot.contains(&system.to_owned()),
            "{system}: {snapshot:?}"
        );
    }
    let presentation = systems_in(&app, PostUpdate, Phase::PublishRenderSnapshot);
    assert!(
        presentation.contains(&"drive_camera".to_owned()),
        "{presentation:?}"
    );
    let ui = systems_in(&app, PostUpdate, Phase::RenderUi);
    for system in ["refresh_report", "run_egui_context_pass_loop_system"] {
        assert!(ui.contains(&system.to_owned()), "{system}: {ui:?}");
    }
}

/// The (short) names of the systems of a built schedule in a phase.
fn systems_in(app: &App, label: impl ScheduleLabel, phase: Phase) -> Vec<String> {
    let schedule = app.get_schedule(label).unwrap();
    let in_phase = schedule.graph().systems_in_set(phase.intern()).unwrap();
    schedule
        .systems()
        .unwrap()
        .filter(|(key, _)| in_phase.contains(key))
        .map(|(_, system)| system.name().shortname().to_string())
        .collect()
}

#[test]
fn f3_toggles_the_inspector_once_per_press() {
    let (_dir, mut app) = running_inspector();
    let open = |app: &App| app.world().resource::<InspectorState>().open;
    assert!(!open(&app));

    KeyCode::F3.press(app.world_mut());
    app.update();
    assert!(open(&app), "the press opens it");
    app.update();
    assert!(open(&app), "holding F3 does not toggle again");

    // Open, the selection's report is read in the RenderUi phase.
    let id = app
        .world()
        .resource::<ObjectRegistry>()
        .iter()
        .next()
        .unwrap()
        .0;
    app.insert_resource(SelectedObject(Some(id)));
    app.update();
    assert_eq!(app.world().resource::<SelectionReport>().id, Some(id));

    KeyCode::F3.release(app.world_mut());
    app.update();
    assert!(open(&app));
    KeyCode::F3.press(app.world_mut());
    app.update();
    assert!(!open(&app), "the next press closes it");
}

/// A click of `button` on `entity`, as bevy_picking's `pointer_events`
/// dispatches it: the same `Pointer<Click>` is triggered (bubbling up the
/// `ChildOf` chain to observers) and written as a message, which the
/// inspector reads in `Phase::BuildInputSnapshot`.
fn click(app: &mut App, entity: Entity, button: PointerButton) {
    click_at(app, entity, button, None);
}

/// A click on `entity` that hit world point `position`.
fn click_at(app: &mut App, entity: Entity, button: PointerButton, position: Option<Vec3>) {
    let location = view_centre();
    let hit = HitData::new(Entity::PLACEHOLDER, 10.0, position, None);
    let event = Pointer::new(
        PointerId::Mouse,
        location,
        Click {
            button,
            hit,
            duration: Duration::from_millis(80),
            count: 1,
        },
        entity,
    );
    app.world_mut().trigger(event.clone());
    app.world_mut().write_message(event);
    app.update();
}

/// The centre of a headless view: a render target of no window, which no
/// backend of the app (mesh, window or egui picking) hits.
fn view_centre() -> Location {
    Location {
        target: NormalizedRenderTarget::None {
            width: 1280,
            height: 720,
        },
        position: Vec2::new(640.0, 360.0),
    }
}

/// The first model node and the id of the object whose tree holds it
/// (found from the tree's root, not by the inspector's walk).
fn a_node_and_its_object(world: &mut World) -> (Entity, OriginalObjectId) {
    let node = world
        .query_filtered::<Entity, With<ModelNode>>()
        .iter(world)
        .next()
        .expect("a model node");
    let mut root = node;
    while let Some(parent) = world.get::<ChildOf>(root) {
        root = parent.parent();
    }
    let (id, _) = world
        .resource::<ObjectRegistry>()
        .iter()
        .find(|&(_, e)| e == root)
        .expect("the root is a registered object");
    (node, id)
}

/// An egui context (run by hand, outside bevy_egui's passes) whose pointer
/// rests over a window, so that bevy_egui reports the pointer over egui.
fn spawn_egui_window_under_pointer(world: &mut World) {
    let ctx = egui::Context::default();
    // Inside the window's title bar at the top left.
    let pointer = egui::pos2(20.0, 10.0);
    // The first pass only sizes a new window; it is there from the next.
    for _ in 0..2 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 720.0),
            )),
            events: vec![egui::Event::PointerMoved(pointer)],
            ..Default::default()
        };
        let _ = ctx.run_ui(input, |ui| {
            egui::Window::new("probe")
                .fixed_pos(egui::Pos2::ZERO)
                .show(ui.ctx(), |ui| ui.label("over the view"));
        });
    }
    let mut context = EguiContext::default();
    *context.get_mut() = ctx;
    world.spawn((
        context,
        EguiContextSettings {
            run_manually: true,
            ..default()
        },
    ));
}

#[test]
fn a_primary_click_on_a_drawn_batch_selects_its_object_unless_over_egui() {
    let (_dir, mut app) = running_inspector();
    let (node, id) = a_node_and_its_object(app.world_mut());
    // Stand-in for a drawn batch: the render plugin hangs them under nodes.
    let batch = app.world_mut().spawn(ChildOf(node)).id();
    let selected = |app: &App| app.world().resource::<SelectedObject>().0;
    assert_eq!(selected(&app), None);

    click(&mut app, batch, PointerButton::Secondary);
    assert_eq!(selected(&app), None, "only the primary button selects");
    click(&mut app, batch, PointerButton::Primary);
    assert_eq!(selected(&app), Some(id));

    // A click on something of no object (the terrain) clears the selection.
    let terrain = app.world_mut().spawn_empty().id();
    click(&mut app, terrain, PointerButton::Primary);
    assert_eq!(selected(&app), None);
    click(&mut app, batch, PointerButton::Primary);
    assert_eq!(selected(&app), Some(id));

    // A camera for the gate, the inspector open, the pointer over a window.
    let camera = app
        .world_mut()
        .spawn((
            MissionCamera,
            Transform::default(),
            GlobalTransform::default(),
        ))
        .id();
    app.world_mut().resource_mut::<InspectorState>().open = true;
    spawn_egui_window_under_pointer(app.world_mut());
    app.update();
    assert!(
        app.world()
            .resource::<EguiWantsInput>()
            .is_pointer_over_area(),
        "bevy_egui sees the pointer over the window"
    );
    click(&mut app, terrain, PointerButton::Primary);
    assert_eq!(selected(&app), Some(id), "the click was the window's");
    let actions = app
        .world()
        .get::<ActionState<CameraAction>>(camera)
        .unwrap();
    assert!(
        actions.disabled(),
        "the camera ignores input over the panel"
    );
}

/// The entity the fake picking backend sees under the mouse.
#[derive(Resource)]
struct UnderMouse(Entity);

/// A picking backend standing in for mesh picking: wherever the mouse
/// pointer is, it reports a hit on [`UnderMouse`]'s entity.
fn report_hit_under_mouse(
    under: Res<UnderMouse>,
    pointers: Query<(&PointerId, &PointerLocation)>,
    mut hits: MessageWriter<PointerHits>,
) {
    for (&pointer, location) in &pointers {
        if pointer == PointerId::Mouse && location.location().is_some() {
            let hit = HitData::new(Entity::PLACEHOLDER, 10.0, None, None);
            hits.write(PointerHits::new(pointer, vec![(under.0, hit)], 0.0));
        }
    }
}

/// Mouse input at the view's centre, as the pointer input plugin writes it
/// from window events, then one frame.
fn mouse(app: &mut App, actions: &[PointerAction]) {
    for &action in actions {
        let input = PointerInput::new(PointerId::Mouse, view_centre(), action);
        app.world_mut().write_message(input);
    }
    app.update();
}

#[test]
fn a_mouse_click_picked_through_bevy_picking_selects_the_batchs_object() {
    let (_dir, mut app) = running_inspector();
    let (node, id) = a_node_and_its_object(app.world_mut());
    let batch = app.world_mut().spawn(ChildOf(node)).id();
    app.insert_resource(UnderMouse(batch)).add_systems(
        PreUpdate,
        report_hit_under_mouse.in_set(PickingSystems::Backend),
    );
    let selected = |app: &App| app.world().resource::<SelectedObject>().0;

    // The pointer moves onto the view: the backend hits the batch from now.
    mouse(&mut app, &[PointerAction::Move { delta: Vec2::ZERO }]);
    // A right click (press, then release a frame later) selects nothing.
    mouse(&mut app, &[PointerAction::Press(PointerButton::Secondary)]);
    mouse(
        &mut app,
        &[PointerAction::Release(PointerButton::Secondary)],
    );
    assert_eq!(selected(&app), None, "only the primary button selects");

    // bevy_picking turns a press and a release on the hovered batch into
    // `Pointer<Click>`: the release selects the object above the batch.
    mouse(&mut app, &[PointerAction::Press(PointerButton::Primary)]);
    assert_eq!(selected(&app), None, "a press alone is no click");
    mouse(&mut app, &[PointerAction::Release(PointerButton::Primary)]);
    assert_eq!(selected(&app), Some(id));
}

/// With a unit selected, a right click on the ground sends it there, on a
/// hostile unit attacks it and on a unit of its own clan follows it; the
/// orders travel through the World3D queue.
#[test]
fn a_right_click_orders_the_selected_unit() {
    let (_dir, mut app) = running_inspector();
    let world = app.world();
    let registry = world.resource::<ObjectRegistry>();
    let unit_of = |clan: u32, skip: usize| {
        registry
            .iter()
            .filter(|&(_, e)| {
                world.get::<iron3d_behavior::Orders>(e).is_some()
                    && world
                        .get::<iron3d_world::mission::ObjectClan>(e)
                        .is_some_and(|c| c.identity_raw == clan)
            })
            .nth(skip)
            .unwrap()
    };
    let ((unit, _), (_, foe), (_, mate)) = (unit_of(1, 0), unit_of(2, 0), unit_of(1, 1));
    app.world_mut().resource_mut::<SelectedObject>().0 = Some(unit);
    let head = |app: &mut App| {
        for _ in 0..2 {
            app.update();
        }
        let e = app
            .world()
            .resource::<ObjectRegistry>()
            .entity(unit)
            .unwrap();
        let orders = app.world().get::<iron3d_behavior::Orders>(e).unwrap();
        orders.current().map(|o| (o.kind, o.target))
    };
    // A few metres from where it stands (the map's middle is a lake).
    let at = {
        let e = app
            .world()
            .resource::<ObjectRegistry>()
            .entity(unit)
            .unwrap();
        app.world().get::<Transform>(e).unwrap().translation + Vec3::new(6.0, 0.0, -4.0)
    };
    let ground = app.world_mut().spawn_empty().id();
    click_at(&mut app, ground, PointerButton::Secondary, Some(at));
    assert_eq!(
        head(&mut app),
        Some((OrderKind::Go, OrderTarget::Place([at.x, -at.z, at.y])))
    );
    let id_of = |app: &App, e: Entity| *app.world().get::<OriginalObjectId>(e).unwrap();
    click(&mut app, foe, PointerButton::Secondary);
    let foe_id = id_of(&app, foe);
    assert_eq!(
        head(&mut app),
        Some((OrderKind::Attack, OrderTarget::Object(foe_id.raw())))
    );
    click(&mut app, mate, PointerButton::Secondary);
    let mate_id = id_of(&app, mate);
    assert_eq!(
        head(&mut app),
        Some((OrderKind::Follow, OrderTarget::Object(mate_id.raw())))
    );
}

#[test]
fn the_selection_shows_its_playing_sounds_and_the_panel_mutes() {
    let (_dir, mut app) = demo_app();
    app.update();
    let world = app.world_mut();
    let id = world.resource::<ObjectRegistry>().iter().next().unwrap().0;
    world.insert_resource(iron3d_audio::AudioControl::default());
    world.insert_resource(iron3d_audio::PlayingSources(vec![
        iron3d_audio::PlayingSource {
            key: "SOUNDS.LIB::ENGINE.WAV".into(),
            owner: Some(id.raw()),
            bus: iron3d_sound::Bus::Effects,
            looped: true,
            position: Some(Vec3::ZERO),
            gain: 0.5,
            pan: -0.25,
            time: 1.5,
        },
    ]));
    world.insert_resource(SelectedObject(Some(id)));
    let model = panel_model(world);
    let sounds = &model.details.as_ref().unwrap().sounds;
    assert_eq!(
        sounds,
        &["SOUNDS.LIB::ENGINE.WAV (effects, loop) gain 0.50 pan -0.25 at 1.50 s"]
    );
    let texts = painted_text(&model, &SelectionReport::default(), &mut String::new());
    assert!(shown(&texts, "sound SOUNDS.LIB::ENGINE.WAV"));
    assert_eq!(model.clock.muted, Some(false));
    apply_actions(world, &[PanelAction::Mute(true)]);
    assert!(world.resource::<iron3d_audio::AudioControl>().muted);
}

/// With the scripts running: the panel's Mission section shows the
/// outcome, the objectives and the latest messages, and each SuperAI with
/// its clock, problems and variables by name.
#[test]
fn the_mission_section_shows_objectives_messages_and_each_superai() {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut app = mission_app(dir.path());
    app.add_plugins((iron3d_combat::CombatPlugin, iron3d_script::ScriptPlugin));
    app.init_resource::<SelectedObject>();
    run_to_running(&mut app);
    // Past the first takt (7 to 8 s) and the hint at 8 s.
    for _ in 0..9 * 30 {
        app.update();
    }
    let model = panel_model(app.world());
    let mission = &model.mission;
    assert_eq!(mission.outcome, "outcome: running");
    assert_eq!(
        mission.objectives[0],
        "0 primary open: Destroy the enemy tower"
    );
    assert_eq!(
        mission.objectives[3],
        "3 bonus open: Leave the enemy no robot"
    );
    assert!(
        mission
            .messages
            .iter()
            .any(|m| m.contains("MESSAGE_INFO 1: ")),
        "{:?}",
        mission.messages
    );
    let titles: Vec<&str> = mission.brains.iter().map(|b| b.title.as_str()).collect();
    assert!(
        titles[0].starts_with("Player: MISSIONS\\SCRIPTS\\scr_pl_1, clock 7 s"),
        "{titles:?}"
    );
    let enemy = &mission.brains[1];
    assert!(
        enemy
            .problems
            .iter()
            .any(|p| p.starts_with("PBM_ATTACK_UNIT")),
        "{enemy:?}"
    );
    assert!(
        enemy.variables.iter().any(|v| v == "ERROR = 0xffffffff"),
        "{enemy:?}"
    );
    // Drawn: the outcome, every objective, the SuperAIs' titles.
    let texts = painted_text(&model, &SelectionReport::default(), &mut String::new());
    let lines = mission.objectives.iter().map(String::as_str);
    for line in lines.chain([mission.outcome.as_str()]).chain(titles) {
        assert!(shown(&texts, line), "{line} not drawn");
    }
}

/// The panel's Economy section: per clan its totals and its buildings
/// with what they hold, wanted and received.
#[test]
fn the_economy_section_shows_each_clan_s_buildings() {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut app = mission_app(dir.path());
    app.add_plugins(iron3d_economy::EconomyPlugin);
    app.init_resource::<SelectedObject>();
    run_to_running(&mut app);
    // A factory of the mission builds the demo's design.
    let world = app.world_mut();
    let factory = world
        .query_filtered::<&OriginalObjectId, With<iron3d_economy::Production>>()
        .iter(world)
        .min()
        .copied()
        .expect("a factory");
    let order = iron3d_formats::order::OrderPacket {
        code: iron3d_formats::order::ORDER_BUILDING_CONSTRUCT,
        target: iron3d_formats::order::OrderTarget::name("Warbot").unwrap(),
        mode: iron3d_formats::order::InsertMode::End,
        parameter: -1,
    };
    world.resource_mut::<iron3d_world::WorldOutbox>().post(
        iron3d_world::GmsgKind::Order,
        Some(factory),
        order.to_bytes(),
    );
    for _ in 0..60 {
        app.update();
    }
    let model = panel_model(app.world());
    let line = format!("#{} builds Warbot (free): ", factory.raw());
    let builds: Vec<&String> = model.economy.iter().flat_map(|c| &c.builds).collect();
    assert!(
        builds
            .iter()
            .any(|b| b.starts_with(&line) && b.contains("power 100%, ore 100%, time ")),
        "{builds:?}"
    );
    let neutral = model
        .economy
        .iter()
        .find(|c| c.title.starts_with("Neutral: "))
        .expect("the neutral clan's economy");
    assert!(neutral.title.contains("power 10.0/s"), "{neutral:?}");
    assert!(
        neutral.buildings.iter().any(|b| b.contains(" mine: ore ")),
        "{neutral:?}"
    );
    assert!(
        neutral.buildings.iter().any(|b| b.contains(" generator: ")),
        "{neutral:?}"
    );
}
