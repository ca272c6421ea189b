//! Small prototype formats: hand-written vectors of each layout, exact
//! framing, typed views and byte-identical round trips.

mod support;

use iron3d_formats::archive::Mode;
use iron3d_formats::archive::nres::{NewEntry, build};
use iron3d_formats::fixed::{FixedName, ResourceRef};
use iron3d_formats::proto::base::Base;
use iron3d_formats::proto::ctld::{Ctld, HALF_CONE, WHOLE_TURN};
use iron3d_formats::proto::ctpt::Ctpt;
use iron3d_formats::proto::expl::Expl;
use iron3d_formats::proto::ndpr::Ndpr;
use iron3d_formats::proto::opaque::Sund;
use iron3d_formats::proto::refs::ReferenceArray;
use iron3d_formats::proto::ske::Sky;
use iron3d_formats::proto::tfnt::{TEXM_OFFSET, Tfnt};
use iron3d_formats::proto::trf::Trf;
use support::expect_error;

fn name32(s: &str) -> Vec<u8> {
    let mut f = s.as_bytes().to_vec();
    f.resize(32, 0);
    f
}

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn ctpt_sample() -> Vec<u8> {
    let mut d = words(&[2]);
    d.extend(words(&[0x8000_0000, 5, 3]));
    d.extend(floats(&[1.0, 2.0, 3.0, 0.0, 1.0, 0.0]));
    d.extend(words(&[0, 0xFFFF_FFFF, 0]));
    d.extend(floats(&[0.0; 6]));
    d.extend(name32("TurretCenter"));
    let mut camera = name32("CameraCenter");
    camera[20] = 0x7A; // tail after the NUL
    d.extend(camera);
    d
}

#[test]
fn ctpt_points_and_names() {
    let data = ctpt_sample();
    let c = Ctpt::parse(&data).unwrap();
    assert_eq!(c.points.len(), 2);
    let t = c.find(b"turretcenter").unwrap();
    assert_eq!((t.flags_raw, t.link_raw, t.node), (0x8000_0000, 5, 3));
    assert_eq!((t.position, t.vector), ([1.0, 2.0, 3.0], [0.0, 1.0, 0.0]));
    assert_eq!(c.points[1].name.text(), "CameraCenter");
    assert_eq!(c.to_bytes().unwrap(), data);
    expect_error(
        Ctpt::parse(&data[..data.len() - 1]),
        4,
        "CTPT: expected control points: 2 x 68 bytes within the 135 remaining, \
         found 136 bytes needed",
    );
    let mut extra = data.clone();
    extra.push(0);
    expect_error(
        Ctpt::parse(&extra),
        140,
        "CTPT: expected end of data, 1 bytes remain",
    );
    let mut negative = data;
    negative[..4].copy_from_slice(&(-1i32).to_le_bytes());
    expect_error(
        Ctpt::parse(&negative),
        0,
        "CTPT: expected control points: a count >= 0, found -1",
    );
}

fn ndpr_sample() -> Vec<u8> {
    let mut d = words(&[2]);
    d.extend(words(&[0x20]));
    d.extend(floats(&[3000.0, 0.5]));
    d.extend(name32("static.rlb"));
    d.extend(name32("explode_tree.exp"));
    d.extend(words(&[1]));
    d.extend(floats(&[1_000_000.0, 2.0]));
    d.extend([0u8; 64]);
    d
}

#[test]
fn ndpr_records() {
    let data = ndpr_sample();
    let n = Ndpr::parse(&data).unwrap();
    assert_eq!(n.nodes.len(), 2);
    assert_eq!((n.nodes[0].flags, n.nodes[0].hit_points), (0x20, 3000.0));
    assert_eq!(n.nodes[0].explosion.name.name(), b"explode_tree.exp");
    assert!(n.nodes[1].explosion.is_empty());
    assert_eq!(n.to_bytes().unwrap(), data);
    expect_error(
        Ndpr::parse(&data[..4 + 76]),
        4,
        "NDPR: expected node records: 2 x 76 bytes within the 76 remaining, \
         found 152 bytes needed",
    );
}

fn expl_sample(kind: u32) -> Vec<u8> {
    let mut d = words(&[kind]);
    d.extend(floats(&[800.0, 3.0, 1.0, 1.0]));
    d.extend(words(&[7]));
    d.extend(name32("effects.rlb"));
    d.extend(name32("exp_frt_m"));
    for i in 1..12 {
        d.extend(name32("effects.rlb"));
        d.extend(name32(&format!("exp_s{i}")));
    }
    d
}

