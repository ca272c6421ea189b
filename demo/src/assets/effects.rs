//! FXID effects of `effects.rlb`, in the field layout openparkan measured on
//! the retail library (`docs/11-effects.md`; the views of
//! `iron3d_formats::fxid::emitter`): every opcode 1..=10 is used, sounds
//! name `sounds.lib` and every drawing emitter a `Material.lib` entry.
//!
//! - `FX_LASER`, `FX_CANNON`: muzzle effects (the guns' prototypes name
//!   them), once through and deleted at the end, in the "Gun fire" switch.
//! - `FX_EXPLODE`: the shells' and nodes' explosions (their `.exp` slot 0),
//!   let go of where they went off (flags `0x2 | 0x4 | 0x10`, as retail
//!   explosions); `FX_SPARK`: where a laser strikes or ends.
//! - `FX_ENGINE`: a looping engine hum; `FX_SUN`: a light and a glow.
//! - `FX_BURN`: a critically damaged machine's fire, smoke and glow (its
//!   chassis controller makes it switched off at load and switches it on
//!   at critical damage), growing as the machine burns down (time mode
//!   14, one minus its life) and flickering (flag `0x1`, spread 0.1), as
//!   the retail `smoke_fr_01` family.

use iron3d_formats::error::Result;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command, FxHeader, Fxid};

/// NRes attributes retail effects carry (attr1, attr2, attr3).
pub const ATTRS: (u32, u32, u32) = (0, 0, 1);

const MAT: &str = "Material.lib";
const SND: &str = "sounds.lib";

/// Header flags (openparkan `docs/11-effects.md`, "How an effect runs").
const JITTER: u32 = 0x1;
const DELETE_AT_END: u32 = 0x2;
const LET_GO: u32 = 0x4;
const RUNS_HIDDEN: u32 = 0x10;
const STARTS_OFF: u32 = 0x40;
/// Settings switches: "Gun fire", "Explode", "Engine fire", "Lights".
const GUN_FIRE: u32 = 0x312;
const EXPLODE: u32 = 0x311;
const ENGINE_FIRE: u32 = 0x20c;
const LIGHTS: u32 = 0x005;

/// A field value written at its offset from the command word.
#[derive(Clone, Copy)]
enum Field {
    F(usize, f32),
    T(usize, [f32; 3]),
    U(usize, u32),
}
use Field::{F, T, U};

fn command(opcode: u8, target: Option<(&str, &str)>, fields: &[Field]) -> Result<Command> {
    let mut out = Command::new(opcode, false)?;
    for &field in fields {
        match field {
            F(at, v) => out.set_f32(at, v),
            T(at, v) => out.set_triple(at, v),
            U(at, v) => {
                out.body[at - 4..at].copy_from_slice(&v.to_le_bytes());
                true
            }
        };
    }
    if let Some((archive, name)) = target {
        out.set_resource(&ResourceRef::new(archive.as_bytes(), name.as_bytes())?)?;
    }
    Ok(out)
}

/// A one-shot sound triggered as `t` passes `trigger`.
fn sound(name: &str, trigger: f32, near: f32, far: f32) -> Result<Command> {
    command(
        2,
        Some((SND, name)),
        &[
            F(8, trigger),
            F(12, 1.0),
            F(64, near),
            F(68, far),
            F(72, 1.0),
            F(76, 1.0),
        ],
    )
}

/// A sprite over `window` that grows from `size.0` to `size.1`, rises to
/// `rise` and fades out, one pass through its material's animation.
fn sprite(
    opcode: u8,
    material: &str,
    window: (f32, f32),
    size: (f32, f32),
    rise: [f32; 3],
) -> Result<Command> {
    fading_sprite(opcode, material, window, size, rise, 0.0)
}

