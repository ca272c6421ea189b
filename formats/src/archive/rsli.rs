//! RsLi: a 32-byte header, an XOR-masked table of 32-byte rows, packed
//! payloads and an optional `AO` overlay trailer (tome III, "RsLi").
//!
//! [`Rsli::parse`] checks the header, unmasks the table, checks every
//! row's storage method and effective range, and prepares the name lookup
//! (the stored presorted table when valid, a rebuilt one when the file is not
//! presorted). [`Rsli::load`] decodes a payload once and caches it; raw
//! entries come straight from the mapping. [`RsliEditor`] is the lossless
//! writer, [`build`] the canonical one.

use super::Mode;
use super::layout::{Layout, Region};
use super::xor::XorStream;
use super::{deflate, lzhuf, lzss};
use crate::cursor::{Cursor, c_name, show_bytes};
use crate::error::{FormatError, Problem, Result};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::OnceLock;

/// Format name used in errors.
pub const FORMAT: &str = "RsLi";
/// Header size.
pub const HEADER_SIZE: usize = 32;
/// Table row size.
pub const ENTRY_SIZE: usize = 32;
/// Name field size.
pub const NAME_FIELD: usize = 12;
/// Header +0x0E value meaning "the stored sort table is prepared".
pub const PRESORTED: u16 = 0xABBA;
/// Size of the `AO` overlay trailer.
pub const TRAILER_SIZE: usize = 6;

/// The one retail quirk: `sprites.lib::INTERF8.TEX` (Deflate) declares a
/// packed range ending one byte past the end of the file. Compatible mode
/// reads one byte less; strict mode reports it under this name.
pub const QUIRK_DEFLATE_EOF: &str = "deflate_eof_plus_one";
/// Compatible-mode quirk: the stored presorted table is not a permutation
/// that sorts the names; lookup falls back to a linear scan.
pub const QUIRK_SORT_TABLE: &str = "rsli_sort_table_fallback";

/// Storage method: `flags & 0x1E0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// 0x000: the bytes as stored.
    Raw,
    /// 0x020: the per-entry XOR stream only.
    Xor,
    /// 0x040: LZSS.
    Lzss,
    /// 0x060: XOR stream, then LZSS.
    XorLzss,
    /// 0x080: adaptive Huffman + LZSS (LZHUF).
    Lzhuf,
    /// 0x0A0: XOR stream, then LZHUF.
    XorLzhuf,
    /// 0x100: raw Deflate.
    Deflate,
}

impl Method {
    /// Mask of the method bits in `flags`.
    pub const MASK: u16 = 0x1E0;
    /// All methods.
    pub const ALL: [Method; 7] = [
        Method::Raw,
        Method::Xor,
        Method::Lzss,
        Method::XorLzss,
        Method::Lzhuf,
        Method::XorLzhuf,
        Method::Deflate,
    ];

    /// The method bits.
    pub fn bits(self) -> u16 {
        match self {
            Method::Raw => 0x000,
            Method::Xor => 0x020,
            Method::Lzss => 0x040,
            Method::XorLzss => 0x060,
            Method::Lzhuf => 0x080,
            Method::XorLzhuf => 0x0A0,
            Method::Deflate => 0x100,
        }
    }

    /// The method of `flags`, or the unknown method bits.
    pub fn from_flags(flags: u16) -> std::result::Result<Method, u16> {
        let bits = flags & Self::MASK;
        Self::ALL.into_iter().find(|m| m.bits() == bits).ok_or(bits)
    }

    /// Whether the per-entry XOR stream is applied to the stored bytes.
    pub fn masked(self) -> bool {
        matches!(self, Method::Xor | Method::XorLzss | Method::XorLzhuf)
    }

    /// The most output `packed` stored bytes can give.
    fn max_output(self, packed: usize) -> usize {
        match self {
            Method::Raw | Method::Xor => packed,
            Method::Lzss | Method::XorLzss => lzss::max_output(packed),
            Method::Lzhuf | Method::XorLzhuf => lzhuf::max_output(packed),
            Method::Deflate => deflate::max_output(packed),
        }
    }

    /// Encodes `payload` into the stored bytes (`key`: the row's sort field,
    /// for the masked methods).
    pub fn encode(self, payload: &[u8], key: u16) -> Vec<u8> {
        let mut out = match self {
            Method::Raw | Method::Xor => payload.to_vec(),
            Method::Lzss | Method::XorLzss => lzss::encode(payload),
            Method::Lzhuf | Method::XorLzhuf => lzhuf::encode(payload),
            Method::Deflate => deflate::encode(payload),
        };
        if self.masked() {
            XorStream::new(key as u32).apply(&mut out);
        }
        out
    }

    /// Decodes stored bytes into exactly `unpacked` bytes.
    pub fn decode(self, stored: &[u8], unpacked: usize, key: u16) -> Result<Vec<u8>> {
        let unmasked;
        let input = if self.masked() {
            let mut buf = stored.to_vec();
            XorStream::new(key as u32).apply(&mut buf);
            unmasked = buf;
            &unmasked[..]
        } else {
            stored
        };
        match self {
            Method::Raw | Method::Xor => {
                if input.len() != unpacked {
                    return Err(FormatError::invalid(
                        FORMAT,
                        0,
                        format!("packed size equal to the unpacked size {unpacked}"),
                        input.len(),
                    ));
                }
                Ok(input.to_vec())
            }
            Method::Lzss | Method::XorLzss => lzss::decode(input, unpacked),
            Method::Lzhuf | Method::XorLzhuf => lzhuf::decode(input, unpacked),
            Method::Deflate => deflate::decode(input, unpacked),
        }
    }
}

