//! The interface's resource files, `ui/game_resources.cfg` and
//! `ui/menu_resources.cfg` (openparkan `docs/20-resources.md`,
//! `docs/12-rsli.md`, `docs/34-progression.md`): `object` blocks of the
//! `mission.cfg` kind ([`ObjectConfig`]).
//!
//! - A resource descriptor (`desc = "resource"`) names a `library` and a
//!   `type` (1 textures, 2 fonts, 4 sounds, 5 music, 6 text) and binds
//!   every other key to a member of the library, by name or by 0-based
//!   index in its directory.
//! - A font substitute (`desc = "font-substitute"`) names, for one screen
//!   (`dimension_x`, `dimension_y`), the font each role takes
//!   (`GAME_FONT = "GAME_FONT_640x480"`); the `fonts` resource binds that
//!   name to a `Tfnt` of `ui/font.lib`.
//! - The `textures` resource binds the pages the interface's sprites
//!   ([`super::sprites`]) name to `Texm`s of `ui/ui.lib`.

use super::blocks::{ConfigObject, ObjectConfig};
use crate::error::{FormatError, Result};
use crate::proto::tfnt::Tfnt;
use crate::source::{Found, Source};
use crate::texm::{Rgba8Image, Texm};
use std::path::Path;

/// The game's interface resources (textures, fonts, interface sounds).
pub const GAME_RESOURCES: &str = "ui/game_resources.cfg";
/// The menus' resources and the font substitutes.
pub const MENU_RESOURCES: &str = "ui/menu_resources.cfg";
/// The descriptor of the fonts.
pub const FONTS: &str = "fonts";
/// The descriptor of the interface's pages (`ui/ui.lib`).
pub const TEXTURES: &str = "textures";
/// The font of the HUD's text.
pub const GAME_FONT: &str = "GAME_FONT";
/// The font of titles (the outcome, the objectives screen).
pub const MENU_FONT: &str = "MENU_FONT";
/// The screen the HUD is laid out on.
pub const LAYOUT_SCREEN: [u32; 2] = [640, 480];

/// Keys of a descriptor that are not bindings.
const DESCRIPTOR_KEYS: [&str; 4] = ["desc", "library", "libtype", "type"];

/// A library member as a descriptor binds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Member {
    /// By entry name.
    Name(String),
    /// By 0-based position in the library's directory.
    Index(usize),
}

/// What a descriptor binds a name to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The library, a legacy path relative to the install root.
    pub library: String,
    pub member: Member,
}

/// The binding of `name` in the descriptor `resource` (the last line of
/// that key, names ASCII case-insensitive); `None` when either is absent.
pub fn binding(config: &ObjectConfig, resource: &str, name: &str) -> Option<Binding> {
    let object = config.object(resource)?;
    if DESCRIPTOR_KEYS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
        return None;
    }
    let value = object
        .fields
        .iter()
        .rev()
        .find(|f| f.key.eq_ignore_ascii_case(name))?
        .value
        .trim();
    let member = match value.parse::<usize>() {
        Ok(index) => Member::Index(index),
        Err(_) => Member::Name(value.to_string()),
    };
    Some(Binding {
        library: object.field("library")?.trim().to_string(),
        member,
    })
}

/// The font `role` takes on `screen` by the first font substitute for that
/// screen that names it.
pub fn font_substitute(config: &ObjectConfig, role: &str, screen: [u32; 2]) -> Option<String> {
    config
        .objects
        .iter()
        .filter(|o| is_substitute_for(o, screen))
        .find_map(|o| o.field(role))
        .map(|name| name.trim().to_string())
}

fn is_substitute_for(object: &ConfigObject, screen: [u32; 2]) -> bool {
    let number = |key: &str| object.field(key)?.trim().parse::<u32>().ok();
    object
        .field("desc")
        .is_some_and(|d| d.trim().eq_ignore_ascii_case("font-substitute"))
        && number("dimension_x") == Some(screen[0])
        && number("dimension_y") == Some(screen[1])
}

/// The `Tfnt` the font `role` is on `screen`: its substitute in the first
/// of `configs` that has one (else the role's own name), bound by the
/// first of `configs` whose `fonts` descriptor binds it.
pub fn font(configs: &[&ObjectConfig], role: &str, screen: [u32; 2]) -> Option<Binding> {
    let name = configs
        .iter()
        .find_map(|c| font_substitute(c, role, screen))
        .unwrap_or_else(|| role.to_string());
    configs.iter().find_map(|c| binding(c, FONTS, &name))
}

/// A font as the install gives it: the entry it was read from and the
/// font.
#[derive(Debug, Clone, PartialEq)]
pub struct InstallFont {
    /// `library/entry`, for logs and errors.
    pub name: String,
    pub font: Tfnt,
}

/// The install's `files` that exist, parsed, in that order.
pub fn read_configs(source: &Source, files: &[&str]) -> Result<Vec<ObjectConfig>> {
    let mut configs = Vec::new();
    for &file in files {
        if let Some(found) = source.read_legacy(file.as_bytes())? {
            let config =
                ObjectConfig::parse(found.bytes(), "ui resources").map_err(|e| e.in_file(file))?;
            configs.push(config);
        }
    }
    Ok(configs)
}

/// The entry name `binding` names (an index looked up in its library's
/// directory); `what` names the binding in errors.
fn entry_name(source: &Source, binding: &Binding, what: &str) -> Result<String> {
    match &binding.member {
        Member::Name(name) => Ok(name.clone()),
        Member::Index(index) => source
            .archive_directory(Path::new(&binding.library))?
            .and_then(|dir| dir.get(*index).map(|e| e.name.clone()))
            .ok_or_else(|| {
                FormatError::missing("ui resources", format!("entry #{index} for {what}"))
                    .in_file(binding.library.clone())
            }),
    }
}

