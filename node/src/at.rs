//! IDs at a given time, range bounds and comparison (core `at`,
//! `Id::compare`): `textAt`, `snowflakeAt`, `parseSnowflake`, `compareIds`.

use napi::bindgen_prelude::BigInt;
use napi_derive::napi;
use snowmint::Id;
use snowmint::at::{Pick, TimedKind, new_text_at};

use crate::snowflake::{SnowflakeSpec, spec_of};
use crate::{Result, core_err};

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
#[napi(catch_unwind)]
pub fn text_at(
    kind: String,
    ms: f64,
    bound: Option<bool>,
    prefix: Option<String>,
) -> Result<String> {
    let kind = TimedKind::from_name(&kind).map_err(core_err)?;
    let text = new_text_at(
        kind,
        ms as u64,
        pick(bound),
        prefix.as_deref().unwrap_or(""),
    );
    Ok(text.map_err(core_err)?.to_string())
}

/// The Snowflake of a spec at Unix ms `ms` with `sequence`, or the
/// smallest or largest of the tick.
#[napi(catch_unwind)]
pub fn snowflake_at(
    spec: SnowflakeSpec,
    ms: f64,
    bound: Option<bool>,
    sequence: f64,
) -> Result<BigInt> {
    let id = spec_of(&spec).and_then(|s| s.id_at(ms as u64, pick(bound), sequence as u64));
    Ok(BigInt::from(id.map_err(core_err)?))
}

/// A decimal Snowflake that fits a layout `bits` (63 or 64) wide.
#[napi(catch_unwind)]
pub fn parse_snowflake(text: String, bits: u32) -> Result<BigInt> {
    let value = snowmint::snowflake::parse_decimal_of_width(&text, bits.min(64) as u8);
    Ok(BigInt::from(value.map_err(core_err)?))
}

/// -1, 0 or 1: how ID text `a` sorts against `b` (same kind).
#[napi(catch_unwind)]
pub fn compare_ids(a: String, b: String) -> Result<i32> {
    Ok(Id::compare_texts(&a, &b).map_err(core_err)?.into())
}
