//! What the HUD shows, taken from the published world once a frame (in
//! `Phase::PublishRenderSnapshot`): a pure picture the drawing reads and
//! the tests check, never simulation state.

use bevy::prelude::*;
use iron3d_assets::terrain::Terrain as TerrainAsset;
use iron3d_behavior::ClanRelations;
use iron3d_combat::{GunPhase, Shield, Weapons, shield};
use iron3d_control::{Body, PhysicalState};
use iron3d_formats::tma;
use iron3d_player::Pilot;
use iron3d_render::terrain::SceneTerrain;
use iron3d_schedules::GameClock;
use iron3d_script::{ObjectiveState, OutcomeResult, Progress};
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::{
    Armament, Destroyed, HitModel, InstanceName, NodeLife, ObjectClan, ObjectKind, SHIELD_SECTORS,
    ShieldSpec,
};

/// Lines the message box holds, and how long a message stays (s of game
/// time) (GAMEPLAY §8; openparkan docs/35 "The message box").
pub const MESSAGE_LINES: usize = 6;
pub const MESSAGE_S: f64 = 20.0;
/// How far the radar sees, m (the engage range of GAMEPLAY §4; the
/// shipped radars reach 250–700).
// STAND-IN: 500 m for every hero, not its own radar's range (the HUD does
// not read the hero's radar yet); settled by reading the radar range
// figure of the retail HUD (openparkan docs/35 "The radar").
pub const RADAR_RANGE: f32 = 500.0;
/// s of game time the objectives show at the start of a mission.
pub const OBJECTIVES_AT_START_S: f64 = 7.0;

/// A gun's lamp: ready to fire, busy (a stroke or its interval), or out
/// of rounds or charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lamp {
    Ready,
    Busy,
    Empty,
}

/// One row of the weapons list.
#[derive(Debug, Clone, PartialEq)]
pub struct GunRow {
    /// The key that selects it (1–9).
    pub key: u8,
    pub selected: bool,
    pub lamp: Lamp,
    /// Rounds left; `None` unlimited.
    pub rounds: Option<i32>,
    /// The capacitor's charge, 0–1 (1 for a gun without one).
    pub charge: f32,
}

/// Whose a radar contact is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Own,
    Hostile,
    Other,
}

/// A radar contact: where it is on the disc (−1..1, the hero's forward
/// up, right to the right), and whose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    pub id: u32,
    pub at: Vec2,
    pub side: Side,
}

/// An object's panel: its name, its life (node 0, 0–1), each hit node's
/// life and, while its bubble stands, how full each shield sector is.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub id: u32,
    pub name: String,
    pub life: f32,
    pub nodes: Vec<f32>,
    /// Each sector's points over a full sector's, 0–1, in sector order
    /// (front, back, left, right, top, bottom: `ShieldSpec::sector`);
    /// `None` without a shield or while its bubble is down.
    pub shield: Option<[f32; SHIELD_SECTORS]>,
    /// How far it is from the hero, m (the target's panel).
    pub distance: Option<f32>,
}

/// One line of the objectives screen.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectiveLine {
    pub primary: bool,
    pub text: String,
    pub state: ObjectiveState,
}

/// The radar's gauges and marks (openparkan docs/35 "The radar"): the
/// hero's altitude above the water (m, its map z less the water's level,
/// −1 without water) and its speed and forward top speed (km/h), each
/// rounded; where north lies on the disc (a unit vector, the hero's
/// forward up, right to the right).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gauges {
    pub altitude: i32,
    pub speed: i32,
    pub top: i32,
    pub north: Vec2,
}

impl Gauges {
    /// The gauges of a hero at `at` moving at `velocity` (m/s) with
    /// forward top speed `top` (m/s), over water at `water` (map z).
    pub fn of(at: &Transform, velocity: Vec3, top: f32, water: Option<f32>) -> Self {
        let forward = at.rotation * Vec3::NEG_Z;
        // Map north is +Y, which is Bevy's −Z.
        let north = radar_point(forward, Vec3::NEG_Z).unwrap_or(Vec2::Y);
        Self {
            altitude: (at.translation.y - water.unwrap_or(-1.0)).round() as i32,
            speed: (velocity.length() * 3.6).round() as i32,
            top: (top * 3.6).round() as i32,
            north: north.normalize_or(Vec2::Y),
        }
    }
}

