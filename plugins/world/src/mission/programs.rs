//! What an object's controllers do to its effects, resolved at load: the
//! section-5 groups their block runs at load (entry 0), as the machine
//! becomes critically damaged (6) and as it recovers (7) (openparkan
//! `docs/13-control.md`, "The section-5 record" and "Critical damage:
//! block entries 6 and 7"; `docs/11-effects.md`, "Starting, ending,
//! switching"). The effects plugin runs them.
//!
//! An instance a controller makes is known by its key: the part's index
//! times `0x10000` plus the record's id (`v7` of actions 3 and 4, `v4` of
//! the others). The groups the controllers' states run by index are
//! resolved beside them: a state's as it is entered (`+0x90`,
//! `docs/24-motion.md`, "Section 1 is the animation state graph"), a state
//! contact's as its foot lands (`docs/13-control.md`, "A footstep, end to
//! end"). Stand-ins (docs/facts.md "Stand-ins"): a control
//! point is placed in the construction pose, and the records of these
//! groups that are not effect actions are kept (they count in the runs)
//! but not carried out from here.

use super::arms::{self, PartArms};
use super::components::NodeRef;
use super::effects::reference_key;
use bevy::prelude::*;
use iron3d_formats::proto::ctld::{
    ACTION_EFFECT_AT_POINT, ACTION_EFFECT_AT_POINTS, ACTION_EFFECT_DELETE, ACTION_EFFECT_NODE,
    ACTION_EFFECT_OFF, ACTION_EFFECT_ON, ACTION_EFFECT_RESTART, ACTION_EFFECT_START, Action, Ctld,
    GROUP_AT_LOAD, GROUP_CRITICAL, GROUP_RECOVERED,
};
use std::sync::Arc;

/// The library a controller's effect names are read from when their
/// record names no archive.
// STAND-IN: `effects.rlb` (docs/13 "The section-5 record" gives the
// archive and member, not a default archive); settled by a retail record
// without an archive and the file the engine opens for it.
pub const EFFECT_CONTEXT: &[u8] = b"effects.rlb";

/// The block entries whose groups act on effects.
pub const EFFECT_ENTRIES: [usize; 3] = [GROUP_AT_LOAD, GROUP_CRITICAL, GROUP_RECOVERED];

/// What an effect action does to the instance its key names.
#[derive(Debug, Clone, PartialEq)]
pub enum EffectDoes {
    /// Actions 3 and 4: make an instance of the effect (its key in
    /// [`super::MissionEffects`]; `None` when the record names none) at a
    /// point of the object's frame: control point `v4`, or the centroid
    /// of `v4..v6` (the part's origin when none of them is there).
    Make {
        effect: Option<String>,
        at: Vec3,
    },
    /// Action 8.
    Delete,
    /// Action 10: start again now, in time mode `v5`.
    Start {
        mode: u32,
    },
    /// Action 11: start again in its own mode once it has finished.
    Restart,
    /// Action 14: time modes 4, 16 and 17 read this node.
    Node(NodeRef),
    /// Actions 18 and 19.
    On,
    Off,
    /// Any other action: it takes part in the runs, nothing more here.
    Other,
}

/// One record of an effect group.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectAction {
    /// The record as stored: its condition, run flags and code.
    pub record: Action,
    /// The instance it acts on.
    pub key: u32,
    pub does: EffectDoes,
}

impl AsRef<Action> for EffectAction {
    fn as_ref(&self) -> &Action {
        &self.record
    }
}

/// What runs a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The group of a block entry.
    Block(usize),
    /// Section-5 group `n`, run by index: as a state naming it is
    /// entered, or as a state contact naming it lands.
    Group(usize),
}

/// One controller's group.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectGroup {
    pub trigger: Trigger,
    pub part: usize,
    pub actions: Vec<EffectAction>,
}

/// An object's effect groups, in part order.
#[derive(Component, Debug, Clone, PartialEq, Default)]
pub struct EffectPrograms(pub Arc<Vec<EffectGroup>>);

impl EffectPrograms {
    /// The groups of block `entry`, in part order.
    pub fn of(&self, entry: usize) -> impl Iterator<Item = &EffectGroup> {
        self.0
            .iter()
            .filter(move |g| g.trigger == Trigger::Block(entry))
    }

    /// Part `part`'s section-5 group `group`, run by index.
    pub fn group(&self, part: usize, group: usize) -> Option<&EffectGroup> {
        self.0
            .iter()
            .find(|g| g.part == part && g.trigger == Trigger::Group(group))
    }
}

