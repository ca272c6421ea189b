//! Resources whose inner layout is not proven (tome III): SUND (system
//! object parameters, 2 retail resources with 12 keys) and ANI (8 retail
//! resources). They are kept as raw bytes; the editor must not synthesise
//! new variants by guess.

/// Raw bytes of a resource without a proven layout.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Opaque {
    pub bytes: Vec<u8>,
}

impl Opaque {
    /// Keeps the payload.
    pub fn parse(data: &[u8]) -> Self {
        Self {
            bytes: data.to_vec(),
        }
    }

    /// The stored payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}

/// SUND: system object parameters (layout not proven).
pub type Sund = Opaque;
/// ANI: animation/control data (layout not proven).
pub type Ani = Opaque;
