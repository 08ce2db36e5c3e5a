//! What each error says: the `Display` of [`ParseError`] and [`Error`], a
//! sentence that names what was wrong and what is allowed.

use core::fmt;

use super::{Error, ParseError};
use crate::text::IdText;

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseError::Length {
                kind,
                expected,
                found,
            } => put(
                f,
                &[
                    "invalid ",
                    kind.name(),
                    ": expected ",
                    expected,
                    " characters, found ",
                    &IdText::<20>::decimal(found as u64),
                ],
            ),
            ParseError::Character {
                kind,
                position,
                found,
                allowed,
            } => {
                let (what, shown, close) = match shape(found) {
                    0 => ("character '", IdText::<2>::ascii(&[found]), "'"),
                    1 => ("byte 0x", IdText::<2>::hex(found.into()), ""),
                    _ => ("a non-ASCII character", IdText::new(), ""),
                };
                put(
                    f,
                    &[
                        "invalid ",
                        kind.name(),
                        ": ",
                        what,
                        &shown,
                        close,
                        " at position ",
                        &IdText::<20>::decimal(position as u64),
                        " is not allowed (allowed: ",
                        allowed,
                        ")",
                    ],
                )
            }
            ParseError::Overflow { kind, max } => put(
                f,
                &[
                    "invalid ",
                    kind.name(),
                    ": value is larger than the maximum ",
                    max,
                ],
            ),
            ParseError::Prefix { reason } => put(f, &["invalid typeid prefix: ", reason]),
            ParseError::UnknownKind { length } => put(
                f,
                &[
                    "unrecognized ID of ",
                    &IdText::<20>::decimal(length as u64),
                    " characters: expected a decimal Snowflake, a ULID (26), a UUID (32 or 36), a KSUID (27), an ObjectId (24 hex) or a TypeID (prefix_ + 26)",
                ],
            ),
            ParseError::ByteLength {
                kind,
                expected,
                found,
            } => put(
                f,
                &[
                    "invalid ",
                    kind.name(),
                    " bytes: expected ",
                    expected,
                    " bytes, found ",
                    &IdText::<20>::decimal(found as u64),
                ],
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = IdText::<20>::decimal;
        match *self {
            Error::WorkerIdOutOfRange { worker_id, max } => put(
                f,
                &[
                    "worker ID ",
                    &n(worker_id),
                    " is out of range: this layout allows 0 to ",
                    &n(max),
                ],
            ),
            Error::InvalidLayout { reason } => {
                put(f, &["invalid Snowflake layout: ", reason.text()])
            }
            Error::EpochInFuture { epoch_ms, now_ms } => put(
                f,
                &[
                    "epoch ",
                    &n(epoch_ms),
                    " (Unix ms) is in the future: the clock reads ",
                    &n(now_ms),
                    "; the epoch must not be later than now",
                ],
            ),
            Error::TimeBeforeEpoch { epoch_ms, now_ms } => put(
                f,
                &[
                    "the clock reads ",
                    &n(now_ms),
                    " (Unix ms), before the epoch ",
                    &n(epoch_ms),
                ],
            ),
            Error::TimeOverflow { max_ms, now_ms } => put(
                f,
                &[
                    "time ",
                    &n(now_ms),
                    " (Unix ms) does not fit the ID's time field: the last representable time is ",
                    &n(max_ms),
                ],
            ),
            Error::ClockMovedBackwards { by_ms, allowed_ms } => put(
                f,
                &[
                    "the clock moved backwards by ",
                    &n(by_ms),
                    " ms; the clock policy waits out at most ",
                    &n(allowed_ms),
                    " ms",
                ],
            ),
            Error::ClockWouldWait { now_ms, until_ms } => put(
                f,
                &[
                    "the clock reads ",
                    &n(now_ms),
                    " (Unix ms) and minting must wait until it reads ",
                    &n(until_ms),
                    ", but this clock does not move by itself: advance it first",
                ],
            ),
            Error::InvalidCount { count, max } => put(
                f,
                &["invalid count ", &n(count), ": expected 1 to ", &n(max)],
            ),
            Error::UnknownName {
                what,
                given,
                allowed,
            } => {
                put(f, &["unknown ", what])?;
                if let Some(given) = given {
                    let [name, cut] = given.shown();
                    put(f, &[" '", name, cut, "'"])?;
                }
                put(f, &[": expected one of "])?;
                for (i, name) in allowed.iter().enumerate() {
                    put(f, &[if i == 0 { "'" } else { ", '" }, name, "'"])?;
                }
                Ok(())
            }
            Error::NoHumanForm { kind } => put(
                f,
                &[
                    "the human form is defined for Snowflakes and 128-bit IDs (ULID, UUID, TypeID), not for a ",
                    kind.name(),
                ],
            ),
            Error::HumanGroups => f.write_str(
                "groups must be an integer from 1 to 7: the groups of four digits to keep, from the right (a 128-bit ID has 7, a Snowflake 4)",
            ),
            Error::UuidVersion { expected, found } => put(
                f,
                &[
                    "expected a version ",
                    &n(expected.into()),
                    " UUID, got one of version ",
                    &n(found.into()),
                ],
            ),
            Error::NotApplicable { kind, reason } => {
                put(f, &["not available for a ", kind.name(), ": ", reason])
            }
            Error::FieldOutOfRange { field, value, max } => out_of_range(f, field, value, max),
            Error::SequenceOutOfRange { value, max } => out_of_range(f, "sequence", value, max),
            Error::KindMismatch { first, second } => put(
                f,
                &[
                    "cannot compare a ",
                    first.name(),
                    " with a ",
                    second.name(),
                    ": IDs of different kinds have no order",
                ],
            ),
            Error::Parse(ref e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "sequence")]
            ref e => sequence_message(e, f),
        }
    }
}