#[test]
fn expl_all_kinds_share_792_bytes() {
    for kind in 1..=4 {
        let data = expl_sample(kind);
        assert_eq!(data.len(), 792);
        let e = Expl::parse(&data).unwrap();
        assert_eq!(
            (e.kind, e.damage, e.radius, e.placement),
            (kind, 800.0, 3.0, 7)
        );
        assert_eq!(e.effects[0].name.name(), b"exp_frt_m");
        assert_eq!(e.effects[11].name.name(), b"exp_s11");
        assert_eq!(e.to_bytes(), data);
    }
    for kind in [0, 5, 0xFFFF_FFFF] {
        assert_eq!(Expl::parse(&expl_sample(kind)).unwrap_err().offset, 0);
    }
    expect_error(
        Expl::parse(&expl_sample(1)[..791]),
        760,
        "EXPL: truncated: expected 32 more bytes, 31 available",
    );
}

#[test]
fn reference_arrays_are_whole_64_byte_records() {
    let mut data = name32("static.rlb");
    data.extend(name32("s_tree_0_06.msh"));
    data.extend(name32("static.rlb"));
    data.extend(name32("s_tree_0_06.wea"));
    let r = ReferenceArray::parse(&data).unwrap();
    assert_eq!(r.refs.len(), 2);
    assert_eq!(r.refs[1].name.name(), b"s_tree_0_06.wea");
    assert_eq!(r.to_bytes(), data);
    expect_error(
        ReferenceArray::parse(&data[..100]),
        0,
        "ReferenceArray: expected a payload size that is a multiple of 64, found 100",
    );
    assert!(ReferenceArray::parse(&[]).unwrap().refs.is_empty());
    // no room for the NUL
    expect_error(
        ResourceRef::new(&[b'a'; 32], b"x"),
        0,
        &format!(
            "name: expected a name of at most 31 bytes without NUL, found \"{}\"",
            "a".repeat(32)
        ),
    );
    assert_eq!(FixedName::<32>::new(b"abc").unwrap().name(), b"abc");
}

fn base_sample() -> Vec<u8> {
    let mut d = words(&[1, 3]);
    d.extend(floats(&[
        0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0,
    ]));
    d.extend(words(&[10, 11, 12, 0, 1, 2])); // opaque tail
    d
}

#[test]
fn base_polygon_and_opaque_tail() {
    let data = base_sample();
    let b = Base::parse(&data).unwrap();
    assert_eq!(b.marker, 1);
    assert_eq!(b.corners().len(), 3);
    assert_eq!(b.points[3], b.points[0]);
    assert_eq!(b.tail.len(), 24);
    assert_eq!(b.to_bytes().unwrap(), data);
    expect_error(
        Base::parse(&data[..8 + 12 * 4 - 1]),
        8,
        "BASE: expected polygon points: 4 x 12 bytes within the 47 remaining, \
         found 48 bytes needed",
    );
    let mut negative = data;
    negative[4..8].copy_from_slice(&(-2i32).to_le_bytes());
    expect_error(
        Base::parse(&negative),
        4,
        "BASE: expected a corner count >= 0, found -2",
    );
}

/// A controller with every section: A=2 states with B=1 contact, C=1
/// channel, D=2 components (one labelled), E=2 groups.
fn ctld_sample() -> Vec<u8> {
    let mut d = words(&[2, 1, 1, 2, 2]);
    d.extend(words(&[0x4020_0000; 27]));
    for s in 0..2u8 {
        d.extend(vec![s + 1; 156 + 16]);
    }
    d.extend(floats(&[0.0, 1.0, 1.0, 0.0]));
    d.extend([9u8; 36]);
    // component 1: type 2, node 4, two entries, no label
    let mut fixed = words(&[2, 4]);
    fixed.resize(0x6C, 0);
    fixed.extend(name32("weapon.rlb"));
    fixed.extend(name32("bullet_01"));
    d.extend(&fixed);
    d.extend(words(&[2, 0, 0]));
    d.extend(words(&[0]));
    // component 2: label "i_eng_l" (L = 7, 8 bytes)
    d.extend(vec![0u8; 0xAC]);
    d.extend(words(&[0]));
    d.extend(words(&[7]));
    d.extend(b"i_eng_l\0");
    d.extend(words(&[0xFFFF_FFFF; 21]));
    // group 0: one action with a name; group 1: empty
    d.extend(words(&[1]));
    d.extend(words(&[0, 0, 0, 4, 1, 2, 3, 7, 0]));
    d.extend(name32("effects.rlb"));
    d.extend(name32("smoke_fr_01"));
    d.extend(words(&[0]));
    d
}

