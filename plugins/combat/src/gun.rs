//! Turrets and guns (openparkan `docs/29-weapons.md`, `docs/30-turrets.md`;
//! GAMEPLAY §3).
//!
//! - **Turrets** turn toward their unit's target (Behavior's [`Target`]):
//!   the point where the target's sphere centre moving at its velocity
//!   meets a round of the turret's fastest gun; yaw and pitch each at their
//!   channel's rate × span a second, pitch within its limits.
//! - **Guns** fire when they have rounds (a magazine of −1 never runs
//!   out), their capacitor holds a shot's energy (a capacitor of 0 fires
//!   free), their node lives, the target is within the round's range (a
//!   seeker's reach caps it), inside a guided gun's cone for its whole lock
//!   time, and the AI's score passes its bar. A shot is a barrel stroke of
//!   1 ÷ rate s, the round leaving half-way, then the interval; a stroke
//!   always finishes. The capacitor refills on the power tick, every
//!   250 ms (at full power, whole again at once).
//! - **The AI's score** (`docs/29-weapons.md`, "How the AI fires"): a
//!   distance factor (1.1 for a guided round, 1 for a flat-scoring one,
//!   else rising over the first 5 m, 1 to (v + 1) ÷ 2, 0 at 2 (v + 1),
//!   times 1 − height ÷ v) times the turret's aim factor 1 − θ d ÷ R (θ how
//!   far it is off the target, R the target's outer radius), against a bar
//!   of 0 under a go or attack order (free fire), 0.45 for a flyer or a
//!   machine slower than 0.5 m/s, 0.85 otherwise.
//! - **The round** leaves its muzzle (its barrel's point turned with the
//!   turret's aim about the turret's centre) toward where the turret's
//!   sight ray (from `TurretCenter` along its aim, 5 m on) first meets the
//!   world, pushed out to at least 100 m; a lobbed round rises onto the
//!   lower arc to the target; its velocity is its speed plus the
//!   shooter's.

use crate::event::{CombatEvents, EffectCue, EventKind};
use crate::hit::{Targets, first_hit};
use crate::round::{Round, RoundSerial, Rounds};
use bevy::prelude::*;
use iron3d_behavior::{OrderKind, Orders, Target};
use iron3d_control::{Body, GRAVITY, GroundFaces, PhysicalState};
use iron3d_formats::proto::ctld::{ROUND_GUIDED, ROUND_SCORES_FLAT};
use iron3d_formats::tma;
use iron3d_schedules::{GameClock, RawValue, StateHasher};
use iron3d_world::mission::{
    Armament, Destroyed, GunSpec, HitModel, LevelRatio, NodeLife, ObjectKind,
};
use iron3d_world::save::restore_objects;
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use std::f32::consts::PI;

/// s between power ticks, which refill the capacitors.
pub const POWER_TICK_S: f64 = 0.25;
/// Whether this step crosses a power tick.
pub(crate) fn power_tick(clock: &GameClock) -> bool {
    let dt = clock.timestep().as_secs_f64();
    let now = clock.tick() as f64 * dt;
    (now / POWER_TICK_S).floor() != ((now - dt) / POWER_TICK_S).floor()
}

/// m: the sight ray starts this far out and its aim point is pushed out to
/// [`MIN_AIM`].
pub const SIGHT_FROM: f32 = 5.0;
pub const MIN_AIM: f32 = 100.0;
/// m: how far the sight ray looks.
const SIGHT_REACH: f32 = 5000.0;
/// m: a target's outer radius when it has no geometry.
const DEFAULT_RADIUS: f32 = 5.0;

/// Where a turret points: yaw and pitch in rad from the object's forward
/// and level, and how far it was off its aim point at its last turn (π:
/// no target).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TurretAim {
    pub yaw: f32,
    pub pitch: f32,
    pub error: f32,
}

impl TurretAim {
    /// Its turn from facing ahead, level: the pitch about the side axis,
    /// then the yaw about the up axis (object frame).
    pub fn turn(&self) -> Quat {
        Quat::from_rotation_y(self.yaw) * Quat::from_rotation_x(self.pitch)
    }

