//! Sounds: RIFF/WAVE entries of `sounds.lib` / `voices.lib` (tome VI,
//! "Sound resources и SWAV"; FACTS.md "Sounds"), PCM and Microsoft ADPCM
//! decoded to interleaved PCM16, a PCM16 writer and an MS ADPCM encoder (the
//! standard 7 coefficient pairs, any block size) so synthesised sounds are
//! stored the way retail stores them.
//!
//! A load has four distinct outcomes ([`SoundOutcome`]): the entry is
//! missing, the entry is empty (retail has one: Part 2 `ALIEN_ME.WAV`; an
//! empty payload never reaches the RIFF parser), the wave is invalid, or a
//! decoded sample.
//!
//! The RIFF reader is lossless: every chunk (known or not) is kept in order
//! with its pad byte, so [`Wave::to_bytes`] gives the input back.

use crate::archive::Mode;
use crate::archive::nres::Nres;
use crate::cursor::{Cursor, show_bytes};
use crate::error::{FormatError, Problem, Result};
use std::path::Path;

/// `wFormatTag` of linear PCM.
pub const FORMAT_PCM: u16 = 1;
/// `wFormatTag` of Microsoft ADPCM.
pub const FORMAT_MS_ADPCM: u16 = 2;
/// The 7 standard MS ADPCM predictor coefficient pairs.
pub const STANDARD_COEFFICIENTS: [(i16, i16); 7] = [
    (256, 0),
    (512, -256),
    (0, 0),
    (192, 64),
    (240, 0),
    (460, -208),
    (392, -232),
];
/// MS ADPCM step adaptation, indexed by the 4-bit code.
const ADAPTATION: [i32; 16] = [
    230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230,
];
/// The adaptive step never goes below this.
const MIN_DELTA: i32 = 16;
/// ... nor above this (keeps `delta * 768` inside i32 on hostile input).
const MAX_DELTA: i32 = i32::MAX / 768;

const FORMAT: &str = "WAVE";

/// One RIFF chunk, kept raw; `pad` is the byte after an odd-sized chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub id: [u8; 4],
    pub data: Vec<u8>,
    pub pad: Option<u8>,
}

impl Chunk {
    /// A chunk with a zero pad byte when its size is odd.
    pub fn new(id: &[u8; 4], data: Vec<u8>) -> Self {
        let pad = (data.len() % 2 == 1).then_some(0);
        Self { id: *id, data, pad }
    }
}

/// MS ADPCM parameters of the `fmt ` extension.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AdpcmFormat {
    pub samples_per_block: u16,
    pub coefficients: Vec<(i16, i16)>,
}

/// The typed `fmt ` chunk.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WaveFormat {
    pub format_tag: u16,
    pub channels: u16,
    pub sample_rate: u32,
    pub byte_rate: u32,
    pub block_align: u16,
    pub bits_per_sample: u16,
    pub adpcm: Option<AdpcmFormat>,
}

impl WaveFormat {
    /// Parses a `fmt ` chunk body.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        let mut f = WaveFormat {
            format_tag: c.u16()?,
            channels: c.u16()?,
            sample_rate: c.u32()?,
            byte_rate: c.u32()?,
            block_align: c.u16()?,
            bits_per_sample: c.u16()?,
            adpcm: None,
        };
        if f.channels == 0 {
            return Err(c.invalid_at(2, "at least one channel", 0));
        }
        if f.format_tag == FORMAT_MS_ADPCM {
            let _extra_size = c.u16()?;
            let samples_per_block = c.u16()?;
            let count = c.u16()?;
            let count = c.checked_count(count as u64, 4, "ADPCM coefficients")?;
            if count == 0 {
                return Err(c.invalid_at(c.pos() - 2, "at least one ADPCM coefficient pair", 0));
            }
            let mut coefficients = Vec::with_capacity(count);
            for _ in 0..count {
                coefficients.push((c.i16()?, c.i16()?));
            }
            f.adpcm = Some(AdpcmFormat {
                samples_per_block,
                coefficients,
            });
        }
        Ok(f)
    }
}

/// A RIFF/WAVE file: its chunks in order (the RIFF size is derived).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wave {
    pub chunks: Vec<Chunk>,
}

