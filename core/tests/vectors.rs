//! The shared vectors in `tests/vectors/` (see its README for the schemas):
//! every value the RFCs, specs and developer docs publish must come out of
//! the core exactly, and every invalid input must fail with the listed
//! error kind. The Node and browser tests read the same files.

use std::path::{Path, PathBuf};

use serde_json::Value;
use snowmint::base32;
use snowmint::bytes::ByteOrder;
use snowmint::ksuid::Ksuid;
use snowmint::objectid::ObjectId;
use snowmint::snowflake::{self, FieldOrder, Layout, Preset};
use snowmint::typeid::TypeId;
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;
use snowmint::validate::Validation;
use snowmint::{Error, Id, Kind, ParseError};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// The array of vectors in `file`, each with its `name` for messages.
fn load(file: &str) -> Vec<(String, Value)> {
    let path = dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let Value::Array(items) = serde_json::from_str(&text).unwrap() else {
        panic!("{file}: not an array");
    };
    assert!(!items.is_empty(), "{file} is empty");
    items
        .into_iter()
        .map(|v| (format!("{file}: {}", str(&v, "name")), v))
        .collect()
}

fn str<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

fn opt_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v[key].as_str()
}

fn num(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

/// A decimal-string field.
fn dec(v: &Value, key: &str) -> u128 {
    str(v, key)
        .parse()
        .unwrap_or_else(|e| panic!("{key}: {e} in {v}"))
}

fn strings<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array in {v}"))
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

/// Unix ms as JavaScript's `toISOString` writes it, so that the vectors'
/// `iso` strings are checked against their `timestamp_ms` here too.
fn iso(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{}{:06}", if y < 0 { '-' } else { '+' }, y.abs())
    };
    let (h, mi, s, msr) = (
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000,
    );
    format!("{year}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{msr:03}Z")
}

/// Checks `timestamp_ms`/`iso` against what the core decoded.
fn check_time(name: &str, v: &Value, got_ms: Option<i64>) {
    let want = v["timestamp_ms"].as_i64();
    assert_eq!(got_ms, want, "{name}: timestamp_ms");
    assert_eq!(
        want.map(iso).as_deref(),
        opt_str(v, "iso"),
        "{name}: iso does not match timestamp_ms"
    );
    if let Some(doc) = v["documented_ms"].as_i64() {
        let precision = v["documented_precision_ms"].as_i64().unwrap();
        let ms = want.unwrap();
        assert!(
            (0..precision).contains(&(ms - doc)),
            "{name}: {ms} is not within {precision} ms of the documented {doc}"
        );
    }
}

/// `Id::parse` without a kind must see `text` as `kind` and give `id`.
fn check_detect(name: &str, text: &str, id: Id) {
    assert_eq!(Id::parse(text, None), Ok(id), "{name}: detection");
    assert_eq!(
        Id::parse(text, Some(id.kind())),
        Ok(id),
        "{name}: forced kind"
    );
}

#[test]
fn every_vector_file_is_checked() {
    const CHECKED: [&str; 14] = [
        "bytes.json",
        "valid.json",
        "bounds.json",
        "compare.json",
        "human.json",
        "invalid.json",
        "ksuid.json",
        "objectid.json",
        "snowflake.json",
        "sequence.json",
        "ulid.json",
        "uuid.json",
        "typeid/valid.json",
        "typeid/invalid.json",
    ];
    let mut found = Vec::new();
    for sub in ["", "typeid/"] {
        for entry in std::fs::read_dir(dir().join(sub)).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".json") {
                found.push(format!("{sub}{name}"));
            }
        }
    }
    found.sort();
    let mut want = CHECKED.map(String::from).to_vec();
    want.sort();
    assert_eq!(
        found, want,
        "a vector file was added or removed: check it here"
    );
}