/// Everything the HUD draws this frame.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub struct HudModel {
    pub guns: Vec<GunRow>,
    pub message: Option<MessageBox>,
    pub contacts: Vec<Contact>,
    /// The hero's gauges, while it has a body.
    pub gauges: Option<Gauges>,
    pub own: Option<Panel>,
    pub target: Option<Panel>,
    pub objectives: Vec<ObjectiveLine>,
    /// Whether the objectives screen shows at once (the mission's first
    /// seconds).
    pub objectives_at_start: bool,
    pub outcome: Option<OutcomeResult>,
    /// The Ore and Energy rows, while the hero's clan has buildings in
    /// the economy.
    pub resources: Option<crate::resources::ResourceRows>,
}

/// The weapons list of a hero.
pub fn gun_rows(pilot: &Pilot, armament: &Armament, weapons: &Weapons) -> Vec<GunRow> {
    armament
        .guns
        .iter()
        .zip(&weapons.guns)
        .enumerate()
        .map(|(g, (spec, state))| {
            let capacitor = spec.values.capacitor;
            let charge = if capacitor > 0.0 {
                (state.charge / capacitor).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let charged = capacitor <= 0.0 || state.charge >= spec.values.energy_per_shot;
            let lamp = match state.phase {
                _ if state.rounds == 0 || !charged => Lamp::Empty,
                GunPhase::Idle => Lamp::Ready,
                _ => Lamp::Busy,
            };
            GunRow {
                key: (g + 1).min(9) as u8,
                selected: pilot.weapon == 0 || usize::from(pilot.weapon) == g + 1,
                lamp,
                rounds: (state.rounds >= 0).then_some(state.rounds),
                charge,
            }
        })
        .collect()
}

/// Who a message box is from (openparkan docs/35 "The message box": the
/// header by the message's kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sender {
    /// The game's own lines (kind 2).
    System,
    /// A script's `MESSAGE_INFO` (kind 3).
    Training,
    /// A script's `MESSAGE_INFO` whose message sets `info_system` (kind 4).
    Information,
}

/// The message box: one message, the newest.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageBox {
    pub from: Sender,
    pub text: String,
}

/// The message box at `now_s`: the newest message with a text, while it is
/// under [`MESSAGE_S`] seconds old (a new message replaces the box).
pub fn message_box(progress: &Progress, now_s: f64, step_s: f64) -> Option<MessageBox> {
    let newest = progress.messages.iter().rev().find(|m| m.text.is_some())?;
    if now_s - newest.tick as f64 * step_s > MESSAGE_S {
        return None;
    }
    let from = match newest.kind.as_str() {
        "MESSAGE_INFO" => {
            let info = progress
                .table
                .iter()
                .find(|t| t.index == newest.value)
                .is_some_and(|t| t.info_system);
            if info {
                Sender::Information
            } else {
                Sender::Training
            }
        }
        _ => Sender::System,
    };
    Some(MessageBox {
        from,
        text: newest.text.clone().unwrap_or_default(),
    })
}

/// Where a point `d` away from a hero facing `forward` (world frame)
/// shows on the radar disc; `None` beyond its range.
pub fn radar_point(forward: Vec3, d: Vec3) -> Option<Vec2> {
    let flat = Vec2::new(d.x, d.z);
    if flat.length() > RADAR_RANGE {
        return None;
    }
    let ahead = Vec2::new(forward.x, forward.z).normalize_or(Vec2::NEG_Y);
    let right = Vec2::new(-ahead.y, ahead.x);
    Some(Vec2::new(flat.dot(right), flat.dot(ahead)) / RADAR_RANGE)
}

/// What an object's panel is drawn from.
type PanelOf<'a> = (
    &'a InstanceName,
    Option<&'a HitModel>,
    &'a NodeLife,
    Option<(&'a ShieldSpec, &'a Shield)>,
);