impl Wave {
    /// Parses RIFF/WAVE framing: `RIFF`, size, `WAVE`, then chunks (with a
    /// pad byte after odd sizes) ending exactly at `8 + size` = the payload end.
    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut c = Cursor::new(data, FORMAT);
        c.expect_magic(b"RIFF")?;
        let size = c.u32()? as u64;
        if size + 8 != data.len() as u64 {
            return Err(c.invalid_at(
                4,
                format!(
                    "RIFF size {} (payload length - 8)",
                    data.len().saturating_sub(8)
                ),
                size,
            ));
        }
        c.expect_magic(b"WAVE")?;
        let mut chunks = Vec::new();
        while !c.at_end() {
            let id = c.array::<4>()?;
            let len = c.u32()? as usize;
            let body = c.bytes(len)?.to_vec();
            let pad = if len % 2 == 1 { Some(c.u8()?) } else { None };
            chunks.push(Chunk {
                id,
                data: body,
                pad,
            });
        }
        Ok(Self { chunks })
    }

    /// Writes the file (lossless for an unmodified parse).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut body = b"WAVE".to_vec();
        for ch in &self.chunks {
            let len = u32::try_from(ch.data.len()).map_err(|_| {
                FormatError::invalid(FORMAT, 0, "a chunk under 4 GiB", ch.data.len())
            })?;
            if ch.pad.is_some() != (len % 2 == 1) {
                return Err(FormatError::invalid(
                    FORMAT,
                    body.len() as u64,
                    "a pad byte exactly after odd-sized chunks",
                    show_bytes(&ch.id),
                ));
            }
            body.extend_from_slice(&ch.id);
            body.extend(len.to_le_bytes());
            body.extend_from_slice(&ch.data);
            body.extend(ch.pad);
        }
        let size = u32::try_from(body.len())
            .map_err(|_| FormatError::invalid(FORMAT, 0, "a RIFF under 4 GiB", body.len()))?;
        let mut out = Vec::with_capacity(body.len() + 8);
        out.extend_from_slice(b"RIFF");
        out.extend(size.to_le_bytes());
        out.extend(body);
        Ok(out)
    }

    /// The first chunk with `id`.
    pub fn chunk(&self, id: &[u8; 4]) -> Option<&Chunk> {
        self.chunks.iter().find(|c| &c.id == id)
    }

    /// The typed `fmt ` chunk.
    pub fn format(&self) -> Result<WaveFormat> {
        let fmt = self
            .chunk(b"fmt ")
            .ok_or_else(|| FormatError::missing(FORMAT, "the `fmt ` chunk"))?;
        WaveFormat::parse(&fmt.data)
    }

    /// The frame count of the `fact` chunk, if any.
    pub fn fact_frames(&self) -> Option<u32> {
        let fact = self.chunk(b"fact")?;
        Some(u32::from_le_bytes(fact.data.get(..4)?.try_into().ok()?))
    }

    /// Decodes to interleaved PCM16.
    pub fn decode(&self) -> Result<DecodedSound> {
        let format = self.format()?;
        let data = &self
            .chunk(b"data")
            .ok_or_else(|| FormatError::missing(FORMAT, "the `data` chunk"))?
            .data;
        let mut samples = match format.format_tag {
            FORMAT_PCM => decode_pcm(&format, data)?,
            FORMAT_MS_ADPCM => decode_ms_adpcm(&format, data)?,
            tag => {
                return Err(FormatError::new(
                    FORMAT,
                    0,
                    Problem::Unsupported {
                        what: format!("wave format tag {tag} (PCM 1 and MS ADPCM 2 are known)"),
                    },
                ));
            }
        };
        if let Some(frames) = self.fact_frames() {
            let keep = (frames as u64).saturating_mul(format.channels as u64);
            if keep < samples.len() as u64 {
                samples.truncate(keep as usize);
            }
        }
        Ok(DecodedSound {
            sample_rate: format.sample_rate,
            channels: format.channels,
            samples,
        })
    }
}

/// Decoded audio: interleaved signed 16-bit samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedSound {
    pub sample_rate: u32,
    pub channels: u16,
    pub samples: Vec<i16>,
}

impl DecodedSound {
    /// Frames (samples per channel).
    pub fn frames(&self) -> usize {
        self.samples.len() / self.channels.max(1) as usize
    }

    /// Length in seconds.
    pub fn duration_seconds(&self) -> f64 {
        if self.sample_rate == 0 {
            0.0
        } else {
            self.frames() as f64 / self.sample_rate as f64
        }
    }

