//! `briefing.cfg`: the briefing's camera flight, a typed view of its
//! `object WayPointN` ... `end` blocks (openparkan `docs/21-briefing.md`,
//! measured on all 378 shipped waypoints, each with all 24 fields; the
//! file stays an [`ObjectConfig`], written back byte-identical).
//!
//! Eye and look-at are in the map frame, as `data.tma` places objects.
//! An edge belongs to the waypoint it leaves; a dwell lasts
//! `WaypointTime` when `WaitForTime` is set, else nothing.

use super::blocks::{ConfigObject, ObjectConfig};
use crate::error::{FormatError, Result};

const FORMAT: &str = "briefing.cfg";

/// How the camera leaves a waypoint.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeType {
    Linear,
    Spline,
    /// Holds half the edge time while the picture goes black, cuts, and
    /// comes back over the other half.
    Jump,
}

/// What the camera does while at a waypoint.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitType {
    Continuous,
    Stay,
    /// Orbits the target, level, once per `RotateTime` (also spelt
    /// `flyby`).
    Flyaround,
}

/// One waypoint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Waypoint {
    pub name: String,
    pub camera: [f32; 3],
    pub target: [f32; 3],
    pub edge: EdgeType,
    pub wait: WaitType,
    pub edge_time: f32,
    pub waypoint_time: f32,
    pub rotate_time: f32,
    pub fade_time: f32,
    pub wait_for_time: bool,
    /// The subtitle's text resource and the voice's sound resource.
    pub text: String,
    pub sound: String,
    /// The black overlay, 0 clear to 100 black.
    pub fade_percent: f32,
    /// The waypoint to go to after this one (−1: the next).
    pub loop_index: i32,
}

/// Every waypoint of a briefing, in file order. A field that is missing
/// or does not read as its type is an error naming the object and line.
pub fn waypoints(cfg: &ObjectConfig) -> Result<Vec<Waypoint>> {
    cfg.objects.iter().map(|o| waypoint(cfg, o)).collect()
}

fn waypoint(cfg: &ObjectConfig, o: &ConfigObject) -> Result<Waypoint> {
    let offset = cfg
        .text
        .lines
        .get(o.line.saturating_sub(1))
        .map_or(0, |l| l.offset as u64);
    let fail = |key: &str, expected: &str, found: &str| {
        FormatError::invalid(
            FORMAT,
            offset,
            format!("object {} (line {}): {key} {expected}", o.name, o.line),
            format!("{found:?}"),
        )
    };
    let text = |key: &str| o.field(key).ok_or_else(|| fail(key, "present", "nothing"));
    let number = |key: &str| -> Result<f32> {
        let v = text(key)?;
        v.trim()
            .parse::<f32>()
            .ok()
            .filter(|n| n.is_finite())
            .ok_or_else(|| fail(key, "a number", v))
    };
    let flag = |key: &str| -> Result<bool> {
        let v = text(key)?;
        match v.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(fail(key, "true or false", v)),
        }
    };
    let triple = |axis: &str| -> Result<[f32; 3]> {
        Ok([
            number(&format!("{axis}X"))?,
            number(&format!("{axis}Y"))?,
            number(&format!("{axis}Z"))?,
        ])
    };
    let rotate_time = number("RotateTime")?;
    let edge = match text("EdgeType")?.trim().to_ascii_lowercase().as_str() {
        "linear" => EdgeType::Linear,
        "spline" => EdgeType::Spline,
        "jump" => EdgeType::Jump,
        _ => {
            return Err(fail(
                "EdgeType",
                "linear, spline or jump",
                text("EdgeType")?,
            ));
        }
    };
    let wait = match text("WaitType")?.trim().to_ascii_lowercase().as_str() {
        "continuous" => WaitType::Continuous,
        "stay" => WaitType::Stay,
        "flyaround" | "flyby" if rotate_time > 0.0 => WaitType::Flyaround,
        _ => {
            let expected = "continuous, stay, or flyaround with a RotateTime";
            return Err(fail("WaitType", expected, text("WaitType")?));
        }
    };
    let loop_index = text("LoopIndex")?;
    Ok(Waypoint {
        name: o.name.clone(),
        camera: triple("Camera")?,
        target: triple("Target")?,
        edge,
        wait,
        edge_time: number("EdgeTime")?.max(0.0),
        waypoint_time: number("WaypointTime")?.max(0.0),
        rotate_time,
        fade_time: number("FadeTime")?.max(0.0),
        wait_for_time: flag("WaitForTime")?,
        text: text("TextResID")?.to_string(),
        sound: text("SoundResID")?.to_string(),
        fade_percent: number("FadePercent")?.clamp(0.0, 100.0),
        loop_index: loop_index
            .trim()
            .parse()
            .map_err(|_| fail("LoopIndex", "an integer", loop_index))?,
    })
}

