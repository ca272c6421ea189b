//! `data.tma`: the mission description (tome IV "data.tma", FACTS "Missions
//! and units").
//!
//! The whole file is read by one bounded cursor, record after record, to the
//! exact end of the file: paths, clans, placed objects with their ordered
//! property bags, the epilogue (land path, mission flag, raw description) and
//! the mineral lodes. Every field is kept, including the raw bytes of strings
//! and property values, so [`Tma::to_bytes`] writes an unmodified file back
//! byte-identical. Section versions are checked in [`Mode::Strict`] and kept
//! raw in [`Mode::Compatible`] (quirk [`QUIRK_UNKNOWN_VERSION`]).
//!
//! The same types are the builder: construct a [`Tma`] from typed data with
//! [`Tma::new`], [`Clan::new`], [`PlacedObject::new`], [`Property::float`] /
//! [`Property::int`] and write it with [`Tma::to_bytes`].

mod read;
mod write;

pub mod info;

pub use read::parse;

use crate::config::decode_cp1251;

/// Format name in errors.
pub const FORMAT: &str = "TMA";
/// Known top-level format version.
pub const FORMAT_VERSION: u32 = 1;
/// Known clan section version.
pub const CLAN_SECTION_VERSION: u32 = 6;
/// Known placed-object section version.
pub const OBJECT_SECTION_VERSION: u32 = 10;
/// Known property schema version (one per placed object).
pub const PROPERTY_SCHEMA_VERSION: u32 = 1;
/// Known extra (mineral lode) section version.
pub const EXTRA_SECTION_VERSION: u32 = 1;
/// `class_or_flags` of every retail placed object.
pub const PLACED_OBJECT_CLASS: u32 = 0x8000_0002;
/// Compatible mode accepts a section version other than the known one and
/// keeps it raw; strict mode refuses it under this quirk name.
pub const QUIRK_UNKNOWN_VERSION: &str = "tma_unknown_section_version";

/// A whole `data.tma`, every field in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Tma {
    pub format_version: u32,
    pub paths: Vec<MissionPath>,
    pub clan_section_version: u32,
    pub clans: Vec<Clan>,
    pub object_section_version: u32,
    pub objects: Vec<PlacedObject>,
    /// Path of the map directory or `Land.msh` (legacy spelling kept).
    pub land_path: Vec<u8>,
    pub mission_flag: u32,
    pub description: Description,
    pub extra_section_version: u32,
    /// The 28-byte extra records: mineral lodes.
    pub lodes: Vec<MineralLode>,
}

/// A route: gameplay refers to it by its stored `id`, not its position.
#[derive(Debug, Clone, PartialEq)]
pub struct MissionPath {
    pub id: i32,
    pub points: Vec<[f32; 3]>,
}

/// A mission participant (the unified clan record of FACTS: the tome's
/// mode-0 "spatial groups" are the zones, its two resource tags are the zone
/// count and the bot cap).
#[derive(Debug, Clone, PartialEq)]
pub struct Clan {
    pub name: Vec<u8>,
    /// Always -1 in retail files.
    pub raw_id: i32,
    /// Base anchor (x, y).
    pub base: [f32; 2],
    /// Raw clan type word; see [`Clan::clan_type`].
    pub raw_type: u32,
    /// AI script / formula resource path.
    pub ai_script: Vec<u8>,
    pub zones: Vec<ClanZone>,
    /// `.trf` resource path (may be empty).
    pub trf: Vec<u8>,
    pub bot_cap: u32,
    /// Relation table in file order.
    pub relations: Vec<ClanRelation>,
}

/// The bit the hero's `Type` word carries beside the robot class (the
/// measured hero's `Type` is `0x1020000`, openparkan
/// `docs/30-turrets.md` "The turret decides what the unit is"; that this
/// bit alone marks the hero is our reading).
pub const HERO_TYPE: u32 = 0x0002_0000;
/// The bit of a warrior's `Type` word (`0x1008000`, the `prof_war`
/// profile) and of an HQ's (`0x1010000`, `prof_hq`): openparkan
/// `docs/26-damage.md`, "The difficulty ratio".
pub const WARRIOR_TYPE: u32 = 0x0000_8000;
pub const HQ_TYPE: u32 = 0x0001_0000;

