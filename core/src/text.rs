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

/// Stands in for a non-ASCII character in that copy: rejected by every
/// alphabet (all are ASCII graphic characters), and still valid UTF-8.
const PLACEHOLDER: u8 = 0x7F;

/// Runs the byte-based `parse` so that the lengths and positions in its errors
/// count characters, as callers (JavaScript, most languages, people) count
/// them, not UTF-8 bytes: `"01ARZ3NDEKTSV4RRFFQ69G5FAé"` is 26 characters
/// with a bad one at position 25, not 27 bytes of the wrong length. ASCII text
/// is parsed as it is. Other text is parsed as a copy on the stack holding one
/// byte per character (non-ASCII ones replaced by a byte every alphabet
/// rejects), so each decision a parser takes on a length is taken on the
/// character count; a `Character` error at a replaced character reports that
/// character's first UTF-8 byte. Text longer than any ID is parsed as it is,
/// with its error's positions and lengths then converted to characters.
pub(crate) fn per_char<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    if text.is_ascii() {
        return parse(text);
    }
    let mut copy = [0u8; PER_CHAR_MAX];
    let mut n = 0;
    for c in text.chars() {
        if n == PER_CHAR_MAX {
            return parse(text).map_err(|e| counted_in_chars(e, text));
        }
        copy[n] = if c.is_ascii() { c as u8 } else { PLACEHOLDER };
        n += 1;
    }
    // Only ASCII bytes went in, so this cannot fail.
    let shadow = core::str::from_utf8(&copy[..n]).unwrap_or_default();
    parse(shadow).map_err(|e| match e {
        ParseError::Character {
            kind,
            position,
            found: PLACEHOLDER,
            allowed,
        } => ParseError::Character {
            kind,
            position,
            found: text
                .chars()
                .nth(position)
                .map_or(PLACEHOLDER, first_utf8_byte),
            allowed,
        },
        e => e,
    })
}

/// The first byte of `c` in UTF-8.
fn first_utf8_byte(c: char) -> u8 {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf).as_bytes()[0]
}

/// An error of a byte-based parse of `text` with its byte counts turned into
/// character counts: a position counts the characters before it, a length
/// those of the text's tail it measured (all of it, or a TypeID's suffix).
fn counted_in_chars(e: ParseError, text: &str) -> ParseError {
    let chars_before = |at: usize| text.get(..at).map_or(at, |s| s.chars().count());
    let chars_of_tail = |len: usize| {
        text.len()
            .checked_sub(len)
            .and_then(|start| text.get(start..))
            .map_or(len, |s| s.chars().count())
    };
    match e {
        ParseError::Character {
            kind,
            position,
            found,
            allowed,
        } => ParseError::Character {
            kind,
            position: chars_before(position),
            found,
            allowed,
        },
        ParseError::Length {
            kind,
            expected,
            found,
        } => ParseError::Length {
            kind,
            expected,
            found: chars_of_tail(found),
        },
        ParseError::UnknownKind { length } => ParseError::UnknownKind {
            length: chars_of_tail(length),
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
        assert_eq!(position(e.clone()), (25, 0xC3));
        assert_eq!(
            crate::std::string::ToString::to_string(&e),
            "invalid ulid: a non-ASCII character at position 25 is not allowed (allowed: Crockford base32: 0-9 and A-Z except I, L, O, U, in any case)"
        );
        // 25 characters, 29 bytes: the length, in characters.
        assert!(matches!(
            Ulid::parse("01ARZ3NDEKTSV4RRFFQ69G😀"),
            Err(ParseError::Length { found: 23, .. })
        ));
        assert_eq!(detect("€1ARZ3NDEKTSV4RRFFQ69G5FAV"), Ok(Kind::Ulid));
        assert_eq!(
            position(Id::parse("1€2", Some(Kind::Snowflake)).unwrap_err()),
            (1, 0xE2)
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
