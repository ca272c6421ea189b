//! Clan relations (openparkan `docs/25-sensors.md`, "Clan relations", read
//! and measured): each clan's table in the mission file names other clans
//! with a word, 0 hostile, 1 neutral, 2 allied, taken straight through.
//! Setting one pair sets it both ways (the later clan's entry wins), an
//! unnamed pair stays 0, a neutral clan's whole row and column are 1, and a
//! clan is allied with itself.
//!
//! What a unit makes of a contact (same page, "What the AI does with it"):
//! a contact of a nature (type 0) or neutral (type 3) clan is dropped; a
//! unit of a nature clan takes every other clan as hostile; otherwise a
//! clan is hostile when the word says 0 and friendly when it says 2.

use bevy::prelude::*;
use iron3d_formats::tma::{Clan, ClanType};

/// What one clan is to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    Hostile,
    Neutral,
    Allied,
}

impl Relation {
    /// The file's word: 0 hostile, 2 allied; 1 and any other word neutral
    /// (the original re-derives the word from an attitude in thirds, whose
    /// middle third is neutral).
    pub fn from_word(word: u32) -> Self {
        match word {
            0 => Relation::Hostile,
            2 => Relation::Allied,
            // STAND-IN: a word other than 0, 1 or 2 is neutral (the
            // attitude thirds' middle, docs/25 "Clan relations"); settled
            // by a retail mission with such a word, or the loader's reading.
            _ => Relation::Neutral,
        }
    }
}

/// The mission's clans' types and relations, by clan index (the identity
/// word of their objects).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct ClanRelations {
    types: Vec<Option<ClanType>>,
    /// Row-major, `types.len()` squared.
    table: Vec<Relation>,
}

impl ClanRelations {
    /// The relations of `clans`, by the loader's rules.
    pub fn from_clans(clans: &[Clan]) -> Self {
        let n = clans.len();
        let mut table = vec![Relation::Hostile; n * n];
        for (i, clan) in clans.iter().enumerate() {
            for row in &clan.relations {
                // STAND-IN: entries set in file order, both ways, so a later
                // clan's entry for an earlier one wins (docs/25 "Clan
                // relations" reads that i→j sets j→i, not which wins);
                // settled by a retail mission whose two clans disagree.
                if let Some(j) = clans.iter().position(|c| c.name == row.clan) {
                    let r = Relation::from_word(row.value);
                    table[i * n + j] = r;
                    table[j * n + i] = r;
                }
            }
        }
        let types: Vec<Option<ClanType>> = clans.iter().map(Clan::clan_type).collect();
        for i in 0..n {
            for j in 0..n {
                if types[i] == Some(ClanType::Neutral) || types[j] == Some(ClanType::Neutral) {
                    table[i * n + j] = Relation::Neutral;
                }
            }
            table[i * n + i] = Relation::Allied;
        }
        Self { types, table }
    }

    /// What clan `a` is to clan `b`; `None` for a clan the mission lacks.
    pub fn between(&self, a: usize, b: usize) -> Option<Relation> {
        let n = self.types.len();
        (a < n && b < n).then(|| self.table[a * n + b])
    }

    /// The type of clan `a`.
    pub fn clan_type(&self, a: usize) -> Option<ClanType> {
        self.types.get(a).copied().flatten()
    }

    /// Whether an object of `clan` belongs to a neutral clan.
    pub fn is_neutral(&self, clan: Option<&super::ObjectClan>) -> bool {
        clan.and_then(|c| self.clan_type(c.identity_raw as usize)) == Some(ClanType::Neutral)
    }

    /// Whether a unit of clan `a` takes a contact of clan `b` as hostile.
    pub fn hostile(&self, a: usize, b: usize) -> bool {
        if self.dropped(b) || a == b {
            return false;
        }
        self.clan_type(a) == Some(ClanType::Nature) || self.between(a, b) == Some(Relation::Hostile)
    }

    /// Whether a unit of clan `a` takes a contact of clan `b` as a friend.
    pub fn friendly(&self, a: usize, b: usize) -> bool {
        !self.dropped(b)
            && self.clan_type(a) != Some(ClanType::Nature)
            && self.between(a, b) == Some(Relation::Allied)
    }

    /// Contacts of nature and neutral clans (and of no clan) are dropped.
    fn dropped(&self, b: usize) -> bool {
        matches!(
            self.clan_type(b),
            None | Some(ClanType::Nature | ClanType::Neutral)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::tma::ClanRelation;

    fn clan(name: &str, kind: ClanType, relations: &[(&str, u32)]) -> Clan {
        let mut clan = Clan::new(name, kind);
        clan.relations = relations
            .iter()
            .map(|&(other, value)| ClanRelation {
                clan: other.as_bytes().to_vec(),
                value,
            })
            .collect();
        clan
    }

    #[test]
    fn relations_follow_the_loader_rules() {
        let clans = [
            clan("Nature", ClanType::Nature, &[]),
            clan("Red", ClanType::Player, &[("Blue", 2), ("Green", 1)]),
            // Blue's entry for Red comes later and wins both ways.
            clan("Blue", ClanType::Enemy, &[("Red", 0)]),
            clan("Grey", ClanType::Neutral, &[("Red", 0)]),
            clan("Green", ClanType::Enemy, &[]),
        ];
        let r = ClanRelations::from_clans(&clans);
        assert_eq!(r.between(1, 2), Some(Relation::Hostile));
        assert_eq!(r.between(2, 1), Some(Relation::Hostile));
        assert_eq!(r.between(1, 4), Some(Relation::Neutral));
        // Unnamed: hostile. Neutral clans: neutral both ways. Self: allied.
        assert_eq!(r.between(2, 4), Some(Relation::Hostile));
        assert_eq!(r.between(3, 1), Some(Relation::Neutral));
        assert_eq!(r.between(1, 3), Some(Relation::Neutral));
        assert_eq!(r.between(4, 4), Some(Relation::Allied));
        assert_eq!(r.between(1, 9), None);
        // What units make of contacts.
        assert!(r.hostile(1, 2) && r.hostile(2, 1) && !r.hostile(1, 4));
        assert!(!r.hostile(2, 3), "neutral contacts are dropped");
        assert!(!r.hostile(1, 0), "nature contacts are dropped");
        assert!(
            r.hostile(0, 1) && r.hostile(0, 4),
            "nature sees every clan as hostile"
        );
        assert!(!r.hostile(1, 1) && r.friendly(1, 1));
        assert!(!r.friendly(1, 2));
    }
}
