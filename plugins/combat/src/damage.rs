//! Damage (openparkan `docs/26-damage.md`; GAMEPLAY §3): explosions queued
//! by rounds are applied in the order they went off.
//!
//! - **Kinds**: 1 plays its effect only; 2 hits the node the round struck
//!   with the whole amount; 3 is a blast reaching every node within its
//!   radius, no line of sight, `damage × ((R + r − d) / 2R)³` between the
//!   full amount inside `R − r` and nothing beyond `R + r` (`r` the node's
//!   sphere); 4 strikes shields only. A blast (3 and 4) meets each
//!   object's shield first, when it crosses the bubble from outside
//!   ([`crate::shield`]): what the sector stops does not reach that
//!   object's nodes. The amount is the round's node hit points plus the
//!   `.exp` damage (a round goes off from full life), less what shields it
//!   passed through stopped.
//! - **Whom it spares**: the firer itself and an object with a non-zero
//!   `Invulnerability` property; no clan is checked (friendly fire).
//!   Armour keeps `min(d, lin·d + sq·d²)`.
//! - **Nodes**: life = `.ndp` hit points × the volume scale; a node with
//!   `N` damage states is in stage `N − ceil(N × life / max)`: each step
//!   up short of 0 sets off the node's explosion effect and destroys the
//!   nodes that hang on it (docs/26 "Damage stages"); the node is drawn in
//!   that native state. A node at 0 is destroyed and hidden (not drawn,
//!   not struck), and takes the nodes that hang on it with it; node 0 or a
//!   vital node destroys the object:
//!   a machine is deleted through the World3D queue after its controller's
//!   `+92` ms, a building stays as a shell.
//! - **Critical damage and burning** (GAMEPLAY §3; `docs/13-control.md`,
//!   "Critical damage"): a machine is critical below 20 % of its whole
//!   life, and one with running gear (`.ndp` flags `0x70`, `n` nodes) also
//!   when their life fractions sum to `n / 2 − 1` or less (event
//!   `critical`);
//!   it then loses a tenth of the life it had at that moment a second,
//!   spread over its live nodes (a stand-in, docs/facts.md "Stand-ins"),
//!   until it dies or recovers (event `recovered`).

use crate::event::{CombatEvents, EffectCue, EventKind};
use crate::shield::{Shield, blast_sector};
use bevy::ecs::query::QueryItem;
use bevy::prelude::*;
use iron3d_formats::tma;
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::mission::{
    Armour, Blast, Controller, Destroyed, HitModel, HitNode, MissionEffects, NodeLife, ObjectKind,
    PropertyBag, ShieldSpec,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId, WorldOps};

/// An explosion waiting to be applied.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingHit {
    /// World frame.
    pub point: Vec3,
    pub blast: Blast,
    /// The round's node hit points plus the `.exp` damage.
    pub amount: f32,
    /// The object that fired the round.
    pub firer: Option<OriginalObjectId>,
    /// The node the round struck (kind 2 hits it).
    pub struck: Option<(OriginalObjectId, usize)>,
}

/// The explosions of this tick, in the order they went off.
#[derive(Resource, Debug, Default)]
pub struct HitQueue(pub Vec<PendingHit>);

/// A machine that burns: the whole life it had when it fell under the
/// threshold.
#[derive(Component, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Burning {
    pub mark: f32,
}

/// The share of its whole life under which a machine is critical.
pub const BURN_BELOW: f32 = 0.2;
/// The share of the mark a burning machine loses a second.
pub const BURN_RATE: f32 = 0.1;

/// What a blast of `amount` with radius `reach` does to a node whose
/// sphere of radius `r` is `d` from its centre.
pub fn falloff(amount: f32, reach: f32, r: f32, d: f32) -> f32 {
    if r <= 0.0 || reach <= 0.0 || d >= reach + r {
        0.0
    } else if d < reach - r || d < r - reach {
        amount
    } else {
        amount * ((reach + r - d) / (2.0 * reach)).powi(3)
    }
}

