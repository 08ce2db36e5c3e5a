//! UUIDs (RFC 9562): v7 (Unix-ms, monotonic), v4 (random), and the
//! time-based v1 and v6 (Gregorian 100 ns ticks): generation (`generate.rs`),
//! formatting, and parsing of the hyphenated, simple, braced and URN forms. The parser
//! is written here rather than taken from the `uuid` crate: the crate's
//! parser and error type cost the browser build about 1 KB gzipped, and its
//! errors do not give a position.
//!
//! [`V7Generator`] uses RFC 9562 §6.2 **Method 1** (fixed-length dedicated
//! counter): a 42-bit counter fills `rand_a` and the top 30 bits of `rand_b`,
//! the last 32 bits are fresh random per UUID. The counter starts at a
//! random value with its top bit clear on each new millisecond (the RFC's
//! rollover guard) and, if it still overflows, the timestamp moves one
//! millisecond ahead (the RFC's rollover handling). This is the same method
//! as the `uuidv7` npm package.

mod generate;
pub use generate::{TimeUuidGenerator, V7Generator, new_v4};

use crate::error::{Error, Kind, ParseError};
use crate::text::{IdText, hex_digit, hex_u32};

/// 100 ns ticks between 1582-10-15 (the Gregorian epoch of v1/v6) and 1970-01-01.
pub const GREGORIAN_OFFSET: u64 = 0x01B2_1DD2_1381_4000;
pub(crate) const V7_MAX_MS: u64 = (1 << 48) - 1;
pub(crate) const V1_MAX_TICKS: u64 = (1 << 60) - 1;

/// A UUID as one big-endian 128-bit integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Uuid(pub u128);

impl Uuid {
    /// The nil UUID (all zeros).
    pub const NIL: Uuid = Uuid(0);
    /// The max UUID (all ones).
    pub const MAX: Uuid = Uuid(u128::MAX);

