//! NRes: a 16-byte header, a data region of payloads, and a directory of
//! 64-byte entries at the end of the file (tome III, "NRes").
//!
//! [`Nres::parse`] validates every check of the tome before any entry is
//! handed out, then serves zero-copy payload slices and an O(1) ASCII
//! case-insensitive name index built at open (duplicates resolve to the first
//! entry in directory order, FACTS.md). The on-disk `sort_index` words are
//! kept untouched in [`NresEntry::sort_index`] for lossless output.
//!
//! Writers: [`build`] is the canonical writer (payloads in directory order,
//! zero padding to 8 bytes, sort table rebuilt, directory last);
//! [`NresEditor`] is the lossless one.

use super::Mode;
use super::layout::{Layout, Region, pad_to};
use crate::cursor::{Cursor, c_name, show_bytes};
use crate::error::{FormatError, Problem, Result};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Format name used in errors.
pub const FORMAT: &str = "NRes";
/// The magic at offset 0.
pub const MAGIC: &[u8; 4] = b"NRes";
/// The only version the engine knows.
pub const VERSION: u32 = 0x100;
/// Size of the header.
pub const HEADER_SIZE: usize = 16;
/// Size of one directory entry.
pub const ENTRY_SIZE: usize = 64;
/// Size of the name field of an entry.
pub const NAME_FIELD: usize = 36;
/// Longest name a writer accepts (one byte of the field is the NUL).
pub const MAX_NAME: usize = NAME_FIELD - 1;
/// Payloads of canonical files start on this boundary.
pub const ALIGN: usize = 8;

/// Compatible-mode quirk: the stored sort table is not a permutation of
/// `0..N`; the original engine then falls back to a linear name search. Our
/// lookup never uses the stored table, so only the report changes.
pub const QUIRK_SORT_TABLE: &str = "nres_sort_table_fallback";

/// One 64-byte directory entry, exactly as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NresEntry {
    /// +0x00: resource type (four ASCII letters as a little-endian u32).
    pub type_id: u32,
    /// +0x04: type-specific attribute, kept raw.
    pub attr1: u32,
    /// +0x08: type-specific attribute, kept raw.
    pub attr2: u32,
    /// +0x0C: payload size in bytes.
    pub size: u32,
    /// +0x10: type-specific attribute, kept raw.
    pub attr3: u32,
    /// +0x14: the whole name field, including the bytes after the NUL.
    #[serde(serialize_with = "serialize_bytes_hex")]
    pub name_field: [u8; NAME_FIELD],
    /// +0x38: payload offset from the start of the file.
    pub data_offset: u32,
    /// +0x3C: stored sort table word (sorted position -> directory index).
    pub sort_index: u32,
}

impl NresEntry {
    /// The name: the bytes of the name field before the first NUL.
    pub fn name(&self) -> &[u8] {
        c_name(&self.name_field)
    }

    /// The name for messages (lossy).
    pub fn display_name(&self) -> String {
        String::from_utf8_lossy(self.name()).into_owned()
    }

    /// The 64 bytes of this entry.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0u8; ENTRY_SIZE];
        out[0x00..0x04].copy_from_slice(&self.type_id.to_le_bytes());
        out[0x04..0x08].copy_from_slice(&self.attr1.to_le_bytes());
        out[0x08..0x0C].copy_from_slice(&self.attr2.to_le_bytes());
        out[0x0C..0x10].copy_from_slice(&self.size.to_le_bytes());
        out[0x10..0x14].copy_from_slice(&self.attr3.to_le_bytes());
        out[0x14..0x38].copy_from_slice(&self.name_field);
        out[0x38..0x3C].copy_from_slice(&self.data_offset.to_le_bytes());
        out[0x3C..0x40].copy_from_slice(&self.sort_index.to_le_bytes());
        out
    }

    fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            type_id: c.u32()?,
            attr1: c.u32()?,
            attr2: c.u32()?,
            size: c.u32()?,
            attr3: c.u32()?,
            name_field: c.array()?,
            data_offset: c.u32()?,
            sort_index: c.u32()?,
        })
    }
}

pub(crate) fn serialize_bytes_hex<S: serde::Serializer>(
    bytes: &[u8],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&to_hex(bytes))
}

/// Lower-case hex of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A name compared and hashed ASCII case-insensitively (no Unicode folding).
/// Borrows the name bytes, so the index costs no allocation per entry.
#[derive(Debug, Clone, Copy)]
struct FoldedName<'a>(&'a [u8]);

impl PartialEq for FoldedName<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}
impl Eq for FoldedName<'_> {}

