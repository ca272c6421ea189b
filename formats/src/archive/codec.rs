//! Checks shared by the payload decoders (LZSS, LZHUF, Deflate): each is told
//! the exact unpacked size by the directory and must produce exactly that.

use crate::error::{FormatError, Problem, Result};

/// Refuses an `unpacked` size that `packed` input bytes cannot produce
/// (`max_output` is the codec's bound), before any output is allocated.
pub(crate) fn check_unpacked_size(
    format: &'static str,
    packed: usize,
    unpacked: usize,
    max_output: usize,
) -> Result<()> {
    if unpacked > max_output {
        return Err(FormatError::invalid(
            format,
            0,
            format!("an unpacked size of at most {max_output} for {packed} packed bytes"),
            unpacked,
        ));
    }
    Ok(())
}

/// The input ended at `at` with `missing` bytes of output still to produce.
pub(crate) fn output_truncated(format: &'static str, at: u64, missing: usize) -> FormatError {
    FormatError::new(
        format,
        at,
        Problem::Truncated {
            needed: missing as u64,
            available: 0,
        },
    )
}
