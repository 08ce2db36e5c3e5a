//! Validation, bytes and the UUIDs built from given bits (v8, v1 <-> v6):
//! conversion only, one core call each, like `node/src/convert.rs`. The
//! name-based UUIDs (v3, v5) are modules of their own (`wasm/mint/`).

use snowmint::bytes::ByteOrder;
use snowmint::snowflake::Preset;
use snowmint::uuid::Uuid;
use snowmint::validate::Validation;
use snowmint::{Error, Id, Kind};
use wasm_bindgen::prelude::*;

use crate::core_error;

fn order(guid: bool) -> ByteOrder {
    if guid {
        ByteOrder::Guid
    } else {
        ByteOrder::BigEndian
    }
}

fn kind_arg(kind: Option<String>) -> Result<Option<Kind>, JsValue> {
    kind.as_deref()
        .map(Kind::from_name)
        .transpose()
        .map_err(core_error)
}

/// A UUID's canonical text, or the core's error as a JS error.
fn uuid_text(u: Result<Uuid, Error>) -> Result<String, JsValue> {
    u.map(|u| u.to_text().as_str().to_owned())
        .map_err(core_error)
}

fn uuid_arg(text: &str) -> Result<Uuid, Error> {
    Ok(Uuid::parse(text)?)
}

/// Whether `text` is a valid ID under the rules (never throws for the text).
#[wasm_bindgen(js_name = isValid)]
pub fn is_valid(
    text: &str,
    kind: Option<String>,
    lenient: bool,
    preset: Option<String>,
    version: Option<u8>,
) -> Result<bool, JsValue> {
    let preset = preset.as_deref().map(Preset::from_name).transpose();
    let rules = Validation {
        kind: kind_arg(kind)?,
        lenient,
        preset: preset.map_err(core_error)?,
        uuid_version: version,
    };
    Ok(rules.accepts(text))
}

/// An ID's bytes.
#[wasm_bindgen(js_name = toBytes)]
pub fn to_bytes(text: &str, kind: Option<String>, guid: bool) -> Result<Vec<u8>, JsValue> {
    let id = Id::parse(text, kind_arg(kind)?).map_err(core_error)?;
    let bytes = id.to_bytes(order(guid)).map_err(core_error)?;
    Ok(bytes.to_vec())
}

/// The ID of `kind` with these bytes: a Snowflake as `bigint`, else its text.
#[wasm_bindgen(js_name = fromBytes)]
pub fn from_bytes(bytes: &[u8], kind: &str, guid: bool, prefix: &str) -> Result<JsValue, JsValue> {
    let kind = Kind::from_name(kind).map_err(core_error)?;
    Ok(
        match Id::from_bytes(bytes, kind, order(guid), prefix).map_err(core_error)? {
            Id::Snowflake(v) => v.into(),
            id => id.to_text().as_str().into(),
        },
    )
}

#[wasm_bindgen]
pub fn uuidv8(bytes: &[u8]) -> Result<String, JsValue> {
    uuid_text(Uuid::v8_from_slice(bytes))
}

#[wasm_bindgen(js_name = uuidv1ToV6)]
pub fn uuidv1_to_v6(text: &str) -> Result<String, JsValue> {
    uuid_text(uuid_arg(text).and_then(|u| u.v1_to_v6()))
}

#[wasm_bindgen(js_name = uuidv6ToV1)]
pub fn uuidv6_to_v1(text: &str) -> Result<String, JsValue> {
    uuid_text(uuid_arg(text).and_then(|u| u.v6_to_v1()))
}
