//! What the Iron3D panel shows, gathered from the World as plain data
//! (testable without egui): the object list with a filter, and the
//! selected object's properties (original order, typed values), parts and
//! model nodes.

use bevy::prelude::*;
use iron3d_audio::PlayingSources;
use iron3d_behavior::{OrderTarget, Orders, Route, Sensor, Target};
use iron3d_combat::{Shield, shield};
use iron3d_control::{Body, Gait, MotionFlags, PhysicalState};
use iron3d_formats::tma::{self, PropertyValue};
use iron3d_replay::Trace;
use iron3d_world::mission::{
    Controller, Drive, InstanceName, MissionClans, ModelNode, NodeLife, NodeStage, ObjectClan,
    ObjectKind, PropertyBag, PrototypeChain, PrototypeKey, SHIELD_SECTORS, ShieldSpec,
    UnitPartInfo,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};

/// One line of the object list.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectRow {
    pub id: OriginalObjectId,
    /// The instance name of the TMA (the prototype key when it has none).
    pub name: String,
    pub kind: String,
    pub clan: String,
}

impl ObjectRow {
    /// The id as the panel prints it.
    pub fn id_text(&self) -> String {
        id_text(self.id)
    }

    /// Whether the row matches a filter: every whitespace-separated word
    /// occurs (ASCII case-insensitively) in the id, name, kind or clan.
    pub fn matches(&self, filter: &str) -> bool {
        let haystack = format!(
            "{} {} {} {} {}",
            self.id_text(),
            self.id.raw(),
            self.name,
            self.kind,
            self.clan
        )
        .to_ascii_lowercase();
        filter
            .split_whitespace()
            .all(|word| haystack.contains(&word.to_ascii_lowercase()))
    }
}

/// An original id as the panel prints it: `0x` and eight hex digits.
pub fn id_text(id: OriginalObjectId) -> String {
    format!("0x{:08x}", id.raw())
}

/// Bytes of the original data as text.
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every registered object in id order.
pub fn object_rows(world: &World) -> Vec<ObjectRow> {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return Vec::new();
    };
    let clans = world.get_resource::<MissionClans>();
    registry
        .iter()
        .map(|(id, entity)| ObjectRow {
            id,
            name: object_name(world, entity),
            kind: world
                .get::<ObjectKind>(entity)
                .map_or_else(|| "-".into(), |k| kind_text(*k)),
            clan: world
                .get::<ObjectClan>(entity)
                .map_or_else(|| "-".into(), |c| clan_text(*c, clans)),
        })
        .collect()
}

/// The rows matching `filter`.
pub fn filtered<'a>(rows: &'a [ObjectRow], filter: &'a str) -> impl Iterator<Item = &'a ObjectRow> {
    rows.iter().filter(move |row| row.matches(filter))
}

/// An object's name: its `Name`, else its prototype key.
fn object_name(world: &World, entity: Entity) -> String {
    if let Some(name) = world.get::<InstanceName>(entity) {
        return name.0.clone();
    }
    world
        .get::<PrototypeKey>(entity)
        .map_or_else(String::new, |k| lossy(&k.0))
}

fn kind_text(kind: ObjectKind) -> String {
    match kind.kind() {
        Some(tma::ObjectKind::Building) => "building".into(),
        Some(tma::ObjectKind::Unit) => "unit".into(),
        Some(tma::ObjectKind::Vegetation) => "vegetation".into(),
        Some(tma::ObjectKind::Rock) => "rock".into(),
        None => format!("kind {}", kind.raw),
    }
}

/// The clan name by the identity word (a clan index), with the index.
fn clan_text(clan: ObjectClan, clans: Option<&MissionClans>) -> String {
    let name = clans.and_then(|c| clan.name(&c.0)).map(lossy);
    match name {
        Some(name) => format!("{name} (#{})", clan.identity_raw),
        None => format!("#{}", clan.identity_raw),
    }
}

/// One property of the bag, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyRow {
    pub name: String,
    /// `float`, `int` or `type N`.
    pub kind: String,
    /// The value with its range.
    pub value: String,
}

/// The rows of a property bag in its original order (repeats kept).
pub fn property_rows(bag: &PropertyBag) -> Vec<PropertyRow> {
    bag.0
        .iter()
        .map(|p| {
            let (kind, value) = match p.value() {
                PropertyValue::Float { value, min, max } => {
                    ("float".into(), format!("{value} [{min} .. {max}]"))
                }
                PropertyValue::Int { value, min, max } => {
                    ("int".into(), format!("{value} [{min} .. {max}]"))
                }
                PropertyValue::Other { type_word, words } => (
                    format!("type {type_word}"),
                    format!("{:08x} {:08x} {:08x}", words[0], words[1], words[2]),
                ),
            };
            PropertyRow {
                name: lossy(&p.name),
                kind,
                value,
            }
        })
        .collect()
}

