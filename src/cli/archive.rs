//! `iron3d archive`: list, cat, extract, pack and verify NRes and RsLi
//! archives.
//!
//! `list`, `cat`, `extract` and `pack` read in compatible mode so that every
//! retail archive opens; each accepted quirk is printed as a warning.
//! `verify` is compatible by default and strict with `--strict`. The extract
//! directory and packing it back are `iron3d_formats::archive::extract`.

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::extract::{extract, pack};
use iron3d_formats::archive::nres;
use iron3d_formats::archive::open::{Archive, with_archive};
use iron3d_formats::archive::rsli::Method;
use iron3d_formats::error::{FormatError, Result};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ArchiveArgs {
    #[command(subcommand)]
    command: ArchiveCommand,
}

#[derive(clap::Subcommand, Debug)]
enum ArchiveCommand {
    /// One line per entry in directory order: index, name, type id or method, sizes, offsets, attributes.
    List {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the decoded payload of an entry to stdout.
    Cat {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// The entry name (ASCII case-insensitive).
        entry: String,
    },
    /// Write every payload and a manifest.json with all metadata to DIR.
    Extract {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// The directory to create or fill.
        dir: PathBuf,
    },
    /// Rebuild an archive from an extract directory (byte-identical when unchanged).
    Pack {
        /// A directory written by `archive extract`.
        dir: PathBuf,
        /// The archive to write.
        file: PathBuf,
    },
    /// Check an archive and decode every payload; exit 1 with the error if invalid.
    Verify {
        /// The archive (NRes or RsLi).
        file: PathBuf,
        /// Strict mode: refuse the retail quirks too.
        #[arg(long)]
        strict: bool,
    },
}

pub fn run(args: ArchiveArgs) -> ExitCode {
    // A closed pipe (e.g. `| head`) is not an error of ours.
    match execute(&args.command) {
        Ok(report) => {
            for w in &report.warnings {
                let _ = writeln!(std::io::stderr(), "{w}");
            }
            let _ = std::io::stdout().write_all(&report.stdout);
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(1)
        }
    }
}

/// What a successful command prints.
#[derive(Default)]
struct Report {
    /// Bytes for stdout.
    stdout: Vec<u8>,
    /// Lines for stderr (accepted quirks).
    warnings: Vec<String>,
}

fn execute(cmd: &ArchiveCommand) -> Result<Report> {
    match cmd {
        ArchiveCommand::List { file, json } => {
            with_quirks(file, Mode::Compatible, |a| list(a, *json))
        }
        ArchiveCommand::Cat { file, entry } => {
            with_quirks(file, Mode::Compatible, |a| cat(a, entry))
        }
        ArchiveCommand::Extract { file, dir } => with_quirks(file, Mode::Compatible, |a| {
            extract(a, dir).map(|()| Vec::new())
        }),
        ArchiveCommand::Pack { dir, file } => pack(dir, file).map(|()| Report::default()),
        ArchiveCommand::Verify { file, strict } => {
            let mode = if *strict {
                Mode::Strict
            } else {
                Mode::Compatible
            };
            with_quirks(file, mode, |a| verify(a, mode))
        }
    }
}

/// Opens `file` in `mode` and runs `f` on it: its bytes for stdout, the
/// quirks the reader accepted as warnings.
fn with_quirks(
    file: &Path,
    mode: Mode,
    f: impl FnOnce(&Archive) -> Result<Vec<u8>>,
) -> Result<Report> {
    let name = file.display().to_string();
    with_archive(file, mode, |archive| {
        let stdout = f(archive)?;
        let warnings = archive
            .quirks()
            .iter()
            .map(|q| format!("warning: {}", q.clone().in_file(&name)))
            .collect();
        Ok(Report { stdout, warnings })
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The type id as four characters when printable.
fn fourcc(type_id: u32) -> Option<String> {
    let b = type_id.to_le_bytes();
    b.iter().all(|c| c.is_ascii_graphic()).then(|| lossy(&b))
}

#[derive(Serialize)]
struct NresRow {
    index: usize,
    name: String,
    type_id: u32,
    fourcc: Option<String>,
    size: u32,
    data_offset: u32,
    attr1: u32,
    attr2: u32,
    attr3: u32,
    sort_index: u32,
}

#[derive(Serialize)]
struct RsliRow {
    index: usize,
    name: String,
    method: Method,
    flags: u16,
    unpacked_size: u32,
    packed_size: u32,
    data_offset_raw: u32,
    offset: usize,
    sort_to_original: u16,
    service: String,
}

fn json_line(out: &mut Vec<u8>, row: &impl Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, row)
        .map_err(|e| FormatError::invalid("json", 0, "serializable row", e))?;
    out.push(b'\n');
    Ok(())
}

/// One row per entry in directory order, text or one JSON object a line.
fn list(archive: &Archive, json: bool) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    match archive {
        Archive::Nres(a) => {
            for (index, e) in a.entries().iter().enumerate() {
                if json {
                    json_line(
                        &mut out,
                        &NresRow {
                            index,
                            name: e.display_name(),
                            type_id: e.type_id,
                            fourcc: fourcc(e.type_id),
                            size: e.size,
                            data_offset: e.data_offset,
                            attr1: e.attr1,
                            attr2: e.attr2,
                            attr3: e.attr3,
                            sort_index: e.sort_index,
                        },
                    )?;
                } else {
                    out.extend_from_slice(
                        format!(
                            "{index:>5} {:<35} type={:#010x} {:<4} size={} offset={} attr1={:#x} attr2={:#x} attr3={:#x} sort={}\n",
                            e.display_name(),
                            e.type_id,
                            fourcc(e.type_id).unwrap_or_default(),
                            e.size,
                            e.data_offset,
                            e.attr1,
                            e.attr2,
                            e.attr3,
                            e.sort_index
                        )
                        .as_bytes(),
                    );
                }
            }
        }
        Archive::Rsli(a) => {
            for (index, e) in a.entries().iter().enumerate() {
                let row = RsliRow {
                    index,
                    name: e.display_name(),
                    method: a.method(index),
                    flags: e.flags,
                    unpacked_size: e.unpacked_size,
                    packed_size: e.packed_size,
                    data_offset_raw: e.data_offset_raw,
                    offset: a.stored_range(index).0,
                    sort_to_original: e.sort_to_original,
                    service: nres::to_hex(&e.service),
                };
                if json {
                    json_line(&mut out, &row)?;
                } else {
                    out.extend_from_slice(
                        format!(
                            "{index:>5} {:<12} method={:<8} flags={:#06x} unpacked={} packed={} offset={} sort={} service={}\n",
                            row.name,
                            format!("{:?}", row.method),
                            row.flags,
                            row.unpacked_size,
                            row.packed_size,
                            row.offset,
                            row.sort_to_original,
                            row.service
                        )
                        .as_bytes(),
                    );
                }
            }
        }
    }
    Ok(out)
}

/// The decoded payload of `entry`.
fn cat(archive: &Archive, entry: &str) -> Result<Vec<u8>> {
    let missing = || FormatError::missing("archive", format!("an entry named '{entry}'"));
    let index = archive.find(entry).ok_or_else(missing)?;
    Ok(match archive {
        Archive::Nres(a) => a.payload(index).to_vec(),
        Archive::Rsli(a) => a.load(index)?.to_vec(),
    })
}

/// Decodes every payload; one summary line.
fn verify(archive: &Archive, mode: Mode) -> Result<Vec<u8>> {
    archive.decode_all()?;
    let (kind, count) = match archive {
        Archive::Nres(a) => ("NRes", a.len()),
        Archive::Rsli(a) => ("RsLi", a.len()),
    };
    let text = format!(
        "ok: {kind}, {count} entries, {mode:?} mode, {} quirks\n",
        archive.quirks().len()
    );
    Ok(text.into_bytes())
}
