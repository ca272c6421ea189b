//! The scene built for the demo install's first mission, without a window:
//! terrain, textured batch meshes under model nodes, the placed camera.

use bevy::mesh::Indices;
use bevy::prelude::*;
use iron3d_formats::demo::{self, Scale};
use iron3d_render::IronRenderPlugin;
use iron3d_render::camera::MissionCamera;
use iron3d_render::scene::{DrawnBatch, SceneBuilt, Terrain};
use iron3d_schedules::SpinePlugin;
use iron3d_world::WorldPlugin;
use iron3d_world::mission::{MissionObject, MissionPlugin, MissionRequest, ModelNode};

/// Frames allowed for loading and building the scene.
const MAX_FRAMES: usize = 64;

/// A windowless app over the demo install in `dir`, updated until its
/// scene is built.
fn built_app(dir: &std::path::Path) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default()))
        .init_asset::<Mesh>()
        .init_asset::<Image>()
        .init_asset::<StandardMaterial>()
        .add_plugins((
            SpinePlugin::default(),
            WorldPlugin,
            MissionPlugin {
                request: Some(MissionRequest {
                    game_dir: dir.to_path_buf(),
                    mission: None,
                }),
                seed: 0,
            },
            IronRenderPlugin {
                game_dir: Some(dir.to_path_buf()),
                camera: None,
                screenshot: None,
            },
        ));
    for _ in 0..MAX_FRAMES {
        if app.world().contains_resource::<SceneBuilt>() {
            break;
        }
        app.update();
    }
    app
}

#[test]
fn demo_mission_scene_has_terrain_textured_models_and_a_placed_camera() {
    let dir = tempfile::tempdir().unwrap();
    demo::build(dir.path(), demo::DEFAULT_SEED, Scale::Demo).unwrap();
    let mut app = built_app(dir.path());
    let world = app.world_mut();
    let built = *world.resource::<SceneBuilt>();
    assert!(built.batches > 0, "{built:?}");

    let terrain: Vec<Handle<Mesh>> = world
        .query_filtered::<&Mesh3d, With<Terrain>>()
        .iter(world)
        .map(|m| m.0.clone())
        .collect();
    assert_eq!(terrain.len(), 1, "one terrain");
    let meshes = world.resource::<Assets<Mesh>>();
    let faces = match meshes.get(&terrain[0]).and_then(|m| m.indices()) {
        Some(Indices::U32(i)) => i.len() / 3,
        other => panic!("terrain indices: {other:?}"),
    };
    assert_eq!(faces, 8192, "every LOD-0 face of the demo map");

    // Every drawn batch hangs under a model node; the count matches.
    let batches: Vec<(Entity, Handle<StandardMaterial>)> = world
        .query_filtered::<(&ChildOf, &MeshMaterial3d<StandardMaterial>), With<DrawnBatch>>()
        .iter(world)
        .map(|(parent, m)| (parent.parent(), m.0.clone()))
        .collect();
    assert_eq!(batches.len(), built.batches);
    assert!(
        batches
            .iter()
            .all(|(parent, _)| world.get::<ModelNode>(*parent).is_some())
    );
    // Their materials carry decoded Texm textures.
    let materials = world.resource::<Assets<StandardMaterial>>();
    let images = world.resource::<Assets<Image>>();
    let textured = batches
        .iter()
        .filter_map(|(_, m)| materials.get(m)?.base_color_texture.clone())
        .filter(|t| images.get(t).is_some_and(|i| i.width() > 0))
        .count();
    assert!(textured > 0, "some batches are textured");

    // Object roots got a visibility, so the batches below them are drawn.
    let roots_visible = world
        .query_filtered::<Option<&Visibility>, With<MissionObject>>()
        .iter(world)
        .all(|v| v == Some(&Visibility::Inherited));
    assert!(roots_visible);

    // The camera is above the ground, looking down.
    let camera = world
        .query_filtered::<&Transform, With<MissionCamera>>()
        .single(world)
        .unwrap();
    assert!(camera.translation.y > 50.0, "{camera:?}");
    assert!(camera.forward().y < -0.5, "{camera:?}");
}
