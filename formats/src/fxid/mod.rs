//! FXID effects (type id `0x44495846`): a 60-byte header and a stream of
//! fixed-size commands from offset `0x3C` (tome V, "FXID").
//!
//! Each command starts with a u32 word: opcode = bits 0..7, enabled = bit 8,
//! bits 9..31 are data and kept. The opcode only selects the size; an
//! unknown opcode is rejected (guessing a length would desynchronise the
//! stream). Bodies are kept raw. Opcodes 2..5 and 7..10 carry one
//! `{archive[32], name[32]}` reference at a fixed offset inside the command
//! (offsets measured by openparkan on all 923 retail effects: every block
//! ends where its pair begins or 4/8 bytes after it).

pub mod emitter;

use crate::archive::open::with_nres_entry;
use crate::cursor::{Cursor, put_f32s};
use crate::error::{FormatError, Problem, Result};
use crate::fixed::ResourceRef;
use crate::mat0::check_type;
use std::path::Path;

/// NRes type id of an FXID entry.
pub const FXID_TYPE_ID: u32 = 0x4449_5846;
/// Size of the header; the command stream starts here.
pub const HEADER_SIZE: usize = 0x3C;

const FORMAT: &str = "FXID";

/// Size of a command (word included) for opcodes 1..=10 (tome V).
pub fn command_size(opcode: u8) -> Option<usize> {
    Some(match opcode {
        1 => 224,
        2 => 148,
        3 => 200,
        4 => 204,
        5 => 112,
        6 => 4,
        7 => 208,
        8 => 248,
        9 => 208,
        10 => 208,
        _ => return None,
    })
}

/// Offset of the resource reference inside a command (from the command
/// word), for the opcodes that carry one.
pub fn resource_offset(opcode: u8) -> Option<usize> {
    Some(match opcode {
        2 => 84,
        3 | 4 | 9 => 136,
        5 => 48,
        7 | 10 => 144,
        8 => 184,
        _ => return None,
    })
}

/// The 60-byte header; every field kept.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FxHeader {
    /// Stored count; the writer stores the number of commands instead.
    pub command_count: u32,
    pub time_mode: u32,
    pub duration_seconds: f32,
    pub phase_jitter: f32,
    pub flags: u32,
    pub settings_id: u32,
    pub random_shift: [f32; 3],
    pub pivot: [f32; 3],
    pub scale: [f32; 3],
}

impl Default for FxHeader {
    fn default() -> Self {
        Self {
            command_count: 0,
            time_mode: 0,
            duration_seconds: 0.0,
            phase_jitter: 0.0,
            flags: 0,
            settings_id: 0,
            random_shift: [0.0; 3],
            pivot: [0.0; 3],
            scale: [1.0; 3],
        }
    }
}

/// One command: the word and the raw bytes after it (`size - 4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub word: u32,
    pub body: Vec<u8>,
}

impl Command {
    /// A zero-filled command of `opcode` (size from tome V).
    pub fn new(opcode: u8, enabled: bool) -> Result<Self> {
        let size = command_size(opcode).ok_or_else(|| unknown_opcode(0, opcode))?;
        Ok(Self {
            word: opcode as u32 | (enabled as u32) << 8,
            body: vec![0; size - 4],
        })
    }

    /// Opcode, bits 0..7 of the word.
    pub fn opcode(&self) -> u8 {
        (self.word & 0xFF) as u8
    }

    /// Enabled flag, bit 8 of the word.
    pub fn enabled(&self) -> bool {
        self.word >> 8 & 1 != 0
    }

    /// Size on disk, word included.
    pub fn size(&self) -> usize {
        4 + self.body.len()
    }

    /// The resource reference of opcodes 2..5 and 7..10.
    pub fn resource(&self) -> Option<ResourceRef> {
        let at = resource_offset(self.opcode())?.checked_sub(4)?;
        let bytes: &[u8; 64] = self.body.get(at..at + 64)?.try_into().ok()?;
        Some(ResourceRef::from_bytes(bytes))
    }

    /// Sets the resource reference; fails for opcodes without one.
    pub fn set_resource(&mut self, r: &ResourceRef) -> Result<()> {
        let at = resource_offset(self.opcode())
            .and_then(|o| o.checked_sub(4))
            .filter(|&at| at + 64 <= self.body.len())
            .ok_or_else(|| {
                FormatError::invalid(
                    FORMAT,
                    0,
                    "an opcode with a resource (2-5, 7-10)",
                    self.opcode(),
                )
            })?;
        let mut bytes = Vec::with_capacity(64);
        r.write(&mut bytes);
        self.body[at..at + 64].copy_from_slice(&bytes);
        Ok(())
    }
}

