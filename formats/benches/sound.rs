//! MS ADPCM decode of 10 s of 22 050 Hz mono (the retail sound format), in
//! seconds of audio decoded per second, against a plain copy of the same
//! number of PCM16 output bytes; and the encoder for reference.

use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use iron3d_formats::sound::{Wave, encode_ms_adpcm};

const RATE: u32 = 22_050;
const SECONDS: usize = 10;

fn tone() -> Vec<i16> {
    (0..RATE as usize * SECONDS)
        .map(|i| {
            let t = i as f64 / RATE as f64;
            ((t * 440.0 * std::f64::consts::TAU).sin() * 9000.0
                + (t * 1234.5 * std::f64::consts::TAU).sin() * 3000.0) as i16
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let pcm = tone();
    let adpcm = encode_ms_adpcm(RATE, 1, &pcm, 512).expect("encode");
    let wave = Wave::parse(&adpcm).expect("parse");
    let pcm_bytes: Vec<u8> = pcm.iter().flat_map(|s| s.to_le_bytes()).collect();

    let mut g = c.benchmark_group("sound");
    // Throughput in "elements" = seconds of audio: criterion prints elem/s.
    g.throughput(Throughput::Elements(SECONDS as u64));
    g.bench_function("ms_adpcm_decode_10s_mono", |b| {
        b.iter(|| black_box(&wave).decode().expect("decode"))
    });
    g.bench_function("memcpy_pcm16_output_10s", |b| {
        b.iter(|| black_box(&pcm_bytes).to_vec())
    });
    g.bench_function("ms_adpcm_encode_10s_mono", |b| {
        b.iter(|| encode_ms_adpcm(RATE, 1, black_box(&pcm), 512).expect("encode"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
