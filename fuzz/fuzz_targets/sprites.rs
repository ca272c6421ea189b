#![no_main]
//! Sprite sheets (`ui/compaund.cfg`, `ui/hq.cfg`): a sheet that reads writes
//! back byte-identical, and every block types as a sprite or fails.
use iron3d_formats::config::sprites::SpriteSheet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(sheet) = SpriteSheet::parse(data) {
        assert_eq!(sheet.to_bytes(), data);
        for object in &sheet.config.objects {
            let _ = sheet.sprite(&object.name);
        }
    }
});
