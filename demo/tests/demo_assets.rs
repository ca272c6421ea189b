//! The demo generator's assets: deterministic bytes, every archive
//! strict and lossless, every prototype chain (registry -> MSH/WEAR -> MAT0
//! -> Texm, lightmaps, effects -> their resources) resolving, and every
//! format family of a retail install present.

use iron3d_demo::{Install, Scale, generate};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{Nres, NresEditor};
use iron3d_formats::archive::open::{Archive, with_archive};
use iron3d_formats::archive::rsli::{Method, Rsli, RsliEditor};
use iron3d_formats::fxid::{FXID_TYPE_ID, Fxid};
use iron3d_formats::mat0::{MAT0_TYPE_ID, Mat0, Resolution, resolve_material};
use iron3d_formats::msh::Msh;
use iron3d_formats::proto::base::Base;
use iron3d_formats::proto::ctld::{CLASS_ENGINE, CLASS_GUN, CLASS_TURRET, Ctld, GROUP_AT_RANGE};
use iron3d_formats::proto::ctpt::Ctpt;
use iron3d_formats::proto::expl::Expl;
use iron3d_formats::proto::ndpr::Ndpr;
use iron3d_formats::proto::tfnt::Tfnt;
use iron3d_formats::registry::{EffectiveRef, Geometry, Registry};
use iron3d_formats::sound::{FORMAT_MS_ADPCM, FORMAT_PCM, Wave};
use iron3d_formats::texm::{PixelFormat, Texm};
use iron3d_formats::wear::{WEAR_TYPE_ID, Wear};
use std::collections::BTreeSet;
use std::sync::OnceLock;

const MESH: u32 = u32::from_le_bytes(*b"MESH");
const TEXM: u32 = u32::from_le_bytes(*b"Texm");

/// The archives the asset generator writes.
const NRES_FILES: [&str; 11] = [
    "objects.rlb",
    "system.rlb",
    "static.rlb",
    "fortif.rlb",
    "effects.rlb",
    "Material.lib",
    "Textures.lib",
    "LightMap.lib",
    "Palettes.lib",
    "sounds.lib",
    "voices.lib",
];
const RSLI_FILES: [&str; 2] = ["gamefont.rlb", "sprites.lib"];

fn demo() -> &'static Install {
    static DEMO: OnceLock<Install> = OnceLock::new();
    DEMO.get_or_init(|| generate(7, Scale::Demo).expect("demo install"))
}

fn file<'a>(install: &'a Install, name: &str) -> &'a [u8] {
    install
        .files()
        .get(name)
        .unwrap_or_else(|| panic!("{name} missing"))
}

fn nres<'a>(install: &'a Install, name: &str) -> Nres<'a> {
    Nres::parse(file(install, name), Mode::Strict).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// An entry of an NRes or RsLi archive by name, decoded.
fn lookup(install: &Install, archive: &str, name: &[u8]) -> Option<Vec<u8>> {
    let path = install
        .files()
        .keys()
        .find(|k| k.eq_ignore_ascii_case(archive))?;
    let data = file(install, path);
    match Archive::parse(data, Mode::Strict, path).ok()? {
        Archive::Nres(a) => a.find(name).map(|i| a.payload(i).to_vec()),
        Archive::Rsli(a) => a.find(name).and_then(|i| a.decode(i).ok()),
    }
}

#[test]
fn one_seed_gives_identical_bytes_and_two_seeds_differ() {
    let again = generate(7, Scale::Demo).unwrap();
    assert_eq!(demo().files(), again.files());
    let other = generate(8, Scale::Demo).unwrap();
    assert_ne!(demo().files(), other.files());
    for name in ["Textures.lib", "sounds.lib", "static.rlb", "gamefont.rlb"] {
        assert_ne!(file(demo(), name), file(&other, name), "{name}");
    }
}