/// One 32-byte table row (after unmasking), exactly as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RsliEntry {
    /// +0x00: upper-case name; bytes after the NUL kept.
    #[serde(serialize_with = "super::nres::serialize_bytes_hex")]
    pub name_field: [u8; NAME_FIELD],
    /// +0x0C: service bytes, kept raw.
    #[serde(serialize_with = "super::nres::serialize_bytes_hex")]
    pub service: [u8; 4],
    /// +0x10: flags; `flags & 0x1E0` is the storage method.
    pub flags: u16,
    /// +0x12: sort table word (sorted position -> row index); also the
    /// key of the per-entry XOR stream.
    pub sort_to_original: u16,
    /// +0x14: size after decoding.
    pub unpacked_size: u32,
    /// +0x18: payload offset (plus the overlay when the file has one).
    pub data_offset_raw: u32,
    /// +0x1C: stored size.
    pub packed_size: u32,
}

impl RsliEntry {
    /// The name: bytes of the field before the first NUL.
    pub fn name(&self) -> &[u8] {
        c_name(&self.name_field)
    }

    /// The name for messages (lossy).
    pub fn display_name(&self) -> String {
        String::from_utf8_lossy(self.name()).into_owned()
    }

    /// The storage method (checked at parse for every row of an [`Rsli`]).
    pub fn method(&self) -> std::result::Result<Method, u16> {
        Method::from_flags(self.flags)
    }

    /// The 32 unmasked bytes of this row.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0u8; ENTRY_SIZE];
        out[0..12].copy_from_slice(&self.name_field);
        out[12..16].copy_from_slice(&self.service);
        out[16..18].copy_from_slice(&self.flags.to_le_bytes());
        out[18..20].copy_from_slice(&self.sort_to_original.to_le_bytes());
        out[20..24].copy_from_slice(&self.unpacked_size.to_le_bytes());
        out[24..28].copy_from_slice(&self.data_offset_raw.to_le_bytes());
        out[28..32].copy_from_slice(&self.packed_size.to_le_bytes());
        out
    }

    fn read(c: &mut Cursor<'_>) -> Result<Self> {
        Ok(Self {
            name_field: c.array()?,
            service: c.array()?,
            flags: c.u16()?,
            sort_to_original: c.u16()?,
            unpacked_size: c.u32()?,
            data_offset_raw: c.u32()?,
            packed_size: c.u32()?,
        })
    }
}

/// The RsLi name order (FACTS.md): raw unsigned bytes, a shorter prefix
/// first.
pub fn compare_names(a: &[u8], b: &[u8]) -> Ordering {
    a.cmp(b)
}

/// How names are looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Lookup {
    /// Row indices in name order (the stored table or a rebuilt one).
    Sorted(Vec<u32>),
    /// The compatible fallback for a broken stored table.
    Linear,
}

/// A validated RsLi archive: a zero-copy view with a decoded-payload cache.
#[derive(Debug)]
pub struct Rsli<'a> {
    data: &'a [u8],
    header: [u8; HEADER_SIZE],
    entries: Vec<RsliEntry>,
    methods: Vec<Method>,
    /// Effective stored range of every row (after the overlay and the
    /// `deflate_eof_plus_one` correction).
    ranges: Vec<(usize, usize)>,
    overlay: Option<u32>,
    lookup: Lookup,
    quirks: Vec<FormatError>,
    cache: Vec<OnceLock<Vec<u8>>>,
}