fn unknown_opcode(offset: usize, opcode: u8) -> FormatError {
    FormatError::new(
        FORMAT,
        offset as u64,
        Problem::Unsupported {
            what: format!("command opcode {opcode} (known: 1-10)"),
        },
    )
}

/// A parsed effect (the default: no commands, a zero header).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fxid {
    pub header: FxHeader,
    pub commands: Vec<Command>,
}

impl Fxid {
    /// Parses an FXID payload: header, exactly `command_count` commands, end.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let header = FxHeader {
            command_count: c.u32()?,
            time_mode: c.u32()?,
            duration_seconds: c.f32()?,
            phase_jitter: c.f32()?,
            flags: c.u32()?,
            settings_id: c.u32()?,
            random_shift: c.f32s()?,
            pivot: c.f32s()?,
            scale: c.f32s()?,
        };
        // The smallest command is 4 bytes: that bounds the count.
        let count = c.checked_count(header.command_count as u64, 4, "commands")?;
        let mut commands = Vec::with_capacity(count);
        for _ in 0..count {
            let at = c.pos();
            let word = c.u32()?;
            let opcode = (word & 0xFF) as u8;
            let size = command_size(opcode).ok_or_else(|| unknown_opcode(at, opcode))?;
            let body = c.bytes(size - 4)?.to_vec();
            commands.push(Command { word, body });
        }
        c.expect_end()?;
        Ok(Self { header, commands })
    }

    /// Writes the effect; `command_count` is derived from the command list.
    /// Byte-identical for an unmodified parse.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let count = u32::try_from(self.commands.len()).map_err(|_| {
            FormatError::invalid(FORMAT, 0, "a u32 command count", self.commands.len())
        })?;
        let mut out = Vec::with_capacity(
            HEADER_SIZE + self.commands.iter().map(Command::size).sum::<usize>(),
        );
        let h = &self.header;
        out.extend(count.to_le_bytes());
        out.extend(h.time_mode.to_le_bytes());
        out.extend(h.duration_seconds.to_le_bytes());
        out.extend(h.phase_jitter.to_le_bytes());
        out.extend(h.flags.to_le_bytes());
        out.extend(h.settings_id.to_le_bytes());
        put_f32s(&mut out, &h.random_shift);
        put_f32s(&mut out, &h.pivot);
        put_f32s(&mut out, &h.scale);
        for (i, cmd) in self.commands.iter().enumerate() {
            if command_size(cmd.opcode()) != Some(cmd.size()) {
                return Err(FormatError::invalid(
                    FORMAT,
                    out.len() as u64,
                    format!("command {i}: the size of opcode {}", cmd.opcode()),
                    format!("{} bytes", cmd.size()),
                ));
            }
            out.extend(cmd.word.to_le_bytes());
            out.extend_from_slice(&cmd.body);
        }
        Ok(out)
    }
}

/// One command as shown by `effect info`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CommandInfo {
    pub index: usize,
    pub offset: usize,
    pub opcode: u8,
    pub enabled: bool,
    pub word: u32,
    pub size: usize,
    pub resource: Option<ResourceRef>,
}

/// What `iron3d effect info` prints.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EffectInfo {
    pub archive: String,
    pub entry: usize,
    pub name: String,
    pub size: usize,
    pub header: FxHeader,
    pub commands: Vec<CommandInfo>,
}

impl EffectInfo {
    /// The report of a parsed effect.
    pub fn new(archive: String, entry: usize, name: String, fx: &Fxid) -> Self {
        let mut offset = HEADER_SIZE;
        let commands = fx
            .commands
            .iter()
            .enumerate()
            .map(|(index, c)| {
                let info = CommandInfo {
                    index,
                    offset,
                    opcode: c.opcode(),
                    enabled: c.enabled(),
                    word: c.word,
                    size: c.size(),
                    resource: c.resource(),
                };
                offset += c.size();
                info
            })
            .collect();
        Self {
            archive,
            entry,
            name,
            size: offset,
            header: fx.header.clone(),
            commands,
        }
    }
}

/// `effect info`: the FXID entry `entry` (ASCII case-insensitive) of the NRes
/// archive at `archive`.
pub fn effect_info(archive: &Path, entry: &str) -> Result<EffectInfo> {
    with_nres_entry(archive, entry, |nres, index, payload| {
        let e = &nres.entries()[index];
        check_type(e.type_id, FXID_TYPE_ID, FORMAT)?;
        let fx = Fxid::parse(payload)?;
        Ok(EffectInfo::new(
            archive.display().to_string(),
            index,
            e.display_name(),
            &fx,
        ))
    })
}
