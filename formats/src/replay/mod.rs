//! The replay file (our own format; the original game has none), also the
//! layout of a save (a replay that ends where the save was made, with the
//! whole simulation state at that tick): one RON
//! document, readable and diffable, with a versioned header, the input of
//! every fixed step that differs from "as before" (held buttons or mouse
//! sensitivity changed, a press, mouse counts), and state-hash checkpoints
//! with each subsystem's own hash and each field's ([`digest`]: the
//! changes since the checkpoint before). RON rather than a binary: a replay of a
//! 20-minute mission is a few thousand changed steps, and a reviewer can
//! read a re-recorded replay's diff in a commit.
//!
//! Replays and saves travel between people, so the document is read as
//! untrusted input: a size limit before reading, lists within a budget
//! while reading ([`bounded`]), and every number checked against what a
//! recording can hold before anything uses it.

mod bounded;
pub mod digest;

pub use digest::FieldDigest;
use ron::value::RawValue;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The layout version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// A recorded session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// [`FORMAT_VERSION`] when written.
    pub version: u32,
    /// The engine that recorded it (`iron3d` version).
    pub engine: String,
    /// The mission's name below `MISSIONS`.
    pub mission: String,
    /// The install's identity: FNV-1a of the mission's `data.tma` as the
    /// loader read it, 16 hex digits.
    pub install: String,
    /// Seed of the named random streams.
    pub seed: u64,
    /// Simulation steps per second.
    pub rate: f64,
    /// The last tick recorded.
    pub end_tick: u64,
    /// Orders given before the first step (`play --order`), as
    /// `(raw original id, order packet bytes)` posted in this order.
    #[serde(default, deserialize_with = "bounded::list")]
    pub orders: Vec<(u32, Vec<u8>)>,
    /// The steps whose input is not "as before", in tick order.
    #[serde(deserialize_with = "bounded::list")]
    pub steps: Vec<Step>,
    /// The subjects (`world`, `object 0x…`, `round …`) the checkpoints'
    /// field changes name, by index.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "bounded::list"
    )]
    pub subjects: Vec<String>,
    /// The field paths (`section.field`) they name, by index.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "bounded::list"
    )]
    pub fields: Vec<String>,
    /// State hashes as the recording ran, in tick order.
    #[serde(deserialize_with = "bounded::list")]
    pub checkpoints: Vec<Checkpoint>,
    /// A save's whole simulation state at its last tick, each subsystem's
    /// section (the engine's state registry writes and restores them); a
    /// replay has none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "bounded::optional_list"
    )]
    pub state: Option<Vec<SavedSection>>,
    #[serde(skip)]
    trail: digest::Trail,
}

/// One subsystem's state in a save: its name and its RON document, which
/// only that subsystem reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedSection {
    pub name: String,
    pub state: Box<RawValue>,
}

/// One step's input (`tick` is the step's own tick, counted from 1): the
/// engine's input snapshot as raw numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub tick: u64,
    /// `PlayerAction` bits held.
    pub held: u32,
    /// Bits pressed since the step before.
    pub pressed: u32,
    /// Mouse counts (x right, y down).
    pub mouse: [f32; 2],
    pub sensitivity: f32,
}

/// The state hash at a tick, and each subsystem's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub tick: u64,
    pub hash: u64,
    #[serde(deserialize_with = "bounded::list")]
    pub sections: Vec<(String, u64)>,
    /// The fields whose hash changed since the checkpoint before
    /// ([`Replay::push_checkpoint`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub changes: String,
}

/// Why a replay file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a replay: {problem}")]
    Parse { path: PathBuf, problem: String },
    #[error("{path}: replay layout version {found}, this build reads {FORMAT_VERSION}")]
    Version { path: PathBuf, found: u32 },
}

impl Step {
    /// The input of a step that only carries on: nothing held or pressed,
    /// no mouse counts, sensitivity 1.
    pub const IDLE: Step = Step {
        tick: 0,
        held: 0,
        pressed: 0,
        mouse: [0.0; 2],
        sensitivity: 1.0,
    };

    /// What a step at `tick` after this one repeats: what was held and
    /// the sensitivity, no presses and no mouse counts.
    pub fn carried_to(&self, tick: u64) -> Step {
        Step {
            tick,
            pressed: 0,
            mouse: [0.0; 2],
            ..*self
        }
    }

    /// Whether `step` after `previous` must be written: what is held or
    /// the sensitivity changed, or it has presses or mouse counts
    /// ([`Replay::step_at`] repeats the rest).
    pub fn differs(previous: Option<&Step>, step: &Step) -> bool {
        let carried = previous.unwrap_or(&Step::IDLE);
        step.held != carried.held
            || step.sensitivity != carried.sensitivity
            || step.pressed != 0
            || step.mouse != [0.0; 2]
    }
}

impl Replay {
    /// A replay of nothing yet.
    pub fn new(mission: String, install: String, seed: u64, rate: f64) -> Self {
        Self {
            version: FORMAT_VERSION,
            engine: env!("CARGO_PKG_VERSION").to_string(),
            mission,
            install,
            seed,
            rate,
            end_tick: 0,
            orders: Vec::new(),
            steps: Vec::new(),
            subjects: Vec::new(),
            fields: Vec::new(),
            checkpoints: Vec::new(),
            state: None,
            trail: Default::default(),
        }
    }