/// One part of the object's part tree.
#[derive(Debug, Clone, PartialEq)]
pub struct PartRow {
    /// Depth in the part tree (0 = a root part).
    pub depth: usize,
    pub index: usize,
    pub key: String,
    pub class: Option<String>,
    /// The prototype and its registry parents, nearest first.
    pub inheritance: Vec<String>,
    /// Model nodes under the part: depth below the part and name.
    pub nodes: Vec<(usize, String)>,
}

/// The selected object's details.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectDetails {
    pub row: ObjectRow,
    pub entity: Entity,
    /// The TMA `resource_name` (prototype key or unit DAT path).
    pub resource: String,
    pub properties: Vec<PropertyRow>,
    pub parts: Vec<PartRow>,
    /// Its controller and the motion figures it gives; `None`: a static
    /// body.
    pub controller: Option<String>,
    /// How it moves now (velocity, ground state, body); `None`: a static
    /// body, or no body yet.
    pub motion: Option<String>,
    /// Its shield's sectors, points now of the full; `None`: no shield.
    pub shield: Option<String>,
    /// The sound sources it plays now, as heard from the camera.
    pub sounds: Vec<String>,
    /// Its recent trace lines, newest first: `tick N channel {fields}`.
    pub trace: Vec<String>,
}

/// The details of a live object.
pub fn object_details(world: &World, id: OriginalObjectId) -> Option<ObjectDetails> {
    let entity = world.get_resource::<ObjectRegistry>()?.entity(id).ok()?;
    let row = object_rows(world).into_iter().find(|r| r.id == id)?;
    Some(ObjectDetails {
        row,
        entity,
        resource: world
            .get::<PrototypeKey>(entity)
            .map_or_else(String::new, |k| lossy(&k.0)),
        properties: world
            .get::<PropertyBag>(entity)
            .map(property_rows)
            .unwrap_or_default(),
        parts: part_rows(world, entity),
        controller: world.get::<Controller>(entity).map(controller_text),
        motion: motion_text(world, entity),
        shield: shield_text(world, entity),
        sounds: sound_rows(world, id),
        trace: trace_rows(world, id),
    })
}

/// Object `id`'s recent trace lines, newest first.
fn trace_rows(world: &World, id: OriginalObjectId) -> Vec<String> {
    let Some(trace) = world.get_resource::<Trace>() else {
        return Vec::new();
    };
    let mut rows: Vec<String> = trace
        .recent(id.raw())
        .map(|e| format!("tick {} {} {}", e.tick, e.channel, e.fields))
        .collect();
    rows.reverse();
    rows
}

/// An object's shield as the panel prints it: each sector's points (full
/// before combat first runs), the full, and whether the bubble stands.
fn shield_text(world: &World, entity: Entity) -> Option<String> {
    let spec = world.get::<ShieldSpec>(entity)?;
    let sectors = world
        .get::<Shield>(entity)
        .map_or([spec.sector_max; SHIELD_SECTORS], |s| s.sectors);
    let stands = world
        .get::<NodeLife>(entity)
        .is_some_and(|life| shield::stands(spec, life));
    let names = ["front", "back", "left", "right", "top", "bottom"];
    let each: Vec<String> = names
        .iter()
        .zip(sectors)
        .map(|(name, points)| format!("{name} {points:.0}"))
        .collect();
    Some(format!(
        "shield {} of {:.0}{}",
        each.join(", "),
        spec.sector_max,
        if stands { "" } else { " (down)" }
    ))
}

/// The sources of object `id` the output plays now.
fn sound_rows(world: &World, id: OriginalObjectId) -> Vec<String> {
    let Some(playing) = world.get_resource::<PlayingSources>() else {
        return Vec::new();
    };
    playing
        .0
        .iter()
        .filter(|s| s.owner == Some(id.raw()))
        .map(|s| {
            format!(
                "{} ({}, {}) gain {:.2} pan {:+.2} at {:.2} s",
                s.key,
                s.bus.name(),
                if s.looped { "loop" } else { "one-shot" },
                s.gain,
                s.pan,
                s.time
            )
        })
        .collect()
}

