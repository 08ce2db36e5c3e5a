//! The errors a binding with no message strings (the browser's minting
//! modules) reports as an index and two numbers, and the error each index
//! stands for: its JavaScript words them from templates of the core's own
//! `Display` (`examples/protocol.rs`), so the words stay the core's.

use super::{Error, Kind, ParseError, message};
use crate::snowflake::{LayoutRule, decimal};
use crate::{typeid, uuid};

/// Writes the numbering of the errors that are all numbers (see
/// [`Error::numbered`]) from one list: each with its index and its two
/// fields, or none.
macro_rules! numbered {
    ($($index:literal => $variant:ident $({ $a:ident, $b:ident })?,)*) => {
        impl Error {
            /// How many of the numbered errors are all numbers (the first ones).
            pub const ALL_NUMBERS: u32 = [$($index),*].len() as u32;

            /// [`Error::numbered`] of the errors that are all numbers only,
            /// else `None`: for a caller that can return no other (the
            /// browser's text minting modules), whose code then links none
            /// of the others' checks.
            pub const fn all_numbers(&self) -> Option<(u32, [u64; 2])> {
                match *self {
                    $(Error::$variant $({ $a, $b })? => Some(($index, numbered!(@pair $($a, $b)?))),)*
                    _ => None,
                }
            }

            /// The error that is all numbers [`Error::all_numbers`] gave `index` and `numbers` for.
            #[allow(unused_variables)]
            const fn from_all_numbers(index: u32, [a, b]: [u64; 2]) -> Option<Error> {
                match index {
                    $($index => Some(Error::$variant $({ $a: a, $b: b })?),)*
                    _ => None,
                }
            }
        }
    };
    (@pair $a:ident, $b:ident) => { [$a, $b] };
    (@pair) => { [0, 0] };
}

numbered! {
    0 => WorkerIdOutOfRange { worker_id, max },
    1 => EpochInFuture { epoch_ms, now_ms },
    2 => TimeBeforeEpoch { epoch_ms, now_ms },
    3 => TimeOverflow { max_ms, now_ms },
    4 => ClockMovedBackwards { by_ms, allowed_ms },
    5 => ClockWouldWait { now_ms, until_ms },
    6 => InvalidCount { count, max },
    7 => SequenceOutOfRange { value, max },
    8 => HumanGroups,
}

/// The numbered errors after the all-numbers ones, by their place after
/// them: the rules of a layout (at [`LayoutRule`]'s index), then the errors
/// of a decimal Snowflake (what the browser's Snowflake module can return)
/// and of a TypeID prefix (its TypeID module's). An error of a character is
/// numbered by how its message shows the byte ([`message::shape`]: 0, 1,
/// 2), so that each way has words of its own. `examples/protocol.rs` words
/// each; the tests below make every one round-trip.
mod fixed {
    pub const LAYOUT: u32 = 0;
    pub const SNOWFLAKE_LENGTH: u32 = 5;
    pub const SNOWFLAKE_OVER_64: u32 = 6;
    pub const SNOWFLAKE_OVER_63: u32 = 7;
    pub const SNOWFLAKE_CHARACTER: u32 = 8;
    pub const PREFIX_TOO_LONG: u32 = 11;
    pub const PREFIX_EDGE: u32 = 12;
    pub const PREFIX_CHARACTER: u32 = 13;
    pub const LEN: u32 = 16;
}

/// A byte that a message shows the way `shape` says ([`message::shape`]).
const fn byte_shown(shape: u32, b: u64) -> u8 {
    let b = b as u8;
    if message::shape(b) as u32 == shape {
        b
    } else {
        [b'~', 0x1f, 0x80][shape as usize]
    }
}

impl Error {
    /// How many errors [`Error::numbered`] numbers.
    pub const NUMBERED: u32 = Error::ALL_NUMBERS + fixed::LEN;

