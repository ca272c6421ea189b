//! The extract directory of an archive: every decoded payload as
//! `NNNN_<name>` and a `manifest.json` holding all metadata and the layout of
//! the data region (stored bytes of packed RsLi rows under `.stored/`, gaps
//! and unindexed regions under `.raw/`, shared NRes blocks under `.blocks/`).
//! [`pack`] of an unchanged extract reproduces the original file byte for
//! byte; an edited payload file is a lossless edit of that entry.

use super::layout::{Item, Layout, Member};
use super::nres::{self, NresEditor, NresEntry};
use super::open::Archive;
use super::rsli::{self, Method, RsliEditor, RsliEntry};
use crate::error::{FormatError, Result};
use crate::fsutil::{read_file, write_atomic};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::path::Path;

/// Manifest file name inside an extract directory.
pub const MANIFEST: &str = "manifest.json";
const MANIFEST_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "format")]
enum Manifest {
    NRes {
        manifest_version: u32,
        /// Header version word.
        version: u32,
        /// Rebuild the sort table on pack (set it after renaming entries).
        rebuild_sort: bool,
        entries: Vec<NresSpec>,
        layout: Vec<ItemSpec>,
    },
    RsLi {
        manifest_version: u32,
        /// The 32 header bytes, hex.
        header: String,
        /// The `AO` trailer, hex (empty when absent).
        trailer: String,
        entries: Vec<RsliSpec>,
        layout: Vec<ItemSpec>,
    },
}

#[derive(Debug, Serialize, Deserialize)]
struct NresSpec {
    file: String,
    type_id: u32,
    attr1: u32,
    attr2: u32,
    attr3: u32,
    /// The 36-byte name field, hex (tail included).
    name_field: String,
    sort_index: u32,
}

#[derive(Debug, Serialize, Deserialize)]
struct RsliSpec {
    /// The decoded payload.
    file: String,
    /// The 12-byte name field, hex.
    name_field: String,
    service: String,
    flags: u16,
    sort_to_original: u16,
    unpacked_size: u32,
    /// As stored (kept unless the payload changes).
    packed_size: u32,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ItemSpec {
    Block { file: String, members: Vec<Member> },
    Pad,
    Raw { file: String },
}

fn from_hex<const N: usize>(hex: &str, what: &str) -> Result<[u8; N]> {
    let bytes = hex_bytes(hex, what)?;
    bytes.try_into().map_err(|b: Vec<u8>| {
        FormatError::invalid("manifest", 0, format!("{what}: {N} bytes of hex"), b.len())
    })
}

fn hex_bytes(hex: &str, what: &str) -> Result<Vec<u8>> {
    let bad = || FormatError::invalid("manifest", 0, format!("{what}: hex digits"), hex);
    if !hex.len().is_multiple_of(2) {
        return Err(bad());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(bad)
        })
        .collect()
}

/// A file name for entry `index` named `name`: index first (names repeat),
/// then the name with anything but `[A-Za-z0-9._-]` replaced.
fn entry_file(index: usize, name: &[u8]) -> String {
    let clean: String = name
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"._-".contains(&b) {
                b as char
            } else {
                '_'
            }
        })
        .collect();
    format!("{index:04}_{clean}")
}

/// Writes `bytes` to `dir/rel`, creating parent directories.
fn put(dir: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| FormatError::io(parent, &e))?;
    }
    write_atomic(&path, bytes)
}

/// The layout as manifest items; `block_file` names a block (given its
/// members), raw regions go to `.raw/`.
fn layout_specs(
    dir: &Path,
    layout: &Layout,
    mut block_file: impl FnMut(&[Member], &[u8]) -> Result<String>,
) -> Result<Vec<ItemSpec>> {
    let mut specs = Vec::with_capacity(layout.items.len());
    for (k, item) in layout.items.iter().enumerate() {
        specs.push(match item {
            Item::Block { bytes, members } => ItemSpec::Block {
                file: block_file(members, bytes)?,
                members: members.clone(),
            },
            Item::Pad => ItemSpec::Pad,
            Item::Raw(bytes) => {
                let file = format!(".raw/{k:05}.bin");
                put(dir, &file, bytes)?;
                ItemSpec::Raw { file }
            }
        });
    }
    Ok(specs)
}

