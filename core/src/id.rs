//! [`Id`]: any ID this crate knows, recognized from its text.

use crate::error::{Kind, ParseError};
use crate::ksuid::Ksuid;
use crate::objectid::ObjectId;
use crate::snowflake;
use crate::typeid::TypeId;
use crate::ulid::Ulid;
use crate::uuid::Uuid;

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
                if digits <= 13 && value >> 63 == 0 {
                    Id::Snowflake(value as u64)
                } else {
                    Id::Ulid(Ulid(value))
                }
            }
        })
    }
}

/// Tells an ID's kind from its text: decimal digits (up to 20) are a
/// Snowflake; a `_` makes a TypeID; 24 hex digits an ObjectId; 26
/// characters a ULID (or an empty-prefix TypeID, which reads the same);
/// 27 a KSUID; 32, 36, 38 or 45 (`urn:uuid:`) a UUID.
pub fn detect(text: &str) -> Result<Kind, ParseError> {
    let b = text.as_bytes();
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
