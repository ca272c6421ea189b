//! Orders from the inspector: with a unit selected, a right click on the
//! terrain sends it there (`ORDER_ROBOT_GO`), on another object attacks it
//! when the object's clan is hostile to the unit's and follows it
//! otherwise; the order replaces the unit's list and travels through the
//! World3D queue as any order does. The selected unit's route (the local
//! points ahead, with the corridor radius round each), its Wizard corner
//! and its target are drawn as gizmos.

use bevy::picking::events::{Click, Pointer};
use bevy::picking::pointer::PointerButton;
use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;
use iron3d_behavior::{
    BehaviorParams, ClanRelations, InsertMode, OrderPacket, OrderTarget, Orders, Route, Target,
};
use iron3d_input::SelectedObject;
use iron3d_world::mission::ObjectClan;
use iron3d_world::{GmsgKind, ObjectRegistry, OriginalObjectId, WorldOutbox};

use crate::model::owning_object;

/// The order a right click gives the unit of clan `unit_clan`: on object
/// `clicked` of clan `clicked_clan`, attack it when that clan is hostile
/// and follow it otherwise; on the ground at world point `hit`, go there.
pub fn command_for(
    relations: &ClanRelations,
    unit_clan: Option<u32>,
    clicked: Option<(OriginalObjectId, Option<u32>)>,
    hit: Option<Vec3>,
) -> Option<OrderPacket> {
    let (code, target) = match clicked {
        Some((other, clan)) => {
            let hostile = unit_clan
                .zip(clan)
                .is_some_and(|(a, b)| relations.hostile(a as usize, b as usize));
            (
                if hostile { 3 } else { 22 },
                OrderTarget::Object(other.raw()),
            )
        }
        None => {
            let p = hit?;
            (2, OrderTarget::Place([p.x, -p.z, p.y]))
        }
    };
    Some(OrderPacket {
        code,
        target,
        mode: InsertMode::Replace,
        parameter: 0,
    })
}

/// A secondary click with a unit selected orders it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn order_on_right_click(
    mut clicks: MessageReader<Pointer<Click>>,
    selected: Res<SelectedObject>,
    registry: Option<Res<ObjectRegistry>>,
    relations: Option<Res<ClanRelations>>,
    ids: Query<&OriginalObjectId>,
    parents: Query<&ChildOf>,
    units: Query<(Has<Orders>, Option<&ObjectClan>)>,
    egui: Option<Res<EguiWantsInput>>,
    outbox: Option<ResMut<WorldOutbox>>,
) {
    let (Some(registry), Some(relations), Some(mut outbox), Some(unit)) =
        (registry, relations, outbox, selected.0)
    else {
        clicks.clear();
        return;
    };
    let over_panel = egui.is_some_and(|e| e.is_pointer_over_area());
    let clan_of = |id: OriginalObjectId| {
        registry
            .entity(id)
            .ok()
            .and_then(|e| units.get(e).ok())
            .and_then(|(_, clan)| clan.map(|c| c.identity_raw))
    };
    let takes_orders = registry
        .entity(unit)
        .ok()
        .and_then(|e| units.get(e).ok())
        .is_some_and(|(orders, _)| orders);
    for click in clicks.read() {
        if over_panel || click.event.button != PointerButton::Secondary || !takes_orders {
            continue;
        }
        let clicked = owning_object(
            click.entity,
            |e| ids.get(e).ok().copied(),
            |e| parents.get(e).ok().map(ChildOf::parent),
        )
        .filter(|&other| other != unit);
        let order = command_for(
            &relations,
            clan_of(unit),
            clicked.map(|other| (other, clan_of(other))),
            click.event.hit.position,
        );
        if let Some(order) = order {
            outbox.post(GmsgKind::Order, Some(unit), order.to_bytes());
        }
    }
}

/// m: how far over the ground the route is drawn.
const LIFT: f32 = 1.0;

