//! The order of two IDs of one kind: by value, whatever their spelling (a
//! decimal Snowflake with more digits is larger; UUIDs in any case or form).

use core::cmp::Ordering;

use crate::error::Error;
use crate::id::Id;

impl Id {
    /// How `self` sorts against `other`, an ID of the same kind: the order
    /// of their values (TypeIDs: prefix, then UUID). IDs of different kinds
    /// have no order between them.
    pub fn compare(&self, other: &Id) -> Result<Ordering, Error> {
        Ok(match (self, other) {
            (Id::Snowflake(a), Id::Snowflake(b)) => a.cmp(b),
            (Id::Ulid(a), Id::Ulid(b)) => a.cmp(b),
            (Id::Uuid(a), Id::Uuid(b)) => a.cmp(b),
            (Id::Ksuid(a), Id::Ksuid(b)) => a.cmp(b),
            (Id::ObjectId(a), Id::ObjectId(b)) => a.cmp(b),
            (Id::TypeId(a), Id::TypeId(b)) => (a.prefix(), a.uuid()).cmp(&(b.prefix(), b.uuid())),
            _ => {
                return Err(Error::KindMismatch {
                    first: self.kind(),
                    second: other.kind(),
                });
            }
        })
    }

    /// [`Id::compare`] of two texts, each parsed as the kind its shape
    /// shows: -1, 0 or 1, as the bindings return it.
    pub fn compare_texts(a: &str, b: &str) -> Result<i8, Error> {
        let (a, b) = (Id::parse(a, None)?, Id::parse(b, None)?);
        Ok(a.compare(&b)? as i8)
    }
}
