//! The mission as its scripts drive it, for the panel: the outcome, the
//! objectives, the latest messages, and each clan's SuperAI with its
//! clock, problems and variables by their `varset.var` names.

use bevy::prelude::*;
use iron3d_formats::script::varset::VarType;
use iron3d_script::vm::Value;
use iron3d_script::{Brain, Brains, ObjectiveState, Progress, ScriptErrors, outcome_line};

/// How many of the latest messages the panel shows.
pub const MESSAGES_SHOWN: usize = 6;

/// One clan's SuperAI.
#[derive(Debug, Clone, PartialEq)]
pub struct BrainView {
    /// `Enemy: MISSIONS\SCRIPTS\scr_en_1, clock 7 s, 1 problem`.
    pub title: String,
    /// `PBM_ATTACK_UNIT weight 1 state 1 units 7`.
    pub problems: Vec<String>,
    /// `name = value` in declaration order.
    pub variables: Vec<String>,
}

/// What the panel's Mission section draws.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MissionView {
    /// `outcome: ...` as a run prints it.
    pub outcome: String,
    /// `0 primary complete: Destroy the enemy tower`.
    pub objectives: Vec<String>,
    /// The latest messages, oldest first: `tick 241 MESSAGE_INFO 1: text`.
    pub messages: Vec<String>,
    pub brains: Vec<BrainView>,
    /// How many script faults and unimplemented slots were reported.
    pub errors: usize,
}

/// The Mission section's model of the World now.
pub fn mission_view(world: &World) -> MissionView {
    let Some(progress) = world.get_resource::<Progress>() else {
        return MissionView::default();
    };
    let objectives = progress
        .objectives
        .iter()
        .map(|o| {
            let kind = if o.primary { "primary" } else { "bonus" };
            let state = match o.state {
                ObjectiveState::Open => "open",
                ObjectiveState::Complete => "complete",
                ObjectiveState::Failed => "failed",
            };
            format!("{} {kind} {state}: {}", o.index, o.text)
        })
        .collect();
    let skip = progress.messages.len().saturating_sub(MESSAGES_SHOWN);
    let messages = progress.messages[skip..]
        .iter()
        .map(|m| {
            let text = m.text.as_deref().unwrap_or("");
            format!("tick {} {} {}: {text}", m.tick, m.kind, m.value)
        })
        .collect();
    MissionView {
        outcome: outcome_line(world),
        objectives,
        messages,
        brains: world
            .get_resource::<Brains>()
            .map(|b| b.list.iter().map(brain_view).collect())
            .unwrap_or_default(),
        errors: world
            .get_resource::<ScriptErrors>()
            .map_or(0, |e| e.list.len()),
    }
}

fn brain_view(brain: &Brain) -> BrainView {
    let n = brain.problems.len();
    let title = format!(
        "{}: {}, clock {} s, {n} problem{}",
        brain.clan_name,
        brain.path,
        brain.seconds,
        if n == 1 { "" } else { "s" }
    );
    let problems = brain
        .problems
        .iter()
        .map(|p| {
            let units: usize = p.units.len() + p.groups.iter().map(Vec::len).sum::<usize>();
            format!(
                "{} weight {} state {} units {units}",
                p.name, p.weight, p.state
            )
        })
        .collect();
    let variables = brain
        .bundle
        .vars
        .vars()
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let value = match (v.ty, brain.vars.get(i as u32)) {
                (VarType::Float, Ok(Value::Float(f))) => f.to_string(),
                (_, Ok(Value::Dword(d))) if d >= 0x1_0000 => format!("{d:#x}"),
                (_, Ok(value)) => value.dword().to_string(),
                (_, Err(e)) => e,
            };
            format!("{} = {value}", v.name)
        })
        .collect();
    BrainView {
        title,
        problems,
        variables,
    }
}