#[test]
fn ctld_count_driven_sections() {
    let data = ctld_sample();
    let c = Ctld::parse(&data).unwrap();
    assert_eq!(
        (c.states.len(), c.contacts_per_state, c.costs.len()),
        (2, 1, 4)
    );
    assert_eq!(c.states[1].len(), 172);
    assert_eq!(c.channels.len(), 1);
    assert_eq!(c.components[0].type_id(), 2);
    assert_eq!(c.components[0].node(), 4);
    assert_eq!(c.components[0].entries, [0, 0]);
    assert_eq!(c.components[0].emits().name.name(), b"bullet_01");
    assert_eq!(c.components[1].label_text(), b"i_eng_l");
    assert_eq!(c.group_block, [-1; 21]);
    assert_eq!(c.groups[0][0].words[3], 4);
    assert_eq!(c.groups[0][0].resource.name.name(), b"smoke_fr_01");
    assert!(c.groups[1].is_empty());
    assert_eq!(c.to_bytes().unwrap(), data);
    let mut extra = data.clone();
    extra.push(0);
    expect_error(
        Ctld::parse(&extra),
        1092,
        "CTLD: expected end of data, 1 bytes remain",
    );
}

#[test]
fn ctld_component_fields_sit_at_their_record_offsets() {
    use iron3d_formats::proto::ctld::{CLASS_ENGINE, COMPONENT_VALUES, Component};
    // An engine slot as a chassis declares it: class 5 on node 0, drive
    // (value 0) 1, power 20, mass 675, labelled.
    let mut slot = Component::new(CLASS_ENGINE, 0, b"i_eng_l");
    slot.set_value(0, 1.0);
    slot.set_value(COMPONENT_VALUES - 1, -2.5);
    slot.set_value(COMPONENT_VALUES, 9.0); // past the sixteen: ignored
    slot.set_power(20.0);
    slot.set_mass(675.0);
    let mut ctld = Ctld::parse(&ctld_frame()).unwrap();
    ctld.components.push(slot);
    let bytes = ctld.to_bytes().unwrap();
    // The record follows the 128-byte head and the parameter block.
    let record = &bytes[128..];
    let word = |at: usize| u32::from_le_bytes(record[at..at + 4].try_into().unwrap());
    let float = |at: usize| f32::from_bits(word(at));
    assert_eq!((word(0x00), word(0x04)), (CLASS_ENGINE, 0));
    assert_eq!((float(0x1C), float(0x20)), (675.0, 20.0));
    assert_eq!((float(0x2C), float(0x2C + 15 * 4)), (1.0, -2.5));
    assert_eq!(word(0xAC), 0, "no entries");
    assert_eq!(word(0xB0), 7, "the label length");
    assert_eq!(&record[0xB4..0xBC], b"i_eng_l\0");
    let back = Ctld::parse(&bytes).unwrap();
    let k = &back.components[0];
    assert_eq!(
        (k.type_id(), k.node(), k.mass(), k.power()),
        (5, 0, 675.0, 20.0)
    );
    assert_eq!(
        (k.value(0), k.value(15), k.value(16)),
        (Some(1.0), Some(-2.5), None)
    );
    assert_eq!(k.label_text(), b"i_eng_l");
    assert_eq!(back.to_bytes().unwrap(), bytes);
    // An unlabelled record stores L = 0 and no label bytes.
    let bare = Component::new(CLASS_ENGINE, 3, b"");
    assert_eq!((bare.label_len, bare.label.len(), bare.node()), (0, 0, 3));
}

#[test]
fn ctld_state_contacts_follow_the_fixed_bytes() {
    use iron3d_formats::proto::ctld::{CONTACT_DESTROYED, CONTACT_INTACT, StateContact};
    let data = ctld_sample();
    let mut c = Ctld::parse(&data).unwrap();
    // The sample's states are filled with their index + 1.
    let k = c.contacts(1)[0];
    assert_eq!(k.point, 0x0202_0202);
    assert_eq!((k.flags, k.gap), (0x0202_0202, 0x0202_0202));
    assert_eq!(c.contacts(2), []);
    // A left foot (point 3) that must be destroyed, landing group 5.
    let foot = StateContact {
        point: 3,
        flags: CONTACT_DESTROYED | 0x1000,
        group: 5,
        gap: 0,
    };
    c.states[0][156..172].copy_from_slice(&foot.to_bytes());
    let bytes = c.to_bytes().unwrap();
    let back = Ctld::parse(&bytes).unwrap();
    assert_eq!(back.contacts(0), [foot]);
    assert_eq!(back.contacts(0)[0].flags & CONTACT_INTACT, 0);
    // Only those 16 bytes of the file changed.
    let changed: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != data[i]).collect();
    assert!(
        changed.iter().all(|&i| (128 + 156..128 + 172).contains(&i)),
        "{changed:?}"
    );
}