/// Typed view of [`Clan::raw_type`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClanType {
    Nature,
    Player,
    Enemy,
    Neutral,
}

impl ClanType {
    /// The stored word of this type.
    pub fn raw(self) -> u32 {
        match self {
            ClanType::Nature => 0,
            ClanType::Player => 1,
            ClanType::Enemy => 2,
            ClanType::Neutral => 3,
        }
    }
}

/// A clan zone: `kind` (1 in every known file), centre and two radii.
#[derive(Debug, Clone, PartialEq)]
pub struct ClanZone {
    pub kind: u32,
    pub centre: [f32; 3],
    pub inner_radius: f32,
    pub outer_radius: f32,
}

/// One row of a clan's relation table: another clan by name and a raw value
/// (0 or 1 in retail files).
#[derive(Debug, Clone, PartialEq)]
pub struct ClanRelation {
    pub clan: Vec<u8>,
    pub value: u32,
}

/// A placed object record.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedObject {
    /// Raw kind word; see [`PlacedObject::kind`].
    pub raw_kind: u32,
    /// `0x80000002` on every retail object.
    pub class_or_flags: u32,
    /// A prototype key of `objects.rlb` or a unit DAT path.
    pub resource_name: Vec<u8>,
    pub raw_after_resource: u32,
    /// Identity / owning clan word (raw).
    pub identity: u32,
    pub position: [f32; 3],
    /// Euler angles in radians, applied Rz * Ry * Rx (FACTS "MSH").
    pub orientation: [f32; 3],
    pub scale: [f32; 3],
    pub instance_name: Vec<u8>,
    pub raw_after_name: u32,
    pub link0: i32,
    pub link1: i32,
    pub property_schema_version: u32,
    /// The ordered property bag (order and repeated names are kept).
    pub properties: Vec<Property>,
}

/// Typed view of [`PlacedObject::raw_kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    Building,
    Unit,
    Vegetation,
    Rock,
}

impl ObjectKind {
    /// The stored word of this kind.
    pub fn raw(self) -> u32 {
        match self {
            ObjectKind::Building => 0,
            ObjectKind::Unit => 1,
            ObjectKind::Vegetation => 2,
            ObjectKind::Rock => 3,
        }
    }

    /// The kind of a stored word, if known.
    pub fn from_raw(raw: u32) -> Option<Self> {
        [Self::Building, Self::Unit, Self::Vegetation, Self::Rock]
            .into_iter()
            .find(|k| k.raw() == raw)
    }
}

/// What a placed object's `resource_name` refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceRef<'a> {
    /// A unit DAT path (`*.dat`) listing component keys.
    UnitDat(&'a [u8]),
    /// A direct prototype key of `objects.rlb`.
    Prototype(&'a [u8]),
}

/// One property: 16 raw value bytes, then its name.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Property {
    /// `{u32 type, value, min, max}` as stored.
    pub raw: [u8; 16],
    pub name: Vec<u8>,
}

/// Typed view of a property value (type word 0 = float, 1 = int).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PropertyValue {
    Float {
        value: f32,
        min: f32,
        max: f32,
    },
    Int {
        value: i32,
        min: i32,
        max: i32,
    },
    /// A type word this reader does not know; the three words raw.
    Other {
        type_word: u32,
        words: [u32; 3],
    },
}

/// The mission description: a length that is a buffer capacity. Bytes after
/// the first NUL are junk to keep, not text.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    pub raw: Vec<u8>,
}

/// A 28-byte extra record: a mineral lode.
#[derive(Debug, Clone, PartialEq)]
pub struct MineralLode {
    pub position: [f32; 3],
    pub found: u32,
    pub lode_type: u32,
    pub amount: f32,
    pub raw: u32,
}

