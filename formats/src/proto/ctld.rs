//! CTLD (`*.ctl`): a controller, a count-driven compound format (tome VI
//! "CTLD и physical resources"; section layout from GAMEPLAY.md section 10,
//! measured by openparkan on all 531 Part 1 payloads).
//!
//! ```text
//! i32 counts[5]                 A, B, C, D, E
//! u32 params[27]                the controller's parameter block (floats and ints)
//! section 1: A states of (156 + 16 * B) bytes, then A * A f32 costs
//! section 2: C channels of 36 bytes
//! section 4: D components: 172 fixed bytes; i32 N; i32 entries[N]; i32 L; char label[L + 1] if L != 0
//! u8 group_block[84]            21 section-5 group indices
//! section 5: E groups: i32 n; n actions of 100 bytes
//! ```
//!
//! Records whose fields are not all proven are kept raw; the writer derives
//! only the counts (the contact count B is kept, as no state may carry it).

use super::{count_i32, read_count};
use crate::cursor::Cursor;
use crate::error::{FormatError, Result};
use crate::fixed::ResourceRef;

const FORMAT: &str = "CTLD";
/// NRes type id of a controller (`"CTLD"`).
pub const CTLD_TYPE_ID: u32 = u32::from_le_bytes(*b"CTLD");
/// Fixed bytes of a state before its contacts.
pub const STATE_BASE: usize = 156;
/// Bytes of one contact inside a state.
pub const CONTACT_SIZE: usize = 16;
/// The state flag (word `+4` of a state) of a body held on the ground by
/// its contact points.
pub const STATE_GROUND_CONTACT: u32 = 0x4;
/// Bytes of one channel.
pub const CHANNEL_SIZE: usize = 36;
/// Fixed bytes of a component record.
pub const COMPONENT_FIXED: usize = 0xAC;
/// Bytes of the group index block.
pub const GROUP_BLOCK_SIZE: usize = 84;
/// Bytes of one action record.
pub const ACTION_SIZE: usize = 100;

/// A component record (section 4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The fixed 172 bytes, raw (see the accessors).
    pub fixed: Vec<u8>,
    /// Section-2 channel indices the component drives.
    pub entries: Vec<i32>,
    /// The stored label length `L`.
    pub label_len: i32,
    /// `L + 1` raw label bytes when `L != 0`, else empty.
    pub label: Vec<u8>,
}

/// The component class of an engine (`CICLS_` 5): value 0 is its drive
/// (openparkan `docs/13-control.md`, "The component record").
pub const CLASS_ENGINE: u32 = 5;
/// The component class of a radar (`CICLS_RADAR` 8): values 0-2 its
/// sensitivities to mass, electronics and drive, 3 its range, 4 how long a
/// scan stays good in ms (openparkan `docs/25-sensors.md`, "A radar is five
/// values").
pub const CLASS_RADAR: u32 = 8;
/// The component class of a fight shield (9): value 0 a sector's maximum,
/// 1 the points it recharges a second, 2 the charge a point costs; it
/// holds six sectors (openparkan `docs/26-damage.md`, "Shields").
pub const CLASS_FIGHT_SHIELD: u32 = 9;
/// The component class of a deflector (21): value `i` is how much of
/// shield sector `i` stops damage, and what a stopped point costs it
/// (`docs/26-damage.md`, "Shields").
pub const CLASS_DEFLECTOR: u32 = 21;
/// How many sectors a shield holds: a deflector's values 0-5 are theirs.
pub const SHIELD_SECTORS: usize = 6;
/// The component class of armour (27): value 0 is its weight per unit of
/// node area (openparkan `docs/28-chassis.md`), values 1 and 2 the linear
/// and square terms of what a hit keeps, `min(d, lin d + sq d^2)`
/// (`docs/26-damage.md`, "Armour").
pub const CLASS_ARMOUR: u32 = 27;
/// The component class of a turret (1): its values are all zero; its two
/// entries are its yaw and pitch channels (openparkan `docs/30-turrets.md`,
/// "Aiming and the camera").
pub const CLASS_TURRET: u32 = 1;
/// The component class of a gun (2): values 0-3 its magazine, capacitor,
/// energy a shot and interval ([`GunValues`]); its entries are its barrels'
/// channels; `+0x6C` names the round it fires (openparkan
/// `docs/29-weapons.md`, "A gun is a capacitor, a magazine and a clock").
pub const CLASS_GUN: u32 = 2;
/// The component class of a round's seeker (17): value 0 its cone (rad),
/// 1 how far it follows (m), 2 the gun's lock (ms) (`docs/29-weapons.md`,
/// "Guided rounds differ in how hard they steer").
pub const CLASS_SEEKER: u32 = 17;
/// Component flag (`+8`): a shot fires every barrel at once instead of
/// the next in turn (`docs/29-weapons.md`, "Barrels").
pub const FIRES_ALL_BARRELS: u32 = 0x200_0000;
/// Values a component carries (`+0x2C`, sixteen floats).
pub const COMPONENT_VALUES: usize = 16;
const VALUES_AT: usize = 0x2C;
const MASS_AT: usize = 0x1C;
const POWER_AT: usize = 0x20;