pub(crate) type Victim<'a> = (
    &'a Transform,
    &'a HitModel,
    &'a mut NodeLife,
    Option<&'a Armour>,
    Option<&'a PropertyBag>,
    Option<&'a Controller>,
    Option<&'a ObjectKind>,
    Option<&'a Destroyed>,
    Option<(&'a ShieldSpec, &'a mut Shield)>,
);

/// Whether a hit by `by` spares object `id`: its own, or an invulnerable
/// object's.
fn spared(id: OriginalObjectId, by: Option<OriginalObjectId>, bag: Option<&PropertyBag>) -> bool {
    by == Some(id) || bag.is_some_and(|b| b.int("Invulnerability").is_some_and(|v| v != 0))
}

/// Where damage lands: the clock, the events and the destroyed objects'
/// markers.
pub(crate) struct Ledger<'a, 'w, 's> {
    pub tick: u64,
    pub step_ms: f64,
    pub events: &'a mut CombatEvents,
    pub commands: &'a mut Commands<'w, 's>,
    /// What dying nodes set off.
    pub effects: Option<&'a MissionEffects>,
    /// Destroyed by this ledger (their marker is not inserted yet).
    pub destroyed_now: std::collections::BTreeSet<OriginalObjectId>,
}

impl<'a, 'w, 's> Ledger<'a, 'w, 's> {
    pub fn new(
        clock: &GameClock,
        events: &'a mut CombatEvents,
        commands: &'a mut Commands<'w, 's>,
        effects: Option<&'a MissionEffects>,
    ) -> Self {
        Self {
            tick: clock.tick(),
            step_ms: clock.timestep().as_secs_f64() * 1000.0,
            events,
            commands,
            effects,
            destroyed_now: Default::default(),
        }
    }
}

