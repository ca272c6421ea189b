//! Mission scripts: `MISSIONS/SCRIPTS/varset.var` shared by every script,
//! and per mission a player script (objectives) and an enemy script
//! (problems that send units at the player), each a `.scr` with its `.fml`
//! written by the formats crate's script writer from the source form below
//! (docs/facts.md "Scripts"). The neutral and nature clans have none.
//!
//! The variable values are the demo's own: the engine resolves every
//! constant it interprets by name from the varset.

use crate::Install;
use iron3d_formats::error::Result;
use iron3d_formats::script::asm::assemble;
use iron3d_formats::script::varset::VarType::{self, Dword, Float, Str};
use iron3d_formats::script::varset::Varset;
use iron3d_formats::unitdat::{CLASS_BUILDING, CLASS_ROBOT};

/// Where the scripts live, as a legacy path and as an install path.
pub const LEGACY_DIR: &str = "MISSIONS\\SCRIPTS";
const DIR: &str = "MISSIONS/SCRIPTS";

/// The engine's handlers every script carries (docs/15).
const ENGINE_HANDLERS: [&str; 9] = [
    "Init",
    "Problems0",
    "Mission",
    "Fort_Task_Complete",
    "Fort_Captured",
    "Mech_GeneratorFound",
    "Mech_Mineral_Found",
    "Mech_Task_Complete",
    "Hero_Teleported",
];

/// The declarations of `varset.var` after the literal pool and the class
/// words: `(type, name, value)`.
const WORDS: [(VarType, &str, &str); 62] = [
    (Dword, "dCurrentProblem", "0"),
    (Dword, "dCurrentSender", "0"),
    (Float, "fDifficulty", "1"),
    (Dword, "ERROR", "0xffffffff"),
    (Dword, "NONE", "0xffffffff"),
    (Dword, "TRUE", "1"),
    (Dword, "FALSE", "0"),
    // The message channel's kinds and the outcome values.
    (Dword, "SYSTEM_MESSAGE", "1"),
    (Dword, "MESSAGE_INFO", "2"),
    (Dword, "OBJECTIVE_COMPLETE", "3"),
    (Dword, "OBJECTIVE_FAILED", "4"),
    (Dword, "OBJECTIVE_PROGRESS", "5"),
    (Dword, "CLAN_HERO_KILLED", "6"),
    (Dword, "MISSION_COMPLETE", "1"),
    (Dword, "MISSION_FAILED", "2"),
    // Clans by their number in the demo's data.tma, and the owner word of
    // a destroyed object.
    (Dword, "PLAYER_CLAN", "1"),
    (Dword, "ENEMY_CLAN", "2"),
    (Dword, "DESTROYED_OWNER", "65534"),
    // Orders (openparkan docs/31) and their packet words.
    (Dword, "ORDER_ROBOT_STOP", "1"),
    (Dword, "ORDER_ROBOT_GO", "2"),
    (Dword, "ORDER_ROBOT_ATTACK", "3"),
    (Dword, "ORDER_ROBOT_PATROL", "4"),
    (Dword, "ORDER_ROBOT_CAPTURE", "17"),
    (Dword, "INSERT_ORDER_END", "1"),
    (Dword, "INSERT_ORDER_START", "2"),
    (Dword, "INSERT_ORDER_REPLACE", "3"),
    (Dword, "TARGET_BY_LOGIC_ID", "0x201"),
    (Dword, "TARGET_BY_PLACE", "0x202"),
    (Dword, "TARGET_NOT_DEFINED", "0x204"),
    // Problems, their states, and how a group is gathered.
    (Dword, "PBM_ATTACK_UNIT", "1"),
    (Dword, "PBM_BASE_DEFENCE", "2"),
    (Dword, "ST_SOLVING", "1"),
    (Dword, "ST_SOLVED", "2"),
    (Dword, "ST_UNSOLVED", "3"),
    (Dword, "TAKE_ALL_BATTLE_UNITS", "2"),
    // The scripts' own variables.
    (Float, "ClanBaseX", "0"),
    (Float, "ClanBaseY", "0"),
    (Dword, "ClanID", "0"),
    (Dword, "dTemp", "0"),
    (Dword, "dT", "0"),
    (Dword, "dX", "0"),
    (Dword, "dGroup", "0"),
    (Float, "fDist", "0"),
    (Float, "fStrength", "0"),
    (Dword, "dDefenceRange", "300"),
    (Dword, "dHero", "0"),
    (Dword, "dTower", "0"),
    (Dword, "dGenerator", "0"),
    (Dword, "dRoute", "0"),
    (Dword, "dObj1", "0"),
    (Dword, "dObj2", "0"),
    (Dword, "dObj3", "0"),
    (Dword, "dBonus", "0"),
    (Dword, "dHint", "0"),
    (Dword, "dHintTime", "0"),
    // Building warbots: the order and target words, the design's name,
    // the factory, when to build next, and how many robots are enough.
    (Dword, "ORDER_BUILDING_CONSTRUCT", "12"),
    (Dword, "TARGET_BY_NAME", "0x205"),
    (Str, "sDesign", "\"Warbot\""),
    (Dword, "dFactory", "0"),
    (Dword, "dBuildTime", "0"),
    (Dword, "dBuildDelay", "30"),
    (Dword, "dMaxRobots", "10"),
];