impl Component {
    /// A record of class `type_id` on model node `node`, every other fixed
    /// byte zero, no entries, with `label` (none when empty).
    pub fn new(type_id: u32, node: i32, label: &[u8]) -> Self {
        let mut fixed = vec![0u8; COMPONENT_FIXED];
        fixed[0..4].copy_from_slice(&type_id.to_le_bytes());
        fixed[4..8].copy_from_slice(&node.to_le_bytes());
        let (label_len, label) = if label.is_empty() {
            (0, Vec::new())
        } else {
            let mut bytes = label.to_vec();
            bytes.push(0);
            (label.len() as i32, bytes)
        };
        Self {
            fixed,
            entries: Vec::new(),
            label_len,
            label,
        }
    }

    fn word(&self, at: usize) -> u32 {
        u32::from_le_bytes([
            self.fixed[at],
            self.fixed[at + 1],
            self.fixed[at + 2],
            self.fixed[at + 3],
        ])
    }

    fn float(&self, at: usize) -> f32 {
        f32::from_bits(self.word(at))
    }

    fn set_float(&mut self, at: usize, value: f32) {
        self.fixed[at..at + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// Layout-confirmed: the part's mass in kg (`+0x1C`).
    pub fn mass(&self) -> f32 {
        self.float(MASS_AT)
    }

    pub fn set_mass(&mut self, kg: f32) {
        self.set_float(MASS_AT, kg);
    }

    /// Layout-confirmed: the power figure (`+0x20`): a consumer's draw a
    /// second, a battery's output.
    pub fn power(&self) -> f32 {
        self.float(POWER_AT)
    }

    pub fn set_power(&mut self, power: f32) {
        self.set_float(POWER_AT, power);
    }

    /// Layout-confirmed: value `index` of the sixteen (`+0x2C`); what it
    /// means depends on the class.
    pub fn value(&self, index: usize) -> Option<f32> {
        (index < COMPONENT_VALUES).then(|| self.float(VALUES_AT + 4 * index))
    }

    /// Sets value `index` (< [`COMPONENT_VALUES`]; others are ignored).
    pub fn set_value(&mut self, index: usize, value: f32) {
        if index < COMPONENT_VALUES {
            self.set_float(VALUES_AT + 4 * index, value);
        }
    }

    /// Consumer-inferred: class id (1..30).
    pub fn type_id(&self) -> u32 {
        self.word(0)
    }

    /// Consumer-inferred: the model node the part sits on.
    pub fn node(&self) -> i32 {
        self.word(4) as i32
    }

    /// Sets the model node (`+4`).
    pub fn set_node(&mut self, node: i32) {
        self.fixed[4..8].copy_from_slice(&node.to_le_bytes());
    }

    /// Layout-confirmed: the flag word (`+8`), e.g. [`FIRES_ALL_BARRELS`].
    pub fn flags(&self) -> u32 {
        self.word(8)
    }

    /// A gun's (class 2) first four values, typed.
    pub fn gun(&self) -> GunValues {
        let value = |i| self.value(i).unwrap_or(0.0);
        GunValues {
            magazine: value(0),
            capacitor: value(1),
            energy_per_shot: value(2),
            interval_ms: value(3),
        }
    }

    /// Consumer-inferred: what the part emits (`+0x6C`): a gun's round.
    pub fn emits(&self) -> ResourceRef {
        let mut bytes = [0u8; 64];
        bytes.copy_from_slice(&self.fixed[0x6C..0xAC]);
        ResourceRef::from_bytes(&bytes)
    }

    /// Names what the part emits (`+0x6C`).
    pub fn set_emits(&mut self, emits: &ResourceRef) {
        let mut bytes = Vec::with_capacity(64);
        emits.write(&mut bytes);
        self.fixed[0x6C..0xAC].copy_from_slice(&bytes);
    }

    /// The label before its NUL.
    pub fn label_text(&self) -> &[u8] {
        crate::cursor::c_name(&self.label)
    }
}

/// What a gun's (class 2) values 0-3 hold (openparkan `docs/29-weapons.md`,
/// "A gun is a capacitor, a magazine and a clock"; values 4-15 are zero on
/// every shipped gun).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GunValues {
    /// Value 0: the rounds it holds, a whole number; -1 unlimited.
    pub magazine: f32,
    /// Value 1: the charge it keeps ready; 0 fires free.
    pub capacitor: f32,
    /// Value 2: the charge a shot takes.
    pub energy_per_shot: f32,
    /// Value 3: ms it waits after a barrel's stroke.
    pub interval_ms: f32,
}

impl GunValues {
    /// Whether the magazine never runs out.
    pub fn unlimited(&self) -> bool {
        self.magazine < 0.0
    }
}

/// Channel flag: the value wraps (every yaw channel).
pub const CHANNEL_WRAPS: u32 = 0x1;
/// Channel flag: the node plays `1 - value`.
pub const CHANNEL_INVERTS: u32 = 0x2;
/// Channel flag: the component update does not drive it (the camera; the
/// missile barrels are timed but not animated).
pub const CHANNEL_UNDRIVEN: u32 = 0x4;
/// Channel flag: a gun mount that follows its turret's pitch.
pub const CHANNEL_FOLLOWER: u32 = 0x8;
/// Channel flag: it takes the previous channel's value.
pub const CHANNEL_COPIES_PREVIOUS: u32 = 0x40;

/// The typed fields of a section-2 channel (36 bytes; openparkan
/// `docs/30-turrets.md`, "Aiming and the camera"). Its first and last frame
/// (`+4`, `+8`) stay in the raw record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Channel {
    /// `+0x00`: the model node it animates.
    pub node: i32,
    /// `+0x0c`: its value at load, 0..1.
    pub initial: f32,
    /// `+0x10`: a second control point, -1 for none.
    pub second_point: i32,
    /// `+0x14`: its control point in the same-stem `.cpt` (a gun barrel's
    /// muzzle), -1 for none.
    pub point: i32,
    /// `+0x18`: value a second.
    pub rate: f32,
    /// `+0x1c`: rad from value 0 to 1.
    pub span: f32,
    /// `+0x20`: [`CHANNEL_WRAPS`], [`CHANNEL_INVERTS`],
    /// [`CHANNEL_UNDRIVEN`], [`CHANNEL_FOLLOWER`],
    /// [`CHANNEL_COPIES_PREVIOUS`].
    pub flags: u32,
}

