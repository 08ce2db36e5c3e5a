//! [`Id`]: any ID this crate knows, recognized from its text.

use crate::error::{Error, Kind, ParseError};
use crate::ksuid::Ksuid;
use crate::objectid::ObjectId;
use crate::snowflake;
use crate::text::IdText;
use crate::typeid::TypeId;
use crate::ulid::Ulid;
use crate::uuid::{Uuid, Variant};

/// A parsed ID of any kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Id {
    /// A Snowflake (read its fields with a [`Layout`](crate::snowflake::Layout)).
    Snowflake(u64),
    /// A ULID.
    Ulid(Ulid),
    /// A UUID.
    Uuid(Uuid),
    /// A KSUID.
    Ksuid(Ksuid),
    /// An ObjectId.
    ObjectId(ObjectId),
    /// A TypeID.
    TypeId(TypeId),
}

impl Id {
    /// The human-friendly form ([`base32::to_human`](crate::base32::to_human)):
    /// 13 digits for a Snowflake, 26 for a ULID, UUID or TypeID (its UUID);
    /// `groups` keeps only the last groups: 1 to 7 (more than the ID has keeps
    /// them all), else [`Error::HumanGroups`]. Other kinds have none.
    pub fn to_human(&self, groups: Option<usize>) -> Result<IdText<32>, Error> {
        if groups.is_some_and(|g| !(1..=7).contains(&g)) {
            return Err(Error::HumanGroups);
        }
        let (value, digits) = match *self {
            Id::Snowflake(v) => (v.into(), 13),
            Id::Ulid(u) => (u.0, 26),
            Id::Uuid(u) => (u.0, 26),
            Id::TypeId(t) => (t.uuid().0, 26),
            Id::Ksuid(_) | Id::ObjectId(_) => return Err(Error::NoHumanForm { kind: self.kind() }),
        };
        Ok(crate::base32::to_human(value, digits, groups))
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        match self {
            Id::Snowflake(_) => Kind::Snowflake,
            Id::Ulid(_) => Kind::Ulid,
            Id::Uuid(_) => Kind::Uuid,
            Id::Ksuid(_) => Kind::Ksuid,
            Id::ObjectId(_) => Kind::ObjectId,
            Id::TypeId(_) => Kind::TypeId,
        }
    }

    /// Parses `text` as `kind`, or as the kind its shape shows
    /// ([`detect`]) when `kind` is `None`.
    pub fn parse(text: &str, kind: Option<Kind>) -> Result<Id, ParseError> {
        let kind = match kind {
            Some(k) => k,
            None => detect(text)?,
        };
        Ok(match kind {
            Kind::Snowflake => Id::Snowflake(snowflake::parse_decimal(text)?),
            Kind::Ulid => Id::Ulid(Ulid::parse(text)?),
            Kind::Uuid => Id::Uuid(Uuid::parse(text)?),
            Kind::Ksuid => Id::Ksuid(Ksuid::parse(text)?),
            Kind::ObjectId => Id::ObjectId(ObjectId::parse(text)?),
            Kind::TypeId => Id::TypeId(TypeId::parse(text)?),
            Kind::Human => {
                let (value, digits) = crate::base32::from_human(text)?;
                if digits <= 13 && value <= u64::MAX.into() {
                    Id::Snowflake(value as u64)
                } else {
                    Id::Ulid(Ulid(value))
                }
            }
        })
    }
}

/// What the bindings' decode records show of an ID besides its kind: the
/// fields its kind has (the others are `None`), as numbers and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fields<'a> {
    /// A Snowflake's value (its fields need a layout).
    pub snowflake: Option<u64>,
    /// Unix ms of the time-based kinds (v1/v6 UUIDs before 1970 are negative).
    pub timestamp_ms: Option<i64>,
    /// Lowercase hex of the random part: a ULID's 80 bits, an ObjectId's
    /// 40-bit per-process value, a KSUID's 128-bit payload.
    pub hex: Option<IdText<32>>,
    /// The UUID of a UUID or TypeID, or a ULID's same 128 bits.
    pub uuid: Option<Uuid>,
    /// A UUID's version nibble.
    pub version: Option<u8>,
    /// A UUID's variant.
    pub variant: Option<Variant>,
    /// A v1/v6 UUID's clock sequence.
    pub clock_seq: Option<u16>,
    /// A v1/v6 UUID's node, 12 lowercase hex digits.
    pub node: Option<IdText<12>>,
    /// An ObjectId's counter.
    pub counter: Option<u32>,
    /// A TypeID's prefix.
    pub prefix: Option<&'a str>,
}

