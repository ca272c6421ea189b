//! TRF (`auto.trf`, `data.trf`, ...): NRes containers of prototype tables
//! (tome VI "TRF и preload-данные"). Every retail TRF is a structurally
//! valid NRes; the record semantics are not closed, so this view lists the
//! entries and keeps the file's bytes for lossless output.

use crate::archive::Mode;
use crate::archive::nres::Nres;
use crate::error::Result;

/// One entry of a TRF container.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TrfEntry {
    pub type_id: u32,
    #[serde(serialize_with = "crate::wear::serialize_lossy")]
    pub name: Vec<u8>,
    pub payload: Vec<u8>,
}

/// A parsed TRF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trf {
    entries: Vec<TrfEntry>,
    bytes: Vec<u8>,
}

impl Trf {
    /// Parses a TRF file through the NRes reader.
    pub fn parse(data: &[u8], mode: Mode) -> Result<Self> {
        let nres = Nres::parse(data, mode)?;
        let entries = nres
            .entries()
            .iter()
            .enumerate()
            .map(|(i, e)| TrfEntry {
                type_id: e.type_id,
                name: e.name().to_vec(),
                payload: nres.payload(i).to_vec(),
            })
            .collect();
        Ok(Self {
            entries,
            bytes: data.to_vec(),
        })
    }

    /// The entries in directory order (read-only: the file is not re-packed).
    pub fn entries(&self) -> &[TrfEntry] {
        &self.entries
    }

    /// The file as read.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}