/// The stored id of the road path from the enemy base by the neutral one
/// to the player's (`data.tma`).
pub const ROAD_PATH: i32 = 10;

/// The shared `varset.var`.
pub fn varset() -> Result<Varset> {
    // The literal pool first (`f0`..`f9`, `d0`..`d9`, each the number it
    // names), then
    // the class words of the unit DATs.
    let literals: Vec<(VarType, String, String)> = (0..20)
        .map(|i| {
            let (ty, prefix) = if i < 10 { (Float, 'f') } else { (Dword, 'd') };
            (ty, format!("{prefix}{}", i % 10), (i % 10).to_string())
        })
        .chain([
            (
                Dword,
                "CLASS_BUILDING".into(),
                format!("{CLASS_BUILDING:#x}"),
            ),
            (Dword, "CLASS_ROBOT".into(), format!("{CLASS_ROBOT:#x}")),
        ])
        .collect();
    let decls: Vec<(VarType, &str, &str)> = literals
        .iter()
        .map(|(t, n, v)| (*t, n.as_str(), v.as_str()))
        .chain(WORDS)
        .collect();
    Varset::build(&decls)
}

/// Writes `varset.var`.
pub fn write_varset(install: &mut Install) -> Result<()> {
    install.add(format!("{DIR}/varset.var"), varset()?.to_bytes())
}

/// The original ids the player's objectives name.
pub struct Targets {
    pub hero: u32,
    /// The enemy's tower: destroy it.
    pub tower: u32,
    /// The neutral generator: capture it.
    pub generator: u32,
    /// The TMA path the hero must reach.
    pub route: i32,
    /// Enemy units the enemy keeps on patrol along the road path, if any.
    pub patrols: Option<[u32; 2]>,
}

/// Assembles `source` (every engine handler it lacks added as a bare
/// `return`) and writes `<name>.scr` and `<name>.fml`; the legacy path a
/// clan names it by.
pub(super) fn write_script(
    install: &mut Install,
    vars: &Varset,
    name: &str,
    source: &str,
) -> Result<String> {
    let mut source = source.to_string();
    for handler in ENGINE_HANDLERS {
        if !source
            .lines()
            .any(|l| l.trim() == format!("handler {handler}"))
        {
            source.push_str(&format!("handler {handler}\n  return\n"));
        }
    }
    let (script, formulas) = assemble(&source, vars)?;
    install.add(format!("{DIR}/{name}.scr"), script.to_bytes()?)?;
    install.add(format!("{DIR}/{name}.fml"), formulas.to_bytes())?;
    Ok(format!("{LEGACY_DIR}\\{name}"))
}