#[test]
fn ctld_minimal_212_bytes() {
    let mut data = words(&[0; 5]);
    data.extend(words(&[0; 27]));
    data.extend([0xFF; 84]);
    assert_eq!(data.len(), 212);
    let c = Ctld::parse(&data).unwrap();
    assert_eq!(c.to_bytes().unwrap(), data);
    let mut with_b = data.clone();
    with_b[4] = 3; // B without states is kept
    assert_eq!(Ctld::parse(&with_b).unwrap().to_bytes().unwrap(), with_b);
}

/// The sky's clock (openparkan `docs/10-sky.md`, "How long a day
/// lasts"): a 2400 s day starting at 06:00, the sun from 06:00 to 18:50,
/// then the moon till 04:00; the clock wraps its day, a start time
/// replaces the file's, and the sun is up only within its spell.
#[test]
fn the_skys_clock_wraps_its_day_and_tells_when_the_sun_is_up() {
    use iron3d_formats::proto::ske::{
        ClockTime, EVENT_START_BODY, EVENT_STOP_BODY, Keyframe, SLOTS,
    };
    let key = |hour, minute, event, name: &str| {
        Keyframe::new(
            ClockTime::new(0, hour, minute),
            (event, name.as_bytes()),
            vec![[0; 4]; SLOTS],
            [1.0, 1.0, 1.0, 0.0],
        )
    };
    let mut sky = support::sky_sample();
    sky.sections.truncate(1);
    sky.sections[0].day_length = ClockTime::new(0, 0, 40);
    sky.sections[0].keyframes = vec![
        key(18, 50, EVENT_STOP_BODY, "sun"),
        key(6, 0, EVENT_START_BODY, "sun"),
        key(19, 0, EVENT_START_BODY, "moon"),
        key(4, 0, EVENT_STOP_BODY, "moon"),
    ];
    sky.start = ClockTime::new(0, 6, 0);
    // 06:00 of a 2400 s day is 600 s in; it wraps after 2400 s.
    assert_eq!(sky.position(None, 0), Some((0, 600_000)));
    assert_eq!(sky.position(None, 1_900_000), Some((0, 100_000)));
    let noon = ClockTime::new(0, 12, 0);
    assert_eq!(sky.position(Some(noon), 0), Some((0, 1_200_000)));
    // The keyframes in time order.
    let stamps: Vec<u64> = sky.sections[0]
        .timeline()
        .iter()
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(stamps, [400_000, 600_000, 1_883_333, 1_900_000]);
    let up = |hour| sky.sun_up(Some(ClockTime::new(0, hour, 0)), 0);
    assert_eq!(
        (up(6), up(12), up(18)),
        (Some(true), Some(true), Some(true))
    );
    assert_eq!(
        (up(19), up(23), up(2), up(5)),
        (Some(false), Some(false), Some(false), Some(false))
    );
    // 600 s of game time after noon (a quarter of the day): 18:00, still
    // up; 720 s after it: 19:12, the moon's.
    assert_eq!(sky.sun_up(Some(noon), 600_000), Some(true));
    assert_eq!(sky.sun_up(Some(noon), 720_000), Some(false));
    let dayless = Sky {
        sections: Vec::new(),
        ..sky
    };
    assert_eq!(dayless.sun_up(None, 0), None);
}

