//! Sounds: MS ADPCM against hand-computed blocks, PCM, the encoder (any
//! block size, mono and stereo), the lossless RIFF writer and the four load
//! outcomes of tome VI.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{NewEntry, Nres, build};
use iron3d_formats::sound::{
    Chunk, STANDARD_COEFFICIENTS, SoundOutcome, Wave, classify, encode_ms_adpcm, load_sound,
    write_pcm16,
};
use support::expect_error;

/// An MS ADPCM wave with the standard coefficients around `data`.
fn adpcm_wave(channels: u16, block_align: u16, samples_per_block: u16, data: Vec<u8>) -> Vec<u8> {
    let mut fmt = Vec::new();
    fmt.extend(2u16.to_le_bytes());
    fmt.extend(channels.to_le_bytes());
    fmt.extend(22050u32.to_le_bytes());
    fmt.extend(11155u32.to_le_bytes());
    fmt.extend(block_align.to_le_bytes());
    fmt.extend(4u16.to_le_bytes());
    fmt.extend(32u16.to_le_bytes());
    fmt.extend(samples_per_block.to_le_bytes());
    fmt.extend(7u16.to_le_bytes());
    for (a, b) in STANDARD_COEFFICIENTS {
        fmt.extend(a.to_le_bytes());
        fmt.extend(b.to_le_bytes());
    }
    Wave {
        chunks: vec![Chunk::new(b"fmt ", fmt), Chunk::new(b"data", data)],
    }
    .to_bytes()
    .unwrap()
}

fn decode(bytes: &[u8]) -> Vec<i16> {
    Wave::parse(bytes).unwrap().decode().unwrap().samples
}

#[test]
fn mono_block_predictor_0_by_hand() {
    // predictor 0 (256, 0), delta 16, sample1 100, sample2 50; codes 1, 2, -1, 7.
    // 1: 100 + 16 = 116, delta 230*16>>8 = 14 -> 16
    // 2: 116 + 32 = 148, delta 16
    // F: 148 - 16 = 132, delta 16
    // 7: 132 + 112 = 244, delta 614*16>>8 = 38
    let block = vec![0, 16, 0, 100, 0, 50, 0, 0x12, 0xF7];
    assert_eq!(
        decode(&adpcm_wave(1, 9, 6, block)),
        [50, 100, 116, 148, 132, 244]
    );
}

#[test]
fn mono_block_predictor_1_uses_both_coefficients() {
    // predictor 1 (512, -256), delta 20, sample1 100, sample2 50.
    // 3: (100*512 - 50*256)>>8 = 150, +60 = 210, delta 230*20>>8 = 17
    // 8: (210*512 - 100*256)>>8 = 320, -136 = 184, delta 768*17>>8 = 51
    // 0: (184*512 - 210*256)>>8 = 158, delta 230*51>>8 = 45
    // 0: (158*512 - 184*256)>>8 = 132
    let block = vec![1, 20, 0, 100, 0, 50, 0, 0x38, 0x00];
    assert_eq!(
        decode(&adpcm_wave(1, 9, 6, block)),
        [50, 100, 210, 184, 158, 132]
    );
}

#[test]
fn stereo_block_interleaves_high_nibble_left() {
    // L: pred 0, delta 16, s1 10, s2 5; R: pred 0, delta 32, s1 -10, s2 -5.
    // byte 0x1F: L code 1 -> 26; R code -1 -> -10 - 32 = -42.
    let mut block = vec![0, 0];
    block.extend(16i16.to_le_bytes());
    block.extend(32i16.to_le_bytes());
    block.extend(10i16.to_le_bytes());
    block.extend((-10i16).to_le_bytes());
    block.extend(5i16.to_le_bytes());
    block.extend((-5i16).to_le_bytes());
    block.push(0x1F);
    assert_eq!(
        decode(&adpcm_wave(2, 15, 3, block)),
        [5, -5, 10, -10, 26, -42]
    );
}

#[test]
fn samples_clamp_to_16_bits() {
    let mut block = vec![0];
    block.extend(1000i16.to_le_bytes());
    block.extend(32000i16.to_le_bytes());
    block.extend((-32000i16).to_le_bytes());
    // +7*1000 -> clamp 32767, delta 614*1000>>8 = 2398; then -8*2398 -> 13583
    block.extend([0x78, 0x00]);
    let out = decode(&adpcm_wave(1, 9, 6, block));
    assert_eq!(&out[..4], &[-32000, 32000, 32767, 32767 - 8 * 2398]);
}

#[test]
fn a_short_last_block_and_the_fact_chunk() {
    // Two blocks of 9 bytes, the second cut after one code byte.
    let mut data = vec![0, 16, 0, 0, 0, 0, 0, 0x11, 0x11];
    data.extend([0, 16, 0, 0, 0, 0, 0, 0x11]);
    let full = adpcm_wave(1, 9, 6, data.clone());
    assert_eq!(decode(&full).len(), 6 + 4);
    let mut w = Wave::parse(&full).unwrap();
    w.chunks
        .insert(1, Chunk::new(b"fact", 7u32.to_le_bytes().to_vec()));
    assert_eq!(w.decode().unwrap().samples.len(), 7);
    // A block shorter than its header is invalid.
    let mut cut = data;
    cut.truncate(9 + 3);
    expect_error(
        Wave::parse(&adpcm_wave(1, 9, 6, cut)).unwrap().decode(),
        9,
        "WAVE: expected a block header of 7 bytes, found 3 bytes",
    );
}

