//! Texm: hand-written vectors for every pixel format (with the channel
//! expansion), mip chains, the Page chunk, mip-skip, palettes by name suffix,
//! encoders and round trips.

mod support;

use iron3d_formats::archive::{Mode, nres};
use iron3d_formats::texm::*;
use proptest::prelude::*;
use support::expect_error;

fn texm(w: u32, h: u32, mips: u32, flags5: u32, format: u32, body: &[u8]) -> Vec<u8> {
    let mut v = b"Texm".to_vec();
    for x in [
        w,
        h,
        mips,
        if mips > 1 { 32 } else { 0 },
        flags5,
        0xDEAD,
        format,
    ] {
        v.extend_from_slice(&x.to_le_bytes());
    }
    v.extend_from_slice(body);
    v
}

fn words(ws: &[u16]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn decode(bytes: &[u8]) -> Vec<[u8; 4]> {
    let t = Texm::parse(bytes).unwrap();
    assert_eq!(t.to_bytes().unwrap(), bytes, "lossless");
    let img = t.decode_level(0).unwrap();
    img.pixels
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

#[test]
fn format_8888_is_bgra_in_memory() {
    let px = decode(&texm(
        2,
        1,
        1,
        0,
        8888,
        &[0x10, 0x20, 0x30, 0x40, 1, 2, 3, 255],
    ));
    assert_eq!(px, [[0x30, 0x20, 0x10, 0x40], [3, 2, 1, 255]]);
}

#[test]
fn format_888_is_opaque_and_keeps_x() {
    let bytes = texm(1, 1, 1, 0, 888, &[1, 2, 3, 0x99]);
    assert_eq!(decode(&bytes), [[3, 2, 1, 255]]);
    assert_eq!(Texm::parse(&bytes).unwrap().levels[0], [1, 2, 3, 0x99]);
}

#[test]
fn format_565_replicates_high_bits() {
    let px = decode(&texm(
        4,
        1,
        1,
        0,
        565,
        &words(&[0xF800, 0x07E0, 0x001F, 0x8410]),
    ));
    assert_eq!(
        px,
        [
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255],
            [0x84, 0x82, 0x84, 255]
        ]
    );
}

#[test]
fn format_556_has_six_blue_bits() {
    let px = decode(&texm(
        4,
        1,
        1,
        0,
        556,
        &words(&[0xF800, 0x07C0, 0x003F, 0x0020]),
    ));
    assert_eq!(
        px,
        [
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255],
            [0, 0, 0x82, 255]
        ]
    );
}

#[test]
fn format_4444_multiplies_by_17() {
    let px = decode(&texm(3, 1, 1, 0, 4444, &words(&[0xF000, 0x0F00, 0x1234])));
    assert_eq!(
        px,
        [[0, 0, 0, 255], [255, 0, 0, 0], [0x22, 0x33, 0x44, 0x11]]
    );
}

#[test]
fn format_88_is_luminance_low_alpha_high() {
    let px = decode(&texm(1, 1, 1, 0, 88, &words(&[0x80F0])));
    assert_eq!(px, [[0xF0, 0xF0, 0xF0, 0x80]]);
}

#[test]
fn indexed_uses_the_palette_after_the_header() {
    let mut body = vec![0u8; 1024];
    body[4..8].copy_from_slice(&[1, 2, 3, 4]); // entry 1: B G R X
    body[0..4].copy_from_slice(&[9, 9, 9, 9]);
    body.extend_from_slice(&[1, 0]);
    assert_eq!(
        decode(&texm(2, 1, 1, 0, 0, &body)),
        [[3, 2, 1, 255], [9, 9, 9, 255]]
    );
    // Alpha surface: index 0 is transparent.
    let px = decode(&texm(2, 1, 1, FLAG5_ALPHA_SURFACE, 0, &body));
    assert_eq!(px, [[3, 2, 1, 255], [9, 9, 9, 0]]);
}

