//! Orders (openparkan `docs/31-packages.md`; docs/facts.md "Orders"): an
//! order is a packet ([`OrderPacket`], read and written by the formats
//! crate) addressed by original id through the World3D queue
//! ([`GmsgKind::Order`]); the unit keeps a list of them, the head being what
//! it does now.

use bevy::prelude::*;
use iron3d_formats::error::FormatError;
pub use iron3d_formats::order::{
    InsertMode, ORDER_BUILDING_CONSTRUCT, ORDER_RESEARCH, ORDER_STOP, OrderPacket, OrderTarget,
};
use iron3d_formats::tma;
use iron3d_schedules::StateHasher;
use iron3d_world::mission::{Controller, ObjectKind};
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldMessage};
use std::collections::VecDeque;
use std::fmt;

/// The orders Behavior carries out so far, by their original numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OrderKind {
    /// `ORDER_ROBOT_STOP` (1): brake to a stand, then the order is done.
    Stop,
    /// `ORDER_ROBOT_GO` (2) to a place, and `ORDER_ROBOT_ATTACK` (3) at a
    /// place, which builds a go task: done on arrival.
    Go,
    /// `ORDER_ROBOT_STAYGROUND` (21): stand where it is until another order.
    StayGround,
    /// `ORDER_ROBOT_PATROL` (4) round a place or an object, on a loop of
    /// points drawn in its circle ([`crate::patrol`]), or, with no target,
    /// along the mission path whose id is the parameter: from point to
    /// point, back to the first after the last, until another order.
    Patrol,
    /// `ORDER_ROBOT_FOLLOW` (22) an object: keep within [`FOLLOW_RADIUS`]
    /// of it until another order, or until it is gone.
    Follow,
    /// `ORDER_ROBOT_ATTACK` (3) an object: keep to fighting places near it
    /// (picked again every 8 to 16 s) until it is gone; combat aims and
    /// fires at it (the unit's [`crate::Target`]).
    Attack,
    /// `ORDER_ROBOT_CAPTURE` (17) a building: go to its door and stand
    /// there until the building is the unit's clan's ([`crate::capture`]).
    Capture,
    /// `ORDER_ROBOT_LEAVE` (20), the escape: out to walkable ground near
    /// where the unit stands, or 20 to 70 beyond a building it is aimed at
    /// ([`crate::leave`]); nothing interrupts it, and it is done there.
    Leave,
}

/// m: how near a following unit keeps to the object it follows (GAMEPLAY
/// §2, the wingman menu's "follow me").
pub const FOLLOW_RADIUS: f32 = 20.0;

impl OrderKind {
    /// Every order Behavior carries out.
    pub const ALL: [OrderKind; 8] = [
        OrderKind::Stop,
        OrderKind::Go,
        OrderKind::StayGround,
        OrderKind::Patrol,
        OrderKind::Follow,
        OrderKind::Attack,
        OrderKind::Capture,
        OrderKind::Leave,
    ];

    /// The original order number.
    pub fn code(self) -> u32 {
        match self {
            OrderKind::Stop => 1,
            OrderKind::Go => 2,
            OrderKind::Patrol => 4,
            OrderKind::StayGround => 21,
            OrderKind::Follow => 22,
            OrderKind::Attack => 3,
            OrderKind::Capture => 17,
            OrderKind::Leave => 20,
        }
    }

    /// Whether carrying it out takes the unit anywhere (a stop or a stand
    /// does not).
    pub fn moves(self) -> bool {
        !matches!(self, OrderKind::Stop | OrderKind::StayGround)
    }

    /// The original constant's name.
    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Stop => "ORDER_ROBOT_STOP",
            OrderKind::Go => "ORDER_ROBOT_GO",
            OrderKind::Patrol => "ORDER_ROBOT_PATROL",
            OrderKind::StayGround => "ORDER_ROBOT_STAYGROUND",
            OrderKind::Follow => "ORDER_ROBOT_FOLLOW",
            OrderKind::Attack => "ORDER_ROBOT_ATTACK",
            OrderKind::Capture => "ORDER_ROBOT_CAPTURE",
            OrderKind::Leave => "ORDER_ROBOT_LEAVE",
        }
    }
}