impl<'a> Rsli<'a> {
    /// Parses `data` with no file name known (the name-bound quirk then
    /// never applies).
    pub fn parse(data: &'a [u8], mode: Mode) -> Result<Rsli<'a>> {
        Self::parse_named(data, mode, "")
    }

    /// Parses `data`, the contents of the file named `file_name` (its last
    /// path component decides whether `deflate_eof_plus_one` may apply).
    pub fn parse_named(data: &'a [u8], mode: Mode, file_name: &str) -> Result<Rsli<'a>> {
        let mut c = Cursor::new(data, FORMAT);
        let header: [u8; HEADER_SIZE] = c.array()?;
        let mut h = Cursor::new(&header, FORMAT);
        h.expect_magic(b"NL")?;
        let reserved = h.u8()?;
        if reserved != 0 {
            return Err(h.invalid_at(2, "reserved byte 0", reserved));
        }
        let version = h.u8()?;
        if version != 1 {
            return Err(h.invalid_at(3, "version 1", version));
        }
        let raw_count = h.i16()?;
        if raw_count < 0 {
            return Err(h.invalid_at(4, "entry count >= 0", raw_count));
        }
        let count = c.checked_count(raw_count as u64, ENTRY_SIZE, "table rows")?;
        let presorted = u16::from_le_bytes([header[0x0E], header[0x0F]]) == PRESORTED;
        let seed = u32::from_le_bytes([header[0x14], header[0x15], header[0x16], header[0x17]]);

        let mut table = c.bytes(count * ENTRY_SIZE)?.to_vec();
        XorStream::new(seed).apply(&mut table);
        let table_end = c.pos();

        let overlay = match data.len().checked_sub(TRAILER_SIZE) {
            Some(at) if at >= table_end && &data[at..at + 2] == b"AO" => {
                let value =
                    u32::from_le_bytes([data[at + 2], data[at + 3], data[at + 4], data[at + 5]]);
                if value as usize > data.len() {
                    return Err(FormatError::invalid(
                        FORMAT,
                        at as u64 + 2,
                        format!("an overlay within the file length {}", data.len()),
                        value,
                    ));
                }
                Some(value)
            }
            _ => None,
        };

        let sprites = file_name_of(file_name).eq_ignore_ascii_case("sprites.lib");
        let mut rows = Cursor::new(&table, FORMAT);
        let mut entries = Vec::with_capacity(count);
        let mut methods = Vec::with_capacity(count);
        let mut ranges = Vec::with_capacity(count);
        let mut quirks = Vec::new();
        for i in 0..count {
            let at = HEADER_SIZE + i * ENTRY_SIZE;
            let e = RsliEntry::read(&mut rows)?;
            let in_entry = |err: FormatError| err.in_entry(i, e.display_name());
            let method = e.method().map_err(|bits| {
                in_entry(FormatError::new(
                    FORMAT,
                    at as u64 + 0x10,
                    Problem::Unsupported {
                        what: format!("storage method {bits:#05x} (flags {:#06x})", e.flags),
                    },
                ))
            })?;
            let start = e.data_offset_raw as u64 + overlay.unwrap_or(0) as u64;
            let end = start + e.packed_size as u64;
            let mut range = (start as usize, e.packed_size as usize);
            if end > data.len() as u64 {
                let quirk = method == Method::Deflate
                    && end == data.len() as u64 + 1
                    && sprites
                    && e.name() == b"INTERF8.TEX";
                let detail = format!(
                    "packed range {start}..{end} ends one byte past the end of the file ({})",
                    data.len()
                );
                match (quirk, mode) {
                    (true, Mode::Compatible) => {
                        range.1 -= 1;
                        quirks.push(in_entry(FormatError::new(
                            FORMAT,
                            at as u64 + 0x1C,
                            Problem::Quirk {
                                name: QUIRK_DEFLATE_EOF,
                                detail,
                            },
                        )));
                    }
                    (true, Mode::Strict) => {
                        return Err(in_entry(FormatError::new(
                            FORMAT,
                            at as u64 + 0x1C,
                            Problem::Quirk {
                                name: QUIRK_DEFLATE_EOF,
                                detail,
                            },
                        )));
                    }
                    (false, _) => {
                        return Err(in_entry(FormatError::invalid(
                            FORMAT,
                            at as u64 + 0x18,
                            format!(
                                "a packed range (offset + overlay + packed size) within the file length {}",
                                data.len()
                            ),
                            format!("{start}..{end}"),
                        )));
                    }
                }
            }
            entries.push(e);
            methods.push(method);
            ranges.push(range);
        }

        let lookup = if presorted {
            match check_sort_table(&entries) {
                Ok(table) => Lookup::Sorted(table),
                Err(err) => match mode {
                    Mode::Strict => return Err(err),
                    Mode::Compatible => {
                        quirks.push(FormatError::new(
                            FORMAT,
                            err.offset,
                            Problem::Quirk {
                                name: QUIRK_SORT_TABLE,
                                detail: err.to_string(),
                            },
                        ));
                        Lookup::Linear
                    }
                },
            }
        } else {
            Lookup::Sorted(sort_table(
                &entries.iter().map(RsliEntry::name).collect::<Vec<_>>(),
            ))
        };

        Ok(Rsli {
            data,
            header,
            cache: (0..count).map(|_| OnceLock::new()).collect(),
            entries,
            methods,
            ranges,
            overlay,
            lookup,
            quirks,
        })
    }

    /// The whole file.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The 32 header bytes as stored.
    pub fn header(&self) -> &[u8; HEADER_SIZE] {
        &self.header
    }

    /// Rows in table order.
    pub fn entries(&self) -> &[RsliEntry] {
        &self.entries
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The storage method of row `index`.
    pub fn method(&self, index: usize) -> Method {
        self.methods[index]
    }

    /// The overlay of the `AO` trailer, if the file has one.
    pub fn overlay(&self) -> Option<u32> {
        self.overlay
    }

    /// Quirks accepted in compatible mode.
    pub fn quirks(&self) -> &[FormatError] {
        &self.quirks
    }

    /// The effective absolute offset and length of the stored bytes of
    /// row `index`.
    pub fn stored_range(&self, index: usize) -> (usize, usize) {
        self.ranges[index]
    }

    /// The stored (packed, possibly masked) bytes of row `index`.
    ///
    /// Panics if `index >= self.len()`; every range was checked at parse.
    pub fn stored(&self, index: usize) -> &'a [u8] {
        let (start, len) = self.ranges[index];
        &self.data[start..start + len]
    }

    /// The row named `name` (upper-cased, at most 12 bytes, as the engine
    /// does): binary search in the sort table, or a linear scan when a
    /// broken stored table was accepted in compatible mode.
    pub fn find(&self, name: &[u8]) -> Option<usize> {
        if name.len() > NAME_FIELD {
            return None;
        }
        let key = name.to_ascii_uppercase();
        match &self.lookup {
            Lookup::Sorted(table) => {
                let pos = table.partition_point(|&i| {
                    compare_names(self.entries[i as usize].name(), &key).is_lt()
                });
                let &i = table.get(pos)?;
                (self.entries[i as usize].name() == key.as_slice()).then_some(i as usize)
            }
            Lookup::Linear => self.entries.iter().position(|e| e.name() == key.as_slice()),
        }
    }

    /// Decodes row `index` without the cache.
    pub fn decode(&self, index: usize) -> Result<Vec<u8>> {
        let e = &self.entries[index];
        let method = self.methods[index];
        let stored = self.stored(index);
        let unpacked = e.unpacked_size as usize;
        let in_entry = |err: FormatError| err.in_entry(index, e.display_name());
        if unpacked > method.max_output(stored.len()) {
            return Err(in_entry(FormatError::invalid(
                FORMAT,
                (HEADER_SIZE + index * ENTRY_SIZE + 0x14) as u64,
                format!(
                    "an unpacked size {method:?} can produce from {} stored bytes (at most {})",
                    stored.len(),
                    method.max_output(stored.len())
                ),
                unpacked,
            )));
        }
        method
            .decode(stored, unpacked, e.sort_to_original)
            .map_err(|err| in_entry(err.shifted(self.ranges[index].0 as u64)))
    }

    /// The decoded payload of row `index`: raw rows straight from the
    /// mapping, others decoded on first use and cached.
    pub fn load(&self, index: usize) -> Result<&[u8]> {
        let stored = self.stored(index);
        if self.methods[index] == Method::Raw
            && stored.len() == self.entries[index].unpacked_size as usize
        {
            return Ok(stored);
        }
        let slot = &self.cache[index];
        if let Some(bytes) = slot.get() {
            return Ok(bytes);
        }
        let bytes = self.decode(index)?;
        Ok(slot.get_or_init(|| bytes))
    }

    /// Whether row `index` has been decoded into the cache.
    pub fn is_cached(&self, index: usize) -> bool {
        self.cache[index].get().is_some()
    }

    /// The payload region `[table end, trailer)` split into payloads, zero
    /// gaps and unindexed regions.
    pub fn regions(&self) -> Result<Vec<Region>> {
        Ok(self.layout()?.regions())
    }

    fn trailer_len(&self) -> usize {
        if self.overlay.is_some() {
            TRAILER_SIZE
        } else {
            0
        }
    }

    /// The payload region as a lossless editor sees it. Errors when a
    /// payload overlaps the table or the trailer (valid for the engine, but
    /// not representable as a layout).
    pub fn layout(&self) -> Result<Layout<'a>> {
        let start = HEADER_SIZE + self.len() * ENTRY_SIZE;
        let end = self.data.len() - self.trailer_len();
        for (i, &(off, len)) in self.ranges.iter().enumerate() {
            if off < start || off + len > end {
                return Err(FormatError::new(
                    FORMAT,
                    off as u64,
                    Problem::Unsupported {
                        what: format!(
                            "lossless layout of a payload outside the payload region {start}..{end}"
                        ),
                    },
                )
                .in_entry(i, self.entries[i].display_name()));
            }
        }
        Ok(Layout::scan(self.data, start, end, &self.ranges, 1))
    }
}

/// The last path component of `name`.
fn file_name_of(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The stored table is usable when it is a permutation that lists the
/// names in order.
fn check_sort_table(entries: &[RsliEntry]) -> Result<Vec<u32>> {
    let n = entries.len();
    let mut seen = vec![false; n];
    let mut table = Vec::with_capacity(n);
    for (k, e) in entries.iter().enumerate() {
        let at = (HEADER_SIZE + k * ENTRY_SIZE + 0x12) as u64;
        let i = e.sort_to_original as usize;
        match seen.get_mut(i) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(FormatError::invalid(
                    FORMAT,
                    at,
                    format!("a presorted table forming a permutation of 0..{n}"),
                    e.sort_to_original,
                )
                .in_entry(k, e.display_name()));
            }
        }
        if let Some(&prev) = table.last()
            && compare_names(entries[prev as usize].name(), entries[i].name()).is_gt()
        {
            return Err(FormatError::invalid(
                FORMAT,
                at,
                "a presorted table listing the names in byte order",
                format!(
                    "{} after {}",
                    show_bytes(entries[i].name()),
                    show_bytes(entries[prev as usize].name())
                ),
            )
            .in_entry(k, e.display_name()));
        }
        table.push(i as u32);
    }
    Ok(table)
}

