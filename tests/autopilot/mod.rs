//! A player made of code for the kept replay of the demo mission won by
//! recorded input: each step it looks at the world as a player looks at
//! the screen (where things are, who owns them) and sets only that step's
//! input, the keys held and the mouse counts; the recording keeps nothing
//! else, so the replay is the input of a won game.

use bevy::prelude::*;
use iron3d_combat::Weapons;
use iron3d_control::PhysicalState;
use iron3d_player::pilot::{MOUSE_MEMORY, MOUSE_ROW, MOUSE_STEP};
use iron3d_player::{Pilot, PlayerAction, StepInput};
use iron3d_world::mission::{
    Armament, Destroyed, Hero, HitModel, MissionPaths, ObjectClan, PrototypeKey,
};
use iron3d_world::{ObjectRegistry, OriginalObjectId};
use std::f32::consts::TAU;

/// The demo's clans: the player's, the enemy's and the neutral one.
const PLAYER: u32 = 1;
const ENEMY: u32 = 2;
const NEUTRAL: u32 = 3;
/// m: an enemy machine this near is fought before the leg goes on (the
/// reach of the demo's lasers).
const DEFEND_RANGE: f32 = 600.0;
/// m: a walk leg is done this near its place.
const ARRIVED: f32 = 6.0;
/// rad: the sight is on its mark within this.
const ON_MARK: f32 = 0.02;
/// rad: the hull walks while its nose is this near the way.
const WALK_CONE: f32 = 0.5;
/// rad of turn and share of the pitch span: a mouse correction is given
/// only when the aim is off by more (the input stays unchanged, and the
/// replay small, while the hull pays out the turn already asked).
const TURN_SLACK: f32 = 0.01;
const PITCH_SLACK: f32 = 0.005;

/// A leg of the win.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Leg {
    /// Stand in the base until the enemy has no robot left (its attack
    /// comes to the base, whose units meet it).
    Hold,
    /// Walk to a place (Bevy's ground plane, x and z).
    Walk(Vec2),
    /// Walk into a building until its pod takes it for the player.
    Take(OriginalObjectId),
    /// Shoot a building until it is destroyed.
    Shoot(OriginalObjectId),
}

/// What is left to do and how the hero has been moving.
#[derive(Resource, Debug, Clone)]
pub struct Autopilot {
    pub legs: Vec<Leg>,
    /// Where the hero was the step before, and the steps it has not
    /// moved since.
    last: Vec2,
    stuck: u32,
}

impl Autopilot {
    /// The legs of the demo's first mission: wait for the enemy's attack
    /// to break on the base, then out of it by the free build site and
    /// round to a place west of the enemy's tower, within the hero's
    /// lasers' reach of it and beyond the enemy base's radars (its armed
    /// buildings fire at what they see), where it shoots the tower down;
    /// back and along the road in the south to the neutral generator,
    /// which it takes, and back into the free build site's square (the
    /// mission ends on the way if the hero was in it on the way out).
    pub fn first_mission(world: &mut World) -> Self {
        let generator = building(world, NEUTRAL, "GENERATOR");
        let tower = building(world, ENEMY, "B_TOWER");
        let site = site_centre(world);
        Self {
            legs: vec![
                Leg::Hold,
                Leg::Walk(Vec2::new(-300.0, 250.0)),
                Leg::Walk(Vec2::new(-300.0, -250.0)),
                Leg::Walk(Vec2::new(-220.0, -290.0)),
                Leg::Shoot(tower),
                Leg::Walk(Vec2::new(-300.0, -250.0)),
                Leg::Walk(Vec2::new(-300.0, 250.0)),
                // East along the road past the north end of the row of
                // factories across it.
                Leg::Walk(Vec2::new(-100.0, 260.0)),
                Leg::Walk(Vec2::new(8.0, 250.0)),
                Leg::Walk(Vec2::new(150.0, 265.0)),
                Leg::Take(generator),
                Leg::Walk(Vec2::new(150.0, 265.0)),
                Leg::Walk(Vec2::new(8.0, 250.0)),
                Leg::Walk(Vec2::new(-100.0, 260.0)),
                Leg::Walk(Vec2::new(-300.0, 250.0)),
                Leg::Walk(site),
            ],
            last: Vec2::ZERO,
            stuck: 0,
        }
    }
}

