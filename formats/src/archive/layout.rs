//! The data region of an archive as a lossless editor sees it: a sequence
//! of blocks (bytes referenced by entries), derived alignment padding and raw
//! regions kept verbatim (gaps and unindexed bytes), in file order.
//!
//! Shared by the NRes and RsLi lossless writers: an unmodified layout writes
//! back the exact bytes it was scanned from; replacing one entry's payload
//! changes only that block, the padding after it and the offsets that follow.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// An entry's place in a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Directory index of the entry.
    pub entry: usize,
    /// Offset of the entry's bytes inside the block.
    pub offset: usize,
    /// Number of the entry's bytes.
    pub size: usize,
}

/// One piece of a data region.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item<'a> {
    /// Bytes referenced by one or more entries (several when their ranges
    /// overlap); a zero-size entry is an empty block of its own unless it
    /// points strictly inside another block.
    Block {
        bytes: Cow<'a, [u8]>,
        members: Vec<Member>,
    },
    /// Zero bytes up to the next multiple of the archive's alignment
    /// (recomputed on write: a derived value).
    Pad,
    /// Bytes no entry points at, kept verbatim.
    Raw(Cow<'a, [u8]>),
}

/// What a range of the data region holds (for reports and tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RegionKind {
    /// Bytes some entry points at.
    Payload,
    /// Unreferenced bytes that are all zero (padding or an empty gap).
    Padding,
    /// Unreferenced bytes with at least one non-zero byte.
    Unindexed,
}

/// A classified range of the data region.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Region {
    pub kind: RegionKind,
    /// Absolute file offset.
    pub offset: usize,
    pub len: usize,
    /// Entries whose payload lies in this region (payload regions only).
    pub entries: Vec<usize>,
}

/// Zero bytes that bring `pos` up to a multiple of `align`.
pub fn pad_to(pos: usize, align: usize) -> usize {
    if align <= 1 {
        0
    } else {
        (align - pos % align) % align
    }
}

/// A data region as items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout<'a> {
    /// Absolute offset the region starts at in the file.
    pub start: usize,
    /// Alignment of derived padding (1: none).
    pub align: usize,
    pub items: Vec<Item<'a>>,
}

