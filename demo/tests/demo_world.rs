//! The demo install's world files (configs, BuildDat.lst, unit DATs, maps,
//! missions), generated through `iron3d_demo::generate`: deterministic per seed,
//! every file parsed strictly by its reader and written back byte-identical,
//! every mission reference naming a prototype of the install, areals only on
//! walkable ground, and a route between build sites.

use iron3d_demo::{Install, Scale, generate};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::config::ambient::Ambient;
use iron3d_formats::config::blocks::{CompIni, ObjectConfig};
use iron3d_formats::config::builddat::BuildDat;
use iron3d_formats::config::ini::{Settings, Source, table_for};
use iron3d_formats::config::text::TextConfig;
use iron3d_formats::terrain::land_map::{ArealLocator, LandMap};
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::tma::{self, ClanType, ObjectKind, ResourceRef, Tma};
use iron3d_formats::unitdat::UnitDat;
use iron3d_formats::wear::Wear;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The demo's walk limit: slope <= tan(0.6 rad) ~ 0.684 (with a little slack
/// for f32 positions).
const WALK_SLOPE: f64 = 0.684 * 1.001;

fn demo() -> &'static Install {
    static DEMO: OnceLock<Install> = OnceLock::new();
    DEMO.get_or_init(|| generate(7, Scale::Demo).expect("demo install"))
}

/// The file at a legacy path (either separator, any case).
fn file<'a>(install: &'a Install, legacy: &str) -> Option<&'a Vec<u8>> {
    let want = legacy.replace('\\', "/").to_ascii_lowercase();
    install
        .files()
        .iter()
        .find(|(p, _)| p.to_ascii_lowercase() == want)
        .map(|(_, b)| b)
}

fn missions(install: &Install) -> Vec<(&String, Tma)> {
    install
        .files()
        .iter()
        .filter(|(p, _)| p.ends_with("/data.tma"))
        .map(|(p, b)| (p, tma::parse(b, Mode::Strict).expect("strict TMA")))
        .collect()
}

fn world_paths(install: &Install) -> Vec<&String> {
    install
        .files()
        .keys()
        .filter(|p| {
            p.starts_with("MISSIONS/")
                || p.starts_with("MAPS/")
                || p.starts_with("UNITS/")
                || !p.contains('/') && [".ini", ".lst"].iter().any(|e| p.ends_with(e))
        })
        .collect()
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let again = generate(7, Scale::Demo).unwrap();
    assert_eq!(demo().files(), again.files());
    let other = generate(8, Scale::Demo).unwrap();
    let differs = world_paths(demo())
        .into_iter()
        .filter(|p| p.starts_with("MAPS/") && !p.ends_with(".wea") || p.ends_with(".tma"))
        .all(|p| other.files().get(p) != demo().files().get(p));
    assert!(differs, "every map and mission changes with the seed");
}

