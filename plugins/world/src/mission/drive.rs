//! What drives and loads a machine: its engines, its running gear and its
//! mass, assembled at load from every part's controller components and
//! `.ndp` table, the way openparkan measured the retail engine
//! (`docs/07-objects.md` "A fitted part takes over its slot",
//! `docs/24-motion.md` "What sets the live limits" and "Load",
//! `docs/28-chassis.md` "What a chassis weighs").
//!
//! - Every part's components join one device list in part-tree order. A
//!   part that mounts on a node (a turret, a gun) appends its own; an
//!   internal part, armour or a clip replaces the component of its parent
//!   its attachment word indexes, keeping that slot's node.
//! - A node weighs its `.ndp` density times the volume its level-0 slot
//!   stores (times the object's three scales), plus armour's weight per
//!   area times the slot's area. A mounted part's node 0 is not merged and
//!   weighs nothing; an internal part's model is not loaded at all.
//! - The spare payload is the controller's payload plus the root part's own
//!   nodes' mass minus the whole mass, never below zero.
//! - The radar is the last class-8 device of the list, a building's too:
//!   only one counts per control system, and a fitted radar part takes
//!   over its turret's slot (`docs/25-sensors.md`, "Only one radar
//!   counts").
//! - The shield is the last fight shield (class 9) and the last deflector
//!   (class 21) of the list, when it has both (`docs/26-damage.md`,
//!   "Shields"; a stand-in as to several of either, docs/facts.md
//!   "Stand-ins").

use super::components::{Drive, EngineRef, NodeLife, NodeRef, RadarRef, ShieldSpec};
use super::load::{NodePlan, PartPlan};
use super::mount::mounts_on_node;
use crate::ObjectRegistry;
use bevy::prelude::*;
use iron3d_formats::proto::ctld::{
    CLASS_ARMOUR, CLASS_DEFLECTOR, CLASS_ENGINE, CLASS_FIGHT_SHIELD, CLASS_RADAR, Component,
};
use iron3d_formats::proto::ndpr::{GEAR_LEFT, GEAR_RIGHT, Ndpr};
use iron3d_formats::unitdat::PartClass;
use iron3d_schedules::StateHasher;

/// What one part brings to the assembly.
#[derive(Clone, Copy)]
pub(crate) struct PartInputs<'a> {
    pub plan: &'a PartPlan,
    /// Its controller's section-4 components (empty without a controller).
    pub components: &'a [Component],
    /// Its `.ndp` table, when its prototype names one.
    pub damage: Option<&'a Ndpr>,
    /// Its model's nodes (empty without geometry).
    pub nodes: &'a [NodePlan],
}

/// One entry of the device list.
struct Device {
    class: u32,
    /// Its value 0 (an engine's drive, armour's weight per area).
    value: f32,
    mass: f32,
    node: Option<NodeRef>,
}

/// Whether a part of `class` replaces a component of its parent (an
/// `INTO` record: internal parts, armour, clips) instead of bringing its
/// own model and devices.
fn fits_a_slot(class: Option<PartClass>) -> bool {
    matches!(
        class,
        Some(PartClass::Internal | PartClass::Armour | PartClass::Ammo)
    )
}