impl Tma {
    /// An empty mission at the known section versions.
    pub fn new(land_path: impl Into<Vec<u8>>) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            paths: Vec::new(),
            clan_section_version: CLAN_SECTION_VERSION,
            clans: Vec::new(),
            object_section_version: OBJECT_SECTION_VERSION,
            objects: Vec::new(),
            land_path: land_path.into(),
            mission_flag: 0,
            description: Description { raw: Vec::new() },
            extra_section_version: EXTRA_SECTION_VERSION,
            lodes: Vec::new(),
        }
    }

    /// The path with this stored id (first one when ids repeat).
    pub fn path(&self, id: i32) -> Option<&MissionPath> {
        self.paths.iter().find(|p| p.id == id)
    }

    /// The original object id of every placed object, in file order: its
    /// `LogicalID` property (tome IV) when set and not taken by an earlier
    /// record; the others get the lowest free values from 1 up, in file
    /// order. The same file always gives the same ids.
    pub fn original_ids(&self) -> Vec<u32> {
        let mut taken = std::collections::BTreeSet::new();
        let explicit: Vec<Option<u32>> = self
            .objects
            .iter()
            .map(|o| {
                let raw = match o.property(b"LogicalID").map(Property::value) {
                    Some(PropertyValue::Int { value, .. }) => u32::try_from(value).unwrap_or(0),
                    _ => 0,
                };
                (raw != 0 && taken.insert(raw)).then_some(raw)
            })
            .collect();
        let mut next = 1u32;
        explicit
            .into_iter()
            .map(|id| {
                id.unwrap_or_else(|| {
                    while taken.contains(&next) {
                        next += 1;
                    }
                    taken.insert(next);
                    next
                })
            })
            .collect()
    }

    /// The player's hero: of the units of the first player clan whose
    /// `Type` word carries [`HERO_TYPE`], the one with the lowest original
    /// id; its index in [`Tma::objects`].
    pub fn hero(&self) -> Option<usize> {
        let player = self.player_clan()? as u32;
        let ids = self.original_ids();
        self.objects
            .iter()
            .zip(&ids)
            .enumerate()
            .filter(|(_, (o, _))| o.kind() == Some(ObjectKind::Unit) && o.identity == player)
            .filter(|(_, (o, _))| {
                matches!(o.property(b"Type").map(Property::value),
                    Some(PropertyValue::Int { value, .. }) if value as u32 & HERO_TYPE != 0)
            })
            .min_by_key(|(_, (_, id))| **id)
            .map(|(index, _)| index)
    }

    /// The player's clan: the first clan of type player, by index.
    pub fn player_clan(&self) -> Option<usize> {
        self.clans
            .iter()
            .position(|c| c.clan_type() == Some(ClanType::Player))
    }

    /// The clan with this name (ASCII case-insensitive).
    pub fn clan(&self, name: &[u8]) -> Option<&Clan> {
        self.clans
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// Section versions that differ from the known ones, as
    /// `(section, found, known)`: what compatible mode accepted under
    /// [`QUIRK_UNKNOWN_VERSION`] (empty for a strictly parsed file).
    pub fn quirks(&self) -> Vec<(String, u32, u32)> {
        let mut out = Vec::new();
        let mut check = |what: String, found: u32, known: u32| {
            if found != known {
                out.push((what, found, known));
            }
        };
        check("format".into(), self.format_version, FORMAT_VERSION);
        check(
            "clan section".into(),
            self.clan_section_version,
            CLAN_SECTION_VERSION,
        );
        check(
            "object section".into(),
            self.object_section_version,
            OBJECT_SECTION_VERSION,
        );
        for (i, o) in self.objects.iter().enumerate() {
            check(
                format!("object #{i} property schema"),
                o.property_schema_version,
                PROPERTY_SCHEMA_VERSION,
            );
        }
        check(
            "extra section".into(),
            self.extra_section_version,
            EXTRA_SECTION_VERSION,
        );
        out
    }
}

impl Clan {
    /// A clan of `clan_type` with no zones, scripts or relations.
    pub fn new(name: impl Into<Vec<u8>>, clan_type: ClanType) -> Self {
        Self {
            name: name.into(),
            raw_id: -1,
            base: [0.0; 2],
            raw_type: clan_type.raw(),
            ai_script: Vec::new(),
            zones: Vec::new(),
            trf: Vec::new(),
            bot_cap: 0,
            relations: Vec::new(),
        }
    }

    /// The clan type, if the word is known.
    pub fn clan_type(&self) -> Option<ClanType> {
        [
            ClanType::Nature,
            ClanType::Player,
            ClanType::Enemy,
            ClanType::Neutral,
        ]
        .into_iter()
        .find(|t| t.raw() == self.raw_type)
    }
}