#[test]
fn uuid_vectors() {
    for (name, v) in load("uuid.json") {
        let text = str(&v, "text");
        let u = Uuid::parse(text).unwrap();
        for input in strings(&v, "inputs") {
            assert_eq!(Uuid::parse(input), Ok(u), "{name}: input {input}");
        }
        assert_eq!(&*u.to_text(), text, "{name}");
        assert_eq!(&*u.to_simple(), text.replace('-', ""), "{name}");
        assert_eq!(u64::from(u.version()), num(&v, "version"), "{name}");
        assert_eq!(
            u.is_rfc_variant(),
            v["rfc_variant"].as_bool().unwrap(),
            "{name}"
        );
        check_time(&name, &v, u.timestamp_ms());
        assert_eq!(&*Ulid::from_uuid(u).to_text(), str(&v, "ulid"), "{name}");
        check_detect(&name, text, Id::Uuid(u));

        let f = &v["fields"];
        match u.version() {
            1 | 6 => {
                let (ticks, seq, node) = (
                    dec(f, "gregorian_ticks") as u64,
                    dec(f, "clock_seq") as u16,
                    dec(f, "node") as u64,
                );
                assert_eq!(u.gregorian_ticks(), Some(ticks), "{name}");
                assert_eq!(u.clock_seq(), Some(seq), "{name}");
                assert_eq!(u.node(), Some(node), "{name}");
                let compose = if u.version() == 1 {
                    Uuid::v1_from_parts
                } else {
                    Uuid::v6_from_parts
                };
                assert_eq!(compose(ticks, seq, node), u, "{name}: compose");
            }
            7 => {
                let ms = dec(f, "unix_ts_ms") as u64;
                let a = dec(f, "rand_a") as u16;
                let b = dec(f, "rand_b") as u64;
                assert_eq!(Uuid::v7_from_parts(ms, a, b), u, "{name}: compose");
            }
            4 if u.is_rfc_variant() => {
                assert_eq!(u.0 >> 80, dec(f, "random_a"), "{name}");
                assert_eq!(u.0 >> 64 & 0xFFF, dec(f, "random_b"), "{name}");
                assert_eq!(u.0 & ((1 << 62) - 1), dec(f, "random_c"), "{name}");
                assert_eq!(Uuid::v4_from_random(u.to_bytes()), u, "{name}");
            }
            _ => assert_eq!(f, &serde_json::json!({}), "{name}: no fields"),
        }
    }
}

#[test]
fn uuid_nil_and_max_constants() {
    assert_eq!(
        &*Uuid::NIL.to_text(),
        "00000000-0000-0000-0000-000000000000"
    );
    assert_eq!(
        &*Uuid::MAX.to_text(),
        "ffffffff-ffff-ffff-ffff-ffffffffffff"
    );
}

#[test]
fn ulid_vectors() {
    for (name, v) in load("ulid.json") {
        let text = str(&v, "text");
        let u = Ulid::parse(text).unwrap();
        for input in strings(&v, "inputs") {
            assert_eq!(Ulid::parse(input), Ok(u), "{name}: input {input}");
        }
        assert_eq!(&*u.to_text(), text, "{name}");
        check_time(&name, &v, Some(u.timestamp_ms() as i64));
        assert_eq!(u.random(), dec(&v, "random"), "{name}");
        assert_eq!(Ulid::from_parts(u.timestamp_ms(), u.random()), u, "{name}");
        let uuid = str(&v, "uuid");
        assert_eq!(&*u.to_uuid().to_text(), uuid, "{name}");
        assert_eq!(Ulid::from_uuid(Uuid::parse(uuid).unwrap()), u, "{name}");
        assert_eq!(Ulid::from_bytes(u.to_bytes()), u, "{name}");
        check_detect(&name, text, Id::Ulid(u));
        match opt_str(&v, "next") {
            Some(next) => assert_eq!(&*Ulid(u.0 + 1).to_text(), next, "{name}: next"),
            None => assert!(
                u.random() == (1 << 80) - 1 || u == Ulid::MAX,
                "{name}: only an all-ones random part has no next"
            ),
        }
    }
    assert_eq!(&*Ulid::MAX.to_text(), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    assert_eq!(&*Ulid::NIL.to_text(), "00000000000000000000000000");
}

#[test]
fn ksuid_vectors() {
    for (name, v) in load("ksuid.json") {
        let text = str(&v, "text");
        let k = Ksuid::parse(text).unwrap();
        assert_eq!(&*k.to_text(), text, "{name}");
        assert_eq!(hex(&k.0), str(&v, "raw"), "{name}");
        assert_eq!(u64::from(k.timestamp()), num(&v, "timestamp"), "{name}");
        check_time(&name, &v, Some(k.timestamp_ms() as i64));
        assert_eq!(hex(&k.payload()), str(&v, "payload"), "{name}");
        let payload = unhex::<16>(str(&v, "payload"));
        assert_eq!(Ksuid::from_parts(k.timestamp(), payload), k, "{name}");
        check_detect(&name, text, Id::Ksuid(k));
    }
    assert_eq!(&*Ksuid::NIL.to_text(), "000000000000000000000000000");
    assert_eq!(&*Ksuid::MAX.to_text(), "aWgEPTl1tmebfsQzFP4bxwgy80V");
}

fn layout_of(v: &Value) -> Layout {
    if let Some(preset) = opt_str(v, "preset") {
        return Preset::from_name(preset).unwrap().layout();
    }
    let l = &v["layout"];
    // The bindings' names (FieldOrder::NAMES), as JS spells them.
    let order = FieldOrder::from_name(str(l, "order")).unwrap();
    let bits = |k| num(l, k) as u8;
    Layout::new(
        bits("time_bits"),
        bits("worker_bits"),
        bits("sequence_bits"),
        num(l, "unit_ms") as u32,
        num(l, "epoch_ms"),
    )
    .unwrap()
    .with_order(order)
}

#[test]
fn snowflake_vectors() {
    for (name, v) in load("snowflake.json") {
        let layout = layout_of(&v);
        let text = str(&v, "id");
        let id = snowflake::parse_decimal(text).unwrap();
        assert_eq!(id.to_string(), text, "{name}");
        let p = layout.decode(id).unwrap();
        let f = &v["fields"];
        let field = |k| dec(f, k) as u64;
        assert_eq!(p.tick, field("tick"), "{name}: tick");
        assert_eq!(p.worker_id, field("worker_id"), "{name}: worker");
        assert_eq!(p.sequence, field("sequence"), "{name}: sequence");
        check_time(&name, &v, Some(p.timestamp_ms as i64));
        let mut parts: Vec<_> = p
            .worker_parts
            .map(|(hi, hv, lo, lv)| vec![(format!("{hi}_part"), hv), (format!("{lo}_part"), lv)])
            .unwrap_or_default();
        parts.sort();
        // serde_json's map is ordered by key, like the sorted `parts`.
        let want_parts: Vec<_> = f
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| k.ends_with("_part"))
            .map(|k| (k.clone(), field(k)))
            .collect();
        assert_eq!(parts, want_parts, "{name}: worker parts");
        assert_eq!(
            layout.compose(p.tick, p.worker_id, p.sequence),
            id,
            "{name}"
        );
        check_detect(&name, text, Id::Snowflake(id));
    }
}

