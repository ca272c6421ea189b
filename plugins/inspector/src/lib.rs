//! The Iron3D inspector: F3 (or `iron3d play --inspector`)
//! toggles bevy-inspector-egui's world inspector and the Iron3D panel:
//!
//! - the registered objects by original id, name, kind and clan, with a
//!   filter;
//! - for the selected object, its property bag in original order with
//!   typed values, each part's prototype chain down to the MSH, WEAR, MAT0
//!   and Texm entries (as the mission loader published it, [`PartResources`]),
//!   and its part tree with the model nodes, and its recent trace lines
//!   as a timeline (the windowed game always traces, `iron3d_replay`);
//! - per clan its economy: its distributor's totals and bars, its
//!   buildings with the ore they hold and the power and ore they wanted
//!   and received, its research centres' researches ([`economy`]);
//! - pause, resume and single-step of the game clock.
//!
//! A left click on a drawn object in the 3D view selects it (mesh picking;
//! the hit entity's ancestors lead to the object root). The selection is
//! [`iron3d_input::SelectedObject`], which the orbit camera follows. With a
//! unit selected, a right click orders it ([`command`]: go to the ground
//! clicked, attack or follow the object clicked), and its route, corridor,
//! Wizard corner and target are drawn as gizmos.
//!
//! The data gathering ([`model`], [`panel::panel_model`]) is plain code over
//! the World; the egui drawing ([`panel::draw_panel`]) is thin.

pub mod command;
pub mod economy;
pub mod mission;
pub mod model;
pub mod panel;

use bevy::picking::PickingSystems;
use bevy::picking::events::{Click, Pointer};
use bevy::picking::mesh_picking::MeshPickingPlugin;
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{
    EguiContext, EguiPlugin, EguiPostUpdateSet, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};
use bevy_inspector_egui::quick::WorldInspectorPlugin;
use iron3d_input::{CameraAction, SelectedObject};
use iron3d_player::{PlayerAction, SampleInput};
use iron3d_schedules::Phase;
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::mission::{PartResources, UnitPartInfo};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::ActionState;
use model::owning_object;
use panel::{PartChain, SelectionReport, apply_actions, draw_panel, panel_model};

/// Height of the scrolling object list in the window.
const LIST_HEIGHT: f32 = 320.0;

/// The inspector. Add it after `DefaultPlugins` and the input plugin.
#[derive(Debug, Clone, Default)]
pub struct InspectorPlugin {
    /// Start with the inspector shown.
    pub open: bool,
}

/// Whether the inspector is shown, and the object filter.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct InspectorState {
    pub open: bool,
    pub filter: String,
}

impl Plugin for InspectorPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        if !app.is_plugin_added::<MeshPickingPlugin>() {
            app.add_plugins(MeshPickingPlugin);
        }
        app.add_plugins(WorldInspectorPlugin::new().run_if(inspector_open))
            .insert_resource(InspectorState {
                open: self.open,
                filter: String::new(),
            })
            .init_mission_resource::<SelectedObject>()
            .init_mission_resource::<SelectionReport>();
        add_phase_systems(app);
        app.add_systems(EguiPrimaryContextPass, inspector_ui.run_if(inspector_open));
    }
}

/// Orders the inspector in the frame's phases; nothing runs in the
/// simulation schedule.
///
/// - [`Phase::BuildInputSnapshot`] (`PreUpdate`): F3, then a click picked
///   this frame (after the picking systems wrote it: a left click selects,
///   a right click orders the selected unit), then the camera's
///   action state is gated (after leafwing updated it, before the rig reads
///   it in `PostUpdate`).
/// - [`Phase::RenderUi`] (`PostUpdate`): the selection report is read and
///   the selected unit's route drawn as gizmos, then the egui pass (bevy_egui's `EndPass` runs [`EguiPrimaryContextPass`],
///   the world inspector and the Iron3D window) draws it.
fn add_phase_systems(app: &mut App) {
    app.add_systems(
        PreUpdate,
        (
            toggle_on_f3,
            select_on_click,
            command::order_on_right_click,
            gate_camera_input,
        )
            .chain()
            .in_set(Phase::BuildInputSnapshot)
            .after(PickingSystems::Last)
            .after(InputManagerSystem::Update)
            .before(SampleInput),
    )
    .configure_sets(
        PostUpdate,
        EguiPostUpdateSet::EndPass.in_set(Phase::RenderUi),
    )
    .add_systems(
        PostUpdate,
        (
            refresh_report,
            // Gizmos only where the app draws them (not in headless tests).
            command::draw_selection
                .run_if(resource_exists::<bevy::gizmos::config::GizmoConfigStore>),
        )
            .run_if(inspector_open)
            .in_set(Phase::RenderUi)
            .before(EguiPostUpdateSet::EndPass),
    );
}

