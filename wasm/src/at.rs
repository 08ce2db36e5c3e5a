//! IDs at a given time, range bounds and comparison (core `at`,
//! `Id::compare`): `text_at`, `snowflake_at`, `parse_snowflake`, `compare_ids`.

use snowmint::at::{Pick, TimedKind};
use snowmint::id::Id;
use snowmint::snowflake::parse_decimal_of_width;

use crate::snowflake::spec;
use crate::{Args, bigint, done, get_random, text};

/// A JS `bound` (0: an ID of the time; 1: the smallest; 2: the largest).
fn pick(bound: u32) -> Pick {
    match bound {
        1 => Pick::Min,
        2 => Pick::Max,
        _ => Pick::Any,
    }
}

/// An ID of a timed kind (text `kind_len`) at Unix ms `ms` with fresh
/// random bits (the page's CSPRNG), or the smallest or largest of that
/// time; a TypeID's prefix (text `prefix_len`): its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn text_at(kind_len: usize, ms: f64, bound: u32, prefix_len: usize) -> f64 {
    let mut args = Args::new();
    done((|| {
        let kind = TimedKind::from_name(args.text(kind_len)?)?;
        let prefix = args.text(prefix_len)?;
        let pick = pick(bound);
        let mut random = [0; 16];
        if pick == Pick::Any {
            // SAFETY: `random` is this module's memory, valid for 16 bytes.
            unsafe { get_random(random.as_mut_ptr(), random.len()) };
        }
        let random = u128::from_le_bytes(random);
        text(&kind.text_at(ms as u64, pick, random, prefix)?)
    })())
}

/// The Snowflake of the spec at `spec()` at Unix ms `ms` with `sequence`,
/// or the smallest or largest of the tick: -2 (at `big`), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn snowflake_at(ms: f64, bound: u32, sequence: f64) -> f64 {
    done((|| {
        bigint(spec()?.id_at(ms as u64, pick(bound), sequence as u64)?)
    })())
}

/// A decimal Snowflake (text `len`) that fits a layout `bits` (63 or 64)
/// wide: -2 (at `big`), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn parse_snowflake(len: usize, bits: u32) -> f64 {
    done((|| {
        bigint(parse_decimal_of_width(
            Args::new().text(len)?,
            bits.min(64) as u8,
        )?)
    })())
}

/// How ID text `a` sorts against `b` (same kind): -1, 0 or 1, or -3 for
/// an error (its numbers as after -1).
#[unsafe(no_mangle)]
pub extern "C" fn compare_ids(a_len: usize, b_len: usize) -> f64 {
    let mut args = Args::new();
    let result = done((|| {
        let (a, b) = (args.text(a_len)?, args.text(b_len)?);
        Ok(f64::from(Id::compare_texts(a, b)?) + 2.0)
    })());
    result - 2.0
}
