//! Key/value configs with provenance (tome VIII "Файловая поверхность"):
//! `iron_3d.ini`, `Behavior.ini`, `ArealMap.ini`, `MISSIONS/dispatcher.ini`.
//!
//! A per-file key table ([`KeySpec`]) names the keys the engine reads and,
//! where one is documented, the default. [`Settings::resolve`] gives, for
//! every known key, whether it is present, its raw and its effective value and
//! where that came from; keys the table does not know are kept in file order.
//! Names are ASCII case-insensitive. The file itself stays a
//! [`TextConfig`](super::text::TextConfig), so writing it back is lossless.

use super::text::TextConfig;

/// How the engine reads a key's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    Int,
    Float,
    Text,
}

/// A key the engine reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeySpec {
    /// The section, or `None` when the file's sections are not documented
    /// (the first occurrence in any section is used).
    pub section: Option<&'static str>,
    pub key: &'static str,
    pub kind: ValueKind,
    /// The documented default, `None` when the engine's compiled default is
    /// not known (the effective value is then unset, never invented).
    pub default: Option<&'static str>,
}

/// A typed value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Float(f64),
    Text(String),
}

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The file, at this 1-based line.
    File { line: usize },
    /// The key table's documented default (the key is absent, or its value
    /// does not parse as the key's kind).
    Default,
    /// Absent and no documented default.
    Unset,
    /// Written by another file's key, at this 1-based line of it (see
    /// [`Settings::written_by`]).
    Written {
        file: &'static str,
        key: &'static str,
        line: usize,
    },
}

/// One known key after resolution.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Setting {
    pub section: Option<&'static str>,
    pub key: &'static str,
    /// Whether the key is in the file.
    pub present: bool,
    /// The value as written (quotes removed), when present.
    pub raw: Option<String>,
    pub effective: Option<Value>,
    pub source: Source,
    /// Set when a present value does not parse as the key's kind.
    pub problem: Option<String>,
}

/// A key of the file that the table does not know (kept, never dropped).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct UnknownKey {
    pub section: String,
    pub key: String,
    pub raw: String,
    pub line: usize,
}

/// Every known key resolved, plus the unknown ones.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Settings {
    pub known: Vec<Setting>,
    pub unknown: Vec<UnknownKey>,
}

impl Settings {
    /// Resolves `table` against `config`.
    pub fn resolve(config: &TextConfig, table: &[KeySpec]) -> Self {
        let known = table.iter().map(|spec| resolve_key(config, spec)).collect();
        let unknown = config
            .entries()
            .filter(|(section, key, _, _)| !table.iter().any(|s| matches(s, section, key)))
            .map(|(section, key, value, line)| UnknownKey {
                section: section.to_string(),
                key: key.to_string(),
                raw: value.text.clone(),
                line: line.number,
            })
            .collect();
        Self { known, unknown }
    }

    /// The resolved key (ASCII case-insensitive).
    pub fn get(&self, key: &str) -> Option<&Setting> {
        self.known.iter().find(|s| s.key.eq_ignore_ascii_case(key))
    }

