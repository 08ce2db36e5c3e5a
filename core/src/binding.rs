//! What the bindings hand to JavaScript as is: the names and defaults of the
//! options, the ID kinds and their text widths, and the run sizes of the JS
//! layer's buffering, as one JSON text ([`constants_json`]). Every JS file
//! (the API, the wasm adapter, the CLI, the inspector) reads them from
//! there, so a name or a default exists once. And every error code with its
//! public JS class ([`ERROR_CODES`]), which `examples/protocol.rs` writes into
//! the JS error table and the TypeScript unions, so a code is added here once.

#[cfg(feature = "std")]
use std::{string::String, vec::Vec};

use crate::at::TimedKind;
use crate::clock::ClockChoice;
use crate::error::Kind;
use crate::snowflake::{FieldOrder, OnBackwards, OnExhausted, Preset};

mod slots;
pub use slots::{DecodedSlot, ErrorSlot, LayoutSlot, Report, SpecSlot, spec_of_numbers};

/// Smallest run (IDs or texts) a JS thread claims in one call; runs double
/// while they are used up in time and halve when most of one expires.
pub const MIN_RUN: u32 = 16;
/// Largest Snowflake run (one Twitter tick).
pub const MAX_ID_RUN: u32 = 4096;
/// Largest text batch: a kept string slice keeps its batch's text alive
/// (at most 36 KB), and runs grow to it only while used up in time. At 256,
/// Chromium's per-call costs (wasm call, clock reads, TextDecoder's fixed
/// cost per string) were a fifth of a ULID's time.
pub const MAX_TEXT_RUN: u32 = 1024;

/// Every error code a binding or the JS layer raises, with the public error
/// class (`npm/src/errors.js`) it belongs to, grouped by class. The core's
/// codes (`Error::code`), the lease crate's (`snowmint_lease::Code`) and the
/// JS layer's own; tests in each crate and in `tests/node/protocol.test.js`
/// check that none is missing.
pub const ERROR_CODES: &[(&str, &str)] = &[
    ("ERR_PARSE", "InvalidIdError"),
    ("ERR_WORKER_ID_RANGE", "ConfigError"),
    ("ERR_INVALID_LAYOUT", "ConfigError"),
    ("ERR_EPOCH_IN_FUTURE", "ConfigError"),
    ("ERR_INVALID_OPTION", "ConfigError"),
    ("ERR_NO_WORKER_ID", "ConfigError"),
    ("ERR_WORKER_ID_IN_USE", "ConfigError"),
    ("ERR_CLOCK_BACKWARDS", "ClockError"),
    ("ERR_CLOCK_WOULD_WAIT", "ClockError"),
    ("ERR_CLOCK_SKEW", "ClockError"),
    ("ERR_TIME_OVERFLOW", "ClockError"),
    ("ERR_TIME_BEFORE_EPOCH", "ClockError"),
    ("ERR_INVALID_ARG_TYPE", "ArgumentError"),
    ("ERR_INVALID_ARG_VALUE", "ArgumentError"),
    ("ERR_INVALID_COUNT", "ArgumentError"),
    ("ERR_LEASE_LOST", "LeaseError"),
    ("ERR_LEASE_UNAVAILABLE", "LeaseError"),
    ("ERR_LEASE_EXPIRED", "LeaseError"),
    ("ERR_LEASE_RELEASED", "LeaseError"),
    ("ERR_LEASE_IN_USE", "LeaseError"),
    ("ERR_LEASE_TIMEOUT", "LeaseError"),
    ("ERR_LEASE_IO", "LeaseError"),
    ("ERR_LEASE_DIR_UNSAFE", "LeaseError"),
    ("ERR_SEQUENCE_OPTION", "SequenceError"),
    ("ERR_SEQUENCE_NAME", "SequenceError"),
    ("ERR_SEQUENCE_STORE", "SequenceError"),
    ("ERR_SEQUENCE_OVERFLOW", "SequenceError"),
    ("ERR_SEQUENCE_BACKWARDS", "SequenceError"),
    ("ERR_SEQUENCE_EMPTY", "SequenceError"),
    ("ERR_SEQUENCE_UNAVAILABLE", "SequenceError"),
    ("ERR_SEQUENCE_CLOSED", "SequenceError"),
    ("ERR_UNSUPPORTED_NODE", "SnowmintError"),
    ("ERR_NO_NATIVE_BINARY", "SnowmintError"),
    ("ERR_INTERNAL", "SnowmintError"),
];