    /// Its direction in the object's frame (Bevy axes: forward −Z).
    pub fn direction(&self) -> Vec3 {
        self.turn() * Vec3::NEG_Z
    }
}

/// Yaw and pitch of a direction in the object's frame.
fn angles(d: Vec3) -> (f32, f32) {
    let d = d.normalize_or(Vec3::NEG_Z);
    ((-d.x).atan2(-d.z), d.y.clamp(-1.0, 1.0).asin())
}

/// What a gun is doing.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum GunPhase {
    Idle,
    /// A barrel stroke started at `start` s of game time; `fired` once
    /// its round has left.
    Stroke {
        start: f64,
        fired: bool,
    },
    /// Waiting out its interval until `until` s.
    Wait {
        until: f64,
    },
}

/// A gun's state.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GunState {
    /// Rounds left; −1 unlimited.
    pub rounds: i32,
    pub charge: f32,
    pub phase: GunPhase,
    /// The barrel that fires next.
    pub barrel: usize,
    /// s of lock still to hold (guided guns).
    pub lock: f32,
}

/// The state of an object's turrets and guns, in [`Armament`] order.
#[derive(Component, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weapons {
    pub turrets: Vec<TurretAim>,
    pub guns: Vec<GunState>,
}

impl Weapons {
    /// Turrets facing ahead, level; guns idle with full magazines and
    /// capacitors.
    pub fn of(armament: &Armament) -> Self {
        Self {
            turrets: armament
                .turrets
                .iter()
                .map(|_| TurretAim {
                    yaw: 0.0,
                    pitch: 0.0,
                    error: PI,
                })
                .collect(),
            guns: armament
                .guns
                .iter()
                .map(|g| GunState {
                    rounds: if g.values.unlimited() {
                        -1
                    } else {
                        g.values.magazine as i32
                    },
                    charge: g.values.capacitor,
                    phase: GunPhase::Idle,
                    barrel: 0,
                    lock: g.round.seeker.map_or(0.0, |s| s.lock_s),
                })
                .collect(),
        }
    }
}

/// A unit whose turrets and guns a person works (the player's hero): its
/// turrets turn toward `yaw` and `pitch` (rad, object frame, as
/// [`TurretAim`]) at their rates, whatever its target, and gun `g` fires
/// while bit `g` of `trigger` is set, whenever it is charged and loaded
/// (no range, lock or score: the person decides).
#[derive(
    Component, Debug, Clone, Copy, PartialEq, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Manual {
    pub yaw: f32,
    pub pitch: f32,
    pub trigger: u64,
}

impl Manual {
    /// Whether the trigger holds gun `g`.
    pub fn fires(&self, g: usize) -> bool {
        g < 64 && self.trigger & (1 << g) != 0
    }
}

/// Gives every armed object its weapons' state.
pub(crate) fn arm(armed: Query<(Entity, &Armament), Without<Weapons>>, mut commands: Commands) {
    for (entity, armament) in &armed {
        commands.entity(entity).insert(Weapons::of(armament));
    }
}

/// A target as the guns see it: where its sphere's centre is, how fast it
/// moves and its outer radius.
#[derive(Debug, Clone, Copy)]
struct Sighted {
    centre: Vec3,
    velocity: Vec3,
    radius: f32,
}

type TargetView<'a> = (
    &'a Transform,
    Option<&'a HitModel>,
    Option<&'a PhysicalState>,
);

/// How the unit's guns see its target, when it has one that is there.
fn sight(target: &Target, registry: &ObjectRegistry, views: &Query<TargetView>) -> Option<Sighted> {
    let entity = registry.entity(target.0?).ok()?;
    views.get(entity).ok().map(sighted)
}

fn sighted(view: TargetView<'_>) -> Sighted {
    let (transform, model, state) = view;
    let (centre, radius) = match model {
        Some(m) => {
            let (centre, radius) = m.sphere(transform);
            (centre, centre.distance(transform.translation) + radius)
        }
        None => (transform.translation, DEFAULT_RADIUS),
    };
    Sighted {
        centre,
        velocity: state.map_or(Vec3::ZERO, |s| s.linear_velocity),
        radius: if radius > 0.0 { radius } else { DEFAULT_RADIUS },
    }
}