/// The text of a waypoint in the measured layout (all 24 fields), for
/// writers.
pub fn write_waypoint(w: &Waypoint) -> String {
    let edge = match w.edge {
        EdgeType::Linear => "linear",
        EdgeType::Spline => "spline",
        EdgeType::Jump => "jump",
    };
    let wait = match w.wait {
        WaitType::Continuous => "continuous",
        WaitType::Stay => "stay",
        WaitType::Flyaround => "flyaround",
    };
    let [cx, cy, cz] = w.camera;
    let [tx, ty, tz] = w.target;
    format!(
        "object {}\r\n    CameraX = {cx:.3}\r\n    CameraY = {cy:.3}\r\n    CameraZ = {cz:.3}\r\n    \
         TargetX = {tx:.3}\r\n    TargetY = {ty:.3}\r\n    TargetZ = {tz:.3}\r\n    \
         EdgeType = \"{edge}\"\r\n    WaitType = \"{wait}\"\r\n    EdgeTime = {:.2}\r\n    \
         WaypointTime = {:.3}\r\n    RotateTime = {:.3}\r\n    FadeTime = {:.3}\r\n    \
         ZoomTime = 0.000\r\n    WaitForText = false\r\n    WaitForSound = false\r\n    \
         WaitForTime = {}\r\n    WaitForClick = false\r\n    TextResID = \"{}\"\r\n    \
         SoundResID = \"{}\"\r\n    NoisePercent = 0\r\n    FadePercent = {}\r\n    \
         ZoomOn = false\r\n    NightVisionOn = false\r\n    LoopIndex = {}\r\nend\r\n",
        w.name,
        w.edge_time,
        w.waypoint_time,
        w.rotate_time,
        w.fade_time,
        w.wait_for_time,
        w.text,
        w.sound,
        w.fade_percent,
        w.loop_index,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Problem;

    fn sample() -> Waypoint {
        Waypoint {
            name: "WayPoint0".into(),
            camera: [767.965, 164.519, 118.899],
            target: [967.457, 610.348, 11.945],
            edge: EdgeType::Spline,
            wait: WaitType::Continuous,
            edge_time: 3.7,
            waypoint_time: 0.0,
            rotate_time: 0.0,
            fade_time: 0.0,
            wait_for_time: true,
            text: "T01_T01".into(),
            sound: "T01_T01".into(),
            fade_percent: 100.0,
            loop_index: -1,
        }
    }

    #[test]
    fn a_waypoint_reads_back_as_written_and_the_file_round_trips() {
        let mut flyaround = sample();
        flyaround.name = "WayPoint1".into();
        flyaround.wait = WaitType::Flyaround;
        flyaround.rotate_time = 6.0;
        flyaround.edge = EdgeType::Jump;
        let text = format!(
            "{}{}",
            write_waypoint(&sample()),
            write_waypoint(&flyaround)
        );
        let cfg = ObjectConfig::parse(text.as_bytes(), FORMAT).unwrap();
        assert_eq!(cfg.text.to_bytes(), text.as_bytes(), "byte-identical");
        let read = waypoints(&cfg).unwrap();
        assert_eq!(read, [sample(), flyaround]);
        assert_eq!(cfg.objects[0].fields.len(), 24, "the measured 24 fields");
    }

    #[test]
    fn a_bad_field_names_its_object_and_line() {
        let text = write_waypoint(&sample()).replace("EdgeTime = 3.70", "EdgeTime = soon");
        let cfg = ObjectConfig::parse(text.as_bytes(), FORMAT).unwrap();
        let err = waypoints(&cfg).unwrap_err();
        assert_eq!(err.format, FORMAT);
        let Problem::Invalid { expected, found } = &err.problem else {
            panic!("{err:?}");
        };
        assert_eq!(expected, "object WayPoint0 (line 1): EdgeTime a number");
        assert_eq!(found, "\"soon\"");
        let text = write_waypoint(&sample()).replace("    LoopIndex = -1\r\n", "");
        let cfg = ObjectConfig::parse(text.as_bytes(), FORMAT).unwrap();
        let err = waypoints(&cfg).unwrap_err();
        assert!(
            matches!(&err.problem, Problem::Invalid { expected, .. } if expected.ends_with("LoopIndex present"))
        );
        // A flyaround needs its revolution time.
        let text = write_waypoint(&sample()).replace("\"continuous\"", "\"flyaround\"");
        let cfg = ObjectConfig::parse(text.as_bytes(), FORMAT).unwrap();
        let err = waypoints(&cfg).unwrap_err();
        assert!(
            matches!(&err.problem, Problem::Invalid { expected, .. } if expected.contains("WaitType"))
        );
    }

    #[test]
    fn every_one_byte_mutation_reads_or_is_an_error() {
        let text = write_waypoint(&sample()).into_bytes();
        for i in 0..text.len() {
            for byte in [b'x', b'9', b'"', b'\n', 0xff] {
                let mut bad = text.clone();
                bad[i] = byte;
                if let Ok(cfg) = ObjectConfig::parse(&bad, FORMAT) {
                    assert_eq!(cfg.text.to_bytes(), bad);
                    if let Err(e) = waypoints(&cfg) {
                        assert_eq!(e.format, FORMAT);
                    }
                }
            }
        }
    }
}