impl Channel {
    /// The fields of a channel record.
    pub fn read(record: &[u8; CHANNEL_SIZE]) -> Self {
        let word = |at: usize| {
            u32::from_le_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
        };
        Self {
            node: word(0x00) as i32,
            initial: f32::from_bits(word(0x0c)),
            second_point: word(0x10) as i32,
            point: word(0x14) as i32,
            rate: f32::from_bits(word(0x18)),
            span: f32::from_bits(word(0x1c)),
            flags: word(0x20),
        }
    }

    /// Writes the fields into `record`, its frames kept.
    pub fn write(&self, record: &mut [u8; CHANNEL_SIZE]) {
        let mut put =
            |at: usize, bits: u32| record[at..at + 4].copy_from_slice(&bits.to_le_bytes());
        put(0x00, self.node as u32);
        put(0x0c, self.initial.to_bits());
        put(0x10, self.second_point as u32);
        put(0x14, self.point as u32);
        put(0x18, self.rate.to_bits());
        put(0x1c, self.span.to_bits());
        put(0x20, self.flags);
    }
}

/// A section-5 action record: nine words and a resource reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// Consumer-inferred: flags, condition mask, inversion, action, four
    /// arguments, one unread word.
    pub words: [u32; 9],
    pub resource: ResourceRef,
}

/// Group-block entry: the group a round runs when it hits (openparkan
/// `docs/13-control.md`, "The sections"; `docs/29-weapons.md`, "How a
/// round ends").
pub const GROUP_ON_HIT: usize = 2;
/// Group-block entry: the group a round runs at the map's edge.
pub const GROUP_AT_EDGE: usize = 3;
/// Group-block entry: the group a round runs at the end of its range.
pub const GROUP_AT_RANGE: usize = 4;
/// Action code: stop the body.
pub const ACTION_STOP: u32 = 0;
/// Action code: mark the object dead and take it out of the collision
/// pass, no explosion.
pub const ACTION_REMOVE: u32 = 15;
/// Action code: kill the object through its life system, so its node 0's
/// `.ndp` explosion goes off.
pub const ACTION_KILL: u32 = 17;
/// Action code: explode node 0 with the `.exp` the record names.
pub const ACTION_EXPLODE_NAMED: u32 = 27;

/// Group-block entry: the group run as the controller loads (openparkan
/// `docs/13-control.md`, "The section-5 record").
pub const GROUP_AT_LOAD: usize = 0;
/// Group-block entry: the group run as the machine becomes critically
/// damaged (`docs/13-control.md`, "Critical damage: block entries 6 and 7").
pub const GROUP_CRITICAL: usize = 6;
/// Group-block entry: the group run as it recovers from critical damage.
pub const GROUP_RECOVERED: usize = 7;
/// Action code: make the named effect on control point `v4` under id `v7`.
pub const ACTION_EFFECT_AT_POINT: u32 = 3;
/// Action code: make the named effect at the centroid of control points
/// `v4..v6` under id `v7`.
pub const ACTION_EFFECT_AT_POINTS: u32 = 4;
/// Action code: delete effect `v4`.
pub const ACTION_EFFECT_DELETE: u32 = 8;
/// Action code: start effect `v4` in time mode `v5`.
pub const ACTION_EFFECT_START: u32 = 10;
/// Action code: restart effect `v4` in its own mode once it has finished.
pub const ACTION_EFFECT_RESTART: u32 = 11;
/// Action code: effect `v4` takes its time from mesh node `v5`.
pub const ACTION_EFFECT_NODE: u32 = 14;
/// Action code: switch effect `v4` on.
pub const ACTION_EFFECT_ON: u32 = 18;
/// Action code: switch effect `v4` off.
pub const ACTION_EFFECT_OFF: u32 = 19;
/// Action flag: it runs when any of its masked conditions holds.
pub const RUNS_IF_ANY: u32 = 0x4000_0000;
/// Action flag: it runs when all of its masked conditions hold.
pub const RUNS_IF_ALL: u32 = 0x2000_0000;
/// Action flag: it opens a run (a switch).
pub const OPENS_RUN: u32 = 0x8000_0000;
/// Action flag: it closes the open run, running on its own condition or
/// when nothing since the opening record ran (an else).
pub const CLOSES_RUN: u32 = 0x1000_0000;
/// Condition byte: the machine is critically damaged.
pub const CONDITION_CRITICAL: u32 = 14;

impl Action {
    /// An action of `code` with no arguments and `resource`.
    pub fn new(code: u32, resource: ResourceRef) -> Self {
        let mut words = [0; 9];
        words[3] = code;
        Self { words, resource }
    }

