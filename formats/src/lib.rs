//! The Bevy-free data layer of Iron3D.
//!
//! Every reader here works over a byte slice through a bounded [`cursor::Cursor`],
//! uses checked arithmetic, never allocates from an unchecked count, checks the
//! exact end of its payload and keeps unknown bytes so that an unmodified file
//! is written back byte-identical. Bad input gives a structured
//! [`error::FormatError`] (file, entry, offset, what was expected), never a panic.

pub mod archive;
pub mod config;
pub mod cursor;
pub mod error;
pub mod fixed;
pub mod fsutil;
pub mod fxid;
pub mod gamedir;
pub mod gltf;
pub mod graph;
pub mod mat0;
pub mod msh;
pub mod order;
pub mod proto;
pub mod registry;
pub mod replay;
pub mod research;
pub mod script;
pub mod sound;
pub mod source;
pub mod strings;
pub mod terrain;
pub mod texm;
pub mod tma;
pub mod unitdat;
pub mod validate;
pub mod wear;
