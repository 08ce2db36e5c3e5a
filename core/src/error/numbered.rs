//! The errors a binding with no message strings (the browser's minting
//! modules) reports as an index and two numbers, and the error each index
//! stands for: its JavaScript words them from templates of the core's own
//! `Display` (`examples/protocol.rs`), so the words stay the core's.

use super::{Error, GivenName, Kind, ParseError, message};
use crate::at::TimedKind;
use crate::snowflake::{LayoutRule, decimal};
use crate::{TextKind, binding, typeid, uuid};

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

/// The other errors, numbered after the UUID ones by their shape: what the
/// parsers refuse, what does not apply, a Snowflake's named field out of
/// range, an unknown name (one number of each list of [`NAMED`]). An error
/// of a character is numbered by how its message shows the byte
/// ([`message::shape`]: 0, 1, 2). Their `&'static str` fields and ID kinds
/// cross as texts beside the numbers ([`Numbers::texts`]).
mod shape {
    pub const LENGTH: u32 = 0;
    pub const CHARACTER: u32 = 1;
    pub const OVERFLOW: u32 = 4;
    pub const PREFIX: u32 = 5;
    pub const UNKNOWN_KIND: u32 = 6;
    pub const BYTE_LENGTH: u32 = 7;
    pub const NO_HUMAN_FORM: u32 = 8;
    pub const UUID_VERSION: u32 = 9;
    pub const NOT_APPLICABLE: u32 = 10;
    pub const FIELD: u32 = 11;
    pub const KIND_MISMATCH: u32 = 12;
    pub const UNKNOWN_NAME: u32 = 13;
    pub const LEN: u32 = UNKNOWN_NAME + super::NAMED.len() as u32;
}

/// What a name can be unknown as ([`Error::UnknownName`]'s `what` and
/// `allowed`): the bindings' name lists ([`binding::NAME_LISTS`]), their
/// keys, the text kinds, and the kinds that have range bounds.
const NAMED: [(&str, &[&str]); binding::NAME_LISTS.len() + 3] = {
    let lists = binding::NAME_LISTS;
    let mut all: [(&str, &[&str]); binding::NAME_LISTS.len() + 3] =
        [("", &[]); binding::NAME_LISTS.len() + 3];
    let mut i = 0;
    while i < lists.len() {
        all[i] = (lists[i].1, lists[i].2);
        i += 1;
    }
    all[i] = ("name list", &binding::NAME_LIST_KEYS);
    all[i + 1] = ("kind", &TextKind::NAMES);
    all[i + 2] = ("kind ordered by time", &TimedKind::ORDERED);
    all
};

/// An error as numbers and texts, for a binding that carries no messages
/// (the browser's full module): its JavaScript words it from templates of
/// this `Display` (`examples/protocol.rs`). See [`Error::numbers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers<'a> {
    /// Which error: an index of [`Error::numbered`], or from
    /// [`Error::NUMBERED`] + [`Error::NUMBERED_UUID`] on, its shape.
    pub index: u32,
    /// Its numbers (0 where it has none).
    pub numbers: [u64; 2],
    /// Its texts: ID kinds' names, `&'static str` fields, or the name given
    /// (as the message shows it: what is kept, and `"..."` if it was cut),
    /// `""` where it has none.
    pub texts: [&'a str; 2],
}

impl Error {
    /// The first index of [`Error::numbers`]' shapes.
    pub const SHAPES_FIRST: u32 = Error::NUMBERED + Error::NUMBERED_UUID;
    /// How many shapes [`Error::numbers`] numbers.
    pub const SHAPES: u32 = shape::LEN;