#[test]
fn bad_predictor_and_block_parameters_are_errors() {
    let block = vec![7, 16, 0, 0, 0, 0, 0, 0, 0];
    let decode = |channels, align, spb, block| {
        Wave::parse(&adpcm_wave(channels, align, spb, block))
            .unwrap()
            .decode()
    };
    expect_error(
        decode(1, 9, 6, block.clone()),
        0,
        "WAVE: expected predictor index < 7, found 7",
    );
    // samples per block above what the block holds
    expect_error(
        decode(1, 9, 7, block.clone()),
        20,
        "WAVE: expected samples per block in 2..=6, found 7",
    );
    // block align below the block header
    expect_error(
        decode(1, 6, 2, block.clone()),
        12,
        "WAVE: expected block align >= 7, found 6",
    );
    expect_error(
        decode(3, 30, 2, block),
        2,
        "WAVE: expected 1 or 2 MS ADPCM channels, found 3",
    );
}

#[test]
fn pcm_8_and_16_bit() {
    let wav = write_pcm16(22050, 2, &[1, -2, 300, -32768]).unwrap();
    assert_eq!(wav.len(), 44 + 8);
    assert_eq!(&wav[..4], b"RIFF");
    let s = Wave::parse(&wav).unwrap().decode().unwrap();
    assert_eq!((s.sample_rate, s.channels, s.frames()), (22050, 2, 2));
    assert_eq!(s.samples, [1, -2, 300, -32768]);
    // 8-bit unsigned: 0x80 is silence.
    let mut w = Wave::parse(&wav).unwrap();
    w.chunks[0].data = [1u16.to_le_bytes(), 1u16.to_le_bytes()].concat();
    w.chunks[0].data.extend(8000u32.to_le_bytes());
    w.chunks[0].data.extend(8000u32.to_le_bytes());
    w.chunks[0].data.extend(1u16.to_le_bytes());
    w.chunks[0].data.extend(8u16.to_le_bytes());
    w.chunks[1] = Chunk::new(b"data", vec![0x80, 0xFF, 0x00]);
    let bytes = w.to_bytes().unwrap();
    assert_eq!(
        Wave::parse(&bytes).unwrap().decode().unwrap().samples,
        [0, 0x7F00, -0x8000]
    );
    assert_eq!(bytes.len() % 2, 0, "odd data chunk is padded");
    expect_error(
        write_pcm16(22050, 2, &[1]),
        0,
        "WAVE: expected whole frames of 2 (> 0) channels, found 1 samples",
    );
}

#[test]
fn riff_framing_is_lossless_and_exact() {
    let mut w = Wave::parse(&write_pcm16(22050, 1, &[5; 3]).unwrap()).unwrap();
    w.chunks.push(Chunk {
        id: *b"LIST",
        data: vec![1, 2, 3],
        pad: Some(0x55),
    });
    let bytes = w.to_bytes().unwrap();
    assert_eq!(Wave::parse(&bytes).unwrap(), w);
    assert_eq!(Wave::parse(&bytes).unwrap().to_bytes().unwrap(), bytes);
    let mut longer = bytes.clone();
    longer.push(0);
    // the RIFF size must match the payload
    let stored = bytes.len() - 8;
    expect_error(
        Wave::parse(&longer),
        4,
        &format!(
            "WAVE: expected RIFF size {} (payload length - 8), found {stored}",
            stored + 1
        ),
    );
    expect_error(
        Wave::parse(&bytes[..bytes.len() - 1]),
        4,
        &format!(
            "WAVE: expected RIFF size {} (payload length - 8), found {stored}",
            stored - 1
        ),
    );
    let mut not_wave = bytes.clone();
    not_wave[8] = b'X';
    expect_error(
        Wave::parse(&not_wave),
        8,
        "WAVE: bad magic: expected \"WAVE\", found \"XAVE\"",
    );
}

fn tone(frames: usize, channels: usize) -> Vec<i16> {
    (0..frames * channels)
        .map(|i| {
            let (f, c) = (i / channels, i % channels);
            let t = f as f64 / 22050.0;
            (((440.0 + 110.0 * c as f64) * t * std::f64::consts::TAU).sin() * 12000.0
                + ((97.0 * t * std::f64::consts::TAU).sin() * 4000.0)) as i16
        })
        .collect()
}

fn snr_db(a: &[i16], b: &[i16]) -> f64 {
    let signal: f64 = a.iter().map(|&x| (x as f64).powi(2)).sum();
    let noise: f64 = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
        .sum();
    10.0 * (signal / noise.max(1.0)).log10()
}

