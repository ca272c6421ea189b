//! Mutation tests of the model readers: thousands of corrupted Texm payloads
//! and MSH containers; every reader (and everything done with what it
//! returns: validation, sampling, decoding, writing, export) returns a value
//! or an error, never panics, with bounded peak allocation.

mod msh_support;
mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::archive::Mode;
use iron3d_formats::error::Result;
use iron3d_formats::gltf::{ExportOptions, export_glb};
use iron3d_formats::msh::Msh;
use iron3d_formats::texm::{Mips, PixelFormat, Rgba8Image, Texm};

fn use_texm(data: &[u8]) -> Result<usize> {
    let t = Texm::parse(data)?;
    let mut n = 0;
    for level in 0..t.mip_count() {
        n += t.decode_level(level)?.pixels.len();
    }
    if t.mip_count() > 1 {
        n += t.skipped(1)?.page.map_or(0, |p| p.len());
    }
    Ok(n + t.to_bytes()?.len() + t.info().mip_sizes.len())
}

fn use_msh(data: &[u8]) -> Result<usize> {
    let m = Msh::parse(data, Mode::Strict)?;
    let info = m.info();
    m.validate()?;
    let poses = m.fallback_hierarchy()?.len() + m.sampled_hierarchy(1.5)?.len();
    let blended = m.blended_hierarchy(0.0, 2.0, 0.25)?.len();
    let glb = export_glb(&m, &ExportOptions::default())?;
    Ok(poses + blended + glb.len() + m.to_bytes()?.len() + info.streams.len())
}

#[test]
fn texm_survives_corruption() {
    let mut pixels = Vec::new();
    for i in 0..16u32 * 8 {
        pixels.extend_from_slice(&[(i * 3) as u8, (i * 7) as u8, (i * 11) as u8, i as u8]);
    }
    let img = Rgba8Image {
        width: 16,
        height: 8,
        pixels,
    };
    let mut total = 0;
    for format in PixelFormat::ALL {
        let mut t = Texm::from_rgba(&img, format, Mips::Full, None).unwrap_or_else(|_| {
            let p = iron3d_formats::texm::Palette::from_rgba(&[[1, 2, 3, 255]]).unwrap();
            Texm::from_rgba(&img, format, Mips::Full, Some(p)).unwrap()
        });
        t.page = Some(vec![
            iron3d_formats::texm::PageRect {
                x: 0,
                width: 8,
                y: 0,
                height: 8
            };
            3
        ]);
        let valid = t.to_bytes().unwrap();
        use_texm(&valid).unwrap();
        // Structure boundaries: header words, palette end, each level, Page.
        let mut cuts: Vec<usize> = (0..=32).step_by(4).collect();
        let mut at = 32 + t.palette.as_ref().map_or(0, |_| 1024);
        cuts.push(at);
        for level in &t.levels {
            at += level.len();
            cuts.extend([at - 1, at, at + 1]);
        }
        cuts.extend([at + 4, at + 8, at + 15, valid.len() - 1]);
        let rejected =
            support::assert_robust(&valid, Some(&cuts), |len| 16 * len + 65536, use_texm);
        assert!(rejected > 50, "{format:?}: {rejected}"); // palette bytes are free-form
        total += rejected;
    }
    // Pixel bytes are free-form: most flips stay valid; truncations and
    // header words must be rejected.
    assert!(total > 300, "{total}");
}

#[test]
fn msh_survives_corruption() {
    let valid = Msh::build(msh_support::two_node_parts())
        .unwrap()
        .to_bytes()
        .unwrap();
    use_msh(&valid).unwrap();
    let rejected = support::assert_robust(&valid, None, |len| 96 * len + (1 << 20), use_msh);
    assert!(rejected > 1000, "{rejected}");
}
