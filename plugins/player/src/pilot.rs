//! The hero under the player's hand (GAMEPLAY §2 "Input"; openparkan
//! `docs/24-motion.md` "From input to motion", `docs/30-turrets.md` "How
//! the aim moves"; docs/facts.md "The player"):
//!
//! - **Walk**: W/S ask ±1 of the live top speed forward.
//! - **Strafe**: A/D turn the hull π/2 to the side (π/4 while walking)
//!   and walk it forward (backward when the walk is backward); the turret
//!   turns back by what the hull has turned, so the sight keeps its
//!   heading. Letting go turns the hull back.
//! - **Mouse**: each axis's counts pass the filter `m = counts × row ×
//!   sensitivity × 0.95 + 0.05 × m₋₁` (row 0.15 for x, 0.25 × 1.2 for
//!   y); `0.006 m`, held to ±1, is a fraction of a turn that x queues on
//!   the hull (0.00565 rad a count) and y adds to the turret's pitch
//!   channel value, held to 0–1 (its span the pitch limits: the hero's
//!   −30.5° to +79.4°, 0.0035 rad a count). The hull pays a queued turn
//!   out at its live turn rate.
//! - **Keypad cruise**: `*` full ahead, `/` stop, `+`/`−` held ramp the
//!   cruise by 0.05 a second (our reading of the rows' ramp 0.05 over
//!   1000 ms); the cruise drives the hull when no walk or strafe key does.
//! - **Weapons**: 1–4 select a gun, 0 all, the next key cycles; primary
//!   fire works the selection while held, secondary every gun.

use crate::action::PlayerAction as A;
use crate::snapshot::StepInput;
use bevy::prelude::*;
use iron3d_combat::Manual;
use iron3d_control::{Body, PhysicalState, Piloted};
use iron3d_schedules::{GameClock, StateHasher};
use iron3d_world::ObjectRegistry;
use iron3d_world::mission::{Armament, Destroyed, Hero};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

/// The mouse rows' magnitudes (hero.tbl), x and y (y × 1.2).
pub const MOUSE_ROW: Vec2 = Vec2::new(0.15, 0.25 * 1.2);
/// What a filtered count is worth: a fraction of a turn (x) or of the
/// pitch channel's span (y).
pub const MOUSE_STEP: f32 = 0.006;
/// The filter's memory.
pub const MOUSE_MEMORY: f32 = 0.05;
/// Cruise change a second while `+` or `−` is held.
// STAND-IN: 0.05 a second, the rows' ramp 0.05 over 1000 ms read as a rate
// (docs/24 measures the rows, not their effect); settled by timing a
// retail hero's cruise with `+` held.
pub const CRUISE_RAMP: f32 = 0.05;

/// The player's sensitivity (a factor on the mouse rows; 1 by default).
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MouseSensitivity(pub f32);

impl Default for MouseSensitivity {
    fn default() -> Self {
        // STAND-IN: a sensitivity factor of 1 (GAMEPLAY §2 names the
        // setting, not its default); settled by the retail options' default.
        Self(1.0)
    }
}

/// The hero's driving state (simulation state: hashed as `player`).
#[derive(
    Component, Reflect, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize,
)]
#[reflect(Component)]
pub struct Pilot {
    /// The mouse filter's last values, x and y.
    pub filter: Vec2,
    /// rad the hull still owes the mouse (+ left).
    pub pending_turn: f32,
    /// The strafe angle asked (+ left) and how much of it the hull has
    /// turned.
    pub strafe: f32,
    pub strafe_turned: f32,
    /// The turret's pitch channel value, 0–1 across its limits.
    pub pitch: f32,
    /// The selected gun, from 1; 0 all.
    pub weapon: u8,
    /// The keypad cruise, −1..1.
    pub cruise: f32,
}

/// The most guns a selection can name (the trigger mask's bits).
const MOST_GUNS: u8 = 64;

impl iron3d_world::save::SavedValue for Pilot {
    fn check_saved(&self) -> Result<(), String> {
        if self.weapon > MOST_GUNS {
            return Err(format!(
                "weapon: {} is past the {MOST_GUNS} guns a unit may have",
                self.weapon
            ));
        }
        Ok(())
    }
}

