//! A clan's research tree, `.trf` (openparkan `docs/16-research.md`,
//! "Twelve streams", "A TRF0 record", "TRF1 is state"; docs/facts.md
//! "Research trees"): an NRes archive of twelve streams, tagged `TRF0` to
//! `TRFB` (every one named `ResTree`), over the items of the tree.
//!
//! ```text
//! TRF0  n × 40-byte item records (costs, string offsets, kind bytes)
//! TRF1  n × u8 state: 4 in the tree, 2 researched, 1 available
//! TRF2  n × i32 prerequisite counts     TRF3  their item indices, flat
//! TRF4  n × i32 unlock counts           TRF5  their item indices, flat
//! TRF6  part ids   TRF7 short codes   TRF8 names   TRF9 descriptions
//! TRFA  stat templates  (NUL-terminated strings, Latin-1)
//! TRFB  u16 offset into TRF6, u16 item index, per part
//! ```
//!
//! An item's id is its index. TRF3 and TRF5 may be missing (then every
//! count is 0); the other ten must be there. Every count, index and
//! string offset is checked against the streams. The reader is lossless:
//! [`ResearchTree::to_bytes`] writes the archive back byte-identical, with
//! the items' state as the tree holds it.

use crate::archive::Mode;
use crate::archive::nres::{self, NewEntry, Nres, NresEditor};
use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};

/// The format name errors carry.
pub const FORMAT: &str = "research tree .trf";

/// The bytes of an item record in TRF0.
pub const ITEM_SIZE: usize = 40;

/// The name every stream entry carries.
pub const STREAM_NAME: &str = "ResTree";

/// State bits of TRF1.
pub const IN_TREE: u8 = 4;
pub const RESEARCHED: u8 = 2;
pub const AVAILABLE: u8 = 1;

/// The twelve streams by tag, `TRF0` to `TRFB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    Items = 0,
    State,
    PrerequisiteCounts,
    Prerequisites,
    UnlockCounts,
    Unlocks,
    PartIds,
    Codes,
    Names,
    Descriptions,
    Templates,
    Parts,
}

impl Stream {
    const ALL: [Stream; 12] = [
        Stream::Items,
        Stream::State,
        Stream::PrerequisiteCounts,
        Stream::Prerequisites,
        Stream::UnlockCounts,
        Stream::Unlocks,
        Stream::PartIds,
        Stream::Codes,
        Stream::Names,
        Stream::Descriptions,
        Stream::Templates,
        Stream::Parts,
    ];

    /// Its type word: `TRF0`..`TRF9`, `TRFA`, `TRFB` as little-endian.
    fn tag(self) -> u32 {
        let digit = b"0123456789AB"[self as usize];
        u32::from_le_bytes([b'T', b'R', b'F', digit])
    }
}

/// One item's record in TRF0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TechItem {
    /// Research costs, then building costs: energy and ore.
    pub research_energy: f32,
    pub research_ore: f32,
    pub build_energy: f32,
    pub build_ore: f32,
    /// Offsets of its short code (TRF7), name (TRF8), description (TRF9)
    /// and stat template (TRFA).
    pub code_at: i32,
    pub name_at: i32,
    pub description_at: i32,
    pub template_at: i32,
    /// Its own entry in TRFB.
    pub part: u16,
    /// Role, kind, sub-kind, building branch, size and upgrade level
    /// (docs/16 "The interface over the record").
    pub role: u8,
    pub kind: u8,
    pub sub_kind: u8,
    pub branch: u8,
    pub size: u8,
    pub level: u8,
}

impl TechItem {
    /// A record of `kind` costing `research` and `build` (energy, ore),
    /// of no role or branch, size 1, level 0; the writer sets its string
    /// offsets and part entry.
    pub fn costing(kind: u8, research: [f32; 2], build: [f32; 2]) -> Self {
        Self {
            research_energy: research[0],
            research_ore: research[1],
            build_energy: build[0],
            build_ore: build[1],
            code_at: 0,
            name_at: 0,
            description_at: 0,
            template_at: 0,
            part: 0,
            role: 255,
            kind,
            sub_kind: 16,
            branch: 255,
            size: 1,
            level: 0,
        }
    }