/// One order a unit holds.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Order {
    pub kind: OrderKind,
    pub target: OrderTarget,
    /// The packet's parameter: a patrol's path id, or its circle's radius.
    pub parameter: i32,
    /// A patrol's next point on its path or loop.
    pub leg: u32,
    /// An attack's fighting place (map frame), its speed fraction and the
    /// tick it is picked again at; a capture's door and the tick it fires
    /// at (0: not standing at the door); a patrol's loop point, speed
    /// fraction and the tick its loop is drawn again at.
    pub place: Option<[f32; 2]>,
    pub speed: f32,
    pub repick: u64,
    /// A patrol's loop: the seed its points are drawn from.
    pub seed: u64,
}

impl Order {
    /// The order that `code` on `target` builds, as the original's task
    /// factory does for the orders Behavior carries out.
    pub fn new(code: u32, target: OrderTarget) -> Result<Self, OrderError> {
        let kind = match (code, target) {
            (1, _) => OrderKind::Stop,
            (2 | 3, OrderTarget::Place(_)) => OrderKind::Go,
            (2, _) => return Err(OrderError::NeedsPlace { code }),
            (21, _) => OrderKind::StayGround,
            (22, OrderTarget::Object(_)) => OrderKind::Follow,
            (3, OrderTarget::Object(_)) => OrderKind::Attack,
            (17, OrderTarget::Object(_)) => OrderKind::Capture,
            (22 | 3 | 17, _) => return Err(OrderError::NeedsObject { code }),
            (4, _) => OrderKind::Patrol,
            (20, OrderTarget::None | OrderTarget::Object(_)) => OrderKind::Leave,
            _ => return Err(OrderError::Unsupported { code }),
        };
        Ok(Self {
            kind,
            target,
            parameter: 0,
            leg: 0,
            place: None,
            speed: 1.0,
            repick: 0,
            seed: 0,
        })
    }

    /// The order a packet gives.
    pub fn from_packet(packet: &OrderPacket) -> Result<Self, OrderError> {
        Ok(Self {
            parameter: packet.parameter,
            ..Self::new(packet.code, packet.target)?
        })
    }

    /// The object it is aimed at, if any.
    pub fn target_object(&self) -> Option<OriginalObjectId> {
        match self.target {
            OrderTarget::Object(id) => Some(OriginalObjectId(id)),
            _ => None,
        }
    }
}

/// A unit's orders, the head first (empty: "no order").
#[derive(Component, Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Orders(pub VecDeque<Order>);

impl Orders {
    /// What the unit does now.
    pub fn current(&self) -> Option<&Order> {
        self.0.front()
    }

    /// Puts `order` in the list as `mode` says.
    pub fn insert(&mut self, order: Order, mode: InsertMode) {
        match mode {
            InsertMode::End => self.0.push_back(order),
            InsertMode::Start => self.0.push_front(order),
            InsertMode::Replace => {
                self.0.clear();
                self.0.push_back(order);
            }
        }
    }
}

/// Why an order was not taken.
#[derive(Debug, Clone, PartialEq)]
pub enum OrderError {
    /// The packet is malformed.
    Packet(FormatError),
    /// An order that needs a place got another target.
    NeedsPlace { code: u32 },
    /// An order that needs an object got another target.
    NeedsObject { code: u32 },
    /// An order number Behavior does not carry out yet.
    Unsupported { code: u32 },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::Packet(e) => e.fmt(f),
            OrderError::NeedsPlace { code } => write!(f, "order {code} needs a place"),
            OrderError::NeedsObject { code } => write!(f, "order {code} needs an object"),
            OrderError::Unsupported { code } => {
                write!(f, "order {code} is not carried out by this engine yet")
            }
        }
    }
}

