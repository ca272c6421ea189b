//! Edge paths of the dependency graph: every failure carries the chain of
//! nodes from its root (a mission, or the registry for unreachable entries)
//! down to the failing edge, so a report names the placed object, the
//! expanded key, the archive and the entry (tome IV "Диагностика ошибок").

use std::fmt;

/// One node on the way from a root to a failing edge.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Link {
    /// A mission, by its name below `MISSIONS`.
    Mission(String),
    /// The global registry (root of the unreachable-entry checks).
    Registry,
    /// A placed object: index in the TMA and its instance (or resource) name.
    Object { index: usize, name: String },
    /// A unit DAT path as the TMA spells it.
    Unit(String),
    /// A part of a unit DAT: its index and description.
    Component { index: usize, name: String },
    /// A prototype key of `objects.rlb`.
    Prototype(String),
    /// An archive entry.
    Entry { archive: String, entry: String },
    /// A MAT0 phase.
    Phase(usize),
    /// A command of an FXID effect.
    Command(usize),
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Link::Mission(m) => write!(f, "mission {m}"),
            Link::Registry => write!(f, "registry objects.rlb"),
            Link::Object { index, name } => write!(f, "object #{index} '{name}'"),
            Link::Unit(path) => write!(f, "unit '{path}'"),
            Link::Component { index, name } => write!(f, "component #{index} '{name}'"),
            Link::Prototype(key) => write!(f, "prototype '{key}'"),
            Link::Entry { archive, entry } => write!(f, "{archive}::{entry}"),
            Link::Phase(i) => write!(f, "phase #{i}"),
            Link::Command(i) => write!(f, "command #{i}"),
        }
    }
}

/// The kind of the failing edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// Mission -> its `data.tma`.
    Mission,
    /// Placed object -> unit DAT file.
    UnitDat,
    /// Component key -> registry entry (missing key, broken parent, cycle).
    Prototype,
    /// Prototype -> model (MSH).
    Mesh,
    /// Prototype -> material table (WEAR), or a batch -> WEAR row.
    Wear,
    /// WEAR row -> MAT0 of `Material.lib`.
    Material,
    /// MAT0 phase -> Texm of `Textures.lib`.
    Texture,
    /// WEAR lightmap row -> Texm of `LightMap.lib`.
    Lightmap,
    /// Prototype -> FXID, or an FXID command -> its resource.
    Effect,
}

/// A failed edge with its whole chain.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ChainError {
    pub chain: Vec<Link>,
    pub edge: Edge,
    pub cause: String,
}

impl ChainError {
    pub fn new(chain: Vec<Link>, edge: Edge, cause: impl Into<String>) -> Self {
        Self {
            chain,
            edge,
            cause: cause.into(),
        }
    }

    /// The same error below `prefix` (a cached sub-result reused by a new
    /// parent).
    pub fn under(&self, prefix: &[Link]) -> Self {
        let mut chain = prefix.to_vec();
        chain.extend(self.chain.iter().cloned());
        Self {
            chain,
            ..self.clone()
        }
    }
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for link in &self.chain {
            write!(f, "{link} → ")?;
        }
        write!(f, "{}", self.cause)
    }
}

impl std::error::Error for ChainError {}

impl serde::Serialize for ChainError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("ChainError", 4)?;
        st.serialize_field("edge", &self.edge)?;
        let chain: Vec<String> = self.chain.iter().map(ToString::to_string).collect();
        st.serialize_field("chain", &chain)?;
        st.serialize_field("cause", &self.cause)?;
        st.serialize_field("message", &self.to_string())?;
        st.end()
    }
}

/// Bytes of a name as text (lossy, for chains and reports).
pub fn text(bytes: &[u8]) -> String {
    crate::config::decode_cp1251(bytes)
}

/// An entry link.
pub fn entry(archive: &[u8], entry: &[u8]) -> Link {
    Link::Entry {
        archive: text(archive),
        entry: text(entry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_prints_the_whole_chain_and_json_keeps_it() {
        let e = ChainError::new(
            vec![
                Link::Mission("M".into()),
                Link::Object {
                    index: 12,
                    name: "name".into(),
                },
                Link::Component {
                    index: 0,
                    name: "X".into(),
                },
                Link::Prototype("Y".into()),
                entry(b"static.rlb", b"Z.msh"),
            ],
            Edge::Mesh,
            "cause",
        );
        let text = "mission M → object #12 'name' → component #0 'X' → prototype 'Y' → static.rlb::Z.msh → cause";
        assert_eq!(e.to_string(), text);
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["edge"], "mesh");
        assert_eq!(json["chain"][4], "static.rlb::Z.msh");
        assert_eq!(json["message"], text);
        let under = ChainError::new(vec![Link::Prototype("Y".into())], Edge::Mesh, "c")
            .under(&[Link::Registry]);
        assert_eq!(
            under.to_string(),
            "registry objects.rlb → prototype 'Y' → c"
        );
    }
}