/// Every part's components as its control system runs them, by part: a
/// part that mounts on a node (a turret, a gun) keeps its own; an internal
/// part, armour or a clip fitted into a slot of its parent keeps none and
/// its first record replaces that component of its parent, keeping the
/// slot's node (a fitted part without a controller brings nothing). With
/// them, the first part (its index in `parts`) whose slot does not exist,
/// and why: it brings nothing.
pub(crate) fn fitted(
    parts: &[(&PartPlan, &[Component])],
) -> (Vec<Vec<Component>>, Option<(usize, String)>) {
    let mut lists: Vec<Vec<Component>> = Vec::with_capacity(parts.len());
    let mut missing = None;
    for (p, (plan, components)) in parts.iter().enumerate() {
        let fitted = p > 0 && fits_a_slot(plan.class);
        let Some(first) = components.first().filter(|_| fitted) else {
            lists.push(if fitted {
                Vec::new()
            } else {
                components.to_vec()
            });
            continue;
        };
        lists.push(Vec::new());
        let slots = plan.parent.and_then(|q| lists.get_mut(q));
        let count = slots.as_ref().map_or(0, |s| s.len());
        let slot = usize::try_from(plan.attachment)
            .ok()
            .and_then(|a| slots.and_then(|s| s.get_mut(a)));
        let Some(slot) = slot else {
            let cause = format!(
                "part #{} fits component slot {} of its parent, which has {count}",
                plan.index, plan.attachment
            );
            missing.get_or_insert((p, cause));
            continue;
        };
        let node = slot.node();
        *slot = first.clone();
        slot.set_node(node);
    }
    (lists, missing)
}

