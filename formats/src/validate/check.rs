//! One file through its family's reader.

use super::{Collector, Severity};
use crate::archive::Mode;
use crate::archive::open::Archive;
use crate::error::{FormatError, Result};
use crate::fxid::{FXID_TYPE_ID, Fxid};
use crate::graph::{MESH_TYPE_ID, TEXM_TYPE_ID};
use crate::mat0::{MAT0_TYPE_ID, Mat0};
use crate::msh::Msh;
use crate::proto::ctld::CTLD_TYPE_ID;
use crate::proto::ndpr::{GEAR_LEFT, GEAR_RIGHT, NDPR_TYPE_ID, Ndpr};
use crate::sound::{SoundOutcome, classify};
use crate::texm::Texm;
use crate::wear::{WEAR_TYPE_ID, Wear};
use std::path::Path;

/// Reads one file, records its family's counts and findings, returns its size.
pub(crate) fn file(c: &mut Collector, rel: &str, path: &Path) -> u64 {
    let data = match crate::fsutil::read_file(path) {
        Ok(d) => d,
        Err(e) => {
            c.family("io").files += 1;
            c.finding(Severity::Error, "io", rel, &e);
            return 0;
        }
    };
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    let family = classify_file(&name, &data);
    c.family(family).files += 1;
    let result = match family {
        "archive" => archive(c, rel, &name, &data),
        "Land.msh" => crate::terrain::land_msh::LandMsh::parse(&data, Mode::Compatible).map(|_| 1),
        "Land.map" => crate::terrain::land_map::LandMap::parse(&data, Mode::Compatible)
            .map(|m| m.areals.len() as u64),
        "TMA" => crate::tma::parse(&data, Mode::Compatible).map(|t| {
            for (name, _, _) in t.quirks() {
                c.variant(family, format!("quirk {name}"), 1);
            }
            t.objects.len() as u64
        }),
        "unit DAT" => crate::unitdat::UnitDat::parse(&data, Mode::Compatible).map(|u| {
            for q in u.quirks() {
                c.finding(Severity::Warning, family, rel, &q);
            }
            c.variant(family, format!("class 0x{:08x}", u.class_word), 1);
            u.parts.len() as u64
        }),
        "BuildDat.lst" => crate::config::builddat::BuildDat::parse(&data, Mode::Compatible)
            .map(|b| b.sections.len() as u64),
        "Comp.ini" => crate::config::blocks::CompIni::parse(&data).map(|_| 1),
        "input table" => {
            crate::config::input_table::InputTable::parse(&data).map(|t| t.rows.len() as u64)
        }
        "sky" => crate::proto::ske::Sky::parse(&data)
            .map(|s| s.sections.iter().map(|x| x.keyframes.len() as u64).sum()),
        "INI" => crate::config::text::TextConfig::parse(&data, "ini").map(|_| 1),
        "text CFG" => crate::config::text::TextConfig::parse(&data, "cfg").map(|_| 1),
        "briefing" => crate::config::blocks::ObjectConfig::parse(&data, "briefing.cfg")
            .and_then(|o| crate::config::briefing::waypoints(&o))
            .map(|w| w.len() as u64),
        "CFG" => {
            crate::config::blocks::ObjectConfig::parse(&data, "cfg").map(|o| o.objects.len() as u64)
        }
        "TRF" => crate::proto::trf::Trf::parse(&data, Mode::Compatible).map(|_| 1),
        "WEAR" => Wear::parse(&data, Mode::Compatible).map(|w| w.materials.len() as u64),
        "SCR" => crate::script::scr::Script::parse(&data).map(|s| {
            c.variant(family, format!("function table {}", s.table_len), 1);
            let mut findings = s.check();
            if let Some((vars, formulas)) = script_siblings(path) {
                findings.extend(crate::script::check_against(&s, &vars, formulas.as_ref()));
            }
            for e in findings {
                c.finding(Severity::Error, family, rel, &e);
            }
            s.handlers.len() as u64
        }),
        "FML" => crate::script::fml::FormulaSet::parse(&data).map(|f| f.formulas().len() as u64),
        "varset.var" => crate::script::varset::Varset::parse(&data).map(|v| {
            for var in v.vars() {
                c.variant(family, var.ty.name(), 1);
            }
            for (name, line) in v.duplicates() {
                let e = FormatError::invalid(
                    crate::script::varset::FORMAT,
                    0,
                    format!("line {line}: one declaration of each name (lookups find the first)"),
                    name,
                );
                c.finding(Severity::Warning, family, rel, &e);
            }
            v.len() as u64
        }),
        _ => {
            let ext = name.rsplit_once('.').map_or("(none)", |(_, e)| e);
            c.variant(family, format!(".{ext}"), 1);
            Ok(0)
        }
    };
    match result {
        Ok(entries) => c.family(family).entries += entries,
        Err(e) => c.finding(Severity::Error, family, rel, &e),
    }
    data.len() as u64
}