/// Reads an order as a person writes it: `ID VERB [ARGS]`, the unit's
/// original id in decimal or `0x` hex, then `GO x y` (a place on the
/// ground, in the map frame), `PATROL PATH_ID` (a mission path's id), `PATROL x y [RADIUS]`
/// (round a place), `FOLLOW TARGET_ID`, `ATTACK TARGET_ID`, `CAPTURE
/// BUILDING_ID`, `LEAVE`, `STOP` or `STAYGROUND`, or to a building
/// `RESEARCH ITEM` (an index of its clan's tree) or `BUILD DESIGN` (a
/// design's name) (verbs in any case). The packet goes to the end of the
/// unit's list.
pub fn parse_order_command(text: &str) -> Result<(OriginalObjectId, OrderPacket), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [id, verb, args @ ..] = words.as_slice() else {
        return Err(format!("{text:?}: expected \"ID VERB [ARGS]\""));
    };
    let verb = verb.to_ascii_uppercase();
    let (code, target, parameter) = match (verb.as_str(), args) {
        ("RESEARCH", [item]) => {
            let item = item
                .parse()
                .map_err(|e| format!("{item:?} is not an item of the research tree: {e}"))?;
            (ORDER_RESEARCH, OrderTarget::None, item)
        }
        ("RESEARCH", _) => return Err(format!("{text:?}: RESEARCH takes an item's index")),
        ("BUILD", [design]) => {
            let target = OrderTarget::name(design).ok_or_else(|| {
                format!("{text:?}: {design:?} is not a design's name (up to 31 bytes)")
            })?;
            (ORDER_BUILDING_CONSTRUCT, target, -1)
        }
        ("BUILD", _) => return Err(format!("{text:?}: BUILD takes a design's name")),
        ("FOLLOW", [leader]) => (22, OrderTarget::Object(object_id(leader)?), 0),
        ("ATTACK", [target]) => (3, OrderTarget::Object(object_id(target)?), 0),
        ("CAPTURE", [building]) => (17, OrderTarget::Object(object_id(building)?), 0),
        (v @ ("FOLLOW" | "ATTACK" | "CAPTURE"), _) => {
            return Err(format!("{text:?}: {v} takes one object id"));
        }
        ("PATROL", [path]) => {
            let path = path
                .parse()
                .map_err(|e| format!("{path:?} is not a path id: {e}"))?;
            (4, OrderTarget::None, path)
        }
        ("PATROL", [x, y, radius @ ..]) if radius.len() <= 1 => {
            let number = |v: &str| coordinate(text, v);
            let radius = match radius {
                [r] => r
                    .parse()
                    .map_err(|e| format!("{r:?} is not a radius in whole metres: {e}"))?,
                _ => 0,
            };
            (4, OrderTarget::Place([number(x)?, number(y)?, 0.0]), radius)
        }
        ("PATROL", _) => {
            return Err(format!(
                "{text:?}: PATROL takes a path id, or a place x y and a radius"
            ));
        }
        _ => {
            let numbers = args
                .iter()
                .map(|a| coordinate(text, a))
                .collect::<Result<Vec<f32>, String>>()?;
            let (code, target) = match (verb.as_str(), numbers.as_slice()) {
                ("GO", &[x, y]) => (2, OrderTarget::Place([x, y, 0.0])),
                ("STOP", []) => (1, OrderTarget::None),
                ("LEAVE", []) => (20, OrderTarget::None),
                ("STAYGROUND", []) => (21, OrderTarget::None),
                (v @ ("GO" | "STOP" | "LEAVE" | "STAYGROUND"), _) => {
                    return Err(format!("{text:?}: wrong arguments for {v}"));
                }
                (v, _) => {
                    return Err(format!(
                        "{text:?}: unknown order {v:?} (GO, PATROL, FOLLOW, ATTACK, CAPTURE, LEAVE, STOP, STAYGROUND, RESEARCH, BUILD)"
                    ));
                }
            };
            (code, target, 0)
        }
    };
    let packet = OrderPacket {
        code,
        target,
        mode: InsertMode::End,
        parameter,
    };
    Ok((OriginalObjectId(object_id(id)?), packet))
}

/// A coordinate of the order `text`: a finite number of metres.
fn coordinate(text: &str, word: &str) -> Result<f32, String> {
    word.parse::<f32>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("{text:?}: {word:?} is not a finite number of metres"))
}

/// Whether the order `packet` for unit `id` can be given in `world`: the
/// unit is an object that takes orders, an object it names exists, and a
/// capture names a building. The error says which.
pub fn check_order(
    world: &World,
    id: OriginalObjectId,
    packet: &OrderPacket,
) -> Result<(), String> {
    let registry = world.resource::<ObjectRegistry>();
    let unit = registry
        .entity(id)
        .map_err(|_| format!("no object {:#x} in the mission", id.raw()))?;
    // A research or build order goes to a building, and so may a stop
    // (the economy takes them).
    let building =
        world.get::<ObjectKind>(unit).and_then(|k| k.kind()) == Some(tma::ObjectKind::Building);
    if economy_order(packet.code) {
        return match building {
            true => Ok(()),
            false => Err(format!(
                "object {:#x} is not a building to research or build in",
                id.raw()
            )),
        };
    }
    let controlled = world.get::<Controller>(unit).is_some();
    if packet.code == ORDER_STOP && building && !controlled {
        return Ok(());
    }
    if !controlled {
        return Err(format!(
            "object {:#x} takes no orders (it has no controller)",
            id.raw()
        ));
    }
    let OrderTarget::Object(raw) = packet.target else {
        return Ok(());
    };
    let target = registry
        .entity(OriginalObjectId(raw))
        .map_err(|_| format!("no object {raw:#x} in the mission to go after"))?;
    let kind = world.get::<ObjectKind>(target).and_then(|k| k.kind());
    if packet.code == OrderKind::Capture.code() && kind != Some(tma::ObjectKind::Building) {
        return Err(format!("object {raw:#x} is not a building to capture"));
    }
    Ok(())
}