#[test]
fn sky_sections_keyframes_and_clock_round_trip() {
    use iron3d_formats::proto::ske::{SLOT_LIGHT, SLOTS};
    let sky = support::sky_sample();
    let data = sky.to_bytes().unwrap();
    let back = Sky::parse(&data).unwrap();
    assert_eq!(back, sky);
    assert_eq!(back.to_bytes().unwrap(), data);
    // The preamble: magic, version, sections; the first section's day
    // length sits at +64 (hours) and +68 (minutes).
    let word = |at: usize| i32::from_le_bytes(data[at..at + 4].try_into().unwrap());
    assert_eq!(
        (word(0), word(4), word(8), word(12), word(16)),
        (-1, 5, 2, 1, 2)
    );
    assert_eq!((word(64), word(68)), (0, 15));
    assert_eq!(back.day_seconds(), 900);
    assert_eq!(back.sections[1].day_seconds(), 1200);
    assert_eq!((back.start.hour(), back.start.minute()), (1, 30));
    let first = &back.sections[0].keyframes[0];
    assert_eq!(first.stamp.minutes(), 75);
    assert!(first.names_sun());
    assert_eq!(first.effects, [b"atm_rain1.wav".to_vec()]);
    // Colours are stored BGRA and read RGBA; a version 1 keyframe builds
    // slots 20 and 21 from slot 19 × 0.3.
    assert_eq!(first.colour(2), [6, 4, 2, 255]);
    let old = &back.sections[1].keyframes[0];
    assert_eq!(old.slots.len(), 20);
    assert_eq!(old.colour(21), [17, 11, 5, 255]);
    assert_eq!(old.colour(SLOT_LIGHT), [57, 38, 19, 255]);
    assert_eq!(first.slots.len(), SLOTS);
    // Errors: not the magic, a bad keyframe version, a string past the
    // end, trailing bytes.
    let mut wrong = data.clone();
    wrong[0] = 0;
    expect_error(
        Sky::parse(&wrong),
        0,
        "SKE: expected the magic -1, found -256",
    );
    let mut version = data.clone();
    version[84] = 7;
    expect_error(
        Sky::parse(&version),
        84,
        "SKE: expected a keyframe version of 1, 2 or 3, found 7",
    );
    let mut long = data.clone();
    long[212..216].copy_from_slice(&100_000i32.to_le_bytes());
    expect_error(
        Sky::parse(&long),
        216,
        "string bytes: 100000 x 1 bytes within the",
    );
    let mut trailing = data.clone();
    trailing.push(0);
    expect_error(
        Sky::parse(&trailing),
        data.len() as u64,
        "expected end of data, 1 bytes remain",
    );
}

fn tfnt_sample() -> Vec<u8> {
    let mut d = b"Tfnt".to_vec();
    d.extend(16i32.to_le_bytes());
    d.extend(20i32.to_le_bytes());
    d.extend(0.125f32.to_le_bytes());
    d.extend(1i32.to_le_bytes());
    for g in 0..256i32 {
        d.extend(floats(&[g as f32 / 256.0, (g + 1) as f32 / 256.0, 0.5]));
        d.extend((g % 13).to_le_bytes());
    }
    d.extend(b"Texm");
    d.extend([0xAB; 40]);
    d
}

#[test]
fn tfnt_header_glyphs_and_raw_texm() {
    let data = tfnt_sample();
    let f = Tfnt::parse(&data).unwrap();
    assert_eq!(
        (f.cell_width, f.height, f.v_span, f.spacing),
        (16, 20, 0.125, 1)
    );
    assert_eq!(f.glyphs[65].u0, 65.0 / 256.0);
    assert_eq!(f.glyphs[14].advance, 1);
    assert_eq!(&f.texm[..4], b"Texm");
    assert_eq!(f.texm.len(), data.len() - TEXM_OFFSET);
    assert_eq!(f.to_bytes().unwrap(), data);
    let mut no_texm = data.clone();
    no_texm[TEXM_OFFSET] = b'X';
    expect_error(
        Tfnt::parse(&no_texm),
        TEXM_OFFSET as u64,
        "Tfnt: bad magic: expected \"Texm\", found \"Xexm\"",
    );
    expect_error(
        Tfnt::parse(&data[..TEXM_OFFSET]),
        TEXM_OFFSET as u64,
        "Tfnt: truncated: expected 4 more bytes, 0 available",
    );
}

#[test]
fn trf_lists_its_nres_entries_and_keeps_the_bytes() {
    let data = build(&[NewEntry {
        name: b"weapons".to_vec(),
        type_id: 7,
        attr1: 0,
        attr2: 0,
        attr3: 0,
        payload: b"table",
    }])
    .unwrap();
    let t = Trf::parse(&data, Mode::Strict).unwrap();
    assert_eq!(t.entries()[0].name, b"weapons");
    assert_eq!(t.entries()[0].payload, b"table");
    assert_eq!(t.to_bytes(), data);
    expect_error(
        Trf::parse(b"NRes", Mode::Strict),
        4,
        "NRes: truncated: expected 4 more bytes, 0 available",
    );
}

#[test]
fn opaque_resources_round_trip() {
    let s = Sund::parse(b"\x01\x02\x03");
    assert_eq!(s.to_bytes(), b"\x01\x02\x03");
}