    fn read(c: &mut Cursor) -> Result<Self> {
        let [research_energy, research_ore, build_energy, build_ore] = c.f32s::<4>()?;
        Ok(Self {
            research_energy,
            research_ore,
            build_energy,
            build_ore,
            code_at: c.i32()?,
            name_at: c.i32()?,
            description_at: c.i32()?,
            template_at: c.i32()?,
            part: c.u16()?,
            role: c.u8()?,
            kind: c.u8()?,
            sub_kind: c.u8()?,
            branch: c.u8()?,
            size: c.u8()?,
            level: c.u8()?,
        })
    }

    fn write(&self, out: &mut Vec<u8>) {
        for f in [
            self.research_energy,
            self.research_ore,
            self.build_energy,
            self.build_ore,
        ] {
            out.extend_from_slice(&f.to_le_bytes());
        }
        for i in [
            self.code_at,
            self.name_at,
            self.description_at,
            self.template_at,
        ] {
            out.extend_from_slice(&i.to_le_bytes());
        }
        out.extend_from_slice(&self.part.to_le_bytes());
        out.extend_from_slice(&[
            self.role,
            self.kind,
            self.sub_kind,
            self.branch,
            self.size,
            self.level,
        ]);
    }
}

/// A parsed tree: the items typed, their links and names, and the
/// archive they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ResearchTree {
    pub items: Vec<TechItem>,
    /// TRF1: each item's state bits.
    pub state: Vec<u8>,
    /// Each item's prerequisites and unlocks, as item indices.
    pub prerequisites: Vec<Vec<u32>>,
    pub unlocks: Vec<Vec<u32>>,
    /// Each item's short code and name (Latin-1).
    pub codes: Vec<String>,
    pub names: Vec<String>,
    /// TRFB in order: each part id (TRF6) and the item it belongs to.
    pub parts: Vec<(String, u32)>,
    /// The archive as read: every stream and directory byte kept.
    archive: Vec<u8>,
}

/// One stream's payload and where it starts in the file.
struct Payload<'a> {
    bytes: &'a [u8],
    at: u64,
}

