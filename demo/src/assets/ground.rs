//! The demo maps' ground: the layer texture tables every map directory
//! carries (`Land1.wea`, `Land2.wea`: `count`, then `index name` rows, as
//! retail maps have them) and the ground textures of `Textures.lib`.
//!
//! As in retail, a table names a texture without its entry suffix (`L00`
//! for the `Textures.lib` member `L00.0`), and a name with no texture
//! (`M_WATER`, as retail `WATER`) falls back to the `Material.lib` entry of
//! that name.

use super::textures::{Look, TexSpec};
use iron3d_formats::error::Result;
use iron3d_formats::texm::PixelFormat;
use iron3d_formats::wear::{Wear, WearRow};

/// Layer-1 rows (`Land1.wea`), by index.
pub const LAYER1: [&str; 4] = ["L00", "L01", "L02", "M_WATER"];
/// Layer-2 rows (`Land2.wea`), by index.
pub const LAYER2: [&str; 2] = ["L10", "L11"];

/// Layer-1 indices: grass, rock (steep ground), sand (shore), water.
pub const GRASS: u8 = 0;
pub const ROCK: u8 = 1;
pub const SAND: u8 = 2;
pub const WATER: u8 = 3;
/// Layer-2 indices: packed earth of build sites, gravel of roads.
pub const SITE: u8 = 0;
pub const ROAD: u8 = 1;

/// The `Textures.lib` member suffix of the ground textures (retail `L04.0`).
const MEMBER_SUFFIX: &str = ".0";

/// A layer table as `Land1.wea` / `Land2.wea` bytes.
pub fn table(names: &[&str]) -> Result<Vec<u8>> {
    let rows = names
        .iter()
        .enumerate()
        .map(|(i, name)| WearRow::new(i.to_string(), *name))
        .collect();
    Wear::new(rows, None).to_bytes()
}

/// The ground textures (every table name except the material fallback).
pub fn textures() -> Vec<TexSpec> {
    let look = |name: &str| match name {
        "L00" => Some(Look::Ground {
            base: [72, 112, 42],
            dark: [44, 72, 30],
            speck: [130, 160, 70],
        }),
        "L01" => Some(Look::Rock([150, 142, 130])),
        "L02" => Some(Look::Ground {
            base: [205, 185, 128],
            dark: [160, 140, 95],
            speck: [235, 222, 180],
        }),
        "L10" => Some(Look::Ground {
            base: [125, 98, 72],
            dark: [92, 72, 52],
            speck: [160, 140, 110],
        }),
        "L11" => Some(Look::Ground {
            base: [150, 142, 128],
            dark: [112, 106, 96],
            speck: [200, 195, 185],
        }),
        _ => None,
    };
    LAYER1
        .iter()
        .chain(&LAYER2)
        .filter_map(|name| {
            look(name).map(|look| TexSpec {
                name: format!("{name}{MEMBER_SUFFIX}"),
                look,
                size: 128,
                format: PixelFormat::Rgb565,
                mips: true,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iron3d_formats::archive::Mode;

    #[test]
    fn tables_parse_as_wear_rows_in_index_order() {
        let bytes = table(&LAYER1).unwrap();
        assert!(bytes.starts_with(b"4\r\n0 L00\r\n1 L01\r\n"));
        let wear = Wear::parse(&bytes, Mode::Strict).unwrap();
        assert_eq!(wear.material(WATER as usize), Some(&b"M_WATER"[..]));
        assert_eq!(wear.material(ROCK as usize), Some(&b"L01"[..]));
    }

    #[test]
    fn every_ground_texture_but_water_is_a_suffixed_member() {
        let names: Vec<String> = textures().into_iter().map(|t| t.name).collect();
        assert_eq!(names, ["L00.0", "L01.0", "L02.0", "L10.0", "L11.0"]);
    }
}