/// A mover's physical state as the panel prints it (map frame, Z up).
fn motion_text(world: &World, entity: Entity) -> Option<String> {
    let state = world.get::<PhysicalState>(entity)?;
    let body = world.get::<Body>(entity)?;
    let [x, y, z] = iron3d_control::map_velocity(world, entity)?;
    let flags = state.flags;
    let how = if flags.has(MotionFlags::FLYER) {
        "flying"
    } else if flags.has(MotionFlags::ON_GROUND) {
        "on the ground"
    } else {
        "falling"
    };
    Some(
        format!(
            "velocity [{x:.2}, {y:.2}, {z:.2}] m/s, {how}{}{}, body radius {:.2} m, mass {:.0} kg",
            if flags.has(MotionFlags::BLOCKED) {
                ", blocked"
            } else {
                ""
            },
            if flags.has(MotionFlags::AT_EDGE) {
                ", at the map edge"
            } else {
                ""
            },
            body.radius,
            body.mass,
        ) + &drive_text(world, entity, body)
            + &gait_text(world.get::<Gait>(entity))
            + &order_text(world.get::<Orders>(entity))
            + &route_text(world.get::<Route>(entity))
            + &sight_text(world.get::<Sensor>(entity), world.get::<Target>(entity)),
    )
}

/// What a unit's radar sees and what it is after, as the panel appends it
/// (nothing for an object without a radar picture).
fn sight_text(sensor: Option<&Sensor>, target: Option<&Target>) -> String {
    let Some(sensor) = sensor else {
        return String::new();
    };
    let target = match target.and_then(|t| t.0) {
        Some(id) => format!("target {:#010x}", id.raw()),
        None => "no target".into(),
    };
    format!(
        ", {target}, {} hostile and {} friendly in sight",
        sensor.hostile.len(),
        sensor.friendly.len()
    )
}

/// Where a unit stands on the areal map and its path, as the panel
/// appends it (nothing for an object without a route).
fn route_text(route: Option<&Route>) -> String {
    let Some(route) = route else {
        return String::new();
    };
    let areal = match route.areal {
        Some(a) => format!("areal {a}"),
        None => "off the areal map".into(),
    };
    let ahead = match route.points.len() {
        0 => String::new(),
        n => format!(", {n} point(s) ahead over {} areal(s)", route.areals.len()),
    };
    format!(", {areal}, path revision {}{ahead}", route.revision)
}

/// The order a unit carries out now and how many wait behind it, as the
/// panel appends it (nothing for an object that takes no orders).
fn order_text(orders: Option<&Orders>) -> String {
    let Some(orders) = orders else {
        return String::new();
    };
    let Some(order) = orders.current() else {
        return ", no order".into();
    };
    let target = match order.target {
        OrderTarget::None => String::new(),
        OrderTarget::Object(id) => format!(" on {id:#010x}"),
        OrderTarget::Place([x, y, _]) => format!(" to [{x:.1}, {y:.1}]"),
        OrderTarget::Name(_) => format!(" of {}", order.target.name_text().unwrap_or_default()),
    };
    format!(
        ", order {}{target} ({} more queued)",
        order.kind.name(),
        orders.0.len() - 1
    )
}

/// What drives a mover now, as the panel appends it: E, r and the live
/// forward top speed and yaw rate they give.
fn drive_text(world: &World, entity: Entity, body: &Body) -> String {
    let (Some(drive), Some(life)) = (world.get::<Drive>(entity), world.get::<NodeLife>(entity))
    else {
        return String::new();
    };
    format!(
        ", drive {:.2} from {} engine(s), spare payload {:.0} %, live top {:.2} m/s, turn {:.2} rad/s",
        drive.engines(life),
        drive.engines.len(),
        drive.spare() * 100.0,
        body.limits.top_speed.y,
        body.limits.turn_rate.z,
    )
}

/// The controller state a mover plays, as the panel appends it.
fn gait_text(gait: Option<&Gait>) -> String {
    let Some(gait) = gait else {
        return String::new();
    };
    let s = gait.state();
    format!(
        ", state {} of {} (frames {}→{}, step {:.0} ms)",
        gait.current,
        gait.graph.states.len(),
        s.frames_b[0],
        s.frames_b[1],
        gait.step_length * 1000.0,
    )
}

/// A controller as the panel prints it: where it is and what it gives.
fn controller_text(c: &Controller) -> String {
    let p = &c.params;
    format!(
        "{} (part #{}): top speed {} m/s, acceleration {}, turn rate {} rad/s, \
         payload {} kg, deleted {} ms after death, mode {}",
        c.resource,
        c.part,
        p.top_speed[1],
        p.acceleration[1],
        p.turn_rate[2],
        p.payload_kg,
        p.delete_delay_ms,
        p.mode.raw()
    )
}

