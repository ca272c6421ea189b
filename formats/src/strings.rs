//! String tables of the install's resource DLLs (openparkan
//! `docs/20-resources.md`, "`TextRes.dll`", *measured*; docs/facts.md
//! "Interface strings"): a Windows PE whose resource tree holds `RT_STRING`
//! (type 6) blocks, block `n` holding the ids `(n − 1) × 16` to
//! `(n − 1) × 16 + 15` as 16 lengths, each followed by that many UTF-16
//! units; a length of 0 is an unused id. `iron3d.dll` holds the engine's
//! interface texts (message senders, the outcome panel's titles, the
//! objectives screen's headers...), `DATA/TextRes.dll` the missions'
//! dialogue.
//!
//! [`StringDll::parse`] reads only the resource tree and keeps the whole
//! file, so it writes back byte-identical; [`StringDll::build`] writes a
//! resource-only PE32 DLL (the demo install's).

use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};
use crate::source::Source;
use std::collections::BTreeMap;
use std::path::Path;

/// The engine's own strings, at the install's root.
pub const ENGINE_STRINGS: &str = "iron3d.dll";

/// Reads the install's [`ENGINE_STRINGS`] through `source`; `Ok(None)`
/// when the install has none, an error naming the file when it does not
/// read.
pub fn read_engine_strings(source: &Source) -> Result<Option<StringDll>> {
    let Some(found) = source.read(Path::new(ENGINE_STRINGS))? else {
        return Ok(None);
    };
    StringDll::parse(found.bytes())
        .map(Some)
        .map_err(|e| found.origin.annotate(e))
}

const FORMAT: &str = "PE string table";
/// The resource type of string-table blocks.
const RT_STRING: u32 = 6;
/// The language the retail `TextRes.dll` stores its blocks under (US
/// English) and the one [`StringDll::build`] writes.
pub const LANGUAGE_EN_US: u32 = 1033;
/// Index of the resource table in the optional header's data directories.
const RESOURCE_DIRECTORY: usize = 2;
/// The resource tree's depth: type, name (the block), language.
const TREE_LEVELS: usize = 3;

/// A resource DLL's strings by id, and the file they were read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringDll {
    pub strings: BTreeMap<u32, String>,
    bytes: Vec<u8>,
}

impl StringDll {
    /// Reads the `RT_STRING` blocks of a PE file (a block stored in several
    /// languages is read in the first the tree lists).
    pub fn parse(data: &[u8]) -> Result<Self> {
        let rsrc = ResourceSection::find(data)?;
        let mut strings = BTreeMap::new();
        // Blocks share no bytes in a real file: their sizes sum to less
        // than the file's, which bounds what the strings take.
        let mut read = 0usize;
        let root = rsrc.directory(0)?;
        if let Some(&(_, types)) = root.iter().find(|(id, _)| *id == Some(RT_STRING)) {
            for (block, languages) in rsrc.directory(subdirectory(&rsrc, types)?)? {
                let block = block.ok_or_else(|| {
                    rsrc.cursor
                        .invalid_at(rsrc.start, "a string block named by number", "a name")
                })?;
                let Some(&(_, leaf)) = rsrc.directory(subdirectory(&rsrc, languages)?)?.first()
                else {
                    continue;
                };
                let payload = rsrc.data_entry(leaf)?;
                read += payload.1;
                if read > data.len() {
                    return Err(rsrc.cursor.invalid_at(
                        rsrc.start,
                        "string blocks that share no bytes",
                        format!("{read} bytes of blocks in a file of {}", data.len()),
                    ));
                }
                read_block(&mut strings, block, data, payload)?;
            }
        }
        Ok(Self {
            strings,
            bytes: data.to_vec(),
        })
    }

    /// The text of string `id`, if the table has it.
    pub fn get(&self, id: u32) -> Option<&str> {
        self.strings.get(&id).map(String::as_str)
    }

    /// The file, as read or built.
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// A resource-only PE32 DLL holding `strings` in `RT_STRING` blocks
    /// under [`LANGUAGE_EN_US`].
    pub fn build(strings: &BTreeMap<u32, String>) -> Result<Self> {
        let bytes = write_dll(strings)?;
        Self::parse(&bytes)
    }
}

/// The section holding the resource tree: the file, where the tree starts
/// and how its RVAs map to file offsets.
struct ResourceSection<'a> {
    cursor: Cursor<'a>,
    /// File offset of the tree's root.
    start: usize,
    /// The section's RVA, file offset and raw size.
    section: (u32, u32, u32),
}

