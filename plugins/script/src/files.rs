//! What drives a mission, read by Script's reader in the mission load
//! (resources phase): each clan's
//! script with its formulas and variables (a TMA clan's script path), the
//! `mission.cfg` objectives and the `messages.cfg` messages (their texts,
//! and the briefing's, through the install's `DATA/TextRes.cfg` names). A clan with an
//! empty path has no script; one whose files do not read keeps the cause
//! with its chain (mission -> clan -> script -> file -> cause) and the
//! mission runs without it.

use bevy::prelude::*;
use iron3d_formats::config::blocks::ObjectConfig;
use iron3d_formats::config::briefing::{self, Waypoint};
use iron3d_formats::config::mission_text::{self, Message, Objective};
use iron3d_formats::config::text_res::TextRes;
use iron3d_formats::error::FormatError;
use iron3d_formats::script::Bundle;
use iron3d_formats::source::Source;
use iron3d_formats::strings::read_engine_strings;
use iron3d_formats::tma::Tma;
use iron3d_world::mission::{LoadError, ReadContext};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// A clan's script as loading left it.
#[derive(Debug, Clone)]
pub struct ClanScript {
    /// The clan's index (the identity word of its objects).
    pub clan: usize,
    pub clan_name: String,
    /// The script path as the TMA spells it.
    pub path: String,
    /// The script, or why it could not be read.
    pub bundle: Result<Arc<Bundle>, String>,
}

/// The mission's scripts, objectives, messages and briefing flight.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionScripts {
    /// Every clan that names a script, in clan order.
    pub clans: Vec<ClanScript>,
    pub objectives: Vec<Objective>,
    pub messages: Vec<Message>,
    /// The briefing's waypoints (`mission.cfg`'s `briefing` object names
    /// the file, else `briefing.cfg`); none when the mission has none.
    pub briefing: Vec<Waypoint>,
    /// The engine's own strings by id (`iron3d.dll`; empty without it).
    pub engine_strings: BTreeMap<u32, String>,
    /// Why `mission.cfg` or `messages.cfg` gave nothing, with the file.
    pub faults: Vec<String>,
}

impl MissionScripts {
    /// Reads what `tma`'s clans name and the mission's two configs, through
    /// `source` (the mission directory first for the configs).
    pub fn read(source: &Source, mission_dir: &Path, tma: &Tma) -> Self {
        let mut out = Self::default();
        for (clan, c) in tma.clans.iter().enumerate() {
            if c.ai_script.is_empty() {
                continue;
            }
            let path = iron3d_formats::config::decode_cp1251(&c.ai_script);
            let bundle = Bundle::read(&c.ai_script, &mut |legacy| {
                let found = source.read_legacy(legacy)?.ok_or_else(|| {
                    FormatError::missing("script", format!("`{}`", String::from_utf8_lossy(legacy)))
                })?;
                let file = match &found.origin {
                    iron3d_formats::source::Origin::Loose(p) => p.display().to_string(),
                    iron3d_formats::source::Origin::Entry { archive, name, .. } => {
                        format!("{}::{name}", archive.display())
                    }
                };
                Ok((found.bytes().to_vec(), file))
            });
            out.clans.push(ClanScript {
                clan,
                clan_name: iron3d_formats::config::decode_cp1251(&c.name),
                path,
                bundle: bundle.map(Arc::new).map_err(|e| e.to_string()),
            });
        }
        let mut config = |name: &str| match source.read_in_mission(mission_dir, name.as_bytes()) {
            // Parsed once for every reader of the file (Sound reads the
            // messages' voices).
            Ok(Some(found)) => match found.parsed(0, |b| ObjectConfig::parse(b, "cfg")) {
                Ok(cfg) => Some(cfg),
                Err(e) => {
                    out.faults.push(e.to_string());
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                out.faults.push(e.to_string());
                None
            }
        };
        let mission = config("mission.cfg");
        let objectives = mission.as_deref().map(mission_text::objectives);
        let messages = config("messages.cfg").map(|c| mission_text::messages(&c));
        let briefing_file = mission
            .as_ref()
            .and_then(|m| m.object("briefing"))
            .and_then(|o| o.field("library"))
            .map_or_else(|| "briefing.cfg".to_string(), |l| l.trim().to_string());
        let briefing = config(&briefing_file).map(|c| briefing::waypoints(&c));
        out.objectives = objectives.unwrap_or_default();
        out.messages = messages.unwrap_or_default();
        match briefing {
            Some(Ok(waypoints)) => out.briefing = waypoints,
            Some(Err(e)) => out.faults.push(format!("{briefing_file}: {e}")),
            None => {}
        }
        out.read_texts(source);
        out
    }

    /// The engine's strings, and the messages' and the briefing's texts
    /// through the install's `TextRes` names (a name it does not bind is
    /// shown as written).
    fn read_texts(&mut self, source: &Source) {
        match read_engine_strings(source) {
            Ok(dll) => self.engine_strings = dll.map(|d| d.strings).unwrap_or_default(),
            Err(e) => self.faults.push(e.to_string()),
        }
        match TextRes::read(source) {
            Ok(Some(texts)) => {
                let texts_of = self.messages.iter_mut().map(|m| &mut m.text);
                for text in texts_of.chain(self.briefing.iter_mut().map(|w| &mut w.text)) {
                    *text = texts.resolve(text).to_string();
                }
            }
            Ok(None) => {}
            Err(e) => self.faults.push(e.to_string()),
        }
    }
}

/// Script's reader in the mission load (resources phase): publishes
/// [`MissionScripts`]; what does not read is a fault the mission runs
/// without, reported here.
pub(crate) fn read_mission_scripts(world: &mut World, load: &ReadContext) -> Result<(), LoadError> {
    let Some(tma) = load.tma() else {
        return Ok(());
    };
    let scripts = MissionScripts::read(load.source(), load.mission_dir(), tma);
    for fault in &scripts.faults {
        warn!("mission {}: {fault}", load.mission_name());
    }
    world.insert_resource(scripts);
    Ok(())
}
