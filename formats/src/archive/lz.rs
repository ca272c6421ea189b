//! The LZ77 match finder shared by the LZSS and LZHUF encoders: hash chains
//! over 3-byte prefixes, a 4096-byte window, greedy longest match.
//!
//! Both decoders keep a 4096-byte ring; a match is described here by its
//! linear distance `1..=4096` back from the current position (4096 reads the
//! ring slot about to be overwritten, which still holds the byte written 4096
//! positions earlier), each codec maps it to its own position field.

/// Window (ring) size of both codecs.
pub const WINDOW: usize = 4096;
/// Shortest match worth a reference in both codecs.
pub const MIN_MATCH: usize = 3;

const HASH_BITS: u32 = 13;
/// How many earlier positions with the same hash are tried.
const MAX_CHAIN: usize = 64;
const NONE: u32 = u32::MAX;

/// Finds the longest earlier match for each position of `data`.
pub struct MatchFinder<'d> {
    data: &'d [u8],
    max_len: usize,
    head: Vec<u32>,
    prev: Vec<u32>,
}

impl<'d> MatchFinder<'d> {
    /// A finder over `data` for matches of at most `max_len` bytes.
    pub fn new(data: &'d [u8], max_len: usize) -> Self {
        Self {
            data,
            max_len,
            head: vec![NONE; 1 << HASH_BITS],
            prev: vec![NONE; WINDOW],
        }
    }

    fn hash(&self, i: usize) -> usize {
        let d = self.data;
        let v = (d[i] as u32) << 16 | (d[i + 1] as u32) << 8 | d[i + 2] as u32;
        (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
    }

    /// Records position `i` (call for every position, in order).
    pub fn insert(&mut self, i: usize) {
        if i + MIN_MATCH <= self.data.len() {
            let h = self.hash(i);
            self.prev[i % WINDOW] = self.head[h];
            self.head[h] = i as u32;
        }
    }

    /// The longest match `(length, distance)` for position `i` among the
    /// positions inserted so far, or `None` if shorter than [`MIN_MATCH`].
    pub fn longest(&self, i: usize) -> Option<(usize, usize)> {
        let d = self.data;
        let limit = self.max_len.min(d.len() - i);
        if limit < MIN_MATCH {
            return None;
        }
        let mut best = (0, 0);
        let mut cand = self.head[self.hash(i)];
        for _ in 0..MAX_CHAIN {
            if cand == NONE {
                break;
            }
            let j = cand as usize;
            let dist = i - j;
            if dist > WINDOW {
                break;
            }
            let len = d[j..j + limit]
                .iter()
                .zip(&d[i..i + limit])
                .take_while(|(a, b)| a == b)
                .count();
            if len > best.0 {
                best = (len, dist);
                if len == limit {
                    break;
                }
            }
            let next = self.prev[j % WINDOW];
            // Chains only go backwards; a slot reused by a newer position ends the walk.
            if next == NONE || next as usize >= j {
                break;
            }
            cand = next;
        }
        (best.0 >= MIN_MATCH).then_some(best)
    }
}

/// Appends `len` bytes copied from `dist` bytes back in the output (the
/// decoders' ring is the output itself); before the start of the output the
/// ring holds 0x20.
pub fn copy_back(out: &mut Vec<u8>, dist: usize, len: usize) {
    let i = out.len();
    if dist <= i && dist >= len {
        out.extend_from_within(i - dist..i - dist + len);
        return;
    }
    for k in 0..len {
        let b = match (i + k).checked_sub(dist) {
            Some(j) => out[j],
            None => b' ',
        };
        out.push(b);
    }
}
