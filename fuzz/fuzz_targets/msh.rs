#![no_main]
//! MSH: whatever parses validates, samples and exports without panicking,
//! and writes back byte-identical.
use iron3d_formats::archive::Mode;
use iron3d_formats::gltf::{ExportOptions, export_glb};
use iron3d_formats::msh::Msh;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = Msh::parse(data, Mode::Strict) {
        let _ = m.info();
        if m.validate().is_ok() {
            let _ = m.sampled_hierarchy(1.5);
            let _ = m.blended_hierarchy(0.0, 3.0, 0.5);
            let _ = export_glb(&m, &ExportOptions::default());
        }
        assert_eq!(m.to_bytes().unwrap(), data);
    }
});