    /// Every error a binding can return (all but the sequence errors) as
    /// numbers and texts: those of [`Error::numbered`] with no texts, the
    /// others by their shape, from [`Error::SHAPES_FIRST`] on. `None` for
    /// a sequence error, and for an unknown name of a list no binding has.
    pub fn numbers(&self) -> Option<Numbers<'_>> {
        use ParseError as P;
        // A parse error is numbered by its shape, whatever its texts
        // ([`Error::numbered`] numbers those of the minting modules, whose
        // texts are known).
        if let Some((index, numbers)) = self.numbered().filter(|_| !matches!(self, Error::Parse(_)))
        {
            return Some(Numbers {
                index,
                numbers,
                texts: ["", ""],
            });
        }
        let (place, numbers, texts) = match *self {
            Error::Parse(ref e) => match *e {
                P::Length {
                    kind,
                    expected,
                    found,
                } => (shape::LENGTH, [found as u64, 0], [kind.name(), expected]),
                P::Character {
                    kind,
                    position,
                    found,
                    allowed,
                } => (
                    shape::CHARACTER + message::shape(found) as u32,
                    [position as u64, found.into()],
                    [kind.name(), allowed],
                ),
                P::Overflow { kind, max } => (shape::OVERFLOW, [0, 0], [kind.name(), max]),
                P::Prefix { reason } => (shape::PREFIX, [0, 0], [reason, ""]),
                P::UnknownKind { length } => (shape::UNKNOWN_KIND, [length as u64, 0], ["", ""]),
                P::ByteLength {
                    kind,
                    expected,
                    found,
                } => (
                    shape::BYTE_LENGTH,
                    [found as u64, 0],
                    [kind.name(), expected],
                ),
            },
            Error::NoHumanForm { kind } => (shape::NO_HUMAN_FORM, [0, 0], [kind.name(), ""]),
            Error::UuidVersion { expected, found } => (
                shape::UUID_VERSION,
                [expected.into(), found.into()],
                ["", ""],
            ),
            Error::NotApplicable { kind, reason } => {
                (shape::NOT_APPLICABLE, [0, 0], [kind.name(), reason])
            }
            Error::FieldOutOfRange { field, value, max } => {
                (shape::FIELD, [value, max], [field, ""])
            }
            Error::KindMismatch { first, second } => {
                (shape::KIND_MISMATCH, [0, 0], [first.name(), second.name()])
            }
            Error::UnknownName {
                what,
                ref given,
                allowed,
            } => {
                let list = NAMED
                    .iter()
                    .position(|(w, a)| *w == what && **a == *allowed)?;
                let (given, texts) = match given {
                    Some(given) => (1, given.shown()),
                    None => (0, ["", ""]),
                };
                (shape::UNKNOWN_NAME + list as u32, [0, given], texts)
            }
            _ => return None,
        };
        Some(Numbers {
            index: Error::SHAPES_FIRST + place,
            numbers,
            texts,
        })
    }

    /// The error [`Error::numbers`] gave `index`, `numbers` and `texts`
    /// for (`None` for an index it gives none, or a kind's text that names
    /// no kind).
    pub fn from_numbers(index: u32, [a, b]: [u64; 2], [s, t]: [&'static str; 2]) -> Option<Error> {
        use ParseError as P;
        let Some(place) = index.checked_sub(Error::SHAPES_FIRST) else {
            return Error::from_numbered(index, [a, b]);
        };
        let kind = |name: &str| {
            Kind::NAMES
                .iter()
                .position(|n| *n == name)
                .map(|i| Kind::ALL[i])
        };
        let parse = match place {
            shape::LENGTH => P::Length {
                kind: kind(s)?,
                expected: t,
                found: a as usize,
            },
            p if p < shape::OVERFLOW => P::Character {
                kind: kind(s)?,
                position: a as usize,
                found: byte_shown(p - shape::CHARACTER, b),
                allowed: t,
            },
            shape::OVERFLOW => P::Overflow {
                kind: kind(s)?,
                max: t,
            },
            shape::PREFIX => P::Prefix { reason: s },
            shape::UNKNOWN_KIND => P::UnknownKind { length: a as usize },
            shape::BYTE_LENGTH => P::ByteLength {
                kind: kind(s)?,
                expected: t,
                found: a as usize,
            },
            shape::NO_HUMAN_FORM => return Some(Error::NoHumanForm { kind: kind(s)? }),
            shape::UUID_VERSION => {
                return Some(Error::UuidVersion {
                    expected: a as u8,
                    found: b as u8,
                });
            }
            shape::NOT_APPLICABLE => {
                return Some(Error::NotApplicable {
                    kind: kind(s)?,
                    reason: t,
                });
            }
            shape::FIELD => {
                return Some(Error::FieldOutOfRange {
                    field: s,
                    value: a,
                    max: b,
                });
            }
            shape::KIND_MISMATCH => {
                return Some(Error::KindMismatch {
                    first: kind(s)?,
                    second: kind(t)?,
                });
            }
            p if p < shape::LEN => {
                let (what, allowed) = NAMED[(p - shape::UNKNOWN_NAME) as usize];
                let given = (b != 0).then(|| {
                    let mut given = GivenName::new(s);
                    given.cut |= t == "...";
                    given
                });
                return Some(Error::UnknownName {
                    what,
                    given,
                    allowed,
                });
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
    /// The texts a shape's slot takes for a round trip: kinds' names where
    /// it holds a kind, else any text.
    const TEXTS: [[&str; 2]; 3] = [["ulid", "uuid"], ["typeid", "typeid"], ["any", ""]];

    #[test]
    fn every_error_numbers_round_trip() {
        for index in 0..Error::NUMBERED {
            let e = Error::from_numbers(index, [7, 11], ["", ""]).unwrap();
            let n = e.numbers().unwrap();
            if matches!(e, Error::Parse(_)) {
                assert!(n.index >= Error::SHAPES_FIRST);
                let texts = n
                    .texts
                    .map(|t| -> &'static str { std::boxed::Box::leak(t.into()) });
                assert_eq!(Error::from_numbers(n.index, n.numbers, texts), Some(e));
                continue;
            }
            assert_eq!(n.index, index);
            assert_eq!(Error::from_numbers(n.index, n.numbers, ["", ""]), Some(e));
        }
        let first = Error::SHAPES_FIRST;
        for index in first..first + Error::SHAPES {
            let mut some = 0;
            for texts in TEXTS {
                let Some(e) = Error::from_numbers(index, [7, 11], texts) else {
                    continue;
                };
                some += 1;
                let n = e.numbers().unwrap();
                assert_eq!(n.index, index, "{e}");
                // The numbers and texts an error does not hold are 0 and "".
                let numbers = n.numbers.map(|x| x != 0);
                let [s, t] = n.texts;
                let again = Error::from_numbers(
                    index,
                    n.numbers,
                    [
                        if s.is_empty() { "" } else { texts[0] },
                        if t.is_empty() { "" } else { texts[1] },
                    ],
                );
                assert_eq!(again, Some(e.clone()), "{e}");
                assert!(
                    numbers.iter().all(|x| *x)
                        || n.numbers
                            .iter()
                            .all(|x| [0, 1, 7, 11, 0x11, 0x80, 0x7e, 0x1f].contains(x))
                );
            }
            assert!(some > 0, "shape {index} takes none of the texts");
        }
        assert_eq!(
            Error::from_numbers(first + Error::SHAPES, [0, 0], ["", ""]),
            None
        );
        // An unknown name, given and cut, as the core words it.
        let long = "x".repeat(50);
        let e = crate::binding::name_index("presets", &long).unwrap_err();
        let n = e.numbers().unwrap();
        assert_eq!(n.texts[1], "...");
        let kept: &'static str = std::boxed::Box::leak(n.texts[0].into());
        assert_eq!(
            Error::from_numbers(n.index, n.numbers, [kept, "..."]),
            Some(e.clone())
        );
        // Bounds of a kind with none, and a clock the binding cannot have.
        let bounds = TimedKind::UuidV1.text_at(0, crate::at::Pick::Min, 0, "");
        let clock = crate::clock::ClockChoice::<()>::from_name("test", None).map(|_| ());
        for e in [bounds.unwrap_err(), clock.unwrap_err()] {
            let n = e.numbers().expect("numbered");
            let texts = n
                .texts
                .map(|t| -> &'static str { std::boxed::Box::leak(t.into()) });
            assert_eq!(Error::from_numbers(n.index, n.numbers, texts), Some(e));
        }
        // What the parsers return is numbered as it is.
        for (text, kind) in [
            ("", None),
            ("01ARZ3NDEKTSV4RRFFQ69G5FAU", Some(Kind::Ksuid)),
            ("01ARZ3NDEKTSV4RRFFQ69G5FA!", None),
            ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", Some(Kind::Ulid)),
            ("6ba7b810-9dad-11d1-80b4-00c04fd430c\u{e9}", None),
            ("prefix__01h455vb4pex5vsknk084sn02q", None),
            ("Prefix_01h455vb4pex5vsknk084sn02q", None),
            ("0123456789abcdef0123456g", Some(Kind::ObjectId)),
            ("12!4", Some(Kind::Human)),
        ] {
            let Err(e) = crate::Id::parse(text, kind) else {
                panic!("{text} parses");
            };
            let e = Error::from(e);
            let n = e.numbers().expect(text);
            let texts = n
                .texts
                .map(|t| -> &'static str { std::boxed::Box::leak(t.into()) });
            assert_eq!(
                Error::from_numbers(n.index, n.numbers, texts),
                Some(e),
                "{text}"
            );
        }
    }
}
