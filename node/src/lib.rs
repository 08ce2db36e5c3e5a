//! Node.js binding of snowmint (napi-rs): the backend that `npm/src/api.js`
//! builds the public API from (interface: `npm/src/backend.d.ts`). It only
//! converts: arguments in, one core call, results out. It also holds the
//! process-wide default Snowflake generator, a static, so every
//! `worker_thread` of the process mints from the same one (snowflake.rs).
//!
//! One file per concern, named as in the wasm binding where the concerns
//! match: generators and test clocks (`snowflake`), decoding (`decode`),
//! IDs at a given time and comparison (`at`), validation and bytes
//! (`convert`), and the Node-only parts: expiry words (`expiry`), lease
//! lock files (`lease`), block sequences (`sequence`) and the SQLite
//! extension's entry point (`sqlite`). This file keeps
//! the error conversion and the text kinds.
//!
//! Errors carry the core's `Error::code()` as the JS `code` and its Display
//! text as the message; a panic is caught and thrown as an ordinary Error.

use napi::bindgen_prelude::Float64ArraySlice;
use napi_derive::napi;
use snowmint::binding::Report;
use snowmint::{Error as CoreError, Kind, TextKind};

// Public: the test build registers no napi exports, so private ones would be dead code.
pub mod at;
pub mod convert;
pub mod decode;
pub mod expiry;
pub mod lease;
pub mod lease_machine;
pub mod sequence;
pub mod snowflake;
pub mod sqlite;

/// A JS error whose `code` is a stable snowmint code.
type Result<T> = napi::Result<T, &'static str>;

fn core_err(e: impl Into<CoreError>) -> napi::Error<&'static str> {
    let e = e.into();
    napi::Error::new(e.code(), e.to_string())
}

fn kind_arg(kind: Option<String>) -> Result<Option<Kind>> {
    kind.map(|k| Kind::from_name(&k))
        .transpose()
        .map_err(core_err)
}

/// The report's `EXPIRY_WORD_SET` entry: 1 if the run's expiry word is set
/// (the kernel clears it when the run expires), else 0.
fn report_expiry(timing: &mut [f64], expires: bool) {
    if let Some(t) = timing.get_mut(Report::EXPIRY_WORD_SET) {
        *t = f64::from(u8::from(expires));
    }
}

#[napi]
pub fn constants() -> String {
    snowmint::binding::constants_json()
}

/// The index of `name` in the core's name list `list`, or the core's refusal.
#[napi(catch_unwind)]
pub fn name_index(list: String, name: String) -> Result<u32> {
    snowmint::binding::name_index(&list, &name).map_err(core_err)
}

/// `count` new IDs' texts concatenated (each kind has a fixed width).
#[napi(catch_unwind)]
pub fn mint_text(
    kind: String,
    count: u32,
    mut timing: Float64ArraySlice<'_>,
    expiry_slot: Option<u32>,
) -> Result<String> {
    // SAFETY: as in `SnowflakeHandle::fill`.
    let timing = unsafe { timing.as_mut() };
    let mut out = String::new();
    let claim = expiry_slot.and_then(expiry::begin);
    let fresh = TextKind::from_name(&kind)
        .and_then(|kind| snowmint::mint_texts_fresh(kind, count as usize, &mut out))
        .map_err(core_err)?;
    if let Some(t) = timing.get_mut(Report::FRESH_MS) {
        *t = fresh;
    }
    // Texts carry milliseconds: fresh for `fresh` ms and one more.
    report_expiry(timing, claim.is_some_and(|c| expiry::set(c, fresh + 1.0)));
    Ok(out)
}

#[napi(catch_unwind)]
pub fn typeid(prefix: String) -> Result<String> {
    Ok(snowmint::new_typeid(&prefix)
        .map_err(core_err)?
        .to_text()
        .to_string())
}

#[napi(catch_unwind)]
pub fn ulid_to_uuid(text: String) -> Result<String> {
    let u = snowmint::ulid::Ulid::parse(&text).map_err(core_err)?;
    Ok(u.to_uuid().to_text().to_string())
}

#[napi(catch_unwind)]
pub fn uuid_to_ulid(text: String) -> Result<String> {
    let u = snowmint::uuid::Uuid::parse(&text).map_err(core_err)?;
    Ok(snowmint::ulid::Ulid::from_uuid(u).to_text().to_string())
}
