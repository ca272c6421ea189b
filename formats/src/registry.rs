//! `objects.rlb`: the prototype registry (tome III "Реестр объектов").
//!
//! An NRes archive whose entry names are prototype keys; each payload is a
//! list of 64-byte `{archive[32], resource[32]}` references. A reference into
//! `objects.rlb` itself names a parent prototype: [`Registry::resolve`]
//! expands it in place (parent references where the parent reference stood,
//! so order and origin are kept), detects cycles, limits the depth to
//! [`MAX_DEPTH`] and caches each result. The first `.msh` reference is the
//! model; a `.bas` reference is the structure's BASE, never a mesh (its
//! `<stem>.msh` in the same archive is only a fallback candidate); a
//! prototype without either is non-geometric, which is a status, not an
//! error. A missing parent is an error (a broken reference).

use crate::archive::Mode;
use crate::archive::nres::{self, NewEntry, Nres, NresEditor, NresEntry};
use crate::cursor::show_bytes;
use crate::error::{FormatError, Result};
use crate::fixed::ResourceRef;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Format name in errors.
pub const FORMAT: &str = "objects.rlb";
/// The archive name of parent references.
pub const REGISTRY_ARCHIVE: &[u8] = b"objects.rlb";
/// Deepest parent chain resolved (retail chains are one level deep).
pub const MAX_DEPTH: usize = 16;

/// The registry's name for its 64-byte references (new modules written at
/// the same time as the merge import it from here).
pub type ObjectRef = ResourceRef;

impl ResourceRef {
    /// Whether this registry reference names a parent prototype (its
    /// archive is `objects.rlb`, with or without a directory).
    pub fn is_parent(&self) -> bool {
        let archive = self.archive.name();
        let file = archive
            .rsplit(|&b| b == b'\\' || b == b'/')
            .next()
            .unwrap_or(archive);
        file.eq_ignore_ascii_case(REGISTRY_ARCHIVE)
    }
}

/// A registry entry: its key and its own references in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prototype {
    pub key: Vec<u8>,
    /// The NRes directory entry (attributes kept).
    pub entry: NresEntry,
    pub refs: Vec<ResourceRef>,
}

impl Prototype {
    /// The payload of this prototype's references.
    pub fn payload(&self) -> Vec<u8> {
        ResourceRef::list_bytes(&self.refs)
    }
}

/// A reference of a resolved prototype, with its origin.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct EffectiveRef {
    #[serde(serialize_with = "lossy")]
    pub archive: Vec<u8>,
    #[serde(serialize_with = "lossy")]
    pub resource: Vec<u8>,
    /// The prototype whose payload holds this reference.
    #[serde(serialize_with = "lossy")]
    pub origin: Vec<u8>,
    /// 0 for the resolved prototype itself, 1 for its parent, ...
    pub depth: usize,
}

impl EffectiveRef {
    /// Whether the resource name ends in `.ext` (ASCII case-insensitive).
    pub fn has_extension(&self, ext: &str) -> bool {
        extension(&self.resource).is_some_and(|e| e.eq_ignore_ascii_case(ext.as_bytes()))
    }
}

/// The model a prototype gets, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Geometry<'a> {
    /// The first `.msh` reference.
    Mesh(&'a EffectiveRef),
    /// No `.msh`, but a `.bas`: `<stem>.msh` in the BASE's archive is the
    /// candidate model (to be checked against that archive).
    BaseStem {
        archive: &'a [u8],
        mesh_name: Vec<u8>,
    },
    /// Neither: a system, sun or logic-only object.
    NonGeometric,
}

/// A resolved prototype: parents expanded, in order, with origins.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Resolved {
    #[serde(serialize_with = "lossy")]
    pub key: Vec<u8>,
    /// The prototype and its ancestors, nearest first.
    #[serde(serialize_with = "lossy_list")]
    pub chain: Vec<Vec<u8>>,
    /// Effective references, parent references expanded in place.
    pub refs: Vec<EffectiveRef>,
}

impl Resolved {
    /// The first reference with extension `ext`.
    pub fn first_with(&self, ext: &str) -> Option<&EffectiveRef> {
        self.refs.iter().find(|r| r.has_extension(ext))
    }

