//! The `iron3d` binary: command line and app composition. It owns no game
//! logic; subsystems live in `plugins/`, the frame spine in `schedules/` and
//! the data layer in `formats/`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
