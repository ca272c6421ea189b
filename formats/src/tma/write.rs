//! The lossless writer of `data.tma`: every field back in file order.

use super::*;
use crate::error::{FormatError, Result};

impl Tma {
    /// Writes the mission. An unmodified parsed file comes back
    /// byte-identical; a count or string longer than `u32::MAX` is an error.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut w = Writer::default();
        w.u32(self.format_version);
        w.count(self.paths.len(), "paths")?;
        for p in &self.paths {
            w.i32(p.id);
            w.count(p.points.len(), "path points")?;
            for &point in &p.points {
                w.vec3(point);
            }
        }

        w.u32(self.clan_section_version);
        w.count(self.clans.len(), "clans")?;
        for clan in &self.clans {
            write_clan(&mut w, clan)?;
        }

        w.u32(self.object_section_version);
        w.count(self.objects.len(), "placed objects")?;
        for o in &self.objects {
            write_object(&mut w, o)?;
        }

        w.lp(&self.land_path, "land path")?;
        w.u32(self.mission_flag);
        w.lp(&self.description.raw, "description")?;

        w.u32(self.extra_section_version);
        w.count(self.lodes.len(), "extra records")?;
        for lode in &self.lodes {
            w.vec3(lode.position);
            w.u32(lode.found);
            w.u32(lode.lode_type);
            w.f32(lode.amount);
            w.u32(lode.raw);
        }
        Ok(w.out)
    }
}

fn write_clan(w: &mut Writer, clan: &Clan) -> Result<()> {
    w.lp(&clan.name, "clan name")?;
    w.i32(clan.raw_id);
    w.f32(clan.base[0]);
    w.f32(clan.base[1]);
    w.u32(clan.raw_type);
    w.lp(&clan.ai_script, "clan AI script")?;
    w.count(clan.zones.len(), "clan zones")?;
    for z in &clan.zones {
        w.u32(z.kind);
        w.vec3(z.centre);
        w.f32(z.inner_radius);
        w.f32(z.outer_radius);
    }
    w.lp(&clan.trf, "clan trf")?;
    w.u32(clan.bot_cap);
    w.count(clan.relations.len(), "clan relations")?;
    for r in &clan.relations {
        w.lp(&r.clan, "relation clan name")?;
        w.u32(r.value);
    }
    Ok(())
}

fn write_object(w: &mut Writer, o: &PlacedObject) -> Result<()> {
    w.u32(o.raw_kind);
    w.u32(o.class_or_flags);
    w.lp(&o.resource_name, "object resource name")?;
    w.u32(o.raw_after_resource);
    w.u32(o.identity);
    w.vec3(o.position);
    w.vec3(o.orientation);
    w.vec3(o.scale);
    w.lp(&o.instance_name, "object instance name")?;
    w.u32(o.raw_after_name);
    w.i32(o.link0);
    w.i32(o.link1);
    w.u32(o.property_schema_version);
    w.count(o.properties.len(), "object properties")?;
    for p in &o.properties {
        w.out.extend_from_slice(&p.raw);
        w.lp(&p.name, "property name")?;
    }
    Ok(())
}

/// Little-endian output with checked 32-bit counts.
#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    /// Writes the stored bits (never float arithmetic).
    fn f32(&mut self, v: f32) {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    fn vec3(&mut self, v: [f32; 3]) {
        v.into_iter().for_each(|x| self.f32(x));
    }
    fn count(&mut self, n: usize, what: &str) -> Result<()> {
        let n = u32::try_from(n).map_err(|_| {
            FormatError::overflow(FORMAT, self.out.len() as u64, format!("{what} count"))
        })?;
        self.u32(n);
        Ok(())
    }
    fn lp(&mut self, bytes: &[u8], what: &str) -> Result<()> {
        self.count(bytes.len(), what)?;
        self.out.extend_from_slice(bytes);
        Ok(())
    }
}
