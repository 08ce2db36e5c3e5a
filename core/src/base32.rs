//! Crockford base32 (`0-9 A-Z` without I, L, O, U), as used by ULID and
//! TypeID, and the human-friendly form: lowercase, in dash groups of four
//! counted from the right (`01-hz61-3s22-k8nr-6w6g-rv1y-5c52`), read back by
//! a tolerant parser (any case, dashes anywhere, I/L -> 1, O -> 0).
//!
//! ULIDs are read as Crockford's decoding rule reads base32 (the ULID spec
//! uses Crockford's alphabet and no rule of its own): any case, and the
//! aliases I and L for 1, O for 0. They are written in the canonical
//! uppercase digits only. TypeIDs are lowercase digits only, as their spec says.

use crate::error::{Kind, ParseError};
use crate::text::IdText;

/// The 32 digits, uppercase.
pub const UPPER: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The 32 digits, lowercase.
pub const LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

const INVALID: u8 = 0xFF;

/// Which spellings a decoder accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// Upper- or lowercase digits and Crockford's decoding aliases
    /// I/L -> 1 and O -> 0 (ULID).
    AnyCase,
    /// Lowercase digits only (TypeID).
    Lowercase,
    /// [`Alphabet::AnyCase`] and dashes anywhere (human form).
    Tolerant,
}

const fn table(alphabet: Alphabet) -> [u8; 256] {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 32 {
        t[LOWER[i] as usize] = i as u8;
        if !matches!(alphabet, Alphabet::Lowercase) {
            t[UPPER[i] as usize] = i as u8;
        }
        i += 1;
    }
    if !matches!(alphabet, Alphabet::Lowercase) {
        t[b'I' as usize] = 1;
        t[b'i' as usize] = 1;
        t[b'L' as usize] = 1;
        t[b'l' as usize] = 1;
        t[b'O' as usize] = 0;
        t[b'o' as usize] = 0;
    }
    t
}

static ANY_CASE: [u8; 256] = table(Alphabet::AnyCase);
static LOWERCASE: [u8; 256] = table(Alphabet::Lowercase);

impl Alphabet {
    fn table(self) -> &'static [u8; 256] {
        match self {
            // The human form's dashes are skipped by its parser.
            Alphabet::AnyCase | Alphabet::Tolerant => &ANY_CASE,
            Alphabet::Lowercase => &LOWERCASE,
        }
    }

    fn allowed(self) -> &'static str {
        match self {
            Alphabet::AnyCase => {
                "Crockford base32: 0-9 and A-Z except U, in any case (I and L read as 1, O as 0)"
            }
            Alphabet::Lowercase => "lowercase Crockford base32: 0-9 and a-z except i, l, o, u",
            Alphabet::Tolerant => {
                "Crockford base32 (0-9, A-Z except U, any case; I and L read as 1, O as 0) and dashes"
            }
        }
    }
}

/// Writes the low `5 * N` bits of `value` as `N` digits, most significant first.
#[inline]
pub fn encode<const N: usize>(value: u128, digits: &[u8; 32]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut v = value;
    for o in out.iter_mut().rev() {
        *o = digits[(v & 31) as usize];
        v >>= 5;
    }
    out
}

