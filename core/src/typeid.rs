//! TypeID (<https://github.com/jetify-com/typeid>, spec v0.3): a type
//! prefix, `_`, and a UUID (v7 when minted here) as 26 lowercase Crockford
//! base32 digits, e.g. `user_01h455vb4pex5vsknk084sn02q`.

use core::fmt;

use crate::base32::{self, Alphabet};
use crate::error::{Kind, ParseError};
use crate::text::IdText;
use crate::uuid::Uuid;

/// Longest prefix the spec allows.
pub const MAX_PREFIX: usize = 63;

/// A TypeID: a validated prefix and a UUID.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeId {
    prefix: [u8; MAX_PREFIX],
    prefix_len: u8,
    uuid: Uuid,
}

/// Why a prefix is refused, in words: too long.
pub(crate) const TOO_LONG: &str = "at most 63 characters are allowed";
/// ...an underscore at an end.
pub(crate) const EDGE: &str = "it must not start or end with '_'";
/// The characters a prefix may have, in words.
pub(crate) const PREFIX_CHARACTERS: &str = "lowercase ASCII letters a-z and '_' in the prefix";

/// Checks a prefix: at most 63 of `a-z` and `_`, not starting or ending with `_`.
pub fn check_prefix(prefix: &[u8]) -> Result<(), ParseError> {
    if prefix.len() > MAX_PREFIX {
        return Err(ParseError::Prefix { reason: TOO_LONG });
    }
    if let Some(i) = prefix
        .iter()
        .position(|c| !(c.is_ascii_lowercase() || *c == b'_'))
    {
        return Err(ParseError::Character {
            kind: Kind::TypeId,
            position: i,
            found: prefix[i],
            allowed: PREFIX_CHARACTERS,
        });
    }
    if prefix.first() == Some(&b'_') || prefix.last() == Some(&b'_') {
        return Err(ParseError::Prefix { reason: EDGE });
    }
    Ok(())
}

impl TypeId {
    /// A TypeID from a prefix (possibly empty) and a UUID.
    pub fn new(prefix: &str, uuid: Uuid) -> Result<TypeId, ParseError> {
        check_prefix(prefix.as_bytes())?;
        let mut p = [0u8; MAX_PREFIX];
        p[..prefix.len()].copy_from_slice(prefix.as_bytes());
        Ok(TypeId {
            prefix: p,
            prefix_len: prefix.len() as u8,
            uuid,
        })
    }

    /// The prefix (may be empty).
    pub fn prefix(&self) -> &str {
        core::str::from_utf8(&self.prefix[..self.prefix_len as usize]).unwrap_or_default()
    }

    /// The UUID.
    pub fn uuid(&self) -> Uuid {
        self.uuid
    }

    /// The text: `prefix_suffix`, or just the suffix for an empty prefix.
    pub fn to_text(&self) -> IdText<90> {
        let mut t = IdText::new();
        if self.prefix_len > 0 {
            t.push(self.prefix().as_bytes());
            t.push(b"_");
        }
        t.push(&base32::encode::<26>(self.uuid.0, base32::LOWER));
        t
    }

    /// Parses a TypeID as the spec defines it: the suffix is exactly 26
    /// lowercase base32 digits starting with 0-7; an empty prefix has no `_`.
    pub fn parse(text: &str) -> Result<TypeId, ParseError> {
        crate::text::per_char(text, TypeId::parse_bytes)
    }

    /// [`TypeId::parse`] over bytes.
    fn parse_bytes(b: &[u8]) -> Result<TypeId, ParseError> {
        let (prefix, suffix, offset) = match b.iter().rposition(|&c| c == b'_') {
            None => (&b[..0], b, 0),
            Some(0) => {
                return Err(ParseError::Prefix {
                    reason: "an empty prefix is written without the '_' separator",
                });
            }
            Some(i) => (&b[..i], &b[i + 1..], i + 1),
        };
        check_prefix(prefix)?;
        if suffix.len() != 26 {
            return Err(ParseError::Length {
                kind: Kind::TypeId,
                expected: "26 (suffix)",
                found: suffix.len(),
            });
        }
        let value =
            base32::decode_128(suffix, Alphabet::Lowercase, Kind::TypeId).map_err(|e| match e {
                ParseError::Character {
                    kind,
                    position,
                    found,
                    allowed,
                } => ParseError::Character {
                    kind,
                    position: position + offset,
                    found,
                    allowed,
                },
                e => e,
            })?;
        // `check_prefix` accepted only ASCII, so this is valid UTF-8.
        let prefix = core::str::from_utf8(prefix).unwrap_or_default();
        TypeId::new(prefix, Uuid(value))
    }
}

crate::text::impl_text_traits!(TypeId);

impl fmt::Debug for TypeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypeId({})", self.to_text())
    }
}
