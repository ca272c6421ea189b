//! The logic of `iron3d texture info|export`: it returns what to print and
//! the exit status; the binary only parses arguments.

use super::{Texm, png_bytes};
use crate::fsutil::write_atomic;
use crate::tool::{CliOutput, json_text, output, with_archive_entry};
use std::path::Path;

/// `iron3d texture info <ARCHIVE> <ENTRY> [--json]`.
pub fn run_texture_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    output(with_archive_entry(archive, entry, |_, _, payload| {
        let info = Texm::parse(payload)?.info();
        Ok(if json {
            json_text(&info)
        } else {
            info.to_string()
        })
    }))
}

/// `iron3d texture export <ARCHIVE> <ENTRY> <OUT.png> [--mip N]`: the RGBA8
/// PNG of mip level `mip`.
pub fn run_texture_export(archive: &Path, entry: &str, out: &Path, mip: u32) -> CliOutput {
    output(with_archive_entry(archive, entry, |_, _, payload| {
        let image = Texm::parse(payload)?.decode_level(mip)?;
        write_atomic(out, &png_bytes(&image)?)?;
        Ok(format!(
            "wrote {} ({}x{}, mip {mip})\n",
            out.display(),
            image.width,
            image.height
        ))
    }))
}