#[test]
fn objectid_vectors() {
    for (name, v) in load("objectid.json") {
        let text = str(&v, "text");
        let o = ObjectId::parse(text).unwrap();
        assert_eq!(ObjectId::parse(&text.to_uppercase()), Ok(o), "{name}");
        assert_eq!(&*o.to_text(), text, "{name}");
        assert_eq!(u64::from(o.timestamp()), num(&v, "timestamp"), "{name}");
        check_time(&name, &v, Some(o.timestamp_ms() as i64));
        assert_eq!(hex(&o.0[4..9]), str(&v, "random"), "{name}");
        assert_eq!(u64::from(o.counter()), num(&v, "counter"), "{name}");
        let random = unhex::<5>(str(&v, "random"));
        assert_eq!(
            ObjectId::from_parts(o.timestamp(), random, o.counter()),
            o,
            "{name}"
        );
        check_detect(&name, text, Id::ObjectId(o));
    }
}

#[test]
fn human_vectors() {
    assert_eq!(base32::digits_for_bits(64), 13);
    assert_eq!(base32::digits_for_bits(128), 26);
    for (name, v) in load("human.json") {
        let id_text = str(&v, "id");
        let (id, value) = match str(&v, "kind") {
            "ulid" => {
                let u = Ulid::parse(id_text).unwrap();
                (Id::Ulid(u), u.0)
            }
            "snowflake" => {
                let s = snowflake::parse_decimal(id_text).unwrap();
                (Id::Snowflake(s), u128::from(s))
            }
            other => panic!("{name}: unknown kind {other}"),
        };
        let digits = num(&v, "digits") as usize;
        assert_eq!(
            &*base32::to_human(value, digits, None),
            str(&v, "human"),
            "{name}"
        );
        for short in v["short"].as_array().unwrap() {
            let groups = num(short, "groups") as usize;
            assert_eq!(
                &*base32::to_human(value, digits, Some(groups)),
                str(short, "text"),
                "{name}: {groups} groups"
            );
            assert_eq!(
                id.to_human(Some(groups)).as_deref(),
                Ok(str(short, "text")),
                "{name}: {groups} groups"
            );
        }
        for groups in v["refusedGroups"].as_array().unwrap() {
            let groups = groups.as_u64().unwrap() as usize;
            let refused = id.to_human(Some(groups)).map(|t| t.to_string());
            assert_eq!(
                refused.map_err(|e| e.code()),
                Err("ERR_INVALID_ARG_VALUE"),
                "{name}: {groups} groups"
            );
        }
        for input in strings(&v, "inputs") {
            assert_eq!(
                base32::from_human(input).map(|(v, _)| v),
                Ok(value),
                "{name}: {input}"
            );
            assert_eq!(
                Id::parse(input, Some(Kind::Human)),
                Ok(id),
                "{name}: {input}"
            );
        }
    }
}

