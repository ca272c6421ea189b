//! Effect instances (openparkan `docs/11-effects.md`, "How an effect
//! runs"; GAMEPLAY §7): an event's [`EffectCue`] makes an instance of the
//! `FXID` it names at a place, hung on an object; every 100 ms of game
//! time (and on the two ticks after it starts) the instance works out its
//! time `t` in its header's time mode and flags, follows its object until
//! it lets go (flag `0x4`), plays its sound emitters as `t` crosses them,
//! and deletes itself at the end (flag `0x2`).
//!
//! Time modes: 0 external (0 until set: nothing sets it yet), 1 once, 2
//! loop, 3 once backwards, 5 speed ÷ top speed, 14 one minus life, 15
//! the larger of speed and spin ratios, 4 the animation value of the
//! cue's node of its object (a gun's barrel stroke; else its gait step,
//! a stand-in), 16 that value kept only as it rises (or at 0), 17 only as it
//! falls (or at 1); 6–13 are shipped by no effect and read 0. Then flag `0x200` multiplies by the
//! once-through progress, `0x20` folds (ping-pong) and `0x1` jitters `t`
//! by ± half the header's spread, before the clamp to 0..1.
//!
//! Ours (docs/facts.md "Effects at run time"): an instance whose object is
//! gone lets go of it where it last was; one that does not delete itself
//! at the end (no flag `0x2`, or a loop) goes when its object does, and
//! one without an object ends at its end. Every instance and its
//! generator are simulation state in the state hash.

use crate::rand::HouseRng;
use crate::sound::SoundPlay;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use iron3d_combat::{CombatEvents, EffectCue, EventKind, Weapons};
use iron3d_control::{Gait, PhysicalState};
use iron3d_formats::fxid::Fxid;
use iron3d_formats::fxid::emitter::EmitterKind;
use iron3d_schedules::{GameClock, RawValue, StateHasher, from_section};
use iron3d_sound::{Bus, SoundEvent, SoundKind, SoundSink};
use iron3d_world::mission::{
    Armament, Controller, EffectPrograms, HitModel, MissionEffects, NodeLife, NodeRef, RngStreams,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use std::sync::Arc;

/// Header flags.
pub const JITTER: u32 = 0x1;
pub const DELETE_AT_END: u32 = 0x2;
pub const LET_GO: u32 = 0x4;
pub const PING_PONG: u32 = 0x20;
pub const TIMES_PROGRESS: u32 = 0x200;
/// Header flag: an instance starts switched off.
pub const STARTS_OFF: u32 = 0x40;

/// ms between two updates of an instance.
pub const UPDATE_MS: u64 = 100;
/// An instance this young updates every tick (the engine updates one
/// within 50 ms of a command to it).
// STAND-IN: on every tick of the 50 ms after its start, a controller's
// start or restart, or its switching on (docs/11 "How an effect runs"
// says "within 50 ms of a command"); settled by reading the effect
// manager's fresh-command test.
pub const FRESH_MS: u64 = 50;

/// Where an instance hangs: its object and its frame in the object's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Anchor {
    pub object: OriginalObjectId,
    pub offset: Transform,
}

/// One running effect.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct FxInstance {
    /// Its number, in the order instances were made.
    pub serial: u64,
    /// Its `FXID` by key, and the template (a save holds the key alone:
    /// the template is the mission's again, [`restore_instances`]).
    pub effect: String,
    #[serde(skip)]
    pub template: Arc<Fxid>,
    pub start_ms: u64,
    pub end_ms: u64,
    /// The effect's frame (world) and the size asked of it times its own.
    pub frame: Transform,
    pub scale: f32,
    /// Where it was at its first update (a bolt's start point).
    pub origin: Vec3,
    pub anchor: Option<Anchor>,
    /// Its object, for the time modes that read one (kept after it lets go).
    pub owner: Option<OriginalObjectId>,
    /// The node of its object whose animation value time modes 4, 16 and
    /// 17 read, and the value modes 16 and 17 last kept.
    pub node: Option<NodeRef>,
    pub held: f32,
    /// Effect time, 0..1, at the last update.
    pub t: f32,
    pub updated_ms: Option<u64>,
    /// Its particles' seed, and its own generator (flag `0x1`).
    pub seed: u32,
    pub rng: HouseRng,
    /// Per command: a one-shot sound's previous time; whether a loop plays.
    pub sounds: Vec<SoundPlay>,
    /// It is its owner's engine ([`crate::engine`]).
    pub engine: bool,
    /// Asked to end at its next update (an engine whose machine stopped,
    /// a controller's delete).
    pub stopping: bool,
    /// The controller key it was made under ([`crate::program`]).
    pub key: Option<u32>,
    /// Switched off: it neither updates, sounds nor draws.
    pub off: bool,
    /// The time mode a controller started it in, instead of its header's.
    pub mode: Option<u32>,
    /// Starts again in its own mode once it has finished.
    pub restart: bool,
    /// ms of its last start or command: it updates every tick for
    /// [`FRESH_MS`] after it.
    pub commanded_ms: u64,
}

