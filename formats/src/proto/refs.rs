//! Reference arrays (tome III "EXPL и reference arrays"): payloads made only
//! of 64-byte `{archive[32], name[32]}` records, such as the entries of
//! `objects.rlb`. The payload size must be a multiple of 64 (checked before
//! the first record is read); both fields keep their tails.

use crate::cursor::Cursor;
use crate::error::{FormatError, Result};
use crate::fixed::ResourceRef;

const FORMAT: &str = "ReferenceArray";

/// A parsed reference array.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReferenceArray {
    pub refs: Vec<ResourceRef>,
}

impl ReferenceArray {
    /// Parses the payload.
    pub fn parse(data: &[u8]) -> Result<Self> {
        if !data.len().is_multiple_of(ResourceRef::SIZE) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "a payload size that is a multiple of 64",
                data.len(),
            ));
        }
        let mut c = Cursor::new(data, FORMAT);
        let mut refs = Vec::with_capacity(data.len() / ResourceRef::SIZE);
        while !c.at_end() {
            refs.push(ResourceRef::read(&mut c)?);
        }
        Ok(Self { refs })
    }

    /// Writes the payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        ResourceRef::list_bytes(&self.refs)
    }
}