fn kind_of(v: &Value) -> Option<Kind> {
    opt_str(v, "kind").map(|k| Kind::from_name(k).unwrap_or_else(|e| panic!("kind {k}: {e}")))
}

/// The vector's name for an error, and the position of a character error.
fn error_kind(e: &ParseError) -> (&'static str, Option<usize>) {
    match e {
        ParseError::Length { .. } => ("length", None),
        ParseError::Character { position, .. } => ("character", Some(*position)),
        ParseError::Overflow { .. } => ("overflow", None),
        ParseError::Prefix { .. } => ("prefix", None),
        ParseError::UnknownKind { .. } => ("unknown_kind", None),
        ParseError::ByteLength { .. } => ("byte_length", None),
    }
}

#[test]
fn invalid_vectors() {
    for (name, v) in load("invalid.json") {
        let input = str(&v, "input");
        let kind = kind_of(&v);
        // With a preset, the value parses but does not fit that layout.
        let parsed = Id::parse(input, kind).and_then(|id| match (id, opt_str(&v, "preset")) {
            (Id::Snowflake(value), Some(p)) => Preset::from_name(p)
                .unwrap()
                .layout()
                .check_id(value)
                .map(Id::Snowflake),
            (id, _) => Ok(id),
        });
        let err = match parsed {
            Ok(id) => panic!("{name}: {input:?} parsed as {id:?}"),
            Err(e) => e,
        };
        let want = (str(&v, "error"), v["position"].as_u64().map(|p| p as usize));
        assert_eq!(error_kind(&err), want, "{name}: {input:?} gave {err}");
        // The message is a sentence, never empty.
        assert!(err.to_string().len() > 10, "{name}");
        // The browser's full module returns it as numbers and texts: they
        // give the same error back.
        let err = Error::from(err);
        let n = err.numbers().expect(&name);
        let texts = n.texts.map(|t| -> &'static str { Box::leak(t.into()) });
        assert_eq!(
            Error::from_numbers(n.index, n.numbers, texts),
            Some(err),
            "{name}"
        );
    }
}

#[test]
fn bound_vectors() {
    use snowmint::at::{Pick, TimedKind};
    use snowmint::snowflake::Spec;
    for (name, v) in load("bounds.json") {
        let ms = num(&v, "timestamp_ms");
        assert_eq!(iso(ms as i64), str(&v, "iso"), "{name}");
        let (min, max) = match str(&v, "kind") {
            "snowflake" => {
                let layout = Preset::from_name(str(&v, "preset")).unwrap().layout();
                let spec = Spec {
                    worker_id: 0,
                    worker_parts: None,
                    preset: Preset::from_name(str(&v, "preset")).unwrap(),
                    custom: None,
                    epoch_ms: None,
                    on_backwards: Default::default(),
                    on_exhausted: Default::default(),
                    resume_after_ms: None,
                };
                assert_eq!(spec.id_at(ms, Pick::Min, 0), layout.min_id_at(ms), "{name}");
                let (min, max) = (layout.min_id_at(ms).unwrap(), layout.max_id_at(ms).unwrap());
                // Every worker and sequence of the tick lies within.
                let any = layout.id_at(ms, layout.max_worker() / 3, layout.max_sequence() / 2);
                assert!((min..=max).contains(&any.unwrap()), "{name}");
                (min.to_string(), max.to_string())
            }
            kind => {
                let kind = TimedKind::from_name(kind).unwrap();
                let prefix = opt_str(&v, "prefix").unwrap_or("");
                let text = |pick| {
                    kind.text_at(ms, pick, 0x5555 << 60, prefix)
                        .unwrap()
                        .to_string()
                };
                let any = text(Pick::Any);
                assert!(text(Pick::Min) <= any && any <= text(Pick::Max), "{name}");
                (text(Pick::Min), text(Pick::Max))
            }
        };
        assert_eq!(
            (min.as_str(), max.as_str()),
            (str(&v, "min"), str(&v, "max")),
            "{name}"
        );
    }
}

#[test]
fn compare_vectors() {
    for (name, v) in load("compare.json") {
        let got = Id::compare_texts(str(&v, "a"), str(&v, "b"));
        match v["result"].as_i64() {
            Some(want) => assert_eq!(got.map(i64::from), Ok(want), "{name}"),
            None => assert_eq!(
                got.map_err(|e| e.code()),
                Err("ERR_INVALID_ARG_VALUE"),
                "{name}"
            ),
        }
        // Swapped, the order flips.
        let back = Id::compare_texts(str(&v, "b"), str(&v, "a"));
        assert_eq!(back.ok(), v["result"].as_i64().map(|r| -r as i8), "{name}");
    }
}

#[test]
fn typeid_conformance_valid() {
    for (name, v) in load("typeid/valid.json") {
        let text = str(&v, "typeid");
        let uuid = Uuid::parse(str(&v, "uuid")).unwrap();
        let t = TypeId::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.prefix(), str(&v, "prefix"), "{name}");
        assert_eq!(t.uuid(), uuid, "{name}");
        let made = TypeId::new(str(&v, "prefix"), uuid).unwrap();
        assert_eq!(made, t, "{name}");
        assert_eq!(&*made.to_text(), text, "{name}: encode");
        assert_eq!(
            Id::parse(text, Some(Kind::TypeId)),
            Ok(Id::TypeId(t)),
            "{name}"
        );
    }
}

