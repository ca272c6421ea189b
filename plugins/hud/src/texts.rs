//! The interface's words (openparkan `docs/34-progression.md` "After the
//! outcome" and "Objectives", `docs/35-hud.md`; docs/facts.md "Interface
//! strings"): the engine's own texts by their string ids in the install's
//! `iron3d.dll`, read once as the HUD starts through the game's one
//! `Source`. An id the install lacks, or an install without the file,
//! keeps the engine's English word; a file that does not read is logged,
//! kept as the error, and changes nothing else.

use bevy::prelude::*;
use iron3d_assets::IronSourceHandle;
use iron3d_formats::strings::{ENGINE_STRINGS, read_engine_strings};
use std::collections::BTreeMap;

/// A word of the interface, by the string id the original shows it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word {
    MissionComplete,
    MissionFailed,
    /// An objective's state.
    Complete,
    InProgress,
    Failed,
    /// The objectives screen's headers and footer (`%s`: the key).
    PrimaryObjectives,
    AdditionalObjectives,
    PressToClose,
    /// A gun's rounds when they never run out.
    Unlimited,
    /// The message box's headers by sender.
    FromSystem,
    FromTraining,
    FromInformation,
    /// The hero's guns' names, in turn (0–3; openparkan docs/35 "The
    /// weapons list").
    HeroGun(usize),
    /// The resource rows' labels (openparkan docs/23, "What the HUD
    /// shows").
    Ore,
    Energy,
}

impl Word {
    /// Every word the HUD shows.
    pub const ALL: [Word; 18] = [
        Word::MissionComplete,
        Word::MissionFailed,
        Word::Complete,
        Word::InProgress,
        Word::Failed,
        Word::PrimaryObjectives,
        Word::AdditionalObjectives,
        Word::PressToClose,
        Word::Unlimited,
        Word::FromSystem,
        Word::FromTraining,
        Word::FromInformation,
        Word::HeroGun(0),
        Word::HeroGun(1),
        Word::HeroGun(2),
        Word::HeroGun(3),
        Word::Ore,
        Word::Energy,
    ];

    /// Its string id in `iron3d.dll`.
    pub fn id(self) -> u32 {
        match self {
            Word::MissionComplete => 1012,
            Word::MissionFailed => 1013,
            Word::Complete => 1014,
            Word::InProgress => 1015,
            Word::Failed => 1027,
            Word::PrimaryObjectives => 3062,
            Word::AdditionalObjectives => 3061,
            Word::PressToClose => 1017,
            Word::Unlimited => 5094,
            Word::FromSystem => 1541,
            Word::FromTraining => 3057,
            Word::FromInformation => 6214,
            Word::HeroGun(n) => 3071 + n as u32,
            Word::Ore => 5092,
            Word::Energy => 5093,
        }
    }

    /// The engine's own word, for an install without it.
    pub fn fallback(self) -> &'static str {
        match self {
            Word::MissionComplete => "MISSION COMPLETE",
            Word::MissionFailed => "MISSION FAILED",
            Word::Complete => "complete",
            Word::InProgress => "in progress",
            Word::Failed => "failed",
            Word::PrimaryObjectives => "Primary objectives",
            Word::AdditionalObjectives => "Additional objectives",
            Word::PressToClose => "Press %s to close",
            Word::Unlimited => "INF",
            Word::FromSystem => "from: System",
            Word::FromTraining => "from: Training assistant",
            Word::FromInformation => "from: Information assistant",
            Word::HeroGun(n) => HERO_GUNS.get(n).copied().unwrap_or_default(),
            Word::Ore => "Ore",
            Word::Energy => "Energy",
        }
    }
}

/// The hero's guns' names in the engine's English.
const HERO_GUNS: [&str; 4] = [
    "AUTOCANNON 25mm",
    "PLASMA RIFLE LS",
    "BATTLE LASER ER",
    "AWB MISSILE",
];

/// The install's interface strings.
#[derive(Resource, Debug, Clone, Default)]
pub struct InstallTexts {
    /// `iron3d.dll`'s strings by id (empty without the file).
    pub strings: BTreeMap<u32, String>,
    /// Why the file the install has could not be read.
    pub error: Option<String>,
}

impl InstallTexts {
    /// The install's `word`, else the engine's.
    pub fn get(&self, word: Word) -> &str {
        self.strings
            .get(&word.id())
            .map_or(word.fallback(), String::as_str)
    }
}

/// Reads `iron3d.dll` through the game's source.
pub(crate) fn read(source: Option<Res<IronSourceHandle>>, mut texts: ResMut<InstallTexts>) {
    let Some(source) = source else { return };
    match read_engine_strings(&source.0) {
        Ok(Some(dll)) => {
            info!("hud: {} strings from {ENGINE_STRINGS}", dll.strings.len());
            texts.strings = dll.strings;
        }
        Ok(None) => info!("hud: no {ENGINE_STRINGS}: the engine's own words stand in"),
        Err(e) => {
            warn!("hud: {ENGINE_STRINGS} did not read, the engine's own words stand in: {e}");
            texts.error = Some(e.to_string());
        }
    }
}