impl FxInstance {
    /// Seconds since it started, at its last update.
    pub fn age_s(&self) -> f32 {
        self.updated_ms
            .map_or(0.0, |u| u.saturating_sub(self.start_ms) as f32 / 1000.0)
    }

    /// Its time mode: the one it was started in, else its header's.
    pub fn time_mode(&self) -> u32 {
        self.mode.unwrap_or(self.template.header.time_mode)
    }

    /// Starts it again at `now` in `mode` (its header's for `None`).
    pub fn start(&mut self, now: u64, mode: Option<u32>) {
        let span = self.end_ms.saturating_sub(self.start_ms);
        self.start_ms = now;
        self.end_ms = now + span;
        self.mode = mode;
        self.commanded_ms = now;
    }
}

/// Every running instance, in serial order.
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct FxInstances(pub Vec<FxInstance>);

/// The next instance serial and how many combat events were read.
#[derive(
    Resource, Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
pub struct FxCursor {
    pub next_serial: u64,
    pub events_read: usize,
}

/// An effect a cue could not play, reported once per effect key.
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct FxFaults(pub Vec<String>);

impl FxFaults {
    /// Reports (once) that effect `key` was not read at load.
    pub fn report(&mut self, key: &str) {
        let fault = format!("effect {key}: not read at load (no object of the mission names it)");
        if !self.0.contains(&fault) {
            warn!("{fault}");
            self.0.push(fault);
        }
    }
}

/// The game time in ms.
fn now_ms(clock: &GameClock) -> u64 {
    clock.elapsed().as_millis() as u64
}

/// Makes an instance of `template` for `cue` at `now`.
pub fn instance(
    serial: u64,
    cue: &EffectCue,
    template: Arc<Fxid>,
    now: u64,
    seed: u64,
    anchor_frame: Option<&Transform>,
) -> FxInstance {
    let header = &template.header;
    let duration_ms = (f64::from(header.duration_seconds.max(0.0)) * 1000.0).round() as u64;
    let frame = Transform::from_translation(cue.at).with_rotation(cue.rotation);
    let owner = cue.on.map(OriginalObjectId);
    let anchor = owner.zip(anchor_frame).map(|(object, at)| Anchor {
        object,
        offset: Transform::from_matrix(at.to_matrix().inverse() * frame.to_matrix()),
    });
    let scale = cue.scale * header.scale[0].abs().max(f32::EPSILON);
    let off = header.flags & STARTS_OFF != 0;
    FxInstance {
        serial,
        effect: cue.effect.clone(),
        sounds: vec![SoundPlay::default(); template.commands.len()],
        template,
        start_ms: now,
        end_ms: now + duration_ms,
        frame,
        scale,
        origin: cue.at,
        anchor,
        owner,
        node: cue.node,
        held: 0.0,
        t: 0.0,
        updated_ms: None,
        seed: seed as u32 ^ (seed >> 32) as u32,
        rng: HouseRng::new(seed as u32 | 1),
        engine: false,
        stopping: false,
        key: None,
        off,
        mode: None,
        restart: false,
        commanded_ms: now,
    }
}

/// What making instances needs: the clock, the templates, the `fx`
/// stream, the serials, the list and the faults.
#[derive(SystemParam)]
pub(crate) struct Spawner<'w> {
    clock: Res<'w, GameClock>,
    effects: Option<Res<'w, MissionEffects>>,
    rng: ResMut<'w, RngStreams>,
    cursor: ResMut<'w, FxCursor>,
    instances: ResMut<'w, FxInstances>,
    faults: ResMut<'w, FxFaults>,
}

