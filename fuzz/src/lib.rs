//! The checks behind the fuzz targets (one per parser, in `fuzz_targets/`).
//! A parser may reject any input, but must not panic, and whatever it
//! accepts must be exactly the value its input spells: re-encoding it gives
//! the input back (up to the spellings the format allows) and parses again
//! to the same value.

use snowmint::base32;
use snowmint::bytes::ByteOrder;
use snowmint::ksuid::Ksuid;
use snowmint::objectid::ObjectId;
use snowmint::snowflake;
use snowmint::typeid::TypeId;
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;
use snowmint::validate::Validation;
use snowmint::{Id, Kind};

/// ULIDs are case-insensitive and read Crockford's aliases (I, L as 1; O as 0).
pub fn ulid(data: &[u8]) {
    if let Ok(u) = Ulid::parse_bytes(data) {
        let normalized: Vec<u8> = data
            .iter()
            .map(|c| match c.to_ascii_uppercase() {
                b'I' | b'L' => b'1',
                b'O' => b'0',
                c => c,
            })
            .collect();
        assert_eq!(u.to_text().as_bytes(), normalized);
        assert_eq!(Ulid::parse(&u.to_text()), Ok(u));
    }
}

/// UUIDs come in several forms: the value must survive the canonical one,
/// and its 32 hex digits must be the input's.
pub fn uuid(data: &[u8]) {
    if let Ok(u) = Uuid::parse_bytes(data) {
        assert_eq!(Uuid::parse(&u.to_text()), Ok(u));
        const URN: &[u8] = b"urn:uuid:";
        let body = match data.get(..URN.len()) {
            Some(p) if p.eq_ignore_ascii_case(URN) => &data[URN.len()..],
            _ => data,
        };
        let hex: Vec<u8> = body
            .iter()
            .filter(|c| c.is_ascii_hexdigit())
            .map(u8::to_ascii_lowercase)
            .collect();
        assert_eq!(hex, u.to_simple().as_bytes());
    }
}

/// Base62 is case-sensitive and fixed-length: one spelling per value.
pub fn ksuid(data: &[u8]) {
    if let Ok(k) = Ksuid::parse_bytes(data) {
        assert_eq!(k.to_text().as_bytes(), data);
    }
}

/// ObjectIds are hex in any case.
pub fn objectid(data: &[u8]) {
    if let Ok(o) = ObjectId::parse_bytes(data) {
        assert!(o.to_text().as_bytes().eq_ignore_ascii_case(data));
    }
}

/// TypeIDs have exactly one spelling.
pub fn typeid(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = TypeId::parse(text) {
        assert_eq!(&*t.to_text(), text);
    }
}

/// The human form drops dashes, ignores case and reads I/L as 1, O as 0.
pub fn human(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Ok((v, digits)) = base32::from_human(text) {
        let normalized: String = text
            .chars()
            .filter(|&c| c != '-')
            .map(|c| match c.to_ascii_lowercase() {
                'i' | 'l' => '1',
                'o' => '0',
                c => c,
            })
            .collect();
        assert_eq!(
            base32::to_human(v, digits, None).replace('-', ""),
            normalized
        );
    }
}

/// Decimal Snowflakes: the digits, leading zeros aside.
pub fn snowflake(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Ok(v) = snowflake::parse_decimal(text) {
        let digits = text.trim_start_matches('0');
        assert_eq!(v.to_string(), if digits.is_empty() { "0" } else { digits });
    }
}

/// `Id::parse` with the kind detected, or forced by the first byte.
pub fn any_id(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = core::str::from_utf8(rest) else {
        return;
    };
    let kind = Kind::ALL.get(usize::from(selector) % 8).copied();
    if let Ok(id) = Id::parse(text, kind) {
        let canonical = match id {
            Id::Snowflake(v) => v.to_string(),
            Id::Ulid(u) => u.to_text().to_string(),
            Id::Uuid(u) => u.to_text().to_string(),
            Id::Ksuid(k) => k.to_text().to_string(),
            Id::ObjectId(o) => o.to_text().to_string(),
            Id::TypeId(t) => t.to_text().to_string(),
        };
        assert_eq!(Id::parse(&canonical, Some(id.kind())), Ok(id));
    }
}

/// `Id::from_bytes` with the kind and byte order from the first byte: what
/// it accepts writes back to the same bytes.
pub fn bytes(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = Kind::ALL[usize::from(selector) % Kind::ALL.len()];
    let order = if selector & 0x80 != 0 {
        ByteOrder::Guid
    } else {
        ByteOrder::BigEndian
    };
    if let Ok(id) = Id::from_bytes(rest, kind, order, "p") {
        assert_eq!(id.kind(), kind);
        assert_eq!(&*id.to_bytes(order).unwrap(), rest);
    }
}

/// `Validation::accepts`, rules from the first byte: never panics; a
/// strictly valid text is its ID's canonical text, and lenient accepts it too.
pub fn validate(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = core::str::from_utf8(rest) else {
        return;
    };
    let strict = Validation {
        kind: Kind::ALL.get(usize::from(selector & 7)).copied(),
        lenient: false,
        preset: None,
        uuid_version: (selector & 0x10 != 0).then_some(selector >> 5),
    };
    let lenient = Validation {
        lenient: true,
        ..strict
    };
    let (s, l) = (strict.accepts(text), lenient.accepts(text));
    assert!(!s || l, "strict accepted what lenient refused: {text:?}");
    if s && strict.kind != Some(Kind::Human) {
        let id = Id::parse(text, strict.kind).unwrap();
        assert_eq!(&*id.to_text(), text);
    }
}

/// A lease's lock file (snowmint-lease): what it accepts as a bound is the
/// number its first line spells, and the text written for what it read
/// (bound, report, holder) reads back the same.
pub fn lock_file(data: &[u8]) {
    use snowmint_lease::{format_lock_file, parse_holder, parse_lock_file};
    if let Some((bound, report)) = parse_lock_file(data) {
        let first = core::str::from_utf8(data)
            .unwrap()
            .lines()
            .next()
            .unwrap_or("")
            .trim();
        let digits = first.trim_start_matches('+').trim_start_matches('0');
        assert_eq!(
            bound.to_string(),
            if digits.is_empty() { "0" } else { digits }
        );
        let report = report.unwrap_or(0);
        let pid = parse_holder(data).unwrap_or(0);
        let text = format_lock_file(bound, report, pid);
        assert_eq!(
            parse_lock_file(text.as_bytes()),
            Some((bound, Some(report)))
        );
        assert_eq!(parse_holder(text.as_bytes()), Some(pid));
    }
}