/// The section-5 groups `ctld`'s states and their contacts run by index
/// (as a state is entered, as a contact lands), each once, in index order.
fn indexed_groups(ctld: &Ctld) -> Vec<usize> {
    let entering = (0..ctld.states.len()).filter_map(|i| Some(ctld.state(i)?.action_group));
    let landing = (0..ctld.states.len())
        .flat_map(|i| ctld.contacts(i))
        .map(|k| k.group);
    let mut groups: Vec<usize> = entering
        .chain(landing)
        .filter_map(|g| usize::try_from(g).ok())
        .filter(|&g| g < ctld.groups.len())
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}

/// Every group of `ctld` that acts on effects, with what runs it.
fn effect_groups(ctld: &Ctld) -> impl Iterator<Item = (Trigger, &[Action])> {
    let blocks = EFFECT_ENTRIES
        .iter()
        .map(|&entry| (Trigger::Block(entry), ctld.group_of(entry)));
    let indexed = indexed_groups(ctld)
        .into_iter()
        .map(|g| (Trigger::Group(g), ctld.groups[g].as_slice()));
    blocks.chain(indexed)
}

/// The effect names `ctld`'s effect groups make, as `(archive, entry)`.
pub(crate) fn named_effects(ctld: &Ctld) -> Vec<(Vec<u8>, Vec<u8>)> {
    effect_groups(ctld)
        .flat_map(|(_, group)| group)
        .filter(|a| matches!(a.code(), ACTION_EFFECT_AT_POINT | ACTION_EFFECT_AT_POINTS))
        .filter_map(|a| {
            let key = reference_key(EFFECT_CONTEXT, &a.resource)?;
            let (archive, entry) = key.split_once("::")?;
            Some((archive.as_bytes().to_vec(), entry.as_bytes().to_vec()))
        })
        .collect()
}

/// The effect groups of an object's parts.
pub(crate) fn assemble(
    parts: &[PartArms<'_>],
    frames: &[(Transform, Option<usize>)],
) -> EffectPrograms {
    let poses = arms::part_poses(parts, frames);
    let mut groups = Vec::new();
    for (p, part) in parts.iter().enumerate() {
        let Some(ctld) = part.ctld else { continue };
        for (trigger, group) in effect_groups(ctld) {
            let actions: Vec<EffectAction> = group
                .iter()
                .map(|record| resolve(record, p, part, &poses, frames))
                .collect();
            if !actions.is_empty() {
                groups.push(EffectGroup {
                    trigger,
                    part: p,
                    actions,
                });
            }
        }
    }
    EffectPrograms(Arc::new(groups))
}

/// One record of part `p`, its points placed in the object's frame.
fn resolve(
    record: &Action,
    p: usize,
    part: &PartArms<'_>,
    poses: &[Vec<Transform>],
    frames: &[(Transform, Option<usize>)],
) -> EffectAction {
    let [v4, v5, v6, v7] = record.args();
    let key = |id: i32| ((p as u32) << 16).wrapping_add(id as u32 & 0xFFFF);
    let make = |points: &[i32]| {
        let found: Vec<Vec3> = points
            .iter()
            .filter_map(|&i| arms::point(part, p, i, poses, frames).map(|(at, _)| at))
            .collect();
        // STAND-IN: points placed in the construction pose, the part's
        // origin when none is there (docs/13 "The section-5 record" names
        // the points, not their pose); settled by a retail effect made on
        // an animated node's point.
        let at = if found.is_empty() {
            frames.get(p).map_or(Vec3::ZERO, |f| f.0.translation)
        } else {
            found.iter().sum::<Vec3>() / found.len() as f32
        };
        EffectDoes::Make {
            effect: reference_key(EFFECT_CONTEXT, &record.resource),
            at,
        }
    };
    let (id, does) = match record.code() {
        ACTION_EFFECT_AT_POINT => (v7, make(&[v4])),
        ACTION_EFFECT_AT_POINTS => (v7, make(&[v4, v5, v6])),
        ACTION_EFFECT_DELETE => (v4, EffectDoes::Delete),
        ACTION_EFFECT_START => (
            v4,
            EffectDoes::Start {
                mode: v5.max(0) as u32,
            },
        ),
        ACTION_EFFECT_RESTART => (v4, EffectDoes::Restart),
        ACTION_EFFECT_NODE => (
            v4,
            EffectDoes::Node(NodeRef {
                part: p,
                // STAND-IN: `v5` is the node's index in its part (docs/11
                // "Starting, ending, switching" names a node); settled by a
                // retail action 14 and the node its effect follows.
                node: v5.max(0) as usize,
            }),
        ),
        ACTION_EFFECT_ON => (v4, EffectDoes::On),
        ACTION_EFFECT_OFF => (v4, EffectDoes::Off),
        _ => (0, EffectDoes::Other),
    };
    EffectAction {
        record: record.clone(),
        key: key(id),
        does,
    }
}