    /// The same header, start orders and input, with no checkpoints yet
    /// (a playback's own, as it reaches them).
    pub fn without_checkpoints(&self) -> Self {
        Self {
            version: self.version,
            engine: self.engine.clone(),
            mission: self.mission.clone(),
            install: self.install.clone(),
            seed: self.seed,
            rate: self.rate,
            end_tick: self.end_tick,
            orders: self.orders.clone(),
            steps: self.steps.clone(),
            ..Self::new(String::new(), String::new(), 0, 0.0)
        }
    }

    /// Adds the input of the step at `step.tick`.
    pub fn record(&mut self, step: Step) {
        if Step::differs(self.steps.last(), &step) {
            self.steps.push(step);
        }
        self.end_tick = self.end_tick.max(step.tick);
    }

    /// The input of the step at `tick`: its record, else what the last
    /// record before it held (no presses, no mouse counts).
    pub fn step_at(&self, tick: u64) -> Step {
        let at = self.steps.partition_point(|s| s.tick <= tick);
        match at.checked_sub(1).map(|i| &self.steps[i]) {
            Some(step) if step.tick == tick => *step,
            Some(step) => step.carried_to(tick),
            None => Step::IDLE.carried_to(tick),
        }
    }

    /// A copy of the session without its state (the state is not copied).
    pub fn stateless(&self) -> Self {
        Self {
            subjects: self.subjects.clone(),
            fields: self.fields.clone(),
            checkpoints: self.checkpoints.clone(),
            ..self.without_checkpoints()
        }
    }

    /// The same session with no state: a save played from the mission's
    /// start.
    pub fn without_state(self) -> Self {
        Self {
            state: None,
            ..self
        }
    }

    /// This replay played from `save`'s state on: the save must have been
    /// made on its session (the same mission, install, seed, rate, start
    /// orders and steps up to the save's tick).
    pub fn starting_from(&self, save: &Replay) -> Result<Replay, String> {
        let state = save.state.clone().ok_or("the save holds no state")?;
        let same_session = save.mission == self.mission
            && save.install == self.install
            && save.seed == self.seed
            && save.rate == self.rate
            && save.orders == self.orders;
        let before = self.steps.partition_point(|s| s.tick <= save.end_tick);
        if !same_session || save.steps != self.steps[..before] || save.end_tick > self.end_tick {
            return Err(format!(
                "the save (tick {}) was not made on this replay's session",
                save.end_tick
            ));
        }
        Ok(Replay {
            state: Some(state),
            ..self.clone()
        })
    }

    /// The document.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().depth_limit(2);
        ron::ser::to_string_pretty(self, config).expect("a replay serialises")
    }

    /// Writes it to `path` (write-then-rename).
    pub fn save(&self, path: &Path) -> Result<(), ReplayError> {
        crate::fsutil::write_atomic(path, self.to_ron().as_bytes()).map_err(|e| ReplayError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })
    }

    /// Reads the replay at `path`; another layout version is its own
    /// error.
    pub fn load(path: &Path) -> Result<Self, ReplayError> {
        let io = |source| ReplayError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bytes = crate::fsutil::read_bounded(path, MAX_FILE_BYTES)
            .map_err(|e| io(std::io::Error::other(e.to_string())))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
        Self::parse(&text).map_err(|e| match e {
            Parse::Version(found) => ReplayError::Version {
                path: path.to_path_buf(),
                found,
            },
            Parse::Document(problem) => ReplayError::Parse {
                path: path.to_path_buf(),
                problem,
            },
        })
    }

    /// Reads a document: its version first, then the whole within the
    /// budgets, then its numbers and its field changes.
    pub fn parse(text: &str) -> Result<Self, Parse> {
        // The version first, so a newer layout says so rather than failing
        // on a field it added.
        let head: HeadOnly = ron::from_str(text).map_err(|e| Parse::Document(e.to_string()))?;
        if head.version != FORMAT_VERSION {
            return Err(Parse::Version(head.version));
        }
        let replay: Self = bounded::within(MAX_LIST_BYTES, || ron::from_str(text))
            .map_err(|e| Parse::Document(e.to_string()))?;
        replay.check().map_err(Parse::Document)?;
        if let Some(last) = replay.checkpoints.len().checked_sub(1) {
            replay.fields_at(last).map_err(Parse::Document)?;
        }
        Ok(replay)
    }

    /// Checks every number of the header, the steps and the checkpoints
    /// against what a recording can hold: a rate the game runs at, an end
    /// within a day of game time, steps and checkpoints in tick order up
    /// to the end, finite mouse counts and sensitivities, and a save's
    /// checkpoint at its own tick. The error names the field.
    fn check(&self) -> Result<(), String> {
        if !(self.rate.is_finite() && (MIN_RATE..=MAX_RATE).contains(&self.rate)) {
            return Err(format!(
                "rate: {} is not a simulation rate ({MIN_RATE} to {MAX_RATE} steps a second)",
                self.rate
            ));
        }
        let most = (self.rate * MAX_GAME_SECONDS) as u64;
        if self.end_tick > most {
            return Err(format!(
                "end_tick: {} is more than a day of game time ({most} ticks at {} a second)",
                self.end_tick, self.rate
            ));
        }
        let in_order = |what: &str, ticks: &mut dyn Iterator<Item = u64>| {
            let mut last = 0;
            for (i, tick) in ticks.enumerate() {
                if tick <= last && i > 0 || tick > self.end_tick {
                    return Err(format!(
                        "{what}[{i}]: tick {tick} is not after tick {last} and within end_tick {}",
                        self.end_tick
                    ));
                }
                last = tick;
            }
            Ok(())
        };
        in_order("steps", &mut self.steps.iter().map(|s| s.tick))?;
        in_order("checkpoints", &mut self.checkpoints.iter().map(|c| c.tick))?;
        if let Some(i) = self
            .steps
            .iter()
            .position(|s| !(s.sensitivity.is_finite() && s.mouse.iter().all(|m| m.is_finite())))
        {
            return Err(format!(
                "steps[{i}]: mouse counts and sensitivity must be finite"
            ));
        }
        let at_end = self
            .checkpoints
            .last()
            .is_some_and(|c| c.tick == self.end_tick);
        if self.state.is_some() && !at_end {
            return Err(format!(
                "checkpoints: a save needs the checkpoint of its tick {}",
                self.end_tick
            ));
        }
        Ok(())
    }
}

