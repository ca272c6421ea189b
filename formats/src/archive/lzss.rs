//! LZSS of RsLi methods 0x040/0x060 (FACTS.md): a 4096-byte ring pre-filled
//! with 0x20, writing from 0xFEE; flag bytes read least-significant bit
//! first, bit 1 = a literal byte, bit 0 = a two-byte reference with the
//! absolute ring position `b0 | (b1 & 0xF0) << 4` and length `(b1 & 0x0F) + 3`.
//! Decoding stops exactly at the unpacked size.

use super::codec::{check_unpacked_size, output_truncated};
use super::lz::{MIN_MATCH, MatchFinder, WINDOW, copy_back};
use crate::error::Result;

/// Format name used in errors.
pub const FORMAT: &str = "LZSS";
/// Ring write position at the start.
const START: usize = 0xFEE;
/// Longest match: 4 bits of length + 3.
const MAX_MATCH: usize = 18;
const MASK: usize = WINDOW - 1;

/// The most output `packed` input bytes can produce: a flag byte and eight
/// references (17 bytes) give 144 bytes, under 9 per input byte.
pub fn max_output(packed: usize) -> usize {
    packed.saturating_mul(9)
}

/// Decodes exactly `unpacked` bytes from `input`.
pub fn decode(input: &[u8], unpacked: usize) -> Result<Vec<u8>> {
    check_unpacked_size(FORMAT, input.len(), unpacked, max_output(input.len()))?;
    let truncated =
        |at: usize, out: &[u8]| output_truncated(FORMAT, at as u64, unpacked - out.len());
    let mut out = Vec::with_capacity(unpacked);
    let mut ip = 0;
    while out.len() < unpacked {
        let Some(&flags) = input.get(ip) else {
            return Err(truncated(ip, &out));
        };
        ip += 1;
        for bit in 0..8 {
            if out.len() >= unpacked {
                break;
            }
            if flags >> bit & 1 == 1 {
                let Some(&b) = input.get(ip) else {
                    return Err(truncated(ip, &out));
                };
                ip += 1;
                out.push(b);
            } else {
                let (Some(&b0), Some(&b1)) = (input.get(ip), input.get(ip + 1)) else {
                    return Err(truncated(ip, &out));
                };
                ip += 2;
                let pos = b0 as usize | ((b1 as usize & 0xF0) << 4);
                let len = ((b1 & 0x0F) as usize + MIN_MATCH).min(unpacked - out.len());
                copy_match(&mut out, pos, len);
            }
        }
    }
    Ok(out)
}

/// Appends `len` bytes read from absolute ring position `pos`. The ring is
/// the output itself: ring slot `(START + i) & MASK` holds output byte `i`.
fn copy_match(out: &mut Vec<u8>, pos: usize, len: usize) {
    let write = (START + out.len()) & MASK;
    let dist = (write.wrapping_sub(pos).wrapping_sub(1) & MASK) + 1;
    copy_back(out, dist, len);
}

/// Encodes `data` (greedy longest match, references only into `data`).
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8 + 1);
    let mut finder = MatchFinder::new(data, MAX_MATCH);
    let mut flag_at = 0;
    let mut bit = 8;
    let mut i = 0;
    while i < data.len() {
        if bit == 8 {
            flag_at = out.len();
            out.push(0);
            bit = 0;
        }
        match finder.longest(i) {
            Some((len, dist)) => {
                let pos = (START + i - dist) & MASK;
                out.push(pos as u8);
                out.push(((pos >> 4) & 0xF0) as u8 | (len - MIN_MATCH) as u8);
                for k in i..i + len {
                    finder.insert(k);
                }
                i += len;
            }
            None => {
                out[flag_at] |= 1 << bit;
                out.push(data[i]);
                finder.insert(i);
                i += 1;
            }
        }
        bit += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    /// Hand-written stream: flags 0b0000_0111 (three literals "abc", then a
    /// reference), reference to ring 0xFEE (where 'a' was written), length
    /// 3 + 3 = 6 (overlapping copy "abcabc"), then a reference to ring
    /// position 0x000 (never written: spaces) of length 3.
    #[test]
    fn golden_stream() {
        let stream = [0b0000_0111, b'a', b'b', b'c', 0xEE, 0xF3, 0x00, 0x00];
        assert_eq!(decode(&stream, 12).unwrap(), b"abcabcabc   ");
        // stops exactly at the unpacked size, even inside a reference
        assert_eq!(decode(&stream, 5).unwrap(), b"abcab");
    }

    #[test]
    fn distance_4096_reads_the_slot_about_to_be_overwritten() {
        // 4096 literals then a reference to the current write slot:
        // it still holds output byte 0.
        let data: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut stream = Vec::new();
        for chunk in data.chunks(8) {
            stream.push(0xFF);
            stream.extend_from_slice(chunk);
        }
        let write = (START + 4096) & MASK;
        stream.extend_from_slice(&[0x00, write as u8, ((write >> 4) & 0xF0) as u8]);
        let out = decode(&stream, 4099).unwrap();
        assert_eq!(&out[4096..], &data[..3]);
    }

    #[test]
    fn truncated_and_impossible_sizes_are_errors() {
        expect_error(
            decode(&[0xFF, b'a'], 2),
            2,
            "LZSS: truncated: expected 1 more bytes, 0 available",
        );
        expect_error(
            decode(&[0x00, 0xEE], 3),
            1,
            "LZSS: truncated: expected 3 more bytes, 0 available",
        );
        expect_error(
            decode(&[], 1),
            0,
            "LZSS: expected an unpacked size of at most 0 for 0 packed bytes, found 1",
        );
        assert_eq!(decode(&[], 0).unwrap(), b"");
        expect_error(
            decode(&[0; 4], 37),
            0,
            "LZSS: expected an unpacked size of at most 36 for 4 packed bytes, found 37",
        );
    }

    #[test]
    fn round_trips() {
        let mut text = Vec::new();
        for i in 0..3000u32 {
            text.extend_from_slice(format!("line {} of {}\n", i % 97, i % 13).as_bytes());
        }
        for data in [
            &b""[..],
            b"a",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            &text,
        ] {
            let enc = encode(data);
            assert_eq!(decode(&enc, data.len()).unwrap(), data);
        }
        assert!(encode(&text).len() < text.len() / 3);
    }
}
