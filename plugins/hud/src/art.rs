//! The install's interface sprites (openparkan `docs/35-hud.md`): the
//! compound controls' pieces of `ui/compaund.cfg` (the weapons list's
//! rows, the message box's frame), the panels' sprites of `ui/hq.cfg`, and
//! the sprites the engine cuts in code (the reticle, the radar's disc, the
//! panels' arcs), on pages of `ui/ui.lib` the `textures` resource of
//! `ui/game_resources.cfg` binds ([`InterfaceArt`]). Read once as the HUD
//! starts, through the game's one `Source`; what does not read is logged
//! and kept, and the HUD draws its plain shape in that sprite's place.

use bevy::prelude::*;
use iron3d_assets::IronSourceHandle;
use iron3d_formats::config::sprites::{InterfaceArt, Sprite};
use std::sync::Arc;

/// The sheets' sprites the HUD draws.
pub mod piece {
    // STAND-IN: every compound piece looked up as `ccres_<name>` and the
    // lamps as `ccres_<colour>_lamp` (docs/35 names the pieces without
    // their prefix except `ccres_long_button_*`); settled by listing the
    // retail `ui/compaund.cfg`'s object names.
    pub const LAMPS: [&str; 5] = [
        "ccres_red_lamp",
        "ccres_yellow1_lamp",
        "ccres_yellow2_lamp",
        "ccres_green_lamp",
        "ccres_black_lamp",
    ];
    pub const ENDING_TEXT: &str = "ccres_ending_text";
    pub const BODY_TEXT: &str = "ccres_body_text";
    pub const SEPARATOR_LEFT: &str = "ccres_separator_left_text";
    pub const RAY_EMITTER_OFF: &str = "ccres_ray_emitter_off";
    pub const RAY_BODY: &str = "ccres_ray_body";
    pub const RAY_ENDING: &str = "ccres_ray_ending";
    pub const FRAME_CORNERS: [&str; 4] = [
        "ccres_frame_corner_1",
        "ccres_frame_corner_2",
        "ccres_frame_corner_3",
        "ccres_frame_corner_4",
    ];
    pub const FRAME_EDGE_V: &str = "ccres_frame_edge_v";
    pub const FRAME_EDGE_H: &str = "ccres_frame_edge_h";
    pub const TARGETER_BACK: &str = "targeter_back";
    pub const TARGETER_RANGE: &str = "targeter_range";
    pub const TARGETER_LIFE: &str = "targeter_life";
    pub const TARGETER_ENERGY: &str = "targeter_energy";
    /// The shield sectors' sprites in sector order (front, back, left,
    /// right, top, bottom); right is left's, mirrored.
    pub const SHIELDS: [&str; 6] = [
        "frwd_shld",
        "back_shld",
        "left_shld",
        "left_shld",
        "top_shld",
        "bott_shld",
    ];
    /// Cut in code (docs/35 "The reticle", "The radar", "What is drawn,
    /// in order").
    pub const RETICLE_CIRCLE: &str = "reticle circle";
    pub const RETICLE_ARC: &str = "reticle arc";
    pub const RETICLE_RULER: &str = "reticle ruler";
    pub const RADAR_LEFT: &str = "radar left";
    pub const RADAR_RIGHT: &str = "radar right";
    pub const GAUGE_ARC: &str = "gauge arc";
    pub const GAUGE_BAR: &str = "gauge bar";
    pub const ALTITUDE_ICON: &str = "altitude icon";
    pub const SPEED_ICON: &str = "speed icon";
    pub const COMPASS_ARROW: &str = "compass arrow";
    /// The square of page7 whose centre the view wedge's fan is about.
    pub const VIEW_FAN: &str = "view fan";
}

/// Every sheet sprite the HUD asks for.
fn named() -> Vec<&'static str> {
    use piece::*;
    let mut names = LAMPS.to_vec();
    names.extend([
        ENDING_TEXT,
        BODY_TEXT,
        SEPARATOR_LEFT,
        RAY_EMITTER_OFF,
        RAY_BODY,
        RAY_ENDING,
        FRAME_EDGE_V,
        FRAME_EDGE_H,
        TARGETER_BACK,
        TARGETER_RANGE,
        TARGETER_LIFE,
        TARGETER_ENERGY,
    ]);
    names.extend(FRAME_CORNERS);
    for shield in SHIELDS {
        if !names.contains(&shield) {
            names.push(shield);
        }
    }
    names
}

/// The sprites the engine cuts in code: page, and rectangle on it.
const FIXED: [(&str, &str, [u32; 4]); 11] = [
    (piece::RETICLE_CIRCLE, "page9", [77, 0, 64, 64]),
    (piece::RETICLE_ARC, "page9", [54, 28, 23, 23]),
    (piece::RETICLE_RULER, "page9", [168, 0, 82, 15]),
    (piece::RADAR_LEFT, "page6", [156, 0, 99, 153]),
    (piece::RADAR_RIGHT, "page6", [155, 0, 100, 153]),
    (piece::GAUGE_ARC, "ui_menu3", [151, 82, 40, 94]),
    (piece::GAUGE_BAR, "page6", [121, 0, 31, 105]),
    (piece::ALTITUDE_ICON, "ui_menu3", [215, 0, 15, 28]),
    (piece::SPEED_ICON, "ui_menu3", [199, 0, 15, 28]),
    (piece::COMPASS_ARROW, "page6", [192, 154, 9, 11]),
    (piece::VIEW_FAN, "page7", [128, 0, 128, 128]),
];

/// Every sprite the HUD draws, the sheets' and those cut in code.
pub fn wanted() -> Vec<&'static str> {
    let mut names = named();
    names.extend(FIXED.iter().map(|(name, ..)| *name));
    names
}

/// The install's interface sprites.
#[derive(Resource, Debug, Clone, Default)]
pub struct InstallArt(pub Arc<InterfaceArt>);

/// Reads the sprites through the game's source.
pub(crate) fn read(source: Option<Res<IronSourceHandle>>, mut art: ResMut<InstallArt>) {
    let Some(source) = source else { return };
    let fixed: Vec<(&str, Sprite)> = FIXED
        .iter()
        .map(|&(name, page, [x, y, width, height])| {
            let sprite = Sprite {
                texture: page.into(),
                x,
                y,
                width,
                height,
                turns: 0,
            };
            (name, sprite)
        })
        .collect();
    let read = InterfaceArt::read(&source.0, &named(), &fixed);
    for fault in &read.faults {
        warn!("hud: an interface sprite did not read, its plain shape stands in: {fault}");
    }
    info!(
        "hud: {} interface sprites on {} pages",
        read.cuts.len(),
        read.pages.len()
    );
    art.0 = Arc::new(read);
}