    /// From big-endian bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Uuid {
        Uuid(u128::from_be_bytes(bytes))
    }

    /// Big-endian bytes.
    pub const fn to_bytes(&self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The version nibble (0 to 15). Meaningful for the RFC variant only.
    pub const fn version(&self) -> u8 {
        ((self.0 >> 76) & 0xF) as u8
    }

    /// True when the variant bits are `10` (RFC 9562).
    pub const fn is_rfc_variant(&self) -> bool {
        (self.0 >> 62) & 0b11 == 0b10
    }

    /// A v7 from its fields: 48-bit Unix ms, 12-bit `rand_a`, 62-bit `rand_b`.
    pub const fn v7_from_parts(unix_ms: u64, rand_a: u16, rand_b: u64) -> Uuid {
        Uuid(
            ((unix_ms & V7_MAX_MS) as u128) << 80
                | 0x7 << 76
                | ((rand_a & 0xFFF) as u128) << 64
                | 0b10 << 62
                | (rand_b & ((1 << 62) - 1)) as u128,
        )
    }

    /// A v4 from 16 random bytes (version and variant bits are set).
    pub const fn v4_from_random(bytes: [u8; 16]) -> Uuid {
        Uuid(u128::from_be_bytes(bytes) & !(0xF << 76 | 0b11 << 62) | 0x4 << 76 | 0b10 << 62)
    }

    /// A v1 from a 60-bit count of 100 ns since 1582-10-15, a 14-bit clock
    /// sequence and a 48-bit node.
    pub const fn v1_from_parts(ticks: u64, clock_seq: u16, node: u64) -> Uuid {
        let time_low = (ticks & 0xFFFF_FFFF) as u128;
        let time_mid = ((ticks >> 32) & 0xFFFF) as u128;
        let time_hi = ((ticks >> 48) & 0x0FFF) as u128;
        Uuid(
            time_low << 96
                | time_mid << 80
                | 0x1 << 76
                | time_hi << 64
                | Self::tail(clock_seq, node),
        )
    }

    /// A v6 (v1's fields reordered so that text order is time order).
    pub const fn v6_from_parts(ticks: u64, clock_seq: u16, node: u64) -> Uuid {
        let time_high = ((ticks >> 28) & 0xFFFF_FFFF) as u128;
        let time_mid = ((ticks >> 12) & 0xFFFF) as u128;
        let time_low = (ticks & 0x0FFF) as u128;
        Uuid(
            time_high << 96
                | time_mid << 80
                | 0x6 << 76
                | time_low << 64
                | Self::tail(clock_seq, node),
        )
    }

    const fn tail(clock_seq: u16, node: u64) -> u128 {
        0b10 << 62 | ((clock_seq & 0x3FFF) as u128) << 48 | (node & 0xFFFF_FFFF_FFFF) as u128
    }

    /// The 60-bit Gregorian 100 ns timestamp of a v1 or v6 UUID.
    pub const fn gregorian_ticks(&self) -> Option<u64> {
        let v = self.0;
        match self.version() {
            1 => Some(
                (((v >> 64) & 0x0FFF) as u64) << 48
                    | (((v >> 80) & 0xFFFF) as u64) << 32
                    | ((v >> 96) & 0xFFFF_FFFF) as u64,
            ),
            6 => Some(
                (((v >> 96) & 0xFFFF_FFFF) as u64) << 28
                    | (((v >> 80) & 0xFFFF) as u64) << 12
                    | ((v >> 64) & 0x0FFF) as u64,
            ),
            _ => None,
        }
    }

    /// The clock sequence of a v1 or v6 UUID.
    pub const fn clock_seq(&self) -> Option<u16> {
        match self.version() {
            1 | 6 => Some(((self.0 >> 48) & 0x3FFF) as u16),
            _ => None,
        }
    }

    /// The node of a v1 or v6 UUID.
    pub const fn node(&self) -> Option<u64> {
        match self.version() {
            1 | 6 => Some((self.0 & 0xFFFF_FFFF_FFFF) as u64),
            _ => None,
        }
    }

    /// Unix milliseconds of a time-based UUID (v1, v6, v7); `None` for the
    /// others. v1/v6 times before 1970 are negative.
    pub const fn timestamp_ms(&self) -> Option<i64> {
        if !self.is_rfc_variant() {
            return None;
        }
        match self.version() {
            7 => Some((self.0 >> 80) as i64),
            _ => match self.gregorian_ticks() {
                Some(t) => Some((t as i64 - GREGORIAN_OFFSET as i64).div_euclid(10_000)),
                None => None,
            },
        }
    }

    /// Lowercase hyphenated text (`8-4-4-4-12`). On the per-ID path of
    /// `uuidv7()` and `uuidv4()`: 8 digits at a time, see `hex_u32`.
    pub fn to_text(&self) -> IdText<36> {
        let (high, low) = ((self.0 >> 64) as u64, self.0 as u64);
        // Four calls, not `[..].map(hex_u32)`: not inlined, the map costs more than the digits.
        let (a, b) = (hex_u32((high >> 32) as u32), hex_u32(high as u32));
        let (c, d) = (hex_u32((low >> 32) as u32), hex_u32(low as u32));
        let [a0, a1, a2, a3, a4, a5, a6, a7] = a;
        let [b0, b1, b2, b3, b4, b5, b6, b7] = b;
        let [c0, c1, c2, c3, c4, c5, c6, c7] = c;
        let [d0, d1, d2, d3, d4, d5, d6, d7] = d;
        IdText::full([
            a0, a1, a2, a3, a4, a5, a6, a7, b'-', b0, b1, b2, b3, b'-', b4, b5, b6, b7, b'-', c0,
            c1, c2, c3, b'-', c4, c5, c6, c7, d0, d1, d2, d3, d4, d5, d6, d7,
        ])
    }

    /// 32 lowercase hex digits.
    pub fn to_simple(&self) -> IdText<32> {
        IdText::hex(self.0)
    }

    /// Parses the hyphenated, simple (32 hex), braced or `urn:uuid:` form, any case.
    pub fn parse(text: &str) -> Result<Uuid, ParseError> {
        crate::text::per_char(text, Uuid::parse_bytes)
    }

    /// [`Uuid::parse`] over bytes. Errors say what was wrong where: a
    /// length that is none of the four forms', or the first character that
    /// breaks its form (a digit that is not hex, a missing `-`, brace or
    /// `urn:uuid:` prefix).
    pub fn parse_bytes(text: &[u8]) -> Result<Uuid, ParseError> {
        let hyphenated = |start| parse_hex(text, start, true);
        match text.len() {
            32 => parse_hex(text, 0, false),
            36 => hyphenated(0),
            38 => {
                expect(text, 0, b"{", OPEN_BRACE)?;
                expect(text, 37, b"}", CLOSE_BRACE)?;
                hyphenated(1)
            }
            45 => {
                expect(text, 0, b"urn:uuid:", URN)?;
                hyphenated(9)
            }
            found => Err(ParseError::Length {
                kind: Kind::Uuid,
                expected: LENGTHS,
                found,
            }),
        }
    }

    /// The variant field: which layout the other bits follow.
    pub const fn variant(&self) -> Variant {
        match (self.0 >> 61) & 0b111 {
            0b000..=0b011 => Variant::Ncs,
            0b100 | 0b101 => Variant::Rfc9562,
            0b110 => Variant::Microsoft,
            _ => Variant::Future,
        }
    }
}

