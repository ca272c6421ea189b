//! `iron://` asset paths of what the running mission draws: its `Land.msh`
//! (as the mission loader found it), and each part's model and WEAR table.
//! Legacy names are resolved in the install (mission directory first, then
//! the root, as the mission loader does) and addressed relative to the
//! install root, so the asset source's mod layers apply to them.

use bevy::asset::AssetPath;
use iron3d_assets::SOURCE_ID;
use iron3d_formats::gamedir::GameDir;
use iron3d_formats::registry::{EffectiveRef, Geometry, Resolved};
use std::path::Path;

/// The `iron://` path of a file of the install or of one of its mod
/// layers (absolute or relative to its layer root), built without parsing
/// (names may hold `#`).
pub fn iron_path(game: &GameDir, file: &Path) -> Result<AssetPath<'static>, String> {
    let relative = game.relative(file).unwrap_or(file);
    if relative.is_absolute() {
        return Err(format!(
            "{} is outside the install {}",
            file.display(),
            game.root().display()
        ));
    }
    Ok(AssetPath::from_path_buf(relative.to_path_buf()).with_source(SOURCE_ID))
}

/// `<archive>/<entry><.ext>`: an archive entry addressed with the loader's
/// extension (added unless the entry name already ends with it).
fn entry_path(
    game: &GameDir,
    mission_dir: &Path,
    archive: &[u8],
    entry: &[u8],
    ext: &str,
) -> Result<AssetPath<'static>, String> {
    let archive_file = game
        .resolve_in_mission(mission_dir, archive)
        .map_err(|e| e.to_string())?;
    let mut name = String::from_utf8_lossy(entry).into_owned();
    if !name.to_ascii_lowercase().ends_with(&format!(".{ext}")) {
        name.push('.');
        name.push_str(ext);
    }
    iron_path(game, &archive_file.join(name))
}

fn reference_path(
    game: &GameDir,
    mission_dir: &Path,
    r: &EffectiveRef,
    ext: &str,
) -> Result<AssetPath<'static>, String> {
    entry_path(game, mission_dir, &r.archive, &r.resource, ext)
}

/// The model of a resolved prototype: `Ok(None)` when it has no geometry.
/// A BASE stem candidate is returned with `candidate = true` (it may be
/// absent from its archive, which is not an error).
pub fn model_path(
    game: &GameDir,
    mission_dir: &Path,
    resolved: &Resolved,
) -> Result<Option<(AssetPath<'static>, bool)>, String> {
    match resolved.geometry() {
        Geometry::Mesh(r) => Ok(Some((reference_path(game, mission_dir, r, "msh")?, false))),
        Geometry::BaseStem { archive, mesh_name } => Ok(Some((
            entry_path(game, mission_dir, archive, &mesh_name, "msh")?,
            true,
        ))),
        Geometry::NonGeometric => Ok(None),
    }
}

/// The WEAR table of a resolved prototype, if it names one.
pub fn wear_path(
    game: &GameDir,
    mission_dir: &Path,
    resolved: &Resolved,
) -> Result<Option<AssetPath<'static>>, String> {
    resolved
        .wear()
        .map(|w| reference_path(game, mission_dir, w, "wea"))
        .transpose()
}
