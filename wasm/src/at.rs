//! IDs at a given time, range bounds and comparison (core `at`,
//! `Id::compare`): `textAt`, `snowflakeAt`, `parseSnowflake`, `compareIds`.

use snowmint::at::{Pick, TimedKind, new_text_at};
use snowmint::id::Id;
use snowmint::snowflake::parse_decimal_of_width;
use wasm_bindgen::prelude::*;

use crate::core_error;
use crate::snowflake::spec_of;

/// A JS `bound` (`undefined`: an ID of the time; false: the smallest; true: the largest).
fn pick(bound: Option<bool>) -> Pick {
    match bound {
        None => Pick::Any,
        Some(false) => Pick::Min,
        Some(true) => Pick::Max,
    }
}

/// An ID of a timed kind at Unix ms `ms` (fresh random bits), or the
/// smallest or largest of that time; `prefix` for a TypeID.
#[wasm_bindgen(js_name = textAt)]
pub fn text_at(kind: &str, ms: f64, bound: Option<bool>, prefix: &str) -> Result<String, JsValue> {
    let kind = TimedKind::from_name(kind).map_err(core_error)?;
    let text = new_text_at(kind, ms as u64, pick(bound), prefix).map_err(core_error)?;
    Ok(text.as_str().to_owned())
}

/// The Snowflake of a spec at Unix ms `ms` with `sequence`, or the
/// smallest or largest of the tick.
#[wasm_bindgen(js_name = snowflakeAt)]
pub fn snowflake_at(
    spec: &[f64],
    ms: f64,
    bound: Option<bool>,
    sequence: f64,
) -> Result<u64, JsValue> {
    let spec = spec_of(spec)?;
    spec.id_at(ms as u64, pick(bound), sequence as u64)
        .map_err(core_error)
}

/// A decimal Snowflake that fits a layout `bits` (63 or 64) wide.
#[wasm_bindgen(js_name = parseSnowflake)]
pub fn parse_snowflake(text: &str, bits: u32) -> Result<u64, JsValue> {
    parse_decimal_of_width(text, bits.min(64) as u8).map_err(core_error)
}

/// -1, 0 or 1: how ID text `a` sorts against `b` (same kind).
#[wasm_bindgen(js_name = compareIds)]
pub fn compare_ids(a: &str, b: &str) -> Result<i32, JsValue> {
    Id::compare_texts(a, b).map(i32::from).map_err(core_error)
}
