//! Model formats: Texm decode of a 256x256 8888 texture with its full mip
//! chain (parse + RGBA8 decode of all nine levels), beside a plain copy of
//! the same bytes; MSH parse (container, streams, range checks) of a
//! 10,000-vertex model, beside a plain copy of its bytes.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_formats::archive::Mode;
use iron3d_formats::msh::Msh;
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};

#[path = "../tests/msh_support/mod.rs"]
mod msh_support;

fn texture_bytes() -> Vec<u8> {
    let mut pixels = Vec::with_capacity(256 * 256 * 4);
    for i in 0..256u32 * 256 {
        let x = i.wrapping_mul(0x9E37_79B9);
        pixels.extend_from_slice(&[(x >> 24) as u8, (x >> 16) as u8, (x >> 8) as u8, x as u8]);
    }
    let img = Rgba8Image {
        width: 256,
        height: 256,
        pixels,
    };
    Texm::from_rgba(&img, PixelFormat::Argb8888, Mips::Full, None)
        .unwrap()
        .to_bytes()
        .unwrap()
}

fn decode_all(data: &[u8]) -> usize {
    let t = Texm::parse(data).unwrap();
    (0..t.mip_count())
        .map(|l| t.decode_level(l).unwrap().pixels.len())
        .sum()
}

fn bench(c: &mut Criterion) {
    let tex = texture_bytes();
    let mut g = c.benchmark_group("texm_256_8888_full_chain");
    g.throughput(Throughput::Bytes(tex.len() as u64));
    g.bench_function("parse_decode_rgba8", |b| {
        b.iter(|| decode_all(black_box(&tex)))
    });
    g.bench_function("plain_copy", |b| b.iter(|| black_box(&tex).to_vec()));
    g.finish();

    let model = Msh::build(msh_support::big_parts(10_000))
        .unwrap()
        .to_bytes()
        .unwrap();
    let mut g = c.benchmark_group("msh_10000_vertices");
    g.throughput(Throughput::Bytes(model.len() as u64));
    g.bench_function("load", |b| {
        b.iter(|| Msh::load(black_box(&model), Mode::Strict).unwrap())
    });
    g.bench_function("plain_copy", |b| b.iter(|| black_box(&model).to_vec()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