/// The most bytes a replay or save file may have (a recorded hour is
/// about 2 MB, a save of the demo mission 0.3 MB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// The most bytes the lists of one document may take in memory (each
/// element's own size, its text aside): a list of short items is several
/// times its text.
pub const MAX_LIST_BYTES: usize = 16 << 20;
/// The simulation rates a replay may have, steps a second (the CLI's).
pub const MIN_RATE: f64 = 1.0;
pub const MAX_RATE: f64 = 1000.0;
/// The most game time a replay may cover, s.
const MAX_GAME_SECONDS: f64 = 86_400.0;

/// The header's version alone (every other field ignored).
#[derive(Deserialize)]
struct HeadOnly {
    version: u32,
}

/// Why a document does not read: another layout version, or what is
/// wrong with it.
#[derive(Debug)]
pub enum Parse {
    Version(u32),
    Document(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step holding the buttons of bits `held`.
    fn held(tick: u64, held: u32) -> Step {
        Step {
            tick,
            held,
            ..Step::IDLE
        }
    }

    #[test]
    fn only_changed_steps_are_written_and_the_rest_repeat_what_was_held() {
        let mut replay = Replay::new("M".into(), "0".into(), 1, 30.0);
        let walk = 1;
        let press = |tick| Step {
            pressed: 16,
            ..held(tick, walk)
        };
        let mouse = |tick| Step {
            mouse: [3.0, -1.0],
            ..held(tick, walk)
        };
        let steps = [
            Step::IDLE.carried_to(1),
            held(2, walk),
            held(3, walk),
            press(4),
            held(5, walk),
            mouse(6),
            held(7, walk),
            held(8, walk),
        ];
        for step in steps {
            replay.record(step);
        }
        let ticks: Vec<u64> = replay.steps.iter().map(|s| s.tick).collect();
        assert_eq!(ticks, [2, 4, 6], "the walk starts, a press, the mouse");
        assert_eq!(replay.end_tick, 8);
        for step in steps {
            assert_eq!(replay.step_at(step.tick), step, "step {}", step.tick);
        }
    }

    #[test]
    fn a_replay_reads_back_and_a_newer_or_broken_one_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.ron");
        let mut replay = Replay::new("Campaign.00/Mission.01".into(), "ab".into(), 7, 30.0);
        replay.record(held(3, 4));
        replay.end_tick = 30;
        let fields = [(("world".into(), "game_clock".into()), 9)].into();
        let point = Checkpoint {
            tick: 30,
            hash: 0x1234,
            sections: vec![("game_clock".into(), 9)],
            changes: String::new(),
        };
        replay.push_checkpoint(point, &fields);
        replay.save(&path).unwrap();
        assert_eq!(Replay::load(&path).unwrap(), replay);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("version: 1", "version: 2")).unwrap();
        assert!(matches!(
            Replay::load(&path),
            Err(ReplayError::Version { found: 2, .. })
        ));
        let unnamed = text.replace("0.0=0009", "0.5=0009");
        assert_ne!(unnamed, text);
        std::fs::write(&path, unnamed).unwrap();
        match Replay::load(&path) {
            Err(ReplayError::Parse { problem, .. }) => {
                assert!(problem.contains("bad change"), "{problem}")
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        assert!(matches!(
            Replay::load(&path),
            Err(ReplayError::Parse { .. })
        ));
        assert!(matches!(
            Replay::load(&dir.path().join("none.ron")),
            Err(ReplayError::Io { .. })
        ));
    }
}