impl Hash for FoldedName<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Names are at most 36 bytes (queries longer than that never reach
        // here), so fold into a stack buffer and hash it in one call.
        let mut buf = [0u8; NAME_FIELD];
        let n = self.0.len().min(NAME_FIELD);
        for (d, s) in buf.iter_mut().zip(&self.0[..n]) {
            *d = s.to_ascii_lowercase();
        }
        state.write(&buf[..n]);
        state.write_usize(self.0.len());
    }
}

/// A validated NRes archive: a zero-copy view over its bytes.
#[derive(Debug, Clone)]
pub struct Nres<'a> {
    data: &'a [u8],
    version: u32,
    entries: Vec<NresEntry>,
    index: HashMap<FoldedName<'a>, u32>,
    quirks: Vec<FormatError>,
}

impl<'a> Nres<'a> {
    /// Validates `data` as an NRes archive (every check of tome III) and
    /// builds the name index.
    pub fn parse(data: &'a [u8], mode: Mode) -> Result<Nres<'a>> {
        let mut c = Cursor::new(data, FORMAT);
        c.expect_magic(MAGIC)?;
        let version = c.u32()?;
        if version != VERSION {
            return Err(c.invalid_at(4, "version 0x100", format!("{version:#x}")));
        }
        let raw_count = c.i32()?;
        let total_size = c.u32()?;
        if raw_count < 0 {
            return Err(c.invalid_at(8, "entry count >= 0", raw_count));
        }
        if total_size as u64 != data.len() as u64 {
            return Err(c.invalid_at(
                12,
                format!("total_size equal to the file length {}", data.len()),
                total_size,
            ));
        }
        let dir_size = (raw_count as u64)
            .checked_mul(ENTRY_SIZE as u64)
            .ok_or_else(|| FormatError::overflow(FORMAT, 8, "entry_count * 64"))?;
        let dir_offset = (total_size as u64)
            .checked_sub(dir_size)
            .filter(|&off| off >= HEADER_SIZE as u64)
            .ok_or_else(|| {
                c.invalid_at(
                    8,
                    format!("a directory of {raw_count} x 64 bytes ending at total_size {total_size} and starting at >= 16"),
                    format!("{dir_size} bytes"),
                )
            })? as usize;
        c.seek(dir_offset)?;
        let count = c.checked_count(raw_count as u64, ENTRY_SIZE, "directory entries")?;

        let mut entries = Vec::with_capacity(count);
        for i in 0..count {
            let at = c.pos();
            let e = NresEntry::read(&mut c)?;
            check_entry(&e, dir_offset).map_err(|err| {
                err.shifted(at as u64)
                    .in_entry(i, String::from_utf8_lossy(c_name(&e.name_field)))
            })?;
            entries.push(e);
        }

        let mut quirks = Vec::new();
        if let Err(err) = check_sort_table(&entries, dir_offset) {
            match mode {
                Mode::Strict => return Err(err),
                Mode::Compatible => quirks.push(FormatError::new(
                    FORMAT,
                    err.offset,
                    Problem::Quirk {
                        name: QUIRK_SORT_TABLE,
                        detail: err.to_string(),
                    },
                )),
            }
        }

        let mut index = HashMap::with_capacity(count);
        for (i, e) in entries.iter().enumerate() {
            let at = dir_offset + i * ENTRY_SIZE + 0x14;
            let name = &data[at..at + e.name().len()];
            index.entry(FoldedName(name)).or_insert(i as u32);
        }
        Ok(Nres {
            data,
            version,
            entries,
            index,
            quirks,
        })
    }

    /// The whole archive.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The header version word (always 0x100 once parsed).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Entries in directory order.
    pub fn entries(&self) -> &[NresEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the archive has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Offset of the directory (end of the data region).
    pub fn directory_offset(&self) -> usize {
        self.data.len() - self.entries.len() * ENTRY_SIZE
    }

    /// The payload of entry `index` (a slice of the archive bytes).
    ///
    /// Panics if `index >= self.len()` (a caller bug: indices come from
    /// [`Nres::find`] or [`Nres::entries`]); every stored range was checked
    /// at parse.
    pub fn payload(&self, index: usize) -> &'a [u8] {
        let e = &self.entries[index];
        let start = e.data_offset as usize;
        &self.data[start..start + e.size as usize]
    }

    /// The first entry (directory order) named `name`, ASCII
    /// case-insensitively.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        if name.len() > NAME_FIELD {
            return None;
        }
        // `HashMap` is covariant in its key, so the index can be queried
        // with a key borrowing the shorter-lived `name`.
        let index: &HashMap<FoldedName<'_>, u32> = &self.index;
        index.get(&FoldedName(name)).map(|&i| i as usize)
    }

    /// The first entry (directory order) of type `type_id`.
    pub fn find_type(&self, type_id: u32) -> Option<usize> {
        self.entries.iter().position(|e| e.type_id == type_id)
    }

    /// Quirks accepted in compatible mode (empty in strict mode).
    pub fn quirks(&self) -> &[FormatError] {
        &self.quirks
    }

    /// The data region `[16, directory)` split into payloads, zero padding
    /// and unindexed (non-zero, unreferenced) regions, in file order.
    pub fn regions(&self) -> Vec<Region> {
        self.layout().regions()
    }

    /// The data region as a lossless editor sees it.
    pub fn layout(&self) -> Layout<'a> {
        let ranges: Vec<(usize, usize)> = self
            .entries
            .iter()
            .map(|e| (e.data_offset as usize, e.size as usize))
            .collect();
        Layout::scan(
            self.data,
            HEADER_SIZE,
            self.directory_offset(),
            &ranges,
            ALIGN,
        )
    }
}

