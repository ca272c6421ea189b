//! A small hand-built install for the graph and validate tests (and the
//! validate benchmark), written with the crate's own writers, with one knob
//! per broken edge.
//!
//! Clean content: mission `M1` places a unit `UNITS\TANK.DAT` twice (parts
//! `tank_body` -> child `tank_gun`), the direct keys `tree` (WEAR found by the
//! model's stem), `fort` (inherits `tank_body`, adds a BASE) and `sun_01`
//! (no geometry, one effect). `ruin` is in the registry but no mission uses it.

#![allow(dead_code)] // each test binary uses a different part

#[path = "../msh_support/mod.rs"]
mod msh_support;

use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::fxid::{Command, FXID_TYPE_ID, FxHeader, Fxid};
use iron3d_formats::graph::{MESH_TYPE_ID, TEXM_TYPE_ID, Totals};
use iron3d_formats::mat0::{MAT0_TYPE_ID, Mat0, Phase};
use iron3d_formats::msh::Msh;
use iron3d_formats::registry::{ObjectRef, Registry};
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};
use iron3d_formats::tma::{ObjectKind, PlacedObject, Tma};
use iron3d_formats::unitdat::{CLASS_ROBOT, PartClass, PartSpec, UnitDat};
use iron3d_formats::wear::{WEAR_TYPE_ID, Wear, WearRow};
use std::path::Path;

/// One knob per edge of the graph.
#[derive(Debug, Clone, Copy, Default)]
pub struct Knobs {
    /// The unit DAT file is absent.
    pub no_unit_dat: bool,
    /// The unit gets a third part whose key is not in the registry.
    pub unknown_component: bool,
    /// `tank.msh` is not in `static.rlb`.
    pub no_tank_mesh: bool,
    /// `tank.wea` row 1 names a MAT0 that `Material.lib` lacks.
    pub unknown_material: bool,
    /// MAT0 `Hull` phase 0 names a texture `Textures.lib` lacks.
    pub missing_texture: bool,
    /// `tank.wea`'s lightmap row names a texture `LightMap.lib` lacks.
    pub missing_lightmap: bool,
    /// The unreachable registry entry `ruin` names a missing model.
    pub broken_unreachable: bool,
}

/// Totals of the clean install's mission.
pub const CLEAN: Totals = Totals {
    objects: 5,
    unit_refs: 2,
    direct_keys: 3,
    components: 4,
    prototypes: 7,
    non_geometric: 1,
    meshes: 6,
    wears: 6,
    material_slots: 12,
    textures: 14,
    lightmaps: 3,
    effects: 3,
    failures: 0,
};

fn entry<'p>(name: &str, type_id: u32, attr: (u32, u32), payload: &'p [u8]) -> NewEntry<'p> {
    NewEntry {
        name: name.as_bytes().to_vec(),
        type_id,
        attr1: attr.0,
        attr2: attr.1,
        attr3: 0,
        payload,
    }
}

/// An entry to pack: name, type id, (attr1, attr2), payload.
type Item<'a> = (&'a str, u32, (u32, u32), Vec<u8>);

fn archive(items: &[Item]) -> Vec<u8> {
    let entries: Vec<NewEntry> = items
        .iter()
        .map(|(n, t, a, p)| entry(n, *t, *a, p))
        .collect();
    build(&entries).unwrap()
}

fn texture() -> Vec<u8> {
    let image = Rgba8Image {
        width: 2,
        height: 2,
        pixels: vec![0x80; 16],
    };
    Texm::from_rgba(&image, PixelFormat::Argb8888, Mips::None, None)
        .unwrap()
        .to_bytes()
        .unwrap()
}

fn material(textures: &[&str]) -> (u32, u32, Vec<u8>) {
    let mut m = Mat0::new(3, 0);
    for t in textures {
        m.phases.push(Phase::new([0; 18], t.as_bytes()).unwrap());
    }
    let (a1, a2) = m.directory_attrs();
    (a1, a2, m.to_bytes().unwrap())
}

fn wear(rows: &[&str], lightmaps: Option<&[&str]>) -> Vec<u8> {
    let row = |(i, n): (usize, &&str)| WearRow::new(i.to_string(), n.as_bytes());
    Wear::new(
        rows.iter().enumerate().map(row).collect(),
        lightmaps.map(|l| l.iter().enumerate().map(row).collect()),
    )
    .to_bytes()
    .unwrap()
}

pub fn r(archive: &str, resource: &str) -> ObjectRef {
    ObjectRef::new(archive.as_bytes(), resource.as_bytes()).unwrap()
}

fn part(key: &str, description: &str, class: PartClass, children: Vec<PartSpec>) -> PartSpec {
    PartSpec {
        key: key.into(),
        description: description.into(),
        class,
        attachment: if children.is_empty() { 0 } else { -1 },
        children,
    }
}

