//! Snowflakes in decimal text: the parser, and the check of a value
//! against a layout's width.

use crate::error::{Kind, ParseError};

/// The lengths of a decimal Snowflake, in words.
pub(crate) const LENGTHS: &str = "1 to 20";
/// Its characters, in words.
pub(crate) const DIGITS: &str = "decimal digits 0-9";
/// The largest, as text.
pub(crate) const MAX_64: &str = "18446744073709551615 (2^64 - 1)";
/// The largest of a 63-bit layout, as text.
pub(crate) const MAX_63: &str = "9223372036854775807 (2^63 - 1) in a 63-bit layout";

/// Parses a Snowflake in decimal: 1 to 20 ASCII digits, at most 2^64 - 1
/// (whether a value fits a layout is
/// [`Layout::check_id`](super::Layout::check_id)'s to say).
pub fn parse_decimal(text: &str) -> Result<u64, ParseError> {
    crate::text::per_char(text, decimal)
}

/// [`parse_decimal`] of a Snowflake of a layout `bits` wide (63, or 64 for
/// the layouts that use all 64 bits): what a caller that knows the layout's
/// width but not the layout checks a decimal text with.
pub fn parse_decimal_of_width(text: &str, bits: u8) -> Result<u64, ParseError> {
    check_width(parse_decimal(text)?, bits)
}

/// Checks that `id` fits `bits` bits.
pub(super) const fn check_width(id: u64, bits: u8) -> Result<u64, ParseError> {
    if bits < 64 && id >> bits != 0 {
        Err(ParseError::Overflow {
            kind: Kind::Snowflake,
            max: MAX_63,
        })
    } else {
        Ok(id)
    }
}

/// [`parse_decimal`] over bytes.
fn decimal(b: &[u8]) -> Result<u64, ParseError> {
    if b.is_empty() || b.len() > 20 {
        return Err(ParseError::Length {
            kind: Kind::Snowflake,
            expected: LENGTHS,
            found: b.len(),
        });
    }
    let mut v: u64 = 0;
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_digit() {
            return Err(ParseError::Character {
                kind: Kind::Snowflake,
                position: i,
                found: c,
                allowed: DIGITS,
            });
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add((c - b'0') as u64))
            .ok_or(ParseError::Overflow {
                kind: Kind::Snowflake,
                max: MAX_64,
            })?;
    }
    Ok(v)
}
