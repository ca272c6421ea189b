#![no_main]
//! Land.map reader: a parsed file writes back byte-identical, and a point
//! lookup, a route, a walker's plan and its waypoints run on whatever
//! parses.

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::terrain::land_map::LandMap;
use iron3d_formats::terrain::route::Navigator;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(map) = LandMap::parse(data, Mode::Compatible) {
        let nres = Nres::parse(data, Mode::Compatible).expect("parsed once already");
        assert_eq!(map.rewrite(&nres).ok().as_deref(), Some(data));
        let nav = Navigator::new(&map);
        let _ = nav.route([0.0, 0.0], [100.0, 100.0]);
        let mut draw = 0u16;
        if let Ok(plan) = nav.plan([0.0, 0.0], [100.0, 100.0], |_| false, || {
            draw = draw.wrapping_add(7919) & 0x7fff;
            draw
        }) {
            let _ = nav.waypoints(&plan, [0.0, 0.0], [100.0, 100.0]);
        }
        let _ = map.to_bytes();
    }
});