#[test]
fn every_archive_parses_strictly_and_rewrites_losslessly() {
    let install = demo();
    for name in NRES_FILES {
        let data = file(install, name);
        let a = nres(install, name);
        assert_eq!(NresEditor::new(&a).to_bytes().unwrap(), data, "{name}");
        for (i, e) in a.entries().iter().enumerate() {
            let p = a.payload(i);
            let what = format!("{name}:{}", String::from_utf8_lossy(e.name()));
            let back = match e.type_id {
                MESH => Msh::load(p, Mode::Strict).unwrap().to_bytes().unwrap(),
                WEAR_TYPE_ID => Wear::parse(p, Mode::Strict).unwrap().to_bytes().unwrap(),
                MAT0_TYPE_ID => Mat0::parse(p, e.attr1, e.attr2)
                    .unwrap()
                    .to_bytes()
                    .unwrap(),
                FXID_TYPE_ID => Fxid::parse(p).unwrap().to_bytes().unwrap(),
                _ if p.starts_with(b"Texm") => Texm::parse(p).unwrap().to_bytes().unwrap(),
                _ if p.starts_with(b"RIFF") => Wave::parse(p).unwrap().to_bytes().unwrap(),
                _ if name == "fortif.rlb" => Base::parse(p).unwrap().to_bytes().unwrap(),
                _ => p.to_vec(), // registry payloads, raw palettes, the empty sound
            };
            assert_eq!(back, p, "{what}");
        }
    }
    for name in RSLI_FILES {
        let data = file(install, name);
        let a = Rsli::parse(data, Mode::Strict).unwrap();
        assert!(a.quirks().is_empty(), "{name}");
        assert_eq!(
            RsliEditor::new(&a).unwrap().to_bytes().unwrap(),
            data,
            "{name}"
        );
        for i in 0..a.len() {
            let p = a.decode(i).unwrap();
            let back = if p.starts_with(b"Tfnt") {
                let font = Tfnt::parse(&p).unwrap();
                Texm::parse(&font.texm).unwrap();
                font.to_bytes().unwrap()
            } else {
                Texm::parse(&p).unwrap().to_bytes().unwrap()
            };
            assert_eq!(back, p, "{name} #{i}");
        }
    }
}