/// Whether order `code` is one a building takes (research, build): the
/// economy's, not a unit's.
fn economy_order(code: u32) -> bool {
    matches!(code, ORDER_RESEARCH | ORDER_BUILDING_CONSTRUCT)
}

/// A raw object id in decimal or `0x` hex.
fn object_id(text: &str) -> Result<u32, String> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => text.parse(),
    }
    .map_err(|e| format!("{text:?} is not an object id: {e}"))
}

/// Every object with a controller holds orders (none at first), a route
/// (none yet), a radar picture, a target (none) and a route report, from
/// the moment it is registered.
pub(crate) fn give_order_list(add: On<Add, Controller>, mut commands: Commands) {
    commands.entity(add.entity).insert((
        Orders::default(),
        crate::route::Route::default(),
        crate::sensor::Sensor::default(),
        crate::attack::Target::default(),
        crate::tactical::RouteReport::default(),
    ));
}

/// Takes the order packets delivered this tick, in posting order; a packet
/// that cannot be taken, or that asks a unit whose controller has no
/// states to move, is reported with its unit and dropped.
pub(crate) fn take_orders(
    mut messages: MessageReader<WorldMessage>,
    registry: Res<ObjectRegistry>,
    mut units: Query<(&mut Orders, &Controller)>,
) {
    for message in messages.read().filter(|m| m.kind == GmsgKind::Order) {
        let packet = OrderPacket::parse(&message.payload);
        // The economy takes a building's research and build orders.
        if packet.as_ref().is_ok_and(|p| economy_order(p.code)) {
            continue;
        }
        let Some(id) = message.target else {
            warn!("order packet {} has no unit to go to", message.seq);
            continue;
        };
        let unit = registry.entity(id).ok().and_then(|e| units.get_mut(e).ok());
        // A stop to an object without a controller is the economy's (a
        // factory aborts its build).
        let stop = packet.as_ref().is_ok_and(|p| p.code == ORDER_STOP);
        let Some((mut orders, controller)) = unit else {
            if stop {
                continue;
            }
            warn!(
                "object {:#010x}: takes no orders (it has no controller)",
                id.raw()
            );
            continue;
        };
        let taken = packet
            .map_err(OrderError::Packet)
            .and_then(|p| Ok((Order::from_packet(&p)?, p.mode)));
        match taken {
            Ok((order, _)) if order.kind.moves() && !controller.can_move() => warn!(
                "object {:#010x}: order packet {}: {} refused: its controller {} has no \
                 states to move in",
                id.raw(),
                message.seq,
                order.kind.name(),
                controller.resource
            ),
            Ok((order, mode)) => orders.insert(order, mode),
            Err(e) => warn!(
                "object {:#010x}: order packet {}: {e}",
                id.raw(),
                message.seq
            ),
        }
    }
}

