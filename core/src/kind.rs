//! The kinds of ID: what a parser reads, what `detect` finds, the names
//! the bindings take (`'ulid'`, `'uuid'`, ...).

use core::fmt;

use crate::error::{Error, by_name};

/// The kind of ID a parser was reading when it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A 64-bit Snowflake in decimal.
    Snowflake,
    /// A ULID: 26 Crockford base32 characters.
    Ulid,
    /// A UUID in any of its text forms.
    Uuid,
    /// A KSUID: 27 base62 characters.
    Ksuid,
    /// A MongoDB ObjectId: 24 hex digits.
    ObjectId,
    /// A TypeID: `prefix_` and 26 base32 characters.
    TypeId,
    /// The human-friendly grouped base32 form.
    Human,
}

impl Kind {
    /// Every kind, for callers that try or list them all.
    pub const ALL: [Kind; 7] = [
        Kind::Snowflake,
        Kind::Ulid,
        Kind::Uuid,
        Kind::Ksuid,
        Kind::ObjectId,
        Kind::TypeId,
        Kind::Human,
    ];

    /// The lowercase name used by the bindings (`'ulid'`, `'uuid'`, ...).
    pub const fn name(self) -> &'static str {
        Kind::NAMES[self as usize]
    }

    /// The names [`Kind::from_name`] takes (besides the aliases).
    pub const NAMES: [&'static str; 7] = [
        "snowflake",
        "ulid",
        "uuid",
        "ksuid",
        "objectid",
        "typeid",
        "human",
    ];

    /// Parses a name as given by [`Kind::name`] (also accepts `object_id`/`objectId`).
    pub fn from_name(name: &str) -> Result<Kind, Error> {
        let name = match name {
            "objectId" | "object_id" => "objectid",
            "typeId" | "type_id" => "typeid",
            name => name,
        };
        by_name("kind", &Kind::NAMES, &Kind::ALL, name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