/// Reads a 128-bit value written as exactly 26 digits (the first at most 7).
pub fn decode_128(text: &[u8], alphabet: Alphabet, kind: Kind) -> Result<u128, ParseError> {
    if text.len() != 26 {
        return Err(ParseError::Length {
            kind,
            expected: "26",
            found: text.len(),
        });
    }
    let value = decode_digits(text, 0, alphabet, kind)?;
    // 26 digits hold 130 bits: the first digit may only carry 3.
    if alphabet.table()[text[0] as usize] > 7 {
        return Err(ParseError::Overflow {
            kind,
            max: "7ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        });
    }
    Ok(value)
}

/// Reads digits into a value (wrapping past 128 bits; callers bound the length).
pub(crate) fn decode_digits(
    text: &[u8],
    offset: usize,
    alphabet: Alphabet,
    kind: Kind,
) -> Result<u128, ParseError> {
    let table = alphabet.table();
    let mut v: u128 = 0;
    for (i, &c) in text.iter().enumerate() {
        let d = table[c as usize];
        if d == INVALID {
            return Err(ParseError::Character {
                kind,
                position: offset + i,
                found: c,
                allowed: alphabet.allowed(),
            });
        }
        v = v << 5 | d as u128;
    }
    Ok(v)
}

/// The human-friendly form of a value of `digits` base32 digits (13 for
/// 64-bit IDs, 26 for 128-bit ones): lowercase, dash groups of four from
/// the right. `groups` keeps only the last groups (the short form for UI
/// columns); `None` keeps all.
pub fn to_human(value: u128, digits: usize, groups: Option<usize>) -> IdText<32> {
    let digits = digits.clamp(1, 26);
    let all: [u8; 26] = encode(value, LOWER);
    let text = &all[26 - digits..];
    let total_groups = digits.div_ceil(4);
    let keep = groups.unwrap_or(total_groups).clamp(1, total_groups);
    let mut out = IdText::new();
    // Group g (0 = leftmost) ends `4 * (total_groups - 1 - g)` digits from the right.
    for g in (total_groups - keep)..total_groups {
        let end = digits - 4 * (total_groups - 1 - g);
        let start = end.saturating_sub(4);
        if g > total_groups - keep {
            out.push(b"-");
        }
        out.push(&text[start..end]);
    }
    out
}

/// The number of base32 digits a `bits`-wide value needs.
pub const fn digits_for_bits(bits: u32) -> usize {
    bits.div_ceil(5) as usize
}

/// Reads the human form back: any case, dashes anywhere, I/L -> 1, O -> 0.
/// Returns the value and its number of digits (1 to 26; 26 digits must
/// start with 0-7 to fit 128 bits).
pub fn from_human(text: &str) -> Result<(u128, usize), ParseError> {
    crate::text::per_char(text, human)
}

/// [`from_human`] over bytes.
fn human(bytes: &[u8]) -> Result<(u128, usize), ParseError> {
    let mut v: u128 = 0;
    let mut digits = 0usize;
    let table = Alphabet::Tolerant.table();
    for (i, &c) in bytes.iter().enumerate() {
        if c == b'-' {
            continue;
        }
        let d = table[c as usize];
        if d == INVALID {
            return Err(ParseError::Character {
                kind: Kind::Human,
                position: i,
                found: c,
                allowed: Alphabet::Tolerant.allowed(),
            });
        }
        if digits == 26 || (digits == 25 && v >> 123 != 0) {
            return Err(ParseError::Overflow {
                kind: Kind::Human,
                max: "7zzzzzzzzzzzzzzzzzzzzzzzzz (128 bits)",
            });
        }
        v = v << 5 | d as u128;
        digits += 1;
    }
    if digits == 0 {
        return Err(ParseError::Length {
            kind: Kind::Human,
            expected: "1 to 26 base32 digits",
            found: 0,
        });
    }
    Ok((v, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_form_groups_from_the_right() {
        let v = decode_128(b"01HZ613S22K8NR6W6GRV1Y5C52", Alphabet::AnyCase, Kind::Ulid).unwrap();
        assert_eq!(&*to_human(v, 26, None), "01-hz61-3s22-k8nr-6w6g-rv1y-5c52");
        assert_eq!(&*to_human(v, 26, Some(2)), "rv1y-5c52");
        assert_eq!(&*to_human(1, 13, None), "0-0000-0000-0001");
        assert_eq!(
            from_human("01-HZ61-3S22-K8NR-6W6G-RV1Y-5C52").unwrap(),
            (v, 26)
        );
        assert_eq!(
            from_human("O1-hz6I-3s22-k8nr-6w6g-rv1y-5c52").unwrap(),
            (v, 26)
        );
        assert_eq!(from_human("0-oooo-oooo-ooo1").unwrap(), (1, 13));
    }

    #[test]
    fn rejects_bad_digits_and_overflow() {
        assert!(matches!(
            from_human("01-hz61-3s2u"),
            Err(ParseError::Character { position: 11, .. })
        ));
        assert!(matches!(
            from_human("8zzzzzzzzzzzzzzzzzzzzzzzzz"),
            Err(ParseError::Overflow { .. })
        ));
        assert!(matches!(
            from_human("000000000000000000000000000"),
            Err(ParseError::Overflow { .. })
        ));
        assert!(matches!(from_human("--"), Err(ParseError::Length { .. })));
        assert!(matches!(
            decode_128(b"8ZZZZZZZZZZZZZZZZZZZZZZZZZ", Alphabet::AnyCase, Kind::Ulid),
            Err(ParseError::Overflow { .. })
        ));
        assert!(matches!(
            decode_128(
                b"01hz613s22k8nr6w6grv1y5c5U",
                Alphabet::Lowercase,
                Kind::TypeId
            ),
            Err(ParseError::Character { position: 25, .. })
        ));
    }
}