impl<'a> ResourceSection<'a> {
    /// Walks the DOS, PE and optional headers to the resource table.
    fn find(data: &'a [u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        c.expect_magic(b"MZ")?;
        c.seek(0x3c)?;
        let pe = c.u32()? as usize;
        c.seek(pe)?;
        c.expect_magic(b"PE\0\0")?;
        let _machine = c.u16()?;
        let sections = c.u16()?;
        c.skip(12)?;
        let optional_size = usize::from(c.u16()?);
        let _characteristics = c.u16()?;
        let optional = c.pos();
        let (count_at, directories_at) = match c.u16()? {
            0x10b => (92, 96),
            0x20b => (108, 112),
            other => {
                return Err(c.invalid_at(
                    optional,
                    "a PE32 or PE32+ optional header",
                    format!("{other:#x}"),
                ));
            }
        };
        c.seek(optional + count_at)?;
        let count = c.u32()? as usize;
        if count <= RESOURCE_DIRECTORY
            || directories_at + 8 * (RESOURCE_DIRECTORY + 1) > optional_size
        {
            return Err(c.error(Problem::Missing {
                what: "the resource table's data directory".into(),
            }));
        }
        c.seek(optional + directories_at + 8 * RESOURCE_DIRECTORY)?;
        let (rva, size) = (c.u32()?, c.u32()?);
        if size == 0 {
            return Err(c.error(Problem::Missing {
                what: "a resource table".into(),
            }));
        }
        let table = optional.checked_add(optional_size).ok_or_else(|| {
            c.error(Problem::Overflow {
                what: "the section table's offset".into(),
            })
        })?;
        c.seek(table)?;
        let count = c.checked_count(u64::from(sections), 40, "sections")?;
        for _ in 0..count {
            let header = c.pos();
            c.skip(8)?;
            let (virtual_size, virtual_address, raw_size, raw_at) =
                (c.u32()?, c.u32()?, c.u32()?, c.u32()?);
            c.seek(header + 40)?;
            let span = virtual_size.max(raw_size);
            if rva >= virtual_address && rva - virtual_address < span {
                let section = (virtual_address, raw_at, raw_size);
                let start = file_offset(&c, section, rva)?;
                return Ok(Self {
                    cursor: c,
                    start,
                    section,
                });
            }
        }
        Err(c.error(Problem::Missing {
            what: format!("the section holding the resource table at RVA {rva:#x}"),
        }))
    }

    /// The entries of the directory `offset` bytes into the tree: each an id
    /// (`None` for a named entry) and its raw target word.
    fn directory(&self, offset: usize) -> Result<Vec<(Option<u32>, u32)>> {
        let mut c = self.cursor.clone();
        let at = self.start.checked_add(offset).ok_or_else(|| {
            c.error(Problem::Overflow {
                what: "a resource directory's offset".into(),
            })
        })?;
        c.seek(at)?;
        c.skip(12)?;
        let named = u64::from(c.u16()?);
        let ids = u64::from(c.u16()?);
        let count = c.checked_count(named + ids, 8, "resource directory entries")?;
        (0..count)
            .map(|_| {
                let (name, target) = (c.u32()?, c.u32()?);
                Ok(((name & 0x8000_0000 == 0).then_some(name), target))
            })
            .collect()
    }

    /// Where the payload a data entry (a leaf's target word) points at
    /// lies in the file, and its size.
    fn data_entry(&self, target: u32) -> Result<(usize, usize)> {
        let mut c = self.cursor.clone();
        if target & 0x8000_0000 != 0 {
            return Err(c.invalid_at(
                self.start,
                "a data entry at the tree's third level",
                "a directory",
            ));
        }
        c.seek(self.start.checked_add(target as usize).ok_or_else(|| {
            c.error(Problem::Overflow {
                what: "a data entry's offset".into(),
            })
        })?)?;
        let (rva, size) = (c.u32()?, c.u32()? as usize);
        let at = file_offset(&c, self.section, rva)?;
        c.seek(at)?;
        c.bytes(size)?;
        Ok((at, size))
    }
}

/// The tree offset a directory entry's target word points at, which must be
/// a subdirectory (high bit set) within the tree's [`TREE_LEVELS`].
fn subdirectory(rsrc: &ResourceSection, target: u32) -> Result<usize> {
    if target & 0x8000_0000 == 0 {
        return Err(rsrc.cursor.invalid_at(
            rsrc.start,
            format!("a subdirectory above level {TREE_LEVELS} of the resource tree"),
            "a data entry",
        ));
    }
    Ok((target & 0x7fff_ffff) as usize)
}

/// The file offset of `rva` in a section (RVA, file offset, raw size).
fn file_offset(
    c: &Cursor,
    (address, raw_at, raw_size): (u32, u32, u32),
    rva: u32,
) -> Result<usize> {
    let into = rva
        .checked_sub(address)
        .filter(|&d| d <= raw_size)
        .ok_or_else(|| {
            c.invalid_at(
                raw_at as usize,
                format!("an RVA in the resource section ({address:#x}..+{raw_size:#x})"),
                format!("{rva:#x}"),
            )
        })?;
    (raw_at as usize).checked_add(into as usize).ok_or_else(|| {
        c.error(Problem::Overflow {
            what: "an RVA's file offset".into(),
        })
    })
}