impl ResearchTree {
    /// Reads a `.trf` archive.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let nres = Nres::parse(data, Mode::Compatible)?;
        // A stream's payload and place; none when the archive lacks it.
        let stream = |s: Stream| {
            nres.find_type(s.tag()).map(|index| Payload {
                bytes: nres.payload(index),
                at: u64::from(nres.entries()[index].data_offset),
            })
        };
        let required = |s: Stream| {
            let missing = || FormatError::missing(FORMAT, format!("stream TRF{:X}", s as u8));
            stream(s).ok_or_else(missing)
        };
        let records = required(Stream::Items)?;
        if records.bytes.len() % ITEM_SIZE != 0 {
            return Err(invalid(
                &records,
                0,
                "whole 40-byte item records",
                records.bytes.len(),
            ));
        }
        let n = records.bytes.len() / ITEM_SIZE;
        let mut c = Cursor::new(records.bytes, FORMAT);
        let items = (0..n)
            .map(|_| TechItem::read(&mut c))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| shifted(e, records.at))?;
        let state = required(Stream::State)?;
        if state.bytes.len() != n {
            return Err(invalid(
                &state,
                0,
                format!("{n} state bytes"),
                state.bytes.len(),
            ));
        }
        let prerequisites = links(
            n,
            &required(Stream::PrerequisiteCounts)?,
            stream(Stream::Prerequisites),
        )?;
        let unlocks = links(n, &required(Stream::UnlockCounts)?, stream(Stream::Unlocks))?;
        let codes_stream = required(Stream::Codes)?;
        let names_stream = required(Stream::Names)?;
        let descriptions = required(Stream::Descriptions)?;
        let templates = required(Stream::Templates)?;
        let part_ids = required(Stream::PartIds)?;
        let parts = required(Stream::Parts)?;
        if parts.bytes.len() % 4 != 0 {
            return Err(invalid(
                &parts,
                0,
                "whole 4-byte part entries",
                parts.bytes.len(),
            ));
        }
        let part_count = parts.bytes.len() / 4;
        let mut part_items = Vec::new();
        for (i, entry) in parts.bytes.chunks_exact(4).enumerate() {
            let offset = u16::from_le_bytes([entry[0], entry[1]]);
            let item = u16::from_le_bytes([entry[2], entry[3]]);
            let id = string(&part_ids, i32::from(offset))?;
            if usize::from(item) >= n {
                return Err(invalid(
                    &parts,
                    i * 4 + 2,
                    format!("an item below {n}"),
                    item,
                ));
            }
            part_items.push((id, u32::from(item)));
        }
        let mut codes = Vec::with_capacity(n);
        let mut names = Vec::with_capacity(n);
        for (i, item) in items.iter().enumerate() {
            codes.push(string(&codes_stream, item.code_at)?);
            names.push(string(&names_stream, item.name_at)?);
            string(&descriptions, item.description_at)?;
            string(&templates, item.template_at)?;
            if usize::from(item.part) >= part_count {
                let at = (i * ITEM_SIZE + 0x20) as u64 + records.at;
                let expected = format!("a part entry below {part_count}");
                return Err(FormatError::invalid(FORMAT, at, expected, item.part));
            }
        }
        Ok(Self {
            items,
            state: state.bytes.to_vec(),
            prerequisites,
            unlocks,
            codes,
            names,
            parts: part_items,
            archive: data.to_vec(),
        })
    }

    /// The archive's bytes: as read, with TRF1 holding [`Self::state`].
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let nres = Nres::parse(&self.archive, Mode::Compatible)?;
        let index = nres
            .find_type(Stream::State.tag())
            .ok_or_else(|| FormatError::missing(FORMAT, "stream TRF1"))?;
        if nres.payload(index) == self.state.as_slice() {
            return Ok(self.archive.clone());
        }
        let mut editor = NresEditor::new(&nres);
        editor.set_payload(index, self.state.clone());
        editor.to_bytes()
    }

    /// The index of the item whose short code or name is `key` (ASCII
    /// case-insensitive), or whose index `key` spells.
    pub fn find(&self, key: &str) -> Option<usize> {
        if let Ok(index) = key.parse::<usize>() {
            return (index < self.items.len()).then_some(index);
        }
        let same = |s: &String| s.eq_ignore_ascii_case(key);
        self.codes
            .iter()
            .position(same)
            .or_else(|| self.names.iter().position(same))
    }

    /// The item part `id` (a prototype key as a design names it, ASCII
    /// case-insensitive) belongs to, if the tree has it.
    pub fn item_of_part(&self, id: &[u8]) -> Option<u32> {
        self.parts
            .iter()
            .find(|(part, _)| part.as_bytes().eq_ignore_ascii_case(id))
            .map(|(_, item)| *item)
    }

    /// A new tree of `items` (each with its short code, name and part id),
    /// their state and prerequisites; the unlocks are the prerequisites
    /// transposed. Descriptions and templates are empty strings.
    pub fn build(items: &[NewItem], state: &[u8]) -> Result<Vec<u8>> {
        let n = items.len();
        let mut strings: [Vec<u8>; 4] = Default::default();
        let at = |s: &mut Vec<u8>, text: &str| -> i32 {
            let offset = s.len() as i32;
            s.extend(text.chars().map(|c| u8::try_from(c).unwrap_or(b'?')));
            s.push(0);
            offset
        };
        let [part_ids, codes, names, others] = &mut strings;
        let empty = at(others, "");
        let mut records = Vec::with_capacity(n * ITEM_SIZE);
        let mut parts = Vec::new();
        let mut unlocks: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, item) in items.iter().enumerate() {
            let part = at(part_ids, &item.part_id) as u16;
            parts.extend_from_slice(&part.to_le_bytes());
            parts.extend_from_slice(&(i as u16).to_le_bytes());
            let record = TechItem {
                code_at: at(codes, &item.code),
                name_at: at(names, &item.name),
                description_at: empty,
                template_at: empty,
                part: i as u16,
                ..item.record
            };
            record.write(&mut records);
            for &p in &item.prerequisites {
                unlocks[p as usize].push(i as u32);
            }
        }
        let prerequisites: Vec<Vec<u32>> = items.iter().map(|i| i.prerequisites.clone()).collect();
        let (pre_counts, pre_flat) = flatten(&prerequisites);
        let (un_counts, un_flat) = flatten(&unlocks);
        let payloads: [&[u8]; 12] = [
            &records,
            state,
            &pre_counts,
            &pre_flat,
            &un_counts,
            &un_flat,
            part_ids,
            codes,
            names,
            others,
            others,
            &parts,
        ];
        let entries: Vec<NewEntry> = Stream::ALL
            .iter()
            .zip(payloads)
            .map(|(s, payload)| NewEntry::new(STREAM_NAME.as_bytes(), s.tag(), payload))
            .collect();
        nres::build(&entries)
    }
}