/// The public error classes, base class first, in the order of
/// `npm/src/errors.js`.
pub const ERROR_CLASSES: [&str; 7] = [
    "SnowmintError",
    "InvalidIdError",
    "ConfigError",
    "ClockError",
    "ArgumentError",
    "LeaseError",
    "SequenceError",
];

/// The `groups` of a short human form as a binding receives it (a JS
/// number): a whole number is passed on for [`crate::Id::to_human`] to
/// judge; anything else (1.5, -1, NaN) is refused as it would refuse 0.
pub fn human_groups(groups: f64) -> Result<usize, crate::Error> {
    // `as` saturates (NaN to 0): only a whole number survives the round trip.
    let whole = groups.min(usize::MAX as f64) as usize;
    if groups >= 0.0 && (whole as f64 == groups || groups >= usize::MAX as f64) {
        Ok(whole)
    } else {
        Err(crate::Error::HumanGroups)
    }
}

/// The core's name lists, by the key [`constants_json`] gives each (and
/// [`name_index`] takes), with what a name of it names, in the words of
/// the core's `from_name` functions.
pub const NAME_LISTS: [(&str, &str, &[&str]); 7] = [
    ("presets", "preset", &Preset::NAMES),
    ("orders", "layout order", &FieldOrder::NAMES),
    ("clocks", "clock", &ClockChoice::<()>::NAMES),
    ("onBackwards", "onBackwards policy", &OnBackwards::NAMES),
    ("onExhausted", "onExhausted policy", &OnExhausted::NAMES),
    ("kinds", "kind", &Kind::NAMES),
    ("timedKinds", "kind", &TimedKind::NAMES),
];

/// The index of `name` in the name list `list` (a key of [`NAME_LISTS`]):
/// the one check of a name a binding was given, so that JavaScript, which
/// passes names as these indexes, refuses an unknown one in the core's words.
pub fn name_index(list: &str, name: &str) -> Result<u32, crate::Error> {
    let (_, what, names) =
        NAME_LISTS
            .iter()
            .find(|(key, _, _)| *key == list)
            .ok_or(crate::Error::UnknownName {
                what: "name list",
                given: Some(crate::error::GivenName::new(list)),
                allowed: &NAME_LIST_KEYS,
            })?;
    let i = names.iter().position(|n| *n == name);
    i.map(|i| i as u32).ok_or(crate::Error::UnknownName {
        what,
        given: Some(crate::error::GivenName::new(name)),
        allowed: names,
    })
}

/// The keys of [`NAME_LISTS`], for the message of an unknown one.
pub(crate) const NAME_LIST_KEYS: [&str; NAME_LISTS.len()] = {
    let mut keys = [""; NAME_LISTS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = NAME_LISTS[i].0;
        i += 1;
    }
    keys
};

