#![no_main]
//! The shared text-config reader and every reader on top of it.
use iron3d_formats::config::ambient::Ambient;
use iron3d_formats::config::blocks::{CompIni, ObjectConfig};
use iron3d_formats::config::briefing;
use iron3d_formats::config::ini::{self, Settings};
use iron3d_formats::config::text::TextConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(cfg) = TextConfig::parse(data, "ini") {
        assert_eq!(cfg.to_bytes(), data);
        for table in [
            ini::IRON_3D_INI,
            ini::BEHAVIOR_INI,
            ini::AREALMAP_INI,
            ini::DISPATCHER_INI,
        ] {
            let _ = Settings::resolve(&cfg, table);
        }
    }
    let _ = CompIni::parse(data);
    if let Ok(cfg) = ObjectConfig::parse(data, "mission.cfg") {
        let ambient = Ambient::read(&cfg);
        // Every name it gathers is a binding of the file.
        assert!(ambient.sounds().count() <= cfg.objects.iter().map(|o| o.fields.len()).sum());
        if let Ok(waypoints) = briefing::waypoints(&cfg) {
            assert_eq!(waypoints.len(), cfg.objects.len());
        }
    }
});