/// Per-entry checks: payload inside the data region, NUL inside the name
/// field. Offsets are relative to the entry.
fn check_entry(e: &NresEntry, dir_offset: usize) -> Result<()> {
    if (e.data_offset as usize) < HEADER_SIZE {
        return Err(FormatError::invalid(
            FORMAT,
            0x38,
            "data_offset >= 16 (after the header)",
            e.data_offset,
        ));
    }
    let end = e.data_offset as u64 + e.size as u64;
    if end > dir_offset as u64 {
        return Err(FormatError::invalid(
            FORMAT,
            0x0C,
            format!("payload end (data_offset + size) <= directory offset {dir_offset}"),
            format!("{} + {} = {end}", e.data_offset, e.size),
        ));
    }
    if !e.name_field.contains(&0) {
        return Err(FormatError::invalid(
            FORMAT,
            0x14,
            "a NUL inside the 36-byte name field",
            show_bytes(&e.name_field),
        ));
    }
    Ok(())
}

/// The stored sort table must be a permutation of `0..N` (strict mode).
fn check_sort_table(entries: &[NresEntry], dir_offset: usize) -> Result<()> {
    let mut seen = vec![false; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        let slot = seen.get_mut(e.sort_index as usize);
        match slot {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(FormatError::invalid(
                    FORMAT,
                    (dir_offset + i * ENTRY_SIZE + 0x3C) as u64,
                    format!("sort_index forming a permutation of 0..{}", entries.len()),
                    if (e.sort_index as usize) < entries.len() {
                        format!("{} (repeated)", e.sort_index)
                    } else {
                        format!("{} (out of range)", e.sort_index)
                    },
                )
                .in_entry(i, e.display_name()));
            }
        }
    }
    Ok(())
}

/// The writer's name order (FACTS.md): ASCII letters folded to upper case,
/// compared bytewise. Ties are broken by the caller (original index).
/// Unverified on retail: this is the one place to change it.
pub fn compare_names(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    a.iter()
        .map(u8::to_ascii_uppercase)
        .cmp(b.iter().map(u8::to_ascii_uppercase))
}

/// The sort table for `names` in directory order: position `k` of the
/// result is the directory index of the `k`-th name in [`compare_names`]
/// order (ties by directory index).
pub fn sort_table<N: AsRef<[u8]>>(names: &[N]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by(|&a, &b| {
        compare_names(names[a as usize].as_ref(), names[b as usize].as_ref()).then(a.cmp(&b))
    });
    order
}

/// A name field for `name`: refuses empty names, names longer than 35
/// bytes and names with a NUL inside; the tail is zero.
pub fn name_field(name: &[u8]) -> std::result::Result<[u8; NAME_FIELD], String> {
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(format!(
            "a name of 1..={MAX_NAME} bytes, found {} bytes",
            name.len()
        ));
    }
    if name.contains(&0) {
        return Err(format!(
            "a name without NUL bytes, found {}",
            show_bytes(name)
        ));
    }
    let mut field = [0u8; NAME_FIELD];
    field[..name.len()].copy_from_slice(name);
    Ok(field)
}

/// An entry for the canonical writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry<'p> {
    pub name: Vec<u8>,
    pub type_id: u32,
    pub attr1: u32,
    pub attr2: u32,
    pub attr3: u32,
    pub payload: &'p [u8],
}

impl<'p> NewEntry<'p> {
    /// An entry `name` of `type_id` holding `payload`, its attributes 0.
    pub fn new(name: &[u8], type_id: u32, payload: &'p [u8]) -> Self {
        Self {
            name: name.to_vec(),
            type_id,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload,
        }
    }
}