/// Writes the decoded bytes of every entry (`payload(i)`) to its
/// [`entry_file`] under `dir`; returns the file names in entry order.
fn put_entries<'n, 'p>(
    dir: &Path,
    names: impl Iterator<Item = &'n [u8]>,
    payload: impl Fn(usize) -> Result<&'p [u8]>,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    for (i, name) in names.enumerate() {
        let file = entry_file(i, name);
        put(dir, &file, payload(i)?)?;
        files.push(file);
    }
    Ok(files)
}

/// Writes every payload of `archive` and its manifest to `dir` (created
/// when missing).
pub fn extract(archive: &Archive, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| FormatError::io(dir, &e))?;
    let manifest = match archive {
        Archive::Nres(a) => {
            let names = a.entries().iter().map(|e| e.name());
            let files = put_entries(dir, names, |i| Ok(a.payload(i)))?;
            let layout = layout_specs(dir, &a.layout(), |members, bytes| match members {
                [m] => Ok(files[m.entry].clone()),
                _ => {
                    let file = format!(".blocks/{:04}.bin", members[0].entry);
                    put(dir, &file, bytes)?;
                    Ok(file)
                }
            })?;
            Manifest::NRes {
                manifest_version: MANIFEST_VERSION,
                version: a.version(),
                rebuild_sort: false,
                entries: a
                    .entries()
                    .iter()
                    .zip(files)
                    .map(|(e, file)| NresSpec {
                        file,
                        type_id: e.type_id,
                        attr1: e.attr1,
                        attr2: e.attr2,
                        attr3: e.attr3,
                        name_field: nres::to_hex(&e.name_field),
                        sort_index: e.sort_index,
                    })
                    .collect(),
                layout,
            }
        }
        Archive::Rsli(a) => {
            let names = a.entries().iter().map(|e| e.name());
            let files = put_entries(dir, names, |i| a.load(i))?;
            let layout = layout_specs(dir, &a.layout()?, |members, bytes| match members {
                [m] if a.method(m.entry) == Method::Raw && a.load(m.entry)? == bytes => {
                    Ok(files[m.entry].clone())
                }
                _ => {
                    let file = format!(".stored/{:04}.bin", members[0].entry);
                    put(dir, &file, bytes)?;
                    Ok(file)
                }
            })?;
            let trailer_len = if a.overlay().is_some() {
                rsli::TRAILER_SIZE
            } else {
                0
            };
            Manifest::RsLi {
                manifest_version: MANIFEST_VERSION,
                header: nres::to_hex(a.header()),
                trailer: nres::to_hex(&a.data()[a.data().len() - trailer_len..]),
                entries: a
                    .entries()
                    .iter()
                    .zip(files)
                    .map(|(e, file)| RsliSpec {
                        file,
                        name_field: nres::to_hex(&e.name_field),
                        service: nres::to_hex(&e.service),
                        flags: e.flags,
                        sort_to_original: e.sort_to_original,
                        unpacked_size: e.unpacked_size,
                        packed_size: e.packed_size,
                    })
                    .collect(),
                layout,
            }
        }
    };
    let json = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| FormatError::invalid("manifest", 0, "serializable", e))?;
    put(dir, MANIFEST, &json)
}

/// Rebuilds a layout from manifest items, reading block and raw files.
fn load_layout(
    dir: &Path,
    specs: &[ItemSpec],
    start: usize,
    align: usize,
    entries: usize,
) -> Result<Layout<'static>> {
    let mut items = Vec::with_capacity(specs.len());
    for spec in specs {
        items.push(match spec {
            ItemSpec::Block { file, members } => {
                let bytes = read_file(&dir.join(file))?;
                let mut members = members.clone();
                if let [m] = members.as_mut_slice() {
                    // a lone member spans its block: the file may have been edited
                    (m.offset, m.size) = (0, bytes.len());
                }
                for m in &members {
                    if m.entry >= entries
                        || m.offset
                            .checked_add(m.size)
                            .is_none_or(|end| end > bytes.len())
                    {
                        return Err(FormatError::invalid(
                            "manifest",
                            0,
                            format!("members inside block {file} and entries < {entries}"),
                            format!("{m:?}"),
                        ));
                    }
                }
                Item::Block {
                    bytes: Cow::Owned(bytes),
                    members,
                }
            }
            ItemSpec::Pad => Item::Pad,
            ItemSpec::Raw { file } => Item::Raw(Cow::Owned(read_file(&dir.join(file))?)),
        });
    }
    Ok(Layout {
        start,
        align,
        items,
    })
}