/// "`field` `value` is out of range: this layout allows 0 to `max`".
fn out_of_range(f: &mut fmt::Formatter<'_>, field: &str, value: u64, max: u64) -> fmt::Result {
    let n = IdText::<20>::decimal;
    put(
        f,
        &[
            field,
            " ",
            &n(value),
            " is out of range: this layout allows 0 to ",
            &n(max),
        ],
    )
}

/// The messages of the sequence errors (apart, so the feature gates them in one place).
#[cfg(feature = "sequence")]
fn sequence_message(e: &Error, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let n = IdText::<20>::decimal;
    match *e {
        Error::SequenceOption {
            option,
            value,
            min,
            max,
        } => put(
            f,
            &[
                "sequence option ",
                option,
                " = ",
                &n(value),
                " is out of range: expected ",
                &n(min),
                " to ",
                &n(max),
            ],
        ),
        Error::SequenceBlockSizes {
            min,
            block_size,
            max,
        } => put(
            f,
            &[
                "sequence block sizes must satisfy minBlockSize <= blockSize <= maxBlockSize, found ",
                &n(min),
                ", ",
                &n(block_size),
                ", ",
                &n(max),
            ],
        ),
        Error::SequenceName { reason } => put(
            f,
            &[
                "invalid sequence name: ",
                reason,
                "; expected 1 to 63 ASCII letters, digits and '_', not starting with a digit",
            ],
        ),
        Error::SequenceOverflow { start, len } => put(
            f,
            &[
                "a block of ",
                &n(len),
                " IDs from ",
                &n(start),
                " would pass the largest ID 9223372036854775807 (2^63-1): the sequence is used up",
            ],
        ),
        Error::SequenceBackwards {
            start,
            previous_end,
        } => put(
            f,
            &[
                "the sequence's store answered with a block starting at ",
                &n(start),
                ", before the end ",
                &n(previous_end),
                " of the previous block: its counter went back (restored or reset?), so IDs would repeat",
            ],
        ),
        Error::SequenceEmpty => f.write_str(
            "no sequence ID is buffered: the first block has not arrived yet or the buffer ran dry; await next() instead, or await a next() before calling nextSync()",
        ),
        _ => Ok(()),
    }
}

/// Writes a message piece by piece. Messages are assembled from `&str`s
/// (numbers through [`IdText::decimal`]) rather than with `write!`, so a
/// binding that shows them pulls in none of `core::fmt`'s argument and
/// integer formatting: about 1.5 KB of the browser build's gzipped budget.
/// How a message shows a byte that is not allowed: 0 as the character,
/// 1 as hex (other ASCII), 2 as "a non-ASCII character".
pub(super) const fn shape(found: u8) -> u8 {
    if found.is_ascii_graphic() {
        0
    } else if found.is_ascii() {
        1
    } else {
        2
    }
}

fn put(f: &mut fmt::Formatter<'_>, pieces: &[&str]) -> fmt::Result {
    pieces.iter().try_for_each(|p| f.write_str(p))
}
