//! Mission-side readers: TMA parse of a 900-object mission (the size of a
//! whole retail part: 864 / 885 objects), against a plain copy of the same
//! bytes; the TMA writer; prototype resolution with and without the cache.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_formats::archive::Mode;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::registry::Registry;
use iron3d_formats::tma::{self, *};

/// 900 objects with the retail property mix: every object has
/// `Invulnerability` and `Life state`, every fourth is a unit DAT reference
/// with the eleven unit properties.
fn mission_900() -> Vec<u8> {
    let mut t = Tma::new("MISSIONS\\Bench\\Land");
    for id in 0..20 {
        t.paths.push(MissionPath {
            id,
            points: (0..8).map(|i| [i as f32, 0.0, id as f32]).collect(),
        });
    }
    for c in 0..4 {
        let mut clan = Clan::new(
            format!("Clan{c}"),
            if c == 0 {
                ClanType::Nature
            } else {
                ClanType::Enemy
            },
        );
        clan.relations = (0..4)
            .map(|o| ClanRelation {
                clan: format!("Clan{o}").into_bytes(),
                value: (o % 2) as u32,
            })
            .collect();
        t.clans.push(clan);
    }
    const UNIT: [&str; 11] = [
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
    ];
    for i in 0..900 {
        let unit = i % 4 == 0;
        let (kind, name) = if unit {
            (
                ObjectKind::Unit,
                format!("UNITS\\ROBOTS\\robot{}.dat", i % 37),
            )
        } else {
            (ObjectKind::Building, format!("b_proto_{}", i % 151))
        };
        let mut o = PlacedObject::new(kind, name, [i as f32, 1.0, 2.0]);
        o.instance_name = format!("inst{i}").into_bytes();
        o.properties.push(Property::int("Invulnerability", 0, 0, 1));
        o.properties
            .push(Property::float("Life state", 1.0, 0.0, 1.0));
        if unit {
            for (k, p) in UNIT.iter().enumerate() {
                o.properties.push(Property::int(*p, k as i32, 0, 100));
            }
        }
        t.objects.push(o);
    }
    t.description = Description::from_text("A benchmark mission");
    t.to_bytes().expect("bench mission")
}

fn tma_benches(c: &mut Criterion) {
    let data = mission_900();
    let mut g = c.benchmark_group("tma_900_objects");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("memcpy_reference", |b| b.iter(|| black_box(data.clone())));
    g.bench_function("parse_strict", |b| {
        b.iter(|| tma::parse(black_box(&data), Mode::Strict).expect("parse"))
    });
    let parsed = tma::parse(&data, Mode::Strict).expect("parse");
    g.bench_function("write", |b| {
        b.iter(|| black_box(&parsed).to_bytes().expect("write"))
    });
    g.finish();
}

fn registry_benches(c: &mut Criterion) {
    let r = |a: &str, b: &str| ResourceRef::new(a.as_bytes(), b.as_bytes()).expect("ref");
    let mut protos = Vec::new();
    for i in 0..600 {
        let mut refs = vec![
            r("static.rlb", &format!("m{i}.msh")),
            r("static.rlb", &format!("m{i}.wea")),
        ];
        if i % 10 == 9 {
            refs = vec![
                r("objects.rlb", &format!("p{}", i - 1)),
                r("static.rlb", &format!("b{i}.bas")),
            ];
        }
        protos.push((format!("p{i}").into_bytes(), refs));
    }
    let data = Registry::build(&protos).expect("registry");
    let keys: Vec<Vec<u8>> = protos.iter().map(|(k, _)| k.clone()).collect();
    let mut g = c.benchmark_group("registry_600_prototypes");
    g.bench_function("parse", |b| {
        b.iter(|| Registry::parse(black_box(&data), Mode::Strict).expect("parse"))
    });
    let reg = Registry::parse(&data, Mode::Strict).expect("parse");
    g.bench_function("resolve_all_cold", |b| {
        b.iter(|| {
            reg.clear_cache();
            keys.iter().for_each(|k| {
                black_box(reg.resolve(k).expect("resolve"));
            })
        })
    });
    g.bench_function("resolve_all_cached", |b| {
        b.iter(|| {
            keys.iter().for_each(|k| {
                black_box(reg.resolve(k).expect("resolve"));
            })
        })
    });
    g.finish();
}

criterion_group!(benches, tma_benches, registry_benches);
criterion_main!(benches);