impl PlacedObject {
    /// An object of `kind` at `position`, unrotated, unit scale, with the
    /// retail class word, no links and an empty property bag.
    pub fn new(kind: ObjectKind, resource_name: impl Into<Vec<u8>>, position: [f32; 3]) -> Self {
        Self {
            raw_kind: kind.raw(),
            class_or_flags: PLACED_OBJECT_CLASS,
            resource_name: resource_name.into(),
            raw_after_resource: 0,
            identity: 0,
            position,
            orientation: [0.0; 3],
            scale: [1.0; 3],
            instance_name: Vec::new(),
            raw_after_name: 0,
            link0: -1,
            link1: -1,
            property_schema_version: PROPERTY_SCHEMA_VERSION,
            properties: Vec::new(),
        }
    }

    /// The object kind, if the word is known.
    pub fn kind(&self) -> Option<ObjectKind> {
        ObjectKind::from_raw(self.raw_kind)
    }

    /// Whether `resource_name` is a unit DAT path or a prototype key.
    pub fn resource(&self) -> ResourceRef<'_> {
        let name = &self.resource_name[..];
        if name.len() >= 4 && name[name.len() - 4..].eq_ignore_ascii_case(b".dat") {
            ResourceRef::UnitDat(name)
        } else {
            ResourceRef::Prototype(name)
        }
    }

    /// The first property of this name (ASCII case-insensitive).
    pub fn property(&self, name: &[u8]) -> Option<&Property> {
        self.properties
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }
}

impl Property {
    /// A float property `{0, value, min, max}`.
    pub fn float(name: impl Into<Vec<u8>>, value: f32, min: f32, max: f32) -> Self {
        Self::from_words(name, 0, [value.to_bits(), min.to_bits(), max.to_bits()])
    }

    /// An integer property `{1, value, min, max}`.
    pub fn int(name: impl Into<Vec<u8>>, value: i32, min: i32, max: i32) -> Self {
        Self::from_words(name, 1, [value as u32, min as u32, max as u32])
    }

    fn from_words(name: impl Into<Vec<u8>>, type_word: u32, words: [u32; 3]) -> Self {
        let mut raw = [0u8; 16];
        raw[..4].copy_from_slice(&type_word.to_le_bytes());
        for (i, w) in words.iter().enumerate() {
            raw[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        Self {
            raw,
            name: name.into(),
        }
    }

    /// The four stored words.
    pub fn words(&self) -> [u32; 4] {
        std::array::from_fn(|i| {
            u32::from_le_bytes([
                self.raw[4 * i],
                self.raw[4 * i + 1],
                self.raw[4 * i + 2],
                self.raw[4 * i + 3],
            ])
        })
    }

    /// The typed value.
    pub fn value(&self) -> PropertyValue {
        let [t, a, b, c] = self.words();
        match t {
            0 => PropertyValue::Float {
                value: f32::from_bits(a),
                min: f32::from_bits(b),
                max: f32::from_bits(c),
            },
            1 => PropertyValue::Int {
                value: a as i32,
                min: b as i32,
                max: c as i32,
            },
            _ => PropertyValue::Other {
                type_word: t,
                words: [a, b, c],
            },
        }
    }
}

impl Description {
    /// A description holding `text` encoded as CP1251, then one NUL.
    /// Characters CP1251 cannot encode become HTML numeric references
    /// (`&#NNNN;`, the encoding_rs convention), which stay readable.
    pub fn from_text(text: &str) -> Self {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(text);
        let mut raw = bytes.into_owned();
        raw.push(0);
        Self { raw }
    }

    /// The text bytes: everything before the first NUL.
    pub fn text_bytes(&self) -> &[u8] {
        crate::cursor::c_name(&self.raw)
    }

    /// The bytes after the first NUL (kept, never shown as text).
    pub fn junk(&self) -> &[u8] {
        let n = self.text_bytes().len();
        self.raw.get(n + 1..).unwrap_or(&[])
    }

    /// The text decoded as CP1251.
    pub fn text(&self) -> String {
        decode_cp1251(self.text_bytes())
    }
}