#[test]
fn mip_chain_and_page_chunk_round_trip() {
    // 4x2, 3 levels: 4x2 + 2x1 + 1x1 = 11 pixels.
    let mut body: Vec<u8> = (0..44).collect();
    body.extend_from_slice(b"Page");
    body.extend_from_slice(&2u32.to_le_bytes());
    for v in [0i16, 2, 0, 2, 2, 2, 0, 2] {
        body.extend_from_slice(&v.to_le_bytes());
    }
    let bytes = texm(4, 2, 3, 0, 8888, &body);
    let t = Texm::parse(&bytes).unwrap();
    assert_eq!(
        t.levels.iter().map(Vec::len).collect::<Vec<_>>(),
        [32, 8, 4]
    );
    let rects = t.page.clone().unwrap();
    assert_eq!(
        rects[1],
        PageRect {
            x: 2,
            width: 2,
            y: 0,
            height: 2
        }
    );
    assert_eq!(t.to_bytes().unwrap(), bytes);
    assert_eq!(t.decode_level(2).unwrap().pixels, [42, 41, 40, 43]);
    expect_error(
        t.decode_level(3),
        0,
        "Texm: expected a mip level below 3, found 3",
    );
    // Mip-skip: new base 2x1, two levels, rectangles halved.
    let s = t.skipped(1).unwrap();
    assert_eq!((s.width, s.height, s.mip_count()), (2, 1, 2));
    assert_eq!(
        s.page.unwrap()[1],
        PageRect {
            x: 1,
            width: 1,
            y: 0,
            height: 1
        }
    );
    expect_error(
        t.skipped(3),
        0,
        "Texm: expected a mip-skip below the mip count 3, found 3",
    );
    let info = t.info();
    assert_eq!(info.mip_sizes, [[4, 2], [2, 1], [1, 1]]);
}

#[test]
fn strict_checks_reject_bad_payloads() {
    let ok = texm(2, 2, 1, 0, 565, &[0; 8]);
    Texm::parse(&ok).unwrap();
    let cases: Vec<(&str, Vec<u8>, u64, &str)> = vec![
        (
            "zero width",
            texm(0, 2, 1, 0, 565, &[0; 8]),
            4,
            "Texm: expected positive width and height, found 0x2",
        ),
        (
            "zero mips",
            texm(2, 2, 0, 0, 565, &[]),
            12,
            "Texm: expected mip count of at least 1, found 0",
        ),
        (
            "unknown format",
            texm(2, 2, 1, 0, 555, &[0; 8]),
            28,
            "Texm: expected format 0, 565, 556, 4444, 88, 888 or 8888, found 555",
        ),
        (
            "short chain",
            texm(2, 2, 1, 0, 565, &[0; 7]),
            32,
            "Texm: truncated: expected 8 more bytes, 7 available",
        ),
        (
            "tail without Page",
            texm(2, 2, 1, 0, 565, &[0; 12]),
            40,
            "Texm: bad magic: expected \"Page\", found \"\\x00\\x00\\x00\\x00\"",
        ),
        (
            "Page count too big",
            texm(
                2,
                2,
                1,
                0,
                565,
                &[&[0u8; 8][..], b"Page", &[1, 0, 0, 0]].concat(),
            ),
            48,
            "Texm: expected Page rectangles: 1 x 8 bytes within the 0 remaining, \
             found 8 bytes needed",
        ),
        (
            "Page tail",
            texm(
                2,
                2,
                1,
                0,
                565,
                &[&[0u8; 8][..], b"Page", &[0, 0, 0, 0, 1]].concat(),
            ),
            48,
            "Texm: expected end of data, 1 bytes remain",
        ),
        (
            "short palette",
            texm(1, 1, 1, 0, 0, &[0; 1000]),
            32,
            "Texm: truncated: expected 1024 more bytes, 1000 available",
        ),
        (
            "bad magic",
            [b"Texn", &ok[4..]].concat(),
            0,
            "Texm: bad magic: expected \"Texm\", found \"Texn\"",
        ),
        (
            "huge size",
            texm(0x10000, 0x10000, 1, 0, 8888, &[0; 8]),
            32,
            "Texm: truncated: expected 17179869184 more bytes, 8 available",
        ),
    ];
    for (what, bytes, offset, needle) in cases {
        let e = expect_error(Texm::parse(&bytes), offset, needle);
        // a bare buffer: no file or entry to name
        assert!(e.file.is_none() && e.entry.is_none(), "{what}: {e}");
    }
}

fn gradient(w: u32, h: u32) -> Rgba8Image {
    let mut pixels = Vec::new();
    for y in 0..h {
        for x in 0..w {
            pixels.extend_from_slice(&[
                (x * 37) as u8,
                (y * 53) as u8,
                ((x + y) * 11) as u8,
                (x * y) as u8,
            ]);
        }
    }
    Rgba8Image {
        width: w,
        height: h,
        pixels,
    }
}

