//! A subsystem's own files in the staged load. The mission loader reads
//! what every mission has (the TMA, its map, the objects, the prototype
//! graph); a subsystem that needs a file of its own (Behavior its
//! `Behavior.ini`, the renderer its `shade.cfg`, Script the clans' scripts
//! and the mission's texts, Sound the mission's samples) registers a reader for
//! the phase that reads it ([`MissionReaderExt::add_mission_reader`]).
//! Readers run after the loader's part of their phase, in registration
//! order, through the mission's one [`Source`] (its layers, parse cache
//! and change detection); an error fails the load with the whole chain,
//! as the loader's own do.

use super::load::Loader;
use super::{LoadError, MissionEffects, MissionPhase};
use bevy::prelude::*;
use iron3d_formats::config::builddat::BuildDat;
use iron3d_formats::config::ini::{KeySpec, Settings};
use iron3d_formats::source::Source;
use iron3d_formats::tma::Tma;
use std::path::Path;
use std::sync::Arc;

/// Reads a subsystem's files and publishes what it read into the world.
pub type MissionReader = fn(&mut World, &ReadContext) -> Result<(), LoadError>;

/// The registered readers, by phase, in registration order.
#[derive(Resource, Default)]
pub(super) struct MissionReaders(Vec<(MissionPhase, MissionReader)>);

/// What a reader reads through: the mission being loaded.
pub struct ReadContext<'a> {
    loader: &'a Loader,
    phase: MissionPhase,
}

impl ReadContext<'_> {
    /// The mission's source: the install and its mod layers.
    pub fn source(&self) -> &Arc<Source> {
        self.loader.source()
    }

    /// The install's settings file `name` (at its root) resolved against
    /// `table`: every key at its default, or unset, when there is no such
    /// file; an error names the file.
    pub fn settings(&self, name: &'static str, table: &[KeySpec]) -> Result<Settings, LoadError> {
        self.loader.settings(self.phase, name, table)
    }

    /// The install's `iron_3d.ini` as the loader resolved it (read in the
    /// foundation phase; none before it).
    pub fn game_ini(&self) -> Option<&Settings> {
        self.loader.game_ini.as_ref()
    }

    /// The mission's name as the load names it in errors.
    pub fn mission_name(&self) -> &str {
        &self.loader.mission_name
    }

    /// The mission directory, relative to the source's layer roots (where
    /// [`Source::read_in_mission`] looks first).
    pub fn mission_dir(&self) -> &Path {
        &self.loader.mission_dir
    }

    /// The phase the reader runs in (what its errors name).
    pub fn phase(&self) -> MissionPhase {
        self.phase
    }

    /// The install's `BuildDat.lst`: the unit files of the building
    /// categories (read in the foundation phase; none before it).
    pub fn build_dat(&self) -> Option<&BuildDat> {
        self.loader.build_dat.as_ref()
    }

    /// The mission's `data.tma` (read in the context phase).
    pub fn tma(&self) -> Option<&Tma> {
        self.loader.tma.as_ref()
    }

    /// The effects the loader read for the mission's prototypes (complete
    /// after its part of the resources phase).
    pub fn effects(&self) -> &MissionEffects {
        &self.loader.effects
    }
}

/// Registering a subsystem's reader.
pub trait MissionReaderExt {
    /// Runs `reader` in `phase` of every mission load, after the loader's
    /// own part of it.
    fn add_mission_reader(&mut self, phase: MissionPhase, reader: MissionReader) -> &mut Self;
}

impl MissionReaderExt for App {
    fn add_mission_reader(&mut self, phase: MissionPhase, reader: MissionReader) -> &mut Self {
        self.world_mut()
            .get_resource_or_init::<MissionReaders>()
            .0
            .push((phase, reader));
        self
    }
}

/// Runs the readers of `phase` on the mission `loader` is loading; the
/// first error stops them.
pub(super) fn run_readers(
    world: &mut World,
    loader: &Loader,
    phase: MissionPhase,
) -> Result<(), LoadError> {
    let readers: Vec<MissionReader> = world
        .get_resource::<MissionReaders>()
        .map(|r| {
            r.0.iter()
                .filter(|(p, _)| *p == phase)
                .map(|(_, r)| *r)
                .collect()
        })
        .unwrap_or_default();
    let context = ReadContext { loader, phase };
    readers
        .into_iter()
        .try_for_each(|reader| reader(world, &context))
}