/// The pitch limits of the hero's first turret (rad), or ±π/2.
fn pitch_limits(armament: Option<&Armament>) -> (f32, f32) {
    armament
        .and_then(|a| a.turrets.first())
        .and_then(|t| t.pitch.limits)
        .unwrap_or((-FRAC_PI_2, FRAC_PI_2))
}

impl Pilot {
    /// Standing, level, all guns selected.
    pub fn new(armament: Option<&Armament>) -> Self {
        let (lo, hi) = pitch_limits(armament);
        let level = if hi > lo { -lo / (hi - lo) } else { 0.5 };
        Self {
            filter: Vec2::ZERO,
            pending_turn: 0.0,
            strafe: 0.0,
            strafe_turned: 0.0,
            pitch: level.clamp(0.0, 1.0),
            weapon: 0,
            cruise: 0.0,
        }
    }

    /// The mouse counts of one step through the filter: the fractions of
    /// a turn (x) and of the pitch span (y, + up) they are worth.
    // STAND-IN: the filter runs once per fixed step on that step's counts
    // (docs/24 gives the filter, the original runs it per input event);
    // settled by reading when the input handler runs the filter.
    fn mouse(&mut self, counts: Vec2, sensitivity: f32) -> Vec2 {
        self.filter =
            counts * MOUSE_ROW * sensitivity * (1.0 - MOUSE_MEMORY) + self.filter * MOUSE_MEMORY;
        (self.filter * MOUSE_STEP).clamp(Vec2::NEG_ONE, Vec2::ONE)
    }

    /// One step of input: the body's request and turn, the turret's aim
    /// and the trigger.
    pub fn step(&mut self, input: &StepInput, turn_step: f32, guns: usize, dt: f32) -> (Vec3, f32) {
        let held = |a| input.held.has(a);
        let pressed = |a| input.pressed.has(a);
        let mouse = self.mouse(input.mouse, input.sensitivity);
        // Mouse right turns the nose right (−); mouse up pitches up.
        self.pending_turn = wrap(self.pending_turn - mouse.x * TAU);
        // STAND-IN: mouse up (negative screen y) pitches up (docs/30 "How
        // the aim moves" gives the factor, not the sign); settled on the
        // retail game with its default options.
        self.pitch = (self.pitch - mouse.y).clamp(0.0, 1.0);

        let walk =
            f32::from(u8::from(held(A::WalkForward))) - f32::from(u8::from(held(A::WalkBack)));
        let side =
            f32::from(u8::from(held(A::StrafeLeft))) - f32::from(u8::from(held(A::StrafeRight)));
        if pressed(A::CruiseFull) {
            self.cruise = 1.0;
        }
        if pressed(A::CruiseStop) {
            self.cruise = 0.0;
        }
        let ramp =
            f32::from(u8::from(held(A::CruiseMore))) - f32::from(u8::from(held(A::CruiseLess)));
        self.cruise = (self.cruise + ramp * CRUISE_RAMP * dt).clamp(-1.0, 1.0);
        self.strafe = side * if walk != 0.0 { FRAC_PI_4 } else { FRAC_PI_2 };
        let ahead = if walk != 0.0 {
            walk
        } else if side != 0.0 {
            if self.cruise < 0.0 { -1.0 } else { 1.0 }
        } else {
            self.cruise
        };

        // The hull pays out the queued turn and the strafe's change
        // together, each its share.
        // STAND-IN: the turret turns back by what the hull turned of the
        // strafe, and the hull pays both turns by share (docs/24 "From input
        // to motion" calls the turret's half a guess); settled by strafing
        // the retail hero and watching the sight's heading.
        let owed_strafe = self.strafe - self.strafe_turned;
        let owed = self.pending_turn + owed_strafe;
        let paid = owed.clamp(-turn_step, turn_step);
        if owed != 0.0 {
            let share = paid / owed;
            self.pending_turn -= share * self.pending_turn;
            self.strafe_turned += share * owed_strafe;
        }
        let turn = if turn_step > 0.0 {
            paid / turn_step
        } else {
            0.0
        };

        if pressed(A::SelectAll) {
            self.weapon = 0;
        }
        for (n, key) in [A::Weapon1, A::Weapon2, A::Weapon3, A::Weapon4]
            .into_iter()
            .enumerate()
        {
            if pressed(key) && n < guns {
                self.weapon = n as u8 + 1;
            }
        }
        if pressed(A::NextWeapon) && guns > 0 {
            self.weapon = (usize::from(self.weapon) % guns) as u8 + 1;
        }
        (Vec3::new(0.0, ahead, 0.0), turn)
    }