impl Ledger<'_, '_, '_> {
    /// Records that node `node` of `id` died (`kind` node_destroyed, amount
    /// 0) or stepped up to a damage stage (`kind` stage, amount the stage),
    /// with the effect it sets off.
    fn node_event(
        &mut self,
        (id, kind, amount): (OriginalObjectId, EventKind, f32),
        transform: &Transform,
        node: &HitNode,
        by: Option<u32>,
    ) {
        let cue = self.explosion_cue(id, transform, node);
        let event = self
            .events
            .push(self.tick, kind, id.raw(), by, Some(node.node), amount);
        event.cue = cue;
    }

    /// The effect node `node` of `id` sets off as it dies or steps up a
    /// damage stage: its explosion's slot 0 at its centre, sized by the
    /// explosion's radius times the node's (openparkan
    /// `docs/11-effects.md`, "`.exp`").
    fn explosion_cue(
        &self,
        id: OriginalObjectId,
        transform: &Transform,
        node: &HitNode,
    ) -> Option<EffectCue> {
        let blast = self.effects?.blasts.get(node.explosion.as_ref()?)?;
        let size = blast.radius * node.radius * transform.scale.abs().max_element();
        Some(EffectCue {
            effect: blast.effect_on(None)?.to_owned(),
            at: transform.transform_point(node.centre),
            rotation: Quat::IDENTITY,
            scale: if size > 0.0 { size } else { 1.0 },
            on: Some(id.raw()),
            node: Some(node.node),
        })
    }

    /// Takes `amount` of life off node `index` of object `id` (armour
    /// first), destroying what goes to 0 and the object when node 0 or a
    /// vital node dies.
    pub fn damage(
        &mut self,
        (id, entity): (OriginalObjectId, Entity),
        victim: &mut QueryItem<'_, '_, Victim<'_>>,
        index: usize,
        amount: f32,
        by: Option<OriginalObjectId>,
    ) {
        let (transform, model, life, armour, bag, controller, kind, destroyed, _) = victim;
        let transform: &Transform = transform;
        let life: &mut NodeLife = life;
        if spared(id, by, bag.as_deref()) {
            return;
        }
        let Some(node) = model.nodes.get(index) else {
            return;
        };
        let amount = armour.map_or(amount, |a| a.keeps(amount));
        let before = life.of(node.node);
        if node.max_life <= 0.0 || amount <= 0.0 || before <= 0.0 {
            return;
        }
        let after = (before - amount / node.max_life).max(0.0);
        if after == before {
            return; // too little to show on a node this strong
        }
        set(life, node.node, after);
        let by = by.map(OriginalObjectId::raw);
        let lost = (before - after) * node.max_life;
        self.events.push(
            self.tick,
            EventKind::Damage,
            id.raw(),
            by,
            Some(node.node),
            lost,
        );
        let destroyed_node = (id, EventKind::NodeDestroyed, 0.0);
        let mut fatal = false;
        if after > 0.0 {
            let stage = node.stage(after);
            if stage <= node.stage(before) {
                return;
            }
            self.node_event(
                (id, EventKind::Stage, f32::from(stage)),
                transform,
                node,
                by,
            );
        } else {
            self.node_event(destroyed_node, transform, node, by);
            fatal |= node.fatal();
        }
        // What hangs on the node goes with it.
        for (j, other) in model.nodes.iter().enumerate() {
            if j != index && hangs_on(model, j, index) && life.of(other.node) > 0.0 {
                set(life, other.node, 0.0);
                self.node_event(destroyed_node, transform, other, by);
                // STAND-IN: a vital node that goes with the node it hangs on
                // destroys the object too (docs/26's "destroys its child
                // nodes" read as the same destruction); settled by shooting
                // off the node a retail vital node hangs on.
                fatal |= other.fatal();
            }
        }
        if fatal && destroyed.is_none() && self.destroyed_now.insert(id) {
            let building = kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building);
            let delay_ms = controller.map_or(0, |c| c.params.delete_delay_ms);
            let delete_at =
                (!building).then(|| self.tick + crate::round::ticks_after(delay_ms, self.step_ms));
            let marker = Destroyed {
                tick: self.tick,
                delete_at,
            };
            self.commands.entity(entity).insert(marker);
            self.events
                .push(self.tick, EventKind::Destroyed, id.raw(), by, None, 0.0);
        }
    }

    /// What of `hit`'s blast gets past object `id`'s shield: the sector
    /// the blast crosses stops what it can.
    fn shield(
        &mut self,
        id: OriginalObjectId,
        victim: &mut QueryItem<'_, '_, Victim<'_>>,
        hit: &PendingHit,
    ) -> f32 {
        let (transform, model, life, _, bag, _, _, _, shield) = victim;
        let Some((spec, shield)) = shield else {
            return hit.amount;
        };
        if spared(id, hit.firer, bag.as_deref()) {
            return hit.amount;
        }
        let Some(sector) = blast_sector(transform, model, hit.point, hit.blast.radius) else {
            return hit.amount;
        };
        let stopped = shield.stop(spec, life, sector, hit.amount);
        if stopped > 0.0 {
            let by = hit.firer.map(OriginalObjectId::raw);
            self.events
                .push(self.tick, EventKind::Shielded, id.raw(), by, None, stopped);
        }
        hit.amount - stopped
    }
}

/// Sets a node's life fraction (nothing for a node the object lacks).
fn set(life: &mut NodeLife, node: iron3d_world::mission::NodeRef, value: f32) {
    if let Some(v) = life.0.get_mut(node.part).and_then(|p| p.get_mut(node.node)) {
        *v = value;
    }
}

/// Whether node `j` of a model hangs (directly or through others) on node
/// `on`.
fn hangs_on(model: &HitModel, j: usize, on: usize) -> bool {
    let mut at = model.nodes[j].parent;
    for _ in 0..model.nodes.len() {
        match at {
            Some(p) if p == on => return true,
            Some(p) => at = model.nodes.get(p).and_then(|n| n.parent),
            None => return false,
        }
    }
    false
}