/// Rebuilds the archive extracted to `dir` and writes it to `file`.
pub fn pack(dir: &Path, file: &Path) -> Result<()> {
    let manifest_path = dir.join(MANIFEST);
    let text = read_file(&manifest_path)?;
    let manifest: Manifest = serde_json::from_slice(&text).map_err(|e| {
        FormatError::invalid(
            "manifest",
            e.column() as u64,
            "a manifest written by `archive extract`",
            e,
        )
        .in_file(manifest_path.display().to_string())
    })?;
    let bytes = match manifest {
        Manifest::NRes {
            version,
            rebuild_sort,
            entries,
            layout,
            ..
        } => {
            if version != nres::VERSION {
                return Err(FormatError::invalid(
                    "manifest",
                    0,
                    "NRes version 0x100",
                    version,
                ));
            }
            let n = entries.len();
            let layout = load_layout(dir, &layout, nres::HEADER_SIZE, nres::ALIGN, n)?;
            let mut rows = Vec::with_capacity(n);
            for e in &entries {
                rows.push(NresEntry {
                    type_id: e.type_id,
                    attr1: e.attr1,
                    attr2: e.attr2,
                    size: 0,
                    attr3: e.attr3,
                    name_field: from_hex(&e.name_field, "name_field")?,
                    data_offset: 0,
                    sort_index: e.sort_index,
                });
            }
            let mut ed = NresEditor::from_parts(rows, layout, rebuild_sort);
            for (i, e) in entries.iter().enumerate() {
                let payload = read_file(&dir.join(&e.file))?;
                if ed.payload(i) != payload.as_slice() {
                    ed.set_payload(i, payload);
                }
            }
            ed.to_bytes()?
        }
        Manifest::RsLi {
            header,
            trailer,
            entries,
            layout,
            ..
        } => {
            let header: [u8; rsli::HEADER_SIZE] = from_hex(&header, "header")?;
            let trailer = hex_bytes(&trailer, "trailer")?;
            let n = entries.len();
            let layout = load_layout(dir, &layout, rsli::HEADER_SIZE + n * rsli::ENTRY_SIZE, 1, n)?;
            let mut rows = Vec::with_capacity(n);
            for e in &entries {
                rows.push(RsliEntry {
                    name_field: from_hex(&e.name_field, "name_field")?,
                    service: from_hex(&e.service, "service")?,
                    flags: e.flags,
                    sort_to_original: e.sort_to_original,
                    unpacked_size: e.unpacked_size,
                    data_offset_raw: 0,
                    packed_size: e.packed_size,
                });
            }
            let mut ed = RsliEditor::from_parts(header, rows, layout, trailer);
            for (i, e) in entries.iter().enumerate() {
                let payload = read_file(&dir.join(&e.file))?;
                let row = &ed.entries()[i];
                let current = Method::from_flags(row.flags).ok().and_then(|m| {
                    m.decode(
                        ed.stored(i),
                        row.unpacked_size as usize,
                        row.sort_to_original,
                    )
                    .ok()
                });
                if current.as_deref() != Some(payload.as_slice()) {
                    ed.set_payload(i, &payload)
                        .map_err(|err| err.in_file(dir.join(&e.file).display().to_string()))?;
                }
            }
            ed.to_bytes()?
        }
    };
    write_atomic(file, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::Mode;
    use crate::archive::nres::{NewEntry, Nres};
    use crate::archive::open::with_archive;
    use crate::archive::rsli::{NewRsliEntry, Rsli};

    mod sample_archives {
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/sample_archives.rs"
        ));
    }
    use sample_archives::{sample_nres, sample_rsli};

    fn extract_pack(bytes: &[u8], name: &str, edit: impl FnOnce(&Path)) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let x = dir.path().join("x");
        with_archive(&p, Mode::Compatible, |a| extract(a, &x)).unwrap();
        edit(&x);
        let out = dir.path().join("out.lib");
        pack(&x, &out).unwrap();
        std::fs::read(out).unwrap()
    }

    #[test]
    fn extract_then_pack_is_byte_identical() {
        let n = sample_nres();
        assert_eq!(extract_pack(&n, "a.lib", |_| {}), n);
        let r = sample_rsli();
        assert_eq!(extract_pack(&r, "b.lib", |_| {}), r);
    }

    /// An NRes with junk before the first payload, two entries sharing
    /// bytes, a zero-size entry and unaligned trailing junk.
    fn irregular_nres() -> Vec<u8> {
        let canonical = sample_nres();
        let a = Nres::parse(&canonical, Mode::Strict).unwrap();
        let mut entries = a.entries().to_vec();
        entries.push(entries[0].clone());
        entries[2].name_field[..6].copy_from_slice(b"alias\0");
        entries.push(entries[1].clone());
        entries[3].name_field[..6].copy_from_slice(b"empty\0");
        let block = |bytes: &'static [u8], members: Vec<Member>| Item::Block {
            bytes: Cow::Borrowed(bytes),
            members,
        };
        let layout = Layout {
            start: 16,
            align: 8,
            items: vec![
                Item::Raw(Cow::Borrowed(b"JUNK")),
                block(
                    b"texture",
                    vec![
                        Member {
                            entry: 0,
                            offset: 0,
                            size: 7,
                        },
                        Member {
                            entry: 2,
                            offset: 3,
                            size: 4,
                        },
                    ],
                ),
                Item::Pad,
                block(
                    b"mesh!",
                    vec![Member {
                        entry: 1,
                        offset: 0,
                        size: 5,
                    }],
                ),
                block(
                    b"",
                    vec![Member {
                        entry: 3,
                        offset: 0,
                        size: 0,
                    }],
                ),
                Item::Raw(Cow::Borrowed(b"tail!")),
            ],
        };
        NresEditor::from_parts(entries, layout, true)
            .to_bytes()
            .unwrap()
    }

    #[test]
    fn extract_then_pack_keeps_gaps_shared_blocks_and_trailers() {
        let n = irregular_nres();
        let a = Nres::parse(&n, Mode::Strict).unwrap();
        assert_eq!(a.payload(2), b"ture");
        assert_eq!(extract_pack(&n, "odd.lib", |_| {}), n);
        // editing the shared entry detaches it; everything else stays
        let out = extract_pack(&n, "odd.lib", |x| {
            std::fs::write(x.join("0002_alias"), b"own bytes").unwrap()
        });
        let b = Nres::parse(&out, Mode::Strict).unwrap();
        assert_eq!(b.payload(2), b"own bytes");
        assert_eq!(b.payload(0), b"texture");
        assert_eq!(&out[16..20], b"JUNK");
        let mut r = sample_rsli();
        let table_end = 32 + 4 * 32;
        r.splice(table_end..table_end, *b"GAP!");
        r.extend_from_slice(b"AO\x04\0\0\0");
        assert_eq!(extract_pack(&r, "t.lib", |_| {}), r);
        let a = Rsli::parse(&r, Mode::Strict).unwrap();
        assert_eq!(a.overlay(), Some(4));
        assert_eq!(
            a.load(3).unwrap(),
            b"font data font data font data".repeat(5)
        );
    }

    #[test]
    fn pack_of_an_edited_payload_is_a_lossless_edit() {
        let r = sample_rsli();
        let out = extract_pack(&r, "b.lib", |x| {
            std::fs::write(x.join("0000_FONT.TEX"), b"new font").unwrap()
        });
        let a = Rsli::parse(&out, Mode::Strict).unwrap();
        assert_eq!(a.load(0).unwrap(), b"new font");
        assert_eq!(a.method(0), Method::Lzss);
        let orig = Rsli::parse(&r, Mode::Strict).unwrap();
        for i in 1..4 {
            assert_eq!(a.stored(i), orig.stored(i));
        }
        let n = sample_nres();
        let out = extract_pack(&n, "a.lib", |x| {
            std::fs::write(x.join("0001_model.msh"), b"MESH").unwrap()
        });
        let a = Nres::parse(&out, Mode::Strict).unwrap();
        assert_eq!(a.payload(1), b"MESH");
        assert_eq!(a.payload(0), b"texture");
    }
}