/// The engine's default parameter block (openparkan `docs/13-control.md`:
/// the value `Control.dll` writes into every slot, the commonest one in the
/// shipped files), with a flyer's top speed and a 2000 ms delete delay.
fn ctld_frame() -> Vec<u8> {
    let mut data = words(&[0; 5]);
    data.extend(floats(&[2.5; 3]));
    data.extend(floats(&[0.0; 3]));
    data.extend(floats(&[100.0, 100.0, 100.0]));
    data.extend(floats(&[WHOLE_TURN, 0.6, WHOLE_TURN]));
    data.extend(floats(&[1.0; 3]));
    data.extend(floats(&[WHOLE_TURN; 3]));
    data.extend(words(&[2000]));
    data.extend(floats(&[0.0, 0.0]));
    data.extend(words(&[2]));
    data.extend(floats(&[-1.0, HALF_CONE]));
    data.extend(words(&[0b1_0001]));
    data.extend(floats(&[-1.0, f32::MAX]));
    data.extend([0xFF; 84]);
    data
}

#[test]
fn ctld_parameters_read_as_typed_fields_at_their_file_offsets() {
    use iron3d_formats::proto::ctld::{ControlMode, ControlParams};
    let data = ctld_frame();
    let c = Ctld::parse(&data).unwrap();
    let p = c.control();
    assert_eq!(p.acceleration, [2.5; 3]);
    assert_eq!(p.unread_32, [0.0; 3]);
    assert_eq!(p.top_speed, [100.0; 3]);
    assert_eq!(p.turn_rate, [WHOLE_TURN, 0.6, WHOLE_TURN]);
    assert_eq!(p.righting, [1.0; 3]);
    assert_eq!(p.lean_limit, [WHOLE_TURN; 3]);
    assert_eq!(p.delete_delay_ms, 2000);
    assert_eq!(p.unknown_96, [0.0, 0.0]);
    assert_eq!(p.mode, ControlMode::BrakeOnSlopes);
    assert_eq!((p.range, p.slope_cone), (-1.0, HALF_CONE));
    assert_eq!(p.flags_116, 0b1_0001);
    assert_eq!((p.unknown_120, p.payload_kg), (-1.0, f32::MAX));

    // Written back bit for bit: each field lands at its offset, nothing
    // else moves, and values outside the known set survive.
    let mut edited = c.clone();
    let mut q = p;
    q.top_speed[1] = 14.0;
    q.delete_delay_ms = 5000;
    q.mode = ControlMode::Other(7);
    q.payload_kg = f32::from_bits(0x7FC0_1234); // a NaN with a payload
    edited.set_control(&q);
    assert_eq!(edited.control().mode, ControlMode::Other(7));
    assert_eq!(edited.control().payload_kg.to_bits(), 0x7FC0_1234);
    let bytes = edited.to_bytes().unwrap();
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(f32::from_bits(word(48)), 14.0);
    assert_eq!((word(92), word(104), word(124)), (5000, 7, 0x7FC0_1234));
    let changed: Vec<usize> = (0..bytes.len() / 4)
        .filter(|&w| bytes[w * 4..w * 4 + 4] != data[w * 4..w * 4 + 4])
        .map(|w| w * 4)
        .collect();
    assert_eq!(changed, [48, 92, 104, 124]);
    edited.set_control(&p);
    assert_eq!(edited.to_bytes().unwrap(), data, "the original block again");
    assert_eq!(ControlMode::from_raw(0), ControlMode::Plain);
    let mut defaults = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    let bytes = defaults.to_bytes().unwrap();
    assert_eq!(bytes.len(), 212, "the smallest shipped shape");
    assert_eq!(Ctld::parse(&bytes).unwrap(), defaults);
    assert!(
        bytes[128..].iter().all(|&b| b == 0xFF),
        "the unset group block"
    );
    defaults.set_control(&p);
    assert_eq!(defaults.to_bytes().unwrap(), data);
    assert_eq!(ControlMode::from_raw(3), ControlMode::Gravity);
}

#[test]
fn a_controller_holds_ground_when_a_state_carries_the_contact_flag() {
    use iron3d_formats::proto::ctld::{ControlParams, STATE_BASE, STATE_GROUND_CONTACT};
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    assert_eq!(ctld.to_bytes().unwrap().len(), 212, "the floor layout");
    assert!(
        ctld.holds_ground(),
        "no state: a plain body, held by gravity and the ground"
    );
    let state = |flags: u32| {
        let mut s = vec![0u8; STATE_BASE + 16];
        s[4..8].copy_from_slice(&flags.to_le_bytes());
        s
    };
    ctld.contacts_per_state = 1;
    ctld.states = vec![state(0xC0), state(0xC0)];
    ctld.costs = vec![0.0; 4];
    assert!(!ctld.holds_ground(), "righting bits only: a flyer");
    ctld.states[1] = state(0xC0 | STATE_GROUND_CONTACT);
    assert!(ctld.holds_ground());
    // The flag survives the round trip through the file.
    let again = Ctld::parse(&ctld.to_bytes().unwrap()).unwrap();
    assert!(again.holds_ground());
}

