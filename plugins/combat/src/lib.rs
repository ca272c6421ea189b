//! Combat (tome VII "Этап 4"; GAMEPLAY §3; openparkan `docs/26-damage.md`,
//! `docs/29-weapons.md`, `docs/30-turrets.md`): turrets aim at their
//! unit's target, guns fire rounds, rounds fly and strike nodes, their
//! explosions damage, and what is destroyed dies through the World3D
//! queue.
//!
//! | step | where | what |
//! |---|---|---|
//! | reap | [`SimStep::Reap`] | destroyed machines whose delete time has come are deleted (deferred to the apply phase) ([`damage`]) |
//! | arm | [`SimStep::Combat`] | armed objects get their weapons' state ([`gun`]) |
//! | aim | [`SimStep::Combat`] | turrets turn toward their unit's target ([`gun`]) |
//! | fire | [`SimStep::Combat`] | guns run their takt and launch rounds ([`gun`]) |
//! | shield | [`SimStep::Combat`] | shielded objects get their sectors; on the power tick they recharge ([`shield`]) |
//! | fly | [`SimStep::Combat`] | rounds move, meet shields, strike and end ([`round`]) |
//! | damage | [`SimStep::Combat`] | the tick's explosions are applied in order, shields first; machines under 20 % burn ([`damage`]) |
//! | draw | `PostUpdate`, `Phase::PublishRenderSnapshot` | destroyed nodes are hidden, the others drawn in their damage stage; turrets are drawn turned to their aim, their guns following ([`pose`]) |
//!
//! [`SimStep::Combat`] runs after Control has moved and resolved every body
//! (rounds meet this tick's positions) and before it publishes them.
//! Everything here is simulation state in the state hash: the weapons, the
//! rounds and their serial counter, shields' sectors, destroyed objects
//! and burning marks
//! (node life is hashed by the mission plugin). What happened is the
//! [`CombatEvents`] list.

pub mod damage;
pub mod event;
pub mod gun;
pub mod hit;
pub mod pose;
pub mod round;
pub mod shield;

pub use damage::{Burning, HitQueue, PendingHit, falloff};
pub use event::{CombatEvent, CombatEvents, EffectCue, EventKind};
pub use gun::{GunPhase, GunState, Manual, TurretAim, Weapons, distance_score};
pub use hit::{Hit, Struck};
pub use round::{Round, RoundSerial, RoundState, Rounds};
pub use shield::Shield;

use bevy::prelude::*;
use iron3d_schedules::{AppStateHashExt, AppStateSaveExt, Phase, SimStep, check_as};
use iron3d_world::mission::MissionScopeExt;
use iron3d_world::mission::{HitModel, NodeLife, NodeStage, PartNodes, UnitPartInfo};
use iron3d_world::save::{AppSaveExt, save_objects};

/// The Combat plugin. Needs the spine, the World3D, mission, Control and
/// Behavior plugins.
pub struct CombatPlugin;

impl Plugin for CombatPlugin {
    fn build(&self, app: &mut App) {
        app.init_mission_resource::<CombatEvents>()
            .init_mission_resource::<HitQueue>()
            .init_mission_resource::<Rounds>()
            .init_mission_resource::<RoundSerial>()
            .add_systems(FixedUpdate, damage::reap.in_set(SimStep::Reap))
            .add_systems(
                FixedUpdate,
                (
                    gun::arm,
                    gun::aim,
                    gun::fire,
                    shield::raise,
                    shield::recharge,
                    round::fly,
                    damage::apply_hits,
                    damage::burn,
                )
                    .chain()
                    .in_set(SimStep::Combat),
            )
            .add_systems(
                PostUpdate,
                show_node_damage.in_set(Phase::PublishRenderSnapshot),
            )
            .add_plugins(pose::plugin)
            .add_state_hash("combat_weapons", gun::hash_weapons)
            .add_state_hash("combat_rounds", round::hash_rounds)
            .add_state_hash("combat_shields", shield::hash_shields)
            .add_state_hash("combat_damage", damage::hash_damage)
            // Saved: the guns, the aim the pilot gave, shields, fires, the
            // rounds in flight with what they are, and the events so far
            // (effects read on from where they were). Hits are applied within
            // the step that makes them: none is pending between steps.
            .add_state_save(
                "combat_weapons",
                save_objects::<gun::Weapons>,
                check_as::<Vec<(u32, gun::Weapons)>>,
                gun::restore_weapons,
            )
            .save_object_component::<gun::Manual>("combat_manual")
            .save_object_component::<shield::Shield>("combat_shields")
            .save_object_component::<damage::Burning>("combat_burning")
            .save_resource::<round::RoundSerial>("combat_round_serial")
            .save_resource::<round::Rounds>("combat_rounds")
            .save_resource::<event::CombatEvents>("combat_events");
    }
}

/// Presentation: a destroyed node (life 0) is not drawn, unless its model
/// keeps it as a shell; a repaired one is drawn again. Each node is drawn
/// in its damage stage ([`NodeStage`]).
fn show_node_damage(
    objects: Query<(&HitModel, &NodeLife, &Children), Changed<NodeLife>>,
    parts: Query<(&UnitPartInfo, &PartNodes)>,
    mut shown: Query<(Option<&mut Visibility>, Option<&mut NodeStage>)>,
    mut commands: Commands,
) {
    for (model, life, children) in &objects {
        let part_nodes: Vec<(&UnitPartInfo, &PartNodes)> =
            children.iter().filter_map(|c| parts.get(c).ok()).collect();
        for node in model.nodes.iter() {
            let entity = part_nodes
                .iter()
                .find(|(info, _)| info.index == node.node.part)
                .and_then(|(_, nodes)| nodes.0.get(node.node.node));
            let Some(&entity) = entity else {
                continue;
            };
            let life = life.of(node.node);
            let visibility = if node.gone(life) {
                Visibility::Hidden
            } else {
                Visibility::Inherited
            };
            let stage = NodeStage(node.stage(life));
            let Ok((v, s)) = shown.get_mut(entity) else {
                continue;
            };
            match v {
                Some(mut v) => {
                    v.set_if_neq(visibility);
                }
                None if visibility == Visibility::Hidden => {
                    commands.entity(entity).insert(visibility);
                }
                None => {}
            }
            match s {
                Some(mut s) => {
                    s.set_if_neq(stage);
                }
                None if stage.0 > 0 => {
                    commands.entity(entity).insert(stage);
                }
                None => {}
            }
        }
    }
}
