//! What combat did, tick by tick: the simulation's output for the report,
//! the HUD and (later) effects and sound. Appended in the order things
//! happen, so two runs of the same inputs give the same list.

use bevy::prelude::*;
use iron3d_world::mission::NodeRef;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EventKind {
    /// A gun fired a round.
    Shot,
    /// A round struck an object's node.
    Hit,
    /// A node lost life.
    Damage,
    /// A node's life reached 0 (it is hidden).
    NodeDestroyed,
    /// An object was destroyed: its node 0 or a vital node died.
    Destroyed,
    /// A round went off (struck or at the end of its range).
    Explosion,
    /// A shield stopped (part of) a round or a blast.
    Shielded,
    /// A node stepped up a damage stage short of 0 (it is drawn in that
    /// state and sets off its explosion).
    Stage,
    /// A machine became critically damaged: it burns, and its
    /// controllers' critical groups run.
    Critical,
    /// A critically damaged machine recovered (it was repaired).
    Recovered,
}

impl EventKind {
    /// The report's name of the kind.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Shot => "shot",
            EventKind::Hit => "hit",
            EventKind::Damage => "damage",
            EventKind::NodeDestroyed => "node_destroyed",
            EventKind::Destroyed => "destroyed",
            EventKind::Explosion => "explosion",
            EventKind::Shielded => "shielded",
            EventKind::Stage => "stage",
            EventKind::Critical => "critical",
            EventKind::Recovered => "recovered",
        }
    }
}

/// One event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CombatEvent {
    pub tick: u64,
    pub kind: EventKind,
    /// The object it happened to (the shooter of a shot, the shielded
    /// object).
    pub object: u32,
    /// Who caused it: the shooter of the round (none for burning).
    pub by: Option<u32>,
    /// The node concerned, when one is.
    pub node: Option<NodeRef>,
    /// Life lost (damage), points a shield stopped (shielded), the
    /// stage reached (stage), the round's serial (shot, hit, explosion),
    /// the life left (critical), else 0.
    pub amount: f32,
    /// The effect it sets off, when it sets one off.
    pub cue: Option<EffectCue>,
}

/// An effect an event sets off: the `FXID` by key
/// ([`iron3d_world::mission::MissionEffects`]), where (world frame), the
/// size asked of it (multiplied by the effect's own scale) and the object
/// it hangs on (it follows that object until the effect lets go).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EffectCue {
    pub effect: String,
    pub at: Vec3,
    /// The effect frame's turn (world): its +X along a muzzle's barrel.
    pub rotation: Quat,
    pub scale: f32,
    pub on: Option<u32>,
    /// The node of `on` whose animation value drives the effect's time
    /// modes 4, 16 and 17 (a gun's: its barrel stroke).
    pub node: Option<NodeRef>,
}

/// Every event so far.
#[derive(Resource, Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct CombatEvents(pub Vec<CombatEvent>);

impl CombatEvents {
    pub(crate) fn push(
        &mut self,
        tick: u64,
        kind: EventKind,
        object: u32,
        by: Option<u32>,
        node: Option<NodeRef>,
        amount: f32,
    ) -> &mut CombatEvent {
        self.0.push(CombatEvent {
            tick,
            kind,
            object,
            by,
            node,
            amount,
            cue: None,
        });
        self.0.last_mut().expect("just pushed")
    }
}