/// Where a round of `speed` from `from` meets a target at `at` moving at
/// `velocity` (the target itself when it cannot catch it).
fn lead(from: Vec3, at: Vec3, velocity: Vec3, speed: f32) -> Vec3 {
    let d = at - from;
    // |d + v t| = s t: (v·v − s²) t² + 2 (d·v) t + d·d = 0.
    let a = velocity.length_squared() - speed * speed;
    let b = 2.0 * d.dot(velocity);
    let c = d.length_squared();
    let t = if a.abs() < 1e-6 {
        (b != 0.0).then(|| -c / b)
    } else {
        let disc = b * b - 4.0 * a * c;
        (disc >= 0.0).then(|| {
            let r = disc.sqrt();
            let (t1, t2) = ((-b - r) / (2.0 * a), (-b + r) / (2.0 * a));
            if t1 > 0.0 && (t1 < t2 || t2 <= 0.0) {
                t1
            } else {
                t2
            }
        })
    };
    match t.filter(|t| t.is_finite() && *t > 0.0) {
        Some(t) => at + velocity * t,
        None => at,
    }
}

type Aiming<'a> = (
    &'a Transform,
    &'a Armament,
    &'a mut Weapons,
    &'a Target,
    Option<&'a Manual>,
    Option<&'a Destroyed>,
);

/// Turns every turret toward its unit's target, in id order.
pub(crate) fn aim(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    mut armed: Query<Aiming>,
    targets: Query<TargetView>,
) {
    let dt = clock.timestep().as_secs_f32();
    for (_, entity) in registry.iter() {
        let Ok((transform, armament, mut weapons, target, manual, destroyed)) =
            armed.get_mut(entity)
        else {
            continue;
        };
        let seen = sight(target, &registry, &targets).filter(|_| manual.is_none());
        for (t, spec) in armament.turrets.iter().enumerate() {
            let fastest = armament
                .guns
                .iter()
                .filter(|g| g.turret == Some(t))
                .map(|g| g.round.speed)
                .fold(0.0f32, f32::max);
            let aim = &mut weapons.turrets[t];
            let wanted = match (manual, seen) {
                (Some(m), _) => Some((m.yaw, m.pitch)),
                (None, Some(seen)) => {
                    let centre = transform.transform_point(spec.centre);
                    let point = lead(centre, seen.centre, seen.velocity, fastest);
                    Some(angles(transform.rotation.inverse() * (point - centre)))
                }
                (None, None) => None,
            };
            let (Some((yaw, pitch)), None) = (wanted, destroyed) else {
                aim.error = PI;
                continue;
            };
            // How far off it is counts against where it was asked to
            // point, past its limits too.
            let asked = TurretAim {
                yaw,
                pitch,
                error: 0.0,
            }
            .direction();
            let turn = |now: f32, want: f32, rate: f32| {
                let step = rate * dt;
                now + (want - now).clamp(-step, step)
            };
            let yaw_gap = (yaw - aim.yaw + PI).rem_euclid(2.0 * PI) - PI;
            aim.yaw = turn(aim.yaw, aim.yaw + yaw_gap, spec.yaw.rate);
            aim.yaw = (aim.yaw + PI).rem_euclid(2.0 * PI) - PI;
            let pitch = match spec.pitch.limits {
                Some((lo, hi)) => pitch.clamp(lo, hi),
                None => pitch,
            };
            aim.pitch = turn(aim.pitch, pitch, spec.pitch.rate);
            aim.error = aim.direction().angle_between(asked);
        }
    }
}

/// The AI's distance score of a round of top speed `v` and frame flags
/// `flags` at `d` m from its target, `height` m above or below.
pub fn distance_score(flags: u32, v: f32, d: f32, height: f32) -> f32 {
    if flags & ROUND_GUIDED != 0 {
        return 1.1;
    }
    if flags & ROUND_SCORES_FLAT != 0 {
        return 1.0;
    }
    let hold = (v + 1.0) / 2.0;
    let end = 2.0 * (v + 1.0);
    let band = if d < 5.0 {
        d / 5.0
    } else if d <= hold {
        1.0
    } else if d < end {
        (end - d) / (end - hold)
    } else {
        0.0
    };
    let lift = if v > 0.0 { 1.0 - height.abs() / v } else { 0.0 };
    band * lift.max(0.0)
}

