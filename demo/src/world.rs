//! The demo install's world: root configs, `BuildDat.lst`, unit DATs, maps
//! (`MAPS/MapNN/Land.msh` + `Land.map` + the layer tables `Land1.wea`,
//! `Land2.wea`) and missions
//! (`MISSIONS/Campaign.NN/Mission.NN/` + `MISSIONS/dispatcher.ini`).
//!
//! Every file is written by the project's own writers
//! ([`iron3d_formats::unitdat::UnitDat::build`], [`iron3d_formats::terrain::build`],
//! [`iron3d_formats::tma::Tma::to_bytes`], [`iron3d_formats::config::builddat::BuildDat::build`])
//! or as CRLF text in the shapes the config readers accept. Content comes
//! from a seeded [`Rng`] and integer maths; the only float operations are
//! `+ - * /` on exact small values.

pub mod arena;
mod land;
mod mission;
mod profiles;
mod research;
mod scripts;
pub use scripts::ROAD_PATH;
mod sky;
mod units;

use super::assets::Catalog;
use super::{Install, Scale};
use iron3d_formats::error::Result;

/// Sizes of a generated world.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Heightfield vertices per side of every map.
    map_size: usize,
    /// Campaigns, and missions per campaign (one map per mission).
    campaigns: usize,
    missions_per_campaign: usize,
    /// Trees and rocks per mission.
    trees: usize,
    rocks: usize,
    /// Robot designs (unit DAT files) and turrets on each.
    robot_designs: usize,
}

/// The walking robot designs of the demo scale (and the arena's).
const DEMO_ROBOT_DESIGNS: usize = 3;

impl Plan {
    fn of(scale: Scale) -> Plan {
        match scale {
            // 2 maps of 65 x 65 vertices; 2 missions of 40 objects.
            Scale::Demo => Plan {
                map_size: 65,
                campaigns: 1,
                missions_per_campaign: 2,
                trees: 12,
                rocks: 6,
                robot_designs: DEMO_ROBOT_DESIGNS,
            },
            // 30 maps of 77 x 77 = 5,929 vertices; 30 missions of about
            // 33 objects (~990), 19 unit references each (570, ~12 parts)
            // and the player's showcase with its hero.
            Scale::Retail => Plan {
                map_size: 77,
                campaigns: 3,
                missions_per_campaign: 10,
                trees: 4,
                rocks: 3,
                robot_designs: 40,
            },
        }
    }
}

/// Writes the world files of the install.
pub fn write(install: &mut Install, catalog: &Catalog, seed: u64, scale: Scale) -> Result<()> {
    let plan = Plan::of(scale);
    let mut rng = Rng::new(seed ^ 0x5752_4C44_0000_0006);
    write_root_configs(install)?;
    let units = units::write(install, catalog, &mut rng, plan.robot_designs)?;
    install.add(research::TREE_FILE, research::tree(&units.design_parts)?)?;

    let mut missions = Vec::new();
    for c in 0..plan.campaigns {
        for m in 0..plan.missions_per_campaign {
            let index = missions.len() + 1;
            let map_dir = format!("MAPS/Map{index:02}");
            let mut map_rng = Rng::new(rng.next_u64());
            let field = land::Field::generate(plan.map_size, &mut map_rng);
            install.add(format!("{map_dir}/Land.msh"), field.land_msh()?)?;
            install.add(format!("{map_dir}/Land.map"), field.land_map()?)?;
            let [layer1, layer2] = land::Field::layer_tables()?;
            install.add(format!("{map_dir}/Land1.wea"), layer1)?;
            install.add(format!("{map_dir}/Land2.wea"), layer2)?;
            let m = mission::MissionSpec {
                campaign: format!("Campaign.{c:02}"),
                name: format!("Mission.{:02}", m + 1),
                land_path: format!("MAPS\\Map{index:02}\\Land.msh"),
                trees: plan.trees,
                rocks: plan.rocks,
                first_site: missions.len() % 4,
                number: index,
            };
            mission::write(install, &m, &field, &units, &mut map_rng)?;
            missions.push(m);
        }
    }
    install.add("MISSIONS/dispatcher.ini", mission::dispatcher(&missions))?;
    mission::write_dialogue(install)?;
    scripts::write_varset(install)?;
    Ok(())
}

/// Writes the arena's world: the root configs, the unit DATs and the
/// arena's map and mission; returns its pieces' original ids.
pub fn write_arena(
    install: &mut Install,
    catalog: &Catalog,
    seed: u64,
    arena: &arena::Arena,
) -> Result<Vec<u32>> {
    let mut rng = Rng::new(seed ^ 0x5752_4C44_0000_0006);
    write_root_configs(install)?;
    let units = units::write(install, catalog, &mut rng, DEMO_ROBOT_DESIGNS)?;
    install.add(research::TREE_FILE, research::tree(&units.design_parts)?)?;
    let ids = arena::write(install, &units, arena)?;
    mission::write_dialogue(install)?;
    Ok(ids)
}