#[test]
fn every_world_file_parses_strictly_and_rewrites_identically() {
    let install = demo();
    let paths = world_paths(install);
    for name in [
        "iron_3d.ini",
        "Comp.ini",
        "Behavior.ini",
        "ArealMap.ini",
        "BuildDat.lst",
    ] {
        assert!(install.files().contains_key(name), "{name}");
    }
    assert!(install.files().contains_key("MISSIONS/dispatcher.ini"));
    let mut counts = [0usize; 5]; // tma, dat, msh, map, cfg
    for path in paths {
        let bytes = &install.files()[path];
        let lower = path.to_ascii_lowercase();
        let back = if lower.ends_with(".tma") {
            counts[0] += 1;
            tma::parse(bytes, Mode::Strict).unwrap().to_bytes().unwrap()
        } else if lower.ends_with(".dat") {
            counts[1] += 1;
            UnitDat::parse(bytes, Mode::Strict).unwrap().to_bytes()
        } else if lower.ends_with("land.msh") {
            counts[2] += 1;
            LandMsh::parse(bytes, Mode::Strict)
                .unwrap()
                .to_bytes()
                .unwrap()
        } else if lower.ends_with("land.map") {
            counts[3] += 1;
            LandMap::parse(bytes, Mode::Strict)
                .unwrap()
                .to_bytes()
                .unwrap()
        } else if lower.ends_with(".wea") {
            Wear::parse(bytes, Mode::Strict)
                .unwrap()
                .to_bytes()
                .unwrap()
        } else if lower.ends_with("builddat.lst") {
            let b = BuildDat::parse(bytes, Mode::Strict).unwrap();
            assert_eq!(b.sections.len(), 12);
            let n: usize = b.sections.iter().map(|s| s.paths.len()).sum();
            assert_eq!(n, 32);
            for p in b.sections.iter().flat_map(|s| &s.paths) {
                let dat = file(install, &p.path).unwrap_or_else(|| panic!("{}", p.path));
                UnitDat::parse(dat, Mode::Strict).unwrap();
            }
            b.to_bytes()
        } else if lower.ends_with("comp.ini") {
            let c = CompIni::parse(bytes).unwrap();
            assert!((0..8).all(|cid| c.component(cid).is_some()));
            c.text.to_bytes()
        } else if lower.ends_with("mission.cfg") {
            counts[4] += 1;
            let c = ObjectConfig::parse(bytes, "mission.cfg").unwrap();
            let objectives = iron3d_formats::config::mission_text::objectives(&c);
            assert_eq!(objectives.iter().filter(|o| o.primary).count(), 3);
            assert_eq!(objectives.len(), 4);
            c.text.to_bytes()
        } else {
            let text = TextConfig::parse(bytes, "text config").unwrap();
            if let Some(table) = table_for(path) {
                let s = Settings::resolve(&text, table);
                assert!(s.known.iter().all(|k| k.problem.is_none()), "{path}");
                if lower.ends_with("iron_3d.ini") || lower.ends_with("behavior.ini") {
                    // Every key with a documented value is written, as the
                    // original demo files have them; keys whose defaults
                    // nobody knows (Behavior's path finder) are left out.
                    assert!(
                        s.known.iter().all(|k| match k.source {
                            Source::File { .. } => k.present,
                            Source::Unset => !k.present,
                            Source::Default | Source::Written { .. } => false,
                        }),
                        "{path}"
                    );
                }
            }
            if lower.ends_with("dispatcher.ini") {
                assert!(text.sections().any(|s| s == "COMPLETE"));
            }
            text.to_bytes()
        };
        assert_eq!(&back, bytes, "{path} round trip");
    }
    assert!(
        counts[0] >= 2 && counts[2] >= 2 && counts[3] >= 2,
        "{counts:?}"
    );
    assert_eq!(counts[0], counts[4]);
    assert!(counts[1] >= 32 + 3);
}

#[test]
fn missions_hold_clans_paths_objects_properties_and_lodes() {
    for (path, t) in missions(demo()) {
        let dir = path.trim_end_matches("data.tma");
        for f in ["mission.cfg", "briefing.cfg", "messages.cfg"] {
            assert!(
                demo().files().contains_key(&format!("{dir}{f}")),
                "{dir}{f}"
            );
        }
        let types: Vec<_> = t.clans.iter().map(|c| c.clan_type()).collect();
        for want in [
            ClanType::Nature,
            ClanType::Player,
            ClanType::Enemy,
            ClanType::Neutral,
        ] {
            assert!(types.contains(&Some(want)), "{path}");
        }
        for c in &t.clans {
            assert_eq!(c.raw_id, -1);
            assert_eq!(c.zones.is_empty(), c.clan_type() != Some(ClanType::Nature));
            assert_eq!(c.relations.len(), t.clans.len() - 1);
            assert!(
                c.relations
                    .iter()
                    .all(|r| t.clan(&r.clan).is_some() && r.value <= 1)
            );
        }
        assert!(t.paths.len() >= 2 && t.paths.iter().all(|p| p.points.len() >= 2));
        assert!(t.objects.len() >= 30, "{path}: {}", t.objects.len());
        let kinds: BTreeSet<_> = t.objects.iter().filter_map(|o| o.kind()).collect();
        assert_eq!(kinds.len(), 4);
        let dats = t
            .objects
            .iter()
            .filter(|o| matches!(o.resource(), ResourceRef::UnitDat(_)))
            .count();
        assert!(dats > 0 && dats < t.objects.len());
        for o in &t.objects {
            for name in ["Invulnerability", "Life state", "NOT USED"] {
                assert!(o.property(name.as_bytes()).is_some(), "{name}");
            }
            if matches!(o.resource(), ResourceRef::UnitDat(_)) {
                for name in [
                    "LogicalID",
                    "ClanID",
                    "Type",
                    "MaxSpeedPercent",
                    "MaximumOre",
                    "CurrentOre",
                    "ChargeRadius",
                    "FreeBotNum",
                    "FreeTechnoNum",
                    "FreeConstructionTime",
                    "FreeResearchTime",
                ] {
                    assert!(o.property(name.as_bytes()).is_some(), "{name}");
                }
            }
        }
        assert!(!t.lodes.is_empty());
        assert!(t.description.text().contains("Mission"));
        assert!(!t.description.junk().is_empty());
    }
}

