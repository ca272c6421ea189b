//! What a script sees of the world when one of its handlers runs: every
//! placed object by original id (clan, type word, place, whether it is a
//! unit, destroyed or the hero, the ore it holds), the clans' bases,
//! relations and net power, and the route lists. Taken once per handler batch from the ECS, read-only.

use bevy::prelude::*;
use iron3d_behavior::{ClanRelations, TacticalAreals};
use iron3d_economy::{Building, Distributors, Role, Stock};
use iron3d_formats::tma::{Clan, MineralLode, ObjectKind as Kind, PropertyValue};
use iron3d_world::OriginalObjectId;
use iron3d_world::mission::{Destroyed, Hero, ObjectClan, ObjectKind, PropertyBag};
use std::collections::BTreeMap;

/// The owner word of a destroyed object (openparkan `docs/26-damage.md`).
pub const DESTROYED_OWNER: u32 = 0xfffe;

/// One object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seen {
    pub clan: u32,
    /// The `Type` property's word (0 without one).
    pub type_word: u32,
    pub unit: bool,
    /// The player's hero ([`Hero`]).
    pub hero: bool,
    pub destroyed: bool,
    /// Ground-plane position, map frame.
    pub at: [f32; 2],
    /// The ore it holds and the room it has for more (0 outside the
    /// economy).
    pub ore: f32,
    pub ore_room: f32,
    /// Its part in the economy (a generator, a factory...), if it has
    /// one.
    pub role: Option<Role>,
}

impl Seen {
    /// A factory (it builds robots).
    pub fn factory(&self) -> bool {
        self.role == Some(Role::Plant)
    }
}

/// The world at a handler batch.
#[derive(Debug, Clone, Default)]
pub struct View {
    pub objects: BTreeMap<u32, Seen>,
    /// Deleted ids (they answer as destroyed).
    pub deleted: Vec<u32>,
    pub clans: Vec<Clan>,
    pub relations: ClanRelations,
    pub routes: TacticalAreals,
    /// Each clan's power available less its demand at its last
    /// distribution step, by identity word.
    pub net_power: BTreeMap<u32, f32>,
    /// The mission's mineral lodes found, in file order (map frame).
    pub lodes: Vec<[f32; 2]>,
}

/// The ECS data a view is taken from.
pub type ObjectItem<'a> = (
    &'a OriginalObjectId,
    &'a ObjectClan,
    &'a ObjectKind,
    Option<&'a PropertyBag>,
    &'a Transform,
    Option<&'a Destroyed>,
    Option<&'a Hero>,
    Option<&'a Stock>,
    Option<&'a Building>,
);

impl View {
    /// The view of `objects` (mission roots) and the mission's tables.
    pub fn take<'a>(
        objects: impl Iterator<Item = ObjectItem<'a>>,
        deleted: Vec<u32>,
        clans: &[Clan],
        relations: &ClanRelations,
        routes: &TacticalAreals,
        distributors: Option<&Distributors>,
        lodes: &[MineralLode],
    ) -> Self {
        let objects = objects
            .map(
                |(id, clan, kind, bag, transform, destroyed, hero, stock, building)| {
                    let type_word = match bag.and_then(|b| b.get("Type")) {
                        Some(PropertyValue::Int { value, .. }) => value as u32,
                        _ => 0,
                    };
                    let t = transform.translation;
                    (
                        id.raw(),
                        Seen {
                            clan: clan.identity_raw,
                            type_word,
                            unit: kind.kind() == Some(Kind::Unit),
                            hero: hero.is_some(),
                            destroyed: destroyed.is_some(),
                            // Bevy's (x, y, z) is the map's (x, z, -y).
                            at: [t.x, -t.z],
                            ore: stock.map_or(0.0, |s| s.ore),
                            ore_room: stock.map_or(0.0, Stock::room),
                            role: building.map(|b| b.role),
                        },
                    )
                },
            )
            .collect();
        Self {
            objects,
            deleted,
            clans: clans.to_vec(),
            relations: relations.clone(),
            routes: routes.clone(),
            net_power: distributors.map_or_else(BTreeMap::new, |d| {
                d.clans
                    .iter()
                    .map(|(clan, d)| (*clan, d.power_available - d.power_demand))
                    .collect()
            }),
            lodes: lodes
                .iter()
                .filter(|l| l.found != 0)
                .map(|l| [l.position[0], l.position[1]])
                .collect(),
        }
    }

    /// A live (not destroyed) object.
    pub fn alive(&self, id: u32) -> Option<&Seen> {
        self.objects.get(&id).filter(|o| !o.destroyed)
    }

    /// The owner word of `id`: its clan, [`DESTROYED_OWNER`] when destroyed
    /// or deleted, `None` for no such object.
    pub fn owner(&self, id: u32) -> Option<u32> {
        match self.objects.get(&id) {
            Some(o) if o.destroyed => Some(DESTROYED_OWNER),
            Some(o) => Some(o.clan),
            None if self.deleted.contains(&id) => Some(DESTROYED_OWNER),
            None => None,
        }
    }

    /// Whether clan `a` takes clan `b` for an enemy (Behavior's rule: nature
    /// and neutral objects are nobody's enemies).
    pub fn hostile(&self, a: u32, b: u32) -> bool {
        self.relations.hostile(a as usize, b as usize)
    }

    /// The base centre of clan `clan`.
    pub fn base(&self, clan: u32) -> [f32; 2] {
        self.clans.get(clan as usize).map_or([0.0; 2], |c| c.base)
    }

    /// The live objects of `clan`'s enemies, nearest to `from` first (ids
    /// ascending among equals), with their distances; `type_mask` filters
    /// by type word when given.
    pub fn enemies_near(
        &self,
        clan: u32,
        from: [f32; 2],
        type_mask: Option<u32>,
    ) -> Vec<(u32, f32)> {
        let mut out: Vec<(u32, f32)> = self
            .objects
            .iter()
            .filter(|(_, o)| !o.destroyed && self.hostile(clan, o.clan))
            .filter(|(_, o)| type_mask.is_none_or(|m| o.type_word & m != 0))
            .map(|(&id, o)| (id, distance(from, o.at)))
            .collect();
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The player's hero, live or dead.
    pub fn hero(&self) -> Option<u32> {
        self.objects.iter().find(|(_, o)| o.hero).map(|(&id, _)| id)
    }
}

/// Ground-plane distance.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}