    /// The errors a binding that carries no message strings (the browser's
    /// minting modules) reports as an index and two numbers: those that are
    /// all numbers, the rules of a layout, and the errors of a decimal
    /// Snowflake and of a TypeID prefix. Its JavaScript words each from
    /// templates written from this `Display` (core/examples/protocol.rs), so
    /// the words stay the core's. `None` for any other error.
    pub fn numbered(&self) -> Option<(u32, [u64; 2])> {
        use {Kind::Snowflake as S, Kind::TypeId as T, ParseError as P};
        if let Some(numbered) = self.all_numbers() {
            return Some(numbered);
        }
        let (place, numbers) = match *self {
            Error::InvalidLayout { reason } => (fixed::LAYOUT + reason as u32, [0, 0]),
            Error::Parse(P::Length { kind: S, found, .. }) => {
                (fixed::SNOWFLAKE_LENGTH, [found as u64, 0])
            }
            Error::Parse(P::Overflow { kind: S, max }) if max == decimal::MAX_64 => {
                (fixed::SNOWFLAKE_OVER_64, [0, 0])
            }
            Error::Parse(P::Overflow { kind: S, max }) if max == decimal::MAX_63 => {
                (fixed::SNOWFLAKE_OVER_63, [0, 0])
            }
            Error::Parse(P::Character {
                kind,
                position,
                found,
                ..
            }) if matches!(kind, S | T) => {
                let first = if kind == S {
                    fixed::SNOWFLAKE_CHARACTER
                } else {
                    fixed::PREFIX_CHARACTER
                };
                (
                    first + message::shape(found) as u32,
                    [position as u64, found.into()],
                )
            }
            Error::Parse(P::Prefix { reason }) if reason == typeid::TOO_LONG => {
                (fixed::PREFIX_TOO_LONG, [0, 0])
            }
            Error::Parse(P::Prefix { reason }) if reason == typeid::EDGE => {
                (fixed::PREFIX_EDGE, [0, 0])
            }
            _ => return None,
        };
        Some((Error::ALL_NUMBERS + place, numbers))
    }

    /// The error [`Error::numbered`] gave `index` and `numbers` for.
    pub fn from_numbered(index: u32, [a, b]: [u64; 2]) -> Option<Error> {
        use {Kind::Snowflake as S, Kind::TypeId as T, ParseError as P};
        if let Some(e) = Error::from_all_numbers(index, [a, b]) {
            return Some(e);
        }
        let place = index.checked_sub(Error::ALL_NUMBERS)?;
        let character = |kind, first, allowed| P::Character {
            kind,
            position: a as usize,
            found: byte_shown(place - first, b),
            allowed,
        };
        let parse = match place {
            p if p < fixed::SNOWFLAKE_LENGTH => {
                let reason = LayoutRule::ALL[(p - fixed::LAYOUT) as usize];
                return Some(Error::InvalidLayout { reason });
            }
            fixed::SNOWFLAKE_LENGTH => P::Length {
                kind: S,
                expected: decimal::LENGTHS,
                found: a as usize,
            },
            fixed::SNOWFLAKE_OVER_64 => P::Overflow {
                kind: S,
                max: decimal::MAX_64,
            },
            fixed::SNOWFLAKE_OVER_63 => P::Overflow {
                kind: S,
                max: decimal::MAX_63,
            },
            p if p < fixed::PREFIX_TOO_LONG => {
                character(S, fixed::SNOWFLAKE_CHARACTER, decimal::DIGITS)
            }
            fixed::PREFIX_TOO_LONG => P::Prefix {
                reason: typeid::TOO_LONG,
            },
            fixed::PREFIX_EDGE => P::Prefix {
                reason: typeid::EDGE,
            },
            p if p < fixed::LEN => character(T, fixed::PREFIX_CHARACTER, typeid::PREFIX_CHARACTERS),
            _ => return None,
        };
        Some(Error::Parse(parse))
    }
}

/// The numbered errors of a UUID argument, numbered after all the others
/// ([`Error::NUMBERED`]): its text's length, its bytes' length, and a
/// character each place of the text refuses ([`uuid::ALLOWED`]), by how its
/// message shows the byte.
mod uuid_place {
    pub const LENGTH: u32 = 0;
    pub const BYTE_LENGTH: u32 = 1;
    pub const CHARACTER: u32 = 2;
    pub const LEN: u32 = CHARACTER + 3 * super::uuid::ALLOWED.len() as u32;
}

impl Error {
    /// How many errors [`Error::numbered_uuid`] numbers.
    pub const NUMBERED_UUID: u32 = uuid_place::LEN;

