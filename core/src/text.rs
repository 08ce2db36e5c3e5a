//! [`IdText`]: an ID's text on the stack, so formatting needs no allocator.

use core::fmt;
use core::ops::Deref;

/// ASCII text of at most `N` bytes, built by this crate's encoders.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdText<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> IdText<N> {
    pub(crate) const fn new() -> Self {
        IdText {
            buf: [0; N],
            len: 0,
        }
    }

    /// Appends ASCII bytes; callers size `N` for the longest output.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Every encoder writes ASCII only.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }

    /// The text as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl<const N: usize> Deref for IdText<N> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> AsRef<str> for IdText<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> fmt::Display for IdText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> fmt::Debug for IdText<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> PartialEq<str> for IdText<N> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<&str> for IdText<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}