/// State-hash contributor: every unit's orders, in id order.
pub(crate) fn hash_orders(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(orders) = world.get::<Orders>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        hasher.write_u32(orders.0.len() as u32);
        for (i, order) in orders.0.iter().enumerate() {
            hasher.field_at("order", i);
            hasher.write_u32(order.kind.code());
            hasher.write_u32(order.target.kind());
            hasher.write_u32(order.parameter as u32);
            hasher.write_u32(order.leg);
            match order.place {
                None => hasher.write_u32(0),
                Some(p) => {
                    hasher.write_u32(1);
                    p.iter().for_each(|c| hasher.write_f32(*c));
                }
            }
            hasher.write_f32(order.speed);
            hasher.write_u64(order.repick);
            // Only a loop patrol draws its points from a seed.
            if order.kind == OrderKind::Patrol && order.target != OrderTarget::None {
                hasher.write_u64(order.seed);
            }
            match order.target {
                OrderTarget::None => {}
                OrderTarget::Object(id) => hasher.write_u32(id),
                OrderTarget::Place(p) => p.iter().for_each(|c| hasher.write_f32(*c)),
                OrderTarget::Name(name) => hasher.write(&name),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(x: f32) -> Order {
        Order::new(2, OrderTarget::Place([x, 0.0, 0.0])).unwrap()
    }

    #[test]
    fn the_factory_builds_go_from_attack_at_a_place_and_refuses_the_rest() {
        let place = OrderTarget::Place([0.0; 3]);
        assert_eq!(Order::new(3, place).unwrap().kind, OrderKind::Go);
        let unit = OrderTarget::Object(9);
        assert_eq!(Order::new(3, unit).unwrap().kind, OrderKind::Attack);
        assert_eq!(
            Order::new(3, OrderTarget::None),
            Err(OrderError::NeedsObject { code: 3 })
        );
        assert_eq!(
            Order::new(2, OrderTarget::None),
            Err(OrderError::NeedsPlace { code: 2 })
        );
        assert_eq!(
            Order::new(5, place),
            Err(OrderError::Unsupported { code: 5 })
        );
        let patrol = OrderPacket {
            code: 4,
            target: OrderTarget::None,
            mode: InsertMode::End,
            parameter: 7,
        };
        let patrol = Order::from_packet(&patrol).unwrap();
        assert_eq!((patrol.kind, patrol.parameter), (OrderKind::Patrol, 7));
        assert_eq!(Order::new(21, OrderTarget::None).unwrap().kind.code(), 21);
    }

    #[test]
    fn order_commands_read_ids_verbs_and_places() {
        let (id, p) = parse_order_command("0x80000010 go 12.5 -3").unwrap();
        assert_eq!(id, OriginalObjectId(0x8000_0010));
        assert_eq!(
            p,
            OrderPacket {
                code: 2,
                target: OrderTarget::Place([12.5, -3.0, 0.0]),
                mode: InsertMode::End,
                parameter: 0,
            }
        );
        assert_eq!(parse_order_command("17 STOP").unwrap().1.code, 1);
        assert_eq!(parse_order_command("17 StayGround").unwrap().1.code, 21);
        let patrol = parse_order_command("17 PATROL 3").unwrap().1;
        assert_eq!((patrol.code, patrol.parameter), (4, 3));
        let follow = parse_order_command("17 follow 0x10").unwrap().1;
        assert_eq!((follow.code, follow.target), (22, OrderTarget::Object(16)));
        let attack = parse_order_command("17 ATTACK 0x10").unwrap().1;
        assert_eq!((attack.code, attack.target), (3, OrderTarget::Object(16)));
        let capture = parse_order_command("17 capture 9").unwrap().1;
        assert_eq!((capture.code, capture.target), (17, OrderTarget::Object(9)));
        let round = parse_order_command("17 patrol 10 -20.5 150").unwrap().1;
        assert_eq!(
            (round.code, round.target, round.parameter),
            (4, OrderTarget::Place([10.0, -20.5, 0.0]), 150)
        );
        let round = parse_order_command("17 PATROL 10 20").unwrap().1;
        assert_eq!(round.parameter, 0, "the default radius");
        let leave = parse_order_command("17 leave").unwrap().1;
        assert_eq!((leave.code, leave.target), (20, OrderTarget::None));
        for bad in [
            "17 PATROL 1 2 3 4",
            "17 PATROL 1 y",
            "17 PATROL 1 2 7.5",
            "17 LEAVE 3",
            "17",
            "x GO 1 2",
            "17 GO 1",
            "17 GO 1 nan",
            "17 GO 1 2 3",
            "17 GO 1e39 0",
            "17 STOP 3",
            "17 PATROL",
            "17 PATROL x",
            "17 ATTACK",
            "17 FOLLOW",
            "17 FOLLOW x",
        ] {
            assert!(parse_order_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn insert_modes_put_the_order_at_the_end_the_start_or_alone() {
        let mut orders = Orders::default();
        orders.insert(go(1.0), InsertMode::End);
        orders.insert(go(2.0), InsertMode::End);
        orders.insert(go(3.0), InsertMode::Start);
        let xs = |o: &Orders| -> Vec<f32> {
            o.0.iter()
                .map(|o| match o.target {
                    OrderTarget::Place(p) => p[0],
                    _ => f32::NAN,
                })
                .collect()
        };
        assert_eq!(xs(&orders), [3.0, 1.0, 2.0]);
        orders.insert(go(4.0), InsertMode::Replace);
        assert_eq!(xs(&orders), [4.0]);
    }
}