    /// The errors of a UUID argument (the browser's name-based module reads
    /// a namespace, as text or bytes) as an index from [`Error::NUMBERED`]
    /// on and two numbers, as [`Error::numbered`] numbers the others, so
    /// that its JavaScript words them from templates of this `Display`.
    /// `None` for any other error.
    pub fn numbered_uuid(&self) -> Option<(u32, [u64; 2])> {
        let Error::Parse(e) = self else {
            return None;
        };
        let (place, numbers) = match *e {
            ParseError::Length {
                kind: Kind::Uuid,
                found,
                ..
            } => (uuid_place::LENGTH, [found as u64, 0]),
            ParseError::ByteLength {
                kind: Kind::Uuid,
                found,
                ..
            } => (uuid_place::BYTE_LENGTH, [found as u64, 0]),
            ParseError::Character {
                kind: Kind::Uuid,
                position,
                found,
                allowed,
            } => {
                let rule = uuid::ALLOWED.iter().position(|a| *a == allowed)? as u32;
                (
                    uuid_place::CHARACTER + 3 * rule + message::shape(found) as u32,
                    [position as u64, found.into()],
                )
            }
            _ => return None,
        };
        Some((Error::NUMBERED + place, numbers))
    }

    /// The error [`Error::numbered_uuid`] gave `index` and `numbers` for.
    pub fn from_numbered_uuid(index: u32, [a, b]: [u64; 2]) -> Option<Error> {
        let place = index.checked_sub(Error::NUMBERED)?;
        let parse = match place {
            uuid_place::LENGTH => ParseError::Length {
                kind: Kind::Uuid,
                expected: uuid::LENGTHS,
                found: a as usize,
            },
            uuid_place::BYTE_LENGTH => ParseError::ByteLength {
                kind: Kind::Uuid,
                expected: "16",
                found: a as usize,
            },
            p if p < uuid_place::LEN => {
                let (rule, shape) = (
                    (p - uuid_place::CHARACTER) / 3,
                    (p - uuid_place::CHARACTER) % 3,
                );
                ParseError::Character {
                    kind: Kind::Uuid,
                    position: a as usize,
                    found: byte_shown(shape, b),
                    allowed: uuid::ALLOWED[rule as usize],
                }
            }
            _ => return None,
        };
        Some(Error::Parse(parse))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_errors_round_trip() {
        for index in 0..Error::NUMBERED {
            let e = Error::from_numbered(index, [7, 11]).unwrap();
            let (i, numbers) = e.numbered().unwrap();
            assert_eq!(i, index);
            assert_eq!(Error::from_numbered(i, numbers), Some(e));
        }
        assert_eq!(Error::from_numbered(Error::NUMBERED, [0, 0]), None);
        for index in Error::NUMBERED..Error::NUMBERED + Error::NUMBERED_UUID {
            let e = Error::from_numbered_uuid(index, [7, 11]).unwrap();
            let (i, numbers) = e.numbered_uuid().unwrap();
            assert_eq!(i, index);
            assert_eq!(Error::from_numbered_uuid(i, numbers), Some(e));
        }
        let end = Error::NUMBERED + Error::NUMBERED_UUID;
        assert_eq!(Error::from_numbered_uuid(end, [0, 0]), None);
        // What the parsers return for a UUID argument is numbered as it is.
        for text in [
            "",
            "{6ba7b810-9dad-11d1-80b4-00c04fd430c8)",
            "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430cX",
            "6ba7b810x9dad-11d1-80b4-00c04fd430c8",
            "6ba7b810-9dad-11d1-80b4-00c04fd430\u{e9}",
            "6ba7b810-9dad-11d1-80b4-00c04fd430\u{7}8",
            "(6ba7b810-9dad-11d1-80b4-00c04fd430c8}",
            "URN:UUID-6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        ] {
            let e = Error::from(crate::uuid::Uuid::parse(text).unwrap_err());
            let (i, numbers) = e.numbered_uuid().expect(text);
            assert_eq!(Error::from_numbered_uuid(i, numbers), Some(e), "{text}");
        }
        let e = crate::uuid::Uuid::from_slice(&[0; 15]).unwrap_err();
        let (i, numbers) = e.numbered_uuid().unwrap();
        assert_eq!(Error::from_numbered_uuid(i, numbers), Some(e));
        let field = Error::FieldOutOfRange {
            field: "worker",
            value: 1,
            max: 0,
        };
        assert_eq!(field.numbered(), None);
        // What the parser returns is numbered as it is, whichever way its message shows the byte.
        for (text, bits) in [
            ("12a", 63),
            ("1\u{7}", 63),
            ("1é", 64),
            ("", 64),
            ("99999999999999999999", 64),
        ]
        .into_iter()
        .chain([("9223372036854775808", 63)])
        {
            let e = Error::from(crate::snowflake::parse_decimal_of_width(text, bits).unwrap_err());
            let (i, numbers) = e.numbered().expect(text);
            assert_eq!(Error::from_numbered(i, numbers), Some(e), "{text}");
        }
    }
}