impl Spawner<'_> {
    /// Plays `cue` now (hung on its object, whose frame is `anchor_frame`);
    /// an effect the mission did not read is a fault.
    pub(crate) fn play(
        &mut self,
        cue: &EffectCue,
        anchor_frame: Option<&Transform>,
    ) -> Option<&mut FxInstance> {
        let template = self.effects.as_deref().and_then(|e| e.effect(&cue.effect));
        let Some(template) = template.cloned() else {
            self.faults.report(&cue.effect);
            return None;
        };
        let serial = self.cursor.next_serial;
        self.cursor.next_serial += 1;
        let seed = self.rng.next_u64("fx");
        let now = now_ms(&self.clock);
        let made = instance(serial, cue, template, now, seed, anchor_frame);
        self.instances.0.push(made);
        self.instances.0.last_mut()
    }

    /// The running instances.
    pub(crate) fn instances(&mut self) -> &mut Vec<FxInstance> {
        &mut self.instances.0
    }

    /// The game time in ms.
    pub(crate) fn now_ms(&self) -> u64 {
        now_ms(&self.clock)
    }
}

/// Makes an instance for every cue of the combat events not read yet, and
/// runs the controllers' groups their critical and recovered events call.
pub(crate) fn spawn(
    events: Res<CombatEvents>,
    registry: Res<ObjectRegistry>,
    frames: Query<&Transform>,
    programs: Query<&EffectPrograms>,
    mut spawner: Spawner,
) {
    let read = spawner.cursor.events_read;
    spawner.cursor.events_read = events.0.len();
    for event in events.0.iter().skip(read) {
        if let Some(cue) = &event.cue {
            let anchor_frame = cue
                .on
                .and_then(|id| registry.entity(OriginalObjectId(id)).ok())
                .and_then(|e| frames.get(e).ok());
            spawner.play(cue, anchor_frame);
        }
        if !matches!(event.kind, EventKind::Critical | EventKind::Recovered) {
            continue;
        }
        let id = OriginalObjectId(event.object);
        let object = registry.entity(id).ok();
        if let Some((programs, frame)) = object
            .and_then(|e| programs.get(e).ok())
            .zip(object.and_then(|e| frames.get(e).ok()))
        {
            crate::program::on_event(&mut spawner, id, frame, programs, event.kind);
        }
    }
}

/// What the time modes read of an instance's object.
pub(crate) type Owner<'a> = (
    &'a Transform,
    Option<&'a PhysicalState>,
    Option<&'a Controller>,
    Option<&'a NodeLife>,
    Option<&'a HitModel>,
    NodeAnimation<'a>,
);

/// What a node's animation value is read from: the object's guns (a gun
/// node's barrel stroke) and its gait (the step playing).
pub(crate) type NodeAnimation<'a> = (Option<&'a Armament>, Option<&'a Weapons>, Option<&'a Gait>);

/// The animation value (0..1) of `node` of an object at `now` ms (time
/// mode 4, openparkan `docs/11-effects.md`, "Time mode 4 is a node's
/// animation value"): a gun's node reads its barrel's stroke; any other
/// node reads how far its object's gait step has gone, 0 without one.
fn node_value(
    node: Option<NodeRef>,
    (armament, weapons, gait): &NodeAnimation<'_>,
    now: u64,
) -> f32 {
    let now_s = now as f64 / 1000.0;
    let gun = node.zip(armament.as_ref()).and_then(|(node, a)| {
        let i = a.guns.iter().position(|g| g.node == node)?;
        Some(
            weapons
                .as_ref()?
                .guns
                .get(i)?
                .stroke_phase(&a.guns[i], now_s),
        )
    });
    // STAND-IN: a node that is no gun's reads its object's gait step
    // progress, 0 without one (docs/11 "Time mode 4 is a node's animation
    // value" reads a channel the controller names); settled by reading
    // which channel a non-gun node's effect follows.
    gun.or_else(|| {
        let gait = gait.as_ref()?;
        (gait.step_length > 0.0)
            .then(|| ((now_s - gait.step_start) / gait.step_length).clamp(0.0, 1.0) as f32)
    })
    .unwrap_or(0.0)
}

