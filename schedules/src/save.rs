//! The whole simulation's state as a save holds it: each subsystem
//! registers a section ([`AppStateSaveExt::add_state_save`]) that writes
//! its state as RON and puts it back into a freshly loaded mission, the
//! way each registers its part of the [`StateHash`](crate::StateHash).
//! What a section holds is its own business; sections are restored in
//! registration order (objects before what refers to them).

use bevy::prelude::*;
use ron::value::RawValue;
use serde::{Deserialize, Serialize};

/// Writes one subsystem's state.
pub type SaveFn = fn(&World) -> Result<Box<RawValue>, String>;

/// Puts one subsystem's saved state back into the world.
pub type RestoreFn = fn(&mut World, &RawValue) -> Result<(), String>;

/// One subsystem's state in a save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedSection {
    pub name: String,
    pub state: Box<RawValue>,
}

/// A section that could not be written or put back, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state section {section}: {problem}")]
pub struct SectionError {
    pub section: String,
    pub problem: String,
}

/// The registered sections, in registration order.
#[derive(Resource, Default)]
pub struct StateSave {
    sections: Vec<(&'static str, SaveFn, RestoreFn)>,
}

impl StateSave {
    /// Every registered section's state now.
    pub fn capture(world: &World) -> Result<Vec<SavedSection>, SectionError> {
        let Some(registry) = world.get_resource::<StateSave>() else {
            return Ok(Vec::new());
        };
        registry
            .sections
            .iter()
            .map(|(name, save, _)| {
                let state = save(world).map_err(|problem| SectionError {
                    section: name.to_string(),
                    problem,
                })?;
                Ok(SavedSection {
                    name: name.to_string(),
                    state,
                })
            })
            .collect()
    }

    /// Puts `sections` back, in registration order. A section this build
    /// does not have, or one it has and the save lacks, is refused before
    /// anything is put back; a section that fails stops the restore there
    /// (the world is then only partly restored: load a mission anew).
    pub fn restore(world: &mut World, sections: &[SavedSection]) -> Result<(), SectionError> {
        let registered: Vec<(&'static str, RestoreFn)> = world
            .get_resource::<StateSave>()
            .map(|r| r.sections.iter().map(|(n, _, r)| (*n, *r)).collect())
            .unwrap_or_default();
        let refuse = |section: &str, problem: &str| SectionError {
            section: section.to_string(),
            problem: problem.to_string(),
        };
        if let Some(unknown) = sections
            .iter()
            .find(|s| !registered.iter().any(|(n, _)| *n == s.name))
        {
            return Err(refuse(&unknown.name, "not a section of this build"));
        }
        let mut found = Vec::with_capacity(registered.len());
        for (name, restore) in &registered {
            let saved = sections
                .iter()
                .find(|s| s.name == *name)
                .ok_or_else(|| refuse(name, "missing from the save"))?;
            found.push((*name, *restore, &saved.state));
        }
        for (name, restore, state) in found {
            restore(world, state).map_err(|problem| refuse(name, &problem))?;
        }
        Ok(())
    }
}

/// Registration of save sections on an [`App`].
pub trait AppStateSaveExt {
    /// Adds a named section; names must be unique.
    fn add_state_save(&mut self, name: &'static str, save: SaveFn, restore: RestoreFn)
    -> &mut Self;
}

impl AppStateSaveExt for App {
    fn add_state_save(
        &mut self,
        name: &'static str,
        save: SaveFn,
        restore: RestoreFn,
    ) -> &mut Self {
        let mut registry = self.world_mut().get_resource_or_init::<StateSave>();
        assert!(
            registry.sections.iter().all(|(n, _, _)| *n != name),
            "state save section {name} registered twice"
        );
        registry.sections.push((name, save, restore));
        self
    }
}

/// `value` as a section's RON.
pub fn to_section<T: Serialize>(value: &T) -> Result<Box<RawValue>, String> {
    RawValue::from_rust(value).map_err(|e| e.to_string())
}

/// A section's RON as `T`.
pub fn from_section<T: for<'de> Deserialize<'de>>(state: &RawValue) -> Result<T, String> {
    state.into_rust().map_err(|e| e.to_string())
}

/// The clock's part: the tick reached and the step it was reached with
/// (pause and scale are how fast real time turns into ticks, not state).
#[derive(Serialize, Deserialize)]
struct SavedClock {
    tick: u64,
    step_ns: u64,
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<StateSave>().add_state_save(
        "game_clock",
        |world| {
            let clock = world.resource::<crate::GameClock>();
            to_section(&SavedClock {
                tick: clock.tick(),
                step_ns: clock.timestep().as_nanos() as u64,
            })
        },
        |world, state| {
            let saved: SavedClock = from_section(state)?;
            let mut clock = world.resource_mut::<crate::GameClock>();
            let step_ns = clock.timestep().as_nanos() as u64;
            if saved.step_ns != step_ns {
                return Err(format!(
                    "made with a step of {} ns, the game runs {step_ns} ns steps",
                    saved.step_ns
                ));
            }
            clock.set_tick(saved.tick);
            Ok(())
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Resource, Serialize, Deserialize, Debug, PartialEq)]
    struct Count(u32);

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(crate::SpinePlugin::default());
        app.insert_resource(Count(0)).add_state_save(
            "count",
            |world| to_section(world.resource::<Count>()),
            |world, state| {
                world.insert_resource(from_section::<Count>(state)?);
                Ok(())
            },
        );
        app
    }

    /// Sections go back in registration order; a save lacking one, or
    /// naming one this build has not, is refused before anything changes.
    #[test]
    fn sections_round_trip_and_a_missing_or_unknown_one_is_refused() {
        let mut made = app();
        made.world_mut().insert_resource(Count(7));
        made.world_mut()
            .resource_mut::<crate::GameClock>()
            .set_tick(42);
        let saved = StateSave::capture(made.world()).unwrap();
        let names: Vec<&str> = saved.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["game_clock", "count"]);

        let mut fresh = app();
        StateSave::restore(fresh.world_mut(), &saved).unwrap();
        assert_eq!(*fresh.world().resource::<Count>(), Count(7));
        assert_eq!(fresh.world().resource::<crate::GameClock>().tick(), 42);

        let mut lacking = app();
        let err = StateSave::restore(lacking.world_mut(), &saved[1..]).unwrap_err();
        assert_eq!(err.section, "game_clock");
        assert_eq!(err.problem, "missing from the save");
        let mut extra = saved.clone();
        extra.push(SavedSection {
            name: "weather".into(),
            state: to_section(&1).unwrap(),
        });
        let err = StateSave::restore(lacking.world_mut(), &extra).unwrap_err();
        assert_eq!(err.section, "weather");
        assert_eq!(lacking.world().resource::<Count>(), &Count(0), "untouched");
    }

    #[test]
    fn a_save_made_at_another_rate_is_refused() {
        let made = app();
        let saved = StateSave::capture(made.world()).unwrap();
        let mut other = App::new();
        other.add_plugins(crate::SpinePlugin {
            rate: crate::SimulationRate(60.0),
        });
        let err = StateSave::restore(other.world_mut(), &saved[..1]).unwrap_err();
        assert_eq!(err.section, "game_clock");
        assert!(
            err.problem.contains("step of 33333333 ns"),
            "{}",
            err.problem
        );
    }
}