    /// A PCM16 WAV file of this sound.
    pub fn to_wav(&self) -> Result<Vec<u8>> {
        write_pcm16(self.sample_rate, self.channels, &self.samples)
    }
}

fn decode_pcm(f: &WaveFormat, data: &[u8]) -> Result<Vec<i16>> {
    let bytes_per_sample = match f.bits_per_sample {
        8 => 1,
        16 => 2,
        bits => {
            return Err(FormatError::new(
                FORMAT,
                0,
                Problem::Unsupported {
                    what: format!("{bits}-bit PCM (8 and 16 are known)"),
                },
            ));
        }
    };
    let frame = bytes_per_sample * f.channels as usize;
    if f.block_align as usize != frame {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("PCM block align {frame}"),
            f.block_align,
        ));
    }
    if !data.len().is_multiple_of(frame) {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("PCM data of whole {frame}-byte frames"),
            format!("{} bytes", data.len()),
        ));
    }
    Ok(if bytes_per_sample == 1 {
        data.iter().map(|&b| ((b as i16) - 128) << 8).collect()
    } else {
        data.chunks_exact(2)
            .map(|p| i16::from_le_bytes([p[0], p[1]]))
            .collect()
    })
}

/// Bytes of a block header per channel: predictor, delta, sample1, sample2.
const ADPCM_HEADER: usize = 7;

/// Samples per channel in a full MS ADPCM block of `block_align` bytes.
pub fn adpcm_samples_per_block(block_align: usize, channels: usize) -> Option<usize> {
    let header = ADPCM_HEADER * channels;
    (channels > 0 && block_align >= header).then(|| 2 + (block_align - header) * 2 / channels)
}

/// The adaptive predictor state of one channel.
#[derive(Debug, Clone, Copy)]
struct AdpcmState {
    c1: i32,
    c2: i32,
    delta: i32,
    s1: i32,
    s2: i32,
}

impl AdpcmState {
    fn predict(&self) -> i32 {
        (self.s1 * self.c1 + self.s2 * self.c2) >> 8
    }

    /// Applies one 4-bit code; returns the reconstructed sample. The decoder
    /// and the encoder share this, so their reconstructions are identical.
    fn apply(&mut self, code: u8) -> i16 {
        let signed = ((code << 4) as i8 >> 4) as i32;
        let sample = (self.predict() + signed * self.delta).clamp(i16::MIN as i32, i16::MAX as i32);
        self.s2 = self.s1;
        self.s1 = sample;
        self.delta = ((ADAPTATION[code as usize] * self.delta) >> 8).clamp(MIN_DELTA, MAX_DELTA);
        sample as i16
    }
}