/// Prototype keys (upper case) of the install's `objects.rlb`.
fn catalogue_keys(install: &Install) -> BTreeSet<Vec<u8>> {
    let bytes = install.files().get("objects.rlb").expect("objects.rlb");
    Nres::parse(bytes, Mode::Strict)
        .unwrap()
        .entries()
        .iter()
        .map(|e| e.name().to_ascii_uppercase())
        .collect()
}

#[test]
fn mission_references_name_catalogue_prototypes() {
    let install = demo();
    let keys = catalogue_keys(install);
    let known = |k: &[u8]| keys.contains(&k.to_ascii_uppercase());
    for (path, t) in missions(install) {
        let land = String::from_utf8(t.land_path.clone()).unwrap();
        assert!(file(install, &land).is_some(), "{path}: land {land}");
        for o in &t.objects {
            match o.resource() {
                ResourceRef::Prototype(key) => {
                    assert!(known(key), "{path}: {}", String::from_utf8_lossy(key))
                }
                ResourceRef::UnitDat(dat) => {
                    let legacy = String::from_utf8_lossy(dat).into_owned();
                    let bytes = file(install, &legacy).unwrap_or_else(|| panic!("{legacy}"));
                    let unit = UnitDat::parse(bytes, Mode::Strict).unwrap();
                    let links = unit.tree().unwrap();
                    assert_eq!(links.iter().filter(|l| l.parent.is_none()).count(), 1);
                    for p in &unit.parts {
                        assert_eq!(p.archive_name(), b"objects.rlb");
                        assert!(known(p.key()), "{legacy}: {:?}", p.key());
                    }
                }
            }
        }
    }
}

#[test]
fn areals_tile_the_map_and_walkable_ones_connect_the_build_sites() {
    let install = demo();
    for (path, t) in missions(install) {
        let land = String::from_utf8(t.land_path.clone()).unwrap();
        let msh = LandMsh::parse(file(install, &land).unwrap(), Mode::Strict).unwrap();
        let map_path = land.replace(".msh", ".map");
        let map = LandMap::parse(file(install, &map_path).unwrap(), Mode::Strict).unwrap();
        assert_eq!((map.grid.cells_x, map.grid.cells_y), (128, 128));
        assert!(map.areals.len() > 100, "{}", map.areals.len());

        // Edge links are symmetric.
        for (a, areal) in map.areals.iter().enumerate() {
            for (e, link) in areal.links.iter().enumerate() {
                if let Some((b, k)) = link.target() {
                    let back = map.areals[b as usize].links[k as usize];
                    assert_eq!(back.target(), Some((a as u32, e as u32)));
                }
            }
        }

        // The areals tile the map; none over a water face or a face steeper
        // than the walk limit is walkable, and those over water are lakes.
        let (lo, hi) = map.areals.iter().flat_map(|a| &a.vertices).fold(
            ([f32::MAX; 2], [f32::MIN; 2]),
            |(lo, hi), v| {
                (
                    [lo[0].min(v[0]), lo[1].min(v[1])],
                    [hi[0].max(v[0]), hi[1].max(v[1])],
                )
            },
        );
        let covered: f64 = map.areals.iter().map(|a| a.area_metric as f64).sum();
        let square = (hi[0] - lo[0]) as f64 * (hi[1] - lo[1]) as f64;
        assert!(
            (covered - square).abs() < 1e-6 * square,
            "{covered} of {square}"
        );
        let locator = ArealLocator::new(&map);
        let walkable_at = |c: [f32; 2]| {
            locator
                .areal_at(c[0], c[1])
                .is_some_and(|a| map.areals[a as usize].is_walkable())
        };
        let mut water = 0;
        let mut blocked = 0;
        for face in &msh.faces {
            let v = face
                .vertices
                .map(|i| msh.positions[i as usize].map(f64::from));
            let (u, w) = (
                [0, 1, 2].map(|k| v[1][k] - v[0][k]),
                [0, 1, 2].map(|k| v[2][k] - v[0][k]),
            );
            let n = [
                u[1] * w[2] - u[2] * w[1],
                u[2] * w[0] - u[0] * w[2],
                u[0] * w[1] - u[1] * w[0],
            ];
            let steep = (n[0] * n[0] + n[1] * n[1]) > WALK_SLOPE * WALK_SLOPE * n[2] * n[2];
            let is_water = face.is_water();
            water += usize::from(is_water);
            if is_water {
                // Retail water faces share one Z: the lake's level.
                let level = msh.faces.iter().find(|f| f.is_water()).unwrap().vertices[0];
                let level = f64::from(msh.positions[level as usize][2]);
                assert!(v.iter().all(|p| p[2] == level), "{land}: a flat lake");
            }
            if is_water || steep {
                blocked += 1;
                let c = [0, 1].map(|k| ((v[0][k] + v[1][k] + v[2][k]) / 3.0) as f32);
                assert!(!walkable_at(c), "{land}: face at {c:?}");
                if is_water {
                    let a = locator
                        .areal_at(c[0], c[1])
                        .expect("the areals tile the map");
                    assert!(map.areals[a as usize].is_lake(), "{land}: water at {c:?}");
                }
            }
        }
        assert!(water > 0, "{land}: a lake");
        assert!(blocked < msh.faces.len());

        // A route from the player base to the enemy base.
        let base = |ty| {
            let c = t.clans.iter().find(|c| c.clan_type() == Some(ty)).unwrap();
            [c.base[0] + 8.0, c.base[1] + 8.0]
        };
        let nav = Navigator::new(&map);
        let route = nav
            .plan(
                base(ClanType::Player),
                base(ClanType::Enemy),
                |_| false,
                || 0,
            )
            .unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert!(route.areals.len() > 2);

        // Units and buildings stand on walkable ground.
        for o in t
            .objects
            .iter()
            .filter(|o| o.kind() != Some(ObjectKind::Vegetation))
        {
            let p = [o.position[0] + 1.0, o.position[1] + 1.0];
            assert!(walkable_at(p), "{path}: {:?}", o.position);
        }
    }
}

