//! The Iron3D panel over the demo install's first mission, headless: the
//! model lists every registered object, an egui pass of the panel draws
//! every id, the selected object's properties, chain and part tree are
//! shown, the filter narrows the list, the clock controls pause and step
//! the game clock, and a hit on a model node selects its object.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_egui::egui;
use iron3d_formats::demo::{self, Scale};
use iron3d_input::SelectedObject;
use iron3d_inspector::model::{id_text, owning_object};
use iron3d_inspector::panel::{
    ClockCommand, PanelAction, PanelModel, SelectionReport, apply_actions, draw_panel, panel_model,
};
use iron3d_inspector::{instance_names, name_objects, selection_report};
use iron3d_schedules::{GameClock, SpinePlugin};
use iron3d_world::mission::{
    LoadProgress, MissionPhase, MissionPlugin, MissionRequest, ModelNode, PropertyBag,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldPlugin};
use std::path::Path;

/// The demo install in a temporary directory and an app that runs its
/// first mission.
fn demo_app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let app = loaded(dir.path());
    (dir, app)
}

/// A headless app with the demo mission loaded and its objects named.
fn loaded(dir: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SpinePlugin::default(),
        WorldPlugin,
        MissionPlugin {
            request: Some(MissionRequest {
                game_dir: dir.to_path_buf(),
                mission: None,
            }),
            seed: 0,
        },
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .init_resource::<SelectedObject>();
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
    let mission = app.world().resource::<LoadProgress>().mission.clone();
    let names = instance_names(dir, &mission).unwrap();
    name_objects(app.world_mut(), &names);
    app
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
    let (dir, mut app) = demo_app();
    let world = app.world_mut();
    let ids: Vec<OriginalObjectId> = world
        .resource::<ObjectRegistry>()
        .iter()
        .map(|(id, _)| id)
        .collect();
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
    let game_dir = dir.path();
    let (selected, report) = ids
        .iter()
        .map(|&id| (id, selection_report(world, Some(id), Some(game_dir))))
        .find(|(_, r)| {
            r.chains.as_ref().is_ok_and(|c| {
                c.iter()
                    .any(|p| p.materials.iter().any(|m| !m.textures.is_empty()))
            })
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
    let chains = report.chains.as_ref().unwrap();
    assert_eq!(chains.len(), details.parts.len(), "one chain per part");
    assert!(chains.iter().all(|c| c.failures.is_empty()), "{chains:?}");
    assert!(chains.iter().any(|c| c.mesh.is_some() && c.wear.is_some()));

    let texts = painted_text(&model, &report, &mut String::new());
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