fn decode_ms_adpcm(f: &WaveFormat, data: &[u8]) -> Result<Vec<i16>> {
    let Some(adpcm) = &f.adpcm else {
        return Err(FormatError::missing(FORMAT, "the MS ADPCM fmt extension"));
    };
    let ch = f.channels as usize;
    if ch > 2 {
        return Err(FormatError::invalid(
            FORMAT,
            2,
            "1 or 2 MS ADPCM channels",
            ch,
        ));
    }
    let align = f.block_align as usize;
    let full = adpcm_samples_per_block(align, ch).ok_or_else(|| {
        FormatError::invalid(
            FORMAT,
            12,
            format!("block align >= {}", ADPCM_HEADER * ch),
            align,
        )
    })?;
    let spb = adpcm.samples_per_block as usize;
    if !(2..=full).contains(&spb) {
        return Err(FormatError::invalid(
            FORMAT,
            20,
            format!("samples per block in 2..={full}"),
            spb,
        ));
    }
    // Output is at most 4x the input bytes (two 16-bit samples per byte).
    let mut out = Vec::with_capacity(
        data.len()
            .saturating_mul(2)
            .min(spb * ch * (data.len() / align + 1)),
    );
    for (b, block) in data.chunks(align).enumerate() {
        let base = (b * align) as u64;
        if block.len() < ADPCM_HEADER * ch {
            return Err(FormatError::invalid(
                FORMAT,
                base,
                format!("a block header of {} bytes", ADPCM_HEADER * ch),
                format!("{} bytes", block.len()),
            ));
        }
        let mut c = Cursor::new(block, FORMAT);
        let mut states = [AdpcmState {
            c1: 0,
            c2: 0,
            delta: 0,
            s1: 0,
            s2: 0,
        }; 2];
        for (i, s) in states.iter_mut().take(ch).enumerate() {
            let p = c.u8()? as usize;
            let &(c1, c2) = adpcm.coefficients.get(p).ok_or_else(|| {
                FormatError::invalid(
                    FORMAT,
                    base + i as u64,
                    format!("predictor index < {}", adpcm.coefficients.len()),
                    p,
                )
            })?;
            (s.c1, s.c2) = (c1 as i32, c2 as i32);
        }
        for s in states.iter_mut().take(ch) {
            s.delta = c.i16()? as i32;
        }
        for s in states.iter_mut().take(ch) {
            s.s1 = c.i16()? as i32;
        }
        for s in states.iter_mut().take(ch) {
            s.s2 = c.i16()? as i32;
        }
        let frames = (2 + (block.len() - ADPCM_HEADER * ch) * 2 / ch).min(spb);
        for s in states.iter().take(ch) {
            out.push(s.s2 as i16);
        }
        for s in states.iter().take(ch) {
            out.push(s.s1 as i16);
        }
        // Codes run high nibble first; in stereo each byte is (left, right).
        let nibbles = (frames - 2) * ch;
        let codes = &block[ADPCM_HEADER * ch..];
        if let [left, right] = &mut states[..ch] {
            for &byte in &codes[..nibbles / 2] {
                out.push(left.apply(byte >> 4));
                out.push(right.apply(byte & 0x0F));
            }
        } else {
            let mono = &mut states[0];
            for &byte in &codes[..nibbles / 2] {
                out.push(mono.apply(byte >> 4));
                out.push(mono.apply(byte & 0x0F));
            }
            if nibbles % 2 == 1 {
                out.push(mono.apply(codes[nibbles / 2] >> 4));
            }
        }
    }
    Ok(out)
}

/// A PCM16 RIFF/WAVE file of interleaved `samples`.
pub fn write_pcm16(sample_rate: u32, channels: u16, samples: &[i16]) -> Result<Vec<u8>> {
    check_layout(channels, samples)?;
    let block_align = 2 * channels;
    let fmt = fmt_bytes(
        FORMAT_PCM,
        channels,
        sample_rate,
        sample_rate.saturating_mul(block_align as u32),
        block_align,
        16,
    );
    let data = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    Wave {
        chunks: vec![Chunk::new(b"fmt ", fmt), Chunk::new(b"data", data)],
    }
    .to_bytes()
}

fn check_layout(channels: u16, samples: &[i16]) -> Result<()> {
    if channels == 0 || !samples.len().is_multiple_of(channels as usize) {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            format!("whole frames of {channels} (> 0) channels"),
            format!("{} samples", samples.len()),
        ));
    }
    Ok(())
}

fn fmt_bytes(tag: u16, channels: u16, rate: u32, byte_rate: u32, align: u16, bits: u16) -> Vec<u8> {
    let mut f = Vec::with_capacity(50);
    f.extend(tag.to_le_bytes());
    f.extend(channels.to_le_bytes());
    f.extend(rate.to_le_bytes());
    f.extend(byte_rate.to_le_bytes());
    f.extend(align.to_le_bytes());
    f.extend(bits.to_le_bytes());
    f
}

