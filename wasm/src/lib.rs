//! wasm-bindgen binding of snowmint: conversion only (see docs/js-api.md).

use wasm_bindgen::prelude::*;

/// A monotonic ULID.
#[wasm_bindgen]
pub fn ulid() -> String {
    snowmint::new_ulid().unwrap().to_text().to_string()
}