/// The bar a unit's score must pass: 0 in free fire (a go or attack
/// order), 0.85 for a building, 0.45 for a flyer or a machine whose live
/// forward top speed is under 0.5 m/s, 0.85 otherwise.
fn bar(order: Option<OrderKind>, kind: Option<&ObjectKind>, body: Option<&Body>) -> f32 {
    if matches!(order, Some(OrderKind::Go | OrderKind::Attack)) {
        return 0.0;
    }
    if kind.and_then(|k| k.kind()) == Some(tma::ObjectKind::Building) {
        return 0.85;
    }
    match body {
        Some(b) if !b.holds_ground || b.limits.top_speed.y < 0.5 => 0.45,
        _ => 0.85,
    }
}

type Firing<'a> = (
    &'a Transform,
    &'a Armament,
    &'a mut Weapons,
    &'a Target,
    Option<&'a Manual>,
    Option<&'a NodeLife>,
    Option<&'a PhysicalState>,
    Option<&'a Orders>,
    Option<&'a ObjectKind>,
    Option<&'a Body>,
    Option<&'a Destroyed>,
    Option<&'a LevelRatio>,
);

/// A round about to leave: who fires it, from which gun and barrel.
struct Launch {
    shooter: OriginalObjectId,
    gun: usize,
    barrels: Vec<usize>,
    /// Where its target's sphere centre is.
    target_at: Option<Vec3>,
}

/// Runs every gun's takt, in id then gun order, and launches the rounds
/// whose stroke reaches half-way.
#[allow(clippy::too_many_arguments)]
pub(crate) fn fire(
    clock: Res<GameClock>,
    registry: Res<ObjectRegistry>,
    ground: Option<Res<GroundFaces>>,
    mut serial: ResMut<RoundSerial>,
    mut rounds: ResMut<Rounds>,
    mut events: ResMut<CombatEvents>,
    mut armed: Query<Firing>,
    views: Query<TargetView>,
    world: Query<Targets>,
) {
    let dt = clock.timestep().as_secs_f64();
    let now = clock.tick() as f64 * dt;
    let power_tick = power_tick(&clock);
    let mut launches = Vec::new();
    for (id, entity) in registry.iter() {
        let Ok((
            transform,
            armament,
            mut weapons,
            target,
            manual,
            life,
            _,
            orders,
            kind,
            body,
            destroyed,
            _,
        )) = armed.get_mut(entity)
        else {
            continue;
        };
        let seen = sight(target, &registry, &views);
        let order = orders.and_then(Orders::current).map(|o| o.kind);
        let bar = bar(order, kind, body);
        for (g, spec) in armament.guns.iter().enumerate() {
            let aim = spec.turret.map(|t| weapons.turrets[t]);
            let state = &mut weapons.guns[g];
            // STAND-IN: always at full power, whole again at once (docs/29:
            // the power tick refills by what the power system gives; the
            // ±31 ms jitter is not modelled); settled by simulating the power
            // system (openparkan docs/29 "A gun is a capacitor").
            if power_tick {
                state.charge = spec.values.capacitor;
            }
            let alive = life.is_none_or(|l| l.of(spec.node) > 0.0) && destroyed.is_none();
            let wants = alive
                && match manual {
                    Some(m) => m.fires(g),
                    None => seen.is_some_and(|s| {
                        ready_to_shoot(transform, spec, aim, s, bar, state, dt as f32)
                    }),
                };
            if let Some(barrels) = takt(spec, state, now, wants) {
                launches.push(Launch {
                    shooter: id,
                    gun: g,
                    barrels,
                    target_at: seen.map(|s| s.centre),
                });
            }
        }
    }
    for launch in launches {
        let Ok(entity) = registry.entity(launch.shooter) else {
            continue;
        };
        let Ok((transform, armament, weapons, target, _, _, state, .., level)) = armed.get(entity)
        else {
            continue;
        };
        let spec = &armament.guns[launch.gun];
        let aim = spec.turret.map(|t| (t, weapons.turrets[t]));
        let shooter_velocity = state.map_or(Vec3::ZERO, |s| s.linear_velocity);
        for b in launch.barrels {
            let Some(barrel) = spec.barrels.get(b) else {
                continue;
            };
            // The barrel turned with its turret about the turret's centre.
            // STAND-IN: turned about `TurretCenter` (docs/30 draws the aim by
            // channels, not about a point), so a round leaves where the
            // barrel is drawn; settled by a retail turret's muzzle flash
            // position at full pitch.
            let (muzzle, along) = match aim {
                Some((t, a)) => {
                    let centre = armament.turrets[t].centre;
                    let turn = a.turn();
                    (
                        centre + turn * (barrel.muzzle - centre),
                        turn * barrel.direction,
                    )
                }
                None => (barrel.muzzle, barrel.direction),
            };
            let muzzle = transform.transform_point(muzzle);
            let sight = aim.map(|(t, a)| {
                let centre = transform.transform_point(armament.turrets[t].centre);
                (centre, transform.rotation * a.direction())
            });
            let direction = launch_direction(
                spec,
                muzzle,
                transform.rotation * along,
                sight,
                launch.target_at,
                &Sight {
                    shooter: launch.shooter,
                    ground: ground.as_deref(),
                    registry: &registry,
                    world: &world,
                },
            );
            let Some(direction) = direction else { continue };
            let number = serial.next();
            let shot = events.push(
                clock.tick(),
                EventKind::Shot,
                launch.shooter.raw(),
                None,
                Some(spec.node),
                number as f32,
            );
            shot.cue = spec.effect.clone().map(|effect| EffectCue {
                effect,
                at: muzzle,
                rotation: Quat::from_rotation_arc(Vec3::X, direction),
                scale: 1.0,
                on: Some(launch.shooter.raw()),
                node: Some(spec.node),
            });
            rounds.0.push(Round::launch(
                (number, level.map_or(1.0, |l| l.0)),
                spec.round.clone(),
                (launch.shooter, target.0),
                muzzle,
                direction * spec.round.speed + shooter_velocity,
                direction,
            ));
        }
    }
}