    /// The controller (`.ctl`, a CTLD resource): first wins.
    pub fn controller(&self) -> Option<&EffectiveRef> {
        self.first_with("ctl")
    }

    /// The model: first `.msh` wins.
    pub fn mesh(&self) -> Option<&EffectiveRef> {
        self.first_with("msh")
    }

    /// The BASE resource (`.bas`), loaded by the structures subsystem.
    pub fn base(&self) -> Option<&EffectiveRef> {
        self.first_with("bas")
    }

    /// The material table (`.wea`).
    pub fn wear(&self) -> Option<&EffectiveRef> {
        self.first_with("wea")
    }

    /// Model candidates in the order a loader tries them against the
    /// archives: every `.msh` reference, then the `<stem>.msh` of the first
    /// `.bas` (as `(archive, name)`).
    pub fn mesh_candidates(&self) -> Vec<(&[u8], Vec<u8>)> {
        let mut out: Vec<(&[u8], Vec<u8>)> = self
            .refs
            .iter()
            .filter(|r| r.has_extension("msh"))
            .map(|r| (r.archive.as_slice(), r.resource.clone()))
            .collect();
        if let Some(base) = self.base() {
            out.push((&base.archive, base_stem_mesh(&base.resource)));
        }
        out
    }

    /// The geometry status.
    pub fn geometry(&self) -> Geometry<'_> {
        if let Some(mesh) = self.mesh() {
            return Geometry::Mesh(mesh);
        }
        match self.base() {
            Some(base) => Geometry::BaseStem {
                archive: &base.archive,
                mesh_name: base_stem_mesh(&base.resource),
            },
            None => Geometry::NonGeometric,
        }
    }
}

/// The parsed registry with a resolution cache.
#[derive(Debug)]
pub struct Registry {
    /// Prototypes in directory order.
    pub prototypes: Vec<Prototype>,
    /// Upper-cased key -> first prototype of that key.
    index: BTreeMap<Vec<u8>, usize>,
    cache: Mutex<BTreeMap<usize, Arc<Resolved>>>,
}

impl Registry {
    /// Parses `objects.rlb`: every payload must be a whole number of
    /// 64-byte references (checked before reading the first one).
    pub fn parse(data: &[u8], mode: Mode) -> Result<Self> {
        let archive = Nres::parse(data, mode)?;
        let mut prototypes = Vec::with_capacity(archive.len());
        for (i, entry) in archive.entries().iter().enumerate() {
            let payload = archive.payload(i);
            let in_entry = |e: FormatError| e.in_entry(i, String::from_utf8_lossy(entry.name()));
            if !payload.len().is_multiple_of(ResourceRef::SIZE) {
                return Err(in_entry(FormatError::invalid(
                    FORMAT,
                    0,
                    format!("a payload of whole {}-byte references", ResourceRef::SIZE),
                    format!("{} bytes", payload.len()),
                )));
            }
            let (records, _) = payload.as_chunks::<{ ResourceRef::SIZE }>();
            let refs = records.iter().map(ResourceRef::from_bytes).collect();
            prototypes.push(Prototype {
                key: entry.name().to_vec(),
                entry: entry.clone(),
                refs,
            });
        }
        Ok(Self::from_prototypes(prototypes))
    }

    fn from_prototypes(prototypes: Vec<Prototype>) -> Self {
        let mut index = BTreeMap::new();
        for (i, p) in prototypes.iter().enumerate() {
            index.entry(p.key.to_ascii_uppercase()).or_insert(i);
        }
        Self {
            prototypes,
            index,
            cache: Mutex::new(BTreeMap::new()),
        }
    }

    /// The prototype of a key (ASCII case-insensitive; duplicates resolve to
    /// the first in directory order).
    pub fn find(&self, key: &[u8]) -> Option<usize> {
        self.index.get(&key.to_ascii_uppercase()).copied()
    }

    /// Resolves a key: parents expanded, cycles and depth checked, cached.
    pub fn resolve(&self, key: &[u8]) -> Result<Arc<Resolved>> {
        let index = self.find(key).ok_or_else(|| {
            FormatError::missing(FORMAT, format!("prototype {}", show_bytes(key)))
        })?;
        self.resolve_index(index, &mut Vec::new())
    }

