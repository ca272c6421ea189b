//! The field digests of a replay's checkpoints: each field's own hash
//! (the engine's state hash, field by field), so that a
//! run that parts from its recording names the object and field that
//! differ first, not only the subsystem.
//!
//! In the file a checkpoint keeps only what changed since the one before,
//! as tokens `S.F=HHHH` (subject `S` and field `F` as hex indexes into
//! the replay's `subjects` and `fields` tables, the field's 16-bit hash) and
//! `S.F-` (the field is gone: a deleted object's). Most of a
//! mission stands still between two checkpoints, so a 20-minute recording
//! stays small.

use super::{Checkpoint, Replay};
use std::collections::{BTreeMap, HashMap};

/// Each field's own hash, by subject name (`world`, `object 0x…`,
/// `round …`) and field path (`section.field`, or the section alone where
/// a contributor names no field), folded to 16 bits: which fields differ
/// when two whole hashes do (a field whose change folds to the same 16
/// bits, one in 65,536, is missed; the whole hash still tells).
pub type FieldDigest = BTreeMap<(String, String), u16>;

/// What the last checkpoint's digest was, to write the next one's changes
/// (derived from the replay; not part of its document).
#[derive(Debug, Clone, Default)]
pub(super) struct Trail {
    /// How many checkpoints `last` covers.
    upto: usize,
    last: FieldDigest,
    subjects: HashMap<String, usize>,
    fields: HashMap<String, usize>,
}

