//! FXID effects of `effects.rlb`: every opcode 1..=10 is used, and every
//! family of resource reference: sounds (opcode 2 -> `sounds.lib`),
//! materials (opcodes 3, 5, 7, 9, 10 -> `Material.lib`), a sprite (opcode 4
//! -> `sprites.lib`) and a model (opcode 8 -> `static.rlb`).

use iron3d_formats::error::Result;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command, FxHeader, Fxid};

/// NRes attributes retail effects carry (attr1, attr2, attr3).
pub const ATTRS: (u32, u32, u32) = (0, 0, 1);

/// One command: opcode, optional `(archive, name)` reference, and f32
/// fields written at their offsets from the command word.
struct Cmd<'a> {
    opcode: u8,
    target: Option<(&'a str, &'a str)>,
    floats: &'a [(usize, f32)],
}

fn command(c: &Cmd) -> Result<Command> {
    let mut out = Command::new(c.opcode, true)?;
    for &(at, v) in c.floats {
        out.body[at - 4..at].copy_from_slice(&v.to_le_bytes());
    }
    if let Some((archive, name)) = c.target {
        out.set_resource(&ResourceRef::new(archive.as_bytes(), name.as_bytes())?)?;
    }
    Ok(out)
}

fn effect(time_mode: u32, duration: f32, flags: u32, cmds: &[Cmd]) -> Result<Vec<u8>> {
    Fxid {
        header: FxHeader {
            command_count: cmds.len() as u32,
            time_mode,
            duration_seconds: duration,
            flags,
            ..FxHeader::default()
        },
        commands: cmds.iter().map(command).collect::<Result<_>>()?,
    }
    .to_bytes()
}

/// The effects: `(name, payload)`. Names are the registry's `effects.rlb`
/// references.
pub fn effects(model_archive: &str, debris_model: &str) -> Result<Vec<(String, Vec<u8>)>> {
    const MAT: &str = "Material.lib";
    const SND: &str = "sounds.lib";
    // t_start, t_end of opcodes 1 and 2; active window of 3/4/9.
    let window: &[(usize, f32)] = &[(12, 1.0)];
    let sweep: &[(usize, f32)] = &[(8, 0.0), (12, 1.0), (36, 1.0)];
    Ok(vec![
        (
            "FX_LASER".into(),
            effect(
                1,
                0.4,
                0x2,
                &[
                    Cmd {
                        opcode: 2,
                        target: Some((SND, "LASER.WAV")),
                        floats: window,
                    },
                    Cmd {
                        opcode: 3,
                        target: Some((MAT, "M_LASER")),
                        floats: sweep,
                    },
                    Cmd {
                        opcode: 9,
                        target: Some((MAT, "M_LASER")),
                        floats: sweep,
                    },
                    Cmd {
                        opcode: 6,
                        target: None,
                        floats: &[],
                    },
                ],
            )?,
        ),
        (
            "FX_CANNON".into(),
            effect(
                1,
                0.6,
                0x2,
                &[
                    Cmd {
                        opcode: 2,
                        target: Some((SND, "SHOT.WAV")),
                        floats: window,
                    },
                    Cmd {
                        opcode: 7,
                        target: Some((MAT, "M_SMOKE")),
                        floats: &[(12, 1.0), (24, 1.0)],
                    },
                    Cmd {
                        opcode: 5,
                        target: Some((MAT, "M_SMOKE")),
                        floats: &[(24, 1.0), (28, 1.0)],
                    },
                    Cmd {
                        opcode: 10,
                        target: Some((MAT, "M_FIRE")),
                        floats: &[(12, 1.0), (24, 1.0)],
                    },
                ],
            )?,
        ),
        (
            "FX_EXPLODE".into(),
            effect(
                1,
                1.5,
                0x2 | 0x200,
                &[
                    Cmd {
                        opcode: 2,
                        target: Some((SND, "EXPLODE.WAV")),
                        floats: window,
                    },
                    Cmd {
                        opcode: 4,
                        target: Some(("sprites.lib", "SPARK.TEX")),
                        floats: &[(36, 1.0), (200, 1.0)],
                    },
                    Cmd {
                        opcode: 8,
                        target: Some((model_archive, debris_model)),
                        floats: &[(12, 1.0), (20, 1.0)],
                    },
                    Cmd {
                        opcode: 7,
                        target: Some((MAT, "M_FIRE")),
                        floats: &[(12, 1.0), (24, 1.0)],
                    },
                ],
            )?,
        ),
        (
            "FX_ENGINE".into(),
            effect(
                2,
                2.0,
                0,
                &[Cmd {
                    opcode: 2,
                    target: Some((SND, "ENGINE.WAV")),
                    floats: window,
                }],
            )?,
        ),
        (
            "FX_SUN".into(),
            effect(
                0,
                900.0,
                0x80,
                &[
                    Cmd {
                        opcode: 1,
                        target: None,
                        floats: &[(12, 1.0), (124, 1.0), (128, 0.9), (132, 0.7)],
                    },
                    Cmd {
                        opcode: 3,
                        target: Some((MAT, "M_GLASS")),
                        floats: sweep,
                    },
                ],
            )?,
        ),
    ])
}
