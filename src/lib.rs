//! The library side of the `iron3d` binary: the app composition (which
//! plugins make up the game, windowed or headless), shared by the command
//! line and the engine benchmarks. It owns no game logic.

pub mod app;