/// The root configs: `iron_3d.ini`, `Comp.ini`, `Behavior.ini`,
/// `hero.tbl`, `addition.man`, `ArealMap.ini`, the behaviour profiles
/// (`behpsp.res`) with the keys and demo values of tome VIII (and the
/// three keys Part 2 adds to `iron_3d.ini`).
fn write_root_configs(install: &mut Install) -> Result<()> {
    install.add(
        "iron_3d.ini",
        crlf(&[
            "[CS]",
            "DISPLAY_WIDTH=640",
            "DISPLAY_HEIGHT=480",
            "BITDEPTH=16",
            "CURRENT_D3DCARD=0",
            "WINDOW_MODE=0",
            "FORCE_SOFTWARE_CURSOR=1",
            "RENDER_QUALITY=2",
            "REFLECTIONS=1",
            "EMBOSS_BUMP=0",
            "EMBM=1",
            "PLAY_CD_MUSIC=1",
            "FORCE_CD_SOUND=\"D:\\SOUND\"",
            "MOUSE_SENS=100",
            "JOY_SENS=100",
            "MOUSE_REV_Y=0",
            "JOY_REV_Y=0",
            "JOY_ENABLE=0",
            "SUBTITLES=1",
            "SFX_VOLUME=100",
            "CD_VOLUME=100",
            "DEBUG_KEYS_ON=0",
            "GAME_LEVEL=1",
            "",
            "[MULTIPLAYER]",
            "IP=127.0.0.1",
            "LOGIN=Player",
            "PASSWORD=demo",
            "",
            "[TEMP]",
            "NORMALIZATION=1.0",
            "OFFENCE_MIN=0.5",
            "OFFENCE_MAX=1.5",
            "DEFENCE_MIN=0.5",
            "DEFENCE_MAX=1.5",
            "",
            "[LEVEL_RATIO]",
            "EASY=0.5",
            "MEDIUM=0.7",
            "HARD=1.0",
        ]),
    )?;
    install.add(
        "Comp.ini",
        crlf(&[
            "// CID DLL Function",
            "0 terrain.dll LoadLandscape",
            "1 terrain.dll LoadBuilding",
            "2 terrain.dll LoadCamera",
            "3 animesh.dll LoadAgent // units",
            "4 animesh.dll LoadAgent // heroes",
            "5 terrain.dll CreateAtmosphere",
            "6 terrain.dll CreateShader",
            "7 misload.dll LoadResearch",
        ]),
    )?;
    install.add(
        "Behavior.ini",
        crlf(&[
            "[BEHAVIOR]",
            "LogFile=Behavior.log",
            "SaveLog=0",
            "MaxErrorLevel=1",
            "DefErrorLevel=2",
            "LookBugMode=0",
            "ShowVectors=0",
            "NoZBuffer=0",
            "LockBehaviour=0",
            "UseDebugKey=1",
            "GiveDefaultOrder=0",
            "DefaultOrderPhase=10",
            "DeterminMode=0",
            "ImmortalHero=0",
            "UseWizard=1",
        ]),
    )?;
    install.add("hero.tbl", crlf(HERO_TABLE))?;
    install.add(
        iron3d_formats::config::profile::ARCHIVE,
        profiles::archive()?,
    )?;
    install.add("addition.man", crlf(PLAY_KEYS))?;
    install.add(
        "ArealMap.ini",
        crlf(&[
            "[AREALMAP]",
            "LogFile=ArealMap.log",
            "SaveLog=0",
            "ShowAreals=0",
            "Areal_NoZBuffer=0",
            "HallWay_NoZBuffer=0",
            "EdgeUp=0.5",
            "RunBehDebug=0",
        ]),
    )
}

/// `addition.man`, the keys the game looks up in play (openparkan
/// `docs/14-controls.md`, "The bindings"): the objectives screen and the
/// game menu on the keys the engine's code defaults give (the retail file
/// has the menu on F3).
const PLAY_KEYS: &[&str] = &[
    "CMD_JAMES_MISSION_OBJ SCAN_NULL SCAN_F12",
    "CMD_ROLLBACK_STATE SCAN_NULL SCAN_ESC",
];

