//! [`IdText`]: an ID's text on the stack, so formatting needs no allocator.

use core::fmt;
use core::ops::Deref;

/// Lowercase hex of the low `4 * N` bits (`N` even, at most 32), byte by
/// byte rather than by a `u128` shift per digit (cheaper when not unrolled).
pub(crate) fn hex<const N: usize>(value: u128) -> [u8; N] {
    const { assert!(N % 2 == 0 && N <= 32) };
    let mut out = [0u8; N];
    let bytes = value.to_be_bytes();
    for (pair, &b) in out.chunks_exact_mut(2).zip(&bytes[16 - N / 2..]) {
        pair.copy_from_slice(&hex_pair(b));
    }
    out
}

/// The 8 lowercase hex digits of `x`, computed in one `u64` (each nibble
/// spread to a byte, then offset to '0'-'9' or 'a'-'f') rather than digit
/// by digit: UUID text is on the per-ID path, and this stays fast in the
/// size-optimized wasm build, where loops are not unrolled.
pub(crate) const fn hex_u32(x: u32) -> [u8; 8] {
    let mut v = x as u64;
    v = (v | v << 16) & 0x0000_FFFF_0000_FFFF;
    v = (v | v << 8) & 0x00FF_00FF_00FF_00FF;
    v = (v | v << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    // 1 in each byte whose nibble is 10 or more.
    let letters = ((v + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
    (v + 0x3030_3030_3030_3030 + letters * (b'a' - b'9' - 1) as u64).to_be_bytes()
}

/// The two lowercase hex digits of a byte.
pub(crate) const fn hex_pair(b: u8) -> [u8; 2] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    [DIGITS[(b >> 4) as usize], DIGITS[(b & 0xF) as usize]]
}

/// The value of a hex digit, either case.
pub(crate) const fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

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

    /// Exactly `N` ASCII bytes as text, moved in whole: in the size-optimized
    /// wasm build a `push` is a call to a checked copy, on the per-ID path.
    pub(crate) const fn full(buf: [u8; N]) -> Self {
        IdText { buf, len: N }
    }

    /// `value` in decimal (`N` = 20 holds every `u64`).
    pub fn decimal(mut value: u64) -> Self {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            digits[start] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        Self::ascii(&digits[start..])
    }

    /// The low `4 * N` bits of `value` as `N` lowercase hex digits (`N` even).
    pub fn hex(value: u128) -> Self {
        Self::full(hex::<N>(value))
    }

    /// ASCII bytes as text; callers size `N` for the longest output.
    pub(crate) fn ascii(bytes: &[u8]) -> Self {
        let mut t = Self::new();
        t.push(bytes);
        t
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

/// `Display` (the canonical text) and `FromStr` (the type's `parse`) for an
/// ID type with `to_text()` and `parse(&str)`.
macro_rules! impl_text_traits {
    ($($id:ty),+) => {$(
        impl core::fmt::Display for $id {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&self.to_text())
            }
        }

        impl core::str::FromStr for $id {
            type Err = $crate::error::ParseError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$id>::parse(s)
            }
        }
    )+};
}
pub(crate) use impl_text_traits;