    /// The trigger mask for `guns` guns.
    // STAND-IN: primary fire works the selection while held, secondary
    // every gun (docs/14 names `CMD_FIRE_SELECTED_CONT` and `CMD_FIRE_ALL`,
    // not their buttons); settled by the retail `hero.tbl`'s fire rows.
    pub fn trigger(&self, input: &StepInput, guns: usize) -> u64 {
        let all = if guns >= 64 {
            u64::MAX
        } else {
            (1u64 << guns) - 1
        };
        let selected = match self.weapon {
            0 => all,
            n => 1u64 << (n - 1),
        };
        let mut mask = 0;
        if input.held.has(A::FirePrimary) {
            mask |= selected;
        }
        if input.held.has(A::FireSecondary) {
            mask |= all;
        }
        mask & all
    }

    /// The turret's aim: it turns back what the strafe turned the hull;
    /// its pitch is the channel's value across the limits.
    pub fn aim(&self, armament: Option<&Armament>) -> (f32, f32) {
        let (lo, hi) = pitch_limits(armament);
        (wrap(-self.strafe_turned), lo + self.pitch * (hi - lo))
    }
}

/// An angle into (−π, π].
fn wrap(a: f32) -> f32 {
    let w = (a + PI).rem_euclid(TAU) - PI;
    if w == -PI { PI } else { w }
}

/// A hero not yet the player's.
type NewHero = (With<Hero>, Without<Pilot>);

/// The hero becomes the player's: piloted, with its driving state and
/// a trigger.
pub(crate) fn adopt_hero(
    heroes: Query<(Entity, Option<&Armament>), NewHero>,
    mut commands: Commands,
) {
    for (entity, armament) in &heroes {
        commands
            .entity(entity)
            .insert((Piloted, Pilot::new(armament), Manual::default()));
    }
}

type Driven<'a> = (
    &'a mut Pilot,
    &'a mut PhysicalState,
    &'a Body,
    &'a mut Manual,
    Option<&'a Armament>,
    Option<&'a Destroyed>,
);

/// Each step: the hero's request, turn, aim and trigger from the step's
/// input. A destroyed hero takes none.
pub(crate) fn drive(
    clock: Res<GameClock>,
    input: Res<StepInput>,
    registry: Res<ObjectRegistry>,
    mut heroes: Query<Driven>,
) {
    let dt = clock.timestep().as_secs_f32();
    for (_, entity) in registry.iter() {
        let Ok((mut pilot, mut state, body, mut manual, armament, destroyed)) =
            heroes.get_mut(entity)
        else {
            continue;
        };
        let guns = armament.map_or(0, |a| a.guns.len());
        let quiet = StepInput::default();
        let input = if destroyed.is_some() { &quiet } else { &*input };
        let turn_step = body.limits.turn_rate.z * dt;
        let (requested, turn) = pilot.step(input, turn_step, guns, dt);
        state.requested = requested;
        state.turn = turn;
        let (yaw, pitch) = pilot.aim(armament);
        *manual = Manual {
            yaw,
            pitch,
            trigger: pilot.trigger(input, guns),
        };
    }
}

/// The state hash's `player` section: each hero's driving state.
pub(crate) fn hash_pilots(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(p) = world.get::<Pilot>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        for (name, v) in [
            ("filter.x", p.filter.x),
            ("filter.y", p.filter.y),
            ("pending_turn", p.pending_turn),
            ("strafe", p.strafe),
            ("strafe_turned", p.strafe_turned),
            ("pitch", p.pitch),
            ("cruise", p.cruise),
        ] {
            hasher.field(name);
            hasher.write_f32(v);
        }
        hasher.field("weapon");
        hasher.write_u8(p.weapon);
    }
}