/// Writes the directory and header of an archive whose data region (header
/// placeholder included) is `out`: sort table rebuilt from the names,
/// `entry_count` and `total_size` fixed up.
fn finish(mut out: Vec<u8>, mut entries: Vec<NresEntry>, rebuild_sort: bool) -> Result<Vec<u8>> {
    if rebuild_sort {
        let names: Vec<&[u8]> = entries.iter().map(|e| c_name(&e.name_field)).collect();
        let table = sort_table(&names);
        for (e, s) in entries.iter_mut().zip(table) {
            e.sort_index = s;
        }
    }
    for e in &entries {
        out.extend_from_slice(&e.to_bytes());
    }
    let count = i32::try_from(entries.len())
        .map_err(|_| FormatError::overflow(FORMAT, 8, "entry count exceeds i32"))?;
    let total = u32::try_from(out.len())
        .map_err(|_| FormatError::overflow(FORMAT, 12, "archive larger than 4 GiB"))?;
    out[0..4].copy_from_slice(MAGIC);
    out[4..8].copy_from_slice(&VERSION.to_le_bytes());
    out[8..12].copy_from_slice(&count.to_le_bytes());
    out[12..16].copy_from_slice(&total.to_le_bytes());
    Ok(out)
}

/// Converts a writer-side offset or size to the u32 the format stores.
fn to_u32(value: usize, what: &str) -> Result<u32> {
    u32::try_from(value)
        .map_err(|_| FormatError::overflow(FORMAT, 0, format!("{what} exceeds 4 GiB")))
}

/// The canonical writer (tome III order): header, payloads in directory
/// order each followed by zero padding to 8 bytes, then the directory with a
/// rebuilt sort table; `total_size` is fixed up last.
pub fn build(entries: &[NewEntry]) -> Result<Vec<u8>> {
    let data_len: usize = entries
        .iter()
        .map(|e| e.payload.len() + pad_to(e.payload.len(), ALIGN))
        .sum();
    let mut out = Vec::with_capacity(HEADER_SIZE + data_len + entries.len() * ENTRY_SIZE);
    out.resize(HEADER_SIZE, 0);
    let mut dir = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let name_field = name_field(&e.name).map_err(|expected| {
            FormatError::new(
                FORMAT,
                0,
                Problem::Invalid {
                    expected,
                    found: show_bytes(&e.name),
                },
            )
            .in_entry(i, String::from_utf8_lossy(&e.name))
        })?;
        let data_offset = to_u32(out.len(), "payload offset")?;
        out.extend_from_slice(e.payload);
        out.resize(out.len() + pad_to(e.payload.len(), ALIGN), 0);
        dir.push(NresEntry {
            type_id: e.type_id,
            attr1: e.attr1,
            attr2: e.attr2,
            size: to_u32(e.payload.len(), "payload size")?,
            attr3: e.attr3,
            name_field,
            data_offset,
            sort_index: 0,
        });
    }
    finish(out, dir, true)
}

/// The lossless writer: an archive opened for editing. Writing an unmodified
/// editor reproduces the original bytes; an edit changes only what derives
/// from it (that payload, the padding after it, the offsets that follow, and
/// the sort table when a name changed). Gaps, unindexed regions, attributes
/// and name tails are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NresEditor<'a> {
    entries: Vec<NresEntry>,
    layout: Layout<'a>,
    /// The sort table is rebuilt on write once a name changed or an entry
    /// was added; otherwise the stored words are written back.
    rebuild_sort: bool,
}

impl<'a> NresEditor<'a> {
    /// Opens a parsed archive for editing (no copy of the payloads).
    pub fn new(nres: &Nres<'a>) -> Self {
        Self {
            entries: nres.entries.clone(),
            layout: nres.layout(),
            rebuild_sort: false,
        }
    }

    /// An editor from its parts (the manifest of an extracted archive):
    /// every entry must be a member of exactly one block of `layout`.
    pub fn from_parts(entries: Vec<NresEntry>, layout: Layout<'a>, rebuild_sort: bool) -> Self {
        Self {
            entries,
            layout,
            rebuild_sort,
        }
    }

    /// Entries in directory order (`size`, `data_offset` and, after a
    /// rename, `sort_index` are recomputed on write).
    pub fn entries(&self) -> &[NresEntry] {
        &self.entries
    }