/// Resolves a prototype's whole chain; returns the number of textures
/// reached.
fn check_chain(install: &Install, registry: &Registry, key: &[u8]) -> usize {
    let who = String::from_utf8_lossy(key).into_owned();
    let resolved = registry.resolve(key).unwrap();
    let mut textures = 0;
    for r in resolved.refs.iter().filter(|r| r.has_extension("bas")) {
        let base = lookup(install, &String::from_utf8_lossy(&r.archive), &r.resource);
        Base::parse(&base.unwrap_or_else(|| panic!("{who}: BASE"))).unwrap();
    }
    let engine = key.starts_with(b"I_ENG_L_");
    if let Some(r) = resolved.controller() {
        let ctl = lookup(install, &String::from_utf8_lossy(&r.archive), &r.resource);
        let ctl = Ctld::parse(&ctl.unwrap_or_else(|| panic!("{who}: controller"))).unwrap();
        let count = |class: u32| {
            ctl.components
                .iter()
                .filter(|k| k.type_id() == class)
                .count()
        };
        if key.starts_with(b"GN_") {
            // A gun: one class-2 gun with a barrel whose round is a
            // prototype of the registry.
            let gun = ctl.components.iter().find(|k| k.type_id() == CLASS_GUN);
            let gun = gun.unwrap_or_else(|| panic!("{who}: a gun"));
            assert_eq!(gun.entries.len(), 1, "{who}: one barrel");
            assert!(ctl.channel(gun.entries[0] as usize).is_some(), "{who}");
            assert!(
                registry.resolve(gun.emits().name.name()).is_ok(),
                "{who}: its round"
            );
        } else if key.starts_with(b"AM_") {
            // A clip: its gun's record (the same round and barrel), its own
            // 60 shells and a weight of 20 kg.
            assert_eq!(ctl.components.len(), 1, "{who}: one record");
            let clip = &ctl.components[0];
            assert_eq!(clip.type_id(), CLASS_GUN, "{who}");
            assert_eq!(clip.gun().magazine, 60.0, "{who}");
            assert_eq!(
                (clip.entries.as_slice(), clip.mass()),
                (&[0][..], 20.0),
                "{who}"
            );
            assert!(registry.resolve(clip.emits().name.name()).is_ok(), "{who}");
        } else if key.starts_with(b"TR_") {
            // A turret: a yaw and a pitch channel.
            let turret = ctl.components.iter().find(|k| k.type_id() == CLASS_TURRET);
            let turret = turret.unwrap_or_else(|| panic!("{who}: a turret"));
            assert!(
                turret
                    .entries
                    .iter()
                    .all(|&c| ctl.channel(c as usize).is_some())
            );
            assert_eq!(turret.entries.len(), 2, "{who}");
        } else if key.starts_with(b"RD_") {
            // A round flies over its range and names the explosion that
            // ends it there.
            let control = ctl.control();
            assert!(control.top_speed[1] > 0.0 && control.range > 0.0, "{who}");
            for action in ctl.group_of(GROUP_AT_RANGE) {
                let r = &action.resource;
                if !r.name.name().is_empty() {
                    let exp = lookup(install, &r.archive.text(), r.name.name());
                    Expl::parse(&exp.unwrap_or_else(|| panic!("{who}: its .exp"))).unwrap();
                }
            }
        } else {
            // A chassis moves and declares its engine slot; an engine is
            // the one class-5 component it fits into that slot.
            assert_eq!(count(CLASS_ENGINE), 1, "{who}: one engine");
            assert!(
                engine || ctl.control().top_speed[1] > 0.0,
                "{who}: a controller that moves"
            );
        }
    }
    for r in resolved.refs.iter().filter(|r| r.has_extension("cpt")) {
        let cpt = lookup(install, &String::from_utf8_lossy(&r.archive), &r.resource);
        let cpt = Ctpt::parse(&cpt.unwrap_or_else(|| panic!("{who}: control points"))).unwrap();
        assert!(
            cpt.points.iter().all(|p| p.node >= 0),
            "{who}: feet on nodes"
        );
    }
    for r in resolved.refs.iter().filter(|r| r.has_extension("ndp")) {
        let ndp = lookup(install, &String::from_utf8_lossy(&r.archive), &r.resource);
        let ndp = Ndpr::parse(&ndp.unwrap_or_else(|| panic!("{who}: node table"))).unwrap();
        assert!(ndp.nodes.iter().all(|n| n.density >= 0.0), "{who}");
        // A named explosion without an archive is in the table's own.
        for e in ndp.nodes.iter().map(|n| &n.explosion) {
            if !e.name.name().is_empty() {
                let archive = match e.archive.text() {
                    a if a.is_empty() => String::from_utf8_lossy(&r.archive).into_owned(),
                    a => a,
                };
                let exp = lookup(install, &archive, e.name.name());
                Expl::parse(&exp.unwrap_or_else(|| panic!("{who}: node .exp"))).unwrap();
            }
        }
    }
    let effects = |r: &&EffectiveRef| {
        ["msh", "wea", "bas", "ctl", "ndp", "cpt"]
            .iter()
            .all(|e| !r.has_extension(e))
    };
    for r in resolved.refs.iter().filter(effects) {
        let fx = lookup(install, &String::from_utf8_lossy(&r.archive), &r.resource)
            .unwrap_or_else(|| panic!("{who}: effect"));
        for (i, c) in Fxid::parse(&fx).unwrap().commands.iter().enumerate() {
            if let Some(res) = c.resource() {
                let (a, n) = (res.archive.text(), res.name.name().to_vec());
                assert!(
                    lookup(install, &a, &n).is_some(),
                    "{who}: command {i} -> {a}"
                );
            }
        }
    }
    let Geometry::Mesh(mesh) = resolved.geometry() else {
        assert!(
            key == b"SUN" || engine,
            "only the sun and the engines are non-geometric"
        );
        return 0;
    };
    let archive = String::from_utf8_lossy(&mesh.archive).into_owned();
    let msh = lookup(install, &archive, &mesh.resource).unwrap_or_else(|| panic!("{who}: MSH"));
    let msh = Msh::load(&msh, Mode::Strict).unwrap();
    let wear = resolved.wear().unwrap_or_else(|| panic!("{who}: no WEAR"));
    let wear = lookup(install, &archive, &wear.resource).unwrap_or_else(|| panic!("{who}: WEAR"));
    let wear = Wear::parse(&wear, Mode::Strict).unwrap();
    let materials = nres(install, "Material.lib");
    let lightmaps = nres(install, "LightMap.lib");
    for b in &msh.batches {
        let m = resolve_material(&wear, b.material_index as usize, materials.len(), |n| {
            materials.find(n)
        })
        .unwrap();
        assert_eq!(m.via, Resolution::Named, "{who}: row {}", b.material_index);
        if b.lightmap_index != 0xFF {
            let row = wear.lightmap(b.lightmap_index).unwrap();
            assert!(lightmaps.find(row).is_some(), "{who}: lightmap");
        }
    }
    for row in &wear.materials {
        let i = materials.find(&row.name).unwrap();
        let e = &materials.entries()[i];
        let m = Mat0::parse(materials.payload(i), e.attr1, e.attr2).unwrap();
        for p in m.phases.iter().filter(|p| !p.texture().is_empty()) {
            let t = lookup(install, "Textures.lib", p.texture()).unwrap_or_else(|| {
                panic!("{who}: texture {}", String::from_utf8_lossy(p.texture()))
            });
            Texm::parse(&t).unwrap();
            textures += 1;
        }
    }
    textures
}

