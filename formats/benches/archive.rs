//! Archive benchmarks: NRes open + index of a 10,000-entry archive, name
//! lookup, and LZSS / LZHUF / Deflate decode throughput (MB/s of output),
//! each codec beside a plain copy of the same bytes in the same run.
//!
//! The Deflate stream is also written to `$TMPDIR/iron3d-bench-deflate.bin`
//! (and its size to stdout) for the comparison with Python's zlib:
//! `python3 -c "import zlib,time; d=open('/tmp/iron3d-bench-deflate.bin','rb').read();
//! t=time.perf_counter(); [zlib.decompress(d,-15) for _ in range(50)];
//! print((time.perf_counter()-t)/50)"`.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{self, NewEntry, Nres};
use iron3d_formats::archive::{deflate, lzhuf, lzss};

/// 1 MiB of game-like data: half text-like records, half a noisy 16-bit
/// gradient image (deterministic).
fn sample_data() -> Vec<u8> {
    let mut out = Vec::with_capacity(1 << 20);
    let mut seed = 0x2545_F491u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let words = [
        "unit",
        "turret",
        "armour",
        "gun",
        "ammo",
        "chassis",
        "objects.rlb",
        "MESH",
        "WEAR",
        "0.5",
        "120",
    ];
    while out.len() < 1 << 19 {
        let w = words[rnd() as usize % words.len()];
        out.extend_from_slice(w.as_bytes());
        out.push(if rnd() % 7 == 0 { b'\n' } else { b' ' });
    }
    let mut i = 0u32;
    while out.len() < 1 << 20 {
        let v = ((i % 256) * 64 + (i / 256) * 32 + rnd() % 8) as u16;
        out.extend_from_slice(&v.to_le_bytes());
        i += 1;
    }
    out.truncate(1 << 20);
    out
}

fn nres_10k() -> Vec<u8> {
    let payloads: Vec<Vec<u8>> = (0..10_000u32).map(|i| i.to_le_bytes().repeat(4)).collect();
    let names: Vec<Vec<u8>> = (0..10_000u32)
        .map(|i| format!("ENTRY_{i:05}.TEX").into_bytes())
        .collect();
    let entries: Vec<NewEntry> = payloads
        .iter()
        .zip(&names)
        .map(|(p, n)| NewEntry {
            name: n.clone(),
            type_id: 0x6D786554,
            attr1: 0,
            attr2: 0,
            attr3: 0,
            payload: p,
        })
        .collect();
    nres::build(&entries).expect("build")
}

fn bench_nres(c: &mut Criterion) {
    let bytes = nres_10k();
    let mut g = c.benchmark_group("nres");
    g.bench_function("open_index_10000", |b| {
        b.iter(|| Nres::parse(black_box(&bytes), Mode::Strict).expect("parse"))
    });
    let archive = Nres::parse(&bytes, Mode::Strict).expect("parse");
    g.bench_function("find", |b| {
        b.iter(|| archive.find(black_box(b"entry_07321.tex")))
    });
    g.finish();
}

fn bench_codecs(c: &mut Criterion) {
    let data = sample_data();
    let streams = [
        (
            "lzss",
            lzss::encode(&data),
            lzss::decode as fn(&[u8], usize) -> _,
        ),
        ("lzhuf", lzhuf::encode(&data), lzhuf::decode),
        ("deflate", deflate::encode(&data), deflate::decode),
    ];
    let path = std::env::temp_dir().join("iron3d-bench-deflate.bin");
    std::fs::write(&path, &streams[2].1).expect("write deflate sample");
    println!(
        "deflate sample: {} -> {} bytes at {}",
        data.len(),
        streams[2].1.len(),
        path.display()
    );
    let mut g = c.benchmark_group("decode");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("copy", |b| b.iter(|| black_box(&data).to_vec()));
    for (name, stream, decode) in &streams {
        println!("{name}: {} -> {} bytes", data.len(), stream.len());
        assert_eq!(decode(stream, data.len()).expect("decode"), data);
        g.bench_function(*name, |b| {
            b.iter(|| decode(black_box(stream), data.len()).expect("decode"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_nres, bench_codecs);
criterion_main!(benches);