    /// Sets the keys of `pairs` (`(our key, its key in other)`) to the
    /// values `other` holds in its file: `iron_3d.ini` writes three render
    /// settings over `shade.cfg`'s ([`SHADE_FROM_GAME_INI`]). A key of
    /// `other` that is absent or at its default changes nothing.
    pub fn written_by(
        &mut self,
        other: &Settings,
        file: &'static str,
        pairs: &[(&str, &'static str)],
    ) {
        for (ours, theirs) in pairs {
            let Some(from) = other.get(theirs) else {
                continue;
            };
            let (Source::File { line }, Some(value)) = (from.source, &from.effective) else {
                continue;
            };
            if let Some(to) = self
                .known
                .iter_mut()
                .find(|s| s.key.eq_ignore_ascii_case(ours))
            {
                to.effective = Some(value.clone());
                to.source = Source::Written {
                    file,
                    key: from.key,
                    line,
                };
            }
        }
    }

    /// A known numeric key's effective value (`None` when unset or text).
    pub fn number(&self, key: &str) -> Option<f64> {
        match self.get(key)?.effective {
            Some(Value::Int(v)) => Some(v as f64),
            Some(Value::Float(v)) => Some(v),
            _ => None,
        }
    }
}

fn matches(spec: &KeySpec, section: &str, key: &str) -> bool {
    spec.key.eq_ignore_ascii_case(key)
        && spec.section.is_none_or(|s| s.eq_ignore_ascii_case(section))
}

fn resolve_key(config: &TextConfig, spec: &KeySpec) -> Setting {
    let default = spec.default.and_then(|d| parse_value(spec.kind, d));
    let fallback = if default.is_some() {
        Source::Default
    } else {
        Source::Unset
    };
    let mut setting = Setting {
        section: spec.section,
        key: spec.key,
        present: false,
        raw: None,
        effective: default,
        source: fallback,
        problem: None,
    };
    if let Some((value, line)) = config.get(spec.section, spec.key) {
        setting.present = true;
        setting.raw = Some(value.text.clone());
        match parse_value(spec.kind, &value.text) {
            Some(v) => {
                setting.effective = Some(v);
                setting.source = Source::File { line: line.number };
            }
            None => {
                setting.problem = Some(format!(
                    "line {}: {:?} is not a {:?} value",
                    line.number, value.text, spec.kind
                ))
            }
        }
    }
    setting
}

/// Parses `text` as a value of `kind` (decimal integers, plain floats).
pub fn parse_value(kind: ValueKind, text: &str) -> Option<Value> {
    let t = text.trim();
    match kind {
        ValueKind::Int => t.parse().ok().map(Value::Int),
        ValueKind::Float => t.parse().ok().map(Value::Float),
        ValueKind::Text => Some(Value::Text(text.to_string())),
    }
}

const fn int(section: Option<&'static str>, key: &'static str, default: &'static str) -> KeySpec {
    KeySpec {
        section,
        key,
        kind: ValueKind::Int,
        default: Some(default),
    }
}

const fn float(section: Option<&'static str>, key: &'static str, default: &'static str) -> KeySpec {
    KeySpec {
        section,
        key,
        kind: ValueKind::Float,
        default: Some(default),
    }
}

const fn undocumented(
    section: Option<&'static str>,
    key: &'static str,
    kind: ValueKind,
) -> KeySpec {
    KeySpec {
        section,
        key,
        kind,
        default: None,
    }
}

const CS: Option<&str> = Some("CS");
const LEVEL_RATIO: Option<&str> = Some("LEVEL_RATIO");

/// `iron_3d.ini`: the `[CS]` keys of tome VIII. Defaults are the demo
/// install's values (the only documented ones); keys only Part 2 has, and
/// the `[MULTIPLAYER]` and `[TEMP]` keys whose names the tome does not
/// give, stay unknown keys of the file. The difficulty keys are openparkan
/// `docs/26-damage.md`'s ("The difficulty ratio", read and measured):
/// `GAME_LEVEL` (its section is not given, so any matches; the shipped
/// file says 1) picks one of `[LEVEL_RATIO]`'s three ratios.
pub const IRON_3D_INI: &[KeySpec] = &[
    int(CS, "DISPLAY_WIDTH", "640"),
    int(CS, "DISPLAY_HEIGHT", "480"),
    int(CS, "BITDEPTH", "16"),
    int(CS, "CURRENT_D3DCARD", "0"),
    int(CS, "WINDOW_MODE", "0"),
    int(CS, "FORCE_SOFTWARE_CURSOR", "1"),
    int(CS, "RENDER_QUALITY", "2"),
    int(CS, "REFLECTIONS", "0"),
    int(CS, "EMBOSS_BUMP", "0"),
    int(CS, "EMBM", "0"),
    int(CS, "PLAY_CD_MUSIC", "1"),
    int(CS, "MOUSE_SENS", "100"),
    int(CS, "JOY_SENS", "100"),
    int(CS, "MOUSE_REV_Y", "0"),
    int(CS, "JOY_REV_Y", "0"),
    int(CS, "JOY_ENABLE", "0"),
    int(CS, "SUBTITLES", "1"),
    undocumented(CS, "FORCE_CD_SOUND", ValueKind::Text),
    undocumented(CS, "SFX_VOLUME", ValueKind::Int),
    undocumented(CS, "CD_VOLUME", ValueKind::Int),
    undocumented(CS, "DEBUG_KEYS_ON", ValueKind::Int),
    int(None, "GAME_LEVEL", "1"),
    float(LEVEL_RATIO, "EASY", "0.5"),
    float(LEVEL_RATIO, "MEDIUM", "0.7"),
    float(LEVEL_RATIO, "HARD", "1.0"),
];

/// The difficulty ratio of resolved `iron_3d.ini` settings: the
/// `[LEVEL_RATIO]` value `GAME_LEVEL` picks, 0 `EASY`, 1 `MEDIUM`, any
/// other `HARD` (openparkan `docs/26-damage.md`). A ratio that is not a
/// positive number counts as that key's default.
pub fn level_ratio(settings: &Settings) -> f32 {
    let key = match settings.number("GAME_LEVEL") {
        Some(0.0) => "EASY",
        Some(1.0) => "MEDIUM",
        _ => "HARD",
    };
    let positive = |v: f64| (v.is_finite() && v > 0.0).then_some(v as f32);
    let default = IRON_3D_INI
        .iter()
        .find(|spec| spec.key == key)
        .and_then(|spec| spec.default?.parse().ok())
        .and_then(positive);
    settings
        .number(key)
        .and_then(positive)
        .or(default)
        .unwrap_or(1.0)
}

/// `Behavior.ini` (demo values of tome VIII as defaults; the file's section
/// layout is not documented, so any section matches).
pub const BEHAVIOR_INI: &[KeySpec] = &[
    KeySpec {
        section: None,
        key: "LogFile",
        kind: ValueKind::Text,
        default: Some("Behavior.log"),
    },
    int(None, "SaveLog", "0"),
    int(None, "MaxErrorLevel", "1"),
    int(None, "DefErrorLevel", "2"),
    int(None, "LookBugMode", "0"),
    int(None, "ShowVectors", "0"),
    int(None, "NoZBuffer", "0"),
    int(None, "LockBehaviour", "0"),
    int(None, "UseDebugKey", "1"),
    int(None, "GiveDefaultOrder", "0"),
    int(None, "DefaultOrderPhase", "10"),
    int(None, "DeterminMode", "0"),
    int(None, "ImmortalHero", "0"),
    int(None, "UseWizard", "1"),
    // Tome VI names the path finder's keys; the original's compiled
    // defaults are not known (the demo file has none of them), so the
    // Behavior plugin states its own when a key is unset.
    undocumented(None, "PathFind_BuildingHitDist", ValueKind::Float),
    undocumented(None, "PathFind_BuildingNearestDist", ValueKind::Float),
    undocumented(None, "PathFind_NearBuildSpeedPercent", ValueKind::Float),
    undocumented(None, "PathFind_CorridorRadius", ValueKind::Float),
    undocumented(None, "PathFind_NearDoorCoeff", ValueKind::Float),
    undocumented(None, "PathFind_fStepOffBuilding", ValueKind::Float),
    undocumented(None, "PathFind_MaxAccel", ValueKind::Float),
    undocumented(None, "PathFind_MaxRotation", ValueKind::Float),
    undocumented(None, "PathFind_fStepDist", ValueKind::Float),
    undocumented(None, "PathFind_MinPointInTrajectory", ValueKind::Int),
    undocumented(None, "Network_ResourceTransferMaxDelay", ValueKind::Int),
];

/// `ArealMap.ini`: the keys tome VIII names; no values are documented.
pub const AREALMAP_INI: &[KeySpec] = &[
    undocumented(None, "ShowAreals", ValueKind::Int),
    undocumented(None, "Areal_NoZBuffer", ValueKind::Int),
    undocumented(None, "HallWay_NoZBuffer", ValueKind::Int),
    undocumented(None, "EdgeUp", ValueKind::Float),
    undocumented(None, "RunBehDebug", ValueKind::Int),
];

/// `MISSIONS/dispatcher.ini`: only the `[COMPLETE]` section is documented,
/// not its keys; every key is kept as an unknown key.
pub const DISPATCHER_INI: &[KeySpec] = &[];

/// `shade.cfg`: the 36 render settings of `Terrain.dll`, in the page's
/// order, with their compiled defaults (openparkan `docs/10-sky.md` "The
/// render settings"). No retail install ships the file and its syntax is
/// not documented: we read it as `Name=value` lines like the other
/// configs, any section (docs/facts.md). Flags are integers, 0 off.
pub const SHADE_CFG: &[KeySpec] = &[
    int(None, "ForceSWFog", "1"),
    int(None, "LightingOn", "1"),
    int(None, "SpecularsOn", "1"),
    int(None, "EmulatePointLight", "1"),
    int(None, "MicroTexturingOn", "1"),
    float(None, "MicroTexScale", "0.05"),
    int(None, "MaxShadowsQty", "20"),
    float(None, "RobotDetail", "1.0"),
    int(None, "RobotBestLOD", "1"),
    int(None, "RobShadowsOn", "1"),
    float(None, "RobShadowDetail", "1.0"),
    int(None, "RobShadowBestLOD", "1"),
    int(None, "RobShdwRefreshMask", "1"),
    int(None, "RobShadowSmooth", "1"),
    float(None, "BuildingDetail", "1.0"),
    int(None, "BldShadowsOn", "0"),
    float(None, "BldShadowDetail", "1.0"),
    int(None, "BldShadowBestLOD", "1"),
    int(None, "BldShdwRefreshMask", "3"),
    int(None, "BldShadowSmooth", "0"),
    int(None, "AtmCloudsOn", "1"),
    int(None, "AtmStarsOn", "1"),
    int(None, "AtmSkyDetail", "4"),
    int(None, "LensFlareOn", "1"),
    int(None, "ContrLightOn", "1"),
    int(None, "UseEmbossBump", "1"),
    int(None, "UseReflections", "1"),
    int(None, "PortalNearDist", "75"),
    int(None, "PortalFarDist", "95"),
    int(None, "UseDXLighting", "0"),
    int(None, "UseEMBMReflections", "0"),
    float(None, "EMBMCoeff00", "0.01"),
    float(None, "EMBMCoeff11", "0.01"),
    int(None, "EMBMMaxVal", "64"),
    float(None, "EMBMBumpTile", "100.0"),
    int(None, "EMBMBumpMove", "10000"),
];

/// The `shade.cfg` settings `iron_3d.ini` writes at start, from its
/// `REFLECTIONS`, `EMBOSS_BUMP` and `EMBM` (openparkan `docs/10-sky.md`,
/// "Nobody reads `ForceSWFog`").
pub const SHADE_FROM_GAME_INI: &[(&str, &str)] = &[
    ("UseReflections", "REFLECTIONS"),
    ("UseEmbossBump", "EMBOSS_BUMP"),
    ("UseEMBMReflections", "EMBM"),
];

/// The key table of a config file by its name (ASCII case-insensitive,
/// any directory): `iron_3d.ini`, `Behavior.ini`, `ArealMap.ini`,
/// `dispatcher.ini`, `shade.cfg`.
pub fn table_for(file_name: &str) -> Option<&'static [KeySpec]> {
    let name = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    [
        ("iron_3d.ini", IRON_3D_INI),
        ("behavior.ini", BEHAVIOR_INI),
        ("arealmap.ini", AREALMAP_INI),
        ("dispatcher.ini", DISPATCHER_INI),
        ("shade.cfg", SHADE_CFG),
    ]
    .into_iter()
    .find(|(n, _)| n.eq_ignore_ascii_case(name))
    .map(|(_, table)| table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provenance_distinguishes_present_default_unset_and_bad_values() {
        let cfg = TextConfig::parse(
            b"[CS]\r\nDISPLAY_WIDTH=800\r\nbitdepth = x32\r\nNEW_KEY=1\r\n[TEMP]\r\nNORM=0.5\r\n",
            "iron_3d.ini",
        )
        .unwrap();
        let s = Settings::resolve(&cfg, IRON_3D_INI);
        let w = s.get("display_width").unwrap();
        assert_eq!(
            (w.present, &w.effective, w.source),
            (true, &Some(Value::Int(800)), Source::File { line: 2 })
        );
        let h = s.get("DISPLAY_HEIGHT").unwrap();
        assert_eq!(
            (h.present, &h.effective, h.source),
            (false, &Some(Value::Int(480)), Source::Default)
        );
        let b = s.get("BITDEPTH").unwrap();
        assert!(b.present && b.problem.is_some());
        assert_eq!((b.raw.as_deref(), b.source), (Some("x32"), Source::Default));
        let f = s.get("FORCE_CD_SOUND").unwrap();
        assert_eq!((f.effective.clone(), f.source), (None, Source::Unset));
        let unknown: Vec<_> = s
            .unknown
            .iter()
            .map(|u| (u.section.as_str(), u.key.as_str()))
            .collect();
        assert_eq!(unknown, [("CS", "NEW_KEY"), ("TEMP", "NORM")]);
    }

    #[test]
    fn tables_are_found_by_file_name() {
        assert_eq!(table_for("IRON_3D.INI"), Some(IRON_3D_INI));
        assert_eq!(table_for("MISSIONS\\Dispatcher.ini"), Some(DISPATCHER_INI));
        assert_eq!(table_for("x/behavior.ini"), Some(BEHAVIOR_INI));
        assert_eq!(table_for("Comp.ini"), None);
    }

    #[test]
    fn shade_cfg_keeps_the_page_order_its_defaults_and_unknown_names() {
        assert_eq!(SHADE_CFG.len(), 36);
        assert_eq!(SHADE_CFG[6].key, "MaxShadowsQty");
        assert_eq!(SHADE_CFG[35].key, "EMBMBumpMove");
        let cfg = TextConfig::parse(
            b"MaxShadowsQty = 5\r\nBldShadowsOn=1\r\nMyOwnKey=3\r\n",
            "shade.cfg",
        )
        .unwrap();
        let s = Settings::resolve(&cfg, table_for("SHADE.CFG").unwrap());
        assert_eq!(s.number("MaxShadowsQty"), Some(5.0));
        assert_eq!(
            s.get("MaxShadowsQty").unwrap().source,
            Source::File { line: 1 }
        );
        assert_eq!(s.number("BldShadowsOn"), Some(1.0));
        assert_eq!(s.number("RobShadowsOn"), Some(1.0));
        assert_eq!(s.get("RobShadowsOn").unwrap().source, Source::Default);
        assert_eq!(s.number("EMBMCoeff00"), Some(0.01));
        assert_eq!(s.unknown.len(), 1);
        assert_eq!(
            (s.unknown[0].key.as_str(), s.unknown[0].raw.as_str()),
            ("MyOwnKey", "3")
        );
    }

    #[test]
    fn iron_3d_ini_writes_three_shade_settings_when_its_file_sets_them() {
        let game = TextConfig::parse(b"[CS]\nREFLECTIONS=0\nEMBM=1\n", "iron_3d.ini").unwrap();
        let game = Settings::resolve(&game, IRON_3D_INI);
        let mut shade = Settings::resolve(&TextConfig::parse(b"", "shade.cfg").unwrap(), SHADE_CFG);
        shade.written_by(&game, "iron_3d.ini", SHADE_FROM_GAME_INI);
        assert_eq!(shade.number("UseReflections"), Some(0.0));
        assert_eq!(
            shade.get("UseReflections").unwrap().source,
            Source::Written {
                file: "iron_3d.ini",
                key: "REFLECTIONS",
                line: 2
            }
        );
        assert_eq!(shade.number("UseEMBMReflections"), Some(1.0));
        // EMBOSS_BUMP is absent: the shade default stays.
        assert_eq!(shade.number("UseEmbossBump"), Some(1.0));
        assert_eq!(shade.get("UseEmbossBump").unwrap().source, Source::Default);
    }

    #[test]
    fn a_key_in_another_section_is_not_the_known_one() {
        let cfg = TextConfig::parse(b"[TEMP]\nDISPLAY_WIDTH=1\n", "iron_3d.ini").unwrap();
        let s = Settings::resolve(&cfg, IRON_3D_INI);
        assert!(!s.get("DISPLAY_WIDTH").unwrap().present);
        assert_eq!(s.unknown.len(), 1);
    }

    #[test]
    fn sectionless_tables_match_any_section() {
        let cfg = TextConfig::parse(
            b"[Behavior]\nUseWizard=0\nLogFile=\"b.log\"\n",
            "Behavior.ini",
        )
        .unwrap();
        let s = Settings::resolve(&cfg, BEHAVIOR_INI);
        assert_eq!(s.get("usewizard").unwrap().effective, Some(Value::Int(0)));
        assert_eq!(
            s.get("LogFile").unwrap().effective,
            Some(Value::Text("b.log".into()))
        );
        assert_eq!(s.get("SaveLog").unwrap().source, Source::Default);
        assert_eq!(
            s.get("PathFind_CorridorRadius").unwrap().source,
            Source::Unset
        );
        assert_eq!(s.number("PathFind_CorridorRadius"), None);
        assert_eq!(s.number("UseWizard"), Some(0.0));
        assert_eq!(s.number("LogFile"), None);
        let a = Settings::resolve(&cfg, AREALMAP_INI);
        assert!(a.known.iter().all(|k| k.source == Source::Unset));
    }
}
