//! One SuperAI per clan with a script (openparkan `docs/15-behaviour.md`,
//! `docs/34-progression.md`; docs/facts.md "Scripts"): its script, its
//! variables (which keep their values between runs), its seconds clock,
//! its problem handler, its problems and the units it holds back.

use crate::Brains;
use crate::files::MissionScripts;
use crate::vm::Variables;
use bevy::prelude::World;
use iron3d_formats::script::Bundle;
use iron3d_schedules::{RawValue, StateHasher, from_section};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A problem the clan's planner works on (function 2 raises one).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// The code variable's name (`PBM_ATTACK_UNIT`) and its value.
    pub name: String,
    pub code: u32,
    pub weight: f32,
    /// The two numbers it was raised with, then its three parameters.
    pub numbers: [u32; 2],
    pub params: [u32; 3],
    /// Its state word (`ST_*`, 0 when raised).
    pub state: u32,
    /// `_Start` and `_Continue` handler indices.
    pub handlers: [usize; 2],
    pub started: bool,
    /// Attached units (id, critical).
    pub units: Vec<(u32, bool)>,
    /// Groups of unit ids (a released group stays as an empty slot).
    pub groups: Vec<Vec<u32>>,
    /// Recorded actions: (action, target kind, target).
    pub actions: Vec<[u32; 3]>,
}

/// A clan's SuperAI.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Brain {
    pub clan: u32,
    pub clan_name: String,
    /// The clan's script path as the TMA spells it.
    pub path: String,
    /// Its clan's script (a save holds the clan alone: [`restore_brains`]).
    #[serde(skip)]
    pub bundle: Arc<Bundle>,
    pub vars: Variables,
    /// Whole seconds; each takt adds 7 (functions 59 and 60 read it).
    pub seconds: u32,
    /// The handler each takt runs (`Problems0`, or what function 33 set).
    pub problem_handler: Option<usize>,
    /// Game time (ms) of the next takt.
    pub next_takt_ms: u64,
    pub problems: Vec<Problem>,
    /// Units reserved from every problem (function 51).
    pub reserved: BTreeSet<u32>,
}

impl Brain {
    /// Whether every handler index the brain holds (its problem handler,
    /// each problem's two) is one of its script's `count` handlers: a
    /// save is untrusted.
    fn handlers_within(&self, count: usize) -> Result<(), String> {
        let held = self.problem_handler.into_iter().chain(
            self.problems
                .iter()
                .flat_map(|p| p.handlers.iter().copied()),
        );
        match held.into_iter().find(|&h| h >= count) {
            Some(h) => Err(format!(
                "clan {}: handler {h} is not one of its script's {count}",
                self.clan
            )),
            None => Ok(()),
        }
    }

    /// A brain for `clan` running `bundle`, its variables at their defaults.
    pub fn new(clan: u32, clan_name: String, path: String, bundle: Arc<Bundle>) -> Self {
        let problem_handler = bundle.script.handler("Problems0").map(|(i, _)| i);
        Self {
            clan,
            clan_name,
            path,
            vars: Variables::new(&bundle),
            bundle,
            seconds: 0,
            problem_handler,
            next_takt_ms: 0,
            problems: Vec::new(),
            reserved: BTreeSet::new(),
        }
    }

    /// The handler named `name`.
    pub fn handler(&self, name: &str) -> Option<usize> {
        self.bundle.script.handler(name).map(|(i, _)| i)
    }

    /// The value `varset.var` declares for `name`, as its bits: a named
    /// constant the engine interprets (never a number compiled in).
    pub fn word(&self, name: &str) -> Option<u32> {
        let i = self.bundle.vars.index_of(name)?;
        self.bundle.vars.get(i).map(|v| v.default.bits())
    }

    /// Sets the engine-written variable `name` (`dCurrentProblem`,
    /// `dCurrentSender`) when the varset declares it.
    pub fn set_word(&mut self, name: &str, value: u32) {
        if let Some(i) = self.bundle.vars.index_of(name) {
            // An index the varset gave is always inside the variables.
            let _ = self.vars.set(i, crate::vm::Value::Dword(value));
        }
    }

    /// Whether `id` is held by a problem or reserved.
    pub fn busy(&self, id: u32) -> bool {
        self.reserved.contains(&id) || self.problems.iter().any(|p| p.holds(id))
    }

    /// The weight of the problem holding `id`, if one does.
    pub fn holder_weight(&self, id: u32) -> Option<f32> {
        self.problems.iter().find(|p| p.holds(id)).map(|p| p.weight)
    }

    /// Takes `id` off every problem and group that holds it.
    pub fn detach(&mut self, id: u32) {
        for p in &mut self.problems {
            p.units.retain(|&(u, _)| u != id);
            p.groups.iter_mut().for_each(|g| g.retain(|&u| u != id));
        }
    }

    /// Hash contribution: everything a later run reads.
    pub fn hash_into(&self, h: &mut StateHasher) {
        h.write_u32(self.clan);
        for &b in self.vars.bits() {
            h.write_u32(b);
        }
        h.write_u32(self.seconds);
        h.write_u64(self.problem_handler.map_or(u64::MAX, |i| i as u64));
        h.write_u64(self.next_takt_ms);
        h.write_u64(self.problems.len() as u64);
        for p in &self.problems {
            h.write(p.name.as_bytes());
            h.write_f32(p.weight);
            for w in p.numbers.iter().chain(&p.params).chain([&p.state]) {
                h.write_u32(*w);
            }
            h.write_u8(u8::from(p.started));
            for &(id, critical) in &p.units {
                h.write_u32(id);
                h.write_u8(u8::from(critical));
            }
            for g in &p.groups {
                h.write_u64(g.len() as u64);
                g.iter().for_each(|&id| h.write_u32(id));
            }
        }
        self.reserved.iter().for_each(|&id| h.write_u32(id));
    }
}

impl Problem {
    /// Whether a unit is attached or in one of its groups.
    pub fn holds(&self, id: u32) -> bool {
        self.units.iter().any(|&(u, _)| u == id) || self.groups.iter().any(|g| g.contains(&id))
    }

    /// Lets every unit go.
    pub fn release(&mut self) {
        self.units.clear();
        self.groups.iter_mut().for_each(Vec::clear);
    }
}

/// Save section (every clan's SuperAI, its script by clan): the saved
/// brains, each on its clan's script as the mission read it.
pub(crate) fn restore_brains(world: &mut World, state: &RawValue) -> Result<(), String> {
    let mut brains: Brains = from_section(state)?;
    let scripts = world
        .get_resource::<MissionScripts>()
        .ok_or("the mission has no scripts")?;
    for brain in &mut brains.list {
        let bundle = scripts
            .clans
            .iter()
            .find(|c| c.clan as u32 == brain.clan)
            .and_then(|c| c.bundle.as_ref().ok())
            .ok_or_else(|| format!("clan {} has no script in the mission", brain.clan))?;
        if !brain.vars.fit(bundle) {
            return Err(format!(
                "clan {}: the variables saved are not its script's ({} declared)",
                brain.clan,
                bundle.vars.vars().len()
            ));
        }
        brain.handlers_within(bundle.script.handlers.len())?;
        brain.bundle = bundle.clone();
    }
    if let Some(player) = brains.player.filter(|&p| p >= brains.list.len()) {
        return Err(format!(
            "player: brain {player} is not one of the {} saved",
            brains.list.len()
        ));
    }
    world.insert_resource(brains);
    Ok(())
}
