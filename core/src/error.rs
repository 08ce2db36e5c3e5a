//! Typed errors. Every failure says what was wrong and what is allowed, and
//! carries a stable [`Error::code`] that the Node and browser bindings expose
//! unchanged as `err.code`. What each says, in words, is in `message.rs`.

pub use crate::kind::Kind;
use crate::snowflake::LayoutRule;

mod message;
mod numbered;

pub use numbered::Numbers;

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