/// The lowest id of `clan`'s buildings whose prototype key has `key`.
fn building(world: &mut World, clan: u32, key: &str) -> OriginalObjectId {
    let mut q = world.query::<(&OriginalObjectId, &PrototypeKey, &ObjectClan)>();
    q.iter(world)
        .filter(|(_, k, c)| {
            c.identity_raw == clan
                && String::from_utf8_lossy(&k.0)
                    .to_ascii_uppercase()
                    .contains(key)
        })
        .map(|(id, _, _)| *id)
        .min()
        .unwrap_or_else(|| panic!("no {key} of clan {clan}"))
}

/// The middle of the square round the free build site (the mission's
/// route 30, in TMA map coordinates: x east, y north = −z).
fn site_centre(world: &World) -> Vec2 {
    let square = world
        .resource::<MissionPaths>()
        .0
        .iter()
        .find(|p| p.id == 30)
        .expect("the free site's square");
    let sum = square
        .points
        .iter()
        .fold(Vec2::ZERO, |s, p| s + Vec2::new(p[0], -p[1]));
    sum / square.points.len() as f32
}

fn ground(at: Vec3) -> Vec2 {
    Vec2::new(at.x, at.z)
}

/// The hero as the player sees it.
struct HeroView {
    transform: Transform,
    pilot: Pilot,
    armament: Armament,
    /// The speed of its first gun's rounds.
    round_speed: f32,
}

impl HeroView {
    fn of(world: &mut World) -> Option<Self> {
        let mut q = world.query_filtered::<(&Transform, &Pilot, &Armament), (
            With<Hero>,
            With<Weapons>,
            Without<Destroyed>,
        )>();
        let (transform, pilot, armament) = q.iter(world).next()?;
        Some(Self {
            transform: *transform,
            pilot: *pilot,
            round_speed: armament.guns.first().map_or(1.0, |g| g.round.speed),
            armament: armament.clone(),
        })
    }

    /// The turret's centre (world).
    fn sight(&self) -> Vec3 {
        let centre = self
            .armament
            .turrets
            .first()
            .map_or(Vec3::ZERO, |t| t.centre);
        self.transform.transform_point(centre)
    }

    /// Yaw (+ left) and pitch (+ up) of `point` from the sight, in the
    /// hull's frame.
    fn angles_to(&self, point: Vec3) -> (f32, f32) {
        let d =
            (self.transform.rotation.inverse() * (point - self.sight())).normalize_or(Vec3::NEG_Z);
        ((-d.x).atan2(-d.z), d.y.clamp(-1.0, 1.0).asin())
    }

    /// The pitch channel value (0–1 across the turret's limits) that
    /// points the guns at `pitch` rad.
    fn channel(&self, pitch: f32) -> f32 {
        let (lo, hi) = self
            .armament
            .turrets
            .first()
            .and_then(|t| t.pitch.limits)
            .unwrap_or((-1.0, 1.0));
        ((pitch - lo) / (hi - lo)).clamp(0.0, 1.0)
    }

    /// Mouse counts that queue the rest of a `yaw` turn on the hull and
    /// move the pitch channel to `channel`, through the filter's memory;
    /// none while both are within their slack.
    fn mouse(&self, yaw: f32, channel: f32) -> Vec2 {
        let (turn, pitch) = (yaw - self.pilot.pending_turn, self.pilot.pitch - channel);
        if turn.abs() < TURN_SLACK && pitch.abs() < PITCH_SLACK {
            return Vec2::ZERO;
        }
        // The fractions the filter must give: of a turn (right +) and of
        // the pitch span (down +).
        let fraction = Vec2::new((-turn / TAU).clamp(-0.05, 0.05), pitch);
        let wanted = fraction / MOUSE_STEP;
        (wanted - self.pilot.filter * MOUSE_MEMORY) / (MOUSE_ROW * (1.0 - MOUSE_MEMORY))
    }

    /// Turns the hull and the guns onto `point` (moving at `velocity`,
    /// led by the round's flight); whether they are on it.
    fn aim(&self, point: Vec3, velocity: Vec3, input: &mut StepInput) -> bool {
        let flight = point.distance(self.sight()) / self.round_speed;
        let (yaw, pitch) = self.angles_to(point + velocity * flight);
        input.mouse = self.mouse(yaw, self.channel(pitch));
        yaw.abs() < ON_MARK
    }

