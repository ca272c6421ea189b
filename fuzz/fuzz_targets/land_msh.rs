#![no_main]
//! Land.msh reader: a parsed file writes back byte-identical, and a surface
//! is built and queried on whatever parses.

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::surface::{FaceFilter, TerrainSurface};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(land) = LandMsh::parse(data, Mode::Compatible) {
        let nres = Nres::parse(data, Mode::Compatible).expect("parsed once already");
        assert_eq!(land.rewrite(&nres).ok().as_deref(), Some(data));
        let surface = TerrainSurface::build_lod0(&land);
        let _ = surface.height_at(0.0, 0.0, FaceFilter::ANY);
        let _ = surface.raycast([0.0, 0.0, 1e4], [0.3, 0.2, -1.0], 1e5, FaceFilter::ANY);
        let _ = land.to_bytes();
    }
});
