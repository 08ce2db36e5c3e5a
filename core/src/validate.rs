//! Validation without errors: whether a text is an ID of a kind, in its
//! canonical form only (strict, the default) or in any spelling the parsers
//! read (lenient: braces, `urn:uuid:`, Crockford's aliases, leading zeros).
//! Case is no part of the form where the encoding ignores it (RFC 9562's
//! hex, an ObjectId's hex, the ULID spec's base32): strict takes either case
//! there, as the `uuid` package's `validate` does; KSUID's base62 and
//! TypeID's suffix (lowercase by its spec) have one spelling. UUIDs must also have a version of RFC 9562
//! (1 to 8) and its variant, or be the NIL or MAX UUID, as the `uuid`
//! package's `validate` requires; Snowflakes must fit the preset's layout.

use crate::error::Kind;
use crate::id::Id;
use crate::snowflake::Preset;
use crate::uuid::Uuid;

/// What [`Validation::accepts`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Validation {
    /// The kind the text must be; `None`: the kind its shape shows ([`crate::id::detect`]).
    pub kind: Option<Kind>,
    /// Accept every spelling the parser reads, not only the canonical one.
    pub lenient: bool,
    /// A Snowflake must be an ID of this preset's layout.
    pub preset: Option<Preset>,
    /// A UUID must have this version (and the RFC 9562 variant).
    pub uuid_version: Option<u8>,
}

impl Validation {
    /// Whether `text` is a valid ID under these rules. Never fails.
    pub fn accepts(&self, text: &str) -> bool {
        let Ok(id) = Id::parse(text, self.kind) else {
            return false;
        };
        let fits = match id {
            Id::Snowflake(v) => self.preset.is_none_or(|p| p.layout().decode(v).is_ok()),
            Id::Uuid(u) => self.uuid_fits(u),
            _ => true,
        };
        fits && (self.lenient || self.in_canonical_form(&id, text))
    }

    /// Whether `text` is `id`'s canonical text, in either case where case
    /// carries nothing.
    fn in_canonical_form(&self, id: &Id, text: &str) -> bool {
        let canonical = self.canonical(id);
        let any_case = self.kind != Some(Kind::Human)
            && matches!(id, Id::Uuid(_) | Id::ObjectId(_) | Id::Ulid(_));
        if any_case {
            canonical.as_bytes().eq_ignore_ascii_case(text.as_bytes())
        } else {
            canonical.as_bytes() == text.as_bytes()
        }
    }

    fn uuid_fits(&self, u: Uuid) -> bool {
        match self.uuid_version {
            Some(v) => u.version() == v && u.is_rfc_variant(),
            None => {
                (1..=8).contains(&u.version()) && u.is_rfc_variant()
                    || u == Uuid::NIL
                    || u == Uuid::MAX
            }
        }
    }

    /// The canonical spelling of `id` as this kind: the human form's full
    /// groups for `Kind::Human`, else the ID's own text.
    fn canonical(&self, id: &Id) -> crate::IdText<90> {
        if self.kind == Some(Kind::Human) {
            if let Ok(human) = id.to_human(None) {
                return crate::IdText::ascii(human.as_bytes());
            }
        }
        id.to_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(kind: Option<Kind>) -> Validation {
        Validation {
            kind,
            ..Validation::default()
        }
    }

    #[test]
    fn strict_takes_the_canonical_form_only_in_either_case_where_case_carries_nothing() {
        let v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
        let lenient = Validation {
            lenient: true,
            ..strict(None)
        };
        for (text, canonical) in [
            (v7, true),
            ("017F22E2-79B0-7CC3-98C4-DC0C0C07398F", true),
            ("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}", false),
            ("01ARZ3NDEKTSV4RRFFQ69G5FAV", true),
            ("01arz3ndektsv4rrffq69g5fav", true),
            ("0ujtsYcgvSTl8PAuAdqWYSMnLOv", true),
            ("O1ARZ3NDEKTSV4RRFFQ69G5FAV", false),
            ("175928847299117063", true),
            ("0175928847299117063", false),
        ] {
            assert_eq!(strict(None).accepts(text), canonical, "{text}");
            assert!(lenient.accepts(text), "{text}");
        }
        assert!(!lenient.accepts("01ARZ3NDEKTSV4RRFFQ69G5FAU"));
        // TypeID's spec wants its suffix lowercase: no other spelling at all.
        assert!(!lenient.accepts("user_01H455VB4PEX5VSKNK084SN02Q"));
        assert!(!strict(Some(Kind::Ulid)).accepts(v7));
    }

    #[test]
    fn uuids_need_an_rfc_version_and_variant() {
        let any = strict(Some(Kind::Uuid));
        assert!(any.accepts("00000000-0000-0000-0000-000000000000"));
        assert!(any.accepts("ffffffff-ffff-ffff-ffff-ffffffffffff"));
        assert!(
            !any.accepts("017f22e2-79b0-0cc3-98c4-dc0c0c07398f"),
            "version 0"
        );
        assert!(
            !any.accepts("017f22e2-79b0-9cc3-98c4-dc0c0c07398f"),
            "version 9"
        );
        assert!(
            !any.accepts("017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"),
            "variant 110"
        );
        let v4 = Validation {
            uuid_version: Some(4),
            ..any
        };
        assert!(!v4.accepts("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
        assert!(v4.accepts("919108f7-52d1-4320-9bac-f847db4148a8"));
    }
}
