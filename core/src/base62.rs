//! Base62 (`0-9 A-Z a-z`) for 160-bit values, fixed at 27 digits: KSUID's
//! text form.

use crate::error::{Kind, ParseError};

/// The 62 digits in order.
pub const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// Digits needed for 160 bits.
pub const LEN: usize = 27;

/// 20 big-endian bytes as 27 base62 digits.
pub fn encode(bytes: &[u8; 20]) -> [u8; LEN] {
    // Five big-endian 32-bit limbs, divided by 62 until zero.
    let mut limbs = [0u32; 5];
    for (i, l) in limbs.iter_mut().enumerate() {
        *l = u32::from_be_bytes([
            bytes[4 * i],
            bytes[4 * i + 1],
            bytes[4 * i + 2],
            bytes[4 * i + 3],
        ]);
    }
    let mut out = [b'0'; LEN];
    for o in out.iter_mut().rev() {
        let mut rem: u64 = 0;
        for l in limbs.iter_mut() {
            let cur = rem << 32 | *l as u64;
            *l = (cur / 62) as u32;
            rem = cur % 62;
        }
        *o = DIGITS[rem as usize];
    }
    out
}

/// 27 base62 digits back to 20 bytes; values above 2^160 - 1 are rejected.
pub fn decode(text: &[u8], kind: Kind) -> Result<[u8; 20], ParseError> {
    if text.len() != LEN {
        return Err(ParseError::Length {
            kind,
            expected: "27",
            found: text.len(),
        });
    }
    let mut limbs = [0u32; 5];
    for (i, &c) in text.iter().enumerate() {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            b'a'..=b'z' => c - b'a' + 36,
            _ => {
                return Err(ParseError::Character {
                    kind,
                    position: i,
                    found: c,
                    allowed: "base62: 0-9, A-Z, a-z",
                });
            }
        };
        let mut carry = d as u64;
        for l in limbs.iter_mut().rev() {
            let cur = *l as u64 * 62 + carry;
            *l = cur as u32;
            carry = cur >> 32;
        }
        if carry != 0 {
            return Err(ParseError::Overflow {
                kind,
                max: "aWgEPTl1tmebfsQzFP4bxwgy80V",
            });
        }
    }
    let mut out = [0u8; 20];
    for (i, l) in limbs.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&l.to_be_bytes());
    }
    Ok(out)
}