#[test]
fn typeid_conformance_invalid() {
    for (name, v) in load("typeid/invalid.json") {
        let text = str(&v, "typeid");
        assert!(
            TypeId::parse(text).is_err(),
            "{name}: {text:?} accepted ({})",
            str(&v, "description")
        );
        assert!(Id::parse(text, Some(Kind::TypeId)).is_err(), "{name}");
    }
}

#[test]
fn uuid_v3_v5_v8_and_v1_v6_reordering() {
    let mut seen = [0; 3];
    for (name, v) in load("uuid.json") {
        let u = Uuid::parse(str(&v, "text")).unwrap();
        if let Some(nb) = v.get("name_based") {
            let namespace = Uuid::NAMESPACES
                .iter()
                .find(|(n, _)| *n == str(nb, "namespace"))
                .map(|(_, ns)| *ns)
                .unwrap();
            let make = if u.version() == 3 { Uuid::v3 } else { Uuid::v5 };
            assert_eq!(make(namespace, str(nb, "name").as_bytes()), u, "{name}");
            seen[0] += 1;
        }
        if let Some(input) = opt_str(&v, "v8_input") {
            assert_eq!(Uuid::v8_from_bytes(unhex::<16>(input)), u, "{name}");
            assert_eq!(Uuid::v8_from_bytes(u.to_bytes()), u, "{name}: idempotent");
            seen[1] += 1;
        }
        if let Some(other) = opt_str(&v, "reordered") {
            let other = Uuid::parse(other).unwrap();
            let (to, back) = match u.version() {
                1 => (u.v1_to_v6(), other.v6_to_v1()),
                _ => (u.v6_to_v1(), other.v1_to_v6()),
            };
            assert_eq!((to, back), (Ok(other), Ok(u)), "{name}");
            seen[2] += 1;
        }
        if !matches!(u.version(), 1 | 6) {
            assert!(u.v1_to_v6().is_err() && u.v6_to_v1().is_err(), "{name}");
        }
    }
    assert_eq!(seen, [2, 2, 2], "v3/v5, v8 and v1/v6 vectors");
}

#[test]
fn byte_vectors() {
    for (name, v) in load("bytes.json") {
        let kind = kind_of(&v).unwrap();
        let id = Id::parse(str(&v, "text"), Some(kind)).unwrap();
        let bytes = id.to_bytes(ByteOrder::BigEndian).unwrap();
        assert_eq!(hex(&bytes), str(&v, "hex"), "{name}");
        let prefix = opt_str(&v, "prefix").unwrap_or("");
        let back = Id::from_bytes(&bytes, kind, ByteOrder::BigEndian, prefix).unwrap();
        assert_eq!(&*back.to_text(), str(&v, "text"), "{name}");
        if let Some(guid) = opt_str(&v, "guid_hex") {
            let g = id.to_bytes(ByteOrder::Guid).unwrap();
            assert_eq!(hex(&g), guid, "{name}: GUID order");
            assert_eq!(
                Id::from_bytes(&g, kind, ByteOrder::Guid, ""),
                Ok(id),
                "{name}"
            );
        }
        // One byte short or long: a length error naming the kind.
        for len in [bytes.len() - 1, bytes.len() + 1] {
            let wrong = vec![0u8; len];
            match Id::from_bytes(&wrong, kind, ByteOrder::BigEndian, prefix) {
                Err(snowmint::Error::Parse(ParseError::ByteLength { kind: k, found, .. })) => {
                    assert_eq!((k, found), (kind, len), "{name}")
                }
                other => panic!("{name}: {len} bytes gave {other:?}"),
            }
        }
    }
}