#[test]
fn a_state_record_reads_and_writes_its_fields_and_keeps_the_rest() {
    use iron3d_formats::proto::ctld::{
        ControlParams, STATE_ANCHOR, STATE_BASE, STATE_BY_VELOCITY, StateRecord,
    };
    // Every byte distinct, so a field read from the wrong offset shows.
    let raw: Vec<u8> = (0..STATE_BASE + 16).map(|i| (i * 7 + 3) as u8).collect();
    let mut ctld = Ctld::frame(&ControlParams::ENGINE_DEFAULT);
    ctld.contacts_per_state = 1;
    ctld.states = vec![raw.clone(), raw.clone()];
    ctld.costs = vec![0.0, 1.5, 2.5, 1e6];
    let read = ctld.state(0).unwrap();
    let word = |at: usize| u32::from_le_bytes(raw[at..at + 4].try_into().unwrap());
    assert_eq!(read.mode, word(4));
    assert_eq!(read.frames_b[1].to_bits(), word(0x18));
    assert_eq!(read.velocity[1][2].to_bits(), word(0x38));
    assert_eq!(read.spin[0][0].to_bits(), word(0x3c));
    assert_eq!(read.engine_factor.to_bits(), word(0x54));
    assert_eq!(read.request as u32, word(0x98));
    // Unchanged fields write back the same bytes.
    let mut copy = raw.clone();
    read.write(&mut copy);
    assert_eq!(copy, raw);
    // A walk state written over them changes only its own fields.
    let walk = StateRecord {
        mode: STATE_ANCHOR | STATE_BY_VELOCITY,
        box_flags: 0x2,
        frames_a: [0.0, 8.0],
        length_ms: 500.0,
        velocity: [[-1.0, 0.6, -1.0], [1.0, 5.0, 1.0]],
        ..StateRecord::IDLE
    };
    walk.write(&mut ctld.states[1]);
    let again = Ctld::parse(&ctld.to_bytes().unwrap()).unwrap();
    assert_eq!(again.state(1), Some(walk));
    assert_eq!(
        again.states[1][0x08..0x0c],
        raw[0x08..0x0c],
        "the lean bytes"
    );
    assert_eq!(
        again.states[1][0x58..0x90],
        raw[0x58..0x90],
        "the stride area"
    );
    assert_eq!(
        again.states[1][STATE_BASE..],
        raw[STATE_BASE..],
        "the contact"
    );
    assert!(again.state(1).unwrap().has(STATE_BY_VELOCITY));
    // Costs: the row is the destination.
    assert_eq!(again.cost(0, 1), Some(1.5));
    assert_eq!(again.cost(1, 0), Some(2.5));
    assert_eq!(again.cost(2, 0), None);
    assert_eq!(again.state(2), None);
}

