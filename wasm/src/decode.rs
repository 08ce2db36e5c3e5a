//! `decodeText`, `toHuman`, `fromHuman`: parsed IDs as the plain records of
//! `RawDecoded` in backend.d.ts.

use js_sys::Object;
use snowmint::base32;
use snowmint::id::Id;
use snowmint::{IdText, Kind};
use wasm_bindgen::prelude::*;

use crate::{core_error, invalid_option, js_error, set};

/// `decodeText`: parses any ID; `kind` forces a kind (`'human'` included).
/// Exported as `decodeId`: wasm-bindgen's glue has a `decodeText` of its own.
#[wasm_bindgen(js_name = decodeId)]
pub fn decode_text(text: &str, kind: Option<String>) -> Result<Object, JsValue> {
    let kind = match kind.as_deref() {
        None => None,
        Some(name) => Some(Kind::from_name(name).ok_or_else(|| invalid_option("kind", name))?),
    };
    let id = Id::parse(text, kind).map_err(core_error)?;
    let r = Object::new();
    set(&r, "kind", id.kind().name());
    match id {
        Id::Snowflake(v) => set(&r, "value", v),
        Id::Ulid(u) => {
            set(&r, "timestamp", u.timestamp_ms() as f64);
            set(&r, "hex", IdText::<20>::hex(u.random()).as_str());
            set(&r, "uuid", u.to_uuid().to_text().as_str());
        }
        Id::Uuid(u) => {
            set(&r, "uuid", u.to_text().as_str());
            set(&r, "version", u.version());
            set(&r, "variant", u.variant().name());
            set(&r, "timestamp", u.timestamp_ms().map(|ms| ms as f64));
            set(&r, "clockSeq", u.clock_seq());
            set(
                &r,
                "node",
                u.node()
                    .map(|n| IdText::<12>::hex(n.into()).as_str().to_owned()),
            );
        }
        Id::Ksuid(k) => {
            set(&r, "timestamp", k.timestamp_ms() as f64);
            let payload = u128::from_be_bytes(k.payload());
            set(&r, "hex", IdText::<32>::hex(payload).as_str());
        }
        Id::ObjectId(o) => {
            set(&r, "timestamp", o.timestamp_ms() as f64);
            let random = o.0[4..9].iter().fold(0u128, |v, &b| v << 8 | b as u128);
            set(&r, "hex", IdText::<10>::hex(random).as_str());
            set(&r, "counter", o.counter());
        }
        Id::TypeId(t) => {
            set(&r, "prefix", t.prefix());
            set(&r, "uuid", t.uuid().to_text().as_str());
            set(&r, "timestamp", t.uuid().timestamp_ms().map(|ms| ms as f64));
        }
    }
    Ok(r)
}

/// The human form of an ID's text (a decimal Snowflake or a 128-bit ID).
#[wasm_bindgen(js_name = toHuman)]
pub fn to_human(text: &str, groups: Option<u32>) -> Result<String, JsValue> {
    let (value, digits) = match Id::parse(text, None).map_err(core_error)? {
        Id::Snowflake(v) => (v.into(), 13),
        Id::Ulid(u) => (u.0, 26),
        Id::Uuid(u) => (u.0, 26),
        Id::TypeId(t) => (t.uuid().0, 26),
        other => {
            return Err(js_error(
                "ERR_INVALID_ARG_VALUE",
                &[
                    "the human form is defined for Snowflakes and 128-bit IDs (ULID, UUID, TypeID), not for a ",
                    other.kind().name(),
                ]
                .concat(),
            ));
        }
    };
    let groups = groups.map(|g| g as usize);
    Ok(base32::to_human(value, digits, groups).as_str().to_owned())
}

/// Reads the human form back: a Snowflake as `bigint`, a 128-bit ID as ULID text.
#[wasm_bindgen(js_name = fromHuman)]
pub fn from_human(text: &str) -> Result<JsValue, JsValue> {
    match Id::parse(text, Some(Kind::Human)).map_err(core_error)? {
        Id::Snowflake(v) => Ok(v.into()),
        Id::Ulid(u) => Ok(u.to_text().as_str().into()),
        other => Err(js_error(
            "ERR_INTERNAL",
            &["the human form read back as a ", other.kind().name()].concat(),
        )),
    }
}
