//! Mutation tests of the material, effect, sound and small prototype
//! readers: thousands of corrupted variants of valid inputs (truncation at
//! every offset, flipped bytes, words pushed out of range) must give a value
//! or an error, never a panic, with bounded peak allocation.

mod support;

#[global_allocator]
static ALLOC: support::CountingAlloc = support::CountingAlloc;

use iron3d_formats::archive::Mode;
use iron3d_formats::fixed::FixedName;
use iron3d_formats::fixed::ResourceRef;
use iron3d_formats::fxid::{Command, FxHeader, Fxid};
use iron3d_formats::mat0::{AnimBlock, AnimKey, Mat0, Phase};
use iron3d_formats::proto::base::Base;
use iron3d_formats::proto::ctld::{Action, Component, Ctld};
use iron3d_formats::proto::ctpt::{ControlPoint, Ctpt};
use iron3d_formats::proto::expl::Expl;
use iron3d_formats::proto::ndpr::{Ndpr, NodeDamage};
use iron3d_formats::proto::refs::ReferenceArray;
use iron3d_formats::proto::ske::Sky;
use iron3d_formats::proto::tfnt::{Glyph, Tfnt};
use iron3d_formats::sound::{Wave, encode_ms_adpcm, write_pcm16};
use iron3d_formats::wear::Wear;

/// Linear in the input with a fixed allowance: decoded audio may reach 4x
/// the input (two 16-bit samples per ADPCM byte) plus the parsed copy.
fn budget(len: usize) -> usize {
    16 * len + 64 * 1024
}

fn check<T, E>(name: &str, valid: &[u8], read: impl Fn(&[u8]) -> Result<T, E>) {
    assert!(read(valid).is_ok(), "{name}: the valid input must parse");
    let rejected = support::assert_robust(valid, None, budget, read);
    assert!(rejected > 0, "{name}: some variants must be rejected");
}

#[test]
fn wear_survives_mutation() {
    let valid =
        b"3\r\n0 TREE\r\n1 LEAVES\r\n2 DEFAULT\r\n\r\nLIGHTMAPS\r\n2\r\n0 LM_A\r\n1 LM_B\r\n";
    check("WEAR strict", valid, |d| Wear::parse(d, Mode::Strict));
    check("WEAR compatible", valid, |d| {
        Wear::parse(d, Mode::Compatible).and_then(|w| w.to_bytes())
    });
}

fn material() -> Mat0 {
    let mut m = Mat0::new(4, 0x16);
    for i in 0..3u8 {
        m.phases.push(Phase::new([i; 18], b"TEXTURE").unwrap());
    }
    for mode in 0..4 {
        m.animations.push(AnimBlock {
            header: mode | 0x18,
            keys: (0..3)
                .map(|k| AnimKey {
                    k0: k,
                    k1: k * 10,
                    k2: 0,
                })
                .collect(),
        });
    }
    m
}

#[test]
fn mat0_survives_mutation() {
    let valid = material().to_bytes().unwrap();
    for version in [1, 2, 3, 4, 6] {
        let mut m = material();
        m.version = version;
        let bytes = m.to_bytes().unwrap();
        check("MAT0", &bytes, |d| {
            Mat0::parse(d, 0x16, version).map(|m| {
                // Phase selection on whatever parsed must not panic either.
                for block in 0..m.animations.len() {
                    let _ = m.select_phase(block, 12345, 7);
                }
            })
        });
    }
    assert!(Mat0::parse(&valid, 0, 4).is_ok());
}

#[test]
fn fxid_survives_mutation() {
    let mut sound = Command::new(2, true).unwrap();
    sound
        .set_resource(&ResourceRef::new(b"sounds.lib", b"exp.wav").unwrap())
        .unwrap();
    let fx = Fxid {
        header: FxHeader::default(),
        commands: vec![
            sound,
            Command::new(6, false).unwrap(),
            Command::new(5, true).unwrap(),
            Command::new(1, true).unwrap(),
        ],
    };
    let valid = fx.to_bytes().unwrap();
    check("FXID", &valid, |d| {
        Fxid::parse(d).map(|f| f.commands.iter().filter_map(|c| c.resource()).count())
    });
}