/// Encodes interleaved PCM16 as an MS ADPCM RIFF/WAVE file with the standard
/// coefficients, `block_align` bytes per block (any size holding the block
/// header), 1 or 2 channels, and a `fact` chunk with the true frame count
/// (the last block is padded with silence).
pub fn encode_ms_adpcm(
    sample_rate: u32,
    channels: u16,
    samples: &[i16],
    block_align: u16,
) -> Result<Vec<u8>> {
    check_layout(channels, samples)?;
    let ch = channels as usize;
    if ch > 2 {
        return Err(FormatError::invalid(
            FORMAT,
            0,
            "1 or 2 MS ADPCM channels",
            ch,
        ));
    }
    let spb = adpcm_samples_per_block(block_align as usize, ch)
        .filter(|&s| s <= u16::MAX as usize)
        .ok_or_else(|| {
            FormatError::invalid(
                FORMAT,
                0,
                format!("a block align of at least {} bytes", ADPCM_HEADER * ch),
                block_align,
            )
        })?;
    let frames = samples.len() / ch;
    let frames_u32 = u32::try_from(frames)
        .map_err(|_| FormatError::invalid(FORMAT, 0, "under 2^32 frames", frames))?;
    let mut data = Vec::new();
    let mut channel = vec![0i16; spb];
    let mut codes: Vec<Vec<u8>> = vec![Vec::new(); ch];
    for start in (0..frames.max(1)).step_by(spb) {
        let mut headers = Vec::with_capacity(ch);
        for (c, channel_codes) in codes.iter_mut().enumerate() {
            for (i, slot) in channel.iter_mut().enumerate() {
                *slot = samples
                    .get((start + i) * ch + c)
                    .copied()
                    .filter(|_| start + i < frames)
                    .unwrap_or(0);
            }
            let (predictor, delta, block_codes) = encode_channel_block(&channel);
            headers.push((predictor, delta));
            *channel_codes = block_codes;
        }
        let block_start = data.len();
        for &(p, _) in &headers {
            data.push(p);
        }
        for &(_, d) in &headers {
            data.extend(d.to_le_bytes());
        }
        for c in 0..ch {
            data.extend(samples_at(samples, frames, ch, start + 1, c).to_le_bytes());
        }
        for c in 0..ch {
            data.extend(samples_at(samples, frames, ch, start, c).to_le_bytes());
        }
        let interleaved: Vec<u8> = (0..spb - 2)
            .flat_map(|i| (0..ch).map(move |c| (i, c)))
            .map(|(i, c)| codes[c][i])
            .collect();
        for pair in interleaved.chunks(2) {
            data.push(pair[0] << 4 | pair.get(1).copied().unwrap_or(0));
        }
        data.resize(block_start + block_align as usize, 0);
    }
    let byte_rate = (sample_rate as u64 * block_align as u64 / spb as u64) as u32;
    let mut fmt = fmt_bytes(
        FORMAT_MS_ADPCM,
        channels,
        sample_rate,
        byte_rate,
        block_align,
        4,
    );
    fmt.extend((4 + 4 * STANDARD_COEFFICIENTS.len() as u16).to_le_bytes());
    fmt.extend((spb as u16).to_le_bytes());
    fmt.extend((STANDARD_COEFFICIENTS.len() as u16).to_le_bytes());
    for (c1, c2) in STANDARD_COEFFICIENTS {
        fmt.extend(c1.to_le_bytes());
        fmt.extend(c2.to_le_bytes());
    }
    Wave {
        chunks: vec![
            Chunk::new(b"fmt ", fmt),
            Chunk::new(b"fact", frames_u32.to_le_bytes().to_vec()),
            Chunk::new(b"data", data),
        ],
    }
    .to_bytes()
}

fn samples_at(samples: &[i16], frames: usize, ch: usize, frame: usize, c: usize) -> i16 {
    if frame < frames {
        samples[frame * ch + c]
    } else {
        0
    }
}

/// Encodes one channel's block (`block[0]`, `block[1]` go in the header):
/// tries every standard predictor with a step estimated from its residual
/// and keeps the one with the smallest squared error.
fn encode_channel_block(block: &[i16]) -> (u8, i16, Vec<u8>) {
    let mut best: Option<(u64, u8, i16, Vec<u8>)> = None;
    for (p, &(c1, c2)) in STANDARD_COEFFICIENTS.iter().enumerate() {
        let mut st = AdpcmState {
            c1: c1 as i32,
            c2: c2 as i32,
            delta: 0,
            s1: block[1] as i32,
            s2: block[0] as i32,
        };
        // Step estimate: a quarter of the mean absolute prediction residual.
        let (mut sum, mut n) = (0u64, 0u64);
        for w in block.windows(3) {
            let pred = (w[1] as i32 * st.c1 + w[0] as i32 * st.c2) >> 8;
            sum += (w[2] as i32 - pred).unsigned_abs() as u64;
            n += 1;
        }
        let delta = ((sum / n.max(1)) / 4).clamp(MIN_DELTA as u64, i16::MAX as u64) as i16;
        st.delta = delta as i32;
        let mut err = 0u64;
        let mut codes = Vec::with_capacity(block.len() - 2);
        for &x in &block[2..] {
            let code = best_code(&st, x);
            let y = st.apply(code);
            let e = (x as i64 - y as i64).unsigned_abs();
            err += e * e;
            codes.push(code);
        }
        if best.as_ref().is_none_or(|b| err < b.0) {
            best = Some((err, p as u8, delta, codes));
        }
    }
    let (_, p, d, codes) = best.unwrap_or((0, 0, MIN_DELTA as i16, Vec::new()));
    (p, d, codes)
}

