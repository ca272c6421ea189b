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

/// Reads one subsystem's saved state without putting it back: whether it
/// is of the shape this build writes ([`check_as`]).
pub type CheckFn = fn(&RawValue) -> Result<(), String>;

/// Puts one subsystem's saved state back into the world.
pub type RestoreFn = fn(&mut World, &RawValue) -> Result<(), String>;

pub use iron3d_formats::replay::SavedSection;

/// A section that could not be written or put back, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state section {section}: {problem}")]
pub struct SectionError {
    pub section: String,
    pub problem: String,
}

/// A registered section.
struct Section {
    name: &'static str,
    save: SaveFn,
    check: CheckFn,
    restore: RestoreFn,
}

/// The registered sections, in registration order.
#[derive(Resource, Default)]
pub struct StateSave {
    sections: Vec<Section>,
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
            .map(|section| {
                let state =
                    (section.save)(world).map_err(|problem| refuse(section.name, &problem))?;
                Ok(SavedSection {
                    name: section.name.to_string(),
                    state,
                })
            })
            .collect()
    }

    /// Whether `sections` would go back into a world of this build: each
    /// registered section present, none unknown, each of its shape.
    /// Nothing is changed (a load checks this before it leaves the running
    /// mission).
    pub fn check(world: &World, sections: &[SavedSection]) -> Result<(), SectionError> {
        Self::in_order(world, sections).map(|_| ())
    }

    /// Puts `sections` back, in registration order, once
    /// [`check`](Self::check) passes; a section that fails then (an
    /// object the mission lacks) stops the restore there, the world only
    /// partly restored (load a mission anew).
    pub fn restore(world: &mut World, sections: &[SavedSection]) -> Result<(), SectionError> {
        for (name, restore, state) in Self::in_order(world, sections)? {
            restore(world, state).map_err(|problem| refuse(name, &problem))?;
        }
        Ok(())
    }

    /// The saved state of each registered section with its restore, in
    /// registration order, each checked.
    fn in_order<'s>(
        world: &World,
        sections: &'s [SavedSection],
    ) -> Result<Vec<(&'static str, RestoreFn, &'s RawValue)>, SectionError> {
        let registered: Vec<(&'static str, CheckFn, RestoreFn)> = world
            .get_resource::<StateSave>()
            .map(|r| {
                r.sections
                    .iter()
                    .map(|s| (s.name, s.check, s.restore))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(unknown) = sections
            .iter()
            .find(|s| !registered.iter().any(|(n, ..)| *n == s.name))
        {
            return Err(refuse(&unknown.name, "not a section of this build"));
        }
        registered
            .into_iter()
            .map(|(name, check, restore)| {
                let saved = sections
                    .iter()
                    .find(|s| s.name == name)
                    .ok_or_else(|| refuse(name, "missing from the save"))?;
                every_float_held(&saved.state)
                    .and_then(|()| check(&saved.state))
                    .map_err(|problem| refuse(name, &problem))?;
                Ok((name, restore, &*saved.state))
            })
            .collect()
    }
}

/// Whether every floating-point number of a section is one the
/// simulation's `f32` state can hold: finite and within `f32`'s range (a
/// save is untrusted; a NaN or an overflowing position would reach the
/// physics). The error gives the number's path in the section.
fn every_float_held(state: &RawValue) -> Result<(), String> {
    let value: ron::Value = ron::from_str(state.get_ron()).map_err(|e| e.to_string())?;
    let mut path = String::new();
    first_float_not_held(&value, &mut path).map_or(Ok(()), |(at, number)| {
        let at = if at.is_empty() { "the value" } else { &at };
        Err(format!("{at}: {number:e} is not a finite number"))
    })
}

/// The path and value of the first float in `value` that is not finite
/// or past `f32`'s range; `path` is where `value` stands.
fn first_float_not_held(value: &ron::Value, path: &mut String) -> Option<(String, f64)> {
    use std::fmt::Write;
    let within = |path: &mut String, step: std::fmt::Arguments, inner: &ron::Value| {
        let len = path.len();
        path.write_fmt(step).expect("a String takes any text");
        let found = first_float_not_held(inner, path);
        path.truncate(len);
        found
    };
    match value {
        ron::Value::Number(n @ (ron::Number::F32(_) | ron::Number::F64(_))) => {
            let x = n.into_f64();
            (!(x.is_finite() && x.abs() <= f64::from(f32::MAX))).then(|| (path.clone(), x))
        }
        ron::Value::Seq(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| within(path, format_args!("[{i}]"), item)),
        ron::Value::Map(map) => map.iter().find_map(|(key, item)| match key {
            ron::Value::String(name) => within(path, format_args!(".{name}"), item),
            _ => within(path, format_args!("[{key:?}]"), item),
        }),
        ron::Value::Option(Some(inner)) => first_float_not_held(inner, path),
        _ => None,
    }
}

fn refuse(section: &str, problem: &str) -> SectionError {
    SectionError {
        section: section.to_string(),
        problem: problem.to_string(),
    }
}

/// Registration of save sections on an [`App`].
pub trait AppStateSaveExt {
    /// Adds a named section; names must be unique.
    fn add_state_save(
        &mut self,
        name: &'static str,
        save: SaveFn,
        check: CheckFn,
        restore: RestoreFn,
    ) -> &mut Self;
}

impl AppStateSaveExt for App {
    fn add_state_save(
        &mut self,
        name: &'static str,
        save: SaveFn,
        check: CheckFn,
        restore: RestoreFn,
    ) -> &mut Self {
        let mut registry = self.world_mut().get_resource_or_init::<StateSave>();
        assert!(
            registry.sections.iter().all(|s| s.name != name),
            "state save section {name} registered twice"
        );
        registry.sections.push(Section {
            name,
            save,
            check,
            restore,
        });
        self
    }
}

/// A [`CheckFn`]: the section reads as `T`.
pub fn check_as<T: for<'de> Deserialize<'de>>(state: &RawValue) -> Result<(), String> {
    from_section::<T>(state).map(|_| ())
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
        check_as::<SavedClock>,
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
            check_as::<Count>,
            |world, state| {
                world.insert_resource(from_section::<Count>(state)?);
                Ok(())
            },
        );
        app
    }

    /// Sections go back in registration order; a save lacking one, naming
    /// one this build has not, or holding one of another shape is refused
    /// before anything changes.
    #[test]
    fn sections_round_trip_and_a_missing_unknown_or_reshaped_one_is_refused() {
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
        // A section of another shape: found by the check, before the
        // clock (restored first) is touched.
        let mut reshaped = saved.clone();
        reshaped[1].state = to_section(&"seven").unwrap();
        let err = StateSave::check(lacking.world(), &reshaped).unwrap_err();
        assert_eq!(err.section, "count");
        assert!(err.problem.contains("Expected"), "{}", err.problem);
        assert_eq!(StateSave::restore(lacking.world_mut(), &reshaped), Err(err));
        assert_eq!(lacking.world().resource::<Count>(), &Count(0), "untouched");
        assert_eq!(lacking.world().resource::<crate::GameClock>().tick(), 0);
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

    /// A float no `f32` state can hold (NaN, an infinity, a magnitude past
    /// `f32`'s range) refuses its section before the section's own check,
    /// with its path; integers and held floats pass.
    #[test]
    fn a_section_with_a_number_the_state_cannot_hold_is_refused_with_its_path() {
        let world = app();
        let saved = StateSave::capture(world.world()).unwrap();
        let refused = |ron: &str| {
            let mut bad = saved.clone();
            bad[1].state = RawValue::from_boxed_ron(ron.into()).unwrap();
            StateSave::check(world.world(), &bad).unwrap_err()
        };
        let err = refused("[(3, (at: (1.0, NaN, 0.0)))]");
        assert_eq!(err.section, "count");
        assert_eq!(err.problem, "[0][1].at[1]: NaN is not a finite number");
        let err = refused("(speed: Some(-inf))");
        assert_eq!(err.problem, ".speed: -inf is not a finite number");
        let err = refused("[1e300]");
        assert_eq!(err.problem, "[0]: 1e300 is not a finite number");
        assert_eq!(
            refused("inf").problem,
            "the value: inf is not a finite number"
        );
        // Held numbers reach the section's own check (a Count is no list).
        let err = refused("[18446744073709551615, 3.4e38, -1.5]");
        assert!(err.problem.contains("Expected"), "{}", err.problem);
    }
}