/// The world at `--scale retail`: ~1,000 placed objects over all missions,
/// 30 maps of ~6,000 vertices, ~5,800 prototype requests.
#[test]
fn retail_scale_sizes() {
    let install = generate(7, Scale::Retail).unwrap();
    let ms = missions(&install);
    let objects: usize = ms.iter().map(|(_, t)| t.objects.len()).sum();
    let mut requests = 0;
    let mut unit_refs = 0;
    for (_, t) in &ms {
        for o in &t.objects {
            match o.resource() {
                ResourceRef::Prototype(_) => requests += 1,
                ResourceRef::UnitDat(dat) => {
                    let legacy = String::from_utf8_lossy(dat).into_owned();
                    let unit = UnitDat::parse(file(&install, &legacy).unwrap(), Mode::Strict);
                    unit_refs += 1;
                    requests += unit.unwrap().parts.len();
                }
            }
        }
    }
    let maps: Vec<LandMsh> = install
        .files()
        .iter()
        .filter(|(p, _)| p.ends_with("Land.msh"))
        .map(|(_, b)| LandMsh::parse(b, Mode::Strict).unwrap())
        .collect();
    let vertices: usize = maps.iter().map(|m| m.positions.len()).sum();
    assert!((850..=1050).contains(&objects), "{objects}");
    assert!(unit_refs * 2 > objects, "{unit_refs} unit references");
    assert!(vertices >= 30 * 5_500, "{vertices}");
    assert!((5_000..=6_700).contains(&requests), "{requests}");
    assert!(
        maps.len() >= 30
            && maps
                .iter()
                .all(|m| (5_500..=6_500).contains(&m.positions.len()))
    );
}

/// On disk, the install passes the validator with no error and no
/// reachability failure, and each mission's land path resolves.
#[test]
fn built_install_validates_and_land_paths_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    iron3d_demo::build(&root, 7, Scale::Demo).unwrap();
    let report = iron3d_formats::validate::validate(&root, &mut |_| {}).unwrap();
    assert_eq!(report.errors, 0, "{report:#?}");
    assert_eq!(report.reachability.failures, 0);
    assert_eq!(report.missions.len(), 2);
    for mission in ["Campaign.00/Mission.01", "Campaign.00/Mission.02"] {
        let info = iron3d_formats::tma::info::mission_info(&root, mission, Mode::Strict).unwrap();
        let land = info.land_resolved.unwrap();
        assert!(land.ends_with("Land.msh"), "{land}");
    }
}

