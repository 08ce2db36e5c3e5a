//! Typed errors. Every failure says what was wrong and what is allowed, and
//! carries a stable [`Error::code`] that the Node and browser bindings expose
//! unchanged as `err.code`. What each says, in words, is in `message.rs`.

pub use crate::kind::Kind;
use crate::snowflake::{LayoutRule, decimal};
use crate::{typeid, uuid};

mod message;

/// Why a text was not a valid ID.
/// Fields are named for what they hold; `Display` puts them in a sentence.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Wrong number of characters.
    Length {
        kind: Kind,
        /// What is allowed, e.g. `"26"` or `"1 to 20"`.
        expected: &'static str,
        found: usize,
    },
    /// A character outside the alphabet at a position (in characters for
    /// text, in bytes for the `parse_bytes` functions).
    Character {
        kind: Kind,
        position: usize,
        /// The offending byte (0x80 for any non-ASCII character of a text).
        found: u8,
        /// The allowed characters, in words.
        allowed: &'static str,
    },
    /// Well-formed digits whose value does not fit the ID's width.
    Overflow {
        kind: Kind,
        /// The largest value, as text.
        max: &'static str,
    },
    /// A TypeID prefix that breaks the spec's rules.
    Prefix { reason: &'static str },
    /// The text does not look like any ID kind this library knows.
    UnknownKind { length: usize },
    /// Bytes of the wrong length for the kind.
    ByteLength {
        kind: Kind,
        /// How many bytes the kind has, e.g. `"16"`.
        expected: &'static str,
        found: usize,
    },
}

/// Every error the library returns.
/// Fields are named for what they hold; `Display` puts them in a sentence.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The worker ID does not fit the layout's worker field.
    WorkerIdOutOfRange { worker_id: u64, max: u64 },
    /// The layout's widths or units are not usable.
    InvalidLayout { reason: LayoutRule },
    /// The epoch lies after the clock's current time.
    EpochInFuture { epoch_ms: u64, now_ms: u64 },
    /// The clock reads a time before the layout's epoch.
    TimeBeforeEpoch { epoch_ms: u64, now_ms: u64 },
    /// The time no longer fits the ID's time field.
    TimeOverflow {
        /// Last representable Unix millisecond.
        max_ms: u64,
        now_ms: u64,
    },
    /// The clock stepped back further than the policy allows.
    ClockMovedBackwards { by_ms: u64, allowed_ms: u64 },
    /// The policy would wait for the clock to reach `until_ms`, but the
    /// clock cannot move while the generator waits (a test clock).
    ClockWouldWait { now_ms: u64, until_ms: u64 },
    /// A batch request asked for nothing or for more than allowed.
    InvalidCount { count: u64, max: u64 },
    /// A name (or a binding's index for one) that is not among those allowed.
    UnknownName {
        /// What was named, e.g. `"preset"`.
        what: &'static str,
        /// The name given (none where a binding gave an index).
        given: Option<GivenName>,
        /// The names allowed.
        allowed: &'static [&'static str],
    },
    /// The human-friendly form exists for Snowflakes and 128-bit IDs only.
    NoHumanForm { kind: Kind },
    /// A short human form of no groups (0, or not a whole number), or more
    /// than any ID has (7).
    HumanGroups,
    /// A UUID conversion was given a UUID of another version.
    UuidVersion { expected: u8, found: u8 },
    /// An operation or option that does not apply to this kind of ID.
    NotApplicable {
        kind: Kind,
        /// Why, and where it applies.
        reason: &'static str,
    },
    /// A named part of a Snowflake's worker field (Twitter's `datacenter`,
    /// Discord's `process`, ...) that does not fit its width.
    FieldOutOfRange {
        field: &'static str,
        value: u64,
        max: u64,
    },
    /// A Snowflake sequence given by value that does not fit its width.
    SequenceOutOfRange { value: u64, max: u64 },
    /// Two IDs of different kinds, which have no order between them.
    KindMismatch { first: Kind, second: Kind },
    /// A text or byte input was not a valid ID.
    Parse(ParseError),
    /// A sequence option outside its range (`option` is its JS name).
    #[cfg(feature = "sequence")]
    SequenceOption {
        option: &'static str,
        value: u64,
        min: u64,
        max: u64,
    },
    /// Block sizes that are not ordered `min <= block_size <= max`.
    #[cfg(feature = "sequence")]
    SequenceBlockSizes { min: u64, block_size: u64, max: u64 },
    /// A sequence name that is not an identifier.
    #[cfg(feature = "sequence")]
    SequenceName { reason: &'static str },
    /// A block whose last ID would be past 2^63-1.
    #[cfg(feature = "sequence")]
    SequenceOverflow { start: u64, len: u64 },
    /// A block that starts before the end of the previous one.
    #[cfg(feature = "sequence")]
    SequenceBackwards { start: u64, previous_end: u64 },
    /// No ID is buffered: no block has arrived yet, or the buffer ran dry.
    #[cfg(feature = "sequence")]
    SequenceEmpty,
}

