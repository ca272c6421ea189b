//! The strict reader of `data.tma`: one bounded cursor to the exact end.

use super::*;
use crate::archive::Mode;
use crate::cursor::Cursor;
use crate::error::{FormatError, Problem, Result};

/// Smallest on-disk sizes, used to bound stored counts before allocating.
const MIN_PATH: usize = 8;
const POINT: usize = 12;
const MIN_CLAN: usize = 40;
const ZONE: usize = 24;
const MIN_RELATION: usize = 8;
const MIN_OBJECT: usize = 84;
const MIN_PROPERTY: usize = 20;
const LODE: usize = 28;

/// Parses a whole `data.tma`; the cursor must end exactly at the end of
/// `data`.
pub fn parse(data: &[u8], mode: Mode) -> Result<Tma> {
    let mut c = Cursor::new(data, FORMAT);
    let format_version = version(&mut c, mode, "format version", FORMAT_VERSION)?;

    let count = c.u32()?;
    let n = c.checked_count(count.into(), MIN_PATH, "paths")?;
    let mut paths = Vec::with_capacity(n);
    for _ in 0..n {
        paths.push(read_path(&mut c)?);
    }

    let clan_section_version = version(&mut c, mode, "clan section version", CLAN_SECTION_VERSION)?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), MIN_CLAN, "clans")?;
    let mut clans = Vec::with_capacity(n);
    for _ in 0..n {
        clans.push(read_clan(&mut c)?);
    }

    let object_section_version = version(
        &mut c,
        mode,
        "object section version",
        OBJECT_SECTION_VERSION,
    )?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), MIN_OBJECT, "placed objects")?;
    let mut objects = Vec::with_capacity(n);
    for _ in 0..n {
        objects.push(read_object(&mut c, mode)?);
    }

    let land_path = lp_string(&mut c, "land path")?;
    let mission_flag = c.u32()?;
    let description = Description {
        raw: lp_string(&mut c, "description")?,
    };

    let extra_section_version =
        version(&mut c, mode, "extra section version", EXTRA_SECTION_VERSION)?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), LODE, "extra records")?;
    let mut lodes = Vec::with_capacity(n);
    for _ in 0..n {
        lodes.push(MineralLode {
            position: vec3(&mut c)?,
            found: c.u32()?,
            lode_type: c.u32()?,
            amount: c.f32()?,
            raw: c.u32()?,
        });
    }
    c.expect_end()?;

    Ok(Tma {
        format_version,
        paths,
        clan_section_version,
        clans,
        object_section_version,
        objects,
        land_path,
        mission_flag,
        description,
        extra_section_version,
        lodes,
    })
}

/// Reads a section version: strict mode refuses an unknown one.
fn version(c: &mut Cursor, mode: Mode, what: &str, known: u32) -> Result<u32> {
    let at = c.pos();
    let found = c.u32()?;
    if found != known && matches!(mode, Mode::Strict) {
        return Err(FormatError::new(
            FORMAT,
            at as u64,
            Problem::Quirk {
                name: QUIRK_UNKNOWN_VERSION,
                detail: format!("{what} {found}, the known one is {known}"),
            },
        ));
    }
    Ok(found)
}

/// A length-prefixed string: `u32 byte_length` then the bytes (no NUL
/// framing).
fn lp_string(c: &mut Cursor, what: &str) -> Result<Vec<u8>> {
    let len = c.u32()?;
    let n = c.checked_count(len.into(), 1, what)?;
    Ok(c.bytes(n)?.to_vec())
}

fn vec3(c: &mut Cursor) -> Result<[f32; 3]> {
    Ok([c.f32()?, c.f32()?, c.f32()?])
}

fn read_path(c: &mut Cursor) -> Result<MissionPath> {
    let id = c.i32()?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), POINT, "path points")?;
    let mut points = Vec::with_capacity(n);
    for _ in 0..n {
        points.push(vec3(c)?);
    }
    Ok(MissionPath { id, points })
}

fn read_clan(c: &mut Cursor) -> Result<Clan> {
    let name = lp_string(c, "clan name")?;
    let raw_id = c.i32()?;
    let base = [c.f32()?, c.f32()?];
    let raw_type = c.u32()?;
    let ai_script = lp_string(c, "clan AI script")?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), ZONE, "clan zones")?;
    let mut zones = Vec::with_capacity(n);
    for _ in 0..n {
        zones.push(ClanZone {
            kind: c.u32()?,
            centre: vec3(c)?,
            inner_radius: c.f32()?,
            outer_radius: c.f32()?,
        });
    }
    let trf = lp_string(c, "clan trf")?;
    let bot_cap = c.u32()?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), MIN_RELATION, "clan relations")?;
    let mut relations = Vec::with_capacity(n);
    for _ in 0..n {
        relations.push(ClanRelation {
            clan: lp_string(c, "relation clan name")?,
            value: c.u32()?,
        });
    }
    Ok(Clan {
        name,
        raw_id,
        base,
        raw_type,
        ai_script,
        zones,
        trf,
        bot_cap,
        relations,
    })
}

fn read_object(c: &mut Cursor, mode: Mode) -> Result<PlacedObject> {
    let raw_kind = c.u32()?;
    let class_or_flags = c.u32()?;
    let resource_name = lp_string(c, "object resource name")?;
    let raw_after_resource = c.u32()?;
    let identity = c.u32()?;
    let position = vec3(c)?;
    let orientation = vec3(c)?;
    let scale = vec3(c)?;
    let instance_name = lp_string(c, "object instance name")?;
    let raw_after_name = c.u32()?;
    let link0 = c.i32()?;
    let link1 = c.i32()?;
    let property_schema_version =
        version(c, mode, "property schema version", PROPERTY_SCHEMA_VERSION)?;
    let count = c.u32()?;
    let n = c.checked_count(count.into(), MIN_PROPERTY, "object properties")?;
    let mut properties = Vec::with_capacity(n);
    for _ in 0..n {
        let raw = c.array::<16>()?;
        properties.push(Property {
            raw,
            name: lp_string(c, "property name")?,
        });
    }
    Ok(PlacedObject {
        raw_kind,
        class_or_flags,
        resource_name,
        raw_after_resource,
        identity,
        position,
        orientation,
        scale,
        instance_name,
        raw_after_name,
        link0,
        link1,
        property_schema_version,
        properties,
    })
}