    /// An action of `code` with arguments `v4..v7`.
    pub fn with_args(code: u32, args: [i32; 4], resource: ResourceRef) -> Self {
        let mut action = Self::new(code, resource);
        for (word, v) in action.words[4..8].iter_mut().zip(args) {
            *word = v as u32;
        }
        action
    }

    /// Sets its flags (`+0`), condition mask (`+4`) and inversion (`+8`).
    pub fn with_test(mut self, flags: u32, mask: u32, inversion: u32) -> Self {
        self.words[..3].copy_from_slice(&[flags, mask, inversion]);
        self
    }

    /// Consumer-inferred: the action code (`+0x0c`, 0..27).
    pub fn code(&self) -> u32 {
        self.words[3]
    }

    /// Read: its flags (`+0`): [`RUNS_IF_ANY`], [`RUNS_IF_ALL`],
    /// [`OPENS_RUN`], [`CLOSES_RUN`].
    pub fn flags(&self) -> u32 {
        self.words[0]
    }

    /// Read: its arguments `v4..v7` (`+0x10..+0x1f`).
    pub fn args(&self) -> [i32; 4] {
        [4, 5, 6, 7].map(|i| self.words[i] as i32)
    }

    /// Whether its own condition holds over the controller's sixteen
    /// condition bytes (bit `i` of `conditions` set = byte `i` set):
    /// condition `i` holds when bit `i` of the mask (`+4`) is set and the
    /// byte is set, or clear where bit `i` of the inversion (`+8`) is set;
    /// [`RUNS_IF_ANY`] wants one of them, [`RUNS_IF_ALL`] every one, and
    /// a record with neither always runs (openparkan `docs/13-control.md`,
    /// "A record's condition, and runs").
    pub fn holds(&self, conditions: u16) -> bool {
        let (mask, inversion) = (self.words[1] & 0xFFFF, self.words[2] & 0xFFFF);
        let met = (u32::from(conditions) ^ inversion) & mask;
        if self.flags() & RUNS_IF_ANY != 0 {
            met != 0
        } else if self.flags() & RUNS_IF_ALL != 0 {
            met == mask
        } else {
            true
        }
    }
}

impl AsRef<Action> for Action {
    fn as_ref(&self) -> &Action {
        self
    }
}

/// Which records of `group` run with `conditions`, in order: each on its
/// own condition ([`Action::holds`]), except that a record closing a run
/// ([`CLOSES_RUN`]) also runs when no record since the one that opened
/// it ([`OPENS_RUN`], itself included) ran, so a run is a switch with an
/// else.
pub fn running<A: AsRef<Action>>(group: &[A], conditions: u16) -> Vec<bool> {
    let mut open: Option<bool> = None;
    group
        .iter()
        .map(|record| {
            let action = record.as_ref();
            if action.flags() & OPENS_RUN != 0 {
                open = Some(false);
            }
            let mut runs = action.holds(conditions);
            if action.flags() & CLOSES_RUN != 0
                && let Some(ran) = open.take()
            {
                runs |= !ran;
            } else if let Some(ran) = open.as_mut() {
                *ran |= runs;
            }
            runs
        })
        .collect()
}

/// How the controller integrates motion (`+104`; GAMEPLAY.md section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlMode {
    /// 0: the default.
    Plain,
    /// 2: brakes on slopes.
    BrakeOnSlopes,
    /// 3: gravity inside the integrator.
    Gravity,
    /// A value no shipped controller carries, kept as stored.
    Other(i32),
}

impl ControlMode {
    pub fn from_raw(raw: i32) -> Self {
        match raw {
            0 => Self::Plain,
            2 => Self::BrakeOnSlopes,
            3 => Self::Gravity,
            other => Self::Other(other),
        }
    }

    pub fn raw(self) -> i32 {
        match self {
            Self::Plain => 0,
            Self::BrakeOnSlopes => 2,
            Self::Gravity => 3,
            Self::Other(raw) => raw,
        }
    }
}

/// The 27-dword parameter block (file `+20..+128`) as typed fields, by file
/// offset. The triples hold one value per axis (tangential, normal, world;
/// usually equal). Names and units: GAMEPLAY.md sections 2 and 10 and
/// openparkan `docs/13-control.md` / `docs/24-motion.md`; the slots they do
/// not name keep their offset in the name. [`Ctld::params`] stays the stored
/// words: [`Ctld::set_control`] writes these fields back bit for bit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ControlParams {
    /// `+20`: acceleration (the live value is twice this).
    pub acceleration: [f32; 3],
    /// `+32`: never read by the engine.
    pub unread_32: [f32; 3],
    /// `+44`: top speed, m/s (y forward).
    pub top_speed: [f32; 3],
    /// `+56`: turn rate, rad/s.
    pub turn_rate: [f32; 3],
    /// `+68`: righting, multiplied into the spin integrator.
    pub righting: [f32; 3],
    /// `+80`: the most the body leans about each axis, rad.
    pub lean_limit: [f32; 3],
    /// `+92`: milliseconds before a dead object is deleted.
    pub delete_delay_ms: i32,
    /// `+96`: unnamed.
    pub unknown_96: [f32; 2],
    /// `+104`: the integration mode.
    pub mode: ControlMode,
    /// `+108`: a round's range, m: the path it flies before its range
    /// group runs (openparkan `docs/29-weapons.md`, "How a round ends");
    /// the engine's default, on every other controller, is -1.
    pub range: f32,
    /// `+112`: the slope cone, rad (the default is 1.57079).
    pub slope_cone: f32,
    /// `+116`: a bit field; the engine tests bit 0. On a round:
    /// [`ROUND_STARTS_SELECTED`], [`ROUND_SCORES_FLAT`],
    /// [`ROUND_GUIDED`].
    pub flags_116: u32,
    /// `+120`: unnamed (the engine's default is -1).
    pub unknown_120: f32,
    /// `+124`: payload, kg (the default is `f32::MAX`).
    pub payload_kg: f32,
}

