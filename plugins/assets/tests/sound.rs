//! Headless `App` tests of the sound loader (`*.swav` → kira `AudioSource`)
//! on the sound archives of a demo install.

mod common;

use bevy::prelude::*;
use bevy_kira_audio::AudioSource;
use common::{app, failure, install, nres_entries, rewrite_entry, settle};
use iron3d_assets::IronAssetsPlugin;
use iron3d_formats::sound::{FORMAT_MS_ADPCM, FORMAT_PCM, Wave};
use std::collections::BTreeSet;

#[test]
fn every_sound_loads_with_the_frames_of_the_formats_decoder() {
    let (_tmp, game) = install();
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    let mut tags = BTreeSet::new();
    let mut loaded = 0;
    for lib in ["sounds.lib", "voices.lib"] {
        for (name, _, payload) in nres_entries(&game.join(lib)) {
            if payload.is_empty() {
                continue;
            }
            let wave = Wave::parse(&payload).unwrap();
            tags.insert(wave.format().unwrap().format_tag);
            let want = wave.decode().unwrap();
            let handle: Handle<AudioSource> = server.load(format!("iron://{lib}/{name}.swav"));
            assert!(settle(&mut app, &handle).is_loaded(), "{lib}/{name}");
            let sources = app.world().resource::<Assets<AudioSource>>();
            let sound = &sources.get(&handle).unwrap().sound;
            assert_eq!(sound.sample_rate, want.sample_rate, "{name}");
            assert_eq!(sound.sample_rate, 22050, "{name}");
            assert_eq!(sound.num_frames(), want.frames(), "{name}");
            assert!(want.frames() > 0, "{name}");
            // Mono: both sides carry the decoded sample at full scale 32768.
            assert_eq!(want.channels, 1, "{name}");
            for (frame, &sample) in sound.frames.iter().zip(&want.samples) {
                assert_eq!(frame.left, sample as f32 / 32768.0, "{name}");
                assert_eq!(frame.right, frame.left, "{name}");
            }
            loaded += 1;
        }
    }
    assert!(loaded >= 6, "only {loaded} sounds");
    assert_eq!(
        tags,
        BTreeSet::from([FORMAT_PCM, FORMAT_MS_ADPCM]),
        "both PCM and MS ADPCM sounds are covered"
    );
}

#[test]
fn an_empty_entry_fails_as_entry_empty_and_a_missing_one_as_not_found() {
    let (_tmp, game) = install();
    let all = nres_entries(&game.join("sounds.lib"));
    let empty = all.iter().position(|(_, _, p)| p.is_empty()).unwrap();
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();

    let handle: Handle<AudioSource> =
        server.load(format!("iron://sounds.lib/{}.swav", all[empty].0));
    let text = failure(&mut app, &handle);
    assert!(text.contains("entry_empty"), "{text}");
    assert!(text.contains("sounds.lib: "), "{text}");
    assert!(
        text.contains(&format!("entry #{empty} '{}'", all[empty].0)),
        "{text}"
    );

    let missing: Handle<AudioSource> = server.load("iron://sounds.lib/NO_SUCH.WAV.swav");
    let text = failure(&mut app, &missing);
    assert!(!text.contains("entry_empty"), "{text}");
    assert!(text.contains("NO_SUCH.WAV.swav"), "{text}");
}

#[test]
fn a_corrupt_wave_fails_with_file_entry_and_offset() {
    let (_tmp, game) = install();
    let lib = game.join("sounds.lib");
    let all = nres_entries(&lib);
    let (index, (name, _, payload)) = all
        .iter()
        .enumerate()
        .find(|(_, (_, _, p))| !p.is_empty())
        .unwrap();
    // The RIFF size no longer matches the payload length.
    rewrite_entry(&lib, &all, index, &payload[..payload.len() - 3]);
    let mut app = app(IronAssetsPlugin::new(&game));
    let server = app.world().resource::<AssetServer>().clone();
    let handle: Handle<AudioSource> = server.load(format!("iron://sounds.lib/{name}.swav"));
    let text = failure(&mut app, &handle);
    assert!(text.contains(&lib.display().to_string()), "{text}");
    assert!(text.contains(&format!("entry #{index} '{name}'")), "{text}");
    assert!(
        text.contains("offset 0x4: WAVE: expected RIFF size"),
        "{text}"
    );
}