#[test]
fn every_prototype_chain_resolves() {
    let install = demo();
    let registry = Registry::parse(file(install, "objects.rlb"), Mode::Strict).unwrap();
    let keys: Vec<Vec<u8>> = registry.prototypes.iter().map(|p| p.key.clone()).collect();
    for key in [
        "CH_WALKER",
        "TR_LIGHT",
        "TR_HEAVY",
        "GN_LASER",
        "GN_CANNON",
        "AM_SHELL",
        "B_FACTORY",
        "B_TOWER",
        "B_FORT",
        "T_PINE",
        "T_OAK",
        "R_ROCK1",
        "R_ROCK2",
        "SUN",
    ] {
        assert!(registry.find(key.as_bytes()).is_some(), "{key}");
    }
    let textures: usize = keys
        .iter()
        .map(|k| check_chain(install, &registry, k))
        .sum();
    assert!(textures > 50, "{textures}");
    let fort = registry.resolve(b"B_FORT").unwrap();
    assert_eq!(fort.chain, [b"B_FORT".to_vec(), b"B_TOWER".to_vec()]);
    assert_eq!(fort.mesh().unwrap().origin, b"B_TOWER");
    assert_eq!(fort.base().unwrap().origin, b"B_FORT");
}

#[test]
fn every_format_family_is_present() {
    let install = demo();
    // Texm formats, Page atlases and mip chains over every texture holder.
    let mut formats = BTreeSet::new();
    let (mut pages, mut mipped) = (0, 0);
    let mut note = |t: &Texm| {
        formats.insert(t.format.code());
        pages += t.page.is_some() as usize;
        mipped += (t.levels.len() > 1) as usize;
    };
    for name in ["Textures.lib", "LightMap.lib", "Palettes.lib"] {
        let a = nres(install, name);
        for i in 0..a.len() {
            if a.payload(i).starts_with(b"Texm") {
                assert!(name != "Palettes.lib" || a.entries()[i].type_id != TEXM);
                note(&Texm::parse(a.payload(i)).unwrap());
            }
        }
    }
    let mut methods = BTreeSet::new();
    for name in RSLI_FILES {
        let a = Rsli::parse(file(install, name), Mode::Strict).unwrap();
        for i in 0..a.len() {
            methods.insert(a.method(i).bits());
            let p = a.decode(i).unwrap();
            if p.starts_with(b"Texm") {
                note(&Texm::parse(&p).unwrap());
            }
        }
    }
    for f in PixelFormat::ALL {
        assert!(formats.contains(&f.code()), "Texm format {}", f.code());
    }
    assert!(pages >= 1 && mipped >= 10, "{pages} {mipped}");
    assert_eq!(
        methods,
        BTreeSet::from([Method::Lzss.bits(), Method::Deflate.bits()])
    );

    // FXID: every opcode, and the two families of resource.
    let fx = nres(install, "effects.rlb");
    let (mut opcodes, mut families) = (BTreeSet::new(), BTreeSet::new());
    for i in 0..fx.len() {
        for c in Fxid::parse(fx.payload(i)).unwrap().commands {
            opcodes.insert(c.opcode());
            if let Some(r) = c.resource() {
                let (a, n) = (
                    r.archive.text().to_ascii_lowercase(),
                    r.name.text().to_ascii_lowercase(),
                );
                families.insert(match () {
                    _ if a == "sounds.lib" => "sound",
                    _ if a == "material.lib" => "material",
                    _ if a == "sprites.lib" => "sprite",
                    _ if n.ends_with(".msh") => "model",
                    _ => "other",
                });
            }
        }
    }
    assert_eq!(opcodes, (1..=10).collect());
    // As retail: sounds name `sounds.lib`, every drawing emitter a material.
    assert_eq!(families, BTreeSet::from(["material", "sound"]));

    // Sounds: PCM, MS ADPCM, one empty entry; 22 050 Hz everywhere.
    let mut kinds = BTreeSet::new();
    let mut empty = 0;
    for name in ["sounds.lib", "voices.lib"] {
        let a = nres(install, name);
        for i in 0..a.len() {
            if a.payload(i).is_empty() {
                empty += 1;
                continue;
            }
            let format = Wave::parse(a.payload(i)).unwrap().format().unwrap();
            assert_eq!(format.sample_rate, 22_050);
            kinds.insert(format.format_tag);
        }
    }
    assert_eq!(kinds, BTreeSet::from([FORMAT_PCM, FORMAT_MS_ADPCM]));
    assert_eq!(empty, 1);

    // MAT0 animation modes 0..3; a WEAR with LIGHTMAPS; animated, multi-LOD models.
    let mats = nres(install, "Material.lib");
    let mut modes = BTreeSet::new();
    for (i, e) in mats.entries().iter().enumerate() {
        let m = Mat0::parse(mats.payload(i), e.attr1, e.attr2).unwrap();
        modes.extend(m.animations.iter().map(|b| b.mode_bits()));
    }
    assert_eq!(modes, BTreeSet::from([0, 1, 2, 3]));
    let statics = nres(install, "static.rlb");
    let wear_i = statics.find(b"b_factory.wea").unwrap();
    assert!(
        Wear::parse(statics.payload(wear_i), Mode::Strict)
            .unwrap()
            .lightmaps
            .is_some()
    );
    let walker = nres(install, "system.rlb");
    let msh = Msh::load(
        walker.payload(walker.find(b"ch_walker.msh").unwrap()),
        Mode::Strict,
    )
    .unwrap();
    assert!(msh.nodes.len() >= 5 && msh.frame_count > 0 && !msh.frame_map.is_empty());
    assert!(msh.triangles.is_some());
    assert!(
        msh.nodes
            .node38()
            .iter()
            .all(|n| n.slot(0, 0).is_some() && n.slot(0, 1).is_some())
    );
    let poses = msh.sampled_hierarchy(2.0).unwrap();
    assert_ne!(poses, msh.fallback_hierarchy().unwrap());
}

