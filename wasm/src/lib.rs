//! wasm-bindgen binding of snowmint for browsers and edge runtimes: it
//! implements the backend interface of `npm/src/backend.d.ts` (the same one
//! the napi-rs binding implements) and only converts between JS values and
//! core calls, like `node/`. Its texts (ULID, UUIDs, KSUID, ObjectId) are
//! minted by the minting modules of `wasm/mint/`, its TypeIDs by the TypeID
//! module and its Snowflake generators and test clocks by the Snowflake
//! module there, and its name-based UUIDs by the v3 and v5 modules, which
//! `npm/src/wasm-backend.js` puts beside it. What is left is parsing,
//! decoding, layouts and conversions; randomness
//! is the core's `PooledOsRng`, `crypto.getRandomValues` fetched 4 KiB at a
//! time.
//! The build is budgeted in bytes (docs/browser.md, Size): nothing here uses
//! `format!`.

mod at;
mod convert;
mod decode;
mod snowflake;

// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

use js_sys::{Object, Reflect};
use snowmint::Error;
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;
use wasm_bindgen::prelude::*;

// The records the functions above return as plain objects, by their types in
// the one contract both bindings are checked against (npm/build/check-backends.mjs).
#[wasm_bindgen(typescript_custom_section)]
const RECORD_TYPES: &str = "import type { LayoutInfo, RawDecoded } from '../src/backend.js';";

/// A JS `Error` with the stable `code` api.js maps to a public class.
fn js_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    set(&err, "code", code);
    err.into()
}

/// A core error as its numbers and texts (`Error::numbers`), thrown as the
/// array `[index, a, b, s, t]` (`a`, `b` as bigint), which
/// `npm/src/wasm-backend.js` words by templates of the core's own messages
/// (`npm/src/wasm-words.js`): so this module carries no message and no
/// error `Display` (the `core::fmt` left is std's panic messages). Every
/// error this build can return has a number (the core's tests check it);
/// the sequence errors, left out of it, would come out as `ERR_INTERNAL`.
fn core_error(e: impl Into<Error>) -> JsValue {
    let e = e.into();
    let Some(n) = e.numbers() else {
        return js_error("ERR_INTERNAL", "an error of no number");
    };
    let [a, b] = n.numbers;
    let [s, t] = n.texts;
    let items: [JsValue; 5] = [n.index.into(), a.into(), b.into(), s.into(), t.into()];
    items.iter().collect::<js_sys::Array>().into()
}

/// Sets a property on a plain object (the objects are fresh, so it cannot fail).
fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

/// The index of `name` in the core's name list `list`, or the core's refusal.
#[wasm_bindgen(js_name = nameIndex)]
pub fn name_index(list: &str, name: &str) -> Result<u32, JsValue> {
    snowmint::binding::name_index(list, name).map_err(core_error)
}

/// The same 128 bits as a hyphenated UUID.
#[wasm_bindgen(js_name = ulidToUuid)]
pub fn ulid_to_uuid(text: &str) -> Result<String, JsValue> {
    Ulid::parse(text)
        .map(|u| u.to_uuid().to_text().as_str().to_owned())
        .map_err(core_error)
}

/// The same 128 bits as a ULID.
#[wasm_bindgen(js_name = uuidToUlid)]
pub fn uuid_to_ulid(text: &str) -> Result<String, JsValue> {
    Uuid::parse(text)
        .map(|u| Ulid::from_uuid(u).to_text().as_str().to_owned())
        .map_err(core_error)
}
