//! What the bindings hand to JavaScript as is: the names and defaults of the
//! options, the ID kinds and their text widths, and the run sizes of the JS
//! layer's buffering, as one JSON text ([`constants_json`]). Every JS file
//! (the API, the wasm adapter, the CLI, the inspector) reads them from
//! there, so a name or a default exists once.

use std::string::String;
use std::vec::Vec;

use crate::IdText;
use crate::at::TimedKind;
use crate::clock::{ClockChoice, FOLLOW_CHECK_MS, FOLLOW_MAX_JUMP_MS};
use crate::error::Kind;
use crate::per_thread::TextKind;
use crate::snowflake::{FieldOrder, OnBackwards, OnExhausted, Preset};
use crate::uuid::Uuid;

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

/// The constants as JSON:
/// `{"presets":[..],"orders":[..],"clocks":[..],"onBackwards":[..],
/// "onExhausted":[..],"kinds":[..],"timedKinds":[..],"workerParts":[..],
/// "uuidNil":"0000..","uuidMax":"ffff..","textKinds":{"ulid":26,..},
/// "namespaces":{"DNS":"6ba7b810-9dad-11d1-80b4-00c04fd430c8",..},
/// "maxBackwardsMs":1000,"clockCheckMs":100,"clockMaxJumpMs":3600000,"maxBorrowTicks":16,"minRun":16,"maxIdRun":4096,
/// "maxTextRun":1024}` (names in the order of the bindings' index encoding,
/// the default first).
pub fn constants_json() -> String {
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
    let lists: [(&str, &[&str]); 8] = [
        ("presets", &Preset::NAMES),
        ("orders", &FieldOrder::NAMES),
        ("clocks", &ClockChoice::<()>::NAMES),
        ("onBackwards", &OnBackwards::NAMES),
        ("onExhausted", &OnExhausted::NAMES),
        ("kinds", &Kind::NAMES),
        ("timedKinds", &TimedKind::NAMES),
        ("workerParts", &parts),
    ];
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
}