/// The route gizmo of a unit at world point `at`: the legs from it
/// through the Wizard corner (if any) and every local point ahead, at its
/// height.
pub fn route_polyline(route: &Route, at: Vec3) -> Vec<Vec3> {
    let lifted = |p: [f32; 2]| Vec3::new(p[0], at.y + LIFT, -p[1]);
    std::iter::once(at + Vec3::Y * LIFT)
        .chain(route.wizard.map(lifted))
        .chain(route.points.iter().copied().map(lifted))
        .collect()
}

/// Draws the selected unit's route, corridor, Wizard corner and target.
pub(crate) fn draw_selection(
    mut gizmos: Gizmos,
    selected: Res<SelectedObject>,
    registry: Option<Res<ObjectRegistry>>,
    params: Option<Res<BehaviorParams>>,
    units: Query<(&GlobalTransform, Option<&Route>, Option<&Target>)>,
) {
    let (Some(registry), Some(unit)) = (registry, selected.0) else {
        return;
    };
    let Some((at, route, target)) = registry.entity(unit).ok().and_then(|e| units.get(e).ok())
    else {
        return;
    };
    let at = at.translation();
    if let Some(route) = route {
        let line = route_polyline(route, at);
        gizmos.linestrip(line.iter().copied(), Color::srgb(0.2, 0.9, 1.0));
        let radius = params.map_or(5.0, |p| p.corridor_radius);
        let ahead = usize::from(route.wizard.is_some()) + 1;
        for &p in line.iter().skip(ahead) {
            let flat = Isometry3d::new(p, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
            gizmos.circle(flat, radius, Color::srgba(0.2, 0.9, 1.0, 0.5));
        }
        if let Some(&corner) = line.get(1).filter(|_| route.wizard.is_some()) {
            gizmos.sphere(
                Isometry3d::from_translation(corner),
                0.6,
                Color::srgb(1.0, 0.8, 0.1),
            );
        }
    }
    let victim = target
        .and_then(|t| t.0)
        .and_then(|t| registry.entity(t).ok())
        .and_then(|e| units.get(e).ok());
    if let Some((victim, _, _)) = victim {
        gizmos.line(at, victim.translation(), Color::srgb(1.0, 0.2, 0.2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::tma::{Clan, ClanRelation, ClanType};

    fn relations() -> ClanRelations {
        let mut player = Clan::new("Player", ClanType::Player);
        player.relations = vec![ClanRelation {
            clan: b"Enemy".to_vec(),
            value: 0,
        }];
        let mut ally = Clan::new("Ally", ClanType::Enemy);
        ally.relations = vec![ClanRelation {
            clan: b"Player".to_vec(),
            value: 2,
        }];
        ClanRelations::from_clans(&[player, Clan::new("Enemy", ClanType::Enemy), ally])
    }

    #[test]
    fn a_right_click_goes_attacks_or_follows() {
        let r = relations();
        let hit = Some(Vec3::new(10.0, 3.0, -20.0));
        let go = command_for(&r, Some(0), None, hit).unwrap();
        assert_eq!(
            (go.code, go.target, go.mode),
            (
                2,
                OrderTarget::Place([10.0, 20.0, 3.0]),
                InsertMode::Replace
            )
        );
        let foe = command_for(&r, Some(0), Some((OriginalObjectId(5), Some(1))), hit).unwrap();
        assert_eq!((foe.code, foe.target), (3, OrderTarget::Object(5)));
        let friend = command_for(&r, Some(0), Some((OriginalObjectId(6), Some(2))), hit).unwrap();
        assert_eq!((friend.code, friend.target), (22, OrderTarget::Object(6)));
        assert_eq!(command_for(&r, Some(0), None, None), None, "nothing hit");
    }

    #[test]
    fn the_route_gizmo_runs_from_the_unit_by_the_corner_through_the_points() {
        let route = Route {
            points: [[10.0, 0.0], [10.0, 10.0]].into(),
            wizard: Some([5.0, 1.0]),
            ..Route::default()
        };
        let line = route_polyline(&route, Vec3::new(0.0, 2.0, 0.0));
        assert_eq!(
            line,
            [
                Vec3::new(0.0, 3.0, 0.0),
                Vec3::new(5.0, 3.0, -1.0),
                Vec3::new(10.0, 3.0, 0.0),
                Vec3::new(10.0, 3.0, -10.0)
            ]
        );
    }
}