/// The drive of an object of `parts` under `scale` with the controller's
/// `payload_kg`; an error names the part (its index in `parts`) whose slot
/// does not exist.
pub(crate) fn assemble(
    parts: &[PartInputs<'_>],
    scale: [f32; 3],
    payload_kg: f32,
) -> Result<Drive, (usize, String)> {
    let own: Vec<(&PartPlan, &[Component])> =
        parts.iter().map(|p| (p.plan, p.components)).collect();
    let (lists, missing) = fitted(&own);
    if let Some(missing) = missing {
        return Err(missing);
    }
    let devices: Vec<Device> = lists
        .iter()
        .enumerate()
        .flat_map(|(p, list)| {
            list.iter().map(move |k| Device {
                class: k.type_id(),
                value: k.value(0).unwrap_or(0.0),
                mass: k.mass(),
                node: usize::try_from(k.node())
                    .ok()
                    .map(|node| NodeRef { part: p, node }),
            })
        })
        .collect();
    let armour = devices
        .iter()
        .rev()
        .find(|d| d.class == CLASS_ARMOUR)
        .map_or(0.0, |d| d.value);
    let volume_scale = (scale[0] * scale[1] * scale[2]).abs();
    // STAND-IN: armour's area scales as the volume scale to the power 2/3
    // (docs/28 scales the volume by the three scales, says nothing of the
    // area); settled by weighing a scaled armoured object in the retail
    // engine (openparkan docs/28 "What a chassis weighs").
    let area_scale = volume_scale.powf(2.0 / 3.0);
    let mut drive = Drive {
        payload_kg,
        ..Drive::default()
    };
    for (p, part) in parts.iter().enumerate() {
        if p > 0 && fits_a_slot(part.plan.class) {
            continue;
        }
        let merged_from = usize::from(p > 0 && mounts_on_node(part.plan.class));
        for (n, node) in part.nodes.iter().enumerate().skip(merged_from) {
            let row = part.damage.and_then(|d| d.nodes.get(n));
            let (area, volume) = node.measures.unwrap_or((0.0, 0.0));
            let kg =
                row.map_or(0.0, |r| r.density) * volume * volume_scale + armour * area * area_scale;
            drive.mass_kg += kg;
            if p == 0 {
                drive.own_kg += kg;
            }
            let flags = row.map_or(0, |r| r.flags);
            let at = NodeRef { part: p, node: n };
            if flags & GEAR_LEFT != 0 {
                drive.gear[0].push(at);
            }
            if flags & GEAR_RIGHT != 0 {
                drive.gear[1].push(at);
            }
        }
    }
    drive.mass_kg += devices.iter().map(|d| d.mass).sum::<f32>();
    drive.engines = devices
        .iter()
        .filter(|d| d.class == CLASS_ENGINE)
        .map(|d| EngineRef {
            drive: d.value,
            node: d.node,
        })
        .collect();
    Ok(drive)
}

/// The last record of `class` in fitted device lists ([`fitted`]), with
/// its node (`None` for a negative one).
fn last_of(lists: &[Vec<Component>], class: u32) -> Option<(&Component, Option<NodeRef>)> {
    let (p, k) = lists
        .iter()
        .enumerate()
        .flat_map(|(p, list)| list.iter().map(move |k| (p, k)))
        .rfind(|(_, k)| k.type_id() == class)?;
    let node = usize::try_from(k.node())
        .ok()
        .map(|node| NodeRef { part: p, node });
    Some((k, node))
}

/// The radar of fitted device lists: their last class-8 record.
pub(crate) fn radar(lists: &[Vec<Component>]) -> Option<RadarRef> {
    let (k, node) = last_of(lists, CLASS_RADAR)?;
    let value = |i: usize| k.value(i).unwrap_or(0.0);
    Some(RadarRef {
        sensitivity: [value(0), value(1), value(2)],
        range: value(3),
        period_ms: value(4),
        node,
    })
}

/// The shield of fitted device lists: their last fight shield and last
/// deflector, when they have both.
// STAND-IN: the last of each in the device list, as the radar (docs/26
// "Shields" reads one generator and one deflector, not which of several);
// settled by reading the shield's lookup in the control system (openparkan
// docs/26) or a retail unit with two of either.
pub(crate) fn shield(lists: &[Vec<Component>]) -> Option<ShieldSpec> {
    let (fight, node) = last_of(lists, CLASS_FIGHT_SHIELD)?;
    let (deflector, deflector_node) = last_of(lists, CLASS_DEFLECTOR)?;
    let value = |k: &Component, i: usize| k.value(i).unwrap_or(0.0);
    Some(ShieldSpec {
        node,
        sector_max: value(fight, 0),
        recharge: value(fight, 1),
        deflector: deflector_node,
        coefficients: std::array::from_fn(|i| value(deflector, i)),
    })
}

/// State-hash contributor: every object's node life in id order.
pub(crate) fn hash_node_life(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(life) = world.get::<NodeLife>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        for (i, part) in life.0.iter().enumerate() {
            hasher.field_at("part", i);
            hasher.write_u32(part.len() as u32);
            part.iter().for_each(|&f| hasher.write_f32(f));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::fixed::ResourceRef;
    use iron3d_formats::msh::Pose;
    use iron3d_formats::proto::ndpr::NodeDamage;
    use iron3d_formats::registry::Resolved;
    use std::sync::Arc;

    fn plan(index: usize, parent: Option<usize>, class: PartClass, attachment: i32) -> PartPlan {
        PartPlan {
            index,
            parent,
            key: format!("P{index}").into_bytes(),
            class: Some(class),
            attachment,
            resolved: Arc::new(Resolved {
                key: Vec::new(),
                chain: Vec::new(),
                refs: Vec::new(),
            }),
        }
    }

    /// Nodes of volume 2 and area 10 each.
    fn nodes(n: usize) -> Vec<NodePlan> {
        (0..n)
            .map(|_| NodePlan {
                parent: None,
                name: None,
                local: Pose::IDENTITY,
                bounds: None,
                measures: Some((10.0, 2.0)),
                faces: Vec::new(),
                flags: 0,
                damage_states: 0,
            })
            .collect()
    }

    fn table(flags: &[u32], density: f32) -> Ndpr {
        let empty = ResourceRef::new(b"", b"").unwrap();
        Ndpr {
            nodes: flags
                .iter()
                .map(|&flags| NodeDamage {
                    flags,
                    hit_points: 100.0,
                    density,
                    explosion: empty,
                })
                .collect(),
        }
    }

    fn component(class: u32, node: i32, value: f32, kg: f32) -> Component {
        let mut k = Component::new(class, node, b"");
        k.set_value(0, value);
        k.set_mass(kg);
        k
    }

    #[test]
    fn fitted_parts_take_their_slots_and_every_merged_node_weighs() {
        // A chassis of 4 nodes (a left and a right leg) declaring an engine
        // slot on node 3 and an armour slot; a turret of 2 nodes; an
        // engine and armour fitted into the slots.
        let chassis_parts = [
            component(CLASS_ENGINE, 3, 1.0, 0.0),
            component(CLASS_ARMOUR, 0, 0.0, 0.0),
        ];
        let engine = [component(CLASS_ENGINE, 0, 0.8, 675.0)];
        let armour = [component(CLASS_ARMOUR, 0, 0.5, 40.0)];
        let turret = [component(1, 1, 0.0, 0.0)];
        let plans = [
            plan(0, None, PartClass::Chassis, -1),
            plan(1, Some(0), PartClass::Turret, 0),
            plan(2, Some(0), PartClass::Internal, 0),
            plan(3, Some(0), PartClass::Armour, 1),
        ];
        let (chassis_nodes, turret_nodes) = (nodes(4), nodes(2));
        let chassis_table = table(&[0, GEAR_LEFT, GEAR_RIGHT, 0], 100.0);
        let turret_table = table(&[0, 0], 50.0);
        let inputs = [
            PartInputs {
                plan: &plans[0],
                components: &chassis_parts,
                damage: Some(&chassis_table),
                nodes: &chassis_nodes,
            },
            PartInputs {
                plan: &plans[1],
                components: &turret,
                damage: Some(&turret_table),
                nodes: &turret_nodes,
            },
            PartInputs {
                plan: &plans[2],
                components: &engine,
                damage: None,
                nodes: &[],
            },
            PartInputs {
                plan: &plans[3],
                components: &armour,
                damage: None,
                nodes: &[],
            },
        ];
        let drive = assemble(&inputs, [1.0; 3], 1000.0).unwrap();
        // The fitted drive on the slot's node.
        let slot_node = Some(NodeRef { part: 0, node: 3 });
        assert_eq!(
            drive.engines,
            [EngineRef {
                drive: 0.8,
                node: slot_node
            }]
        );
        // Chassis: 4 × (100 × 2 + 0.5 × 10); the turret's node 1 only:
        // 50 × 2 + 0.5 × 10; then the parts' 675 + 40.
        assert_eq!(drive.own_kg, 820.0);
        assert_eq!(drive.mass_kg, 820.0 + 105.0 + 715.0);
        let at = |node| NodeRef { part: 0, node };
        assert_eq!(drive.gear, [vec![at(1)], vec![at(2)]]);
        // Spare: 1000 + 820 − 1640 = 180 of 1000.
        assert!((drive.spare() - 0.18).abs() < 1e-6);
        let mut life = NodeLife(vec![vec![1.0; 4], vec![1.0; 2], vec![], vec![]]);
        assert_eq!(drive.engines(&life), 0.8);
        // The slot's node at half life halves E; the left leg gone takes a
        // quarter more: 0.8 × 0.5 × (0 + 1) / 2.
        life.0[0][3] = 0.5;
        life.0[0][1] = 0.0;
        assert_eq!(drive.engines(&life), 0.2);
        // Twice the scale: eight times the volume, four times the area.
        let big = assemble(&inputs, [2.0; 3], 1000.0).unwrap();
        let nodes_kg = 4.0 * (1600.0 + 20.0) + (800.0 + 20.0);
        assert!((big.mass_kg - (nodes_kg + 715.0)).abs() < 1e-3);
    }

    #[test]
    fn the_last_radar_of_the_device_list_is_the_machines() {
        let radar = |range: f32| {
            let mut k = Component::new(CLASS_RADAR, 1, b"");
            [0.5, 0.5, 0.5, range, 750.0]
                .iter()
                .enumerate()
                .for_each(|(i, v)| k.set_value(i, *v));
            k
        };
        let mut fitted = radar(400.0);
        [0.05, 0.7, 25.0]
            .iter()
            .enumerate()
            .for_each(|(i, v)| fitted.set_value(i, *v));
        let plans = [
            plan(0, None, PartClass::Chassis, -1),
            plan(1, Some(0), PartClass::Internal, 0),
        ];
        let (slot, part) = ([radar(500.0)], [fitted]);
        let own: [(&PartPlan, &[Component]); 2] = [(&plans[0], &slot), (&plans[1], &part)];
        // The fitted part takes over the slot and keeps its node.
        let (lists, missing) = super::fitted(&own);
        assert_eq!(missing, None);
        assert_eq!(
            super::radar(&lists),
            Some(RadarRef {
                sensitivity: [0.05, 0.7, 25.0],
                range: 400.0,
                period_ms: 750.0,
                node: Some(NodeRef { part: 0, node: 1 }),
            })
        );
        let (alone, _) = super::fitted(&own[..1]);
        assert_eq!(super::radar(&alone).unwrap().range, 500.0);
    }

    /// A chassis's fight shield and a turret (mounted on it) with a
    /// deflector slot, a deflector part fitted into it: the shield takes
    /// the fitted part's coefficients on the slot's node; without the
    /// turret there is no deflector and no shield.
    #[test]
    fn a_shield_is_the_last_fight_shield_and_deflector_fitted_parts_in_their_slots() {
        let deflector = |coefficient: f32| {
            let mut k = Component::new(CLASS_DEFLECTOR, 2, b"");
            (0..iron3d_formats::proto::ctld::SHIELD_SECTORS)
                .for_each(|i| k.set_value(i, coefficient + i as f32 * 0.01));
            k
        };
        let mut fight = Component::new(CLASS_FIGHT_SHIELD, 0, b"");
        [300.0, 30.0, 2.0]
            .iter()
            .enumerate()
            .for_each(|(i, v)| fight.set_value(i, *v));
        let plans = [
            plan(0, None, PartClass::Chassis, -1),
            plan(1, Some(0), PartClass::Turret, 0),
            plan(2, Some(1), PartClass::Internal, 0),
        ];
        let (chassis, turret, part) = ([fight], [deflector(0.5)], [deflector(0.9)]);
        let own: [(&PartPlan, &[Component]); 3] = [
            (&plans[0], &chassis),
            (&plans[1], &turret),
            (&plans[2], &part),
        ];
        let (lists, missing) = super::fitted(&own);
        assert_eq!(missing, None);
        let shield = super::shield(&lists).unwrap();
        assert_eq!(
            shield,
            ShieldSpec {
                node: Some(NodeRef { part: 0, node: 0 }),
                sector_max: 300.0,
                recharge: 30.0,
                deflector: Some(NodeRef { part: 1, node: 2 }),
                coefficients: std::array::from_fn(|i| 0.9 + i as f32 * 0.01),
            }
        );
        assert_eq!(super::shield(&super::fitted(&own[..1]).0), None);
    }

    #[test]
    fn a_fitted_part_naming_a_missing_slot_is_an_error() {
        let engine = [component(CLASS_ENGINE, 0, 0.8, 675.0)];
        let plans = [
            plan(0, None, PartClass::Chassis, -1),
            plan(1, Some(0), PartClass::Internal, 0),
        ];
        let inputs = [
            PartInputs {
                plan: &plans[0],
                components: &[],
                damage: None,
                nodes: &[],
            },
            PartInputs {
                plan: &plans[1],
                components: &engine,
                damage: None,
                nodes: &[],
            },
        ];
        let error = assemble(&inputs, [1.0; 3], 1000.0).unwrap_err();
        assert_eq!(
            error,
            (
                1,
                "part #1 fits component slot 0 of its parent, which has 0".to_string()
            )
        );
        // A fitted part without a controller brings nothing and needs no slot.
        let bare = [
            inputs[0],
            PartInputs {
                components: &[],
                ..inputs[1]
            },
        ];
        assert!(assemble(&bare, [1.0; 3], 0.0).unwrap().engines.is_empty());
    }
}