/// The variant of a UUID (RFC 9562 §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `0xx`: reserved, NCS backward compatibility.
    Ncs,
    /// `10x`: the layout of RFC 9562 (formerly RFC 4122); every version here.
    Rfc9562,
    /// `110`: reserved, Microsoft backward compatibility.
    Microsoft,
    /// `111`: reserved for future definition.
    Future,
}

impl Variant {
    /// The lowercase name the bindings use (`'rfc9562'`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Ncs => "ncs",
            Variant::Rfc9562 => "rfc9562",
            Variant::Microsoft => "microsoft",
            Variant::Future => "future",
        }
    }
}

/// The lengths of a UUID's text forms, and what each place of one allows:
/// the words of [`Uuid::parse`]'s errors, one list so that an error can be
/// numbered by them (`Error::numbered_uuid`).
pub(crate) const LENGTHS: &str = "32, 36, 38 (braced) or 45 (urn:uuid:)";
pub(crate) const HEX: &str = "hex digits 0-9, a-f";
pub(crate) const HYPHEN: &str = "'-' between the groups of 8-4-4-4-12 hex digits";
pub(crate) const OPEN_BRACE: &str = "'{' to open a braced UUID";
pub(crate) const CLOSE_BRACE: &str = "'}' to close a braced UUID";
pub(crate) const URN: &str = "the prefix urn:uuid:";
pub(crate) const ALLOWED: [&str; 5] = [HEX, HYPHEN, OPEN_BRACE, CLOSE_BRACE, URN];

/// Checks that `text` has `want` at `start`, ASCII case-insensitively.
fn expect(text: &[u8], start: usize, want: &[u8], allowed: &'static str) -> Result<(), ParseError> {
    match (start..)
        .zip(want)
        .find(|&(i, w)| !text[i].eq_ignore_ascii_case(w))
    {
        Some((position, _)) => Err(ParseError::Character {
            kind: Kind::Uuid,
            position,
            found: text[position],
            allowed,
        }),
        None => Ok(()),
    }
}

/// The 32 hex digits of a UUID from `start` on, in groups 8-4-4-4-12
/// separated by `-` if `hyphens`; the caller checked the length.
fn parse_hex(text: &[u8], start: usize, hyphens: bool) -> Result<Uuid, ParseError> {
    let end = start + if hyphens { 36 } else { 32 };
    let mut value = 0u128;
    for (position, &c) in text.iter().enumerate().take(end).skip(start) {
        let at_hyphen = hyphens && matches!(position - start, 8 | 13 | 18 | 23);
        let digit = if at_hyphen { None } else { hex_digit(c) };
        match digit {
            Some(d) => value = value << 4 | d as u128,
            None if at_hyphen && c == b'-' => {}
            None => {
                return Err(ParseError::Character {
                    kind: Kind::Uuid,
                    position,
                    found: c,
                    allowed: if at_hyphen { HYPHEN } else { HEX },
                });
            }
        }
    }
    Ok(Uuid(value))
}

crate::text::impl_text_traits!(Uuid);