/// Row indices in [`compare_names`] order, ties by row index.
pub fn sort_table<N: AsRef<[u8]>>(names: &[N]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by(|&a, &b| {
        compare_names(names[a as usize].as_ref(), names[b as usize].as_ref()).then(a.cmp(&b))
    });
    order
}

/// A row for the canonical writer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRsliEntry<'p> {
    /// Stored upper-cased; 1..=12 bytes, no NUL.
    pub name: Vec<u8>,
    pub method: Method,
    pub payload: &'p [u8],
}

/// The XOR seed the canonical writer chooses: FNV-1a of the names, folded
/// to 16 bits (deterministic, different per archive like retail files).
fn choose_seed(names: &[Vec<u8>]) -> u32 {
    let mut h: u32 = 0x811C_9DC5;
    for b in names.iter().flat_map(|n| n.iter().chain(&[0])) {
        h = (h ^ *b as u32).wrapping_mul(0x0100_0193);
    }
    (h ^ (h >> 16)) & 0xFFFF
}

fn overflow(what: &str) -> FormatError {
    FormatError::overflow(FORMAT, 0, what)
}

/// The canonical writer: header (`NL`, version 1, count at +4 and +6,
/// presorted flag, total unpacked size at +0x10, chosen XOR seed at +0x14),
/// the masked table with a presorted sort table, then the payloads in table
/// order, packed with each row's method.
pub fn build(entries: &[NewRsliEntry]) -> Result<Vec<u8>> {
    let count = i16::try_from(entries.len()).map_err(|_| overflow("more than 32767 entries"))?;
    let mut names = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let name = e.name.to_ascii_uppercase();
        if name.is_empty() || name.len() > NAME_FIELD || name.contains(&0) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("a name of 1..={NAME_FIELD} bytes without NUL"),
                show_bytes(&e.name),
            )
            .in_entry(i, String::from_utf8_lossy(&e.name)));
        }
        names.push(name);
    }
    let table = sort_table(&names);
    let seed = choose_seed(&names);
    let mut rows = Vec::with_capacity(entries.len());
    let mut body = Vec::new();
    let body_start = HEADER_SIZE + entries.len() * ENTRY_SIZE;
    let mut total: u32 = 0;
    for ((e, name), &sort) in entries.iter().zip(&names).zip(&table) {
        let key = sort as u16;
        let stored = e.method.encode(e.payload, key);
        let mut name_field = [0u8; NAME_FIELD];
        name_field[..name.len()].copy_from_slice(name);
        let unpacked =
            u32::try_from(e.payload.len()).map_err(|_| overflow("payload larger than 4 GiB"))?;
        total = total
            .checked_add(unpacked)
            .ok_or_else(|| overflow("total unpacked size"))?;
        rows.push(RsliEntry {
            name_field,
            service: [0; 4],
            flags: e.method.bits(),
            sort_to_original: key,
            unpacked_size: unpacked,
            data_offset_raw: u32::try_from(body_start + body.len())
                .map_err(|_| overflow("payload offset"))?,
            packed_size: u32::try_from(stored.len()).map_err(|_| overflow("packed size"))?,
        });
        body.extend_from_slice(&stored);
    }
    let mut header = [0u8; HEADER_SIZE];
    header[0..2].copy_from_slice(b"NL");
    header[3] = 1;
    header[4..6].copy_from_slice(&count.to_le_bytes());
    header[6..8].copy_from_slice(&count.to_le_bytes());
    header[0x0E..0x10].copy_from_slice(&PRESORTED.to_le_bytes());
    header[0x10..0x14].copy_from_slice(&total.to_le_bytes());
    header[0x14..0x18].copy_from_slice(&seed.to_le_bytes());
    let mut out = Vec::with_capacity(body_start + body.len());
    out.extend_from_slice(&header);
    write_table(&mut out, &rows, seed);
    out.extend_from_slice(&body);
    Ok(out)
}

