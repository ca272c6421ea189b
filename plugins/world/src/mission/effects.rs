//! The effects a mission can play, read at load with everything else
//! (nothing re-reads the install while it runs): each `FXID` a gun's
//! prototype names (its muzzle effect), each one an explosion names in its
//! slots, and the `.exp` of every node table row (what a dying node sets
//! off). An effect or node explosion that cannot be read is a fault kept
//! with its chain and plays nothing; the mission loads (retail ships 14
//! `.ndp` explosion references that do not resolve, openparkan
//! `docs/11-effects.md`, "The chain, end to end").

use super::arms::Blast;
use bevy::prelude::*;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{FXID_TYPE_ID, Fxid};
use iron3d_formats::registry::EffectiveRef;
use iron3d_formats::source::Source;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The key of an entry: `ARCHIVE::ENTRY`, upper-cased (names compare
/// ASCII case-insensitively).
pub fn effect_key(archive: &[u8], entry: &[u8]) -> String {
    format!(
        "{}::{}",
        String::from_utf8_lossy(archive),
        String::from_utf8_lossy(entry)
    )
    .to_ascii_uppercase()
}

/// The key a resource reference names, its empty archive taken as
/// `context`'s; `None` for an empty name.
pub fn reference_key(context: &[u8], r: &ResourceRef) -> Option<String> {
    let name = r.name.name();
    if name.is_empty() {
        return None;
    }
    let archive = match r.archive.name() {
        [] => context,
        a => a,
    };
    Some(effect_key(archive, name))
}

/// Every effect template and node explosion of the mission.
#[derive(Resource, Debug, Clone, Default)]
pub struct MissionEffects {
    /// Effect key -> the parsed `FXID`.
    pub effects: BTreeMap<String, Arc<Fxid>>,
    /// `.exp` key -> the explosion, for node tables' explosions.
    pub blasts: BTreeMap<String, Blast>,
    /// What could not be read: `prototype -> archive::entry: cause`.
    pub faults: Vec<String>,
}

impl MissionEffects {
    /// The template of `key`.
    pub fn effect(&self, key: &str) -> Option<&Arc<Fxid>> {
        self.effects.get(key)
    }

    /// Reads the `FXID` `key` names once (a fault, with `origin`, when it
    /// is missing, not an effect or malformed); whether it is there.
    pub(crate) fn read_effect(
        &mut self,
        source: &Source,
        origin: &str,
        (archive, entry): (&[u8], &[u8]),
    ) -> bool {
        let key = effect_key(archive, entry);
        if self.effects.contains_key(&key) {
            return true;
        }
        let parsed = source
            .entry(archive, entry)
            .map_err(|e| e.to_string())
            .and_then(|found| found.ok_or_else(|| "the entry is missing".to_string()))
            .and_then(|found| {
                let type_id = found.info.as_ref().map(|i| i.type_id);
                if type_id.is_some_and(|t| t != FXID_TYPE_ID) {
                    return Err(format!("not an FXID entry (type {type_id:#x?})"));
                }
                found.parsed(0, Fxid::parse).map_err(|e| e.to_string())
            });
        match parsed {
            Ok(fx) => {
                self.effects.insert(key, fx);
                true
            }
            Err(cause) => {
                self.fault(origin, &key, &cause);
                false
            }
        }
    }

    /// Reads every effect slot of `blast`.
    pub(crate) fn read_blast_effects(&mut self, source: &Source, blast: &Blast) {
        for key in blast.effects.iter().flatten() {
            if let Some((archive, entry)) = key.split_once("::") {
                self.read_effect(
                    source,
                    &blast.resource,
                    (archive.as_bytes(), entry.as_bytes()),
                );
            }
        }
    }

    /// Records a fault once.
    pub(crate) fn fault(&mut self, origin: &str, key: &str, cause: &str) {
        let line = format!("{origin} -> {key}: {cause}");
        if !self.faults.contains(&line) {
            warn!("effect not played: {line}");
            self.faults.push(line);
        }
    }
}

/// The muzzle effect of a prototype: the first of its references that is
/// an `FXID` entry (our rule, docs/facts.md "Effects at load").
pub(crate) fn prototype_effect<'a>(
    source: &Source,
    refs: &'a [EffectiveRef],
) -> Option<&'a EffectiveRef> {
    refs.iter().find(|r| {
        source
            .entry(&r.archive, &r.resource)
            .ok()
            .flatten()
            .and_then(|f| f.info)
            .is_some_and(|i| i.type_id == FXID_TYPE_ID)
    })
}
