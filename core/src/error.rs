//! Typed errors. Every failure says what was wrong and what is allowed, and
//! carries a stable [`Error::code`] that the Node and browser bindings expose
//! unchanged as `err.code`. What each says, in words, is in `message.rs`.

pub use crate::kind::Kind;
use crate::snowflake::{LayoutRule, decimal};
use crate::typeid;

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

/// How a numbered error whose other fields its index fixes gives its two
/// numbers, and how it is made from them.
type Fixed = (fn(&Error) -> Option<[u64; 2]>, fn([u64; 2]) -> Error);

/// One [`Fixed`] per rule of a layout: its words have no numbers.
macro_rules! layout_rules {
    ($($rule:ident),*) => {
        [$((
            (|e: &Error| matches!(e, Error::InvalidLayout { reason: LayoutRule::$rule }).then_some([0, 0])) as fn(&Error) -> Option<[u64; 2]>,
            (|_: [u64; 2]| Error::InvalidLayout { reason: LayoutRule::$rule }) as fn([u64; 2]) -> Error,
        ),)*]
    };
}

/// The error of a character of `kind` (whose allowed characters are
/// `allowed`): its position and byte, numbered by how its message shows the
/// byte ([`message::shape`]), so that each way has words of its own. `like`
/// is a byte shown that way.
macro_rules! characters {
    ($kind:ident, $allowed:expr, $($shape:literal => $like:literal),*) => {
        [$((
            (|e: &Error| match *e {
                Error::Parse(ParseError::Character { kind: Kind::$kind, position, found, .. })
                    if message::shape(found) == $shape => Some([position as u64, found as u64]),
                _ => None,
            }) as fn(&Error) -> Option<[u64; 2]>,
            (|[a, b]: [u64; 2]| Error::Parse(ParseError::Character {
                kind: Kind::$kind,
                position: a as usize,
                found: if message::shape(b as u8) == $shape { b as u8 } else { $like },
                allowed: $allowed,
            })) as fn([u64; 2]) -> Error,
        ),)*]
    };
}

/// A TypeID prefix's error with no numbers.
macro_rules! prefix_reasons {
    ($($reason:expr),*) => {
        [$((
            (|e: &Error| matches!(e, Error::Parse(ParseError::Prefix { reason }) if *reason == $reason).then_some([0, 0]))
                as fn(&Error) -> Option<[u64; 2]>,
            (|_: [u64; 2]| Error::Parse(ParseError::Prefix { reason: $reason })) as fn([u64; 2]) -> Error,
        ),)*]
    };
}

/// The numbered errors after the all-numbers ones, in order: the rules of
/// a layout, the errors of a decimal Snowflake (what the browser's
/// Snowflake module can return) and of a TypeID prefix (its TypeID
/// module's); `examples/protocol.rs` words each.
const FIXED: [Fixed; 16] = {
    let [w, t, s, u, n] = layout_rules!(Widths, TimeBits, SequenceBits, Unit, NotSplit);
    let [graphic, byte, non_ascii] =
        characters!(Snowflake, decimal::DIGITS, 0 => b'~', 1 => 0x1f, 2 => 0x80);
    let [long, edge] = prefix_reasons!(typeid::TOO_LONG, typeid::EDGE);
    let [prefix_graphic, prefix_byte, prefix_non_ascii] =
        characters!(TypeId, typeid::PREFIX_CHARACTERS, 0 => b'~', 1 => 0x1f, 2 => 0x80);
    [
        w,
        t,
        s,
        u,
        n,
        (
            |e| match *e {
                Error::Parse(ParseError::Length {
                    kind: Kind::Snowflake,
                    found,
                    ..
                }) => Some([found as u64, 0]),
                _ => None,
            },
            |[a, _]| {
                Error::Parse(ParseError::Length {
                    kind: Kind::Snowflake,
                    expected: decimal::LENGTHS,
                    found: a as usize,
                })
            },
        ),
        (
            |e| {
                matches!(e, Error::Parse(ParseError::Overflow { kind: Kind::Snowflake, max }) if *max == decimal::MAX_64).then_some([0, 0])
            },
            |_| {
                Error::Parse(ParseError::Overflow {
                    kind: Kind::Snowflake,
                    max: decimal::MAX_64,
                })
            },
        ),
        (
            |e| {
                matches!(e, Error::Parse(ParseError::Overflow { kind: Kind::Snowflake, max }) if *max == decimal::MAX_63).then_some([0, 0])
            },
            |_| {
                Error::Parse(ParseError::Overflow {
                    kind: Kind::Snowflake,
                    max: decimal::MAX_63,
                })
            },
        ),
        graphic,
        byte,
        non_ascii,
        long,
        edge,
        prefix_graphic,
        prefix_byte,
        prefix_non_ascii,
    ]
};

impl Error {
    /// How many errors [`Error::numbered`] numbers.
    pub const NUMBERED: u32 = Error::ALL_NUMBERS + FIXED.len() as u32;

    /// The errors a binding that carries no message strings (the browser's
    /// minting modules) reports as an index and two numbers: those that are
    /// all numbers, the rules of a layout, and the errors of a decimal
    /// Snowflake. Its JavaScript words each from templates written from this
    /// `Display` (core/examples/protocol.rs), so the words stay the core's.
    /// `None` for any other error.
    pub fn numbered(&self) -> Option<(u32, [u64; 2])> {
        self.all_numbers().or_else(|| {
            (Error::ALL_NUMBERS..)
                .zip(FIXED)
                .find_map(|(index, (read, _))| read(self).map(|numbers| (index, numbers)))
        })
    }

    /// The error [`Error::numbered`] gave `index` and `numbers` for.
    pub fn from_numbered(index: u32, numbers: [u64; 2]) -> Option<Error> {
        Error::from_all_numbers(index, numbers).or_else(|| {
            let (_, make) = FIXED.get(index.checked_sub(Error::ALL_NUMBERS)? as usize)?;
            Some(make(numbers))
        })
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