fn inspector_open(state: Res<InspectorState>) -> bool {
    state.open
}

fn toggle_on_f3(keys: Option<Res<ButtonInput<KeyCode>>>, mut state: ResMut<InspectorState>) {
    if keys.is_some_and(|k| k.just_pressed(KeyCode::F3)) {
        state.open = !state.open;
    }
}

/// A primary click on a drawn entity selects the object it belongs to (a
/// click on anything else, the terrain, clears the selection); clicks on
/// the egui windows are theirs.
fn select_on_click(
    mut clicks: MessageReader<Pointer<Click>>,
    ids: Query<&OriginalObjectId>,
    parents: Query<&ChildOf>,
    egui: Option<Res<EguiWantsInput>>,
    mut selected: ResMut<SelectedObject>,
) {
    let over_panel = egui.is_some_and(|e| e.is_pointer_over_area());
    for click in clicks.read() {
        if over_panel || click.event.button != PointerButton::Primary {
            continue;
        }
        selected.0 = owning_object(
            click.entity,
            |e| ids.get(e).ok().copied(),
            |e| parents.get(e).ok().map(ChildOf::parent),
        );
    }
}

/// Keys typed into the panel and the wheel over it move neither the
/// camera nor the hero.
fn gate_camera_input(
    state: Res<InspectorState>,
    egui: Option<Res<EguiWantsInput>>,
    mut cameras: Query<&mut ActionState<CameraAction>>,
    mut players: Query<&mut ActionState<PlayerAction>>,
) {
    let busy =
        state.open && egui.is_some_and(|e| e.wants_keyboard_input() || e.is_pointer_over_area());
    cameras.iter_mut().for_each(|a| gate(busy, a));
    players.iter_mut().for_each(|a| gate(busy, a));
}

/// Disables an action state while the panel is busy.
fn gate<A: leafwing_input_manager::Actionlike>(busy: bool, mut actions: Mut<ActionState<A>>) {
    if busy != actions.disabled() {
        if busy {
            actions.disable();
        } else {
            actions.enable();
        }
    }
}

/// Gathers the selected object's resource chains when the selection
/// changed (once per selection, not every frame).
fn refresh_report(world: &mut World) {
    let selected = world.resource::<SelectedObject>().0;
    if world.resource::<SelectionReport>().id == selected {
        return;
    }
    let report = selection_report(world, selected);
    world.insert_resource(report);
}

/// The resource chains of an object's parts, in part order, from the
/// components the mission loader published.
pub fn selection_report(world: &World, id: Option<OriginalObjectId>) -> SelectionReport {
    let root = id.and_then(|id| world.get_resource::<ObjectRegistry>()?.entity(id).ok());
    let chains = root
        .and_then(|root| world.get::<Children>(root))
        .into_iter()
        .flat_map(|children| children.iter())
        .filter_map(|c| {
            Some(PartChain {
                part: world.get::<UnitPartInfo>(c)?.index,
                chain: world.get::<PartResources>(c)?.0.clone(),
            })
        })
        .collect();
    SelectionReport { id, chains }
}

/// Draws the Iron3D window and applies what the user did.
fn inspector_ui(world: &mut World) {
    let Ok(mut context) = world
        .query_filtered::<&mut EguiContext, With<PrimaryEguiContext>>()
        .single_mut(world)
    else {
        return;
    };
    let ctx = context.get_mut().clone();
    let model = panel_model(world);
    let mut filter = std::mem::take(&mut world.resource_mut::<InspectorState>().filter);
    let report = world.resource::<SelectionReport>();
    let actions = egui::Window::new("Iron3D")
        // Top right; the world inspector opens top left.
        .pivot(egui::Align2::RIGHT_TOP)
        .default_pos([ctx.content_rect().right() - 16.0, 16.0])
        .default_width(420.0)
        .show(&ctx, |ui| {
            egui::ScrollArea::vertical()
                .show(ui, |ui| {
                    draw_panel(ui, &model, report, &mut filter, LIST_HEIGHT)
                })
                .inner
        })
        .and_then(|r| r.inner)
        .unwrap_or_default();
    world.resource_mut::<InspectorState>().filter = filter;
    apply_actions(world, &actions);
}
