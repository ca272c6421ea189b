//! Areal shapes shared by the terrain tests of `formats/tests` and the CLI
//! tests of the binary (each includes this file with `#[path]`).

#![allow(dead_code)] // each test binary uses a different part

use iron3d_formats::terrain::build::ArealShape;

/// The corners of the square of side `s` whose lowest corner is (x, y), on
/// the ground plane (z = 0), counter-clockwise.
pub fn square(x: f32, y: f32, s: f32) -> Vec<[f32; 3]> {
    vec![
        [x, y, 0.0],
        [x + s, y, 0.0],
        [x + s, y + s, 0.0],
        [x, y + s, 0.0],
    ]
}

/// Unit squares over y = 0..1 starting at each x of `xs` (logic flag 1,
/// class 0): adjacent ones share an edge.
pub fn unit_squares_in_a_row(xs: &[f32]) -> Vec<ArealShape> {
    xs.iter()
        .map(|&x| ArealShape {
            vertices: square(x, 0.0, 1.0),
            logic_flag: 1,
            class_id: 0,
        })
        .collect()
}