/// Appends the rows masked with the table stream of `seed`.
fn write_table(out: &mut Vec<u8>, rows: &[RsliEntry], seed: u32) {
    let start = out.len();
    for r in rows {
        out.extend_from_slice(&r.to_bytes());
    }
    XorStream::new(seed).apply(&mut out[start..]);
}

/// The lossless writer: keeps the header, every row's service bytes, flags
/// and name tail, gaps and the trailer; an edited row gets new stored bytes
/// (packed with its own method), sizes and the offsets that follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RsliEditor<'a> {
    header: [u8; HEADER_SIZE],
    entries: Vec<RsliEntry>,
    layout: Layout<'a>,
    trailer: Vec<u8>,
    /// Rows whose stored bytes were replaced (their packed size is then
    /// derived; an untouched row keeps its stored size, quirk included).
    replaced: Vec<bool>,
    /// Sum of the unpacked sizes as opened.
    original_total: u64,
}

impl<'a> RsliEditor<'a> {
    /// Opens a parsed archive for editing.
    pub fn new(rsli: &Rsli<'a>) -> Result<Self> {
        Ok(Self::from_parts(
            rsli.header,
            rsli.entries.clone(),
            rsli.layout()?,
            rsli.data[rsli.data.len() - rsli.trailer_len()..].to_vec(),
        ))
    }

    /// An editor from its parts (the manifest of an extracted archive).
    pub fn from_parts(
        header: [u8; HEADER_SIZE],
        entries: Vec<RsliEntry>,
        layout: Layout<'a>,
        trailer: Vec<u8>,
    ) -> Self {
        let replaced = vec![false; entries.len()];
        let original_total = entries.iter().map(|r| r.unpacked_size as u64).sum();
        Self {
            header,
            entries,
            layout,
            trailer,
            replaced,
            original_total,
        }
    }

    /// Rows in table order.
    pub fn entries(&self) -> &[RsliEntry] {
        &self.entries
    }

