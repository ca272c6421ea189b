//! A mission's ambient sound as its `mission.cfg` names it (openparkan
//! `docs/34-progression.md`, "Ambient sound"): the `ambient_music_loop`
//! descriptor's `THEME`, and the `ambient_music_variation` descriptor's
//! `DEFAULT_`, `DAY_` and `NIGHT_` + `VARIATION1`, `2`, ... names, each
//! list gathered for as long as the next number exists. A name bound twice
//! keeps its last binding (the game stores `map[name] = sound`). Beside
//! them, the voices of the briefing: the `briefing_sounds` descriptor binds
//! each waypoint's `SoundResID` to an entry (`docs/21-briefing.md`, "What
//! it says": retail `voices.lib`, `T01_T01 = t01_t01.wav`).

use super::blocks::{ConfigObject, ObjectConfig};
use std::collections::BTreeMap;

/// The descriptor of the theme loop.
pub const MUSIC_LOOP: &str = "ambient_music_loop";
/// The descriptor of the variations.
pub const MUSIC_VARIATION: &str = "ambient_music_variation";
/// The theme's binding.
pub const THEME: &str = "THEME";
/// The variation lists' prefixes, in list order (0 default, 1 day, 2 night).
pub const VARIATION_PREFIXES: [&str; 3] = ["DEFAULT_", "DAY_", "NIGHT_"];
/// A descriptor's library when it names none.
pub const SOUND_LIBRARY: &str = "sounds.lib";
/// The descriptor of the briefing's voices.
pub const BRIEFING_SOUNDS: &str = "briefing_sounds";
/// A descriptor's own fields, which bind no name.
const DESCRIPTOR_KEYS: [&str; 4] = ["desc", "library", "libtype", "type"];

/// A sound a descriptor binds: a library and one of its entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundRef {
    pub library: String,
    pub entry: String,
}

/// The ambient sound of a mission.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ambient {
    /// The theme, looped.
    pub theme: Option<SoundRef>,
    /// The variations by list: default, day, night.
    pub variations: [Vec<SoundRef>; 3],
}

impl Ambient {
    /// The ambient sound `config` describes (none where a descriptor or
    /// binding is absent).
    pub fn read(config: &ObjectConfig) -> Self {
        let theme = config.object(MUSIC_LOOP).and_then(|o| binding(o, THEME));
        let variations = VARIATION_PREFIXES.map(|prefix| {
            let Some(object) = config.object(MUSIC_VARIATION) else {
                return Vec::new();
            };
            (1..)
                .map_while(|n| binding(object, &format!("{prefix}VARIATION{n}")))
                .collect()
        });
        Self { theme, variations }
    }

    /// Every sound it names: the theme, then each list in order.
    pub fn sounds(&self) -> impl Iterator<Item = &SoundRef> {
        self.theme.iter().chain(self.variations.iter().flatten())
    }
}

/// The voices `config`'s `briefing_sounds` descriptor binds, by their
/// names upper-cased (a name bound twice keeps its last binding); none
/// without the descriptor.
pub fn briefing_voices(config: &ObjectConfig) -> BTreeMap<String, SoundRef> {
    let Some(object) = config.object(BRIEFING_SOUNDS) else {
        return BTreeMap::new();
    };
    object
        .fields
        .iter()
        .filter(|f| {
            !DESCRIPTOR_KEYS
                .iter()
                .any(|k| f.key.eq_ignore_ascii_case(k))
        })
        .filter_map(|f| Some((f.key.to_ascii_uppercase(), binding(object, &f.key)?)))
        .collect()
}

/// The last binding of `name` in a descriptor, in its library.
fn binding(object: &ConfigObject, name: &str) -> Option<SoundRef> {
    let entry = object
        .fields
        .iter()
        .rev()
        .find(|f| f.key.eq_ignore_ascii_case(name))?;
    let library = object.field("library").unwrap_or(SOUND_LIBRARY);
    Some(SoundRef {
        library: library.to_string(),
        entry: entry.value.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Ambient {
        Ambient::read(&ObjectConfig::parse(src.as_bytes(), "mission.cfg").unwrap())
    }

    #[test]
    fn theme_and_variation_lists_in_number_order() {
        let ambient = parse(
            "object ambient_music_loop\r\n desc = \"resource\"\r\n library = \"sounds.lib\"\r\n \
             libtype = \"multi\"\r\n type = 5\r\n THEME = \"atm_lp.wav\"\r\nend\r\n\
             object ambient_music_variation\r\n library = \"sounds.lib\"\r\n type = 4\r\n \
             DAY_VARIATION2 = \"b.wav\"\r\n DAY_VARIATION1 = \"a.wav\"\r\n \
             DAY_VARIATION1 = \"c.wav\"\r\n DAY_VARIATION4 = \"unreached.wav\"\r\n \
             NIGHT_VARIATION1 = \"n.wav\"\r\nend\r\n",
        );
        let r = |e: &str| SoundRef {
            library: "sounds.lib".into(),
            entry: e.into(),
        };
        assert_eq!(ambient.theme, Some(r("atm_lp.wav")));
        assert_eq!(ambient.variations[0], vec![]);
        // The repeated binding keeps the last; the gap at 3 ends the list.
        assert_eq!(ambient.variations[1], vec![r("c.wav"), r("b.wav")]);
        assert_eq!(ambient.variations[2], vec![r("n.wav")]);
        assert_eq!(ambient.sounds().count(), 4);
    }

    #[test]
    fn the_briefing_voices_are_its_descriptors_bindings() {
        let config = ObjectConfig::parse(
            b"object briefing_sounds\r\n desc  = \"resource\"\r\n library = \"voices.lib\"\r\n \
              libtype = \"multi\"\r\n type  = 4\r\n T01_T01 = t01_t01.wav\r\n \
              t01_t02 = \"a.wav\"\r\n T01_T02 = \"b.wav\"\r\nend\r\n",
            "mission.cfg",
        )
        .unwrap();
        let r = |e: &str| SoundRef {
            library: "voices.lib".into(),
            entry: e.into(),
        };
        let voices = briefing_voices(&config);
        assert_eq!(
            voices.into_iter().collect::<Vec<_>>(),
            [
                ("T01_T01".to_string(), r("t01_t01.wav")),
                ("T01_T02".to_string(), r("b.wav"))
            ]
        );
        let none = ObjectConfig::parse(b"object ambient_music_loop\r\nend\r\n", "m").unwrap();
        assert!(briefing_voices(&none).is_empty());
    }

    #[test]
    fn no_descriptors_no_ambient_sound() {
        let ambient = parse("object briefing\r\n type 3\r\nend\r\n");
        assert_eq!(ambient, Ambient::default());
        let no_library = parse("object ambient_music_loop\r\n THEME = x.wav\r\nend\r\n");
        assert_eq!(
            no_library.theme.map(|t| t.library),
            Some(SOUND_LIBRARY.to_string())
        );
    }
}