/// Applies the tick's explosions in order.
pub(crate) fn apply_hits(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    mut queue: ResMut<HitQueue>,
    mut events: ResMut<CombatEvents>,
    mut victims: Query<Victim>,
    mut commands: Commands,
    effects: Option<Res<MissionEffects>>,
) {
    let mut ledger = Ledger::new(&clock, &mut events, &mut commands, effects.as_deref());
    for hit in std::mem::take(&mut queue.0) {
        match hit.blast.kind {
            2 => {
                let Some((id, index)) = hit.struck else {
                    continue;
                };
                let Ok(entity) = registry.entity(id) else {
                    continue;
                };
                if let Ok(mut victim) = victims.get_mut(entity) {
                    ledger.damage((id, entity), &mut victim, index, hit.amount, hit.firer);
                }
            }
            3 | 4 => {
                for (id, entity) in registry.iter() {
                    let Ok(mut victim) = victims.get_mut(entity) else {
                        continue;
                    };
                    let (transform, model) = (*victim.0, victim.1.clone());
                    let (centre, radius) = model.sphere(&transform);
                    if centre.distance(hit.point) > hit.blast.radius + radius {
                        continue;
                    }
                    let scale = transform.scale.abs().max_element();
                    let left = ledger.shield(id, &mut victim, &hit);
                    if hit.blast.kind == 4 {
                        continue;
                    }
                    for (index, node) in model.nodes.iter().enumerate() {
                        let d = transform.transform_point(node.centre).distance(hit.point);
                        let amount = falloff(left, hit.blast.radius, node.radius * scale, d);
                        if amount > 0.0 {
                            ledger.damage((id, entity), &mut victim, index, amount, hit.firer);
                        }
                    }
                }
            }
            // 1: its effect only.
            _ => {}
        }
    }
}

/// Whether a machine whose nodes of `model` have `life` is critically
/// damaged, from `left` of its `whole` life.
fn critical(model: &HitModel, life: &NodeLife, left: f32, whole: f32) -> bool {
    let (n, sum) = model
        .nodes
        .iter()
        .filter(|n| n.running_gear)
        .fold((0u32, 0.0f32), |(n, sum), node| {
            (n + 1, sum + life.of(node.node))
        });
    let gear_gone = n > 0 && sum <= n as f32 / 2.0 - 1.0;
    left < BURN_BELOW * whole || gear_gone
}

/// Marks the machines that became critically damaged (and those that
/// recovered), and burns the critical ones.
pub(crate) fn burn(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    mut events: ResMut<CombatEvents>,
    mut victims: Query<(Victim, Option<&Burning>)>,
    mut commands: Commands,
    effects: Option<Res<MissionEffects>>,
) {
    let dt = clock.timestep().as_secs_f32();
    let mut ledger = Ledger::new(&clock, &mut events, &mut commands, effects.as_deref());
    for (id, entity) in registry.iter() {
        let Ok((mut victim, burning)) = victims.get_mut(entity) else {
            continue;
        };
        if victim.5.is_none() || victim.7.is_some() {
            continue;
        }
        let model = victim.1.clone();
        let whole: f32 = model.nodes.iter().map(|n| n.max_life).sum();
        let (left, live_whole) = model.nodes.iter().fold((0.0, 0.0), |(l, w), n| {
            let f = victim.2.of(n.node);
            (l + f * n.max_life, if f > 0.0 { w + n.max_life } else { w })
        });
        if whole <= 0.0 || left <= 0.0 || !critical(&model, &victim.2, left, whole) {
            if burning.is_some() {
                ledger.commands.entity(entity).remove::<Burning>();
                let tick = ledger.tick;
                ledger
                    .events
                    .push(tick, EventKind::Recovered, id.raw(), None, None, 0.0);
            }
            continue;
        }
        let mark = burning.map_or(left, |b| b.mark);
        if burning.is_none() {
            ledger.commands.entity(entity).insert(Burning { mark });
            let tick = ledger.tick;
            ledger
                .events
                .push(tick, EventKind::Critical, id.raw(), None, None, mark);
        }
        // The loss spread over the live nodes by their share of life.
        // STAND-IN: spread over the live nodes by their full life (GAMEPLAY
        // §3 and docs/13 give the rate, not which nodes lose it); settled by
        // a retail burning machine's node lives over a few seconds.
        let loss = BURN_RATE * mark * dt;
        for (index, node) in model.nodes.iter().enumerate() {
            if victim.2.of(node.node) > 0.0 && live_whole > 0.0 {
                let share = loss * node.max_life / live_whole;
                ledger.damage((id, entity), &mut victim, index, share, None);
            }
        }
    }
}