impl Id {
    /// The fields the bindings' decode records show.
    pub fn fields(&self) -> Fields<'_> {
        // The low `digits` hex digits of `value`.
        let hex = |value: u128, digits: usize| {
            Some(IdText::ascii(
                &IdText::<32>::hex(value).as_bytes()[32 - digits..],
            ))
        };
        match self {
            Id::Snowflake(v) => Fields {
                snowflake: Some(*v),
                ..Fields::default()
            },
            Id::Ulid(u) => Fields {
                timestamp_ms: Some(u.timestamp_ms() as i64),
                hex: hex(u.random(), 20),
                uuid: Some(u.to_uuid()),
                ..Fields::default()
            },
            Id::Uuid(u) => Fields {
                timestamp_ms: u.timestamp_ms(),
                uuid: Some(*u),
                version: Some(u.version()),
                variant: Some(u.variant()),
                clock_seq: u.clock_seq(),
                node: u.node().map(|n| IdText::hex(n.into())),
                ..Fields::default()
            },
            Id::Ksuid(k) => Fields {
                timestamp_ms: Some(k.timestamp_ms() as i64),
                hex: hex(u128::from_be_bytes(k.payload()), 32),
                ..Fields::default()
            },
            Id::ObjectId(o) => Fields {
                timestamp_ms: Some(o.timestamp_ms() as i64),
                hex: hex(o.0[4..9].iter().fold(0, |v, &b| v << 8 | b as u128), 10),
                counter: Some(o.counter()),
                ..Fields::default()
            },
            Id::TypeId(t) => Fields {
                timestamp_ms: t.uuid().timestamp_ms(),
                uuid: Some(t.uuid()),
                prefix: Some(t.prefix()),
                ..Fields::default()
            },
        }
    }
}

/// Tells an ID's kind from its text: decimal digits (up to 20) are a
/// Snowflake; a `_` makes a TypeID; 24 hex digits an ObjectId; 26
/// characters a ULID (or an empty-prefix TypeID, which reads the same);
/// 27 a KSUID; 32, 36, 38 or 45 (`urn:uuid:`) a UUID.
pub fn detect(text: &str) -> Result<Kind, ParseError> {
    crate::text::per_char(text, detect_bytes)
}

/// [`detect`] over bytes.
fn detect_bytes(b: &[u8]) -> Result<Kind, ParseError> {
    if !b.is_empty() && b.len() <= 20 && b.iter().all(u8::is_ascii_digit) {
        return Ok(Kind::Snowflake);
    }
    if b.contains(&b'_') {
        return Ok(Kind::TypeId);
    }
    match b.len() {
        24 if b.iter().all(u8::is_ascii_hexdigit) => Ok(Kind::ObjectId),
        26 => Ok(Kind::Ulid),
        27 => Ok(Kind::Ksuid),
        32 | 36 | 38 | 45 => Ok(Kind::Uuid),
        n => Err(ParseError::UnknownKind { length: n }),
    }
}

impl Id {
    /// The canonical text: what this crate writes for the ID (a Snowflake
    /// in decimal, a ULID in uppercase, a UUID lowercase and hyphenated...).
    pub fn to_text(&self) -> IdText<90> {
        match self {
            Id::Snowflake(v) => IdText::ascii(IdText::<20>::decimal(*v).as_bytes()),
            Id::Ulid(u) => IdText::ascii(u.to_text().as_bytes()),
            Id::Uuid(u) => IdText::ascii(u.to_text().as_bytes()),
            Id::Ksuid(k) => IdText::ascii(k.to_text().as_bytes()),
            Id::ObjectId(o) => IdText::ascii(o.to_text().as_bytes()),
            Id::TypeId(t) => t.to_text(),
        }
    }
}