/// Round flag (`+116`): the gun firing it starts selected on the
/// player's unit (openparkan `docs/29-weapons.md`, "The button reaches the
/// selected guns").
pub const ROUND_STARTS_SELECTED: u32 = 0x4;
/// Round flag (`+116`): the AI's distance score is 1 at any range (the
/// lobbed flames; `docs/29-weapons.md`, "How the AI fires").
pub const ROUND_SCORES_FLAT: u32 = 0x8;
/// Round flag (`+116`): a guided round (it carries a class-17 seeker; the
/// AI's distance score is 1.1 at any range and the HUD draws a lock).
pub const ROUND_GUIDED: u32 = 0x10;

/// The "whole turn" the engine writes as a default (a typed decimal, not
/// 2*pi: the file's bits are kept).
#[allow(clippy::approx_constant)]
pub const WHOLE_TURN: f32 = 6.28;
/// The default slope cone the engine writes (a typed decimal, not pi/2).
#[allow(clippy::approx_constant)]
pub const HALF_CONE: f32 = 1.57079;

impl ControlParams {
    /// The values `Control.dll` writes into a controller it builds, the
    /// commonest in the shipped files on every slot (openparkan
    /// `docs/13-control.md`, "The frame is the live object's parameter
    /// block").
    pub const ENGINE_DEFAULT: ControlParams = ControlParams {
        acceleration: [2.5; 3],
        unread_32: [0.0; 3],
        top_speed: [0.0; 3],
        turn_rate: [WHOLE_TURN; 3],
        righting: [1.0; 3],
        lean_limit: [WHOLE_TURN; 3],
        delete_delay_ms: 0,
        unknown_96: [0.0; 2],
        mode: ControlMode::Plain,
        range: -1.0,
        slope_cone: HALF_CONE,
        flags_116: 0,
        unknown_120: -1.0,
        payload_kg: f32::MAX,
    };
}

/// The word index in [`Ctld::params`] of file offset `at`.
const fn slot(at: usize) -> usize {
    (at - 20) / 4
}

fn triple(params: &[u32; 27], at: usize) -> [f32; 3] {
    std::array::from_fn(|k| f32::from_bits(params[slot(at) + k]))
}

fn put_triple(params: &mut [u32; 27], at: usize, value: [f32; 3]) {
    for (k, v) in value.iter().enumerate() {
        params[slot(at) + k] = v.to_bits();
    }
}

/// State flag (`+4`): an anchor the planner chooses among.
pub const STATE_ANCHOR: u32 = 0x1;
/// State flag (`+4`): the state moves the body by velocity × step.
pub const STATE_BY_VELOCITY: u32 = 0x1_0000;
/// State flag (`+4`): a fixed step that integrates no motion.
pub const STATE_FIXED: u32 = 0x10_0000;
/// State flag (`+4`): the step length is jittered by up to ±12.5 %.
pub const STATE_JITTER: u32 = 0x100_0000;

/// Contact flag: the state applies only while the contact's node is intact.
pub const CONTACT_INTACT: u32 = 0x100;
/// Contact flag: the state applies only while the contact's node is
/// destroyed (a walker limping on a leg shot off).
pub const CONTACT_DESTROYED: u32 = 0x200;

/// One of a state's contacts (its 16-byte conditions after the 156 fixed
/// bytes): a foot, a wheel or a leg, the same points in every state
/// (openparkan `docs/13-control.md`, "Section 1's conditions are
/// contacts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateContact {
    /// `+0`: a control point of the object's `.cpt`, whose node the
    /// contact tests.
    pub point: i32,
    /// `+4`: [`CONTACT_INTACT`], [`CONTACT_DESTROYED`] and the ground bits
    /// (0x1, 0x2, 0x4, 0x10, 0x20, 0x1000), kept raw.
    pub flags: u32,
    /// `+8`: the section-5 group run when the point lands, -1 for none.
    pub group: i32,
    /// `+12`: 0 in every shipped file (the load writes the planted gap
    /// there), kept raw.
    pub gap: u32,
}