/// A replay equals another by its document alone.
impl PartialEq for Trail {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The fields that differ between two digests (`subject path`, one only
/// in either counts), by subject, then in the hash's order of `sections`
/// (the contributors' registration order), then by path.
pub fn differing(recorded: &FieldDigest, now: &FieldDigest, sections: &[&str]) -> Vec<String> {
    let rank = |path: &str| {
        let section = path.split_once('.').map_or(path, |(s, _)| s);
        sections
            .iter()
            .position(|s| *s == section)
            .unwrap_or(usize::MAX)
    };
    let mut keys: Vec<&(String, String)> = recorded
        .keys()
        .chain(now.keys())
        .filter(|k| recorded.get(*k) != now.get(*k))
        .collect();
    keys.sort_by(|a, b| (&a.0, rank(&a.1), &a.1).cmp(&(&b.0, rank(&b.1), &b.1)));
    keys.dedup();
    keys.into_iter()
        .map(|(subject, path)| format!("{subject} {path}"))
        .collect()
}

/// How many characters of a change that does not read its error shows.
const SHOWN_TOKEN: usize = 40;

fn intern(names: &mut Vec<String>, index: &mut HashMap<String, usize>, name: &str) -> usize {
    *index.entry(name.to_string()).or_insert_with(|| {
        names.push(name.to_string());
        names.len() - 1
    })
}

impl Replay {
    /// Adds `point` with its field digest `fields`, stored as the changes
    /// since the checkpoint before.
    pub fn push_checkpoint(&mut self, mut point: Checkpoint, fields: &FieldDigest) {
        self.catch_up_trail();
        let mut trail = std::mem::take(&mut self.trail);
        let gone = trail.last.keys().filter(|k| !fields.contains_key(*k));
        let mut tokens: Vec<String> = gone
            .map(|(subject, path)| {
                let s = intern(&mut self.subjects, &mut trail.subjects, subject);
                let f = intern(&mut self.fields, &mut trail.fields, path);
                format!("{s:x}.{f:x}-")
            })
            .collect();
        for (key @ (subject, path), hash) in fields {
            if trail.last.get(key) != Some(hash) {
                let s = intern(&mut self.subjects, &mut trail.subjects, subject);
                let f = intern(&mut self.fields, &mut trail.fields, path);
                tokens.push(format!("{s:x}.{f:x}={hash:04x}"));
            }
        }
        point.changes = tokens.join(" ");
        self.checkpoints.push(point);
        trail.last = fields.clone();
        trail.upto = self.checkpoints.len();
        self.trail = trail;
    }

    /// The field digest at checkpoint `at` (its changes and every one
    /// before), or which token does not read.
    pub fn fields_at(&self, at: usize) -> Result<FieldDigest, String> {
        let mut digest = FieldDigest::new();
        for point in self.checkpoints.iter().take(at + 1) {
            for token in point.changes.split_whitespace() {
                self.apply(&mut digest, token).ok_or_else(|| {
                    let shown: String = token.chars().take(SHOWN_TOKEN).collect();
                    let cut = if shown.len() < token.len() { "…" } else { "" };
                    format!(
                        "checkpoint at tick {}: bad change {shown:?}{cut}",
                        point.tick
                    )
                })?;
            }
        }
        Ok(digest)
    }

    /// Whether the checkpoints carry field digests (replays written before
    /// them do not).
    pub fn has_fields(&self) -> bool {
        !self.fields.is_empty()
    }

    fn apply(&self, digest: &mut FieldDigest, token: &str) -> Option<()> {
        let (names, hash) = match token.split_once('=') {
            Some((names, hash)) => (names, Some(u16::from_str_radix(hash, 16).ok()?)),
            None => (token.strip_suffix('-')?, None),
        };
        let (s, f) = names.split_once('.')?;
        let subject = self.subjects.get(usize::from_str_radix(s, 16).ok()?)?;
        let path = self.fields.get(usize::from_str_radix(f, 16).ok()?)?;
        let key = (subject.clone(), path.clone());
        match hash {
            Some(hash) => digest.insert(key, hash),
            None => digest.remove(&key),
        };
        Some(())
    }

    /// Brings the trail to the replay's last checkpoint (a replay read
    /// from a file, or cloned from one, has none yet).
    fn catch_up_trail(&mut self) {
        if self.trail.upto == self.checkpoints.len() {
            return;
        }
        let last = self
            .checkpoints
            .len()
            .checked_sub(1)
            .and_then(|at| self.fields_at(at).ok())
            .unwrap_or_default();
        let index = |names: &[String]| {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect()
        };
        self.trail = Trail {
            upto: self.checkpoints.len(),
            last,
            subjects: index(&self.subjects),
            fields: index(&self.fields),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(entries: &[(&str, &str, u16)]) -> FieldDigest {
        entries
            .iter()
            .map(|&(s, p, h)| ((s.to_string(), p.to_string()), h))
            .collect()
    }

    fn point(tick: u64) -> Checkpoint {
        Checkpoint {
            tick,
            hash: tick,
            sections: Vec::new(),
            changes: String::new(),
        }
    }

    #[test]
    fn checkpoints_keep_only_the_changes_and_rebuild_every_digest() {
        let mut replay = Replay::new("M".into(), "0".into(), 1, 30.0);
        // A recording as long as its checkpoints (a replay is read only so).
        replay.end_tick = 120;
        let first = digest(&[
            ("object 0x00000001", "control.turn", 1),
            ("object 0x00000002", "control.turn", 2),
            ("world", "game_clock", 3),
        ]);
        let second = digest(&[
            ("object 0x00000001", "control.turn", 1),
            ("object 0x00000004", "combat_rounds", 9),
            ("world", "game_clock", 4),
        ]);
        replay.push_checkpoint(point(30), &first);
        replay.push_checkpoint(point(60), &second);
        replay.push_checkpoint(point(90), &second);
        assert_eq!(replay.checkpoints[0].changes.split(' ').count(), 3);
        // The second unit gone, a fourth new, the clock changed.
        assert_eq!(replay.checkpoints[1].changes, "1.0- 3.2=0009 2.1=0004");
        assert_eq!(replay.checkpoints[2].changes, "");
        assert_eq!(replay.fields_at(0).unwrap(), first);
        assert_eq!(replay.fields_at(2).unwrap(), second);

        // Read back from its document, it goes on from where it was.
        let mut again = Replay::parse(&replay.to_ron()).ok().unwrap();
        again.push_checkpoint(point(120), &first);
        replay.push_checkpoint(point(120), &first);
        assert_eq!(again.checkpoints[3].changes, replay.checkpoints[3].changes);
        assert_eq!(again.fields_at(3).unwrap(), first);
    }

    #[test]
    fn differing_fields_are_named_in_subject_order() {
        let recorded = digest(&[
            ("object 0x00000002", "control.turn", 2),
            ("object 0x00000002", "world_objects.rotation", 2),
            ("object 0x00000001", "world_objects.translation", 1),
            ("world", "game_clock", 3),
        ]);
        let now = digest(&[
            ("object 0x00000002", "control.turn", 5),
            ("object 0x00000002", "world_objects.rotation", 5),
            ("object 0x00000001", "world_objects.translation", 1),
            ("object 0x00000003", "combat_rounds", 3),
            ("world", "game_clock", 3),
        ]);
        let sections = ["game_clock", "world_objects", "control", "combat_rounds"];
        assert_eq!(
            differing(&recorded, &now, &sections),
            [
                "object 0x00000002 world_objects.rotation",
                "object 0x00000002 control.turn",
                "object 0x00000003 combat_rounds"
            ]
        );
    }

    #[test]
    fn a_change_naming_no_field_is_a_broken_replay() {
        let mut replay = Replay::new("M".into(), "0".into(), 1, 30.0);
        replay.push_checkpoint(point(30), &digest(&[("world", "game_clock", 3)]));
        replay.checkpoints[0].changes = "0.7=0001".into();
        assert_eq!(
            replay.fields_at(0),
            Err("checkpoint at tick 30: bad change \"0.7=0001\"".into())
        );
        replay.checkpoints[0].changes = "x".repeat(1 << 20);
        let long = replay.fields_at(0).unwrap_err();
        assert!(long.len() < 100 && long.ends_with('…'), "{long}");
    }
}