/// The raw time of `mode` at `now` (before the flags).
fn mode_time(mode: u32, inst: &FxInstance, now: u64, owner: Option<&Owner<'_>>) -> f32 {
    let progress = progress(inst, now);
    let ratio = |v: Vec3, limit: Vec3| {
        let limit = limit.length();
        if limit > 0.0 { v.length() / limit } else { 0.0 }
    };
    let speed = || {
        owner
            .and_then(|(_, s, c, ..)| {
                Some(ratio(
                    s.as_ref()?.linear_velocity,
                    Vec3::from(c.as_ref()?.params.top_speed),
                ))
            })
            .unwrap_or(0.0)
    };
    let spin = || {
        owner
            .and_then(|(_, s, c, ..)| {
                Some(ratio(
                    s.as_ref()?.angular_velocity,
                    Vec3::from(c.as_ref()?.params.turn_rate),
                ))
            })
            .unwrap_or(0.0)
    };
    match mode {
        1 => progress,
        2 => {
            let span = inst.end_ms.saturating_sub(inst.start_ms);
            if span == 0 {
                0.0
            } else {
                (now.saturating_sub(inst.start_ms) % span) as f32 / span as f32
            }
        }
        3 => 1.0 - progress,
        5 => speed(),
        14 => owner
            .and_then(|(_, _, _, l, m, _)| Some(1.0 - life_fraction(l.as_ref()?, m.as_ref()?)))
            .unwrap_or(0.0),
        15 => speed().max(spin()),
        4 | 16 | 17 => owner.map_or(0.0, |o| node_value(inst.node, &o.5, now)),
        // 0: set from outside; 6-13: never shipped.
        _ => 0.0,
    }
}

/// Once-through progress: `(now - start) / (end - start)`, 1 for an
/// effect of no duration.
fn progress(inst: &FxInstance, now: u64) -> f32 {
    let span = inst.end_ms.saturating_sub(inst.start_ms);
    if span == 0 {
        1.0
    } else {
        now.saturating_sub(inst.start_ms) as f32 / span as f32
    }
}

/// An object's life over its whole life (1 without nodes of life).
fn life_fraction(life: &NodeLife, model: &HitModel) -> f32 {
    let whole: f32 = model.nodes.iter().map(|n| n.max_life).sum();
    if whole <= 0.0 {
        return 1.0;
    }
    model
        .nodes
        .iter()
        .map(|n| life.of(n.node) * n.max_life)
        .sum::<f32>()
        / whole
}

/// The effect time of `inst` at `now`: its mode, then flags `0x200`,
/// `0x20` and `0x1`, clamped to 0..1.
pub fn effect_time(inst: &mut FxInstance, now: u64, owner: Option<&Owner<'_>>) -> f32 {
    let header = &inst.template.header;
    let (mode, flags, spread) = (inst.time_mode(), header.flags, header.phase_jitter);
    let mut t = mode_time(mode, inst, now, owner);
    // 16 keeps the node's value only as it rises (or at 0), 17 only as it
    // falls (or at 1).
    let keep = match mode {
        16 => t > inst.held || t == 0.0,
        17 => t < inst.held || t == 1.0,
        _ => false,
    };
    if keep {
        inst.held = t;
    }
    if matches!(mode, 16 | 17) {
        t = inst.held;
    }
    if flags & TIMES_PROGRESS != 0 {
        t *= progress(inst, now);
    }
    if flags & PING_PONG != 0 {
        t = if t < 0.5 { 2.0 * t } else { 2.0 * (1.0 - t) };
    }
    if flags & JITTER != 0 {
        t += inst.rng.spread(spread);
    }
    t.clamp(0.0, 1.0)
}

/// Whether an instance updates at `now`.
fn due(inst: &FxInstance, now: u64) -> bool {
    match inst.updated_ms {
        None => true,
        Some(last) => {
            now.saturating_sub(last) >= UPDATE_MS
                || now.saturating_sub(inst.commanded_ms) <= FRESH_MS
        }
    }
}

/// Updates every instance that is due, in serial order.
pub(crate) fn update(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    owners: Query<Owner>,
    mut instances: ResMut<FxInstances>,
    mut sounds: SoundSink,
) {
    let now = now_ms(&clock);
    let tick = clock.tick();
    instances.0.retain_mut(|inst| {
        if !due(inst, now) {
            return true;
        }
        let owner = inst
            .owner
            .and_then(|id| registry.entity(id).ok())
            .and_then(|e| owners.get(e).ok());
        let owner_gone = inst.owner.is_some() && owner.is_none();
        if inst.off {
            // Off: its loops fall silent; it waits to be switched on.
            inst.updated_ms = Some(now);
            let keep = !inst.stopping && !owner_gone;
            play_sounds(inst, tick, false, &mut sounds);
            return keep;
        }
        if inst.restart && now >= inst.end_ms {
            inst.restart = false;
            inst.start(now, None);
        }
        match (&inst.anchor, &owner) {
            (Some(anchor), Some((frame, ..))) => inst.frame = frame.mul_transform(anchor.offset),
            (Some(_), None) => inst.anchor = None,
            _ => {}
        }
        let first = inst.updated_ms.is_none();
        if first {
            inst.origin = inst.frame.translation;
        }
        inst.t = effect_time(inst, now, owner.as_ref());
        inst.updated_ms = Some(now);
        let (flags, mode) = (inst.template.header.flags, inst.time_mode());
        let ended = now >= inst.end_ms;
        let keep = !inst.stopping
            && match (flags & DELETE_AT_END != 0, mode) {
                (true, _) if inst.t >= 1.0 => false,
                (_, 1 | 3) if ended => inst.owner.is_some() && !owner_gone,
                _ => !owner_gone,
            };
        play_sounds(inst, tick, keep, &mut sounds);
        if flags & LET_GO != 0 {
            inst.anchor = None;
        }
        keep
    });
}

