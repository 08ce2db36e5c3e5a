//! `decodeId`, `toHuman`, `fromHuman`: parsed IDs as the plain records of
//! `RawDecoded` in backend.d.ts (every field set, `undefined` where the
//! kind has none).

use js_sys::Object;
use snowmint::Kind;
use snowmint::id::Id;
use wasm_bindgen::prelude::*;

use crate::{core_error, js_error, set};

/// `decodeId`: parses any ID; `kind` forces a kind (`'human'` included).
/// (Not `decodeText`: wasm-bindgen's glue has a function of that name.)
#[wasm_bindgen(js_name = decodeId, unchecked_return_type = "RawDecoded")]
pub fn decode_id(text: &str, kind: Option<String>) -> Result<Object, JsValue> {
    let kind = kind.as_deref().map(Kind::from_name).transpose();
    let kind = kind.map_err(core_error)?;
    let id = Id::parse(text, kind).map_err(core_error)?;
    let f = id.fields();
    let text = |t: Option<&str>| t.map(JsValue::from_str);
    let r = Object::new();
    set(&r, "kind", id.kind().name());
    set(&r, "value", f.snowflake);
    set(&r, "timestamp", f.timestamp_ms.map(|ms| ms as f64));
    set(&r, "hex", text(f.hex.as_deref()));
    set(&r, "uuid", text(f.uuid.map(|u| u.to_text()).as_deref()));
    set(&r, "version", f.version);
    set(&r, "variant", text(f.variant.map(|v| v.name())));
    set(&r, "clockSeq", f.clock_seq);
    set(&r, "node", text(f.node.as_deref()));
    set(&r, "counter", f.counter);
    set(&r, "prefix", text(f.prefix));
    Ok(r)
}

/// The human form of an ID's text (a decimal Snowflake or a 128-bit ID).
#[wasm_bindgen(js_name = toHuman)]
pub fn to_human(text: &str, groups: Option<f64>) -> Result<String, JsValue> {
    let groups = groups
        .map(snowmint::binding::human_groups)
        .transpose()
        .map_err(core_error)?;
    let id = Id::parse(text, None).map_err(core_error)?;
    let human = id.to_human(groups).map_err(core_error)?;
    Ok(human.as_str().to_owned())
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
