//! What the bindings hand to JavaScript as is: the names and defaults of the
//! options, the ID kinds and their text widths, and the run sizes of the JS
//! layer's buffering, as one JSON text ([`constants_json`]). Every JS file
//! (the API, the wasm adapter, the CLI, the inspector) reads them from
//! there, so a name or a default exists once.

use std::string::String;

use crate::clock::ClockChoice;
use crate::error::Kind;
use crate::per_thread::TextKind;
use crate::snowflake::{FieldOrder, OnBackwards, OnExhausted, Preset};

/// Smallest run (IDs or texts) a JS thread claims in one call; runs double
/// while they are used up in time and halve when most of one expires.
pub const MIN_RUN: u32 = 16;
/// Largest Snowflake run (one Twitter tick).
pub const MAX_ID_RUN: u32 = 4096;
/// Largest text batch: a kept string slice keeps its batch's text alive.
pub const MAX_TEXT_RUN: u32 = 256;

/// The constants as JSON:
/// `{"presets":[..],"orders":[..],"clocks":[..],"onBackwards":[..],
/// "onExhausted":[..],"kinds":[..],"textKinds":{"ulid":26,..},
/// "maxBackwardsMs":1000,"maxBorrowTicks":16,"minRun":16,"maxIdRun":4096,
/// "maxTextRun":256}` (names in the order of the bindings' index encoding,
/// the default first).
pub fn constants_json() -> String {
    let mut out = String::from("{");
    let list = |out: &mut String, key: &str, names: &[&str]| {
        out.push_str(&["\"", key, "\":["].concat());
        for (i, n) in names.iter().enumerate() {
            out.push_str(&[if i == 0 { "\"" } else { ",\"" }, n, "\""].concat());
        }
        out.push_str("],");
    };
    list(&mut out, "presets", &Preset::NAMES);
    list(&mut out, "orders", &FieldOrder::NAMES);
    list(&mut out, "clocks", &ClockChoice::<()>::NAMES);
    list(&mut out, "onBackwards", &OnBackwards::NAMES);
    list(&mut out, "onExhausted", &OnExhausted::NAMES);
    list(&mut out, "kinds", &Kind::NAMES);
    out.push_str("\"textKinds\":{");
    for (i, k) in TextKind::ALL.iter().enumerate() {
        let width = crate::IdText::<20>::decimal(k.width() as u64);
        let sep = if i == 0 { "\"" } else { ",\"" };
        out.push_str(&[sep, TextKind::NAMES[i], "\":", &width].concat());
    }
    out.push('}');
    let numbers = [
        ("maxBackwardsMs", OnBackwards::DEFAULT_MAX_MS),
        ("maxBorrowTicks", OnExhausted::DEFAULT_MAX_TICKS.into()),
        ("minRun", MIN_RUN.into()),
        ("maxIdRun", MAX_ID_RUN.into()),
        ("maxTextRun", MAX_TEXT_RUN.into()),
    ];
    for (key, n) in numbers {
        out.push_str(&[",\"", key, "\":", &crate::IdText::<20>::decimal(n)].concat());
    }
    out.push('}');
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
            (v["maxBackwardsMs"].as_u64(), v["maxIdRun"].as_u64()),
            (Some(1000), Some(4096))
        );
    }
}