/// Deletes every destroyed machine whose time has come, through the
/// World3D queue (deferred: this runs in the calculation pass), in id
/// order.
pub(crate) fn reap(
    clock: Res<GameClock>,
    destroyed: Query<(&OriginalObjectId, &Destroyed)>,
    mut ops: WorldOps,
) {
    let mut due: Vec<OriginalObjectId> = destroyed
        .iter()
        .filter(|(_, d)| d.delete_at.is_some_and(|t| t <= clock.tick()))
        .map(|(id, _)| *id)
        .collect();
    due.sort();
    for id in due {
        // Already queued by this pass, or gone: nothing to do.
        let _ = ops.delete(id);
    }
}

/// State-hash contributor: destroyed objects and burning marks in id
/// order.
pub(crate) fn hash_damage(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        if let Some(d) = world.get::<Destroyed>(entity) {
            hasher.object(id.raw());
            hasher.field("destroyed");
            hasher.write_u64(d.tick);
            hasher.write_u64(d.delete_at.unwrap_or(u64::MAX));
        }
        if let Some(b) = world.get::<Burning>(entity) {
            hasher.object(id.raw());
            hasher.field("burning");
            hasher.write_f32(b.mark);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of one node per flag (running gear or not), each of life 10.
    fn machine(gear: &[bool]) -> HitModel {
        let nodes = gear
            .iter()
            .enumerate()
            .map(|(n, &running_gear)| iron3d_world::mission::HitNode {
                node: iron3d_world::mission::NodeRef { part: 0, node: n },
                max_life: 10.0,
                running_gear,
                ..Default::default()
            })
            .collect();
        HitModel {
            nodes: std::sync::Arc::new(nodes),
            ..HitModel::default()
        }
    }

    fn is_critical(model: &HitModel, fractions: &[f32]) -> bool {
        let life = NodeLife(vec![fractions.to_vec()]);
        let left: f32 = fractions.iter().map(|f| f * 10.0).sum();
        critical(model, &life, left, 10.0 * fractions.len() as f32)
    }

    #[test]
    fn a_machine_is_critical_under_a_fifth_of_its_life_or_with_its_running_gear_gone() {
        // No running gear: under 20 % of the whole life.
        let hover = machine(&[false, false]);
        assert!(!is_critical(&hover, &[0.2, 0.2]));
        assert!(is_critical(&hover, &[0.3, 0.09]));
        // Four gear nodes: also when their fractions sum to 4 / 2 − 1 = 1
        // or less, whatever the body keeps.
        let walker = machine(&[false, true, true, true, true]);
        assert!(!is_critical(&walker, &[0.05, 0.5, 0.5, 0.5, 0.0]));
        assert!(is_critical(&walker, &[1.0, 0.0, 0.0, 0.5, 0.5]));
        // One gear node a side: both gone, or the life under a fifth.
        let pair = machine(&[false, true, true]);
        assert!(!is_critical(&pair, &[0.6, 0.0, 0.01]));
        assert!(is_critical(&pair, &[1.0, 0.0, 0.0]));
        assert!(is_critical(&pair, &[0.05, 0.3, 0.0]));
    }

    #[test]
    fn a_blast_falls_off_as_the_cube_of_its_overlap() {
        // Inside R − r: the whole amount; beyond R + r: nothing.
        assert_eq!(falloff(100.0, 10.0, 1.0, 8.9), 100.0);
        assert_eq!(falloff(100.0, 10.0, 1.0, 11.0), 0.0);
        // Between: ((R + r − d) / 2R)³.
        let d = 10.0;
        let want = 100.0 * ((10.0f32 + 1.0 - d) / 20.0).powi(3);
        assert!((falloff(100.0, 10.0, 1.0, d) - want).abs() < 1e-6);
        // A node of no size is never reached; one bigger than the blast
        // and round it takes it whole.
        assert_eq!(falloff(100.0, 10.0, 0.0, 0.0), 0.0);
        assert_eq!(falloff(100.0, 2.0, 5.0, 2.5), 100.0);
    }
}