/// Whether a gun would shoot at `seen` now: range, a guided gun's cone
/// and lock (counted down here), and the AI's score against `bar`.
fn ready_to_shoot(
    transform: &Transform,
    spec: &GunSpec,
    aim: Option<TurretAim>,
    seen: Sighted,
    bar: f32,
    state: &mut GunState,
    dt: f32,
) -> bool {
    let round = &spec.round;
    let from = transform.translation;
    let d = from.distance(seen.centre);
    let range = match round.seeker {
        Some(s) => round.range.min(s.reach),
        None => round.range,
    };
    let pointing = aim.map_or(transform.rotation * Vec3::NEG_Z, |a| {
        transform.rotation * a.direction()
    });
    let inside = round
        .seeker
        .is_none_or(|s| pointing.dot((seen.centre - from).normalize_or_zero()) > s.cone.cos());
    if (range > 0.0 && d > range) || !inside {
        state.lock = round.seeker.map_or(0.0, |s| s.lock_s);
        return false;
    }
    if state.lock > 0.0 && matches!(state.phase, GunPhase::Idle) {
        state.lock -= dt;
        return false;
    }
    // STAND-IN: θ is the turret's angle off its aim point and the gun's own
    // factor is 1 (docs/29 "How the AI fires" names both, not how they are
    // got); settled by reading the AI fire score in the control DLL.
    let error = aim.map_or(0.0, |a| a.error);
    let aim_factor = 1.0 - error * d / seen.radius;
    let height = seen.centre.y - from.y;
    distance_score(round.flags, round.speed, d, height) * aim_factor > bar
}

impl GunState {
    /// Where its barrel's stroke stands at `now` (s of game time): 0 at
    /// its start, 0.5 as the round leaves, toward 1 at its end; 0 out of a
    /// stroke (the barrel channel's value, openparkan `docs/11-effects.md`,
    /// "Time mode 4 is a node's animation value").
    pub fn stroke_phase(&self, spec: &GunSpec, now: f64) -> f32 {
        let stroke = f64::from(spec.barrels.get(self.barrel).map_or(0.0, |b| b.stroke_s));
        match self.phase {
            GunPhase::Stroke { start, .. } if stroke > 0.0 => {
                ((now - start) / stroke).clamp(0.0, 1.0) as f32
            }
            _ => 0.0,
        }
    }
}