/// [`sprite`] with its fade ending at `fade_to` instead of 0.
fn fading_sprite(
    opcode: u8,
    material: &str,
    window: (f32, f32),
    size: (f32, f32),
    rise: [f32; 3],
    fade_to: f32,
) -> Result<Command> {
    command(
        opcode,
        Some((MAT, material)),
        &[
            F(8, 0.0),
            F(12, 1.0),
            F(16, 1.0),
            F(20, 1.0),
            F(24, fade_to),
            F(28, 1.0),
            F(32, window.0),
            F(36, window.1),
            T(52, rise),
            T(64, [1.0; 3]),
            T(100, [size.0; 3]),
            T(112, [size.1; 3]),
            T(124, [1.0; 3]),
        ],
    )
}

/// A burst of `count` particles flung out to `reach` and growing to `size`.
fn burst(opcode: u8, material: &str, count: u32, reach: f32, size: f32) -> Result<Command> {
    command(
        opcode,
        Some((MAT, material)),
        &[
            F(8, 1.0),
            F(12, 0.0),
            F(16, 1.0),
            F(20, 0.0),
            F(24, 1.0),
            F(28, 0.7),
            F(32, 1.0),
            U(36, count),
            U(40, 1),
            T(56, [0.0, 0.0, reach * 0.5]),
            T(68, [reach; 3]),
            T(80, [1.0; 3]),
            T(92, [size * 0.3; 3]),
            T(104, [size; 3]),
            T(116, [size * 0.5; 3]),
            T(128, [0.5, 1.0, 1.0]),
        ],
    )
}

/// A light of `colour` fading to black over `window`, its range from
/// `range.0` to `range.1`.
fn light(colour: [f32; 3], window: (f32, f32), range: (f32, f32)) -> Result<Command> {
    let [r, g, b] = colour;
    command(
        1,
        None,
        &[
            U(4, 5),
            F(8, window.0),
            F(12, window.1),
            T(52, [1.0, 0.0, 0.0]),
            F(64, r),
            F(68, g),
            F(72, b),
            F(76, 1.0),
            F(92, 1.0),
            F(112, range.0),
            F(116, range.1),
            T(124, [0.0, 1.0, 0.0]),
        ],
    )
}

fn effect(
    time_mode: u32,
    duration: f32,
    flags: u32,
    settings: u32,
    commands: Vec<Command>,
) -> Result<Vec<u8>> {
    jittered_effect(time_mode, duration, (flags, 0.0), settings, commands)
}

/// [`effect`] with its jitter spread (`+0xc`, read under flag `0x1`).
fn jittered_effect(
    time_mode: u32,
    duration: f32,
    (flags, spread): (u32, f32),
    settings: u32,
    commands: Vec<Command>,
) -> Result<Vec<u8>> {
    Fxid {
        header: FxHeader {
            command_count: commands.len() as u32,
            time_mode,
            duration_seconds: duration,
            phase_jitter: spread,
            flags,
            settings_id: settings,
            ..FxHeader::default()
        },
        commands,
    }
    .to_bytes()
}

