//! FXID: the 60-byte header, the fixed size of every opcode of tome V, the
//! resource reference offsets, unknown opcodes rejected, lossless writer.

mod support;

use iron3d_formats::error::Problem;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command, FxHeader, Fxid, HEADER_SIZE, command_size, resource_offset};
use support::expect_error;

const SIZES: [(u8, usize); 10] = [
    (1, 224),
    (2, 148),
    (3, 200),
    (4, 204),
    (5, 112),
    (6, 4),
    (7, 208),
    (8, 248),
    (9, 208),
    (10, 208),
];

fn header_bytes(count: u32) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend(count.to_le_bytes());
    h.extend(1u32.to_le_bytes()); // time mode
    h.extend(1.5f32.to_le_bytes()); // duration
    h.extend(0.25f32.to_le_bytes()); // jitter
    h.extend(0x16u32.to_le_bytes()); // flags
    h.extend(0x312u32.to_le_bytes()); // settings id
    for v in [0.1f32, 0.2, 0.3, 1.0, 0.0, 0.0, 2.0, 2.0, 2.0] {
        h.extend(v.to_le_bytes());
    }
    assert_eq!(h.len(), HEADER_SIZE);
    h
}

/// One command of `opcode` by hand: the word, a marker byte pattern, and
/// (archive, name) at the given offset.
fn command_bytes(opcode: u8, size: usize, word_high: u32) -> Vec<u8> {
    let mut c = vec![0u8; size];
    c[..4].copy_from_slice(&(opcode as u32 | word_high).to_le_bytes());
    for (i, b) in c.iter_mut().enumerate().skip(4) {
        *b = (i % 7) as u8 + 1;
    }
    if let Some(at) = resource_offset(opcode) {
        c[at..at + 64].fill(0);
        c[at..at + 11].copy_from_slice(b"sounds.lib\0");
        c[at + 32..at + 32 + 9].copy_from_slice(b"boom.wav\0");
        c[at + 50] = 0xEE; // a tail byte after the NUL is kept
    }
    c
}

#[test]
fn every_opcode_has_its_tome_size_and_round_trips() {
    for (opcode, size) in SIZES {
        assert_eq!(command_size(opcode), Some(size));
        let mut data = header_bytes(1);
        data.extend(command_bytes(opcode, size, 0x0000_0100));
        let fx = Fxid::parse(&data).unwrap();
        assert_eq!(fx.commands.len(), 1);
        let c = &fx.commands[0];
        assert_eq!((c.opcode(), c.size(), c.enabled()), (opcode, size, true));
        assert_eq!(fx.to_bytes().unwrap(), data, "opcode {opcode}");
    }
}

#[test]
fn header_fields_are_typed() {
    let fx = Fxid::parse(&header_bytes(0)).unwrap();
    let h = &fx.header;
    assert_eq!((h.time_mode, h.flags, h.settings_id), (1, 0x16, 0x312));
    assert_eq!((h.duration_seconds, h.phase_jitter), (1.5, 0.25));
    assert_eq!(h.random_shift, [0.1, 0.2, 0.3]);
    assert_eq!(h.pivot, [1.0, 0.0, 0.0]);
    assert_eq!(h.scale, [2.0; 3]);
}

#[test]
fn resource_references_of_opcodes_2_to_5_and_7_to_10() {
    let offsets = [
        (2, 84),
        (3, 136),
        (4, 136),
        (5, 48),
        (7, 144),
        (8, 184),
        (9, 136),
        (10, 144),
    ];
    for (opcode, at) in offsets {
        assert_eq!(resource_offset(opcode), Some(at));
        let size = command_size(opcode).unwrap();
        assert!(at + 64 <= size);
        let mut data = header_bytes(1);
        data.extend(command_bytes(opcode, size, 0));
        let fx = Fxid::parse(&data).unwrap();
        let r = fx.commands[0].resource().unwrap();
        assert_eq!(r.archive.name(), b"sounds.lib");
        assert_eq!(r.name.name(), b"boom.wav");
        assert_eq!(r.name.0[18], 0xEE, "tail kept");
    }
    for opcode in [1, 6] {
        assert_eq!(resource_offset(opcode), None);
        assert_eq!(Command::new(opcode, false).unwrap().resource(), None);
    }
}