    /// The data region layout.
    pub fn layout(&self) -> &Layout<'a> {
        &self.layout
    }

    /// The current payload of entry `index`.
    pub fn payload(&self, index: usize) -> &[u8] {
        self.layout.payload(index)
    }

    /// Sets the raw attributes of entry `index` (out-of-range: no-op).
    pub fn set_attributes(
        &mut self,
        index: usize,
        type_id: u32,
        attr1: u32,
        attr2: u32,
        attr3: u32,
    ) {
        if let Some(e) = self.entries.get_mut(index) {
            (e.type_id, e.attr1, e.attr2, e.attr3) = (type_id, attr1, attr2, attr3);
        }
    }

    /// Renames entry `index`: the new name and its NUL overwrite the start of
    /// the field, the rest of the old field (its tail) is kept.
    pub fn rename(&mut self, index: usize, name: &[u8]) -> Result<()> {
        let fresh = name_field(name).map_err(|expected| {
            FormatError::new(
                FORMAT,
                0,
                Problem::Invalid {
                    expected,
                    found: show_bytes(name),
                },
            )
            .in_entry(index, String::from_utf8_lossy(name))
        })?;
        let e = self
            .entries
            .get_mut(index)
            .ok_or_else(|| FormatError::missing(FORMAT, format!("entry #{index}")))?;
        e.name_field[..=name.len()].copy_from_slice(&fresh[..=name.len()]);
        self.rebuild_sort = true;
        Ok(())
    }

    /// Replaces the payload of entry `index` (out-of-range: no-op).
    pub fn set_payload(&mut self, index: usize, payload: impl Into<Cow<'a, [u8]>>) {
        if index < self.entries.len() {
            self.layout.replace(index, payload.into());
        }
    }

    /// Appends an entry (its payload goes at the end of the data region);
    /// returns its index.
    pub fn push(&mut self, entry: &NewEntry<'a>) -> Result<usize> {
        let index = self.entries.len();
        let name_field = name_field(&entry.name).map_err(|expected| {
            FormatError::new(
                FORMAT,
                0,
                Problem::Invalid {
                    expected,
                    found: show_bytes(&entry.name),
                },
            )
            .in_entry(index, String::from_utf8_lossy(&entry.name))
        })?;
        self.entries.push(NresEntry {
            type_id: entry.type_id,
            attr1: entry.attr1,
            attr2: entry.attr2,
            size: 0,
            attr3: entry.attr3,
            name_field,
            data_offset: 0,
            sort_index: 0,
        });
        self.layout.append(index, Cow::Borrowed(entry.payload));
        self.rebuild_sort = true;
        Ok(index)
    }

    /// The archive bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.layout.start];
        let placed = self.layout.write(&mut out, self.entries.len());
        let mut entries = self.entries.clone();
        for (i, (e, place)) in entries.iter_mut().zip(placed).enumerate() {
            let (offset, size) = place.ok_or_else(|| {
                FormatError::missing(FORMAT, "a data block for the entry")
                    .in_entry(i, e.display_name())
            })?;
            if !e.name_field.contains(&0) {
                return Err(FormatError::invalid(
                    FORMAT,
                    0x14,
                    "a NUL inside the name field",
                    show_bytes(&e.name_field),
                )
                .in_entry(i, e.display_name()));
            }
            e.data_offset = to_u32(offset, "payload offset")?;
            e.size = to_u32(size, "payload size")?;
        }
        finish(out, entries, self.rebuild_sort)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{entry_of, expect_error};

    /// One hand-written directory entry.
    fn raw_entry(type_id: &[u8; 4], size: u32, name: &[u8], offset: u32, sort: u32) -> Vec<u8> {
        let mut e = Vec::new();
        e.extend_from_slice(type_id);
        e.extend_from_slice(&1u32.to_le_bytes()); // attr1
        e.extend_from_slice(&2u32.to_le_bytes()); // attr2
        e.extend_from_slice(&size.to_le_bytes());
        e.extend_from_slice(&3u32.to_le_bytes()); // attr3
        let mut field = [0u8; 36];
        field[..name.len()].copy_from_slice(name);
        e.extend_from_slice(&field);
        e.extend_from_slice(&offset.to_le_bytes());
        e.extend_from_slice(&sort.to_le_bytes());
        e
    }

    /// The canonical file of two entries "b.txt" (Texm, "hello") and
    /// "A.txt" (MESH, 8 bytes), written by hand from tome III.
    fn sample() -> Vec<u8> {
        let mut f = Vec::new();
        f.extend_from_slice(b"NRes");
        f.extend_from_slice(&0x100u32.to_le_bytes());
        f.extend_from_slice(&2i32.to_le_bytes());
        f.extend_from_slice(&(16u32 + 8 + 8 + 128).to_le_bytes());
        f.extend_from_slice(b"hello\0\0\0"); // payload 0 + 3 bytes of padding
        f.extend_from_slice(b"12345678"); // payload 1, already aligned
        // sorted: "A.txt" (index 1) then "b.txt" (index 0)
        f.extend(raw_entry(b"Texm", 5, b"b.txt", 16, 1));
        f.extend(raw_entry(b"MESH", 8, b"A.txt", 24, 0));
        f
    }

    fn err_of(data: &[u8]) -> FormatError {
        Nres::parse(data, Mode::Strict).unwrap_err()
    }

    #[test]
    fn parses_the_hand_written_archive() {
        let f = sample();
        let a = Nres::parse(&f, Mode::Strict).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a.entries()[0].name(), b"b.txt");
        assert_eq!(a.entries()[0].type_id, 0x6D786554);
        assert_eq!(
            (
                a.entries()[1].attr1,
                a.entries()[1].attr2,
                a.entries()[1].attr3
            ),
            (1, 2, 3)
        );
        assert_eq!(a.payload(0), b"hello");
        assert_eq!(a.payload(1), b"12345678");
        assert_eq!(a.find(b"A.TXT"), Some(1));
        assert_eq!(a.find(b"B.tXt"), Some(0));
        assert_eq!(a.find(b"c.txt"), None);
        assert_eq!(a.find(&[b'a'; 40]), None);
        assert_eq!(a.find_type(u32::from_le_bytes(*b"MESH")), Some(1));
        assert_eq!(a.find_type(0), None);
        assert!(a.quirks().is_empty());
        assert_eq!(a.directory_offset(), 32);
    }

    #[test]
    fn canonical_build_matches_the_hand_written_file() {
        let built = build(&[
            NewEntry {
                name: b"b.txt".to_vec(),
                type_id: 0x6D786554,
                attr1: 1,
                attr2: 2,
                attr3: 3,
                payload: b"hello",
            },
            NewEntry {
                name: b"A.txt".to_vec(),
                type_id: 0x4853454D,
                attr1: 1,
                attr2: 2,
                attr3: 3,
                payload: b"12345678",
            },
        ])
        .unwrap();
        assert_eq!(built, sample());
    }

    #[test]
    fn empty_archive_round_trips() {
        let built = build(&[]).unwrap();
        assert_eq!(
            built,
            b"NRes\x00\x01\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00"
        );
        let a = Nres::parse(&built, Mode::Strict).unwrap();
        assert!(a.is_empty());
        assert_eq!(NresEditor::new(&a).to_bytes().unwrap(), built);
    }

    #[test]
    fn check_magic() {
        let mut f = sample();
        f[0] = b'X';
        assert!(matches!(err_of(&f).problem, Problem::BadMagic { .. }));
        assert!(matches!(err_of(b"NRe").problem, Problem::Truncated { .. }));
    }

    #[test]
    fn check_version() {
        let mut f = sample();
        f[5] = 2;
        let e = err_of(&f);
        assert_eq!(e.offset, 4);
        assert!(e.to_string().contains("version 0x100"), "{e}");
    }

    #[test]
    fn check_negative_count() {
        let mut f = sample();
        f[8..12].copy_from_slice(&(-1i32).to_le_bytes());
        assert_eq!(err_of(&f).offset, 8);
    }

    #[test]
    fn check_count_too_large_for_the_file() {
        let mut f = sample();
        f[8..12].copy_from_slice(&i32::MAX.to_le_bytes());
        let e = err_of(&f);
        assert_eq!(e.offset, 8);
        assert!(e.to_string().contains("directory"), "{e}");
    }

    #[test]
    fn check_total_size_equals_file_length() {
        let mut f = sample();
        f.push(0);
        assert_eq!(err_of(&f).offset, 12);
        let f = sample();
        assert_eq!(err_of(&f[..f.len() - 1]).offset, 12);
    }

    #[test]
    fn check_directory_offset_at_least_16() {
        // one entry but total_size 64 + 8: directory would start at 8
        let mut f = b"NRes\x00\x01\x00\x00\x01\x00\x00\x00".to_vec();
        f.extend_from_slice(&72u32.to_le_bytes());
        f.extend(raw_entry(b"Texm", 0, b"x", 16, 0));
        f.truncate(72);
        assert!(err_of(&f).to_string().contains("starting at >= 16"));
    }

    #[test]
    fn check_data_offset_after_header() {
        let mut f = sample();
        let at = 32 + 0x38;
        f[at..at + 4].copy_from_slice(&8u32.to_le_bytes());
        let e = err_of(&f);
        assert_eq!(e.offset, at as u64);
        assert_eq!(e.entry.as_ref().map(|x| x.index), Some(0));
        assert_eq!(e.entry.as_ref().map(|x| x.name.as_str()), Some("b.txt"));
    }

    #[test]
    fn check_payload_inside_the_data_region() {
        let mut f = sample();
        let at = 32 + 64 + 0x0C;
        f[at..at + 4].copy_from_slice(&9u32.to_le_bytes());
        let e = err_of(&f);
        assert_eq!(e.entry.as_ref().map(|x| x.index), Some(1));
        assert!(e.to_string().contains("<= directory offset 32"), "{e}");
        // offset + size overflowing u32 is caught too
        let mut f = sample();
        f[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = expect_error(
            Nres::parse(&f, Mode::Compatible),
            at as u64,
            "NRes: expected payload end (data_offset + size) <= directory offset 32, \
             found 24 + 4294967295 = 4294967319",
        );
        assert_eq!(entry_of(&e), Some((1, "A.txt")));
    }

    #[test]
    fn check_nul_inside_the_name_field() {
        let mut f = sample();
        let at = 32 + 0x14;
        f[at..at + 36].fill(b'N');
        let e = err_of(&f);
        assert_eq!(e.offset, at as u64);
        let e = expect_error(
            Nres::parse(&f, Mode::Compatible),
            at as u64,
            &format!(
                "NRes: expected a NUL inside the 36-byte name field, found \"{}\"",
                "N".repeat(36)
            ),
        );
        assert_eq!(entry_of(&e), Some((0, "N".repeat(36).as_str())));
    }

    #[test]
    fn check_sort_index_permutation_strict_and_quirk_in_compatible() {
        for bad in [0u32, 7] {
            let mut f = sample();
            let at = 32 + 0x3C; // entry 0: 1 -> bad (repeat of 0, or out of range)
            f[at..at + 4].copy_from_slice(&bad.to_le_bytes());
            let e = err_of(&f);
            assert!(e.to_string().contains("permutation"), "{e}");
            let a = Nres::parse(&f, Mode::Compatible).unwrap();
            assert_eq!(a.quirks().len(), 1);
            assert!(matches!(
                a.quirks()[0].problem,
                Problem::Quirk {
                    name: QUIRK_SORT_TABLE,
                    ..
                }
            ));
            // lookup does not depend on the stored table
            assert_eq!(a.find(b"a.txt"), Some(1));
            // and the broken table survives a lossless rewrite
            assert_eq!(NresEditor::new(&a).to_bytes().unwrap(), f);
        }
    }

    #[test]
    fn duplicate_names_resolve_to_the_first_in_directory_order() {
        let built = build(&[
            NewEntry {
                name: b"x".to_vec(),
                type_id: 1,
                attr1: 0,
                attr2: 0,
                attr3: 0,
                payload: b"1",
            },
            NewEntry {
                name: b"Dup".to_vec(),
                type_id: 2,
                attr1: 0,
                attr2: 0,
                attr3: 0,
                payload: b"2",
            },
            NewEntry {
                name: b"DUP".to_vec(),
                type_id: 2,
                attr1: 0,
                attr2: 0,
                attr3: 0,
                payload: b"3",
            },
        ])
        .unwrap();
        let a = Nres::parse(&built, Mode::Strict).unwrap();
        assert_eq!(a.find(b"dup"), Some(1));
        assert_eq!(a.find_type(2), Some(1));
    }

    #[test]
    fn writer_refuses_bad_names() {
        let mk = |name: &[u8]| NewEntry {
            name: name.to_vec(),
            type_id: 0,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload: b"",
        };
        assert!(build(&[mk(&[b'a'; 35])]).is_ok());
        let e = build(&[mk(b"ok"), mk(&[b'a'; 36])]).unwrap_err();
        assert_eq!(e.entry.as_ref().map(|x| x.index), Some(1));
        let e = expect_error(
            build(&[mk(b"a\0b")]),
            0,
            "NRes: expected a name without NUL bytes",
        );
        assert_eq!(entry_of(&e), Some((0, "a\0b")));
        let e = expect_error(
            build(&[mk(b"")]),
            0,
            "NRes: expected a name of 1..=35 bytes, found 0 bytes",
        );
        assert_eq!(entry_of(&e), Some((0, "")));
    }

    #[test]
    fn sort_order_folds_to_upper_case_with_ties_by_index() {
        // '_' (0x5F) sorts after upper-case letters, before lower-case ones:
        // with upper-case folding "A_" > "AB"; ties keep directory order.
        assert_eq!(
            sort_table(&[b"a_".as_slice(), b"ab", b"AB", b"Z"]),
            vec![1, 2, 0, 3]
        );
    }

    /// A non-canonical archive: gap with junk between payloads, odd padding,
    /// name tails, a zero-size entry and a shared payload.
    fn irregular() -> Vec<u8> {
        let mut f = vec![0u8; 16];
        f.extend_from_slice(b"JUNKJUNK"); // unindexed at 16
        f.extend_from_slice(b"first"); // entry 0 at 24
        f.extend_from_slice(&[0, 0, 0]); // pad
        f.extend_from_slice(b"second!"); // entry 1 at 32, no padding after
        f.extend_from_slice(b"tail"); // unindexed at 39
        let dir = f.len();
        let mut e0 = raw_entry(b"Texm", 5, b"first", 24, 2);
        e0[0x14 + 10] = 0xAB; // name tail
        f.extend(e0);
        f.extend(raw_entry(b"Texm", 7, b"second", 32, 0));
        f.extend(raw_entry(b"WEAR", 0, b"empty", 43, 1)); // zero-size at the directory
        f.extend(raw_entry(b"WEAR", 3, b"alias", 35, 3)); // inside entry 1
        let total = f.len() as u32;
        f[0..4].copy_from_slice(b"NRes");
        f[4..8].copy_from_slice(&0x100u32.to_le_bytes());
        f[8..12].copy_from_slice(&4i32.to_le_bytes());
        f[12..16].copy_from_slice(&total.to_le_bytes());
        assert_eq!(dir, 43);
        f
    }

    #[test]
    fn lossless_rewrite_of_an_irregular_archive_is_byte_identical() {
        let f = irregular();
        let a = Nres::parse(&f, Mode::Strict).unwrap();
        assert_eq!(a.payload(3), b"ond");
        assert_eq!(NresEditor::new(&a).to_bytes().unwrap(), f);
        let kinds: Vec<_> = a
            .regions()
            .iter()
            .map(|r| (r.kind, r.offset, r.len))
            .collect();
        use super::super::layout::RegionKind::*;
        assert_eq!(
            kinds,
            vec![
                (Unindexed, 16, 8),
                (Payload, 24, 5),
                (Padding, 29, 3),
                (Payload, 32, 7),
                (Unindexed, 39, 4),
                (Payload, 43, 0)
            ]
        );
    }

    #[test]
    fn lossless_edit_keeps_every_other_byte() {
        let f = irregular();
        let a = Nres::parse(&f, Mode::Strict).unwrap();
        let mut ed = NresEditor::new(&a);
        ed.set_payload(0, b"FIRST+MORE".as_slice());
        let out = ed.to_bytes().unwrap();
        let b = Nres::parse(&out, Mode::Strict).unwrap();
        assert_eq!(b.payload(0), b"FIRST+MORE");
        for i in 1..4 {
            assert_eq!(b.payload(i), a.payload(i));
            let (x, y) = (&a.entries()[i], &b.entries()[i]);
            assert_eq!(
                (
                    x.name_field,
                    x.type_id,
                    x.attr1,
                    x.attr2,
                    x.attr3,
                    x.sort_index
                ),
                (
                    y.name_field,
                    y.type_id,
                    y.attr1,
                    y.attr2,
                    y.attr3,
                    y.sort_index
                )
            );
        }
        assert_eq!(b.entries()[0].name_field, a.entries()[0].name_field);
        assert_eq!(&out[16..24], b"JUNKJUNK");
        // payload 1 moved from 32 to 40 (re-aligned), unindexed tail follows it
        assert_eq!(b.entries()[1].data_offset, 40);
        assert_eq!(&out[47..51], b"tail");
        // an attribute edit touches only its 4 bytes
        let mut ed = NresEditor::new(&a);
        ed.set_attributes(2, 1, 2, 3, 4);
        let out = ed.to_bytes().unwrap();
        let diff: Vec<usize> = (0..f.len()).filter(|&i| f[i] != out[i]).collect();
        assert!(
            diff.iter()
                .all(|&i| (43 + 128..43 + 128 + 0x14).contains(&i)),
            "{diff:?}"
        );
    }

    #[test]
    fn rename_keeps_the_tail_and_rebuilds_the_sort_table() {
        let f = irregular();
        let a = Nres::parse(&f, Mode::Strict).unwrap();
        let mut ed = NresEditor::new(&a);
        ed.rename(1, b"AAA").unwrap();
        let e = expect_error(
            ed.rename(1, &[b'x'; 36]),
            0,
            "NRes: expected a name of 1..=35 bytes, found 36 bytes",
        );
        assert_eq!(entry_of(&e), Some((1, "x".repeat(36).as_str())));
        let out = ed.to_bytes().unwrap();
        let b = Nres::parse(&out, Mode::Strict).unwrap();
        assert_eq!(b.entries()[1].name(), b"AAA");
        assert_eq!(&b.entries()[1].name_field[4..7], b"nd\0");
        let order: Vec<u32> = b.entries().iter().map(|e| e.sort_index).collect();
        assert_eq!(order, vec![1, 3, 2, 0]); // AAA, alias, empty, first
    }

    #[test]
    fn push_appends_an_aligned_payload() {
        let a_bytes = sample();
        let a = Nres::parse(&a_bytes, Mode::Strict).unwrap();
        let mut ed = NresEditor::new(&a);
        let i = ed
            .push(&NewEntry {
                name: b"new".to_vec(),
                type_id: 9,
                attr1: 0,
                attr2: 0,
                attr3: 0,
                payload: b"xyz",
            })
            .unwrap();
        let out = ed.to_bytes().unwrap();
        let b = Nres::parse(&out, Mode::Strict).unwrap();
        assert_eq!(b.payload(i), b"xyz");
        assert_eq!(b.entries()[i].data_offset, 32);
        assert_eq!(b.find(b"NEW"), Some(2));
        assert_eq!(&out[16..32], &a_bytes[16..32]);
    }
}
