//! The files of the running mission, read again for drawing: archives by
//! their legacy names (cached), a part's model and WEAR table, and the
//! mission's `Land.msh`. Everything goes through the formats crate in
//! compatible mode, as the mission loader reads it.

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::gamedir::{GameDir, Mission};
use iron3d_formats::msh::Msh;
use iron3d_formats::registry::{Geometry, Resolved};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::tma::{self, Tma};
use iron3d_formats::wear::Wear;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// What runtime readers accept: retail files with their known quirks.
const MODE: Mode = Mode::Compatible;

/// A part's drawable model: the MSH and its WEAR table (when it has one).
pub struct PartModel {
    pub msh: Msh,
    pub wear: Option<Wear>,
}

/// An opened install and mission, with a cache of the archives read.
pub struct InstallFiles {
    game: GameDir,
    mission: Mission,
    archives: BTreeMap<Vec<u8>, Arc<Vec<u8>>>,
}

impl InstallFiles {
    /// The install at `game_dir` and its mission `name` (below `MISSIONS`).
    pub fn open(game_dir: &std::path::Path, name: &str) -> Result<Self, String> {
        let game = GameDir::open(game_dir).map_err(|e| e.to_string())?;
        let mission = game.mission(name).map_err(|e| e.to_string())?;
        Ok(Self {
            game,
            mission,
            archives: BTreeMap::new(),
        })
    }

    /// The mission's `data.tma`.
    pub fn tma(&self) -> Result<Tma, String> {
        let bytes = std::fs::read(&self.mission.tma)
            .map_err(|e| format!("{}: {e}", self.mission.tma.display()))?;
        tma::parse(&bytes, MODE).map_err(|e| {
            e.in_file(self.mission.tma.display().to_string())
                .to_string()
        })
    }

    /// The `Land.msh` the TMA's land path names: a map directory, the file
    /// itself, or its stem without `.msh` (as the mission loader accepts).
    pub fn land(&self, tma: &Tma) -> Result<LandMsh, String> {
        let path = self.land_path(&tma.land_path)?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        LandMsh::parse(&bytes, MODE).map_err(|e| e.in_file(path.display().to_string()).to_string())
    }

    fn land_path(&self, land_path: &[u8]) -> Result<PathBuf, String> {
        let dir = &self.mission.dir;
        let found = if land_path.is_empty() {
            Ok(dir.clone())
        } else {
            self.game.resolve_in_mission(dir, land_path).or_else(|e| {
                let with_ext = [land_path, b".msh"].concat();
                self.game.resolve_in_mission(dir, &with_ext).map_err(|_| e)
            })
        }
        .map_err(|e| e.to_string())?;
        if found.is_dir() {
            return self
                .game
                .resolve_from(&found, b"Land.msh")
                .map_err(|e| e.to_string());
        }
        Ok(found)
    }

    /// The bytes of an archive named by a legacy path (mission directory
    /// first, then the install root), read once.
    pub fn archive(&mut self, name: &[u8]) -> Result<Arc<Vec<u8>>, String> {
        let upper = name.to_ascii_uppercase();
        if let Some(bytes) = self.archives.get(&upper) {
            return Ok(bytes.clone());
        }
        let path = self
            .game
            .resolve_in_mission(&self.mission.dir, name)
            .map_err(|e| e.to_string())?;
        let bytes = Arc::new(std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?);
        self.archives.insert(upper, bytes.clone());
        Ok(bytes)
    }

    /// The payload of `entry` in the archive `archive`.
    pub fn entry(&mut self, archive: &[u8], entry: &[u8]) -> Result<Vec<u8>, String> {
        let bytes = self.archive(archive)?;
        let nres = Nres::parse(&bytes, MODE).map_err(|e| e.to_string())?;
        let index = nres.find(entry).ok_or_else(|| {
            format!(
                "no entry '{}' in '{}'",
                String::from_utf8_lossy(entry),
                String::from_utf8_lossy(archive)
            )
        })?;
        Ok(nres.payload(index).to_vec())
    }

    /// The model and WEAR table of a resolved prototype; `Ok(None)` for a
    /// prototype without geometry (or a BASE whose `<stem>.msh` candidate
    /// is absent).
    pub fn part_model(&mut self, resolved: &Resolved) -> Result<Option<PartModel>, String> {
        let payload = match resolved.geometry() {
            Geometry::Mesh(r) => self.entry(&r.archive, &r.resource)?,
            Geometry::BaseStem { archive, mesh_name } => match self.entry(archive, &mesh_name) {
                Ok(payload) => payload,
                Err(_) => return Ok(None),
            },
            Geometry::NonGeometric => return Ok(None),
        };
        let msh = Msh::load(&payload, MODE).map_err(|e| e.to_string())?;
        let wear = match resolved.wear() {
            Some(w) => {
                let bytes = self.entry(&w.archive, &w.resource)?;
                Some(Wear::parse(&bytes, MODE).map_err(|e| e.to_string())?)
            }
            None => None,
        };
        Ok(Some(PartModel { msh, wear }))
    }
}