/// Block sequences: option and name checks, and scripts of state-machine
/// steps whose every answer the core must give again (the Node test runs
/// the same scripts through the addon).
#[cfg(feature = "sequence")]
#[test]
fn sequence_vectors() {
    use snowmint::sequence::{BlockSequence, Options, check_name};

    let path = dir().join("sequence.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let options_of = |o: &Value| Options {
        block_size: o["blockSize"].as_u64(),
        min_block_size: o["minBlockSize"].as_u64(),
        max_block_size: o["maxBlockSize"].as_u64(),
        target_block_ms: o["targetBlockMs"].as_u64(),
        start: o["start"].as_str().map(|s| s.parse().unwrap()),
        timeout_ms: o["timeoutMs"].as_u64(),
    };
    let code = |r: Result<(), snowmint::Error>| r.err().map(|e| e.code());
    for case in v["options"].as_array().unwrap() {
        match options_of(&case["options"]).config() {
            Ok(c) => {
                let sizes = [
                    c.block_size,
                    c.min_block_size,
                    c.max_block_size,
                    c.target_block_ms,
                    c.timeout_ms,
                ];
                let want: Vec<u64> = case["config"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap())
                    .collect();
                assert_eq!(sizes.to_vec(), want, "{case}");
                assert_eq!(c.start.to_string(), str(case, "start"), "{case}");
            }
            Err(e) => {
                assert_eq!(e.code(), str(case, "error"), "{case}");
                assert_eq!(e.to_string(), str(case, "message"), "{case}");
            }
        }
    }
    for case in v["names"].as_array().unwrap() {
        let got = check_name(str(case, "name"));
        assert_eq!(code(got.clone()), opt_str(case, "error"), "{case}");
        if let Err(e) = got {
            assert_eq!(e.to_string(), str(case, "message"));
        }
    }
    let id = |v: &Value| v.as_str().unwrap().parse::<u64>().unwrap();
    for script in v["scripts"].as_array().unwrap() {
        let mut s = BlockSequence::new(options_of(&script["options"]).config().unwrap());
        for (i, step) in script["steps"].as_array().unwrap().iter().enumerate() {
            let at = format!("step {i} {step} of {}", script["options"]);
            match step[0].as_str().unwrap() {
                "request" => {
                    let got = s.request(step[1].as_u64().unwrap()).unwrap_or(0);
                    assert_eq!(got, step[2].as_u64().unwrap(), "{at}");
                }
                "add" => {
                    let got = s.add_block(id(&step[1]), step[2].as_u64().unwrap());
                    assert_eq!(code(got), step[3].as_str(), "{at}");
                }
                "fail" => s.fail(step[1].as_u64().unwrap()),
                "take" => {
                    match s.take(step[1].as_u64().unwrap()) {
                        Ok(run) => {
                            assert_eq!(run.start, id(&step[2][0]), "{at}");
                            assert_eq!(run.len, step[2][1].as_u64().unwrap(), "{at}");
                        }
                        Err(e) => assert_eq!(Some(e.code()), step[2].as_str(), "{at}"),
                    }
                    assert_eq!(s.buffered(), step[3].as_u64().unwrap(), "{at}");
                    assert_eq!(s.block_size(), step[4].as_u64().unwrap(), "{at}");
                }
                op => panic!("unknown step {op}"),
            }
        }
    }
}

#[test]
fn validity_vectors() {
    for (name, v) in load("valid.json") {
        let rules = Validation {
            kind: kind_of(&v),
            lenient: false,
            preset: opt_str(&v, "preset").map(|p| Preset::from_name(p).unwrap()),
            uuid_version: v["version"].as_u64().map(|n| n as u8),
        };
        let input = str(&v, "input");
        let strict = v["strict"].as_bool().unwrap();
        let lenient = v["lenient"].as_bool().unwrap();
        assert_eq!(rules.accepts(input), strict, "{name}: strict");
        let rules = Validation {
            lenient: true,
            ..rules
        };
        assert_eq!(rules.accepts(input), lenient, "{name}: lenient");
    }
}
