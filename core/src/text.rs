//! [`IdText`]: an ID's text on the stack, so formatting needs no allocator.

use core::fmt;
use core::ops::Deref;

use crate::error::ParseError;

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
// One copy in the wasm build rather than one per use (each ~100 bytes of
// 64-bit constants): 130 B gz, for ~3 ns more per v7 text in Chromium.
#[cfg_attr(target_family = "wasm", inline(never))]
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

/// Longest text [`per_char`] reads through its one-byte-per-character copy:
/// above every ID's length (the longest, a TypeID, has 90 characters).
const PER_CHAR_MAX: usize = 128;

/// Stands in for a non-ASCII character in that copy, and is what a
/// `Character` error then reports as `found`: rejected by every alphabet
/// (all are ASCII graphic characters).
pub(crate) const NON_ASCII: u8 = 0x80;

/// Runs the byte-based `parse` so that the lengths and positions in its errors
/// count characters, as callers (JavaScript, most languages, people) count
/// them, not UTF-8 bytes: `"01ARZ3NDEKTSV4RRFFQ69G5FAé"` is 26 characters
/// with a bad one at position 25, not 27 bytes of the wrong length. ASCII text
/// is parsed as it is. Other text is parsed as a copy on the stack holding one
/// byte per character (non-ASCII ones replaced by a byte every alphabet
/// rejects), so each decision a parser takes on a length is taken on the
/// character count; a `Character` error at a non-ASCII character reports
/// [`NON_ASCII`] as the byte found. Text longer than any ID is parsed as it is,
/// with its error's positions and lengths then converted to characters.
pub(crate) fn per_char<T>(
    text: &str,
    parse: fn(&[u8]) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    // Generic only around the one call of `parse`, so each parser is inlined
    // once; the rest is shared, and walks bytes by hand rather than through
    // `chars()`, whose counting code is large (the browser build is budgeted
    // in bytes).
    let mut copy = [0u8; PER_CHAR_MAX];
    let shadow = one_byte_per_char(text.as_bytes(), &mut copy).unwrap_or(text.as_bytes());
    parse(shadow).map_err(|e| in_chars(e, text.as_bytes(), shadow.len()))
}

/// Whether `b` starts a character in UTF-8 (is not a continuation byte).
fn starts_char(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// Characters in UTF-8 `bytes`.
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| starts_char(b)).count()
}

/// The one-byte-per-character copy of non-ASCII `text` in `copy`; `None`
/// for ASCII text or text longer than [`PER_CHAR_MAX`] characters.
#[inline(never)]
fn one_byte_per_char<'a>(text: &[u8], copy: &'a mut [u8; PER_CHAR_MAX]) -> Option<&'a [u8]> {
    if text.is_ascii() {
        return None;
    }
    let mut n = 0;
    for &b in text.iter().filter(|&&b| starts_char(b)) {
        *copy.get_mut(n)? = if b.is_ascii() { b } else { NON_ASCII };
        n += 1;
    }
    Some(&copy[..n])
}

/// An error of the parse of the `parsed_len` bytes [`per_char`] parsed in
/// place of `text`, in terms of `text`'s characters.
#[inline(never)]
fn in_chars(e: ParseError, text: &[u8], parsed_len: usize) -> ParseError {
    if text.is_ascii() {
        return e;
    }
    if parsed_len != text.len() {
        // The copy: lengths and positions are characters already.
        return e;
    }
    // Too long for the copy, parsed as it is: a position counts the
    // characters before it, a length those of the tail it measured (all of
    // the text, or a TypeID's suffix).
    let before = |at: usize| char_count(&text[..at.min(text.len())]);
    let tail = |len: usize| char_count(&text[text.len().saturating_sub(len)..]);
    match e {
        ParseError::Character {
            kind,
            position,
            found,
            allowed,
        } => ParseError::Character {
            kind,
            position: before(position),
            found: if found.is_ascii() { found } else { NON_ASCII },
            allowed,
        },
        ParseError::Length {
            kind,
            expected,
            found,
        } => ParseError::Length {
            kind,
            expected,
            found: tail(found),
        },
        ParseError::UnknownKind { length } => ParseError::UnknownKind {
            length: tail(length),
        },
        e => e,
    }
}

#[cfg(test)]
mod per_char_tests {
    use crate::error::{Kind, ParseError};
    use crate::id::{Id, detect};
    use crate::typeid::TypeId;
    use crate::ulid::Ulid;
    use crate::uuid::Uuid;

    fn position(e: ParseError) -> (usize, u8) {
        match e {
            ParseError::Character {
                position, found, ..
            } => (position, found),
            e => panic!("expected a character error, got {e}"),
        }
    }

    #[test]
    fn positions_and_lengths_count_characters() {
        // 26 characters, 27 bytes: the bad character, not the length.
        let e = Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G5FAé").unwrap_err();
        assert_eq!(position(e.clone()), (25, super::NON_ASCII));
        assert_eq!(
            crate::std::string::ToString::to_string(&e),
            "invalid ulid: a non-ASCII character at position 25 is not allowed (allowed: Crockford base32: 0-9 and A-Z except U, in any case (I and L read as 1, O as 0))"
        );
        // 25 characters, 29 bytes: the length, in characters.
        assert!(matches!(
            Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G😀"),
            Err(ParseError::Length { found: 23, .. })
        ));
        assert_eq!(detect("€1ARZ3NDEKTSV4RRFFQ69G5FAV"), Ok(Kind::Ulid));
        assert_eq!(
            position(Id::parse("1€2", Some(Kind::Snowflake)).unwrap_err()),
            (1, super::NON_ASCII)
        );
        assert_eq!(
            position(TypeId::parse("usér_01h455vb4pex5vsknk084sn02q").unwrap_err()).0,
            2
        );
        assert_eq!(
            position(Uuid::parse("c232ab00-9414-11ec-b3c8-9f6bdeced84ä").unwrap_err()).0,
            35
        );
        assert_eq!(
            position(Id::parse("01-hz61-3s2ü", Some(Kind::Human)).unwrap_err()).0,
            11
        );
    }

    #[test]
    fn text_longer_than_any_id_counts_characters_too() {
        let mut long = [0u8; 400];
        let text = {
            // 200 x 'é' (2 bytes each).
            for pair in long.chunks_exact_mut(2) {
                pair.copy_from_slice("é".as_bytes());
            }
            core::str::from_utf8(&long).unwrap()
        };
        assert!(matches!(
            Ulid::parse(text),
            Err(ParseError::Length { found: 200, .. })
        ));
        assert_eq!(detect(text), Err(ParseError::UnknownKind { length: 200 }));
        assert_eq!(
            position(Id::parse(text, Some(Kind::Human)).unwrap_err()).0,
            0
        );
        // A TypeID's suffix length, in characters: "a_" then 199 x 'é'.
        long[..2].copy_from_slice(b"a_");
        let text = core::str::from_utf8(&long[..]).unwrap_or_default();
        assert!(text.starts_with("a_é"));
        assert!(matches!(
            TypeId::parse(text),
            Err(ParseError::Length { found: 199, .. })
        ));
    }
}
