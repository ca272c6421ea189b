//! What an instance draws at its time: the primitives of its emitters in
//! command order (openparkan `docs/11-effects.md`, "Emitter types", "A
//! channel is a (low, high, jitter, exponent) run", "A phase is where its
//! material's animation stands", "Bolts, streams and fades"). A pure
//! function of the instance: the same instance (same seed, same time)
//! emits the same list, which is what the presentation draws.
//!
//! - A **sprite** (3, 4, 9) works over its window: position and size from
//!   its channels at the progress through it, alpha its fade.
//! - A **burst** (7, 10) flings `+36 × +40` particles (at most
//!   [`MAX_PARTICLES`]) from the window's start, each living `+28` of the
//!   window; each particle's high ends jittered by its own draws.
//! - A **stream** (8) emits one particle every interval (`+24 → +28` s)
//!   into a ring of `+36`; each lives `+36` intervals, at the effect's
//!   place (a stand-in: the engine spaces them along the path it moved).
//! - A **bolt** (5) lays `length / +36` sprites (1 to `+20`) from its start
//!   point (where the effect was at its first update) to where it is.
//! - A **light** (1) is listed with its colour and range; lights are not
//!   drawn yet.
//!
//! Emitter-local points are Z-up (the node frame), turned into the
//! effect's frame and scaled by its size.

use crate::instance::FxInstance;
use crate::rand::HouseRng;
use bevy::prelude::*;
use iron3d_formats::fxid::Command;
use iron3d_formats::fxid::emitter::EmitterKind;
use iron3d_world::mission::{effect_key, node_to_bevy};

/// The most particles one burst or stream draws.
// STAND-IN: 64, a draw budget (docs/11 "Emitter types" gives no cap);
// settled by counting a large retail burst's particles in a frame.
pub const MAX_PARTICLES: u32 = 64;

/// What a primitive is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// A camera-facing quad.
    Billboard,
    /// A quad along `axis`, turned to the camera about it.
    Beam,
    /// A light (not drawn).
    Light,
}

/// One emitted primitive.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// The instance and its command.
    pub effect: u64,
    pub command: usize,
    pub kind: PrimitiveKind,
    /// The material (`MATERIAL.LIB::NAME`), none for a light.
    pub material: Option<String>,
    /// World frame.
    pub position: Vec3,
    /// Width and height (a beam: its length and width), m.
    pub size: Vec2,
    /// A beam's direction (unit).
    pub axis: Vec3,
    /// The fade: the material's alpha (0..1).
    pub alpha: f32,
    /// Where its material's animation stands, 0..1.
    pub phase: f32,
    /// A light's colour (RGBA), range, raw kind (0 for the others) and
    /// attenuation terms.
    pub colour: [f32; 4],
    pub range: f32,
    pub light_kind: u32,
    pub attenuation: [f32; 3],
}

/// Progress of `t` through `(low, high)`, `None` outside it.
pub(crate) fn through((low, high): (f32, f32), t: f32) -> Option<f32> {
    if t < low || t > high {
        return None;
    }
    Some(if high > low {
        (t - low) / (high - low)
    } else {
        1.0
    })
}

/// Everything `inst` draws at its time, in command order; nothing while
/// it is switched off (its emitters run at `t = -1`, outside every
/// window).
pub fn emit(inst: &FxInstance) -> Vec<Primitive> {
    let mut out = Vec::new();
    if inst.off {
        return out;
    }
    for (index, command) in inst.template.commands.iter().enumerate() {
        let Some(kind) = command.emitter() else {
            continue;
        };
        let Some(x) = command.window().and_then(|w| through(w, inst.t)) else {
            continue;
        };
        let base = Primitive {
            effect: inst.serial,
            command: index,
            kind: PrimitiveKind::Billboard,
            material: command
                .resource()
                .map(|r| effect_key(r.archive.name(), r.name.name())),
            position: inst.frame.translation,
            size: Vec2::ONE,
            axis: Vec3::X,
            alpha: 1.0,
            phase: 0.0,
            colour: [1.0; 4],
            range: 0.0,
            light_kind: 0,
            attenuation: [0.0; 3],
        };
        match kind {
            EmitterKind::Sprite => out.extend(sprite(inst, command, x, base)),
            EmitterKind::Burst => burst(inst, command, x, &base, &mut out),
            EmitterKind::Stream => stream(inst, command, x, &base, &mut out),
            EmitterKind::Bolt => bolt(inst, command, x, &base, &mut out),
            EmitterKind::Light => out.extend(light(inst, command, x, base)),
            EmitterKind::Sound => {}
        }
    }
    out
}

/// An emitter-local point in the world.
fn place(inst: &FxInstance, local: [f32; 3]) -> Vec3 {
    inst.frame.transform_point(node_to_bevy(local) * inst.scale)
}

/// A billboard's size: the channel's first two axes times the effect's.
fn quad(inst: &FxInstance, size: [f32; 3]) -> Vec2 {
    Vec2::new(size[0], size[1]).abs() * inst.scale
}

