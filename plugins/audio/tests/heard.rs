//! Presenting the simulation's sound on the demo install leaves the
//! state hash alone: the same run heard and not heard gives the same
//! sound list and the same state, and the output plays the theme.

use bevy::prelude::*;
use iron3d_audio::capture::CaptureBackend;
use iron3d_audio::*;
use iron3d_schedules::StateHash;
use iron3d_sound::{SoundEvent, SoundPlugin, Sounds};
use iron3d_world::test_support::{demo_install, run_for_seconds, running_test_app};

fn sounds(app: &App) -> Vec<SoundEvent> {
    app.world().resource::<Sounds>().0.clone()
}

#[test]
fn the_same_run_gives_the_same_list_and_presenting_it_changes_no_state() {
    let tmp = demo_install();
    let game = tmp.path().join("game");
    let mut plain = running_test_app(game.clone(), SoundPlugin);
    let mut heard = running_test_app(
        game,
        (SoundPlugin, AudioOutputPlugin::<CaptureBackend>::default()),
    );
    run_for_seconds(&mut plain, 40);
    run_for_seconds(&mut heard, 40);
    assert_eq!(sounds(&plain), sounds(&heard));
    assert_eq!(
        StateHash::compute(plain.world()),
        StateHash::compute(heard.world())
    );
    // The output played the theme (no camera: the listener at the origin).
    let playing = heard.world().resource::<PlayingSources>().0.clone();
    assert!(
        playing
            .iter()
            .any(|s| s.key == "SOUNDS.LIB::ATM_LOOP.WAV" && s.looped),
        "{playing:?}"
    );
}