/// Verifies every asset archive of an install built on disk as
/// `archive verify --strict` does, then walks every mission with the graph
/// validator; returns the summed totals after checking zero failures
/// (reachable and unreachable prototypes alike).
fn validate(scale: Scale) -> iron3d_formats::graph::Totals {
    use iron3d_formats::gamedir::GameDir;
    use iron3d_formats::graph::{Graph, Totals};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("Demo");
    iron3d_demo::build(&root, 7, scale).unwrap();
    for name in NRES_FILES.iter().chain(&RSLI_FILES) {
        let file = root.join(name);
        with_archive(&file, Mode::Strict, |a| a.decode_all())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let game = GameDir::open(&root).unwrap();
    let source = iron3d_formats::source::Source::new(&root, &[]).unwrap();
    let graph = Graph::new(&source);
    let mut totals = Totals::default();
    for mission in game.missions().unwrap() {
        let walked = graph.mission(&mission);
        assert!(walked.failures.is_empty(), "{:?}", walked.failures);
        totals += walked.totals;
    }
    let unreachable = graph.unreachable();
    assert!(
        unreachable.failures.is_empty(),
        "{:?}",
        unreachable.failures
    );
    assert_eq!(unreachable.non_geometric, ["SUN"]);
    totals
}

#[test]
fn the_graph_validator_finds_no_failure_in_the_demo() {
    let totals = validate(Scale::Demo);
    assert_eq!(totals.failures, 0);
    assert!(totals.material_slots > 0 && totals.textures > 0 && totals.lightmaps > 0);
    assert!(totals.effects > 0);
}