/// The `varset.var` of a script's directory and the script's own `.fml`
/// (names ASCII case-insensitive), for checking the script against them;
/// `None` without a readable `varset.var` (its own reader reports it).
fn script_siblings(
    script: &Path,
) -> Option<(
    crate::script::varset::Varset,
    Option<crate::script::fml::FormulaSet>,
)> {
    let dir = script.parent()?;
    let stem = script.file_stem()?.to_string_lossy().to_ascii_lowercase();
    let mut listing: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    listing.sort();
    let find = |name: &str| {
        listing.iter().find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(name))
        })
    };
    let read = |p: &Path| crate::fsutil::read_file(p).ok();
    let vars =
        crate::script::varset::Varset::parse(&read(find(crate::script::VARSET_FILE)?)?).ok()?;
    let formulas = find(&format!("{stem}.fml"))
        .and_then(|p| read(p))
        .and_then(|d| crate::script::fml::FormulaSet::parse(&d).ok());
    Some((vars, formulas))
}

/// The family of a file by its name, then its magic.
fn classify_file(name: &str, data: &[u8]) -> &'static str {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match (name, ext) {
        ("land.msh", _) => "Land.msh",
        ("land.map", _) => "Land.map",
        ("data.tma", _) => "TMA",
        ("builddat.lst", _) => "BuildDat.lst",
        ("comp.ini", _) => "Comp.ini",
        (_, "tbl") => "input table",
        (_, "ske") => "sky",
        (_, "ini") => "INI",
        // `mission.cfg` and the UI configs are object blocks (tome VIII);
        // The briefing's waypoints are object blocks of their own fields;
        // message texts are keyed text lines.
        ("briefing.cfg", _) => "briefing",
        ("messages.cfg", _) => "text CFG",
        (_, "cfg") => "CFG",
        (_, "trf") => "TRF",
        // A map's terrain layer tables (`Land1.wea`, `Land2.wea`).
        (_, "wea") => "WEAR",
        ("varset.var", _) => "varset.var",
        (_, "scr") => "SCR",
        (_, "fml") => "FML",
        (_, "dat") if data.starts_with(&[0xF1, 0xF0]) => "unit DAT",
        // Libraries are archives whatever their bytes: one that does not
        // read is an error, not another kind of file.
        (_, "rlb" | "lib") => "archive",
        _ if data.starts_with(crate::archive::nres::MAGIC) || data.starts_with(b"NL") => "archive",
        _ => "other",
    }
}

/// An archive and every entry by its type id (RsLi rows by magic).
/// An archive entry as the checks see it: name, type id, two attributes
/// and its decoded payload (or why it could not be decoded).
type EntryRow<'a> = (String, u32, u32, u32, Result<&'a [u8]>);

fn archive(c: &mut Collector, rel: &str, name: &str, data: &[u8]) -> Result<u64> {
    let archive = Archive::parse(data, Mode::Compatible, name)?;
    let entries: Vec<EntryRow>;
    let decoded: Vec<Result<Vec<u8>>>;
    match &archive {
        Archive::Nres(nres) => {
            for q in nres.quirks() {
                c.finding(Severity::Warning, "archive", rel, q);
            }
            c.variant("archive", "NRes", 1);
            entries = nres
                .entries()
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let name = String::from_utf8_lossy(e.name()).into_owned();
                    (name, e.type_id, e.attr1, e.attr2, Ok(nres.payload(i)))
                })
                .collect();
        }
        Archive::Rsli(rsli) => {
            for q in rsli.quirks() {
                c.finding(Severity::Warning, "archive", rel, q);
            }
            c.variant("archive", "RsLi", 1);
            for i in 0..rsli.len() {
                let method = match rsli.entries()[i].method() {
                    Ok(m) => format!("RsLi method {m:?}"),
                    Err(bits) => format!("RsLi method 0x{bits:03x}"),
                };
                c.variant("archive", method, 1);
            }
            decoded = (0..rsli.len()).map(|i| rsli.decode(i)).collect();
            entries = rsli
                .entries()
                .iter()
                .zip(&decoded)
                .map(|(e, d)| {
                    let payload = d.as_deref().map_err(Clone::clone);
                    (e.display_name(), 0, 0, 0, payload)
                })
                .collect();
        }
    }
    let is_sound_lib = name == "sounds.lib" || name == "voices.lib";
    for (i, (entry_name, type_id, attr1, attr2, payload)) in entries.iter().enumerate() {
        let in_entry = |e: FormatError| e.in_entry(i, entry_name.clone());
        let payload = match payload {
            Ok(p) => *p,
            Err(e) => {
                c.finding(Severity::Error, "archive", rel, &in_entry(e.clone()));
                continue;
            }
        };
        let family = entry_family(*type_id, payload, is_sound_lib);
        c.family(family).entries += 1;
        let result = entry(c, family, payload, *attr1, *attr2);
        match result {
            Ok(()) => {}
            Err(e) => c.finding(Severity::Error, family, rel, &in_entry(e)),
        }
        if family == "other entry" {
            c.variant("other entry", type_name(*type_id), 1);
        }
    }
    if name == "objects.rlb" {
        let registry = crate::registry::Registry::parse(data, Mode::Compatible)?;
        c.family("objects.rlb").files += 1;
        c.family("objects.rlb").entries += registry.prototypes.len() as u64;
    }
    Ok(entries.len() as u64)
}

