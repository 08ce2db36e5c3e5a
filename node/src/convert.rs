//! Validation, bytes and the UUIDs built from given bits (v3, v5, v8, v1 <-> v6):
//! conversion only, one core call each.

use napi::Either;
use napi::bindgen_prelude::{BigInt, Uint8Array, Uint8ArraySlice};
use napi_derive::napi;
use snowmint::bytes::ByteOrder;
use snowmint::snowflake::Preset;
use snowmint::uuid::Uuid;
use snowmint::validate::Validation;
use snowmint::{Id, Kind};

use crate::{Result, core_err, kind_arg};

fn order(guid: bool) -> ByteOrder {
    if guid {
        ByteOrder::Guid
    } else {
        ByteOrder::BigEndian
    }
}

fn uuid_arg(text: &str) -> Result<Uuid> {
    Uuid::parse(text).map_err(core_err)
}

fn canonical(u: Uuid) -> String {
    u.to_text().to_string()
}

#[napi(catch_unwind)]
pub fn is_valid(
    text: String,
    kind: Option<String>,
    lenient: bool,
    preset: Option<String>,
    version: Option<u32>,
) -> Result<bool> {
    let preset = preset.map(|p| Preset::from_name(&p)).transpose();
    let rules = Validation {
        kind: kind_arg(kind)?,
        lenient,
        preset: preset.map_err(core_err)?,
        // api.js checks that a version is 0 to 15.
        uuid_version: version.map(|v| v as u8),
    };
    Ok(rules.accepts(&text))
}

#[napi(catch_unwind)]
pub fn to_bytes(text: String, kind: Option<String>, guid: bool) -> Result<Uint8Array> {
    let id = Id::parse(&text, kind_arg(kind)?).map_err(core_err)?;
    let bytes = id.to_bytes(order(guid)).map_err(core_err)?;
    Ok(Uint8Array::new(bytes.to_vec()))
}

#[napi(catch_unwind)]
pub fn from_bytes(
    bytes: Uint8ArraySlice<'_>,
    kind: String,
    guid: bool,
    prefix: String,
) -> Result<Either<BigInt, String>> {
    let kind = Kind::from_name(&kind).map_err(core_err)?;
    Ok(
        match Id::from_bytes(&bytes, kind, order(guid), &prefix).map_err(core_err)? {
            Id::Snowflake(v) => Either::A(BigInt::from(v)),
            id => Either::B(id.to_text().to_string()),
        },
    )
}

#[napi(catch_unwind)]
pub fn uuidv3(name: Uint8ArraySlice<'_>, namespace: String) -> Result<String> {
    Ok(canonical(Uuid::v3(uuid_arg(&namespace)?, &name)))
}

#[napi(catch_unwind)]
pub fn uuidv5(name: Uint8ArraySlice<'_>, namespace: String) -> Result<String> {
    Ok(canonical(Uuid::v5(uuid_arg(&namespace)?, &name)))
}

#[napi(catch_unwind)]
pub fn uuidv8(bytes: Uint8ArraySlice<'_>) -> Result<String> {
    Ok(canonical(Uuid::v8_from_slice(&bytes).map_err(core_err)?))
}

#[napi(catch_unwind, js_name = "uuidv1ToV6")]
pub fn uuidv1_to_v6(text: String) -> Result<String> {
    Ok(canonical(uuid_arg(&text)?.v1_to_v6().map_err(core_err)?))
}

#[napi(catch_unwind, js_name = "uuidv6ToV1")]
pub fn uuidv6_to_v1(text: String) -> Result<String> {
    Ok(canonical(uuid_arg(&text)?.v6_to_v1().map_err(core_err)?))
}