/// Reads block `block` (ids `(block − 1) × 16 ..`), `size` bytes at
/// `at` in the file, into `strings`.
fn read_block(
    strings: &mut BTreeMap<u32, String>,
    block: u32,
    data: &[u8],
    (at, size): (usize, usize),
) -> Result<()> {
    let mut c = Cursor::new(data, FORMAT);
    c.seek(at)?;
    let first = block
        .checked_sub(1)
        .and_then(|b| b.checked_mul(16))
        .ok_or_else(|| c.invalid_at(at, "a string block numbered 1 to 268435456", block))?;
    let end = at + size;
    // A field of `needed` bytes must end inside the block.
    let within = |c: &Cursor, needed: usize| {
        let left = end - c.pos();
        if needed > left {
            Err(c.error(Problem::Truncated {
                needed: needed as u64,
                available: left as u64,
            }))
        } else {
            Ok(())
        }
    };
    for i in 0..16 {
        within(&c, 2)?;
        let length = usize::from(c.u16()?);
        within(&c, 2 * length)?;
        let text_at = c.pos();
        let raw = c.bytes(2 * length)?;
        if length == 0 {
            continue;
        }
        let utf16: Vec<u16> = raw
            .chunks_exact(2)
            .map(|u| u16::from_le_bytes([u[0], u[1]]))
            .collect();
        let text = String::from_utf16(&utf16)
            .map_err(|_| c.invalid_at(text_at, "UTF-16 text", "an unpaired surrogate"))?;
        strings.insert(first + i, text);
    }
    Ok(())
}

/// File alignment and the resource section's RVA in a built DLL.
const FILE_ALIGN: usize = 0x200;
const SECTION_RVA: u32 = 0x1000;

