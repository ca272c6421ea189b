//! Mutation tests of the terrain readers: `Land.msh` (with a surface built
//! and queried on whatever parses) and `Land.map` (with a point lookup and a
//! route). Thousands of corrupted variants each: never a panic, peak heap
//! linear in the input.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::Nres;
use iron3d_formats::terrain::build::{
    ArealShape, Heightfield, land_from_heightfield, land_map_from_polygons,
};
use iron3d_formats::terrain::land_map::LandMap;
use iron3d_formats::terrain::land_msh::LandMsh;
use iron3d_formats::terrain::route::Navigator;
use iron3d_formats::terrain::surface::{FaceFilter, TerrainSurface};

/// At most 24 bytes of heap per input byte plus 64 KiB (typed copies of
/// the streams, the surface grid, the route arrays).
fn budget(len: usize) -> usize {
    24 * len + 64 * 1024
}

/// The NRes structure boundaries of a file: header, every payload start and
/// end, every directory entry.
fn boundaries(file: &[u8]) -> Vec<usize> {
    let nres = Nres::parse(file, Mode::Strict).unwrap();
    let mut cuts = vec![0, 4, 8, 12, 16];
    for e in nres.entries() {
        let (start, size) = (e.data_offset as usize, e.size as usize);
        cuts.extend([
            start,
            start + 1,
            start + size / 2,
            start + size - 1,
            start + size,
        ]);
    }
    let dir = file.len() - nres.entries().len() * 64;
    cuts.extend((dir..file.len()).step_by(4));
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn land_msh() -> Vec<u8> {
    let (cols, rows) = (5, 4);
    let heights = (0..cols * rows).map(|i| (i % 7) as f32).collect();
    let mut land = land_from_heightfield(&Heightfield {
        cols,
        rows,
        origin: [0.0, 0.0],
        spacing: 2.0,
        heights,
        block: 2,
    })
    .unwrap();
    land.faces[3].flags = 0x0020_0040;
    land.to_bytes().unwrap()
}

fn read_and_query_msh(data: &[u8]) -> Result<(), iron3d_formats::error::FormatError> {
    let land = LandMsh::parse(data, Mode::Strict)?;
    let nres = Nres::parse(data, Mode::Strict)?;
    assert_eq!(
        land.rewrite(&nres)?,
        data,
        "a parsed file writes back byte-identical"
    );
    let surface = TerrainSurface::build_lod0(&land);
    let _ = surface.height_at(3.0, 3.0, FaceFilter::ANY);
    let _ = surface.raycast([-1.0, 3.0, 50.0], [1.0, 0.1, -1.0], 200.0, FaceFilter::ANY);
    let _ = land.to_bytes()?;
    Ok(())
}

#[test]
fn land_msh_survives_mutations() {
    let valid = land_msh();
    read_and_query_msh(&valid).unwrap();
    let rejected = support::assert_robust(
        &valid,
        Some(&boundaries(&valid)),
        budget,
        read_and_query_msh,
    );
    assert!(rejected > 100, "only {rejected} variants rejected");
}

fn land_map() -> Vec<u8> {
    let shapes: Vec<ArealShape> = (0..12)
        .map(|i| {
            let (x, y) = ((i % 4) as f32, (i / 4) as f32);
            ArealShape {
                vertices: vec![
                    [x, y, 0.0],
                    [x + 1.0, y, 0.0],
                    [x + 1.0, y + 1.0, 0.0],
                    [x, y + 1.0, 0.0],
                ],
                logic_flag: 1,
                class_id: i,
            }
        })
        .collect();
    land_map_from_polygons(&shapes, [4, 3])
        .unwrap()
        .to_bytes()
        .unwrap()
}

fn read_and_route_map(data: &[u8]) -> Result<(), iron3d_formats::error::FormatError> {
    let map = LandMap::parse(data, Mode::Strict)?;
    let nres = Nres::parse(data, Mode::Strict)?;
    assert_eq!(
        map.rewrite(&nres)?,
        data,
        "a parsed file writes back byte-identical"
    );
    let _ = Navigator::new(&map).route([0.5, 0.5], [3.5, 2.5]);
    let _ = map.to_bytes()?;
    Ok(())
}

#[test]
fn land_map_survives_mutations() {
    let valid = land_map();
    read_and_route_map(&valid).unwrap();
    let rejected = support::assert_robust(&valid, None, budget, read_and_route_map);
    assert!(rejected > 100, "only {rejected} variants rejected");
}
