//! `iron3d validate` over the synthetic demo install at retail scale,
//! against the reference cost of only reading every file of the same tree.

use criterion::{Criterion, criterion_group, criterion_main};
use iron3d_demo::{DEFAULT_SEED, Scale, build};
use iron3d_formats::validate::validate;
use std::path::{Path, PathBuf};

/// Every file below `dir`.
fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for item in std::fs::read_dir(dir).unwrap() {
        let path = item.unwrap().path();
        if path.is_dir() {
            all_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn bench(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("retail");
    build(&root, DEFAULT_SEED, Scale::Retail).unwrap();
    let report = validate(&root, &mut |_| {}).unwrap();
    eprintln!(
        "install: {} files, {} bytes, {} errors; reachability: {:?}",
        report.files, report.bytes, report.errors, report.reachability
    );
    let mut files = Vec::new();
    all_files(&root, &mut files);
    let mut group = c.benchmark_group("validate");
    group.sample_size(10);
    group.bench_function("read every file (reference)", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| std::fs::read(f).unwrap().len())
                .sum::<usize>()
        })
    });
    group.bench_function("validate retail-scale demo install", |b| {
        b.iter(|| validate(&root, &mut |_| {}).unwrap().errors)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