/// The parts under an object root, in part-tree order, with their nodes.
fn part_rows(world: &World, root: Entity) -> Vec<PartRow> {
    let Some(children) = world.get::<Children>(root) else {
        return Vec::new();
    };
    let parts: Vec<(Entity, &UnitPartInfo)> = children
        .iter()
        .filter_map(|c| world.get::<UnitPartInfo>(c).map(|p| (c, p)))
        .collect();
    parts
        .iter()
        .map(|&(entity, part)| PartRow {
            depth: part_depth(&parts, part),
            index: part.index,
            key: lossy(&part.key),
            class: part.class.map(|c| format!("{c:?}")),
            inheritance: world
                .get::<PrototypeChain>(entity)
                .map(|c| c.0.chain.iter().map(|k| lossy(k)).collect())
                .unwrap_or_default(),
            nodes: node_rows(world, entity, 0),
        })
        .collect()
}

/// How many ancestors a part has in its tree (a broken, cyclic tree stops
/// at the number of parts).
fn part_depth(parts: &[(Entity, &UnitPartInfo)], part: &UnitPartInfo) -> usize {
    let mut depth = 0;
    let mut parent = part.parent;
    while let Some(index) = parent {
        let Some((_, up)) = parts.iter().find(|(_, q)| q.index == index) else {
            break;
        };
        depth += 1;
        parent = up.parent;
        if depth > parts.len() {
            break;
        }
    }
    depth
}

/// The model nodes below `entity`, depth first; a node past its first
/// damage stage says which it is drawn in.
fn node_rows(world: &World, entity: Entity, depth: usize) -> Vec<(usize, String)> {
    let Some(children) = world.get::<Children>(entity) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for child in children.iter() {
        if let Some(node) = world.get::<ModelNode>(child) {
            let mut name = node
                .name
                .as_deref()
                .map_or_else(|| format!("node #{}", node.index), lossy);
            if let Some(NodeStage(stage @ 1..)) = world.get::<NodeStage>(child) {
                name.push_str(&format!(" (damage stage {stage})"));
            }
            out.push((depth, name));
            out.extend(node_rows(world, child, depth + 1));
        }
    }
    out
}

/// The registered object an entity belongs to: the entity itself or its
/// nearest ancestor with an [`OriginalObjectId`] (a drawn batch hangs under
/// a model node, under a part, under the object root). `id_of` and
/// `parent_of` read the World or a system's queries.
pub fn owning_object(
    entity: Entity,
    id_of: impl Fn(Entity) -> Option<OriginalObjectId>,
    parent_of: impl Fn(Entity) -> Option<Entity>,
) -> Option<OriginalObjectId> {
    let mut at = entity;
    loop {
        if let Some(id) = id_of(at) {
            return Some(id);
        }
        at = parent_of(at)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_behavior::{InsertMode, Order};

    #[test]
    fn the_order_line_names_the_order_its_target_and_the_queue() {
        assert_eq!(order_text(None), "");
        let mut orders = Orders::default();
        assert_eq!(order_text(Some(&orders)), ", no order");
        let go = Order::new(2, OrderTarget::Place([12.0, -3.3, 0.0])).unwrap();
        orders.insert(go, InsertMode::End);
        orders.insert(go, InsertMode::End);
        assert_eq!(
            order_text(Some(&orders)),
            ", order ORDER_ROBOT_GO to [12.0, -3.3] (1 more queued)"
        );
    }

    #[test]
    fn the_sight_line_names_the_target_and_the_contacts() {
        assert_eq!(sight_text(None, None), "");
        let sensor = Sensor {
            hostile: vec![(OriginalObjectId(0x2a), 120.0)],
            ..Sensor::default()
        };
        let target = Target(Some(OriginalObjectId(0x2a)));
        assert_eq!(
            sight_text(Some(&sensor), Some(&target)),
            ", target 0x0000002a, 1 hostile and 0 friendly in sight"
        );
        assert_eq!(
            sight_text(Some(&Sensor::default()), Some(&Target(None))),
            ", no target, 0 hostile and 0 friendly in sight"
        );
    }

    #[test]
    fn the_route_line_names_the_areal_and_the_path() {
        assert_eq!(route_text(None), "");
        let mut route = Route::default();
        assert_eq!(
            route_text(Some(&route)),
            ", off the areal map, path revision 0"
        );
        route.areal = Some(12);
        route.revision = 2;
        route.areals = vec![12, 13, 14];
        route.points = [[1.0, 2.0], [3.0, 4.0]].into();
        assert_eq!(
            route_text(Some(&route)),
            ", areal 12, path revision 2, 2 point(s) ahead over 3 areal(s)"
        );
    }
}