#[test]
fn sound_survives_mutation() {
    let pcm: Vec<i16> = (0..240).map(|i| ((i * 997) % 4000) as i16 - 2000).collect();
    let adpcm = encode_ms_adpcm(22050, 2, &pcm, 40).unwrap();
    check("MS ADPCM", &adpcm, |d| {
        Wave::parse(d).and_then(|w| w.decode())
    });
    let mono = encode_ms_adpcm(22050, 1, &pcm, 17).unwrap();
    check("MS ADPCM mono", &mono, |d| {
        Wave::parse(d).and_then(|w| w.decode())
    });
    let wav = write_pcm16(22050, 1, &pcm[..60]).unwrap();
    check("PCM", &wav, |d| Wave::parse(d).and_then(|w| w.decode()));
}

#[test]
fn small_formats_survive_mutation() {
    let name = |s: &[u8]| FixedName::<32>::new(s).unwrap();
    let ctpt = Ctpt {
        points: (0..3)
            .map(|i| ControlPoint {
                flags_raw: 0,
                link_raw: i,
                node: i as i32,
                position: [1.0, 2.0, 3.0],
                vector: [0.0, 0.0, 1.0],
                name: name(b"TurretCenter"),
            })
            .collect(),
    };
    check("CTPT", &ctpt.to_bytes().unwrap(), Ctpt::parse);

    let explosion = ResourceRef::new(b"static.rlb", b"explode_tree.exp").unwrap();
    let ndpr = Ndpr {
        nodes: vec![
            NodeDamage {
                flags: 0x20,
                hit_points: 1000.0,
                density: 0.5,
                explosion
            };
            3
        ],
    };
    check("NDPR", &ndpr.to_bytes().unwrap(), Ndpr::parse);

    let expl = Expl {
        kind: 3,
        damage: 10.0,
        radius: 2.0,
        unknown: [1.0, 1.0],
        placement: 7,
        effects: [explosion; 12],
    };
    check("EXPL", &expl.to_bytes(), Expl::parse);

    let refs = ReferenceArray {
        refs: vec![explosion; 4],
    };
    check("ReferenceArray", &refs.to_bytes(), ReferenceArray::parse);

    let base = Base {
        marker: 1,
        points: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
        ],
        tail: vec![1, 0, 0, 0, 2, 0, 0, 0],
    };
    check("BASE", &base.to_bytes().unwrap(), Base::parse);

    let ctld = Ctld {
        contacts_per_state: 1,
        params: [0x3F80_0000; 27],
        states: vec![vec![1; 172]; 2],
        costs: vec![1.0; 4],
        channels: vec![[9; 36]; 2],
        components: vec![
            Component {
                fixed: vec![2; 0xAC],
                entries: vec![0, 1],
                label_len: 3,
                label: b"abc\0".to_vec(),
            },
            Component {
                fixed: vec![0; 0xAC],
                entries: vec![],
                label_len: 0,
                label: vec![],
            },
        ],
        group_block: [-1; 21],
        groups: vec![
            vec![
                Action {
                    words: [4; 9],
                    resource: explosion
                };
                2
            ],
            vec![],
        ],
    };
    check("CTLD", &ctld.to_bytes().unwrap(), Ctld::parse);

    check(
        "SKE",
        &support::sky_sample().to_bytes().unwrap(),
        Sky::parse,
    );

    let mut texm = b"Texm".to_vec();
    texm.extend([0; 28]);
    let font = Tfnt {
        cell_width: 16,
        height: 16,
        v_span: 0.0625,
        spacing: 1,
        glyphs: vec![
            Glyph {
                u0: 0.0,
                u1: 0.1,
                v0: 0.2,
                advance: 8
            };
            256
        ],
        texm,
    };
    check("Tfnt", &font.to_bytes().unwrap(), Tfnt::parse);
}
