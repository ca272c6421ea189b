//! The logic of `iron3d texture info|export`: it returns what to print and
//! the exit status; the binary only parses arguments.

use super::{Texm, png_bytes};
use crate::archive::{Mode, nres::Nres};
use crate::error::{FormatError, Result};
use crate::fsutil::{read_file, write_atomic};
use crate::tma::info::CliOutput;
use std::path::Path;

/// Reads `archive` (an NRes file) and hands the payload of entry `entry`
/// (ASCII case-insensitive) to `f`, with file and entry context on errors.
pub fn with_archive_entry<T>(
    archive: &Path,
    entry: &str,
    f: impl FnOnce(&Nres, usize, &[u8]) -> Result<T>,
) -> Result<T> {
    let file = archive.display().to_string();
    let data = read_file(archive)?;
    let nres = Nres::parse(&data, Mode::Compatible).map_err(|e| e.in_file(&file))?;
    let index = nres
        .find(entry.as_bytes())
        .ok_or_else(|| FormatError::missing("NRes", format!("entry '{entry}'")).in_file(&file))?;
    f(&nres, index, nres.payload(index)).map_err(|e| {
        e.in_entry(index, nres.entries()[index].display_name())
            .in_file(&file)
    })
}

/// Turns a result into the CLI output (errors on stderr, exit code 1).
pub fn output(result: Result<String>) -> CliOutput {
    match result {
        Ok(stdout) => CliOutput {
            stdout,
            stderr: String::new(),
            code: 0,
        },
        Err(e) => CliOutput {
            stdout: String::new(),
            stderr: format!("error: {e}\n"),
            code: 1,
        },
    }
}

/// `iron3d texture info <ARCHIVE> <ENTRY> [--json]`.
pub fn run_texture_info(archive: &Path, entry: &str, json: bool) -> CliOutput {
    output(with_archive_entry(archive, entry, |_, _, payload| {
        let info = Texm::parse(payload)?.info();
        Ok(if json {
            serde_json::to_string_pretty(&info).unwrap_or_default() + "\n"
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
