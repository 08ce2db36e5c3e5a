//! IDs as bytes, for binary columns and wire formats: a Snowflake is its 8
//! bytes big-endian, a ULID, UUID or TypeID its 16 (a TypeID's are its
//! UUID's), a KSUID its 20, an ObjectId its 12, all in the order their
//! specs lay them out. 128-bit IDs can also be read and written in
//! Microsoft's GUID order ([`ByteOrder::Guid`]).

use core::ops::Deref;

use crate::error::{Error, Kind, ParseError};
use crate::id::Id;
use crate::ksuid::Ksuid;
use crate::objectid::ObjectId;
use crate::typeid::TypeId;
use crate::ulid::Ulid;
use crate::uuid::Uuid;

/// The order of a 128-bit ID's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ByteOrder {
    /// Most significant byte first, as RFC 9562 and the ULID spec lay them out.
    #[default]
    BigEndian,
    /// Microsoft's GUID order (`Guid.ToByteArray()`, SQL Server's
    /// `uniqueidentifier`): the first three fields (4, 2 and 2 bytes)
    /// little-endian, the last 8 bytes as they are.
    Guid,
}

/// Swaps a 128-bit ID's bytes between big-endian and GUID order (its own inverse).
pub const fn guid_swap(b: [u8; 16]) -> [u8; 16] {
    [
        b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13],
        b[14], b[15],
    ]
}

/// An ID's bytes (at most 20, a KSUID's), on the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdBytes {
    buf: [u8; 20],
    len: u8,
}

impl IdBytes {
    fn of(bytes: &[u8]) -> IdBytes {
        let mut buf = [0u8; 20];
        buf[..bytes.len()].copy_from_slice(bytes);
        IdBytes {
            buf,
            len: bytes.len() as u8,
        }
    }
}

impl Deref for IdBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }
}

const GUID_KINDS: &str = "the GUID byte order is defined for 128-bit IDs only (UUID, ULID, TypeID)";

impl Id {
    /// The ID's bytes; `order` other than big-endian applies to 128-bit IDs only.
    pub fn to_bytes(&self, order: ByteOrder) -> Result<IdBytes, Error> {
        let wide = match *self {
            Id::Ulid(u) => u.to_bytes(),
            Id::Uuid(u) => u.to_bytes(),
            Id::TypeId(t) => t.uuid().to_bytes(),
            _ if order == ByteOrder::Guid => {
                return Err(Error::NotApplicable {
                    kind: self.kind(),
                    reason: GUID_KINDS,
                });
            }
            Id::Snowflake(v) => return Ok(IdBytes::of(&v.to_be_bytes())),
            Id::Ksuid(k) => return Ok(IdBytes::of(&k.0)),
            Id::ObjectId(o) => return Ok(IdBytes::of(&o.0)),
        };
        Ok(IdBytes::of(&match order {
            ByteOrder::BigEndian => wide,
            ByteOrder::Guid => guid_swap(wide),
        }))
    }

    /// The ID of `kind` whose bytes are `bytes` (in `order`, for 128-bit
    /// kinds); a TypeID takes `prefix`. Any 8 bytes are a Snowflake: whether
    /// a layout has room for its top bit is for the layout's decode to say.
    pub fn from_bytes(
        bytes: &[u8],
        kind: Kind,
        order: ByteOrder,
        prefix: &str,
    ) -> Result<Id, Error> {
        let narrow = || match order {
            ByteOrder::BigEndian => Ok(()),
            ByteOrder::Guid => Err(Error::NotApplicable {
                kind,
                reason: GUID_KINDS,
            }),
        };
        let wide = || {
            let b: [u8; 16] = fixed(bytes, kind, "16")?;
            Ok::<_, Error>(Uuid::from_bytes(match order {
                ByteOrder::BigEndian => b,
                ByteOrder::Guid => guid_swap(b),
            }))
        };
        Ok(match kind {
            Kind::Snowflake => {
                narrow()?;
                Id::Snowflake(u64::from_be_bytes(fixed(bytes, kind, "8")?))
            }
            Kind::Ksuid => {
                narrow()?;
                Id::Ksuid(Ksuid(fixed(bytes, kind, "20")?))
            }
            Kind::ObjectId => {
                narrow()?;
                Id::ObjectId(ObjectId(fixed(bytes, kind, "12")?))
            }
            Kind::Ulid => Id::Ulid(Ulid::from_uuid(wide()?)),
            Kind::Uuid => Id::Uuid(wide()?),
            Kind::TypeId => Id::TypeId(TypeId::new(prefix, wide()?)?),
            Kind::Human => {
                return Err(Error::NotApplicable {
                    kind,
                    reason: "the human form is text only: bytes are read as snowflake, ulid, uuid, ksuid, objectid or typeid",
                });
            }
        })
    }
}

/// `bytes` as an array of `N`, or the length error of `kind` (`expected` is `N` in words).
fn fixed<const N: usize>(
    bytes: &[u8],
    kind: Kind,
    expected: &'static str,
) -> Result<[u8; N], Error> {
    bytes.try_into().map_err(|_| {
        Error::Parse(ParseError::ByteLength {
            kind,
            expected,
            found: bytes.len(),
        })
    })
}

impl Uuid {
    /// The UUID of 16 bytes given as a slice, or the length error
    /// `Id::from_bytes` gives.
    pub fn from_slice(bytes: &[u8]) -> Result<Uuid, Error> {
        Ok(Uuid::from_bytes(fixed(bytes, Kind::Uuid, "16")?))
    }

    /// A v8 UUID of 16 bytes given as a slice ([`Uuid::v8_from_bytes`]),
    /// or the length error.
    pub fn v8_from_slice(bytes: &[u8]) -> Result<Uuid, Error> {
        Ok(Uuid::v8_from_bytes(fixed(bytes, Kind::Uuid, "16")?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_order_is_microsofts() {
        // Microsoft's Guid.ToByteArray() example.
        let u = Uuid::parse("35918bc9-196d-40ea-9779-889d79b753f0").unwrap();
        let b = Id::Uuid(u).to_bytes(ByteOrder::Guid).unwrap();
        assert_eq!(
            &*b,
            [
                0xC9, 0x8B, 0x91, 0x35, 0x6D, 0x19, 0xEA, 0x40, 0x97, 0x79, 0x88, 0x9D, 0x79, 0xB7,
                0x53, 0xF0
            ]
        );
        assert_eq!(
            Id::from_bytes(&b, Kind::Uuid, ByteOrder::Guid, ""),
            Ok(Id::Uuid(u))
        );
    }

    #[test]
    fn lengths_and_kinds_are_checked() {
        assert!(matches!(
            Id::from_bytes(&[0; 15], Kind::Uuid, ByteOrder::BigEndian, ""),
            Err(Error::Parse(ParseError::ByteLength { found: 15, .. }))
        ));
        assert!(matches!(
            Id::from_bytes(&[0; 8], Kind::Human, ByteOrder::BigEndian, ""),
            Err(Error::NotApplicable { .. })
        ));
        assert!(matches!(
            Id::from_bytes(&[0; 12], Kind::ObjectId, ByteOrder::Guid, ""),
            Err(Error::NotApplicable { .. })
        ));
        assert_eq!(
            Id::from_bytes(&[0xFF; 8], Kind::Snowflake, ByteOrder::BigEndian, ""),
            Ok(Id::Snowflake(u64::MAX))
        );
        assert!(matches!(
            Id::Snowflake(1).to_bytes(ByteOrder::Guid),
            Err(Error::NotApplicable { .. })
        ));
    }
}