/// The pilot's input table in the original layout (openparkan
/// `docs/14-controls.md`, "The table"): each key's press row and the
/// release row that sends the same command with 0, the keys the engine's
/// code defaults give (so the game plays the same with it or without).
const HERO_TABLE: &[&str] = &[
    "// Iron3D demo: the pilot's controls",
    "// dev   modifier  key        press class          command        value  index flag  ramp time",
    "KEY   SCAN_NULL SCAN_W       1  CICLS_UNKNOWN  MCMD_WALK_F    1.0  0  0         0.0  0     // walk forward",
    "KEY   SCAN_NULL SCAN_W       0  CICLS_UNKNOWN  MCMD_WALK_F    0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_S       1  CICLS_UNKNOWN  MCMD_WALK_B    1.0  0  0         0.0  0     // walk back",
    "KEY   SCAN_NULL SCAN_S       0  CICLS_UNKNOWN  MCMD_WALK_B    0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_A       1  CICLS_UNKNOWN  MCMD_LEFT      1.0  0  0         0.0  0     // OBJ_MOVE_LEFT",
    "KEY   SCAN_NULL SCAN_A       0  CICLS_UNKNOWN  MCMD_LEFT      0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_D       1  CICLS_UNKNOWN  MCMD_RIGHT     1.0  0  0         0.0  0     // OBJ_MOVE_RIGHT",
    "KEY   SCAN_NULL SCAN_D       0  CICLS_UNKNOWN  MCMD_RIGHT     0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_G_STAR  1  CICLS_UNKNOWN  MCMD_FORWARD   1.0  0  0         0.0  0     // OBJ_SPEED_MAX",
    "KEY   SCAN_NULL SCAN_G_SLASH 1  CICLS_UNKNOWN  MCMD_FORWARD   0.0  0  0         0.0  0     // OBJ_STOP",
    "KEY   SCAN_NULL SCAN_G_PLUS  1  CICLS_UNKNOWN  MCMD_FORWARD   1.0  0  0         0.05 1000  // OBJ_SPEED_MORE",
    "KEY   SCAN_NULL SCAN_G_PLUS  0  CICLS_UNKNOWN  MCMD_FORWARD   0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_G_MINUS 1  CICLS_UNKNOWN  MCMD_FORWARD  -1.0  0  0         0.05 1000  // OBJ_SPEED_LESS",
    "KEY   SCAN_NULL SCAN_G_MINUS 0  CICLS_UNKNOWN  MCMD_FORWARD   0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_LMOUSE  1  CICLS_MULTIGUN MCMD_STATE     1.0  0  0         0.0  0     // FIRE_SELECTED_CONT",
    "KEY   SCAN_NULL SCAN_LMOUSE  0  CICLS_MULTIGUN MCMD_STATE     0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_RMOUSE  1  CICLS_MULTIGUN MCMD_FIRE_ALL  1.0  0  0         0.0  0     // FIRE_ALL",
    "KEY   SCAN_NULL SCAN_RMOUSE  0  CICLS_MULTIGUN MCMD_FIRE_ALL  0.0  0  0         0.0  0",
    "KEY   SCAN_NULL SCAN_W_0     1  CICLS_MULTIGUN MCMD_SELECT    1.0  0  0         0.0  0     // SELECT_ALL_WEAPON",
    "KEY   SCAN_NULL SCAN_W_1     1  CICLS_MULTIGUN MCMD_SELECT    1.0  1  0         0.0  0     // SELECT_WEAPON_1",
    "KEY   SCAN_NULL SCAN_W_2     1  CICLS_MULTIGUN MCMD_SELECT    1.0  2  0         0.0  0     // SELECT_WEAPON_2",
    "KEY   SCAN_NULL SCAN_W_3     1  CICLS_MULTIGUN MCMD_SELECT    1.0  3  0         0.0  0     // SELECT_WEAPON_3",
    "KEY   SCAN_NULL SCAN_W_4     1  CICLS_MULTIGUN MCMD_SELECT    1.0  4  0         0.0  0     // SELECT_WEAPON_4",
    "KEY   SCAN_NULL SCAN_Q       1  CICLS_MULTIGUN MCMD_SELECT_NEXT 1.0 0 0         0.0  0     // next weapon",
    "MOUSE SCAN_NULL SCAN_MOUSE_X 1  CICLS_UNKNOWN  MCMD_ROTATE_Z  1.0  0  0         0.0  0     // OBJ_TURN",
    "MOUSE SCAN_NULL SCAN_MOUSE_Y 1  CICLS_TURRET   MCMD_ANGLE_X   1.0  0  0         0.0  0     // TURRET_UP",
];

/// Text lines joined with CRLF (every line terminated), as CP1251.
pub(crate) fn crlf(lines: &[&str]) -> Vec<u8> {
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push_str("\r\n");
    }
    encoding_rs::WINDOWS_1251.encode(&text).0.into_owned()
}

/// The generator's random numbers: SplitMix64 (integer only, the same on
/// every machine).
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// One item of a non-empty slice.
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}