fn sprite(inst: &FxInstance, c: &Command, x: f32, base: Primitive) -> Option<Primitive> {
    let alpha = c.fade()?.at(x);
    if alpha <= 0.0 {
        return None;
    }
    let phase = c.phase()?;
    // A negative start clocks the phase in seconds since the start.
    let (start, along) = if phase.from < 0.0 {
        (0.0, inst.age_s())
    } else {
        (phase.from, x)
    };
    let ramp = iron3d_formats::fxid::emitter::Ramp {
        from: start,
        ..phase
    };
    Some(Primitive {
        position: place(inst, c.position_channel()?.at(x, [0.0; 3])),
        size: quad(inst, c.size_channel()?.at(x, [0.0; 3])),
        alpha: alpha.min(1.0),
        phase: ramp.at_unclamped(along).fract(),
        ..base
    })
}

/// A particle's jitter of a channel's high end.
fn jitter(rng: &mut HouseRng, spread: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|i| rng.spread(spread[i]))
}

/// One particle at `age` (0..1 of its life): its place, size, fade and
/// phase, jittered by generator `rng`.
fn particle(
    inst: &FxInstance,
    c: &Command,
    age: f32,
    rng: &mut HouseRng,
    base: &Primitive,
) -> Option<Primitive> {
    let (position, size) = (c.position_channel()?, c.size_channel()?);
    let (shift_p, shift_s) = (jitter(rng, position.jitter), jitter(rng, size.jitter));
    let alpha = c.fade()?.at(age);
    if alpha <= 0.0 {
        return None;
    }
    let rate = c.particle_phase()?;
    let phase = match rate {
        r if r < 0.0 => 0.0,
        r if r <= 1.0 && r > 0.0 => (age / r).min(0.99),
        r if c.emitter() == Some(EmitterKind::Stream) => age.powf(r).min(0.99),
        r => (age * r).fract(),
    };
    Some(Primitive {
        position: place(inst, position.at(age, shift_p)),
        size: quad(inst, size.at(age, shift_s)),
        alpha: alpha.min(1.0),
        phase,
        ..base.clone()
    })
}

/// A particle's generator: the instance's seed, its command and number.
fn particle_rng(inst: &FxInstance, command: usize, number: u64) -> HouseRng {
    let mix =
        (command as u32).wrapping_mul(0x9E37_79B9) ^ (number as u32).wrapping_mul(0x85EB_CA6B);
    let mut rng = HouseRng::new((inst.seed ^ mix) | 1);
    rng.next16();
    rng
}

fn burst(inst: &FxInstance, c: &Command, x: f32, base: &Primitive, out: &mut Vec<Primitive>) {
    let (Some((a, b)), Some(life)) = (c.burst_count(), c.burst_life()) else {
        return;
    };
    let count = a.saturating_mul(b).min(MAX_PARTICLES);
    // STAND-IN: every particle leaves at the window's start (docs/11
    // "Bolts, streams and fades" gives a life, not a spawn schedule);
    // settled by reading the burst's spawn in the effect manager.
    let age = if life > 0.0 { x / life } else { 1.0 };
    if age > 1.0 {
        return;
    }
    for n in 0..count {
        let mut rng = particle_rng(inst, base.command, u64::from(n));
        out.extend(particle(inst, c, age, &mut rng, base));
    }
}

fn stream(inst: &FxInstance, c: &Command, x: f32, base: &Primitive, out: &mut Vec<Primitive>) {
    let (Some((interval, ring)), Some((low, _))) = (c.stream(), c.window()) else {
        return;
    };
    let every = interval.at(x);
    let ring = ring.clamp(1, MAX_PARTICLES);
    if every <= 0.0 {
        return;
    }
    // Seconds since the window opened.
    let duration = inst.template.header.duration_seconds.max(0.0);
    let since = ((inst.t - low) * duration).max(0.0);
    let last = (since / every).floor() as u64;
    let life = every * ring as f32;
    // STAND-IN: every particle stands at the effect's current place (the
    // engine spaces them along the path it moved, docs/11 "Bolts, streams
    // and fades"); settled by keeping each particle's spawn place.
    for number in last.saturating_sub(u64::from(ring) - 1)..=last {
        let age = (since - number as f32 * every) / life;
        let mut rng = particle_rng(inst, base.command, number);
        out.extend(particle(inst, c, age, &mut rng, base));
    }
}

fn bolt(inst: &FxInstance, c: &Command, x: f32, base: &Primitive, out: &mut Vec<Primitive>) {
    let (Some((most, segment, width)), Some(fade)) = (c.bolt(), c.fade()) else {
        return;
    };
    let alpha = fade.at(x);
    if alpha <= 0.0 {
        return;
    }
    // STAND-IN: a bolt starts where its effect was at its first update (the
    // engine's target point of flag `0x1000` is not handed over yet, docs/11
    // "Bolts, streams and fades"); settled by handing over that point.
    let (from, to) = (inst.origin, inst.frame.translation);
    let length = from.distance(to);
    let count = if segment > 0.0 {
        ((length / segment).floor() as u32).clamp(1, most.max(1))
    } else {
        1
    };
    let axis = (to - from)
        .try_normalize()
        .unwrap_or(inst.frame.rotation * Vec3::X);
    let piece = (length / count as f32).max(width.at(x));
    for i in 0..count {
        let middle = from.lerp(to, (i as f32 + 0.5) / count as f32);
        out.push(Primitive {
            kind: PrimitiveKind::Beam,
            position: middle,
            size: Vec2::new(piece, width.at(x) * inst.scale),
            axis,
            alpha: alpha.min(1.0),
            ..base.clone()
        });
    }
}

