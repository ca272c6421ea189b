//! `iron://` asset paths of what the running mission draws: its `Land.msh`
//! (as the mission loader found it), and each part's model and WEAR table.
//! Legacy archive names are looked up in the mission directory first, then
//! at the root, as the mission loader does, in every layer of the source.

use bevy::asset::AssetPath;
use iron3d_assets::SOURCE_ID;
use iron3d_assets::source::IronSource;
use iron3d_formats::registry::{EffectiveRef, Geometry, Resolved};
use std::path::{Path, PathBuf};

/// The `iron://` path of a file of the install or of one of its mod
/// layers (absolute or relative to its layer root), built without parsing
/// (names may hold `#`).
pub fn iron_path(source: &IronSource, file: &Path) -> Result<AssetPath<'static>, String> {
    let relative = source.relative(file).unwrap_or(file);
    if relative.is_absolute() {
        return Err(format!(
            "{} is outside the install {}",
            file.display(),
            source.game_dir().display()
        ));
    }
    Ok(AssetPath::from_path_buf(relative.to_path_buf()).with_source(SOURCE_ID))
}

/// `<archive>/<entry><.ext>`: an archive entry addressed with the loader's
/// extension (added unless the entry name already ends with it).
fn entry_path(
    source: &IronSource,
    mission_dir: &Path,
    archive: &[u8],
    entry: &[u8],
    ext: &str,
) -> Result<AssetPath<'static>, String> {
    let legacy = String::from_utf8_lossy(archive).replace('\\', "/");
    let in_mission = mission_dir.join(&legacy);
    let exists = |p: &Path| source.is_file(p) || source.is_dir(p);
    let archive_path = match (exists(&in_mission), exists(Path::new(&legacy))) {
        (true, _) => in_mission,
        (false, true) => PathBuf::from(legacy),
        (false, false) => return Err(format!("no layer of the install has {legacy}")),
    };
    let mut name = String::from_utf8_lossy(entry).into_owned();
    if !name.to_ascii_lowercase().ends_with(&format!(".{ext}")) {
        name.push('.');
        name.push_str(ext);
    }
    iron_path(source, &archive_path.join(name))
}

fn reference_path(
    source: &IronSource,
    mission_dir: &Path,
    r: &EffectiveRef,
    ext: &str,
) -> Result<AssetPath<'static>, String> {
    entry_path(source, mission_dir, &r.archive, &r.resource, ext)
}

/// The model of a resolved prototype: `Ok(None)` when it has no geometry.
/// A BASE stem candidate is returned with `candidate = true` (it may be
/// absent from its archive, which is not an error).
pub fn model_path(
    source: &IronSource,
    mission_dir: &Path,
    resolved: &Resolved,
) -> Result<Option<(AssetPath<'static>, bool)>, String> {
    match resolved.geometry() {
        Geometry::Mesh(r) => Ok(Some((
            reference_path(source, mission_dir, r, "msh")?,
            false,
        ))),
        Geometry::BaseStem { archive, mesh_name } => Ok(Some((
            entry_path(source, mission_dir, archive, &mesh_name, "msh")?,
            true,
        ))),
        Geometry::NonGeometric => Ok(None),
    }
}

/// The WEAR table of a resolved prototype, if it names one.
pub fn wear_path(
    source: &IronSource,
    mission_dir: &Path,
    resolved: &Resolved,
) -> Result<Option<AssetPath<'static>>, String> {
    resolved
        .wear()
        .map(|w| reference_path(source, mission_dir, w, "wea"))
        .transpose()
}