#[test]
fn ctld_weapon_views_read_guns_channels_and_round_groups() {
    use iron3d_formats::proto::ctld::{
        ACTION_EXPLODE_NAMED, ACTION_STOP, Action, CHANNEL_FOLLOWER, CHANNEL_SIZE, CLASS_GUN,
        Channel, Component, FIRES_ALL_BARRELS, GROUP_AT_RANGE, GROUP_ON_HIT,
    };
    // A gun: magazine 60, capacitor 4, 0.5 a shot, 250 ms, every barrel
    // at once (flag word +8).
    let mut gun = Component::new(CLASS_GUN, 2, b"");
    for (i, v) in [60.0, 4.0, 0.5, 250.0].into_iter().enumerate() {
        gun.set_value(i, v);
    }
    gun.fixed[8..12].copy_from_slice(&FIRES_ALL_BARRELS.to_le_bytes());
    let g = gun.gun();
    assert_eq!(
        (g.magazine, g.capacitor, g.energy_per_shot, g.interval_ms),
        (60.0, 4.0, 0.5, 250.0)
    );
    assert!(!g.unlimited());
    assert_eq!(gun.flags(), FIRES_ALL_BARRELS);
    let round = ResourceRef::new(b"objects.rlb", b"bb_l_01").unwrap();
    gun.set_emits(&round);
    assert_eq!(gun.emits(), round);

    // A channel's fields sit at their offsets; its frames (+4, +8) stay.
    let mut record = [0u8; CHANNEL_SIZE];
    record[4..8].copy_from_slice(&55.0f32.to_le_bytes());
    let channel = Channel {
        node: 3,
        initial: 0.25,
        second_point: -1,
        point: 1,
        rate: 4.0,
        span: 1.92,
        flags: CHANNEL_FOLLOWER,
    };
    channel.write(&mut record);
    let word = |at: usize| u32::from_le_bytes(record[at..at + 4].try_into().unwrap());
    assert_eq!((word(0x00), word(0x10), word(0x14)), (3, u32::MAX, 1));
    assert_eq!(f32::from_bits(word(0x18)), 4.0);
    assert_eq!(word(0x20), CHANNEL_FOLLOWER);
    assert_eq!(f32::from_bits(word(4)), 55.0, "the first frame kept");
    assert_eq!(Channel::read(&record), channel);

    // A round's range group (block entry 4) explodes with a named .exp;
    // an unset entry (the hit group here) has no actions.
    let mut ctld = Ctld::parse(&ctld_frame()).unwrap();
    ctld.channels.push(record);
    let end = ResourceRef::new(b"weapon.rlb", b"rd_end.exp").unwrap();
    ctld.groups.push(vec![
        Action::new(ACTION_STOP, ResourceRef::default()),
        Action::new(ACTION_EXPLODE_NAMED, end),
    ]);
    ctld.group_block[GROUP_AT_RANGE] = 0;
    let back = Ctld::parse(&ctld.to_bytes().unwrap()).unwrap();
    let range: Vec<u32> = back
        .group_of(GROUP_AT_RANGE)
        .iter()
        .map(Action::code)
        .collect();
    assert_eq!(range, [ACTION_STOP, ACTION_EXPLODE_NAMED]);
    assert_eq!(back.group_of(GROUP_AT_RANGE)[1].resource, end);
    assert!(back.group_of(GROUP_ON_HIT).is_empty());
    assert!(back.group_of(99).is_empty(), "past the block");
    assert_eq!(back.channel(0), Some(channel));
    assert_eq!(back.channel(1), None);
}

#[test]
fn ctld_action_conditions_and_runs_pick_what_a_group_runs() {
    use iron3d_formats::proto::ctld::{
        ACTION_EFFECT_AT_POINT, ACTION_EFFECT_ON, Action, CLOSES_RUN, CONDITION_CRITICAL,
        OPENS_RUN, RUNS_IF_ALL, RUNS_IF_ANY, running,
    };
    let none = ResourceRef::default();
    let step = |surface: u32, flags: u32| {
        Action::with_args(ACTION_EFFECT_AT_POINT, [0, 0, 0, surface as i32], none).with_test(
            RUNS_IF_ANY | flags,
            1 << surface,
            0,
        )
    };
    // The arguments sit at +0x10..+0x1f.
    let a = Action::with_args(ACTION_EFFECT_ON, [7, -1, 2, 3], none);
    assert_eq!(a.args(), [7, -1, 2, 3]);
    assert_eq!(a.words[5], u32::MAX);
    // A record with no test always runs; "any" wants one masked byte,
    // "all" every one; the inversion counts a clear byte.
    assert!(a.holds(0));
    let any = a.clone().with_test(RUNS_IF_ANY, 0b110, 0);
    assert!(any.holds(0b010) && !any.holds(0b001));
    let all = a.clone().with_test(RUNS_IF_ALL, 0b110, 0);
    assert!(all.holds(0b110) && !all.holds(0b010));
    let clear = a.clone().with_test(RUNS_IF_ANY, 1 << 7, 1 << 7);
    assert!(clear.holds(0) && !clear.holds(1 << 7));
    let critical = a.with_test(RUNS_IF_ANY, 1 << CONDITION_CRITICAL, 0);
    assert!(critical.holds(1 << CONDITION_CRITICAL));
    // A switch: surfaces 5, 1 and 2, else the closing record (surface 9).
    let group = [
        step(5, OPENS_RUN),
        step(1, 0),
        step(2, 0),
        step(9, CLOSES_RUN),
        step(3, 0),
    ];
    assert_eq!(running(&group, 1 << 1), [false, true, false, false, false]);
    assert_eq!(running(&group, 1 << 5), [true, false, false, false, false]);
    assert_eq!(running(&group, 1 << 9), [false, false, false, true, false]);
    // Nothing in the run held: the else runs; after the run, records
    // stand on their own condition again.
    assert_eq!(running(&group, 1 << 4), [false, false, false, true, false]);
    assert_eq!(running(&group, 1 << 3), [false, false, false, true, true]);
}