/// The constants as JSON:
/// `{"presets":[..],"orders":[..],"clocks":[..],"onBackwards":[..],
/// "onExhausted":[..],"kinds":[..],"timedKinds":[..],"workerParts":[..],
/// "uuidNil":"0000..","uuidMax":"ffff..","textKinds":{"ulid":26,..},
/// "namespaces":{"DNS":"6ba7b810-9dad-11d1-80b4-00c04fd430c8",..},
/// "maxBackwardsMs":1000,"clockCheckMs":100,"clockMaxJumpMs":3600000,"maxBorrowTicks":16,"minRun":16,"maxIdRun":4096,
/// "maxTextRun":1024}` (names in the order of the bindings' index encoding,
/// the default first).
#[cfg(feature = "std")]
pub fn constants_json() -> String {
    use crate::IdText;
    use crate::clock::{FOLLOW_CHECK_MS, FOLLOW_MAX_JUMP_MS};
    use crate::texts::TextKind;
    use crate::uuid::Uuid;
    let mut out = String::from("{");
    let mut put = |pieces: &[&str]| pieces.iter().for_each(|p| out.push_str(p));
    // The option names of the presets' named worker parts (Twitter's
    // datacenter and worker, Discord's worker and process), each once.
    let mut parts: Vec<&str> = Vec::new();
    for split in Preset::ALL.iter().filter_map(|p| p.layout().split()) {
        for name in [split.high, split.low] {
            if !parts.contains(&name) {
                parts.push(name);
            }
        }
    }
    let lists = NAME_LISTS
        .iter()
        .map(|(key, _, names)| (*key, *names))
        .chain([("workerParts", &parts[..])]);
    for (key, names) in lists {
        put(&["\"", key, "\":["]);
        for (i, name) in names.iter().enumerate() {
            put(&[if i == 0 { "\"" } else { ",\"" }, name, "\""]);
        }
        put(&["],"]);
    }
    for (key, uuid) in [("uuidNil", Uuid::NIL), ("uuidMax", Uuid::MAX)] {
        put(&["\"", key, "\":\"", &uuid.to_text(), "\","]);
    }
    put(&["\"textKinds\":{"]);
    for (i, kind) in TextKind::ALL.iter().enumerate() {
        let width = IdText::<20>::decimal(kind.width() as u64);
        put(&[
            if i == 0 { "\"" } else { ",\"" },
            TextKind::NAMES[i],
            "\":",
            &width,
        ]);
    }
    put(&["}"]);
    put(&[",\"namespaces\":{"]);
    for (i, (name, uuid)) in crate::uuid::Uuid::NAMESPACES.iter().enumerate() {
        put(&[
            if i == 0 { "\"" } else { ",\"" },
            name,
            "\":\"",
            &uuid.to_text(),
            "\"",
        ]);
    }
    put(&["}"]);
    let numbers = [
        ("maxBackwardsMs", OnBackwards::DEFAULT_MAX_MS),
        ("clockCheckMs", FOLLOW_CHECK_MS),
        ("clockMaxJumpMs", FOLLOW_MAX_JUMP_MS),
        ("maxBorrowTicks", OnExhausted::DEFAULT_MAX_TICKS.into()),
        ("minRun", MIN_RUN.into()),
        ("maxIdRun", MAX_ID_RUN.into()),
        ("maxTextRun", MAX_TEXT_RUN.into()),
    ];
    for (key, n) in numbers {
        put(&[",\"", key, "\":", &IdText::<20>::decimal(n)]);
    }
    put(&["}"]);
    out
}

#[cfg(test)]
mod tests {
    use super::{ERROR_CLASSES, ERROR_CODES};

    #[test]
    fn slot_names_follow_their_indexes() {
        use super::{LayoutSlot, Report, SpecSlot};
        let spec = [
            (SpecSlot::WORKER_ID, "workerId"),
            (SpecSlot::PRESET, "preset"),
            (SpecSlot::HAS_LAYOUT, "hasLayout"),
            (SpecSlot::ORDER, "order"),
            (SpecSlot::EPOCH, "epoch"),
            (SpecSlot::CLOCK, "clock"),
            (SpecSlot::MAX_BORROW_TICKS, "maxBorrowTicks"),
            (SpecSlot::RESUME_AFTER_MS, "resumeAfterMs"),
            (SpecSlot::WORKER_LOW, "workerLow"),
        ];
        for (slot, name) in spec {
            assert_eq!(SpecSlot::NAMES[slot], name);
        }
        assert_eq!(Report::NAMES[Report::HIGH_WATER_MS], "highWaterMs");
        assert_eq!(Report::NAMES[Report::EXPIRY_WORD_SET], "expiryWordSet");
        assert_eq!(LayoutSlot::NAMES[LayoutSlot::EPOCH_MS], "epochMs");
        assert_eq!(LayoutSlot::NAMES[LayoutSlot::LOW_LENGTH], "lowLength");
        // The Discord preset with named worker parts, a lease's start, no custom layout.
        let mut numbers = [0.0; SpecSlot::LEN];
        numbers[SpecSlot::PRESET] = 1.0;
        numbers[SpecSlot::EPOCH] = f64::NAN;
        numbers[SpecSlot::RESUME_AFTER_MS] = 1_700_000_000_000.0;
        numbers[SpecSlot::WORKER_HIGH] = 3.0;
        numbers[SpecSlot::WORKER_LOW] = 7.0;
        let spec = super::spec_of_numbers(&numbers).unwrap();
        assert_eq!(spec.preset, crate::snowflake::Preset::Discord);
        assert_eq!(spec.worker_parts, Some((3, 7)));
        assert_eq!(spec.resume_after_ms, Some(1_700_000_000_000));
        assert_eq!((spec.epoch_ms, spec.custom.is_none()), (None, true));
        numbers[SpecSlot::PRESET] = 99.0;
        assert!(super::spec_of_numbers(&numbers).is_err(), "no preset 99");
    }

