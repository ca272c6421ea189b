//! Headless `App` tests of the MSH and TMA loaders on a demo install.

mod common;

use bevy::mesh::{Mesh, VertexAttributeValues};
use bevy::prelude::*;
use common::{app, install, settle};
use iron3d_assets::IronAssetsPlugin;
use iron3d_assets::mission::Mission;
use iron3d_assets::model::Model;
use iron3d_formats::archive::{Mode, nres::Nres};
use iron3d_formats::msh::Msh;

#[test]
fn a_model_loads_with_one_mesh_per_batch_and_its_hierarchy() {
    let (_tmp, game) = install();
    let bytes = std::fs::read(game.join("static.rlb")).unwrap();
    let lib = Nres::parse(&bytes, Mode::Strict).unwrap();
    let index = (0..lib.entries().len())
        .find(|&i| lib.entries()[i].name().ends_with(b".msh"))
        .unwrap();
    let name = String::from_utf8(lib.entries()[index].name().to_vec()).unwrap();
    let msh = Msh::load(lib.payload(index), Mode::Strict).unwrap();

    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<Model> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://static.rlb/{name}"));
    assert!(settle(&mut app, &handle).is_loaded());
    let models = app.world().resource::<Assets<Model>>();
    let meshes = app.world().resource::<Assets<Mesh>>();
    let model = models.get(&handle).unwrap();
    assert_eq!(model.batches.len(), msh.batches.len());
    assert_eq!(model.nodes.len(), msh.nodes.len());
    assert_eq!(model.slots.len(), msh.slots.slots.len());
    for (node, raw) in model.nodes.iter().zip(msh.nodes.node38()) {
        assert_eq!(node.parent, raw.parent());
    }
    for (batch, raw) in model.batches.iter().zip(&msh.batches) {
        let mesh = meshes.get(&batch.mesh).unwrap();
        assert_eq!(
            mesh.indices().unwrap().len(),
            raw.index_count as usize / 3 * 3
        );
        // Every index lands on the same position as in the original stream.
        let Some(VertexAttributeValues::Float32x3(pos)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions");
        };
        let words = msh.batch_indices(raw).unwrap();
        for (local, &word) in mesh.indices().unwrap().iter().zip(words) {
            let global = raw.base_vertex as usize + word as usize;
            assert_eq!(pos[local], msh.positions[global]);
        }
        assert!(mesh.attribute(Mesh::ATTRIBUTE_NORMAL).is_some());
        assert!(mesh.attribute(Mesh::ATTRIBUTE_UV_0).is_some());
        assert_eq!(
            mesh.attribute(Mesh::ATTRIBUTE_UV_1).is_some(),
            msh.uv1.is_some()
        );
    }
}

#[test]
fn a_mission_loads_from_missions() {
    let (_tmp, game) = install();
    let mission = iron3d_formats::gamedir::GameDir::open(&game)
        .unwrap()
        .missions()
        .unwrap()
        .remove(0);
    let expected =
        iron3d_formats::tma::parse(&std::fs::read(&mission.tma).unwrap(), Mode::Compatible)
            .unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let handle: Handle<Mission> = app
        .world()
        .resource::<AssetServer>()
        .load(format!("iron://MISSIONS/{}/data.tma", mission.name));
    assert!(settle(&mut app, &handle).is_loaded());
    let missions = app.world().resource::<Assets<Mission>>();
    assert_eq!(missions.get(&handle).unwrap().tma, expected);
}