/// The sound `name` is bound to by the first sounds descriptor (`type =
/// 4`) of `configs` that binds it: `(library, entry)`; `Ok(None)` when
/// none does.
pub fn sound_entry(
    source: &Source,
    configs: &[ObjectConfig],
    name: &str,
) -> Result<Option<(Vec<u8>, Vec<u8>)>> {
    let binding = configs.iter().find_map(|c| {
        c.objects
            .iter()
            .filter(|o| o.field("type").is_some_and(|t| t.trim() == "4"))
            .find_map(|o| binding(c, &o.name, name))
    });
    let Some(binding) = binding else {
        return Ok(None);
    };
    let entry = entry_name(source, &binding, name)?;
    Ok(Some((binding.library.into_bytes(), entry.into_bytes())))
}

/// Reads the font `role` takes on `screen` through `source`: `Ok(None)`
/// when the install's resource files do not bind one; a bound entry that
/// is missing or does not read is an error naming it.
pub fn read_font(source: &Source, role: &str, screen: [u32; 2]) -> Result<Option<InstallFont>> {
    let configs = read_configs(source, &[MENU_RESOURCES, GAME_RESOURCES])?;
    let refs: Vec<&ObjectConfig> = configs.iter().collect();
    let Some(binding) = font(&refs, role, screen) else {
        return Ok(None);
    };
    let (name, found) = bound_entry(source, &binding, &format!("font for {role}"))?;
    let font = Tfnt::parse(found.bytes()).map_err(|e| e.in_file(name.clone()))?;
    Ok(Some(InstallFont { name, font }))
}

/// A page of the interface's art: the entry it was read from and its
/// base level.
#[derive(Debug, Clone, PartialEq)]
pub struct InstallPage {
    /// `library/entry`, for logs and errors.
    pub name: String,
    pub image: Rgba8Image,
}

/// Reads the page `texture` (a sprite's `texture`, openparkan
/// `docs/35-hud.md`) as the `textures` resource of `configs` binds it:
/// `Ok(None)` when none binds it; a bound entry that is missing or does
/// not decode is an error naming it.
pub fn read_page(
    source: &Source,
    configs: &[ObjectConfig],
    texture: &str,
) -> Result<Option<InstallPage>> {
    let Some(binding) = configs.iter().find_map(|c| binding(c, TEXTURES, texture)) else {
        return Ok(None);
    };
    let (name, found) = bound_entry(source, &binding, &format!("page {texture}"))?;
    let image = Texm::parse(found.bytes())
        .and_then(|t| t.decode_level(0))
        .map_err(|e| e.in_file(name.clone()))?;
    Ok(Some(InstallPage { name, image }))
}

/// The entry `binding` names, read: `library/entry` and its bytes; `what`
/// names the binding in errors.
fn bound_entry(source: &Source, binding: &Binding, what: &str) -> Result<(String, Found)> {
    let entry = entry_name(source, binding, what)?;
    let found = source
        .entry(binding.library.as_bytes(), entry.as_bytes())?
        .ok_or_else(|| {
            FormatError::missing("ui resources", format!("{what}: entry {entry:?}"))
                .in_file(binding.library.clone())
        })?;
    Ok((format!("{}/{entry}", binding.library), found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> ObjectConfig {
        ObjectConfig::parse(text.as_bytes(), "ui resources").unwrap()
    }

    #[test]
    fn a_role_resolves_through_its_substitute_to_a_member_by_index_or_name() {
        let menu = parse(
            "object subst_800\r\n desc = \"font-substitute\"\r\n dimension_x = \"800\"\r\n \
             dimension_y = \"600\"\r\n GAME_FONT = \"GAME_FONT_800x600\"\r\nend\r\n\
             object subst_640\r\n desc = \"font-substitute\"\r\n dimension_x = \"640\"\r\n \
             dimension_y = \"480\"\r\n GAME_FONT = \"GAME_FONT_640x480\"\r\n \
             MENU_FONT = \"MENU_FONT_640x480\"\r\nend\r\n",
        );
        let game = parse(
            "# fonts\r\nobject fonts\r\n desc = \"resource\"\r\n library = \"ui\\font.lib\"\r\n \
             libtype = \"multi\"\r\n type = 2\r\n GAME_FONT_640x480 = 6\r\n \
             GAME_FONT_800x600 = 7\r\n MENU_FONT_640x480 = mf_640.tft\r\nend\r\n",
        );
        let at = |role| font(&[&menu, &game], role, LAYOUT_SCREEN);
        assert_eq!(
            at(GAME_FONT),
            Some(Binding {
                library: "ui\\font.lib".into(),
                member: Member::Index(6),
            })
        );
        assert_eq!(
            at(MENU_FONT).map(|b| b.member),
            Some(Member::Name("mf_640.tft".into()))
        );
        assert_eq!(
            font(&[&menu, &game], GAME_FONT, [800, 600]).map(|b| b.member),
            Some(Member::Index(7))
        );
        // No substitute for the screen, and no binding of the bare role.
        assert_eq!(font(&[&menu, &game], GAME_FONT, [1024, 768]), None);
        assert_eq!(at("TOOL_FONT"), None);
        // The descriptor's own keys bind nothing.
        assert_eq!(binding(&game, FONTS, "library"), None);
    }
}