    /// Aims at a mark and fires while on it; whether the mark is gone.
    fn fight(&self, mark: Option<(Vec3, Vec3)>, input: &mut StepInput) -> bool {
        let Some((at, velocity)) = mark else {
            return true;
        };
        let on = self.aim(at, velocity, input);
        input.held.set(PlayerAction::FirePrimary, on);
        false
    }

    /// Turns toward `to` and walks while facing it; whether it is within
    /// `within` of it.
    fn walk(&self, to: Vec2, within: f32, input: &mut StepInput) -> bool {
        let here = ground(self.transform.translation);
        let (yaw, _) = self.angles_to(Vec3::new(to.x, self.sight().y, to.y));
        input.mouse = self.mouse(yaw, self.channel(0.0));
        let far = here.distance(to) > within;
        input
            .held
            .set(PlayerAction::WalkForward, far && yaw.abs() < WALK_CONE);
        !far
    }
}

/// Where an object's hit sphere is and how fast it moves.
fn mark(world: &World, id: OriginalObjectId) -> Option<(Vec3, Vec3)> {
    let entity = world.resource::<ObjectRegistry>().entity(id).ok()?;
    if world.get::<Destroyed>(entity).is_some() {
        return None;
    }
    let transform = world.get::<Transform>(entity)?;
    let centre = world
        .get::<HitModel>(entity)
        .map_or(transform.translation, |m| {
            transform.transform_point(m.centre)
        });
    let velocity = world
        .get::<PhysicalState>(entity)
        .map_or(Vec3::ZERO, |s| s.linear_velocity);
    Some((centre, velocity))
}

/// The live enemy machines and how far each is from `at`.
fn enemies(world: &mut World, at: Vec3) -> Vec<(OriginalObjectId, f32)> {
    let mut q = world.query_filtered::<(&OriginalObjectId, &Transform, &ObjectClan), (
        With<PhysicalState>,
        Without<Destroyed>,
    )>();
    q.iter(world)
        .filter(|(_, _, c)| c.identity_raw == ENEMY)
        .map(|(id, t, _)| (*id, t.translation.distance(at)))
        .collect()
}

/// The nearest of `enemies` within [`DEFEND_RANGE`].
fn threat(enemies: &[(OriginalObjectId, f32)]) -> Option<OriginalObjectId> {
    enemies
        .iter()
        .filter(|(_, d)| *d < DEFEND_RANGE)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(id, _)| *id)
}

fn owner(world: &World, id: OriginalObjectId) -> Option<u32> {
    let entity = world.resource::<ObjectRegistry>().entity(id).ok()?;
    world.get::<ObjectClan>(entity).map(|c| c.identity_raw)
}

/// The autopilot's step (an exclusive system run where the step's input
/// is taken, before the recorder reads it).
pub fn steer(world: &mut World) {
    let Some(mut plan) = world.get_resource::<Autopilot>().cloned() else {
        return;
    };
    let Some(hero) = HeroView::of(world) else {
        return;
    };
    let here = ground(hero.transform.translation);
    plan.stuck = if here.distance(plan.last) < 0.05 {
        plan.stuck + 1
    } else {
        0
    };
    plan.last = here;
    let mut input = StepInput::default();
    let enemies = enemies(world, hero.transform.translation);
    let leg = plan.legs.first().copied();
    let done = match (leg, threat(&enemies)) {
        (Some(Leg::Hold), _) => enemies.is_empty(),
        (_, Some(enemy)) => {
            hero.fight(mark(world, enemy), &mut input);
            false
        }
        _ => match leg {
            None | Some(Leg::Hold) => false,
            Some(Leg::Walk(to)) => hero.walk(to, ARRIVED, &mut input),
            Some(Leg::Shoot(building)) => hero.fight(mark(world, building), &mut input),
            Some(Leg::Take(building)) => {
                // Walk into it until its wall holds the hull, then stand.
                if plan.stuck < 10 {
                    let (at, _) = mark(world, building).expect("the building stands");
                    hero.walk(ground(at), 0.0, &mut input);
                }
                owner(world, building) == Some(PLAYER)
            }
        },
    };
    if done {
        plan.legs.remove(0);
        plan.stuck = 0;
    }
    *world.resource_mut::<Autopilot>() = plan;
    *world.resource_mut::<StepInput>() = input;
}