impl<'a> Layout<'a> {
    /// Splits `data[start..end]` into items, given each entry's
    /// `(offset, size)` (already checked to lie inside `start..=end`).
    pub fn scan(
        data: &'a [u8],
        start: usize,
        end: usize,
        ranges: &[(usize, usize)],
        align: usize,
    ) -> Self {
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&i| (ranges[i].0, ranges[i].1, i));
        // Clusters of strictly overlapping ranges, in file order.
        let mut clusters: Vec<(usize, usize, Vec<Member>)> = Vec::new();
        for i in order {
            let (off, size) = ranges[i];
            let joins = match clusters.last() {
                Some(&(cs, ce, _)) => {
                    if size == 0 {
                        cs < off && off < ce
                    } else {
                        off < ce
                    }
                }
                None => false,
            };
            match clusters.last_mut() {
                Some((cs, ce, members)) if joins => {
                    *ce = (*ce).max(off + size);
                    members.push(Member {
                        entry: i,
                        offset: off - *cs,
                        size,
                    });
                }
                _ => clusters.push((
                    off,
                    off + size,
                    vec![Member {
                        entry: i,
                        offset: 0,
                        size,
                    }],
                )),
            }
        }
        let mut layout = Layout {
            start,
            align,
            items: Vec::with_capacity(clusters.len() * 2 + 1),
        };
        let mut pos = start;
        for (cs, ce, members) in clusters {
            layout.push_gap(data, pos, cs);
            layout.items.push(Item::Block {
                bytes: Cow::Borrowed(&data[cs..ce]),
                members,
            });
            pos = ce;
        }
        layout.push_gap(data, pos, end);
        layout
    }

    /// A gap `[from, to)`: derived padding when it starts with the zero
    /// bytes that align `from`, then the rest verbatim.
    fn push_gap(&mut self, data: &'a [u8], from: usize, to: usize) {
        let pad = pad_to(from, self.align);
        let mut rest = from;
        if pad > 0 && to - from >= pad && data[from..from + pad].iter().all(|&b| b == 0) {
            self.items.push(Item::Pad);
            rest += pad;
        }
        if rest < to {
            self.items.push(Item::Raw(Cow::Borrowed(&data[rest..to])));
        }
    }

    /// The classified ranges of the region, in file order.
    pub fn regions(&self) -> Vec<Region> {
        let mut out: Vec<Region> = Vec::new();
        let mut pos = self.start;
        for item in &self.items {
            let (kind, len, entries) = match item {
                Item::Block { bytes, members } => (
                    RegionKind::Payload,
                    bytes.len(),
                    members.iter().map(|m| m.entry).collect(),
                ),
                Item::Pad => (RegionKind::Padding, pad_to(pos, self.align), Vec::new()),
                Item::Raw(bytes) => {
                    let kind = if bytes.iter().all(|&b| b == 0) {
                        RegionKind::Padding
                    } else {
                        RegionKind::Unindexed
                    };
                    (kind, bytes.len(), Vec::new())
                }
            };
            let merge = kind == RegionKind::Padding
                && out.last().is_some_and(|r| r.kind == RegionKind::Padding);
            match out.last_mut() {
                Some(last) if merge => last.len += len,
                _ if len == 0 && kind != RegionKind::Payload => {}
                _ => out.push(Region {
                    kind,
                    offset: pos,
                    len,
                    entries,
                }),
            }
            pos += len;
        }
        out
    }

    /// The block holding `entry` and its member record.
    fn locate(&self, entry: usize) -> Option<(usize, usize)> {
        self.items
            .iter()
            .enumerate()
            .find_map(|(i, item)| match item {
                Item::Block { members, .. } => members
                    .iter()
                    .position(|m| m.entry == entry)
                    .map(|m| (i, m)),
                _ => None,
            })
    }

    /// The current bytes of `entry` (empty if it has no block).
    pub fn payload(&self, entry: usize) -> &[u8] {
        match self.locate(entry) {
            Some((i, m)) => match &self.items[i] {
                Item::Block { bytes, members } => {
                    let m = members[m];
                    &bytes[m.offset..m.offset + m.size]
                }
                _ => &[],
            },
            None => &[],
        }
    }

    /// Replaces the bytes of `entry`: in place when it is the only member of
    /// its block, else it leaves its (shared) block and gets a new block at
    /// the end of the region.
    pub fn replace(&mut self, entry: usize, bytes: Cow<'a, [u8]>) {
        if let Some((i, m)) = self.locate(entry)
            && let Item::Block {
                bytes: old,
                members,
            } = &mut self.items[i]
        {
            if members.len() == 1 {
                members[0].size = bytes.len();
                *old = bytes;
                return;
            }
            members.remove(m);
        }
        self.append(entry, bytes);
    }

    /// Adds `entry` with `bytes` in a new block at the end of the region,
    /// aligned and followed by alignment padding.
    pub fn append(&mut self, entry: usize, bytes: Cow<'a, [u8]>) {
        let size = bytes.len();
        if self.align > 1 {
            self.items.push(Item::Pad);
        }
        self.items.push(Item::Block {
            bytes,
            members: vec![Member {
                entry,
                offset: 0,
                size,
            }],
        });
        if self.align > 1 {
            self.items.push(Item::Pad);
        }
    }

    /// Appends the region to `out` (which must end at the region's start)
    /// and returns each entry's new `(offset, size)`, indexed by entry
    /// (`None` for entries without a block).
    pub fn write(&self, out: &mut Vec<u8>, entries: usize) -> Vec<Option<(usize, usize)>> {
        let mut placed = vec![None; entries];
        for item in &self.items {
            match item {
                Item::Block { bytes, members } => {
                    let base = out.len();
                    for m in members {
                        if let Some(slot) = placed.get_mut(m.entry) {
                            *slot = Some((base + m.offset, m.size));
                        }
                    }
                    out.extend_from_slice(bytes);
                }
                Item::Pad => out.resize(out.len() + pad_to(out.len(), self.align), 0),
                Item::Raw(bytes) => out.extend_from_slice(bytes),
            }
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_then_write_is_identity_and_classifies_regions() {
        // region 16..48: payload A 16..21, 3 zero pad, junk 24..28, payload B 28..32,
        // zero-size C at 40 inside a zero gap, zero tail.
        let mut data = vec![0u8; 48];
        data[16..21].copy_from_slice(b"AAAAA");
        data[24..28].copy_from_slice(b"junk");
        data[28..32].copy_from_slice(b"BBBB");
        let ranges = [(16, 5), (28, 4), (40, 0)];
        let layout = Layout::scan(&data, 16, 48, &ranges, 8);
        let mut out = data[..16].to_vec();
        let placed = layout.write(&mut out, 3);
        assert_eq!(out, data);
        assert_eq!(placed, vec![Some((16, 5)), Some((28, 4)), Some((40, 0))]);
        let kinds: Vec<_> = layout
            .regions()
            .iter()
            .map(|r| (r.kind, r.offset, r.len))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (RegionKind::Payload, 16, 5),
                (RegionKind::Padding, 21, 3),
                (RegionKind::Unindexed, 24, 4),
                (RegionKind::Payload, 28, 4),
                (RegionKind::Padding, 32, 8),
                (RegionKind::Payload, 40, 0),
                (RegionKind::Padding, 40, 8),
            ]
        );
    }

    #[test]
    fn replace_keeps_raw_regions_and_realigns() {
        let mut data = vec![0u8; 40];
        data[8..13].copy_from_slice(b"AAAAA");
        data[16..24].copy_from_slice(b"junk1234");
        data[24..27].copy_from_slice(b"BBB");
        let ranges = [(8, 5), (24, 3)];
        let mut layout = Layout::scan(&data, 8, 32, &ranges, 8);
        layout.replace(0, Cow::Borrowed(b"0123456789"));
        let mut out = vec![0u8; 8];
        let placed = layout.write(&mut out, 2);
        assert_eq!(&out[8..18], b"0123456789");
        assert_eq!(&out[18..24], &[0; 6]);
        assert_eq!(&out[24..32], b"junk1234");
        assert_eq!(placed[1], Some((32, 3)));
        assert_eq!(layout.payload(1), b"BBB");
    }

    #[test]
    fn overlapping_entries_share_a_block_and_detach_on_edit() {
        let data = b"........ABCDEFGH".to_vec();
        let ranges = [(8, 6), (10, 6)];
        let mut layout = Layout::scan(&data, 8, 16, &ranges, 8);
        assert_eq!(layout.items.len(), 1);
        assert_eq!(layout.payload(1), b"CDEFGH");
        layout.replace(1, Cow::Borrowed(b"xy"));
        let mut out = data[..8].to_vec();
        let placed = layout.write(&mut out, 2);
        assert_eq!(&out[8..16], b"ABCDEFGH");
        assert_eq!(placed, vec![Some((8, 6)), Some((16, 2))]);
        assert_eq!(&out[16..18], b"xy");
        assert_eq!(out.len(), 24);
    }
}