#[test]
fn encoders_cover_every_format_with_a_full_chain() {
    let img = gradient(8, 4);
    for format in PixelFormat::ALL {
        let palette = (format == PixelFormat::Indexed8).then(|| {
            let colours: Vec<[u8; 4]> = (0..=255u8).map(|i| [i, i, i, 255]).collect();
            Palette::from_rgba(&colours).unwrap()
        });
        let t = Texm::from_rgba(&img, format, Mips::Full, palette).unwrap();
        assert_eq!(t.mip_count(), 4, "{format:?}");
        assert_eq!(t.flags4, FLAGS4_MIPMAPPED);
        let bytes = t.to_bytes().unwrap();
        let back = Texm::parse(&bytes).unwrap();
        assert_eq!(back, t, "{format:?}");
        // Re-encoding the decoded base level reproduces its bytes.
        let dec = back.decode_level(0).unwrap();
        let again = Texm::from_rgba(&dec, format, Mips::None, back.palette.clone()).unwrap();
        if format != PixelFormat::La88 {
            assert_eq!(again.levels[0], t.levels[0], "{format:?}");
        }
    }
    assert_eq!(
        Texm::from_rgba(&img, PixelFormat::Argb8888, Mips::Full, None)
            .unwrap()
            .decode_level(0)
            .unwrap(),
        img
    );
}

#[test]
fn indexed_encoder_builds_a_palette_or_refuses() {
    let img = Rgba8Image {
        width: 2,
        height: 1,
        pixels: vec![10, 20, 30, 255, 40, 50, 60, 255],
    };
    let t = Texm::from_rgba(&img, PixelFormat::Indexed8, Mips::None, None).unwrap();
    assert_eq!(t.decode_level(0).unwrap(), img);
    expect_error(
        Texm::from_rgba(&gradient(32, 32), PixelFormat::Indexed8, Mips::None, None),
        0,
        "Texm: expected at most 256 distinct colours for an indexed texture without a palette, \
         found more",
    );
}

#[test]
fn palettes_lib_is_chosen_by_name_suffix() {
    let mut red = vec![0u8; 1024];
    red[6] = 200; // entry 1: R
    let green_texm = {
        let mut body = vec![0u8; 1024];
        body[5] = 100; // entry 1: G
        body.push(1);
        texm(1, 1, 1, 0, 0, &body)
    };
    let e = |name: &str, payload| nres::NewEntry {
        name: name.as_bytes().to_vec(),
        type_id: u32::from_le_bytes(*b"PAL "),
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload,
    };
    let lib = nres::build(&[e("A.pal", &red), e("b3.PAL", &green_texm)]).unwrap();
    let pals = PaletteLib::parse(&lib, Mode::Strict).unwrap();
    assert_eq!(pals.slots.len(), 286);
    let mut body = vec![0u8; 1024];
    body.push(1);
    let t = Texm::parse(&texm(1, 1, 1, 0, 0, &body)).unwrap();
    let red_pal = pals.for_texture(b"WALL.A").unwrap();
    assert_eq!(
        t.decode_level_with(0, red_pal).unwrap().pixels,
        [200, 0, 0, 255]
    );
    let green = pals.for_texture(b"WALL.B3").unwrap();
    assert_eq!(
        t.decode_level_with(0, green).unwrap().pixels,
        [0, 100, 0, 255]
    );
    assert_eq!(pals.for_texture(b"WALL").unwrap(), None);
    assert!(
        pals.for_texture(b"WALL.C")
            .unwrap_err()
            .to_string()
            .contains("C.pal")
    );
    assert!(
        pals.for_texture(b"WALL.A12")
            .unwrap_err()
            .to_string()
            .contains("palette suffix")
    );
    // A bad palette payload names its entry.
    let bad = nres::build(&[e("Q.pal", &[0u8; 10])]).unwrap();
    assert!(
        PaletteLib::parse(&bad, Mode::Strict)
            .unwrap_err()
            .to_string()
            .contains("Q.pal")
    );
}

#[test]
fn png_output_is_readable() {
    let img = gradient(3, 2);
    let png = png_bytes(&img).unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(&png))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (3, 2));
    assert_eq!(&buf[..info.buffer_size()], &img.pixels[..]);
}

proptest! {
    #[test]
    fn encode_decode_encode_is_stable(w in 1u32..9, h in 1u32..9, seed in any::<u64>(), f in 0usize..6) {
        let format = PixelFormat::ALL[f];
        let mut s = seed;
        let pixels = (0..w * h * 4).map(|_| { s = s.wrapping_mul(6364136223846793005).wrapping_add(1); (s >> 56) as u8 }).collect();
        let img = Rgba8Image { width: w, height: h, pixels };
        let t = Texm::from_rgba(&img, format, Mips::Full, None).unwrap();
        let bytes = t.to_bytes().unwrap();
        let back = Texm::parse(&bytes).unwrap();
        prop_assert_eq!(&back, &t);
        let dec = back.decode_level(0).unwrap();
        let again = Texm::from_rgba(&dec, format, Mips::None, None).unwrap();
        if format != PixelFormat::La88 {
            prop_assert_eq!(&again.levels[0], &t.levels[0]);
        }
    }
}