/// The family of an entry: its NRes type id, else its magic.
fn entry_family(type_id: u32, payload: &[u8], sound_lib: bool) -> &'static str {
    match type_id {
        MESH_TYPE_ID => "MSH",
        WEAR_TYPE_ID => "WEAR",
        MAT0_TYPE_ID => "MAT0",
        TEXM_TYPE_ID => "Texm",
        FXID_TYPE_ID => "FXID",
        CTLD_TYPE_ID => "CTLD",
        NDPR_TYPE_ID => "NDPR",
        _ if payload.starts_with(b"Texm") => "Texm",
        _ if payload.starts_with(b"RIFF") || (sound_lib && payload.is_empty()) => "sound",
        _ => "other entry",
    }
}

/// Parses one entry of a known family and records its variants.
fn entry(c: &mut Collector, family: &str, payload: &[u8], attr1: u32, attr2: u32) -> Result<()> {
    match family {
        "MSH" => {
            let m = Msh::load(payload, Mode::Compatible)?;
            let kind = if m.keys.is_empty() {
                "static"
            } else {
                "animated"
            };
            c.variant(family, kind, 1);
        }
        "WEAR" => {
            let w = Wear::parse(payload, Mode::Compatible)?;
            let kind = if w.lightmaps.is_some() {
                "with LIGHTMAPS"
            } else {
                "materials only"
            };
            c.variant(family, kind, 1);
            for q in &w.quirks {
                c.variant(family, format!("quirk {q}"), 1);
            }
        }
        "MAT0" => {
            let m = Mat0::parse(payload, attr1, attr2)?;
            c.variant(family, format!("version {}", m.version), 1);
        }
        "Texm" => {
            let t = Texm::parse(payload)?;
            c.variant(family, format!("{:?}", t.format), 1);
            if t.page.is_some() {
                c.variant(family, "Page", 1);
            }
        }
        "CTLD" => {
            let ctl = crate::proto::ctld::Ctld::parse(payload)?;
            let mode = ctl.control().mode;
            c.variant(family, format!("mode {}", mode.raw()), 1);
        }
        "NDPR" => {
            let table = Ndpr::parse(payload)?;
            let gear = table
                .nodes
                .iter()
                .any(|n| n.flags & (GEAR_LEFT | GEAR_RIGHT) != 0);
            let kind = if gear { "with running gear" } else { "plain" };
            c.variant(family, kind, 1);
        }
        "FXID" => {
            let fx = Fxid::parse(payload)?;
            c.variant(family, format!("time mode {}", fx.header.time_mode), 1);
            for command in &fx.commands {
                c.variant(family, format!("opcode {}", command.opcode()), 1);
            }
        }
        "sound" => match classify(Some(payload)) {
            SoundOutcome::WaveInvalid(e) => return Err(e),
            outcome => {
                let kind = match (&outcome, crate::sound::Wave::parse(payload)) {
                    (SoundOutcome::Decoded(_), Ok(w)) => match w.format() {
                        Ok(f) => format!("format tag {}", f.format_tag),
                        Err(_) => outcome.name().to_string(),
                    },
                    _ => outcome.name().to_string(),
                };
                c.variant(family, kind, 1);
            }
        },
        _ => {}
    }
    Ok(())
}

/// A type id as its four ASCII letters, or hex.
fn type_name(type_id: u32) -> String {
    let b = type_id.to_le_bytes();
    if b.iter().all(|x| x.is_ascii_alphanumeric()) {
        format!("type {}", String::from_utf8_lossy(&b))
    } else {
        format!("type 0x{type_id:08x}")
    }
}
