//! wasm-bindgen binding of snowmint for browsers and edge runtimes: it
//! implements the backend interface of `npm/src/backend.d.ts` (the same one
//! the napi-rs binding implements) and only converts between JS values and
//! core calls, like `node/`. The clock is the core's `MonotonicClock`, which
//! on this target reads `Date.now()` once and then `performance.now()`, so
//! a wall-clock change under the page never reaches the IDs; randomness is
//! the core's `PooledOsRng`, `crypto.getRandomValues` fetched 4 KiB at a
//! time. The build is budgeted in bytes (docs/browser.md, Size): nothing
//! here uses `format!`. A wasm instance is single-threaded: shared
//! state is `Rc`/`RefCell`, and the default generator is one per instance
//! (page or worker).

mod at;
mod convert;
mod decode;
mod snowflake;

// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

use js_sys::{Float64Array, Object, Reflect};
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;
use snowmint::{Error, TextKind};
use wasm_bindgen::prelude::*;

/// A JS `Error` with the stable `code` api.js maps to a public class.
fn js_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    set(&err, "code", code);
    err.into()
}

/// A core error as the JS error api.js expects (code + Display text).
fn core_error(e: impl Into<Error>) -> JsValue {
    let e = e.into();
    js_error(e.code(), &e.to_string())
}

/// Sets a property on a plain object (the objects are fresh, so it cannot fail).
fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

std::thread_local! {
    /// [`mint_bytes`]'s output, kept between calls (no allocation per run).
    static TEXT: core::cell::RefCell<Vec<u8>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// `count` new IDs' texts concatenated (each kind, named by its index in
/// the core's `TextKind::NAMES`, has a fixed width), as a view of ASCII
/// bytes in this module's memory that the caller decodes at once
/// (wasm-backend.js): a string built here costs a copy, an allocation and
/// a UTF-8 decode of its own. The report's `freshMs` as in `fill`, for the
/// ULID and v7 batches api.js times.
#[wasm_bindgen(js_name = mintBytes)]
pub fn mint_bytes(
    kind: f64,
    count: u32,
    timing: &Float64Array,
) -> Result<js_sys::Uint8Array, JsValue> {
    TEXT.with_borrow_mut(|text| {
        text.clear();
        let fresh = TextKind::from_index(kind)
            .and_then(|kind| snowmint::mint_text_bytes_fresh(kind, count as usize, text))
            .map_err(core_error)?;
        timing.set_index(snowmint::binding::Report::FRESH_MS as u32, fresh);
        // SAFETY: the view is read before this module runs again (and so
        // before its memory can grow or the buffer change).
        Ok(unsafe { js_sys::Uint8Array::view(text) })
    })
}

/// One TypeID with a monotonic UUIDv7 suffix.
#[wasm_bindgen]
pub fn typeid(prefix: &str) -> Result<String, JsValue> {
    snowmint::new_typeid(prefix)
        .map(|t| t.to_text().as_str().to_owned())
        .map_err(core_error)
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