/// The 64 bits after the time fields: variant, clock sequence, node.
const LOW_64: u128 = (1 << 64) - 1;

/// Versions built from given bits rather than minted: v8 (RFC 9562 §5.8)
/// and the v1 <-> v6 reorderings (§5.6: v6 is v1 with its time fields in
/// the order that sorts). Name-based v3 and v5 are in `name_based`.
impl Uuid {
    /// `bits` with the version nibble set to `version` and the variant to `10`.
    pub(crate) const fn with_version(bits: u128, version: u8) -> Uuid {
        Uuid(bits & !(0xF << 76 | 0b11 << 62) | (version as u128 & 0xF) << 76 | 0b10 << 62)
    }

    /// A v8 of 16 bytes of the caller's own layout: its 122 custom bits
    /// are kept, the version (8) and variant bits are set.
    pub const fn v8_from_bytes(bytes: [u8; 16]) -> Uuid {
        Uuid::with_version(u128::from_be_bytes(bytes), 8)
    }

    /// The v6 of a v1 UUID: the same time, clock sequence and node, time
    /// fields reordered. Errors unless the version nibble is 1.
    pub const fn v1_to_v6(&self) -> Result<Uuid, Error> {
        self.reordered(1, 6)
    }

    /// The v1 of a v6 UUID (the inverse of [`Uuid::v1_to_v6`]). Errors
    /// unless the version nibble is 6.
    pub const fn v6_to_v1(&self) -> Result<Uuid, Error> {
        self.reordered(6, 1)
    }

    /// The time of a v`from` rewritten in v`to`'s field order; the low 64
    /// bits (variant, clock sequence, node) are kept as they are.
    const fn reordered(&self, from: u8, to: u8) -> Result<Uuid, Error> {
        let ticks = match self.gregorian_ticks() {
            Some(t) if self.version() == from => t,
            _ => {
                return Err(Error::UuidVersion {
                    expected: from,
                    found: self.version(),
                });
            }
        };
        let time = if to == 6 {
            Uuid::v6_from_parts(ticks, 0, 0)
        } else {
            Uuid::v1_from_parts(ticks, 0, 0)
        };
        Ok(Uuid(time.0 & !LOW_64 | self.0 & LOW_64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form_in_any_case_and_says_where_it_breaks() {
        let want = Uuid(0x017f22e2_79b0_7cc3_98c4_dc0c0c07398f);
        for text in [
            "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
            "017F22E279B07CC398C4DC0C0C07398F",
            "{017f22e2-79b0-7cc3-98c4-DC0C0C07398F}",
            "URN:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        ] {
            assert_eq!(Uuid::parse(text), Ok(want), "{text}");
        }
        let at = |text: &str| match Uuid::parse(text) {
            Err(ParseError::Character { position, .. }) => Some(position),
            _ => None,
        };
        assert_eq!(at("017f22e2-79b0-7cc3-98c4_dc0c0c07398f"), Some(23));
        assert_eq!(at("017f22e2079b0-7cc3-98c4-dc0c0c07398f"), Some(8));
        assert_eq!(at("(017f22e2-79b0-7cc3-98c4-dc0c0c07398f}"), Some(0));
        assert_eq!(
            at("urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398-"),
            Some(44)
        );
        assert!(matches!(
            Uuid::parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f0"),
            Err(ParseError::Length { found: 37, .. })
        ));
        // Non-ASCII: lengths and positions count characters, not UTF-8 bytes.
        assert_eq!(at("017f22e2-79b0-7cc3-98c4-dc0c0c07398é"), Some(35));
        assert!(matches!(
            Uuid::parse("017f22e2-79b0-7cc3-98c4-dc0c0c0739é"),
            Err(ParseError::Length { found: 35, .. })
        ));
    }

    #[test]
    fn variants() {
        let with = |bits: u128| Uuid(bits << 61).variant();
        assert_eq!(
            [0b000, 0b011, 0b100, 0b101, 0b110, 0b111].map(with),
            [
                Variant::Ncs,
                Variant::Ncs,
                Variant::Rfc9562,
                Variant::Rfc9562,
                Variant::Microsoft,
                Variant::Future,
            ]
        );
    }
}