fn light(inst: &FxInstance, c: &Command, x: f32, base: Primitive) -> Option<Primitive> {
    let light = c.light()?;
    let lerp3 = |(a, b): ([f32; 3], [f32; 3])| -> [f32; 3] {
        std::array::from_fn(|i| a[i] + (b[i] - a[i]) * x)
    };
    let (from, to) = light.colour;
    Some(Primitive {
        kind: PrimitiveKind::Light,
        material: None,
        position: place(inst, lerp3(light.position)),
        colour: std::array::from_fn(|i| from[i] + (to[i] - from[i]) * x),
        range: (light.range.0 + (light.range.1 - light.range.0) * x).max(0.01) * inst.scale,
        light_kind: light.kind,
        attenuation: light.attenuation,
        ..base
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::instance;
    use iron3d_combat::EffectCue;
    use iron3d_formats::fixed::ResourceRef;
    use iron3d_formats::fxid::{FxHeader, Fxid};
    use std::sync::Arc;

    /// A one-second effect: a sprite over the first half, a burst of 8
    /// jittered particles over the whole.
    fn effect() -> Arc<Fxid> {
        let mat = ResourceRef::new(b"Material.lib", b"M_FIRE").unwrap();
        let mut sprite = Command::new(3, false).unwrap();
        for (at, v) in [
            (12, 1.0),
            (16, 1.0),
            (20, 1.0),
            (28, 1.0),
            (36, 0.5),
            (76, 1.0),
        ] {
            sprite.set_f32(at, v);
        }
        sprite.set_triple(52, [0.0, 0.0, 4.0]);
        sprite.set_triple(64, [1.0; 3]);
        sprite.set_triple(100, [1.0; 3]);
        sprite.set_triple(112, [3.0; 3]);
        sprite.set_triple(124, [1.0; 3]);
        sprite.set_resource(&mat).unwrap();
        let mut burst = Command::new(7, false).unwrap();
        for (at, v) in [(8, 1.0), (16, 1.0), (24, 1.0), (28, 1.0), (32, 1.0)] {
            burst.set_f32(at, v);
        }
        burst.body[32..36].copy_from_slice(&8u32.to_le_bytes());
        burst.body[36..40].copy_from_slice(&1u32.to_le_bytes());
        burst.set_triple(56, [0.0, 0.0, 1.0]);
        burst.set_triple(68, [2.0; 3]);
        burst.set_triple(80, [1.0; 3]);
        burst.set_triple(104, [1.0; 3]);
        burst.set_triple(128, [1.0; 3]);
        burst.set_resource(&mat).unwrap();
        Arc::new(Fxid {
            header: FxHeader {
                command_count: 2,
                time_mode: 1,
                duration_seconds: 1.0,
                ..FxHeader::default()
            },
            commands: vec![sprite, burst],
        })
    }

    fn at(seed: u64, t: f32) -> FxInstance {
        let cue = EffectCue {
            effect: "EFFECTS.RLB::TEST".into(),
            at: Vec3::new(1.0, 2.0, 3.0),
            rotation: Quat::IDENTITY,
            scale: 1.0,
            on: None,
            node: None,
        };
        let mut inst = instance(0, &cue, effect(), 0, seed, None);
        inst.t = t;
        inst
    }

    #[test]
    fn the_same_seed_emits_the_same_primitives_and_another_seed_other_ones() {
        let a = emit(&at(5, 0.25));
        assert_eq!(a, emit(&at(5, 0.25)));
        // One sprite and eight particles, in command order.
        assert_eq!(a.len(), 9);
        assert_eq!(a[0].command, 0);
        assert!(a[1..].iter().all(|p| p.command == 1));
        let b = emit(&at(6, 0.25));
        assert_eq!(a[0], b[0], "the sprite draws nothing random");
        assert_ne!(a[1..], b[1..], "another seed jitters other particles");
    }

    #[test]
    fn a_sprite_moves_grows_and_fades_over_its_window_only() {
        let half = emit(&at(1, 0.25));
        let sprite = &half[0];
        // Half-way through its window [0, 0.5]: 2 m up (Z up is Bevy +Y),
        // twice its size, half faded.
        assert!((sprite.position - Vec3::new(1.0, 4.0, 3.0)).length() < 1e-5);
        assert_eq!(sprite.size, Vec2::splat(2.0));
        assert!((sprite.alpha - 0.5).abs() < 1e-6);
        assert!((sprite.phase - 0.5).abs() < 1e-6);
        // Past its window only the burst draws.
        assert!(emit(&at(1, 0.75)).iter().all(|p| p.command == 1));
    }
}