#[test]
fn encoder_round_trips_through_the_decoder_at_any_block_size() {
    for channels in [1u16, 2] {
        for align in [
            14u16 * channels + 1,
            36 * channels,
            256,
            512,
            1024,
            2048,
            1001,
        ] {
            let pcm = tone(5000, channels as usize);
            let wav = encode_ms_adpcm(22050, channels, &pcm, align).unwrap();
            let wave = Wave::parse(&wav).unwrap();
            let fmt = wave.format().unwrap();
            assert_eq!(
                (fmt.format_tag, fmt.block_align, fmt.bits_per_sample),
                (2, align, 4)
            );
            assert_eq!(wave.fact_frames(), Some(5000));
            assert_eq!(wave.chunk(b"data").unwrap().data.len() % align as usize, 0);
            let out = wave.decode().unwrap();
            assert_eq!(out.samples.len(), pcm.len(), "ch {channels} align {align}");
            // The first two frames of every block are stored verbatim.
            assert_eq!(
                &out.samples[..2 * channels as usize],
                &pcm[..2 * channels as usize]
            );
            let snr = snr_db(&pcm, &out.samples);
            assert!(snr > 20.0, "ch {channels} align {align}: SNR {snr:.1} dB");
            assert_eq!(wave.to_bytes().unwrap(), wav);
        }
    }
}

#[test]
fn encoder_edge_cases() {
    let wav = encode_ms_adpcm(22050, 1, &[], 256).unwrap();
    assert!(
        Wave::parse(&wav)
            .unwrap()
            .decode()
            .unwrap()
            .samples
            .is_empty()
    );
    let wav = encode_ms_adpcm(22050, 1, &[i16::MAX, i16::MIN, i16::MAX, i16::MIN, 0], 9).unwrap();
    assert_eq!(
        Wave::parse(&wav).unwrap().decode().unwrap().samples.len(),
        5
    );
    // align below the block header
    expect_error(
        encode_ms_adpcm(22050, 1, &[0; 4], 6),
        0,
        "WAVE: expected a block align of at least 7 bytes, found 6",
    );
    expect_error(
        encode_ms_adpcm(22050, 3, &[0; 3], 256),
        0,
        "WAVE: expected 1 or 2 MS ADPCM channels, found 3",
    );
    expect_error(
        encode_ms_adpcm(22050, 2, &[0; 3], 256),
        0,
        "WAVE: expected whole frames of 2 (> 0) channels, found 3 samples",
    );
}

#[test]
fn four_outcomes_are_distinct() {
    assert_eq!(classify(None), SoundOutcome::EntryMissing);
    assert_eq!(classify(Some(&[])), SoundOutcome::EntryEmpty);
    assert!(matches!(
        classify(Some(b"RIFX")),
        SoundOutcome::WaveInvalid(_)
    ));
    let good = write_pcm16(22050, 1, &[1, 2, 3]).unwrap();
    assert!(
        matches!(classify(Some(&good)), SoundOutcome::Decoded(ref s) if s.samples == [1, 2, 3])
    );

    let adpcm = encode_ms_adpcm(22050, 1, &tone(100, 1), 256).unwrap();
    let entry = |name: &str, payload: &'static [u8]| NewEntry {
        name: name.as_bytes().to_vec(),
        type_id: 0,
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload,
    };
    let adpcm: &'static [u8] = Box::leak(adpcm.into_boxed_slice());
    let good: &'static [u8] = Box::leak(good.into_boxed_slice());
    let lib = build(&[
        entry("ALIEN_ME.WAV", &[]),
        entry("BROKEN.WAV", b"RIFF\x04\0\0\0WAVX"),
        entry("Exp_01.wav", adpcm),
        entry("pcm.wav", good),
    ])
    .unwrap();
    let nres = Nres::parse(&lib, Mode::Strict).unwrap();
    let outcome = |n: &str| load_sound(&nres, n.as_bytes());
    assert_eq!(outcome("missing.wav").name(), "entry_missing");
    assert_eq!(outcome("alien_me.wav").name(), "entry_empty");
    match outcome("broken.wav") {
        SoundOutcome::WaveInvalid(e) => assert_eq!(e.entry.as_ref().unwrap().name, "BROKEN.WAV"),
        other => panic!("{other:?}"),
    }
    assert_eq!(outcome("EXP_01.WAV").name(), "decoded_sample");
    assert_eq!(outcome("PCM.WAV").name(), "decoded_sample");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_pcm_encodes_and_decodes_to_the_same_length(
            stereo in any::<bool>(),
            frames in 0usize..700,
            align_extra in 0u16..300,
            seed in any::<u32>(),
        ) {
            let ch = if stereo { 2 } else { 1 };
            let mut x = seed;
            let pcm: Vec<i16> = (0..frames * ch)
                .map(|_| {
                    x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (x >> 16) as i16
                })
                .collect();
            let align = 7 * ch as u16 + align_extra;
            let wav = encode_ms_adpcm(22050, ch as u16, &pcm, align).unwrap();
            let out = Wave::parse(&wav).unwrap().decode().unwrap();
            prop_assert_eq!(out.samples.len(), pcm.len());
            let head = pcm.len().min(2 * ch);
            prop_assert_eq!(&out.samples[..head], &pcm[..head]);
        }
    }
}
