//! Generation of the whole demo install (`iron3d_demo::generate`, demo scale:
//! assets and world) in bytes of install produced per second, against a
//! plain copy of the same bytes.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_demo::{Scale, generate};

fn bench(c: &mut Criterion) {
    let install = generate(7, Scale::Demo).expect("generate");
    let bytes: Vec<u8> = install.files().values().flatten().copied().collect();

    let mut g = c.benchmark_group("demo");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("generate_demo_scale", |b| {
        b.iter(|| generate(black_box(7), Scale::Demo).expect("generate"))
    });
    g.bench_function("memcpy_install_bytes", |b| {
        b.iter(|| black_box(&bytes).to_vec())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