/// The 4-bit code whose reconstruction is nearest to `x` (rounded division).
fn best_code(st: &AdpcmState, x: i16) -> u8 {
    let residual = x as i32 - st.predict();
    let bias = if residual >= 0 {
        st.delta / 2
    } else {
        -(st.delta / 2)
    };
    ((residual + bias) / st.delta).clamp(-8, 7) as u8 & 0x0F
}

/// The four outcomes of a sound load (tome VI), kept distinct.
#[derive(Debug, Clone, PartialEq)]
pub enum SoundOutcome {
    /// No entry of that name.
    EntryMissing,
    /// The entry exists with a zero-length payload.
    EntryEmpty,
    /// The payload is not a decodable RIFF/WAVE.
    WaveInvalid(FormatError),
    /// A decoded sample.
    Decoded(DecodedSound),
}

impl SoundOutcome {
    /// The outcome's name as tome VI writes it.
    pub fn name(&self) -> &'static str {
        match self {
            SoundOutcome::EntryMissing => "entry_missing",
            SoundOutcome::EntryEmpty => "entry_empty",
            SoundOutcome::WaveInvalid(_) => "wave_invalid",
            SoundOutcome::Decoded(_) => "decoded_sample",
        }
    }
}

/// Classifies a payload (`None`: the entry does not exist). An empty payload
/// is never handed to the RIFF parser.
pub fn classify(payload: Option<&[u8]>) -> SoundOutcome {
    match payload {
        None => SoundOutcome::EntryMissing,
        Some([]) => SoundOutcome::EntryEmpty,
        Some(bytes) => match Wave::parse(bytes).and_then(|w| w.decode()) {
            Ok(sound) => SoundOutcome::Decoded(sound),
            Err(e) => SoundOutcome::WaveInvalid(e),
        },
    }
}

/// Loads the sound `name` (ASCII case-insensitive) of a sound archive.
pub fn load_sound(archive: &Nres<'_>, name: &[u8]) -> SoundOutcome {
    match archive.find(name) {
        None => classify(None),
        Some(i) => match classify(Some(archive.payload(i))) {
            SoundOutcome::WaveInvalid(e) => SoundOutcome::WaveInvalid(
                e.in_entry(i, String::from_utf8_lossy(archive.entries()[i].name())),
            ),
            other => other,
        },
    }
}

/// `sound export`: decodes entry `entry` of the NRes archive `archive` and
/// writes it as a PCM16 WAV to `out` (atomically). Each outcome other than a
/// decoded sample is an error naming it.
pub fn export_sound(archive: &Path, entry: &str, out: &Path) -> Result<DecodedSound> {
    let file = archive.display().to_string();
    let data = crate::fsutil::read_file(archive)?;
    let lib = Nres::parse(&data, Mode::Compatible).map_err(|e| e.in_file(&file))?;
    let sound = match load_sound(&lib, entry.as_bytes()) {
        SoundOutcome::Decoded(s) => s,
        SoundOutcome::WaveInvalid(e) => return Err(e.in_file(file)),
        SoundOutcome::EntryMissing => {
            return Err(
                FormatError::missing(FORMAT, format!("entry_missing: no entry '{entry}'"))
                    .in_file(file),
            );
        }
        SoundOutcome::EntryEmpty => {
            return Err(FormatError::invalid(
                FORMAT,
                0,
                "entry_empty: a non-empty sound payload",
                "0 bytes",
            )
            .in_file(file));
        }
    };
    crate::fsutil::write_atomic(out, &sound.to_wav()?)?;
    Ok(sound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_sign_extension() {
        let mut s = AdpcmState {
            c1: 256,
            c2: 0,
            delta: 16,
            s1: 0,
            s2: 0,
        };
        assert_eq!(s.apply(0x0F), -16); // -1 * 16
        assert_eq!(s.delta, 16); // 230 * 16 >> 8 = 14 -> clamped to 16
    }

    #[test]
    fn samples_per_block_formula() {
        assert_eq!(adpcm_samples_per_block(256, 1), Some(500));
        assert_eq!(adpcm_samples_per_block(512, 2), Some(500));
        assert_eq!(adpcm_samples_per_block(13, 2), None);
    }
}