/// Advances a gun's stroke, interval and start by the clock; returns the
/// barrels whose round leaves now.
fn takt(spec: &GunSpec, state: &mut GunState, now: f64, wants: bool) -> Option<Vec<usize>> {
    let mut leaving = None;
    let stroke = f64::from(spec.barrels.get(state.barrel).map_or(0.0, |b| b.stroke_s));
    if let GunPhase::Wait { until } = state.phase
        && now >= until
    {
        state.phase = GunPhase::Idle;
    }
    if state.phase == GunPhase::Idle && wants {
        let charged = spec.values.capacitor <= 0.0 || state.charge >= spec.values.energy_per_shot;
        if state.rounds != 0 && charged {
            state.phase = GunPhase::Stroke {
                start: now,
                fired: false,
            };
            state.lock = spec.round.seeker.map_or(0.0, |s| s.lock_s);
        }
    }
    if let GunPhase::Stroke { start, fired } = state.phase {
        if !fired && now >= start + stroke / 2.0 {
            state.phase = GunPhase::Stroke { start, fired: true };
            let count = spec.barrels.len().max(1);
            leaving = Some(if spec.all_barrels {
                (0..count).collect()
            } else {
                vec![state.barrel % count]
            });
        }
        if now >= start + stroke {
            if state.rounds > 0 {
                state.rounds -= 1;
            }
            if spec.values.capacitor > 0.0 {
                state.charge -= spec.values.energy_per_shot;
            }
            state.barrel = (state.barrel + 1) % spec.barrels.len().max(1);
            state.phase = GunPhase::Wait {
                until: start + stroke + f64::from(spec.values.interval_ms) / 1000.0,
            };
        }
    }
    leaving
}

/// The world the sight ray looks into, and whose ray it is.
struct Sight<'a, 'w, 's, 'q> {
    shooter: OriginalObjectId,
    ground: Option<&'a GroundFaces>,
    registry: &'a ObjectRegistry,
    world: &'a Query<'w, 's, Targets<'q>>,
}

/// Which way a round leaves its muzzle: a lobbed round onto the lower arc
/// to the target (none when it cannot reach it); one on a turret toward
/// the sight ray's first hit, at least [`MIN_AIM`] out; otherwise along
/// its barrel.
fn launch_direction(
    spec: &GunSpec,
    muzzle: Vec3,
    barrel: Vec3,
    sight: Option<(Vec3, Vec3)>,
    target: Option<Vec3>,
    look: &Sight<'_, '_, '_, '_>,
) -> Option<Vec3> {
    if spec.round.lobbed {
        return target.and_then(|t| lobbed(t - muzzle, spec.round.speed));
    }
    let Some((centre, forward)) = sight else {
        return barrel.try_normalize();
    };
    let from = centre + forward * SIGHT_FROM;
    let to = centre + forward * SIGHT_REACH;
    let hit = first_hit(
        from,
        to,
        Some(look.shooter),
        look.ground,
        look.registry,
        look.world,
    );
    let aim = match hit {
        Some(hit) => {
            let at = from.lerp(to, hit.t);
            let reach = (at - centre).length().max(MIN_AIM);
            centre + forward * reach
        }
        None => return forward.try_normalize(),
    };
    (aim - muzzle).try_normalize()
}

/// The launch direction of a round of `speed` falling at g onto a point
/// `d` away: the lower arc, t² = 2 (A − √D) ÷ g² with A = v² − g·d_y and
/// D = A² − g²|d|² (none when D < 0).
fn lobbed(d: Vec3, speed: f32) -> Option<Vec3> {
    let g = GRAVITY;
    let a = speed * speed - g * d.y;
    let disc = a * a - g * g * d.length_squared();
    if disc < 0.0 {
        return None;
    }
    let t = (2.0 * (a - disc.sqrt()) / (g * g)).sqrt();
    (t.is_finite() && t > 0.0)
        .then(|| (d / t + Vec3::Y * (g * t / 2.0)).try_normalize())
        .flatten()
}