/// A minimal PE32 DLL with one `.rsrc` section holding `strings`.
fn write_dll(strings: &BTreeMap<u32, String>) -> Result<Vec<u8>> {
    // The blocks, each 16 length-prefixed UTF-16 strings.
    let mut slots: BTreeMap<u32, [&str; 16]> = BTreeMap::new();
    for (&id, text) in strings {
        slots.entry(id / 16 + 1).or_insert([""; 16])[(id % 16) as usize] = text;
    }
    let mut blocks: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    for (block, texts) in slots {
        let data = blocks.entry(block).or_default();
        for text in texts {
            let units: Vec<u16> = text.encode_utf16().collect();
            let length = u16::try_from(units.len()).map_err(|_| {
                FormatError::invalid(FORMAT, 0, "a string of at most 65535 units", units.len())
            })?;
            data.extend(length.to_le_bytes());
            units.iter().for_each(|u| data.extend(u.to_le_bytes()));
        }
    }
    // The tree: root → type 6 → each block → language → data entry.
    let n = blocks.len();
    let root_size = 16 + 8;
    let types_size = 16 + 8 * n;
    let languages_at = root_size + types_size;
    let entries_at = languages_at + n * (16 + 8);
    let data_at = entries_at + n * 16;
    let mut tree = Vec::new();
    let directory = |tree: &mut Vec<u8>, entries: &[(u32, u32)]| {
        tree.extend([0u8; 12]);
        tree.extend(0u16.to_le_bytes());
        tree.extend((entries.len() as u16).to_le_bytes());
        for (id, target) in entries {
            tree.extend(id.to_le_bytes());
            tree.extend(target.to_le_bytes());
        }
    };
    directory(&mut tree, &[(RT_STRING, 0x8000_0000 | root_size as u32)]);
    let block_entries: Vec<(u32, u32)> = blocks
        .keys()
        .enumerate()
        .map(|(i, &b)| (b, 0x8000_0000 | (languages_at + i * 24) as u32))
        .collect();
    directory(&mut tree, &block_entries);
    for i in 0..n {
        directory(&mut tree, &[(LANGUAGE_EN_US, (entries_at + i * 16) as u32)]);
    }
    let mut payload = Vec::new();
    for data in blocks.values() {
        let rva = SECTION_RVA as usize + data_at + payload.len();
        tree.extend((rva as u32).to_le_bytes());
        tree.extend((data.len() as u32).to_le_bytes());
        tree.extend([0u8; 8]);
        payload.extend(data);
        // Each block's data starts 4-aligned.
        payload.resize(payload.len().next_multiple_of(4), 0);
    }
    tree.extend(payload);
    let raw_size = tree.len().next_multiple_of(FILE_ALIGN);
    let image_size = (SECTION_RVA as usize + tree.len()).next_multiple_of(0x1000);

    let mut out = vec![0u8; FILE_ALIGN];
    out[..2].copy_from_slice(b"MZ");
    out[0x3c..0x40].copy_from_slice(&0x40u32.to_le_bytes());
    let mut pe = Vec::new();
    pe.extend(b"PE\0\0");
    pe.extend(0x14cu16.to_le_bytes()); // i386
    pe.extend(1u16.to_le_bytes()); // one section
    pe.extend([0u8; 12]);
    pe.extend(0xe0u16.to_le_bytes()); // the PE32 optional header's size
    pe.extend(0x2102u16.to_le_bytes()); // a 32-bit executable DLL
    let mut optional = vec![0u8; 0xe0];
    let mut put = |at: usize, bytes: &[u8]| optional[at..at + bytes.len()].copy_from_slice(bytes);
    put(0, &0x10bu16.to_le_bytes());
    put(28, &0x1000_0000u32.to_le_bytes()); // image base
    put(32, &0x1000u32.to_le_bytes()); // section alignment
    put(36, &(FILE_ALIGN as u32).to_le_bytes());
    put(40, &4u16.to_le_bytes()); // OS version 4.0
    put(48, &4u16.to_le_bytes()); // subsystem version 4.0
    put(56, &(image_size as u32).to_le_bytes());
    put(60, &(FILE_ALIGN as u32).to_le_bytes()); // headers' size
    put(68, &2u16.to_le_bytes()); // Windows GUI
    put(92, &16u32.to_le_bytes()); // data directories
    put(96 + 8 * RESOURCE_DIRECTORY, &SECTION_RVA.to_le_bytes());
    put(
        100 + 8 * RESOURCE_DIRECTORY,
        &(tree.len() as u32).to_le_bytes(),
    );
    pe.extend(optional);
    let mut section = Vec::new();
    section.extend(b".rsrc\0\0\0");
    section.extend((tree.len() as u32).to_le_bytes());
    section.extend(SECTION_RVA.to_le_bytes());
    section.extend((raw_size as u32).to_le_bytes());
    section.extend((FILE_ALIGN as u32).to_le_bytes());
    section.extend([0u8; 12]);
    section.extend(0x4000_0040u32.to_le_bytes()); // initialised, readable
    pe.extend(section);
    out[0x40..0x40 + pe.len()].copy_from_slice(&pe);
    out.extend(&tree);
    out.resize(FILE_ALIGN + raw_size, 0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BTreeMap<u32, String> {
        [
            (1012, "MISSION COMPLETE !"),
            (1013, "MISSION FAILED..."),
            (1541, "from: System"),
            (5094, "INF"),
            (8, "Привет"),
        ]
        .into_iter()
        .map(|(id, t)| (id, t.to_string()))
        .collect()
    }

    #[test]
    fn built_strings_read_back_and_the_file_writes_back_identical() {
        let dll = StringDll::build(&sample()).unwrap();
        assert_eq!(dll.strings, sample());
        assert_eq!(dll.get(5094), Some("INF"));
        assert_eq!(dll.get(5095), None, "an unused id of a block");
        let again = StringDll::parse(dll.to_bytes()).unwrap();
        assert_eq!(again, dll);
        assert_eq!(dll.to_bytes().len() % FILE_ALIGN, 0);
    }

    #[test]
    fn a_file_that_is_no_pe_or_has_no_resources_says_so() {
        let err = StringDll::parse(b"ZM\0\0").unwrap_err();
        assert!(matches!(err.problem, Problem::BadMagic { .. }), "{err}");
        let mut bytes = StringDll::build(&sample()).unwrap().to_bytes().to_vec();
        // The resource table's size zeroed.
        let at = 0x40 + 24 + 100 + 8 * RESOURCE_DIRECTORY;
        bytes[at..at + 4].fill(0);
        let err = StringDll::parse(&bytes).unwrap_err();
        assert!(
            matches!(&err.problem, Problem::Missing { what } if what == "a resource table"),
            "{err}"
        );
    }

    #[test]
    fn a_string_running_past_its_block_is_truncated() {
        let mut bytes = StringDll::build(&sample()).unwrap().to_bytes().to_vec();
        // Block 1 (ids 0..15) holds id 8 "Привет": its length word 6 made 600.
        let needle: Vec<u8> = [6u16]
            .iter()
            .flat_map(|u| u.to_le_bytes())
            .chain("П".encode_utf16().flat_map(|u| u.to_le_bytes()))
            .collect();
        let at = bytes
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap();
        bytes[at..at + 2].copy_from_slice(&600u16.to_le_bytes());
        let err = StringDll::parse(&bytes).unwrap_err();
        assert!(matches!(err.problem, Problem::Truncated { .. }), "{err}");
    }
}