    /// The payload region layout.
    pub fn layout(&self) -> &Layout<'a> {
        &self.layout
    }

    /// The stored bytes of row `index`.
    pub fn stored(&self, index: usize) -> &[u8] {
        self.layout.payload(index)
    }

    /// Replaces the stored bytes of row `index` as they are (already packed
    /// with its method) and its unpacked size.
    pub fn set_stored(
        &mut self,
        index: usize,
        stored: impl Into<Cow<'a, [u8]>>,
        unpacked_size: u32,
    ) {
        if let Some(e) = self.entries.get_mut(index) {
            e.unpacked_size = unpacked_size;
            self.replaced[index] = true;
            self.layout.replace(index, stored.into());
        }
    }

    /// Replaces the decoded payload of row `index`, packed with the row's
    /// own method (and XOR key).
    pub fn set_payload(&mut self, index: usize, payload: &[u8]) -> Result<()> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| FormatError::missing(FORMAT, format!("entry #{index}")))?;
        let method = e.method().map_err(|bits| {
            FormatError::new(
                FORMAT,
                0,
                Problem::Unsupported {
                    what: format!("storage method {bits:#05x}"),
                },
            )
            .in_entry(index, e.display_name())
        })?;
        let stored = method.encode(payload, e.sort_to_original);
        let unpacked =
            u32::try_from(payload.len()).map_err(|_| overflow("payload larger than 4 GiB"))?;
        self.set_stored(index, stored, unpacked);
        Ok(())
    }

    /// The archive bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let table_end = HEADER_SIZE + self.entries.len() * ENTRY_SIZE;
        let mut out = vec![0u8; table_end];
        let placed = self.layout.write(&mut out, self.entries.len());
        let overlay = match self.trailer.get(2..6) {
            Some(v) => u32::from_le_bytes([v[0], v[1], v[2], v[3]]) as usize,
            None => 0,
        };
        let mut rows = self.entries.clone();
        for (i, (row, place)) in rows.iter_mut().zip(placed).enumerate() {
            let (offset, size) = place.ok_or_else(|| {
                FormatError::missing(FORMAT, "a data block for the entry")
                    .in_entry(i, row.display_name())
            })?;
            let raw = offset
                .checked_sub(overlay)
                .ok_or_else(|| overflow("payload before the overlay"))?;
            row.data_offset_raw = u32::try_from(raw).map_err(|_| overflow("payload offset"))?;
            if self.replaced[i] {
                row.packed_size = u32::try_from(size).map_err(|_| overflow("packed size"))?;
            }
        }
        let mut header = self.header;
        // +0x10 holds the total unpacked size in retail files: a derived
        // value, updated only when it held the old total.
        let old_total = self.original_total;
        let new_total: u64 = rows.iter().map(|r| r.unpacked_size as u64).sum();
        if u32::from_le_bytes([header[0x10], header[0x11], header[0x12], header[0x13]]) as u64
            == old_total
        {
            let total = u32::try_from(new_total).map_err(|_| overflow("total unpacked size"))?;
            header[0x10..0x14].copy_from_slice(&total.to_le_bytes());
        }
        let seed = u32::from_le_bytes([header[0x14], header[0x15], header[0x16], header[0x17]]);
        let mut head = Vec::with_capacity(table_end);
        head.extend_from_slice(&header);
        write_table(&mut head, &rows, seed);
        out[..table_end].copy_from_slice(&head);
        out.extend_from_slice(&self.trailer);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{entry_of, expect_error};

    /// A hand-written archive: seed 0x1234, two rows (table order "B.TXT"
    /// raw "hello", "A.TXT" LZSS of "abcabc"), presorted table [1, 0], then
    /// the payloads. Rows are masked with the continuous table stream.
    fn sample() -> Vec<u8> {
        let mut f = vec![0u8; 32];
        f[0..2].copy_from_slice(b"NL");
        f[3] = 1;
        f[4..6].copy_from_slice(&2i16.to_le_bytes());
        f[6..8].copy_from_slice(&2i16.to_le_bytes());
        f[0x0E..0x10].copy_from_slice(&0xABBAu16.to_le_bytes());
        f[0x10..0x14].copy_from_slice(&11u32.to_le_bytes());
        f[0x14..0x18].copy_from_slice(&0x1234u32.to_le_bytes());
        f[0x1F] = 0x77; // an unnamed header byte, kept
        let mut rows = Vec::new();
        // row 0: B.TXT, service "srv!", raw, sort -> 1, 5 bytes at 96
        rows.extend_from_slice(b"B.TXT\0\0\0\0\0\0\0");
        rows.extend_from_slice(b"srv!");
        rows.extend_from_slice(&0x0000u16.to_le_bytes());
        rows.extend_from_slice(&1u16.to_le_bytes());
        rows.extend_from_slice(&5u32.to_le_bytes());
        rows.extend_from_slice(&96u32.to_le_bytes());
        rows.extend_from_slice(&5u32.to_le_bytes());
        // row 1: A.TXT, LZSS, sort -> 0, 6 bytes unpacked from 6 at 101
        rows.extend_from_slice(b"A.TXT\0tail\0\0");
        rows.extend_from_slice(&[0; 4]);
        rows.extend_from_slice(&0x0040u16.to_le_bytes());
        rows.extend_from_slice(&0u16.to_le_bytes());
        rows.extend_from_slice(&6u32.to_le_bytes());
        rows.extend_from_slice(&101u32.to_le_bytes());
        rows.extend_from_slice(&6u32.to_le_bytes());
        XorStream::new(0x1234).apply(&mut rows);
        f.extend(rows);
        f.extend_from_slice(b"hello");
        f.extend_from_slice(&[0b0000_0111, b'a', b'b', b'c', 0xEE, 0xF0]);
        f
    }

    fn strict(f: &[u8]) -> Result<Rsli<'_>> {
        Rsli::parse(f, Mode::Strict)
    }

    #[test]
    fn parses_the_hand_written_archive() {
        let f = sample();
        let a = strict(&f).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a.entries()[0].name(), b"B.TXT");
        assert_eq!(&a.entries()[0].service, b"srv!");
        assert_eq!(&a.entries()[1].name_field[6..10], b"tail");
        assert_eq!(a.method(1), Method::Lzss);
        assert_eq!(a.load(0).unwrap(), b"hello");
        assert_eq!(a.load(1).unwrap(), b"abcabc");
        assert_eq!(a.find(b"a.txt"), Some(1));
        assert_eq!(a.find(b"B.TXT"), Some(0));
        assert_eq!(a.find(b"C.TXT"), None);
        assert_eq!(a.find(b"A.TXT.TOO.LONG"), None);
        assert_eq!(a.overlay(), None);
    }

    #[test]
    fn cache_decodes_once_and_raw_comes_from_the_mapping() {
        let f = sample();
        let a = strict(&f).unwrap();
        let raw = a.load(0).unwrap();
        assert_eq!(raw.as_ptr(), f[96..].as_ptr());
        assert!(!a.is_cached(0));
        assert!(!a.is_cached(1));
        let first = a.load(1).unwrap().as_ptr();
        assert!(a.is_cached(1));
        assert_eq!(a.load(1).unwrap().as_ptr(), first);
    }

    #[test]
    fn check_magic_reserved_version_count() {
        let f = sample();
        for (at, value) in [(0usize, b'X'), (2, 1), (3, 2), (5, 0x80)] {
            let mut g = f.clone();
            g[at] = value;
            let e = strict(&g).unwrap_err();
            assert!(e.offset <= 5, "{at}: {e}");
        }
        expect_error(
            strict(&f[..20]),
            0,
            "RsLi: truncated: expected 32 more bytes, 20 available",
        );
    }

    #[test]
    fn check_table_inside_the_file() {
        let mut f = sample();
        f[4..6].copy_from_slice(&100i16.to_le_bytes());
        assert!(strict(&f).unwrap_err().to_string().contains("table rows"));
    }

    /// Rewrites row `row` of `f` through `edit` (unmask, edit, remask).
    fn edit_row(f: &mut [u8], row: usize, edit: impl FnOnce(&mut [u8])) {
        let n = i16::from_le_bytes([f[4], f[5]]) as usize;
        let seed = u32::from_le_bytes([f[0x14], f[0x15], f[0x16], f[0x17]]);
        let table = &mut f[32..32 + n * 32];
        XorStream::new(seed).apply(table);
        edit(&mut table[row * 32..row * 32 + 32]);
        XorStream::new(seed).apply(table);
    }

    #[test]
    fn check_unknown_method_is_unsupported() {
        for bits in [0x0C0u16, 0x1E0, 0x120] {
            let mut f = sample();
            edit_row(&mut f, 1, |r| {
                r[16..18].copy_from_slice(&bits.to_le_bytes())
            });
            let e = Rsli::parse(&f, Mode::Compatible).unwrap_err();
            assert!(matches!(e.problem, Problem::Unsupported { .. }), "{e}");
            assert_eq!(
                e.entry.as_ref().map(|x| x.name.clone()),
                Some("A.TXT".into())
            );
        }
        // bits outside the mask are kept, not a method
        let mut f = sample();
        edit_row(&mut f, 1, |r| {
            r[16..18].copy_from_slice(&0x0041u16.to_le_bytes())
        });
        assert_eq!(strict(&f).unwrap().method(1), Method::Lzss);
    }

    #[test]
    fn check_range_inside_the_file() {
        let mut f = sample();
        edit_row(&mut f, 1, |r| {
            r[28..32].copy_from_slice(&7u32.to_le_bytes())
        });
        let e = Rsli::parse(&f, Mode::Compatible).unwrap_err();
        assert!(e.to_string().contains("within the file length"), "{e}");
    }

    #[test]
    fn check_exact_unpacked_size() {
        let mut f = sample();
        edit_row(&mut f, 0, |r| {
            r[20..24].copy_from_slice(&4u32.to_le_bytes())
        });
        let a = strict(&f).unwrap();
        let e = expect_error(
            a.load(0),
            96,
            "RsLi: expected packed size equal to the unpacked size 4, found 5",
        );
        assert_eq!(entry_of(&e), Some((0, "B.TXT")));
        let mut f = sample();
        edit_row(&mut f, 1, |r| {
            r[20..24].copy_from_slice(&9u32.to_le_bytes())
        });
        let a = strict(&f).unwrap();
        let e = a.load(1).unwrap_err();
        assert_eq!(e.entry.as_ref().map(|x| x.index), Some(1));
    }

    #[test]
    fn ao_trailer_shifts_offsets() {
        // Put 4 bytes of overlay in front of the payloads: offsets stay
        // relative, the trailer says +4.
        let f = sample();
        let mut g = f[..96].to_vec();
        g.extend_from_slice(b"OVLY");
        g.extend_from_slice(&f[96..]);
        g.extend_from_slice(b"AO");
        g.extend_from_slice(&4u32.to_le_bytes());
        let a = strict(&g).unwrap();
        assert_eq!(a.overlay(), Some(4));
        assert_eq!(a.load(0).unwrap(), b"hello");
        assert_eq!(a.load(1).unwrap(), b"abcabc");
        assert_eq!(RsliEditor::new(&a).unwrap().to_bytes().unwrap(), g);
        // an overlay beyond the file is refused before any range check
        let n = g.len();
        g[n - 4..].copy_from_slice(&(n as u32 + 1).to_le_bytes());
        assert!(strict(&g).unwrap_err().to_string().contains("overlay"));
    }

    /// sprites.lib with INTERF8.TEX (Deflate) whose range ends at EOF + 1.
    fn sprites(name: &[u8]) -> Vec<u8> {
        let mut f = build(&[NewRsliEntry {
            name: name.to_vec(),
            method: Method::Deflate,
            payload: b"interface",
        }])
        .unwrap();
        edit_row(&mut f, 0, |r| {
            let packed = u32::from_le_bytes([r[28], r[29], r[30], r[31]]);
            r[28..32].copy_from_slice(&(packed + 1).to_le_bytes());
        });
        f
    }

    #[test]
    fn quirk_deflate_eof_plus_one_only_for_sprites_interf8() {
        let f = sprites(b"INTERF8.TEX");
        let e = Rsli::parse_named(&f, Mode::Strict, "DATA/SPRITES.LIB").unwrap_err();
        assert!(
            matches!(
                e.problem,
                Problem::Quirk {
                    name: QUIRK_DEFLATE_EOF,
                    ..
                }
            ),
            "{e}"
        );
        let a = Rsli::parse_named(&f, Mode::Compatible, "data/sprites.lib").unwrap();
        assert_eq!(a.quirks().len(), 1);
        assert_eq!(a.load(0).unwrap(), b"interface");
        // lossless rewrite keeps the stored (one too long) packed size
        assert_eq!(RsliEditor::new(&a).unwrap().to_bytes().unwrap(), f);
        // not another file, not another entry, not without a file name
        let past_the_end = "RsLi: expected a packed range (offset + overlay + packed size) within the file length 75, \
             found 64..76";
        for refused in [
            Rsli::parse_named(&f, Mode::Compatible, "other.lib"),
            Rsli::parse(&f, Mode::Compatible),
        ] {
            let e = expect_error(refused, 56, past_the_end);
            assert_eq!(entry_of(&e), Some((0, "INTERF8.TEX")));
        }
        let g = sprites(b"INTERF9.TEX");
        let e = expect_error(
            Rsli::parse_named(&g, Mode::Compatible, "sprites.lib"),
            56,
            past_the_end,
        );
        assert_eq!(entry_of(&e), Some((0, "INTERF9.TEX")));
    }

    #[test]
    fn quirk_deflate_eof_plus_one_not_for_other_methods() {
        let mut f = build(&[NewRsliEntry {
            name: b"INTERF8.TEX".to_vec(),
            method: Method::Lzss,
            payload: b"interface",
        }])
        .unwrap();
        edit_row(&mut f, 0, |r| {
            let packed = u32::from_le_bytes([r[28], r[29], r[30], r[31]]);
            r[28..32].copy_from_slice(&(packed + 1).to_le_bytes());
        });
        let e = expect_error(
            Rsli::parse_named(&f, Mode::Compatible, "sprites.lib"),
            56,
            "RsLi: expected a packed range (offset + overlay + packed size) within the file length 75, \
             found 64..76",
        );
        assert_eq!(entry_of(&e), Some((0, "INTERF8.TEX")));
    }

    #[test]
    fn quirk_sort_table_fallback() {
        let permutation = "RsLi: expected a presorted table forming a permutation of 0..2, found ";
        for (bad, offset, entry, needle) in [
            ([0u16, 0], 82, (1, "A.TXT"), format!("{permutation}0")),
            (
                [0, 1],
                82,
                (1, "A.TXT"),
                "RsLi: expected a presorted table listing the names in byte order, \
              found \"A.TXT\" after \"B.TXT\""
                    .to_string(),
            ),
            ([5, 0], 50, (0, "B.TXT"), format!("{permutation}5")),
        ] {
            let mut f = sample();
            edit_row(&mut f, 0, |r| {
                r[18..20].copy_from_slice(&bad[0].to_le_bytes())
            });
            edit_row(&mut f, 1, |r| {
                r[18..20].copy_from_slice(&bad[1].to_le_bytes())
            });
            let e = expect_error(strict(&f), offset, &needle);
            assert_eq!(entry_of(&e), Some(entry), "{bad:?}");
            let a = Rsli::parse(&f, Mode::Compatible).unwrap();
            assert!(matches!(
                a.quirks()[0].problem,
                Problem::Quirk {
                    name: QUIRK_SORT_TABLE,
                    ..
                }
            ));
            assert_eq!(a.find(b"a.txt"), Some(1));
            assert_eq!(a.find(b"b.txt"), Some(0));
        }
    }

    #[test]
    fn unsorted_files_get_a_rebuilt_table() {
        let mut f = sample();
        f[0x0E] = 0; // not presorted: the stored words are ignored
        edit_row(&mut f, 0, |r| {
            r[18..20].copy_from_slice(&9u16.to_le_bytes())
        });
        let a = strict(&f).unwrap();
        assert!(a.quirks().is_empty());
        assert_eq!(a.find(b"A.TXT"), Some(1));
        assert_eq!(a.find(b"b.txt"), Some(0));
    }

    #[test]
    fn lossless_rewrite_and_edit() {
        let f = sample();
        let a = strict(&f).unwrap();
        assert_eq!(RsliEditor::new(&a).unwrap().to_bytes().unwrap(), f);
        let mut ed = RsliEditor::new(&a).unwrap();
        ed.set_payload(0, b"a longer payload").unwrap();
        let out = ed.to_bytes().unwrap();
        let b = strict(&out).unwrap();
        assert_eq!(b.load(0).unwrap(), b"a longer payload");
        assert_eq!(b.load(1).unwrap(), b"abcabc");
        assert_eq!(&out[..0x10], &f[..0x10]);
        assert_eq!(&out[0x14..32], &f[0x14..32]);
        assert_eq!(
            u32::from_le_bytes([out[0x10], out[0x11], out[0x12], out[0x13]]),
            22
        );
        assert_eq!(&b.entries()[0].service, b"srv!");
        assert_eq!(b.entries()[1].name_field, a.entries()[1].name_field);
        assert_eq!(b.entries()[1].flags, 0x0040);
    }

    #[test]
    fn build_round_trips_every_method() {
        let text: Vec<u8> = b"The quick brown fox jumps over the lazy dog. ".repeat(40);
        let entries: Vec<NewRsliEntry> = Method::ALL
            .iter()
            .enumerate()
            .map(|(i, &m)| NewRsliEntry {
                name: format!("e{i}.bin").into_bytes(),
                method: m,
                payload: &text[i..],
            })
            .collect();
        let f = build(&entries).unwrap();
        let a = strict(&f).unwrap();
        for (i, m) in Method::ALL.iter().enumerate() {
            assert_eq!(a.method(i), *m);
            assert_eq!(a.load(i).unwrap(), &text[i..], "{m:?}");
            assert_eq!(a.find(format!("E{i}.BIN").as_bytes()), Some(i));
        }
        assert_eq!(RsliEditor::new(&a).unwrap().to_bytes().unwrap(), f);
        for (name, shown) in [
            (&b"THIRTEEN.CHRS"[..], "\"THIRTEEN.CHRS\""),
            (b"A\0B", "\"A\\x00B\""),
        ] {
            let e = expect_error(
                build(&[NewRsliEntry {
                    name: name.to_vec(),
                    method: Method::Raw,
                    payload: b"",
                }]),
                0,
                &format!("RsLi: expected a name of 1..=12 bytes without NUL, found {shown}"),
            );
            assert_eq!(
                entry_of(&e),
                Some((0, String::from_utf8_lossy(name).as_ref()))
            );
        }
    }
}
