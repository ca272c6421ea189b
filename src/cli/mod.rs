//! The `iron3d` command line: one module per subcommand family. Each module
//! parses its arguments with clap, calls the library crates for the data and
//! formats it for the terminal (text or JSON); [`output`] holds what is
//! printed and the exit status.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod archive;
mod demo;
mod economy_report;
mod effect;
mod map;
mod material;
mod mission;
mod model;
mod output;
mod play;
mod replay;
mod report;
mod script;
mod sound;
mod terrain;
mod texture;
mod validate;

/// Iron3D on Bevy: play, inspect and mod Parkan: Iron Strategy installs.
#[derive(Parser, Debug)]
#[command(name = "iron3d", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Start the game (a window, or headless with --headless).
    Play(Box<play::PlayArgs>),
    /// Play back a recorded session (`replay FILE [--headless] [--verify] [--report FILE.json]`).
    Replay(replay::ReplayArgs),
    /// Build the deterministic synthetic demo install (`demo build <DIR> [--seed N] [--scale demo|retail]`).
    Demo(demo::DemoArgs),
    /// List, cat, extract, pack and verify NRes/RsLi archives (`archive list|cat|extract|pack|verify`).
    Archive(archive::ArchiveArgs),
    /// Inspect the missions of an install (`mission info`).
    Mission(mission::MissionArgs),
    /// Inspect a terrain (`terrain info <LAND.MSH>`).
    Terrain(terrain::TerrainArgs),
    /// Query an areal map (`map route <LAND.MAP> <x1> <y1> <x2> <y2>`).
    Map(map::MapArgs),
    /// Inspect a Texm texture or export a mip level as PNG (`texture info|export`).
    Texture(texture::TextureArgs),
    /// Inspect an MSH model or export it as binary glTF (`model info|export`).
    Model(model::ModelArgs),
    /// Export a sound as a PCM16 WAV (`sound export <ARCHIVE> <ENTRY> <OUT.wav>`).
    Sound(sound::SoundArgs),
    /// Inspect a MAT0 material of an install (`material info <GAME_DIR> <MATERIAL>`).
    Material(material::MaterialArgs),
    /// Inspect an FXID effect (`effect info <ARCHIVE> <ENTRY>`).
    Effect(effect::EffectArgs),
    /// Disassemble a mission script, or write one from its source form (`script dis|asm`).
    Script(script::ScriptArgs),
    /// Validate every file of an install and the reachability of every mission (`validate <GAME_DIR>`).
    Validate(validate::ValidateArgs),
}

/// An entry of an archive file: the `<ARCHIVE> <ENTRY>` pair of the
/// inspection commands.
#[derive(clap::Args, Debug)]
pub(crate) struct EntryArgs {
    /// The archive file (e.g. Textures.lib, static.rlb, sounds.lib).
    archive: std::path::PathBuf,
    /// The entry name (ASCII case-insensitive).
    entry: String,
}

/// Parses the command line and runs the subcommand. Usage errors exit with 2
/// (clap's convention); a subcommand returns its own exit code.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Play(args) => play::run(*args),
        Command::Replay(args) => replay::run(args),
        Command::Demo(args) => demo::run(args),
        Command::Archive(args) => archive::run(args),
        Command::Mission(args) => mission::run(args),
        Command::Terrain(args) => terrain::run(args),
        Command::Map(args) => map::run(args),
        Command::Texture(args) => texture::run(args),
        Command::Model(args) => model::run(args),
        Command::Sound(args) => sound::run(args),
        Command::Material(args) => material::run(args),
        Command::Effect(args) => effect::run(args),
        Command::Script(args) => script::run(args),
        Command::Validate(args) => validate::run(args),
    }
}
