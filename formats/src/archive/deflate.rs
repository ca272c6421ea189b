//! Raw Deflate of RsLi method 0x100 (no zlib wrapper), through flate2.

use super::codec::{check_unpacked_size, output_truncated};
use crate::error::{FormatError, Result};
use flate2::{Decompress, FlushDecompress, Status};

/// Format name used in errors.
pub const FORMAT: &str = "Deflate";

/// The most output `packed` bytes of Deflate can produce (1032:1 is the
/// format's limit) plus a block's worth of slack.
pub fn max_output(packed: usize) -> usize {
    packed.saturating_mul(1032).saturating_add(258)
}

/// Decodes a raw Deflate stream that must produce exactly `unpacked` bytes.
/// Bytes after the end of the stream are ignored.
pub fn decode(input: &[u8], unpacked: usize) -> Result<Vec<u8>> {
    check_unpacked_size(FORMAT, input.len(), unpacked, max_output(input.len()))?;
    let mut d = Decompress::new(false);
    // One spare byte of room tells "too much output" from "exactly enough".
    let mut out = Vec::with_capacity(unpacked + 1);
    loop {
        let consumed = d.total_in() as usize;
        let before = (consumed, out.len());
        let status = d
            .decompress_vec(&input[consumed..], &mut out, FlushDecompress::Finish)
            .map_err(|e| {
                FormatError::invalid(FORMAT, d.total_in(), "a valid raw Deflate stream", e)
            })?;
        if out.len() > unpacked {
            return Err(FormatError::invalid(
                FORMAT,
                d.total_in(),
                format!("exactly {unpacked} bytes of output"),
                "more",
            ));
        }
        match status {
            Status::StreamEnd if out.len() == unpacked => return Ok(out),
            Status::StreamEnd => {
                return Err(FormatError::invalid(
                    FORMAT,
                    d.total_in(),
                    format!("exactly {unpacked} bytes of output"),
                    out.len(),
                ));
            }
            _ if before == (d.total_in() as usize, out.len()) => {
                return Err(output_truncated(FORMAT, d.total_in(), unpacked - out.len()));
            }
            _ => {}
        }
    }
}

/// Encodes `data` as a raw Deflate stream (best compression).
pub fn encode(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    #[test]
    fn golden_stored_block() {
        // BFINAL=1, BTYPE=00 (stored), LEN=3, NLEN=!3, "abc"
        let stream = [0x01, 0x03, 0x00, 0xFC, 0xFF, b'a', b'b', b'c'];
        assert_eq!(decode(&stream, 3).unwrap(), b"abc");
        expect_error(
            decode(&stream, 2),
            8,
            "Deflate: expected exactly 2 bytes of output, found more",
        );
        expect_error(
            decode(&stream, 4),
            8,
            "Deflate: expected exactly 4 bytes of output, found 3",
        );
        expect_error(
            decode(&stream[..6], 3),
            6,
            "Deflate: truncated: expected 2 more bytes, 0 available",
        );
        // trailing bytes after the stream end are ignored
        let mut longer = stream.to_vec();
        longer.push(0xAA);
        assert_eq!(decode(&longer, 3).unwrap(), b"abc");
    }

    #[test]
    fn round_trips_and_rejects_garbage() {
        let data: Vec<u8> = (0..50_000u32)
            .map(|i| (i % 251) as u8 ^ (i / 1000) as u8)
            .collect();
        assert_eq!(decode(&encode(&data), data.len()).unwrap(), data);
        expect_error(
            decode(&[0xFF; 16], 10),
            1,
            "Deflate: expected a valid raw Deflate stream, found deflate decompression error",
        );
        expect_error(
            decode(&[0; 4], 1_000_000),
            0,
            "Deflate: expected an unpacked size of at most 4386 for 4 packed bytes, found 1000000",
        );
    }
}