/// The effects: `(name, payload)`. Names are the registry's `effects.rlb`
/// references.
pub fn effects() -> Result<Vec<(String, Vec<u8>)>> {
    let laser_bolt = command(
        5,
        Some((MAT, "M_LASER")),
        &[
            F(4, 1.0),
            F(8, 0.0),
            F(12, 0.0),
            F(16, 1.0),
            U(20, 20),
            F(24, 0.4),
            F(28, 0.4),
            F(32, 5.0),
            F(36, 50.0),
            F(40, -1.0),
            F(44, 9.0),
        ],
    )?;
    let smoke_trail = command(
        8,
        Some((MAT, "M_SMOKE")),
        &[
            F(4, 0.8),
            F(8, 0.0),
            F(12, 1.0),
            F(16, 0.0),
            F(20, 0.8),
            F(24, 0.08),
            F(28, 0.05),
            F(32, 1.0),
            U(36, 10),
            T(100, [0.0, 0.0, 2.0]),
            T(112, [1.0; 3]),
            T(124, [1.0; 3]),
            T(136, [0.5; 3]),
            T(148, [2.0; 3]),
            T(172, [1.0; 3]),
        ],
    )?;
    Ok(vec![
        (
            "FX_LASER".into(),
            effect(
                1,
                0.4,
                DELETE_AT_END,
                GUN_FIRE,
                vec![
                    sound("LASER.WAV", 0.0, 10.0, 100.0)?,
                    sprite(3, "M_LASER", (0.0, 0.5), (0.6, 1.2), [0.5, 0.0, 0.0])?,
                    sprite(9, "M_LASER", (0.5, 1.0), (1.2, 0.2), [0.5, 0.0, 0.0])?,
                    laser_bolt,
                    light([3.0, 1.0, 0.5], (0.0, 0.5), (20.0, 3.0))?,
                    Command::new(6, false)?,
                ],
            )?,
        ),
        (
            "FX_CANNON".into(),
            effect(
                1,
                0.6,
                DELETE_AT_END,
                GUN_FIRE,
                vec![
                    sound("SHOT.WAV", 0.0, 10.0, 150.0)?,
                    sprite(3, "M_FIRE", (0.01, 0.5), (0.8, 1.6), [0.6, 0.0, 0.0])?,
                    burst(7, "M_SMOKE", 6, 1.5, 1.5)?,
                    light([2.0, 1.0, 0.0], (0.0, 0.3), (30.0, 3.0))?,
                ],
            )?,
        ),
        (
            "FX_EXPLODE".into(),
            effect(
                1,
                1.5,
                DELETE_AT_END | LET_GO | RUNS_HIDDEN,
                EXPLODE,
                vec![
                    sound("EXPLODE.WAV", 0.0, 20.0, 200.0)?,
                    sprite(4, "M_FIRE", (0.0, 0.6), (2.0, 4.0), [0.0, 0.0, 0.5])?,
                    burst(7, "M_FIRE", 10, 2.0, 1.2)?,
                    burst(10, "M_SMOKE", 8, 3.0, 2.5)?,
                    smoke_trail,
                    light([3.0, 2.0, 0.0], (0.0, 0.4), (40.0, 5.0))?,
                ],
            )?,
        ),
        (
            "FX_SPARK".into(),
            effect(
                1,
                0.5,
                DELETE_AT_END | LET_GO | RUNS_HIDDEN,
                EXPLODE,
                vec![
                    sprite(3, "M_LASER", (0.0, 0.6), (0.5, 1.5), [0.0; 3])?,
                    burst(10, "M_FIRE", 6, 1.0, 0.4)?,
                ],
            )?,
        ),
        (
            "FX_ENGINE".into(),
            effect(
                2,
                2.0,
                0,
                ENGINE_FIRE,
                vec![command(
                    2,
                    Some((SND, "ENGINE.WAV")),
                    &[
                        U(4, 2),
                        F(12, 1.0),
                        F(64, 3.0),
                        F(68, 40.0),
                        F(72, 1.0),
                        F(76, 1.0),
                    ],
                )?],
            )?,
        ),
        // A foot's step (as the retail `step_*`): time held at 0 until the
        // landing foot starts it once through; its thud at t = 0.1.
        (
            "FX_STEP".into(),
            effect(0, 0.5, 0, 0, vec![sound("STEP.WAV", 0.1, 2.0, 60.0)?])?,
        ),
        (
            "FX_BURN".into(),
            jittered_effect(
                14,
                1.0,
                (JITTER | RUNS_HIDDEN | STARTS_OFF, 0.1),
                EXPLODE,
                vec![
                    fading_sprite(3, "M_FIRE", (0.8, 1.0), (0.8, 2.4), [0.0, 0.0, 0.4], 1.0)?,
                    fading_sprite(9, "M_SMOKE", (0.8, 1.0), (1.5, 5.0), [0.0, 0.0, 3.0], 0.5)?,
                    light([2.0, 0.9, 0.3], (0.85, 1.0), (6.0, 14.0))?,
                ],
            )?,
        ),
        (
            "FX_SUN".into(),
            effect(
                0,
                900.0,
                0x80,
                LIGHTS,
                vec![
                    light([0.9, 0.8, 0.6], (0.0, 1.0), (2000.0, 2000.0))?,
                    sprite(3, "M_GLASS", (0.0, 1.0), (20.0, 20.0), [0.0; 3])?,
                ],
            )?,
        ),
    ])
}