/// Plays the sound emitters of `inst` at its new time (openparkan
/// `docs/11-effects.md`, "Type 2 is a sound", "How a sound is heard"): a
/// one-shot as `t` passes its trigger (a time of exactly 1 counts as 0), a
/// loop while `t` is in its window; everything stops with the instance.
/// Each plays at the emitter's rate factor (`+72 → +76`) lerped across its
/// window at `t` (a loop keeps the rate it started with).
// STAND-IN: a loop keeps the rate factor it started with (docs/11 "How
// a sound is heard" lerps it across the window); settled by listening to
// a retail loop whose rate changes across its window.
fn play_sounds(inst: &mut FxInstance, tick: u64, alive: bool, sounds: &mut SoundSink) {
    let t = inst.t;
    for (index, command) in inst.template.commands.iter().enumerate() {
        if command.emitter() != Some(EmitterKind::Sound) {
            continue;
        }
        let (Some(sound), Some((low, high)), Some(key)) =
            (command.sound(), command.window(), command.resource())
        else {
            continue;
        };
        let key = iron3d_world::mission::effect_key(key.archive.name(), key.name.name());
        let local = iron3d_world::mission::node_to_bevy(sound.position.0);
        let event = |kind| SoundEvent {
            tick,
            key: key.clone(),
            owner: inst.owner.map(OriginalObjectId::raw),
            position: Some(inst.frame.transform_point(local * inst.scale)),
            kind,
            bus: Bus::Effects,
            near: sound.near,
            far: sound.far,
            rate: window_lerp(sound.rate, (low, high), t),
            source: inst.effect.clone(),
            effect: inst.serial,
        };
        let play = &mut inst.sounds[index];
        if sound.looped {
            let inside = alive && (low..=high).contains(&t);
            if inside && !play.looping {
                sounds.push(event(SoundKind::Loop));
            } else if !inside && play.looping {
                sounds.push(event(SoundKind::Stop));
            }
            play.looping = inside;
        } else {
            let now = if t == 1.0 { 0.0 } else { t };
            if play.previous <= now && play.previous <= low && low < now {
                sounds.push(event(SoundKind::Play));
            }
            play.previous = now;
        }
    }
}

/// `from → to` at `t` across `window`, `t` held inside it.
fn window_lerp((from, to): (f32, f32), (low, high): (f32, f32), t: f32) -> f32 {
    let x = crate::emit::through((low, high), t.clamp(low, high.max(low))).unwrap_or(0.0);
    from + x * (to - from)
}

/// State-hash contributor: the cursor and every instance in serial order.
pub(crate) fn hash_instances(world: &World, hasher: &mut StateHasher) {
    if let Some(cursor) = world.get_resource::<FxCursor>() {
        hasher.write_u64(cursor.next_serial);
        hasher.write_u64(cursor.events_read as u64);
    }
    let Some(instances) = world.get_resource::<FxInstances>() else {
        return;
    };
    for inst in &instances.0 {
        hasher.write_u64(inst.serial);
        hasher.write(inst.effect.as_bytes());
        hasher.write_u64(inst.start_ms);
        hasher.write_u64(inst.end_ms);
        for v in inst
            .frame
            .translation
            .to_array()
            .into_iter()
            .chain(inst.frame.rotation.to_array())
        {
            hasher.write_f32(v);
        }
        hasher.write_f32(inst.scale);
        hasher.write_f32(inst.t);
        hasher.write_u64(inst.updated_ms.unwrap_or(u64::MAX));
        hasher.write_u32(inst.anchor.map_or(0, |a| a.object.raw()));
        match inst.node {
            Some(n) => {
                hasher.write_u64(n.part as u64);
                hasher.write_u64(n.node as u64);
            }
            None => hasher.write_u64(u64::MAX),
        }
        hasher.write_f32(inst.held);
        hasher.write_u32(inst.seed);
        hasher.write_u32(inst.rng.state());
        hasher.write_u8(
            u8::from(inst.engine)
                | u8::from(inst.stopping) << 1
                | u8::from(inst.off) << 2
                | u8::from(inst.restart) << 3,
        );
        hasher.write_u32(inst.key.unwrap_or(u32::MAX));
        hasher.write_u32(inst.mode.unwrap_or(u32::MAX));
        hasher.write_u64(inst.commanded_ms);
        for play in &inst.sounds {
            hasher.write_f32(play.previous);
            hasher.write_u8(play.looping as u8);
        }
    }
}

