//! A summary of one mission of an install (`iron3d mission info`): versions,
//! quirks, paths, clans, objects by kind, properties, land path, description
//! and mineral lodes.

use super::*;
use crate::archive::Mode;
use crate::error::Result;
use crate::gamedir::GameDir;
use serde::Serialize;
use std::path::Path;

/// Everything `mission info` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissionInfo {
    pub mission: String,
    pub tma: String,
    pub versions: Versions,
    /// Section versions that differ from the known ones (compatible mode).
    pub quirks: Vec<String>,
    pub paths: Vec<PathInfo>,
    pub clans: Vec<ClanInfo>,
    pub objects: ObjectsInfo,
    /// Property names in order of first appearance.
    pub properties: Vec<PropertyInfo>,
    pub land_path: String,
    /// The land path resolved in the install, when it exists.
    pub land_resolved: Option<String>,
    pub mission_flag: u32,
    pub description: DescriptionInfo,
    pub lodes: Vec<LodeInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Versions {
    pub format: u32,
    pub clans: u32,
    pub objects: u32,
    pub extras: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathInfo {
    pub id: i32,
    pub points: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClanInfo {
    pub name: String,
    #[serde(rename = "type")]
    pub clan_type: Option<ClanType>,
    pub raw_type: u32,
    pub base: [f32; 2],
    pub ai_script: String,
    pub zones: usize,
    pub trf: String,
    pub bot_cap: u32,
    pub relations: Vec<RelationInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelationInfo {
    pub clan: String,
    pub value: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectsInfo {
    pub total: usize,
    pub building: usize,
    pub unit: usize,
    pub vegetation: usize,
    pub rock: usize,
    /// Objects whose kind word is not one of the four.
    pub other_kind: usize,
    /// Objects whose resource is a unit DAT path.
    pub unit_dat_refs: usize,
    /// Objects whose resource is a direct prototype key.
    pub prototype_refs: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PropertyInfo {
    pub name: String,
    /// Occurrences over all objects.
    pub count: usize,
    pub float: usize,
    pub int: usize,
    pub other: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DescriptionInfo {
    pub text: String,
    /// The stored length (a buffer capacity).
    pub capacity: usize,
    /// Bytes after the first NUL (kept, not text).
    pub junk_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LodeInfo {
    pub position: [f32; 3],
    pub found: u32,
    #[serde(rename = "type")]
    pub lode_type: u32,
    pub amount: f32,
    pub raw: u32,
}

/// Reads the mission `mission` of the install at `game_dir` and summarises
/// it.
pub fn mission_info(game_dir: &Path, mission: &str, mode: Mode) -> Result<MissionInfo> {
    let game = GameDir::open(game_dir)?;
    let m = game.mission(mission)?;
    let data = crate::fsutil::read_file(&m.tma)?;
    let tma = parse(&data, mode).map_err(|e| e.in_file(m.tma.display().to_string()))?;
    let land_resolved = game
        .resolve_in_mission(&m.dir, &tma.land_path)
        .ok()
        .map(|p| p.display().to_string());
    Ok(summarise(
        &tma,
        m.name,
        m.tma.display().to_string(),
        land_resolved,
    ))
}

/// The summary of a parsed mission.
pub fn summarise(
    tma: &Tma,
    mission: String,
    file: String,
    land_resolved: Option<String>,
) -> MissionInfo {
    let mut objects = ObjectsInfo {
        total: tma.objects.len(),
        building: 0,
        unit: 0,
        vegetation: 0,
        rock: 0,
        other_kind: 0,
        unit_dat_refs: 0,
        prototype_refs: 0,
    };
    let mut properties: Vec<PropertyInfo> = Vec::new();
    for o in &tma.objects {
        *match o.kind() {
            Some(ObjectKind::Building) => &mut objects.building,
            Some(ObjectKind::Unit) => &mut objects.unit,
            Some(ObjectKind::Vegetation) => &mut objects.vegetation,
            Some(ObjectKind::Rock) => &mut objects.rock,
            None => &mut objects.other_kind,
        } += 1;
        match o.resource() {
            ResourceRef::UnitDat(_) => objects.unit_dat_refs += 1,
            ResourceRef::Prototype(_) => objects.prototype_refs += 1,
        }
        for p in &o.properties {
            let name = decode_cp1251(&p.name);
            let at = match properties.iter().position(|i| i.name == name) {
                Some(at) => at,
                None => {
                    properties.push(PropertyInfo {
                        name,
                        count: 0,
                        float: 0,
                        int: 0,
                        other: 0,
                    });
                    properties.len() - 1
                }
            };
            let info = &mut properties[at];
            info.count += 1;
            match p.value() {
                PropertyValue::Float { .. } => info.float += 1,
                PropertyValue::Int { .. } => info.int += 1,
                PropertyValue::Other { .. } => info.other += 1,
            }
        }
    }
    MissionInfo {
        mission,
        tma: file,
        versions: Versions {
            format: tma.format_version,
            clans: tma.clan_section_version,
            objects: tma.object_section_version,
            extras: tma.extra_section_version,
        },
        quirks: tma
            .quirks()
            .into_iter()
            .map(|(what, found, known)| format!("{what} version {found} (known {known})"))
            .collect(),
        paths: tma
            .paths
            .iter()
            .map(|p| PathInfo {
                id: p.id,
                points: p.points.len(),
            })
            .collect(),
        clans: tma.clans.iter().map(clan_info).collect(),
        objects,
        properties,
        land_path: decode_cp1251(&tma.land_path),
        land_resolved,
        mission_flag: tma.mission_flag,
        description: DescriptionInfo {
            text: tma.description.text(),
            capacity: tma.description.raw.len(),
            junk_bytes: tma.description.junk().len(),
        },
        lodes: tma
            .lodes
            .iter()
            .map(|l| LodeInfo {
                position: l.position,
                found: l.found,
                lode_type: l.lode_type,
                amount: l.amount,
                raw: l.raw,
            })
            .collect(),
    }
}

fn clan_info(c: &Clan) -> ClanInfo {
    ClanInfo {
        name: decode_cp1251(&c.name),
        clan_type: c.clan_type(),
        raw_type: c.raw_type,
        base: c.base,
        ai_script: decode_cp1251(&c.ai_script),
        zones: c.zones.len(),
        trf: decode_cp1251(&c.trf),
        bot_cap: c.bot_cap,
        relations: c
            .relations
            .iter()
            .map(|r| RelationInfo {
                clan: decode_cp1251(&r.clan),
                value: r.value,
            })
            .collect(),
    }
}
