//! The missions' dialogue (openparkan `docs/20-resources.md`, "`TextRes.dll`",
//! and `docs/21-briefing.md`, "What it says", *measured*): `DATA/TextRes.cfg`
//! holds one resource descriptor (`type = 6`, text) whose `library` is
//! `data\TextRes.dll` and which binds every other key to a string id of that
//! DLL ([`crate::strings`]). A briefing waypoint's `TextResID` and a
//! message's `text_resource` are such names. Ours: names are ASCII
//! case-insensitive and a name bound twice takes its last line (as the
//! interface's descriptors, [`super::ui_resources`]); a name the
//! descriptor does not bind, or whose id the DLL lacks, is shown as
//! written (the docs leave open what the original shows).

use super::blocks::ObjectConfig;
use super::ui_resources::{Member, binding, read_configs};
use crate::error::{FormatError, Result};
use crate::source::Source;
use crate::strings::StringDll;

/// Where the descriptor is, as a legacy path.
pub const TEXT_RES_CFG: &str = "DATA\\TextRes.cfg";
/// The descriptor's resource type: text.
const TEXT_TYPE: &str = "6";

/// The install's dialogue: the descriptor and the strings it binds into.
#[derive(Debug, Clone)]
pub struct TextRes {
    config: ObjectConfig,
    descriptor: String,
    strings: StringDll,
}

impl TextRes {
    /// Reads `DATA/TextRes.cfg` and the DLL its text descriptor names;
    /// `Ok(None)` when the install has no such descriptor. A descriptor
    /// whose DLL is missing or does not read is an error naming the file.
    pub fn read(source: &Source) -> Result<Option<Self>> {
        let Some(config) = read_configs(source, &[TEXT_RES_CFG])?.pop() else {
            return Ok(None);
        };
        let Some(object) = config
            .objects
            .iter()
            .find(|o| o.field("type").is_some_and(|t| t.trim() == TEXT_TYPE))
        else {
            return Ok(None);
        };
        let library = object
            .field("library")
            .map(|l| l.trim().to_string())
            .ok_or_else(|| {
                FormatError::missing("TextRes.cfg", "the text descriptor's `library`")
                    .in_file(TEXT_RES_CFG)
            })?;
        let found = source.read_legacy(library.as_bytes())?.ok_or_else(|| {
            FormatError::missing(
                "TextRes.cfg",
                format!("`{library}`, the text descriptor's library"),
            )
            .in_file(TEXT_RES_CFG)
        })?;
        let strings = StringDll::parse(found.bytes()).map_err(|e| found.origin.annotate(e))?;
        let descriptor = object.name.clone();
        Ok(Some(Self {
            config,
            descriptor,
            strings,
        }))
    }

    /// The text `name` is bound to, when the descriptor binds it to an id
    /// the DLL has.
    pub fn text(&self, name: &str) -> Option<&str> {
        match binding(&self.config, &self.descriptor, name)?.member {
            Member::Index(id) => self.strings.get(u32::try_from(id).ok()?),
            Member::Name(_) => None,
        }
    }

    /// The text `name` names, else `name` as written.
    pub fn resolve<'a>(&'a self, name: &'a str) -> &'a str {
        // STAND-IN: a name not bound, or whose id the DLL lacks, is shown
        // as written (docs/20 and docs/21 leave open what the original
        // shows); settled by a retail message naming an unbound text.
        self.text(name).unwrap_or(name)
    }
}