impl Error {
    /// A stable, machine-readable code (kept across versions).
    pub const fn code(&self) -> &'static str {
        match self {
            Error::WorkerIdOutOfRange { .. } => "ERR_WORKER_ID_RANGE",
            Error::InvalidLayout { .. } => "ERR_INVALID_LAYOUT",
            Error::EpochInFuture { .. } => "ERR_EPOCH_IN_FUTURE",
            Error::TimeBeforeEpoch { .. } => "ERR_TIME_BEFORE_EPOCH",
            Error::TimeOverflow { .. } => "ERR_TIME_OVERFLOW",
            Error::ClockMovedBackwards { .. } => "ERR_CLOCK_BACKWARDS",
            Error::ClockWouldWait { .. } => "ERR_CLOCK_WOULD_WAIT",
            Error::InvalidCount { .. } => "ERR_INVALID_COUNT",
            Error::UnknownName { .. } => "ERR_INVALID_OPTION",
            Error::NoHumanForm { .. } => "ERR_INVALID_ARG_VALUE",
            Error::HumanGroups => "ERR_INVALID_ARG_VALUE",
            Error::UuidVersion { .. } => "ERR_INVALID_ARG_VALUE",
            Error::NotApplicable { .. } => "ERR_INVALID_ARG_VALUE",
            Error::FieldOutOfRange { .. } => "ERR_WORKER_ID_RANGE",
            Error::SequenceOutOfRange { .. } => "ERR_INVALID_ARG_VALUE",
            Error::KindMismatch { .. } => "ERR_INVALID_ARG_VALUE",
            Error::Parse(_) => "ERR_PARSE",
            #[cfg(feature = "sequence")]
            Error::SequenceOption { .. } | Error::SequenceBlockSizes { .. } => {
                "ERR_SEQUENCE_OPTION"
            }
            #[cfg(feature = "sequence")]
            Error::SequenceName { .. } => "ERR_SEQUENCE_NAME",
            #[cfg(feature = "sequence")]
            Error::SequenceOverflow { .. } => "ERR_SEQUENCE_OVERFLOW",
            #[cfg(feature = "sequence")]
            Error::SequenceBackwards { .. } => "ERR_SEQUENCE_BACKWARDS",
            #[cfg(feature = "sequence")]
            Error::SequenceEmpty => "ERR_SEQUENCE_EMPTY",
        }
    }
}

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

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

/// A name as it was given, for the message of an [`Error::UnknownName`]:
/// its first [`GivenName::MAX`] bytes (cut at a character boundary), so the
/// error needs no allocation and says what was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GivenName {
    bytes: [u8; GivenName::MAX],
    len: u8,
    cut: bool,
}

impl GivenName {
    /// The most bytes of a name kept.
    pub const MAX: usize = 40;

    /// `name`, cut to [`GivenName::MAX`] bytes.
    pub fn new(name: &str) -> GivenName {
        let mut len = name.len().min(GivenName::MAX);
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        let mut bytes = [0; GivenName::MAX];
        bytes[..len].copy_from_slice(&name.as_bytes()[..len]);
        GivenName {
            bytes,
            len: len as u8,
            cut: len < name.len(),
        }
    }

    /// The name kept (all of it unless [`GivenName::is_cut`]).
    pub fn as_str(&self) -> &str {
        // The bytes of a `&str` up to a character boundary.
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or_default()
    }

    /// Whether the name was longer than what is kept.
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// The name as a message shows it: what is kept, then `"..."` if it was cut.
    pub fn shown(&self) -> [&str; 2] {
        [self.as_str(), if self.cut { "..." } else { "" }]
    }
}

/// The item of `all` named `name` (`names[i]` names `all[i]`), or the
/// typed error that names it and lists what is allowed.
pub(crate) fn by_name<T: Copy>(
    what: &'static str,
    names: &'static [&'static str],
    all: &[T],
    name: &str,
) -> Result<T, Error> {
    match names.iter().position(|n| *n == name) {
        Some(i) => by_index(what, names, all, i as f64),
        None => Err(Error::UnknownName {
            what,
            given: Some(GivenName::new(name)),
            allowed: names,
        }),
    }
}

/// The item at `index` of `all` (a binding's index encoding of a name),
/// or the typed error that lists what is allowed: an index that is not a
/// whole number in range never silently becomes another item.
pub(crate) fn by_index<T: Copy>(
    what: &'static str,
    names: &'static [&'static str],
    all: &[T],
    index: f64,
) -> Result<T, Error> {
    // `as` saturates and maps NaN to 0: only a whole number in range survives the round trip.
    let i = index as usize;
    (index >= 0.0 && i as f64 == index)
        .then(|| all.get(i).copied())
        .flatten()
        .ok_or(Error::UnknownName {
            what,
            given: None,
            allowed: names,
        })
}

impl core::error::Error for Error {}
impl core::error::Error for ParseError {}

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