/// Writes mission `index`'s player and enemy scripts; their legacy paths.
pub fn write(install: &mut Install, index: usize, t: &Targets) -> Result<(String, String)> {
    let vars = varset()?;
    let player = format!(
        "handler Init
  fn19(ClanBaseX, ClanBaseY, ClanID)
  dHero = {hero}
  dTower = {tower}
  dGenerator = {generator}
  dRoute = {route}
  dHintTime = fn59(d5)
  return
handler Mission
  // The hero lost: the mission fails.
  dTemp = fn52(dHero)
  if dTemp == DESTROYED_OWNER
    fn30(SYSTEM_MESSAGE, MISSION_FAILED)
    return
  end
  // A hint five seconds in (messages.cfg line 1).
  if dHint == d0
    dTemp = fn60(dHintTime)
    if dTemp == d1
      fn30(MESSAGE_INFO, d1)
      dHint = d1
    end
  end
  // Objective 0: the enemy tower destroyed.
  if dObj1 == d0
    dTemp = fn52(dTower)
    if dTemp == DESTROYED_OWNER
      fn30(OBJECTIVE_COMPLETE, d0)
      dObj1 = d1
    end
  end
  // Objective 1: the neutral generator held by the player (undone when lost).
  dTemp = fn52(dGenerator)
  if dObj2 == d0
    if dTemp == PLAYER_CLAN
      fn30(OBJECTIVE_COMPLETE, d1)
      dObj2 = d1
    end
  end
  if dObj2 == d1
    if dTemp != PLAYER_CLAN
      fn30(OBJECTIVE_PROGRESS, d1)
      dObj2 = d0
    end
  end
  // Objective 2: the hero at the free build site (a route of the mission).
  if dObj3 == d0
    dTemp = fn32(dRoute, dHero)
    if dTemp == d1
      fn30(OBJECTIVE_COMPLETE, d2)
      dObj3 = d1
    end
  end
  // The bonus, objective 3: no enemy robot left. The mission completes
  // when the three primaries are (the engine's completion test).
  if dBonus == d0
    dTemp = fn31(ENEMY_CLAN, CLASS_ROBOT)
    if dTemp == d0
      fn30(OBJECTIVE_COMPLETE, d3)
      dBonus = d1
    end
  end
  return
",
        hero = t.hero,
        tower = t.tower,
        generator = t.generator,
        route = t.route,
    );
    // Patrols go on until another order; the reserve keeps the problems'
    // groups from taking the units.
    let patrols: String = t
        .patrols
        .iter()
        .flatten()
        .map(|unit| {
            format!(
                "  dX = {unit}
  fn51(dX, TRUE)
  dT = {ROAD_PATH}
  fn15(dX, ORDER_ROBOT_PATROL, INSERT_ORDER_REPLACE, dT, f0, f0, f0, f0, TARGET_NOT_DEFINED)
"
            )
        })
        .collect();
    let enemy = format!(
        "handler Init
  fn19(ClanBaseX, ClanBaseY, ClanID)
{patrols}  return
handler Problems0
  // Its factory, if it has one, builds a warbot every dBuildDelay
  // seconds while the clan has fewer robots than dMaxRobots; the new
  // ones join the attacks.
  dTemp = fn60(dBuildTime)
  if dTemp == d1
    dFactory = fn67(fStrength)
    dTemp = fn31(ClanID, CLASS_ROBOT)
    if dFactory != ERROR
      if dTemp < dMaxRobots
        fn15(dFactory, ORDER_BUILDING_CONSTRUCT, INSERT_ORDER_END, NONE, f0, f0, f0, f0, TARGET_BY_NAME, sDesign)
      end
    end
    dBuildTime = fn59(dBuildDelay)
  end
  // An enemy near the base: defend it.
  dT = fn47(dDefenceRange, fStrength)
  if dT != ERROR
    fn2(PBM_BASE_DEFENCE, f2, d0, d0, dT, d0, d0)
  end
  // Otherwise go for the nearest enemy.
  dT = fn36(f0, fDist)
  if dT == ERROR
    return
  end
  fn2(PBM_ATTACK_UNIT, f1, d0, d0, dT, d0, d0)
  return
handler PBM_BASE_DEFENCE_Start
  switch Send_Group
handler PBM_BASE_DEFENCE_Continue
  switch Check_Target
handler PBM_ATTACK_UNIT_Start
  switch Send_Group
handler PBM_ATTACK_UNIT_Continue
  switch Check_Target
handler Send_Group
  // The problem's target, attacked by every battle unit the clan can spare.
  dX = fn29(d0)
  dGroup = fn25(TAKE_ALL_BATTLE_UNITS)
  if dGroup == ERROR
    fn8(ST_UNSOLVED)
    return
  end
  fn28(dGroup, ORDER_ROBOT_ATTACK, INSERT_ORDER_REPLACE, NONE, f0, f0, f0, f0, TARGET_BY_LOGIC_ID, dX)
  fn8(ST_SOLVING)
  return
handler Check_Target
  // Solved once the target is destroyed.
  dX = fn29(d0)
  dTemp = fn52(dX)
  if dTemp == DESTROYED_OWNER
    fn8(ST_SOLVED)
  end
  return
"
    );
    Ok((
        write_script(install, &vars, &format!("scr_pl_{index}"), &player)?,
        write_script(install, &vars, &format!("scr_en_{index}"), &enemy)?,
    ))
}