/// An object's panel.
pub fn panel(id: u32, (name, model, life, shield): PanelOf<'_>) -> Panel {
    let nodes: Vec<f32> = model.map_or_else(Vec::new, |m| {
        m.nodes.iter().map(|n| life.of(n.node)).collect()
    });
    let shield = shield
        .filter(|(spec, _)| spec.sector_max > 0.0 && shield::stands(spec, life))
        .map(|(spec, s)| s.sectors.map(|p| (p / spec.sector_max).clamp(0.0, 1.0)));
    Panel {
        id,
        name: name.0.clone(),
        life: life.of(Default::default()),
        nodes,
        shield,
        distance: None,
    }
}

type HeroItem<'a> = (
    &'a Transform,
    &'a Pilot,
    &'a ObjectClan,
    Option<&'a Armament>,
    Option<&'a Weapons>,
    PanelOf<'a>,
    Option<(&'a PhysicalState, &'a Body)>,
);

type Seen<'a> = (
    &'a Transform,
    &'a ObjectClan,
    &'a ObjectKind,
    PanelOf<'a>,
    Option<&'a Destroyed>,
);

/// The frame's HUD picture.
#[allow(clippy::too_many_arguments)]
pub(crate) fn take(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    progress: Option<Res<Progress>>,
    relations: Option<Res<ClanRelations>>,
    heroes: Query<HeroItem>,
    objects: Query<Seen>,
    terrain: Option<Res<SceneTerrain>>,
    terrains: Option<Res<Assets<TerrainAsset>>>,
    mut model: ResMut<HudModel>,
) {
    let step_s = clock.timestep().as_secs_f64();
    let now_s = clock.tick() as f64 * step_s;
    let mut next = HudModel {
        objectives_at_start: now_s < OBJECTIVES_AT_START_S,
        ..default()
    };
    if let Some(progress) = &progress {
        next.message = message_box(progress, now_s, step_s);
        next.objectives = progress
            .objectives
            .iter()
            .map(|o| ObjectiveLine {
                primary: o.primary,
                text: o.text.clone(),
                state: o.state,
            })
            .collect();
        next.outcome = progress.outcome.map(|(r, _)| r);
    }
    let hero = registry
        .iter()
        .find_map(|(id, e)| heroes.get(e).ok().map(|h| (id, h)));
    if let Some((id, (at, pilot, clan, armament, weapons, own, body))) = hero {
        let water = terrain
            .zip(terrains)
            .and_then(|(t, assets)| assets.get(&t.handle).and_then(|t| t.water))
            .map(|w| w.level);
        next.gauges = body.map(|(state, body)| {
            Gauges::of(at, state.linear_velocity, body.limits.top_speed.y, water)
        });
        if let Some(a) = armament {
            // Before its first step (a game started paused) the guns are
            // as the combat plugin arms them: full.
            let fresh;
            let w = match weapons {
                Some(w) => w,
                None => {
                    fresh = Weapons::of(a);
                    &fresh
                }
            };
            next.guns = gun_rows(pilot, a, w);
        }
        next.own = Some(panel(id.raw(), own));
        let forward = at.rotation * Vec3::NEG_Z;
        let mut nearest: Option<(f32, Panel)> = None;
        for (other, entity) in registry.iter().filter(|(o, _)| *o != id) {
            let Ok((t, c, kind, seen, destroyed)) = objects.get(entity) else {
                continue;
            };
            let counted = matches!(
                kind.kind(),
                Some(tma::ObjectKind::Unit | tma::ObjectKind::Building)
            );
            if !counted || destroyed.is_some() {
                continue;
            }
            let d = t.translation - at.translation;
            let Some(point) = radar_point(forward, d) else {
                continue;
            };
            let (a, b) = (clan.identity_raw as usize, c.identity_raw as usize);
            let side = if a == b {
                Side::Own
            } else if relations.as_ref().is_some_and(|r| r.hostile(a, b)) {
                Side::Hostile
            } else {
                Side::Other
            };
            next.contacts.push(Contact {
                id: other.raw(),
                at: point,
                side,
            });
            let distance = d.length();
            if side == Side::Hostile && nearest.as_ref().is_none_or(|(n, _)| distance < *n) {
                let target = Panel {
                    distance: Some(distance),
                    ..panel(other.raw(), seen)
                };
                nearest = Some((distance, target));
            }
        }
        next.target = nearest.map(|(_, p)| p);
    }
    model.set_if_neq(next);
}