/// Save section (every running instance, its template by key): the saved
/// instances, each on its template in the mission's effects.
pub(crate) fn restore_instances(world: &mut World, state: &RawValue) -> Result<(), String> {
    let FxInstances(mut instances) = from_section(state)?;
    let effects = world.get_resource::<MissionEffects>();
    for instance in &mut instances {
        instance.template = effects
            .and_then(|e| e.effect(&instance.effect))
            .cloned()
            .ok_or_else(|| format!("effect {} is not among the mission's", instance.effect))?;
        // One sound state per command of the effect as the mission has it.
        if instance.sounds.len() != instance.template.commands.len() {
            return Err(format!(
                "effect {}: {} commands saved, the mission's has {}",
                instance.effect,
                instance.sounds.len(),
                instance.template.commands.len()
            ));
        }
    }
    world.insert_resource(FxInstances(instances));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::fxid::FxHeader;

    /// The retail emitter whose rate is not 1 (0.8 → 1.0): the factor
    /// across its window, held at the window's ends.
    #[test]
    fn a_sounds_rate_is_lerped_across_its_window() {
        let (rate, window) = ((0.8, 1.0), (0.2, 0.6));
        assert_eq!(window_lerp(rate, window, 0.4), 0.9);
        assert_eq!(window_lerp(rate, window, 0.0), 0.8);
        assert_eq!(window_lerp(rate, window, 1.0), 1.0);
        assert_eq!(window_lerp(rate, (0.5, 0.5), 0.7), 1.0);
    }

    fn timed(time_mode: u32, flags: u32) -> FxInstance {
        let cue = EffectCue {
            effect: "EFFECTS.RLB::TEST".into(),
            at: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: 1.0,
            on: None,
            node: None,
        };
        let template = Arc::new(Fxid {
            header: FxHeader {
                time_mode,
                duration_seconds: 2.0,
                flags,
                ..FxHeader::default()
            },
            commands: Vec::new(),
        });
        instance(0, &cue, template, 1000, 3, None)
    }

    #[test]
    fn time_modes_run_once_loop_and_backwards_and_the_flags_shape_them() {
        let t = |mode, flags, now| effect_time(&mut timed(mode, flags), now, None);
        // Once: a quarter through at 0.5 s of 2 s, held at 1 after the end.
        assert_eq!(t(1, 0, 1500), 0.25);
        assert_eq!(t(1, 0, 9000), 1.0);
        // Loop: 2.5 s in is a quarter through its second pass.
        assert_eq!(t(2, 0, 3500), 0.25);
        assert_eq!(t(3, 0, 1500), 0.75);
        // External: 0 until set.
        assert_eq!(t(0, 0, 1500), 0.0);
        // Ping-pong folds 0.75 to 0.5; × progress multiplies a loop by it.
        assert_eq!(t(1, PING_PONG, 2500), 0.5);
        assert_eq!(t(2, TIMES_PROGRESS, 2000), 0.25);
    }

    #[test]
    fn a_jittered_time_wobbles_within_half_the_spread() {
        let mut inst = timed(1, JITTER);
        Arc::get_mut(&mut inst.template)
            .unwrap()
            .header
            .phase_jitter = 0.2;
        let values: Vec<f32> = (0..50)
            .map(|_| effect_time(&mut inst, 2000, None))
            .collect();
        assert!(values.iter().all(|v| (v - 0.5).abs() <= 0.1 + 1e-6));
        assert!(values.iter().any(|&v| v != 0.5));
    }
}