/// Save section: the saved guns back, each object's fitting its
/// armament as the mission gave it (one aim per turret, one state per
/// gun: a save made before a mod changed a unit's guns is refused).
pub(crate) fn restore_weapons(world: &mut World, state: &RawValue) -> Result<(), String> {
    restore_objects::<Weapons>(world, state)?;
    let registry = world.resource::<ObjectRegistry>();
    for (id, entity) in registry.iter() {
        let Some(weapons) = world.get::<Weapons>(entity) else {
            continue;
        };
        let fits = world.get::<Armament>(entity).is_some_and(|a| {
            a.turrets.len() == weapons.turrets.len() && a.guns.len() == weapons.guns.len()
        });
        if !fits {
            return Err(format!("{id}: the guns saved are not its armament's"));
        }
    }
    Ok(())
}

/// State-hash contributor: every armed object's turrets and guns in id
/// order.
pub(crate) fn hash_weapons(world: &World, hasher: &mut StateHasher) {
    let Some(registry) = world.get_resource::<ObjectRegistry>() else {
        return;
    };
    for (id, entity) in registry.iter() {
        let Some(weapons) = world.get::<Weapons>(entity) else {
            continue;
        };
        hasher.object(id.raw());
        for (i, t) in weapons.turrets.iter().enumerate() {
            hasher.field_at("turret", i);
            [t.yaw, t.pitch, t.error]
                .iter()
                .for_each(|&v| hasher.write_f32(v));
        }
        for (i, g) in weapons.guns.iter().enumerate() {
            hasher.field_at("gun", i);
            hasher.write_u32(g.rounds as u32);
            hasher.write_f32(g.charge);
            hasher.write_f32(g.lock);
            hasher.write_u32(g.barrel as u32);
            let (code, time, fired) = match g.phase {
                GunPhase::Idle => (0, 0.0, false),
                GunPhase::Stroke { start, fired } => (1, start, fired),
                GunPhase::Wait { until } => (2, until, false),
            };
            hasher.write_u32(code);
            hasher.write_u64(time.to_bits());
            hasher.write_u32(u32::from(fired));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distance_score_holds_one_to_half_the_speed_and_ends_at_twice_it() {
        let v = 199.0;
        assert_eq!(distance_score(0, v, 2.5, 0.0), 0.5);
        assert_eq!(distance_score(0, v, 100.0, 0.0), 1.0);
        assert!((distance_score(0, v, 250.0, 0.0) - 0.5).abs() < 1e-6);
        assert_eq!(distance_score(0, v, 400.0, 0.0), 0.0);
        // Height takes its share of the speed off.
        assert!((distance_score(0, v, 100.0, 19.9) - 0.9).abs() < 1e-6);
        assert_eq!(distance_score(ROUND_GUIDED, v, 900.0, 50.0), 1.1);
        assert_eq!(distance_score(ROUND_SCORES_FLAT, v, 900.0, 50.0), 1.0);
    }

    #[test]
    fn a_lead_meets_a_crossing_target_and_a_lob_lands_on_its_point() {
        let (from, at, v) = (Vec3::ZERO, Vec3::new(0.0, 0.0, -100.0), Vec3::X * 10.0);
        let p = lead(from, at, v, 100.0);
        let t = p.length() / 100.0;
        assert!((at + v * t - p).length() < 1e-3, "{p}");
        // A lobbed round launched along the lower arc comes down on the point.
        let d = Vec3::new(40.0, 0.0, -30.0);
        let dir = lobbed(d, 45.0).unwrap();
        let velocity = dir * 45.0;
        let t = d.xz().length() / velocity.xz().length();
        let y = velocity.y * t - GRAVITY * t * t / 2.0;
        assert!(y.abs() < 1e-2, "{y}");
        assert_eq!(
            lobbed(Vec3::new(1000.0, 0.0, 0.0), 45.0),
            None,
            "out of reach"
        );
        // The aim angles invert the direction.
        let aim = TurretAim {
            yaw: 0.7,
            pitch: -0.2,
            error: 0.0,
        };
        let (yaw, pitch) = angles(aim.direction());
        assert!((yaw - 0.7).abs() < 1e-5 && (pitch + 0.2).abs() < 1e-5);
    }
}