/// `mission.cfg` sound objects and `messages.cfg` voices name entries of the
/// install's `sounds.lib` / `voices.lib`.
#[test]
fn mission_configs_name_sound_entries() {
    let install = demo();
    let has = |archive: &str, name: &str| {
        let bytes = file(install, archive).unwrap_or_else(|| panic!("{archive}"));
        Nres::parse(bytes, Mode::Strict)
            .unwrap()
            .find(name.as_bytes())
            .is_some()
    };
    let mut checked = 0;
    for (path, bytes) in install.files() {
        if path.ends_with("/mission.cfg") {
            let cfg = ObjectConfig::parse(bytes, "mission.cfg").unwrap();
            let ambient = Ambient::read(&cfg);
            assert!(ambient.theme.is_some(), "{path}: no THEME");
            // Day and night lists, no default one.
            let lists = ambient.variations.each_ref().map(Vec::len);
            assert_eq!(lists, [0, 3, 2], "{path}");
            let voices = iron3d_formats::config::ambient::briefing_voices(&cfg);
            assert_eq!(voices.len(), 3, "{path}: the briefing's voices");
            for sound in ambient.sounds().chain(voices.values()) {
                assert!(has(&sound.library, &sound.entry), "{path}: {sound:?}");
                checked += 1;
            }
        } else if path.ends_with("/messages.cfg") {
            let cfg = ObjectConfig::parse(bytes, "messages.cfg").unwrap();
            let messages = iron3d_formats::config::mission_text::messages(&cfg);
            assert_eq!(messages.len(), 3, "{path}");
            for m in messages {
                let voice = m
                    .voice
                    .as_deref()
                    .unwrap_or_else(|| panic!("{path}: {m:?}"));
                assert!(has("voices.lib", voice), "{path}: {voice}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// The names of an NRes archive of the install.
fn archive_names(install: &Install, archive: &str) -> Vec<String> {
    let nres = Nres::parse(file(install, archive).unwrap(), Mode::Strict).unwrap();
    nres.entries()
        .iter()
        .map(|e| String::from_utf8_lossy(e.name()).into_owned())
        .collect()
}

/// Every map has its layer tables; every face names a row of them (layer 2
/// on the flattened ground only), every name resolves to a `Textures.lib`
/// member `NAME.<suffix>` or a `Material.lib` entry, the layer-1 weight is 1
/// wherever no layer-2 face touches a vertex and below 1 on some, and the
/// UVs follow the retail rule u = x / 50, v = (max y - y) / 50.
#[test]
fn maps_carry_layer_tables_textures_and_weights() {
    let install = demo();
    let textures = archive_names(install, "Textures.lib");
    let materials = archive_names(install, "Material.lib");
    let maps: Vec<&String> = install
        .files()
        .keys()
        .filter(|p| p.ends_with("/Land.msh"))
        .collect();
    assert!(maps.len() >= 2);
    for path in maps {
        let dir = path.trim_end_matches("Land.msh");
        let table = |n: u8| {
            let bytes = file(install, &format!("{dir}Land{n}.wea")).unwrap();
            Wear::parse(bytes, Mode::Strict).unwrap()
        };
        let (layer1, layer2) = (table(1), table(2));
        for row in layer1.materials.iter().chain(&layer2.materials) {
            let name = String::from_utf8_lossy(&row.name).into_owned();
            let member = textures.iter().any(|t| t.starts_with(&format!("{name}.")));
            assert!(member || materials.contains(&name), "{name}");
        }
        let land = LandMsh::parse(&install.files()[path], Mode::Strict).unwrap();
        let mut overlaid = vec![false; land.positions.len()];
        let mut layer2_faces = 0;
        for face in &land.faces {
            assert!((face.layer1_texture() as usize) < layer1.materials.len());
            if let Some(t) = face.layer2_texture() {
                assert!((t as usize) < layer2.materials.len());
                layer2_faces += 1;
                face.vertices
                    .iter()
                    .for_each(|&v| overlaid[v as usize] = true);
            }
        }
        assert!(
            layer2_faces > 0 && layer2_faces < land.faces.len(),
            "{path}"
        );
        let mut blended = 0;
        for (i, &over) in overlaid.iter().enumerate() {
            let w = land.layer1_weight(i);
            assert!((0.0..=1.0).contains(&w));
            assert!(over || w == 1.0, "{path}: vertex {i} weight {w}");
            blended += usize::from(w < 1.0);
        }
        assert!(blended > 0, "{path}");
        let used: BTreeSet<u8> = land.faces.iter().map(|f| f.layer1_texture()).collect();
        assert!(used.len() >= 3, "{path}: layer-1 textures {used:?}");
        let (lo, hi) = land.bounds().unwrap();
        for i in [0, land.positions.len() / 2, land.positions.len() - 1] {
            let p = land.positions[i];
            let [u, v] = land.layer1_uv(i).unwrap();
            assert!((u - (p[0] - lo[0]) / 50.0).abs() < 0.01, "{path}: u of {i}");
            assert!((v - (hi[1] - p[1]) / 50.0).abs() < 0.01, "{path}: v of {i}");
            assert_eq!(land.layer2_uv(i), Some([u, v]));
        }
    }
}

#[test]
fn rebuilding_over_an_install_never_leaves_a_moment_without_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    iron3d_demo::build(&dir, 1, Scale::Demo).unwrap();
    let registry = dir.join("objects.rlb");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // A reader polling the install the whole time the rebuilds run.
    let reader = {
        let (registry, stop) = (registry.clone(), stop.clone());
        std::thread::spawn(move || {
            let (mut looks, mut missing) = (0u64, 0u64);
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                looks += 1;
                missing += u64::from(!registry.is_file());
            }
            (looks, missing)
        })
    };
    for seed in [2, 3, 1] {
        iron3d_demo::build(&dir, seed, Scale::Demo).unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let (looks, missing) = reader.join().unwrap();
    assert!(looks > 0);
    assert_eq!(
        missing, 0,
        "the install was missing in {missing} of {looks} looks"
    );
    // The last build is the one in place, and nothing is left beside it.
    let want = iron3d_demo::generate(1, Scale::Demo).unwrap();
    for (rel, bytes) in want.files() {
        assert_eq!(&std::fs::read(dir.join(rel)).unwrap(), bytes, "{rel}");
    }
    let siblings: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(siblings, vec![std::ffi::OsString::from("game")]);
}

#[test]
fn the_arena_holds_only_its_pieces_on_flat_walkable_ground() {
    use iron3d_demo::{ARENA_MISSION, Arena, Side, What, generate_arena};
    use iron3d_formats::config::builddat::BuildCategory;
    let arena = Arena::default()
        .with(What::Walker, Side::Player, [0.0, 0.0])
        .with(What::Hero, Side::Player, [10.0, 0.0])
        .with(
            What::Building(BuildCategory::Generator),
            Side::Neutral,
            [0.0, 40.0],
        )
        .with(What::Walker, Side::Enemy, [-50.0, 20.0]);
    let (install, ids) = generate_arena(&arena).expect("the arena");
    let list = missions(&install);
    assert_eq!(list.len(), 1, "one mission");
    let (path, tma) = &list[0];
    assert_eq!(**path, format!("MISSIONS/{ARENA_MISSION}/data.tma"));
    assert_eq!(tma.objects.len(), 4);
    assert_eq!(ids, tma.original_ids());
    let clan_of = |o: &tma::PlacedObject| o.identity;
    assert_eq!(
        tma.objects.iter().map(clan_of).collect::<Vec<_>>(),
        [1, 1, 3, 2]
    );
    assert_eq!(tma.objects[1].instance_name, b"Hero");
    assert_eq!(tma.objects[2].kind(), Some(ObjectKind::Building));
    // Every piece stands at its offset from the centre, at one height.
    let z = tma.objects[0].position[2];
    let centre = [tma.objects[0].position[0], tma.objects[0].position[1]];
    for (o, piece) in tma.objects.iter().zip(&arena.pieces) {
        assert_eq!(
            o.position,
            [centre[0] + piece.at[0], centre[1] + piece.at[1], z]
        );
    }
    // The map is flat and walkable everywhere.
    let land =
        LandMsh::parse(file(&install, "MAPS/Arena/Land.msh").unwrap(), Mode::Strict).unwrap();
    let (lo, hi) = land.bounds().expect("the map has ground");
    assert_eq!(lo[2], hi[2], "one height");
    let map = LandMap::parse(file(&install, "MAPS/Arena/Land.map").unwrap(), Mode::Strict).unwrap();
    assert!(
        map.areals.iter().all(|a| a.is_walkable()),
        "every areal walkable"
    );
    // Same pieces, same bytes.
    let (again, _) = generate_arena(&arena).unwrap();
    assert_eq!(install.files(), again.files());
}