    #[test]
    fn every_code_of_the_core_has_one_class() {
        // Every code `Error::code` can return, read from its source.
        let source = include_str!("error.rs");
        let codes = source
            .split('"')
            .filter(|s| s.starts_with("ERR_") && !s.contains(' '));
        for code in codes {
            assert!(
                ERROR_CODES.iter().any(|(c, _)| *c == code),
                "{code} is missing from ERROR_CODES"
            );
        }
        for (i, (code, class)) in ERROR_CODES.iter().enumerate() {
            assert!(
                ERROR_CLASSES.contains(class),
                "{code}: unknown class {class}"
            );
            assert!(
                ERROR_CODES[..i].iter().all(|(c, _)| c != code),
                "{code} twice"
            );
        }
    }

    #[test]
    fn constants_are_json_with_every_name() {
        let v: serde_json::Value = serde_json::from_str(&super::constants_json()).unwrap();
        assert_eq!(v["presets"][0], "twitter");
        assert_eq!(v["orders"][1], "sequence-worker");
        assert_eq!(v["clocks"].as_array().unwrap().len(), 3);
        assert_eq!(v["onBackwards"][1], "keep");
        assert_eq!(v["textKinds"]["ksuid"], 27);
        assert_eq!(v["kinds"][6], "human");
        assert_eq!(
            v["namespaces"]["URL"],
            "6ba7b811-9dad-11d1-80b4-00c04fd430c8"
        );
        assert_eq!(
            v["workerParts"],
            serde_json::json!(["datacenter", "worker", "process"])
        );
        assert_eq!(v["timedKinds"][6], "typeid");
        assert_eq!(v["uuidMax"], "ffffffff-ffff-ffff-ffff-ffffffffffff");
        assert_eq!(
            (v["maxBackwardsMs"].as_u64(), v["maxIdRun"].as_u64()),
            (Some(1000), Some(4096))
        );
        assert_eq!(
            (v["clockCheckMs"].as_u64(), v["clockMaxJumpMs"].as_u64()),
            (Some(100), Some(3_600_000))
        );
    }

    #[test]
    fn name_index_is_the_one_check_of_a_name() {
        use super::name_index;
        use std::format;
        use std::string::ToString;
        assert_eq!(name_index("presets", "discord"), Ok(1));
        assert_eq!(name_index("orders", "sequence-worker"), Ok(1));
        let e = name_index("presets", "Twitter").unwrap_err();
        assert_eq!(e.code(), "ERR_INVALID_OPTION");
        assert_eq!(
            e.to_string(),
            "unknown preset 'Twitter': expected one of 'twitter', 'discord', 'instagram', 'sonyflake', 'mastodon'"
        );
        // A long name is cut at a character boundary, and says so.
        let long = "é".repeat(30);
        let e = name_index("kinds", &long).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("unknown kind '{}...':", "é".repeat(20))),
            "{e}"
        );
        let e = name_index("colours", "red").unwrap_err().to_string();
        assert!(
            e.starts_with("unknown name list 'colours': expected one of 'presets', 'orders'"),
            "{e}"
        );
    }
}