/// Writes the install into `dir`.
pub fn write_install(dir: &Path, k: Knobs) {
    let w = |rel: &str, bytes: Vec<u8>| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    let model = Msh::build(msh_support::two_node_parts())
        .unwrap()
        .to_bytes()
        .unwrap();
    let hull = material(&[if k.missing_texture { "NOTEX" } else { "HULL01" }, ""]);
    let gun = material(&["GUN01"]);
    let leaf = material(&["LEAF01", "LEAF02"]);
    let default = material(&[]);
    w(
        "Material.lib",
        archive(&[
            ("DEFAULT", MAT0_TYPE_ID, (default.0, default.1), default.2),
            ("Gun", MAT0_TYPE_ID, (gun.0, gun.1), gun.2),
            ("Hull", MAT0_TYPE_ID, (hull.0, hull.1), hull.2),
            ("Leaf", MAT0_TYPE_ID, (leaf.0, leaf.1), leaf.2),
        ]),
    );
    let tex = |n: &'static str| (n, TEXM_TYPE_ID, (0, 0), texture());
    w(
        "TEXTURES.LIB",
        archive(&[tex("GUN01"), tex("HULL01"), tex("LEAF01"), tex("LEAF02")]),
    );
    w("LightMap.lib", archive(&[tex("LM_TANK")]));
    let second = if k.unknown_material {
        "NoSuchMat"
    } else {
        "Gun"
    };
    let lightmap = if k.missing_lightmap {
        "LM_NONE"
    } else {
        "LM_TANK"
    };
    let mut statics = vec![
        ("gun.msh", MESH_TYPE_ID, (0, 0), model.clone()),
        ("gun.wea", WEAR_TYPE_ID, (0, 0), wear(&["Gun", "Gun"], None)),
        ("tree.msh", MESH_TYPE_ID, (0, 0), model.clone()),
        (
            "tree.wea",
            WEAR_TYPE_ID,
            (0, 0),
            wear(&["Leaf", "Leaf"], None),
        ),
        ("fort.bas", 0, (0, 0), vec![0; 8]),
        (
            "tank.wea",
            WEAR_TYPE_ID,
            (0, 0),
            wear(&["Hull", second], Some(&[lightmap])),
        ),
    ];
    if !k.no_tank_mesh {
        statics.push(("tank.msh", MESH_TYPE_ID, (0, 0), model.clone()));
    }
    w("static.rlb", archive(&statics));
    let mut fx = Fxid {
        header: FxHeader::default(),
        commands: vec![Command::new(1, true).unwrap()],
    };
    fx.header.command_count = 1;
    w(
        "effects.rlb",
        archive(&[("shot.fx", FXID_TYPE_ID, (0, 0), fx.to_bytes().unwrap())]),
    );
    let ruin = if k.broken_unreachable {
        "ruin.msh"
    } else {
        "tree.msh"
    };
    w(
        "objects.rlb",
        Registry::build(&[
            (
                b"tank_body".to_vec(),
                vec![r("static.rlb", "tank.msh"), r("static.rlb", "tank.wea")],
            ),
            (
                b"tank_gun".to_vec(),
                vec![
                    r("static.rlb", "gun.msh"),
                    r("static.rlb", "gun.wea"),
                    r("effects.rlb", "shot.fx"),
                ],
            ),
            (b"tree".to_vec(), vec![r("static.rlb", "tree.msh")]),
            (
                b"fort".to_vec(),
                vec![r("objects.rlb", "tank_body"), r("static.rlb", "fort.bas")],
            ),
            (b"sun_01".to_vec(), vec![r("effects.rlb", "shot.fx")]),
            (b"ruin".to_vec(), vec![r("static.rlb", ruin)]),
        ])
        .unwrap(),
    );
    if !k.no_unit_dat {
        let gun_part = part("tank_gun", "Gun", PartClass::Turret, vec![]);
        let mut roots = vec![part(
            "tank_body",
            "Hull",
            PartClass::Chassis,
            vec![gun_part],
        )];
        if k.unknown_component {
            roots.push(part("no_such_key", "Ghost", PartClass::Armour, vec![]));
        }
        let unit = UnitDat::build(CLASS_ROBOT, &roots).unwrap();
        w("UNITS/TANK.DAT", unit.to_bytes());
    }
    let mut tma = Tma::new(b"MISSIONS\\M1\\Land".to_vec());
    let mut object = |kind, resource: &str, name: &str| {
        let mut o = PlacedObject::new(kind, resource.as_bytes(), [0.0; 3]);
        o.instance_name = name.as_bytes().to_vec();
        tma.objects.push(o);
    };
    object(ObjectKind::Unit, "UNITS\\TANK.DAT", "tank1");
    object(ObjectKind::Vegetation, "tree", "Tree");
    object(ObjectKind::Building, "fort", "");
    object(ObjectKind::Building, "sun_01", "sun");
    object(ObjectKind::Unit, "units\\tank.dat", "tank2");
    w("MISSIONS/M1/data.tma", tma.to_bytes().unwrap());
}

/// A fresh install in a temporary directory.
pub fn install(k: Knobs) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_install(dir.path(), k);
    dir
}
