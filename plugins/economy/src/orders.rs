//! The orders buildings take (research 14, build 12): delivered through
//! the World3D queue as every order is, each to the building its message
//! names; and what they do with them, read by original id.

use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use iron3d_formats::order::OrderPacket;
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldMessage};

/// Gives each order packet of `code` delivered this tick to the `C` of
/// the building it names (`take` gets the component, the packet and the
/// message's sequence number); a packet to an object without one is
/// dropped, reported as refused when `role` says what it should have been
/// (an order only buildings take), silently without (one units take too).
pub(crate) fn take_building_orders<C: Component<Mutability = Mutable>>(
    messages: &mut MessageReader<WorldMessage>,
    registry: &ObjectRegistry,
    takers: &mut Query<&mut C>,
    (code, role): (u32, Option<&str>),
    mut take: impl FnMut(&mut C, &OrderPacket, u64),
) {
    for message in messages.read().filter(|m| m.kind == GmsgKind::Order) {
        let Ok(packet) = OrderPacket::parse(&message.payload) else {
            continue;
        };
        if packet.code != code {
            continue;
        }
        let building = message.target.and_then(|id| registry.entity(id).ok());
        let Some(mut taker) = building.and_then(|e| takers.get_mut(e).ok()) else {
            if let Some(role) = role {
                warn!(
                    "order packet {}: order {code} refused: {:?} is no {role}",
                    message.seq,
                    message.target.map(OriginalObjectId::raw)
                );
            }
            continue;
        };
        take(&mut taker, &packet, message.seq);
    }
}

/// Each of `members` (original ids) that has a `C`, with it.
pub(crate) fn members_with<'w, C: Component>(
    world: &'w World,
    members: &'w [u32],
) -> impl Iterator<Item = (u32, &'w C)> + 'w {
    let registry = world.get_resource::<ObjectRegistry>();
    members.iter().filter_map(move |id| {
        let entity = registry?.entity(OriginalObjectId(*id)).ok()?;
        Some((*id, world.get::<C>(entity)?))
    })
}
