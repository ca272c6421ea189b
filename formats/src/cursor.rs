//! A bounded little-endian reader over a byte slice.
//!
//! Every read checks the remaining length first and reports a
//! [`Problem::Truncated`] error at the exact offset; counts read from a file
//! are turned into allocations only through [`Cursor::checked_count`], which
//! proves that `count * element_size` bytes are actually present.

use crate::error::{FormatError, Problem, Result};

/// A bounded cursor over `data`, reporting errors for `format`.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    format: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor at offset 0 of `data`.
    pub fn new(data: &'a [u8], format: &'static str) -> Self {
        Self {
            data,
            pos: 0,
            format,
        }
    }

    /// The format name errors are reported under.
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// Current offset from the start of the buffer.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Total length of the buffer.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Bytes left after the current offset.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether the cursor is at the end of the buffer.
    pub fn at_end(&self) -> bool {
        self.pos == self.data.len()
    }

    /// The whole underlying buffer.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// An error of this cursor's format at the current offset.
    pub fn error(&self, problem: Problem) -> FormatError {
        FormatError::new(self.format, self.pos as u64, problem)
    }

    /// An [`Problem::Invalid`] error at `offset`.
    pub fn invalid_at(
        &self,
        offset: usize,
        expected: impl Into<String>,
        found: impl std::fmt::Display,
    ) -> FormatError {
        FormatError::invalid(self.format, offset as u64, expected, found)
    }

    /// Moves to an absolute offset (the end of the buffer is allowed).
    pub fn seek(&mut self, offset: usize) -> Result<()> {
        if offset > self.data.len() {
            return Err(self.error(Problem::Truncated {
                needed: (offset - self.pos.min(offset)) as u64,
                available: self.remaining() as u64,
            }));
        }
        self.pos = offset;
        Ok(())
    }

    /// Reads `n` bytes as a slice of the buffer (zero-copy).
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(Problem::Truncated {
                needed: n as u64,
                available: self.remaining() as u64,
            }));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// Reads a fixed-size array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    /// A sub-cursor over the next `n` bytes; offsets in its errors are
    /// relative to its own start (shift them with [`FormatError::shifted`]).
    pub fn sub(&mut self, n: usize) -> Result<Cursor<'a>> {
        Ok(Cursor::new(self.bytes(n)?, self.format))
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    pub fn i16(&mut self) -> Result<i16> {
        Ok(i16::from_le_bytes(self.array()?))
    }
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    pub fn f32(&mut self) -> Result<f32> {
        Ok(f32::from_le_bytes(self.array()?))
    }
    /// `N` consecutive little-endian u16.
    pub fn u16s<const N: usize>(&mut self) -> Result<[u16; N]> {
        let mut out = [0u16; N];
        for v in &mut out {
            *v = self.u16()?;
        }
        Ok(out)
    }
    /// `N` consecutive little-endian f32 (bit-exact).
    pub fn f32s<const N: usize>(&mut self) -> Result<[f32; N]> {
        let mut out = [0f32; N];
        for v in &mut out {
            *v = self.f32()?;
        }
        Ok(out)
    }

    /// Checks that `count` elements of `element_size` bytes fit in what
    /// remains, and returns `count` as `usize`: the only way a stored count
    /// may size an allocation.
    pub fn checked_count(&self, count: u64, element_size: usize, what: &str) -> Result<usize> {
        let needed = count
            .checked_mul(element_size as u64)
            .ok_or_else(|| FormatError::overflow(self.format, self.pos as u64, what))?;
        if needed > self.remaining() as u64 {
            return Err(self.error(Problem::Invalid {
                expected: format!(
                    "{what}: {count} x {element_size} bytes within the {} remaining",
                    self.remaining()
                ),
                found: format!("{needed} bytes needed"),
            }));
        }
        Ok(count as usize)
    }

    /// Fails with [`Problem::TrailingBytes`] unless the cursor is at the end.
    pub fn expect_end(&self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error(Problem::TrailingBytes {
                count: self.remaining() as u64,
            }))
        }
    }

    /// Reads a 4-byte magic and compares it.
    pub fn expect_magic(&mut self, magic: &[u8]) -> Result<()> {
        let at = self.pos;
        let found = self.bytes(magic.len())?;
        if found != magic {
            return Err(FormatError::new(
                self.format,
                at as u64,
                Problem::BadMagic {
                    expected: show_bytes(magic),
                    found: show_bytes(found),
                },
            ));
        }
        Ok(())
    }
}

/// Appends f32 values little-endian (bit-exact): the writer side of
/// [`Cursor::f32s`].
pub fn put_f32s(out: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// Shows bytes as ASCII where printable, hex escapes elsewhere.
pub fn show_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        if b.is_ascii_graphic() || b == b' ' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// The bytes of a fixed-size, NUL-terminated name field before its first NUL.
pub fn c_name(field: &[u8]) -> &[u8] {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    &field[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::expect_error;

    #[test]
    fn reads_little_endian_and_reports_truncation_offset() {
        let data = [1u8, 0, 2, 0, 0, 0, 0xff];
        let mut c = Cursor::new(&data, "test");
        assert_eq!(c.u16().unwrap(), 1);
        assert_eq!(c.u32().unwrap(), 2);
        let err = c.u16().unwrap_err();
        assert_eq!(err.offset, 6);
        assert_eq!(
            err.problem,
            Problem::Truncated {
                needed: 2,
                available: 1
            }
        );
    }

    #[test]
    fn checked_count_refuses_counts_larger_than_the_data() {
        let data = [0u8; 16];
        let c = Cursor::new(&data, "test");
        assert_eq!(c.checked_count(4, 4, "items").unwrap(), 4);
        expect_error(
            c.checked_count(5, 4, "items"),
            0,
            "test: expected items: 5 x 4 bytes within the 16 remaining, found 20 bytes needed",
        );
        expect_error(
            c.checked_count(u64::MAX, 8, "items"),
            0,
            "test: arithmetic overflow in items",
        );
    }

    #[test]
    fn expect_end_and_magic() {
        let mut c = Cursor::new(b"NRes", "test");
        c.expect_magic(b"NRes").unwrap();
        c.expect_end().unwrap();
        let mut c = Cursor::new(b"NReX!", "test");
        assert!(matches!(
            c.expect_magic(b"NRes").unwrap_err().problem,
            Problem::BadMagic { .. }
        ));
        assert_eq!(show_bytes(b"A\0"), "\"A\\x00\"");
    }
}