    /// Drops cached resolutions.
    pub fn clear_cache(&self) {
        self.lock_cache().clear();
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, Arc<Resolved>>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `stack` holds the prototypes being resolved (the inheritance path).
    fn resolve_index(&self, index: usize, stack: &mut Vec<usize>) -> Result<Arc<Resolved>> {
        if let Some(done) = self.lock_cache().get(&index) {
            return Ok(done.clone());
        }
        let proto = &self.prototypes[index];
        let path = |stack: &[usize], last: &[u8]| {
            let mut names: Vec<String> = stack
                .iter()
                .map(|&i| String::from_utf8_lossy(&self.prototypes[i].key).into_owned())
                .collect();
            names.push(String::from_utf8_lossy(last).into_owned());
            names.join(" -> ")
        };
        if stack.contains(&index) {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "acyclic prototype inheritance",
                format!("cycle {}", path(stack, &proto.key)),
            ));
        }
        if stack.len() >= MAX_DEPTH {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                format!("prototype inheritance at most {MAX_DEPTH} deep"),
                path(stack, &proto.key),
            ));
        }
        stack.push(index);
        let mut chain = vec![proto.key.clone()];
        let mut refs = Vec::new();
        for r in &proto.refs {
            if !r.is_parent() {
                refs.push(EffectiveRef {
                    archive: r.archive.name().to_vec(),
                    resource: r.name.name().to_vec(),
                    origin: proto.key.clone(),
                    depth: 0,
                });
                continue;
            }
            let parent_key = r.name.name();
            let parent = self.find(parent_key).ok_or_else(|| {
                FormatError::missing(
                    FORMAT,
                    format!(
                        "parent prototype {} of {}",
                        show_bytes(parent_key),
                        show_bytes(&proto.key)
                    ),
                )
                .in_entry(index, String::from_utf8_lossy(&proto.key))
            })?;
            let resolved = self.resolve_index(parent, stack)?;
            chain.extend(resolved.chain.iter().cloned());
            refs.extend(resolved.refs.iter().map(|e| EffectiveRef {
                depth: e.depth + 1,
                ..e.clone()
            }));
        }
        stack.pop();
        let resolved = Arc::new(Resolved {
            key: proto.key.clone(),
            chain,
            refs,
        });
        self.lock_cache().insert(index, resolved.clone());
        Ok(resolved)
    }

    /// Writes the registry back over the archive it was parsed from: an
    /// unmodified registry gives the original bytes, a changed reference list
    /// changes only that payload (lossless NRes editor).
    pub fn to_bytes(&self, original: &Nres) -> Result<Vec<u8>> {
        let mut editor = NresEditor::new(original);
        for (i, p) in self.prototypes.iter().enumerate() {
            let payload = p.payload();
            if editor.payload(i) != payload.as_slice() {
                editor.set_payload(i, payload);
            }
        }
        editor.to_bytes()
    }

    /// Builds a new `objects.rlb` (canonical NRes) from `(key, refs)` pairs.
    /// The directory attributes of registry entries are not documented; they
    /// are written as zero.
    pub fn build(prototypes: &[(Vec<u8>, Vec<ResourceRef>)]) -> Result<Vec<u8>> {
        let payloads: Vec<Vec<u8>> = prototypes
            .iter()
            .map(|(_, refs)| ResourceRef::list_bytes(refs))
            .collect();
        let entries: Vec<NewEntry> = prototypes
            .iter()
            .zip(&payloads)
            .map(|((key, _), payload)| NewEntry::new(key, 0, payload))
            .collect();
        nres::build(&entries)
    }
}

/// `<stem>.msh` of a `<stem>.bas` name.
fn base_stem_mesh(base: &[u8]) -> Vec<u8> {
    let stem = base
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(base, |dot| &base[..dot]);
    let mut name = stem.to_vec();
    name.extend_from_slice(b".msh");
    name
}

/// The extension of a name (after the last `.`), if any.
fn extension(name: &[u8]) -> Option<&[u8]> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    Some(&name[dot + 1..])
}

fn lossy<S: serde::Serializer>(bytes: &[u8], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(bytes))
}

fn lossy_list<S: serde::Serializer>(
    list: &[Vec<u8>],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|b| String::from_utf8_lossy(b)))
}