/// An item for [`ResearchTree::build`].
#[derive(Debug, Clone)]
pub struct NewItem {
    /// Costs and kind bytes (string offsets and part entry are set).
    pub record: TechItem,
    pub code: String,
    pub name: String,
    pub part_id: String,
    /// Indices of the items it needs.
    pub prerequisites: Vec<u32>,
}

/// Counts as i32 words, then the flat list.
fn flatten(lists: &[Vec<u32>]) -> (Vec<u8>, Vec<u8>) {
    let counts = lists
        .iter()
        .flat_map(|l| (l.len() as i32).to_le_bytes())
        .collect();
    let flat = lists
        .iter()
        .flatten()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    (counts, flat)
}

/// Each item's links: its count in `counts` (n i32 words), its indices in
/// turn from `flat` (absent: every count must be 0).
fn links(n: usize, counts: &Payload, flat: Option<Payload>) -> Result<Vec<Vec<u32>>> {
    if counts.bytes.len() != n * 4 {
        return Err(invalid(
            counts,
            0,
            format!("{n} counts"),
            counts.bytes.len(),
        ));
    }
    let empty = Payload { bytes: &[], at: 0 };
    let flat = flat.unwrap_or(empty);
    let word = |bytes: &[u8], at: usize| {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let words = flat.bytes.len() / 4;
    let mut lists = Vec::with_capacity(n);
    let mut used = 0;
    for i in 0..n {
        let count = word(counts.bytes, i * 4) as i32;
        let left = words - used;
        let count = usize::try_from(count)
            .ok()
            .filter(|c| *c <= left)
            .ok_or_else(|| invalid(counts, i * 4, format!("a count from 0 to {left}"), count))?;
        let mut list = Vec::with_capacity(count);
        for k in used..used + count {
            let index = word(flat.bytes, k * 4);
            if index as usize >= n {
                return Err(invalid(&flat, k * 4, format!("an item below {n}"), index));
            }
            list.push(index);
        }
        used += count;
        lists.push(list);
    }
    if used < words || !flat.bytes.len().is_multiple_of(4) {
        return Err(FormatError::new(
            FORMAT,
            flat.at + used as u64 * 4,
            Problem::TrailingBytes {
                count: (flat.bytes.len() - used * 4) as u64,
            },
        ));
    }
    Ok(lists)
}

/// The NUL-terminated Latin-1 string at `offset` of `stream`.
fn string(stream: &Payload, offset: i32) -> Result<String> {
    let start = usize::try_from(offset)
        .ok()
        .filter(|o| *o < stream.bytes.len())
        .ok_or_else(|| {
            let expected = format!("a string offset below {}", stream.bytes.len());
            FormatError::invalid(FORMAT, stream.at, expected, offset)
        })?;
    let rest = &stream.bytes[start..];
    let end = rest.iter().position(|b| *b == 0).ok_or_else(|| {
        invalid(
            stream,
            start,
            "a NUL-terminated string",
            "none before the end",
        )
    })?;
    Ok(rest[..end].iter().map(|b| char::from(*b)).collect())
}

/// An invalid value at `offset` of a stream.
fn invalid(
    stream: &Payload,
    offset: usize,
    expected: impl Into<String>,
    found: impl std::fmt::Display,
) -> FormatError {
    FormatError::invalid(FORMAT, stream.at + offset as u64, expected, found)
}

/// `e` with its offset moved by `at` (a stream's place in the file).
fn shifted(mut e: FormatError, at: u64) -> FormatError {
    e.offset += at;
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(code: &str, research: [f32; 2], prerequisites: &[u32]) -> NewItem {
        NewItem {
            record: TechItem::costing(12, research, [5.0, 12.0]),
            code: code.into(),
            name: format!("{code} name"),
            part_id: format!("p_{code}"),
            prerequisites: prerequisites.to_vec(),
        }
    }

    pub(crate) fn sample() -> Vec<u8> {
        let items = [
            item("C1", [0.0, 0.0], &[]),
            item("W1", [12.0, 35.0], &[0]),
            item("W2", [20.0, 60.0], &[0, 1]),
        ];
        ResearchTree::build(&items, &[7, 5, 4]).unwrap()
    }

    #[test]
    fn a_tree_reads_its_items_links_and_names_and_writes_back() {
        let bytes = sample();
        let tree = ResearchTree::parse(&bytes).unwrap();
        assert_eq!(tree.items.len(), 3);
        assert_eq!(tree.items[1].research_ore, 35.0);
        assert_eq!(tree.prerequisites, [vec![], vec![0], vec![0, 1]]);
        assert_eq!(tree.unlocks, [vec![1, 2], vec![2], vec![]]);
        assert_eq!(tree.names[2], "W2 name");
        assert_eq!(tree.find("w1"), Some(1));
        assert_eq!(tree.find("W2 NAME"), Some(2));
        assert_eq!(tree.find("2"), Some(2));
        assert_eq!(tree.find("9"), None);
        assert_eq!(tree.parts[1], ("p_W1".to_string(), 1));
        assert_eq!(tree.item_of_part(b"P_W2"), Some(2));
        assert_eq!(tree.item_of_part(b"p_W9"), None);
        assert_eq!(tree.to_bytes().unwrap(), bytes);
        let mut changed = tree.clone();
        changed.state[2] |= RESEARCHED;
        let again = ResearchTree::parse(&changed.to_bytes().unwrap()).unwrap();
        assert_eq!(again.state, [7, 5, 6]);
    }

    #[test]
    fn a_bad_tree_says_which_stream_and_what() {
        let bytes = sample();
        let nres = Nres::parse(&bytes, Mode::Compatible).unwrap();
        let edit = |stream: Stream, payload: Vec<u8>| {
            let mut editor = NresEditor::new(&nres);
            editor.set_payload(nres.find_type(stream.tag()).unwrap(), payload);
            ResearchTree::parse(&editor.to_bytes().unwrap()).unwrap_err()
        };
        // A record cut short.
        let e = edit(Stream::Items, vec![0; 39]);
        assert!(e.to_string().contains("whole 40-byte item records"), "{e}");
        // A state byte missing.
        let e = edit(Stream::State, vec![7, 5]);
        assert!(e.to_string().contains("3 state bytes"), "{e}");
        // A prerequisite count past the list.
        let mut counts = nres
            .payload(nres.find_type(Stream::PrerequisiteCounts.tag()).unwrap())
            .to_vec();
        counts[8..12].copy_from_slice(&9i32.to_le_bytes());
        let e = edit(Stream::PrerequisiteCounts, counts);
        assert!(e.to_string().contains("a count from 0 to 2"), "{e}");
        // A prerequisite naming no item.
        let e = edit(
            Stream::Prerequisites,
            [0u32, 0, 7].iter().flat_map(|i| i.to_le_bytes()).collect(),
        );
        assert!(e.to_string().contains("an item below 3"), "{e}");
        // A name without its NUL.
        let e = edit(Stream::Names, b"C1 name".to_vec());
        assert!(
            e.to_string().contains("string offset below") || e.to_string().contains("NUL"),
            "{e}"
        );
        // A mandatory stream gone.
        let mut editor = NresEditor::new(&nres);
        let names = nres.find_type(Stream::Names.tag()).unwrap();
        editor.set_attributes(names, u32::from_le_bytes(*b"XXXX"), 0, 0, 0);
        let e = ResearchTree::parse(&editor.to_bytes().unwrap()).unwrap_err();
        assert!(matches!(e.problem, Problem::Missing { .. }), "{e}");
    }
}
