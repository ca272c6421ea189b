//! A mission's `sky.ske` in the original sectioned layout (openparkan
//! `docs/10-sky.md`): one 900 s day whose sun is up from 00:30 to 14:30
//! and moon from 15:30 to 23:30, as the retail skies; the clock starts at
//! 01:30, early morning. Each keyframe holds its dome colours (a compass of
//! four per ring, the rising or setting side glowing; at night the top of
//! the dome lets the nebula through), its fog (end a multiple of 700 m),
//! its main light and its scene colour; a shower passes from 12:45 to
//! 13:45, heaviest at 13:15.

use iron3d_formats::error::Result;
use iron3d_formats::proto::ske::{
    ClockTime, EVENT_START_BODY, EVENT_START_RAIN, EVENT_STOP_BODY, EVENT_STOP_RAIN, Keyframe,
    SLOT_APEX, SLOT_CLOUDS, SLOT_COUNTER, SLOT_FLARE, SLOT_FOG_END, SLOT_FOG_START, SLOT_LIGHT,
    SLOT_SCENE, SLOTS, SLOTS_HORIZON, SLOTS_RING_2, SLOTS_RING_3, Section, Sky,
};
use iron3d_formats::wear::{Wear, WearRow};

type Rgb = [u8; 3];

/// One moment of the day.
struct Moment {
    at: (u32, u32),
    /// A body event and its name.
    event: Option<(i32, &'static str)>,
    apex: Rgb,
    ring_2: Rgb,
    ring_3: Rgb,
    horizon: Rgb,
    /// The glow on the horizon's east (k = 1) or west (k = 3) point.
    glow: Option<(usize, Rgb)>,
    light: Rgb,
    strength: f32,
    scene: Rgb,
    /// Fog end in units of 700 m.
    fog_end: f32,
    /// The alpha of the apex, ring 2 and ring 3: how much of their colour
    /// covers the nebula (the retail nights open the top of the dome).
    cover: [u8; 3],
    /// The weather's intensity (the rain's, while it falls).
    weather: f32,
}

const NONE: Option<(usize, Rgb)> = None;

const DAY: [Moment; 12] = [
    Moment {
        at: (0, 0),
        event: None,
        apex: [8, 12, 35],
        ring_2: [15, 22, 55],
        ring_3: [30, 35, 75],
        horizon: [55, 55, 90],
        glow: Some((1, [90, 60, 70])),
        light: [0, 0, 0],
        strength: 0.0,
        scene: [35, 38, 55],
        fog_end: 0.7,
        cover: [0, 0, 120],
        weather: 0.0,
    },
    Moment {
        at: (0, 30),
        event: Some((EVENT_START_BODY, "sun")),
        apex: [25, 35, 80],
        ring_2: [60, 70, 120],
        ring_3: [120, 100, 130],
        horizon: [200, 140, 110],
        glow: Some((1, [255, 170, 110])),
        light: [255, 190, 140],
        strength: 0.6,
        scene: [60, 55, 65],
        fog_end: 0.8,
        cover: [45, 30, 160],
        weather: 0.0,
    },
    Moment {
        at: (2, 30),
        event: None,
        apex: [60, 110, 190],
        ring_2: [100, 150, 215],
        ring_3: [150, 185, 230],
        horizon: [200, 215, 230],
        glow: Some((1, [235, 220, 200])),
        light: [255, 240, 220],
        strength: 1.0,
        scene: [85, 85, 95],
        fog_end: 1.0,
        cover: [255, 255, 255],
        weather: 0.0,
    },
    Moment {
        at: (7, 30),
        event: None,
        apex: [45, 100, 205],
        ring_2: [85, 140, 220],
        ring_3: [140, 180, 235],
        horizon: [195, 215, 240],
        glow: NONE,
        light: [255, 250, 240],
        strength: 1.3,
        scene: [95, 95, 100],
        fog_end: 1.0,
        cover: [255, 255, 255],
        weather: 0.0,
    },
    Moment {
        at: (12, 30),
        event: None,
        apex: [55, 100, 180],
        ring_2: [110, 145, 205],
        ring_3: [170, 180, 215],
        horizon: [215, 205, 200],
        glow: Some((3, [240, 200, 160])),
        light: [255, 230, 200],
        strength: 1.0,
        scene: [90, 85, 90],
        fog_end: 1.0,
        cover: [255, 255, 255],
        weather: 0.0,
    },
    Moment {
        at: (12, 45),
        event: Some((EVENT_START_RAIN, "")),
        apex: [100, 110, 130],
        ring_2: [125, 135, 150],
        ring_3: [150, 155, 165],
        horizon: [175, 175, 180],
        glow: NONE,
        light: [200, 200, 205],
        strength: 0.7,
        scene: [80, 80, 88],
        fog_end: 0.8,
        cover: [255, 255, 255],
        weather: 0.3,
    },
    Moment {
        at: (13, 15),
        event: None,
        apex: [85, 92, 105],
        ring_2: [100, 108, 120],
        ring_3: [120, 125, 135],
        horizon: [140, 142, 148],
        glow: NONE,
        light: [170, 170, 180],
        strength: 0.5,
        scene: [72, 72, 80],
        fog_end: 0.6,
        cover: [255, 255, 255],
        weather: 1.0,
    },
    Moment {
        at: (13, 45),
        event: Some((EVENT_STOP_RAIN, "")),
        apex: [70, 60, 110],
        ring_2: [110, 90, 130],
        ring_3: [160, 120, 130],
        horizon: [210, 150, 110],
        glow: Some((3, [240, 140, 90])),
        light: [240, 160, 110],
        strength: 0.7,
        scene: [72, 60, 68],
        fog_end: 0.8,
        cover: [255, 255, 255],
        weather: 0.0,
    },
    Moment {
        at: (14, 0),
        event: None,
        apex: [40, 40, 90],
        ring_2: [90, 70, 120],
        ring_3: [170, 110, 110],
        horizon: [230, 140, 90],
        glow: Some((3, [255, 120, 70])),
        light: [255, 150, 100],
        strength: 0.6,
        scene: [70, 55, 60],
        fog_end: 0.8,
        cover: [150, 170, 240],
        weather: 0.0,
    },
    Moment {
        at: (14, 30),
        event: Some((EVENT_STOP_BODY, "sun")),
        apex: [20, 20, 55],
        ring_2: [40, 35, 75],
        ring_3: [80, 55, 85],
        horizon: [120, 70, 80],
        glow: Some((3, [160, 80, 70])),
        light: [200, 110, 90],
        strength: 0.2,
        scene: [45, 42, 60],
        fog_end: 0.7,
        cover: [45, 70, 230],
        weather: 0.0,
    },
    Moment {
        at: (15, 30),
        event: Some((EVENT_START_BODY, "moon")),
        apex: [8, 10, 30],
        ring_2: [12, 16, 40],
        ring_3: [20, 25, 55],
        horizon: [40, 45, 75],
        glow: NONE,
        light: [150, 160, 200],
        strength: 0.4,
        scene: [35, 38, 55],
        fog_end: 0.7,
        cover: [0, 0, 120],
        weather: 0.0,
    },
    Moment {
        at: (23, 30),
        event: Some((EVENT_STOP_BODY, "moon")),
        apex: [8, 12, 35],
        ring_2: [15, 22, 55],
        ring_3: [30, 35, 75],
        horizon: [55, 55, 90],
        glow: Some((1, [80, 60, 70])),
        light: [150, 160, 200],
        strength: 0.1,
        scene: [35, 38, 55],
        fog_end: 0.7,
        cover: [0, 0, 120],
        weather: 0.0,
    },
];

/// A slot holding `rgb` (stored BGRA, opaque).
fn colour(rgb: Rgb) -> [u8; 4] {
    colour_over(rgb, 255)
}

/// A slot holding `rgb` with alpha `a` (stored BGRA).
fn colour_over([r, g, b]: Rgb, a: u8) -> [u8; 4] {
    [b, g, r, a]
}

fn keyframe(m: &Moment) -> Keyframe {
    let mut slots = vec![[0u8; 4]; SLOTS];
    let [apex, ring_2, ring_3] = m.cover;
    for (slots_of, rgb, a) in [
        (SLOTS_RING_2, m.ring_2, ring_2),
        (SLOTS_RING_3, m.ring_3, ring_3),
        (SLOTS_HORIZON, m.horizon, 255),
    ] {
        for slot in slots_of {
            slots[slot] = colour_over(rgb, a);
        }
    }
    if let Some((k, rgb)) = m.glow {
        slots[SLOTS_HORIZON[k]] = colour(rgb);
    }
    slots[SLOT_APEX] = colour_over(m.apex, apex);
    slots[SLOT_FOG_START] = 0f32.to_le_bytes();
    slots[SLOT_FOG_END] = m.fog_end.to_le_bytes();
    slots[SLOT_FLARE] = colour([255, 255, 255]);
    // The clouds: the horizon's colour, a little brighter (white by day,
    // dark blue by night).
    slots[SLOT_CLOUDS] = colour(m.horizon.map(|c| (u32::from(c) * 23 / 20).min(255) as u8));
    slots[SLOT_LIGHT] = colour(m.light);
    slots[SLOT_SCENE] = colour(m.scene);
    slots[SLOT_COUNTER] = colour(m.scene);
    let (event, name) = m.event.unwrap_or((2, ""));
    Keyframe::new(
        ClockTime::new(0, m.at.0, m.at.1),
        (event, name.as_bytes()),
        slots,
        [2.2, 2.0, m.strength, m.weather],
    )
}

/// The mission's `sky.wea`: its materials by role (0 the nebula, 2 the
/// clouds, 3 the sun, 4 the moon, 5 and 6 the flare, 7 the snow's flake, 8
/// the rain's drop), `Material.lib` names.
pub fn wear() -> Result<Vec<u8>> {
    let rows = [
        ("0", "ENV_NEBULA"),
        ("2", "ENV_CLOUDS"),
        ("3", "ENV_SUN"),
        ("4", "ENV_MOON"),
        ("5", "ENV_FLARE1"),
        ("6", "ENV_FLARE2"),
        ("7", "ENV_SNOW"),
        ("8", "ENV_RAIN"),
    ];
    Wear::new(
        rows.map(|(role, name)| WearRow::new(role, name)).to_vec(),
        None,
    )
    .to_bytes()
}

/// The mission's `sky.ske`.
pub fn sky() -> Result<Vec<u8>> {
    Sky {
        version: 5,
        sections: vec![Section {
            version: 1,
            end_of_day: ClockTime::new(0, 23, 59),
            day_length: ClockTime::new(0, 0, 15),
            keyframes: DAY.iter().map(keyframe).collect(),
        }],
        start: ClockTime::new(0, 1, 30),
        unread: 0,
        flag: 0,
    }
    .to_bytes()
}