impl StateContact {
    /// Reads one contact record.
    pub fn read(record: &[u8; CONTACT_SIZE]) -> Self {
        let word = |at: usize| {
            u32::from_le_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
        };
        Self {
            point: word(0) as i32,
            flags: word(4),
            group: word(8) as i32,
            gap: word(12),
        }
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; CONTACT_SIZE] {
        let mut out = [0u8; CONTACT_SIZE];
        let words = [self.point as u32, self.flags, self.group as u32, self.gap];
        for (k, w) in words.iter().enumerate() {
            out[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// The typed fields of a section-1 state (an animation state of the
/// controller's state graph), by offset in the record (openparkan
/// `docs/24-motion.md` "Section 1 is the animation state graph"). The bytes
/// it does not name stay in [`Ctld::states`]: [`StateRecord::write`]
/// changes only these fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateRecord {
    /// `+0x00`: bits 0–2 switch on the velocity box per axis, bits 4–6
    /// the spin box.
    pub box_flags: u32,
    /// `+0x04`: [`STATE_ANCHOR`], [`STATE_BY_VELOCITY`], [`STATE_FIXED`],
    /// [`STATE_JITTER`], [`STATE_GROUND_CONTACT`] and the righting bits.
    pub mode: u32,
    /// `+0x0c`: frame pair A, first and last frame.
    pub frames_a: [f32; 2],
    /// `+0x14`: frame pair B, first and last frame.
    pub frames_b: [f32; 2],
    /// `+0x1c`: the blend base toward pair B.
    pub blend: f32,
    /// `+0x20`: the step's fixed length, ms; 0 lets speed and stride set it.
    pub length_ms: f32,
    /// `+0x24` / `+0x30`: the velocity box, min and max xyz (m/s, the
    /// machine's frame, y forward).
    pub velocity: [[f32; 3]; 2],
    /// `+0x3c` / `+0x48`: the spin box, min and max xyz (rad/s, z yaw).
    pub spin: [[f32; 3]; 2],
    /// `+0x54`: the engine factor of the state.
    pub engine_factor: f32,
    /// `+0x90`: the section-5 action group entering the state runs.
    pub action_group: i32,
    /// `+0x94`: how many times the planner may still choose it, -1 for
    /// unlimited.
    pub use_count: i32,
    /// `+0x98`: the request code it waits for, -1 for any.
    pub request: i32,
}

impl StateRecord {
    /// A state that applies always and plays frame 0: no box switched on,
    /// no flags, blend 1, unlimited, no actions, any request.
    pub const IDLE: StateRecord = StateRecord {
        box_flags: 0,
        mode: 0,
        frames_a: [0.0; 2],
        frames_b: [0.0; 2],
        blend: 1.0,
        length_ms: 0.0,
        velocity: [[-f32::MAX; 3], [f32::MAX; 3]],
        spin: [[-f32::MAX; 3], [f32::MAX; 3]],
        engine_factor: 0.0,
        action_group: -1,
        use_count: -1,
        request: -1,
    };

    /// The fields of a state record (at least [`STATE_BASE`] bytes).
    pub fn read(record: &[u8]) -> Option<Self> {
        let raw = record.get(..STATE_BASE)?;
        let word = |at: usize| u32::from_le_bytes([raw[at], raw[at + 1], raw[at + 2], raw[at + 3]]);
        let float = |at: usize| f32::from_bits(word(at));
        let xyz = |at: usize| [float(at), float(at + 4), float(at + 8)];
        Some(StateRecord {
            box_flags: word(0x00),
            mode: word(0x04),
            frames_a: [float(0x0c), float(0x10)],
            frames_b: [float(0x14), float(0x18)],
            blend: float(0x1c),
            length_ms: float(0x20),
            velocity: [xyz(0x24), xyz(0x30)],
            spin: [xyz(0x3c), xyz(0x48)],
            engine_factor: float(0x54),
            action_group: word(0x90) as i32,
            use_count: word(0x94) as i32,
            request: word(0x98) as i32,
        })
    }

    /// Writes the fields into `record` (at least [`STATE_BASE`] bytes;
    /// shorter records are left alone), every other byte kept.
    pub fn write(&self, record: &mut [u8]) {
        let Some(raw) = record.get_mut(..STATE_BASE) else {
            return;
        };
        let mut put = |at: usize, bits: u32| raw[at..at + 4].copy_from_slice(&bits.to_le_bytes());
        put(0x00, self.box_flags);
        put(0x04, self.mode);
        let floats = [
            (0x0c, self.frames_a[0]),
            (0x10, self.frames_a[1]),
            (0x14, self.frames_b[0]),
            (0x18, self.frames_b[1]),
            (0x1c, self.blend),
            (0x20, self.length_ms),
            (0x54, self.engine_factor),
        ];
        let boxes = [(0x24, self.velocity), (0x3c, self.spin)];
        let corners = boxes.iter().flat_map(|&(at, [lo, hi])| {
            (0..3).flat_map(move |k| [(at + 4 * k, lo[k]), (at + 12 + 4 * k, hi[k])])
        });
        for (at, value) in floats.into_iter().chain(corners) {
            put(at, value.to_bits());
        }
        put(0x90, self.action_group as u32);
        put(0x94, self.use_count as u32);
        put(0x98, self.request as u32);
    }

    /// A flag of [`StateRecord::mode`].
    pub fn has(&self, flag: u32) -> bool {
        self.mode & flag != 0
    }
}

/// A parsed controller.
#[derive(Debug, Clone, PartialEq)]
pub struct Ctld {
    /// Contacts per state (`counts[1]`), kept even without states.
    pub contacts_per_state: i32,
    /// The 27-dword parameter block, raw.
    pub params: [u32; 27],
    /// Section 1 states, raw (`156 + 16 * B` bytes each).
    pub states: Vec<Vec<u8>>,
    /// Section 1 cost table, `states.len()^2` floats, row-major.
    pub costs: Vec<f32>,
    /// Section 2 channels, raw.
    pub channels: Vec<[u8; CHANNEL_SIZE]>,
    /// Section 4 components.
    pub components: Vec<Component>,
    /// The 21 group indices.
    pub group_block: [i32; 21],
    /// Section 5 groups of actions.
    pub groups: Vec<Vec<Action>>,
}

impl Ctld {
    /// A controller of the smallest shipped shape (212 bytes: no states,
    /// channels, components or groups, the group block unset) with
    /// `control` as its parameter block.
    pub fn frame(control: &ControlParams) -> Self {
        let mut ctld = Ctld {
            contacts_per_state: 0,
            params: [0; 27],
            states: Vec::new(),
            costs: Vec::new(),
            channels: Vec::new(),
            components: Vec::new(),
            group_block: [-1; 21],
            groups: Vec::new(),
        };
        ctld.set_control(control);
        ctld
    }

    /// Whether the controller holds its body on the ground: one of its
    /// states carries [`STATE_GROUND_CONTACT`] in its flag word (state
    /// `+4`). Controllers with contact points (walkers, wheels, tracks) set
    /// it on every state; flyers have none and never fall (openparkan
    /// `docs/24-motion.md`, "Holding the body on the ground"). A controller
    /// without states (the 212-byte floor) is a plain body: it has nothing
    /// to fly with, so gravity and the ground hold it.
    // STAND-IN: no retail mover has no states and no source says what the
    // original does with one; settled by a retail session with a unit
    // whose controller is cut to the floor layout.
    pub fn holds_ground(&self) -> bool {
        self.states.is_empty()
            || self.states.iter().any(|state| {
                state
                    .get(4..8)
                    .and_then(|w| w.try_into().ok())
                    .is_some_and(|w| u32::from_le_bytes(w) & STATE_GROUND_CONTACT != 0)
            })
    }

    /// The actions of the group the block's `entry` names (none when the
    /// entry is unset or names no group).
    pub fn group_of(&self, entry: usize) -> &[Action] {
        let index = self.group_block.get(entry).copied().unwrap_or(-1);
        usize::try_from(index)
            .ok()
            .and_then(|g| self.groups.get(g))
            .map_or(&[], |g| &g[..])
    }

    /// The typed fields of channel `index`.
    pub fn channel(&self, index: usize) -> Option<Channel> {
        self.channels.get(index).map(Channel::read)
    }

    /// The typed fields of state `index`.
    pub fn state(&self, index: usize) -> Option<StateRecord> {
        StateRecord::read(self.states.get(index)?)
    }

    /// The contacts of state `index` (none past the states).
    pub fn contacts(&self, index: usize) -> Vec<StateContact> {
        let Some(record) = self.states.get(index) else {
            return Vec::new();
        };
        record
            .get(STATE_BASE..)
            .unwrap_or_default()
            .chunks_exact(CONTACT_SIZE)
            .filter_map(|c| c.try_into().ok())
            .map(StateContact::read)
            .collect()
    }

    /// The file's transition cost from state `from` to state `to` (the row
    /// is the destination: `costs[to * A + from]`).
    pub fn cost(&self, to: usize, from: usize) -> Option<f32> {
        let n = self.states.len();
        (to < n && from < n).then(|| self.costs.get(to * n + from).copied())?
    }

    /// The parameter block as typed fields.
    pub fn control(&self) -> ControlParams {
        let p = &self.params;
        let float = |at: usize| f32::from_bits(p[slot(at)]);
        ControlParams {
            acceleration: triple(p, 20),
            unread_32: triple(p, 32),
            top_speed: triple(p, 44),
            turn_rate: triple(p, 56),
            righting: triple(p, 68),
            lean_limit: triple(p, 80),
            delete_delay_ms: p[slot(92)] as i32,
            unknown_96: [float(96), float(100)],
            mode: ControlMode::from_raw(p[slot(104)] as i32),
            range: float(108),
            slope_cone: float(112),
            flags_116: p[slot(116)],
            unknown_120: float(120),
            payload_kg: float(124),
        }
    }

    /// Writes `control` into the parameter block (every bit as given).
    pub fn set_control(&mut self, control: &ControlParams) {
        let p = &mut self.params;
        put_triple(p, 20, control.acceleration);
        put_triple(p, 32, control.unread_32);
        put_triple(p, 44, control.top_speed);
        put_triple(p, 56, control.turn_rate);
        put_triple(p, 68, control.righting);
        put_triple(p, 80, control.lean_limit);
        p[slot(92)] = control.delete_delay_ms as u32;
        p[slot(96)] = control.unknown_96[0].to_bits();
        p[slot(100)] = control.unknown_96[1].to_bits();
        p[slot(104)] = control.mode.raw() as u32;
        p[slot(108)] = control.range.to_bits();
        p[slot(112)] = control.slope_cone.to_bits();
        p[slot(116)] = control.flags_116;
        p[slot(120)] = control.unknown_120.to_bits();
        p[slot(124)] = control.payload_kg.to_bits();
    }

    /// Parses a CTLD payload (exact end).
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let mut counts = [0i32; 5];
        for (i, n) in counts.iter_mut().enumerate() {
            *n = c.i32()?;
            if *n < 0 {
                return Err(c.invalid_at(i * 4, format!("section count {i} >= 0"), *n));
            }
        }
        let [a, b, cc, d, e] = counts.map(|n| n as u64);
        let mut params = [0u32; 27];
        for p in &mut params {
            *p = c.u32()?;
        }
        let state_size = b
            .checked_mul(CONTACT_SIZE as u64)
            .and_then(|x| x.checked_add(STATE_BASE as u64))
            .ok_or_else(|| FormatError::overflow(FORMAT, 4, "state size"))?;
        let state_size = usize::try_from(state_size)
            .map_err(|_| FormatError::overflow(FORMAT, 4, "state size"))?;
        let a = c.checked_count(a, state_size, "states")?;
        let mut states = Vec::with_capacity(a);
        for _ in 0..a {
            states.push(c.bytes(state_size)?.to_vec());
        }
        let cost_count = c.checked_count((a as u64) * (a as u64), 4, "state costs")?;
        let mut costs = Vec::with_capacity(cost_count);
        for _ in 0..cost_count {
            costs.push(c.f32()?);
        }
        let cc = c.checked_count(cc, CHANNEL_SIZE, "channels")?;
        let mut channels = Vec::with_capacity(cc);
        for _ in 0..cc {
            channels.push(c.array()?);
        }
        let d = c.checked_count(d, COMPONENT_FIXED + 8, "components")?;
        let mut components = Vec::with_capacity(d);
        for _ in 0..d {
            let fixed = c.bytes(COMPONENT_FIXED)?.to_vec();
            let n = read_count(&mut c, 4, "component entries")?;
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                entries.push(c.i32()?);
            }
            let at = c.pos();
            let label_len = c.i32()?;
            if label_len < 0 {
                return Err(c.invalid_at(at, "a label length >= 0", label_len));
            }
            let label = if label_len == 0 {
                Vec::new()
            } else {
                c.bytes(label_len as usize + 1)?.to_vec()
            };
            components.push(Component {
                fixed,
                entries,
                label_len,
                label,
            });
        }
        let mut group_block = [0i32; 21];
        for g in &mut group_block {
            *g = c.i32()?;
        }
        let e = c.checked_count(e, 4, "action groups")?;
        let mut groups = Vec::with_capacity(e);
        for _ in 0..e {
            let n = read_count(&mut c, ACTION_SIZE, "actions")?;
            let mut actions = Vec::with_capacity(n);
            for _ in 0..n {
                let mut words = [0u32; 9];
                for w in &mut words {
                    *w = c.u32()?;
                }
                actions.push(Action {
                    words,
                    resource: ResourceRef::read(&mut c)?,
                });
            }
            groups.push(actions);
        }
        c.expect_end()?;
        Ok(Self {
            contacts_per_state: counts[1],
            params,
            states,
            costs,
            channels,
            components,
            group_block,
            groups,
        })
    }

    /// Writes the payload (byte-identical for an unmodified parse); fails
    /// when a derived size does not match (state size, cost table, label).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let b = usize::try_from(self.contacts_per_state).map_err(|_| {
            FormatError::invalid(
                FORMAT,
                4,
                "contacts per state >= 0",
                self.contacts_per_state,
            )
        })?;
        let state_size = b
            .checked_mul(CONTACT_SIZE)
            .and_then(|x| x.checked_add(STATE_BASE))
            .ok_or_else(|| FormatError::overflow(FORMAT, 4, "state size"))?;
        if let Some(bad) = self.states.iter().position(|s| s.len() != state_size) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("state {bad} of {state_size} bytes"),
                self.states[bad].len(),
            ));
        }
        if self.costs.len() != self.states.len() * self.states.len() {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "states^2 costs",
                self.costs.len(),
            ));
        }
        let mut out = Vec::new();
        out.extend(count_i32(FORMAT, self.states.len(), "states")?);
        out.extend(self.contacts_per_state.to_le_bytes());
        out.extend(count_i32(FORMAT, self.channels.len(), "channels")?);
        out.extend(count_i32(FORMAT, self.components.len(), "components")?);
        out.extend(count_i32(FORMAT, self.groups.len(), "groups")?);
        for p in &self.params {
            out.extend(p.to_le_bytes());
        }
        for s in &self.states {
            out.extend_from_slice(s);
        }
        for f in &self.costs {
            out.extend(f.to_le_bytes());
        }
        for ch in &self.channels {
            out.extend_from_slice(ch);
        }
        for (i, comp) in self.components.iter().enumerate() {
            let label_ok = match comp.label_len {
                0 => comp.label.is_empty(),
                n => n > 0 && comp.label.len() == n as usize + 1,
            };
            if comp.fixed.len() != COMPONENT_FIXED || !label_ok {
                return Err(FormatError::invalid(
                    FORMAT,
                    0,
                    format!("component {i}: 172 fixed bytes and L + 1 label bytes"),
                    comp.label.len(),
                ));
            }
            out.extend_from_slice(&comp.fixed);
            out.extend(count_i32(FORMAT, comp.entries.len(), "entries")?);
            for en in &comp.entries {
                out.extend(en.to_le_bytes());
            }
            out.extend(comp.label_len.to_le_bytes());
            out.extend_from_slice(&comp.label);
        }
        for g in &self.group_block {
            out.extend(g.to_le_bytes());
        }
        for g in &self.groups {
            out.extend(count_i32(FORMAT, g.len(), "actions")?);
            for a in g {
                for w in &a.words {
                    out.extend(w.to_le_bytes());
                }
                a.resource.write(&mut out);
            }
        }
        Ok(out)
    }
}
