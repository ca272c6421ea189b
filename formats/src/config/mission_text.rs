//! What a mission tells the player, as typed views of its object configs
//! (openparkan `docs/34-progression.md`, "Objectives and the end of a
//! mission" and "Messages"; docs/facts.md "Scripts"):
//!
//! - `mission.cfg`: the `primary_objectives` object's fields in file order,
//!   then `bonus_objectives`'; a script names an objective by its position
//!   in that combined list, and a repeated key is still an objective;
//! - `messages.cfg`: one object per message with `message_index`,
//!   `text_resource`, `voice_resource` and an optional `info_system` flag.

use super::blocks::ObjectConfig;

/// One objective.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Objective {
    pub text: String,
    /// Primary (holds the mission back) or bonus.
    pub primary: bool,
}

/// The objectives of a `mission.cfg`, primaries first.
pub fn objectives(cfg: &ObjectConfig) -> Vec<Objective> {
    let list = |name: &'static str, primary: bool| {
        cfg.objects
            .iter()
            .filter(move |o| o.name.eq_ignore_ascii_case(name))
            .flat_map(|o| &o.fields)
            .filter(|f| !f.key.eq_ignore_ascii_case("desc") && !f.key.eq_ignore_ascii_case("type"))
            .map(move |f| Objective {
                text: f.value.clone(),
                primary,
            })
    };
    list("primary_objectives", true)
        .chain(list("bonus_objectives", false))
        .collect()
}

/// One message of `messages.cfg`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Message {
    pub index: u32,
    /// The text resource (the text itself where no text table resolves it).
    pub text: String,
    /// The voice sample's entry name, when it has one.
    pub voice: Option<String>,
    pub info_system: bool,
}

/// Every object of `messages.cfg` with a numeric `message_index`, in file
/// order (the first of a repeated index is the one played).
pub fn messages(cfg: &ObjectConfig) -> Vec<Message> {
    cfg.objects
        .iter()
        .filter_map(|o| {
            let field = |key: &str| {
                o.fields
                    .iter()
                    .find(|f| f.key.eq_ignore_ascii_case(key))
                    .map(|f| f.value.clone())
            };
            Some(Message {
                index: field("message_index")?.trim().parse().ok()?,
                text: field("text_resource").unwrap_or_default(),
                voice: field("voice_resource").filter(|v| !v.is_empty()),
                info_system: field("info_system").is_some_and(|v| v.trim() != "0"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_come_primaries_first_repeats_kept_and_messages_by_index() {
        let cfg = ObjectConfig::parse(
            b"object bonus_objectives\r\n objective1 = \"Bonus\"\r\nend\r\n\
              object primary_objectives\r\n desc \"Primary\"\r\n objective1 = \"One\"\r\n objective1 = \"Two\"\r\nend\r\n",
            "mission.cfg",
        )
        .unwrap();
        let o = objectives(&cfg);
        let texts: Vec<(&str, bool)> = o.iter().map(|o| (o.text.as_str(), o.primary)).collect();
        assert_eq!(texts, [("One", true), ("Two", true), ("Bonus", false)]);
        let cfg = ObjectConfig::parse(
            b"object m1\r\n message_index = 4\r\n text_resource = \"Hello there\"\r\n voice_resource = \"V_A.WAV\"\r\n info_system = 1\r\nend\r\n\
              object m2\r\n text_resource = \"no index\"\r\nend\r\n",
            "messages.cfg",
        )
        .unwrap();
        assert_eq!(
            messages(&cfg),
            [Message {
                index: 4,
                text: "Hello there".into(),
                voice: Some("V_A.WAV".into()),
                info_system: true
            }]
        );
    }
}