#[test]
fn a_stream_of_several_commands_keeps_bits_9_to_31() {
    let mut data = header_bytes(3);
    data.extend(command_bytes(7, 208, 0xABCD_E000));
    data.extend(command_bytes(6, 4, 0x100));
    data.extend(command_bytes(2, 148, 0x200));
    let fx = Fxid::parse(&data).unwrap();
    assert_eq!(fx.commands[0].word, 0xABCD_E007);
    assert!(!fx.commands[0].enabled());
    assert!(fx.commands[1].enabled());
    assert!(!fx.commands[2].enabled());
    assert_eq!(fx.to_bytes().unwrap(), data);
}

#[test]
fn unknown_opcodes_are_rejected_at_the_command() {
    for opcode in [0u8, 11, 0x7F, 0xFF] {
        let mut data = header_bytes(2);
        data.extend(command_bytes(6, 4, 0));
        data.extend((opcode as u32).to_le_bytes());
        data.extend([0u8; 300]);
        let err = Fxid::parse(&data).unwrap_err();
        assert_eq!(err.offset, HEADER_SIZE as u64 + 4);
        assert!(matches!(err.problem, Problem::Unsupported { .. }), "{err}");
    }
}

#[test]
fn count_and_end_must_agree() {
    let mut data = header_bytes(2);
    data.extend(command_bytes(6, 4, 0));
    // one command short
    expect_error(
        Fxid::parse(&data),
        60,
        "FXID: expected commands: 2 x 4 bytes within the 4 remaining, found 8 bytes needed",
    );
    let mut data = header_bytes(1);
    data.extend(command_bytes(6, 4, 0));
    data.push(0);
    expect_error(
        Fxid::parse(&data),
        64,
        "FXID: expected end of data, 1 bytes remain",
    );
    let mut data = header_bytes(u32::MAX);
    data.extend(command_bytes(6, 4, 0));
    expect_error(
        Fxid::parse(&data),
        60,
        "FXID: expected commands: 4294967295 x 4 bytes within the 4 remaining, \
         found 17179869180 bytes needed",
    );
    expect_error(
        Fxid::parse(&header_bytes(0)[..59]),
        56,
        "FXID: truncated: expected 4 more bytes, 3 available",
    );
}

#[test]
fn builder_makes_commands_with_references() {
    let mut sound = Command::new(2, true).unwrap();
    sound
        .set_resource(&ResourceRef::new(b"sounds.lib", b"exp_01.wav").unwrap())
        .unwrap();
    let mut light = Command::new(1, false).unwrap();
    expect_error(
        light.set_resource(&ResourceRef::default()),
        0,
        "FXID: expected an opcode with a resource (2-5, 7-10), found 1",
    );
    light.body[0] = 1;
    expect_error(
        Command::new(0, true),
        0,
        "FXID: unsupported: command opcode 0 (known: 1-10)",
    );
    let fx = Fxid {
        header: FxHeader {
            time_mode: 2,
            duration_seconds: 3.0,
            ..FxHeader::default()
        },
        commands: vec![sound, light, Command::new(8, true).unwrap()],
    };
    let bytes = fx.to_bytes().unwrap();
    assert_eq!(bytes.len(), 60 + 148 + 224 + 248);
    assert_eq!(&bytes[..4], &3u32.to_le_bytes(), "count is derived");
    let back = Fxid::parse(&bytes).unwrap();
    assert_eq!(
        back.commands[0].resource().unwrap().name.name(),
        b"exp_01.wav"
    );
    assert_eq!(back.header.scale, [1.0; 3]);
    let mut wrong = back.clone();
    wrong.commands[1].body.pop();
    expect_error(
        wrong.to_bytes(),
        208,
        "FXID: expected command 1: the size of opcode 1, found 223 bytes",
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn command() -> impl Strategy<Value = Command> {
        (1u8..=10, any::<u32>(), any::<u64>()).prop_map(|(opcode, high, fill)| {
            let mut c = Command::new(opcode, false).unwrap();
            c.word = opcode as u32 | (high & !0xFF);
            for (i, b) in c.body.iter_mut().enumerate() {
                *b = (fill >> (i % 8 * 8)) as u8 ^ i as u8;
            }
            c
        })
    }

    proptest! {
        #[test]
        fn written_effects_read_back(
            commands in proptest::collection::vec(command(), 0..12),
            time_mode in any::<u32>(),
            flags in any::<u32>(),
        ) {
            let fx = Fxid {
                header: FxHeader { time_mode, flags, ..FxHeader::default() },
                commands,
            };
            let bytes = fx.to_bytes().unwrap();
            let back = Fxid::parse(&bytes).unwrap();
            prop_assert_eq!(&back.commands, &fx.commands);
            prop_assert_eq!(back.to_bytes().unwrap(), bytes);
        }
    }
}
