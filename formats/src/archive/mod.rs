//! Archives of tome III: NRes (directory at the end, named typed payloads)
//! and RsLi (XOR-masked table at the start, packed payloads).
//!
//! Both readers are zero-copy views over a byte slice (usually a private
//! copy of the file, see [`crate::fsutil::FileSnapshot`]: never a memory
//! mapping, which another program truncating the file would turn into a
//! crash), validate the whole structure before
//! handing out any entry, and come with two writers: a lossless one that keeps
//! every byte it does not have to derive, and a canonical one.

mod codec;
pub mod deflate;
pub mod extract;
pub mod layout;
mod lz;
pub mod lzhuf;
pub mod lzss;
pub mod nres;
pub mod open;
pub mod rsli;
pub mod xor;

/// How tolerant a reader is (tome III, "Строгий и совместимый режимы").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Mode {
    /// Tests, tools and the editor: every check of the tome, no exceptions.
    Strict,
    /// The runtime: accepts exactly the named quirks of the original engine,
    /// each reported through the reader's `quirks()`.
    Compatible,
}
